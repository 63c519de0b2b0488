"""Pieces packed on the paper: shelves filled left to right, top down, in data order, one
entry per copy. Tokens and cut-out pieces share it; render draws the pages it returns."""
from __future__ import annotations

from typing import NamedTuple


class Packed(NamedTuple):
    """One copy of a piece on its page: the bottom-left of its box, mm from the paper's."""

    piece: object            # anything with `size_mm` and `copies`
    x_mm: float
    y_mm: float


def pack(pieces: list, paper_mm, margin: float, gap: float) -> list[list[Packed]]:
    """Shelf packing, in data order: pages of packed copies, rows from the top of the paper."""
    pages, page = [], []
    x, top, shelf = margin, paper_mm[1] - margin, 0.0
    for piece in pieces:
        w, h = piece.size_mm
        for _ in range(piece.copies):
            if x + w > paper_mm[0] - margin + 1e-6:
                x, top, shelf = margin, top - shelf - gap, 0.0
            if top - h < margin - 1e-6:
                pages.append(page)
                page, x, top, shelf = [], margin, paper_mm[1] - margin, 0.0
            page.append(Packed(piece, x, top - h))
            x += w + gap
            shelf = max(shelf, h)
    if page:
        pages.append(page)
    return pages
