"""The arithmetic that decides what goes to a press: total ink (C+M+Y+K, K included) at and
around each shipped CMYK profile's limit, with K high and low, and an image's resolution on
each of its axes, the worse one deciding."""
from __future__ import annotations

import io
from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from generator.core.colour import Palette, limit_ink
from generator.load.profiles import load_profiles, profile_names
from generator.load.project import Project
from generator.write import preflight as preflight_module


ROOT = Path(__file__).resolve().parent.parent


def _cmyk_profiles():
    project = Project(ROOT)
    found = []
    for profile in load_profiles(project, profile_names(project)):
        for spec in (profile.cards, profile.components, profile.booklet):
            if spec is not None and spec.palette.space == "cmyk":
                found.append((profile.name, spec.palette))
                break
    return found


CMYK_PROFILES = _cmyk_profiles()
# the shipped limits, and one between them that no profile has (the 260 % a shop may ask for)
LIMITS = sorted({palette.ink_limit for _, palette in CMYK_PROFILES} | {260.0})


def test_the_shipped_cmyk_profiles_are_what_these_tests_cover():
    assert {name for name, _ in CMYK_PROFILES} >= {"drivethrucards", "eu-3mm"}
    assert {240.0, 300.0} <= set(LIMITS)


def total(cmyk) -> float:
    return sum(cmyk) * 100


# ---- limit_ink: C, M and Y come down, K stays -------------------------------------------------

@pytest.mark.parametrize("limit", LIMITS)
@pytest.mark.parametrize("k", [0.05, 0.3, 0.7, 0.95, 1.0])
def test_a_colour_over_the_limit_is_brought_to_it_with_k_counted_and_kept(limit, k):
    colour = (1.0, 0.99, 0.98)
    cmyk = (*colour, k)
    assert total(cmyk) > limit
    c, m, y, kept = limit_ink(cmyk, limit)
    assert kept == k
    assert total((c, m, y, kept)) == pytest.approx(limit, abs=1e-6)
    # in proportion: the hue of C, M and Y is kept
    assert (c / colour[0], m / colour[1]) == (pytest.approx(y / colour[2]), pytest.approx(y / colour[2]))


@pytest.mark.parametrize("limit", LIMITS)
@pytest.mark.parametrize("k", [0.1, 0.9])
@pytest.mark.parametrize("below", [0.0, 0.5, 1.0])
def test_a_colour_at_or_just_under_the_limit_is_left_alone(limit, k, below):
    colour_ink = (limit - below) / 100 - k
    cmyk = (colour_ink / 2, colour_ink / 4, colour_ink / 4, k)
    assert limit_ink(cmyk, limit) == cmyk


@pytest.mark.parametrize("limit", LIMITS)
def test_one_point_over_the_limit_is_taken_down(limit):
    k = 0.9
    colour_ink = (limit + 1) / 100 - k
    cmyk = (colour_ink / 3, colour_ink / 3, colour_ink / 3, k)
    assert total(limit_ink(cmyk, limit)) == pytest.approx(limit, abs=1e-6)


def test_a_low_limit_takes_down_even_a_little_colour_ink():
    """Under a dark K, less than 100 % of C+M+Y can still be over a low limit."""
    c, m, y, k = limit_ink((0.3, 0.3, 0.3, 1.0), 150)
    assert (c, m, y, k) == (pytest.approx(1 / 6), pytest.approx(1 / 6), pytest.approx(1 / 6), 1.0)


def test_a_limit_k_alone_reaches_leaves_no_colour_ink():
    assert limit_ink((0.5, 0.5, 0.5, 1.0), 100) == (0.0, 0.0, 0.0, 1.0)


def test_no_colour_ink_is_left_as_it_is():
    assert limit_ink((0.0, 0.0, 0.0, 1.0), 50) == (0.0, 0.0, 0.0, 1.0)


# ---- the palette: every separated layout colour within the limit --------------------------------

DARK = ["#111111", "#000000", "#1A1A2E", "#2D3142", "#3B0A0A", "#0B2A0B", "#101030", "#D7263D"]


@pytest.mark.parametrize("limit", LIMITS)
@pytest.mark.parametrize("name, palette", CMYK_PROFILES, ids=[name for name, _ in CMYK_PROFILES])
@pytest.mark.parametrize("area", [True, False])
def test_dark_layout_colours_separate_within_every_limit(name, palette, limit, area):
    limited = Palette("cmyk", limit, palette.rich_black, palette.press)
    for value in DARK:
        cmyk = limited.cmyk(value, area)
        assert total(cmyk) <= limit + 1e-6, (name, limit, value, cmyk)


@pytest.mark.parametrize("name, palette", CMYK_PROFILES, ids=[name for name, _ in CMYK_PROFILES])
def test_the_ink_limit_of_a_dark_grey_area_is_met_with_its_k_kept(name, palette):
    """#111111 separates (FOGRA39) to some 285 %: at a 260 % limit (or 20 points under what
    the press gives it) K stays and C, M and Y make up the rest, to the limit."""
    unlimited = Palette("cmyk", 400, None, palette.press).cmyk("#111111", area=True)
    limit = min(260, round(total(unlimited)) - 20)
    limited = Palette("cmyk", limit, None, palette.press).cmyk("#111111", area=True)
    assert limited[3] == unlimited[3] > 0.5
    assert limit - 1 <= total(limited) <= limit


@pytest.mark.parametrize("limit", LIMITS)
@pytest.mark.parametrize("name, palette", CMYK_PROFILES, ids=[name for name, _ in CMYK_PROFILES])
def test_picture_pixels_with_k_high_and_low_stay_within_the_limit(name, palette, limit):
    import numpy
    limited = Palette("cmyk", limit, palette.rich_black, palette.press)
    pixels = [(250, 240, 230, 250), (250, 240, 230, 20), (10, 10, 10, 10), (255, 255, 255, 255)]
    image = Image.new("CMYK", (len(pixels), 1))
    image.putdata(pixels)
    out = numpy.asarray(limited.picture(image), dtype=float)
    totals = out.sum(axis=-1) / 255 * 100
    assert totals.max() <= limit + 1e-6, totals
    assert list(out[0, :, 3]) == [p[3] for p in pixels]           # K kept
    assert tuple(out[0, 2]) == (10, 10, 10, 10)                    # under the limit: untouched
    # C, M and Y come down only as far as the limit needs (whole steps, rounded down)
    for index, pixel in enumerate(pixels):
        if sum(pixel) / 255 * 100 > limit:
            assert limit - 3 * 100 / 255 <= float(totals[0, index]) <= limit, (index, totals)


def test_a_separated_picture_stays_a_cmyk_image_and_an_rgb_palette_leaves_it_alone():
    image = Image.new("CMYK", (2, 1), (250, 240, 230, 250))
    palette = Palette("cmyk", 240, None, CMYK_PROFILES[0][1].press)
    assert palette.picture(image).mode == "CMYK"
    rgb = Image.new("RGB", (2, 1), (10, 20, 30))
    assert Palette().picture(rgb) is rgb


# ---- preflight: total ink of what a file paints ----------------------------------------------------

def _pdf(content: bytes, pixels: tuple[int, int] | None = None) -> pikepdf.Pdf:
    """A page painting `content`; with `pixels`, a CMYK image of that size named /Im."""
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(200, 200))
    page = pdf.pages[0]
    page.obj.Resources = pikepdf.Dictionary()
    if pixels:
        image = pikepdf.Stream(pdf, bytes(pixels[0] * pixels[1] * 4), Type=pikepdf.Name.XObject,
                               Subtype=pikepdf.Name.Image, Width=pixels[0], Height=pixels[1],
                               ColorSpace=pikepdf.Name.DeviceCMYK, BitsPerComponent=8)
        page.obj.Resources.XObject = pikepdf.Dictionary({"/Im": image})
    page.contents_add(pikepdf.Stream(pdf, content), prepend=False)
    return pdf


def _ink_check(content: bytes, palette: Palette) -> bool:
    pdf = _pdf(content)
    walk = preflight_module._Walk(pdf)
    report = preflight_module.FileReport("x.pdf")
    buffer = io.BytesIO()
    pdf.save(buffer)

    class Spec:
        pass
    spec = Spec()
    spec.palette = palette
    preflight_module._colour(report, walk, spec, buffer.getvalue())
    return {c.criterion: c.ok for c in report.checks}["ink"]


@pytest.mark.parametrize("name, palette", CMYK_PROFILES, ids=[name for name, _ in CMYK_PROFILES])
@pytest.mark.parametrize("k", [0.1, 0.9])
def test_preflight_counts_k_in_the_total_ink(name, palette, k):
    limit = palette.ink_limit / 100
    at = (limit - k) / 3
    over = (limit + 0.02 - k) / 3
    assert _ink_check(f"{at:.4f} {at:.4f} {at:.4f} {k} k 10 10 50 50 re f".encode(), palette)
    assert not _ink_check(f"{over:.4f} {over:.4f} {over:.4f} {k} k 10 10 50 50 re f".encode(), palette)


# ---- image resolution, axis by axis --------------------------------------------------------------

def _placed_image_ppi(pixels: tuple[int, int], placed_pt: tuple[float, float], turned: bool = False) -> float:
    w, h = placed_pt
    matrix = f"0 {w} {-h} 0 100 10" if turned else f"{w} 0 0 {h} 10 10"
    pdf = _pdf(f"q {matrix} cm /Im Do Q".encode(), pixels)
    walk = preflight_module._Walk(pdf)
    (found,) = walk.images
    return found["ppi"]


@pytest.mark.parametrize("pixels, placed, ppi", [
    ((300, 300), (72, 72), 300),
    ((300, 10), (72, 72), 10),          # sharp across, 10 ppi down: a 10 ppi image
    ((10, 300), (72, 72), 10),
    ((600, 300), (72, 72), 300),
    ((300, 300), (72, 144), 150),       # stretched down to twice its height
    ((300, 600), (72, 144), 300),       # twice as tall, placed twice as tall
    ((600, 300), (144, 72), 300),
])
def test_an_images_resolution_is_that_of_its_worse_axis(pixels, placed, ppi):
    assert _placed_image_ppi(pixels, placed) == pytest.approx(ppi)
    assert _placed_image_ppi(pixels, placed, turned=True) == pytest.approx(ppi)


def test_preflight_fails_an_image_sharp_on_one_axis_only():
    pdf = _pdf(b"q 72 0 0 72 10 10 cm /Im Do Q", (300, 10))
    report = preflight_module.FileReport("x.pdf")
    preflight_module._images(report, preflight_module._Walk(pdf), 300)
    (check,) = report.checks
    assert check.ok is False and "lowest 10 ppi" in check.detail


@pytest.mark.parametrize("ppi, ok", [(300, True), (299.6, True), (299.4, False), (150, False)])
def test_the_lowest_resolution_passes_at_the_limit_and_fails_under_it(ppi, ok):
    pdf = _pdf(f"q {300 / ppi * 72:.6f} 0 0 72 10 10 cm /Im Do Q".encode(), (300, 300))
    report = preflight_module.FileReport("x.pdf")
    preflight_module._images(report, preflight_module._Walk(pdf), 300)
    (check,) = report.checks
    assert check.ok is ok, check.detail


def test_a_stencil_mask_is_not_judged_for_resolution():
    pdf = _pdf(b"q 72 0 0 72 10 10 cm /Im Do Q")
    page = pdf.pages[0]
    page.obj.Resources.XObject = pikepdf.Dictionary({"/Im": pikepdf.Stream(
        pdf, bytes(2 * 10), Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=10, Height=10,
        ImageMask=True, BitsPerComponent=1)})
    report = preflight_module.FileReport("x.pdf")
    preflight_module._images(report, preflight_module._Walk(pdf), 300)
    (check,) = report.checks
    assert check.ok is True, check.detail


def _png(dpi: tuple[float, float], size: tuple[int, int]) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(buffer, "PNG", dpi=dpi)
    return buffer.getvalue()


@pytest.mark.parametrize("dpi, ok", [((300, 300), True), ((300, 10), False), ((10, 300), False),
                                     ((300, 600), False)])
def test_a_card_pngs_resolution_is_checked_on_both_axes(dpi, ok):
    project = Project(ROOT)
    (profile,) = [p for p in load_profiles(project, profile_names(project))
                  if p.cards is not None and p.cards.format == "png"][:1]
    size = profile.cards.sizes[0].pixels
    report = preflight_module.preflight("card.png", _png(dpi, size), profile)
    assert {c.criterion: c.ok for c in report.checks}["png-resolution"] is ok
