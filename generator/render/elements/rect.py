"""A rectangle drawn, a background marked `bleed` run on into the bleed past the trim it touches."""
from __future__ import annotations

from reportlab.lib.units import mm

from ...layout.elements.base import resolve_colour


ELEMENT_TYPE = "rect"


def draw(canvas, placed, values, context):
    element = placed.spec
    x, y, w, h = element["box"]
    bleed = context.bleed_mm if element.get("bleed") else 0
    if bleed:
        # A background that touches the trim runs on into the bleed.
        width, height = context.size_mm
        if x <= 0:
            x, w = x - bleed, w + bleed
        if y <= 0:
            y, h = y - bleed, h + bleed
        if x + w >= width - 1e-6:
            w += bleed
        if y + h >= height - 1e-6:
            h += bleed
    fill = resolve_colour(element["fill"], values)
    stroke = resolve_colour(element.get("stroke"), values)
    if fill:
        canvas.setFillColor(context.palette.colour(fill, area=True))
    if stroke:
        canvas.setStrokeColor(context.palette.colour(stroke))
        canvas.setLineWidth(element.get("stroke_width", 0.5) * mm)
    # an ink-saving palette outlines a shape it draws light, unless it is the face's background
    x0, y0, w0, h0 = element["box"]
    background = element.get("bleed") or (x0 <= 0 and y0 <= 0 and x0 + w0 >= context.size_mm[0] - 1e-6
                                           and y0 + h0 >= context.size_mm[1] - 1e-6)
    outline = context.palette.outline(fill, stroke, bool(background))
    if outline:
        canvas.setStrokeColor(outline[0])
        canvas.setLineWidth(outline[1])
    radius = element.get("radius", 0)
    args = dict(stroke=1 if stroke or outline else 0, fill=1 if fill else 0)
    if radius:
        canvas.roundRect(x * mm, y * mm, w * mm, h * mm, radius * mm, **args)
    else:
        canvas.rect(x * mm, y * mm, w * mm, h * mm, **args)
