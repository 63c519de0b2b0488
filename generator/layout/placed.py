"""Faces placed from layout data (`layouts.yaml`): every element fitted to its values, nothing drawn.

Coordinates are millimetres from the face's bottom-left corner. `place_face` fits every element
(text shrinks in half-point steps down to `min_size`, pictures load) and returns what it found
wrong instead of raising. What the placed face prints (its text extents, what each element lays
down for the contrast check) is read here; generator/render/faces.py draws it.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfbase.pdfmetrics import stringWidth

from ..core import fonts
from .contrast import Ink, Paint, contrast_problems, turned
from .elements import Placed, element_type, rotated_box
from .elements.base import COLOUR_KEYS, resolve_colour
from .elements.icon import icon_glyph_problem
from .elements.image import natural_size, picture_in, pictures_read_once
from .inline_icons import IconTable, InlineIcon, icons_in_use


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


def place_face(layout: dict, values: dict, folder: Path | None = None, icons=None) -> PlacedFace:
    """The face's elements placed; its texts may hold the `icons` (load.icons.IconSpec by name)
    its game declares."""
    values = {**layout.get("defaults", {}), **values}
    with icons_in_use(icon_table(icons, folder) if icons else None):
        placed = tuple(_place(element, values, folder) for element in layout["elements"])
    return PlacedFace(tuple(layout["size_mm"]), values, placed)


def icon_table(icons: dict, folder: Path | None) -> IconTable:
    """The declared icons loaded: a glyph with its symbol font, a picture read from the game's
    folder as an image element's is; or why each cannot be drawn."""
    loaded = {}
    for name, spec in icons.items():
        if spec.glyph:
            problem = icon_glyph_problem(spec.glyph)
            font = None if problem else fonts.symbol_font_for(spec.glyph)
            # drawn at the font size its square's height gives, as wide as the glyph is then
            loaded[name] = problem or InlineIcon(name, "glyph", spec.glyph, font,
                                                 (stringWidth(spec.glyph, font, 1) or 1.0, 1.0))
            continue
        if folder is None:
            loaded[name] = "needs the game's folder"
            continue
        picture, reason = picture_in(folder, spec.file)
        loaded[name] = reason or InlineIcon(name, picture[0], picture[1], natural=natural_size(picture))
    return IconTable(loaded)


# While `placed_once` holds, by element: (the element, the names of the values it reads,
# what it placed for each reading of them).
_placements: ContextVar[dict | None] = ContextVar("placements", default=None)
# and by the elements of a face and the colours they resolve to: (those elements, what contrast_of found)
_contrasts: ContextVar[dict | None] = ContextVar("contrasts", default=None)


@contextmanager
def placed_once():
    """Within it, an element is placed once for the values it reads (its `fields`), and each
    picture once: checking a game lays the same card out in every edition, its fronts again
    and again with a count or an edition's name that most elements do not print. Within an
    outer one (a build's, that its checks run in), the outer's placements serve."""
    if _placements.get() is not None:
        yield
        return
    token, contrasts = _placements.set({}), _contrasts.set({})
    try:
        with pictures_read_once():
            yield
    finally:
        _contrasts.reset(contrasts)
        _placements.reset(token)


def _place(element: dict, values: dict, folder: Path | None) -> Placed:
    kind = element_type(element)
    placements = _placements.get()
    if placements is None:
        return kind.place(element, values, folder)
    known = placements.get(id(element))
    if known is None or known[0] is not element:
        known = placements[id(element)] = (element, tuple(sorted(kind.fields(element))), {})
    read = (folder,) + tuple((type(values.get(name)), values.get(name)) for name in known[1])
    try:
        placed = known[2].get(read)
    except TypeError:           # a value that cannot be a key: placed afresh
        return kind.place(element, values, folder)
    if placed is None:
        placed = known[2][read] = kind.place(element, values, folder)
    return placed


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
    """What each element lays down (generator/layout/contrast), turned as drawn, in drawing order.
    A text that does not fit its box (or has a character no font draws) lays down no ink to
    measure: its lines would stand outside the box, on what is not under it when it fits, and
    its own problem already says what to change."""
    found = []
    for placed in face.elements:
        kind = placed.kind
        turn, pivot = placed.spec.get("rotate", 0), kind.pivot(placed.spec)
        unplaced = {field for field, _ in placed.problems}
        for layer in kind.layers(placed, face.values):
            if isinstance(layer, Ink) and layer.field in unplaced:
                continue
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
    contrasts = _contrasts.get()
    if contrasts is None:
        return _contrast_of(face)
    # What the elements lay down follows from them and the colours their values give them.
    colours = tuple(resolve_colour(value, face.values) if isinstance(value, str) else value
                    for placed in face.elements for value in map(placed.spec.get, COLOUR_KEYS))
    key = (tuple(map(id, face.elements)), colours)
    try:
        found = contrasts.get(key)
    except TypeError:
        return _contrast_of(face)
    if found is None or any(a is not b for a, b in zip(found[0], face.elements)):
        found = contrasts[key] = (face.elements, _contrast_of(face))
    return list(found[1])


def _contrast_of(face: PlacedFace) -> list[tuple[Placed, str, str]]:
    laid = face_layers(face)
    layers = [layer for _, layer in laid]
    return [(laid[index][0], layers[index].field, message) for index, message in contrast_problems(layers)]
