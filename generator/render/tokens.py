"""Token sheets drawn: flat tokens (round, square or hexagonal) and fold-over standee pawns, as
generator/layout/tokens.py laid them out, on the pages generator/layout/packing.py packed; each
distinct piece is a form."""
from __future__ import annotations

from reportlab.lib.units import mm

from ..core.canvas import polygon_path
from ..core.colour import RGB, Palette
from ..layout.packing import Packed
from ..layout.tokens import (
    BASE_GREY,
    FLAT_SHAPES,
    FOLD_GREY,
    RING_INSET_MM,
    RING_WIDTH_MM,
    WRITE_GREY,
    TokenFace,
    flat_outline,
    inscribed_diameter,
    name_baseline,
)
from .elements.icon import draw_placed_glyph
from .elements.text import draw_line
from .pdf import SCALE_BAR_CLEAR_MM, DieLines, Document, draft_mark, scale_bar


def draw_token(canvas, token: TokenFace, palette: Palette = RGB, bleed_mm: float = 0.0, cut_lines: bool = True) -> None:
    """A token in its box; for a print shop (`bleed_mm`) its colour runs that far past the cut.
    `cut_lines=False` leaves out the cut and fold lines (a shop's die follows `token_die_lines`)."""
    if token.shape not in FLAT_SHAPES:
        _draw_standee(canvas, token, palette, bleed_mm, cut_lines)
        return
    w, h = token.size_mm
    # Squares and hexes are laid out like a disc the size of the circle inside them: the same
    # ring, icon and name, so a kit's tokens look alike whatever their shape.
    d = inscribed_diameter(token.shape, token.side_mm) if token.shape != "disc" else w
    cx, cy = w / 2, h / 2
    canvas.setFillColor(palette.colour(token.colour, area=True))
    if bleed_mm:
        if token.shape == "disc":
            canvas.circle(cx * mm, cy * mm, (d / 2 + bleed_mm) * mm, stroke=0, fill=1)
        else:
            canvas.drawPath(polygon_path(canvas, flat_outline(token.shape, token.side_mm, -bleed_mm)), stroke=0, fill=1)
    canvas.setStrokeColor(palette.colour("#000000"))
    canvas.setLineWidth(0.4)
    # The outline's stroke is the cut line: it runs exactly along the token's edge.
    if token.shape == "disc":
        canvas.circle(cx * mm, cy * mm, d / 2 * mm, stroke=int(cut_lines), fill=1)
    else:
        canvas.drawPath(polygon_path(canvas, flat_outline(token.shape, token.side_mm)), stroke=int(cut_lines), fill=1)
    canvas.setStrokeColor(palette.colour(token.ink))
    canvas.setLineWidth(RING_WIDTH_MM * mm)
    if token.shape == "disc":
        canvas.circle(cx * mm, cy * mm, (d / 2 - RING_INSET_MM) * mm, stroke=1, fill=0)
    else:
        canvas.drawPath(polygon_path(canvas, flat_outline(token.shape, token.side_mm, RING_INSET_MM)), stroke=1, fill=0)
    if token.icon_glyph is not None:
        draw_placed_glyph(canvas, token.icon_glyph, token.ink, palette)
    fitted = token.name_fit
    canvas.setFillColor(palette.colour(token.ink))
    canvas.setFont(fitted.font, fitted.size)
    if token.name_line is not None:
        draw_line(canvas, token.name_line, fitted.font, fitted.size, palette.colour(token.ink), palette)
        return
    canvas.drawCentredString(cx * mm, name_baseline(token, fitted.size, token.name_raised) * mm, fitted.lines[0])


def token_die_lines(token: TokenFace) -> DieLines:
    """The token's cut outline, and a standee's folds between its base tabs and figures."""
    w, h = token.size_mm
    if token.shape == "disc":
        return DieLines(circles=((w / 2, h / 2, w / 2),))
    if token.shape in FLAT_SHAPES:
        outline = tuple(flat_outline(token.shape, token.side_mm))
        return DieLines(cuts=(outline + outline[:1],))
    base, figure = token.base_mm, token.figure_mm[1]
    return DieLines(cuts=(((0, 0), (w, 0), (w, h), (0, h), (0, 0)),),
                    folds=tuple(((0, y), (w, y)) for y in (base, base + figure, base + 2 * figure)))


def _draw_standee(canvas, token: TokenFace, palette: Palette = RGB, bleed_mm: float = 0.0,
                  cut_lines: bool = True) -> None:
    w, h = token.figure_mm
    base = token.base_mm
    total_h = token.size_mm[1]
    colour = palette.colour(token.colour, area=True)
    if bleed_mm:
        # the bases' grey and each side's colour run on past the cut, as they meet it
        b = bleed_mm
        canvas.setFillColor(palette.colour(BASE_GREY, area=True))
        canvas.rect(-b * mm, -b * mm, (w + 2 * b) * mm, (base + b) * mm, stroke=0, fill=1)
        canvas.rect(-b * mm, (total_h - base) * mm, (w + 2 * b) * mm, (base + b) * mm, stroke=0, fill=1)
        canvas.setFillColor(colour)
        canvas.rect(-b * mm, base * mm, (w + 2 * b) * mm, 2 * h * mm, stroke=0, fill=1)
    # Bottom base tab, front (upright), middle fold, back (upside down), top base tab: folded
    # at the middle the figures meet head to head, back to back, and the tabs fold out in
    # opposite directions to stand the pawn up.
    canvas.setStrokeColor(palette.colour("#000000"))
    canvas.setLineWidth(0.4)
    canvas.setFillColor(palette.colour(BASE_GREY, area=True))
    canvas.rect(0, 0, w * mm, base * mm, stroke=int(cut_lines), fill=1)
    canvas.rect(0, (total_h - base) * mm, w * mm, base * mm, stroke=int(cut_lines), fill=1)
    for y0, upside_down in ((base, False), (base + h, True)):
        canvas.saveState()
        if upside_down:
            canvas.translate(w * mm, (y0 + h) * mm)
            canvas.rotate(180)
        else:
            canvas.translate(0, y0 * mm)
        _standee_side(canvas, w, h, colour, token, palette)
        canvas.restoreState()
    # Fold lines (dashed) between the parts.
    canvas.setDash(3, 2)
    canvas.setStrokeColor(palette.colour(FOLD_GREY))
    for y in (base, base + h, base + 2 * h) if cut_lines else ():
        canvas.line(0, y * mm, w * mm, y * mm)
    canvas.setDash()
    # The word goes on the base tabs, which fold under the pawn: never on a figure, where it
    # would show on the finished pawn. Each reads from its own tab's side.
    canvas.setFillColor(palette.colour(FOLD_GREY))
    canvas.setFont(token.fold_fit.font, token.fold_fit.size)
    canvas.drawCentredString(w / 2 * mm, (base / 2 - 0.6) * mm, token.fold_label)
    canvas.saveState()
    canvas.translate(w * mm, total_h * mm)
    canvas.rotate(180)
    canvas.drawCentredString(w / 2 * mm, (base / 2 - 0.6) * mm, token.fold_label)
    canvas.restoreState()
    # Cut outline last, so it sits on top.
    canvas.setStrokeColor(palette.colour("#000000"))
    canvas.setLineWidth(0.5)
    if cut_lines:
        canvas.rect(0, 0, w * mm, total_h * mm, stroke=1, fill=0)


def _standee_side(canvas, w, h, colour, token: TokenFace, palette: Palette = RGB) -> None:
    canvas.setFillColor(colour)
    canvas.rect(0, 0, w * mm, h * mm, stroke=0, fill=1)
    # Blank writing area: the player writes their choice here.
    canvas.setFillColor(palette.colour("#FFFFFF", area=True))
    canvas.roundRect(2.5 * mm, 3 * mm, (w - 5) * mm, (h - 13) * mm, 2 * mm, stroke=0, fill=1)
    canvas.setFillColor(palette.colour(WRITE_GREY))
    fitted = token.write_fit
    canvas.setFont(fitted.font, fitted.size)
    y = 5
    for text in reversed(fitted.lines):
        canvas.drawCentredString(w / 2 * mm, y * mm, text)
        y += fitted.size * 0.42
    canvas.setFillColor(palette.colour(token.ink))
    fitted = token.name_fit
    canvas.setFont(fitted.font, fitted.size)
    if token.name_line is not None:
        draw_line(canvas, token.name_line, fitted.font, fitted.size, palette.colour(token.ink), palette)
        return
    canvas.drawCentredString(w / 2 * mm, (h - 7) * mm, fitted.lines[0])


def render_tokens(pages: list[list[Packed]], paper_mm, settings: dict, title: str, *,
                  draft: str = "", scale_label: str = "", palette: Palette = RGB,
                  unprintable_mm: float = 0.0) -> tuple[bytes, int, list[dict]]:
    """The packed pages of tokens; returns PDF bytes, pages and where each copy went."""
    doc = Document(paper_mm, title, "tokens")
    draw = lambda c, t: draw_token(c, t, palette)   # noqa: E731
    placed = place_packed(doc, pages, draw, "token", settings["margin_mm"], draft=draft, scale_label=scale_label,
                          unprintable_mm=unprintable_mm)
    data, count = doc.finish()
    return data, count, placed


def place_packed(doc: Document, pages, draw, role: str, margin: float, *, draft: str = "",
                 scale_label: str = "", unprintable_mm: float = 0.0) -> list[dict]:
    """Pages of packed pieces (each with `key` and `size_mm`, drawn once as a form by
    `draw(canvas, piece)`) added to `doc`; returns where each copy went, named by `role`. The
    first page's 50 mm bar sits in the bottom margin, out of the paper's unprintable band."""
    placed = []
    for page in pages:
        doc.new_page()
        for piece, x, y in page:
            # a hair of room around the outline so its stroke is not clipped
            name = doc.form(piece.key, lambda c, p=piece: draw(c, p), (-0.5, -0.5, piece.size_mm[0] + 0.5, piece.size_mm[1] + 0.5))
            doc.place(name, x, y)
            placed.append({"page": doc.pages, role: piece.key, "x_mm": round(x, 3), "y_mm": round(y, 3)})
        if doc.pages == 1 and scale_label:
            scale_bar(doc.canvas, margin, max(margin / 2, unprintable_mm + SCALE_BAR_CLEAR_MM), scale_label)
        if draft:
            draft_mark(doc.canvas, doc.page_mm, draft)
    return placed
