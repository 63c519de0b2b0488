"""The errata kit of `pnp build --changed-since REV`: for every edition and locale whose cards
print differently from the other version's, card sheets of those cards alone (and their
backs) and an A5 errata booklet listing every change in the locale's words.

A card is in the errata when, in that edition and locale, it is new, when its face or back
prints differently (its layout, or a value its layout shows: a text through the locale's
catalog, a colour, an icon...), or, for the copies it gains, when it has more of them. Cards
taken out, or with fewer copies, are listed in the booklet. The errata cards print deck by deck
as the kit's card sheets do (each run of one back on sheets of its own, in the kit's order),
laid out by the same code: each back at its front's place for duplex, or beside it for
gutterfold.

The booklet is the rule booklet's machinery (generator/render/booklet.py, templates/booklet/) with
content made here: a cover naming the version it corrects, a section per kind of change,
every card to print drawn with what changed, and how to print. Its words are the tool's own
(templates/sheets/errata.yaml, translated in templates/locales/).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import partial

from ..core.artifacts import Artifact
from ..core.errors import UsageError
from ..i18n.texts import Texts
from ..layout.booklet import Block, BookletContent, CardEntry, Section, card_alt, scale_note
from ..layout.faces import (
    CardRun,
    Face,
    Localised,
    card_faces,
    card_runs,
    card_sizes,
    home_sheet,
    localised,
    layout_fields,
    sheet_grid,
)
from ..layout.kit import Kit, localised_sheet
from ..load.project import Game, Project, game_files
from ..render.booklet import card_pictures
from ..render.booklet import render as render_booklet
from ..render.cards import render_card_sheets
from ..render.impose import impose
from ..write.cache import Cache
from ..write.incremental import cache_usable
from .diff import other_version
from .plan import load_for_build, paper_names, plan
from .units import Unit, Work


# Values of a face shown under their own word in the booklet; any other value or layout
# change is its look.
NAMED_VALUES = ("name", "text")


@dataclass
class ErrataCard:
    face: Face               # as the new version prints it, `copies` the copies to print
    status: str              # added, changed or more (copies)
    what: list[str] = field(default_factory=list)     # changed parts: name, text, look, back
    old_copies: int = 0


@dataclass
class Errata:
    """The changes of one edition and locale."""

    cards: list[ErrataCard] = field(default_factory=list)
    removed: list[tuple[str, int]] = field(default_factory=list)       # (name as it was, copies)
    fewer: list[tuple[str, int, int]] = field(default_factory=list)    # (name, copies before, now)

    def __bool__(self) -> bool:
        return bool(self.cards or self.removed or self.fewer)


def _look(face: Face) -> tuple[str, dict]:
    """What a face prints: its layout and the values the layout reads."""
    layout = json.dumps(face.layout, sort_keys=True, ensure_ascii=False, default=str)
    return layout, {name: face.values.get(name) for name in sorted(layout_fields(face.layout))}


def _changed_parts(old: Face, new: Face) -> list[str]:
    (old_layout, old_values), (new_layout, new_values) = _look(old), _look(new)
    parts = [name for name in NAMED_VALUES
             if name in old_values and name in new_values and old_values[name] != new_values[name]]
    others = {k for k in set(old_values) | set(new_values) if k not in NAMED_VALUES or k not in old_values
              or k not in new_values}
    if old_layout != new_layout or any(old_values.get(k) != new_values.get(k) for k in others):
        parts.append("look")
    if (old.back is None) != (new.back is None) or (old.back is not None and _look(old.back) != _look(new.back)):
        parts.append("back")
    return parts


def old_faces(old: Game | None, edition: str, locale: str) -> dict[str, Face]:
    """The other version's card faces of the edition in the locale, by face key; none when it
    lacks the game, the edition or the locale (every card is then new there)."""
    if old is None or edition not in old.editions or locale not in old.locales:
        return {}
    try:
        faces = card_faces(Localised(old, edition, Texts.load(old, locale)))
    except KeyError:            # a text naming a number that version's data lacks: it never printed
        return {}
    return {face.key: face for face in faces}


def errata_of(old: Game | None, new: Game, edition: str, locale: str) -> Errata:
    before = old_faces(old, edition, locale)
    after = card_faces(Localised(new, edition, Texts.load(new, locale)))
    errata = Errata()
    for face in after:
        was = before.get(face.key)
        if was is None:
            errata.cards.append(ErrataCard(face, "added"))
            continue
        parts = _changed_parts(was, face)
        if parts:
            errata.cards.append(ErrataCard(face, "changed", parts, was.copies))
        elif face.copies > was.copies:
            errata.cards.append(ErrataCard(replace(face, copies=face.copies - was.copies), "more", [], was.copies))
        elif face.copies < was.copies:
            errata.fewer.append((face.values["name"], was.copies, face.copies))
    keys = {face.key for face in after}
    errata.removed = [(face.values["name"], face.copies) for key, face in before.items() if key not in keys]
    return errata


# ---- files ----------------------------------------------------------------------------------

def errata_folder(kit: Kit) -> str:
    g, e, l = kit.game.slug, kit.loc.edition, kit.loc.locale
    return f"{g}/{e}/{l}/errata"


def _name(kit: Kit, kind: str, paper: str = "", extension: str = "pdf") -> str:
    g, e, l = kit.game.slug, kit.loc.edition, kit.loc.locale
    return f"{errata_folder(kit)}/{g}-{e}-{l}-{kind}{'-' + paper if paper else ''}.{extension}"


def card_sheet_files(kit: Kit, errata: Errata) -> list[Artifact]:
    """The errata cards on the kit's paper: the kit's own card sheets, for these cards only."""
    faces = [card.face for card in errata.cards]
    if not faces:
        return []
    groups = []
    for run in errata_runs(kit, faces):
        sheet = home_sheet(kit.project, run.size, kit.duplex)
        groups.append((run.faces, sheet_grid(sheet, kit.paper_mm, kit.unprintable_mm), sheet.get("fold_line")))
    title = f"{kit.loc.title} — {localised_sheet(kit, 'errata')['text']['title']}"
    data, pages, _ = render_card_sheets(groups, title, draft=kit.draft, scale_label=kit.scale_label,
                                        duplex=kit.duplex, back_offset=kit.back_offset,
                                        fold_label=kit.loc.label("fold"), palette=kit.palette)
    kind = kit.ink_name("errata-cards") + ("" if kit.duplex == "long" else f"-{kit.duplex}")
    details = {**kit.duplex_details, "ink": kit.ink, "cards": [card.face.key.removeprefix("card-") for card in errata.cards]}
    return [Artifact(_name(kit, kind, kit.paper), data, kit.game.slug, "errata-cards", kit.loc.edition,
                     kit.loc.locale, kit.paper, pages, details, source=(kit.game.display, 0, ""))]


def errata_runs(kit: Kit, faces: list[Face]) -> list[CardRun]:
    """The kit's card runs (`card_runs`, as its card sheets print them), each narrowed to `faces`
    and left out when none of them is in it: no errata sheet mixes two backs, and the runs come
    in the kit's order, worked out from every card of the kit (a few changed cards alone would
    not say which tables take a deck's copy)."""
    errata = {face.key: face for face in faces}
    runs = [replace(run, faces=[errata[face.key] for face in run.faces if face.key in errata])
            for run in card_runs(kit.loc, card_faces(kit.loc), card_sizes(kit.project))]
    return [run for run in runs if run.faces]


def booklet_content(kit: Kit, errata: Errata, version: str) -> BookletContent:
    """The errata booklet's text in the kit's locale, every card to print drawn."""
    words = localised_sheet(kit, "errata")["text"]
    loc = kit.loc
    pictures = card_pictures([card.face for card in errata.cards])

    def entry(card: ErrataCard) -> CardEntry:
        lines = []
        if card.status == "changed":
            lines.append(words["changed_what"].format(what=", ".join(words[f"what_{part}"] for part in card.what)))
        lines.append(words["print_copies"].format(copies=card.face.copies))
        return CardEntry(card.face.key, card.face.values.get("name", ""), card.face.values.get("text", ""), lines,
                         pictures[card.face.key], card_alt(card.face))

    sections = []
    for status in ("added", "changed", "more"):
        cards = [entry(card) for card in errata.cards if card.status == status]
        if cards:
            sections.append(Section(status, words[status], [Block("cards", cards)]))
    if errata.removed:
        sections.append(Section("removed", words["removed"], [Block("list", [
            words["removed_line"].format(name=name, copies=copies) for name, copies in errata.removed])]))
    if errata.fewer:
        sections.append(Section("fewer", words["fewer"], [Block("list", [
            words["fewer_line"].format(name=name, copies=old - new, kept=new) for name, old, new in errata.fewer])]))
    advice = words["print_cards"] if errata.cards else words["nothing_to_print"]
    sections.append(Section("print", words["print"], [Block("p", advice)]))
    return BookletContent(
        lang=loc.locale, title=loc.title, subtitle=words["title"], tagline="", edition=loc.edition_name(),
        facts=[words["since"].format(version=version)], ui={"contents": words["contents"]}, sections=sections,
        draft=kit.draft, cover_card="")


def booklet_files(kit: Kit, errata: Errata, version: str) -> list[Artifact]:
    """The A5 errata booklet, and on each paper of the build two pages a side in saddle-stitch
    order, as the rule booklet is printed at home."""
    rendered = render_booklet(kit.project, booklet_content(kit, errata, version))
    made = [Artifact(_name(kit, "errata"), rendered.data, kit.game.slug, "errata", kit.loc.edition, kit.loc.locale,
                     "", rendered.pages, {"content_pages": rendered.content_pages, "changed_since": version},
                     source=(kit.game.display, 0, ""))]
    for paper in kit.papers or (kit.paper,):
        on_paper = replace(kit, paper=paper)
        data, sides = impose(rendered.data, on_paper.paper_mm, scale_note(kit.project, kit.loc.locale),
                             on_paper.unprintable_mm)
        made.append(Artifact(_name(kit, "errata-imposed", paper), data, kit.game.slug, "errata-imposed",
                             kit.loc.edition, kit.loc.locale, paper, sides, {"changed_since": version},
                             source=(kit.game.display, 0, "")))
    return made


# ---- the build ------------------------------------------------------------------------------

def errata_work(project: Project, request) -> Work:
    """The errata kits of the selected games, editions and locales against the version
    `request.changed_since` (a git revision or a project folder); nothing for a kit whose
    cards print as they did. The other version is compared here, while it is at hand: the
    units draw only this version's cards."""
    if request.profiles or request.kinds:
        raise UsageError("--changed-since builds home errata kits of cards; not with --profile or --kind")
    out = request.out_folder(project)
    # Only the records of games that passed their checks are used: what an earlier build made
    # is not an errata.
    cache = Cache(out) if request.cache and cache_usable(out) else None
    with other_version(project, request.changed_since) as (other, version):    # a wrong REV fails first
        games = load_for_build(project, request.game, request.locale, cache)
        if cache is not None:
            cache.flush()
        jobs = plan(games, request, paper_names(project))
        units, found = [], {}
        old_games: dict[str, Game | None] = {}
        for game, edition, locale, paper in jobs:
            if game.slug not in old_games:
                old_games[game.slug] = _old_game(other, game.slug)
            if (game.slug, edition, locale) not in found:
                errata = errata_of(old_games[game.slug], game, edition, locale)
                found[game.slug, edition, locale] = errata
                papers = tuple(job[3] for job in jobs if job[0] is game and job[1:3] == (edition, locale))
                if errata:
                    kit = _kit(project, game, edition, locale, papers[0], request, papers)
                    units.append(Unit(f"errata|{game.slug}|{edition}|{locale}", f"{game.slug} {edition} {locale} errata",
                                      _work(booklet_files, kit, errata, version)))
            errata = found[game.slug, edition, locale]
            if errata.cards:
                kit = _kit(project, game, edition, locale, paper, request, ())
                units.append(Unit(f"errata|{game.slug}|{edition}|{locale}|{paper}",
                                  f"{game.slug} {edition} {locale} {paper} errata cards",
                                  _work(card_sheet_files, kit, errata)))
    return Work(games, units)


def _old_game(other: Project, slug: str) -> Game | None:
    """The other version's game as its files say, or None when it has no such game or a file
    of it does not load, breaks its schema or names what is not there (every card then counts
    as new)."""
    if not (other.components_dir / slug).is_dir():
        return None
    from ..validate.checks import check_references, file_schema_problems
    game, problems = other.load_game(slug)
    problems += [p for name in game.files for p in file_schema_problems(game, name)]
    if not problems:
        problems = check_references(game, set(game_files()))
    return None if problems else game


def _kit(project, game, edition, locale, paper, request, papers) -> Kit:
    return Kit(project, game, localised(game, edition, Texts.load(game, locale)), paper, request.duplex,
               request.back_offset, papers, request.ink)


def _work(make, *args):
    """A unit's work, which pickles: it runs in a worker process."""
    return partial(_made, make, *args)


def _made(make, *args):
    made = make(*args)
    return (made if isinstance(made, list) else [made]), []
