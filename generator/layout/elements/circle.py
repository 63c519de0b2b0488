"""A filled disc, optionally outlined."""
from __future__ import annotations


from ..contrast import Ink, Paint, circle_points, in_disc
from .base import ElementType, resolve_colour


class Circle(ElementType):
    name = "circle"
    required = ("centre", "radius", "fill")
    properties = {
        "centre": {"$ref": "layouts#/$defs/point"},
        "radius": {"type": "number", "exclusiveMinimum": 0, "maximum": 1000},
        "fill": {"$ref": "layouts#/$defs/colour_ref"},
        "stroke": {"$ref": "layouts#/$defs/colour_ref"},
        "stroke_width": {"type": "number", "minimum": 0, "maximum": 50},
        # a mark a player must see (a space, a ring): held to 3:1 against what is under it
        "mark": {"type": "boolean"},
    }

    def layers(self, placed, values):
        element = placed.spec
        fill = resolve_colour(element["fill"], values)
        stroke = resolve_colour(element.get("stroke"), values)
        (cx, cy), radius = element["centre"], element["radius"]
        found = []
        if element.get("mark"):
            # a filled mark shows by its fill or its outline, a ring by its outline alone
            points = circle_points(cx, cy, radius) + (((cx, cy),) if fill else ())
            found.append(Ink(mark_field(element), tuple(c for c in (fill, stroke) if c), points, text=False))
        if fill:
            found.append(Paint(fill, in_disc(cx, cy, radius)))
        return found


def mark_field(element: dict) -> str:
    """What a problem with a mark names: the key it was laid out from, or its type."""
    return element["mark"] if isinstance(element.get("mark"), str) else element["type"]


ELEMENT = Circle()
