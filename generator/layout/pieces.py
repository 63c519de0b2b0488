"""Cut-out pieces laid out: the piece with its face, cut outline, folds and glue areas; where
a glue area's label fits; and the pages the pieces take, packed when they fit the paper,
tiled like a board when larger. generator/render/pieces.py draws what is decided here."""
from __future__ import annotations

from dataclasses import dataclass, field

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth

from .packing import Packed, pack
from .placed import PlacedFace
from .tiles import Tiled, cut_into_tiles, tiles_for


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
    # each glue area's label as a home sheet prints it (no safe zone): None where it does not
    # fit (a located problem, validate/placed.py) or there is no label
    labels: tuple = field(init=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "labels", place_glue_labels(self))


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
    # the widest line, and the font's ascent and descent (below the baseline: negative) at the
    # label's size, in points: the paper patch under the words is drawn to them
    wide_pt: float = 0.0
    ascent_pt: float = 0.0
    descent_pt: float = 0.0


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
                wide_pt = max(stringWidth(line, "Sans", size) for line in lines)
                if wide_pt / mm <= length and len(lines) * size * GLUE_LABEL_LEADING / mm <= depth:
                    return GlueLabel(size, lines, turned, centre, wide_pt, *getAscentDescent("Sans", size))
    return None


def place_glue_labels(piece: PieceFace, safe_mm: float = 0.0) -> tuple[GlueLabel | None, ...]:
    """Each glue area's label placed (None where there is none or it does not fit), kept
    `safe_mm` inside the piece's trim (a print shop's safe zone)."""
    if not piece.glue_label:
        return tuple(None for _ in piece.glue)
    return tuple(fit_glue_label(piece.glue_label, area, piece.size_mm, safe_mm) for area in piece.glue)


def glue_label_problem(text: str, area, size_mm, safe_mm: float = 0.0) -> str | None:
    """Why the label cannot be laid out in its glue area, or None when it can."""
    if not text or fit_glue_label(text, area, size_mm, safe_mm) is not None:
        return None
    x0, y0, x1, y1 = glue_label_room(area, size_mm, safe_mm)
    where = f" and {safe_mm:g} mm inside the trim" if safe_mm else ""
    return (f"the glue label '{text}' does not fit its {max(x1 - x0, 0):.1f} x {max(y1 - y0, 0):.1f} mm room "
            f"(the glue area {area[2]:g} x {area[3]:g} mm less {GLUE_LABEL_PAD_MM:g} mm{where}) at "
            f"{GLUE_LABEL_SIZES_PT[-1]:g} pt or more, across or turned, on one line or two")



def _split(pieces: list[PieceFace], paper_mm, margin: float) -> tuple[list[PieceFace], list[PieceFace]]:
    """(pieces that fit the paper, pieces larger than it), each in data order."""
    return ([p for p in pieces if fits(p, paper_mm, margin)], [p for p in pieces if not fits(p, paper_mm, margin)])


@dataclass(frozen=True)
class PiecePages:
    """The pages the pieces print on: pages of the pieces that fit, packed, and then each larger
    piece tiled (once per copy)."""

    packed: list[list[Packed]]
    tiled: list[Tiled]


def page_plan(pieces: list[PieceFace], paper_mm, packing: dict, tiles: dict, unprintable_mm: float) -> PiecePages:
    """What fits goes on shared pages; a larger piece is tiled as a board is, its tile labels
    clear of the paper's `unprintable_mm` band."""
    small, large = _split(pieces, paper_mm, packing["margin_mm"])
    return PiecePages(pack(small, paper_mm, packing["margin_mm"], packing["gap_mm"]) if small else [],
                      [cut_into_tiles(piece, paper_mm, tiles, unprintable_mm) for piece in large])


def sheet_count(pieces: list[PieceFace], paper_mm, packing: dict, tiles: dict) -> int:
    """The pages of page_plan, counted."""
    small, large = _split(pieces, paper_mm, packing["margin_mm"])
    packed = len(pack(small, paper_mm, packing["margin_mm"], packing["gap_mm"])) if small else 0
    return packed + sum(piece.copies * len(tiles_for(piece.size_mm, paper_mm, tiles)[1]) for piece in large)
