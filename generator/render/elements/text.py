"""Text drawn as placed: each line where generator/layout/elements/text.py put it, pieces
from a fallback font in their font, an upside-down mark under or after its number, its icons
in their squares: a glyph or an SVG in the text's colour (an SVG as its silhouette, so an icon
stands out from the card as its text does), a PNG as it is."""
from __future__ import annotations

from copy import deepcopy

from ...layout.elements.base import resolve_colour
from ...layout.elements.text import PlacedLine
from ...layout.inline_icons import PlacedIcon
from .image import reader_of


ELEMENT_TYPE = "text"
_SILHOUETTES: dict = {}      # (id of the drawing, colour) -> (the drawing, its silhouette)


def silhouette(drawing, colour):
    """The SVG's drawing with everything it paints in `colour` (a ReportLab colour)."""
    key = (id(drawing), repr(colour))
    if key not in _SILHOUETTES:
        if len(_SILHOUETTES) >= 64:
            _SILHOUETTES.clear()
        shape = deepcopy(drawing)

        def paint(node):
            for name in ("fillColor", "strokeColor"):
                if getattr(node, name, None) is not None:
                    setattr(node, name, colour)
            for child in getattr(node, "contents", ()):
                paint(child)

        paint(shape)
        _SILHOUETTES[key] = (drawing, shape)
    return _SILHOUETTES[key][1]


def draw_icon(canvas, placed: PlacedIcon, colour, palette) -> None:
    """One icon in its square: a glyph at the square's height, a picture fitted to it."""
    from reportlab.graphics import renderPDF  # loads half of ReportLab: only when drawing
    icon, (x0, y0, x1, y1) = placed.icon, placed.box
    if icon.kind == "glyph":
        canvas.setFont(icon.font, y1 - y0)
        canvas.drawString(x0, y0, icon.picture)
    elif icon.kind == "svg":
        drawing = silhouette(icon.picture, colour)
        canvas.saveState()
        canvas.translate(x0, y0)
        canvas.scale((x1 - x0) / drawing.width, (y1 - y0) / drawing.height)
        renderPDF.draw(drawing, canvas, 0, 0)
        canvas.restoreState()
    else:
        reader = reader_of(icon.picture, palette if palette.space != "rgb" else None)
        canvas.drawImage(reader, x0, y0, x1 - x0, y1 - y0, mask="auto")


def draw_line(canvas, line: PlacedLine, font: str, size: float, colour=None, palette=None) -> None:
    """One placed line in the current fill colour, the canvas set to `font` at `size`; its
    icons in `colour` (the fill colour as set) and the press's `palette`."""
    if line.icons:
        for left, piece, face in line.pieces:
            canvas.setFont(face, size)
            canvas.drawString(left, line.y, piece)
        for icon in line.icons:
            draw_icon(canvas, icon, colour, palette)
        canvas.setFont(font, size)
        return
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
    colour = context.palette.colour(resolve_colour(placed.spec.get("colour", "#000000"), values) or "#000000")
    canvas.setFillColor(colour)
    canvas.setFont(text.font, text.size)
    for line in text.placed_lines:
        draw_line(canvas, line, text.font, text.size, colour, context.palette)
    canvas.restoreState()
