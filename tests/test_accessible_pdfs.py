"""Rule booklets are tagged PDF (PDF/UA-1) in every locale, read here from the structure tree:
marked, in the locale's language, titled, headings in reading order as the outline has them,
every picture with alternative text from the locale's catalog, table headers linked to their
cells. A shop's booklet keeps the tags through its bleed."""
from __future__ import annotations

import io
from itertools import groupby
from pathlib import Path

import pikepdf
import pytest

from conftest import replace_in
from generator.app.kits import Kit, booklet_of
from generator.app.loading import load_games
from generator.core.reproducible import fixed_clock
from generator.i18n.texts import Texts
from generator.layout.faces import Localised
from generator.load.project import Project
from generator.render.shop import booklet_with_bleed


ROOT = Path(__file__).resolve().parent.parent
GAMES = ("the-game", "donkey-can")       # small booklets with text tables, card blocks and print tables
LOCALES = ("bg", "cs", "en", "ru", "uk")
HEADINGS = {"/H1": 1, "/H2": 2, "/H3": 3, "/H4": 4, "/H5": 5, "/H6": 6}


@pytest.fixture(scope="module")
def booklets(rendered_booklet) -> dict:
    """(slug, locale) -> (Localised, PDF bytes) of each game's first edition, as
    `pnp build --kind booklet` writes the booklets (shared with the session's other readers of
    them, tests/conftest.py `rendered_booklet`)."""
    project = Project(ROOT)
    made = {}
    for slug in GAMES:
        game = load_games(project, slug, texts=False)[0]
        assert set(game.locales) == set(LOCALES)
        edition = game.editions[0]
        for locale in LOCALES:
            loc = Localised(game, edition, Texts.load(game, locale))
            made[slug, locale] = loc, rendered_booklet(slug, edition, locale)[1]
    return made


CASES = [(slug, locale) for slug in GAMES for locale in LOCALES]


def open_pdf(data: bytes) -> pikepdf.Pdf:
    return pikepdf.open(io.BytesIO(data))


def elements(pdf: pikepdf.Pdf):
    """Every structure element, depth first in the tree's order (the reading order)."""
    def walk(node, parent):
        if isinstance(node, pikepdf.Dictionary) and "/S" in node:
            yield node, parent
            kids = node.get("/K")
            for kid in (kids if isinstance(kids, pikepdf.Array) else [kids] if kids is not None else []):
                yield from walk(kid, node)
    for top in pdf.Root.StructTreeRoot.K:
        yield from walk(top, None)


def descendants(node):
    kids = node.get("/K")
    for kid in (kids if isinstance(kids, pikepdf.Array) else [kids] if kids is not None else []):
        if isinstance(kid, pikepdf.Dictionary) and "/S" in kid:
            yield kid
            yield from descendants(kid)


def outline_levels(pdf: pikepdf.Pdf) -> list[tuple[int, str]]:
    """(level, title) of every bookmark (one per heading), in document order."""
    found = []

    def walk(items, level):
        for item in items:
            found.append((level, item.title))
            walk(item.children, level + 1)
    with pdf.open_outline() as outline:
        walk(outline.root, 1)
    return found


def page_of(pdf: pikepdf.Pdf, element) -> int:
    return next(i for i, page in enumerate(pdf.pages) if page.obj.objgen == element.Pg.objgen)


@pytest.mark.parametrize("slug, locale", CASES)
def test_booklet_is_marked_titled_and_in_its_language(booklets, slug, locale):
    loc, data = booklets[slug, locale]
    pdf = open_pdf(data)
    root = pdf.Root
    assert "/StructTreeRoot" in root and root.StructTreeRoot.Type == "/StructTreeRoot"
    assert root.MarkInfo.Marked is True
    assert str(root.Lang) == locale
    assert root.ViewerPreferences.DisplayDocTitle is True
    title = str(pdf.docinfo.Title)
    assert title.startswith(loc.title) and title.strip()
    meta = pdf.open_metadata()
    assert meta.get("dc:title") == title and meta.get("pdfuaid:part") == "1"
    # Every page's marked content is found from the tree: each page names its parent tree entry.
    parents = dict(zip(root.StructTreeRoot.ParentTree.Nums[::2], root.StructTreeRoot.ParentTree.Nums[1::2]))
    for index, page in enumerate(pdf.pages):
        assert page.obj.StructParents == index and index in parents
        assert page.obj.Tabs == "/S"


@pytest.mark.parametrize("slug, locale", CASES)
def test_headings_are_h1_then_h2_in_reading_order(booklets, slug, locale):
    loc, data = booklets[slug, locale]
    pdf = open_pdf(data)
    headings = [(HEADINGS[str(e.S)], page_of(pdf, e)) for e, _ in elements(pdf) if str(e.S) in HEADINGS]
    levels = [level for level, _ in headings]
    assert levels[0] == 1 and levels.count(1) == 1            # the title, on the cover
    assert levels.count(2) >= 2
    assert [page for _, page in headings] == sorted(page for _, page in headings)
    # The tree has the headings the outline has, in the same order and at the same levels.
    outline = outline_levels(pdf)
    assert levels == [level for level, _ in outline]
    # ...and those are the section titles of the edition, in the locale.
    game = loc.game
    sections = [loc.text(f"booklet.sections.{s['id']}.title", s["title"]) for s in game.booklet["sections"]
                if "editions" not in s or loc.edition in s["editions"]]
    assert [title for level, title in outline if level == 2][1:] == sections      # after the contents
    # The contents' links say where they lead in the same words: the section's title.
    links = [str(a.Contents) for page in pdf.pages for a in page.obj.get("/Annots", []) if a.Subtype == "/Link"]
    assert links and [title for title, _ in groupby(links)] == sections     # (a link has a box per line)


def expected_alts(loc: Localised) -> set[str]:
    """Each card picture's alternative text as the catalog of the locale gives it: its deck's
    name and its own."""
    game, alts = loc.game, set()
    for component in game.in_edition(loc.edition, "cards"):
        deck = component.data["deck"]
        name = loc.field(component.text_root("name"), component.data, "name")
        alts.add(f"{loc.field(f'decks.{deck}', game.decks[deck], 'name')}: {name}")
    return alts


def images_drawn(pdf: pikepdf.Pdf) -> int:
    count = 0
    for page in pdf.pages:
        images = {name for name, x in page.obj.Resources.get("/XObject", {}).items() if x.get("/Subtype") == "/Image"}
        count += sum(1 for operands, op in pikepdf.parse_content_stream(page)
                     if str(op) == "Do" and str(operands[0]) in images)
    return count


@pytest.mark.parametrize("slug, locale", CASES)
def test_every_picture_is_a_figure_with_alternative_text_in_the_locale(booklets, slug, locale):
    loc, data = booklets[slug, locale]
    pdf = open_pdf(data)
    figures = [e for e, _ in elements(pdf) if e.S == "/Figure"]
    assert figures and len(figures) == images_drawn(pdf)
    alts = [str(f.get("/Alt", "")) for f in figures]
    assert all(alt.strip() for alt in alts)
    assert set(alts) <= expected_alts(loc), set(alts) - expected_alts(loc)
    if locale != loc.game.source_locale:          # translated, not the source's words
        source = Localised(loc.game, loc.edition, Texts.load(loc.game, loc.game.source_locale))
        assert not set(alts) & expected_alts(source)


@pytest.mark.parametrize("slug, locale", CASES)
def test_table_headers_are_th_linked_to_their_cells(booklets, slug, locale):
    _, data = booklets[slug, locale]
    pdf = open_pdf(data)
    tables = [e for e, _ in elements(pdf) if e.S == "/Table"]
    headed = row_headed = 0
    for table in tables:
        cells = list(descendants(table))
        headers = {str(c.ID): c for c in cells if c.S == "/TH"}
        if not headers:
            # A table of (count, component) rows has no header row, and says it has none.
            assert not any(c.S == "/THead" for c in cells)
            continue
        headed += 1
        assert all(c.A.O == "/Table" for c in headers.values())
        column = {str(c.ID) for c in cells if c.S == "/THead" for c in descendants(c) if c.S == "/TH"}
        for cell in cells:
            if cell.S == "/TD" and "/THead" not in [str(p.S) for p in ancestors(cell, table)]:
                named = [str(h) for h in cell.A.Headers]
                assert named and set(named) <= set(headers)
                if set(named) - column:
                    row_headed += 1
    # the rules' text table and the print table; the print table's rows have their own headers
    assert headed >= 2 and row_headed >= 1


def ancestors(cell, table):
    node = cell.P
    while node.objgen != table.objgen:
        yield node
        node = node.P


def test_a_shop_booklet_keeps_the_tags_through_its_bleed(booklets):
    _, data = booklets[GAMES[0], "bg"]
    pdf = open_pdf(booklet_with_bleed(data, 3.0))
    assert "/StructTreeRoot" in pdf.Root and str(pdf.Root.Lang) == "bg" and pdf.Root.MarkInfo.Marked is True
    assert len(list(elements(pdf))) == len(list(elements(open_pdf(data))))
    assert all("/TrimBox" in page.obj for page in pdf.pages)


def test_a_picture_without_alternative_text_fails_the_booklet_with_a_readable_message(project):
    from generator.core.errors import BuildError
    replace_in(project / "templates" / "booklet" / "booklet.html.j2", 'alt="{{ card.alt }}"', 'alt=""')
    loaded = Project(project)
    game = load_games(loaded, GAMES[0], texts=False)[0]
    loc = Localised(game, game.editions[0], Texts.load(game, "cs"))
    with fixed_clock(), pytest.raises(BuildError) as failed:
        booklet_of(Kit(loaded, game, loc, "a4"))
    message = str(failed.value)
    assert "needs an alt text" in message and "has no required alt description" in message
    assert 'Image "data:image/png;base64,…"' in message and len(message) < 2000
