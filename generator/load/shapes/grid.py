"""A grid of `columns` x `rows` spaces filling a box; ids are a column letter and a row number
from the bottom left ("a1"), as on a chess board."""
from __future__ import annotations

import string

from . import ShapeLayout, ShapeType, Space
from .track import space_size, spread


class Grid(ShapeType):
    name = "grid"
    required = ("box", "columns", "rows")
    properties = {
        "box": {"$ref": "layouts#/$defs/box"},
        "columns": {"type": "integer", "minimum": 1, "maximum": 26},
        "rows": {"type": "integer", "minimum": 1, "maximum": 100},
    }

    def lay_out(self, spec, board_mm):
        x, y, w, h = spec["box"]
        cell_w, cell_h = space_size(spec.get("space", {}))
        problems = []
        if spec["columns"] * cell_w > w + 1e-6 or spec["rows"] * cell_h > h + 1e-6:
            problems.append(("space", f"{spec['columns']} x {spec['rows']} spaces of {cell_w:g} x {cell_h:g} mm "
                                      f"do not fit the {w:g} x {h:g} mm box"))
        columns, rows = spread(spec["columns"], x, w, cell_w), spread(spec["rows"], y, h, cell_h)
        spaces = tuple(Space(f"{string.ascii_lowercase[c]}{r + 1}", (left + cell_w / 2, bottom + cell_h / 2),
                             number=r * spec["columns"] + c + 1, index=r * spec["columns"] + c + 1)
                       for r, bottom in enumerate(rows) for c, left in enumerate(columns))
        return ShapeLayout(spaces, problems=tuple(problems))


SHAPE = Grid()
