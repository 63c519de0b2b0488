"""A linear track: numbered spaces in rows inside a box, every other row running back (a snake),
with an optional START space before the first and a finish space after the last."""
from __future__ import annotations

import math

from . import ShapeLayout, ShapeType, Space


def space_size(style: dict) -> tuple[float, float]:
    if style.get("form", "rect") == "circle":
        diameter = style.get("diameter_mm", 10.0)
        return (diameter, diameter)
    return tuple(style.get("size_mm", (10.0, 10.0)))


def spread(count: int, start: float, length: float, size: float) -> list[float]:
    """Where `count` cells of `size` start along `length`: the ends flush, equal gaps between
    (a single cell is centred)."""
    if count == 1:
        return [start + (length - size) / 2]
    gap = (length - count * size) / (count - 1)
    return [start + i * (size + gap) for i in range(count)]


class Track(ShapeType):
    name = "track"
    numbered = True
    required = ("box", "spaces")
    properties = {
        "box": {"$ref": "layouts#/$defs/box"},
        "spaces": {"type": "integer", "minimum": 1, "maximum": 500},
        "row_length": {"type": "integer", "minimum": 1, "maximum": 100},
        "start": {"$ref": "common#/$defs/text"},
        "finish": {"$ref": "common#/$defs/text"},
        # the style of the START and finish spaces, over `space`
        "ends": {"$ref": "shapes#/$defs/style"},
    }

    def lay_out(self, spec, board_mm):
        cells = ([Space("start", (0, 0), text_key="start", part="ends")] if "start" in spec else [])
        cells += [Space(str(n), (0, 0), number=n, index=n) for n in range(1, spec["spaces"] + 1)]
        if "finish" in spec:
            cells.append(Space("finish", (0, 0), text_key="finish", part="ends"))
        per_row = min(spec.get("row_length", len(cells)), len(cells))
        rows = math.ceil(len(cells) / per_row)
        x, y, w, h = spec["box"]
        cell_w, cell_h = space_size(spec.get("space", {}))
        problems = []
        if per_row * cell_w > w + 1e-6:
            problems.append(("space", f"{per_row} spaces of {cell_w:g} mm do not fit a row of the {w:g} mm box"))
        if rows * cell_h > h + 1e-6:
            problems.append(("space", f"{rows} rows of {cell_h:g} mm do not fit the {h:g} mm box"))
        columns, lines = spread(per_row, x, w, cell_w), spread(rows, y, h, cell_h)
        placed = []
        for index, cell in enumerate(cells):
            row, column = divmod(index, per_row)
            if row % 2:
                column = per_row - 1 - column         # every other row runs back
            centre = (columns[column] + cell_w / 2, lines[row] + cell_h / 2)
            placed.append(Space(cell.id, centre, cell.number, cell.text_key, cell.part, index=cell.index))
        links = tuple((a.id, b.id) for a, b in zip(placed, placed[1:]))
        return ShapeLayout(tuple(placed), links, problems=tuple(problems))


SHAPE = Track()
