"""Boards at real size: a track of fields from START to the finish with arrows, and a clock
track below it. A board larger than the paper is tiled across pages with glue strips,
alignment marks and tile labels; each board is drawn once (a form) and clipped per tile.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.lib.colors import HexColor, white
from reportlab.lib.units import mm

from ..errors import DataError, Problem
from ..yamlfile import locate
from . import fonts
from .faces import fit_text
from .pdf import Document, draft_mark, scale_bar


@dataclass(frozen=True)
class BoardFace:
    key: str
    name: str
    colour: str
    accent: str
    size_mm: tuple[float, float]
    start: str
    finish: str
    fields: int
    row_length: int
    clock_label: str
    clock_fields: int
    clock_red: int
    clock_middle: int
    middle_label: str
    red_label: str
    game_title: str


@dataclass(frozen=True)
class Tile:
    column: int
    row: int
    x_mm: float          # board window, bottom-left, in board coordinates
    y_mm: float
    w_mm: float
    h_mm: float


def track_cells(board: BoardFace) -> list[tuple[str, float, float, float, float]]:
    """(label, x, y, w, h) of START, the numbered fields and the finish, snaking upwards."""
    width, height = board.size_mm
    labels = [board.start] + [str(n) for n in range(1, board.fields + 1)] + [board.finish]
    per_row = board.row_length
    rows = math.ceil(len(labels) / per_row)
    margin, clock_zone, title_zone = 18.0, 58.0, 34.0
    area_w, area_h = width - 2 * margin, height - clock_zone - title_zone - 8
    cell_w = min(area_w / per_row * 0.82, 52.0)
    gap_x = (area_w - per_row * cell_w) / max(per_row - 1, 1)
    cell_h = min(area_h / rows * 0.74, 46.0)
    gap_y = (area_h - rows * cell_h) / max(rows - 1, 1)
    cells = []
    for index, label in enumerate(labels):
        row, col = divmod(index, per_row)
        if row % 2:
            col = per_row - 1 - col           # boustrophedon: every other row runs back
        x = margin + col * (cell_w + gap_x)
        y = clock_zone + 8 + row * (cell_h + gap_y)
        cells.append((label, x, y, cell_w, cell_h))
    return cells


def draw_board(canvas, board: BoardFace) -> None:
    width, height = board.size_mm
    accent, paper = HexColor(board.accent), HexColor(board.colour)
    canvas.setFillColor(paper)
    canvas.rect(0, 0, width * mm, height * mm, stroke=0, fill=1)
    canvas.setStrokeColor(accent)
    canvas.setLineWidth(2.5 * mm)
    canvas.rect(4 * mm, 4 * mm, (width - 8) * mm, (height - 8) * mm, stroke=1, fill=0)
    # Title
    fitted = fit_text(board.name, "bold", 40, 16, width - 60, 22, field=f"boards.{board.key.removeprefix('board-')}.name")
    canvas.setFillColor(accent)
    canvas.setFont(fitted.font, fitted.size)
    _centred_lines(canvas, fitted, width / 2, height - 20)
    canvas.setFont("Sans", 11)
    canvas.drawCentredString(width / 2 * mm, (height - 33) * mm, board.game_title)
    # Track with arrows between consecutive fields
    cells = track_cells(board)
    canvas.setLineWidth(1.6 * mm)
    canvas.setStrokeColor(accent)
    for (_, x1, y1, w1, h1), (_, x2, y2, w2, h2) in zip(cells, cells[1:]):
        _arrow(canvas, (x1 + w1 / 2, y1 + h1 / 2), (x2 + w2 / 2, y2 + h2 / 2), w1, h1, accent)
    last = len(cells) - 1
    for index, (label, x, y, w, h) in enumerate(cells):
        special = index in (0, last)
        canvas.setFillColor(accent if special else white)
        canvas.setStrokeColor(accent)
        canvas.setLineWidth(0.8 * mm)
        canvas.roundRect(x * mm, y * mm, w * mm, h * mm, 4 * mm, stroke=1, fill=1)
        canvas.setFillColor(white if special else accent)
        field = "design.track.start" if index == 0 else "design.track.finish" if index == last else "design.track.fields"
        fitted = fit_text(label, "bold", 30 if not special else 18, 8, w - 4, h - 4, field=field)
        canvas.setFont(fitted.font, fitted.size)
        _centred_lines(canvas, fitted, x + w / 2, y + h / 2)
    # Clock track
    _draw_clock(canvas, board)


def _centred_lines(canvas, fitted, cx, cy):
    leading = fitted.size * fonts.LEADING
    top = cy * mm + (len(fitted.lines) - 1) * leading / 2 - fitted.size * 0.35
    for line in fitted.lines:
        canvas.drawCentredString(cx * mm, top, line)
        top -= leading


def _arrow(canvas, a, b, w, h, colour):
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    # start and end just outside the cells
    pad = (w / 2 + 2) if abs(ux) > abs(uy) else (h / 2 + 2)
    sx, sy = ax + ux * pad, ay + uy * pad
    ex, ey = bx - ux * pad, by - uy * pad
    canvas.setStrokeColor(colour)
    canvas.setLineWidth(1.4 * mm)
    canvas.line(sx * mm, sy * mm, (ex - ux * 3) * mm, (ey - uy * 3) * mm)
    head = canvas.beginPath()
    px, py = -uy, ux
    head.moveTo(ex * mm, ey * mm)
    head.lineTo((ex - ux * 6 + px * 3.5) * mm, (ey - uy * 6 + py * 3.5) * mm)
    head.lineTo((ex - ux * 6 - px * 3.5) * mm, (ey - uy * 6 - py * 3.5) * mm)
    head.close()
    canvas.setFillColor(colour)
    canvas.drawPath(head, stroke=0, fill=1)


def _draw_clock(canvas, board: BoardFace):
    width = board.size_mm[0]
    accent = HexColor(board.accent)
    left, bottom, size = 30.0, 16.0, min(18.0, (width - 60) / board.clock_fields - 2)
    gap = (width - 2 * left - board.clock_fields * size) / max(board.clock_fields - 1, 1)
    canvas.setFillColor(accent)
    canvas.setFont("Sans-Bold", 13)
    canvas.drawString(left * mm, (bottom + size + 12) * mm, board.clock_label)
    for n in range(1, board.clock_fields + 1):
        x = left + (n - 1) * (size + gap)
        red = n == board.clock_red
        canvas.setFillColor(HexColor("#D62828") if red else white)
        canvas.setStrokeColor(accent)
        canvas.setLineWidth(0.6 * mm)
        canvas.circle((x + size / 2) * mm, (bottom + size / 2) * mm, size / 2 * mm, stroke=1, fill=1)
        canvas.setFillColor(white if red else accent)
        canvas.setFont("Sans-Bold", 12)
        canvas.drawCentredString((x + size / 2) * mm, (bottom + size / 2 - 1.5) * mm, str(n))
        note = board.red_label if red else board.middle_label if n == board.clock_middle else ""
        if n == board.clock_middle and not red:
            canvas.setStrokeColor(accent)
            canvas.setLineWidth(0.5 * mm)
            canvas.circle((x + size / 2) * mm, (bottom + size / 2) * mm, (size / 2 + 1.6) * mm, stroke=1, fill=0)
        if note:
            canvas.setFillColor(HexColor("#D62828") if red else accent)
            fitted = fit_text(note, "bold", 9, 6, size + gap * 2 - 1, 8,
                              field="design.clock.red_label" if red else "design.clock.middle_label")
            canvas.setFont(fitted.font, fitted.size)
            _centred_lines(canvas, fitted, x + size / 2, bottom + size + 5)


# ---- tiling --------------------------------------------------------------------------------

def plan_tiles(board_mm: tuple[float, float], paper_mm: tuple[float, float], margin: float,
               overlap: float, *, source: tuple[str, int] = ("", 0)) -> tuple[tuple[float, float], list[Tile]]:
    """Choose the paper orientation with fewer tiles and cover the board with windows of the
    printable area. Each window overlaps its right and lower neighbours by exactly `overlap`
    mm (the glue strip); the last column and row take what is left of the board.
    `source` (file, line) locates the tiling settings in an error."""
    best = None
    for paper in (paper_mm, (paper_mm[1], paper_mm[0])):
        inner_w, inner_h = paper[0] - 2 * margin, paper[1] - 2 * margin
        if inner_w <= overlap or inner_h <= overlap:
            continue
        columns, rows = _spans(board_mm[0], inner_w, overlap), _spans(board_mm[1], inner_h, overlap)
        if best is None or len(columns) * len(rows) < len(best[1]) * len(best[2]):
            best = (paper, columns, rows)
    if best is None:
        raise DataError([Problem(source[0], source[1], "overlap_mm",
                                 f"a {margin:g} mm margin on each side and a {overlap:g} mm glue strip leave no room "
                                 f"for a tile on {paper_mm[0]:g} x {paper_mm[1]:g} mm paper")])
    paper, columns, rows = best
    tiles = []
    for row, (down, h) in enumerate(rows):         # row 0 is the top of the board
        for column, (x, w) in enumerate(columns):
            tiles.append(Tile(column, row, x, board_mm[1] - down - h, w, h))
    return paper, tiles


def _spans(length: float, window: float, overlap: float) -> list[tuple[float, float]]:
    """(start, size) of windows along one side: one step is a window less the overlap."""
    step = window - overlap
    count = max(1, math.ceil((length - overlap) / step - 1e-9))
    return [(i * step, min(window, length - i * step)) for i in range(count)]


def tile_name(tile: Tile) -> str:
    return f"{chr(ord('A') + tile.row)}{tile.column + 1}"


def render_boards(boards: list[BoardFace], paper_mm, settings: dict, labels: dict, *,
                  draft: str = "", scale_label: str = "") -> tuple[bytes, int, list[dict]]:
    return render_tiled(boards, paper_mm, settings, labels, draw_board, boards[0].game_title, "boards",
                        draft=draft, scale_label=scale_label)


def render_tiled(items, paper_mm, settings: dict, labels: dict, draw, title: str, subject: str, *,
                 draft: str = "", scale_label: str = "") -> tuple[bytes, int, list[dict]]:
    """Anything at real size (a board, a cut-out piece: each with `key`, `name` and `size_mm`,
    drawn by `draw(canvas, item)`) tiled across pages with glue strips, crosses and labels."""
    doc = Document(paper_mm, title, subject)
    tiles_out = []
    for item in items:
        tiles_out += tile_pages(doc, item, paper_mm, settings, labels, draw, draft=draft, scale_label=scale_label)
    data, pages = doc.finish()
    return data, pages, tiles_out


def tile_pages(doc: Document, item, paper_mm, settings: dict, labels: dict, draw, *, draft: str = "",
               scale_label: str = "") -> list[dict]:
    """Pages that tile `item` onto `doc`, each turned as the tiling chose; returns each tile's place."""
    margin, overlap, mark = settings["margin_mm"], settings["overlap_mm"], settings["mark_length_mm"]
    paper, tiles = plan_tiles(item.size_mm, paper_mm, margin, overlap, source=locate(settings, ("overlap_mm",)))
    name = doc.form(item.key, lambda c, b=item: draw(c, b), (0, 0, *item.size_mm))
    placed = []
    for tile in tiles:
        doc.new_page()
        c = doc.canvas
        c.setPageSize((paper[0] * mm, paper[1] * mm))
        c.saveState()
        clip = c.beginPath()
        clip.rect(margin * mm, margin * mm, tile.w_mm * mm, tile.h_mm * mm)
        c.clipPath(clip, stroke=0, fill=0)
        c.translate((margin - tile.x_mm) * mm, (margin - tile.y_mm) * mm)
        c.doForm(name)
        c.restoreState()
        _tile_furniture(c, tile, tiles, item, paper, margin, overlap, mark, labels)
        if doc.pages == 1 and scale_label:
            scale_bar(c, margin, margin / 2, scale_label)
        if draft:
            draft_mark(c, paper, draft)
        placed.append({"page": doc.pages, "board": item.key, "tile": tile_name(tile),
                       "x_mm": round(tile.x_mm, 3), "y_mm": round(tile.y_mm, 3),
                       "w_mm": round(tile.w_mm, 3), "h_mm": round(tile.h_mm, 3)})
    return placed


def _tile_furniture(c, tile, tiles, board, paper, margin, overlap, mark, labels):
    """Glue strips on the overlaps this tile covers, alignment crosses, the tile's label."""
    columns = max(t.column for t in tiles) + 1
    rows = max(t.row for t in tiles) + 1
    x0, y0, w, h = margin, margin, tile.w_mm, tile.h_mm
    c.saveState()
    # This tile is glued under its right and lower neighbours: hatch where they overlap.
    c.setFillColor(HexColor("#000000"), alpha=0.08)
    c.setStrokeColor(HexColor("#555555"))
    c.setLineWidth(0.4)
    c.setDash(2, 2)
    if tile.column < columns - 1:
        c.rect((x0 + w - overlap) * mm, y0 * mm, overlap * mm, h * mm, stroke=1, fill=1)
        _vertical_label(c, x0 + w - overlap / 2, y0 + h / 2, labels.get("glue", "glue"))
    if tile.row < rows - 1:
        c.rect(x0 * mm, y0 * mm, w * mm, overlap * mm, stroke=1, fill=1)
        c.setFillColor(HexColor("#333333"))
        c.setFont("Sans", 7)
        c.drawCentredString((x0 + w / 2) * mm, (y0 + overlap / 2 - 1) * mm, labels.get("glue", "glue"))
    c.setDash()
    # Alignment crosses at the window's corners, and where a neighbour laid over a glue strip
    # puts its cut edge (the strip's inner edge): its corner crosses land on these.
    c.setStrokeColor(HexColor("#000000"))
    c.setLineWidth(0.5)
    crosses = {(x0, y0), (x0 + w, y0), (x0, y0 + h), (x0 + w, y0 + h)}
    if tile.column < columns - 1:
        crosses |= {(x0 + w - overlap, y0), (x0 + w - overlap, y0 + h)}
    if tile.row < rows - 1:
        crosses |= {(x0, y0 + overlap), (x0 + w, y0 + overlap)}
    for cx, cy in sorted(crosses):
        c.line((cx - mark) * mm, cy * mm, (cx + mark) * mm, cy * mm)
        c.line(cx * mm, (cy - mark) * mm, cx * mm, (cy + mark) * mm)
    # Tile label and position in the top margin.
    c.setFillColor(HexColor("#000000"))
    c.setFont("Sans-Bold", 9)
    text = f"{board.name} · {labels.get('tile', 'Tile')} {tile_name(tile)} ({tile.row + 1}/{rows}, {tile.column + 1}/{columns})"
    c.drawString((x0 + mark + 1) * mm, (paper[1] - margin + 3) * mm, text)
    c.restoreState()


def _vertical_label(c, cx, cy, text):
    c.saveState()
    c.translate(cx * mm, cy * mm)
    c.rotate(90)
    c.setFillColor(HexColor("#333333"))
    c.setFont("Sans", 7)
    c.drawCentredString(0, -1, text)
    c.restoreState()
