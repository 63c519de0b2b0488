"""The placed model: every component of a kit as layout placed it, in one type whatever its kind.

A kind (generator/app/kinds) lays its components out once per edition and locale
(`Localised.laid_out`) and describes them here: where each is in the data, the faces placed from
face layouts, its size, and what only its kind has (a piece's outline and glue areas, the texts a
token fits itself, what a board's own layout found). The kind's own geometry (a `Face`,
`BoardFace`, `TokenFace`, `DieNet` or `PieceFace`) rides along in `shape`, for its files to draw.
generator/validate/placed.py runs every check over these; nothing here judges them.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core.yamlfile import locate
from .placed import PlacedFace

Source = tuple[str, int, str]         # file, line, key path: where a problem is named


@dataclass(frozen=True)
class ComponentFace:
    """A face of a component placed from a face layout, with where its problems are named."""

    face: PlacedFace
    source: Source
    # A card's face: a text's problem is named at the catalog entry the locale prints, a key of
    # the layout itself (a picture's file) at the layout. Otherwise every problem is named at
    # `source`.
    names_catalog: bool = False


@dataclass(frozen=True)
class PlacedComponent:
    """One component (or one distinct face of a deck) as its kind laid it out."""

    kind: str
    id: str
    source: Source
    size_mm: tuple[float, float]
    shape: object = None               # the kind's geometry; None when it could not be laid out
    faces: tuple[ComponentFace, ...] = ()
    # The face layout the component names, where it names it, and the layout (None: no such
    # layout); `face_mm` is the size that layout must have (a die's edge), None: its own.
    layout_name: str = ""
    layout_at: Source = ("", 0, "")
    layout: dict | None = None
    face_mm: tuple[float, float] | None = None
    # (where, points) of what is drawn on the layout and must lie inside it: an outline, fold
    # lines, glue areas' corners
    on_layout: tuple[tuple[Source, tuple], ...] = ()
    # (file, line, key path, reason) of what the kind's own layout found wrong: a text that does
    # not fit or does not stand out, a shape larger than its board
    found: tuple[tuple[str, int, str, str], ...] = ()
    # (key path, text, font style) of texts, and (key path, glyph) of icons, that the kind sets
    # itself rather than through a face layout
    texts: tuple[tuple[str, str, str], ...] = ()
    icons: tuple[tuple[str, str], ...] = ()
    # areas (x, y, w, h) labelled with `glue_label`, each with where it is in the data
    glue: tuple[tuple[Source, tuple[float, float, float, float]], ...] = ()
    glue_label: str = ""


@dataclass(frozen=True)
class PlacedKind:
    """The components of one kind in one kit, and the (layout, values) of every face its face
    layouts print (every value a layout reads must come from one of them)."""

    kind: str
    what: str                          # what one is called in a problem: "card", "die face" ...
    components: tuple[PlacedComponent, ...]
    uses: tuple[tuple[dict | None, dict], ...] = ()


def located(game, key: str) -> tuple[str, int]:
    """Where a key path of the game's data is written: in the file whose top level holds its
    first step (tokens:, labels: in game.yaml)."""
    path = tuple(int(step) if step.isdigit() else step for step in key.split("."))
    data = next((d for d in game.files.values() if path[0] in d), game.meta)
    return locate(data, path)
