"""Boards drawn at real size, each from its laid-out plan (generator/layout/boards.py), on the
pages generator/layout/tiles.py planned: a board larger than the paper tiled across pages with
glue strips, alignment marks and tile labels, drawn once (a form) and clipped per tile; and a
board scaled onto a sheet of its own.
"""
from __future__ import annotations

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm

from ..core.colour import RGB, Palette
from ..layout.assembly import AssemblyMap
from ..layout.boards import BoardFace
from ..layout.tiles import (
    LABEL_INK_DOWN,
    LABEL_INK_UP,
    NAME_PT,
    OneSheetPage,
    Tiled,
    tile_name,
)
from .faces import draw_placed
from .pdf import SCALE_BAR_CLEAR_MM, Document, draft_mark, scale_bar


def draw_board(canvas, board: BoardFace, palette: Palette = RGB, *, text: bool = True) -> None:
    draw_placed(canvas, board.plan.face, palette=palette, text=text)


def render_boards(boards: list[Tiled], maps: dict[str, AssemblyMap], paper_mm, settings: dict, labels: dict,
                  title: str, *, draft: str = "", scale_label: str = "", palette: Palette = RGB,
                  unprintable_mm: float = 0.0) -> tuple[bytes, int, list[dict]]:
    """Every board as tiled, its tiles led by its assembly map when `maps` has one for it."""
    # the map draws each board small, without its words: they would print under 6 pt
    return render_tiled(boards, paper_mm, settings, labels, lambda c, b: draw_board(c, b, palette), title, "boards",
                        draft=draft, scale_label=scale_label, maps=maps,
                        draw_map=lambda c, b: draw_board(c, b, palette, text=False), unprintable_mm=unprintable_mm)


def render_tiled(items: list[Tiled], paper_mm, settings: dict, labels: dict, draw, title: str, subject: str, *,
                 draft: str = "", scale_label: str = "", maps: dict | None = None, draw_map=None,
                 unprintable_mm: float = 0.0) -> tuple[bytes, int, list[dict]]:
    """Anything at real size (a board, a cut-out piece: each with `key`, `name` and `size_mm`,
    drawn by `draw(canvas, item)`), as tiled, across pages with glue strips, crosses and labels;
    an item with a laid-out assembly map in `maps` (by its key) is led by it."""
    doc = Document(paper_mm, title, subject)
    tiles_out = []
    for tiled in items:
        tiles_out += tile_pages(doc, tiled, settings, labels, draw, draft=draft, scale_label=scale_label,
                                assembly=(maps or {}).get(tiled.item.key), draw_map=draw_map,
                                unprintable_mm=unprintable_mm)
    data, pages = doc.finish()
    return data, pages, tiles_out


def tile_pages(doc: Document, tiled: Tiled, settings: dict, labels: dict, draw, *, draft: str = "",
               scale_label: str = "", assembly: AssemblyMap | None = None, draw_map=None,
               unprintable_mm: float = 0.0) -> list[dict]:
    """Pages that print a tiled item onto `doc`, each turned as the tiling chose, after the
    item's laid-out `assembly` map when given; returns each page's place (a tile's window, or
    the map's tiles as drawn on it). The map draws the item with `draw_map` (`draw` when not
    given). No mark, label or bar is drawn in the paper's `unprintable_mm` band."""
    margin, overlap, mark = settings["margin_mm"], settings["overlap_mm"], settings["mark_length_mm"]
    item, paper, tiles = tiled.item, tiled.paper_mm, list(tiled.tiles)
    name = doc.form(item.key, lambda c, b=item: draw(c, b), (0, 0, *item.size_mm))
    bar_y = scale_bar_y(margin, unprintable_mm)
    placed = []
    if assembly is not None:
        doc.new_page()
        small = doc.form(f"{item.key}-map", lambda c, b=item: draw_map(c, b), (0, 0, *item.size_mm)) if draw_map else name
        cells = draw_assembly_map(doc, small, assembly)
        if doc.pages == 1 and scale_label:
            scale_bar(doc.canvas, margin + mark + 2, bar_y, scale_label)
        if draft:
            draft_mark(doc.canvas, assembly.paper_mm, draft)
        placed.append({"page": doc.pages, "board": item.key, "map": cells})
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
        _tile_furniture(c, tile, tiles, item, paper, margin, overlap, mark, labels, tiled.label_pt, unprintable_mm)
        if doc.pages == 1 and scale_label:
            # beyond the arm of the corner's alignment cross, so its label never runs through it
            scale_bar(c, margin + mark + 2, bar_y, scale_label)
        if draft:
            draft_mark(c, paper, draft)
        placed.append({"page": doc.pages, "board": item.key, "tile": tile_name(tile),
                       "x_mm": round(tile.x_mm, 3), "y_mm": round(tile.y_mm, 3),
                       "w_mm": round(tile.w_mm, 3), "h_mm": round(tile.h_mm, 3)})
    return placed


def scale_bar_y(margin: float, unprintable_mm: float) -> float:
    """Where the first page's 50 mm bar goes in a `margin` mm bottom margin: half way down it, or
    just above the paper's unprintable band where the band reaches that far."""
    return max(margin / 2, unprintable_mm + SCALE_BAR_CLEAR_MM)


def draw_assembly_map(doc: Document, form: str, plan: AssemblyMap) -> dict[str, list[float]]:
    """The laid-out map (generator/layout/assembly.py) on a page of its own: the item small under
    the grid of its tiles, each tile's label in the middle of its part, the item's name and how to
    glue the tiles above it. Returns each tile's cell on the page (mm)."""
    c = doc.canvas
    paper = plan.paper_mm
    c.setPageSize((paper[0] * mm, paper[1] * mm))
    c.saveState()
    c.setFillColor(HexColor("#000000"))
    c.setFont("Sans-Bold", plan.title_pt)
    c.drawString(plan.margin_mm * mm, plan.title_baseline_mm * mm, plan.title)
    c.setFont("Sans", plan.note_pt)
    for line, y in zip(plan.note_lines, plan.note_baselines_mm):
        c.drawString(plan.margin_mm * mm, y * mm, line)
    c.restoreState()
    if plan.scale <= 0:
        return {}
    doc.place(form, *plan.origin_mm, plan.scale)
    c.saveState()
    grid = plan.grid_pt
    for colour, width in (("#FFFFFF", 2.5 * grid), ("#000000", grid)):     # a white halo keeps it clear of the art
        c.setStrokeColor(HexColor(colour))
        c.setLineWidth(width)
        for x, y, cw, ch in plan.cells.values():
            c.rect(x * mm, y * mm, cw * mm, ch * mm, stroke=1, fill=0)
    for label in plan.labels:
        size, text_w, (cx, cy) = label.size, label.width_pt, label.centre_pt
        pad = size * 0.3
        c.setFillColor(HexColor("#FFFFFF"))
        c.setStrokeColor(HexColor("#000000"))
        c.setLineWidth(0.5)
        c.roundRect(cx - text_w / 2 - pad, cy - size * 0.5 - pad, text_w + 2 * pad, size + 2 * pad, pad, stroke=1, fill=1)
        c.setFillColor(HexColor("#000000"))
        c.setFont("Sans-Bold", size)
        c.drawCentredString(cx, cy - size * 0.35, label.text)
    c.restoreState()
    return {name: [round(v, 3) for v in cell] for name, cell in plan.cells.items()}


def _tile_furniture(c, tile, tiles, board, paper, margin, overlap, mark, labels, label_pt, band=0.0):
    """Glue strips on the overlaps this tile covers, alignment crosses, the tile's label; the
    crosses' outer arms end at the paper's unprintable `band`, the label sits between it and
    the tile."""
    columns = max(t.column for t in tiles) + 1
    rows = max(t.row for t in tiles) + 1
    x0, y0, w, h = margin, margin, tile.w_mm, tile.h_mm
    c.saveState()
    # This tile is glued under its right and lower neighbours: hatch where they overlap.
    if tile.column < columns - 1:
        glue_strip(c, x0 + w - overlap, y0, overlap, h)
        _vertical_label(c, x0 + w - overlap / 2, y0 + h / 2, labels.get("glue", "glue"))
    if tile.row < rows - 1:
        glue_strip(c, x0, y0, w, overlap)
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
        c.line(max(cx - mark, band) * mm, cy * mm, min(cx + mark, paper[0] - band) * mm, cy * mm)
        c.line(cx * mm, max(cy - mark, band) * mm, cx * mm, min(cy + mark, paper[1] - band) * mm)
    # Tile label and position in the top margin, centred between the band and the tile.
    room = margin - band
    size = label_pt
    baseline = paper[1] - margin + room / 2 - (LABEL_INK_UP - LABEL_INK_DOWN) / 2 * size * 0.3528
    c.setFillColor(HexColor("#000000"))
    c.setFont("Sans-Bold", size)
    text = f"{board.name} · {labels.get('tile', 'Tile')} {tile_name(tile)} ({tile.row + 1}/{rows}, {tile.column + 1}/{columns})"
    c.drawString((x0 + mark + 1) * mm, baseline * mm, text)
    c.restoreState()


# Diagonal hatching of a glue strip: lines this far apart (mm), this wide (pt).
HATCH_MM, HATCH_PT = 2.5, 0.35


def glue_strip(c, x, y, w, h):
    """A strip a neighbour is glued over: diagonal hatching inside a dashed outline."""
    c.saveState()
    clip = c.beginPath()
    clip.rect(x * mm, y * mm, w * mm, h * mm)
    c.clipPath(clip, stroke=0, fill=0)
    c.setStrokeColor(HexColor("#8C8C8C"))
    c.setLineWidth(HATCH_PT)
    steps = int((w + h) / HATCH_MM) + 1
    for i in range(steps + 1):
        start = x - h + i * HATCH_MM          # lines at 45 degrees, from the bottom edge up
        c.line(start * mm, y * mm, (start + h) * mm, (y + h) * mm)
    c.restoreState()
    c.saveState()
    c.setStrokeColor(HexColor("#555555"))
    c.setLineWidth(0.4)
    c.setDash(2, 2)
    c.rect(x * mm, y * mm, w * mm, h * mm, stroke=1, fill=0)
    c.restoreState()


def _vertical_label(c, cx, cy, text):
    c.saveState()
    c.translate(cx * mm, cy * mm)
    c.rotate(90)
    c.setFillColor(HexColor("#333333"))
    c.setFont("Sans", 7)
    c.drawCentredString(0, -1, text)
    c.restoreState()


# ---- one sheet -----------------------------------------------------------------------------

def render_one_sheet(pages: list[OneSheetPage], paper_mm, settings: dict, labels: dict, title: str,
                     percent, *, draft: str = "", scale_label: str = "", palette: Palette = RGB,
                     unprintable_mm: float = 0.0) -> tuple[bytes, int, list[dict]]:
    """Each board on a page of its own, scaled to the printable area as `pages` planned, its
    name and scale printed above it; `percent(scale)` writes the scale in the locale. The first
    page's 50 mm bar stays clear of the paper's `unprintable_mm` band, as on tiled pages."""
    margin = settings["margin_mm"]
    doc = Document(paper_mm, title, "boards")
    placed = []
    for page in pages:
        board, sheet = page.board, page.sheet
        name = doc.form(board.key, lambda c, b=board: draw_board(c, b, palette), (0, 0, *board.size_mm))
        doc.new_page()
        c = doc.canvas
        c.setPageSize((sheet.paper_mm[0] * mm, sheet.paper_mm[1] * mm))
        doc.place(name, sheet.x_mm, sheet.y_mm, sheet.scale)
        w, h = page.printed_mm
        c.saveState()
        c.setStrokeColor(HexColor("#000000"))
        c.setLineWidth(0.3)
        c.rect(sheet.x_mm * mm, sheet.y_mm * mm, w * mm, h * mm, stroke=1, fill=0)     # where to cut
        c.setFillColor(HexColor("#000000"))
        c.setFont("Sans-Bold", NAME_PT)
        text = f"{board.name} · {labels.get('scale', '')} {percent(sheet.scale)}".replace("  ", " ")
        c.drawString(sheet.x_mm * mm, page.name_baseline_mm * mm, text)
        c.restoreState()
        if doc.pages == 1 and scale_label:
            scale_bar(c, margin, scale_bar_y(margin, unprintable_mm), scale_label)
        if draft:
            draft_mark(c, sheet.paper_mm, draft)
        placed.append({"page": doc.pages, "board": board.key, "scale": sheet.scale,
                       "x_mm": round(sheet.x_mm, 3), "y_mm": round(sheet.y_mm, 3),
                       "w_mm": round(w, 3), "h_mm": round(h, 3)})
    data, pages = doc.finish()
    return data, pages, placed
