"""Saddle-stitch imposition on its own: the order of pages on each printed side, sizes and
scaling on A4 and Letter, and reproducible bytes, on a booklet whose pages say their number."""
from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest
from reportlab.pdfgen.canvas import Canvas

from generator.impose import impose, saddle_order

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
