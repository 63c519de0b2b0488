"""Home-print booklet: the A5 pages two to a side of a landscape sheet, in saddle-stitch order,
so that the sheets printed duplex (flipped on the short edge), folded and nested read in order.

Sheet 1 front: last | first, back: second | second-last; sheet 2 front: last-2 | third, ...
Each page is placed whole as a form XObject (its content untouched), centred in its half and
scaled down only when the half is smaller than the page (A5 on US Letter). A shrunk booklet
says so in the margin of every side: the scale, and what the first page's 50 mm bar measures.
"""
from __future__ import annotations

import io
from typing import Callable

import pikepdf


MM = 72 / 25.4
# The scale note: its size (never less: nothing printed is), how far its ink reaches below and
# above its baseline (em) and then stays clear of the paper's unprintable band (mm): it sits in
# the margin a shrunk A5 page leaves on US Letter, just above the band. A note too wide for one
# line takes two, `NOTE_LEADING` em apart, where the margin is tall enough.
NOTE_PT = 6.0
NOTE_DESCENT_EM, NOTE_CLEAR_MM = 0.24, 0.2
NOTE_ASCENT_EM, NOTE_LEADING = 0.76, 1.2


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


def note_lines(text: str, width_mm: float, height_mm: float, width_of) -> list[str] | None:
    """`text` at NOTE_PT on one line `width_mm` wide or, broken at the space that makes its longer
    line the shortest, on two, their ink `height_mm` high at most; None when neither fits.
    `width_of(line)` is a line's width at NOTE_PT in mm."""
    em = NOTE_PT / MM
    for count in (1, 2):
        if (NOTE_DESCENT_EM + NOTE_ASCENT_EM + (count - 1) * NOTE_LEADING) * em > height_mm:
            return None
        if count == 1 and width_of(text) <= width_mm:
            return [text]
    words = text.split(" ")
    breaks = [[" ".join(words[:at]), " ".join(words[at:])] for at in range(1, len(words))]
    widest = [(max(width_of(line) for line in lines), lines) for lines in breaks]
    fitting = [(wide, lines) for wide, lines in widest if wide <= width_mm]
    return min(fitting, key=lambda pair: pair[0])[1] if fitting else None


def note_form(text: str, sheet: tuple[float, float], unprintable_mm: float = 0.0, page_bottom_mm: float | None = None,
              where: tuple[str, int, str] = ("", 0, "")):
    """A one-page PDF of the sheet's size with `text` in the bottom margin of its right half,
    above the paper's unprintable band and under the pages (their bottom edge `page_bottom_mm`
    up), in the kit's sans font (ReportLab: embedded, the same bytes every time). A note that
    fits on neither one line nor two at NOTE_PT is a located error at `where`, the words' place."""
    from ..core.errors import DataError, Problem
    from .pdf import Document
    width, height = sheet
    room_w = width / 2 / MM - 10               # the half's width, less 5 mm each side
    baseline_mm = unprintable_mm + NOTE_CLEAR_MM + NOTE_DESCENT_EM * NOTE_PT / MM
    room_h = (height / MM if page_bottom_mm is None else page_bottom_mm) - unprintable_mm - NOTE_CLEAR_MM
    doc = Document((width / MM, height / MM), "note")
    doc.new_page()
    canvas = doc.canvas
    def width_of(line: str) -> float:
        return canvas.stringWidth(line, "Sans", NOTE_PT) / MM
    lines = note_lines(text, room_w, room_h, width_of)
    if lines is None:
        wide = width_of(text)
        raise DataError([Problem(*where, f"the note '{text}' printed under the booklet's pages on each home-print "
                                         f"sheet does not fit at {NOTE_PT:g} pt: {wide:.1f} mm long, on one or two lines "
                                         f"of {room_w:.1f} mm in the {max(room_h, 0):.1f} mm between the pages and the "
                                         f"paper's {unprintable_mm:g} mm unprintable band ({width / MM:g} x "
                                         f"{height / MM:g} mm sheet); shorten it")])
    canvas.setFont("Sans", NOTE_PT)
    canvas.setFillColorRGB(0.33, 0.33, 0.33)
    canvas.setFont("Sans", NOTE_PT)          # twice, as earlier versions did: the same bytes as theirs
    for above, line in zip(range(len(lines) - 1, -1, -1), lines):     # in reading order, the last line lowest
        canvas.drawCentredString(width * 3 / 4, (baseline_mm + above * NOTE_LEADING * NOTE_PT / MM) * MM, line)
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
        note_pdf = note_form(words, (width, height), unprintable_mm, page_bottom, getattr(note, "where", ("", 0, "")))
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
