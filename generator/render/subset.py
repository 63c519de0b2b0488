"""Font subsets for the booklets, shared within a build and made faster without HarfBuzz.

WeasyPrint subsets every font of every booklet it writes: with HarfBuzz's subsetter when
libharfbuzz-subset is there, else with fontTools, several times slower. Two things here, both
giving the same bytes as WeasyPrint alone:

- a subset is kept for the rest of the process, keyed by the font's bytes and everything
  WeasyPrint subsets by (the glyph ids, hinting, whether a .notdef outline is needed, which
  subsetter), so booklets that print the same glyphs of a font (two editions in one locale)
  subset it once;
- fontTools is handed the font without its GSUB and GPOS tables, which WeasyPrint has it drop
  anyway: fontTools reads both tables whole before it drops them, most of its time on a Noto
  font. A font with a `kern` table keeps the slow way (fontTools decides about `kern` by
  whether GPOS is there).
"""
from __future__ import annotations

import hashlib
import io
from collections import OrderedDict

# A build's booklets use ten shipped fonts in a few locales: this holds them all.
MAX_SUBSETS = 256
# Tables WeasyPrint's fontTools subsetting drops, that fontTools would read before dropping.
DROPPED_LAYOUT = ("GSUB", "GPOS")

_subsets: OrderedDict[tuple, bytes] = OrderedDict()
_installed: dict[str, object] = {}
stats = {"made": 0, "shared": 0}


def harfbuzz_subsetter() -> bool:
    """Whether WeasyPrint subsets with HarfBuzz (libharfbuzz-subset present and recent enough)."""
    from weasyprint.pdf import fonts as weasy_fonts
    return bool(weasy_fonts.harfbuzz_subset) and bool(weasy_fonts.harfbuzz.hb_version_atleast(4, 1, 0))


def subset_key(font, to_unicode, hinting) -> tuple:
    return (hashlib.sha256(font.file_content).digest(), font.index, tuple(sorted(to_unicode)),
            bool(hinting), bool(font.missing), harfbuzz_subsetter())


def shared_subset(font, to_unicode, hinting) -> None:
    """Font.subset, done once per font and glyph set in a process."""
    if not to_unicode:
        return
    key = subset_key(font, to_unicode, hinting)
    found = _subsets.get(key)
    if found is not None:
        _subsets.move_to_end(key)
        stats["shared"] += 1
        font.file_content = found
        return
    _installed["subset"](font, to_unicode, hinting)
    stats["made"] += 1
    _subsets[key] = font.file_content
    while len(_subsets) > MAX_SUBSETS:
        _subsets.popitem(last=False)


def fonttools_subset(font, to_unicode, hinting) -> None:
    """WeasyPrint's fontTools subsetting, with the layout tables it drops taken out first."""
    from fontTools import subset
    from fontTools.ttLib import TTFont, TTLibError
    from weasyprint.logger import LOGGER
    try:
        ttfont = TTFont(io.BytesIO(font.file_content), fontNumber=font.index)
    except TTLibError:
        return _installed["fonttools"](font, to_unicode, hinting)
    if "kern" in ttfont:
        return _installed["fonttools"](font, to_unicode, hinting)
    options = subset.Options(
        retain_gids=True, passthrough_tables=True, ignore_missing_glyphs=True,
        hinting=hinting, desubroutinize=True, notdef_outline=bool(font.missing))
    options.drop_tables += ["GSUB", "GPOS", "SVG"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(gids=to_unicode)
    try:
        for tag in DROPPED_LAYOUT:
            if tag in ttfont:
                del ttfont[tag]
        subsetter.subset(ttfont)
    except TTLibError as exception:
        LOGGER.warning('Unable to subset "%s" with fontTools', font.family)
        LOGGER.debug("Original exception:", exc_info=exception)
    else:
        optimized = io.BytesIO()
        ttfont.save(optimized)
        font.file_content = optimized.getvalue()


def install() -> None:
    """Put both in WeasyPrint's Font, once; `uninstall` puts WeasyPrint's own back."""
    from weasyprint.pdf.fonts import Font
    if _installed:
        return
    _installed.update(subset=Font.subset, fonttools=Font._fonttools_subset)
    Font.subset = shared_subset
    Font._fonttools_subset = fonttools_subset


def uninstall() -> None:
    from weasyprint.pdf.fonts import Font
    if _installed:
        Font.subset = _installed.pop("subset")
        Font._fonttools_subset = _installed.pop("fonttools")


def clear() -> None:
    _subsets.clear()
    stats.update(made=0, shared=0)
