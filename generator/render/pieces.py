"""Cut-out pieces: a face drawn from its layout, its cut outline (solid), fold lines (dashed)
and glue areas (hatched, their label fitted inside). Pieces that fit the paper are packed on
pages; a piece larger than the paper is tiled across pages like a board."""
from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth

from ..core.canvas import polygon_path
from ..core.colour import RGB, Palette
from .boards import HATCH_MM, HATCH_PT, tile_pages
from .faces import PlacedFace, draw_placed
from .pdf import DieLines, Document
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


# A glue area's label: the sizes tried, largest first (6 pt is the least that is still read
# easily), the lines' spacing, and how far inside the area (mm) the label's room starts.
GLUE_LABEL_SIZES_PT = (7.0, 6.5, 6.0)
GLUE_LABEL_LEADING = 1.15
GLUE_LABEL_PAD_MM = 0.5


@dataclass(frozen=True)
class GlueLabel:
    size_pt: float
    lines: tuple[str, ...]
    turned: bool                                   # runs up the area's height, read from the right
    centre_mm: tuple[float, float]


def glue_label_room(area, size_mm, safe_mm: float = 0.0) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) mm where a glue area's label may go: inside the area, and `safe_mm`
    inside the piece's trim (a shop's safe zone); empty (x1 <= x0) when there is none."""
    x, y, w, h = area
    pad, (width, height) = GLUE_LABEL_PAD_MM, size_mm
    return (max(x + pad, safe_mm), max(y + pad, safe_mm),
            min(x + w - pad, width - safe_mm), min(y + h - pad, height - safe_mm))


def _line_choices(text: str) -> list[tuple[str, ...]]:
    """The text on one line, then broken in two at each space (most even first)."""
    words = text.split(" ")
    two = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    return [(text,)] + sorted(two, key=lambda lines: abs(len(lines[0]) - len(lines[1])))


def fit_glue_label(text: str, area, size_mm, safe_mm: float = 0.0) -> GlueLabel | None:
    """The label at the largest size it fits its room at, across first, then turned up the
    area, on one line, then on two; None when it fits at none of GLUE_LABEL_SIZES_PT."""
    x0, y0, x1, y1 = glue_label_room(area, size_mm, safe_mm)
    if x1 <= x0 or y1 <= y0:
        return None
    centre = ((x0 + x1) / 2, (y0 + y1) / 2)
    for size in GLUE_LABEL_SIZES_PT:
        for turned in (False, True):
            length, depth = (y1 - y0, x1 - x0) if turned else (x1 - x0, y1 - y0)
            for lines in _line_choices(text):
                wide = max(stringWidth(line, "Sans", size) for line in lines) / mm
                if wide <= length and len(lines) * size * GLUE_LABEL_LEADING / mm <= depth:
                    return GlueLabel(size, lines, turned, centre)
    return None


def glue_label_problem(text: str, area, size_mm, safe_mm: float = 0.0) -> str | None:
    """Why the label cannot be laid out in its glue area, or None when it can."""
    if not text or fit_glue_label(text, area, size_mm, safe_mm) is not None:
        return None
    x0, y0, x1, y1 = glue_label_room(area, size_mm, safe_mm)
    where = f" and {safe_mm:g} mm inside the trim" if safe_mm else ""
    return (f"the glue label '{text}' does not fit its {max(x1 - x0, 0):.1f} x {max(y1 - y0, 0):.1f} mm room "
            f"(the glue area {area[2]:g} x {area[3]:g} mm less {GLUE_LABEL_PAD_MM:g} mm{where}) at "
            f"{GLUE_LABEL_SIZES_PT[-1]:g} pt or more, across or turned, on one line or two")


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
    ascent, descent = getAscentDescent("Sans", size)
    wide = max(stringWidth(line, "Sans", size) for line in label.lines)
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


def draw_piece(canvas, piece: PieceFace, palette: Palette = RGB, bleed_mm: float = 0.0, safe_mm: float = 0.0,
               cut_lines: bool = True) -> None:
    """A piece; for a print shop (`bleed_mm`) its art is not stopped at the cut but runs on
    past it (the shop's die follows the outline), its backgrounds that far past the box, and
    the glue labels keep `safe_mm` inside the trim (the shop's safe zone).
    `cut_lines=False` leaves out the cut and fold lines (a shop's die follows `piece_die_lines`)."""
    canvas.saveState()
    if not bleed_mm:
        canvas.clipPath(polygon_path(canvas, piece.outline), stroke=0, fill=0)        # the art stops at the cut
    draw_placed(canvas, piece.face, bleed_mm, palette)
    canvas.restoreState()
    canvas.saveState()
    for area in piece.glue:
        _glue_area(canvas, area, palette)
        label = fit_glue_label(piece.glue_label, area, piece.size_mm, safe_mm) if piece.glue_label else None
        if label is not None:          # one that does not fit is a located problem (kinds/pieces.py)
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
                       tile_pages(doc, piece, paper_mm, tiles, labels, draw, draft=draft, scale_label=scale_label,
                                  unprintable_mm=unprintable_mm)]
    data, pages = doc.finish()
    return data, pages, placed
