"""Lines and polygons through points, with arrow heads at either end: board paths, dividers,
arrows on a card."""
from __future__ import annotations

import math

from reportlab.lib.units import mm

from ...core.canvas import polygon_path
from ..contrast import Paint, in_polygon
from .base import ElementType, resolve_colour


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
        return [Paint(fill, in_polygon(element["points"]))] if fill else []

    def pivot(self, element):
        xs, ys = [p[0] for p in element["points"]], [p[1] for p in element["points"]]
        return ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)

    def draw(self, canvas, placed, values, context):
        element = placed.spec
        points = [tuple(p) for p in element["points"]]
        closed = element.get("closed", False)
        fill = resolve_colour(element.get("fill"), values) if closed else None
        stroke = resolve_colour(element.get("stroke", "#000000"), values)
        width = element.get("stroke_width", 0.5)
        path = polygon_path(canvas, points, closed)
        if fill:
            canvas.setFillColor(context.palette.colour(fill, area=True))
        if stroke:
            canvas.setStrokeColor(context.palette.colour(stroke))
            canvas.setLineWidth(width * mm)
            if element.get("dash_mm"):
                canvas.setDash([d * mm for d in element["dash_mm"]])
        outline = context.palette.outline(fill, stroke, False)
        if outline:
            canvas.setStrokeColor(outline[0])
            canvas.setLineWidth(outline[1])
        canvas.drawPath(path, stroke=1 if stroke or outline else 0, fill=1 if fill else 0)
        # the dash is this shape's own: the elements drawn after it are solid again
        canvas.setDash([])
        arrow = element.get("arrow")
        if arrow and stroke:
            canvas.setFillColor(context.palette.colour(stroke))
            size = element.get("arrow_mm", max(3 * width, 2.0))
            ends = {"start": [(points[0], points[1])], "end": [(points[-1], points[-2])]}
            for tip, tail in ends.get(arrow, ends["start"] + ends["end"]):
                canvas.drawPath(polygon_path(canvas, arrow_head(tip, tail, size)), stroke=0, fill=1)


ELEMENT = Shape()
