"""A disc drawn, filled, outlined or both."""
from __future__ import annotations

from reportlab.lib.units import mm

from ...layout.elements.base import resolve_colour


ELEMENT_TYPE = "circle"


def draw(canvas, placed, values, context):
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
