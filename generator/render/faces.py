"""Placed faces drawn: data decides, code draws.

`draw_placed` only draws what generator/layout/placed.py fitted. Each element type is a module
of generator/layout/elements.
"""
from __future__ import annotations

from pathlib import Path

from reportlab.lib.units import mm

from ..core.colour import RGB, Palette
from ..layout.elements import DrawContext
from ..layout.elements.icon import draw_glyph
from ..layout.elements.text import FittedText, TextDoesNotFit, fit_text
from ..layout.placed import PlacedFace, contrast_of, place_face, text_extents


__all__ = ["FittedText", "PlacedFace", "TextDoesNotFit", "contrast_of", "draw_face", "draw_glyph",
           "draw_bleed", "draw_placed", "fit_text", "place_face", "text_extents"]


def draw_placed(canvas, face: PlacedFace, bleed_mm: float = 0.0, palette: Palette = RGB, *, text: bool = True) -> None:
    """Draw a placed face with its bottom-left trim corner at the canvas origin; backgrounds
    marked `bleed` run `bleed_mm` past every trim edge they touch. Without `text`, the
    elements that draw text are left out."""
    context = DrawContext(face.size_mm, bleed_mm, palette)
    for placed in face.elements:
        kind = placed.kind
        if not text and kind.draws_text:
            continue
        turn = placed.spec.get("rotate", 0)
        if turn:
            # Turned about its own centre: the element stays where it is and reads from
            # another side of the table (a card's lower corner is half a turn).
            px, py = kind.pivot(placed.spec)
            canvas.saveState()
            canvas.translate(px * mm, py * mm)
            canvas.rotate(turn)
            canvas.translate(-px * mm, -py * mm)
        kind.draw(canvas, placed, face.values, context)
        if turn:
            canvas.restoreState()


def draw_bleed(canvas, face: PlacedFace, bleed_mm: float, palette: Palette = RGB) -> None:
    """Only what of a face runs on past its trim (its backgrounds marked `bleed`), `bleed_mm`
    past every edge they touch: the strip a home sheet prints around its outer cards. No text,
    so nothing is printed or extracted twice."""
    context = DrawContext(face.size_mm, bleed_mm, palette)
    for placed in face.elements:
        if not placed.spec.get("bleed"):
            continue
        turn = placed.spec.get("rotate", 0)
        if turn:
            px, py = placed.kind.pivot(placed.spec)
            canvas.saveState()
            canvas.translate(px * mm, py * mm)
            canvas.rotate(turn)
            canvas.translate(-px * mm, -py * mm)
        placed.kind.draw(canvas, placed, face.values, context)
        if turn:
            canvas.restoreState()


def draw_face(canvas, layout: dict, values: dict, bleed_mm: float = 0.0, palette: Palette = RGB,
              folder: Path | None = None) -> None:
    draw_placed(canvas, place_face(layout, values, folder), bleed_mm, palette)
