"""What a kit is made of: each component kind's files (generator/app/kinds), the rule booklets made
once per edition and locale, and the designer's reports, one per locale from one simulation
of each edition. The order of the stages, and what gets written, is build.py's.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from ..core.artifacts import Artifact
from ..layout.booklet import scale_note
from ..layout.kit import Kit, deck_title, localised_sheet
from ..render.booklet import render as render_booklet
from ..render.impose import impose
from ..render.report import make_report
from .booklet import rule_booklet_content
from .kinds import KINDS


__all__ = ["BOOKLET_FILES", "EDITION_MAKERS", "KINDS", "Kit", "booklet_files", "booklet_of", "deck_title", "kit_files",
           "locale_files", "localised_sheet"]


def kit_files(kit: Kit) -> list[Artifact]:
    """Every kind's files on the kit's paper, kinds in their order."""
    return [artifact for kind in KINDS for artifact in kind.files(kit)]


def locale_files(kit: Kit) -> list[Artifact]:
    """The files made once per edition and locale: each kind's (contact sheets ...), the booklet."""
    return [artifact for kind in KINDS for artifact in kind.locale_files(kit)] + booklet_files(kit)


def booklet_of(kit: Kit):
    """The rule booklet of the kit's edition and locale, A5 pages in reading order (a
    RenderedBooklet), or None for a game without one."""
    if not kit.game.booklet.get("sections"):
        return None
    return render_booklet(kit.project, rule_booklet_content(kit))


# What the booklet's files are in the manifest: the A5 booklet and its imposition on each paper.
BOOKLET_FILES = ("rules", "rules-imposed")


def booklet_files(kit: Kit) -> list[Artifact]:
    """The rule booklet and its home-print version on each paper of the build (two pages a
    side, saddle-stitch order)."""
    booklet = booklet_of(kit)
    if booklet is None:
        return []
    artifacts = [kit.artifact(BOOKLET_FILES[0], booklet.data, booklet.pages, per_paper=False,
                              details={"content_pages": booklet.content_pages})]
    for paper in kit.papers or (kit.paper,):
        on_paper = replace(kit, paper=paper)
        data, sides = impose(booklet.data, on_paper.paper_mm, scale_note(kit.project, kit.loc.locale),
                             on_paper.unprintable_mm)
        artifacts.append(on_paper.artifact(BOOKLET_FILES[1], data, sides))
    return artifacts


# Files made from work done once per edition (e.g. the designer's report, from simulation), in
# each locale of the build: maker(project, game, edition, cache=None, locale=None, tool="",
# workers=None) -> Artifact or None; `cache` is the build's, for what the maker may keep between
# builds, `tool` the digest of what the build draws with (write.incremental.tool_digest), and
# `workers` the processes (rules.simulate.Workers) it may play games on.
EDITION_MAKERS: dict[str, Callable[..., Artifact | None]] = {
    "report": make_report,        # the designer's report, from simulation (games with an engine)
}

