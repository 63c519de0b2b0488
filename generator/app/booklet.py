"""The rule booklet as the component kinds fill it: what the home kit prints on each paper, the
kit's contents, the pictures of components; laid out by generator/layout/booklet.py, its
pictures drawn and its pages rendered by generator/render/booklet.py.
"""
from __future__ import annotations

from ..layout.booklet import BookletContent, BookletPictures, HomePrint, booklet_words, lay_out, phrase, shows, table_rows
from ..layout.faces import Localised, card_faces_with_texts
from ..layout.kit import Kit
from ..load.project import Project
from ..render.booklet import CARD_DPI, card_pictures, component_picture
from .kinds import KINDS


def rule_booklet_content(kit: Kit, picture_dpi: int = CARD_DPI) -> BookletContent:
    """The rule booklet of the kit's edition and locale, laid out with the pictures it shows
    drawn at `picture_dpi`."""
    loc = kit.loc
    faces, texts = card_faces_with_texts(loc)         # the booklet says which faces it shows
    home = home_print(kit.project, loc)
    needed = shows(loc, faces)
    pictures = BookletPictures(card_pictures(needed.faces, picture_dpi))
    contents = component_rows(loc) if needed.contents else []
    for reference in needed.components:
        drawing = kind_picture(kit.project, loc, reference)
        if drawing is not None:
            pictures.components[reference] = component_picture(drawing, picture_dpi)
    notes_title = booklet_words(kit.project, loc.locale)["edition_notes"] if "decisions" in loc.game.booklet else ""
    return lay_out(loc, faces, home, contents, pictures, draft=kit.draft, face_texts=texts, notes_title=notes_title)


def component_rows(loc: Localised) -> list[tuple[str, str]]:
    """(how many, what) for everything in this edition, as each component kind lists its own:
    decks, boards by name, tokens, ..."""
    return [row for kind in KINDS for row in kind.contents(loc, phrase)]


def kind_picture(project: Project, loc: Localised, reference: str):
    """One component (`dice.sun`, `pieces.tray`, `boards.square`) as its kind draws it for the
    booklet (Kind.picture), or None when the edition has no such component."""
    category, _, component_id = reference.partition(".")
    kind = next((kind for kind in KINDS if kind.name == category), None)
    return kind.picture(project, loc, component_id) if kind is not None else None


def home_print(project: Project, loc: Localised) -> HomePrint:
    """Sheets of each paper the home kit takes, as each component kind lays its files out:
    card sheets (fronts and backs on one sheet, printed duplex), board tiles, token pages."""
    papers = project.read_sheet("papers")["papers"]
    home = HomePrint([paper["name"] for paper in papers.values()])
    for kind in KINDS:
        sheets = [kind.sheets(project, loc, tuple(paper["size_mm"])) for paper in papers.values()]
        if any(sheets):
            home.rows.append((f"print_{kind.name}", sheets))
            parts = [kind.parts(project, loc, tuple(paper["size_mm"])) for paper in papers.values()]
            if parts[0]:
                home.details[f"print_{kind.name}"] = [(name, [part[index][1] for part in parts])
                                                      for index, (name, _) in enumerate(parts[0])]
            tables = [kind.tables(project, loc, tuple(paper["size_mm"])) for paper in papers.values()]
            if tables[0]:
                home.tables[f"print_{kind.name}"] = table_rows(project, loc, tables)
    return home
