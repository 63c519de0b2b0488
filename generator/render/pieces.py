"""Cut-out pieces drawn: a face from its layout, its cut outline (solid), fold lines (dashed)
and glue areas (hatched, their label where layout placed it), on the pages generator/layout/pieces.py
planned: packed pages, then each piece larger than the paper tiled like a board."""
from __future__ import annotations

from reportlab.lib.units import mm

from ..core.canvas import polygon_path
from ..core.colour import RGB, Palette
from ..layout.pieces import (
    GLUE_LABEL_LEADING,
    GlueLabel,
    PieceFace,
    PiecePages,
)
from .boards import HATCH_MM, HATCH_PT, tile_pages
from .faces import draw_placed
from .pdf import DieLines, Document
from .tokens import place_packed


def _glue_area(canvas, area, palette: Palette) -> None:
    """Bare paper with diagonal hatching inside a solid outline (what the booklet calls the
    hatched area): glue takes to paper, and the hatching reads in grey on any printer."""
    x, y, w, h = area
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(x * mm, y * mm, w * mm, h * mm)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.setFillColor(palette.colour("#FFFFFF", area=True))
    canvas.rect(x * mm, y * mm, w * mm, h * mm, stroke=0, fill=1)
    canvas.setStrokeColor(palette.colour("#8C8C8C"))
    canvas.setLineWidth(HATCH_PT)
    for i in range(int((w + h) / HATCH_MM) + 2):
        start = x - h + i * HATCH_MM          # lines at 45 degrees, from the bottom edge up
        canvas.line(start * mm, y * mm, (start + h) * mm, (y + h) * mm)
    canvas.restoreState()
    canvas.setStrokeColor(palette.colour("#555555"))
    canvas.setLineWidth(0.4)
    canvas.rect(x * mm, y * mm, w * mm, h * mm, stroke=1, fill=0)


def _glue_label(canvas, label: GlueLabel, palette: Palette) -> None:
    """The label's lines centred on its room, on a patch of paper that keeps the hatching off
    the letters."""
    size, lead = label.size_pt, label.size_pt * GLUE_LABEL_LEADING
    ascent, descent, wide = label.ascent_pt, label.descent_pt, label.wide_pt
    deep = len(label.lines) * lead
    canvas.saveState()
    canvas.translate(label.centre_mm[0] * mm, label.centre_mm[1] * mm)
    if label.turned:
        canvas.rotate(90)
    canvas.setFillColor(palette.colour("#FFFFFF", area=True))
    canvas.rect(-wide / 2 - 0.3 * mm, -deep / 2, wide + 0.6 * mm, deep, stroke=0, fill=1)
    canvas.setFillColor(palette.colour("#222222"))
    canvas.setFont("Sans", size)
    for index, line in enumerate(label.lines):
        middle = deep / 2 - lead * (index + 0.5)
        canvas.drawCentredString(0, middle - (ascent + descent) / 2, line)
    canvas.restoreState()


def piece_die_lines(piece: PieceFace) -> DieLines:
    """The piece's cut outline and its folds."""
    return DieLines(cuts=(tuple(piece.outline) + tuple(piece.outline[:1]),), folds=tuple(piece.folds))


def draw_piece(canvas, piece: PieceFace, palette: Palette = RGB, bleed_mm: float = 0.0, labels: tuple | None = None,
               cut_lines: bool = True) -> None:
    """A piece; for a print shop (`bleed_mm`) its art is not stopped at the cut but runs on
    past it (the shop's die follows the outline), its backgrounds that far past the box.
    `labels` are the glue areas' labels as placed for the shop's safe zone (layout/pieces.py
    `place_glue_labels`; by default the piece's own, placed for a home sheet).
    `cut_lines=False` leaves out the cut and fold lines (a shop's die follows `piece_die_lines`)."""
    canvas.saveState()
    if not bleed_mm:
        canvas.clipPath(polygon_path(canvas, piece.outline), stroke=0, fill=0)        # the art stops at the cut
    draw_placed(canvas, piece.face, bleed_mm, palette)
    canvas.restoreState()
    canvas.saveState()
    for area, label in zip(piece.glue, piece.labels if labels is None else labels):
        _glue_area(canvas, area, palette)
        if label is not None:          # one that does not fit is a located problem (validate/placed.py)
            _glue_label(canvas, label, palette)
    if not cut_lines:
        canvas.restoreState()
        return
    canvas.setStrokeColor(palette.colour("#555555"))
    canvas.setLineWidth(0.5)
    canvas.setDash(3, 2)
    for (x1, y1), (x2, y2) in piece.folds:
        canvas.line(x1 * mm, y1 * mm, x2 * mm, y2 * mm)
    canvas.setDash()
    canvas.setStrokeColor(palette.colour("#000000"))
    canvas.setLineWidth(0.6)
    canvas.drawPath(polygon_path(canvas, piece.outline), stroke=1, fill=0)
    canvas.restoreState()


def render_pieces(plan: PiecePages, paper_mm, packing: dict, tiles: dict, labels: dict, title: str, *,
                  draft: str = "", scale_label: str = "", palette: Palette = RGB,
                  unprintable_mm: float = 0.0) -> tuple[bytes, int, list[dict]]:
    """The packed pages, then each large piece's tiles once per copy; returns PDF bytes, pages
    and where each copy or tile went."""
    doc = Document(paper_mm, title, "pieces")
    draw = lambda c, p: draw_piece(c, p, palette)   # noqa: E731
    placed = place_packed(doc, plan.packed, draw, "piece", packing["margin_mm"], draft=draft,
                          scale_label=scale_label, unprintable_mm=unprintable_mm)
    for tiled in plan.tiled:
        for _ in range(tiled.item.copies):
            placed += [{**tile, "piece": tiled.item.key} for tile in
                       tile_pages(doc, tiled, tiles, labels, draw, draft=draft, scale_label=scale_label,
                                  unprintable_mm=unprintable_mm)]
    data, pages = doc.finish()
    return data, pages, placed
