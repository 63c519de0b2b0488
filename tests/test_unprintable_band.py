"""Nothing is drawn in a paper's unprintable band (templates/sheets/papers.yaml: 1/4 in on US
Letter, 5 mm on A4), checked on the real home sheets `pnp build` writes (card sheets' crop
marks as line segments; card, token, dice sheets, tiled boards and pieces, boards on one sheet
and the imposed booklet as rendered pixels), and the card sheet layouts checked against the band
when validating."""
from __future__ import annotations

import math
import shutil
from pathlib import Path

import numpy
import pikepdf
import pypdfium2 as pdfium
import pytest

from conftest import MM, PAPERS, SAMPLE, build_sample, page_drawing, pnp, replace_in

# The band a home printer leaves, stated here independently of papers.yaml.
BAND = {"a4": 5.0, "letter": 6.35}
PX_PER_MM = 10


@pytest.fixture(scope="module")
def home_sheets(tmp_path_factory) -> Path:
    """The folder of the sample game's card, token and dice sheets on every paper."""
    return build_sample(tmp_path_factory, "band", "--kind", "cards,tokens,dice")


@pytest.fixture(scope="module")
def tiled_sheets(tmp_path_factory) -> Path:
    """The folder of the sample game's board and pieces (both tiled) and imposed booklet."""
    return build_sample(tmp_path_factory, "band-tiled", "--kind", "boards,pieces,booklet")


def _ink_in_band(path: Path, paper: str) -> list[int]:
    """The pages of `path` with ink in the band (less a pixel for anti-aliasing), rendered."""
    inset = round((BAND[paper] - 0.1) * PX_PER_MM)
    document = pdfium.PdfDocument(str(path))
    try:
        inked = []
        for number, page in enumerate(document, 1):
            image = numpy.asarray(page.render(scale=PX_PER_MM / MM).to_pil().convert("L"))
            band = numpy.ones(image.shape, dtype=bool)
            band[inset:-inset, inset:-inset] = False
            if image[band].min() < 250:
                inked.append(number)
        return inked
    finally:
        document.close()


@pytest.fixture(scope="module")
def card_sheets(home_sheets) -> dict[str, Path]:
    return {paper: home_sheets / f"sample-game-standard-en-cards-{paper}.pdf" for paper in PAPERS}


def _edge_distance(point, paper) -> float:
    w, h = PAPERS[paper]
    return min(point[0], point[1], w - point[0], h - point[1])


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_crop_marks_stay_out_of_the_band(card_sheets, paper):
    with pikepdf.open(card_sheets[paper]) as pdf:
        nearest = min(_edge_distance(end, paper) for page in pdf.pages
                      for line in page_drawing(page)["lines"] for end in line)
    assert nearest >= BAND[paper] - 0.01
    if paper == "letter":
        # the marks above and below the grid reach the band's edge: shortened, not dropped
        assert nearest == pytest.approx(BAND[paper], abs=0.01)


@pytest.mark.parametrize("kind", ["cards", "tokens", "dice"])
@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_the_band_is_bare_paper(home_sheets, paper, kind):
    """Rendered, every pixel of the band (less a pixel for anti-aliasing) is white: crop marks,
    bleed and the first page's 50 mm bar with its words all stay inside it."""
    inset = round((BAND[paper] - 0.1) * PX_PER_MM)
    path = home_sheets / f"sample-game-standard-en-{kind}-{paper}.pdf"
    document = pdfium.PdfDocument(str(path))
    try:
        assert "50 mm" in document[0].get_textpage().get_text_range()       # the bar is still there
        for page in document:
            image = numpy.asarray(page.render(scale=PX_PER_MM / MM).to_pil().convert("L"))
            band = numpy.ones(image.shape, dtype=bool)
            band[inset:-inset, inset:-inset] = False
            assert image[band].min() >= 250, f"{path.name}: ink in the unprintable band"
    finally:
        document.close()


def test_validate_names_a_sheet_whose_marks_would_be_in_the_band(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(SAMPLE, project)
    sheets = project / "templates" / "sheets"
    sheets.mkdir(parents=True)
    shutil.copy(Path(__file__).resolve().parent.parent / "templates" / "sheets" / "papers.yaml", sheets)
    # A printer that leaves 7.5 mm: a 3 x 3 poker grid's 7.7 mm margin on Letter has no room left
    replace_in(sheets / "papers.yaml", "unprintable_mm: 6.35", "unprintable_mm: 7.5")
    result = pnp("validate", project=project)
    assert result.exit_code == 1 and not result.traceback
    assert "poker-3x3.yaml" in result.output and "unprintable band" in result.output, result.output


@pytest.mark.parametrize("kind", ["boards", "pieces", "rules-imposed"])
@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_tiled_boards_pieces_and_the_imposed_booklet_leave_the_band_bare(tiled_sheets, paper, kind):
    """A tile's label and its crosses' outer arms, the 50 mm bar on the booklet's cover (A4
    prints the A5 page full size, its edge on the sheet's) and the shrink note on Letter."""
    path = tiled_sheets / f"sample-game-standard-en-{kind}-{paper}.pdf"
    document = pdfium.PdfDocument(str(path))
    try:
        text = " ".join(page.get_textpage().get_text_range() for page in document).replace("\xa0", " ")
        pages = len(document)
    finally:
        document.close()
    assert "50 mm" in text and pages > 1                 # the bar, and tiles or sheets, still there
    if kind != "rules-imposed":
        assert "Tile A1" in text                          # the tile labels are still printed
    elif paper == "letter":
        assert "are printed at 94%" in text              # the shrink note too
    assert not _ink_in_band(path, paper), f"{path.name}: ink in the unprintable band"


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_tile_crosses_keep_their_inner_arms_and_end_at_the_band(tiled_sheets, paper):
    """The crosses' arms toward the paper's edge end where the band begins; the arms into the
    tile keep the mark's length (templates/sheets/tiles.yaml: 5 mm)."""
    with pikepdf.open(tiled_sheets / f"sample-game-standard-en-boards-{paper}.pdf") as pdf:
        w, h = (float(v) / MM for v in pdf.pages[1].mediabox[2:])
        # the arms: level or upright (a glue strip's hatching runs at 45 degrees, clipped)
        arms = [(a, b) for a, b in page_drawing(pdf.pages[1])["lines"]
                if abs(a[0] - b[0]) < 1e-6 or abs(a[1] - b[1]) < 1e-6]
    nearest = min(min(x, y, w - x, h - y) for arm in arms for x, y in arm)
    assert nearest == pytest.approx(BAND[paper], abs=0.01)
    # every cross keeps its full 5 mm arm into the tile (the tile's edge is 10 mm in)
    assert all(5 - 1e-3 <= math.dist(a, b) <= 10 + 1e-3 for a, b in arms)
    # A4's 5 mm band leaves the whole outer arm; Letter's 6.35 mm shortens it to 3.65 mm
    assert min(math.dist(a, b) for a, b in arms) == pytest.approx(5 + min(5, 10 - BAND[paper]), abs=1e-3)


@pytest.fixture(scope="module")
def one_sheet_boards(tmp_path_factory) -> Path:
    """The folder of the sample game's boards, each also printed on one sheet."""
    project = tmp_path_factory.mktemp("band-one-sheet") / "project"
    shutil.copytree(SAMPLE, project)
    game = project / "components" / "sample-game"
    replace_in(game / "boards.yaml", "design:\n", "design:\n  one_sheet: true\n")
    replace_in(game / "game.yaml", "  tile: Tile\n", "  tile: Tile\n  scale: Scale\n  one_sheet: on one sheet\n")
    result = pnp("build", "--kind", "boards", project=project)
    assert result.exit_code == 0, result.output + result.traceback
    return project / "output" / "sample-game" / "standard" / "en"


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_boards_on_one_sheet_leave_the_band_bare(one_sheet_boards, paper):
    """The first page's 50 mm bar in the bottom margin and each board's name and scale above it
    (the hexagon fills the sheet's height: its name is near the top edge)."""
    path = one_sheet_boards / f"sample-game-standard-en-boards-one-sheet-{paper}.pdf"
    document = pdfium.PdfDocument(str(path))
    try:
        texts = [page.get_textpage().get_text_range() for page in document]
    finally:
        document.close()
    assert "50 mm" in texts[0] and "Hexagon ring · Scale" in texts[0] and "Square ring · Scale" in texts[1]
    assert not _ink_in_band(path, paper), f"{path.name}: ink in the unprintable band"


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_the_one_sheet_bar_line_is_clear_of_the_band(one_sheet_boards, paper):
    """The bar's line, half its 0.5 pt width below its y included, is above the band, as on the
    tiled pages (measured here to the hundredth of a mm a rendering at 10 px/mm does not see)."""
    path = one_sheet_boards / f"sample-game-standard-en-boards-one-sheet-{paper}.pdf"
    with pikepdf.open(path) as pdf:
        bars = [(a, b) for a, b in page_drawing(pdf.pages[0])["lines"]
                if abs(a[1] - b[1]) < 1e-6 and abs(abs(a[0] - b[0]) - 50) < 1e-3]
    assert len(bars) == 1, bars
    (_, y), _ = bars[0]
    assert y - 0.25 / MM >= BAND[paper]


def test_a_margin_too_narrow_for_the_one_sheet_name_beside_the_band_is_located(tmp_path):
    """A 7.8 mm margin prints the hexagon on A4 at 81 %, its top 2.8 mm from the 5 mm band: its
    name does not fit above it, and is never drawn into the band or over the board."""
    project = tmp_path / "project"
    shutil.copytree(SAMPLE, project)
    game = project / "components" / "sample-game"
    replace_in(game / "boards.yaml", "design:\n", "design:\n  one_sheet: true\n")
    replace_in(game / "game.yaml", "  tile: Tile\n", "  tile: Tile\n  scale: Scale\n  one_sheet: on one sheet\n")
    sheets = project / "templates" / "sheets"
    sheets.mkdir(parents=True)
    shutil.copy(Path(__file__).resolve().parent.parent / "templates" / "sheets" / "tiles.yaml", sheets)
    replace_in(sheets / "tiles.yaml", "margin_mm: 10", "margin_mm: 7.8")
    result = pnp("build", "--kind", "boards", "--paper", "a4", "--out", str(tmp_path / "out"), project=project)
    assert result.exit_code == 1 and not result.traceback, result.output + result.traceback
    assert "templates/sheets/tiles.yaml:2: margin_mm: a 7.8 mm margin leaves 2.8 mm beside the paper's 5 mm " \
        "unprintable band: too little for the name above a board printed on one sheet" in result.output, result.output
