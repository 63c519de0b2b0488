"""A symbol from the shipped symbol fonts, centred on a point: a fixed glyph or a field's."""
from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

from ...core import fonts
from .base import ElementType, Placed


def glyph_of(element: dict, values: dict) -> str:
    return element.get("glyph") or values.get(element.get("field", ""), "")


@dataclass(frozen=True)
class PlacedGlyph:
    """A glyph where it is drawn: its symbol font and size, its baseline's left end in points."""

    glyph: str
    font: str
    size: float
    x: float
    y: float


def placed_glyph(glyph: str, centre, size: float) -> PlacedGlyph | None:
    """The glyph of `size` points centred on `centre` (mm); None when no shipped font has it."""
    font = fonts.symbol_font_for(glyph)
    if font is None:
        return None
    width = stringWidth(glyph, font, size)
    cx, cy = centre
    # Centre on the glyph's visual middle (about 0.35 em above the baseline).
    return PlacedGlyph(glyph, font, size, cx * mm - width / 2, cy * mm - size * 0.35)


class Icon(ElementType):
    name = "icon"
    draws_text = True           # a glyph of a font
    required = ("centre", "size")
    extra_schema = {"oneOf": [{"required": ["field"]}, {"required": ["glyph"]}]}
    properties = {
        "field": {"$ref": "common#/$defs/name"},
        "glyph": {"type": "string", "maxLength": 8},
        "centre": {"$ref": "layouts#/$defs/point"},
        "size": {"type": "number", "minimum": 2, "maximum": 400},
        "colour": {"$ref": "layouts#/$defs/colour_ref"},
    }

    def place(self, element, values, folder):
        """A glyph no shipped font has, or one outside the BMP, is a problem of the face it is on."""
        glyph = glyph_of(element, values)
        return Placed(element, placed_glyph(glyph, element["centre"], element["size"]) if glyph else None,
                      tuple(self.check(element, values)))

    def extents(self, placed, values):
        element = placed.spec
        glyph = glyph_of(element, values)
        font = fonts.symbol_font_for(glyph) if glyph else None
        if not font:
            return []
        size = element["size"]
        width = stringWidth(glyph, font, size) / mm
        cx, cy = element["centre"]
        baseline = cy - size * 0.35 / mm
        return [(element.get("field", "glyph"), (cx - width / 2, baseline - fonts.DESCENT * size / mm,
                                                 cx + width / 2, baseline + fonts.ASCENT * size / mm))]

    def check(self, element, values):
        problem = icon_glyph_problem(glyph_of(element, values))
        return [(element.get("field", "glyph"), problem)] if problem else []


def icon_glyph_problem(glyph: str) -> str | None:
    """Why an icon glyph cannot be printed (on a face, a token or a board), or None."""
    if any(ord(ch) > 0xFFFF for ch in glyph):
        # ReportLab writes such characters into the PDF's text map as invalid hex, so
        # copying or searching the text breaks: keep icons in the BMP.
        return f"icon {glyph!r} is outside the Basic Multilingual Plane (U+0000–U+FFFF)"
    if glyph and fonts.symbol_font_for(glyph) is None:
        return f"no shipped font has the icon glyph {glyph!r}"
    return None


ELEMENT = Icon()
