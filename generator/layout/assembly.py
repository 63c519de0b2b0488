"""A tiled board's assembly map, laid out: the page turned to take the map at the larger scale,
the board's name and the map's title, the note on gluing the tiles wrapped into the room kept
for it, each tile's cell on the small board and its label sized to the cell. Words that do not
fit their room are reasons in the plan, for the caller to report at the words' place.
"""
from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth

from ..core.fonts import MIN_PRINTED_PT, font_name
from .tiles import Tile, tile_cells

PT_MM = 0.3528          # a point in mm, as the map's settings count type sizes
TITLE_LEADING, NOTE_LEADING = 1.4, 1.3


@dataclass(frozen=True)
class MapLabel:
    """A tile's label centred in its cell (points), at `size`, `width_pt` wide."""

    text: str
    size: float
    width_pt: float
    centre_pt: tuple[float, float]


@dataclass(frozen=True)
class AssemblyMap:
    paper_mm: tuple[float, float]            # the page, turned when that makes the map larger
    margin_mm: float
    scale: float                             # the board drawn this small (0: no room for it)
    origin_mm: tuple[float, float]           # the small board's bottom-left corner
    title: str
    title_pt: float
    title_baseline_mm: float
    note_pt: float
    note_lines: tuple[str, ...]
    note_baselines_mm: tuple[float, ...]
    cells: dict                              # tile's name -> (x, y, w, h) on the page, mm
    labels: tuple[MapLabel, ...]
    grid_pt: float                           # the lines between the tiles
    problems: tuple[tuple[str, str], ...]    # (the words' key in the map's text, why they do not fit)


def lay_out_assembly_map(item, tiles: list[Tile], paper_mm, margin: float, settings: dict,
                         words: dict) -> AssemblyMap:
    """The map of `item` (with `name` and `size_mm`) cut into `tiles`, on `paper_mm` or the
    same paper turned, whichever takes the map at the larger scale, inside `margin`; `settings`
    are tiles.yaml's `assembly_map`, `words` its text in the kit's locale."""
    title_pt, note_pt = settings["title_pt"], settings["note_pt"]
    title_mm = title_pt * PT_MM * TITLE_LEADING
    top_room = title_mm + settings["note_height_mm"] + settings["gap_mm"]
    board_w, board_h = item.size_mm
    best = None
    for paper in (paper_mm, (paper_mm[1], paper_mm[0])):
        room_w, room_h = paper[0] - 2 * margin, paper[1] - 2 * margin - top_room
        if room_w > 0 and room_h > 0:
            scale = min(room_w / board_w, room_h / board_h)
            if best is None or scale > best[1] + 1e-9:
                best = (paper, scale)
    paper, scale = best if best else (paper_mm, 0.0)
    w, h = board_w * scale, board_h * scale
    x0 = (paper[0] - w) / 2
    y0 = paper[1] - margin - top_room - h
    top = paper[1] - margin
    title = f"{item.name} · {words.get('assembly_title', 'Assembly map')}"
    width, bold, regular = paper[0] - 2 * margin, font_name("bold"), font_name("regular")
    problems = []
    if stringWidth(title, bold, title_pt) / mm > width + 1e-6:
        problems.append(("assembly_title", f"the map's title '{title}' is {stringWidth(title, bold, title_pt) / mm:.1f} "
                                           f"mm long at {title_pt:g} pt, wider than the {width:g} mm it has"))
    line_mm = note_pt * PT_MM * NOTE_LEADING
    note = simpleSplit(words.get("assembly_note", ""), regular, note_pt, width * mm)
    baselines, y = [], top - title_mm - note_pt * PT_MM
    for _ in note:
        baselines.append(y)
        y -= line_mm
    if len(note) * line_mm > settings["note_height_mm"] + 1e-6:
        problems.append(("assembly_note", f"the note takes {len(note)} lines at {note_pt:g} pt on the "
                                          f"{paper[0]:g} mm wide map, {len(note) * line_mm:.1f} mm, more than "
                                          f"the {settings['note_height_mm']:g} mm kept for it"))
    cells, labels = {}, []
    if scale > 0:
        cells = {name: (x0 + x * scale, y0 + y * scale, cw * scale, ch * scale)
                 for name, (x, y, cw, ch) in tile_cells(tiles, item.size_mm).items()}
        for label, (x, y, cw, ch) in cells.items():
            # smaller where the cell is small, never under the least anything printed keeps
            size = max(MIN_PRINTED_PT, min(settings["label_pt"], ch * mm * 0.5, cw * mm / (0.75 * len(label) + 0.8)))
            labels.append(MapLabel(label, size, stringWidth(label, bold, size),
                                   ((x + cw / 2) * mm, (y + ch / 2) * mm)))
    return AssemblyMap(paper, margin, scale, (x0, y0), title, title_pt, top - title_pt * PT_MM, note_pt, tuple(note),
                       tuple(baselines), cells, tuple(labels), settings["grid_pt"], tuple(problems))
