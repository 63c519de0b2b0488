"""Grid boards of hex and square cells (tests/fixtures/hexmap): each cell's centre and corners
where the hex maths of Red Blob Games' guide puts them, its neighbours the cells one cell away,
its id a column letter and a row number from the bottom left; a fill or label for a cell the
grid lacks, and a label that does not fit, are located errors; the fixture builds through the
CLI with its large map tiled across pages."""
from __future__ import annotations

import math
import shutil
import string
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import yaml
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po

from conftest import line_of, pnp, replace_in, typeset_as
from generator.layout.boards import lay_out_board


FIXTURE = Path(__file__).resolve().parent / "fixtures" / "hexmap"
GAME = FIXTURE / "components" / "hex-map"
BOARDS = GAME / "boards.yaml"
TOLERANCE_MM = 0.01


@pytest.fixture(scope="module")
def plans():
    data = yaml.safe_load(BOARDS.read_text(encoding="utf-8"))
    faces = yaml.safe_load((GAME / "layouts.yaml").read_text(encoding="utf-8"))["faces"]
    return {board_id: (board["shapes"]["map"], lay_out_board({}, board_id, board, faces, {"name": board["name"]},
                                                             lambda path, source: source))
            for board_id, board in data["boards"].items()}


def expected_centres(shape: dict) -> dict[str, tuple[float, float]]:
    """Each cell's centre as the guide's offset layout gives it (y up, rows from the bottom),
    the whole grid centred in its box."""
    s, columns, rows = shape["side_mm"], shape["columns"], shape["rows"]
    odd = shape["offset"] == "odd"
    raw = {}
    for c in range(columns):
        for r in range(rows):
            if shape["orientation"] == "flat":            # odd-q / even-q: columns shoved up
                raw[c, r] = (1.5 * s * c, math.sqrt(3) * s * (r + 0.5 * ((c % 2 == 1) == odd)))
            else:                                          # odd-r / even-r: rows shoved right
                raw[c, r] = (math.sqrt(3) * s * (c + 0.5 * ((r % 2 == 1) == odd)), 1.5 * s * r)
    # half a hex's width and height beyond the outermost centres
    half_w, half_h = (s, math.sqrt(3) * s / 2) if shape["orientation"] == "flat" else (math.sqrt(3) * s / 2, s)
    xs, ys = [p[0] for p in raw.values()], [p[1] for p in raw.values()]
    x, y, w, h = shape["box"]
    dx = x + (w - (max(xs) - min(xs) + 2 * half_w)) / 2 + half_w - min(xs)
    dy = y + (h - (max(ys) - min(ys) + 2 * half_h)) / 2 + half_h - min(ys)
    return {f"{string.ascii_lowercase[c]}{r + 1}": (px + dx, py + dy) for (c, r), (px, py) in raw.items()}


def drawn_outlines(plan) -> list[list[tuple[float, float]]]:
    return [[tuple(p) for p in placed.spec["points"]] for placed in plan.face.elements
            if placed.spec["type"] == "shape" and placed.spec.get("closed") and str(placed.spec.get("mark", "")).startswith("map.")]


@pytest.mark.parametrize("board", ["valley", "island"])
def test_hex_cells_sit_where_the_hex_maths_puts_them_with_their_corners_drawn(plans, board):
    shape, plan = plans[board]
    assert not plan.problems
    expected = expected_centres(shape)
    cells = {key.removeprefix("map."): space for key, space in plan.spaces.items()}
    assert set(cells) == set(expected)
    s = shape["side_mm"]
    turn = 0 if shape["orientation"] == "flat" else -30
    outlines = drawn_outlines(plan)
    assert len(outlines) == len(expected)
    for cell_id, (ex, ey) in expected.items():
        cx, cy = cells[cell_id].centre
        assert math.dist((cx, cy), (ex, ey)) < TOLERANCE_MM, cell_id
        corners = [(ex + s * math.cos(math.radians(60 * i + turn)), ey + s * math.sin(math.radians(60 * i + turn)))
                   for i in range(6)]
        # the outline drawn for the cell: the one around its centre, corner by corner
        (outline,) = [o for o in outlines if math.dist(o[0], corners[0]) < TOLERANCE_MM
                      and math.dist(o[3], corners[3]) < TOLERANCE_MM]
        assert len(outline) == 6
        assert all(math.dist(a, b) < TOLERANCE_MM for a, b in zip(outline, corners)), cell_id
    x, y, w, h = shape["box"]
    every = [p for o in outlines for p in o]
    assert all(x - TOLERANCE_MM <= px <= x + w + TOLERANCE_MM and y - TOLERANCE_MM <= py <= y + h + TOLERANCE_MM
               for px, py in every)


@pytest.mark.parametrize("board", ["valley", "island", "yard"])
def test_a_cells_neighbours_are_the_cells_one_cell_away(plans, board):
    shape, plan = plans[board]
    cells = {key.removeprefix("map."): space for key, space in plan.spaces.items()}
    # centre to centre: across a hex's flats, or a square's side
    step = math.sqrt(3) * shape["side_mm"] if shape.get("cells") == "hex" else shape["space"]["size_mm"][0]
    counts = set()
    for cell_id, space in cells.items():
        near = {other for other, o in cells.items() if other != cell_id and abs(math.dist(space.centre, o.centre) - step) < 0.01}
        assert set(space.neighbours) == near and len(space.neighbours) == len(near), cell_id
        counts.add(len(near))
    assert max(counts) == (6 if shape.get("cells") == "hex" else 4)


def test_ids_run_from_a1_at_the_bottom_left(plans):
    for shape, plan in plans.values():
        cells = {key.removeprefix("map."): space for key, space in plan.spaces.items()}
        columns = string.ascii_lowercase[:shape["columns"]]
        assert set(cells) == {f"{c}{r}" for c in columns for r in range(1, shape["rows"] + 1)}
        for c in columns:                  # up a column, row numbers grow
            ys = [cells[f"{c}{r}"].centre[1] for r in range(1, shape["rows"] + 1)]
            assert ys == sorted(ys) and len(set(ys)) == len(ys)
        for r in range(1, shape["rows"] + 1):   # along a row, letters run left to right
            xs = [cells[f"{c}{r}"].centre[0] for c in columns]
            assert xs == sorted(xs) and len(set(xs)) == len(xs)


@pytest.fixture
def hexmap(tmp_path) -> Path:
    copy = tmp_path / "hexmap"
    shutil.copytree(FIXTURE, copy)
    return copy


def test_a_fill_or_label_for_a_missing_cell_and_a_label_that_does_not_fit_are_located_errors(hexmap):
    boards = hexmap / "components" / "hex-map" / "boards.yaml"
    replace_in(boards, "          k8: Mine", "          k18: Mine")
    replace_in(boards, "          g5: Castle", "          g5: Castle of the Mountain King beyond the Northern Sea")
    replace_in(boards, '        fills: {c2: "#D9C27E"}', '        fills: {c2: "#D9C27E", f2: "#D9C27E"}')
    result = pnp("validate", project=hexmap)
    assert result.exit_code != 0
    lines = result.output.splitlines()
    where = "components/hex-map/boards.yaml"
    assert (f"{where}:{line_of(boards, 'k18: Mine')}: boards.valley.shapes.map.labels.k18: [hex-map standard en] "
            "no cell 'k18' in this 14 x 10 grid, did you mean 'k8'?") in lines
    assert (f"{where}:{line_of(boards, 'f2: ')}: boards.yard.shapes.map.fills.f2: [hex-map standard en] "
            "no cell 'f2' in this 5 x 4 grid, did you mean 'e2'?") in lines
    assert any(line.startswith(f"{where}:{line_of(boards, 'g5: Castle')}: boards.valley.shapes.map.labels.g5: ")
               and "text does not fit" in line for line in lines), result.output
    assert "3 problem(s) found." in result.output


def test_the_fixture_builds_its_maps_with_the_large_one_tiled(tmp_path):
    out = tmp_path / "out"
    result = pnp("build", "--kind", "boards", "--paper", "a4", "--out", str(out), "--no-cache", project=FIXTURE)
    assert result.exit_code == 0, result.output + result.traceback
    pdf = pdfium.PdfDocument(out / "hex-map" / "standard" / "en" / "hex-map-standard-en-boards-a4.pdf")
    titles = [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    valley = [text for text in titles if "The Valley · Tile" in text]
    # 250 x 225 mm does not fit an A4 page: tiles A1 and A2, after its assembly map
    assert len(valley) == 2 and len(pdf) == 5
    # each tile prints the ids of the cells it shows, and a cell's label
    assert "a1" in valley[0] and "Lake" in valley[0] and "n10" in valley[1]


def test_a_cells_label_is_taken_into_the_catalogs_and_prints_in_the_boards_locale(hexmap, tmp_path):
    replace_in(hexmap / "components" / "hex-map" / "game.yaml", "  en: released\n", "  en: released\n  ru: released\n")
    assert pnp("i18n", "extract", "hex-map", project=hexmap).exit_code == 0
    po = hexmap / "components" / "hex-map" / "locales" / "ru.po"
    with po.open("rb") as handle:
        catalog = read_po(handle, locale="ru")
    assert catalog.get("Forest", context="boards.valley.shapes.map.labels.e6") is not None
    forms = get_plural("ru").num_plurals
    for message in catalog:
        if message.id:        # complete: every other string as its source, set as ru sets it
            message.string = ((typeset_as("ru", message.id[-1]),) * forms if isinstance(message.id, tuple)
                              else typeset_as("ru", message.id))
    catalog.get("Forest", context="boards.valley.shapes.map.labels.e6").string = "Лес"
    with po.open("wb") as handle:
        write_po(handle, catalog, width=100)
    out = tmp_path / "out"
    result = pnp("build", "--kind", "boards", "--paper", "a4", "--locale", "ru", "--out", str(out), project=hexmap)
    assert result.exit_code == 0, result.output + result.traceback
    pdf = pdfium.PdfDocument(out / "hex-map" / "standard" / "ru" / "hex-map-standard-ru-boards-a4.pdf")
    first_tile = pdf[1].get_textpage().get_text_range()
    assert "Лес" in first_tile and "Forest" not in first_tile
