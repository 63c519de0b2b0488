"""A symbol drawn where generator/layout/elements/icon.py placed it."""
from __future__ import annotations

from ...core.colour import RGB, Palette
from ...layout.elements.base import resolve_colour
from ...layout.elements.icon import PlacedGlyph


ELEMENT_TYPE = "icon"


def draw_placed_glyph(canvas, glyph: PlacedGlyph, colour: str, palette: Palette = RGB) -> None:
    canvas.setFillColor(palette.colour(colour))
    canvas.setFont(glyph.font, glyph.size)
    canvas.drawString(glyph.x, glyph.y, glyph.glyph)


def draw(canvas, placed, values, context):
    if placed.fitted is not None:
        draw_placed_glyph(canvas, placed.fitted,
                          resolve_colour(placed.spec.get("colour", "#000000"), values) or "#000000", context.palette)
