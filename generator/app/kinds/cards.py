"""Cards: sheets of fronts with their backs for duplex, gutterfold or fronts only, on the home
sheet of each card size; the duplex calibration sheet beside them; a contact sheet per deck."""
from __future__ import annotations

from dataclasses import replace

from ...core.errors import DataError, Problem
from ...core.yamlfile import locate
from ...i18n.catalogs import tool_text_place
from ...layout.faces import (
    card_faces,
    card_faces_with_texts,
    card_runs,
    card_field_uses,
    card_sizes,
    deck_faces,
    distinct_faces,
    home_sheet,
    run_pages,
    sheet_grid,
    unprintable_band,
)
from ...layout.component import ComponentFace, PlacedComponent, PlacedKind
from ...layout.cutter import card_cut_sheets, card_grid
from ...layout.furniture import CalibrationSteps, ContactSheet, lay_out_calibration_steps, lay_out_contact_sheet
from ...layout.kit import Kit, deck_title, localised_sheet
from ...render.cards import render_calibration, render_card_sheets
from ...render.preview import render_contact_sheet
from ..cutting import cut_artifacts, cutter_of
from . import Kind


def file_parts(kit: Kit) -> list:
    """The card sheets, and the duplex calibration sheet beside every cards file printed
    double-sided (it shows no card)."""
    if not kit.game.in_edition(kit.loc.edition, "cards"):
        return []
    return ["cards", "calibration"] if kit.duplex in ("long", "short") else ["cards"]


def files(kit: Kit, part: str | None = None) -> list:
    if not kit.game.in_edition(kit.loc.edition, "cards"):
        return []
    made = _card_sheets(kit) if part in (None, "cards") else []
    if part in (None, "calibration") and kit.duplex in ("long", "short"):
        settings, steps = _calibration_steps(kit)
        if steps.problems:
            raise DataError(_step_problems(kit, steps))
        data, pages = render_calibration(kit.paper_mm, settings, steps,
                                         scale_label=kit.scale_label, back_offset=kit.back_offset)
        made.append(kit.artifact("calibration", data, pages, details=kit.duplex_details))
    return made


def _card_sheets(kit: Kit) -> list:
    """Deck by deck: each run of one back starts a sheet of its own."""
    faces = card_faces(kit.loc)
    if kit.cutter:
        return _cutter_sheets(kit, faces)
    groups = []
    for run in card_runs(kit.loc, faces, card_sizes(kit.project)):
        sheet = home_sheet(kit.project, run.size, kit.duplex)
        groups.append((run.faces, sheet_grid(sheet, kit.paper_mm, kit.unprintable_mm), sheet.get("fold_line")))
    data, pages, _ = render_card_sheets(groups, f"{kit.loc.title} — cards", draft=kit.draft,
                                        scale_label=kit.scale_label, duplex=kit.duplex,
                                        back_offset=kit.back_offset, fold_label=kit.loc.label("fold"),
                                        palette=kit.palette)
    # The default (long-edge duplex, normal ink) keeps the plain name; other modes sit beside it.
    name = kit.ink_name("cards" if kit.duplex == "long" else f"cards-{kit.duplex}")
    return [kit.artifact("cards", data, pages, name=name, details={**kit.duplex_details, "ink": kit.ink})]


def _cutter_sheets(kit: Kit, faces) -> list:
    """The card sheets laid out for the kit's cutting machine: each card size's grid fitted to the
    machine's area, no crop marks, the machine's marks on the fronts, and their cut files."""
    cutter = cutter_of(kit)
    groups = [(run.faces, card_grid(cutter, run.size.size_mm, kit.paper_mm))
              for run in card_runs(kit.loc, faces, card_sizes(kit.project))]
    data, pages, _ = render_card_sheets([(run_faces, grid, None) for run_faces, grid in groups],
                                        f"{kit.loc.title} — cards", draft=kit.draft, duplex=kit.duplex,
                                        back_offset=kit.back_offset, palette=kit.palette, crop_marks=False)
    return cut_artifacts(kit, "cards", data, pages, card_cut_sheets(cutter, groups, kit.duplex),
                         {**kit.duplex_details, "ink": kit.ink})


def _step_problems(kit: Kit, steps: CalibrationSteps) -> list[Problem]:
    """Each calibration step too long for the kit's paper, at its words: the tool's catalog
    entry in the kit's locale, or the sheet's English source."""
    source = kit.project.load_sheet("calibration")
    problems = []
    for index, reason in steps.problems:
        file, line = locate(source, ("text", "steps", index))
        where = tool_text_place(kit.project, kit.loc.locale, f"sheets.calibration.text.steps.{index}",
                                str(source["text"]["steps"][index]), (file, line, f"text.steps.{index}"))
        problems.append(Problem(*where, f"[{kit.game.slug} {kit.loc.edition} {kit.loc.locale}] step {index + 1} of "
                                        f"the duplex calibration sheet does not fit on {kit.paper} paper: {reason}"))
    return problems


def _title_problem(kit: Kit, deck: str, sheet: ContactSheet) -> Problem:
    """A deck's contact sheet title ("Game — Deck") too long for its band, at the deck's name."""
    cards_file = kit.game.files["cards"]
    path = ("decks", deck, "name") if "name" in cards_file["decks"][deck] else ("decks", deck)
    file, line = locate(cards_file, path)
    return Problem(file, line, ".".join(path),
                   f"[{kit.game.slug} {kit.loc.edition} {kit.loc.locale}] the contact sheet's title "
                   f"'{sheet.title_text}' does not fit: {sheet.problem}; shorten the deck's name or the game's title")


def locale_parts(kit: Kit) -> list:
    """Each deck with cards in the edition, in the order of its first card."""
    return list(dict.fromkeys(c.data["deck"] for c in kit.game.in_edition(kit.loc.edition, "cards")))


def locale_files(kit: Kit, part: str | None = None) -> list:
    """A contact sheet per deck (PNG), once per edition and locale whatever the paper."""
    artifacts = []
    for deck, sheet in _contact_sheets(kit, card_faces(kit.loc) if part is None else deck_faces(kit.loc, part)):
        if sheet.problem:
            raise DataError([_title_problem(kit, deck, sheet)])
        artifacts.append(kit.artifact("preview", render_contact_sheet(sheet), 1, name=f"preview-{deck}",
                                      extension="png", per_paper=False, details={"deck": deck}))
    return artifacts


def _contact_sheets(kit: Kit, faces: list) -> list[tuple[str, ContactSheet]]:
    """(deck, its contact sheet laid out) of each deck the faces are of, in the order of its first."""
    by_deck: dict[str, list] = {}
    for face in faces:
        by_deck.setdefault(face.values["deck"], []).append(face)
    return [(deck, lay_out_contact_sheet(cards, deck_title(kit.loc, deck, cards[0]), kit.loc.label("back")))
            for deck, cards in by_deck.items()]


def _calibration_steps(kit: Kit) -> tuple[dict, CalibrationSteps]:
    settings = localised_sheet(kit, "calibration")
    return settings, lay_out_calibration_steps(kit.paper_mm, settings["text"]["steps"], settings["cross_mm"])


def check(kit: Kit) -> list:
    """The words of the pages cards come with, laid out before anything is drawn: each deck's
    contact sheet title, and the calibration sheet's steps on every paper."""
    if not kit.game.in_edition(kit.loc.edition, "cards"):
        return []
    problems = [_title_problem(kit, deck, sheet) for deck, sheet in _contact_sheets(kit, card_faces(kit.loc))
                if sheet.problem]
    for paper in kit.project.read_sheet("papers")["papers"]:
        on_paper = replace(kit, paper=paper)
        problems += _step_problems(on_paper, _calibration_steps(on_paper)[1])
    return problems


def sheets(project, loc, paper_mm) -> int:
    """Sheets printed on both sides: a fronts page and its backs page are one sheet."""
    spans = _sheet_spans(project, loc, paper_mm)
    return spans[-1][2] if spans else 0


def _sheet_spans(project, loc, paper_mm) -> list:
    """(run, first sheet, last sheet) of each deck back's run, as the long-edge duplex file
    prints them."""
    faces, _texts = card_faces_with_texts(loc)       # copies and sizes are data: no text counts
    band = unprintable_band(project, paper_mm)
    return run_pages(card_runs(loc, faces, card_sizes(project)),
                     lambda size: sheet_grid(home_sheet(project, size, "long"), paper_mm, band).per_page)


def tables(project, loc, paper_mm) -> list:
    """(numbers of players, sheet numbers) per table that prints only some of the card sheets,
    tables that take the same sheets together; [] when every table prints them all."""
    spans = _sheet_spans(project, loc, paper_mm)
    if not spans:
        return []
    sheets_of: dict[tuple, list[int]] = {}
    for players in sorted({t for run, _, _ in spans for t in run.tables}):
        numbers = tuple(n for run, first, last in spans if players in run.tables for n in range(first, last + 1))
        sheets_of.setdefault(numbers, []).append(players)
    if all(len(numbers) == spans[-1][2] for numbers in sheets_of):
        return []
    return [(tuple(players), list(numbers)) for numbers, players in sheets_of.items()]


def placed(kit: Kit) -> PlacedKind:
    """Every distinct card face, fronts and backs, once each; the values of every edition's
    cards for the fields their layouts read (a field may be one edition's)."""
    faces = distinct_faces(card_faces(kit.loc))
    return PlacedKind("cards", "card", tuple(
        PlacedComponent("cards", face.key, face.source, tuple(face.layout["size_mm"]), face,
                        (ComponentFace(face.placed, face.source, names_catalog=True),))
        for face in faces), tuple(card_field_uses(kit.loc)))


def contents(loc, phrase) -> list:
    """A row per deck: its card count and name."""
    cards, rows = loc.game.in_edition(loc.edition, "cards"), []
    for deck_id, deck in loc.game.decks.items():
        total = sum(c.count(loc.edition) for c in cards if c.data["deck"] == deck_id)
        if total:
            rows.append((phrase(loc, "cards", total), loc.field(f"decks.{deck_id}", deck, "name")))
    return rows


KIND = Kind("cards", files, sheets, placed=placed, check=check, locale_files=locale_files, contents=contents, tables=tables,
            file_parts=file_parts, locale_parts=locale_parts, file_kinds=("cards", "calibration", "preview"))
