"""Home-print booklet: the A5 pages two to a side of a landscape sheet, in saddle-stitch order,
so that the sheets printed duplex (flipped on the short edge), folded and nested read in order.

Sheet 1 front: last | first, back: second | second-last; sheet 2 front: last-2 | third, ...
Each page is placed whole as a form XObject (its content untouched), centred in its half and
scaled down only when the half is smaller than the page (A5 on US Letter). A shrunk booklet
says so in the margin of every side: the scale, and what the first page's 50 mm bar measures
(laid out by generator/layout/imposition.py, drawn here).
"""
from __future__ import annotations

import io
from typing import Callable

import pikepdf

from ..layout.imposition import MM, NOTE_FONT, NOTE_PT, PlacedNote, place_note
from .pdf import Document


def saddle_order(pages: int) -> list[tuple[int, int]]:
    """(left, right) page indices of each printed side: sheet by sheet, front then back."""
    if pages <= 0 or pages % 4:
        raise ValueError(f"a saddle-stitched booklet needs a multiple of 4 pages, not {pages}")
    sides = []
    for sheet in range(pages // 4):
        sides.append((pages - 1 - 2 * sheet, 2 * sheet))
        sides.append((2 * sheet + 1, pages - 2 - 2 * sheet))
    return sides


def placement(box: list[float], slot: int, half: float, height: float) -> tuple[float, float, float]:
    """Scale and offset that centre a page with MediaBox `box` in half `slot` of the sheet."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    scale = min(half / w, height / h, 1.0)
    return scale, slot * half + (half - w * scale) / 2 - x0 * scale, (height - h * scale) / 2 - y0 * scale


def booklet_scale(data: bytes, paper_mm: tuple[float, float]) -> float:
    """The scale the booklet's first page is printed at on a landscape sheet of `paper_mm`."""
    with pikepdf.open(io.BytesIO(data)) as source:
        box = [float(v) for v in source.pages[0].mediabox]
    width, height = max(paper_mm) * MM, min(paper_mm) * MM
    return placement(box, 1, width / 2, height)[0]


def note_form(note: PlacedNote, sheet: tuple[float, float]):
    """A one-page PDF of the sheet's size with the laid-out note, in the kit's sans font
    (ReportLab: embedded, the same bytes every time)."""
    width, height = sheet
    doc = Document((width / MM, height / MM), "note")
    doc.new_page()
    canvas = doc.canvas
    canvas.setFont(NOTE_FONT, NOTE_PT)
    canvas.setFillColorRGB(0.33, 0.33, 0.33)
    canvas.setFont(NOTE_FONT, NOTE_PT)          # twice, as earlier versions did: the same bytes as theirs
    for line, baseline in zip(note.lines, note.baselines_pt):
        canvas.drawCentredString(note.centre_pt, baseline, line)
    data, _ = doc.finish()
    return pikepdf.open(io.BytesIO(data))


def impose(data: bytes, paper_mm: tuple[float, float],
           note: Callable[[float], str] | None = None, unprintable_mm: float = 0.0) -> tuple[bytes, int]:
    """The booklet PDF `data` two-up on landscape sheets of `paper_mm`; returns bytes and sides.
    When the pages must be shrunk to fit, `note(scale)` (the words in the booklet's locale) is
    printed in the bottom margin of every side, above the paper's `unprintable_mm` band; words
    that do not fit there are an error at the note's `where` (a booklet.ScaleNote's)."""
    source = pikepdf.open(io.BytesIO(data))
    out = pikepdf.new()
    width, height = max(paper_mm) * MM, min(paper_mm) * MM
    forms: dict[int, pikepdf.Object] = {}
    shrunk = booklet_scale(data, paper_mm)
    words = note(shrunk) if note is not None and round(shrunk * 100) < 100 else ""
    note_xobject = None
    if words:
        box = [float(v) for v in source.pages[0].mediabox]
        page_bottom = (height - (box[3] - box[1]) * shrunk) / 2 / MM        # the shrunk pages' bottom edge
        placed = place_note(words, (width, height), unprintable_mm, page_bottom, getattr(note, "where", ("", 0, "")))
        note_pdf = note_form(placed, (width, height))
        note_xobject = out.copy_foreign(note_pdf.pages[0].as_form_xobject())
    for left, right in saddle_order(len(source.pages)):
        out.add_blank_page(page_size=(width, height))
        side = out.pages[-1]
        xobjects, operators = pikepdf.Dictionary(), []
        for slot, index in ((0, left), (1, right)):
            page = source.pages[index]
            if index not in forms:
                forms[index] = out.copy_foreign(page.as_form_xobject())
            scale, x, y = placement([float(v) for v in page.mediabox], slot, width / 2, height)
            name = f"/Page{index + 1}"
            xobjects[name] = forms[index]
            operators.append(f"q {scale:.6f} 0 0 {scale:.6f} {x:.4f} {y:.4f} cm {name} Do Q")
        if note_xobject is not None:
            xobjects["/ScaleNote"] = note_xobject
            operators.append("q /ScaleNote Do Q")
        side.obj.Resources = pikepdf.Dictionary(XObject=xobjects)
        side.obj.Contents = out.make_stream("\n".join(operators).encode("ascii"))
    out.docinfo["/Producer"] = "pnp"
    if "/Title" in source.docinfo:
        out.docinfo["/Title"] = source.docinfo["/Title"]
    buffer = io.BytesIO()
    # deterministic_id: the file ID is a hash of the content, so the same input gives the same bytes.
    out.save(buffer, deterministic_id=True, compress_streams=True, min_version=source.pdf_version)
    return buffer.getvalue(), len(out.pages)
