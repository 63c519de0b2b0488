"""A board laid out: its face from layouts.yaml (background, title ...) and, over it, every
declared shape's strips, links, spaces, marks and captions as elements, fitted once. Renderers
draw the result; validation reads its problems; rules modules read its spaces by id."""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from ..load.shapes import Space, shape_type
from ..load.shapes.track import space_size
from .elements import Placed, element_type
from .inline_icons import icons_in_use
from .placed import PlacedFace, contrast_of, icon_table


RING_GAP_MM = 1.6          # a ring mark stands this far outside its space
LINK_CLEARANCE_MM = 2.0    # an arrow starts and stops this far from the spaces it joins


@dataclass(frozen=True)
class Callout:
    """A part of a board the booklet's picture names: its text in the locale, the space it
    points at, how large that space is (mm), and whether the mark sits beside the space (a
    single marked space) or on it (one of a row: a path, a start area, a branch)."""

    text: str
    space: Space
    size_mm: float
    beside: bool
    following: Space | None = None      # the path's next space: the way play runs from it


@dataclass(frozen=True)
class BoardPlan:
    """A board ready to draw: the placed face, its spaces by `shape.id`, and its problems as
    (key path of the board file, message)."""

    face: PlacedFace
    spaces: dict[str, Space]
    problems: tuple[tuple[tuple, str], ...]
    # the parts the data names for the booklet's picture, in the order written
    callouts: tuple[Callout, ...] = ()

    @property
    def size_mm(self) -> tuple[float, float]:
        return self.face.size_mm


@dataclass(frozen=True)
class BoardFace:
    """A board laid out, named for its pages."""

    key: str
    name: str
    plan: BoardPlan

    @property
    def size_mm(self) -> tuple[float, float]:
        return self.plan.size_mm


def merged_spec(design: dict, board: dict) -> tuple[dict, dict[str, tuple]]:
    """The board's own settings over the shared design, and where each shape is written
    (a shape a board names is wholly its own: a shape's keys depend on each other)."""
    spec = {key: board.get(key, design.get(key)) for key in ("size_mm", "layout") if key in board or key in design}
    shapes, roots = {}, {}
    for name, shape in (design.get("shapes") or {}).items():
        shapes[name], roots[name] = shape, ("design", "shapes", name)
    return {**spec, "shapes": shapes}, roots


def board_shapes(design: dict, board_id: str, board: dict) -> tuple[dict, dict[str, tuple]]:
    spec, roots = merged_spec(design, board)
    for name, shape in (board.get("shapes") or {}).items():
        base = spec["shapes"].get(name, {})
        spec["shapes"][name] = {**base, **shape}
        roots[name] = ("boards", board_id, "shapes", name)
    return spec, roots


def _style(spec: dict, space: Space) -> dict:
    style = {**spec.get("space", {})}
    if space.part == "ends":
        style.update(spec.get("ends", {}))
    elif space.part:
        style.update(spec[space.part].get("style", {}))
    return style


def _marks_of(spec: dict, space: Space) -> list[tuple[str, dict]]:
    if space.part:
        return []
    return [(name, mark) for name, mark in (spec.get("marks") or {}).items() if mark["at"] == space.index]


def _side_colour(value, spec: dict, side: int):
    """`{side}` is the colour of the space's side of a loop, `{side_ink}` the colour that
    stands out on it (`side_inks`)."""
    for reference, key in (("{side}", "side_colours"), ("{side_ink}", "side_inks")):
        colours = spec.get(key) or []
        if value == reference:
            return colours[(side - 1) % len(colours)] if colours and side else "#000000"
    return value


def _half_width(space: Space, w: float, y: float) -> float:
    """How far the space reaches left and right of its centre at `y` mm above or below it:
    a hex narrows towards its corners (pointy) or its top and bottom (flat)."""
    if not space.corners:
        return w / 2
    side = math.dist(space.corners[0], space.corners[1])
    flat = abs(space.corners[0][1] - space.centre[1]) < 1e-9
    if flat:
        return max(side - abs(y) / math.sqrt(3), 0.0)
    return math.sqrt(3) * side / 2 if abs(y) <= side / 2 else max((side - abs(y)) * math.sqrt(3), 0.0)


def _cell_texts(space: Space, style: dict, w: float, h: float, label_field: str | None,
                coordinate_field: str | None, coordinate_size: float) -> list[dict]:
    """A grid cell's id at its top and its label (or number) in the rest, each box as wide as
    the cell is at that box's top and bottom, 1 mm in."""
    cx, cy = space.centre
    top = max(y for _, y in space.corners) - cy if space.corners else h / 2
    pointy = bool(space.corners) and abs(space.corners[0][1] - cy) > 1e-9
    elements = []
    label_top = top * 0.55
    colour = style.get("text_colour", "#000000")
    if coordinate_field:
        band_top = top * (0.72 if pointy else 0.9)
        band_h = coordinate_size * 25.4 / 72 * 1.3
        half = min(_half_width(space, w, band_top), _half_width(space, w, band_top - band_h)) - 1
        elements.append({"type": "text", "field": coordinate_field,
                         "box": [cx - half, cy + band_top - band_h, 2 * half, band_h], "font": "regular",
                         "size": coordinate_size, "min_size": coordinate_size, "colour": colour, "align": "center"})
        label_top = min(label_top, band_top - band_h - 0.5)
    if label_field:
        bottom = -top * 0.55
        half = min(_half_width(space, w, label_top), _half_width(space, w, bottom)) - 1
        size = style.get("text_size", 12)
        elements.append({"type": "text", "field": label_field, "box": [cx - half, cy + bottom, 2 * half, label_top - bottom],
                         "font": style.get("font", "bold"), "size": size, "min_size": style.get("min_size", size),
                         "colour": colour, "align": "center"})
    return elements


def _space_elements(name: str, spec: dict, space: Space, style: dict, text_field: str | None,
                    neighbour_mm: float, coordinate_field: str | None = None) -> tuple[list, list]:
    """The space's own elements, and its marks' rings and notes (drawn after every space).
    A grid's cell may have its own fill, a label (`text_field`) and its id printed."""
    w, h = space_size(style)
    if space.corners:           # a hex: as wide and high as its corners reach
        xs, ys = [x for x, _ in space.corners], [y for _, y in space.corners]
        w, h = max(xs) - min(xs), max(ys) - min(ys)
    cx, cy = space.centre
    fill = style.get("fill", "#FFFFFF")
    stroke = style.get("stroke", "#000000")
    text_colour = style.get("text_colour", "#000000")
    marks = _marks_of(spec, space)
    # where the space's colours are set, for a problem with them: its style, or the mark that
    # sets them over it
    source = {"": ("space",), "ends": ("ends",)}.get(space.part, (space.part, "style"))
    for mark_name, mark in marks:
        fill = mark.get("fill", fill)
        stroke = mark.get("stroke", stroke)
        text_colour = mark.get("text_colour", text_colour)
        if {"fill", "stroke"} & set(mark):
            source = ("marks", mark_name)
    if space.id in (spec.get("fills") or {}):
        fill, source = spec["fills"][space.id], ("fills", space.id)
    fill, stroke, text_colour = (_side_colour(v, spec, space.side) for v in (fill, stroke, text_colour))
    width = style.get("stroke_width", 0.5)
    if space.corners:
        own = [{"type": "shape", "points": [list(p) for p in space.corners], "closed": True, "fill": fill,
                "stroke": stroke, "stroke_width": width, "mark": ".".join((name,) + source)}]
    elif style.get("form", "rect") == "circle":
        own = [{"type": "circle", "centre": [cx, cy], "radius": w / 2, "fill": fill, "stroke": stroke,
                "stroke_width": width, "mark": ".".join((name,) + source)}]
        pad = w * 0.12
    else:
        own = [{"type": "rect", "box": [cx - w / 2, cy - h / 2, w, h], "fill": fill, "stroke": stroke,
                "stroke_width": width, "radius": style.get("radius", 0), "mark": ".".join((name,) + source)}]
        pad = 2.0
    # a grid's cell: its id at the top, its label below; any other space: its text in the middle
    if space.corners or coordinate_field or space.id in (spec.get("labels") or {}):
        own += _cell_texts(space, {**style, "text_colour": text_colour}, w, h, text_field, coordinate_field,
                           spec.get("coordinate_size", 6))
    elif text_field:
        size = style.get("text_size", 12)
        own.append({"type": "text", "field": text_field, "box": [cx - w / 2 + pad, cy - h / 2 + pad, w - 2 * pad, h - 2 * pad],
                    "font": style.get("font", "bold"), "size": size, "min_size": style.get("min_size", size),
                    "colour": text_colour, "align": "center"})
    after = []
    for mark_name, mark in marks:
        if mark.get("ring"):
            after.append({"type": "circle", "centre": [cx, cy], "radius": max(w, h) / 2 + RING_GAP_MM, "fill": "none",
                          "stroke": _side_colour(mark.get("ring_colour", stroke), spec, space.side),
                          "stroke_width": 0.5,
                          "mark": f"{name}.marks.{mark_name}." + ("ring_colour" if "ring_colour" in mark else "ring")})
        if "note" in mark:
            note_w = max(2 * neighbour_mm - w - 1, w)
            size = mark.get("note_size", 9)
            note_colour = mark.get("note_colour") or mark.get("fill") or mark.get("ring_colour") or stroke
            # beside the space, away from the play: above a track, outside a loop
            ox, oy = space.outward
            # clear of the space and of its side's strip, then half the note's box further out
            edge = max(max(w, h), spec.get("band_mm", 0)) / 2 + 1
            reach = edge + abs(ox) * note_w / 2 + abs(oy) * 4
            nx, ny = cx + ox * reach, cy + oy * reach
            after.append({"type": "text", "field": f"{name}.marks.{mark_name}.note",
                          "box": [nx - note_w / 2, ny - 4, note_w, 8], "font": "bold", "size": size,
                          "min_size": min(6, size), "colour": _side_colour(note_colour, spec, space.side),
                          "align": "center"})
    return own, after


def _link(a: Space, b: Space, spec: dict, sizes: dict) -> dict:
    links = spec["links"]
    (ax, ay), (bx, by) = a.centre, b.centre
    length = math.hypot(bx - ax, by - ay) or 1.0
    ux, uy = (bx - ax) / length, (by - ay) / length
    element = {"type": "shape", "stroke": links.get("stroke", "#000000"), "stroke_width": links.get("width_mm", 0.5)}
    if "arrow_mm" not in links:
        return {**element, "points": [[ax, ay], [bx, by]]}

    def reach(space: Space) -> float:
        """From the centre to the space's edge along the link, and a little more."""
        w, h = sizes[space.id]
        if w == h and _style(spec, space).get("form", "rect") == "circle":
            return w / 2 + LINK_CLEARANCE_MM
        return min(w / 2 / abs(ux) if ux else math.inf, h / 2 / abs(uy) if uy else math.inf) + LINK_CLEARANCE_MM

    start, end = reach(a), reach(b)
    return {**element, "points": [[ax + ux * start, ay + uy * start], [bx - ux * end, by - uy * end]],
            "arrow": "end", "arrow_mm": links["arrow_mm"]}


def _caption(name: str, spec: dict, board_mm) -> dict:
    x, y = spec.get("label_at", (0, 0))
    size = spec.get("label_size", 13)
    return {"type": "text", "field": f"{name}.label", "box": [x, y, max(board_mm[0] - x - 5, 10), size * 0.5],
            "font": "bold", "size": size, "min_size": min(size, 8),
            "colour": spec.get("label_colour", spec.get("space", {}).get("stroke", "#000000")), "align": "left"}


def _at(node, key: tuple):
    for part in key:
        node = node[part]
    return node


def _callouts(shape: dict, spaces, text) -> list[Callout]:
    """The callouts a shape's data asks for, each at a space of its first side (a loop's side 1,
    a track's only one): the path at its middle plain space, a start area or a branch at its
    middle space, a mark beside its space. `text(*key)` is the callout's text in the locale."""
    first = [space for space in spaces if space.side in (0, 1)]
    found = []

    def add(key: tuple, members: list, beside: bool):
        if members:
            space = members[len(members) // 2]
            following = next((s for s in first if not s.part and s.index == space.index + 1), None) \
                if key == ("callout",) else None
            found.append(Callout(text(*key), space, max(space_size(_style(shape, space))), beside, following))

    marked = {mark["at"] for mark in (shape.get("marks") or {}).values()}
    if "callout" in shape:          # on a plain space, clear of the marks' own callouts
        add(("callout",), [s for s in first if not s.part and s.index not in marked], False)
    for part in ("start_area", "branch"):
        if "callout" in (shape.get(part) or {}):
            add((part, "callout"), [s for s in first if s.part == part], False)
    for mark_name, mark in (shape.get("marks") or {}).items():
        if "callout" in mark:
            add(("marks", mark_name, "callout"), [s for s in first if not s.part and s.index == mark["at"]][:1], True)
    return found


def nearest_distances(centres: list[tuple[float, float]]) -> list[float]:
    """For each centre, how far the nearest centre at another point is (0.0 when none is):
    the least math.dist over every other centre, found by sweeping them in x order and
    stopping where the x distance alone is more than the nearest found so far."""
    order = sorted(range(len(centres)), key=lambda i: centres[i][0])
    rank = {index: position for position, index in enumerate(order)}
    found = []
    for index, centre in enumerate(centres):
        best = math.inf
        for step in (-1, 1):
            position = rank[index] + step
            while 0 <= position < len(order):
                other = centres[order[position]]
                if abs(centre[0] - other[0]) > best:
                    break
                if other != centre:
                    best = min(best, math.dist(centre, other))
                position += step
        found.append(0.0 if best == math.inf else best)
    return found


def lay_out_board(design: dict, board_id: str, board: dict, layouts: dict, values: dict, text,
                  folder: Path | None = None, icons: dict | None = None) -> BoardPlan:
    """`text(path, source)` gives a shape's text in the board's locale; `values` are the
    board's own (name, colours, the game's title) for its face."""
    spec, roots = board_shapes(design, board_id, board)
    size = tuple(spec.get("size_mm") or (0, 0))
    problems: list[tuple[tuple, str]] = []
    face = layouts.get(spec.get("layout", ""))
    elements = list(face["elements"]) if face else []
    values = {**(face or {}).get("defaults", {}), **values}
    located: dict[str, tuple] = {}          # element field -> key path of its text
    where_of = {}                           # shape name -> where(*key) of that shape
    spaces: dict[str, Space] = {}
    below, middle, above = [], [], []
    callouts: list[Callout] = []
    for name, shape in spec["shapes"].items():
        own = (board.get("shapes") or {}).get(name) or {}

        def where(*key, name=name, own=own) -> tuple:
            """The key path a shape's key is written at: the board's own keys, else the design's
            (so a text shared by every board is translated once)."""
            return (roots[name] if key[0] in own or name not in (design.get("shapes") or {})
                    else ("design", "shapes", name)) + key

        where_of[name] = where
        laid = shape_type(shape).lay_out(shape, size)
        problems += [(where(*key) if isinstance(key, tuple) else where(key), message) for key, message in laid.problems]
        by_id = {space.id: space for space in laid.spaces}
        spaces.update({f"{name}.{space.id}": space for space in laid.spaces})
        for side, points in laid.strips:
            below.append({"type": "shape", "points": [list(p) for p in points], "closed": True, "stroke": "none",
                          "fill": _side_colour("{side}", shape, side)})
        sizes = {space.id: space_size(_style(shape, space)) for space in laid.spaces}
        if "links" in shape:
            below += [_link(by_id[a], by_id[b], shape, sizes) for a, b in laid.links]
        nearest_each = nearest_distances([space.centre for space in laid.spaces])
        for space, nearest in zip(laid.spaces, nearest_each):
            style = _style(shape, space)
            field = None
            if space.text_key:
                field = f"{name}.{space.text_key}"
                values[field] = text(where(space.text_key), shape[space.text_key])
                located[field] = where(space.text_key)
            elif space.id in (shape.get("labels") or {}):
                field = f"{name}.labels.{space.id}"
                values[field] = text(where("labels", space.id), shape["labels"][space.id])
                located[field] = where("labels", space.id)
            elif space.number and style.get("numbered", shape_type(shape).numbered):
                field = f"{name}.{space.id}.number"
                values[field] = str(space.number)
                located[field] = where("space")
            coordinate = None
            if shape.get("coordinates"):
                coordinate = f"{name}.{space.id}.coordinates"
                values[coordinate] = space.id
                located[coordinate] = where("coordinate_size" if "coordinate_size" in shape else "coordinates")
            own, after = _space_elements(name, shape, space, style, field, nearest, coordinate)
            middle += own
            above += after
        for mark_name, mark in (shape.get("marks") or {}).items():
            if "note" in mark:
                field = f"{name}.marks.{mark_name}.note"
                values[field] = text(where("marks", mark_name, "note"), mark["note"])
                located[field] = where("marks", mark_name, "note")
        callouts += _callouts(shape, laid.spaces, lambda *key, where=where, shape=shape: text(where(*key), _at(shape, key)))
        if "label" in shape:
            values[f"{name}.label"] = text(where("label"), shape["label"])
            located[f"{name}.label"] = where("label")
            above.append(_caption(name, shape, size))
    elements += below + middle + above
    # its texts (spaces, notes, labels) may hold the `icons` its game declares
    with icons_in_use(icon_table(icons, folder) if icons else None):
        placed = tuple(element_type(e).place(e, values, folder) for e in elements)
    for element in placed:
        for field, message in element.problems:
            problems.append((located.get(field, ("boards", board_id, field)), message))
    face = PlacedFace(size, values, placed)
    for element, field, message in contrast_of(face):
        fills_of = {name: shape.get("fills") or {} for name, shape in spec["shapes"].items()}
        problems.append((_colour_source(element.spec, field, located, where_of, board_id, fills_of), message))
    return BoardPlan(face, spaces, tuple(dict.fromkeys(problems)), tuple(callouts))


def _colour_source(spec: dict, field: str, located: dict, where_of: dict, board_id: str,
                   fills_of: dict) -> tuple:
    """The key path that sets the colour of a board's text or mark: the shape's key a space or
    ring is drawn from, the mark a note belongs to, or else the board's face layout's element."""
    shape, _, rest = field.partition(".")
    if spec.get("mark") and shape in where_of:
        return where_of[shape](*rest.split("."))
    if field in located and shape in where_of and ".marks." in f".{rest}":
        mark = rest.split(".")[1]
        return where_of[shape]("marks", mark, "note_colour")
    if field in located and shape in where_of and rest.startswith("labels.") and rest[7:] in fills_of.get(shape, {}):
        return where_of[shape]("fills", rest[7:])
    if field in located and shape in where_of:
        return where_of[shape]("label_colour" if rest == "label" else "space")
    return ("boards", board_id, "layout")


__all__ = ["BoardFace", "BoardPlan", "Placed", "board_shapes", "lay_out_board"]
