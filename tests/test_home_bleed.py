"""Bleed on home card sheets, measured on the rendered pages: the outer cards' backgrounds run on
past the outer cut line (so a back printed a little off leaves no white sliver), stop short of
the paper beyond it, leave every crop mark on white, run half way into a gap between cards and
never onto the next card. Measured on the shop-ready sample game (no mini cards, which have no gutterfold sheet) with two
more knights, so that its heroes fill a 3 x 3 sheet."""
from __future__ import annotations

import shutil
from pathlib import Path

import numpy
import pikepdf
import pypdfium2 as pdfium
import pytest
import yaml

from conftest import CARD, PAPERS, page_drawing, pnp, replace_in, shop_ready_sample

# The band a home printer cannot print, stated apart from templates/sheets/papers.yaml.
BAND = {"a4": 5.0, "letter": 6.35}

ROOT = Path(__file__).resolve().parent.parent
GAME = "sample-game"
DPI = 300


def sheet(name: str) -> dict:
    return yaml.safe_load((ROOT / "templates" / "sheets" / f"{name}.yaml").read_text(encoding="utf-8"))


def build(project: Path, out: Path, *args: str) -> Path:
    result = pnp("build", "--kind", "cards", "--out", str(out), *args, project=project)
    assert result.exit_code == 0, result.output + result.traceback
    return out / GAME / "standard" / "en"


def full_sheet_sample(folder: Path) -> Path:
    """The shop-ready sample project in `folder/sample` with nine heroes, a full poker sheet."""
    project = shop_ready_sample(folder)
    replace_in(project / "components" / GAME / "cards.yaml", "count: {standard: 4}", "count: {standard: 6}")
    replace_in(project / "rules" / "sample_game" / "__init__.py", '"knight": 4', '"knight": 6')
    return project


@pytest.fixture(scope="module")
def sample_project(tmp_path_factory) -> Path:
    return full_sheet_sample(tmp_path_factory.mktemp("bleed-sample"))


@pytest.fixture(scope="module")
def kit(sample_project, tmp_path_factory):
    return build(sample_project, tmp_path_factory.mktemp("bleed"))


@pytest.fixture(scope="module")
def gutterfold(sample_project, tmp_path_factory):
    return build(sample_project, tmp_path_factory.mktemp("gutterfold"), "--paper", "a4", "--duplex", "gutterfold")


class Page:
    """A rendered page (RGB at DPI) read by millimetre coordinates from the bottom-left corner."""

    def __init__(self, path: Path, index: int, dpi: int = DPI):
        self.px = dpi / 25.4
        document = pdfium.PdfDocument(str(path))
        try:
            self.pixels = numpy.asarray(document[index].render(scale=dpi / 72, rev_byteorder=True).to_numpy())[..., :3]
        finally:
            document.close()
        with pikepdf.open(path) as pdf:
            self.drawing = page_drawing(pdf.pages[index])

    def at(self, x_mm: float, y_mm: float) -> tuple[int, int, int]:
        """The pixel holding that point."""
        row = self.pixels.shape[0] - 1 - int(y_mm * self.px)
        return tuple(int(v) for v in self.pixels[row, int(x_mm * self.px)])


def close(a, b, tolerance=6) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


WHITE = (255, 255, 255)


def back_colours(project: Path) -> dict[str, tuple[int, int, int]]:
    """Each back layout's background colour (its rect that runs into the bleed), from the data."""
    layouts = yaml.safe_load((project / "components" / GAME / "layouts.yaml").read_text(encoding="utf-8"))
    colours = {}
    for name, layout in layouts["backs"].items():
        fill = next(e["fill"] for e in layout["elements"] if e.get("bleed"))
        colours[name] = tuple(int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return colours


def outer_edges(forms):
    """(form, side, (x, y) of the middle of that outer cut line, outward unit vector)."""
    xs, ys = [f["rect"][0] for f in forms], [f["rect"][1] for f in forms]
    for form in forms:
        x, y, w, h = form["rect"]
        if abs(x - min(xs)) < 0.01:
            yield form, "left", (x, y + h / 2), (-1, 0)
        if abs(x - max(xs)) < 0.01:
            yield form, "right", (x + w, y + h / 2), (1, 0)
        if abs(y - min(ys)) < 0.01:
            yield form, "bottom", (x + w / 2, y), (0, -1)
        if abs(y - max(ys)) < 0.01:
            yield form, "top", (x + w / 2, y + h), (0, 1)


@pytest.mark.parametrize("paper", PAPERS)
def test_outer_cards_run_on_past_the_outer_cut_line_front_and_back(sample_project, kit, paper):
    bleed = sheet("poker-3x3")["bleed_mm"]
    assert bleed >= 2
    path = kit / f"{GAME}-standard-en-cards-{paper}.pdf"
    colours = back_colours(sample_project)
    checked_backs = 0
    for index in (0, 1):                            # a fronts page and its backs page
        page = Page(path, index)
        forms = page.drawing["forms"]
        assert len(forms) == 9
        for form, side, (x, y), (dx, dy) in outer_edges(forms):
            inside = page.at(x - 0.8 * dx, y - 0.8 * dy)
            # the bleed stops at bleed_mm or at the paper's unprintable band, whichever is nearer;
            # on Letter the left column's at 2.1 mm, so the 50 mm bar fits beside it
            to_edge = {"left": x, "bottom": y, "right": PAPERS[paper][0] - x, "top": PAPERS[paper][1] - y}[side]
            reach_max = min(bleed, to_edge - BAND[paper], 2.1 if paper == "letter" and side == "left" else bleed)
            for reach in (0.3, 1.0, reach_max - 0.4):
                outside = page.at(x + reach * dx, y + reach * dy)
                assert close(outside, inside), f"page {index + 1} {form['name']} {side}: {reach} mm out {outside}, inside {inside}"
            assert page.at(x + (reach_max + 0.5) * dx, y + (reach_max + 0.5) * dy) == WHITE, "the bleed stops"
            name = form["name"].removeprefix("/FormXob.back-")
            if index == 1 and name in colours:
                out = min(1.5, reach_max - 0.4)
                assert close(page.at(x + out * dx, y + out * dy), colours[name], 2)
                checked_backs += 1
    assert checked_backs == 12                      # every outer edge of a full backs page


@pytest.mark.parametrize("paper", PAPERS)
def test_a_shifted_back_still_reaches_the_card_edges(sample_project, kit, paper):
    """A back printed 1 mm off in any direction: every point 1 mm outside the outer cut lines
    (away from the crop marks) carries the back's colour, so no white sliver shows on a card."""
    path = kit / f"{GAME}-standard-en-cards-{paper}.pdf"
    page = Page(path, 1)
    colours = back_colours(sample_project)
    forms = page.drawing["forms"]
    for form, side, (x, y), (dx, dy) in outer_edges(forms):
        colour = colours[form["name"].removeprefix("/FormXob.back-")]
        w, h = CARD
        along = [(t, 0) for t in numpy.arange(-w / 2 + 0.6, w / 2 - 0.6, 0.5)] if dy else \
                [(0, t) for t in numpy.arange(-h / 2 + 0.6, h / 2 - 0.6, 0.5)]
        for ax, ay in along:
            assert close(page.at(x + ax + dx, y + ay + dy), colour, 2), (form["name"], side, ax, ay)


@pytest.mark.parametrize("paper", PAPERS)
def test_crop_marks_print_on_white_outside_the_bleed(kit, paper):
    """The bleed keeps clear of every crop mark: beside each mark, in the band where the bleed
    runs, the paper is white; the mark itself is dark."""
    marks = sheet("poker-3x3")["crop_marks"]
    bleed = sheet("poker-3x3")["bleed_mm"]
    assert marks["clear_mm"] > 0.2
    page = Page(kit / f"{GAME}-standard-en-cards-{paper}.pdf", 1, dpi=800)
    beside = marks["clear_mm"] / 2 + 0.05         # between the mark's edge and the bleed's
    forms = page.drawing["forms"]
    top = max(f["rect"][1] + f["rect"][3] for f in forms)
    left = min(f["rect"][0] for f in forms)
    vertical = [((a[0]), min(a[1], b[1])) for a, b in page.drawing["lines"]
                if abs(a[0] - b[0]) < 1e-6 and min(a[1], b[1]) >= top - 1e-6]
    horizontal = [(max(a[0], b[0]), a[1]) for a, b in page.drawing["lines"]
                  if abs(a[1] - b[1]) < 1e-6 and max(a[0], b[0]) <= left + 1e-6]
    assert len(vertical) == 4 and len(horizontal) == 4
    for x, start in vertical:
        y = start + 0.5                # in the mark, and in the band the bleed runs in
        assert y < top + bleed
        assert page.at(x, y)[0] < 128, "the mark is drawn"
        for side in (-1, 1):
            assert page.at(x + side * beside, y) == WHITE, (x, y, side)
    for end, y in horizontal:
        x = end - 0.5
        assert page.at(x, y)[0] < 128
        for side in (-1, 1):
            assert page.at(x, y + side * beside) == WHITE, (x, y, side)


def test_the_gutter_gets_half_its_width_of_bleed_at_most(gutterfold):
    """Gutterfold: fronts and their backs face each other across an 8 mm gutter. Each side's
    artwork runs into the gutter by the sheet's bleed, at most half the gutter, so it never
    reaches the card opposite and the fold line in the middle stays on white."""
    layout = sheet("poker-gutterfold")
    bleed, gutter = layout["bleed_mm"], layout["row_gap_mm"]
    reach = min(bleed, gutter / 2)
    page = Page(gutterfold / f"{GAME}-standard-en-cards-gutterfold-a4.pdf", 0)
    forms = page.drawing["forms"]
    assert len(forms) == 8
    fold = (max(f["rect"][1] for f in forms) + min(f["rect"][1] + f["rect"][3] for f in forms)) / 2
    for form in forms:
        x, y, w, h = form["rect"]
        upper = y > fold
        edge = y if upper else y + h
        out = -1 if upper else 1
        inside = page.at(x + w / 2, edge - out * 0.8)
        assert close(page.at(x + w / 2, edge + out * (reach - 0.4)), inside), form["name"]
        if reach < gutter / 2:
            assert page.at(x + w / 2, edge + out * (reach + 0.3)) == WHITE


def test_sheets_without_bleed_print_cards_only(tmp_path):
    """bleed_mm is the sheet's: set to 0 in the project's own copy of it, nothing is printed
    outside the cards."""
    project = full_sheet_sample(tmp_path)
    sheets = project / "templates" / "sheets"
    sheets.mkdir(parents=True)
    shutil.copy(ROOT / "templates" / "sheets" / "poker-3x3.yaml", sheets)
    replace_in(sheets / "poker-3x3.yaml", "bleed_mm: 3", "bleed_mm: 0")
    kit = build(project, tmp_path / "out", "--paper", "a4")
    page = Page(kit / f"{GAME}-standard-en-cards-a4.pdf", 1)
    assert len(page.drawing["forms"]) == 9
    for form, side, (x, y), (dx, dy) in outer_edges(page.drawing["forms"]):
        assert page.at(x + 0.5 * dx, y + 0.5 * dy) == WHITE
