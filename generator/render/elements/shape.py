"""Lines and polygons drawn, dashed as asked, with their arrow heads."""
from __future__ import annotations

from reportlab.lib.units import mm

from ...core.canvas import polygon_path
from ...layout.elements.base import resolve_colour
from ...layout.elements.shape import arrow_head


ELEMENT_TYPE = "shape"


def draw(canvas, placed, values, context):
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
        draw_arrow_heads(canvas, points, arrow, element.get("arrow_mm", max(3 * width, 2.0)))


def draw_arrow_heads(canvas, points, arrow: str, size: float) -> None:
    """Filled heads at the start, the end or both ends of the line through `points`."""
    ends = {"start": [(points[0], points[1])], "end": [(points[-1], points[-2])]}
    for tip, tail in ends.get(arrow, ends["start"] + ends["end"]):
        canvas.drawPath(polygon_path(canvas, arrow_head(tip, tail, size)), stroke=0, fill=1)
