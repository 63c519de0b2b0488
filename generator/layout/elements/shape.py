"""Lines and polygons through points, with arrow heads at either end: board paths, dividers,
arrows on a card."""
from __future__ import annotations

import math

from ..contrast import Ink, Paint, in_polygon
from .base import ElementType, resolve_colour
from .circle import mark_field


def arrow_head(tip, tail, size: float) -> list[tuple[float, float]]:
    """The three corners of a head of length `size` at `tip`, pointing away from `tail`."""
    angle = math.atan2(tip[1] - tail[1], tip[0] - tail[0])
    spread = math.radians(28)
    return [tip] + [(tip[0] - size * math.cos(angle + side * spread), tip[1] - size * math.sin(angle + side * spread))
                    for side in (1, -1)]


class Shape(ElementType):
    name = "shape"
    required = ("points",)
    properties = {
        "points": {"type": "array", "minItems": 2, "maxItems": 2000, "items": {"$ref": "layouts#/$defs/point"}},
        "closed": {"type": "boolean"},
        "fill": {"$ref": "layouts#/$defs/colour_ref"},
        "stroke": {"$ref": "layouts#/$defs/colour_ref"},
        "stroke_width": {"type": "number", "minimum": 0, "maximum": 50},
        "dash_mm": {"type": "array", "items": {"type": "number", "minimum": 0.25, "maximum": 100},
                    "minItems": 2, "maxItems": 2},
        "arrow": {"enum": ["start", "end", "both"]},
        "arrow_mm": {"type": "number", "exclusiveMinimum": 0, "maximum": 200},
    }

    def layers(self, placed, values):
        element = placed.spec
        fill = resolve_colour(element.get("fill"), values) if element.get("closed", False) else None
        found = []
        if element.get("mark") and element.get("closed", False):
            # a board's space drawn as a polygon (a hex): held to 3:1 like a circle or rectangle
            stroke = resolve_colour(element.get("stroke"), values)
            corners = [tuple(p) for p in element["points"]]
            middles = [((ax + bx) / 2, (ay + by) / 2) for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1])]
            centre = (sum(x for x, _ in corners) / len(corners), sum(y for _, y in corners) / len(corners))
            found.append(Ink(mark_field(element), tuple(c for c in (fill, stroke) if c),
                             tuple(corners + middles) + ((centre,) if fill else ()), text=False))
        if fill:
            found.append(Paint(fill, in_polygon(element["points"])))
        return found

    def pivot(self, element):
        xs, ys = [p[0] for p in element["points"]], [p[1] for p in element["points"]]
        return ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)


ELEMENT = Shape()
