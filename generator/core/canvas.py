"""Paths on a ReportLab canvas, shared by the element types (which draw themselves) and the
renderers."""
from __future__ import annotations

from reportlab.lib.units import mm


def polygon_path(canvas, points, closed: bool = True):
    """A ReportLab path through `points` (mm), closed back to the first unless `closed` is False."""
    path = canvas.beginPath()
    path.moveTo(points[0][0] * mm, points[0][1] * mm)
    for x, y in points[1:]:
        path.lineTo(x * mm, y * mm)
    if closed:
        path.close()
    return path
