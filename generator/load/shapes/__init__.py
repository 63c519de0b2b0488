"""Board shapes, one module each: a shape (a track, a closed loop, a grid) turns a few declared
numbers into spaces with ids and the links between them, which rules modules can use.
generator/layout/boards.py makes the spaces, links and marks into elements that the element
modules fit and draw, over the board's own face.
A new shape is a new module here; nothing else lists the shapes.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Space:
    """One space of a board: its id (what a rules module names it by), its centre in mm from the
    board's bottom-left corner, its number within its shape (0: none printed) or its text's key,
    and the style overrides that apply to it (a start area, a branch, an end of a track)."""

    id: str
    centre: tuple[float, float]
    number: int = 0
    text_key: str = ""                  # a translatable key of the shape: start, finish ...
    part: str = ""                      # the style part it takes: "", ends, start_area, branch
    side: int = 0                       # the side of a loop it belongs to (1 ...), 0 elsewhere
    index: int = 0                      # its position along its side or track, for marks
    outward: tuple[float, float] = (0.0, 1.0)   # where a note beside it goes: away from the play
    neighbours: tuple[str, ...] = ()    # the ids of the spaces beside it (a grid's cells)
    corners: tuple[tuple[float, float], ...] = ()   # its outline when not a circle or rectangle (a hex)


@dataclass(frozen=True)
class ShapeLayout:
    """What a shape laid out: its spaces in path order, the links to draw (pairs of space ids),
    strips to draw under them (closed polygons with their side), and what went wrong as
    (key within the shape, message); a key further in is a tuple (("fills", "z9"))."""

    spaces: tuple[Space, ...]
    links: tuple[tuple[str, str], ...] = ()
    strips: tuple[tuple[int, tuple[tuple[float, float], ...]], ...] = ()
    problems: tuple[tuple[str, str], ...] = field(default=())


class ShapeType:
    """The interface of a board shape. `properties` and `required` are its JSON schema; the
    keys every shape shares (space style, marks, links, caption) are added for every shape."""

    name = ""
    properties: dict = {}
    required: tuple[str, ...] = ()
    numbered = False            # whether its spaces print their numbers unless the style says

    def lay_out(self, spec: dict, board_mm: tuple[float, float]) -> ShapeLayout:
        raise NotImplementedError


SHAPES: dict[str, ShapeType] = {}
for _module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if _module.name not in ("layout",):
        _shape = importlib.import_module(f"{__name__}.{_module.name}").SHAPE
        SHAPES[_shape.name] = _shape

STYLE = {
    "type": "object", "additionalProperties": False,
    "properties": {
        "form": {"enum": ["circle", "rect"]},
        "size_mm": {"$ref": "common#/$defs/mm_pair"},
        "diameter_mm": {"type": "number", "exclusiveMinimum": 0, "maximum": 500},
        "radius": {"type": "number", "minimum": 0, "maximum": 100},
        "fill": {"$ref": "layouts#/$defs/colour_ref"},
        "stroke": {"$ref": "layouts#/$defs/colour_ref"},
        "stroke_width": {"type": "number", "minimum": 0, "maximum": 50},
        "text_colour": {"$ref": "layouts#/$defs/colour_ref"},
        "font": {"type": "string", "maxLength": 32},
        "text_size": {"type": "number", "minimum": 2, "maximum": 200},
        "min_size": {"type": "number", "minimum": 2, "maximum": 200},
        "numbered": {"type": "boolean"},
    },
}

MARK = {
    "type": "object", "additionalProperties": False, "required": ["at"],
    "properties": {
        # the space's number within the shape (on a loop: within every side)
        "at": {"type": "integer", "minimum": 1, "maximum": 10000},
        "fill": {"$ref": "layouts#/$defs/colour_ref"},
        "stroke": {"$ref": "layouts#/$defs/colour_ref"},
        "text_colour": {"$ref": "layouts#/$defs/colour_ref"},
        "ring": {"type": "boolean"},
        "ring_colour": {"$ref": "layouts#/$defs/colour_ref"},
        "note": {"$ref": "common#/$defs/text"},
        # the note's colour: by default the mark's fill, ring colour or the space's outline
        "note_colour": {"$ref": "layouts#/$defs/colour_ref"},
        "note_size": {"type": "number", "minimum": 2, "maximum": 100},
        # what the booklet's picture of the board calls this space
        "callout": {"$ref": "common#/$defs/text"},
    },
}


def schema() -> dict:
    """The `shapes` JSON schema: one `shape` that is exactly one of the registered shapes."""
    shared = {
        "shape": True,
        "space": STYLE,
        "marks": {"type": "object", "maxProperties": 50, "propertyNames": {"pattern": "^[a-z][a-z0-9_]*$"},
                  "additionalProperties": MARK},
        "links": {"type": "object", "additionalProperties": False, "properties": {
            "stroke": {"$ref": "layouts#/$defs/colour_ref"},
            "width_mm": {"type": "number", "exclusiveMinimum": 0, "maximum": 20},
            "arrow_mm": {"type": "number", "exclusiveMinimum": 0, "maximum": 100}}},
        # a caption beside the shape ("Clock"): its text, where it starts and its size
        "label": {"$ref": "common#/$defs/text"},
        "label_at": {"$ref": "layouts#/$defs/point"},
        "label_size": {"type": "number", "minimum": 2, "maximum": 200},
        "label_colour": {"$ref": "layouts#/$defs/colour_ref"},
        # what the booklet's picture of the board calls the shape's path (and how play runs on it)
        "callout": {"$ref": "common#/$defs/text"},
    }
    branches = []
    for name, kind in sorted(SHAPES.items()):
        then = {"additionalProperties": False, "required": list(kind.required),
                "properties": {**shared, **kind.properties}}
        branches.append({"if": {"properties": {"shape": {"const": name}}}, "then": then})
    return {"$id": "shapes", "$defs": {"style": STYLE, "shape": {
        "type": "object", "required": ["shape"],
        "properties": {"shape": {"enum": sorted(SHAPES)}}, "allOf": branches}}}


def shape_type(spec: dict) -> ShapeType:
    return SHAPES[spec["shape"]]


__all__ = ["SHAPES", "STYLE", "ShapeLayout", "ShapeType", "Space", "schema", "shape_type"]
