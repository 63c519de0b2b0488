"""Colours as a profile wants them: the layouts give sRGB hex, a CMYK profile gets CMYK.

A CMYK profile names the press characterisation its shop prints to (generator/core/icc). Layout
colours are separated through that press's ICC profile by littleCMS (Pillow's ImageCms), the
same profile the file's PDF/X OutputIntent embeds, so the numbers and the OutputIntent agree.

decided: relative colorimetric with black-point compensation. Layout colours are flat design
colours (a suit's red, a back's navy): inside the press gamut they print as measured, outside
it they move to the nearest printable colour; black-point compensation maps sRGB black to the
press's darkest black instead of clipping the shadows. Perceptual would shift every colour,
in-gamut ones too, to make room for colours a layout does not have.

Three rules then apply, as a prepress operator would:
- text and lines in a neutral grey (or within NEAR_NEUTRAL of one) go on the black plate
  alone (K only, as dark as the grey reads), so a slightly misregistered plate never fringes
  small type;
- large neutral black areas get the profile's rich black (K plus some C, M and Y);
- every colour stays within the profile's total ink limit (C, M and Y taken down, K kept).

Raster pictures (Palette.picture) go through the profile's perceptual tables instead, made by
colprof with sRGB as the source gamut: a photograph's gradations outside the press gamut are
compressed rather than clipped flat.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache

from reportlab.lib.colors import CMYKColor, Color, HexColor


# A neutral at most this bright (0..1 per channel; #0C0C0C) counts as "black" for rich black.
RICH_BLACK_UP_TO = 0.05
# decided: text or a line whose channels differ by at most this much (#333335, a grey picked by
# eye) is a grey, put on K alone as dark as its mean; anything further from neutral is a
# colour the designer chose and is separated as one.
NEAR_NEUTRAL = 3 / 255


def rgb_from_hex(value: str) -> tuple[float, float, float]:
    value = value.lstrip("#")
    return tuple(int(value[i:i + 2], 16) / 255 for i in (0, 2, 4))


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


# ---- littleCMS ---------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _profile(press_name: str):
    from PIL import ImageCms

    from .icc import press
    return ImageCms.ImageCmsProfile(io.BytesIO(press(press_name).profile_bytes()))


@lru_cache(maxsize=None)
def separation(press_name: str):
    """The sRGB -> press CMYK transform (relative colorimetric, black-point compensation)."""
    from PIL import ImageCms
    return ImageCms.buildTransform(ImageCms.createProfile("sRGB"), _profile(press_name), "RGB", "CMYK",
                                   renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                   flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)


@lru_cache(maxsize=None)
def picture_separation(press_name: str):
    """The sRGB -> press CMYK transform for pictures: perceptual (the profile's gamut-mapped
    tables), since a photograph's out-of-gamut colours should keep their gradations."""
    from PIL import ImageCms
    return ImageCms.buildTransform(ImageCms.createProfile("sRGB"), _profile(press_name), "RGB", "CMYK",
                                   renderingIntent=ImageCms.Intent.PERCEPTUAL)


def icc_cmyk(press_name: str, value: str) -> tuple[float, float, float, float]:
    """A layout colour through the press profile, 0..1 per channel (8-bit littleCMS output)."""
    from PIL import Image
    rgb = tuple(int(value.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4))
    pixel = separation(press_name).apply(Image.new("RGB", (1, 1), rgb)).getpixel((0, 0))
    return tuple(v / 255 for v in pixel)


def _lightness(y: float) -> float:
    return 116 * (y ** (1 / 3) if y > 216 / 24389 else (24389 / 27 * y + 16) / 116) - 16


@lru_cache(maxsize=None)
def _black_ramp(press_name: str) -> tuple[float, ...]:
    """L* (relative to the paper) of K alone at 0, 1, ... 100 % on this press."""
    from PIL import Image, ImageCms
    to_lab = ImageCms.buildTransform(_profile(press_name), ImageCms.createProfile("LAB", 5000), "CMYK", "LAB",
                                     renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
    ramp = Image.new("CMYK", (101, 1))
    ramp.putdata([(0, 0, 0, round(k * 255 / 100)) for k in range(101)])
    lab = to_lab.apply(ramp)
    return tuple(lab.getpixel((k, 0))[0] * 100 / 255 for k in range(101))


def black_only(press_name: str, grey: float) -> float:
    """K (0..1) that prints a neutral sRGB grey (0..1) as light as it reads, on K alone.

    The grey's L* is scaled between the paper (L* 100) and the press's solid K, as black-point
    compensation does, and found on the press's K ramp."""
    linear = grey / 12.92 if grey <= 0.04045 else ((grey + 0.055) / 1.055) ** 2.4
    ramp = _black_ramp(press_name)
    target = ramp[-1] + _lightness(linear) * (ramp[0] - ramp[-1]) / 100
    for k in range(100):
        high, low = ramp[k], ramp[k + 1]
        if target >= low:
            return (k + (high - target) / (high - low if high > low else 1)) / 100 if target < high else k / 100
    return 1.0


# ---- ink saving ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class InkSaving:
    """The drawing transform of an ink-saving print (templates/sheets/ink.yaml): every filled
    area keeps `fill_keep` of its colour, mixed with white; text and lines keep theirs, except
    those too light to read on a light background, which print in `light_text`; shapes other
    than a background get an `outline_pt` outline in their own colour."""

    fill_keep: float
    outline_pt: float
    light_above: float
    light_text: str

    @classmethod
    def from_sheet(cls, data: dict) -> "InkSaving":
        saver = data["saver"]
        return cls(float(saver["fill_keep"]), float(saver["outline_pt"]), float(saver["light_above"]),
                   saver["light_text"].upper())

    def area(self, value: str) -> str:
        return "#" + "".join(f"{round(255 - (255 - v * 255) * self.fill_keep):02X}" for v in rgb_from_hex(value))

    def line(self, value: str) -> str:
        return self.light_text if luminance(value) > self.light_above else value


def luminance(value: str) -> float:
    """Relative luminance of an sRGB colour (0 black .. 1 white)."""
    linear = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in rgb_from_hex(value)]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


# ---- palettes ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Palette:
    """Turns layout colours into ReportLab colours for one colour space.

    space: 'rgb' or 'cmyk'; ink_limit in percent; rich_black as CMYK percentages; press: the
    characterisation a CMYK palette separates for (a name in generator.core.icc.PRESSES); saving:
    the ink-saving transform applied to every colour before it is converted, or None."""

    space: str = "rgb"
    ink_limit: float = 400.0
    rich_black: tuple[float, float, float, float] | None = None
    press: str | None = None
    saving: InkSaving | None = None

    def __post_init__(self):
        if self.space == "cmyk" and self.press is None:
            raise ValueError("a CMYK palette needs the press characterisation it separates for")

    def colour(self, value: str, area: bool = False) -> Color:
        """`area`: a filled shape (rich black applies), not text or a line."""
        if self.saving is not None:
            value = self.saving.area(value) if area else self.saving.line(value)
        if self.space == "rgb":
            return _hex(value)
        return CMYKColor(*self.cmyk(value, area))

    def outline(self, fill: str | None, stroke: str | None, background: bool) -> tuple[Color, float] | None:
        """(colour, width in points) of the outline an ink-saving palette draws around a filled
        shape that has none of its own; None for a background, an outlined shape, or when the
        palette saves no ink."""
        if self.saving is None or not fill or stroke or background or not self.saving.outline_pt:
            return None
        return self.colour(fill), self.saving.outline_pt

    def cmyk(self, value: str, area: bool = False) -> tuple[float, float, float, float]:
        return _cmyk(value.upper(), area, self.ink_limit, self.rich_black, self.press)

    def picture(self, image):
        """A raster picture (PIL image, sRGB) in this palette's space: for CMYK separated through
        the press profile (perceptual) and held within the ink limit; alpha is dropped (the
        caller keeps it as a mask)."""
        if self.space == "rgb":
            return image
        import numpy
        from PIL import Image
        if image.mode == "CMYK":
            cmyk = image
        else:
            cmyk = picture_separation(self.press).apply(image.convert("RGB"))
        pixels = numpy.asarray(cmyk, dtype=numpy.float64)
        limit = self.ink_limit / 100 * 255
        total, colour = pixels.sum(axis=-1), pixels[..., :3].sum(axis=-1)
        over = total > limit
        if over.any():
            factor = numpy.ones_like(total)
            factor[over] = numpy.maximum(limit - pixels[..., 3][over], 0) / colour[over]
            pixels[..., :3] = numpy.floor(pixels[..., :3] * factor[..., None])
            cmyk = Image.fromarray(pixels.astype(numpy.uint8), "CMYK")
        return cmyk


@lru_cache(maxsize=4096)
def _hex(value: str) -> Color:
    # A face sets the same few colours thousands of times; ReportLab only reads a colour.
    return HexColor(value)


@lru_cache(maxsize=4096)
def _cmyk(value: str, area: bool, ink_limit: float, rich_black, press) -> tuple[float, float, float, float]:
    r, g, b = rgb_from_hex(value)
    neutral = r == g == b
    if neutral and area and rich_black and r <= RICH_BLACK_UP_TO:
        cmyk = tuple(v / 100 for v in rich_black)
    elif not area and max(r, g, b) - min(r, g, b) <= NEAR_NEUTRAL + 1e-9:
        cmyk = (0.0, 0.0, 0.0, black_only(press, (r + g + b) / 3))
    else:
        cmyk = icc_cmyk(press, value)
    return _rounded(limit_ink(cmyk, ink_limit))


RGB = Palette()
