"""Dice drawn as cube nets: six faces in a cross, seven glue tabs, cut and fold lines, on the
pages generator/layout/dice.py packed (that module holds the nets' geometry)."""
from __future__ import annotations

from reportlab.lib.units import mm

from ..core.canvas import polygon_path
from ..core.colour import RGB, Palette
from ..layout.dice import DieNet, PlacedNet, net_cuts
from .faces import draw_placed
from .pdf import SCALE_BAR_CLEAR_MM, DieLines, Document, draft_mark, scale_bar


def net_die_lines(die: DieNet) -> DieLines:
    """The net's cut edges and its folds (between faces, and at each tab's base)."""
    return DieLines(cuts=tuple((a, b) for a, b in net_cuts(die.net)), folds=tuple(die.net.folds))


def draw_net(canvas, die: DieNet, style: dict, palette: Palette = RGB, bleed_mm: float = 0.0,
             cut_lines: bool = True) -> None:
    """A die's net; for a print shop (`bleed_mm`) every face is drawn first with its backgrounds
    run on that far, under the faces drawn exactly, so the bleed shows only past a cut edge.
    `cut_lines=False` leaves out the cut and fold lines (a shop's die follows `net_die_lines`)."""
    net = die.net
    if bleed_mm:
        # the glue tabs grown by the bleed past their cut sides, under everything
        canvas.setFillColor(palette.colour(style["tab_fill"], area=True))
        for tab in net.tabs:
            canvas.drawPath(polygon_path(canvas, _grown_tab(tab, net.tab_mm, bleed_mm)), stroke=0, fill=1)
    for bleed in ((bleed_mm, 0.0) if bleed_mm else (0.0,)):
        for face, (x, y) in zip(die.faces, net.faces):
            canvas.saveState()
            canvas.translate(x * mm, y * mm)
            draw_placed(canvas, face, bleed, palette)
            canvas.restoreState()
    canvas.saveState()
    canvas.setFillColor(palette.colour(style["tab_fill"], area=True))
    for tab in net.tabs:
        canvas.drawPath(polygon_path(canvas, tab), stroke=0, fill=1)
    if not cut_lines:
        canvas.restoreState()
        return
    canvas.setStrokeColor(palette.colour("#000000"))
    canvas.setLineWidth(style["cut_pt"])
    for a, b in net_cuts(net):
        canvas.line(a[0] * mm, a[1] * mm, b[0] * mm, b[1] * mm)
    canvas.setStrokeColor(palette.colour("#555555"))
    canvas.setLineWidth(style["fold_pt"])
    canvas.setDash(*[v * mm for v in style["fold_dash_mm"]])
    for a, b in net.folds:
        canvas.line(a[0] * mm, a[1] * mm, b[0] * mm, b[1] * mm)
    canvas.restoreState()


def _grown_tab(tab, depth: float, bleed: float):
    """A tab's trapezoid with its three cut sides moved `bleed` outwards (its base, the fold,
    stays on its line): the tab's colour runs into the bleed past its tip and ends."""
    (ax, ay), (bx, by), (cx, cy), _ = tab
    length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    ux, uy = (bx - ax) / length, (by - ay) / length
    nx, ny = (cx - bx + ux * depth) / depth, (cy - by + uy * depth) / depth     # outward normal
    side = bleed * 2 ** 0.5                      # a 45° side moved by `bleed` meets the base this far out
    deep = depth + bleed
    inset = min(deep - side, length / 2 + side)  # where the moved ends meet the moved tip
    return ((ax - ux * side, ay - uy * side), (bx + ux * side, by + uy * side),
            (bx + nx * deep - ux * inset, by + ny * deep - uy * inset),
            (ax + nx * deep + ux * inset, ay + ny * deep + uy * inset))


def render_dice(pages: list[list[PlacedNet]], paper_mm, sheet: dict, title: str, *, draft: str = "",
                scale_label: str = "", palette: Palette = RGB,
                unprintable_mm: float = 0.0) -> tuple[bytes, int, list[dict]]:
    """Pages of packed nets; returns PDF bytes, pages and where each net went (for tests). The
    first page's 50 mm bar sits in the bottom margin, out of the paper's unprintable band."""
    doc = Document(paper_mm, title, "dice")
    placements = []
    for page in pages:
        doc.new_page()
        for placed in page:
            die = placed.die
            w, h = die.net.size_mm
            name = doc.form(die.key, lambda c, d=die: draw_net(c, d, sheet, palette), (-1, -1, w + 1, h + 1))
            doc.canvas.saveState()
            if placed.turned:
                # a quarter turn anticlockwise: the net's height now runs along the paper's width
                doc.canvas.translate((placed.x_mm + h) * mm, placed.y_mm * mm)
                doc.canvas.rotate(90)
            else:
                doc.canvas.translate(placed.x_mm * mm, placed.y_mm * mm)
            doc.canvas.doForm(name)
            doc.canvas.restoreState()
            placements.append({"page": doc.pages, "die": die.key, "x_mm": round(placed.x_mm, 3),
                               "y_mm": round(placed.y_mm, 3), "turned": placed.turned})
        if doc.pages == 1 and scale_label:
            scale_bar(doc.canvas, sheet["margin_mm"], max(sheet["margin_mm"] / 2, unprintable_mm + SCALE_BAR_CLEAR_MM),
                      scale_label)
        if draft:
            draft_mark(doc.canvas, paper_mm, draft)
    data, pages = doc.finish()
    return data, pages, placements
