"""Home-print booklet: the A5 pages two to a side of a landscape sheet, in saddle-stitch order,
so that the sheets printed duplex (flipped on the short edge), folded and nested read in order.

Sheet 1 front: last | first, back: second | second-last; sheet 2 front: last-2 | third, ...
Each page is placed whole as a form XObject (its content untouched), centred in its half and
scaled down only when the half is smaller than the page (A5 on US Letter).
"""
from __future__ import annotations

import io

import pikepdf

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


def placement(box: list[float], slot: int, half: float, height: float) -> tuple[float, float, float]:
    """Scale and offset that centre a page with MediaBox `box` in half `slot` of the sheet."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    scale = min(half / w, height / h, 1.0)
    return scale, slot * half + (half - w * scale) / 2 - x0 * scale, (height - h * scale) / 2 - y0 * scale


def impose(data: bytes, paper_mm: tuple[float, float]) -> tuple[bytes, int]:
    """The booklet PDF `data` two-up on landscape sheets of `paper_mm`; returns bytes and sides."""
    source = pikepdf.open(io.BytesIO(data))
    out = pikepdf.new()
    width, height = max(paper_mm) * MM, min(paper_mm) * MM
    forms: dict[int, pikepdf.Object] = {}
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
        side.obj.Resources = pikepdf.Dictionary(XObject=xobjects)
        side.obj.Contents = out.make_stream("\n".join(operators).encode("ascii"))
    out.docinfo["/Producer"] = "pnp"
    if "/Title" in source.docinfo:
        out.docinfo["/Title"] = source.docinfo["/Title"]
    buffer = io.BytesIO()
    # deterministic_id: the file ID is a hash of the content, so the same input gives the same bytes.
    out.save(buffer, deterministic_id=True, compress_streams=True, min_version=source.pdf_version)
    return buffer.getvalue(), len(out.pages)
