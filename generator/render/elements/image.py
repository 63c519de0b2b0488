"""A picture drawn into the boxes generator/layout/elements/image.py fitted it to, in the
press's colours: a raster separated for a press palette, its transparency kept; an SVG's
colours converted as the layout's own are."""
from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader


ELEMENT_TYPE = "image"


class _MaskedReader(ImageReader):
    """A CMYK picture that keeps the transparency of the sRGB picture it was separated from.
    ReportLab makes a soft mask only of an RGBA or LA picture's alpha, which it keeps in
    `_dataA` once it has read the pixels; a CMYK picture has no alpha band, so it is handed
    over here, the same way."""

    def __init__(self, cmyk, alpha):
        super().__init__(cmyk)
        self._alpha = alpha

    def getRGBData(self):
        data = super().getRGBData()
        self._dataA = ImageReader(self._alpha) if self._alpha is not None else None
        return data


_READERS: dict = {}      # (id of the loaded picture, palette or None) -> (the picture, its reader)


def reader_of(image, palette) -> ImageReader:
    """What ReportLab draws the picture from, once per picture and palette: the picture as it
    is for an sRGB file (palette None), or separated for the palette's press (Palette.picture),
    its alpha kept. The loaded picture is kept with its reader, so its id stays its own."""
    key = (id(image), palette)
    if key not in _READERS:
        if len(_READERS) >= 64:
            _READERS.clear()
        if palette is None:
            reader = ImageReader(image)
        else:
            alpha = image.getchannel("A") if image.mode == "RGBA" else None
            reader = _MaskedReader(palette.picture(image.convert("RGB")), alpha)
        _READERS[key] = (image, reader)
    return _READERS[key][1]


def draw(canvas, placed, values, context):
    from reportlab.graphics import renderPDF  # loads half of ReportLab: only when drawing
    picture = placed.fitted
    if picture is None:
        return
    if picture.kind == "svg":
        drawing = in_palette(picture.picture, context.palette)
        for x, y, w, h in picture.boxes:
            canvas.saveState()
            canvas.translate(x * mm, y * mm)
            canvas.scale(w * mm / drawing.width, h * mm / drawing.height)
            renderPDF.draw(drawing, canvas, 0, 0)
            canvas.restoreState()
        return
    # a press file draws the picture in its CMYK too
    reader = reader_of(picture.picture, context.palette if context.palette.space != "rgb" else None)
    for x, y, w, h in picture.boxes:
        canvas.drawImage(reader, x * mm, y * mm, w * mm, h * mm, mask="auto")


def in_palette(drawing, palette):
    """The SVG's drawing with every colour in the palette's space: a press file is all CMYK
    (ReportLab refuses an RGB colour there), converted as the layout's own colours are; an
    ink-saving palette draws its areas light as it does the layout's."""
    if palette.space == "rgb" and palette.saving is None:
        return drawing
    from copy import deepcopy

    from reportlab.lib.colors import CMYKColor, Color
    converted = deepcopy(drawing)

    def convert(node):
        for name in ("fillColor", "strokeColor"):
            colour = getattr(node, name, None)
            if isinstance(colour, Color) and not isinstance(colour, CMYKColor):
                value = "#" + "".join(f"{round(part * 255):02X}" for part in colour.rgb())
                press = palette.colour(value, area=name == "fillColor")
                if colour.alpha != 1:
                    press = (CMYKColor(press.cyan, press.magenta, press.yellow, press.black, alpha=colour.alpha)
                             if isinstance(press, CMYKColor) else Color(*press.rgb(), alpha=colour.alpha))
                setattr(node, name, press)
        for child in getattr(node, "contents", ()):
            convert(child)

    convert(converted)
    return converted
