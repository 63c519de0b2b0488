"""The figures a rules engine reports: what games' `stats()` (and runs' tallies) hold, by key
with the values that are words, and which of them a game's data leaves unnamed. The designer's
report prints them by the names in game.yaml's `figures:`; the validator asks for those names
before a report is ever drawn."""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..core.errors import Problem
from ..core.yamlfile import locate


# Where a game's data names its engine's figures: game.yaml's `figures:`.
FIGURES = "figures"


def stats_figures(stats: Iterable[Mapping]) -> dict[str, list[str]]:
    """Each figure that games' `stats()` report, with its values that are words: a text's
    values, a mapping's items (a number has none)."""
    found: dict[str, dict[str, None]] = {}
    for figures in stats:
        for key, value in figures.items():
            values = found.setdefault(key, {})
            if isinstance(value, str):
                values[value] = None
            elif isinstance(value, Mapping):
                values.update(dict.fromkeys(map(str, value)))
    return {key: list(values) for key, values in found.items()}


def tally_figures(tallies) -> dict[str, list[str]]:
    """As stats_figures, for the tallies of runs."""
    found: dict[str, dict[str, None]] = {}
    for tally in tallies:
        for key in tally.numbers:
            found.setdefault(key, {})
        for key, values in tally.texts.items():
            found.setdefault(key, {}).update(dict.fromkeys(values))
        for key, table in tally.counts.items():
            found.setdefault(key, {}).update(dict.fromkeys(table))
    return {key: list(values) for key, values in found.items()}


def unnamed_figures(game, reported: dict[str, list[str]]) -> list[Problem]:
    """A problem, at the game's game.yaml `figures:`, for each figure in `reported` (key -> its
    values that are words) that the data does not name, and each such value that is neither
    named under the figure's `values:` nor a component's id: the report would print it raw."""
    named = game.meta.get(FIGURES) or {}
    ids = {component.id for component in game.components}
    problems = []

    def add(path: tuple, message: str) -> None:
        file, line = locate(game.meta, path)
        problems.append(Problem(file or game.file_name("game"), line, ".".join(path), message))

    for key, values in reported.items():
        if key not in named:
            add((FIGURES, key), f"the rules engine reports the figure '{key}', which has no name here: "
                                f"add {FIGURES}.{key}.name (in the source locale) for the designer's report")
            continue
        known = named[key].get("values") or {}
        for value in values:
            if value not in known and value not in ids:
                add((FIGURES, key, "values", value),
                    f"the rules engine reports '{value}' for the figure '{key}', which is no component "
                    f"and has no name here: add {FIGURES}.{key}.values.{value}.name")
    return problems
