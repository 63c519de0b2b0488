"""Every tiled board opens with its assembly map: the whole board drawn small with each tile's
label (A1, A2, ...) in the part of the board that tile shows, on a page of its own before the
tiles; and no booklet page ends with a heading. Read from the PDFs `pnp build` writes."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
import yaml

from conftest import MM, PAPERS, SAMPLE, page_drawing, pnp, replace_in
from generator.app.loading import load_games
from generator.load.project import Project
from generator.layout.tiles import plan_tiles


ROOT = Path(__file__).resolve().parent.parent
TILES = yaml.safe_load((ROOT / "templates" / "sheets" / "tiles.yaml").read_text(encoding="utf-8"))
TILE_TITLE = re.compile(r"([A-Z])(\d+) \((\d+)/(\d+), (\d+)/(\d+)\)")


@pytest.fixture(scope="module")
def boards_pdf(tmp_path_factory) -> tuple[Path, dict]:
    """The boards of a copy of the sample game whose hexagon is 400 x 370 mm, tiled on A4 in
    rows and columns both, and whose square fits one sheet; and its boards' data."""
    project = tmp_path_factory.mktemp("board-map") / "sample"
    shutil.copytree(SAMPLE, project)
    game = project / "components" / "sample-game"
    boards = game / "boards.yaml"
    replace_in(boards, "size_mm: [260, 240]", "size_mm: [400, 370]")
    replace_in(game / "layouts.yaml", "size_mm: [260, 240]", "size_mm: [400, 370]")
    replace_in(game / "layouts.yaml", "box: [0, 0, 260, 240]", "box: [0, 0, 400, 370]")
    result = pnp("build", "--kind", "boards", "--paper", "a4", project=project)
    assert result.exit_code == 0, result.output + result.traceback
    pdf = project / "output" / "sample-game" / "standard" / "en" / "sample-game-standard-en-boards-a4.pdf"
    return pdf, yaml.safe_load(boards.read_text(encoding="utf-8"))["boards"]


def label_boxes(page, label: str) -> list[tuple[float, float, float, float]]:
    """Page mm boxes (left, bottom, right, top) of every whole-word occurrence of `label`."""
    textpage = page.get_textpage()
    searcher = textpage.search(label, match_case=True, match_whole_word=True)
    found = []
    while (hit := searcher.get_next()) is not None:
        index, count = hit
        boxes = [textpage.get_charbox(index + i) for i in range(count)]
        found.append((min(b[0] for b in boxes) / MM, min(b[1] for b in boxes) / MM,
                      max(b[2] for b in boxes) / MM, max(b[3] for b in boxes) / MM))
    return found


def test_each_board_opens_with_a_map_that_puts_every_tile_label_where_its_tile_goes(boards_pdf):
    path, boards = boards_pdf
    document = pdfium.PdfDocument(str(path))
    pdf = pikepdf.open(path)
    try:
        texts = [page.get_textpage().get_text_range() for page in document]
        index, grids = 0, set()
        for board_id, board in boards.items():
            size = tuple(board["size_mm"])
            _, tiles = plan_tiles(size, PAPERS["a4"], TILES["margin_mm"], TILES["overlap_mm"])
            columns, rows = max(t.column for t in tiles) + 1, max(t.row for t in tiles) + 1
            grids.add((rows, columns))
            if len(tiles) == 1:              # a board that fits one sheet is printed whole, with no map
                assert "Assembly map" not in texts[index] and TILE_TITLE.search(texts[index]), board_id
                index += 1
                continue
            map_text = texts[index]
            assert "Assembly map" in map_text and not TILE_TITLE.search(map_text), f"{board_id}: page {index + 1}"
            # the tiles follow the map, A1 first, each page's title naming its place in the grid
            titles = [TILE_TITLE.search(text).groups() for text in texts[index + 1:index + 1 + len(tiles)]]
            assert [f"{r}{c}" for r, c, *_ in titles] == [f"{chr(65 + t.row)}{t.column + 1}" for t in tiles]
            assert {(int(n), int(m)) for _, _, _, n, _, m in titles} == {(rows, columns)}
            # the board is drawn whole on the map, scaled the same both ways, within the margin
            (x0, y0, w, h), = [form["rect"] for form in page_drawing(pdf.pages[index])["forms"]]
            assert w / size[0] == pytest.approx(h / size[1], rel=1e-3) and w < size[0]
            page_w, page_h = (float(v) / MM for v in pdf.pages[index].mediabox[2:])
            margin = TILES["margin_mm"]
            assert margin - 0.01 <= x0 and x0 + w <= page_w - margin + 0.01 and y0 >= margin - 0.01
            scale = w / size[0]
            for tile in tiles:
                label = f"{chr(65 + tile.row)}{tile.column + 1}"
                (left, bottom, right, top), = label_boxes(document[index], label)
                cx, cy = ((left + right) / 2 - x0) / scale, ((bottom + top) / 2 - y0) / scale   # board mm
                # inside the tile's window, and clear of the strips its right and lower neighbours cover
                right_edge = tile.x_mm + tile.w_mm - (TILES["overlap_mm"] if tile.column < columns - 1 else 0)
                low_edge = tile.y_mm + (TILES["overlap_mm"] if tile.row < rows - 1 else 0)
                assert tile.x_mm < cx < right_edge and low_edge < cy < tile.y_mm + tile.h_mm, (board_id, label, cx, cy)
            index += 1 + len(tiles)
        assert index == len(document)
        assert (1, 1) in grids and any(rows > 1 and columns > 1 for rows, columns in grids), grids
    finally:
        pdf.close()
        document.close()


# ---- no heading ends a page ------------------------------------------------------------------

GAMES = {game.slug: game for game in load_games(Project(ROOT), texts=False)}
BOOKLETS = [(slug, edition, locale) for slug, game in sorted(GAMES.items()) if game.booklet.get("sections")
            for locale in game.locales for edition in game.editions]
# A5: the page number stands in the bottom margin (16 mm), under every line of content.
CONTENT_BOTTOM_MM = 16
SPACES = re.compile(r"\s+")


def headings(content) -> set[str]:
    """The texts the booklet prints as headings: the sections', the examples', the cards'."""
    found = {section.title for section in content.sections}
    for section in content.sections:
        for block in section.blocks:
            if block.kind == "example":
                found.add(block.content["title"])
            elif block.kind in ("cards", "card-table"):
                found.update(card.name for card in block.content)
    return {SPACES.sub(" ", text).strip() for text in found}


def last_line(page) -> str:
    """The text of the page's lowest line above the bottom margin."""
    textpage = page.get_textpage()
    bottoms = [textpage.get_charbox(i)[1] for i in range(textpage.count_chars())
               if not textpage.get_text_range(i, 1).isspace()]
    content = [b for b in bottoms if b > CONTENT_BOTTOM_MM * MM]
    if not content:
        return ""
    low = min(content)
    width = page.get_width()
    return SPACES.sub(" ", textpage.get_text_bounded(0, low - 1, width, low + 6)).strip()


@pytest.mark.parametrize("slug, edition, locale", BOOKLETS)
def test_no_booklet_page_ends_with_a_heading(rendered_booklet, slug, edition, locale):
    """The lowest line of every page is not (the end of) a heading: what a heading heads starts
    on its page. The build refuses a booklet that would; this reads the PDF it wrote."""
    content, data = rendered_booklet(slug, edition, locale)
    titles = headings(content)
    document = pdfium.PdfDocument(data)
    try:
        for number, page in enumerate(document, start=1):
            line = last_line(page)
            assert not any(line and title.endswith(line) and len(line) >= min(4, len(title)) for title in titles), \
                f"{slug} {edition} {locale}: page {number} ends with the heading '{line}'"
    finally:
        document.close()

