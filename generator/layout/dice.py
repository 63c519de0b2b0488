"""Dice as cube nets: six faces in a cross, seven glue tabs, the edges cut and folded; nets
packed on the paper in rows, turned a quarter when that fits more. Drawing
(generator/render/dice.py) reads this geometry, and so do the booklet's page counts and the
tests.

The cross, with the order of `faces` in the data:

            [0 top]
    [1 left][2 front][3 right][4 back]
            [5 bottom]

Folded, 0 is opposite 5, 1 opposite 3, and 2 opposite 4.
"""
from __future__ import annotations

from dataclasses import dataclass

from .placed import PlacedFace

# (column, row) of each face in the cross, row 0 at the top.
CROSS = ((1, 0), (0, 1), (1, 1), (2, 1), (3, 1), (1, 2))
OPPOSITE = {0: 5, 5: 0, 1: 3, 3: 1, 2: 4, 4: 2}
# The seven seams of the folded cube, each glued by a tab on the first edge named: (face, side).
TABS = ((1, "top"), (3, "top"), (4, "top"), (1, "bottom"), (3, "bottom"), (4, "bottom"), (4, "right"))


@dataclass(frozen=True)
class CubeNet:
    edge_mm: float
    tab_mm: float
    faces: tuple[tuple[float, float], ...]            # bottom-left of each face, net coordinates
    tabs: tuple[tuple[tuple[float, float], ...], ...]  # each tab's four corners
    folds: tuple[tuple[tuple[float, float], tuple[float, float]], ...]   # every edge folded
    size_mm: tuple[float, float]                      # bounding box of faces and tabs


def _edge(x: float, y: float, e: float, side: str):
    """The end points of one side of the square at (x, y), anticlockwise, and its outward normal."""
    return {"top": (((x + e, y + e), (x, y + e)), (0, 1)), "bottom": (((x, y), (x + e, y)), (0, -1)),
            "left": (((x, y + e), (x, y)), (-1, 0)), "right": (((x + e, y), (x + e, y + e)), (1, 0))}[side]


def cube_net(edge_mm: float, tab_mm: float) -> CubeNet:
    e, rows = edge_mm, 3
    faces = tuple((column * e, (rows - 1 - row) * e) for column, row in CROSS)
    tabs = []
    for face, side in TABS:
        (a, b), (nx, ny) = _edge(*faces[face], e, side)
        # A trapezoid: its long side on the edge, 45° ends, so neighbouring tabs never overlap.
        inset = (b[0] - a[0], b[1] - a[1])
        ux, uy = inset[0] / e, inset[1] / e
        tabs.append((a, b, (b[0] + nx * tab_mm - ux * tab_mm, b[1] + ny * tab_mm - uy * tab_mm),
                     (a[0] + nx * tab_mm + ux * tab_mm, a[1] + ny * tab_mm + uy * tab_mm)))
    folds = set()
    squares = set(faces)
    for x, y in faces:
        if (x + e, y) in squares:
            folds.add(((x + e, y), (x + e, y + e)))
        if (x, y + e) in squares:
            folds.add(((x, y + e), (x + e, y + e)))
    folds |= {(tab[0], tab[1]) for tab in tabs}
    return CubeNet(e, tab_mm, faces, tuple(tabs), tuple(sorted(folds)), (4 * e + tab_mm, 3 * e))


@dataclass(frozen=True)
class PlacedNet:
    die: DieNet
    x_mm: float             # where the net's bounding box goes, bottom-left
    y_mm: float
    turned: bool            # a quarter turn anticlockwise


@dataclass(frozen=True)
class DieNet:
    """One die to print: its key (a PDF form), its net and its six placed faces."""

    key: str
    name: str
    net: CubeNet
    faces: tuple[PlacedFace, ...]
    copies: int


def pack_nets(dice: list[DieNet], paper_mm, margin: float, gap: float) -> list[list[PlacedNet]]:
    """Rows of nets, in data order, upright or all turned a quarter (whichever fits more on a
    page); pages of placed nets."""
    pages: list[list[PlacedNet]] = []
    page: list[PlacedNet] = []
    width, height = paper_mm[0] - 2 * margin, paper_mm[1] - 2 * margin
    x = y_top = shelf = 0.0
    for die in dice:
        w, h = die.net.size_mm
        upright = int((width + gap) // (w + gap)) * int((height + gap) // (h + gap))
        turned = int((width + gap) // (h + gap)) * int((height + gap) // (w + gap))
        turn = turned > upright
        bw, bh = (h, w) if turn else (w, h)
        for _ in range(die.copies):
            if page and x + bw > width + 1e-6:
                x, y_top, shelf = 0.0, y_top + shelf + gap, 0.0
            if page and y_top + bh > height + 1e-6:
                pages.append(page)
                page, x, y_top, shelf = [], 0.0, 0.0, 0.0
            page.append(PlacedNet(die, margin + x, paper_mm[1] - margin - y_top - bh, turn))
            x += bw + gap
            shelf = max(shelf, bh)
    if page:
        pages.append(page)
    return pages


def net_cuts(net: CubeNet) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Every cut edge: square sides that are neither folds nor under a tab, and tab sides."""
    e = net.edge_mm
    folds = {tuple(sorted(fold)) for fold in net.folds}
    cuts = []
    for x, y in net.faces:
        for side in ("top", "bottom", "left", "right"):
            (a, b), _ = _edge(x, y, e, side)
            if tuple(sorted((a, b))) not in folds:
                cuts.append((a, b))
    for tab in net.tabs:
        cuts += [(tab[1], tab[2]), (tab[2], tab[3]), (tab[3], tab[0])]
    return cuts


