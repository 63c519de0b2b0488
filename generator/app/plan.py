"""What a build makes, known before anything is drawn: the selected games, loaded and checked
with every sheet template a build reads, and the (game, edition, locale, paper) of each kit.
Every build target (home kits, print-shop files, errata kits, the Tabletop Simulator export)
starts here; generator/app/build.py chooses the target."""
from __future__ import annotations

from ..core.errors import DataError, UsageError
from ..core.schema import did_you_mean
from ..layout.faces import check_sheet_bands
from ..load.project import Game, Project, check_sheets
from ..write.cache import Cache
from .loading import load_games
from .request import BuildRequest


def load_for_build(project: Project, slug: str | None = None, locale: str | None = None,
                   cache: Cache | None = None) -> list[Game]:
    """The load and validate stages of a build (and of `pnp validate`): the selected games, and
    every sheet template a build reads; a problem in any of them stops the build before
    anything is drawn, every problem named in one run."""
    problems = check_sheets(project)
    problems += [p for p in check_sheet_bands(project) if p not in problems]
    try:
        games = load_games(project, slug, locale, cache=cache)
    except DataError as exc:
        raise DataError(problems + list(exc.problems)) from None
    if problems:
        raise DataError(problems)
    return games


def paper_names(project: Project) -> tuple[str, ...]:
    """The home papers the project prints on (templates/sheets/papers.yaml)."""
    return tuple(project.read_sheet("papers")["papers"])


def _chosen(game: Game, request: BuildRequest, what: str, wanted: str | None, known: list[str]) -> list[str] | None:
    """The game's editions or locales (`what`) the request selects: all of them, or the one it
    names; None to leave the game out (it lacks that one), a usage error when the request names
    the game."""
    if not wanted:
        return list(known)
    if wanted in known:
        return [wanted]
    if request.game:
        raise UsageError(f"{game.slug} has no {what} '{wanted}'{did_you_mean(wanted, known)} ({what}s: {', '.join(known)})")
    return None


def plan(games: list[Game], request: BuildRequest, available: tuple[str, ...]) -> list[tuple[Game, str, str, str]]:
    if request.paper != "all" and request.paper not in available:
        raise UsageError(f"no paper '{request.paper}' (papers: {', '.join(available)}, or all)")
    papers = available if request.paper == "all" else (request.paper,)
    jobs = []
    for game in games:
        editions = _chosen(game, request, "edition", request.edition, game.editions)
        locales = _chosen(game, request, "locale", request.locale, game.locales) if editions else None
        if not editions or not locales:
            continue
        jobs += [(game, edition, locale, paper) for edition in editions for locale in locales for paper in papers]
    if not jobs:
        raise UsageError("nothing to build for that selection")
    return jobs
