"""Icons a game's texts hold inline, written `:name:` ("Gain 2 :coin:"), declared under
`icons:` in game.yaml: a picture in the game's own folder or a glyph of the shipped symbol
fonts, each with its alternative text. Cards, tokens and the booklet read the same marks."""
from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass

# A name starts with a letter, so a time ("10:30:") or a ratio is never read as an icon.
ICON_MARK = re.compile(r":([a-z][a-z0-9_]*):")


@dataclass(frozen=True)
class IconSpec:
    """One declared icon: its `file` (in the game's folder) or its `glyph`, and its `alt` key
    path in the catalogs and source text."""

    name: str
    file: str = ""
    glyph: str = ""
    alt: str = ""
    alt_key: str = ""


def declared_icons(meta) -> dict[str, IconSpec]:
    """The icons game.yaml declares, by name; {} when it declares none (or not as a mapping)."""
    icons = meta.get("icons") if hasattr(meta, "get") else None
    if not isinstance(icons, dict):
        return {}
    return {name: IconSpec(name, str(spec.get("file", "")), str(spec.get("glyph", "")), str(spec.get("alt", "")),
                           f"icons.{name}.alt")
            for name, spec in icons.items() if isinstance(spec, dict)}


def icon_names(text: str) -> list[str]:
    """The icons a text holds, in order, repeated as often as it holds them."""
    return ICON_MARK.findall(text) if ":" in text else []


def unknown_icon(name: str, known) -> str:
    """Why `:name:` cannot be drawn, with the declared name nearest to it."""
    close = difflib.get_close_matches(name, sorted(known), n=1)
    declared = "declares no icons" if not known else "declares no such icon"
    return f"unknown icon :{name}: (game.yaml {declared}" + (f"; did you mean :{close[0]}:?)" if close else ")")


def icons_differ(source: str, translation: str) -> str:
    """What a translation drops or adds of its source's icons ('' when it holds the same)."""
    have, want = Counter(icon_names(translation)), Counter(icon_names(source))
    if have == want:
        return ""
    missing = sorted((want - have).elements())
    extra = sorted((have - want).elements())
    return "; ".join(filter(None, [f"missing {' '.join(f':{n}:' for n in missing)}" if missing else "",
                                   f"extra {' '.join(f':{n}:' for n in extra)}" if extra else ""]))
