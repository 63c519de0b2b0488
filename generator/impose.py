"""Home-print booklet: the A5 pages two to a side of a landscape sheet, in saddle-stitch order,
so that the sheets printed duplex (flipped on the short edge), folded and nested read in order.

Sheet 1 front: last | first, back: second | second-last; sheet 2 front: last-2 | third, ...
Pages are scaled down only when half the sheet is smaller than the page (A5 on US Letter).
"""
from __future__ import annotations

import io

from pypdf import PdfReader, PdfWriter, Transformation

MM = 72 / 25.4


def saddle_order(pages: int) -> list[tuple[int, int]]:
    """(left, right) page indices of each printed side: sheet by sheet, front then back."""
    if pages <= 0 or pages % 4:
        raise ValueError(f"a saddle-stitched booklet needs a multiple of 4 pages, not {pages}")
    sides = []
    for sheet in range(pages // 4):
        sides.append((pages - 1 - 2 * sheet, 2 * sheet))
        sides.append((2 * sheet + 1, pages - 2 - 2 * sheet))
    return sides


def impose(data: bytes, paper_mm: tuple[float, float]) -> tuple[bytes, int]:
    """The booklet PDF `data` two-up on landscape sheets of `paper_mm`; returns bytes and sides."""
    reader = PdfReader(io.BytesIO(data))
    sheet_w, sheet_h = max(paper_mm) * MM, min(paper_mm) * MM
    half = sheet_w / 2
    writer = PdfWriter()
    writer.pdf_header = reader.pdf_header
    for left, right in saddle_order(len(reader.pages)):
        side = writer.add_blank_page(sheet_w, sheet_h)
        for slot, index in ((0, left), (1, right)):
            page = reader.pages[index]
            box = page.mediabox
            w, h = float(box.width), float(box.height)
            scale = min(half / w, sheet_h / h, 1.0)
            x = slot * half + (half - w * scale) / 2
            y = (sheet_h - h * scale) / 2
            placed = (Transformation().translate(-float(box.left), -float(box.bottom))
                      .scale(scale).translate(x, y))
            side.merge_transformed_page(page, placed)
        side.compress_content_streams()
    title = (reader.metadata or {}).get("/Title")
    # pypdf writes no ID and no dates unless asked: the bytes are reproducible.
    writer.add_metadata({"/Producer": "pnp", **({"/Title": str(title)} if title else {})})
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue(), len(writer.pages)
