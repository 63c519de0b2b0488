"""The home kits target: per kit, the files each component kind makes once per edition and
locale and those it makes for each paper, the rule booklet, and each edition's designer's
reports, as units of work; after them, each kit's print-first page (generator/app/printfirst.py).
generator/app/build.py runs and writes them.
"""
from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Callable

from ..core.artifacts import unsafe_name
from ..core.errors import UsageError
from ..core.schema import did_you_mean
from ..i18n.catalogs import translatable_paths
from ..i18n.texts import Texts
from ..layout.faces import localised
from ..load.project import Game, Project
from ..rules.simulate import GameSource, Workers
from ..write.cache import Cache
from ..write.incremental import data_digest, structure_digest, tool_digest
from ..write.output import earlier_entries
from .kinds import files_of, lay_out_every_kind, locale_files_of
from .kits import BOOKLET_FILES, EDITION_MAKERS, KINDS, Kit, booklet_files
from .loading import read_game
from .plan import load_for_build, paper_names, plan
from .printfirst import NAME as PRINT_FIRST, KitPage, earlier_listing, print_first_units
from .request import BuildRequest
from .units import Unit, Work, unit_jobs


def kind_names() -> tuple[str, ...]:
    """What `--kind` may name: each component kind, the booklet, each file made once per edition."""
    return (*(kind.name for kind in KINDS), "booklet", *EDITION_MAKERS)


def made_kinds(names: set[str]) -> frozenset[str]:
    """The manifest kinds of the files of these `--kind` names."""
    kinds = {made for kind in KINDS if kind.name in names for made in kind.made_kinds()}
    if "booklet" in names:
        kinds |= set(BOOKLET_FILES)
    return frozenset(kinds | (names & set(EDITION_MAKERS)))


def present_in(out, entries: dict[str, dict], page_path: str) -> Callable[[str], bool]:
    """Whether a file of a page's folder, by name, is one the manifest lists and the folder
    holds (a name no file can have, or one the system refuses to look up, is not)."""
    folder = page_path.rsplit("/", 1)[0] + "/"

    def present(name: str) -> bool:
        path = folder + name
        if "/" in name or path not in entries or unsafe_name(path):
            return False
        try:
            return (out / path).is_file()
        except (OSError, ValueError):
            return False
    return present


def check_kinds(request: BuildRequest) -> None:
    """A usage error for a kind the build does not make, or a selection of kinds for print shops."""
    if not request.kinds:
        return
    if request.profiles:
        raise UsageError("--kind is for home kits; a shop's profile decides its files")
    unknown = [name for name in request.kinds if name not in kind_names()]
    if unknown:
        raise UsageError(f"no kind '{unknown[0]}'{did_you_mean(unknown[0], kind_names())} (kinds: {', '.join(kind_names())})")



def _home_units(project: Project, games: list[Game], request: BuildRequest, cache: Cache | None,
                pages: list[KitPage], notes: list[str]) -> list[Unit]:
    """The build's units in the order of its files: per kit, the files made once per edition
    and locale (each kind's, the booklet) before each paper's; then each edition's reports (one
    per locale, from one simulation). With `request.kinds`, only the units of those kinds.
    Each kit's print-first page, made after them, is added to `pages`; with `request.kinds`,
    the page already in the output folder, from the files it lists there (`notes` says which
    pages could not be made again)."""
    out = request.out_folder(project)
    earlier = earlier_entries(out) if request.kinds else {}
    known_papers = paper_names(project)
    stale: list[str] = []
    jobs = plan(games, request, known_papers)
    tool = tool_digest(project)
    structures = {game.slug: structure_digest(game, translatable_paths(game)) for game in games}
    texts_cache: dict[tuple[str, str], Texts] = {}
    options = f"{request.duplex}|{request.back_offset[0]:g},{request.back_offset[1]:g}|{request.ink}"
    if request.cutter:
        options += f"|{request.cutter}"
    units: list[Unit] = []
    once: set[tuple[str, str, str]] = set()
    wanted = set(request.kinds or kind_names())
    kinds = [kind for kind in KINDS if kind.name in wanted]
    for game, edition, locale, paper in jobs:
        if (game.slug, locale) not in texts_cache:
            texts_cache[game.slug, locale] = Texts.load(game, locale)
        texts = texts_cache[game.slug, locale]
        papers = tuple(job[3] for job in jobs if job[0] is game and job[1:3] == (edition, locale))
        kit = Kit(project, game, localised(game, edition, texts), paper, request.duplex, request.back_offset, papers,
                  request.ink, request.cutter)
        where = f"{game.slug}|{edition}|{locale}"
        inputs = {"tool": tool, "structure": structures[game.slug]}
        if (game.slug, edition, locale) not in once:
            once.add((game.slug, edition, locale))
            for kind in kinds:
                for part in kind.locale_parts(kit):
                    # Made whatever the paper (the kinds' contract): one entry serves builds of any papers.
                    units.append(Unit(f"home|{where}|{options}|{kind.name}-once|{part}",
                                      f"{game.slug} {edition} {locale} {kind.name}",
                                      _part(locale_files_of, kind, kit, part), inputs,
                                      partial(lay_out_every_kind, kit)))
            if "booklet" in wanted:
                units.append(Unit(f"home|{where}|{','.join(papers)}|booklet", f"{game.slug} {edition} {locale} booklet",
                                  partial(_booklet, kit), inputs, partial(lay_out_every_kind, kit)))
        for kind in kinds:
            for part in kind.file_parts(kit):
                units.append(Unit(f"home|{where}|{paper}|{','.join(papers)}|{options}|{kind.name}|{part}",
                                  f"{game.slug} {edition} {locale} {paper} {kind.name}",
                                  _part(files_of, kind, kit, part), inputs, partial(lay_out_every_kind, kit)))
        page = KitPage(kit, f"home|{where}|{paper}|{options}|{PRINT_FIRST}",
                       f"{game.slug} {edition} {locale} {paper} {PRINT_FIRST}", inputs)
        page_path = kit.path(PRINT_FIRST)
        if not request.kinds:
            pages.append(page)
        elif page_path in earlier:
            listed = earlier_listing(earlier[page_path], present_in(out, earlier, page_path), set(known_papers))
            if listed is None:
                stale.append(page_path)
            else:
                pages.append(replace(page, earlier=listed, replaced=made_kinds(wanted)))
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
                                  _made(maker, project, game, edition, locales, cache, tool),
                                  {"tool": tool, "data": data}, early=True))
    if stale:
        notes.append(f"not made again, as it does not list its files: {stale[0]}"
                     f"{f' and {len(stale) - 1} more print-first pages' if len(stale) > 1 else ''} "
                     f"(build without --kind to make {'them' if len(stale) > 1 else 'it'})")
    return units


# A unit's work runs in a worker process: a function of this module with its arguments, which pickle.

def _part(make, kind, kit: Kit, part):
    return partial(_made_part, make, kind, kit, part)


def _made_part(make, kind, kit: Kit, part):
    return make(kind, kit, part), []


def _booklet(kit: Kit):
    return booklet_files(kit), []


def _made(maker, project, game, edition, locales, cache, tool):
    return partial(_made_per_edition, maker, project, game, edition, locales, cache, tool)


def _made_per_edition(maker, project, game, edition, locales, cache, tool):
    # Run alone in the build's process (`pnp build --kind report`, one game), a report plays its
    # games on every core the build may use; in a worker, in that worker.
    with Workers(unit_jobs(), GameSource(read_game, (str(project.root), game.slug))) as workers:
        made = [maker(project, game, edition, cache=cache, locale=locale, tool=tool, workers=workers)
                for locale in locales]
    return [artifact for artifact in made if artifact is not None], []


def home_work(project: Project, request: BuildRequest, cache: Cache | None) -> Work:
    """The home kits of the selected games, editions, locales and papers, as units of work."""
    games = load_for_build(project, request.game, request.locale, cache)
    pages: list[KitPage] = []
    notes: list[str] = []
    units = _home_units(project, games, request, cache, pages, notes)
    return Work(games, units, partial(print_first_units, pages) if pages else None, notes)
