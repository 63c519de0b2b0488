"""Faces laid out from layout data (`layouts.yaml`) and drawn: data decides, code draws.

Coordinates are millimetres from the face's bottom-left corner. `place_face` fits every element
(text shrinks in half-point steps down to `min_size`, pictures load) and returns what it found
wrong instead of raising; `draw_placed` only draws. Each element type is a module of
generator/layout/elements.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.units import mm

from ..core.colour import RGB, Palette
from ..layout.contrast import Ink, Paint, contrast_problems, turned
from ..layout.elements import DrawContext, Placed, element_type, rotated_box
from ..layout.elements.icon import draw_glyph
from ..layout.elements.text import FittedText, TextDoesNotFit, fit_text


__all__ = ["FittedText", "PlacedFace", "TextDoesNotFit", "contrast_of", "draw_face", "draw_glyph",
           "draw_bleed", "draw_placed", "fit_text", "place_face", "text_extents"]


@dataclass(frozen=True)
class PlacedFace:
    """A face ready to draw: its size, its values and every element fitted, in drawing order."""

    size_mm: tuple[float, float]
    values: dict
    elements: tuple[Placed, ...]

    @property
    def problems(self) -> list[tuple[str, str]]:
        """(field, reason) of everything that went wrong while fitting, in layout order."""
        return [problem for placed in self.elements for problem in placed.problems]


def place_face(layout: dict, values: dict, folder: Path | None = None) -> PlacedFace:
    values = {**layout.get("defaults", {}), **values}
    placed = tuple(element_type(element).place(element, values, folder) for element in layout["elements"])
    return PlacedFace(tuple(layout["size_mm"]), values, placed)


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


def text_extents(face: PlacedFace) -> list[tuple[str, tuple[float, float, float, float]]]:
    """(field, (x0, y0, x1, y1) in mm) of every text and icon a face prints, turned as drawn:
    what a safe-zone check measures against the trim."""
    extents = []
    for placed in face.elements:
        kind = placed.kind
        turn, pivot = placed.spec.get("rotate", 0), kind.pivot(placed.spec)
        extents += [(field, rotated_box(box, turn, pivot)) for field, box in kind.extents(placed, face.values)]
    return extents


def face_layers(face: PlacedFace) -> list[tuple[Placed, Paint | Ink]]:
    """What each element lays down (generator/layout/contrast), turned as drawn, in drawing order."""
    found = []
    for placed in face.elements:
        kind = placed.kind
        turn, pivot = placed.spec.get("rotate", 0), kind.pivot(placed.spec)
        for layer in kind.layers(placed, face.values):
            if turn and isinstance(layer, Ink):
                layer = Ink(layer.field, layer.colours, turned(layer.points, turn, pivot), layer.text)
            elif turn:
                layer = Paint(layer.colour, lambda x, y, inside=layer.contains, turn=turn, pivot=pivot:
                              inside(*turned(((x, y),), -turn, pivot)[0]))
            found.append((placed, layer))
    return found


def contrast_of(face: PlacedFace) -> list[tuple[Placed, str, str]]:
    """(element, field, message) of every text or mark of the face that does not stand out
    from what is under it."""
    laid = face_layers(face)
    layers = [layer for _, layer in laid]
    return [(laid[index][0], layers[index].field, message) for index, message in contrast_problems(layers)]
