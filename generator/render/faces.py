"""Card and token faces drawn from layout data (`layouts.yaml`): data decides, code draws.

Coordinates are millimetres from the face's bottom-left corner. Text boxes shrink their font
in half-point steps down to `min_size`; text that still does not fit is reported, never clipped.
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

from . import fonts
from .colour import RGB, Palette

_REF = re.compile(r"^\{([a-z_]+)\}$")


@dataclass(frozen=True)
class FittedText:
    font: str
    size: float
    lines: tuple[str, ...]


class TextDoesNotFit(Exception):
    def __init__(self, field: str, reason: str):
        super().__init__(f"{field}: {reason}")
        self.field, self.reason = field, reason


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy word wrap; explicit newlines start new lines. Words are never split, and a
    non-breaking space (Czech "o\u00a02") keeps its neighbours on one line."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in filter(None, re.split(r"[ \t]+", paragraph)):
            candidate = f"{current} {word}" if current else word
            if current and stringWidth(candidate, font, size) > width:
                lines.append(current)
                current = word
            else:
                current = candidate
        lines.append(current)
    return lines


def fit_text(text: str, style: str, size: float, min_size: float, width_mm: float, height_mm: float,
             field: str = "") -> FittedText:
    """Largest size from `size` down to `min_size` at which the text fits the box.
    Raises TextDoesNotFit naming `field` (a key path) when even `min_size` is too big."""
    font = fonts.font_name(style)
    width, height = width_mm * mm, height_mm * mm
    current = size
    while current >= min_size - 1e-9:
        lines = wrap(text, font, current, width)
        block = (len(lines) - 1) * current * fonts.LEADING + (fonts.ASCENT + fonts.DESCENT) * current
        widest = max((stringWidth(line, font, current) for line in lines), default=0)
        if block <= height + 1e-6 and widest <= width + 1e-6:
            return FittedText(font, current, tuple(lines))
        current = round(current - 0.5, 2)
    lines = wrap(text, font, min_size, width)
    widest = max(lines, key=lambda line: stringWidth(line, font, min_size))
    if stringWidth(widest, font, min_size) > width:
        reason = f"'{widest}' is wider than the {width_mm:g} mm box even at {min_size:g} pt"
    else:
        reason = f"needs {len(lines)} lines at {min_size:g} pt, the {height_mm:g} mm box holds fewer"
    overflows = _collected_overflows.get()
    if overflows is None:
        raise TextDoesNotFit(field, reason)
    # A validation dry run: note it and draw on, so one run names every overflow.
    overflows.append(TextDoesNotFit(field, reason))
    return FittedText(font, min_size, tuple(lines))


_collected_overflows: ContextVar[list | None] = ContextVar("collected_overflows", default=None)


@contextmanager
def collecting_overflows():
    """Within this block fit_text records text that does not fit instead of raising; the
    list it yields holds every TextDoesNotFit met."""
    found: list[TextDoesNotFit] = []
    token = _collected_overflows.set(found)
    try:
        yield found
    finally:
        _collected_overflows.reset(token)


def resolve_colour(value: str | None, values: dict) -> str | None:
    """A literal '#rrggbb', 'none', or '{field}' looked up in the face's values."""
    if value in (None, "none"):
        return None
    match = _REF.match(value)
    if match:
        return resolve_colour(values.get(match.group(1)), values)
    return value


def fit_face(layout: dict, values: dict) -> dict[int, FittedText]:
    """Fit every text element, keyed by its index in the layout (one field may be printed
    by several elements at different sizes); raises TextDoesNotFit naming the field."""
    fitted = {}
    for index, element in enumerate(layout["elements"]):
        if element["type"] != "text":
            continue
        text = values.get(element["field"], "")
        if not text:
            continue
        x, y, w, h = element["box"]
        fitted[index] = fit_text(text, element["font"], element["size"], element.get("min_size", element["size"]),
                                 w, h, field=element["field"])
    return fitted


def draw_face(canvas, layout: dict, values: dict, bleed_mm: float = 0.0, palette: Palette = RGB) -> None:
    """Draw one face with its bottom-left trim corner at the canvas origin; backgrounds
    marked `bleed` run `bleed_mm` past every trim edge they touch."""
    values = {**layout.get("defaults", {}), **values}
    fitted = fit_face(layout, values)
    for index, element in enumerate(layout["elements"]):
        kind = element["type"]
        if kind == "rect":
            _rect(canvas, element, values, bleed_mm, layout["size_mm"], palette)
        elif kind == "circle":
            fill = resolve_colour(element["fill"], values)
            if fill:
                canvas.setFillColor(palette.colour(fill, area=True))
                cx, cy = element["centre"]
                canvas.circle(cx * mm, cy * mm, element["radius"] * mm, stroke=0, fill=1)
        elif kind == "icon":
            glyph = element.get("glyph") or values.get(element.get("field", ""), "")
            if glyph:
                draw_glyph(canvas, glyph, element["centre"], element["size"],
                           resolve_colour(element.get("colour", "#000000"), values) or "#000000", palette)
        elif kind == "text" and index in fitted:
            _text(canvas, element, fitted[index], values, palette)


def text_extents(layout: dict, values: dict) -> list[tuple[str, tuple[float, float, float, float]]]:
    """(field, (x0, y0, x1, y1) in mm) of every text and icon a face prints, from the lines
    as fitted: what a safe-zone check measures against the trim."""
    values = {**layout.get("defaults", {}), **values}
    fitted = fit_face(layout, values)
    extents = []
    for index, element in enumerate(layout["elements"]):
        if element["type"] == "text" and index in fitted:
            text = fitted[index]
            for line, baseline in zip(text.lines, _baselines(element, text)):
                width = stringWidth(line, text.font, text.size) / mm
                x, _, w, _ = element["box"]
                align = element.get("align", "left")
                left = x + (w - width) / 2 if align == "center" else x + w - width if align == "right" else x
                x0, y0 = left, baseline - fonts.DESCENT * text.size / mm
                x1, y1 = left + width, baseline + fonts.ASCENT * text.size / mm
                if element.get("upside_down"):
                    bx, by, bw, bh = element["box"]
                    x0, x1 = 2 * bx + bw - x1, 2 * bx + bw - x0
                    y0, y1 = 2 * by + bh - y1, 2 * by + bh - y0
                extents.append((element["field"], (x0, y0, x1, y1)))
        elif element["type"] == "icon":
            glyph = element.get("glyph") or values.get(element.get("field", ""), "")
            font = fonts.symbol_font_for(glyph) if glyph else None
            if font:
                size = element["size"]
                width = stringWidth(glyph, font, size) / mm
                cx, cy = element["centre"]
                baseline = cy - size * 0.35 / mm
                extents.append((element.get("field", "glyph"), (cx - width / 2, baseline - fonts.DESCENT * size / mm,
                                                                cx + width / 2, baseline + fonts.ASCENT * size / mm)))
    return extents


def _baselines(element, fitted: FittedText) -> list[float]:
    """Baseline of each line in mm, as `_text` draws them."""
    x, y, w, h = element["box"]
    size = fitted.size
    leading = size * fonts.LEADING / mm
    block = ((len(fitted.lines) - 1) * size * fonts.LEADING + (fonts.ASCENT + fonts.DESCENT) * size) / mm
    first = y + h / 2 + block / 2 - fonts.ASCENT * size / mm
    return [first - i * leading for i in range(len(fitted.lines))]


def _rect(canvas, element, values, bleed_mm, size_mm, palette):
    x, y, w, h = element["box"]
    if element.get("bleed") and bleed_mm:
        # A background that touches the trim runs on into the bleed.
        if x <= 0:
            x, w = x - bleed_mm, w + bleed_mm
        if y <= 0:
            y, h = y - bleed_mm, h + bleed_mm
        if x + w >= size_mm[0] - 1e-6:
            w += bleed_mm
        if y + h >= size_mm[1] - 1e-6:
            h += bleed_mm
    fill = resolve_colour(element["fill"], values)
    stroke = resolve_colour(element.get("stroke"), values)
    if fill:
        canvas.setFillColor(palette.colour(fill, area=True))
    if stroke:
        canvas.setStrokeColor(palette.colour(stroke))
        canvas.setLineWidth(element.get("stroke_width", 0.5) * mm)
    radius = element.get("radius", 0)
    args = dict(stroke=1 if stroke else 0, fill=1 if fill else 0)
    if radius:
        canvas.roundRect(x * mm, y * mm, w * mm, h * mm, radius * mm, **args)
    else:
        canvas.rect(x * mm, y * mm, w * mm, h * mm, **args)


def _text(canvas, element, fitted: FittedText, values, palette):
    x, y, w, h = element["box"]
    canvas.saveState()
    if element.get("upside_down"):
        # Turned half a turn about the box's centre: the box stays where it is and the
        # text reads from the other side of the table (a card's lower corner).
        canvas.translate((x + w / 2) * mm, (y + h / 2) * mm)
        canvas.rotate(180)
        canvas.translate(-(x + w / 2) * mm, -(y + h / 2) * mm)
    canvas.setFillColor(palette.colour(resolve_colour(element.get("colour", "#000000"), values) or "#000000"))
    canvas.setFont(fitted.font, fitted.size)
    align = element.get("align", "left")
    for line, baseline in zip(fitted.lines, _baselines(element, fitted)):
        if align == "center":
            canvas.drawCentredString((x + w / 2) * mm, baseline * mm, line)
        elif align == "right":
            canvas.drawRightString((x + w) * mm, baseline * mm, line)
        else:
            canvas.drawString(x * mm, baseline * mm, line)
    canvas.restoreState()


def draw_glyph(canvas, glyph: str, centre, size: float, colour: str, palette: Palette = RGB) -> None:
    font = fonts.symbol_font_for(glyph)
    if font is None:
        raise ValueError(f"no shipped font has the glyph {glyph!r}")
    canvas.setFillColor(palette.colour(colour))
    canvas.setFont(font, size)
    width = stringWidth(glyph, font, size)
    cx, cy = centre
    # Centre on the glyph's visual middle (about 0.35 em above the baseline).
    canvas.drawString(cx * mm - width / 2, cy * mm - size * 0.35, glyph)
