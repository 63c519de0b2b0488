"""A print-then-cut machine's sheets finished: Silhouette's registration marks and the line that
gives their settings stamped on the pages it cuts, and each cut sheet's outlines written as an
SVG and a DXF file (mm, the sheet's coordinates), the same bytes for the same sheet every time.
generator/layout/cutter.py decides where everything goes."""
from __future__ import annotations

import io
import math
from contextlib import contextmanager

import ezdxf
import pikepdf
from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm

from ..core.fonts import MIN_PRINTED_PT
from ..layout.cutter import CutSheet, Marks, Outline, SetupNote
from .pdf import Document


def _marks_page(paper_mm, marks: Marks, note: SetupNote | None) -> pikepdf.Pdf:
    doc = Document(tuple(paper_mm), "registration marks")
    doc.new_page()
    canvas = doc.canvas
    canvas.setFillColor(HexColor("#000000"))
    for x, y, w, h in (marks.square, *marks.arms):
        canvas.rect(x * mm, y * mm, w * mm, h * mm, stroke=0, fill=1)
    if note is not None:
        canvas.setFillColor(HexColor("#555555"))
        canvas.setFont("Sans", MIN_PRINTED_PT)
        canvas.drawRightString(note.right_mm * mm, note.baseline_mm * mm, note.text)
    data, _ = doc.finish()
    return pikepdf.open(io.BytesIO(data))


MARKS_FORM = "/RegistrationMarks"
PT = 72 / 25.4


def with_marks(data: bytes, sheets: list[tuple[CutSheet, SetupNote | None]]) -> bytes:
    """The PDF with each cut sheet's marks and the line that gives their settings drawn over
    its page; a machine's frame (Cricut's image area) made every page's CropBox, so the page
    shows what its software prints, in the sheet's coordinates."""
    marked = [(sheet, note) for sheet, note in sheets if sheet.marks is not None]
    frames = {sheet.frame for sheet, _ in sheets if sheet.frame is not None}
    if not marked and not frames:
        return data
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for shown in frames:
            for page in pdf.pages:
                page.obj.CropBox = pikepdf.Array([round(v * PT, 4) for v in shown])
        forms: dict = {}
        for sheet, note in marked:
            key = (sheet.marks, note)
            if key not in forms:
                overlay = _marks_page(sheet.paper_mm, sheet.marks, note)
                forms[key] = pdf.copy_foreign(overlay.pages[0].as_form_xobject())
            page = pdf.pages[sheet.page - 1]
            resources = page.obj.Resources
            if "/XObject" not in resources:
                resources.XObject = pikepdf.Dictionary()
            resources.XObject[MARKS_FORM] = forms[key]
            page.contents_add(pdf.make_stream(b"q\n"), prepend=True)
            page.contents_add(pdf.make_stream(f"Q\nq {MARKS_FORM} Do Q\n".encode("ascii")), prepend=False)
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True, compress_streams=True)
        return out.getvalue()


# ---- cut files ------------------------------------------------------------------------------

def _n(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def svg_cut_file(sheet: CutSheet) -> bytes:
    """The sheet's outlines as SVG paths, one per piece, in the sheet's mm (y down): the paper's
    size, or the machine's frame within it."""
    h = sheet.paper_mm[1]
    x0, y0, x1, y1 = sheet.frame or (0.0, 0.0, *sheet.paper_mm)

    def xy(x, y):
        return f"{_n(x)} {_n(h - y)}"
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(x1 - x0)}mm" height="{_n(y1 - y0)}mm" '
             f'viewBox="{_n(x0)} {_n(h - y1)} {_n(x1 - x0)} {_n(y1 - y0)}">',
             '<g id="cut" fill="none" stroke="#FF0000" stroke-width="0.25">']
    for outline in sheet.outlines:
        name = _escape(outline.name)
        if outline.centre is not None:
            (cx, cy), r = outline.centre, outline.radius
            lines.append(f'<circle id="{name}" cx="{_n(cx)}" cy="{_n(h - cy)}" r="{_n(r)}"/>')
        elif outline.box is not None:
            x0, y0, x1, y1 = outline.box
            r = outline.radius
            if r <= 0:
                d = f"M {xy(x0, y0)} L {xy(x1, y0)} L {xy(x1, y1)} L {xy(x0, y1)} Z"
            else:
                arc = f"A {_n(r)} {_n(r)} 0 0 0"     # y flipped: counter-clockwise on paper turns clockwise
                d = (f"M {xy(x0 + r, y0)} L {xy(x1 - r, y0)} {arc} {xy(x1, y0 + r)} L {xy(x1, y1 - r)} "
                     f"{arc} {xy(x1 - r, y1)} L {xy(x0 + r, y1)} {arc} {xy(x0, y1 - r)} L {xy(x0, y0 + r)} "
                     f"{arc} {xy(x0 + r, y0)} Z")
            lines.append(f'<path id="{name}" d="{d}"/>')
        else:
            d = "M " + " L ".join(xy(*p) for p in outline.points) + " Z"
            lines.append(f'<path id="{name}" d="{d}"/>')
    lines += ["</g>", "</svg>", ""]
    return "\n".join(lines).encode("utf-8")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


@contextmanager
def _fixed_metadata():
    """ezdxf writes the time and fresh GUIDs into a file's header unless asked for fixed ones."""
    before = ezdxf.options.write_fixed_meta_data_for_testing
    ezdxf.options.write_fixed_meta_data_for_testing = True
    try:
        yield
    finally:
        ezdxf.options.write_fixed_meta_data_for_testing = before


# a quarter circle as a polyline's bulge (the tangent of a quarter of its angle)
QUARTER_BULGE = math.tan(math.radians(90) / 4)
CUT_LAYER = "CUT"


def dxf_cut_file(sheet: CutSheet) -> bytes:
    """The sheet's outlines in a DXF (R2010, mm, y up, the paper's bottom-left at 0,0): a closed
    polyline per piece (a rounded corner as an arc), a circle per round token."""
    with _fixed_metadata():
        doc = ezdxf.new("R2010", units=4, setup=False)           # 4: millimetres
        doc.header["$MEASUREMENT"] = 1
        x0, y0, x1, y1 = sheet.frame or (0.0, 0.0, *sheet.paper_mm)
        doc.header["$EXTMIN"] = (x0, y0, 0)
        doc.header["$EXTMAX"] = (x1, y1, 0)
        doc.layers.add(CUT_LAYER, color=1)
        space = doc.modelspace()
        attribs = {"layer": CUT_LAYER}
        for outline in sheet.outlines:
            if outline.centre is not None:
                space.add_circle(_round(outline.centre), round(outline.radius, 4), dxfattribs=attribs)
            elif outline.box is not None:
                space.add_lwpolyline(_box_points(outline), format="xyb", close=True, dxfattribs=attribs)
            else:
                space.add_lwpolyline([_round(p) for p in outline.points], format="xy", close=True,
                                     dxfattribs=attribs)
        text = io.StringIO()
        doc.write(text)
    return text.getvalue().encode("utf-8")


def _round(point) -> tuple[float, float]:
    return (round(point[0], 4), round(point[1], 4))


def _box_points(outline: Outline) -> list[tuple[float, float, float]]:
    """A rounded rectangle's corners, counter-clockwise, each arc a bulge from its start."""
    x0, y0, x1, y1 = outline.box
    r = outline.radius
    if r <= 0:
        return [(x0, y0, 0), (x1, y0, 0), (x1, y1, 0), (x0, y1, 0)]
    b = QUARTER_BULGE
    points = [(x0 + r, y0, 0), (x1 - r, y0, b), (x1, y0 + r, 0), (x1, y1 - r, b),
              (x1 - r, y1, 0), (x0 + r, y1, b), (x0, y1 - r, 0), (x0, y0 + r, b)]
    return [(round(x, 4), round(y, 4), bulge) for x, y, bulge in points]
