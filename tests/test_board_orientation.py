"""A loop board plays clockwise (unless its data says otherwise) with side 1 along the bottom,
and the holes of each side run in the direction of play from the side's first corner. Checked
on the printed board (where each side's colour lies on the page) and on the laid-out spaces.

The sample game's boards: a square and a hexagon ring of 8 spaces a side, each side in its own
colour, with a start area in that colour beside space 4: before the side's middle in the
direction of play, so each side's colour leans towards the side play comes from."""
from __future__ import annotations

import math

import numpy
import pypdfium2 as pdfium
import pytest
import yaml

from conftest import SAMPLE, pnp


GAME = "sample-game"
DESIGN = yaml.safe_load((SAMPLE / "components" / GAME / "boards.yaml").read_text(encoding="utf-8"))["design"]
SIDE_COLOURS = [tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in DESIGN["shapes"]["ring"]["side_colours"]]


@pytest.fixture(scope="module")
def boards(tmp_path_factory) -> dict[int, list[tuple[float, float, int]]]:
    """The side colours' centroids of each whole ring on the pages of the sample game's A4 board
    file, by number of sides."""
    out = tmp_path_factory.mktemp("boards") / "out"
    result = pnp("build", "--kind", "boards", "--paper", "a4", "-j", "1", "--out", str(out), project=SAMPLE)
    assert result.exit_code == 0, result.output + result.traceback
    document = pdfium.PdfDocument((out / GAME / "standard" / "en" / f"{GAME}-standard-en-boards-a4.pdf").read_bytes())
    try:
        pages = [numpy.asarray(page.render(scale=1.5).to_pil().convert("RGB")).astype(numpy.int16) for page in document]
    finally:
        document.close()
    return whole_boards(pages)


def side_centroids(page: numpy.ndarray) -> list[tuple[float, float, int]]:
    """(x, y up, pixels) of each side colour's paint on the page."""
    found = []
    for colour in SIDE_COLOURS:
        ys, xs = numpy.nonzero(numpy.abs(page - numpy.array(colour)).sum(axis=-1) <= 6)
        found.append((float(xs.mean()) if len(xs) else 0.0, -float(ys.mean()) if len(ys) else 0.0, len(xs)))
    return found


def whole_boards(pages) -> dict[int, list[tuple[float, float, int]]]:
    """Pages showing a whole ring of `sides` sides (each of its side colours about equally, no
    other), by number of sides."""
    found = {}
    for page in pages:
        centroids = side_centroids(page)
        counts = [n for _, _, n in centroids]
        sides = sum(1 for n in counts if n)
        if sides >= 3 and counts[:sides] and all(counts[:sides]) and not any(counts[sides:]) \
                and max(counts[:sides]) < 1.2 * min(counts[:sides]):
            found.setdefault(sides, centroids[:sides])
    return found


def test_the_printed_boards_include_a_whole_square_and_hexagon_ring(boards):
    assert set(boards) == {4, 6}


@pytest.mark.parametrize("sides", [4, 6])
def test_side_1_is_at_the_bottom_and_play_runs_clockwise(boards, sides):
    centroids = boards[sides]
    cx = sum(x for x, _, _ in centroids) / sides
    cy = sum(y for _, y, _ in centroids) / sides
    for side, (x, y, _) in enumerate(centroids, start=1):
        angle = math.degrees(math.atan2(y - cy, x - cx))
        # side 1 faces down (-90 degrees); each next side a turn of 360/sides clockwise
        expected = -90 - (side - 1) * 360 / sides
        off = (angle - expected + 180) % 360 - 180
        assert abs(off) < 180 / sides, f"side {side} of the {sides}-sided ring lies at {angle:.0f} degrees, " \
                                       f"not {expected:.0f}"
        # its start area (space 4 of 8) lies before the side's middle in the direction of play:
        # the colour leans anticlockwise of the side's middle
        assert off > 0.5, f"side {side}'s holes run against the direction of play ({off:.1f} degrees)"


# ---- the laid-out spaces -----------------------------------------------------------------------

def ring_of(direction: str | None, sides: int = 4):
    from generator.load.shapes.loop import SHAPE
    spec = {"sides": sides, "spaces": 8, "pitch_mm": 14}
    if direction:
        spec["direction"] = direction
    layout = SHAPE.lay_out(spec, (300, 300))
    return [space for space in layout.spaces if space.part == ""]


def signed_area(ring) -> float:
    points = [space.centre for space in ring]
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1])) / 2


@pytest.mark.parametrize("sides", [4, 6, 8])
@pytest.mark.parametrize("direction, clockwise", [(None, True), ("clockwise", True), ("anticlockwise", False)])
def test_the_track_runs_in_the_direction_the_data_asks(direction, clockwise, sides):
    ring = ring_of(direction, sides)
    # millimetres from the board's lower left corner, y up: clockwise is a negative signed area
    assert (signed_area(ring) < 0) is clockwise
    side_1 = [space for space in ring if space.side == 1]
    lowest = min(space.centre[1] for space in ring)
    assert all(abs(space.centre[1] - lowest) < 1e-6 for space in side_1), "side 1 is not along the bottom"
    xs = [space.centre[0] for space in sorted(side_1, key=lambda s: s.index)]
    # clockwise, the bottom side is walked from right to left
    assert xs == sorted(xs, reverse=clockwise)
