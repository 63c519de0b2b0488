"""Placed faces drawn: data decides, code draws.

`draw_placed` only draws what generator/layout/placed.py placed: each element by its type's
drawing in generator/render/elements, which measures nothing again.
"""
from __future__ import annotations

from reportlab.lib.units import mm

from ..core.colour import RGB, Palette
from ..layout.elements import Placed
from ..layout.placed import PlacedFace, contrast_of, text_extents
from .elements import DrawContext, drawing_of


__all__ = ["PlacedFace", "contrast_of", "draw_bleed", "draw_placed", "text_extents"]


def draw_placed(canvas, face: PlacedFace, bleed_mm: float = 0.0, palette: Palette = RGB, *, text: bool = True) -> None:
    """Draw a placed face with its bottom-left trim corner at the canvas origin; backgrounds
    marked `bleed` run `bleed_mm` past every trim edge they touch. Without `text`, the
    elements that draw text are left out."""
    context = DrawContext(face.size_mm, bleed_mm, palette)
    for placed in face.elements:
        if not text and placed.kind.draws_text:
            continue
        _draw_element(canvas, placed, face.values, context)


def draw_bleed(canvas, face: PlacedFace, bleed_mm: float, palette: Palette = RGB) -> None:
    """Only what of a face runs on past its trim (its backgrounds marked `bleed`), `bleed_mm`
    past every edge they touch: the strip a home sheet prints around its outer cards. No text,
    so nothing is printed or extracted twice."""
    context = DrawContext(face.size_mm, bleed_mm, palette)
    for placed in face.elements:
        if placed.spec.get("bleed"):
            _draw_element(canvas, placed, face.values, context)


def _draw_element(canvas, placed: Placed, values: dict, context: DrawContext) -> None:
    turn = placed.spec.get("rotate", 0)
    if turn:
        # Turned about its own centre: the element stays where it is and reads from
        # another side of the table (a card's lower corner is half a turn).
        px, py = placed.kind.pivot(placed.spec)
        canvas.saveState()
        canvas.translate(px * mm, py * mm)
        canvas.rotate(turn)
        canvas.translate(-px * mm, -py * mm)
    drawing_of(placed)(canvas, placed, values, context)
    if turn:
        canvas.restoreState()
