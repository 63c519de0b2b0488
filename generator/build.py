"""The orchestrator: the only place that knows the order of the stages.

load -> validate -> lay out -> render -> write. Every file renders into memory first; the
output folder is touched only when the whole build succeeded. The files are made by units of
work (generator/units.py), on every core, each reused when what it is made of is unchanged
(generator/incremental.py); a game that passed its checks with the same files is not checked
again.
"""
from __future__ import annotations

from typing import Iterable

from .booklet import check_booklet, check_templates
from .cache import Cache
from .errors import DataError, Problem, UsageError
from .i18n import check_placeholder_names, check_translations
from .incremental import (TextsNow, cache_usable, data_digest, digest, folder_digest, game_folder_digest,
                          remember_build, rules_folder, structure_digest, tool_digest, whole_build_inputs)
from .kinds import files_of, locale_files_of
from .kits import EDITION_MAKERS, KINDS, Kit, booklet_files, booklet_of, deck_title, validation_kit
from .layout import Localised, card_faces, check_card_sizes
from .output import Artifact, write_all
from .project import Game, Project
from .render.shop import booklet_with_bleed, decks_of, render_shop_cards
from .reproducible import fixed_clock
from .request import BuildRequest, BuildResult, unchanged_build
from .texts import Texts
from .units import Unit, run_units
from .validate import validate_game

# ---- load + validate ----------------------------------------------------------------------

def load_games(project: Project, slug: str | None = None, locale: str | None = None, *,
               texts: bool = True, cache: Cache | None = None) -> list[Game]:
    """Load and fully validate the selected games; raise DataError with every problem.
    With `locale`, translations and text fit are checked for that locale only: a designer
    rebuilding the source language is not held up by catalogs that have not caught up yet.
    `texts=False` stops after the data and rules checks (what translation commands need).
    With a build's `cache`, a game whose every file, and the tool, are as they were when it
    last passed is not checked again: the same input passes the same checks."""
    games, problems = [], []
    for name in project.select(slug):
        game, found = project.load_game(name)
        passed = _passed_before(project, game, locale, texts, cache) if not found else None
        if passed and passed[0]:
            games.append(game)
            continue
        found += validate_game(game)        # checks what did load, even beside a broken file
        found += check_card_sizes(project, game) if not found else []
        if not found and texts:
            locales = [locale] if locale in game.locales else None
            unknown = check_placeholder_names(game)
            # Independent checks: a translation gap does not hide a text that overflows. Only
            # a source text naming a number the data lacks stops the faces from being laid out.
            found += unknown + check_translations(game, locales) + check_booklet(game)
            if not unknown:
                found += check_game_faces(project, game, locales)
        if not found and passed:
            cache.put_record("valid", passed[1], {"format": 1})
        problems += found
        games.append(game)
    if texts and any(game.booklet.get("sections") for game in games):
        problems += check_templates(project)
    if problems:
        raise DataError(problems)
    return games


def _passed_before(project: Project, game: Game, locale, texts: bool, cache: Cache | None):
    """(whether the game passed these checks with these very files before, the record's name)."""
    if cache is None:
        return None
    from .rules import load_rules
    try:
        game.rules = load_rules(game.meta["rules"])
    except (LookupError, KeyError, TypeError):
        return None
    rules = rules_folder(game)
    name = digest("valid", tool_digest(project), game.slug, game_folder_digest(game.folder),
                  folder_digest(rules) if rules and rules.is_dir() else "", locale, texts)
    return cache.record("valid", name) is not None, name


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


def build(project: Project, request: BuildRequest, progress=None) -> BuildResult:
    """Home kits, or with `request.profiles` print-shop files; the clock never shows in them.
    What an earlier build made from the same input is reused (generator/incremental.py)."""
    out = request.out_folder(project)
    kept = unchanged_build(project, request)
    if kept is not None:
        return kept
    inputs = whole_build_inputs(project, request) if request.cache else None
    cache = Cache(out) if request.cache and cache_usable(out) else None
    with fixed_clock():
        if request.profiles:
            result = build_shop(project, request, progress, cache)
        else:
            result = build_home(project, request, progress, cache)
    if cache is not None:
        cache.flush()
        remember_build(cache, out, inputs, result.artifacts)
        cache.prune(sum(len(a.data) for a in result.artifacts))
    return result


def _home_units(project: Project, games: list[Game], request: BuildRequest, cache: Cache | None) -> list[Unit]:
    """The build's units in the order of its files: per kit, the files made once per edition
    and locale (each kind's, the booklet) before each paper's; then each edition's report."""
    jobs = plan(games, request, paper_names(project))
    tool = tool_digest(project)
    structures = {game.slug: structure_digest(game) for game in games}
    texts_cache: dict[tuple[str, str], Texts] = {}
    options = f"{request.duplex}|{request.back_offset[0]:g},{request.back_offset[1]:g}|{request.ink}"
    units: list[Unit] = []
    once: set[tuple[str, str, str]] = set()
    for game, edition, locale, paper in jobs:
        if (game.slug, locale) not in texts_cache:
            texts_cache[game.slug, locale] = Texts.load(game, locale)
        texts = texts_cache[game.slug, locale]
        papers = tuple(job[3] for job in jobs if job[0] is game and job[1:3] == (edition, locale))
        kit = Kit(project, game, Localised(game, edition, texts), paper, request.duplex, request.back_offset, papers,
                  request.ink)
        where = f"{game.slug}|{edition}|{locale}"
        inputs = {"tool": tool, "structure": structures[game.slug]}
        if (game.slug, edition, locale) not in once:
            once.add((game.slug, edition, locale))
            for kind in KINDS:
                for part in kind.locale_parts(kit):
                    # Made whatever the paper (the kinds' contract): one entry serves builds of any papers.
                    units.append(Unit(f"home|{where}|{options}|{kind.name}-once|{part}",
                                      f"{game.slug} {edition} {locale} {kind.name}",
                                      _part(locale_files_of, kind, kit, part), inputs))
            units.append(Unit(f"home|{where}|{','.join(papers)}|booklet", f"{game.slug} {edition} {locale} booklet",
                              lambda kit=kit: (booklet_files(kit), []), inputs))
        for kind in KINDS:
            for part in kind.file_parts(kit):
                units.append(Unit(f"home|{where}|{paper}|{','.join(papers)}|{options}|{kind.name}|{part}",
                                  f"{game.slug} {edition} {locale} {paper} {kind.name}",
                                  _part(files_of, kind, kit, part), inputs))
    for game in games:
        data = data_digest(game)
        for edition in sorted({job[1] for job in jobs if job[0] is game}, key=game.editions.index):
            for kind, maker in EDITION_MAKERS.items():
                # Made from the data as written (not through a catalog), texts included.
                units.append(Unit(f"edition|{game.slug}|{edition}|{kind}", f"{game.slug} {edition} {kind}",
                                  _made(maker, project, game, edition, cache), {"tool": tool, "data": data}))
    return units


def _part(make, kind, kit: Kit, part):
    return lambda: (make(kind, kit, part), [])


def _made(maker, project, game, edition, cache):
    def work():
        artifact = maker(project, game, edition, cache=cache)
        return ([artifact] if artifact is not None else []), []
    return work


def run_and_write(project: Project, request: BuildRequest, games: list[Game], units: list[Unit],
                  cache: Cache | None, progress=None) -> BuildResult:
    """Run (or reuse) every unit, then write their files; every unit's problems first, if any."""
    outcomes = run_units(units, cache, TextsNow({g.slug: g for g in games}), request.jobs, progress)
    problems = [p for outcome in outcomes for p in outcome.problems]
    if problems:
        raise DataError(problems)
    artifacts = [a for outcome in outcomes for a in outcome.artifacts]
    write_all(request.out_folder(project), artifacts)
    return BuildResult(artifacts, [a.path for o in outcomes if not o.reused for a in o.artifacts])


def build_home(project: Project, request: BuildRequest, progress=None, cache: Cache | None = None) -> BuildResult:
    games = load_games(project, request.game, request.locale, cache=cache)
    units = _home_units(project, games, request, cache)
    return run_and_write(project, request, games, units, cache, progress)


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

def build_shop(project: Project, request: BuildRequest, progress=None, cache: Cache | None = None) -> BuildResult:
    """Every requested profile's files for the selected games, editions and locales, checked
    (safe zone before rendering, preflight after) before anything is written. Only released
    locales are built: a draft translation does not go to a shop."""
    from .profiles import load_profiles
    if request.duplex != "long" or any(request.back_offset) or request.ink != "normal":
        raise UsageError("--duplex, --back-offset and --ink are for home kits; a shop's profile decides its files")
    profiles = load_profiles(project, request.profiles)
    games = load_games(project, request.game, request.locale, cache=cache)
    jobs = [(g, e, l) for g, e, l, _ in plan(games, BuildRequest(request.game, request.edition, request.locale), ("shop",))
            if not g.is_draft(l)]
    if not jobs:
        raise UsageError("nothing to build: print shops get released locales only, and the selection has none")
    tool = tool_digest(project)
    structures = {game.slug: structure_digest(game) for game in games}
    units = []
    for game, edition, locale in jobs:
        kit = Kit(project, game, Localised(game, edition, Texts.load(game, locale)), "")
        for profile in profiles:
            units.append(Unit(f"shop|{game.slug}|{edition}|{locale}|{profile.name}",
                              f"{game.slug} {edition} {locale} {profile.name}", _shop_files(kit, profile),
                              {"tool": tool, "structure": structures[game.slug]}))
    return run_and_write(project, request, games, units, cache, progress)


def _shop_files(kit: Kit, profile):
    return lambda: shop_files(kit, profile)


def shop_files(kit: Kit, profile) -> tuple[list[Artifact], list[Problem]]:
    """One profile's files for one kit, or the problems that keep them from a shop: text
    outside the safe zone (found before anything is drawn), a failed preflight."""
    from .preflight import preflight_files
    from .profiles import check_safe_zone
    faces = card_faces(kit.loc)
    problems = check_safe_zone(kit.loc, faces, profile)
    if problems:
        return [], problems
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
    for report in preflight_files({a.path: a.data for a in made}, profile):
        for check in report.checks:
            if check.ok is False:
                problems.append(Problem(report.path, 0, check.criterion, f"preflight ({profile.name}): {check.detail}"))
    return made, problems
