"""Boards tiled across home paper: the tiles cover the whole board, neighbours overlap by exactly
the glue strip, the strip is hatched, and alignment crosses on a tile meet the corners of the
neighbour glued over it. Checked on `plan_tiles` and on the PDF built through `pnp build`."""
from __future__ import annotations

import ctypes
import shutil
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest
import yaml

from conftest import MM, PAPERS, SAMPLE, line_of, pnp, replace_in
from generator.core.errors import DataError
from generator.layout.tiles import plan_tiles


ROOT = Path(__file__).resolve().parent.parent
GAME = "sample-game"
BOARD = (400.0, 280.0)
TILES = yaml.safe_load((ROOT / "templates" / "sheets" / "tiles.yaml").read_text(encoding="utf-8"))
MARGIN, OVERLAP, MARK = TILES["margin_mm"], TILES["overlap_mm"], TILES["mark_length_mm"]


def neighbours(tiles):
    """(tile, the tile glued over its right or lower glue strip) pairs, with the axis."""
    at = {(t.column, t.row): t for t in tiles}
    for t in tiles:
        for axis, key in (("x", (t.column + 1, t.row)), ("y", (t.column, t.row + 1))):
            if key in at:
                yield t, at[key], axis


def covers(windows, board) -> bool:
    """Every point of the board (every 2.5 mm, edges included) lies in some window."""
    steps = lambda size: [min(i * 2.5, size) for i in range(int(size / 2.5) + 2)]
    tol = 0.01                                        # a PDF stores coordinates rounded
    return all(any(x0 - tol <= x <= x0 + w + tol and y0 - tol <= y <= y0 + h + tol for x0, y0, w, h in windows)
               for x in steps(board[0]) for y in steps(board[1]))


# ---- the plan ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("paper", PAPERS)
def test_a_board_is_covered_by_2_by_2_tiles_that_overlap_by_exactly_the_glue_strip(paper):
    sheet, tiles = plan_tiles(BOARD, PAPERS[paper], MARGIN, OVERLAP)
    assert sheet == PAPERS[paper][::-1]                                  # landscape needs fewer tiles
    assert len(tiles) == 4 and {(t.column, t.row) for t in tiles} == {(0, 0), (1, 0), (0, 1), (1, 1)}
    inner = (sheet[0] - 2 * MARGIN, sheet[1] - 2 * MARGIN)
    for t in tiles:
        assert t.w_mm <= inner[0] + 1e-9 and t.h_mm <= inner[1] + 1e-9
        assert 0 <= t.x_mm and t.x_mm + t.w_mm <= BOARD[0] + 1e-9 and 0 <= t.y_mm and t.y_mm + t.h_mm <= BOARD[1] + 1e-9
    assert covers([(t.x_mm, t.y_mm, t.w_mm, t.h_mm) for t in tiles], BOARD)
    pairs = list(neighbours(tiles))
    assert len(pairs) == 4
    for under, over, axis in pairs:
        if axis == "x":
            assert under.x_mm + under.w_mm - over.x_mm == pytest.approx(OVERLAP)
            assert (over.y_mm, over.h_mm) == pytest.approx((under.y_mm, under.h_mm))
        else:                                                            # rows run downwards
            assert over.y_mm + over.h_mm - under.y_mm == pytest.approx(OVERLAP)
            assert (over.x_mm, over.w_mm) == pytest.approx((under.x_mm, under.w_mm))


@pytest.mark.parametrize("board, paper", [((400, 280), (210, 297)), ((190, 277), (210, 297)),
                                          ((900, 333), (215.9, 279.4)), ((542, 100), (210, 297)),
                                          ((10, 1000), (210, 297))])
def test_any_board_is_covered_with_exact_overlaps(board, paper):
    _, tiles = plan_tiles(board, paper, MARGIN, OVERLAP)
    assert covers([(t.x_mm, t.y_mm, t.w_mm, t.h_mm) for t in tiles], board)
    for under, over, axis in neighbours(tiles):
        overlap = (under.x_mm + under.w_mm - over.x_mm) if axis == "x" else (over.y_mm + over.h_mm - under.y_mm)
        assert overlap == pytest.approx(OVERLAP)
    # where a side takes several tiles, none of them is all glue strip
    columns, rows = {t.column for t in tiles}, {t.row for t in tiles}
    assert all(t.w_mm > OVERLAP for t in tiles) or len(columns) == 1
    assert all(t.h_mm > OVERLAP for t in tiles) or len(rows) == 1


def test_a_board_that_fits_is_one_tile():
    _, tiles = plan_tiles((180, 250), (210, 297), MARGIN, OVERLAP)
    assert [(t.x_mm, t.y_mm, t.w_mm, t.h_mm) for t in tiles] == [(0, 0, 180, 250)]


def test_no_room_for_a_tile_is_a_located_error():
    with pytest.raises(DataError) as caught:
        plan_tiles(BOARD, (210, 297), 100, OVERLAP, source=("templates/sheets/tiles.yaml", 3))
    (problem,) = caught.value.problems
    assert (problem.file, problem.line, problem.key) == ("templates/sheets/tiles.yaml", 3, "overlap_mm")
    assert "no room for a tile" in problem.message


# ---- the built PDF --------------------------------------------------------------------------------------

def _mul(m, n):
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2,
            e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def read_tile(page) -> dict:
    """The board window a tile page shows (board mm), the translation from page to board, the
    centres of its alignment crosses (page mm) and its dashed rectangles (the glue strips)."""
    ctm, stack, rects, lines, dashed = (1, 0, 0, 1, 0, 0), [], [], [], False
    window = shift = None
    current = None
    strips = []
    for operands, operator in pikepdf.parse_content_stream(page):
        op = str(operator)
        if op == "q":
            stack.append((ctm, dashed))
        elif op == "Q":
            ctm, dashed = stack.pop()
        elif op == "cm":
            ctm = _mul([float(v) for v in operands], ctm)
            if window is None and rects:
                window, shift = rects[-1], (ctm[4] / MM, ctm[5] / MM)
        elif op == "d":
            dashed = len(operands[0]) > 0
        elif op == "re":
            x, y, w, h = (float(v) / MM for v in operands)
            rects.append((x, y, w, h))
            if dashed:
                strips.append((x, y, w, h))
        elif op == "m":
            current = (float(operands[0]) / MM + ctm[4] / MM, float(operands[1]) / MM + ctm[5] / MM)
        elif op == "l" and current is not None:
            end = (float(operands[0]) / MM + ctm[4] / MM, float(operands[1]) / MM + ctm[5] / MM)
            lines.append((current, end))
            current = end
    horizontal = {(round((a[0] + b[0]) / 2, 3), round(a[1], 3)) for a, b in lines
                  if abs(a[1] - b[1]) < 1e-6 and abs(abs(a[0] - b[0]) - 2 * MARK) < 1e-3}
    vertical = {(round(a[0], 3), round((a[1] + b[1]) / 2, 3)) for a, b in lines
                if abs(a[0] - b[0]) < 1e-6 and abs(abs(a[1] - b[1]) - 2 * MARK) < 1e-3}
    x, y, w, h = window
    board_window = (x - shift[0], y - shift[1], w, h)
    return {"window": board_window, "page_window": window, "shift": shift,
            "crosses": horizontal & vertical, "strips": strips}


def tiled_sample(folder: Path) -> Path:
    """A copy of the sample project in `folder/sample` whose hexagon board is 400 x 280 mm, two
    by two tiles on A4, and whose boards also draw a numbered track from START to END and, after
    it, a numbered clock with a caption."""
    project = folder / "sample"
    shutil.copytree(SAMPLE, project)
    game = project / "components" / "sample-game"
    replace_in(game / "boards.yaml", "    size_mm: [260, 240]", "    size_mm: [400, 280]")
    replace_in(game / "layouts.yaml", "    size_mm: [260, 240]", "    size_mm: [400, 280]")
    replace_in(game / "layouts.yaml", "box: [0, 0, 260, 240]", "box: [0, 0, 400, 280]")
    replace_in(game / "boards.yaml", "boards:\n", (
        "    track:\n      shape: track\n      box: [5, 20, 170, 14]\n      spaces: 4\n      start: START\n"
        "      finish: END\n      row_length: 6\n"
        '      space: {form: rect, size_mm: [24, 14], fill: "#FFFFFF", stroke: "#1E1E1E", stroke_width: 0.4, '
        'text_colour: "#1E1E1E", font: bold, text_size: 10}\n'
        "    clock:\n      shape: track\n      box: [5, 3, 100, 12]\n      spaces: 6\n      label: Clock\n"
        "      label_at: [110, 6]\n"
        '      space: {form: circle, diameter_mm: 10, fill: "#FFFFFF", stroke: "#1E1E1E", stroke_width: 0.4, '
        'text_colour: "#1E1E1E", font: bold, text_size: 8}\n'
        "boards:\n"))
    return project


@pytest.fixture(scope="module")
def tiled(tmp_path_factory) -> Path:
    return tiled_sample(tmp_path_factory.mktemp("tiled"))


@pytest.fixture(scope="module")
def built(tiled):
    out = tiled.parent / "out"
    result = pnp("build", "--kind", "boards", "--paper", "a4", "--out", str(out), project=tiled)
    assert result.exit_code == 0, result.output + result.traceback
    return out / GAME / "standard" / "en" / f"{GAME}-standard-en-boards-a4.pdf"


HEXAGON = "Hexagon ring"


def _board_pages(path: Path) -> list[int]:
    """The pages of the hexagon board: its assembly map, then its tiles."""
    document = pdfium.PdfDocument(str(path))
    try:
        texts = [document[index].get_textpage().get_text_range() for index in range(len(document))]
    finally:
        document.close()
    return [index for index, text in enumerate(texts) if f"{HEXAGON} · " in text]


def _tiles(path: Path) -> tuple[list[dict], list[str]]:
    """The hexagon's tile pages (after the board's assembly map)."""
    pages = _board_pages(path)[1:]
    with pikepdf.open(path) as pdf:
        tiles = [read_tile(pdf.pages[index]) for index in pages]
    document = pdfium.PdfDocument(str(path))
    try:
        texts = [document[index].get_textpage().get_text_range() for index in pages]
    finally:
        document.close()
    return tiles, texts


def test_the_built_board_is_four_labelled_tiles_covering_it_with_exact_overlaps(built):
    tiles, texts = _tiles(built)
    assert len(tiles) == 4
    for text, name in zip(texts, ("A1 (1/2, 1/2)", "A2 (1/2, 2/2)", "B1 (2/2, 1/2)", "B2 (2/2, 2/2)")):
        assert name in text
    windows = [t["window"] for t in tiles]
    assert covers(windows, BOARD)
    a1, a2, b1, b2 = windows
    assert a1[0] + a1[2] - a2[0] == pytest.approx(OVERLAP, abs=0.01) and b1[0] + b1[2] - b2[0] == pytest.approx(OVERLAP, abs=0.01)
    assert b1[1] + b1[3] - a1[1] == pytest.approx(OVERLAP, abs=0.01) and b2[1] + b2[3] - a2[1] == pytest.approx(OVERLAP, abs=0.01)
    for tile in tiles:                                        # the window sits on the margin
        assert tile["page_window"][:2] == pytest.approx((MARGIN, MARGIN), abs=0.01)


def test_glue_strips_are_exactly_the_overlap_on_the_right_and_lower_edges(built):
    tiles, _ = _tiles(built)
    for index, tile in enumerate(tiles):
        x, y, w, h = tile["page_window"]
        expected = []
        if index in (0, 2):                                   # A1, B1 have a neighbour on the right
            expected.append((x + w - OVERLAP, y, OVERLAP, h))
        if index in (0, 1):                                   # A1, A2 have one below
            expected.append((x, y, w, OVERLAP))
        flat = lambda rects: [v for rect in sorted(rects) for v in rect]
        assert flat(tile["strips"]) == pytest.approx(flat(expected), abs=0.01), f"tile {index}"


def test_the_corners_of_a_tile_glued_on_top_land_on_crosses_of_the_tile_below(built):
    tiles, _ = _tiles(built)
    to_board = lambda tile, point: (round(point[0] - tile["shift"][0], 2), round(point[1] - tile["shift"][1], 2))
    for under, over in ((0, 1), (2, 3), (0, 2), (1, 3)):      # A1-A2, B1-B2, A1-B1, A2-B2
        below, above = tiles[under], tiles[over]
        x, y, w, h = below["window"]
        marks = {to_board(below, c) for c in below["crosses"]}
        corners = {to_board(above, c) for c in above["crosses"]}
        # the upper tile's cut edge: its window's corners, wherever they lie on the lower tile
        ox, oy, ow, oh = above["window"]
        edge = {(round(cx, 2), round(cy, 2)) for cx in (ox, ox + ow) for cy in (oy, oy + oh)
                if x - 1e-6 <= cx <= x + w + 1e-6 and y - 1e-6 <= cy <= y + h + 1e-6}
        assert len(edge) == 2 and edge <= corners, "the upper tile marks its own corners"
        assert edge <= marks, f"tile {over}'s corners {sorted(edge)} have no cross under them on tile {under}"


def text_objects(page) -> list[tuple[str, str, bool]]:
    """(text, font name, embedded) of every text object on a pdfium page, forms included, in order."""
    textpage = page.get_textpage()
    found = []
    for obj in page.get_objects(filter=[raw.FPDF_PAGEOBJ_TEXT], max_depth=8):
        size = raw.FPDFTextObj_GetText(obj.raw, textpage.raw, None, 0)
        buffer = (ctypes.c_ushort * (size // 2))()
        raw.FPDFTextObj_GetText(obj.raw, textpage.raw, buffer, size)
        font = raw.FPDFTextObj_GetFont(obj.raw)
        name = ctypes.create_string_buffer(raw.FPDFFont_GetBaseFontName(font, None, 0))
        raw.FPDFFont_GetBaseFontName(font, name, len(name))
        found.append((bytes(buffer)[:-2].decode("utf-16-le").strip(), name.value.decode(), bool(raw.FPDFFont_GetIsEmbedded(font))))
    return found


def test_every_text_of_the_board_and_every_clock_number_is_in_an_embedded_shipped_font(tiled, built):
    """The clock's numbers 1 to its last field come right after the track's finish (shapes are
    drawn in the order written), each in an embedded Noto font, like every other text on the
    tiles (so they print the same anywhere)."""
    shapes = yaml.safe_load((tiled / "components" / GAME / "boards.yaml").read_text(encoding="utf-8"))["design"]["shapes"]
    document = pdfium.PdfDocument(str(built))
    try:
        pages = [text_objects(document[index]) for index in _board_pages(built)]
    finally:
        document.close()
    assert len(pages) == 5                                    # the assembly map, then the tiles
    assert all(embedded and font.startswith("Noto") for _, font, embedded in pages[0])
    for objects in pages[1:]:
        assert all(embedded and font.startswith("Noto") for _, font, embedded in objects), objects
        texts = [text for text, _, _ in objects]
        after_finish = texts[texts.index(shapes["track"]["finish"]) + 1:]
        numbers = [int(text) for text in after_finish if text.isdigit()]
        assert numbers == list(range(1, shapes["clock"]["spaces"] + 1))
        assert shapes["clock"]["label"] in after_finish


def test_tiles_that_cannot_fit_the_paper_are_reported_with_the_sheet(tmp_path):
    project = tmp_path / "sample"
    shutil.copytree(SAMPLE, project)
    (project / "templates" / "sheets").mkdir(parents=True)
    shutil.copy(ROOT / "templates" / "sheets" / "tiles.yaml", project / "templates" / "sheets" / "tiles.yaml")
    replace_in(project / "templates" / "sheets" / "tiles.yaml", "margin_mm: 10", "margin_mm: 100")
    result = pnp("build", "--paper", "a4", "--out", str(tmp_path / "out"), project=project)
    assert result.exit_code == 1, result.output
    line = line_of(project / "templates" / "sheets" / "tiles.yaml", "overlap_mm:")
    assert result.stderr.splitlines() == [f"templates/sheets/tiles.yaml:{line}: overlap_mm: a 100 mm margin on each side "
                                          "and a 12 mm glue strip leave no room for a tile on 210 x 297 mm paper",
                                          "1 problem(s) found."]
    assert not result.traceback and not (tmp_path / "out").exists()
