"""Text in a box: wrapped at word boundaries and shrunk in half-point steps down to
`min_size`; text that still does not fit is a problem naming its field, never clipped.

`upside_down_mark: underline` (or `dot`) marks a number that reads as another number when the
card is turned half round, as 6 and 9 do on a card seen from across the table: the text, once
its placeholders are filled, is digits only, every digit still a digit turned (0, 1, 6, 8, 9;
6 and 9 trade places) and the number read turned, digit by digit from the other end, is a
different one without a leading zero. So 6, 9, 16, 66, 68, 86, 89, 98 and 99 get the mark;
8, 11, 69, 88 and 96 read the same either way up, and 10 turned reads "01", which is no
number: they stay unmarked, and so does text that is not a number (A, J, ★). The mark is drawn
in the text's colour and turns with the element, so it sits under (or after) the number as its
reader sees it; its thickness and distance follow the fitted font size.

Placing decides every line's place, each piece's font and the mark's rectangle;
generator/render/elements/text.py only draws them."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from functools import lru_cache

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

from ...core import fonts
from ...core.fonts import MIN_PRINTED_PT
from ..inline_icons import (ICON_ADVANCE, ICON_CHARS, PlacedIcon, current_table, decoded, encoded, has_icons,
                            icon_square)
from .base import ElementType, Placed


@dataclass(frozen=True)
class FittedText:
    font: str
    size: float
    lines: tuple[str, ...]


@dataclass(frozen=True)
class PlacedLine:
    """A line of text where it is drawn, in points: from `x` as `align` says, on the baseline
    `y`. A line mixing fonts (characters from fonts.FALLBACK) is its `pieces`, each (left edge,
    text, font); a marked number has its `mark` and the mark's rectangle (x0, y0, x1, y1).
    A line holding icons has them in `icons`, its pieces the text between them."""

    text: str
    x: float
    y: float
    align: str = "left"
    pieces: tuple[tuple[float, str, str], ...] = ()
    mark: str | None = None
    mark_box: tuple[float, float, float, float] | None = None
    icons: tuple[PlacedIcon, ...] = ()


@dataclass(frozen=True)
class PlacedText(FittedText):
    """Text fitted into its box, every line where it is drawn."""

    placed_lines: tuple[PlacedLine, ...] = ()


# The "font" of an icon's fitting character (inline_icons): a piece of its own, drawn as an icon.
ICON_FACE = ""


def runs(line: str, font: str) -> list[tuple[str, str]]:
    """The line as (text, font) pieces: characters the text font lacks (fonts.FALLBACK, the
    minus sign) in the font that has them, each icon's character alone (ICON_FACE)."""
    if fonts.FALLBACK.keys().isdisjoint(line) and ICON_CHARS.isdisjoint(line):
        return [(line, font)]
    pieces: list[tuple[str, str]] = []
    for ch in line:
        if ch in ICON_CHARS:
            pieces.append((ch, ICON_FACE))
            continue
        face = fonts.FALLBACK.get(ch, font)
        if pieces and pieces[-1][1] == face and face != ICON_FACE:
            pieces[-1] = (pieces[-1][0] + ch, face)
        else:
            pieces.append((ch, face))
    return pieces


@lru_cache(maxsize=65536, typed=True)
def line_width(line: str, font: str, size: float) -> float:
    """Width of a line in points, each piece in its own font. Measured once per process (the
    fonts are the shipped ones): fitting a text tries the same words at each size it weighs."""
    if fonts.FALLBACK.keys().isdisjoint(line) and ICON_CHARS.isdisjoint(line):
        return stringWidth(line, font, size)
    return sum(piece_width(piece, face, size) for piece, face in runs(line, font))


def piece_width(piece: str, face: str, size: float) -> float:
    """Width of one piece in points: an icon's its fixed advance."""
    return ICON_ADVANCE * size if face == ICON_FACE else stringWidth(piece, face, size)


def line_pieces(x: float, line: str, font: str, size: float, align: str) -> tuple[tuple[float, str, str], ...]:
    """(left edge in points, text, font) of each piece of a line that mixes fonts, the whole
    aligned to x as `align` says; () for a line in one font, which is drawn aligned as it is."""
    pieces = runs(line, font)
    if len(pieces) == 1:
        return ()
    width = line_width(line, font, size)
    left = x - width / 2 if align == "center" else x - width if align == "right" else x
    placed = []
    for piece, face in pieces:
        placed.append((left, piece, face))
        left += piece_width(piece, face, size)
    return tuple(placed)


def line_with_icons(line: str, at: float, baseline: float, align: str, font: str, size: float,
                    table) -> PlacedLine:
    """A fitted line holding icons, aligned to `at` on `baseline` (points): its text pieces
    where they are drawn, each icon's square on the baseline in its advance, mapped back from
    its fitting character to the icon of `table` (inline_icons.IconTable)."""
    pieces = line_pieces(at, line, font, size, align)
    if not pieces:                 # the line is one icon: its piece alone
        width = line_width(line, font, size)
        left = at - width / 2 if align == "center" else at - width if align == "right" else at
        pieces = ((left, line, ICON_FACE),)
    texts, icons = [], []
    for left, piece, face in pieces:
        if face != ICON_FACE:
            texts.append((left, piece, face))
            continue
        icon = table.icon_of(piece)
        icons.append(PlacedIcon(icon, icon_square(left, baseline, size, icon.natural)))
    return PlacedLine(decoded(line, table), at, baseline, align, tuple(texts), icons=tuple(icons))


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy word wrap; explicit newlines start new lines. Words are never split, and a
    non-breaking space (Czech "o\u00a02") keeps its neighbours on one line."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in filter(None, re.split(r"[ \t]+", paragraph)):
            candidate = f"{current} {word}" if current else word
            if current and line_width(candidate, font, size) > width:
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
        widest = max((line_width(line, font, current) for line in lines), default=0)
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
    widest = max(lines, key=lambda line: line_width(line, font, min_size))
    if line_width(widest, font, min_size) > width:
        reason = f"'{widest}' is wider than the {width_mm:g} mm box even at {min_size:g} pt"
    else:
        reason = f"needs {len(lines)} lines at {min_size:g} pt, the {height_mm:g} mm box holds fewer"
    return FittedText(font, min_size, tuple(lines)), reason


def baselines(box, fitted: FittedText) -> list[float]:
    """Baseline of each line in mm, the block centred in the box."""
    x, y, w, h = box
    size = fitted.size
    leading = size * fonts.LEADING / mm
    block = ((len(fitted.lines) - 1) * size * fonts.LEADING + (fonts.ASCENT + fonts.DESCENT) * size) / mm
    first = y + h / 2 + block / 2 - fonts.ASCENT * size / mm
    return [first - i * leading for i in range(len(fitted.lines))]


# digit -> the digit it reads as turned half round; the others are no digit turned
_TURNED = {"0": "0", "1": "1", "6": "9", "8": "8", "9": "6"}
# The marks, in fractions of the font size (points): an underline's top below the baseline and
# its thickness (inside the descent the text's block already keeps, so it needs no room of its
# own); a dot's diameter and its gap after the last digit, sitting on the baseline.
UNDERLINE_GAP, UNDERLINE_THICKNESS = 0.10, 0.07
DOT_DIAMETER, DOT_GAP = 0.16, 0.08
MARKS = ("underline", "dot")


def turned_number(text: str) -> str | None:
    """What `text` reads as turned half round, when it is a number that reads as another
    number (never one with a leading zero); None when it reads the same or as no number."""
    if not text.isascii() or not text.isdigit() or any(c not in _TURNED for c in text):
        return None
    turned = "".join(_TURNED[c] for c in reversed(text))
    if turned == text or (len(turned) > 1 and turned.startswith("0")):
        return None
    return turned


def upside_down_mark(element: dict, fitted: FittedText) -> str | None:
    """The mark the element draws for this fitted text ('underline', 'dot'), or None."""
    mark = element.get("upside_down_mark")
    if mark and len(fitted.lines) == 1 and turned_number(fitted.lines[0]):
        return mark
    return None


def dot_room(size: float) -> float:
    """Width a dot adds after the number, in points."""
    return (DOT_GAP + DOT_DIAMETER) * size


class Text(ElementType):
    name = "text"
    draws_text = True
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
        # a number that reads as another one upside down (6/9, 16/91, 68/89) is marked
        "upside_down_mark": {"enum": list(MARKS)},
    }

    def place(self, element, values, folder):
        """Fitted to its box; a character no shipped font draws is a problem like a text that
        does not fit, whatever kind of component the text is on."""
        placed = self._fitted(element, values)
        if placed.fitted is not None:
            placed = replace(placed, fitted=self._placed_text(element, placed.fitted))
        missing = self.check(element, values)
        return replace(placed, problems=placed.problems + tuple(missing)) if missing else placed

    def _fitted(self, element, values):
        text = values.get(element["field"], "")
        if not text:
            return Placed(element)
        _, _, w, h = element["box"]
        if element["size"] < MIN_PRINTED_PT:
            return Placed(element, None, (("size", f"{element['size']:g} pt is under the {MIN_PRINTED_PT:g} pt "
                                                   f"that anything printed keeps"),))
        # however far a layout lets it shrink, nothing is printed under 6 pt
        min_size = max(element.get("min_size", element["size"]), MIN_PRINTED_PT)
        if not ICON_CHARS.isdisjoint(text):
            return Placed(element)          # a private-use character: no font draws it (check)
        table = None
        if has_icons(text):
            table = current_table()
            text, unknown = encoded(text, table)
            if unknown:
                return Placed(element, None, ((element["field"], unknown),))
        fitted, reason = fit_lines(text, element["font"], element["size"], min_size, w, h)
        if reason:
            return Placed(element, fitted, ((element["field"], f"text does not fit: {decoded(reason, table)}"),))
        if upside_down_mark(element, fitted) == "dot":
            # The dot follows the number inside the box: fitted again in the width the dot
            # leaves at this size (a smaller size needs less room, so once is enough).
            line = fitted.lines[0]
            if stringWidth(line, fitted.font, fitted.size) + dot_room(fitted.size) > w * mm + 1e-6:
                narrower = w - dot_room(fitted.size) / mm
                refitted, reason = (fit_lines(text, element["font"], fitted.size, min_size, narrower, h)
                                    if narrower > 0 else (fitted, "no room"))
                if reason:
                    return Placed(element, fitted, (("upside_down_mark", (
                        f"'{line}' with its upside-down dot is wider than the {w:g} mm box "
                        f"even at {min_size:g} pt"),),))
                fitted = refitted
        return Placed(element, fitted)

    def _placed_text(self, element, fitted: FittedText) -> PlacedText:
        """The fitted lines where they are drawn, aligned in the box, a mark beside its number."""
        x, _, w, _ = element["box"]
        align = element.get("align", "left")
        mark = upside_down_mark(element, fitted)
        placed = []
        for line, baseline in zip(fitted.lines, baselines(element["box"], fitted)):
            if mark:
                left, _, box = self._mark_geometry(element, fitted, line, baseline, mark)
                placed.append(PlacedLine(line, left, baseline * mm, mark=mark, mark_box=box))
                continue
            at = (x + w / 2 if align == "center" else x + w if align == "right" else x) * mm
            if not ICON_CHARS.isdisjoint(line):
                placed.append(line_with_icons(line, at, baseline * mm, align, fitted.font, fitted.size, current_table()))
                continue
            pieces = line_pieces(at, line, fitted.font, fitted.size, align)
            placed.append(PlacedLine(line, at, baseline * mm, align, pieces))
        return PlacedText(fitted.font, fitted.size, fitted.lines, tuple(placed))

    @staticmethod
    def _mark_geometry(element, fitted: FittedText, line: str, baseline: float, mark: str):
        """Where a marked number goes, in points: the left of its glyphs, their width, and the
        mark's rectangle (x0, y0, x1, y1): the underline's bar, or the box around the dot.
        The number and its dot are aligned in the box as one."""
        x, _, w, _ = element["box"]
        size, align = fitted.size, element.get("align", "left")
        width = stringWidth(line, fitted.font, size)
        whole = width + (dot_room(size) if mark == "dot" else 0.0)
        left = (x * mm + (w * mm - whole) / 2 if align == "center"
                else (x + w) * mm - whole if align == "right" else x * mm)
        base = baseline * mm
        if mark == "dot":
            start = left + width + DOT_GAP * size
            return left, width, (start, base, start + DOT_DIAMETER * size, base + DOT_DIAMETER * size)
        top = base - UNDERLINE_GAP * size
        return left, width, (left, top - UNDERLINE_THICKNESS * size, left + width, top)

    def extents(self, placed, values):
        if placed.fitted is None:
            return []
        element, fitted = placed.spec, placed.fitted
        x, _, w, _ = element["box"]
        align = element.get("align", "left")
        mark = upside_down_mark(element, fitted)
        found = []
        for line, baseline in zip(fitted.lines, baselines(element["box"], fitted)):
            if mark:
                left, width, (x0, y0, x1, y1) = self._mark_geometry(element, fitted, line, baseline, mark)
                found.append((element["field"], (
                    min(left, x0) / mm, min(baseline - fonts.DESCENT * fitted.size / mm, y0 / mm),
                    max(left + width, x1) / mm, max(baseline + fonts.ASCENT * fitted.size / mm, y1 / mm))))
                continue
            width = line_width(line, fitted.font, fitted.size) / mm
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
