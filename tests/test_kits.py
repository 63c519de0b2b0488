"""Home kits built through `pnp build`, checked on the real PDFs: paper sizes, embedded fonts,
every card as often as the data says, mirrored backs, crop marks clear of the paper edge and
of the cards, tiled boards, the manifest, and byte-identical rebuilds."""
from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
import yaml

from conftest import CARD, MM, PAPERS, ROOT, card_cells, cell_texts, page_drawing, pnp

GAME = "race-to-the-table"
# What these tests read: the card, board and token sheets of both editions on every paper.
SELECTION = ("--game", GAME, "--locale", "bg", "--kind", "cards,boards,tokens")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("out")
    result = pnp("build", *SELECTION, "--out", str(out))
    assert result.exit_code == 0, result.output + result.traceback
    return out


def kit(out: Path, edition: str, kind: str, paper: str) -> Path:
    return out / GAME / edition / "bg" / f"{GAME}-{edition}-bg-{kind}-{paper}.pdf"


def card_data():
    return yaml.safe_load((ROOT / "components" / GAME / "cards.yaml").read_text(encoding="utf-8"))


def card_named(text: str, names) -> str:
    """The card whose name comes first in the cell's text (a title precedes the effect)."""
    found = [(text.find(name), -len(name), name) for name in names if name in text]
    assert found, f"unknown card text {text!r}"
    return min(found)[2]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("edition", ["free", "full"])
def test_every_card_appears_as_often_as_its_count(built, edition, paper):
    data = card_data()
    expected = {card["name"]: card["count"].get(edition, 0) for card in data["cards"].values()}
    pdf = pdfium.PdfDocument(kit(built, edition, "cards", paper))
    seen = Counter()
    for index in range(0, len(pdf), 2):                      # fronts; backs follow each one
        for text in cell_texts(pdf[index], paper).values():
            if not text:
                continue
            seen[card_named(text, expected)] += 1
    assert seen == Counter({name: n for name, n in expected.items() if n})


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_backs_are_mirrored_for_long_edge_duplex(built, paper):
    data = card_data()
    decks = data["decks"]
    pdf = pdfium.PdfDocument(kit(built, "full", "cards", paper))
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
    assert checked == 63


@pytest.mark.parametrize("kind", ["cards", "boards", "tokens"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_paper_size_and_embedded_fonts(built, kind, paper):
    with pikepdf.open(kit(built, "full", kind, paper)) as pdf:
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
    text = pdfium.PdfDocument(kit(built, "free", "cards", "a4"))[0].get_textpage().get_text_range()
    assert "Преместете" in text


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_stay_in_the_margin(built, paper):
    """Rasterise the fronts page: nothing within 5 mm of the paper edge. Then measure every line
    the sheets draw (the crop marks): none runs into a card cell, each starts off a cell's
    corner line, and every cut line between cells is marked on both sides of the grid."""
    document = pdfium.PdfDocument(kit(built, "free", "cards", paper))
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
    with pikepdf.open(kit(built, "free", "cards", paper)) as pdf:
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


def test_boards_are_tiled_with_labels_covering_each_board(built):
    pdf = pdfium.PdfDocument(kit(built, "full", "boards", "a4"))
    boards = yaml.safe_load((ROOT / "components" / GAME / "boards.yaml").read_text(encoding="utf-8"))
    names = [b["name"] for b in boards["boards"].values() if b["count"].get("full")]
    labels, maps = Counter(), []
    for index in range(len(pdf)):
        text = pdf[index].get_textpage().get_text_range()
        board = next(name for name in names if name in text)
        if "Лист " not in text:                   # the board's assembly map, before its tiles
            maps.append(board)
            continue
        tile = text.split("Лист ")[1].split(" ")[0]
        labels[board] += 1
        assert tile[0] in "AB" and tile[1:].isdigit() and maps[-1] == board
    # 400 x 280 mm on A4 with 10 mm margins and 12 mm overlap: 2 x 2 tiles per board, after its map
    assert labels == Counter({name: 4 for name in names}) and maps == names


def test_track_runs_from_start_to_table_on_every_board(built):
    pdf = pdfium.PdfDocument(kit(built, "free", "boards", "a4"))
    text = " ".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    for label in ["СТАРТ", "МАСАТА", "Часовник", "Бърза игра", "Край"] + [str(n) for n in range(1, 16)]:
        assert label in text


def test_tokens_sheet_has_every_token(built):
    text = pdfium.PdfDocument(kit(built, "full", "tokens", "a4"))[0].get_textpage().get_text_range()
    assert text.count("Затворено") == 6
    assert text.count("Маркер") == 2
    # 6 pawns, front and back; the label is set at 6 pt or more, so it may take two lines
    assert text.count("Напишете избора") == 12 and text.count("\r\nси\r\n") == 12


def test_manifest_lists_every_file_with_its_hash(built):
    manifest = json.loads((built / "manifest.json").read_text(encoding="utf-8"))
    entries = {e["path"]: e for e in manifest["files"]}
    for kind in ("cards", "boards", "tokens"):
        for paper in ("a4", "letter"):
            for edition in ("free", "full"):
                path = f"{GAME}/{edition}/bg/{GAME}-{edition}-bg-{kind}-{paper}.pdf"
                entry = entries[path]
                data = (built / path).read_bytes()
                assert entry["sha256"] == hashlib.sha256(data).hexdigest()
                assert (entry["game"], entry["edition"], entry["locale"], entry["kind"], entry["paper"]) == \
                       (GAME, edition, "bg", kind, paper)
                assert entry["pages"] == len(pdfium.PdfDocument(data))
    # 3 x 3 sheets, each deck back on sheets of its own: 54 action cards on 6, the roles on 1 and
    # the reference cards on 1: 8 fronts + 8 backs
    assert entries[f"{GAME}/full/bg/{GAME}-full-bg-cards-a4.pdf"]["pages"] == 16


def test_identical_input_gives_identical_bytes(built, tmp_path):
    result = pnp("build", *SELECTION, "--out", str(tmp_path))
    assert result.exit_code == 0
    first = {p.relative_to(built): p.read_bytes() for p in built.rglob("*.pdf")}
    second = {p.relative_to(tmp_path): p.read_bytes() for p in tmp_path.rglob("*.pdf")}
    assert first.keys() == second.keys()
    assert all(first[k] == second[k] for k in first)


def test_faces_are_drawn_once_and_placed_by_reference(built):
    """File size follows distinct faces: 15 copies of Quick are one form XObject."""
    with pikepdf.open(kit(built, "full", "cards", "a4")) as pdf:
        forms = set()
        for page in pdf.pages:
            for name, xobject in page.resources.get("/XObject", {}).items():
                forms.add(xobject.objgen)
    distinct_faces = len(card_data()["cards"]) + len(card_data()["decks"])
    assert len(forms) == distinct_faces


def test_a_layout_can_turn_text_upside_down(tmp_path):
    """The Game's lower corner number reads from the other side of the table."""
    import math
    import pypdfium2.raw as raw
    result = pnp("build", "--game", "the-game", "--locale", "cs", "--paper", "a4", "--kind", "cards",
                 "--out", str(tmp_path))
    assert result.exit_code == 0, result.output + result.traceback
    page = pdfium.PdfDocument(tmp_path / "the-game" / "standard" / "cs" / "the-game-standard-cs-cards-a4.pdf")[0]
    textpage = page.get_textpage()
    angles = [raw.FPDFText_GetCharAngle(textpage, i) for i in range(textpage.count_chars())]
    turned = [a for a in angles if abs(a - math.pi) < 0.01]
    upright = [a for a in angles if abs(a) < 0.01]
    # the first sheet: four pile cards (no lower corner) and the number cards 2 to 6
    assert len(turned) == len("23456")
    assert len(upright) > len(turned)
