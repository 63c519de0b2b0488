"""A grid of `columns` x `rows` cells: square cells filling a box, or hexagons (flat-topped or
pointy-topped) edge to edge, centred in it. Ids are a column letter and a row number from the
bottom left ("a1"), as on a chess board; a hex grid's columns (flat) or rows (pointy) are
offset as in Red Blob Games' "Hexagonal Grids" (redblobgames.com/grids/hexagons), counted from 0:
`offset: odd` shoves the odd ones (b, d ... or 2, 4 ...) half a cell on, `even` the even ones.
Every cell knows its neighbours (the four beside a square, the six round a hex) and its corners."""
from __future__ import annotations

import difflib
import math
import re
import string

from . import ShapeLayout, ShapeType, Space
from .track import space_size, spread


SQRT3 = math.sqrt(3)
# axial directions (q, r) of a hex's six neighbours
AXIAL_STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def cell_id(column: int, row: int) -> str:
    return f"{string.ascii_lowercase[column]}{row + 1}"


def shoved(line: int, offset: str) -> bool:
    """Whether column (flat) or row (pointy) `line`, counted from 0, sits half a cell on."""
    return line % 2 == (1 if offset == "odd" else 0)


def to_axial(column: int, row: int, orientation: str, offset: str) -> tuple[int, int]:
    """Offset coordinates to axial (q, r): odd-q / even-q for flat hexes, odd-r / even-r for
    pointy ones."""
    parity = 1 if offset == "odd" else -1
    if orientation == "flat":
        return column, row - (column - parity * (column & 1)) // 2
    return column - (row - parity * (row & 1)) // 2, row


def from_axial(q: int, r: int, orientation: str, offset: str) -> tuple[int, int]:
    parity = 1 if offset == "odd" else -1
    if orientation == "flat":
        return q, r + (q - parity * (q & 1)) // 2
    return q + (r - parity * (r & 1)) // 2, r


def hex_corners(centre: tuple[float, float], side: float, orientation: str) -> tuple[tuple[float, float], ...]:
    """Corner i at 60° x i from the centre (flat-topped), or 60° x i - 30° (pointy-topped),
    counter-clockwise from the right."""
    turn = 0 if orientation == "flat" else -30
    return tuple((centre[0] + side * math.cos(math.radians(60 * i + turn)),
                  centre[1] + side * math.sin(math.radians(60 * i + turn))) for i in range(6))


def hex_neighbours(column: int, row: int, columns: int, rows: int, orientation: str, offset: str) -> tuple[str, ...]:
    q, r = to_axial(column, row, orientation, offset)
    found = []
    for dq, dr in AXIAL_STEPS:
        c, w = from_axial(q + dq, r + dr, orientation, offset)
        if 0 <= c < columns and 0 <= w < rows:
            found.append(cell_id(c, w))
    return tuple(found)


def square_neighbours(column: int, row: int, columns: int, rows: int) -> tuple[str, ...]:
    return tuple(cell_id(c, r) for c, r in ((column + 1, row), (column, row + 1), (column - 1, row), (column, row - 1))
                 if 0 <= c < columns and 0 <= r < rows)


def nearest_id(name: str, ids: list[str], columns: int, rows: int) -> str | None:
    """The id a mistyped one most likely meant: the closest spelling, else the cell at the
    edge of the grid nearest a cell outside it ("f2" on a grid of columns a-e: "e2")."""
    close = difflib.get_close_matches(name, ids, n=1)
    if close:
        return close[0]
    found = re.fullmatch(r"([a-z])([0-9]+)", name)
    if not found:
        return None
    column = min(string.ascii_lowercase.index(found[1]), columns - 1)
    return cell_id(column, min(max(int(found[2]), 1), rows) - 1)


def unknown_cells(spec: dict, ids: list[str]) -> list[tuple[tuple[str, str], str]]:
    """A fill or label for a cell the grid does not have, with the nearest id it has."""
    problems = []
    known = set(ids)
    for key in ("fills", "labels"):
        for name in spec.get(key) or {}:
            if str(name) not in known:
                close = [nearest] if (nearest := nearest_id(str(name), ids, spec["columns"], spec["rows"])) else []
                problems.append(((key, name), f"no cell '{name}' in this {spec['columns']} x {spec['rows']} grid"
                                 + (f", did you mean '{close[0]}'?" if close else "")))
    return problems


class Grid(ShapeType):
    name = "grid"
    required = ("box", "columns", "rows")
    properties = {
        "box": {"$ref": "layouts#/$defs/box"},
        "columns": {"type": "integer", "minimum": 1, "maximum": 26},
        "rows": {"type": "integer", "minimum": 1, "maximum": 100},
        "cells": {"enum": ["square", "hex"]},
        # hex cells: which way up, which lines are shoved, and the length of a side
        "orientation": {"enum": ["flat", "pointy"]},
        "offset": {"enum": ["odd", "even"]},
        "side_mm": {"type": "number", "exclusiveMinimum": 0, "maximum": 500},
        # each cell's id printed at its top, in points
        "coordinates": {"type": "boolean"},
        "coordinate_size": {"type": "number", "minimum": 2, "maximum": 100},
        # per cell (by id): its fill, and a translatable label in its middle
        "fills": {"type": "object", "maxProperties": 2600, "additionalProperties": {"$ref": "layouts#/$defs/colour_ref"}},
        "labels": {"type": "object", "maxProperties": 2600, "additionalProperties": {"$ref": "common#/$defs/text"}},
    }

    def lay_out(self, spec, board_mm):
        if spec.get("cells", "square") == "hex":
            return self._hexes(spec)
        x, y, w, h = spec["box"]
        cell_w, cell_h = space_size(spec.get("space", {}))
        problems = [(key, f"{key} is for hex cells (cells: hex)") for key in ("orientation", "offset", "side_mm")
                    if key in spec]
        if spec["columns"] * cell_w > w + 1e-6 or spec["rows"] * cell_h > h + 1e-6:
            problems.append(("space", f"{spec['columns']} x {spec['rows']} spaces of {cell_w:g} x {cell_h:g} mm "
                                      f"do not fit the {w:g} x {h:g} mm box"))
        columns, rows = spread(spec["columns"], x, w, cell_w), spread(spec["rows"], y, h, cell_h)
        spaces = tuple(Space(cell_id(c, r), (left + cell_w / 2, bottom + cell_h / 2),
                             number=r * spec["columns"] + c + 1, index=r * spec["columns"] + c + 1,
                             neighbours=square_neighbours(c, r, spec["columns"], spec["rows"]))
                       for r, bottom in enumerate(rows) for c, left in enumerate(columns))
        problems += unknown_cells(spec, [space.id for space in spaces])
        return ShapeLayout(spaces, problems=tuple(problems))

    def _hexes(self, spec):
        orientation, offset = spec.get("orientation", "flat"), spec.get("offset", "odd")
        side, columns, rows = spec.get("side_mm", 10.0), spec["columns"], spec["rows"]
        problems = [("space", f"a hex cell's size is its side_mm, not the space's {key}")
                    for key in ("form", "size_mm", "diameter_mm") if key in spec.get("space", {})]
        centres = {}
        for row in range(rows):
            for column in range(columns):
                if orientation == "flat":
                    centres[column, row] = (1.5 * side * column,
                                            SQRT3 * side * (row + (0.5 if shoved(column, offset) else 0)))
                else:
                    centres[column, row] = (SQRT3 * side * (column + (0.5 if shoved(row, offset) else 0)),
                                            1.5 * side * row)
        corners = [p for centre in centres.values() for p in hex_corners(centre, side, orientation)]
        left, right = min(p[0] for p in corners), max(p[0] for p in corners)
        bottom, top = min(p[1] for p in corners), max(p[1] for p in corners)
        x, y, w, h = spec["box"]
        if right - left > w + 1e-6 or top - bottom > h + 1e-6:
            problems.append(("side_mm", f"{columns} x {rows} hexes of {side:g} mm sides make a "
                                        f"{right - left:.1f} x {top - bottom:.1f} mm grid that does not fit "
                                        f"the {w:g} x {h:g} mm box"))
        # centred in the box
        dx, dy = x + (w - (right - left)) / 2 - left, y + (h - (top - bottom)) / 2 - bottom
        spaces = []
        for (column, row), (cx, cy) in centres.items():
            centre = (cx + dx, cy + dy)
            number = row * columns + column + 1
            spaces.append(Space(cell_id(column, row), centre, number=number, index=number,
                                neighbours=hex_neighbours(column, row, columns, rows, orientation, offset),
                                corners=hex_corners(centre, side, orientation)))
        problems += unknown_cells(spec, [space.id for space in spaces])
        return ShapeLayout(tuple(spaces), problems=tuple(problems))


SHAPE = Grid()
