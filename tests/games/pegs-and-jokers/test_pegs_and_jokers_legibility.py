"""Pegs and Jokers' boards, read off the built Ukrainian sheet: the octagon's dark side shows its
come-out hole. Its tokens' and boards' texts are read with every game's
(tests/games/test_every_games_legibility.py)."""
from __future__ import annotations

import math

import pikepdf
import pytest

from conftest import MARK_RATIO, contrast_ratio, hex_rgb, painted_shapes, pdf_forms, pnp, same_colour

GAME, LOCALE = "pegs-and-jokers", "uk"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("legible")
    result = pnp("build", "--game", GAME, "--locale", LOCALE, "--paper", "a4", "--kind", "boards", "--out", str(out))
    assert result.exit_code == 0, result.output[-2000:]
    return out


def pdf_of(out, kind: str) -> pikepdf.Pdf:
    return pikepdf.open(next(out.glob(f"{GAME}/*/*/*-{kind}-a4.pdf")))


DARK_SIDE = "#263238"           # the side whose come-out hole could not be seen
HOLE_MM = 12.0                  # a hole's diameter, boards.yaml


def circle(shape, diameter_mm: float) -> bool:
    x0, y0, x1, y1 = shape.get("box", (0, 0, 0, 0))
    return abs((x1 - x0) - diameter_mm) < 0.3 and abs((y1 - y0) - diameter_mm) < 0.3


def centre(shape) -> tuple[float, float]:
    x0, y0, x1, y1 = shape["box"]
    return (x0 + x1) / 2, (y0 + y1) / 2


def inside(point, polygon) -> bool:
    x, y = point
    crossings = 0
    for (ax, ay), (bx, by) in zip(polygon, polygon[1:] + polygon[:1]):
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            crossings += 1
    return crossings % 2 == 1


def test_the_octagons_dark_side_come_out_hole_stands_out_from_its_band(built):
    pdf = pdf_of(built, "boards")        # kept open while its forms are read
    shapes = painted_shapes(pdf_forms(pdf)["/FormXob.board-octagon"])
    dark = hex_rgb(DARK_SIDE)
    bands = [s for s in shapes if "box" in s and s["fill"] and same_colour(s["fill"], dark) and len(s["points"]) == 4]
    assert len(bands) == 1, "one side's band is drawn in the dark colour"
    band = bands[0]
    holes = [s for s in shapes if circle(s, HOLE_MM) and s["fill"] and inside(centre(s), band["points"])]
    assert len(holes) == 18, "the dark side's band holds its 18 track holes"
    come_out = [s for s in holes if same_colour(s["fill"], dark)]
    assert len(come_out) == 1, "one hole of the band is filled in the band's colour: the come-out hole"
    hole = come_out[0]
    assert hole["stroke"] and contrast_ratio(hole["stroke"], dark) >= MARK_RATIO, \
        f"its outline {hole['stroke']} must stand out from the band {DARK_SIDE}"
    rings = [s for s in shapes if s["fill"] is None and s.get("stroke") and "box" in s
             and math.dist(centre(s), centre(hole)) < 0.1 and s["box"][2] - s["box"][0] > HOLE_MM + 1]
    assert rings and all(contrast_ratio(ring["stroke"], dark) >= MARK_RATIO for ring in rings), "its ring stands out too"
    # every other hole of the band shows by its fill or its outline
    for other in holes:
        assert max(contrast_ratio(other["fill"], dark), contrast_ratio(other["stroke"] or other["fill"], dark)) >= MARK_RATIO
