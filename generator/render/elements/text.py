"""Text drawn as placed: each line where generator/layout/elements/text.py put it, pieces
from a fallback font in their font, an upside-down mark under or after its number."""
from __future__ import annotations

from ...layout.elements.base import resolve_colour
from ...layout.elements.text import PlacedLine


ELEMENT_TYPE = "text"


def draw_line(canvas, line: PlacedLine, font: str, size: float) -> None:
    """One placed line in the current fill colour, the canvas set to `font` at `size`."""
    if line.mark:
        x0, y0, x1, y1 = line.mark_box
        canvas.drawString(line.x, line.y, line.text)
        if line.mark == "dot":
            canvas.circle((x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, stroke=0, fill=1)
        else:
            canvas.rect(x0, y0, x1 - x0, y1 - y0, stroke=0, fill=1)
        return
    if not line.pieces:
        draw = {"center": canvas.drawCentredString, "right": canvas.drawRightString}.get(line.align, canvas.drawString)
        draw(line.x, line.y, line.text)
        return
    for left, piece, face in line.pieces:
        canvas.setFont(face, size)
        canvas.drawString(left, line.y, piece)
    canvas.setFont(font, size)


def draw(canvas, placed, values, context):
    text = placed.fitted
    if text is None:
        return
    canvas.saveState()          # text colour and font stay the text's own
    canvas.setFillColor(context.palette.colour(resolve_colour(placed.spec.get("colour", "#000000"), values)
                                               or "#000000"))
    canvas.setFont(text.font, text.size)
    for line in text.placed_lines:
        draw_line(canvas, line, text.font, text.size)
    canvas.restoreState()
