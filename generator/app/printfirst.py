"""Each home kit's print-first page (…-print-first-<paper>.pdf): made after the kit's other
files, from what the build made of them (their names and pages), so it lists the folder's very
files and sheets. Its unit's inputs hold those files, so a build whose files changed (a card
more, another duplex mode) makes the page again, and one whose files did not reuses it.

The page's manifest entry keeps the files it lists (LISTED): a build of some kinds only
(`--kind cards`) makes the page again from that list, each kind it made put in place of that
kind's files there, so that a card added and built alone is counted on the page too.
"""
from __future__ import annotations

from dataclasses import astuple, dataclass, fields
from functools import partial
from typing import Callable

from ..core.artifacts import Artifact
from ..core.digests import digest
from ..layout.booklet import table_rows
from ..layout.kit import Kit
from ..layout.printfirst import KitFile, lay_out_print_first, part_lines
from ..render.printfirst import render_print_first
from .cutting import CUT_PAGE
from .kinds import KINDS, lay_out_every_kind
from .units import Unit


NAME = "print-first"
# The page's detail (and manifest key) listing its files, each as KitFile's fields in order.
LISTED = "lists"
KIT_FILE_TYPES = tuple(field.type if isinstance(field.type, str) else field.type.__name__
                       for field in fields(KitFile))


@dataclass(frozen=True)
class KitPage:
    """A kit whose folder gets a print-first page, with its unit's name and inputs but the files."""

    kit: Kit
    name: str
    label: str
    inputs: dict
    # A build of some kinds only: the files the kit's page listed before (None: a whole kit's
    # build), and the manifest kinds of the files the build stands for (made_kinds).
    earlier: tuple[KitFile, ...] | None = None
    replaced: frozenset[str] = frozenset()


def kit_files(kit: Kit, artifacts: list[Artifact]) -> list[KitFile]:
    """The files the build made in the kit's folder, in the build's order."""
    folder = kit.path(NAME).rsplit("/", 1)[0] + "/"
    return [KitFile(artifact.path[len(folder):], artifact.kind, artifact.paper, artifact.pages,
                    str(artifact.details.get("duplex", "")), str(artifact.details.get("variant", "")),
                    str(artifact.details.get("cutter", "")), int(artifact.details.get(CUT_PAGE, 0)))
            for artifact in artifacts
            if artifact.path.startswith(folder) and "/" not in artifact.path[len(folder):]]


def print_first_units(pages: list[KitPage], artifacts: list[Artifact]) -> list[Unit]:
    """A unit per kit that makes its page from the files the build made in its folder."""
    units = []
    for page in pages:
        files = kit_files(page.kit, artifacts)
        if page.earlier is not None:
            files = with_kinds_replaced(list(page.earlier), files, page.replaced,
                                        {"", *(page.kit.papers or (page.kit.paper,))})
        if not any(file.paper == page.kit.paper for file in files):
            continue
        units.append(Unit(page.name, page.label, partial(_made, page.kit, tuple(files)),
                          {**page.inputs, "files": digest([list(vars(file).values()) for file in files])},
                          partial(lay_out_every_kind, page.kit)))
    return units


def with_kinds_replaced(earlier: list[KitFile], made: list[KitFile], kinds: frozenset[str],
                        papers: set[str]) -> list[KitFile]:
    """The files a page listed, those of `kinds` on `papers` (the build's, and '' for a file
    made once per locale) left out and the files the build `made` put in their place: each
    kind's where the first of its files was, a kind new to the page last."""
    files, placed = [], set()
    for file in earlier:
        if file.kind not in kinds or file.paper not in papers:
            files.append(file)
        elif file.kind not in placed:
            placed.add(file.kind)
            files += [new for new in made if new.kind == file.kind]
    return files + [new for new in made if new.kind not in placed]


def earlier_listing(entry: dict | None, present: Callable[[str], bool], papers: set[str]) -> tuple[KitFile, ...] | None:
    """The files a page's manifest entry lists that are still there (`present(name)`: in the
    manifest and in the folder) on a paper the project knows, each once, or None when it lists
    none this tool can read (a page made before pages kept their list, an entry changed by
    hand)."""
    rows = entry.get(LISTED) if isinstance(entry, dict) else None
    if not isinstance(rows, list):
        return None
    listed: dict[str, KitFile] = {}
    for row in rows:
        if not (isinstance(row, list) and len(row) == len(KIT_FILE_TYPES)
                and all(type(value).__name__ == kind for value, kind in zip(row, KIT_FILE_TYPES))):
            return None
        file = KitFile(*row)
        if file.pages < 0 or file.cut_page < 0:
            return None
        if file.name not in listed and file.paper in papers | {""} and present(file.name):
            listed[file.name] = file
    return tuple(listed.values())


def _made(kit: Kit, files: tuple[KitFile, ...]):
    return [print_first(kit, list(files))], []


def print_first(kit: Kit, files: list[KitFile]) -> Artifact:
    """The kit's print-first page for the folder that holds `files`."""
    page = lay_out_print_first(kit, files, some_sheets(kit, files))
    data, pages = render_print_first(kit.project, page)
    return kit.artifact(NAME, data, pages, details={LISTED: [list(astuple(file)) for file in files]})


def some_sheets(kit: Kit, files: list[KitFile]) -> dict[str, list[str]]:
    """By file kind, the lines that say which sheets a table prints when tables of some numbers
    of players print only some (the decks they play with, the board for their number): as the
    kinds count them for the booklet's print table, under the file they count (its long- or
    short-edge sheets, which are alike), when the file has that many."""
    some: dict[str, list[str]] = {}
    paper_mm = kit.paper_mm
    for kind in KINDS:
        file = next((f for f in files if f.paper == kit.paper and f.kind == kind.name and not f.cut_page
                     and f.words_kind in (kind.name, f"{kind.name}-short")), None)
        if file is None or kind.sheets(kit.project, kit.loc, paper_mm) != file.sheets:
            continue
        lines = part_lines(kit, kind.parts(kit.project, kit.loc, paper_mm))
        tables = kind.tables(kit.project, kit.loc, paper_mm)
        if tables:
            lines += [f"{players} — {cells[0]}" for players, cells in table_rows(kit.project, kit.loc, [tables])]
        if lines:
            some[file.words_kind] = lines
    return some
