"""Home print-and-play on A4 and Letter, checked on the sample game's PDFs built through `pnp
build`: page and card sizes (its poker and mini cards), crop marks, mirrored backs for each flip,
--back-offset, gutterfold, fronts only, the calibration sheet, the 50 mm scale bar, board tiles,
standee pawns, Cyrillic text (its translated copy) and reproducible bytes."""
from __future__ import annotations

import itertools
import json
import math
import re
import shutil
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
import yaml

from conftest import MM, PAPERS, SAMPLE, TRANSLATED_LOCALE, line_of, page_drawing, pnp, replace_in, shop_ready_sample

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_GAME = "sample-game"
SAMPLE_KIT = f"{SAMPLE_GAME}-standard-en"
DATA = SAMPLE / "components" / SAMPLE_GAME


def sample_copy(folder: Path) -> Path:
    """A copy of the sample project in `folder/sample`."""
    project = folder / "sample"
    shutil.copytree(SAMPLE, project)
    return project


def sample_build(folder: Path, *args: str, project: Path | None = None) -> Path:
    """The kit folder of a copy of the sample project (or of `project`) built into `folder/out`
    with `pnp build ARGS`."""
    result = pnp("build", "--out", str(folder / "out"), *args, project=project or sample_copy(folder))
    assert result.exit_code == 0, result.output + result.traceback
    return folder / "out" / SAMPLE_GAME / "standard" / "en"


def kit_file(kit: Path, kind: str, paper: str) -> Path:
    return kit / f"{SAMPLE_KIT}-{kind}-{paper}.pdf"


def sample_data(name: str, data: Path = DATA) -> dict:
    return yaml.safe_load((data / f"{name}.yaml").read_text(encoding="utf-8"))


def form_sizes(data: Path = DATA) -> dict[str, tuple[float, float]]:
    """Card form name (each front and each back) -> its size in mm, from the game's decks and
    layouts."""
    cards, layouts = sample_data("cards", data), sample_data("layouts", data)
    sizes = {f"/FormXob.back-{name}": tuple(back["size_mm"]) for name, back in layouts["backs"].items()}
    for card_id, card in cards["cards"].items():
        sizes[f"/FormXob.card-{card_id}"] = tuple(layouts["faces"][cards["decks"][card["deck"]]["layout"]]["size_mm"])
    for deck_id, deck in cards["decks"].items():       # a deck's matrix and extra cards, in each copy
        for copy in range(1, deck.get("count", {}).get("standard", 1) + 1):
            names = [f"{a}-{b}" for a, b in itertools.product(*deck["matrix"].values())] if "matrix" in deck else []
            for name in names + list(deck.get("extra", {})):
                sizes[f"/FormXob.card-{deck_id}-{name}-{copy}"] = tuple(layouts["faces"][deck["layout"]]["size_mm"])
    return sizes


def expected_backs(data: Path = DATA) -> dict[str, str]:
    """Front form name -> the back form it needs, from the game's decks: a card's own back, or
    its deck's, or the one of its deck's copy."""
    cards = sample_data("cards", data)
    backs = {f"/FormXob.card-{card_id}": f"/FormXob.back-{card.get('back', cards['decks'][card['deck']]['back'])}"
             for card_id, card in cards["cards"].items()}
    for deck_id, deck in cards["decks"].items():
        for name in form_sizes(data):
            if name.startswith(f"/FormXob.card-{deck_id}-"):
                copy = int(name.rpartition("-")[2])
                backs[name] = f"/FormXob.back-{deck.get('backs', [deck['back']])[copy - 1]}"
    return backs


# ---- reading pages ------------------------------------------------------------------------------

def page_size_mm(page) -> tuple[float, float]:
    box = [float(v) for v in page.mediabox]
    return ((box[2] - box[0]) / MM, (box[3] - box[1]) / MM)


def page_text(path: Path, index: int) -> str:
    document = pdfium.PdfDocument(str(path))
    try:
        return document[index].get_textpage().get_text_range()
    finally:
        document.close()


# ---- fixtures ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def long_kit(tmp_path_factory):
    """The sample on every paper: the kinds its tests read (cards with their calibration sheet
    and previews, boards, tokens)."""
    return sample_build(tmp_path_factory.mktemp("long"), "--kind", "cards,boards,tokens")


# The duplex variants are read only on their card sheets: they build the cards kind.

@pytest.fixture(scope="module")
def short_kit(tmp_path_factory):
    return sample_build(tmp_path_factory.mktemp("short"), "--paper", "letter", "--duplex", "short", "--kind", "cards")


@pytest.fixture(scope="module")
def offset_kit(tmp_path_factory):
    return sample_build(tmp_path_factory.mktemp("offset"), "--paper", "a4", "--back-offset", "2,-0.5", "--kind", "cards")


@pytest.fixture(scope="module")
def gutterfold_project(tmp_path_factory):
    """The sample as shops take it: poker cards only (mini cards have no gutterfold sheet)."""
    return shop_ready_sample(tmp_path_factory.mktemp("gutterfold-project"))


@pytest.fixture(scope="module")
def gutterfold_kit(tmp_path_factory, gutterfold_project):
    return sample_build(tmp_path_factory.mktemp("gutterfold"), "--duplex", "gutterfold", "--kind", "cards",
                        project=gutterfold_project)


# ---- sizes and marks -----------------------------------------------------------------------------

@pytest.mark.parametrize("paper", PAPERS)
def test_pages_are_exactly_the_paper_and_cards_exactly_their_size(long_kit, paper):
    sizes = form_sizes()
    with pikepdf.open(kit_file(long_kit, "cards", paper)) as pdf:
        forms = []
        for page in pdf.pages:
            assert page_size_mm(page) == pytest.approx(PAPERS[paper], abs=0.01)
            forms += page_drawing(page)["forms"]
    assert {f["name"] for f in forms} == set(sizes), "every front and back is printed"
    assert len({sizes[f["name"]] for f in forms}) >= 2, "cards of more than one size"
    for form in forms:
        assert form["rect"][2:] == pytest.approx(sizes[form["name"]], abs=0.1), form["name"]


def _cut_lines(forms) -> int:
    """Crop marks a grid of these cards needs: both ends of each cut line between columns and rows."""
    columns = {round(f["rect"][0], 2) for f in forms} | {round(f["rect"][0] + f["rect"][2], 2) for f in forms}
    rows = {round(f["rect"][1], 2) for f in forms} | {round(f["rect"][1] + f["rect"][3], 2) for f in forms}
    return 2 * (len(columns) + len(rows))


@pytest.mark.parametrize("paper", PAPERS)
def test_crop_marks_stay_in_the_margin_and_never_cross_a_card(long_kit, paper):
    width, height = PAPERS[paper]
    with pikepdf.open(kit_file(long_kit, "cards", paper)) as pdf:
        assert len(pdf.pages) >= 4                  # each card size's fronts and backs
        for page in pdf.pages:
            drawing = page_drawing(page)
            cards = [f["rect"] for f in drawing["forms"]]
            assert len(drawing["lines"]) >= _cut_lines(drawing["forms"]) >= 16
            for (x0, y0), (x1, y1) in drawing["lines"]:
                for x, y in ((x0, y0), (x1, y1)):
                    assert min(x, y, width - x, height - y) >= 5 - 0.001
                for cx, cy, cw, ch in cards:
                    crosses = (max(x0, x1) > cx + 0.01 and min(x0, x1) < cx + cw - 0.01
                               and max(y0, y1) > cy + 0.01 and min(y0, y1) < cy + ch - 0.01)
                    assert not crosses, f"a line from {(x0, y0)} to {(x1, y1)} runs across a card"


def _pairs(kit: Path, kind: str, paper: str):
    """(fronts page drawing, backs page drawing) for each sheet."""
    with pikepdf.open(kit_file(kit, kind, paper)) as pdf:
        drawings = [page_drawing(p) for p in pdf.pages]
    return list(zip(drawings[::2], drawings[1::2]))


def _check_mirrored(kit, kind, paper, mirror):
    expected = expected_backs()
    checked = set()
    for fronts, backs in _pairs(kit, kind, paper):
        at = {(round(b["rect"][0], 2), round(b["rect"][1], 2)): b["name"] for b in backs["forms"]}
        assert len(at) == len(fronts["forms"])
        for front in fronts["forms"]:
            x, y = mirror(*front["rect"])
            back = at[(round(x, 2), round(y, 2))]
            assert back == expected[front["name"]], (front["name"], back)
            checked.add(back)
    assert checked == set(expected.values()), "the decks' backs each sit behind their own fronts"


def test_long_edge_backs_mirror_the_columns(long_kit):
    width = PAPERS["a4"][0]
    _check_mirrored(long_kit, "cards", "a4", lambda x, y, w, h: (width - x - w, y))


def test_short_edge_backs_mirror_the_rows(short_kit):
    height = PAPERS["letter"][1]
    _check_mirrored(short_kit, "cards-short", "letter", lambda x, y, w, h: (x, height - y - h))


def test_back_offset_moves_only_back_pages(long_kit, offset_kit):
    plain, shifted = _pairs(long_kit, "cards", "a4"), _pairs(offset_kit, "cards", "a4")
    assert len(plain) == len(shifted) >= 2
    for (front_a, back_a), (front_b, back_b) in zip(plain, shifted):
        assert front_a == front_b
        assert len(back_a["forms"]) == len(back_b["forms"]) >= 1
        assert len(back_a["lines"]) == len(back_b["lines"]) >= 16
        for a, b in zip(back_a["forms"], back_b["forms"]):
            assert b["rect"][0] - a["rect"][0] == pytest.approx(2, abs=1e-3)
            assert b["rect"][1] - a["rect"][1] == pytest.approx(-0.5, abs=1e-3)
        for (a0, a1), (b0, b1) in zip(back_a["lines"], back_b["lines"]):     # the marks move too
            assert (b0[0] - a0[0], b0[1] - a0[1]) == pytest.approx((2, -0.5), abs=1e-3)


@pytest.mark.parametrize("paper", PAPERS)
def test_gutterfold_puts_fronts_over_their_upside_down_backs(gutterfold_project, gutterfold_kit, paper):
    landscape = PAPERS[paper][::-1]
    data = gutterfold_project / "components" / SAMPLE_GAME
    sheet = yaml.safe_load((ROOT / "templates" / "sheets" / "poker-gutterfold.yaml").read_text(encoding="utf-8"))
    per_sheet = sheet["columns"] * sheet["rows"] // 2
    cards = sample_data("cards", data)["cards"]
    sizes, backs = form_sizes(data), expected_backs(data)
    with pikepdf.open(kit_file(gutterfold_kit, "cards-gutterfold", paper)) as pdf:
        decks = {card["deck"] for card in cards.values()}
        assert len(pdf.pages) == sum(math.ceil(sum(c["count"]["standard"] for c in cards.values() if c["deck"] == deck)
                                               / per_sheet) for deck in decks)
        for page in pdf.pages:
            assert page_size_mm(page) == pytest.approx(landscape, abs=0.01)
            drawing = page_drawing(page)
            fronts = [f for f in drawing["forms"] if not f["turned"]]
            turned = [f for f in drawing["forms"] if f["turned"]]
            assert len(fronts) == len(turned) >= 1
            fold_y = [y0 for (x0, y0), (x1, y1) in drawing["lines"] if abs(y0 - y1) < 1e-6 and x1 - x0 > 200]
            assert len(fold_y) == 1, "one fold line across the sheet"
            for front, back in zip(fronts, turned):
                (fx, fy, fw, fh), (bx, by, bw, bh) = front["rect"], back["rect"]
                assert back["name"] == backs[front["name"]]
                assert (fw, fh) == pytest.approx(sizes[front["name"]], abs=0.1)
                assert (bw, bh) == pytest.approx(sizes[back["name"]], abs=0.1)
                assert bx == pytest.approx(fx, abs=1e-3)                       # same column
                assert fy - fold_y[0] == pytest.approx(fold_y[0] - (by + bh), abs=1e-3)   # mirrored across the fold


def test_fronts_only_has_no_back_pages(tmp_path):
    # the cards kind, which carries the calibration sheet when backs are separate pages
    kit = sample_build(tmp_path, "--paper", "a4", "--duplex", "fronts", "--kind", "cards")
    with pikepdf.open(kit / f"{SAMPLE_KIT}-cards-fronts-a4.pdf") as pdf:
        assert len(pdf.pages) == 3                      # 7 heroes on a page of 9, the 10 coins on two
        names = {f["name"] for p in pdf.pages for f in page_drawing(p)["forms"]}
    assert len(names) == 12 and not any(n.startswith("/FormXob.back-") for n in names)   # 2 heroes, 10 coins
    assert not (kit / f"{SAMPLE_KIT}-calibration-a4.pdf").exists()          # nothing to align


def test_back_offset_is_refused_where_backs_are_not_separate_pages(tmp_path):
    result = pnp("build", "--duplex", "gutterfold", "--back-offset", "1,1", "--out", str(tmp_path / "out"),
                 project=sample_copy(tmp_path))
    assert result.exit_code == 2
    assert "--back-offset" in result.output


@pytest.mark.parametrize("paper", PAPERS)
def test_crop_marks_beside_the_grid_use_the_room_there(long_kit, paper):
    """Each direction has its own room: Letter's narrow top and bottom margins do not shorten
    the marks beside the grid, which keep the sheet's length. Where the room at the sheet's
    offset leaves marks shorter than min_length_mm, they start closer to the card (Letter's
    top and bottom: from the card edge, 1.35 mm, all a 7.7 mm margin holds outside the 6.35 mm a
    Letter printer cannot print)."""
    sheet = yaml.safe_load((ROOT / "templates" / "sheets" / "poker-3x3.yaml").read_text(encoding="utf-8"))
    marks, (card_w, card_h) = sheet["crop_marks"], sheet["card_mm"]
    width, height = PAPERS[paper]
    band = {"a4": 5.0, "letter": 6.35}[paper]         # the paper's unprintable band
    room = (height - sheet["rows"] * card_h) / 2 - max(marks["min_edge_mm"], band)
    room_y = room - marks["offset_mm"]
    if room_y < marks["min_length_mm"]:
        room_y = room - max(marks["min_offset_mm"], room - marks["min_length_mm"])
    with pikepdf.open(kit_file(long_kit, "cards", paper)) as pdf:
        drawing = page_drawing(pdf.pages[1])          # a backs page: no scale bar in the margin
    assert drawing["forms"] and all(f["rect"][2:] == pytest.approx((card_w, card_h), abs=0.1) for f in drawing["forms"])
    lines = drawing["lines"]
    grid_w, grid_h = sheet["columns"] * card_w, sheet["rows"] * card_h
    beside = [abs(b[0] - a[0]) for a, b in lines if abs(a[1] - b[1]) < 1e-6 and max(a[0], b[0]) < (width - grid_w) / 2]
    above = [abs(b[1] - a[1]) for a, b in lines if abs(a[0] - b[0]) < 1e-6 and min(a[1], b[1]) > (height + grid_h) / 2 - 1e-3]
    assert len(beside) == sheet["rows"] + 1 and len(above) == sheet["columns"] + 1
    assert beside == pytest.approx([marks["length_mm"]] * len(beside), abs=1e-3)
    assert above == pytest.approx([min(marks["length_mm"], room_y)] * len(above), abs=1e-3)
    assert min(above) >= (1.35 if paper == "letter" else 4) - 1e-3


@pytest.fixture
def sample_project(tmp_path) -> Path:
    """The sample project with sheet templates of its own (copies of the tool's) to change:
    the sheets are the project's, whichever game is printed on them."""
    project = tmp_path / "sample"
    shutil.copytree(SAMPLE, project)
    shutil.copytree(ROOT / "templates", project / "templates")
    return project


def test_a_card_grid_with_no_room_for_crop_marks_is_a_located_error(sample_project, tmp_path):
    project = sample_project
    replace_in(project / "templates" / "sheets" / "poker-3x3.yaml", "gap_mm: 0", "gap_mm: 6")
    # the card sheets, and the booklet whose print table counts their sheets on every paper
    result = pnp("build", "--game", "sample-game", "--paper", "letter", "--kind", "cards,booklet",
                 "--out", str(tmp_path / "out"), project=project)
    assert result.traceback == "" and result.exit_code == 1, result.output
    line = line_of(project / "templates" / "sheets" / "poker-3x3.yaml", "columns: 3")
    rows = line_of(project / "templates" / "sheets" / "poker-3x3.yaml", "rows: 3")
    # Every paper's fault in one run: the booklet's print table counts A4 sheets too.
    assert result.stderr.splitlines() == [
        f"templates/sheets/poker-3x3.yaml:{line}: columns: 3 columns of 63 mm cards with 6 mm gaps make the grid 201 mm "
        "wide, which leaves 4.50 mm beside it on 210 x 297 mm paper: crop marks start 0 mm from the cards, stay "
        "5 mm from the paper edge (the paper's unprintable band: 5 mm) and need 1.2 mm of length",
        f"templates/sheets/poker-3x3.yaml:{line}: columns: 3 columns of 63 mm cards with 6 mm gaps make the grid 201 mm "
        "wide, which leaves 7.45 mm beside it on 215.9 x 279.4 mm paper: crop marks start 0 mm from the cards, stay "
        "6.35 mm from the paper edge (the paper's unprintable band: 6.35 mm) and need 1.2 mm of length",
        f"templates/sheets/poker-3x3.yaml:{rows}: rows: 3 rows of 88 mm cards with 6 mm gaps make the grid 276 mm "
        "tall, which leaves 1.70 mm above and below it on 215.9 x 279.4 mm paper: crop marks start 0 mm from the cards, "
        "stay 6.35 mm from the paper edge (the paper's unprintable band: 6.35 mm) and need 1.2 mm of length",
        "3 problem(s) found."]
    assert not (tmp_path / "out").exists()


# Each problem as (a text on its line, once the template is changed; what it says). A missing key
# is the mapping's: it is named on the mapping's first line.
@pytest.mark.parametrize("sheet, old, new, problems", [
    ("poker-3x3", "columns: 3", "colums: 3",
     [("name: Poker", "missing required key 'columns'"),
      ("colums: 3", "colums: unknown key 'colums', did you mean 'columns'? (allowed: bleed_mm, card_mm, columns, crop_marks, fold_line, gap_mm, "
                    "name, orientation, row_gap_mm, rows)")]),
    ("poker-3x3", "card_mm: [63, 88]", "card_mm: [63]", [("card_mm: [63]", "card_mm: 1 item, expected at least 2")]),
    ("poker-gutterfold", "rows: 2", "rows: 3",
     [("rows: 3", "rows: a gutterfold sheet needs an even number of rows (fronts in the top half, their backs below "
                  "the fold), not 3")]),
    ("tiles", "overlap_mm: 12", "overlap_mm: wide", [("overlap_mm: wide", "overlap_mm: expected number, got str 'wide'")]),
    ("tokens", "gap_mm: 4", "gap: 4",
     [("margin_mm:", "missing required key 'gap_mm'"), ("gap: 4", "gap: unknown key 'gap', did you mean 'gap_mm'? (allowed: gap_mm, margin_mm)")]),
    ("papers", "letter: {name: US Letter, size_mm: [215.9, 279.4], unprintable_mm: 6.35}", "letter: {name: US Letter}",
     [("letter: {name: US Letter}", "papers.letter: missing required key 'size_mm'")]),
    ("calibration", "  dx: DX (mm)\n", "", [("text:", "text: missing required key 'dx'")]),
])
def test_sheet_templates_are_checked_against_their_schema(sample_project, tmp_path, sheet, old, new, problems):
    project = sample_project
    path = project / "templates" / "sheets" / f"{sheet}.yaml"
    replace_in(path, old, new)
    result = pnp("build", "--game", "sample-game", "--paper", "a4", "--duplex",
                 "gutterfold" if sheet == "poker-gutterfold" else "long", "--out", str(tmp_path / "out"), project=project)
    assert result.traceback == "" and result.exit_code == 1, result.output
    assert result.stderr.splitlines() == [f"templates/sheets/{sheet}.yaml:{line_of(path, needle)}: {message}"
                                          for needle, message in problems] + [f"{len(problems)} problem(s) found."]


def test_pnp_validate_checks_the_sheet_templates_too(sample_project):
    """A broken sheet template is a located problem of `pnp validate` as of `pnp build`,
    found before any file is drawn. The templates are the project's, checked whichever game is
    validated: one game is enough."""
    path = sample_project / "templates" / "sheets" / "tokens.yaml"
    replace_in(path, "gap_mm: 4", "gap: 4")
    result = pnp("validate", "sample-game", project=sample_project)
    assert result.exit_code == 1 and not result.traceback, result.output
    assert f"templates/sheets/tokens.yaml:{line_of(path, 'gap: 4')}: gap: unknown key 'gap', did you mean 'gap_mm'? (allowed: gap_mm, margin_mm)" \
        in result.stderr.splitlines(), result.stderr


# ---- calibration -----------------------------------------------------------------------------------

def _label_x(path: Path, page: int, label: str) -> float:
    """x (mm) of the centre of a scale label on the calibration back page."""
    document = pdfium.PdfDocument(str(path))
    try:
        text_page = document[page].get_textpage()
        text = text_page.get_text_range()
        found = []
        for index in range(text_page.count_chars()):
            if text_page.get_text_range(index, len(label)) == label:
                boxes = [text_page.get_charbox(i) for i in range(index, index + len(label))]
                found.append(((boxes[0][0] + boxes[-1][2]) / 2 / MM, boxes[0][1] / MM))
        assert found, f"no label {label!r} in {text!r}"
        # The horizontal (DX) scale is the lowest row of labels.
        return min(found, key=lambda f: f[1])[0]
    finally:
        document.close()


def test_calibration_reading_gives_the_offset_that_aligns_the_backs(long_kit, offset_kit):
    """Simulate a printer that puts back pages 2 mm too far left: the front's cross then shows
    through at the back's '+2' tick, and building with that offset cancels the error."""
    calibration = kit_file(long_kit, "calibration", "a4")
    with pikepdf.open(calibration) as pdf:
        assert len(pdf.pages) == 2
        cross = [line for line in page_drawing(pdf.pages[0])["lines"] if abs(line[0][0] - line[1][0]) < 1e-6]
        cross_x = cross[0][0][0]
    assert cross_x == pytest.approx(PAPERS["a4"][0] / 2)
    error = -2.0
    # where each tick lands when the printer shifts the back page by `error`
    landed = {v: _label_x(calibration, 1, v) + error for v in ("-2", "0", "+2")}
    reading = min(landed, key=lambda v: abs(landed[v] - cross_x))
    assert reading == "+2"
    # offset_kit was built with --back-offset 2,-0.5: the DX read off the sheet, on every card size
    width = PAPERS["a4"][0]
    for fronts, backs in _pairs(offset_kit, "cards", "a4"):
        # with the printer's error added, every back lands exactly behind a front (long-edge mirror)
        landed_backs = sorted(round(b["rect"][0] + error, 3) for b in backs["forms"])
        expected = sorted(round(width - f["rect"][0] - f["rect"][2], 3) for f in fronts["forms"])
        assert expected and landed_backs == expected


# ---- standee pawns ---------------------------------------------------------------------------------------

def _text_runs(page, text: str) -> list[list[tuple[float, float, float, float]]]:
    """Character boxes (mm) of every occurrence of `text` on a pdfium page, in reading order."""
    text_page = page.get_textpage()
    runs = []
    for index in range(text_page.count_chars() - len(text) + 1):
        if text_page.get_text_range(index, len(text)) == text:
            runs.append([tuple(v / MM for v in text_page.get_charbox(i)) for i in range(index, index + len(text))])
    return runs


def test_standee_front_stands_on_the_bottom_tab_and_the_back_folds_over_head_to_head(long_kit):
    """Bottom tab, front upright, middle fold, back upside down, top tab: folded at the middle
    the two figures are back to back and both stand on their tabs."""
    labels, pawn = sample_data("game")["labels"], sample_data("tokens")["tokens"]["pawn"]
    name, hint = pawn["name"], labels["write_here"]
    (width, figure), base = pawn["size_mm"], pawn["base_mm"]
    path = kit_file(long_kit, "tokens", "a4")
    with pikepdf.open(path) as pdf:
        standees = [f["rect"] for page in pdf.pages for f in page_drawing(page)["forms"]
                    if f["name"].startswith("/FormXob.token-pawn-")]
    assert len(standees) == pawn["count"]["standard"]
    document = pdfium.PdfDocument(str(path))
    try:
        names, hints = _text_runs(document[0], name), _text_runs(document[0], hint.split()[0])
    finally:
        document.close()
    for x, y, w, h in standees:
        x, y = x + 0.5, y + 0.5                       # the form's box has a hair of room around the outline
        fold = y + base + figure
        inside = lambda run: all(x <= cx0 and cx1 <= x + width and y <= cy0 and cy1 <= y + h - 1 for cx0, cy0, cx1, cy1 in run)
        front = [run for run in names if inside(run) and run[0][1] < fold]
        back = [run for run in names if inside(run) and run[0][1] > fold]
        assert len(front) == len(back) == 1
        assert front[0][0][0] < front[0][-1][0], "the front's name reads left to right (upright)"
        assert back[0][0][0] > back[0][-1][0], "the back's name is upside down"
        # each figure's top (its name) is at the middle fold, its feet on its own tab
        assert fold - max(c[3] for c in front[0]) < figure / 3
        assert min(c[1] for c in back[0]) - fold < figure / 3
        front_hint = [run for run in hints if inside(run) and run[0][1] < fold]
        assert len(front_hint) == 1 and min(c[1] for c in front_hint[0]) - (y + base) < figure / 3


# ---- scale bar, text, boards, reproducibility ----------------------------------------------------------

def _has_50mm_bar(page) -> bool:
    return any(abs(math.dist(a, b) - 50) < 0.01 for a, b in page_drawing(page)["lines"])


@pytest.mark.parametrize("kind", ["cards", "calibration", "boards", "tokens"])
def test_first_page_of_every_home_file_has_a_50_mm_scale_bar(long_kit, kind):
    label = sample_data("game")["labels"]["scale_check"]
    for paper in PAPERS:
        path = kit_file(long_kit, kind, paper)
        with pikepdf.open(path) as pdf:
            assert _has_50mm_bar(pdf.pages[0]), f"{path.name} page 1"
        assert label in " ".join(page_text(path, 0).split())


@pytest.mark.parametrize("paper", PAPERS)
def test_boards_are_covered_by_overlapping_labelled_tiles(long_kit, paper):
    """Each board is printed on labelled tiles that cover it, neighbours overlapping by the glue
    strip; a board of more than one tile has its assembly map before its tiles."""
    boards = sample_data("boards")["boards"]
    overlap = yaml.safe_load((ROOT / "templates" / "sheets" / "tiles.yaml").read_text(encoding="utf-8"))["overlap_mm"]
    path = kit_file(long_kit, "boards", paper)
    windows, maps, labels = {board: [] for board in boards}, [], {board: "" for board in boards}
    with pikepdf.open(path) as pdf:
        for index, page in enumerate(pdf.pages):
            drawing = page_drawing(page)
            (form,) = [f["name"].removeprefix("/FormXob.board-") for f in drawing["forms"]]
            if form.endswith("-map"):                 # a board's assembly map, before its tiles
                assert not windows[form.removesuffix("-map")], "the map comes before the board's tiles"
                maps.append(form.removesuffix("-map"))
                continue
            text = page_text(path, index)
            assert re.search(r"[A-Z]\d+ \(\d+/\d+, \d+/\d+\)", text), f"page {index + 1} has its tile's label"
            labels[form] += text
            (cx, cy, cw, ch), (tx, ty) = drawing["clips"][0]
            windows[form].append((cx - tx, cy - ty, cw, ch))
    assert sorted(maps) == sorted(board for board, tiles in windows.items() if len(tiles) > 1)
    assert maps, "a board spans more than one tile"
    for board, tiles in windows.items():
        width, height = boards[board]["size_mm"]
        # every point of the board (sampled every 5 mm) lies in some tile
        for x in range(0, int(width) + 1, 5):
            for y in range(0, int(height) + 1, 5):
                assert any(tx - 0.01 <= x <= tx + tw + 0.01 and ty - 0.01 <= y <= ty + th + 0.01
                           for tx, ty, tw, th in tiles), (board, x, y)
        assert "A1" in labels[board]
        if len(tiles) > 1:
            first, *others = sorted({(round(t[0], 2), round(t[2], 2)) for t in tiles})
            assert others, "the board spans more than one column of tiles"
            assert first[0] + first[1] - others[0][0] == pytest.approx(overlap, abs=0.01), "neighbours overlap by the glue strip"
            assert "A2" in labels[board] or "B1" in labels[board]


def test_cyrillic_card_text_extracts_as_text(translated_project, tmp_path):
    po = translated_project / "components" / SAMPLE_GAME / "locales" / f"{TRANSLATED_LOCALE}.po"
    replace_in(po, 'msgstr "Moves two spaces."', 'msgstr "Ходит на две клетки."')
    result = pnp("build", "--locale", TRANSLATED_LOCALE, "--paper", "a4", "--kind", "cards", "--out", str(tmp_path / "out"),
                 project=translated_project)
    assert result.exit_code == 0, result.output + result.traceback
    path = tmp_path / "out" / SAMPLE_GAME / "standard" / TRANSLATED_LOCALE / f"{SAMPLE_GAME}-standard-{TRANSLATED_LOCALE}-cards-a4.pdf"
    assert "Ходит на две клетки." in " ".join(page_text(path, 0).split())


def test_identical_input_gives_identical_bytes(tmp_path):
    # the second build draws everything anew: the session's shared cache would hand it the first's files
    options = ("--paper", "letter", "--duplex", "short", "--kind", "cards")
    first = sample_build(tmp_path / "one", *options).parents[2]
    second = sample_build(tmp_path / "two", *options, "--no-cache").parents[2]
    entries = lambda root: {e["path"]: e["sha256"] for e in json.loads((root / "manifest.json").read_text())["files"]}
    assert entries(first) == entries(second)
    assert any(p.endswith(".png") for p in entries(first))          # previews are reproducible too


def test_previews_are_small_pngs_listed_in_the_manifest(long_kit):
    manifest = json.loads((long_kit.parents[2] / "manifest.json").read_text())["files"]
    previews = [e for e in manifest if e["kind"] == "preview"]
    assert {e["deck"] for e in previews} == set(sample_data("cards")["decks"])
    for entry in previews:
        path = long_kit.parents[2] / entry["path"]
        assert path.read_bytes()[:4] == b"\x89PNG" and entry["bytes"] < 200_000


def _ink_runs(image, rows) -> int:
    """Bands of rows that hold text (ten dark pixels or more: not an accent on its own), one a line."""
    grey = image.convert("L")
    inked = [sum(grey.getpixel((x, y)) < 100 for x in range(grey.width)) >= 10 for y in rows]
    return sum(1 for before, now in zip([False] + inked, inked) if now and not before)


def test_a_preview_title_that_wraps_shows_every_line(tmp_path):
    from PIL import Image
    from generator.layout.furniture import MARGIN_MM, TITLE_MM
    from generator.render.preview import DPI
    project = sample_copy(tmp_path)
    # too long for one line even at the title's smallest size
    replace_in(project / "components" / SAMPLE_GAME / "cards.yaml", "name: Heroes",
               "name: Heroes for the very first game of the whole family and of every friend who comes along tonight")
    result = pnp("build", "--paper", "a4", "--kind", "cards", "--out", str(tmp_path / "out"), project=project)
    assert result.exit_code == 0, result.output
    image = Image.open(tmp_path / "out" / SAMPLE_GAME / "standard" / "en" / f"{SAMPLE_KIT}-preview-heroes.png")
    title_zone = range(int((MARGIN_MM + TITLE_MM) * DPI / 25.4) - 1)          # above the first row of cards
    assert _ink_runs(image, title_zone) == 2


def test_a_card_text_that_does_not_fit_is_named_by_its_field_when_laid_out():
    """Laying out a face collects every overflow instead of stopping: each names its field."""
    from generator.layout.placed import place_face
    layout = {"size_mm": [63, 88], "elements": [
        {"type": "text", "field": "name", "box": [5, 70, 20, 5], "font": "bold", "size": 9, "min_size": 8},
        {"type": "text", "field": "text", "box": [5, 10, 53, 50], "font": "regular", "size": 9}]}
    placed = place_face(layout, {"name": "Надпревара до масата", "text": "Кратък текст"})
    assert [field for field, _ in placed.problems] == ["name"]



# ---- small things: calibration labels, the report's page -------------------------------------------

def _char_boxes(path: Path, page: int) -> list[tuple[str, tuple[float, float, float, float]]]:
    document = pdfium.PdfDocument(str(path))
    try:
        text_page = document[page].get_textpage()
        return [(text_page.get_text_range(i, 1), tuple(v / MM for v in text_page.get_charbox(i)))
                for i in range(text_page.count_chars())]
    finally:
        document.close()


def test_calibration_scale_labels_stand_apart(long_kit):
    """The scale labels (every label_every_mm of each scale, DX and DY) do not run together:
    between the boxes of any two labels on the back page there is a clear gap."""
    sheet = yaml.safe_load((ROOT / "templates" / "sheets" / "calibration.yaml").read_text(encoding="utf-8"))
    reach, every = sheet["scale_mm"], sheet["label_every_mm"]
    values = [every * i for i in range(-int(reach // every), int(reach // every) + 1)]
    names = ["0" if v == 0 else f"{v:+g}" for v in values]
    document = pdfium.PdfDocument(str(kit_file(long_kit, "calibration", "a4")))
    try:
        runs = [run for name in names for run in _text_runs(document[1], name)]
    finally:
        document.close()
    labels = [(min(c[0] for c in run), min(c[1] for c in run), max(c[2] for c in run), max(c[3] for c in run))
              for run in runs]
    assert len(labels) == 2 * len(names), "each label once on each scale"
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            apart = a[2] + 0.3 <= b[0] or b[2] + 0.3 <= a[0] or a[3] + 0.3 <= b[1] or b[3] + 0.3 <= a[1]
            assert apart, f"labels at {a} and {b} run together"


def test_calibration_tells_a_pdf_only_reader_what_to_do(long_kit):
    text = " ".join(page_text(kit_file(long_kit, "calibration", "a4"), 0).split())
    sheet = yaml.safe_load((ROOT / "templates" / "sheets" / "calibration.yaml").read_text(encoding="utf-8"))
    assert len(sheet["text"]["steps"]) >= 6
    assert "DX" in text and "5." in text and "6." in text


def test_the_designers_report_is_exactly_a4_landscape(tmp_path):
    kit = sample_build(tmp_path, "--paper", "a4", "--kind", "report")
    with pikepdf.open(kit / f"{SAMPLE_KIT}-report.pdf") as pdf:
        assert len(pdf.pages) > 1
        for page in pdf.pages:
            box = [float(v) for v in page.mediabox]
            assert (box[2] - box[0], box[3] - box[1]) == pytest.approx((841.89, 595.28), abs=0.01)


def _scale_label_hits(path: Path) -> list[str]:
    """Where the first page's scale label runs through a cross arm (10 mm, horizontal or
    vertical) or the edge of an assembly map drawn there."""
    with pikepdf.open(path) as pdf:
        first = page_drawing(pdf.pages[0])
    arms = [(a, b) for a, b in first["lines"] if abs(math.dist(a, b) - 10) < 0.01]
    for form in first["forms"]:
        if form["name"].endswith("-map"):
            mx, my, mw, mh = form["rect"]
            arms += [((mx, my), (mx + mw, my)), ((mx, my), (mx, my + mh)),
                     ((mx + mw, my), (mx + mw, my + mh)), ((mx, my + mh), (mx + mw, my + mh))]
    document = pdfium.PdfDocument(str(path))
    try:
        (label,) = _text_runs(document[0], sample_data("game")["labels"]["scale_check"])
    finally:
        document.close()
    return [f"the scale label at {(x0, y0, x1, y1)} runs through {(ax, ay), (bx, by)}"
            for (ax, ay), (bx, by) in arms for x0, y0, x1, y1 in label
            if min(ax, bx) - 0.2 <= x1 and x0 <= max(ax, bx) + 0.2 and min(ay, by) - 0.2 <= y1 and y0 <= max(ay, by) + 0.2]


def test_board_glue_strips_are_hatched_and_the_scale_label_misses_the_map(long_kit):
    path = kit_file(long_kit, "boards", "a4")
    with pikepdf.open(path) as pdf:
        first = page_drawing(pdf.pages[0])
        tile = page_drawing(pdf.pages[1])["lines"]              # the first board's first tile, after its map
        assert _has_50mm_bar(pdf.pages[0])
    assert [f["name"] for f in first["forms"]] == [f"/FormXob.board-{next(iter(sample_data('boards')['boards']))}-map"]
    diagonal = [(a, b) for a, b in tile if abs(abs(b[0] - a[0]) - abs(b[1] - a[1])) < 1e-3 and abs(b[0] - a[0]) > 0.1]
    assert len(diagonal) >= 10, "the glue strip is hatched"
    # the alignment crosses: 10 mm arms, horizontal or vertical
    assert [(a, b) for a, b in tile if abs(math.dist(a, b) - 10) < 0.01]
    # the scale bar is on page 1 (the map): it misses the board drawn there and any cross
    assert not _scale_label_hits(path)


def test_the_scale_label_on_a_first_tile_misses_its_crosses(tmp_path):
    """A board printed on one tile has no map: the scale bar goes on its tile, among the
    alignment crosses at the tile's corners."""
    project = sample_copy(tmp_path)
    boards = project / "components" / SAMPLE_GAME / "boards.yaml"
    text = boards.read_text(encoding="utf-8")
    square = text[text.index("  square:\n"):]
    boards.write_text(text.replace(square, "").replace("boards:\n", "boards:\n" + square), encoding="utf-8")
    result = pnp("build", "--paper", "a4", "--kind", "boards", "--out", str(tmp_path / "out"), project=project)
    assert result.exit_code == 0, result.output + result.traceback
    path = kit_file(tmp_path / "out" / SAMPLE_GAME / "standard" / "en", "boards", "a4")
    with pikepdf.open(path) as pdf:
        first = page_drawing(pdf.pages[0])
        assert _has_50mm_bar(pdf.pages[0])
    assert [f["name"] for f in first["forms"]] == ["/FormXob.board-square"]
    assert [(a, b) for a, b in first["lines"] if abs(math.dist(a, b) - 10) < 0.01], "the tile's crosses"
    assert not _scale_label_hits(path)


def test_the_standees_fold_word_is_on_the_tabs_not_the_figures(long_kit):
    pawn = sample_data("tokens")["tokens"]["pawn"]
    (width, figure), base = pawn["size_mm"], pawn["base_mm"]
    path = kit_file(long_kit, "tokens", "a4")
    word = sample_data("game")["labels"]["fold"]
    with pikepdf.open(path) as pdf:
        standees = [f["rect"] for page in pdf.pages for f in page_drawing(page)["forms"]
                    if f["name"].startswith("/FormXob.token-pawn-")]
    document = pdfium.PdfDocument(str(path))
    try:
        runs = _text_runs(document[0], word)
    finally:
        document.close()
    found = 0
    for x, y, w, h in standees:
        x, y = x + 0.5, y + 0.5
        for run in runs:
            if all(x <= c[0] and c[2] <= x + width and y <= c[1] and c[3] <= y + h for c in run):
                found += 1
                for c in run:
                    assert c[3] <= y + base + 0.01 or c[1] >= y + base + 2 * figure - 0.01, "the word is on a figure"
    assert found == 2 * pawn["count"]["standard"], "each standee has the word on both its tabs"
