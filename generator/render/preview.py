"""Contact sheets: every distinct card of a deck (fronts, then its backs) on one small PNG, with
the number of copies under each card, for the README and a look before printing."""
from __future__ import annotations

import io

import pypdfium2 as pdfium
from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm

from ..core import fonts
from ..layout.elements.text import fit_text
from ..layout.faces import Face
from .faces import draw_placed
from .pdf import Document


COLUMNS = 6
GAP_MM, LABEL_MM, MARGIN_MM, TITLE_MM = 5.0, 6.0, 6.0, 12.0
# About 140 px per poker card: enough to recognise a card, small enough for a README.
DPI = 56


def render_contact_sheet(faces: list[Face], title: str, back_label: str = "") -> bytes:
    """`faces` are one deck's cards in data order; each distinct back follows the fronts."""
    backs = list({face.back.key: face.back for face in faces if face.back is not None}.values())
    tiles = [(face, f"×{face.copies}") for face in faces] + [(back, back_label) for back in backs]
    card_w = max(t[0].layout["size_mm"][0] for t in tiles)
    card_h = max(t[0].layout["size_mm"][1] for t in tiles)
    columns = min(COLUMNS, len(tiles))
    rows = -(-len(tiles) // columns)
    page = (2 * MARGIN_MM + columns * card_w + (columns - 1) * GAP_MM,
            2 * MARGIN_MM + TITLE_MM + rows * (card_h + LABEL_MM) + (rows - 1) * GAP_MM)
    doc = Document(page, title, "preview")
    doc.new_page()
    c = doc.canvas
    c.setFillColor(HexColor("#F4F4F4"))
    c.rect(0, 0, page[0] * mm, page[1] * mm, stroke=0, fill=1)
    fitted = fit_text(title, "bold", 20, 10, page[0] - 2 * MARGIN_MM, TITLE_MM - 2)
    c.setFillColor(HexColor("#222222"))
    c.setFont(fitted.font, fitted.size)
    baseline = (page[1] - MARGIN_MM - 1.4) * mm - fonts.ASCENT * fitted.size
    for line in fitted.lines:
        c.drawString(MARGIN_MM * mm, baseline, line)
        baseline -= fonts.LEADING * fitted.size
    for index, (face, label) in enumerate(tiles):
        column, row = index % columns, index // columns
        x = MARGIN_MM + column * (card_w + GAP_MM)
        top = page[1] - MARGIN_MM - TITLE_MM - row * (card_h + LABEL_MM + GAP_MM)
        w, h = face.layout["size_mm"]
        name = doc.form(face.key, lambda cv, f=face: draw_placed(cv, f.placed), (0, 0, w, h))
        doc.place(name, x, top - h)
        c.setStrokeColor(HexColor("#BBBBBB"))
        c.setLineWidth(0.5)
        c.rect(x * mm, (top - h) * mm, w * mm, h * mm, stroke=1, fill=0)
        if label:
            c.setFillColor(HexColor("#222222"))
            c.setFont("Sans-Bold", 11)
            c.drawCentredString((x + w / 2) * mm, (top - h - LABEL_MM + 1.2) * mm, label)
    data, _ = doc.finish()
    pdf = pdfium.PdfDocument(data)
    try:
        image = pdf[0].render(scale=DPI / 72).to_pil().convert("RGB")
    finally:
        pdf.close()
    # A 256-colour palette keeps the file small; the quantiser is deterministic.
    out = io.BytesIO()
    image.quantize(colors=256, method=2).save(out, "PNG", optimize=True)
    return out.getvalue()
