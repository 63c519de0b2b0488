"""Contact sheets: every distinct card of a deck (fronts, then its backs) on one small PNG, with
the number of copies under each card, for the README and a look before printing."""
from __future__ import annotations

import io

import pypdfium2 as pdfium
from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm

from ..layout.furniture import LABEL_MM, MARGIN_MM, ContactSheet
from .faces import draw_placed
from .pdf import Document


# About 140 px per poker card: enough to recognise a card, small enough for a README.
DPI = 56


def render_contact_sheet(sheet: ContactSheet) -> bytes:
    """A laid-out contact sheet as a PNG."""
    page = sheet.page_mm
    doc = Document(page, sheet.title_text, "preview")
    doc.new_page()
    c = doc.canvas
    c.setFillColor(HexColor("#F4F4F4"))
    c.rect(0, 0, page[0] * mm, page[1] * mm, stroke=0, fill=1)
    c.setFillColor(HexColor("#222222"))
    c.setFont(sheet.title.font, sheet.title.size)
    for line, baseline in zip(sheet.title.lines, sheet.title_baselines):
        c.drawString(MARGIN_MM * mm, baseline, line)
    for tile in sheet.tiles:
        face, x, top = tile.face, tile.x_mm, tile.top_mm
        w, h = face.layout["size_mm"]
        name = doc.form(face.key, lambda cv, f=face: draw_placed(cv, f.placed), (0, 0, w, h))
        doc.place(name, x, top - h)
        c.setStrokeColor(HexColor("#BBBBBB"))
        c.setLineWidth(0.5)
        c.rect(x * mm, (top - h) * mm, w * mm, h * mm, stroke=1, fill=0)
        if tile.label:
            c.setFillColor(HexColor("#222222"))
            c.setFont("Sans-Bold", 11)
            c.drawCentredString((x + w / 2) * mm, (top - h - LABEL_MM + 1.2) * mm, tile.label)
    data, _ = doc.finish()
    pdf = pdfium.PdfDocument(data)
    try:
        image = pdf[0].render(scale=DPI / 72).to_pil().convert("RGB")
    finally:
        pdf.close()
    # A 256-colour palette keeps the file small; the quantiser is deterministic. zlib's usual
    # level: its hardest (optimize) saves a tenth of the bytes in seven times the time.
    out = io.BytesIO()
    image.quantize(colors=256, method=2).save(out, "PNG")
    return out.getvalue()
