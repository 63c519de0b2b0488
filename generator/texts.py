"""Localised strings and the numbers they quote.

Every translatable string has a key path (`cards.quick.name`). The source locale's text is
in the YAML; other locales come from `components/<game>/locales/<lang>.po`, where msgctxt is
the key path. Placeholders such as `{hand_size}` or `{count.quick|cards}` are filled from the
component data at build time, so no number is ever typed into a text.
"""
from __future__ import annotations

import gettext
import re
from functools import lru_cache
from dataclasses import dataclass, field
from pathlib import Path

from babel import Locale
from babel.messages.plurals import get_plural
from babel.messages.pofile import PoFileError, read_po

from .project import Game

PLACEHOLDER = re.compile(r"\{([a-z0-9_.@-]+)(?:\|([a-z0-9_]+))?\}")


def placeholders(text: str) -> list[str]:
    """The placeholders of a string, as written, sorted (for comparing translations)."""
    return sorted(m.group(0) for m in PLACEHOLDER.finditer(text))


def numbers(game: Game, edition: str) -> dict[str, int]:
    """Every number a text may quote, computed from the component data of one edition."""
    values: dict[str, int] = {}
    _integers(game.meta, (), values)
    # A component's own whole numbers by key path (`cards.capacity-3.value`); counts are below.
    for component in game.components:
        for name, value in component.data.items():
            if name != "count" and isinstance(value, int) and not isinstance(value, bool):
                values[f"{component.keypath}.{name}"] = value
    design = (game.files.get("boards") or {}).get("design", {})
    _integers(design, (), values)          # the boards' shared design: `track.fields`, `clock.red`
    # Unsuffixed names are the booklet's own edition; `@edition` names any edition.
    for other, suffix in [(edition, "")] + [(e, f"@{e}") for e in game.editions]:
        for component in game.components:
            values[f"count.{component.id}{suffix}"] = component.count(other)
        groups: dict[str, int] = {}
        for component in game.components:
            for selector in (component.category, f"{component.category}.{component.group}"):
                groups[selector] = groups.get(selector, 0) + component.count(other)
        for selector, value in groups.items():
            values[f"total.{selector}{suffix}"] = value
        values[f"kinds.cards{suffix}"] = len(game.in_edition(other, "cards"))
        for deck in game.decks:
            values[f"kinds.cards.{deck}{suffix}"] = len(
                [c for c in game.in_edition(other, "cards") if c.group == deck])
    values["editions"] = len(game.editions)
    return values


def _integers(node, path: tuple, values: dict) -> None:
    """Every whole number of game.yaml by its dotted path (`players.min`, `hand_sizes.3`)."""
    if isinstance(node, dict):
        for key, value in node.items():
            _integers(value, path + (str(key),), values)
    elif isinstance(node, int) and not isinstance(node, bool) and path:
        values[".".join(path)] = node


@dataclass
class Texts:
    """The strings of one game in one locale."""

    game: Game
    locale: str
    by_context: dict = field(default_factory=dict)

    @classmethod
    def load(cls, game: Game, locale: str) -> "Texts":
        texts = cls(game, locale)
        if locale != game.source_locale:
            path = catalog_path(game, locale)
            if path.exists():
                texts.by_context = messages_by_key(path, locale)
        return texts

    @property
    def is_source(self) -> bool:
        return self.locale == self.game.source_locale

    def get(self, key: str, source: str) -> str:
        """The translation of `source` (key path `key`), or the source when there is none."""
        if self.is_source:
            return source
        message = self.by_context.get(key)
        if message is None or message.fuzzy or not message.string:
            return source
        source_id = message.id[0] if isinstance(message.id, (tuple, list)) else message.id
        string = message.string[0] if isinstance(message.string, (tuple, list)) else message.string
        # A stale translation, or one whose placeholders differ (a validation error), is not
        # printed: the source stands in until the catalog is fixed.
        if source_id != source or placeholders(string) != placeholders(source):
            return source
        return string

    @property
    def phrases(self) -> dict:
        return self.game.booklet.get("phrases", {})

    def plural(self, key: str, forms: dict, n: int) -> str:
        """`forms` is the source's {one: ..., other: ...}; picks the locale's form for n."""
        if not self.is_source:
            message = self.by_context.get(key)
            if message is not None and not message.fuzzy and isinstance(message.string, (tuple, list)) \
                    and all(message.string):
                index = plural_index(self.locale, n)
                if index < len(message.string):
                    return message.string[index]
        category = Locale.parse(self.game.source_locale).plural_form(n)
        return forms.get(category) or forms.get("other") or forms.get("many") or next(iter(forms.values()))

    def fill(self, text: str, values: dict) -> str:
        """Replace placeholders with numbers (and plural phrases) from the data.
        Raises KeyError naming an unknown number or phrase."""
        def replace(match):
            name, phrase = match.group(1), match.group(2)
            if name not in values:
                raise KeyError(name)
            n = values[name]
            if phrase:
                if phrase not in self.phrases:
                    raise KeyError(f"{phrase} (plural phrase)")
                forms = self.phrases[phrase]
                return self.plural(f"booklet.phrases.{phrase}", forms, n).replace("{n}", str(n))
            return str(n)
        return PLACEHOLDER.sub(replace, text)


def messages_by_key(path: Path, locale: str) -> dict:
    """A catalog's messages by msgctxt; an unreadable catalog gives none (validation reports
    why, naming the file), so every string falls back to its source."""
    try:
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=locale, abort_invalid=True)
    except (OSError, UnicodeDecodeError, ValueError, PoFileError):
        return {}
    return {m.context: m for m in catalog if m.id and m.context}


def catalog_path(game: Game, locale: str) -> Path:
    return game.folder / "locales" / f"{locale}.po"


def plural_index(locale: str, n: int) -> int:
    """gettext plural form index for n in the locale (from CLDR via Babel)."""
    return _plural_function(locale)(n)


@lru_cache(maxsize=None)
def _plural_function(locale: str):
    # Babel knows each locale's gettext plural expression; gettext compiles it safely.
    return gettext.c2py(get_plural(locale).plural_expr)
