"""What a build makes, known before anything is drawn: the selected games, loaded and checked
with every sheet template a build reads, and the (game, edition, locale, paper) of each kit.
Every build target (home kits, print-shop files, errata kits, the Tabletop Simulator export)
starts here; generator/app/build.py chooses the target."""
from __future__ import annotations

from ..core.errors import DataError, UsageError
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
    return tuple(project.load_sheet("papers")["papers"])


def plan(games: list[Game], request: BuildRequest, available: tuple[str, ...]) -> list[tuple[Game, str, str, str]]:
    if request.paper != "all" and request.paper not in available:
        raise UsageError(f"no paper '{request.paper}' (papers: {', '.join(available)}, or all)")
    papers = available if request.paper == "all" else (request.paper,)
    jobs = []
    for game in games:
        editions = game.editions
        if request.edition:
            if request.edition not in editions:
                if request.game:
                    raise UsageError(f"{game.slug} has no edition '{request.edition}' (editions: {', '.join(editions)})")
                continue
            editions = [request.edition]
        locales = game.locales
        if request.locale:
            if request.locale not in locales:
                if request.game:
                    raise UsageError(f"{game.slug} has no locale '{request.locale}' (locales: {', '.join(locales)})")
                continue
            locales = [request.locale]
        for edition in editions:
            for locale in locales:
                for paper in papers:
                    jobs.append((game, edition, locale, paper))
    if not jobs:
        raise UsageError("nothing to build for that selection")
    return jobs
