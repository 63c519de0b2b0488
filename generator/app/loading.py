"""Load and check the games: the first two stages of every command. The drawing and booklet
libraries are imported only when texts are checked, so that the commands which read data alone
(`pnp simulate`, `pnp play`, the catalog commands) start in a fraction of a second."""
from __future__ import annotations

from pathlib import Path
from typing import Iterable

from ..core.digests import digest, game_folder_digest, rules_digest
from ..core.errors import DataError, Problem
from ..load.card_sizes import check_card_sizes
from ..load.project import Game, Project, files_read, game_files
from ..write.cache import Cache


def load_games(project: Project, slug: str | None = None, locale: str | None = None, *,
               texts: bool = True, cache: Cache | None = None) -> list[Game]:
    """Load and fully validate the selected games; raise DataError with every problem.
    With `locale`, translations and text fit are checked for that locale only: a designer
    rebuilding the source language is not held up by catalogs that have not caught up yet.
    `texts=False` stops after the data and rules checks (what translation commands need).
    With a build's `cache`, a game whose every file, and the tool, are as they were when it
    last passed is not checked again: the same input passes the same checks."""
    games, problems, notes = [], [], []
    for name in project.select(slug):
        game, found = project.load_game(name)
        notes += no_rules_note(game)
        passed = _passed_before(project, game, locale, texts, cache) if not found else None
        if passed and passed[0]:
            games.append(game)
            continue
        found += validate_game(game)        # checks what did load, even beside a broken file
        found += check_card_sizes(project, game) if not found else []
        if not found and texts:
            from ..i18n.catalogs import check_placeholder_names, check_translations
            from ..validate.booklet import check_booklet
            from .kinds import KINDS, draws_pictures
            locales = [locale] if locale in game.locales else None
            unknown = check_placeholder_names(game)
            # Independent checks: a translation gap does not hide a text that overflows. Only
            # a source text naming a number the data lacks stops the faces from being laid out.
            found += unknown + check_translations(game, locales) + check_booklet(
                game, [kind.name for kind in KINDS if draws_pictures(kind)])
            if not unknown:
                found += check_game_faces(project, game, locales)
        elif texts and "game" in game.files:
            found += sound_files_checks(project, game, found, locale)
        if not found and passed:
            _PASSED.add(passed[1])
            if cache is not None:
                cache.put_record("valid", passed[1], {"format": 1})
        problems += found
        games.append(game)
    if texts and any(game.booklet.get("sections") for game in games):
        from ..render.booklet_templates import check_templates
        problems += check_templates(project)
    if problems:
        raise DataError(problems + notes)
    return games


def validate_game(game: Game) -> list[Problem]:
    """generator.validate.checks.validate_game, imported when a game is checked: a game that
    passed before (the same files, the same tool) starts without the checks' libraries."""
    from ..validate.checks import validate_game as checks
    return checks(game)


def no_rules_note(game: Game) -> list[Problem]:
    """generator.validate.checks.no_rules_note, imported only for a game without rules."""
    if "game" not in game.files or game.meta.get("rules") is not None:
        return []
    from ..validate.checks import no_rules_note as note
    return note(game)


def held_back(game: Game, problems: list[Problem]) -> set[str]:
    """The game's files whose components are not laid out: those that did not load whole or
    have a problem (in the file, or at a key of its section in a file it reads, as a deck's
    spreadsheet), and those whose checks read one of them (load.project.files_read)."""
    sections = {name: name for name in game_files()} | {"decks": "cards"}
    broken = set(game.unread) | set(game.partly_read) | {
        name for name in game_files()
        for problem in problems
        if problem.file == game.file_name(name) or sections.get(problem.key.split(".")[0]) == name}
    return broken | {name for name in game.files if files_read(name) & broken}


def sound_files_checks(project: Project, game: Game, problems: list[Problem], locale: str | None) -> list[Problem]:
    """When some of a game's files have `problems`: the checks of what laid-out faces show (card
    sizes, fit, glyphs, contrast) over the components of its other files, so that one run names
    every mistake. Held back: everything, when game.yaml or layouts.yaml is not sound (every
    face reads them); the translations and the booklet, which read every file; and the faces,
    when a text names a number the sound files lack (it may be one a held-back file gives)."""
    from ..i18n.catalogs import check_placeholder_names
    held = held_back(game, problems) | {"booklet"}
    if held & {"game", "layouts"}:
        return []
    sound = game.without(held)
    found = check_card_sizes(project, sound)
    if found or check_placeholder_names(sound):
        return found
    return check_game_faces(project, sound, [locale] if locale in game.locales else None)


def read_game(root: str, slug: str) -> Game:
    """One game of the project at `root`, its data and rules checked: how a simulation's worker
    process reads the game it was not handed (a top-level function, so it pickles by name)."""
    return load_games(Project(Path(root)), slug, texts=False)[0]


# The checks' names a game passed in this process: a long-lived process (`pnp serve`, a
# session of builds) checks the same files, with the same tool, once, cache or not.
_PASSED: set[str] = set()


def forget_passed() -> None:
    """Check every game again, even one whose files passed before in this process."""
    _PASSED.clear()


def _passed_before(project: Project, game: Game, locale, texts: bool, cache: Cache | None):
    """(whether the game passed these checks with these very files before, the record's name)."""
    from ..rules import load_rules
    from ..write.incremental import checks_digest, tool_digest
    try:
        if game.meta.get("rules") is not None:          # a game may have no rules module
            game.rules = load_rules(game.meta["rules"])
    except (LookupError, KeyError, TypeError, AttributeError):
        return None
    tool = tool_digest(project) if texts else checks_digest(project)
    name = digest("valid", tool, game.slug, game_folder_digest(game.folder), rules_digest(game),
                  locale, texts)
    return name in _PASSED or (cache is not None and cache.record("valid", name) is not None), name


def check_game_faces(project: Project, game: Game, locales: Iterable[str] | None = None) -> list[Problem]:
    """Every kind's components laid out in each locale and edition, and every check of
    generator/validate/placed.py run over them; and each kind's checks of data no laid-out
    component shows."""
    from ..i18n.texts import Texts
    from ..layout.faces import laid_out_once, localised
    from ..layout.kit import validation_kit
    from ..validate.placed import check_placed
    from .kinds import KINDS, lay_out_every_kind
    problems = []
    with laid_out_once():
        for locale in locales or game.locales:
            texts = Texts.load(game, locale)
            for edition in game.editions:
                kit = validation_kit(project, game, localised(game, edition, texts))
                problems += check_placed(kit.loc, lay_out_every_kind(kit))
                for kind in KINDS:
                    problems += kind.check(kit)
    return list(dict.fromkeys(problems))     # a layout's own fault is named once, not per locale
