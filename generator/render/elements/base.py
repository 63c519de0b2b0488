"""What every element's drawing is given, and the registry of drawings by element type."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ...core.colour import RGB, Palette
from ...layout.elements import Placed


@dataclass(frozen=True)
class DrawContext:
    """What drawing needs beyond the placed element: the face's size, its bleed, the press colours."""

    size_mm: tuple[float, float]
    bleed_mm: float = 0.0
    palette: Palette = RGB


# draw(canvas, placed, the face's values, context)
Drawing = Callable[[object, Placed, dict, DrawContext], None]
# Every element type's drawing by the type's name; the package fills it as it finds the modules.
DRAWINGS: dict[str, Drawing] = {}
