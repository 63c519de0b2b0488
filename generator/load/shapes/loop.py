"""A closed loop: a regular polygon of `sides` sides with `spaces` spaces along each, space 1 of a
side on its corner. Each side may have a start area (spaces off the track beside one of its
spaces) and a branch (a row of spaces leaving the track at one of its spaces towards the middle).
Side 1 lies along the bottom; play runs clockwise unless told otherwise."""
from __future__ import annotations

import math

from . import ShapeLayout, ShapeType, Space
from .track import space_size


PART = {"type": "object", "additionalProperties": False, "required": ["at", "spaces"],
        "properties": {
            "at": {"type": "integer", "minimum": 1, "maximum": 1000},
            "spaces": {"type": "integer", "minimum": 1, "maximum": 50},
            # how far in from the track the part starts, in pitches
            "inset": {"type": "number", "minimum": 0.5, "maximum": 20},
            "style": {"$ref": "shapes#/$defs/style"},
            # what the booklet's picture of the board calls the part
            "callout": {"$ref": "common#/$defs/text"}}}


def _ring(count: int, pitch: float) -> list[tuple[float, float]]:
    """Offsets (along, in) of a start area: one in the middle and the rest on a ring around it
    far enough apart for a piece on each; fewer than four sit in a row."""
    if count < 4:
        return [((i - (count - 1) / 2) * pitch, 0.0) for i in range(count)]
    around = count - 1
    radius = max(pitch, pitch / (2 * math.sin(math.pi / around)))
    turn = math.pi / around if around % 2 == 0 else math.pi / 2
    return [(0.0, 0.0)] + [(radius * math.cos(turn + 2 * math.pi * i / around),
                            radius * math.sin(turn + 2 * math.pi * i / around)) for i in range(around)]


class Loop(ShapeType):
    name = "loop"
    required = ("sides", "spaces", "pitch_mm")
    properties = {
        "sides": {"type": "integer", "minimum": 3, "maximum": 16},
        "spaces": {"type": "integer", "minimum": 1, "maximum": 200},
        "pitch_mm": {"type": "number", "minimum": 2, "maximum": 200},
        "centre": {"$ref": "layouts#/$defs/point"},
        "direction": {"enum": ["clockwise", "anticlockwise"]},
        # one colour per side: `{side}` in a style means the side's colour
        "side_colours": {"type": "array", "minItems": 1, "maxItems": 16, "items": {"$ref": "common#/$defs/colour"}},
        # one colour per side that stands out on that side's colour: `{side_ink}` in a style
        "side_inks": {"type": "array", "minItems": 1, "maxItems": 16, "items": {"$ref": "common#/$defs/colour"}},
        # a strip in the side's colour under each side's spaces
        "band_mm": {"type": "number", "exclusiveMinimum": 0, "maximum": 200},
        "start_area": PART,
        "branch": PART,
    }

    def lay_out(self, spec, board_mm):
        sides, per_side, pitch = spec["sides"], spec["spaces"], spec["pitch_mm"]
        cx, cy = spec.get("centre", (board_mm[0] / 2, board_mm[1] / 2))
        mirror = spec.get("direction", "clockwise") == "clockwise"
        length = per_side * pitch
        radius = length / (2 * math.sin(math.pi / sides))
        inradius = radius * math.cos(math.pi / sides)
        first = -math.pi / 2 - math.pi / sides
        corners = [(math.cos(first + 2 * math.pi * i / sides), math.sin(first + 2 * math.pi * i / sides))
                   for i in range(sides + 1)]

        def at(x: float, y: float) -> tuple[float, float]:
            """Unit-free polygon coordinates about the centre to the board's millimetres; the
            mirror turns anticlockwise play into clockwise and keeps side 1 at the bottom."""
            return (cx - x if mirror else cx + x, cy + y)

        spaces, links, strips = [], [], []
        for side in range(1, sides + 1):
            (ax, ay), (bx, by) = corners[side - 1], corners[side]
            ax, ay, bx, by = ax * radius, ay * radius, bx * radius, by * radius
            ux, uy = (bx - ax) / length, (by - ay) / length          # along the side
            nx, ny = -uy, ux                                         # towards the middle

            def point(along: float, inward: float) -> tuple[float, float]:
                return at(ax + ux * along + nx * inward, ay + uy * along + ny * inward)

            outward = (nx if mirror else -nx, -ny)
            track = [Space(f"{side}-{k}", point((k - 1) * pitch, 0), number=k, side=side, index=k, outward=outward)
                     for k in range(1, per_side + 1)]
            spaces += track
            branch = spec.get("branch")
            if branch and branch["at"] <= per_side:
                along, inset = (branch["at"] - 1) * pitch, branch.get("inset", 1.0)
                row = [Space(f"{side}-home-{j}", point(along, (inset + j - 1) * pitch), number=j, part="branch",
                             side=side, index=j) for j in range(1, branch["spaces"] + 1)]
                spaces += row
                links += [(f"{side}-{branch['at']}", row[0].id)] + [(a.id, b.id) for a, b in zip(row, row[1:])]
            start = spec.get("start_area")
            if start and start["at"] <= per_side:
                along, inset = (start["at"] - 1) * pitch, start.get("inset", 2.4)
                spaces += [Space(f"{side}-start-{j}", point(along + da * 1.0, inset * pitch + di), number=j,
                                 part="start_area", side=side, index=j)
                           for j, (da, di) in enumerate(_ring(start["spaces"], pitch), start=1)]
            if spec.get("band_mm"):
                grow = spec["band_mm"] / 2 / inradius
                outer = [(x * radius * (1 + grow), y * radius * (1 + grow)) for x, y in corners[side - 1:side + 1]]
                inner = [(x * radius * (1 - grow), y * radius * (1 - grow)) for x, y in corners[side - 1:side + 1]]
                strips.append((side, tuple(at(x, y) for x, y in outer + inner[::-1])))
        ring = [s for s in spaces if s.part == ""]
        links = [(a.id, b.id) for a, b in zip(ring, ring[1:] + ring[:1])] + links
        # every number that names a space of a side names one that is there: a part or a mark
        # past the side would not be drawn, and nothing else would say so
        problems = [(part, f"at {spec[part]['at']} is past the {per_side} spaces of each side; it would not be drawn")
                    for part in ("start_area", "branch") if spec.get(part) and spec[part]["at"] > per_side]
        problems += [("marks", f"{name} at {mark['at']} is past the {per_side} spaces of each side; it would not be drawn")
                     for name, mark in (spec.get("marks") or {}).items() if mark["at"] > per_side]
        half = max(space_size(spec.get("space", {"form": "circle"}))) / 2
        xs = [s.centre[0] for s in spaces] + [p[0] for _, strip in strips for p in strip]
        ys = [s.centre[1] for s in spaces] + [p[1] for _, strip in strips for p in strip]
        if min(xs) - half < 0 or min(ys) - half < 0 or max(xs) + half > board_mm[0] or max(ys) + half > board_mm[1]:
            problems.append(("pitch_mm", f"the loop of {sides} sides x {per_side} spaces at {pitch:g} mm spans "
                                         f"{max(xs) - min(xs) + 2 * half:.0f} x {max(ys) - min(ys) + 2 * half:.0f} mm "
                                         f"about its centre; it does not fit the {board_mm[0]:g} x {board_mm[1]:g} mm board"))
        return ShapeLayout(tuple(spaces), tuple(links), tuple(strips), tuple(problems))


SHAPE = Loop()
