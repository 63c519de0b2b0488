"""Element types of a face layout, one module each: the keys an element takes (its schema),
the values it reads, how it is placed (text fitted into lines, pictures loaded) and measured,
and what it checks. A new type is a new module here and its drawing a module of the same name
in generator/render/elements; nothing else lists the types.
"""
from __future__ import annotations

import importlib
import pkgutil

from .base import ELEMENTS, ElementType, Placed, rotated_box


for _module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if _module.name != "base":
        _element = importlib.import_module(f"{__name__}.{_module.name}").ELEMENT
        ELEMENTS[_element.name] = _element


def element_type(element: dict) -> ElementType:
    return ELEMENTS[element["type"]]


def schema() -> dict:
    """The `elements` JSON schema: one `element` that is exactly one of the registered types."""
    branches = []
    for name, kind in sorted(ELEMENTS.items()):
        then = {"additionalProperties": False, "required": list(kind.required),
                "properties": {"type": True, "rotate": {"type": "number", "minimum": -360, "maximum": 360},
                               **kind.properties}}
        then.update(kind.extra_schema)
        branches.append({"if": {"properties": {"type": {"const": name}}}, "then": then})
    return {"$id": "elements", "$defs": {"element": {
        "type": "object", "required": ["type"],
        "properties": {"type": {"enum": sorted(ELEMENTS)}}, "allOf": branches}}}


__all__ = ["ELEMENTS", "ElementType", "Placed", "element_type", "rotated_box", "schema"]
