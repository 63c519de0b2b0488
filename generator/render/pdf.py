"""ReportLab canvases set up the same way everywhere: embedded fonts, reproducible bytes."""
from __future__ import annotations

import io
from dataclasses import dataclass

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfdoc import PDFResourceDictionary, xObjectName
from reportlab.pdfgen.canvas import Canvas

from ..core import fonts
from ..core.colour import RGB, Palette
from ..core.fonts import MIN_PRINTED_PT


class Document:
    """A PDF being drawn in memory; `finish()` returns its bytes and page count.

    `trim_box_mm` writes a TrimBox (and a BleedBox the size of the page) on every page, for
    print-shop files whose page is the trim plus its bleed. `palette` decides the colour space;
    a CMYK document refuses any RGB colour (ReportLab raises), so none can slip through."""

    def __init__(self, page_mm: tuple[float, float], title: str, subject: str = "", *,
                 trim_box_mm: tuple[float, float, float, float] | None = None, palette: Palette = RGB):
        fonts.register()
        self.buffer = io.BytesIO()
        self.page_mm = page_mm
        self.palette = palette
        boxes = {}
        if trim_box_mm:
            boxes = dict(trimBox=tuple(v * mm for v in trim_box_mm),
                         bleedBox=(0, 0, page_mm[0] * mm, page_mm[1] * mm))
        # invariant=1: no timestamps or random IDs, so the same input gives the same bytes.
        # initialFontName: otherwise every page references an unembedded Helvetica.
        self.canvas = Canvas(self.buffer, pagesize=(page_mm[0] * mm, page_mm[1] * mm),
                             invariant=1, initialFontName="Sans", pageCompression=1,
                             enforceColorSpace="cmyk" if palette.space == "cmyk" else None, **boxes)
        self.canvas.setTitle(title)
        self.canvas.setAuthor("pnp")
        self.canvas.setCreator("pnp")
        self.canvas.setSubject(subject)
        self.pages = 0
        self.forms: set[str] = set()

    def new_page(self) -> None:
        if self.pages:
            self.canvas.showPage()
        self.pages += 1

    def form(self, name: str, draw, bbox_mm: tuple[float, float, float, float]) -> str:
        """Define a reusable drawing once (a PDF form XObject); `draw(canvas)` draws it.
        The bounding box clips the form, so it must hold everything drawn (bleed included)."""
        if name not in self.forms:
            x0, y0, x1, y1 = (v * mm for v in bbox_mm)
            self.canvas.beginForm(name, lowerx=x0, lowery=y0, upperx=x1, uppery=y1)
            draw(self.canvas)
            shadings = dict(self.canvas._shadingUsed)       # endForm forgets them before they are written
            self.canvas.endForm()
            _complete_resources(self.canvas._doc.idToObject[xObjectName(name)], shadings)
            self.forms.add(name)
        return name

    def place(self, name: str, x_mm: float, y_mm: float, scale: float = 1.0,
              upside_down: tuple[float, float] | None = None) -> None:
        """Draw form `name` with its origin at (x, y). `upside_down=(w, h)` turns a w x h
        face half a turn within the same rectangle (gutterfold backs)."""
        self.canvas.saveState()
        self.canvas.translate(x_mm * mm, y_mm * mm)
        if upside_down:
            self.canvas.translate(upside_down[0] * mm, upside_down[1] * mm)
            self.canvas.rotate(180)
        if scale != 1.0:
            self.canvas.scale(scale, scale)
        self.canvas.doForm(name)
        self.canvas.restoreState()

    def finish(self) -> tuple[bytes, int]:
        self.canvas.showPage()
        self.canvas.save()
        return self.buffer.getvalue(), self.pages


def _complete_resources(form, shadings: dict) -> None:
    """ReportLab writes a form's fonts and XObjects but not the graphics states (alpha), colour
    spaces and shadings its content names: a reader finds no such resource and paints the shape
    opaque, or not at all. A form that names none keeps ReportLab's own dictionary (and bytes)."""
    states, spaces = form.ExtGState, getattr(form, "_colorsUsed", {})
    if not (states or spaces or shadings):
        return
    resources = PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()                   # what ReportLab gives a form (hasImages)
    if form.XObjects:
        resources.XObject = form.XObjects
    if states:
        resources.ExtGState = states
    resources.setShading(shadings)
    resources.setColorSpace(spaces)
    form.Resources = resources


# A bar set on the edge of a paper's unprintable band goes this far above it: its line's own
# width reaches below its y.
SCALE_BAR_CLEAR_MM = 0.2


def scale_bar(canvas, x_mm: float, y_mm: float, label: str, vertical: bool = False) -> None:
    """A 50 mm bar with 10 mm ticks, so a user can check the print was not scaled.
    Vertical bars run upwards from (x, y) with the label beside them."""
    canvas.saveState()
    canvas.translate(x_mm * mm, y_mm * mm)
    if vertical:
        canvas.rotate(90)
    canvas.setStrokeColor(HexColor("#000000"))
    canvas.setLineWidth(0.5)
    canvas.line(0, 0, 50 * mm, 0)
    for tick in range(0, 51, 10):
        canvas.line(tick * mm, 0, tick * mm, (1.6 if tick % 50 == 0 else 1) * mm)
    canvas.setFillColor(HexColor("#000000"))
    canvas.setFont("Sans", MIN_PRINTED_PT)
    canvas.drawCentredString(25 * mm, -2.4 * mm if vertical else 1.2 * mm, label)
    canvas.restoreState()


def draft_mark(canvas, page_mm, text: str) -> None:
    """A visible diagonal DRAFT mark for locales not yet released."""
    canvas.saveState()
    canvas.setFillColor(HexColor("#D00000"), alpha=0.18)
    canvas.setFont("Sans-Bold", 72)
    canvas.translate(page_mm[0] * mm / 2, page_mm[1] * mm / 2)
    canvas.rotate(55)
    canvas.drawCentredString(0, -24, text)
    canvas.restoreState()


@dataclass(frozen=True)
class DieLines:
    """Where a die cuts and creases a component, in mm from its trim's bottom-left corner: a
    print shop gets them on a layer of their own, never in the printed art."""

    cuts: tuple[tuple[tuple[float, float], ...], ...] = ()     # polylines; a closed one ends where it starts
    circles: tuple[tuple[float, float, float], ...] = ()      # round cuts: (centre x, centre y, radius)
    folds: tuple[tuple[tuple[float, float], tuple[float, float]], ...] = ()
