"""Rule booklets and designer's reports are tagged PDF (PDF/UA-1) in every locale, read here
from the structure tree: marked, in the locale's language, titled, headings in reading order as
the outline has them, every picture with alternative text from the locale's catalog, table
headers scoped and linked to their cells. A shop's booklet keeps the tags through its bleed.
Every booklet and report `pnp build` writes passes the PDF/UA-1 rules a machine can decide
(those the `pdfua` package checks, walked here with pikepdf)."""
from __future__ import annotations

import io
import json
import shutil
from itertools import groupby
from pathlib import Path

import pikepdf
import pytest

from conftest import SAMPLE, add_catalog, build_reports, pnp, replace_in, reported_sample
from generator.app.kits import Kit, booklet_of
from generator.app.loading import load_games
from generator.core.reproducible import fixed_clock
from generator.i18n.texts import Texts
from generator.layout.booklet import booklet_words
from generator.layout.faces import Localised
from generator.load.icons import declared_icons
from generator.load.project import Project
from generator.render.shop import booklet_with_bleed


ROOT = Path(__file__).resolve().parent.parent
GAME = "sample-game"
LOCALES = ("en", "ru")
HEADINGS = {"/H1": 1, "/H2": 2, "/H3": 3, "/H4": 4, "/H5": 5, "/H6": 6}
# The sample's booklet with a section of text table and card pictures, and the sample's cards
# and decks named in Russian: what a booklet's tags are checked on besides its print table.
HEROES_SECTION = """  - id: heroes
    title: The heroes
    blocks:
      - table:
          header: [Hero, Moves]
          rows:
            - [Knight, two spaces]
            - [Archer, three spaces]
      - cards: {deck: heroes}
"""
RUSSIAN_NAMES = {"decks.heroes.name": "Герои", "decks.coins.name": "Монеты", "cards.knight.name": "Рыцарь",
                 "cards.archer.name": "Лучник", "icons.sun.alt": "Солнце", "icons.coin.alt": "Монета"}


@pytest.fixture(scope="module")
def booklet_project(tmp_path_factory) -> Path:
    """A copy of the sample project with the heroes' section in its booklet and a released `ru`
    catalog (conftest.add_catalog) naming its cards and decks in Russian."""
    project = tmp_path_factory.mktemp("accessible") / "sample"
    shutil.copytree(SAMPLE, project)
    replace_in(project / "components" / GAME / "booklet.yaml", "  - id: print\n", HEROES_SECTION + "  - id: print\n")
    add_catalog(project, "ru", RUSSIAN_NAMES)
    return project


@pytest.fixture(scope="module")
def booklets(booklet_project) -> dict:
    """(slug, locale) -> (Localised, PDF bytes) of the game's booklet in each locale, as
    `pnp build --kind booklet` writes it."""
    out = booklet_project.parent / "out"
    result = pnp("build", "--kind", "booklet", "--out", str(out), project=booklet_project)
    assert result.exit_code == 0, result.output + result.traceback
    game = load_games(Project(booklet_project), GAME, texts=False)[0]
    assert set(game.locales) == set(LOCALES)
    edition = game.editions[0]
    made = {}
    for locale in LOCALES:
        loc = Localised(game, edition, Texts.load(game, locale))
        made[GAME, locale] = loc, (out / GAME / edition / locale / f"{GAME}-{edition}-{locale}-rules.pdf").read_bytes()
    return made


CASES = [(GAME, locale) for locale in LOCALES]


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
    # (the notes on this edition are headed with the tool's words)
    notes = booklet_words(Project(game.folder.parents[1]), loc.locale)["edition_notes"]
    sections = [loc.text(f"booklet.sections.{s['id']}.title", s["title"]) if "title" in s else notes
                for s in game.booklet["sections"] if "editions" not in s or loc.edition in s["editions"]]
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


def icon_alts(loc: Localised) -> set[str]:
    """Each icon's alternative text (game.yaml's icons) in the locale: the sample's booklet
    and its archer's text show them all."""
    return {loc.text(spec.alt_key, spec.alt) for spec in declared_icons(loc.game.meta).values()}


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
    alts = [str(f.get("/Alt", "")) for f in figures]
    # the icons in its text are figures too, drawn as vectors (an SVG, a glyph's outline)
    icons = [alt for alt in alts if alt in icon_alts(loc)]
    assert set(icons) == icon_alts(loc), alts
    assert figures and len(figures) - len(icons) == images_drawn(pdf)
    assert all(alt.strip() for alt in alts)
    assert set(alts) - set(icons) <= expected_alts(loc), set(alts) - expected_alts(loc)
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
    _, data = booklets[GAME, "ru"]
    pdf = open_pdf(booklet_with_bleed(data, 3.0))
    assert "/StructTreeRoot" in pdf.Root and str(pdf.Root.Lang) == "ru" and pdf.Root.MarkInfo.Marked is True
    assert len(list(elements(pdf))) == len(list(elements(open_pdf(data))))
    assert all("/TrimBox" in page.obj for page in pdf.pages)


def test_a_picture_without_alternative_text_fails_the_booklet_with_a_readable_message(booklet_project, tmp_path):
    from generator.core.errors import BuildError
    project = tmp_path / "sample"
    shutil.copytree(booklet_project, project)
    shutil.copytree(ROOT / "templates", project / "templates")
    replace_in(project / "templates" / "booklet" / "booklet.html.j2", 'alt="{{ card.alt }}"', 'alt=""')
    loaded = Project(project)
    game = load_games(loaded, GAME, texts=False)[0]
    loc = Localised(game, game.editions[0], Texts.load(game, "ru"))
    with fixed_clock(), pytest.raises(BuildError) as failed:
        booklet_of(Kit(loaded, game, loc, "a4"))
    message = str(failed.value)
    assert "needs an alt text" in message and "has no required alt description" in message
    assert 'Image "data:image/png;base64,…"' in message and len(message) < 2000


# ---- the machine-checkable PDF/UA-1 rules ----------------------------------------------
# The twelve checks of the `pdfua` package (0.1.3: 16 of PDF/UA-1's 106 rules, by its ids),
# walked here with pikepdf: the package itself cannot read a /K that is an array with the
# pikepdf this project installs, so one of its checks never runs there.

TEXT_OPERATORS = {"Tj", "TJ", "'", '"'}


def pdfua_findings(data: bytes) -> list[str]:
    """Every breach of the machine-checkable rules, as '<rule>: <what>' (empty: none)."""
    pdf = open_pdf(data)
    root, found = pdf.Root, []
    if "/StructTreeRoot" not in root:
        return ["UA-01-005: no structure tree"]
    if root.get("/MarkInfo") is None or root.MarkInfo.get("/Marked") is not True:
        found.append("UA-01-002: /MarkInfo /Marked is not true")
    for number, page in enumerate(pdf.pages, start=1):
        depth = unmarked = 0
        for operands, operator in pikepdf.parse_content_stream(page):
            operator = str(operator)
            if operator in ("BDC", "BMC"):
                depth += 1
            elif operator == "EMC":
                depth -= 1
            elif depth == 0 and (operator in TEXT_OPERATORS or operator == "Do"):
                unmarked += 1
        if unmarked:
            found.append(f"UA-01-003: page {number}: {unmarked} operators neither tagged nor artifact")
        for annotation in page.obj.get("/Annots", []):
            kind = str(annotation.get("/Subtype"))
            if kind != "/Popup" and not str(annotation.get("/Contents", "")).strip():
                rule = "UA-18-005" if kind == "/Link" else "UA-18-001"
                found.append(f"{rule}: page {number}: a {kind} annotation without /Contents")
    if not str(root.get("/Lang", "")).strip():
        found.append("UA-06-001: no /Lang")
    if not str(pdf.docinfo.get("/Title", "")).strip():
        found.append("UA-07-001: no title")
    if root.get("/ViewerPreferences") is None or root.ViewerPreferences.get("/DisplayDocTitle") is not True:
        found.append("UA-07-002: the viewer is not asked to show the title")
    if "/Metadata" not in root or b"pdfuaid" not in root.Metadata.read_bytes():
        found.append("UA-28-004: no PDF/UA identification in XMP")
    for element, _ in elements(pdf):
        role = str(element.S)
        if role == "/Figure" and not str(element.get("/Alt", element.get("/ActualText", ""))).strip():
            found.append("UA-13-004: a figure without /Alt")
        elif role in HEADINGS and not marks_content(element):
            found.append(f"UA-14-001: an empty {role}")
        elif role == "/Table":
            found += table_findings(element)
    return found


def marks_content(element) -> bool:
    kids = element.get("/K")
    for kid in (kids if isinstance(kids, pikepdf.Array) else [kids] if kids is not None else []):
        if not isinstance(kid, pikepdf.Dictionary) or kid.get("/Type") == "/MCR" or marks_content(kid):
            return True                                # an /MCID, or a marked-content reference
    return False


def table_findings(table) -> list[str]:
    """UA-15-003: a table's structure is determinable: its rows have header cells (/TH), each
    with /Scope (or /Headers), and every data cell names its headers."""
    cells = [cell for cell in descendants(table) if cell.S in ("/TH", "/TD")]
    if not any(row.S == "/TR" for row in descendants(table)):
        return ["UA-15-003: a table without rows"]
    headers = [cell for cell in cells if cell.S == "/TH"]
    data = [cell for cell in cells if cell.S == "/TD"]
    if data and not headers:
        return [f"UA-15-003: a table of {len(data)} data cells and no header cell"]
    unscoped = [cell for cell in headers if "/Scope" not in cell.get("/A", {}) and "/Headers" not in cell.get("/A", {})]
    if data and unscoped:
        return [f"UA-15-003: {len(unscoped)} header cells with neither /Scope nor /Headers"]
    return []


def test_the_check_finds_what_it_checks():
    """A document that breaks the rules is caught: the check can fail."""
    from reportlab.pdfgen.canvas import Canvas
    buffer = io.BytesIO()
    canvas = Canvas(buffer)
    canvas.drawString(72, 72, "untagged")
    canvas.save()
    assert pdfua_findings(buffer.getvalue()) == ["UA-01-005: no structure tree"]


@pytest.mark.parametrize("slug, locale", CASES)
def test_every_booklet_passes_the_machine_checkable_rules(booklets, slug, locale):
    assert pdfua_findings(booklets[slug, locale][1]) == []


REPORT_LOCALES = ("en", "ru")       # the reported sample's (conftest `reported_sample`): Cyrillic in ru


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, bytes]:
    """The sample game's designer's reports in every locale, as `pnp build` writes them from
    the games its engine asks for. tests/test_report.py reads the same build: a test session
    plays its games once (its cache)."""
    project = reported_sample(tmp_path_factory.mktemp("reported"))
    out = build_reports(project, tmp_path_factory.mktemp("reports"))
    entries = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["files"]
    assert {entry["locale"] for entry in entries} == set(REPORT_LOCALES)
    return {path.parent.name: path.read_bytes() for path in sorted(out.rglob("*-report.pdf"))}


def test_every_report_passes_the_machine_checkable_rules(reports):
    assert set(reports) == set(REPORT_LOCALES)
    assert {locale: pdfua_findings(data) for locale, data in reports.items()} == {locale: [] for locale in REPORT_LOCALES}


def test_report_tables_head_their_columns_and_rows_and_plots_say_what_they_show(reports):
    pdf = open_pdf(reports["ru"])
    assert str(pdf.Root.Lang) == "ru" and pdf.open_metadata().get("pdfuaid:part") == "1"
    tables = [e for e, _ in elements(pdf) if e.S == "/Table"]
    assert tables
    for table in tables:
        scopes = {str(c.A.Scope) for c in descendants(table) if c.S == "/TH"}
        assert scopes == {"/Column", "/Row"}
        assert all(c.A.Headers for c in descendants(table) if c.S == "/TD")
    figures = [e for e, _ in elements(pdf) if e.S == "/Figure"]
    assert len(figures) == 3         # game length, endings, seat win rates (card use is a table)
    headings = [e for e, _ in elements(pdf) if e.S == "/H2"]
    alts = [str(f.Alt) for f in figures]
    assert all(alt.strip() and not alt.isascii() for alt in alts)     # Russian words
    assert len(headings) >= len(figures)


def test_sample_project_booklet_passes_the_machine_checkable_rules(sample):
    """The fixture game's kit, its booklet and the report its rules engine's games make: a
    designer's project."""
    files = sorted(sample.glob("*-rules.pdf")) + sorted(sample.glob("*-report.pdf"))
    assert [path.name.rsplit("-", 1)[1] for path in files] == ["rules.pdf", "report.pdf"]
    assert {path.name: pdfua_findings(path.read_bytes()) for path in files} == {path.name: [] for path in files}
