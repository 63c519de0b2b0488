"""Card sheets: fronts pages, each followed by its backs page at mirrored positions."""
from __future__ import annotations

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm

from ..layout import Face, SheetGrid
from .faces import draw_face
from .pdf import Document, draft_mark, scale_bar


def draw_crop_marks(canvas, grid: SheetGrid) -> None:
    """Marks in the margin, in line with every card edge, never across a card."""
    marks = grid.marks
    offset, length = marks["offset_mm"], marks["length_mm"]
    (gx, gy), (gw, gh) = grid.origin, grid.size_mm
    w, h = grid.card_mm
    xs = sorted({gx + c * (w + grid.gap_mm) for c in range(grid.columns)}
                | {gx + c * (w + grid.gap_mm) + w for c in range(grid.columns)})
    ys = sorted({gy + r * (h + grid.gap_mm) for r in range(grid.rows)}
                | {gy + r * (h + grid.gap_mm) + h for r in range(grid.rows)})
    canvas.saveState()
    canvas.setStrokeColor(HexColor("#000000"))
    canvas.setLineWidth(marks["width_pt"])
    for x in xs:
        canvas.line(x * mm, (gy - offset) * mm, x * mm, (gy - offset - length) * mm)
        canvas.line(x * mm, (gy + gh + offset) * mm, x * mm, (gy + gh + offset + length) * mm)
    for y in ys:
        canvas.line((gx - offset) * mm, y * mm, (gx - offset - length) * mm, y * mm)
        canvas.line((gx + gw + offset) * mm, y * mm, (gx + gw + offset + length) * mm, y * mm)
    canvas.restoreState()


def render_card_sheets(faces: list[Face], grid: SheetGrid, title: str, *, draft: str = "",
                       scale_label: str = "", duplex: str = "long") -> tuple[bytes, int, list[dict]]:
    """Fronts then backs for every page of cards. Returns PDF bytes, pages and a placement
    map (page, slot, face key) that tests and previews read."""
    doc = Document(grid.paper_mm, title, "cards")
    sequence = [face for face in faces for _ in range(face.copies)]
    placements = []
    per_page = grid.per_page
    for start in range(0, len(sequence), per_page):
        chunk = sequence[start:start + per_page]
        for side in ("front", "back"):
            doc.new_page()
            for index, face in enumerate(chunk):
                shown = face if side == "front" else face.back
                w, h = shown.layout["size_mm"]
                name = doc.form(shown.key, lambda c, f=shown: draw_face(c, f.layout, f.values), (0, 0, w, h))
                slot = grid.slot(index, mirror_columns=side == "back" and duplex == "long",
                                 mirror_rows=side == "back" and duplex == "short")
                doc.place(name, slot.x, slot.y)
                placements.append({"page": doc.pages, "side": side, "face": shown.key,
                                   "card": face.key, "column": slot.column, "row": slot.row,
                                   "x_mm": round(slot.x, 3), "y_mm": round(slot.y, 3)})
            draw_crop_marks(doc.canvas, grid)
            if doc.pages == 1 and scale_label:
                # In the left margin between two rows' marks, where nothing else is printed.
                scale_bar(doc.canvas, grid.origin[0] - 3.5, grid.origin[1] + (grid.card_mm[1] - 50) / 2,
                          scale_label, vertical=True)
            if draft:
                draft_mark(doc.canvas, grid.paper_mm, draft)
    data, pages = doc.finish()
    return data, pages, placements
