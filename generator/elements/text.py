"""Text in a box: wrapped at word boundaries and shrunk in half-point steps down to
`min_size`; text that still does not fit is a problem naming its field, never clipped."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

from ..render import fonts
from .base import ElementType, Placed, resolve_colour


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


@lru_cache(maxsize=16384, typed=True)
def fit_lines(text: str, style: str, size: float, min_size: float, width_mm: float,
              height_mm: float) -> tuple[FittedText, str]:
    """Largest size from `size` down to `min_size` at which the text fits the box, and '';
    or the text at `min_size` and the reason it does not fit.

    Fitted once per process for the same arguments (the fonts are the shipped ones, the
    result is immutable): a build lays the same card out for every paper, its booklet
    pictures, its contact sheet and its shop files."""
    font = fonts.font_name(style)
    width, height = width_mm * mm, height_mm * mm

    def fitted(step: int) -> FittedText | None:
        current = round(size - 0.5 * step, 2)
        lines = wrap(text, font, current, width)
        block = (len(lines) - 1) * current * fonts.LEADING + (fonts.ASCENT + fonts.DESCENT) * current
        widest = max((stringWidth(line, font, current) for line in lines), default=0)
        if block <= height + 1e-6 and widest <= width + 1e-6:
            return FittedText(font, current, tuple(lines))
        return None

    # Text that fits at one size fits at every smaller one (widths scale with the size, so
    # greedy wrapping never needs more lines): a binary search over the half-point steps finds
    # the largest size that fits. It starts at the tallest single line the box can hold, so
    # the number of wraps depends on neither the size asked for nor the text.
    tallest = (height + 1e-6) / (fonts.ASCENT + fonts.DESCENT)
    low = max(0, math.ceil((size - tallest) / 0.5 - 1e-6))       # a step tries size - 0.5 * step
    high = math.floor((size - min_size) / 0.5 + 1e-9)
    best = None
    while low <= high:
        middle = (low + high) // 2
        found = fitted(middle)
        if found is not None:
            best, high = found, middle - 1
        else:
            low = middle + 1
    if best is not None:
        return best, ""
    lines = wrap(text, font, min_size, width)
    widest = max(lines, key=lambda line: stringWidth(line, font, min_size))
    if stringWidth(widest, font, min_size) > width:
        reason = f"'{widest}' is wider than the {width_mm:g} mm box even at {min_size:g} pt"
    else:
        reason = f"needs {len(lines)} lines at {min_size:g} pt, the {height_mm:g} mm box holds fewer"
    return FittedText(font, min_size, tuple(lines)), reason


def fit_text(text: str, style: str, size: float, min_size: float, width_mm: float, height_mm: float,
             field: str = "") -> FittedText:
    """fit_lines for the tool's own page furniture (titles, calibration steps): raises
    TextDoesNotFit naming `field`; a game's texts are fitted when laid out, never raised."""
    fitted, reason = fit_lines(text, style, size, min_size, width_mm, height_mm)
    if reason:
        raise TextDoesNotFit(field, reason)
    return fitted


def baselines(box, fitted: FittedText) -> list[float]:
    """Baseline of each line in mm, the block centred in the box."""
    x, y, w, h = box
    size = fitted.size
    leading = size * fonts.LEADING / mm
    block = ((len(fitted.lines) - 1) * size * fonts.LEADING + (fonts.ASCENT + fonts.DESCENT) * size) / mm
    first = y + h / 2 + block / 2 - fonts.ASCENT * size / mm
    return [first - i * leading for i in range(len(fitted.lines))]


class Text(ElementType):
    name = "text"
    required = ("field", "box", "font", "size")
    properties = {
        "field": {"$ref": "common#/$defs/name"},
        "box": {"$ref": "layouts#/$defs/box"},
        "font": {"enum": sorted(fonts.TEXT_FONTS)},
        # from the smallest legible print to a poster headline
        "size": {"type": "number", "minimum": 2, "maximum": 200},
        "min_size": {"type": "number", "minimum": 2, "maximum": 200},
        "colour": {"$ref": "layouts#/$defs/colour_ref"},
        "align": {"enum": ["left", "center", "right"]},
    }

    def place(self, element, values, folder):
        text = values.get(element["field"], "")
        if not text:
            return Placed(element)
        _, _, w, h = element["box"]
        fitted, reason = fit_lines(text, element["font"], element["size"], element.get("min_size", element["size"]), w, h)
        return Placed(element, fitted, ((element["field"], f"text does not fit: {reason}"),) if reason else ())

    def draw(self, canvas, placed, values, context):
        if placed.fitted is None:
            return
        element, fitted = placed.spec, placed.fitted
        x, _, w, _ = element["box"]
        canvas.saveState()          # text colour and font stay the text's own
        canvas.setFillColor(context.palette.colour(resolve_colour(element.get("colour", "#000000"), values) or "#000000"))
        canvas.setFont(fitted.font, fitted.size)
        align = element.get("align", "left")
        for line, baseline in zip(fitted.lines, baselines(element["box"], fitted)):
            if align == "center":
                canvas.drawCentredString((x + w / 2) * mm, baseline * mm, line)
            elif align == "right":
                canvas.drawRightString((x + w) * mm, baseline * mm, line)
            else:
                canvas.drawString(x * mm, baseline * mm, line)
        canvas.restoreState()

    def extents(self, placed, values):
        if placed.fitted is None:
            return []
        element, fitted = placed.spec, placed.fitted
        x, _, w, _ = element["box"]
        align = element.get("align", "left")
        found = []
        for line, baseline in zip(fitted.lines, baselines(element["box"], fitted)):
            width = stringWidth(line, fitted.font, fitted.size) / mm
            left = x + (w - width) / 2 if align == "center" else x + w - width if align == "right" else x
            found.append((element["field"], (left, baseline - fonts.DESCENT * fitted.size / mm,
                                             left + width, baseline + fonts.ASCENT * fitted.size / mm)))
        return found

    def check(self, element, values):
        missing = fonts.missing_glyphs(values.get(element["field"], ""), element["font"])
        if missing:
            return [(element["field"], f"no glyph in the shipped font for {''.join(sorted(missing))!r}")]
        return []

    def translator_note(self, element):
        _, _, w, h = element["box"]
        return (f"Printed on the card in a {w:g} × {h:g} mm box at {element['size']:g} pt, "
                f"shrinking to {element.get('min_size', element['size']):g} pt; longer text is a build error.")


ELEMENT = Text()
