"""Saddle-stitch imposition on its own: the order of pages on each printed side, sizes and
scaling on A4 and Letter, and reproducible bytes, on a booklet whose pages say their number."""
from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest
from reportlab.pdfgen.canvas import Canvas

from generator.render.impose import impose, saddle_order


MM = 72 / 25.4


def numbered_booklet(pages: int) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(148 * MM, 210 * MM), invariant=1)
    for number in range(1, pages + 1):
        canvas.setFont("Helvetica", 40)
        canvas.drawCentredString(74 * MM, 105 * MM, f"P{number}")
        canvas.rect(1 * MM, 1 * MM, 146 * MM, 208 * MM)        # the page's edge, to check the fit
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_saddle_order_of_an_eight_page_booklet():
    # Sheet 1: front 8|1, back 2|7; sheet 2: front 6|3, back 4|5 (1-based).
    assert [(l + 1, r + 1) for l, r in saddle_order(8)] == [(8, 1), (2, 7), (6, 3), (4, 5)]


@pytest.mark.parametrize("pages", [4, 12, 16, 28])
def test_every_page_once_and_facing_pages_add_up(pages):
    sides = saddle_order(pages)
    assert sorted(i for side in sides for i in side) == list(range(pages))
    # Folded, the two pages of a side are mirror positions: their numbers add up to pages + 1.
    assert all(l + r == pages - 1 for l, r in sides)


@pytest.mark.parametrize("pages", [0, 6, 10])
def test_a_page_count_not_a_multiple_of_4_is_refused(pages):
    with pytest.raises(ValueError):
        saddle_order(pages)


@pytest.mark.parametrize("paper, sheet, scale", [((210, 297), (297, 210), 1.0),
                                                 ((215.9, 279.4), (279.4, 215.9), 139.7 / 148)])
def test_pages_land_in_their_halves_scaled_only_when_needed(paper, sheet, scale):
    data, sides = impose(numbered_booklet(8), paper)
    assert sides == 4
    pdf = pdfium.PdfDocument(data)
    try:
        for page, (left, right) in zip(pdf, saddle_order(8)):
            width, height = page.get_size()
            assert (width / MM, height / MM) == pytest.approx(sheet, abs=0.05)
            text = page.get_textpage()
            assert text.get_text_bounded(0, 0, width / 2, height).strip() == f"P{left + 1}"
            assert text.get_text_bounded(width / 2, 0, width, height).strip() == f"P{right + 1}"
            # The drawn page edge: 146 mm wide at the page's scale, centred in each half.
            image = page.render(scale=2).to_pil().convert("L")
            dark = [x for x in range(image.width) if image.getpixel((x, image.height // 2)) < 128]
            left_edge, right_edge = min(dark) / 2 / MM, max(dark) / 2 / MM
            half = sheet[0] / 2
            assert left_edge == pytest.approx((half - 148 * scale) / 2 + 1 * scale, abs=0.5)
            assert right_edge == pytest.approx(half + (half + 148 * scale) / 2 - 1 * scale, abs=0.5)
    finally:
        pdf.close()


def test_imposition_is_reproducible():
    booklet = numbered_booklet(12)
    assert impose(booklet, (210, 297)) == impose(booklet, (210, 297))


# ---- the scale note ----------------------------------------------------------------------------

LETTER = (215.9, 279.4)
LONG_NOTE = ("The pages of this booklet are printed at {percent}% so that they fit on this paper: the 50 mm "
             "bar on the cover page measures {length} mm here, so measure it to check the print.")


def note_drawn(data: bytes) -> tuple[list[float], list[float], str]:
    """(font sizes set, baselines in mm, text) of the scale note on the first side of an imposed
    booklet, read off its form."""
    import pikepdf
    with pikepdf.open(io.BytesIO(data)) as pdf:
        form = pdf.pages[0].Resources.XObject["/ScaleNote"]
        sizes, baselines, text = [], [], []
        for operands, operator in pikepdf.parse_content_stream(form):
            if str(operator) == "Tf":
                sizes.append(float(operands[1]))
            elif str(operator) == "Tm":
                baselines.append(float(operands[5]) / MM)
            elif str(operator) == "Tj":
                text.append(bytes(operands[0]))
    document = pdfium.PdfDocument(data)
    try:
        words = " ".join(document[0].get_textpage().get_text_range().split())
    finally:
        document.close()
    return sizes, baselines, words


@pytest.mark.parametrize("locale", ["en", "bg", "cs", "ru", "uk"])
def test_every_locale_s_scale_note_prints_at_6_pt_on_letter(locale):
    """The tool's own words in each of its catalogs, on the sheet that shrinks A5 pages most."""
    from conftest import ROOT
    from generator.layout.booklet import scale_note
    from generator.load.project import Project
    note = scale_note(Project(ROOT), locale)
    data, _ = impose(numbered_booklet(4), LETTER, note, 6.35)
    sizes, baselines, words = note_drawn(data)
    assert sizes and min(sizes) >= 6
    assert len(baselines) == 1
    assert " ".join(note(139.7 / 148).split()) in words


def _long_note_project(tmp_path, band: str):
    """A copy of the sample game whose booklet words have a long scale note, Letter's
    unprintable band set to `band` mm."""
    import shutil

    from conftest import ROOT, SAMPLE, replace_in
    project = tmp_path / "project"
    shutil.copytree(SAMPLE, project)
    sheets = project / "templates" / "sheets"
    sheets.mkdir(parents=True)
    for name in ("booklet.yaml", "papers.yaml"):
        shutil.copy(ROOT / "templates" / "sheets" / name, sheets)
    replace_in(sheets / "booklet.yaml", "  scaled: \"The pages are printed at {percent}% to fit this paper: the 50 mm "
               "bar on page 1 measures {length} mm here.\"", f"  scaled: \"{LONG_NOTE}\"")
    replace_in(sheets / "papers.yaml", "unprintable_mm: 6.35", f"unprintable_mm: {band}")
    return project


def test_a_note_too_long_for_one_line_takes_two_at_6_pt(tmp_path):
    """On a printer that leaves 3 mm, the margin under the shrunk pages holds two lines."""
    from conftest import pnp
    project = _long_note_project(tmp_path, "3")
    result = pnp("build", "--kind", "booklet", "--paper", "letter", "--out", str(tmp_path / "out"), project=project)
    assert result.exit_code == 0, result.output + result.traceback
    imposed = tmp_path / "out" / "sample-game" / "standard" / "en" / "sample-game-standard-en-rules-imposed-letter.pdf"
    sizes, baselines, words = note_drawn(imposed.read_bytes())
    assert sizes and min(sizes) >= 6
    assert len(baselines) == 2 and min(baselines) > 3                  # two lines, above the band
    # the lower line's ink stays under the pages: (215.9 - 210 x 139.7 / 148) / 2 mm up
    assert max(baselines) + 0.76 * 6 / MM < (215.9 - 210 * 139.7 / 148) / 2
    assert LONG_NOTE.format(percent=94, length="47.2") in words.replace("\xa0", " ")


def test_a_note_that_fits_on_neither_one_line_nor_two_is_a_located_error(tmp_path):
    """Letter's 6.35 mm band leaves room for one line under the pages: the long note is named
    where it is written, never printed smaller than 6 pt."""
    from conftest import line_of, pnp
    project = _long_note_project(tmp_path, "6.35")
    result = pnp("build", "--kind", "booklet", "--paper", "letter", "--out", str(tmp_path / "out"), project=project)
    assert result.exit_code == 1 and not result.traceback, result.output + result.traceback
    line = line_of(project / "templates" / "sheets" / "booklet.yaml", "scaled:")
    note = LONG_NOTE.format(percent=94, length="47.2")
    assert f"templates/sheets/booklet.yaml:{line}: text.scaled: the note '{note}' printed under the booklet's pages " \
        "on each home-print sheet does not fit at 6 pt" in result.output.replace("\xa0", " "), result.output
