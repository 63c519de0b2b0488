"""The orchestrator: the only place that knows the order of the stages.

load -> validate -> lay out -> render -> write. Every file renders into memory first; the
output folder is touched only when the whole build succeeded.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from .booklet import check_booklet, check_templates
from .errors import DataError, Problem, UsageError
from .i18n import check_placeholder_names, check_translations
from .kits import EDITION_MAKERS, KINDS, Kit, booklet_of, deck_title, kit_files, locale_files, validation_kit
from .layout import Localised, card_faces, check_card_sizes
from .output import Artifact, write_all
from .project import Game, Project
from .reproducible import fixed_clock
from .render.shop import booklet_with_bleed, decks_of, render_shop_cards
from .texts import Texts
from .validate import validate_game

# ---- load + validate ----------------------------------------------------------------------

def load_games(project: Project, slug: str | None = None, locale: str | None = None, *,
               texts: bool = True) -> list[Game]:
    """Load and fully validate the selected games; raise DataError with every problem.
    With `locale`, translations and text fit are checked for that locale only: a designer
    rebuilding the source language is not held up by catalogs that have not caught up yet.
    `texts=False` stops after the data and rules checks (what translation commands need)."""
    games, problems = [], []
    for name in project.select(slug):
        game, found = project.load_game(name)
        found += validate_game(game)        # checks what did load, even beside a broken file
        found += check_card_sizes(project, game) if not found else []
        problems += found
        if not found and texts:
            locales = [locale] if locale in game.locales else None
            unknown = check_placeholder_names(game)
            # Independent checks: a translation gap does not hide a text that overflows. Only
            # a source text naming a number the data lacks stops the faces from being laid out.
            problems += unknown + check_translations(game, locales) + check_booklet(game)
            if not unknown:
                problems += check_game_faces(project, game, locales)
        games.append(game)
    if texts and any(game.booklet.get("sections") for game in games):
        problems += check_templates(project)
    if problems:
        raise DataError(problems)
    return games


def check_game_faces(project: Project, game: Game, locales: Iterable[str] | None = None) -> list[Problem]:
    problems = []
    for locale in locales or game.locales:
        texts = Texts.load(game, locale)
        for edition in game.editions:
            kit = validation_kit(project, game, Localised(game, edition, texts))
            for kind in KINDS:
                problems += kind.check(kit)
    return list(dict.fromkeys(problems))     # a layout's own fault is named once, not per locale


# ---- the build ----------------------------------------------------------------------------

@dataclass
class BuildRequest:
    game: str | None = None
    edition: str | None = None
    locale: str | None = None
    paper: str = "all"
    out: Path | None = None
    profiles: tuple[str, ...] = ()          # print-shop profiles: build these instead of home kits
    duplex: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)


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


def build(project: Project, request: BuildRequest, progress=None) -> list[Artifact]:
    """Home kits, or with `request.profiles` print-shop files; the clock never shows in them."""
    with fixed_clock():
        if request.profiles:
            return build_shop(project, request, progress)
        return build_home(project, request, progress)


def build_home(project: Project, request: BuildRequest, progress=None) -> list[Artifact]:
    games = load_games(project, request.game, request.locale)
    jobs = plan(games, request, paper_names(project))
    artifacts: list[Artifact] = []
    texts_cache: dict[tuple[str, str], Texts] = {}
    once: set[tuple[str, str, str]] = set()
    for game, edition, locale, paper in jobs:
        if (game.slug, locale) not in texts_cache:
            texts_cache[game.slug, locale] = Texts.load(game, locale)
        texts = texts_cache[game.slug, locale]
        papers = tuple(job[3] for job in jobs if job[0] is game and job[1:3] == (edition, locale))
        kit = Kit(project, game, Localised(game, edition, texts), paper, request.duplex, request.back_offset, papers)
        if (game.slug, edition, locale) not in once:
            once.add((game.slug, edition, locale))
            artifacts += locale_files(kit)
            if progress:
                progress(f"{game.slug} {edition} {locale}")
        artifacts += kit_files(kit)
        if progress:
            progress(f"{game.slug} {edition} {locale} {paper}")
    for game in games:
        for edition in sorted({job[1] for job in jobs if job[0] is game}, key=game.editions.index):
            for kind, maker in EDITION_MAKERS.items():
                artifact = maker(project, game, edition)
                if artifact is not None:
                    artifacts.append(artifact)
                if progress:
                    progress(f"{game.slug} {edition} {kind}")
    out = request.out or project.root / "output"
    write_all(out, artifacts)
    return artifacts


# ---- print-shop files ---------------------------------------------------------------------

def safe_zones(project: Project, jobs, profiles) -> tuple[list[Problem], list]:
    """Every card text and icon inside each profile's safe zone, for (game, edition, locale) jobs."""
    from .profiles import check_safe_zone
    problems, work = [], []
    for game, edition, locale in jobs:
        kit = Kit(project, game, Localised(game, edition, Texts.load(game, locale)), "")
        faces = card_faces(kit.loc)
        for profile in profiles:
            problems += check_safe_zone(kit.loc, faces, profile)
            work.append((kit, faces, profile))
    return problems, work


def check_profiles(project: Project, games: list[Game], names) -> None:
    """`pnp validate --profile`: the safe zones those shops ask for, in every released locale."""
    from .profiles import load_profiles
    profiles = load_profiles(project, names)
    jobs = [(g, e, l) for g in games for e in g.editions for l in g.locales if not g.is_draft(l)]
    problems, _ = safe_zones(project, jobs, profiles)
    if problems:
        raise DataError(problems)

def build_shop(project: Project, request: BuildRequest, progress=None) -> list[Artifact]:
    """Every requested profile's files for the selected games, editions and locales, checked
    (safe zone before rendering, preflight after) before anything is written. Only released
    locales are built: a draft translation does not go to a shop."""
    from .preflight import preflight_files
    from .profiles import load_profiles
    if request.duplex != "long" or any(request.back_offset):
        raise UsageError("--duplex and --back-offset are for home kits; a shop's profile decides its files")
    profiles = load_profiles(project, request.profiles)
    games = load_games(project, request.game, request.locale)
    jobs = [(g, e, l) for g, e, l, _ in plan(games, BuildRequest(request.game, request.edition, request.locale), ("shop",))
            if not g.is_draft(l)]
    if not jobs:
        raise UsageError("nothing to build: print shops get released locales only, and the selection has none")
    problems, work = safe_zones(project, jobs, profiles)
    if problems:
        raise DataError(problems)
    artifacts: list[Artifact] = []
    for kit, faces, profile in work:
        g, e, l = kit.game.slug, kit.loc.edition, kit.loc.locale
        folder = f"{g}/{e}/{l}/shop/{profile.name}"
        made = []
        if profile.cards and faces:
            titles = {deck: deck_title(kit.loc, deck, cards[0].face) for deck, cards in decks_of(faces).items()}
            for shop_file in render_shop_cards(faces, profile, {"game": g, "edition": e, "locale": l}, titles):
                made.append(Artifact(f"{folder}/{shop_file.path}", shop_file.data, g, shop_file.kind, e, l, "",
                                     shop_file.pages, shop_file.details, shop_file.source))
        booklet = booklet_of(kit) if profile.booklet else None
        if booklet is not None:
            made.append(Artifact(f"{folder}/{profile.booklet.name}", booklet_with_bleed(booklet.data, profile.booklet.bleed_mm),
                                 g, "shop-booklet", e, l, "", booklet.pages, {"profile": profile.name},
                                 profile.booklet.source))
        reports = preflight_files({a.path: a.data for a in made}, profile)
        for report in reports:
            for check in report.checks:
                if check.ok is False:
                    problems.append(Problem(report.path, 0, check.criterion, f"preflight ({profile.name}): {check.detail}"))
        artifacts += made
        if progress:
            progress(f"{g} {e} {l} {profile.name}")
    if problems:
        raise DataError(problems)
    write_all(request.out or project.root / "output", artifacts)
    return artifacts
