"""Home kits built through `pnp build`, checked on the real PDFs: paper sizes, embedded fonts,
every card as often as the data says, mirrored backs, crop marks clear of the paper edge and
of the cards, tiled boards, the manifest, and byte-identical rebuilds. Built from a copy of the
sample game whose cards are all poker cards, two decks of them with backs that name their deck."""
from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
import yaml

from conftest import CARD, MM, PAPERS, card_cells, cell_texts, page_drawing, pnp, replace_in, shop_ready_sample

GAME = "sample-game"
EDITION, LOCALE = "standard", "en"
# What these tests read: the card, board and token sheets on every paper.
SELECTION = ("--kind", "cards,boards,tokens")
# A card text in Cyrillic, to be extracted as text from the PDF
CYRILLIC = "Преграждает клетку."


def kit_sample(folder: Path) -> Path:
    """The shop-ready sample (two decks of poker cards: heroes and villains) whose card backs
    also print their deck's name, and whose ogre's text is Russian."""
    project = shop_ready_sample(folder)
    game = project / "components" / GAME
    title = "      - {type: text, field: game_title, box: [6, 38, 51, 12]"
    replace_in(game / "layouts.yaml", title,
               '      - {type: text, field: deck_name, box: [6, 9, 51, 6], font: regular, size: 8, min_size: 6, '
               f'colour: "#FFFFFF", align: center}}\n{title}', count=2)
    replace_in(game / "cards.yaml", "text: Blocks a space.", f"text: {CYRILLIC}")
    return project


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return kit_sample(tmp_path_factory.mktemp("kit"))


@pytest.fixture(scope="module")
def built(project) -> Path:
    out = project.parent / "out"
    result = pnp("build", *SELECTION, "--out", str(out), project=project)
    assert result.exit_code == 0, result.output + result.traceback
    return out


def kit(out: Path, kind: str, paper: str) -> Path:
    return out / GAME / EDITION / LOCALE / f"{GAME}-{EDITION}-{LOCALE}-{kind}-{paper}.pdf"


def game_data(project: Path, name: str):
    return yaml.safe_load((project / "components" / GAME / f"{name}.yaml").read_text(encoding="utf-8"))


def card_named(text: str, names) -> str:
    """The card whose name comes first in the cell's text (a title precedes the effect)."""
    found = [(text.find(name), -len(name), name) for name in names if name in text]
    assert found, f"unknown card text {text!r}"
    return min(found)[2]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_card_appears_as_often_as_its_count(project, built, paper):
    data = game_data(project, "cards")
    expected = {card["name"]: card["count"].get(EDITION, 0) for card in data["cards"].values()}
    pdf = pdfium.PdfDocument(kit(built, "cards", paper))
    seen = Counter()
    for index in range(0, len(pdf), 2):                      # fronts; backs follow each one
        for text in cell_texts(pdf[index], paper).values():
            if not text:
                continue
            seen[card_named(text, expected)] += 1
    assert seen == Counter({name: n for name, n in expected.items() if n})


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_backs_are_mirrored_for_long_edge_duplex(project, built, paper):
    data = game_data(project, "cards")
    decks = data["decks"]
    pdf = pdfium.PdfDocument(kit(built, "cards", paper))
    checked = 0
    for index in range(0, len(pdf), 2):
        fronts, backs = cell_texts(pdf[index], paper), cell_texts(pdf[index + 1], paper)
        for (column, row), text in fronts.items():
            if not text:
                assert not backs[(2 - column, row)]
                continue
            name = card_named(text, [c["name"] for c in data["cards"].values()])
            card = next(c for c in data["cards"].values() if c["name"] == name)
            assert decks[card["deck"]]["name"] in backs[(2 - column, row)]
            checked += 1
    assert checked == 9                                       # 4 knights, 3 archers, 2 ogres


@pytest.mark.parametrize("kind", ["cards", "boards", "tokens"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_paper_size_and_embedded_fonts(built, kind, paper):
    with pikepdf.open(kit(built, kind, paper)) as pdf:
        for page in pdf.pages:
            x0, y0, x1, y1 = [float(v) for v in page.mediabox]
            size = sorted((round((x1 - x0) / MM, 1), round((y1 - y0) / MM, 1)))
            assert size == sorted(PAPERS[paper])
            fonts = page.resources.get("/Font", {})
            assert fonts, "every page names its fonts"
            for font in fonts.values():
                descendants = font.get("/DescendantFonts")
                described = descendants[0] if descendants else font
                descriptor = described.get("/FontDescriptor")
                assert descriptor is not None, f"unembedded font {font.get('/BaseFont')}"
                assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), font.get("/BaseFont")
            # ReportLab's default would be an unembedded standard-14 font
            assert not any(str(f.get("/BaseFont")) in ("/Helvetica", "/Times-Roman") for f in fonts.values())


def test_cyrillic_extracts_as_text(built):
    text = pdfium.PdfDocument(kit(built, "cards", "a4"))[2].get_textpage().get_text_range()    # the villains
    assert CYRILLIC in " ".join(text.split())


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_stay_in_the_margin(built, paper):
    """Rasterise the fronts page: nothing within 5 mm of the paper edge. Then measure every line
    the sheets draw (the crop marks): none runs into a card cell, each starts off a cell's
    corner line, and every cut line between cells is marked on both sides of the grid."""
    document = pdfium.PdfDocument(kit(built, "cards", paper))
    page = document[0]
    scale = 150 / 72
    image = page.render(scale=scale).to_pil().convert("L")
    w, h = image.size
    band = round(5 * MM * scale) - 1          # one pixel of anti-aliasing
    pixels = image.load()
    for x in range(w):
        for y in list(range(band)) + list(range(h - band, h)):
            assert pixels[x, y] > 250, f"ink at {x},{y} within 5 mm of the edge"
    for y in range(h):
        for x in list(range(band)) + list(range(w - band, w)):
            assert pixels[x, y] > 250, f"ink at {x},{y} within 5 mm of the edge"
    document.close()
    width, height = PAPERS[paper]
    cells = card_cells(paper).values()
    cuts_x = sorted({round(x + dx, 3) for x, _ in cells for dx in (0, CARD[0])})
    cuts_y = sorted({round(y + dy, 3) for _, y in cells for dy in (0, CARD[1])})
    grid = (cuts_x[0], cuts_y[0], cuts_x[-1], cuts_y[-1])
    with pikepdf.open(kit(built, "cards", paper)) as pdf:
        assert len(pdf.pages) >= 2
        for number, pdf_page in enumerate(pdf.pages, 1):
            marks = set()
            for (x0, y0), (x1, y1) in page_drawing(pdf_page)["lines"]:
                for cx, cy in cells:
                    inside = (max(x0, x1) > cx + 0.01 and min(x0, x1) < cx + CARD[0] - 0.01
                              and max(y0, y1) > cy + 0.01 and min(y0, y1) < cy + CARD[1] - 0.01)
                    assert not inside, f"page {number}: a line from {(x0, y0)} to {(x1, y1)} runs into a card"
                if x0 == pytest.approx(x1, abs=1e-6) and round(x0, 3) in cuts_x:
                    # a mark may start right at the card's corner (a narrow margin: US Letter)
                    side = "below" if max(y0, y1) <= grid[1] + 1e-3 else "above" if min(y0, y1) >= grid[3] - 1e-3 else None
                    marks.add(("x", round(x0, 3), side))
                elif y0 == pytest.approx(y1, abs=1e-6) and round(y0, 3) in cuts_y:
                    side = "left" if max(x0, x1) <= grid[0] + 1e-3 else "right" if min(x0, x1) >= grid[2] - 1e-3 else None
                    marks.add(("y", round(y0, 3), side))
            # A mark on a cut line that reaches between the outer cut lines runs along the cards' edges.
            assert None not in {side for _, _, side in marks}, f"page {number}: a crop mark runs into the cards: {sorted(m for m in marks if m[2] is None)} grid {grid}"
            expected = {("x", x, side) for x in cuts_x for side in ("below", "above")} | \
                       {("y", y, side) for y in cuts_y for side in ("left", "right")}
            assert marks == expected, f"page {number}: crop marks missing or astray"


def test_boards_are_tiled_with_labels_covering_each_board(project, built):
    pdf = pdfium.PdfDocument(kit(built, "boards", "a4"))
    boards = game_data(project, "boards")
    names = [b["name"] for b in boards["boards"].values() if b["count"].get(EDITION)]
    labels, maps = Counter(), []
    for index in range(len(pdf)):
        text = pdf[index].get_textpage().get_text_range()
        board = next(name for name in names if name in text)
        if "Tile " not in text:                   # the board's assembly map, before its tiles
            maps.append(board)
            continue
        tile = text.split("Tile ")[1].split(" ")[0]
        labels[board] += 1
        assert tile[0] in "AB" and tile[1:].isdigit() and (board not in maps or maps[-1] == board)
    # on A4 with 10 mm margins and 12 mm overlap: the 260 x 240 mm hexagon takes 1 x 2 tiles,
    # after its map; the 180 x 180 mm square fits one page, which needs no map
    assert labels == Counter({"Hexagon ring": 2, "Square ring": 1}) and maps == ["Hexagon ring"]


def test_every_board_prints_its_shapes_notes(built):
    """Each tile draws its whole board, clipped: the ring's way-out note on every side."""
    pdf = pdfium.PdfDocument(kit(built, "boards", "a4"))
    texts = [pdf[i].get_textpage().get_text_range().split() for i in range(len(pdf))]
    tiles = [text for text in texts if "Tile" in text]
    assert [(text[:2], text.count("out")) for text in tiles] == [
        (["Hexagon", "ring"], 6), (["Hexagon", "ring"], 6), (["Square", "ring"], 4)]


def test_tokens_sheet_has_every_token(project, built):
    text = pdfium.PdfDocument(kit(built, "tokens", "a4"))[0].get_textpage().get_text_range()
    tokens = game_data(project, "tokens")["tokens"].values()
    # a standee's name on its front and on its back
    assert {token["name"]: text.split().count(token["name"]) for token in tokens} == \
           {token["name"]: token["count"][EDITION] * (2 if token["shape"] == "standee" else 1) for token in tokens} \
           == {"Supply": 4, "Camp": 3, "Pawn": 4}


def test_manifest_lists_every_file_with_its_hash(built):
    manifest = json.loads((built / "manifest.json").read_text(encoding="utf-8"))
    entries = {e["path"]: e for e in manifest["files"]}
    for kind in ("cards", "boards", "tokens"):
        for paper in ("a4", "letter"):
            path = f"{GAME}/{EDITION}/{LOCALE}/{GAME}-{EDITION}-{LOCALE}-{kind}-{paper}.pdf"
            entry = entries[path]
            data = (built / path).read_bytes()
            assert entry["sha256"] == hashlib.sha256(data).hexdigest()
            assert (entry["game"], entry["edition"], entry["locale"], entry["kind"], entry["paper"]) == \
                   (GAME, EDITION, LOCALE, kind, paper)
            assert entry["pages"] == len(pdfium.PdfDocument(data))
    # 3 x 3 sheets, each deck on sheets of its own: 7 heroes on 1 and 2 villains on 1: 2 fronts + 2 backs
    assert entries[f"{GAME}/{EDITION}/{LOCALE}/{GAME}-{EDITION}-{LOCALE}-cards-a4.pdf"]["pages"] == 4


def test_identical_input_gives_identical_bytes(project, built, tmp_path):
    # rendered again, not copied from the cache the first build filled
    result = pnp("build", *SELECTION, "--no-cache", "--out", str(tmp_path), project=project)
    assert result.exit_code == 0
    first = {p.relative_to(built): p.read_bytes() for p in built.rglob("*.pdf")}
    second = {p.relative_to(tmp_path): p.read_bytes() for p in tmp_path.rglob("*.pdf")}
    assert first.keys() == second.keys()
    assert all(first[k] == second[k] for k in first)


def test_faces_are_drawn_once_and_placed_by_reference(project, built):
    """File size follows distinct faces: 4 copies of the knight are one form XObject."""
    with pikepdf.open(kit(built, "cards", "a4")) as pdf:
        forms = set()
        for page in pdf.pages:
            for name, xobject in page.resources.get("/XObject", {}).items():
                forms.add(xobject.objgen)
    distinct_faces = len(game_data(project, "cards")["cards"]) + len(game_data(project, "cards")["decks"])
    assert len(forms) == distinct_faces


def test_a_layout_can_turn_text_upside_down(sample):
    """The sample's coins print their name again at the lower edge, turned to read from the
    other side of the table; the heroes turn nothing."""
    import math
    import pypdfium2.raw as raw
    document = pdfium.PdfDocument(sample / f"{GAME}-{EDITION}-{LOCALE}-cards-a4.pdf")

    def letters(index: int) -> tuple[str, str]:
        """(upright letters, turned letters) of a page, in the order they are drawn."""
        textpage = document[index].get_textpage()
        upright, turned = [], []
        for i in range(textpage.count_chars()):
            char, angle = textpage.get_text_range(i, 1), raw.FPDFText_GetCharAngle(textpage, i)
            if char.strip():
                (turned if abs(angle - math.pi) < 0.01 else upright if abs(angle) < 0.01 else []).append(char)
        return "".join(upright), "".join(turned)
    heroes, coins = letters(0), letters(2)          # the heroes' fronts, then the coins'
    assert heroes[0] and not heroes[1]
    assert "Thief" in coins[1] and coins[1] == coins[0]
