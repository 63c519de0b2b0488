"""A filled disc, optionally outlined."""
from __future__ import annotations

from reportlab.lib.units import mm

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
    }

    def draw(self, canvas, placed, values, context):
        element = placed.spec
        fill = resolve_colour(element["fill"], values)
        stroke = resolve_colour(element.get("stroke"), values)
        if not (fill or stroke):
            return
        if fill:
            canvas.setFillColor(context.palette.colour(fill, area=True))
        if stroke:
            canvas.setStrokeColor(context.palette.colour(stroke))
            canvas.setLineWidth(element.get("stroke_width", 0.5) * mm)
        outline = context.palette.outline(fill, stroke, False)
        if outline:
            canvas.setStrokeColor(outline[0])
            canvas.setLineWidth(outline[1])
        cx, cy = element["centre"]
        canvas.circle(cx * mm, cy * mm, element["radius"] * mm, stroke=1 if stroke or outline else 0,
                      fill=1 if fill else 0)


ELEMENT = Circle()
