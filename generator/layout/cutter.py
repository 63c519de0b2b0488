"""Sheets laid out for a print-then-cut machine (pnp build --cutter): the area its pieces may take
on the paper, the registration marks it reads with the white each needs, card grids and packed
pages inside that area, and every piece's cut outline in the sheet's coordinates (mm from the
paper's bottom-left corner). The machines' figures are data: templates/sheets/cutters.yaml.
generator/render/cutter.py draws the marks and writes the cut files."""
from __future__ import annotations

from dataclasses import dataclass

from reportlab.pdfbase.pdfmetrics import stringWidth

from ..core import fonts
from ..core.errors import DataError, Problem, UsageError
from ..core.fonts import MIN_PRINTED_PT
from ..core.yamlfile import locate
from .faces import SheetGrid
from .packing import Packed, pack
from .pieces import PieceFace, PiecePages
from .tiles import cut_into_tiles
from .tokens import FLAT_SHAPES, TokenFace, flat_outline

Rect = tuple[float, float, float, float]          # x0, y0, x1, y1 (mm)


@dataclass(frozen=True)
class Machine:
    """One machine of cutters.yaml: Silhouette's marks, or Cricut's image area."""

    key: str
    name: str
    gap_mm: float
    card_corner_mm: float
    registration: dict | None = None
    image_area_mm: tuple[float, float] | None = None


def machine(sheet: dict, key: str) -> Machine:
    """Machine `key` of the cutters sheet; one it does not list is a usage error naming those it does."""
    machines = sheet["machines"]
    if key not in machines:
        raise UsageError(f"no cutter '{key}' (templates/sheets/cutters.yaml: {', '.join(machines)})")
    data = machines[key]
    area = data.get("image_area_mm")
    return Machine(key, data["name"], float(sheet["gap_mm"]), float(sheet["card_corner_mm"]),
                   dict(data["registration"]) if "registration" in data else None,
                   tuple(map(float, area)) if area else None)


def cut_area(cutter: Machine, paper_mm) -> Rect:
    """Where pieces (with their bleed) may go: inside the Silhouette marks' lines, or Cricut's
    image area centred on the paper."""
    w, h = paper_mm
    if cutter.registration:
        inset = cutter.registration["inset_mm"]
        return (inset, inset, w - inset, h - inset)
    aw, ah = min(cutter.image_area_mm[0], w), min(cutter.image_area_mm[1], h)
    return ((w - aw) / 2, (h - ah) / 2, (w + aw) / 2, (h + ah) / 2)


def frame(cutter: Machine, paper_mm) -> Rect | None:
    """Cricut's image area on the paper: what its files show (Design Space takes no larger
    image); None for a machine that reads marks on the whole sheet."""
    return cut_area(cutter, paper_mm) if cutter.image_area_mm else None


# ---- registration marks ---------------------------------------------------------------------

@dataclass(frozen=True)
class Marks:
    """Silhouette's marks on one sheet: the filled square and the L's arms, each a filled
    rectangle (x, y, w, h in mm), with the length of the L's arms."""

    length_mm: float
    square: tuple[float, float, float, float]
    arms: tuple[tuple[float, float, float, float], ...]


def marks(cutter: Machine, paper_mm, length: float) -> Marks:
    """The square at the top-left, L's at the top-right and bottom-left, their outer edges the
    inset from both paper edges, arms `length` long running inwards."""
    reg = cutter.registration
    w, h = paper_mm
    inset, thick, size = reg["inset_mm"], reg["thickness_mm"], reg["square_mm"]
    square = (inset, h - inset - size, size, size)
    arms = ((w - inset - length, h - inset - thick, length, thick),      # top-right, across
            (w - inset - thick, h - inset - length, thick, length),      # top-right, down
            (inset, inset, length, thick),                               # bottom-left, across
            (inset, inset, thick, length))                               # bottom-left, up
    return Marks(length, square, arms)


def clear_zones(cutter: Machine, paper_mm, length: float) -> list[Rect]:
    """The corners of the cut area that the marks and the white round them take."""
    reg = cutter.registration
    w, h = paper_mm
    inset, clear = reg["inset_mm"], reg["clear_mm"]
    square = reg["square_mm"] + clear
    arm = length + clear
    return [(inset, h - inset - square, inset + square, h - inset),
            (w - inset - arm, h - inset - arm, w - inset, h - inset),
            (inset, inset, inset + arm, inset + arm)]


def _overlaps(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] - 1e-6 and b[0] < a[2] - 1e-6 and a[1] < b[3] - 1e-6 and b[1] < a[3] - 1e-6


def mark_length(cutter: Machine, paper_mm, boxes: list[Rect]) -> float:
    """The longest arms, from the machine's longest down in its steps, whose marks and white
    clear every box (a piece with its bleed); the shortest when none do more."""
    reg = cutter.registration
    length = reg["max_length_mm"]
    while length > reg["min_length_mm"] + 1e-9:
        if not any(_overlaps(zone, box) for zone in clear_zones(cutter, paper_mm, length) for box in boxes):
            return length
        length = max(reg["min_length_mm"], length - reg["length_step_mm"])
    return reg["min_length_mm"]


NOTE_CLEAR_MM = 0.2


@dataclass(frozen=True)
class SetupNote:
    """The words that tell the user the marks' settings, right-aligned at `right_mm`, baseline
    at `baseline_mm`, in Sans at MIN_PRINTED_PT."""

    text: str
    right_mm: float
    baseline_mm: float


def setup_note(cutter: Machine, paper_mm, length: float, words: str, unprintable_mm: float,
               where: tuple[str, int, str]) -> SetupNote:
    """Silhouette Studio's settings for the marks, in the bottom border between the bottom-left
    L's white and the right mark line, above the paper's unprintable band; words too long for
    it are a located error at `where`."""
    reg = cutter.registration
    text = words.format(length=f"{length:g}", thickness=f"{reg['thickness_mm']:g}", inset=f"{reg['inset_mm']:g}")
    fonts.register()
    room = paper_mm[0] - 2 * reg["inset_mm"] - length - reg["clear_mm"]
    wide = stringWidth(text, "Sans", MIN_PRINTED_PT) * 25.4 / 72
    if wide > room:
        raise DataError([Problem(*where, f"the Silhouette settings line '{text}' is {wide:.1f} mm long at "
                                         f"{MIN_PRINTED_PT:g} pt, but the border under the sheet's pieces holds "
                                         f"{room:.1f} mm beside the bottom-left mark; shorten it")])
    points = MIN_PRINTED_PT * 25.4 / 72
    # the words' lowest ink a hair above the unprintable band, their highest under the marks' line
    baseline = unprintable_mm + NOTE_CLEAR_MM + fonts.DESCENT * points
    if baseline + fonts.ASCENT * points > reg["inset_mm"]:
        raise DataError([Problem(*where, f"the Silhouette settings line does not fit between the paper's "
                                         f"{unprintable_mm:g} mm unprintable band and the marks {reg['inset_mm']:g} mm "
                                         f"from its edge")])
    return SetupNote(text, paper_mm[0] - reg["inset_mm"], baseline)


# ---- cut outlines ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Outline:
    """One piece's cut path on the sheet, named: a polygon (its corners, closed), a rectangle
    with rounded corners (`box`, `radius`), or a circle (`centre`, `radius`)."""

    name: str
    points: tuple[tuple[float, float], ...] = ()
    box: Rect | None = None
    centre: tuple[float, float] | None = None
    radius: float = 0.0

    def bounds(self) -> Rect:
        if self.box is not None:
            return self.box
        if self.centre is not None:
            (x, y), r = self.centre, self.radius
            return (x - r, y - r, x + r, y + r)
        xs, ys = [p[0] for p in self.points], [p[1] for p in self.points]
        return (min(xs), min(ys), max(xs), max(ys))


@dataclass(frozen=True)
class CutSheet:
    """One sheet the machine cuts: its page in the file, the paper, the pieces' outlines,
    Silhouette's marks (None for Cricut, whose software prints its own) and Cricut's frame."""

    page: int
    paper_mm: tuple[float, float]
    outlines: tuple[Outline, ...]
    marks: Marks | None = None
    # the part of the sheet the machine's software takes (Cricut's image area), None: the paper
    frame: Rect | None = None


def card_outline(name: str, x: float, y: float, card_mm, corner_mm: float) -> Outline:
    w, h = card_mm
    return Outline(name, box=(x, y, x + w, y + h), radius=min(corner_mm, w / 2, h / 2))


def card_grid(cutter: Machine, card_mm, paper_mm) -> SheetGrid:
    """As many cards as the cut area holds, `gap_mm` apart, centred in it (centred on the paper:
    a back printed on the other side lands behind its front), each card's artwork running half
    the gap past its cut; rows or columns are left out while the grid would reach into a
    mark's white at its shortest. No crop marks: the machine cuts."""
    x0, y0, x1, y1 = cut_area(cutter, paper_mm)
    gap, (w, h) = cutter.gap_mm, card_mm
    bleed = gap / 2

    def fits(count: int, card: float, room: float) -> bool:
        return count * card + (count - 1) * gap + 2 * bleed <= room + 1e-6

    columns = max(n for n in range(0, 50) if n == 0 or fits(n, w, x1 - x0))
    rows = max(n for n in range(0, 50) if n == 0 or fits(n, h, y1 - y0))
    choices = sorted(((c, r) for c in range(1, columns + 1) for r in range(1, rows + 1)),
                     key=lambda cr: (-cr[0] * cr[1], -cr[1]))
    for c, r in choices:
        grid = _grid(cutter, card_mm, paper_mm, c, r)
        if cutter.registration is None or not any(
                _overlaps(zone, grid_box(grid))
                for zone in clear_zones(cutter, paper_mm, cutter.registration["min_length_mm"])):
            return grid
    raise UsageError(f"{w:g} x {h:g} mm cards do not fit the {cutter.name} cut area of "
                     f"{paper_mm[0]:g} x {paper_mm[1]:g} mm paper")


def _grid(cutter: Machine, card_mm, paper_mm, columns: int, rows: int) -> SheetGrid:
    (w, h), gap = card_mm, cutter.gap_mm
    gw, gh = columns * w + (columns - 1) * gap, rows * h + (rows - 1) * gap
    x0, y0, x1, y1 = cut_area(cutter, paper_mm)
    origin = ((x0 + x1 - gw) / 2, (y0 + y1 - gh) / 2)
    # no crop marks: nothing for the bleed to stay clear of, no margin it stops short of
    no_marks = {"length_mm": 0, "offset_mm": 0, "width_pt": 0, "min_edge_mm": 0, "clear_mm": 0}
    return SheetGrid(tuple(paper_mm), tuple(card_mm), columns, rows, gap, origin, no_marks, (0.0, 0.0),
                     bleed_mm=gap / 2)


def grid_box(grid: SheetGrid) -> Rect:
    """The grid with its cards' bleed."""
    (gx, gy), (gw, gh), b = grid.origin, grid.size_mm, grid.bleed_mm
    return (gx - b, gy - b, gx + gw + b, gy + gh + b)


def packing_area(cutter: Machine, paper_mm) -> Rect:
    """Where packed pieces go: the cut area less a band at the top and the bottom as deep as the
    marks' corners take at their shortest."""
    x0, y0, x1, y1 = cut_area(cutter, paper_mm)
    if cutter.registration is None:
        return (x0, y0, x1, y1)
    reg = cutter.registration
    top = max(reg["square_mm"], reg["min_length_mm"]) + reg["clear_mm"]
    bottom = reg["min_length_mm"] + reg["clear_mm"]
    return (x0, y0 + bottom, x1, y1 - top)


def pack_for(cutter: Machine, pieces: list, paper_mm, gap: float) -> list[list[Packed]]:
    """Pieces packed in data order inside the packing area, `gap` apart (at least the machine's)."""
    x0, y0, x1, y1 = packing_area(cutter, paper_mm)
    pages = pack(pieces, (x1 - x0, y1 - y0), 0.0, max(gap, cutter.gap_mm))
    return [[Packed(p.piece, p.x_mm + x0, p.y_mm + y0) for p in page] for page in pages]


def fits_packing(cutter: Machine, size_mm, paper_mm) -> bool:
    x0, y0, x1, y1 = packing_area(cutter, paper_mm)
    return size_mm[0] <= x1 - x0 + 1e-6 and size_mm[1] <= y1 - y0 + 1e-6


def sheet_marks(cutter: Machine, paper_mm, outlines, bleed_mm: float = 0.0) -> Marks | None:
    """Silhouette's marks for a sheet of these outlines (their arms as long as the outlines with
    their bleed leave room for); None for a machine that prints its own."""
    if cutter.registration is None:
        return None
    boxes = [(x0 - bleed_mm, y0 - bleed_mm, x1 + bleed_mm, y1 + bleed_mm)
             for x0, y0, x1, y1 in (outline.bounds() for outline in outlines)]
    return marks(cutter, paper_mm, mark_length(cutter, paper_mm, boxes))


def polygon_outline(name: str, points, x: float, y: float) -> Outline:
    return Outline(name, points=tuple((x + px, y + py) for px, py in points))


def circle_outline(name: str, x: float, y: float, diameter: float) -> Outline:
    return Outline(name, centre=(x + diameter / 2, y + diameter / 2), radius=diameter / 2)


def where_in_sheet(sheet: dict, key: str) -> tuple[str, int, str]:
    """Where a key path of the cutters sheet is written."""
    path = tuple(key.split("."))
    file, line = locate(sheet, path)
    return file, line, key


def card_cut_sheets(cutter: Machine, groups: list[tuple[list, SheetGrid]], duplex: str) -> list[CutSheet]:
    """The front pages of card sheets laid out as generator/render/cards.py prints them (each
    group's cards in runs of a page, a page of backs after each page of fronts when printed
    double-sided), each with its cards' rounded outlines and the marks that clear them."""
    sides = 2 if duplex in ("long", "short") else 1
    sheets, page = [], 0
    for faces, grid in groups:
        sequence = [face for face in faces for _ in range(face.copies)]
        for start in range(0, len(sequence), grid.per_page):
            chunk = sequence[start:start + grid.per_page]
            outlines = []
            for index, face in enumerate(chunk):
                slot = grid.slot(index)
                outlines.append(card_outline(f"{face.key}-{start + index + 1}", slot.x, slot.y, grid.card_mm,
                                             cutter.card_corner_mm))
            sheets.append(CutSheet(page + 1, grid.paper_mm, tuple(outlines),
                                   sheet_marks(cutter, grid.paper_mm, outlines, grid.bleed_mm),
                                   frame(cutter, grid.paper_mm)))
            page += sides
    return sheets


def packed_cut_sheets(cutter: Machine, pages: list[list[Packed]], paper_mm, outline_of) -> list[CutSheet]:
    """Each page of packed pieces with every copy's outline (`outline_of(piece, name, x, y)`,
    the copy's box at x, y) and the marks that clear them."""
    sheets = []
    for number, page in enumerate(pages, 1):
        counts: dict[str, int] = {}
        outlines = []
        for piece, x, y in page:
            counts[piece.key] = counts.get(piece.key, 0) + 1
            outlines.append(outline_of(piece, f"{piece.key}-{counts[piece.key]}", x, y))
        sheets.append(CutSheet(number, tuple(paper_mm), tuple(outlines), sheet_marks(cutter, paper_mm, outlines),
                               frame(cutter, paper_mm)))
    return sheets


def token_outline(token: TokenFace, name: str, x: float, y: float) -> Outline:
    """A token's cut as its sheet draws it: a disc's circle, a square's or a hex's sides, a
    standee's rectangle round both figures and their base tabs."""
    if token.shape == "disc":
        return circle_outline(name, x, y, token.size_mm[0])
    if token.shape in FLAT_SHAPES:
        return polygon_outline(name, flat_outline(token.shape, token.side_mm), x, y)
    w, h = token.size_mm
    return Outline(name, box=(x, y, x + w, y + h))


def piece_outline(piece: PieceFace, name: str, x: float, y: float) -> Outline:
    return polygon_outline(name, piece.outline, x, y)


def piece_pages(cutter: Machine, pieces: list[PieceFace], paper_mm, gap: float, tiles: dict,
                unprintable_mm: float) -> PiecePages:
    """The pieces that fit the machine's area packed in it; each larger one tiled as on a home
    sheet, to cut by hand."""
    small = [piece for piece in pieces if fits_packing(cutter, piece.size_mm, paper_mm)]
    large = [piece for piece in pieces if not fits_packing(cutter, piece.size_mm, paper_mm)]
    return PiecePages(pack_for(cutter, small, paper_mm, gap) if small else [],
                      [cut_into_tiles(piece, paper_mm, tiles, unprintable_mm) for piece in large])
