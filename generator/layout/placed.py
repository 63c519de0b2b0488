"""Faces placed from layout data (`layouts.yaml`): every element fitted to its values, nothing drawn.

Coordinates are millimetres from the face's bottom-left corner. `place_face` fits every element
(text shrinks in half-point steps down to `min_size`, pictures load) and returns what it found
wrong instead of raising. What the placed face prints (its text extents, what each element lays
down for the contrast check) is read here; generator/render/faces.py draws it.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .contrast import Ink, Paint, contrast_problems, turned
from .elements import Placed, element_type, rotated_box


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
