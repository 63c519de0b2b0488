"""Colours as a profile wants them: the layouts give sRGB hex, a CMYK profile gets CMYK.

The RGB -> CMYK model is the one the shipped ICC profile (generator/icc) describes, so the
numbers in a CMYK file and the OutputIntent that tells a RIP how to read them agree:
full grey-component replacement (K = 1 - max(R, G, B)), then the profile's total ink limit
taken off C, M and Y. Large neutral black areas get the profile's rich black; text and thin
lines keep K only, so a slightly misregistered plate never fringes small type.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from reportlab.lib.colors import CMYKColor, Color, HexColor

# A neutral this dark counts as "black" for the rich-black rule (K >= 95 %).
RICH_BLACK_FROM_K = 0.95


def rgb_from_hex(value: str) -> tuple[float, float, float]:
    value = value.lstrip("#")
    return tuple(int(value[i:i + 2], 16) / 255 for i in (0, 2, 4))


def cmyk_from_rgb(r: float, g: float, b: float) -> tuple[float, float, float, float]:
    """Full grey-component replacement: neutrals print on the K plate alone."""
    k = 1 - max(r, g, b)
    if k >= 1 - 1e-9:
        return (0.0, 0.0, 0.0, 1.0)
    return ((1 - r - k) / (1 - k), (1 - g - k) / (1 - k), (1 - b - k) / (1 - k), k)


def rgb_from_cmyk(c: float, m: float, y: float, k: float) -> tuple[float, float, float]:
    """The inverse model, used by the ICC profile's CMYK -> colour table."""
    return ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))


def limit_ink(cmyk: tuple[float, float, float, float], limit_percent: float) -> tuple[float, float, float, float]:
    """Take C, M and Y down in proportion until C+M+Y+K fits the limit; K stays."""
    c, m, y, k = cmyk
    limit = limit_percent / 100
    colour_ink = c + m + y
    if c + m + y + k <= limit + 1e-9 or colour_ink <= 0:
        return cmyk
    factor = max(limit - k, 0) / colour_ink
    return (c * factor, m * factor, y * factor, k)


def _rounded(cmyk) -> tuple[float, ...]:
    # Whole-ish percentages (0.1 %) keep content streams short and the ink sum exact.
    # Rounding down never pushes a colour over the limit it was fitted to.
    return tuple(int(v * 1000 + 1e-6) / 1000 for v in cmyk)


@dataclass(frozen=True)
class Palette:
    """Turns layout colours into ReportLab colours for one colour space.

    space: 'rgb' or 'cmyk'; ink_limit in percent; rich_black as CMYK percentages."""

    space: str = "rgb"
    ink_limit: float = 400.0
    rich_black: tuple[float, float, float, float] | None = None

    def colour(self, value: str, area: bool = False) -> Color:
        """`area`: a filled shape (rich black applies), not text or a line."""
        if self.space == "rgb":
            return _hex(value)
        return CMYKColor(*self.cmyk(value, area))

    def cmyk(self, value: str, area: bool = False) -> tuple[float, float, float, float]:
        return _cmyk(value, area, self.ink_limit, self.rich_black)


@lru_cache(maxsize=4096)
def _hex(value: str) -> Color:
    # A face sets the same few colours thousands of times; ReportLab only reads a colour.
    return HexColor(value)


@lru_cache(maxsize=4096)
def _cmyk(value: str, area: bool, ink_limit: float, rich_black) -> tuple[float, float, float, float]:
    r, g, b = rgb_from_hex(value)
    cmyk = cmyk_from_rgb(r, g, b)
    if area and rich_black and r == g == b and cmyk[3] >= RICH_BLACK_FROM_K:
        cmyk = tuple(v / 100 for v in rich_black)
    return _rounded(limit_ink(cmyk, ink_limit))


RGB = Palette()
