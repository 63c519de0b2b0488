"""How each element type of a face is drawn, one module each, named as the module of
generator/layout/elements that places it: the type it draws (ELEMENT_TYPE) and its
`draw(canvas, placed, values, context)`. Drawing reads what placing decided (text's lines at
their final size, where each goes) and measures nothing again. A new type's drawing is a new
module here; nothing else lists them.
"""
from __future__ import annotations

import importlib
import pkgutil

from ...layout.elements import Placed
from .base import DRAWINGS, DrawContext, Drawing


for _module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if _module.name != "base":
        _drawing = importlib.import_module(f"{__name__}.{_module.name}")
        DRAWINGS[_drawing.ELEMENT_TYPE] = _drawing.draw


def drawing_of(placed: Placed) -> Drawing:
    return DRAWINGS[placed.spec["type"]]


__all__ = ["DRAWINGS", "DrawContext", "Drawing", "drawing_of"]
