"""A rectangle, square-cornered or rounded; a background may run on into the bleed."""
from __future__ import annotations


from ..contrast import Ink, Paint, box_points, in_box
from .base import ElementType, resolve_colour
from .circle import mark_field


class Rect(ElementType):
    name = "rect"
    required = ("box", "fill")
    properties = {
        "box": {"$ref": "layouts#/$defs/box"},
        "fill": {"$ref": "layouts#/$defs/colour_ref"},
        "stroke": {"$ref": "layouts#/$defs/colour_ref"},
        "stroke_width": {"type": "number", "minimum": 0, "maximum": 50},
        "radius": {"type": "number", "minimum": 0, "maximum": 1000},
        "bleed": {"type": "boolean"},
        # a mark a player must see (a space): held to 3:1 against what is under it
        "mark": {"type": "boolean"},
    }

    def layers(self, placed, values):
        element = placed.spec
        x, y, w, h = element["box"]
        fill = resolve_colour(element["fill"], values)
        stroke = resolve_colour(element.get("stroke"), values)
        found = []
        if element.get("mark"):
            found.append(Ink(mark_field(element), tuple(c for c in (fill, stroke) if c),
                             box_points(x, y, x + w, y + h), text=False))
        if fill:
            found.append(Paint(fill, in_box(x, y, w, h)))
        return found


ELEMENT = Rect()
