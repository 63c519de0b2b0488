"""The orchestrator: the only place that knows the order of the stages.

load -> validate -> lay out -> render -> write. Every file renders into memory first; the
output folder is touched only when the whole build succeeded. The files are made by units of
work (generator/app/units.py), on every core, each reused when what it is made of is unchanged
(generator/write/incremental.py); a game that passed its checks with the same files is not checked
again.

A build has one target: home kits and print-shop files (here), an errata kit
(generator/app/errata.py) or the Tabletop Simulator export (generator/app/tts.py). What every target
does alike, choosing what to make (generator/app/plan.py) and running and writing its units
(generator/app/units.py), is in modules they all import; no target imports this one.
"""
from __future__ import annotations

from functools import partial

from ..core.artifacts import Artifact
from ..core.errors import DataError, Problem, UsageError
from ..core.reproducible import fixed_clock
from ..i18n.catalogs import translatable_paths
from ..i18n.texts import Texts
from ..layout.faces import Localised, card_faces
from ..load.profiles import load_profiles
from ..load.project import Game, Project
from ..render.shop import booklet_with_bleed, decks_of, render_shop_cards, render_shop_components
from ..render.shop_booklet import PRESS_PICTURE_DPI, render_press_booklet
from ..validate.safe_zone import check_safe_zone
from ..write.cache import Cache
from ..write.incremental import (
    cache_usable,
    data_digest,
    remember_build,
    selection,
    structure_digest,
    tool_digest,
    whole_build_inputs,
)
from ..write.preflight import preflight_files
from .booklet import rule_booklet_content
from .errata import build_errata
from .kinds import files_of, locale_files_of
from .kits import EDITION_MAKERS, KINDS, Kit, booklet_files, booklet_of, deck_title
from .plan import load_for_build, paper_names, plan
from .request import BuildRequest, BuildResult, unchanged_build
from .tts import build_tts, check_request
from .units import Unit, run_and_write


# ---- the build ----------------------------------------------------------------------------

def kind_names() -> tuple[str, ...]:
    """What `--kind` may name: each component kind, the booklet, each file made once per edition."""
    return (*(kind.name for kind in KINDS), "booklet", *EDITION_MAKERS)


def check_kinds(request: BuildRequest) -> None:
    """A usage error for a kind the build does not make, or a selection of kinds for print shops."""
    if not request.kinds:
        return
    if request.profiles:
        raise UsageError("--kind is for home kits; a shop's profile decides its files")
    unknown = [name for name in request.kinds if name not in kind_names()]
    if unknown:
        raise UsageError(f"no kind '{unknown[0]}' (kinds: {', '.join(kind_names())})")


def build(project: Project, request: BuildRequest, progress=None) -> BuildResult:
    """Home kits, or with `request.profiles` print-shop files; the clock never shows in them.
    What an earlier build made from the same input is reused (generator/write/incremental.py).
    With `request.kinds`, only those kinds' files are made and written; the others stay."""
    check_kinds(request)
    if request.target == "tts":
        check_request(request)
    if request.changed_since:                   # made from two versions: never from the cache
        with fixed_clock():
            return build_errata(project, request, progress)
    out = request.out_folder(project)
    kept = unchanged_build(project, request)
    if kept is not None:
        return kept
    inputs = whole_build_inputs(project, request) if request.cache else None
    cache = Cache(out) if request.cache and cache_usable(out) else None
    with fixed_clock():
        if request.target == "tts":
            result = build_tts(project, request, progress, cache)
        elif request.profiles:
            result = build_shop(project, request, progress, cache)
        else:
            result = build_home(project, request, progress, cache)
    if cache is not None:
        cache.flush()
        remember_build(cache, out, inputs, result.artifacts)
        cache.keep_for(selection(request))
        cache.prune(sum(len(a.data) for a in result.artifacts))
    return result


def _home_units(project: Project, games: list[Game], request: BuildRequest, cache: Cache | None) -> list[Unit]:
    """The build's units in the order of its files: per kit, the files made once per edition
    and locale (each kind's, the booklet) before each paper's; then each edition's reports (one
    per locale, from one simulation). With `request.kinds`, only the units of those kinds."""
    jobs = plan(games, request, paper_names(project))
    tool = tool_digest(project)
    structures = {game.slug: structure_digest(game, translatable_paths(game)) for game in games}
    texts_cache: dict[tuple[str, str], Texts] = {}
    options = f"{request.duplex}|{request.back_offset[0]:g},{request.back_offset[1]:g}|{request.ink}"
    units: list[Unit] = []
    once: set[tuple[str, str, str]] = set()
    wanted = set(request.kinds or kind_names())
    kinds = [kind for kind in KINDS if kind.name in wanted]
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
            for kind in kinds:
                for part in kind.locale_parts(kit):
                    # Made whatever the paper (the kinds' contract): one entry serves builds of any papers.
                    units.append(Unit(f"home|{where}|{options}|{kind.name}-once|{part}",
                                      f"{game.slug} {edition} {locale} {kind.name}",
                                      _part(locale_files_of, kind, kit, part), inputs))
            if "booklet" in wanted:
                units.append(Unit(f"home|{where}|{','.join(papers)}|booklet", f"{game.slug} {edition} {locale} booklet",
                                  partial(_booklet, kit), inputs))
        for kind in kinds:
            for part in kind.file_parts(kit):
                units.append(Unit(f"home|{where}|{paper}|{','.join(papers)}|{options}|{kind.name}|{part}",
                                  f"{game.slug} {edition} {locale} {paper} {kind.name}",
                                  _part(files_of, kind, kit, part), inputs))
    for game in games:
        data = data_digest(game)
        for edition in sorted({job[1] for job in jobs if job[0] is game}, key=game.editions.index):
            locales = tuple(dict.fromkeys(job[2] for job in jobs if job[0] is game and job[1] == edition))
            for kind, maker in EDITION_MAKERS.items():
                if kind not in wanted:
                    continue
                # The texts it prints are recorded as a kit's are; its words are the tool's.
                units.append(Unit(f"edition|{game.slug}|{edition}|{','.join(locales)}|{kind}",
                                  f"{game.slug} {edition} {kind}",
                                  _made(maker, project, game, edition, locales, cache), {"tool": tool, "data": data}))
    return units


# A unit's work runs in a worker process: a function of this module with its arguments, which pickle.

def _part(make, kind, kit: Kit, part):
    return partial(_made_part, make, kind, kit, part)


def _made_part(make, kind, kit: Kit, part):
    return make(kind, kit, part), []


def _booklet(kit: Kit):
    return booklet_files(kit), []


def _made(maker, project, game, edition, locales, cache):
    return partial(_made_per_edition, maker, project, game, edition, locales, cache)


def _made_per_edition(maker, project, game, edition, locales, cache):
    made = [maker(project, game, edition, cache=cache, locale=locale) for locale in locales]
    return [artifact for artifact in made if artifact is not None], []


def build_home(project: Project, request: BuildRequest, progress=None, cache: Cache | None = None) -> BuildResult:
    games = load_for_build(project, request.game, request.locale, cache)
    units = _home_units(project, games, request, cache)
    return run_and_write(project, request, games, units, cache, progress)


# ---- print-shop files ---------------------------------------------------------------------

def safe_zones(project: Project, jobs, profiles) -> tuple[list[Problem], list]:
    """Every card text and icon inside each profile's safe zone, for (game, edition, locale) jobs."""
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
    profiles = load_profiles(project, names)
    jobs = [(g, e, l) for g in games for e in g.editions for l in g.locales if not g.is_draft(l)]
    problems, _ = safe_zones(project, jobs, profiles)
    if problems:
        raise DataError(problems)

def build_shop(project: Project, request: BuildRequest, progress=None, cache: Cache | None = None) -> BuildResult:
    """Every requested profile's files for the selected games, editions and locales, checked
    (safe zone before rendering, preflight after) before anything is written. Only released
    locales are built: a draft translation does not go to a shop."""
    if request.duplex != "long" or any(request.back_offset) or request.ink != "normal":
        raise UsageError("--duplex, --back-offset and --ink are for home kits; a shop's profile decides its files")
    profiles = load_profiles(project, request.profiles)
    games = load_for_build(project, request.game, request.locale, cache)
    jobs = [(g, e, l) for g, e, l, _ in plan(games, BuildRequest(request.game, request.edition, request.locale), ("shop",))
            if not g.is_draft(l)]
    if not jobs:
        raise UsageError("nothing to build: print shops get released locales only, and the selection has none")
    tool = tool_digest(project)
    structures = {game.slug: structure_digest(game, translatable_paths(game)) for game in games}
    units = []
    for game, edition, locale in jobs:
        kit = Kit(project, game, Localised(game, edition, Texts.load(game, locale)), "")
        for profile in profiles:
            inputs = {"tool": tool, "structure": structures[game.slug]}
            if profile.cards or profile.booklet:
                units.append(Unit(f"shop|{game.slug}|{edition}|{locale}|{profile.name}",
                                  f"{game.slug} {edition} {locale} {profile.name}", _shop_files(kit, profile), inputs))
            for kind in KINDS:
                if profile.components and kind.name in profile.components.kinds:
                    units.append(Unit(f"shop|{game.slug}|{edition}|{locale}|{profile.name}|{kind.name}",
                                      f"{game.slug} {edition} {locale} {profile.name} {kind.name}",
                                      _component_files(kit, profile, kind), inputs))
    return run_and_write(project, request, games, units, cache, progress)


def _shop_files(kit: Kit, profile):
    return partial(shop_files, kit, profile)


def _component_files(kit: Kit, profile, kind):
    return partial(shop_component_files, kit, profile, kind)


def _press_booklet(kit: Kit, profile, folder: str) -> list[Artifact]:
    """The rule booklet separated for the profile's press, PDF/X (generator/render/shop_booklet.py)."""
    loc = kit.loc
    if not kit.game.booklet.get("sections"):
        return []
    content = rule_booklet_content(kit, PRESS_PICTURE_DPI)
    data, pages = render_press_booklet(kit.project, content, profile.booklet, content.title)
    return [Artifact(f"{folder}/{profile.booklet.name}", data, kit.game.slug, "shop-booklet", loc.edition, loc.locale,
                     "", pages, {"profile": profile.name, "colour": profile.booklet.palette.space,
                                 "pdfx": profile.booklet.pdfx_standard[0] if profile.booklet.pdfx_standard else None},
                     profile.booklet.source)]


def shop_component_files(kit: Kit, profile, kind) -> tuple[list[Artifact], list[Problem]]:
    """One kind's component files for one profile: a PDF per component the shop's size limits
    take, checked by preflight; what is larger than the shop prints is left out and named in a
    note beside the files (with its size and the limit), never dropped silently."""
    spec = profile.components
    g, e, l = kit.game.slug, kit.loc.edition, kit.loc.locale
    folder = f"{g}/{e}/{l}/shop/{profile.name}"
    items = kind.shop(kit)
    fitting = [item for item in items if spec.fits(item.size_mm)]
    unfit = [problem for item in fitting for problem in item.fit(spec.safe_mm or 0.0)]
    if unfit:
        return [], unfit
    made = [Artifact(f"{folder}/{f.path}", f.data, g, f.kind, e, l, "", f.pages, f.details, f.source)
            for f in render_shop_components(kind.name, fitting, profile, {"game": g, "edition": e, "locale": l})]
    too_large = list(dict.fromkeys((item.component, item.name, item.size_mm) for item in items
                                   if not spec.fits(item.size_mm)))
    if too_large:
        lines = [f"Not printed by this shop ({profile.title}): larger than the {spec.max_mm[0]:g} x "
                 f"{spec.max_mm[1]:g} mm it prints."] + [
                 f"- {kind.name} {component} ({name}): {w:g} x {h:g} mm" for component, name, (w, h) in too_large]
        note = spec.name.format(game=g, edition=e, locale=l, kind=kind.name, component="not-printed")
        note = note.rsplit(".", 1)[0] + ".txt"
        made.append(Artifact(f"{folder}/{note}", ("\n".join(lines) + "\n").encode("utf-8"), g, "shop-note", e, l, "",
                             0, {"profile": profile.name, "component_kind": kind.name,
                                 "left_out": [c for c, _, _ in too_large]}, spec.source))
    problems = []
    pdfs = {a.path: a.data for a in made if a.kind == "shop-component"}
    for report in preflight_files(pdfs, profile):
        for check in report.checks:
            if check.ok is False:
                problems.append(Problem(report.path, 0, check.criterion, f"preflight ({profile.name}): {check.detail}"))
    return made, problems


def shop_files(kit: Kit, profile) -> tuple[list[Artifact], list[Problem]]:
    """One profile's files for one kit, or the problems that keep them from a shop: text
    outside the safe zone (found before anything is drawn), a failed preflight."""
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
    if profile.booklet and profile.booklet.palette.space == "cmyk":
        made += _press_booklet(kit, profile, folder)
    else:
        booklet = booklet_of(kit) if profile.booklet else None
        if booklet is not None:
            made.append(Artifact(f"{folder}/{profile.booklet.name}",
                                 booklet_with_bleed(booklet.data, profile.booklet.bleed_mm),
                                 g, "shop-booklet", e, l, "", booklet.pages, {"profile": profile.name},
                                 profile.booklet.source))
    for report in preflight_files({a.path: a.data for a in made}, profile):
        for check in report.checks:
            if check.ok is False:
                problems.append(Problem(report.path, 0, check.criterion, f"preflight ({profile.name}): {check.detail}"))
    return made, problems
