"""Cut-out pieces: a face drawn from its layout, its cut outline (solid), fold lines (dashed)
and glue areas (hatched and labelled). Pieces that fit the paper are packed on pages; a piece
larger than the paper is tiled across pages like a board."""
from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.units import mm

from .boards import tile_pages
from .colour import RGB, Palette
from .faces import PlacedFace, draw_placed
from .pdf import DieLines, Document, polygon_path
from .tokens import pack, place_packed


@dataclass(frozen=True)
class PieceFace:
    key: str
    name: str
    size_mm: tuple[float, float]
    copies: int
    face: PlacedFace
    outline: tuple[tuple[float, float], ...]
    folds: tuple[tuple[tuple[float, float], tuple[float, float]], ...]
    glue: tuple[tuple[float, float, float, float], ...]
    glue_label: str = ""


def fits(piece: PieceFace, paper_mm, margin: float) -> bool:
    """Whole on one page, upright (packing never turns a piece)."""
    return piece.size_mm[0] <= paper_mm[0] - 2 * margin + 1e-6 and piece.size_mm[1] <= paper_mm[1] - 2 * margin + 1e-6


def piece_die_lines(piece: PieceFace) -> DieLines:
    """The piece's cut outline and its folds."""
    return DieLines(cuts=(tuple(piece.outline) + tuple(piece.outline[:1]),), folds=tuple(piece.folds))


def draw_piece(canvas, piece: PieceFace, palette: Palette = RGB, bleed_mm: float = 0.0, cut_lines: bool = True) -> None:
    """A piece; for a print shop (`bleed_mm`) its art is not stopped at the cut but runs on
    past it (the shop's die follows the outline), its backgrounds that far past the box.
    `cut_lines=False` leaves out the cut and fold lines (a shop's die follows `piece_die_lines`)."""
    canvas.saveState()
    if not bleed_mm:
        canvas.clipPath(polygon_path(canvas, piece.outline), stroke=0, fill=0)        # the art stops at the cut
    draw_placed(canvas, piece.face, bleed_mm, palette)
    canvas.restoreState()
    canvas.saveState()
    for x, y, w, h in piece.glue:
        canvas.setFillColor(palette.colour("#000000", area=True), alpha=0.12)
        canvas.setStrokeColor(palette.colour("#555555"))
        canvas.setLineWidth(0.4)
        canvas.rect(x * mm, y * mm, w * mm, h * mm, stroke=1, fill=1)
        if piece.glue_label:
            canvas.setFillColor(palette.colour("#333333"))
            canvas.setFont("Sans", 7)
            canvas.drawCentredString((x + w / 2) * mm, (y + h / 2 - 1) * mm, piece.glue_label)
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


def page_plan(pieces: list[PieceFace], paper_mm, packing: dict, tiles: dict) -> tuple[list, list[PieceFace]]:
    """(pages of packed pieces, pieces to tile): what fits goes on shared pages."""
    small = [p for p in pieces if fits(p, paper_mm, packing["margin_mm"])]
    large = [p for p in pieces if not fits(p, paper_mm, packing["margin_mm"])]
    return (pack(small, paper_mm, packing["margin_mm"], packing["gap_mm"]) if small else []), large


def render_pieces(pieces: list[PieceFace], paper_mm, packing: dict, tiles: dict, labels: dict, title: str, *,
                  draft: str = "", scale_label: str = "", palette: Palette = RGB,
                  unprintable_mm: float = 0.0) -> tuple[bytes, int, list[dict]]:
    doc = Document(paper_mm, title, "pieces")
    packed, large = page_plan(pieces, paper_mm, packing, tiles)
    draw = lambda c, p: draw_piece(c, p, palette)   # noqa: E731
    placed = place_packed(doc, packed, draw, "piece", packing["margin_mm"], draft=draft, scale_label=scale_label,
                          unprintable_mm=unprintable_mm)
    for piece in large:
        for _ in range(piece.copies):
            placed += [{**tile, "piece": piece.key} for tile in
                       tile_pages(doc, piece, paper_mm, tiles, labels, draw, draft=draft, scale_label=scale_label)]
    data, pages = doc.finish()
    return data, pages, placed
