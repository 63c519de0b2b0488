"""Anything larger than the paper (a board, a large cut-out piece) cut into tiles: windows of the
printable area that overlap by a glue strip, on the paper turned the way that takes fewer; what
each tile shows once glued; the tile label's size beside the paper's unprintable band; and a
board scaled onto one sheet. generator/render/boards.py draws the pages planned here."""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..core.errors import DataError, Problem
from ..core.fonts import MIN_PRINTED_PT
from ..core.yamlfile import locate


@dataclass(frozen=True)
class Tile:
    column: int
    row: int
    x_mm: float          # board window, bottom-left, in board coordinates
    y_mm: float
    w_mm: float
    h_mm: float


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


def tiles_for(size_mm, paper_mm, settings: dict) -> tuple[tuple[float, float], list[Tile]]:
    """plan_tiles with the tiling settings of templates/sheets/tiles.yaml, located in errors."""
    return plan_tiles(size_mm, paper_mm, settings["margin_mm"], settings["overlap_mm"],
                      source=locate(settings, ("overlap_mm",)))


def _spans(length: float, window: float, overlap: float) -> list[tuple[float, float]]:
    """(start, size) of windows along one side: one step is a window less the overlap."""
    step = window - overlap
    count = max(1, math.ceil((length - overlap) / step - 1e-9))
    return [(i * step, min(window, length - i * step)) for i in range(count)]


def tile_name(tile: Tile) -> str:
    return f"{chr(ord('A') + tile.row)}{tile.column + 1}"


@dataclass(frozen=True)
class Tiled:
    """An item (with `key`, `name`, `size_mm`) cut into tiles on the paper as turned for them,
    with the size of the label printed above each tile."""

    item: object
    paper_mm: tuple[float, float]
    tiles: tuple[Tile, ...]
    label_pt: float


def cut_into_tiles(item, paper_mm, settings: dict, unprintable_mm: float) -> Tiled:
    """The item's tiles (tiles_for), and the size of their label in the margin beside the
    paper's `unprintable_mm` band: a located error when that leaves too little room for it."""
    paper, tiles = tiles_for(item.size_mm, paper_mm, settings)
    margin = settings["margin_mm"]
    label_pt = tile_label_pt(margin, unprintable_mm)
    if label_pt < MIN_PRINTED_PT:
        file, line = locate(settings, ("margin_mm",))
        raise DataError([Problem(file, line, "margin_mm",
                                 f"a {margin:g} mm tile margin leaves {margin - unprintable_mm:g} mm beside the paper's "
                                 f"{unprintable_mm:g} mm unprintable band: too little for the tile's label")])
    return Tiled(item, paper, tuple(tiles), label_pt)


def tile_cells(tiles: list[Tile], board_mm: tuple[float, float]) -> dict[str, tuple[float, float, float, float]]:
    """What of the board each tile shows once the tiles are glued (x, y, w, h in board mm): its
    window less the strips its right and lower neighbours are laid over."""
    lefts = sorted({t.column: t.x_mm for t in tiles}.items())
    tops = sorted({t.row: t.y_mm + t.h_mm for t in tiles}.items())
    rights = {column: (lefts[i + 1][1] if i + 1 < len(lefts) else board_mm[0]) for i, (column, _) in enumerate(lefts)}
    bottoms = {row: (tops[i + 1][1] if i + 1 < len(tops) else 0.0) for i, (row, _) in enumerate(tops)}
    cells = {}
    for tile in tiles:
        x, top = tile.x_mm, tile.y_mm + tile.h_mm
        cells[tile_name(tile)] = (x, bottoms[tile.row], rights[tile.column] - x, top - bottoms[tile.row])
    return cells


# The tile label's size, and its ink above and below its baseline (em: the parentheses reach
# furthest both ways), by which it is centred between the band and the tile.
TILE_LABEL_PT, LABEL_INK_UP, LABEL_INK_DOWN = 9, 0.76, 0.24


def tile_label_pt(margin: float, band: float) -> float:
    """The tile label's size: 9 pt, less where the margin beside the band is too narrow for it
    (its ink filling at most 90 % of that room)."""
    return min(TILE_LABEL_PT, (margin - band) / (LABEL_INK_UP + LABEL_INK_DOWN) / 0.3528 * 0.9)


# ---- one sheet -----------------------------------------------------------------------------

@dataclass(frozen=True)
class OneSheet:
    """A board scaled to fit the printable area of one sheet: the sheet as turned, the scale
    (a whole percent, rounded down, so the stated scale is exact) and the board's place."""

    paper_mm: tuple[float, float]
    scale: float
    x_mm: float          # the scaled board's bottom-left corner on the sheet
    y_mm: float


def plan_one_sheet(board_mm: tuple[float, float], paper_mm: tuple[float, float], margin: float) -> OneSheet:
    """The orientation of the paper that takes the board at the larger scale (never above
    100 %), with the board centred in the printable area."""
    best = None
    for paper in (paper_mm, (paper_mm[1], paper_mm[0])):
        inner_w, inner_h = paper[0] - 2 * margin, paper[1] - 2 * margin
        if inner_w <= 0 or inner_h <= 0:
            continue
        fit = min(inner_w / board_mm[0], inner_h / board_mm[1], 1.0)
        if best is None or fit > best[1] + 1e-9:
            best = (paper, fit)
    if best is None or best[1] < 0.01:
        return OneSheet(paper_mm, 0.0, margin, margin)
    paper, fit = best
    scale = math.floor(fit * 100 + 1e-9) / 100
    w, h = board_mm[0] * scale, board_mm[1] * scale
    return OneSheet(paper, scale, (paper[0] - w) / 2, (paper[1] - h) / 2)


# The board's name and scale above it: its size, and how far above the board's cut line its
# baseline is when the paper's unprintable band leaves room for that.
NAME_PT, NAME_GAP_MM = 9, 3


def name_baseline(sheet: OneSheet, board_h: float, settings: dict, band: float) -> float:
    """The y of the name's baseline: NAME_GAP_MM above the board, or lower where its ink would
    reach the paper's unprintable band; a located error when it would then run into the board."""
    em = NAME_PT * 0.3528
    baseline = min(sheet.y_mm + board_h + NAME_GAP_MM, sheet.paper_mm[1] - band - LABEL_INK_UP * em)
    if baseline - LABEL_INK_DOWN * em < sheet.y_mm + board_h:
        margin = settings["margin_mm"]
        file, line = locate(settings, ("margin_mm",))
        raise DataError([Problem(file, line, "margin_mm",
                                 f"a {margin:g} mm margin leaves {margin - band:g} mm beside the paper's {band:g} mm "
                                 f"unprintable band: too little for the name above a board printed on one sheet")])
    return baseline


@dataclass(frozen=True)
class OneSheetPage:
    """A board on a sheet of its own: how it is scaled and placed, and the baseline of its name
    above it."""

    board: object
    sheet: OneSheet
    name_baseline_mm: float

    @property
    def printed_mm(self) -> tuple[float, float]:
        """The board's size as printed, scaled."""
        return self.board.size_mm[0] * self.sheet.scale, self.board.size_mm[1] * self.sheet.scale


def one_sheet_pages(boards: list, paper_mm, settings: dict, unprintable_mm: float) -> list[OneSheetPage]:
    """Each board scaled to the printable area (the tiling's margin) of a sheet of its own; a
    board too large to print at 1 % or more gets no page."""
    pages = []
    for board in boards:
        sheet = plan_one_sheet(board.size_mm, paper_mm, settings["margin_mm"])
        if sheet.scale:
            h = board.size_mm[1] * sheet.scale
            pages.append(OneSheetPage(board, sheet, name_baseline(sheet, h, settings, unprintable_mm)))
    return pages
