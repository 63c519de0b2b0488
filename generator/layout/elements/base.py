"""What every element type provides, and the parts they share: colour references, rotation."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..contrast import Ink, box_points


_REF = re.compile(r"^\{([a-z_]+)\}$")
COLOUR_KEYS = ("fill", "stroke", "colour")
# Every element type by name; the package fills it as it finds the type modules.
ELEMENTS: dict[str, "ElementType"] = {}


@dataclass(frozen=True)
class Placed:
    """One element ready to draw: its spec, what placing decided (text's lines at their final
    size and where each is drawn, an icon's font and origin, a loaded picture and the boxes its
    copies go in) and the problems met on the way as (field, message). Drawing reads only this
    and the face's values; it measures nothing again."""

    spec: dict
    fitted: object = None
    problems: tuple[tuple[str, str], ...] = field(default=())

    @property
    def kind(self) -> "ElementType":
        return ELEMENTS[self.spec["type"]]


def resolve_colour(value: str | None, values: dict) -> str | None:
    """A literal '#rrggbb', 'none', or '{field}' looked up in the face's values."""
    if value in (None, "none"):
        return None
    match = _REF.match(value)
    if match:
        return resolve_colour(values.get(match.group(1)), values)
    return value


def colour_field(value) -> str | None:
    """The field a `{field}` colour reads, or None for a literal colour."""
    match = _REF.match(value) if isinstance(value, str) else None
    return match.group(1) if match else None


def rotated_box(box: tuple[float, float, float, float], degrees: float,
                pivot: tuple[float, float]) -> tuple[float, float, float, float]:
    """The axis-aligned box around `box` (x0, y0, x1, y1) turned by `degrees` about `pivot`."""
    if not degrees:
        return box
    angle = math.radians(degrees)
    cos, sin = math.cos(angle), math.sin(angle)
    px, py = pivot
    corners = [(x, y) for x in (box[0], box[2]) for y in (box[1], box[3])]
    turned = [(px + (x - px) * cos - (y - py) * sin, py + (x - px) * sin + (y - py) * cos) for x, y in corners]
    xs, ys = [x for x, _ in turned], [y for _, y in turned]
    return (min(xs), min(ys), max(xs), max(ys))


class ElementType:
    """The interface of an element type. `properties` and `required` are its JSON schema (the
    shared `type` and `rotate` keys are added for every type). generator/render/elements draws
    what `place` returns."""

    name = ""
    properties: dict = {}
    required: tuple[str, ...] = ()
    extra_schema: dict = {}
    draws_text = False          # a drawing without text (a board's assembly map) leaves it out

    def fields(self, element: dict) -> set[str]:
        """Names of the face values the element reads: its field and {field} colours."""
        found = {element["field"]} if element.get("field") else set()
        for key in COLOUR_KEYS:
            value = element.get(key)
            if isinstance(value, str) and _REF.match(value):
                found.add(value.strip("{}"))
        return found

    def pivot(self, element: dict) -> tuple[float, float]:
        """The point `rotate` turns the element about: the centre of its box or its centre."""
        if "box" in element:
            x, y, w, h = element["box"]
            return (x + w / 2, y + h / 2)
        return tuple(element.get("centre", (0.0, 0.0)))

    def place(self, element: dict, values: dict, folder: Path | None) -> Placed:
        """Fit the element to its values; problems are returned in the Placed, never raised."""
        return Placed(element)

    def extents(self, placed: Placed, values: dict) -> list[tuple[str, tuple[float, float, float, float]]]:
        """(field, (x0, y0, x1, y1)) of the ink that must stay inside a safe zone (text, icons),
        before rotation."""
        return []

    def layers(self, placed: Placed, values: dict) -> list:
        """What the element lays down, before rotation, for the contrast check (generator/layout/contrast):
        the `Paint` later ink lies on, its own `Ink`. By default its text and icons, in its `colour`."""
        colour = resolve_colour(placed.spec.get("colour", "#000000"), values) or "#000000"
        return [Ink(field, (colour,), box_points(*box), text=self.name == "text")
                for field, box in self.extents(placed, values)]

    def check(self, element: dict, values: dict) -> list[tuple[str, str]]:
        """Problems with the element's content in this locale, as (field, message)."""
        return []

    def translator_note(self, element: dict) -> str:
        """What a translator of the element's field should know (box, sizes), or ''."""
        return ""
