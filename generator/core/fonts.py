"""The fonts that ship with the tool, registered once, and glyph lookup for icons."""
from __future__ import annotations

from functools import lru_cache

from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.pens.transformPen import TransformPen
from fontTools.ttLib import TTFont as ToolsFont
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from .files import TOOL_FOLDER

# Nothing printed is smaller than this (points): the least a reader makes out on paper.
MIN_PRINTED_PT = 6


FONT_DIR = TOOL_FOLDER / "fonts"

# Family styles used by layouts -> (ReportLab name, file).
TEXT_FONTS = {
    "regular": ("Sans", "NotoSans-Regular.ttf"),
    "bold": ("Sans-Bold", "NotoSans-Bold.ttf"),
    "italic": ("Sans-Italic", "NotoSans-Italic.ttf"),
    "bolditalic": ("Sans-BoldItalic", "NotoSans-BoldItalic.ttf"),
}
# Icon glyphs come from the first of these fonts that has them.
SYMBOL_FONTS = [
    ("Symbols2", "NotoSansSymbols2-Regular.ttf"),
    ("Symbols", "NotoSansSymbols-Regular.ttf"),
    ("Math", "NotoSansMath-Regular.ttf"),
    ("Sans", "NotoSans-Regular.ttf"),
]

# Characters the text fonts lack, drawn from another shipped font (generator/layout/elements/text.py,
# the booklet's @font-face): the minus sign U+2212, which typography prints for negative numbers.
FALLBACK = {"\u2212": "Math"}

# Vertical metrics of Noto Sans as fractions of the font size, for placing lines in boxes.
ASCENT, DESCENT, LEADING = 0.93, 0.26, 1.18


@lru_cache(maxsize=None)
def register() -> None:
    """Register every shipped font with ReportLab (embedded and subset when used)."""
    for name, file in list(TEXT_FONTS.values()) + SYMBOL_FONTS:
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / file)))
    pdfmetrics.registerFontFamily("Sans", normal="Sans", bold="Sans-Bold",
                                  italic="Sans-Italic", boldItalic="Sans-BoldItalic")


def font_name(style: str) -> str:
    register()
    return TEXT_FONTS[style][0]


@lru_cache(maxsize=None)
def _cmap(file: str) -> frozenset[int]:
    font = ToolsFont(str(FONT_DIR / file), lazy=True)
    return frozenset(font.getBestCmap())


@lru_cache(maxsize=4096)
def symbol_font_for(glyph: str) -> str | None:
    """ReportLab font name that can draw every character of `glyph`, or None."""
    register()
    for name, file in SYMBOL_FONTS:
        if all(ord(ch) in _cmap(file) for ch in glyph):
            return name
    return None


def missing_glyphs(text: str, style: str = "regular") -> set[str]:
    """Characters of `text` that the text font cannot draw."""
    return set(_missing_glyphs(text, style))


@lru_cache(maxsize=16384)
def _missing_glyphs(text: str, style: str) -> frozenset[str]:
    # the shipped fonts never change: a text checked on every face of every edition is looked up once
    cmap = _cmap(TEXT_FONTS[style][1])
    return frozenset(ch for ch in text if not ch.isspace() and ord(ch) not in cmap and ch not in FALLBACK)


@lru_cache(maxsize=256)
def glyph_svg(glyph: str, colour: str = "#000000") -> bytes:
    """An SVG of `glyph` in the symbol font that has it, from its baseline to the font's ascent
    (an icon stands on the baseline), painted in `colour`: a glyph icon as a picture, for a page
    that has no such font (the booklet)."""
    name = symbol_font_for(glyph)
    font = _tools_font(dict(SYMBOL_FONTS)[name])
    glyphs, cmap = font.getGlyphSet(), font.getBestCmap()
    ascent = font["OS/2"].sTypoAscender
    paths, left = [], 0
    for ch in glyph:
        drawn = glyphs[cmap[ord(ch)]]
        pen = SVGPathPen(glyphs)
        drawn.draw(TransformPen(pen, (1, 0, 0, -1, left, ascent)))
        paths.append(pen.getCommands())
        left += drawn.width
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {left} {ascent}" width="{left}" height="{ascent}">'
            f'<path fill="{colour}" d="{" ".join(paths)}"/></svg>').encode("ascii")


@lru_cache(maxsize=None)
def _tools_font(file: str):
    return ToolsFont(str(FONT_DIR / file), lazy=True)
