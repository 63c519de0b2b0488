"""Card sheets for home printing: duplex (long- or short-edge flip), gutterfold, fronts only,
and the duplex calibration sheet that tells which --back-offset a printer needs."""
from __future__ import annotations

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import FILL_EVEN_ODD

from ..core.colour import RGB, Palette
from ..layout.faces import Face, SheetGrid
from ..layout.furniture import OFFSET_LINE_BELOW_MM, OFFSET_LINE_PT, STEPS_MARGIN_MM, CalibrationSteps
from .faces import draw_bleed, draw_placed
from .pdf import Document, draft_mark, scale_bar


def cut_lines(grid: SheetGrid) -> tuple[list[float], list[float]]:
    """x of every vertical and y of every horizontal cut line (mm)."""
    (gx, gy) = grid.origin
    w, h = grid.card_mm
    xs = sorted({gx + c * (w + grid.gap_mm) for c in range(grid.columns)}
                | {gx + c * (w + grid.gap_mm) + w for c in range(grid.columns)})
    ys = sorted({gy + r * (h + grid.gap_y) for r in range(grid.rows)}
                | {gy + r * (h + grid.gap_y) + h for r in range(grid.rows)})
    return xs, ys


def draw_crop_marks(canvas, grid: SheetGrid) -> None:
    """Marks in the margin, in line with every card edge, never across a card."""
    marks = grid.marks
    (off_x, off_y), (beside, above) = grid.offsets_mm, grid.mark_lengths_mm
    (gx, gy), (gw, gh) = grid.origin, grid.size_mm
    xs, ys = cut_lines(grid)
    canvas.saveState()
    canvas.setStrokeColor(HexColor("#000000"))
    canvas.setLineWidth(marks["width_pt"])
    for x in xs:
        canvas.line(x * mm, (gy - off_y) * mm, x * mm, (gy - off_y - above) * mm)
        canvas.line(x * mm, (gy + gh + off_y) * mm, x * mm, (gy + gh + off_y + above) * mm)
    for y in ys:
        canvas.line((gx - off_x) * mm, y * mm, (gx - off_x - beside) * mm, y * mm)
        canvas.line((gx + gw + off_x) * mm, y * mm, (gx + gw + off_x + beside) * mm, y * mm)
    canvas.restoreState()


def bleed_reach(grid: SheetGrid, slot) -> tuple[float, float, float, float]:
    """How far (mm) a card's artwork runs past its left, bottom, right and top cut lines: the
    sheet's bleed at the grid's outer edge, but never nearer the paper's edge than the marks'
    `min_edge_mm` (what a printer cannot print; US Letter's top margin is 7.7 mm), at most half a
    gap towards a neighbour (so it never reaches the next card), none where cards are butted."""
    bleed = grid.bleed_mm
    (gx, gy), (gw, gh) = grid.origin, grid.size_mm
    room = grid.marks.get("min_edge_mm", 0)
    # the room between the grid's outer edge and the unprintable band, each side
    margins = (min(gx - room, left_bleed(grid)), gy - room, grid.paper_mm[0] - gx - gw - room,
               grid.paper_mm[1] - gy - gh - room)

    def towards(outer: bool, gap: float, margin: float) -> float:
        return max(0.0, min(bleed, margin)) if outer else min(bleed, gap / 2)
    return (towards(slot.column == 0, grid.gap_mm, margins[0]),
            towards(slot.row == grid.rows - 1, grid.gap_y, margins[1]),
            towards(slot.column == grid.columns - 1, grid.gap_mm, margins[2]),
            towards(slot.row == 0, grid.gap_y, margins[3]))


def bleed_area(grid: SheetGrid, slot) -> list[tuple[float, float, float, float]] | None:
    """(x, y, w, h) rectangles of the clip around a card's bleed, filled even-odd: the card
    with its bleed, less a window around every crop mark that starts within it (the artwork
    stays `clear_mm` from either side of a mark, which thus prints on white). None: no bleed."""
    left, bottom, right, top = bleed_reach(grid, slot)
    if not any((left, bottom, right, top)):
        return None
    w, h = grid.card_mm
    x0, y0, x1, y1 = slot.x - left, slot.y - bottom, slot.x + w + right, slot.y + h + top
    (gx, gy), (gw, gh) = grid.origin, grid.size_mm
    (off_x, off_y), clear = grid.offsets_mm, grid.marks.get("clear_mm", 0.4)
    xs, ys = cut_lines(grid)
    windows = []
    for x in xs:                      # marks above and below the grid
        for start, end in ((gy + gh + off_y, y1), (y0, gy - off_y)):
            windows.append((max(x - clear, x0), start, min(x + clear, x1), end))
    for y in ys:                      # marks beside it, clear of the windows above and below
        for start, end in ((x0, min(gx - off_x, gx - clear)), (max(gx + gw + off_x, gx + gw + clear), x1)):
            windows.append((start, max(y - clear, y0), end, min(y + clear, y1)))
    rects = [(x0, y0, x1 - x0, y1 - y0)]
    rects += [(a, b, c - a, d - b) for a, b, c, d in windows if c - a > 1e-6 and d - b > 1e-6]
    return rects


def draw_card_bleed(canvas, grid: SheetGrid, face, slot, turned: bool, palette) -> None:
    """The artwork of `face` running on past its cut lines, as `bleed_area` lets it."""
    rects = bleed_area(grid, slot)
    if rects is None or not any(p.spec.get("bleed") for p in face.placed.elements):
        return
    w, h = face.layout["size_mm"]
    canvas.saveState()
    path = canvas.beginPath()
    for x, y, rw, rh in rects:
        path.rect(x * mm, y * mm, rw * mm, rh * mm)
    canvas.clipPath(path, stroke=0, fill=0, fillMode=FILL_EVEN_ODD)
    canvas.translate(slot.x * mm, slot.y * mm)
    if turned:
        canvas.translate(w * mm, h * mm)
        canvas.rotate(180)
    draw_bleed(canvas, face.placed, max(bleed_reach(grid, slot)), palette)
    canvas.restoreState()


def _top_holds_bar(grid: SheetGrid) -> bool:
    (_, gy), (_, gh) = grid.origin, grid.size_mm
    room = grid.paper_mm[1] - gy - gh - grid.bleed_mm - grid.marks.get("clear_mm", 0.4) - grid.marks["min_edge_mm"]
    return room >= SCALE_TICKS_MM + SCALE_LABEL_MM and grid.card_mm[0] >= 50


def left_bleed(grid: SheetGrid) -> float:
    """How far the left column's artwork runs past its cut line: the sheet's bleed, or less where
    the left margin would otherwise not hold the 50 mm bar between the bleed and the paper's
    unprintable band (US Letter: 13.45 mm less its 6.35 mm band), as long as at least
    MIN_SIDE_BLEED_MM is left."""
    gx, edge = grid.origin[0], grid.marks["min_edge_mm"]
    room = gx - edge - SCALE_TICKS_MM - SCALE_LABEL_MM - grid.marks.get("clear_mm", 0.4)
    if room >= grid.bleed_mm or room < MIN_SIDE_BLEED_MM or _top_holds_bar(grid):
        return grid.bleed_mm
    return room


def scale_bar_place(grid: SheetGrid) -> tuple[float, float, bool] | None:
    """Where the first page's 50 mm bar goes (x, y, vertical): in the left margin beside the
    bottom row when the margin holds it clear of the bleed and the paper's unprintable band,
    else in the top margin above the first card; None when neither does."""
    (gx, gy), (_, gh) = grid.origin, grid.size_mm
    edge, clear = grid.marks["min_edge_mm"], grid.marks.get("clear_mm", 0.4)
    bleed = left_bleed(grid) + clear
    w, h = grid.card_mm
    # a bar's ticks reach SCALE_TICKS_MM to one side of it, its label SCALE_LABEL_MM to the other
    if gx - bleed - edge >= SCALE_TICKS_MM + SCALE_LABEL_MM:
        return gx - bleed - SCALE_LABEL_MM, gy + (h - 50) / 2, True
    if _top_holds_bar(grid):
        return gx + (w - 50) / 2, gy + gh + grid.bleed_mm + clear + 0.5, False
    return None


# From the bar's line: its ticks (one side) and its label (the other), in mm.
SCALE_TICKS_MM, SCALE_LABEL_MM = 1.6, 3.0
# The least bleed beside the grid kept when it is narrowed to make room for the bar.
MIN_SIDE_BLEED_MM = 1.5


DUPLEX_MODES = ("long", "short", "gutterfold", "fronts")


def render_card_sheets(groups: list[tuple[list[Face], SheetGrid, dict | None]], title: str, *, draft: str = "",
                       scale_label: str = "", duplex: str = "long",
                       back_offset: tuple[float, float] = (0.0, 0.0),
                       fold_label: str = "", palette: Palette = RGB,
                       crop_marks: bool = True) -> tuple[bytes, int, list[dict]]:
    """Card sheets for home printing, one run of pages per (faces, grid, fold line) group: a
    card size and the sheet it prints on. Returns PDF bytes, pages and a placement map (page,
    side, slot, face key) that tests and previews read.

    long / short: each fronts page is followed by its backs page, columns (long-edge flip) or
    rows (short-edge flip) mirrored; `back_offset` (mm, in the back page's own coordinates)
    moves everything on back pages only. gutterfold: the grid's top half holds fronts, the
    bottom half their backs turned upside down, mirrored across the fold. fronts: no backs.
    The outer cards' backgrounds run on past the cut lines by the sheet's `bleed_mm`
    (`bleed_area`); `palette` gives every colour (the ink-saving one draws light).
    `crop_marks=False`: none (a cutting machine's sheet: the machine cuts each card)."""
    if duplex not in DUPLEX_MODES:
        raise ValueError(f"unknown duplex mode {duplex!r}")
    doc = Document(groups[0][1].paper_mm, title, "cards")
    placements = []
    sides = {"long": ("front", "back"), "short": ("front", "back"), "gutterfold": ("sheet",),
             "fronts": ("front",)}[duplex]
    for faces, grid, fold_line in groups:
        sequence = [face for face in faces for _ in range(face.copies)]
        per_page = grid.per_page // 2 if duplex == "gutterfold" else grid.per_page
        for start in range(0, len(sequence), per_page):
            chunk = sequence[start:start + per_page]
            for side in sides:
                doc.new_page()
                shift = back_offset if side == "back" else (0.0, 0.0)
                doc.canvas.saveState()
                doc.canvas.translate(shift[0] * mm, shift[1] * mm)
                shown_here = [(shown_side, face if shown_side == "front" else face.back, face, slot, turned)
                              for index, face in enumerate(chunk)
                              for shown_side, slot, turned in _positions(grid, index, side, duplex)]
                # The bleed first: the cards drawn after it cover whatever of it is under them.
                if grid.bleed_mm:
                    for _, shown, _, slot, turned in shown_here:
                        draw_card_bleed(doc.canvas, grid, shown, slot, turned, palette)
                for shown_side, shown, face, slot, turned in shown_here:
                    w, h = shown.layout["size_mm"]
                    name = doc.form(shown.key, lambda c, f=shown: draw_placed(c, f.placed, palette=palette),
                                    (0, 0, w, h))
                    doc.place(name, slot.x, slot.y, upside_down=(w, h) if turned else None)
                    placements.append({"page": doc.pages, "side": shown_side, "face": shown.key,
                                       "card": face.key, "column": slot.column, "row": slot.row,
                                       "x_mm": round(slot.x + shift[0], 3), "y_mm": round(slot.y + shift[1], 3),
                                       "turned": turned})
                if crop_marks:
                    draw_crop_marks(doc.canvas, grid)
                doc.canvas.restoreState()
                if duplex == "gutterfold":
                    draw_fold_line(doc.canvas, grid, fold_line or {}, fold_label)
                place = scale_bar_place(grid) if doc.pages == 1 and scale_label else None
                if place:
                    # In a margin between two marks, clear of the bleed, where nothing else is printed.
                    scale_bar(doc.canvas, place[0], place[1], scale_label, vertical=place[2])
                if draft:
                    draft_mark(doc.canvas, grid.paper_mm, draft)
    data, pages = doc.finish()
    return data, pages, placements


def _positions(grid: SheetGrid, index: int, side: str, duplex: str):
    """(side shown, slot, upside down) for the card at `index` of a page."""
    if side == "front":
        yield "front", grid.slot(index), False
    elif side == "back":
        yield "back", grid.slot(index, mirror_columns=duplex == "long", mirror_rows=duplex == "short"), False
    else:   # gutterfold: fronts in the top half, backs in the mirrored row below the fold
        front = grid.slot(index)
        yield "front", front, False
        yield "back", grid.slot(index + (grid.rows - 1 - 2 * front.row) * grid.columns), True


def draw_fold_line(canvas, grid: SheetGrid, style: dict, label: str) -> None:
    """A dashed line along the middle of the gutter, across the whole grid and its margins."""
    (gx, gy), (gw, gh) = grid.origin, grid.size_mm
    y = gy + gh / 2
    edge = grid.marks["min_edge_mm"]
    canvas.saveState()
    canvas.setStrokeColor(HexColor("#555555"))
    canvas.setLineWidth(style.get("width_pt", 0.5))
    canvas.setDash(*[v * mm for v in style.get("dash_mm", (3, 2))])
    canvas.line(edge * mm, y * mm, (grid.paper_mm[0] - edge) * mm, y * mm)
    canvas.restoreState()
    if label:
        canvas.saveState()
        canvas.setFillColor(HexColor("#555555"))
        canvas.setFont("Sans", 6)
        # beyond the outer cards' bleed and its clearance
        away = grid.bleed_mm + grid.marks.get("clear_mm", 0.4) + 1 if grid.bleed_mm else 1.5
        canvas.drawString((gx + gw + away) * mm, (y + 0.8) * mm, label)
        canvas.restoreState()


def render_calibration(paper_mm: tuple[float, float], settings: dict, steps: CalibrationSteps, *,
                       scale_label: str = "", back_offset: tuple[float, float] = (0.0, 0.0)) -> tuple[bytes, int]:
    """Two pages printed on one sheet: a cross at the page centre on the front; on the back,
    scales centred on the same point, labelled with the --back-offset that puts the back
    where the front is. The back page moves by `back_offset` like every back page, and its
    labels allow for that, so the number read off is always the whole offset to use. `steps`
    are the front's instructions as laid out (generator/layout/furniture)."""
    text = settings["text"]
    doc = Document(paper_mm, text["title"], "calibration")
    cx, cy = paper_mm[0] / 2, paper_mm[1] / 2
    c = doc.canvas
    # Front: instructions, the cross, the scale bar.
    doc.new_page()
    c.setFillColor(HexColor("#000000"))
    c.setFont("Sans-Bold", 14)
    c.drawString(20 * mm, (paper_mm[1] - 22) * mm, text["title"])
    for step in steps.steps:
        c.setFont(step.text.font, step.text.size)
        for line, y in zip(step.text.lines, step.baselines_mm):
            c.drawString(STEPS_MARGIN_MM * mm, y * mm, line)
    if any(back_offset):
        c.setFont("Sans", OFFSET_LINE_PT)
        c.drawString(STEPS_MARGIN_MM * mm, (steps.below_mm - OFFSET_LINE_BELOW_MM) * mm,
                     text["current"].format(dx=_number(back_offset[0]), dy=_number(back_offset[1])))
    arm = settings["cross_mm"] / 2
    c.setStrokeColor(HexColor("#000000"))
    c.setLineWidth(settings["cross_width_pt"])
    c.line((cx - arm) * mm, cy * mm, (cx + arm) * mm, cy * mm)
    c.line(cx * mm, (cy - arm) * mm, cx * mm, (cy + arm) * mm)
    if scale_label:
        scale_bar(c, 20, 15, scale_label)
    # Back: two scales whose tick v is drawn at v - offset, then moved by the offset.
    doc.new_page()
    c.saveState()
    c.translate(back_offset[0] * mm, back_offset[1] * mm)
    c.setFillColor(HexColor("#000000"))
    c.setFont("Sans-Bold", 12)
    c.drawCentredString(cx * mm, (paper_mm[1] - 22) * mm, text["back_title"])
    reach, step = settings["scale_mm"], settings["tick_mm"]
    ticks = [round(-reach + i * step, 3) for i in range(int(round(2 * reach / step)) + 1)]
    c.setStrokeColor(HexColor("#000000"))
    for axis, label, offset in (("x", text["dx"], back_offset[0]), ("y", text["dy"], back_offset[1])):
        for value in ticks:
            at = value - offset
            labelled = abs(value / settings["label_every_mm"] - round(value / settings["label_every_mm"])) < 1e-9
            whole = abs(value - round(value)) < 1e-9
            length = 5 if labelled else 3.5 if whole else 2
            c.setLineWidth(0.5 if whole else 0.25)
            c.setFont("Sans", CALIBRATION_LABEL_PT)
            if axis == "x":
                c.line((cx + at) * mm, (cy - 12) * mm, (cx + at) * mm, (cy - 12 - length) * mm)
                if labelled:
                    # Side by side the labels would run together: every other one a row lower.
                    row = round(value / settings["label_every_mm"]) % 2
                    c.drawCentredString((cx + at) * mm, (cy - 19.5 - row * 3) * mm, _number(value))
            else:
                c.line((cx + 12) * mm, (cy + at) * mm, (cx + 12 + length) * mm, (cy + at) * mm)
                if labelled:
                    c.drawString((cx + 18) * mm, (cy + at - 0.7) * mm, _number(value))
        c.setFont("Sans-Bold", 8)
        if axis == "x":
            c.drawCentredString((cx - offset) * mm, (cy - 28) * mm, label)
        else:
            c.drawString((cx + 24) * mm, (cy - offset - 1) * mm, label)
    c.restoreState()
    return doc.finish()


CALIBRATION_LABEL_PT = 6


def _number(value: float) -> str:
    text = f"{value:+.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("+0", "-0") else text
