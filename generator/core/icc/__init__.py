"""The press profiles: ICC output profiles built from published press characterisations.

A print profile (templates/profiles/*.yaml) names the characterisation its shop prints to
(`colour: {characterisation: FOGRA39}`); layout colours are separated through that profile
with littleCMS (generator.core.colour) and the same profile is embedded in the file's PDF/X
OutputIntent, named as the ICC's characterisation registry names it. How each profile was made
and from which data: LICENSE.md and make_profiles.sh beside this file.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path


FOLDER = Path(__file__).resolve().parent
REGISTRY = "http://www.color.org"      # the ICC's registry of characterisation data


@dataclass(frozen=True)
class Press:
    """One printing condition: its registered name, the profile made for it and its ink limit."""

    name: str          # OutputConditionIdentifier, as in the ICC characterisation registry
    file: str          # the profile in this folder
    condition: str     # OutputCondition: the printing condition in words
    ink_limit: float   # total ink (C+M+Y+K, %) the profile's separation keeps within
    data: str          # the characterisation data the profile was made from

    @property
    def path(self) -> Path:
        return FOLDER / self.file

    def profile_bytes(self) -> bytes:
        return _read(self.path)

    @property
    def description(self) -> str:
        from PIL import ImageCms
        return ImageCms.getProfileDescription(ImageCms.getOpenProfile(str(self.path))).strip()


PRESSES = {press.name: press for press in (
    Press("FOGRA39", "pnp-FOGRA39-300.icc",
          "Offset printing, ISO 12647-2:2004/Amd 1, OFCOM, paper type 1 or 2 (coated art, 115 g/m2), "
          "tone value increase curves A (CMY) and B (K)", 300, "FOGRA39L.ti3 (Fogra)"),
    Press("CGATS TR 003", "pnp-CGATS-TR003-240.icc",
          "SWOP (publication offset) on grade 3 coated paper, ANSI CGATS/SWOP TR 003-2007",
          240, "TR003.ti3 (ANSI CGATS/SWOP TR 003-2007)"),
)}


def press(name: str) -> Press:
    try:
        return PRESSES[name]
    except KeyError:
        raise KeyError(f"no press characterisation {name!r} (shipped: {', '.join(PRESSES)})") from None


@lru_cache(maxsize=None)
def _read(path: Path) -> bytes:
    return path.read_bytes()
