"""Text that does not fit its box in a laid-out WeasyPrint document: a word wider than its
table cell (it would run over the next column), a table wider than the page. A browser lets
such text overflow; a printed document must not, so each is a build error naming the text,
as card text that does not fit is."""
from __future__ import annotations

from weasyprint.formatting_structure import boxes

from ..core.errors import BuildError

# How far (in CSS pixels, 1/96 in) ink may pass its box before it is measured as overflow:
# rounding in the layout, not a glyph.
TOLERANCE_PX = 0.5
PX_PER_MM = 96 / 25.4


def _descendants(box):
    for child in getattr(box, "children", ()):
        yield child
        yield from _descendants(child)


def _text(box) -> str:
    return " ".join(" ".join(t.text.split()) for t in _descendants(box) if isinstance(t, boxes.TextBox)).strip()


def overflowing_text(document) -> list[str]:
    """What overflows in a rendered document, each as a message: the cell's text and by how
    much it passes its cell, or the table and by how much it passes the page."""
    found = []
    for number, page in enumerate(document.pages, 1):
        page_box = page._page_box
        right_edge = page_box.content_box_x() + page_box.width
        for box in _descendants(page_box):
            if isinstance(box, boxes.TableBox):
                over = box.position_x + box.margin_width() - right_edge
                if over > TOLERANCE_PX:
                    # what widens it most: the widest word or unbreakable run of its cells
                    widest = max((t for t in _descendants(box) if isinstance(t, boxes.TextBox)),
                                 key=lambda t: t.margin_width(), default=None)
                    what = f" by {' '.join(widest.text.split())!r}" if widest is not None else ""
                    found.append(f"page {number}: a table is {over / PX_PER_MM:.1f} mm wider than the page{what}")
            elif isinstance(box, boxes.TableCellBox):
                left = box.content_box_x()
                right = left + box.width
                widest = max((t.position_x + t.margin_width() - right for t in _descendants(box)
                              if isinstance(t, boxes.TextBox)), default=0.0)
                if widest > TOLERANCE_PX:
                    found.append(f"page {number}: {_text(box)!r} is {widest / PX_PER_MM:.1f} mm wider than its cell")
    return list(dict.fromkeys(found))


def check_fits(document, what: str) -> None:
    """A BuildError naming `what` (the booklet, report or page) and each text that overflows."""
    overflowing = overflowing_text(document)
    if overflowing:
        raise BuildError(f"{what}: text does not fit: " + "; ".join(overflowing))
