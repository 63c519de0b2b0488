"""Component kinds, one module each: what a kind's components become in a home kit (its files
for each paper, and those made once per edition and locale), how many sheets of each paper
they take (the booklet's print table reads it), and what is checked before anything is drawn.
A module declares `KIND`; the kind's schema (generator/schemas/<kind>.yaml) says its place among
the kinds (project.categories) and whether it makes print-shop files (project.shop_kinds), which
the load stage reads without these modules. Nothing else lists them: a new kind is a module here
and its schema.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Callable

from ...layout.component import PlacedKind
from ...load.project import SHOP_FILES, categories, shop_kinds


def _nothing(*_args) -> list:
    return []


def _no_picture(*_args) -> None:
    return None


def _laid_out_none(kit) -> PlacedKind:
    return PlacedKind("", "", ())


def _whole(_kit) -> list:
    return [None]


@dataclass(frozen=True)
class ShopItem:
    """One component drawn whole for a print shop (a board, a token, a die's net, a piece)."""

    component: str                   # the component's id: its pages go in one file
    name: str                        # its printed name, the file's title
    size_mm: tuple[float, float]     # the trim: the box round its cut outline
    copies: int                      # how many the shop makes of this page
    # draw(canvas, bleed_mm, palette, safe_mm): the component with the trim's bottom-left corner
    # at the origin, in the palette's colours, its backgrounds running bleed_mm past the cut
    # (text it lays out itself keeps safe_mm inside the trim, the shop's safe zone)
    draw: Callable
    source: tuple[str, int, str] = ("", 0, "")      # the component in the data, for errors
    # where the shop's die cuts and creases it (a generator.render.pdf.DieLines), drawn on a
    # layer that does not print; None: cut along the trim
    die_lines: object = None


@dataclass(frozen=True)
class Kind:
    name: str                    # the YAML key its components sit under (cards:, boards:, ...)
    # kit -> the kind's files on the kit's paper
    files: Callable
    # (project, loc, paper_mm) -> sheets of that paper the kind's components print on (0: none)
    sheets: Callable
    # kit -> the kind's components as laid out (a generator.layout.component.PlacedKind), which
    # generator/validate/placed.py checks; the kind's files draw the same laid-out faces
    placed: Callable = _laid_out_none
    # kit -> located problems of the kind's data that no laid-out component shows (an edition a
    # setting names that the game lacks ...), checked in each edition and locale
    check: Callable = _nothing
    # kit -> files made once per edition and locale whatever the paper (contact sheets ...)
    locale_files: Callable = _nothing
    # (loc, phrase) -> the booklet's (how many, what) rows; phrase(loc, names, n) words a count
    contents: Callable = _nothing
    # (project, loc, paper_mm) -> (name, sheets) of each component, when a table prints only some
    # of them (the board for its number of players); [] when every table prints them all
    parts: Callable = _nothing
    # (project, loc, paper_mm) -> (numbers of players, sheet numbers) of each table that prints
    # only some of the kind's sheets (the decks it plays with); [] when every table prints all
    tables: Callable = _nothing
    # (project, loc, component id) -> (size_mm, draw(canvas)) of one component as it prints,
    # for the booklet's pictures; None when the kind draws none or has no such component
    picture: Callable = _no_picture
    # kit -> the parts a build may make apart (None: the whole): `files(kit, part)` and
    # `locale_files(kit, part)` make one part's files, so a change redraws only the parts that
    # show it (a deck's contact sheet, not every deck's). Known from the data, before drawing.
    file_parts: Callable = _whole
    locale_parts: Callable = _whole
    # kit -> [ShopItem]: the components as a print shop gets them, each drawn whole at real
    # size (a profile's `components:` says which kinds it takes); [] for none
    shop: Callable = _nothing
    # What its files are in the manifest (Artifact.kind), when more than its own name: a
    # `--kind` build of it stands in for these on the print-first page (checked by a test)
    file_kinds: tuple[str, ...] = ()

    def made_kinds(self) -> tuple[str, ...]:
        """The manifest kinds of the files it makes."""
        return self.file_kinds or (self.name,)


def makes_shop_files(kind: Kind) -> bool:
    """Whether the kind draws its components for a print shop's component files."""
    return kind.shop is not _nothing


def files_of(kind: Kind, kit, part=None) -> list:
    return kind.files(kit) if part is None else kind.files(kit, part)


def locale_files_of(kind: Kind, kit, part=None) -> list:
    return kind.locale_files(kit) if part is None else kind.locale_files(kit, part)


def draws_pictures(kind: Kind) -> bool:
    """Whether the kind draws its components for the booklet's pictures."""
    return kind.picture is not _no_picture


def own_phrases(component, *kind_phrases: str) -> tuple[str, ...]:
    """The booklet phrases a component is counted with, first found first: its own (`phrase:`,
    "5 pegs" where its kind would say "5 tokens"), then its kind's."""
    own = component.data.get("phrase")
    return ((own,) if own else ()) + kind_phrases


def counted_rows(loc, phrase, category: str, phrase_name: str) -> list:
    """The booklet's contents rows of a kind whose every component is its own row."""
    return [(phrase(loc, own_phrases(c, phrase_name, "copies"), c.count(loc.edition)), loc.field(c.keypath, c.data, "name"))
            for c in loc.game.in_edition(loc.edition, category)]


def in_schema_order(modules: dict[str, Kind], names: tuple[str, ...]) -> list[Kind]:
    """The kinds of the modules (by module name) in the order of the kinds' schemas (`names`):
    exactly one module for each schema, each declaring the kind of its own name."""
    if sorted(modules) != sorted(names):
        raise RuntimeError(f"the kinds' modules in generator/app/kinds ({', '.join(sorted(modules))}) are not the kinds "
                           f"whose schema in generator/schemas says their place ({', '.join(sorted(names))})")
    for module, kind in modules.items():
        if kind.name != module:
            raise RuntimeError(f"generator/app/kinds/{module}.py declares the kind {kind.name!r}, not {module!r}")
    return [modules[name] for name in names]


def shop_files_as_declared(kinds: list[Kind], shop: tuple[str, ...]) -> list[Kind]:
    """The kinds, each drawing shop files (its `shop`) exactly when its schema says it makes them
    (`shop`: the kinds whose schema says so)."""
    for kind in kinds:
        if makes_shop_files(kind) and kind.name not in shop:
            raise RuntimeError(f"generator/app/kinds/{kind.name}.py draws shop files, but generator/schemas/"
                               f"{kind.name}.yaml does not say it makes them ({SHOP_FILES}: true)")
        if kind.name in shop and not makes_shop_files(kind):
            raise RuntimeError(f"generator/schemas/{kind.name}.yaml says the kind makes shop files ({SHOP_FILES}), "
                               f"but generator/app/kinds/{kind.name}.py draws none (no `shop`)")
    return kinds


KINDS: list[Kind] = shop_files_as_declared(in_schema_order(
    {module.name: importlib.import_module(f"{__name__}.{module.name}").KIND
     for module in pkgutil.iter_modules(__path__) if not module.name.startswith("_")},
    categories()), shop_kinds())


def lay_out_every_kind(kit) -> list[PlacedKind]:
    """Every kind's components of the kit's edition and locale, laid out (once: its `Localised`
    keeps them for the checks and the files that draw them)."""
    return [kind.placed(kit) for kind in KINDS]
