"""The icons a game declares (game.yaml `icons:`) and the ones its texts name: each declared
picture readable from the game's own folder and each glyph in a shipped font, at its line of
game.yaml; each `:name:` in a text declared, at the text's line and key. Texts on card faces
are checked where they are placed (layout/elements/text.py), in every locale, so this names
the others: the booklet's, the tokens' and the boards'."""
from __future__ import annotations

from ..core.errors import Problem
from ..core.yamlfile import locate
from ..i18n.catalogs import every_text
from ..layout.elements.icon import icon_glyph_problem
from ..layout.elements.image import picture_in, pictures_read_once
from ..load.icons import declared_icons, icon_names, unknown_icon
from ..load.project import Game

# Texts whose icons their placing checks (a card's fields, its deck's).
PLACED_ON_FACES = ("cards", "decks")


def check_icons(game: Game, trusted: set[str]) -> list[Problem]:
    icons = declared_icons(game.meta)
    problems = []
    with pictures_read_once():
        for name, spec in icons.items():
            key = "glyph" if spec.glyph else "file"
            reason = icon_glyph_problem(spec.glyph) if spec.glyph else picture_in(game.folder, spec.file)[1]
            if reason:
                file, line = locate(game.meta, ("icons", name, key))
                problems.append(Problem(file, line, f"icons.{name}.{key}", reason))
    for entry in every_text(game):
        if entry.data_path[:1] and entry.data_path[0] not in trusted:
            continue
        if entry.key.split(".", 1)[0] in PLACED_ON_FACES:
            continue
        strings = entry.source.values() if isinstance(entry.source, dict) else (entry.source,)
        unknown = sorted({name for text in strings for name in icon_names(text) if name not in icons})
        problems += [Problem(entry.file, entry.line, entry.key, unknown_icon(name, icons)) for name in unknown]
    return problems
