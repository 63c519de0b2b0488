#!/bin/sh
# Remake the press profiles in this folder from the characterisation data that Debian's
# icc-profiles-free ships (Zlib licence), with ArgyllCMS's colprof:
#
#   apt-get install icc-profiles-free argyll
#   sh generator/core/icc/make_profiles.sh
#
# The project only reads the .icc files; neither package is needed to build games.
# colprof stamps the creation time in each profile's header, so a remade profile differs from
# the shipped one in those bytes (and, slightly, in its tables if argyll's version differs).
#
# Each profile: an ICC v2 output profile with Lab A2B/B2A cLUTs (medium quality), a medium
# grey-component replacement (-kp 0 .1 1 1 .6: no K in the lightest tenth, then K rising on a
# concave curve to full black, so mid tones keep most of their C, M and Y as ISO Coated v2 and
# SWOP separations do, rather than argyll's default straight ramp that puts dark colours mostly
# on K), the total ink limit of the printing condition, perceptual tables gamut-mapped from sRGB (the
# colour space of every layout colour), viewed in a practical print environment.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
DATA=${DATA:-/usr/share/color/icc}
SRGB=${SRGB:-$DATA/sRGB.icc}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

make() {  # make <ti3 basename> <output .icc> <total ink %> <description> <source>
    tr -d '\r' < "$DATA/$1.ti3" > "$WORK/$1.ti3"   # some of the files have DOS line ends
    (cd "$WORK" && colprof -qm -kp 0 0.1 1.0 1.0 0.6 -l"$3" -nc -S "$SRGB" -cmt -dpp \
        -D "$4" -C "Made by pnp with ArgyllCMS colprof from $5 (Zlib licence, see LICENSE.md)" \
        -O "$2" "$1")
    cp "$WORK/$2" "$HERE/$2"
    echo "wrote $HERE/$2"
}

# eu-3mm: offset on coated paper, ISO 12647-2 (FOGRA39), 300 % total ink.
make FOGRA39L pnp-FOGRA39-300.icc 300 "pnp FOGRA39 (ISO 12647-2 coated, 300 % TAC)" \
    "FOGRA39L.ti3 (Fogra, www.fogra.org; packaged by Kai-Uwe Behrmann)"
# drivethrucards: SWOP coated (CGATS TR 003, grade 3 coated), the shop's 240 % total ink.
make TR003 pnp-CGATS-TR003-240.icc 240 "pnp CGATS TR 003 (SWOP coated #3, 240 % TAC)" \
    "TR003.ti3 (ANSI CGATS/SWOP TR 003-2007)"
