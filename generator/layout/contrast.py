"""Contrast of what is printed against what is under it (WCAG 2.x relative luminance).

Whatever a kind lays out (a face's elements, a token, a board's spaces) is described in drawing
order as `Paint` (an area of one colour that later ink may lie on) and `Ink` (text, or a mark a
player must see: a hole, a ring, an icon), each with the points where it lies. One check reads
every kind: at each point of an ink, the paint last laid there (the paper where none is) is
what it is read against. Text needs 4.5:1 (WCAG 1.4.3), a mark 3:1 (WCAG 1.4.11); a mark drawn
in several colours (a hole's fill and outline) shows when any one of them does.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from ..core.colour import luminance


TEXT_RATIO = 4.5
MARK_RATIO = 3.0
PAPER = "#FFFFFF"
# The inks a token's or a side's text takes when the data gives none: light on dark, dark on light.
LIGHT_INK, DARK_INK = "#FFFFFF", "#000000"


@lru_cache(maxsize=4096)
def ratio(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def ink_on(colour: str) -> str:
    """White where it reads as text on `colour` (4.5:1), black otherwise: light on dark, dark on light."""
    return LIGHT_INK if ratio(LIGHT_INK, colour) >= TEXT_RATIO else DARK_INK


@dataclass(frozen=True)
class Paint:
    """An area of `colour` (None: a picture, whose colour is not known) that holds `contains(x, y)`
    (a `Region`, or any test of a point)."""

    colour: str | None
    contains: Callable[[float, float], bool]


@dataclass(frozen=True)
class Ink:
    """Text (`text`) or a mark in `colours` (any one showing is enough) lying at `points` (mm);
    `field` names it in a problem."""

    field: str
    colours: tuple[str, ...]
    points: tuple[tuple[float, float], ...]
    text: bool = True


class Region:
    """Where a paint lies: a test of a point, and the box round it (x0, y0, x1, y1) that lets
    the check pass over paints far from an ink without testing them."""

    __slots__ = ("test", "box")

    def __init__(self, test: Callable[[float, float], bool], box: tuple[float, float, float, float]):
        self.test, self.box = test, box

    def __call__(self, x: float, y: float) -> bool:
        return self.test(x, y)


def in_box(x0: float, y0: float, w: float, h: float) -> Region:
    return Region(lambda x, y: x0 - 1e-6 <= x <= x0 + w + 1e-6 and y0 - 1e-6 <= y <= y0 + h + 1e-6,
                  (x0, y0, x0 + w, y0 + h))


def in_disc(cx: float, cy: float, radius: float) -> Region:
    return Region(lambda x, y: math.hypot(x - cx, y - cy) <= radius + 1e-6,
                  (cx - radius, cy - radius, cx + radius, cy + radius))


def _on_segment(x: float, y: float, a, b) -> bool:
    (ax, ay), (bx, by) = a, b
    length = math.hypot(bx - ax, by - ay)
    if not length:
        return math.hypot(x - ax, y - ay) <= 1e-6
    along = ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / length
    across = abs((x - ax) * (by - ay) - (y - ay) * (bx - ax)) / length
    return -1e-6 <= along <= length + 1e-6 and across <= 1e-6


def in_polygon(points) -> Region:
    """Even-odd test: the point is inside when a ray from it crosses the outline an odd number
    of times; a point on the outline (where two strips meet) is inside."""
    corners = [tuple(p) for p in points]

    edges = list(zip(corners, corners[1:] + corners[:1]))
    # Round each edge, wider than the 1e-6 a point on it may be off: a point outside cannot be on it.
    near = [(min(ax, bx) - 1e-5, max(ax, bx) + 1e-5, min(ay, by) - 1e-5, max(ay, by) + 1e-5)
            for (ax, ay), (bx, by) in edges]

    def contains(x: float, y: float) -> bool:
        inside = False
        for ((ax, ay), (bx, by)), (left, right, low, high) in zip(edges, near):
            if left <= x <= right and low <= y <= high and _on_segment(x, y, (ax, ay), (bx, by)):
                return True
            if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
                inside = not inside
        return inside
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    return Region(contains, (min(xs), min(ys), max(xs), max(ys)))


def box_points(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    """Where a line of text lies: its box's corners (pulled in a little: the glyphs' edges, not
    the box's), middles and centre."""
    dx, dy = (x1 - x0) * 0.08, (y1 - y0) * 0.2
    xs, ys = (x0 + dx, (x0 + x1) / 2, x1 - dx), (y0 + dy, (y0 + y1) / 2, y1 - dy)
    return tuple((x, y) for x in xs for y in ys)


def circle_points(cx: float, cy: float, radius: float, count: int = 16) -> tuple[tuple[float, float], ...]:
    return tuple((cx + radius * math.cos(2 * math.pi * i / count), cy + radius * math.sin(2 * math.pi * i / count))
                 for i in range(count))


def turned(points, degrees: float, pivot: tuple[float, float]):
    """`points` turned by `degrees` about `pivot`, as an element's `rotate` turns it."""
    if not degrees:
        return tuple(points)
    angle = math.radians(degrees)
    cos, sin = math.cos(angle), math.sin(angle)
    px, py = pivot
    return tuple((px + (x - px) * cos - (y - py) * sin, py + (x - px) * sin + (y - py) * cos) for x, y in points)


def _near(paints, points) -> list[tuple[Paint, tuple | None]]:
    """Of `paints` ((paint, its box or None) in drawing order), those that may lie under
    `points`, the last laid first."""
    xs, ys = [x for x, _ in points], [y for _, y in points]
    x0, y0, x1, y1 = min(xs) - 1e-6, min(ys) - 1e-6, max(xs) + 1e-6, max(ys) + 1e-6
    return [(paint, box) for paint, box in reversed(paints)
            if box is None or (box[0] <= x1 and x0 <= box[2] and box[1] <= y1 and y0 <= box[3])]


# A region holds no point farther than this outside its box (in_box, in_disc and in_polygon
# allow 1e-6): a point outside the wider box is not tested.
BOX_MARGIN = 1e-5
_EVERYWHERE = (-math.inf, -math.inf, math.inf, math.inf)


def under(paints: list[Paint], x: float, y: float) -> str | None:
    """The colour of the first of `paints` (the last laid first) at (x, y): the paper where none is."""
    for paint in paints:
        if paint.contains(x, y):
            return paint.colour
    return PAPER


def contrast_problems(layers) -> list[tuple[int, str]]:
    """(index, message) of every ink in `layers` that does not stand out enough from what is
    under it, each once, at its worst point; ink over a picture is not judged."""
    problems = []
    laid: list[tuple[Paint, tuple | None]] = []      # the paints so far, with their boxes
    for index, layer in enumerate(layers):
        if isinstance(layer, Paint):
            laid.append((layer, getattr(layer.contains, "box", None)))
            continue
        if not isinstance(layer, Ink) or not layer.colours or not layer.points:
            continue
        # as `under` reads them: a region's test called without its wrapper, and only at
        # points inside its box
        tests = []
        for paint, box in _near(laid, layer.points):
            left, low, right, high = _EVERYWHERE if box is None else (
                box[0] - BOX_MARGIN, box[1] - BOX_MARGIN, box[2] + BOX_MARGIN, box[3] + BOX_MARGIN)
            tests.append((paint.colour, paint.contains.test if type(paint.contains) is Region else paint.contains,
                          left, low, right, high))
        worst = None
        for x, y in layer.points:
            below = PAPER
            for colour, test, left, low, right, high in tests:
                if left <= x <= right and low <= y <= high and test(x, y):
                    below = colour
                    break
            if below is None:
                continue
            if len(layer.colours) == 1:
                best = layer.colours[0]
            else:
                best = max(layer.colours, key=lambda colour: ratio(colour, below))
            found = (ratio(best, below), best, below)
            if worst is None or found[0] < worst[0]:
                worst = found
        need = TEXT_RATIO if layer.text else MARK_RATIO
        if worst is not None and worst[0] < need - 1e-9:
            value, colour, below = worst
            what = "text" if layer.text else "mark"
            rule = "WCAG 1.4.3" if layer.text else "WCAG 1.4.11"
            shown = "/".join(layer.colours)
            problems.append((index, f"{what} in {shown} on {below} has contrast {value:.2f}:1, "
                                    f"below {need:g}:1 ({rule}); {_advice(layer, below)}"))
    return problems


def _advice(layer: Ink, below: str) -> str:
    return f"{ink_on(below)} reads on {below}" if layer.text else f"draw it in a colour that stands out from {below}"


__all__ = ["DARK_INK", "Ink", "LIGHT_INK", "MARK_RATIO", "Paint", "Region", "TEXT_RATIO", "box_points", "circle_points",
           "contrast_problems", "in_box", "in_disc", "in_polygon", "ink_on", "ratio", "turned", "under"]
