"""Icons inside a line of text (`:sun:` in "Gain :sun:"), as fitting and placing see them.

While a text is fitted, each `:name:` is one character of the Private Use Area, which
`line_width` counts as a fixed advance: the fitting caches stay keyed on plain strings, and an
icon weighs the same whatever it is. Placing maps each such character back to its icon: a
square on the baseline, ICON_SIDE of the font size high (between the cap height and the
ascent), centred in its ICON_ADVANCE. generator/render/elements/text.py draws it in the text's
colour (a glyph, an SVG as a silhouette) or as it is (a PNG).

The icons a face's texts may use are those its game declares (load/icons.py), loaded by
`place_face` for the time it places the face (`icons_in_use`)."""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from ..load.icons import ICON_MARK, unknown_icon

ICON_ADVANCE, ICON_SIDE = 1.0, 0.8       # in fractions of the font size
FIRST_ICON = 0xE000                      # the Private Use Area's first character
ICON_CHARS = frozenset(chr(code) for code in range(FIRST_ICON, FIRST_ICON + 0x1900))


@dataclass(frozen=True)
class InlineIcon:
    """A declared icon ready to draw: `kind` 'glyph' (with its symbol `font`), 'svg'
    (svglib's drawing) or 'raster' (decoded pixels) and `natural` size (w, h) for its proportions."""

    name: str
    kind: str
    picture: object
    font: str = ""
    natural: tuple[float, float] = (1.0, 1.0)


@dataclass(frozen=True)
class PlacedIcon:
    """An icon where it is drawn, in points: its square (x0, y0, x1, y1) on the baseline."""

    icon: InlineIcon
    box: tuple[float, float, float, float]


@dataclass(frozen=True)
class IconTable:
    """The icons a game declares, by name: each an InlineIcon, or why it cannot be drawn."""

    icons: dict

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(sorted(self.icons))

    def char_of(self, name: str) -> str:
        return chr(FIRST_ICON + self.names.index(name))

    def icon_of(self, char: str) -> InlineIcon:
        return self.icons[self.names[ord(char) - FIRST_ICON]]


_in_use: ContextVar[IconTable | None] = ContextVar("inline_icons", default=None)


@contextmanager
def icons_in_use(table: IconTable | None):
    """Within it, texts placed may hold the table's icons."""
    token = _in_use.set(table)
    try:
        yield
    finally:
        _in_use.reset(token)


def current_table() -> IconTable | None:
    return _in_use.get()


def has_icons(text: str) -> bool:
    return ":" in text and ICON_MARK.search(text) is not None


def encoded(text: str, table: IconTable | None) -> tuple[str, str]:
    """(the text with each `:name:` as its fitting character, '') or (text, why not): an icon
    the game does not declare, or one whose picture cannot be read."""
    known = table.icons if table is not None else {}
    for name in ICON_MARK.findall(text):
        if name not in known:
            return text, unknown_icon(name, known)
        if isinstance(known[name], str):
            return text, f"icon :{name}: {known[name]}"
    return ICON_MARK.sub(lambda found: table.char_of(found.group(1)), text), ""


def decoded(text: str, table: IconTable | None) -> str:
    """A fitted text as its writer wrote it: each icon character back to `:name:`."""
    if table is None or ICON_CHARS.isdisjoint(text):
        return text
    return "".join(f":{table.names[ord(ch) - FIRST_ICON]}:" if ch in ICON_CHARS else ch for ch in text)


def icon_square(left: float, baseline: float, size: float, natural: tuple[float, float]) -> tuple[float, float, float, float]:
    """Where an icon whose advance starts at `left` (points) goes: its picture contained in
    the square on the baseline, centred across, standing on the baseline."""
    side = ICON_SIDE * size
    scale = min(side / natural[0], side / natural[1])
    width, height = natural[0] * scale, natural[1] * scale
    x0 = left + (ICON_ADVANCE * size - width) / 2
    return (x0, baseline, x0 + width, baseline + height)
