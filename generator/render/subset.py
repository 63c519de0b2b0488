"""Font subsets for the booklets, reports and print-first pages: HarfBuzz's subsetter on every
machine, each subset made once in a process.

WeasyPrint subsets every font of every PDF it writes: with HarfBuzz's subsetter when the system
has libharfbuzz-subset, else with fontTools, thirty times slower and with larger files, so the
same booklet came out in other bytes from one machine to the next. Here WeasyPrint's `Font.subset`
is replaced by the same two HarfBuzz passes it makes (the flags and dropped tables of its
`_harfbuzz_subset`), through uharfbuzz, which ships its own HarfBuzz: one subsetter, one version,
wherever the tool is installed. A font HarfBuzz cannot subset is kept whole, as WeasyPrint does.

A subset is kept for the rest of the process, keyed by the font's bytes and everything it is
made from (the glyph ids, hinting, whether a .notdef outline is needed), so documents that print
the same glyphs of a font (two editions in one locale, a sheet's A4 and Letter pages) subset it
once.
"""
from __future__ import annotations

import hashlib
from collections import OrderedDict

# A build's documents use ten shipped fonts in a few locales: this holds them all.
MAX_SUBSETS = 256
# The tables WeasyPrint has HarfBuzz drop: layout and bitmap tables a PDF does not use.
DROPPED_TABLES = (b"BASE", b"DSIG", b"EBDT", b"EBLC", b"EBSC", b"GPOS", b"GSUB", b"JSTF", b"LTSH",
                  b"PCLT", b"SVG ")

_subsets: OrderedDict[tuple, bytes] = OrderedDict()
_installed: dict[str, object] = {}
stats = {"made": 0, "shared": 0}


def subset_key(font, to_unicode, hinting) -> tuple:
    return (hashlib.sha256(font.file_content).digest(), font.index, tuple(sorted(to_unicode)),
            bool(hinting), bool(font.missing))


def shared_subset(font, to_unicode, hinting) -> None:
    """Font.subset: HarfBuzz's subset, made once per font and glyph set in a process."""
    if not to_unicode:
        return
    key = subset_key(font, to_unicode, hinting)
    found = _subsets.get(key)
    if found is not None:
        _subsets.move_to_end(key)
        stats["shared"] += 1
        font.file_content = found
        return
    harfbuzz_subset(font, to_unicode, hinting)
    stats["made"] += 1
    _subsets[key] = font.file_content
    while len(_subsets) > MAX_SUBSETS:
        _subsets.popitem(last=False)


def harfbuzz_subset(font, to_unicode, hinting) -> None:
    """WeasyPrint's `_harfbuzz_subset` through uharfbuzz: the glyphs used, their ids kept, then
    the glyphs after the last one used dropped (and hinting unless asked for)."""
    import uharfbuzz as hb
    from weasyprint.logger import LOGGER
    kept = hb.SubsetFlags.PASSTHROUGH_UNRECOGNIZED | hb.SubsetFlags.DESUBROUTINIZE
    if font.missing:
        kept |= hb.SubsetFlags.NOTDEF_OUTLINE
    wanted = hb.SubsetInput()
    wanted.glyph_set.update(sorted(to_unicode))
    wanted.flags = kept | hb.SubsetFlags.RETAIN_GIDS
    wanted.sets(hb.SubsetInputSets.DROP_TABLE_TAG).update(int.from_bytes(tag, "big") for tag in DROPPED_TABLES)
    try:
        face = hb.subset(hb.Face(hb.Blob(font.file_content), font.index), wanted)
        wanted.glyph_set.update(range(max(to_unicode) + 1))
        wanted.flags = kept | (hb.SubsetFlags.DEFAULT if hinting else hb.SubsetFlags.NO_HINTING)
        data = hb.subset(face, wanted).blob.data
    except RuntimeError:                 # HarfBuzz refused the font or found no glyph in it
        data = b""
    if data:
        font.file_content = data
    else:
        LOGGER.warning('Unable to subset "%s" with HarfBuzz', font.family)


def install() -> None:
    """Put shared_subset in WeasyPrint's Font, once; `uninstall` puts WeasyPrint's own back."""
    from weasyprint.pdf.fonts import Font
    if _installed:
        return
    _installed.update(subset=Font.subset)
    Font.subset = shared_subset


def uninstall() -> None:
    from weasyprint.pdf.fonts import Font
    if _installed:
        Font.subset = _installed.pop("subset")


def clear() -> None:
    _subsets.clear()
    stats.update(made=0, shared=0)
