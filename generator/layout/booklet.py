"""The rule booklet: one A5 PDF per edition and locale, laid out from `booklet.yaml`.

Lay out: every string goes through Texts by the key path `pnp i18n extract` gives it
(`booklet.sections.<id>.blocks.<i>.p`, `booklet.ui.<word>`, ...), sections and blocks are
filtered by `editions:`, placeholders are filled from the data, and the generated blocks
(components, cards, print) are built from the components themselves, with every card drawn
by the same face renderer as the card sheets.
Render: Jinja2 (templates/booklet/) to HTML, WeasyPrint to PDF, padded to a multiple of 4.
The PDF is tagged for screen readers and reflow (PDF/UA-1): its language and title, headings,
lists and tables in reading order, every picture with a text in the booklet's locale.
A template is not trusted: it runs in Jinja2's sandbox, sees only the booklet's values, and any
mistake in it is an error at its own file and line.
"""
from __future__ import annotations

import base64
import io
import logging
import re
import traceback
from dataclasses import dataclass, field, fields, is_dataclass, replace
from pathlib import Path
from urllib.parse import unquote, urlsplit

import jinja2
import jinja2.meta
import pydyf
import pypdfium2
from jinja2 import nodes
from jinja2.loaders import split_template_path
from jinja2.sandbox import ImmutableSandboxedEnvironment, safe_range
from weasyprint import HTML
from weasyprint.urls import URLFetcher

from ..core import fonts
from ..core.errors import BuildError, DataError, PnpError, Problem
from ..core.files import read_bytes_inside
from ..core.yamlfile import locate
from ..i18n import typography
from ..i18n.texts import retell
from ..load.project import TOOL_TEMPLATES, Project
from ..render import subset
from ..render.faces import draw_placed
from ..render.pdf import Document
from .faces import Face, Localised


# Words the layout prints around the text, from `ui:` in booklet.yaml: the contents title
# always; a card table's header, the print table's rows, when the booklet has them.
TABLE_WORDS = ("role", "effect")
# Advice under the print table, each printed when the booklet defines it.
PRINT_NOTES = ("print_scale", "fold_booklet", "booklet_flip")
# Card pictures: 200 dpi at the card's own size, so at the 15-48 mm the booklet prints them
# they are well above print resolution.
CARD_DPI = 200
# Blank pages rendered after the content; the ones a multiple of 4 does not need are dropped.
PAD_PAGES = 3
# Spacing a booklet is laid out in again, in this order, when as designed it would end on a
# nearly empty page or need more than one page of notes to fill its last sheet (the classes of
# booklet.css: tighter spacing and leading a step at a time, then looser).
FITS = ("tight-1", "tight-2", "tight-3", "loose-1", "loose-2", "loose-3", "loose-4")
# The last page of rules is at least this full (of its text area), else it is laid out again.
LAST_PAGE_FULL = 0.27
# Times a booklet is laid out again to keep hyphenated words off page breaks.
MAX_REFLOWS = 4
# Saddle stitching folds sheets of four pages: the booklet's page count is a multiple of this.
PAGE_MULTIPLE = 4
# Tagged PDF: WeasyPrint's PDF/UA-1 variant writes the structure tree (headings, lists, tables
# with their headers, figures with their alternative text), /Lang, the title shown as the
# window's title, and the PDF/UA identification in XMP (no dates, no random IDs).
PDF_VARIANT = "pdf/ua-1"
# Line breaks and runs of spaces in a link's HTML text (a no-break space is kept).
BREAKS = re.compile(r"[ \t\r\n\f]+")
DATA_URI = re.compile(r"(data:[\w/+.-]*(?:;[\w=-]+)*,)[^\s\"']{24,}")
# The booklet's template, under templates/, and all it is given: the values the build passes
# in, and of Jinja2's globals only the (sandbox's bounded) range the shipped template uses.
BOOKLET_TEMPLATE = "booklet/booklet.html.j2"
TEMPLATE_VALUES = ("booklet", "fonts", "stylesheet", "pad_pages")
TEMPLATE_GLOBALS = {"range": safe_range}
# A standee is a pawn; other tokens are counted with the `tokens` phrase (then `copies`).
# The fonts the booklet uses, as @font-face rules: (family, weight, style, file).
FONT_FACES = (
    ("Booklet Serif", 400, "normal", "NotoSerif-Regular.ttf"),
    ("Booklet Serif", 700, "normal", "NotoSerif-Bold.ttf"),
    ("Booklet Serif", 400, "italic", "NotoSerif-Italic.ttf"),
    ("Booklet Sans", 400, "normal", "NotoSans-Regular.ttf"),
    ("Booklet Sans", 700, "normal", "NotoSans-Bold.ttf"),
    ("Booklet Sans", 400, "italic", "NotoSans-Italic.ttf"),
    ("Booklet Sans", 700, "italic", "NotoSans-BoldItalic.ttf"),
    # What the text fonts lack (fonts.FALLBACK: the minus sign); booklet.css names it after them.
    ("Booklet Math", 400, "normal", "NotoSansMath-Regular.ttf"),
)


# ---- content ------------------------------------------------------------------------------

@dataclass
class CardEntry:
    key: str                 # cards.<id>
    name: str                # the same catalog string as on the card
    text: str
    counts: list[str]        # "Full edition: 15 cards", per edition the booklet may mention
    image: str               # data: URI of the drawn face
    alt: str = ""            # the picture's alternative text: "deck: name"


@dataclass
class Block:
    kind: str                # p, tip, list, steps, example, table, faq, components, cards, card-table, print, picture
    content: object


@dataclass
class Section:
    id: str
    title: str
    blocks: list[Block]


@dataclass
class BookletContent:
    lang: str
    title: str
    subtitle: str
    tagline: str
    edition: str
    facts: list[str]
    ui: dict[str, str]
    sections: list[Section]
    draft: str = ""
    cover_card: str = ""     # data: URI of a card shown on the cover
    cover_card_alt: str = ""     # that card's alternative text
    # The words beside the 50 mm bar on the first page (the game's labels.scale_check)
    scale_label: str = ""
    # The 50 mm bar and its words on the cover: home print only (a shop's file carries no
    # home furniture: it would print on every copy)
    scale_bar: bool = True
    # Set when it is rendered: the heading of the ruled notes pages that fill the last sheet (the
    # tool's words in the locale), and the spacing it is laid out in ('' as designed, or one of FITS).
    notes: str = ""
    fit: str = ""


@dataclass
class HomePrint:
    """What the edition's home kit prints, per paper: sheets of paper for each part."""

    papers: list[str]                                            # paper names, in order
    rows: list[tuple[str, list[int]]] = field(default_factory=list)   # (part, sheets per paper)
    # (component's name, sheets per paper) under a part, when a table prints only some of them
    details: dict[str, list[tuple[str, list[int]]]] = field(default_factory=dict)
    # (which tables, their sheet numbers per paper) under a part, in words, when tables of some
    # numbers of players print only some of its sheets (the decks they play with)
    tables: dict[str, list[tuple[str, list[str]]]] = field(default_factory=dict)


def shown(node, edition: str) -> bool:
    return "editions" not in node or edition in node["editions"]


def contains(game, larger: str, smaller: str) -> bool:
    """Every component of edition `smaller` is in `larger` in at least the same number."""
    return all(c.count(larger) >= c.count(smaller) for c in game.components)


def lay_out(loc: Localised, faces: list[Face], home: HomePrint, *, draft: str = "",
            project: Project | None = None, face_texts: list | None = None,
            picture_dpi: int = CARD_DPI) -> BookletContent:
    """The booklet's text for one edition and locale, every number filled from the data;
    `project` draws the component pictures (its dice sheet). With `face_texts` (the texts each
    face was made of, layout.card_faces_with_texts), those of the faces it shows are recorded
    as what the booklet is made of."""
    game = loc.game
    booklet = game.booklet
    ui = Words(loc, booklet.get("ui", {}))
    ui.need("contents")
    # Draw only the cards the booklet shows: those of its card blocks, and the cover's.
    decks = {block["cards"]["deck"] for section in booklet["sections"] if shown(section, loc.edition)
             for block in section["blocks"] if "cards" in block and shown(block, loc.edition)}
    deck_of = {f"card-{c.id}": c.data["deck"] for c in game.in_edition(loc.edition, "cards")}
    drawn = [face for i, face in enumerate(faces) if i == 0 or deck_of.get(face.key) in decks]
    shown_keys = {face.key for face in drawn}     # card blocks list only cards of these decks
    for face, (_back, lookups) in zip(faces, face_texts or ()):
        if face.key in shown_keys:
            retell(lookups)
    pictures = card_pictures(drawn, picture_dpi)
    entries = {face.key: face for face in faces}
    cover = booklet.get("cover", {})
    sections = []
    for section in booklet["sections"]:
        if not shown(section, loc.edition):
            continue
        root = f"booklet.sections.{section['id']}"
        blocks = []
        for index, block in enumerate(section["blocks"]):
            if shown(block, loc.edition):
                made = _block(loc, f"{root}.blocks.{index}", block, entries, pictures, home, ui, project, picture_dpi)
                if made is not None:
                    blocks.append(made)
        if blocks:
            sections.append(Section(section["id"], loc.text(f"{root}.title", section["title"]), blocks))
    if ui.missing:
        file, line = locate(booklet, ("ui",)) if "ui" in booklet else (game.file_name("booklet"), 0)
        raise DataError([Problem(file, line, f"booklet.ui.{word}", "the booklet layout prints this word; add it")
                         for word in ui.missing])
    first = faces[0].key if faces else ""
    return BookletContent(
        lang=loc.locale, title=loc.title,
        subtitle=loc.text("booklet.cover.subtitle", cover["subtitle"]) if "subtitle" in cover else "",
        tagline=loc.text("tagline", game.meta["tagline"]) if "tagline" in game.meta else "",
        edition=loc.edition_name(),
        facts=[loc.text(f"booklet.cover.facts.{i}", fact) for i, fact in enumerate(cover.get("facts", []))],
        ui=ui, sections=sections, draft=draft, cover_card=pictures.get(first, ""),
        cover_card_alt=card_alt(faces[0]) if faces else "",
        scale_label=loc.label("scale_check") if "scale_check" in game.meta.get("labels", {}) else "")


def _block(loc, key, block, faces, pictures, home, ui, project=None, picture_dpi: int = CARD_DPI) -> Block | None:
    text = loc.text
    if "p" in block or "tip" in block:
        kind = "p" if "p" in block else "tip"
        return Block(kind, text(f"{key}.{kind}", block[kind]))
    if "list" in block or "steps" in block:
        kind = "list" if "list" in block else "steps"
        return Block(kind, [text(f"{key}.{kind}.{j}", item) for j, item in enumerate(block[kind])])
    if "example" in block:
        example = block["example"]
        if not shown(example, loc.edition):
            return None
        return Block("example", {
            "title": text(f"{key}.example.title", example["title"]),
            "steps": [text(f"{key}.example.steps.{j}", s) for j, s in enumerate(example["steps"])]})
    if "table" in block:
        table = block["table"]
        return Block("table", {
            "header": [text(f"{key}.table.header.{j}", h) for j, h in enumerate(table["header"])],
            "rows": [[text(f"{key}.table.rows.{r}.{c}", cell) for c, cell in enumerate(row)]
                     for r, row in enumerate(table["rows"])]})
    if "faq" in block:
        return Block("faq", [(text(f"{key}.faq.{j}.q", qa["q"]), text(f"{key}.faq.{j}.a", qa["a"]))
                             for j, qa in enumerate(block["faq"])])
    if "components" in block:
        return Block("components", component_rows(loc))
    if "cards" in block:
        entries = card_entries(loc, block["cards"]["deck"], faces, pictures)
        if not entries:
            return None
        if block["cards"].get("table"):
            ui.need(*TABLE_WORDS)
            return Block("card-table", entries)
        return Block("cards", entries)
    if "picture" in block:
        picture = block["picture"]
        drawn = component_picture(project, loc, picture["component"], picture_dpi) if project is not None else None
        if drawn is None:
            return None
        image, width_mm, legend = drawn
        caption = text(f"{key}.picture.caption", picture["caption"]) if "caption" in picture else ""
        beside = bool(legend) and "width_mm" in picture
        width_mm = min(width_mm, picture.get("width_mm", width_mm))
        return Block("picture", {"image": image, "width_mm": round(width_mm, 2), "caption": caption, "legend": legend,
                                 "beside": beside,
                                 "alt": component_name(loc, picture["component"]) or caption or loc.title})
    if "print" in block:
        ui.need(*(part for part, _ in home.rows))
        rows = []
        for part, sheets in home.rows:
            rows.append((ui.get(part, ""), [phrase(loc, "sheets", n) for n in sheets], False))
            # A component of the part, on a row of its own under it: indented, not led by a dash
            rows += [(name, [phrase(loc, "sheets", n) for n in counts], True) for name, counts in home.details.get(part, [])]
            rows += [(players, cells, True) for players, cells in home.tables.get(part, [])]
        notes = ["print_duplex"] if any(part == "print_cards" for part, _ in home.rows) else []
        notes = [ui[note] for note in notes + list(PRINT_NOTES) if note in ui]
        return Block("print", {"papers": home.papers, "rows": rows, "notes": notes})
    raise ValueError(f"{key}: unknown block {sorted(block)}")


class Words(dict):
    """The booklet's `ui` words in the locale; `need` notes the ones the layout prints but lacks."""

    def __init__(self, loc: Localised, source: dict):
        super().__init__({word: loc.text(f"booklet.ui.{word}", text) for word, text in source.items()})
        self.missing: list[str] = []

    def need(self, *words: str) -> None:
        self.missing += [w for w in words if w not in self and w not in self.missing]


def phrase(loc: Localised, name: str | tuple[str, ...], n: int) -> str:
    """n with the first of the named plural phrases the booklet has, or n alone."""
    names = (name,) if isinstance(name, str) else name
    for candidate in names:
        if candidate in loc.texts.phrases:
            return loc.texts.fill(f"{{n|{candidate}}}", {"n": n})
    return str(n)


def component_name(loc: Localised, reference: str) -> str:
    """The name (in the locale) of the component a picture block draws (`dice.sun`), or ''."""
    category, _, component_id = reference.partition(".")
    for component in loc.game.components:
        if component.category == category and component.id == component_id:
            return loc.field(component.text_root("name"), component.data, "name")
    return ""


def component_rows(loc: Localised) -> list[tuple[str, str]]:
    """(how many, what) for everything in this edition, as each component kind lists its own:
    decks, boards by name, tokens, ..."""
    from ..app.kinds import KINDS  # here: the kinds' shop code imports this module's page multiple
    return [row for kind in KINDS for row in kind.contents(loc, phrase)]


def card_entries(loc: Localised, deck: str, faces: dict[str, Face], pictures: dict[str, str]) -> list[CardEntry]:
    """Each card of the deck in this edition: drawn, named, its text, its counts."""
    game, edition = loc.game, loc.edition
    # Another edition is mentioned only where it lacks nothing this one lacks (a free booklet
    # says nothing of the full edition; the full booklet gives the free edition's counts).
    mentioned = [edition] + [e for e in game.editions if e != edition and contains(game, edition, e)]
    entries = []
    for component in game.in_edition(edition, "cards"):
        if component.data["deck"] != deck:
            continue
        face = faces[f"card-{component.id}"]
        counts = [f"{loc.edition_name(e)}: {phrase(loc, 'cards', component.count(e))}"
                  for e in mentioned if component.count(e)]
        entries.append(CardEntry(component.keypath, face.values["name"], face.values.get("text", ""),
                                 counts, pictures[face.key], card_alt(face)))
    return entries


def card_alt(face: Face) -> str:
    """A card picture's alternative text, from the catalog of the locale: its deck's name and
    its own ("Number cards: 2"), or what of them it has."""
    return ": ".join(part for part in (face.values.get("deck_name", ""), face.values.get("name", "")) if part)


def card_pictures(faces: list[Face], dpi: int = CARD_DPI) -> dict[str, str]:
    """Each face drawn by the card renderer into a one-page-per-face PDF, rasterised to PNG."""
    if not faces:
        return {}
    doc = Document(tuple(faces[0].layout["size_mm"]), "cards")
    for face in faces:
        doc.new_page()
        w, h = face.layout["size_mm"]
        doc.canvas.setPageSize((w * 72 / 25.4, h * 72 / 25.4))
        draw_placed(doc.canvas, face.placed)
    data, _ = doc.finish()
    pictures = {}
    pdf = pypdfium2.PdfDocument(data)
    try:
        for face, page in zip(faces, pdf):
            image = page.render(scale=dpi / 72).to_pil()
            buffer = io.BytesIO()
            # Light compression: WeasyPrint decodes and re-compresses it into the PDF anyway.
            image.save(buffer, format="PNG", dpi=(dpi, dpi), compress_level=1)
            pictures[face.key] = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
            page.close()
    finally:
        pdf.close()
    return pictures


def component_picture(project: Project, loc: Localised, reference: str, dpi: int = CARD_DPI):
    """(data: URI of a PNG, width in mm, the names of the parts its numbered marks point at) of
    one component (`dice.sun`, `pieces.tray`, `boards.square`) drawn by its kind as it prints,
    or None when the edition has no such component."""
    from ..app.kinds import KINDS  # here: the kinds' shop code imports this module's page multiple
    category, _, component_id = reference.partition(".")
    kind = next((kind for kind in KINDS if kind.name == category), None)
    drawing = kind.picture(project, loc, component_id) if kind is not None else None
    if drawing is None:
        return None
    (w, h), draw, *named = drawing            # a board also names the parts its marks number
    pad = 1.0                                   # room for the cut line's stroke
    doc = Document((w + 2 * pad, h + 2 * pad), "picture")
    doc.new_page()
    doc.canvas.translate(pad * 72 / 25.4, pad * 72 / 25.4)
    draw(doc.canvas)
    data, _ = doc.finish()
    pdf = pypdfium2.PdfDocument(data)
    try:
        page = pdf[0]
        image = page.render(scale=dpi / 72).to_pil()
        page.close()
    finally:
        pdf.close()
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", dpi=(dpi, dpi), compress_level=1)
    image_uri = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
    return image_uri, w + 2 * pad, (named[0] if named else [])


def home_print(project: Project, loc: Localised) -> HomePrint:
    """Sheets of each paper the home kit takes, as each component kind lays its files out:
    card sheets (fronts and backs on one sheet, printed duplex), board tiles, token pages."""
    from ..app.kinds import KINDS  # here: the kinds' shop code imports this module's page multiple
    papers = project.load_sheet("papers")["papers"]
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


def table_rows(project: Project, loc: Localised, per_paper: list) -> list[tuple[str, list[str]]]:
    """(which tables, their sheet numbers on each paper) in the locale's words: "Players: 4 or 6",
    "sheets 1–19". Tables group alike on every paper: they take the same decks."""
    from babel.lists import format_list
    words = booklet_words(project, loc.locale)
    rows = []
    for index, (players, _) in enumerate(per_paper[0]):
        which = format_list([str(n) for n in players], style="or", locale=loc.locale)
        rows.append((words["table_players"].format(players=which),
                     [words["table_sheets"].format(sheets=sheet_ranges(paper[index][1])) for paper in per_paper]))
    return rows


def sheet_ranges(numbers: list[int]) -> str:
    """Sheet numbers as runs: [1, 2, 3, 7] -> "1–3, 7"."""
    spans: list[list[int]] = []
    for number in numbers:
        if spans and number == spans[-1][1] + 1:
            spans[-1][1] = number
        else:
            spans.append([number, number])
    return ", ".join(f"{a}–{b}" if b > a else str(a) for a, b in spans)


# ---- the tool's own words ------------------------------------------------------------------

# templates/sheets/booklet.yaml: the notes page's heading, the note on a shrunk home-print sheet.
BOOKLET_WORDS = "sheets/booklet.yaml"
SCALE_BAR_MM = 50


def booklet_words(project: Project, locale: str) -> dict[str, str]:
    """The tool's booklet words in `locale`, from the tool's catalogs (English while untranslated)."""
    from ..core.yamlfile import load_yaml
    from ..i18n.catalogs import tool_text
    path = project.template(BOOKLET_WORDS)
    data, problems = load_yaml(path, project.display(path), [project.root, TOOL_TEMPLATES])
    if problems:
        raise DataError(problems)
    return {word: tool_text(project, locale, f"sheets.booklet.text.{word}", str(text))
            for word, text in data["text"].items()}


@dataclass(frozen=True)
class ScaleNote:
    """What a home-print sheet says when the pages are shrunk to `scale` to fit the paper
    (`note(scale)`): the scale, and the length the first page's 50 mm bar then has, as the
    locale writes numbers. `where` is the (file, line, key) its words come from."""

    sentence: str
    locale: str
    where: tuple[str, int, str]

    def __call__(self, scale: float) -> str:
        from babel.numbers import format_decimal
        return self.sentence.format(percent=format_decimal(round(scale * 100), locale=self.locale),
                                    length=format_decimal(round(SCALE_BAR_MM * scale, 1), locale=self.locale))


def scale_note(project: Project, locale: str) -> ScaleNote:
    """The scale note of the booklet's home-print sheets in `locale`."""
    from ..core.yamlfile import load_yaml
    from ..i18n.catalogs import tool_text_place
    sentence = booklet_words(project, locale)["scaled"]          # first: it names what is wrong in the file
    path = project.template(BOOKLET_WORDS)
    text = load_yaml(path, project.display(path), [project.root, TOOL_TEMPLATES])[0]["text"]
    where = tool_text_place(project, locale, "sheets.booklet.text.scaled", str(text["scaled"]),
                            (project.display(path), text.line_of("scaled"), "text.scaled"))
    return ScaleNote(sentence, locale, where)


# ---- render -------------------------------------------------------------------------------

class ProjectFetcher(URLFetcher):
    """Lets WeasyPrint read only the project's own files, the tool's templates and fonts, and
    data: URIs; anything else (http, ftp, files elsewhere) is refused and remembered."""

    def __init__(self, roots: list[Path]):
        super().__init__(allowed_protocols={"file", "data"})
        self.roots = [root.resolve() for root in roots]
        self.refused: list[str] = []

    def allows(self, url: str) -> bool:
        parts = urlsplit(url)
        if parts.scheme == "data":
            return True
        if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
            return False
        path = Path(unquote(parts.path)).resolve()
        return path.is_file() and any(path.is_relative_to(root) for root in self.roots)

    def fetch(self, url, headers=None):
        if not self.allows(url):
            self.refused.append(url)
            raise ValueError(f"refused {url}: the booklet may use only the project's own files")
        return super().fetch(url, headers)


class _Warnings(logging.Handler):
    def __init__(self, level: int = logging.WARNING):
        super().__init__(level)
        self.messages: list[str] = []

    def emit(self, record):
        # A picture is a data: URI: its bytes would drown the message.
        self.messages.append(DATA_URI.sub(r"\1…", record.getMessage()))


@dataclass
class RenderedBooklet:
    data: bytes
    pages: int               # after padding: a multiple of 4
    content_pages: int
    fit: str = ""            # the spacing it was laid out in: '' as designed, or one of FITS


class TemplateLoader(jinja2.BaseLoader):
    """Templates from the project's templates/, then the tool's, read as project files: a link
    out of the project is refused unread, and so is an oversized file. Each template's name in
    errors (and in Jinja2's tracebacks) is its path as a user sees it."""

    def __init__(self, project: Project):
        self.project = project
        self.loaded: set[str] = set()

    def get_source(self, environment, template):
        for folder in self.project.template_dirs:
            path = folder.joinpath(*split_template_path(template))
            if not (path.is_file() or path.is_symlink()):
                continue
            # Named by where it is, not where a link in its place leads.
            display = "/".join([self.project.display(folder), *split_template_path(template)])
            data, problems = read_bytes_inside(path, [self.project.root, TOOL_TEMPLATES], display)
            if problems:
                raise DataError(problems)
            try:
                source = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise DataError([Problem(display, 0, "", f"a template is UTF-8 text: {exc}")]) from None
            self.loaded.add(display)
            return source, display, lambda: True      # an environment lives for one render
        raise jinja2.TemplateNotFound(template)


class TemplateUndefined(jinja2.StrictUndefined):
    """StrictUndefined whose error carries the missing name (the key of the error) and says
    what the value does have."""

    __slots__ = ()

    def __init__(self, hint=None, obj=jinja2.utils.missing, name=None, exc=jinja2.UndefinedError):
        def error(message):
            found = exc(message)
            found.key = str(name) if name is not None else ""
            return found
        super().__init__(hint, obj, name, error)

    @property
    def _undefined_message(self) -> str:
        obj, name = self._undefined_obj, self._undefined_name
        if self._undefined_hint:
            return self._undefined_hint
        if obj is jinja2.utils.missing:
            return undefined_name(name)
        if is_dataclass(obj):
            return no_such(type(obj).__name__, name, [f.name for f in fields(obj)])
        if isinstance(obj, dict):
            return no_such(type(obj).__name__, name, sorted(map(str, obj)))
        return f"a {type(obj).__name__} has no '{name}'"


def undefined_name(name: str) -> str:
    return f"'{name}' is undefined (a booklet template has {', '.join(TEMPLATE_VALUES + tuple(TEMPLATE_GLOBALS))})"


def no_such(what: str, name, has: list[str]) -> str:
    return f"{what} has no '{name}' (it has {', '.join(has) or 'nothing'})"


def not_found(name: str, project: Project) -> str:
    return f"no template '{name}' in {', '.join(map(str, project.template_dirs))}"


class TemplateSandbox(ImmutableSandboxedEnvironment):
    """Jinja2's sandbox: no Python internals, no changing the values. Reaching into something
    undefined reports what is undefined, not the internals of Jinja2's stand-in for it."""

    def getattr(self, obj, attribute):
        if isinstance(obj, jinja2.Undefined):
            obj._fail_with_undefined_error()
        return super().getattr(obj, attribute)

    def getitem(self, obj, argument):
        if isinstance(obj, jinja2.Undefined):
            obj._fail_with_undefined_error()
        return super().getitem(obj, argument)


class CompiledTemplates(jinja2.BytecodeCache):
    """Templates compiled once per process: a bucket is keyed by the template's name and file,
    and Jinja2 drops its code when the source's checksum differs, so an edited template is
    compiled again. The loader still reads (and checks) the source every time."""

    def __init__(self):
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket):
        code = self.code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket):
        self.code[bucket.key] = bucket.bytecode_to_string()


# Every environment is made the same way (template_environment), so their code is the same.
COMPILED_TEMPLATES = CompiledTemplates()


def template_environment(project: Project) -> TemplateSandbox:
    """The sandbox with the booklet's loader, strict about undefined values, escaping HTML."""
    environment = TemplateSandbox(
        loader=TemplateLoader(project), autoescape=True, undefined=TemplateUndefined,
        trim_blocks=True, lstrip_blocks=True, bytecode_cache=COMPILED_TEMPLATES)
    environment.globals.clear()
    environment.globals.update(TEMPLATE_GLOBALS)
    return environment


def template_problem(exc: Exception, loader: TemplateLoader) -> Problem:
    """A template's mistake at its file and line: Jinja2 gives a syntax error its own; for the
    rest, its tracebacks carry the template's name and line in the frames it ran."""
    if isinstance(exc, jinja2.TemplateSyntaxError):
        return Problem(exc.filename or exc.name or "", exc.lineno, "", f"template syntax error: {exc.message}")
    file, line = f"templates/{BOOKLET_TEMPLATE}", 0
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename in loader.loaded:
            file, line = frame.filename, frame.lineno
    key = getattr(exc, "key", "")
    if isinstance(exc, jinja2.exceptions.SecurityError):
        message = f"not allowed in a booklet template: {exc}"
    elif isinstance(exc, jinja2.TemplateNotFound):
        message = not_found(exc.name, loader.project)
    elif isinstance(exc, jinja2.TemplateError):
        message = str(exc)
    else:
        message = f"the template failed: {exc} ({type(exc).__name__})"
    return Problem(file, line, key, message)


def render_html(project: Project, values: dict) -> str:
    environment = template_environment(project)
    try:
        return environment.get_template(BOOKLET_TEMPLATE).render(values)
    except PnpError:
        raise
    except Exception as exc:      # whatever a template does wrong, since it is not ours
        raise DataError([template_problem(exc, environment.loader)]) from None


def check_templates(project: Project) -> list[Problem]:
    """What can be known of the booklet's templates without rendering them: syntax, names
    that are not among the values a template gets, and the internals the sandbox refuses."""
    environment = template_environment(project)
    loader = environment.loader
    booklet_fields = [f.name for f in fields(BookletContent)]
    problems, seen, pending = [], set(), [(BOOKLET_TEMPLATE, None)]
    while pending:
        name, included_at = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            source, file, _ = loader.get_source(environment, name)
            tree = environment.parse(source, name, file)
        except DataError as exc:
            problems += exc.problems
            continue
        except jinja2.TemplateNotFound:
            where = included_at or (f"templates/{name}", 0)
            problems.append(Problem(*where, "", not_found(name, project)))
            continue
        except jinja2.TemplateSyntaxError as exc:
            problems.append(template_problem(exc, loader))
            continue
        if included_at is None:      # an included template also sees its includer's variables
            known = set(TEMPLATE_VALUES) | set(environment.globals)
            for unknown in sorted(jinja2.meta.find_undeclared_variables(tree) - known):
                line = next(n.lineno for n in tree.find_all(nodes.Name) if n.name == unknown)
                problems.append(Problem(file, line, unknown, undefined_name(unknown)))
        # `booklet` is a BookletContent wherever the template does not assign it itself.
        ours = not any(n.name == "booklet" and n.ctx != "load" for n in tree.find_all(nodes.Name))
        for node, attribute in attributes(tree):
            if attribute.startswith("_"):
                problems.append(Problem(file, node.lineno, attribute,
                                        f"not allowed in a booklet template: access to attribute '{attribute}' is unsafe"))
            elif ours and isinstance(node.node, nodes.Name) and node.node.name == "booklet" and attribute not in booklet_fields:
                problems.append(Problem(file, node.lineno, attribute, no_such("BookletContent", attribute, booklet_fields)))
        for node in tree.find_all((nodes.Extends, nodes.Include, nodes.Import, nodes.FromImport)):
            if isinstance(node.template, nodes.Const) and isinstance(node.template.value, str):
                pending.append((node.template.value, (file, node.lineno)))
    return problems


def attributes(tree: nodes.Template):
    """(node, name) of every attribute a template names outright: x.name, x["name"], x|attr("name")."""
    for node in tree.find_all((nodes.Getattr, nodes.Getitem, nodes.Filter)):
        if isinstance(node, nodes.Getattr):
            yield node, node.attr
        elif isinstance(node, nodes.Getitem):
            if isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str):
                yield node, node.arg.value
        elif node.name == "attr" and node.args and isinstance(node.args[0], nodes.Const) \
                and isinstance(node.args[0].value, str):
            yield node, node.args[0].value


def font_faces() -> list[dict]:
    return [{"family": family, "weight": weight, "style": style, "url": (fonts.FONT_DIR / file).resolve().as_uri()}
            for family, weight, style, file in FONT_FACES]


def booklet_html(project: Project, content: BookletContent, *, fit: str = "", notes: str | None = None) -> tuple[str, str]:
    """The booklet's HTML from the templates, and the base URL its links are read against;
    `fit` is one of FITS (or '' for the spacing as designed), `notes` the notes pages' heading."""
    stylesheet = project.template("booklet/booklet.css")
    if notes is None:
        notes = content.notes or booklet_words(project, content.lang)["notes"]
    # Plain words for `ui`: the template gets the values, not the layout's bookkeeping.
    html = render_html(project, {"booklet": replace(content, ui=dict(content.ui), notes=notes, fit=fit),
                                 "fonts": font_faces(), "stylesheet": stylesheet.resolve().as_uri(),
                                 "pad_pages": PAD_PAGES})
    return html, stylesheet.parent.resolve().as_uri()


def page_fill(page) -> float:
    """How far down its text area a laid-out page is filled (0 empty, 1 full): the lowest
    line or picture of the page's content, not its margins (the page number)."""
    from weasyprint.formatting_structure import boxes
    box = page._page_box
    top, height = box.content_box_y(), box.height
    lowest = top
    for child in box.children:
        if isinstance(child, boxes.MarginBox):
            continue
        for inner in child.descendants():
            if isinstance(inner, (boxes.LineBox, boxes.ReplacedBox)) or (
                    isinstance(inner, boxes.BlockBox) and not inner.children and inner.height):
                lowest = max(lowest, inner.position_y + inner.margin_height())
    return min(1.0, (lowest - top) / height) if height else 1.0


def fits(document, content_pages: int) -> bool:
    """A layout fills whole sheets: its rules end on the last page of a sheet, or one page
    before it (the notes page), and that last page of rules is not nearly empty."""
    return -content_pages % PAGE_MULTIPLE <= 1 and page_fill(document.pages[content_pages - 1]) >= LAST_PAGE_FULL


def fitted(laid_out):
    """The layout that fills whole sheets: as designed if it does, else the first of FITS that
    does, else as designed. `laid_out(fit)` gives (document, content pages) in that spacing;
    returns (document, content pages, fit)."""
    document, content_pages = laid_out("")
    if fits(document, content_pages):
        return document, content_pages, ""
    for fit in FITS:
        candidate, pages = laid_out(fit)
        if fits(candidate, pages):
            return candidate, pages, fit
    return document, content_pages, ""


HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


def stranded_headings(document) -> list[tuple[int, object, bool]]:
    """(page number, element, alone) of each heading that is the last thing on a page of
    content (its lowest line or picture is the heading's; a page's margin boxes, the page
    number, aside); `alone` when nothing of the page stands above it either."""
    from weasyprint.formatting_structure import boxes
    found = []
    for number, page in enumerate(document.pages, start=1):
        placed = [(box.position_y, box.position_y + box.margin_height(), element)
                  for child in page._page_box.children if not isinstance(child, boxes.MarginBox)
                  for box, element in _content_boxes(child, None)]
        if not placed:
            continue
        last = max(placed, key=lambda p: p[1])[2]
        if last is not None and last.tag in HEADINGS and all(last is not e for _, e, _ in found):
            alone = all(element is last for _, _, element in placed)
            found.append((number, last, alone))
    return found


def _content_boxes(box, heading):
    """(line or picture box, the heading it belongs to or the box's own element) under `box`."""
    from weasyprint.formatting_structure import boxes
    element = getattr(box, "element", None)
    if element is not None and getattr(element, "tag", None) in HEADINGS:
        heading = element
    if isinstance(box, (boxes.LineBox, boxes.ReplacedBox)):
        yield box, heading if heading is not None else element
        return
    for child in getattr(box, "children", ()):
        yield from _content_boxes(child, heading)


def heading_text(element) -> str:
    return BREAKS.sub(" ", "".join(element.itertext())).strip()


def add_style(element, declaration: str) -> None:
    element.set("style", "; ".join(filter(None, [element.get("style"), declaration])))


def keep_with_heading(root, heading, alone: bool) -> None:
    """Keep a heading stranded at a page's foot with what it heads: the block after it is kept
    whole (break-inside: avoid) and did not fit under it. With text above it on its page, the
    heading starts the next page; alone on its page (the block fits only on a page of its
    own), the block is let break inside, so that it starts under the heading."""
    if not alone:
        add_style(heading, "break-before: page")
        return
    for parent in root.iter():
        children = list(parent)
        if heading in children:
            position = children.index(heading)
            if position + 1 < len(children):
                add_style(children[position + 1], "break-inside: auto")
            return


def describe_links(document, pdf) -> None:
    """Each link's description (/Contents, what a screen reader says of it) is its text in the
    booklet's words; WeasyPrint writes the id of its target there."""
    for page in document.pages:
        for _kind, _target, _rectangle, box in page.links:
            annotation = getattr(box, "link_annotation", None)
            words = BREAKS.sub(" ", "".join(box.element.itertext())).strip() if box.element is not None else ""
            if annotation is not None and words:
                annotation["Contents"] = pydyf.String(words)


def render(project: Project, content: BookletContent) -> RenderedBooklet:
    """HTML from the templates, PDF from WeasyPrint, filled to a multiple of 4 pages: laid out
    again a step tighter or looser when that ends the rules on a whole sheet (or one page short
    of it, for the notes page), and padded with the template's notes pages."""
    subset.install()          # the same bytes as WeasyPrint's own subsetting, sooner
    # The project's templates/ is in the project: a link there to elsewhere gives no access.
    fetcher = ProjectFetcher([project.root, fonts.FONT_DIR, TOOL_TEMPLATES])
    warnings = _Warnings()
    logger = logging.getLogger("weasyprint")
    notes = booklet_words(project, content.lang)["notes"]

    def laid_out(fit: str):
        html, base_url = booklet_html(project, content, fit=fit, notes=notes)
        source = HTML(string=html, base_url=base_url, url_fetcher=fetcher)
        document = source.render()
        # No word is hyphenated across a page break: a paragraph whose last line on a page ends
        # hyphenated is laid out again without hyphenation (which may move a break further on).
        # No heading ends a page: what it heads is let break (see keep_with_heading).
        for _ in range(MAX_REFLOWS):
            split = typography.hyphenated_page_ends(document)
            stranded = stranded_headings(document)
            if not split and not stranded:
                break
            for element in split:
                add_style(element, "hyphens: manual")
            for _page, heading, alone in stranded:
                keep_with_heading(source.etree_element, heading, alone)
            document = source.render()
        stranded = stranded_headings(document)
        if stranded:
            raise BuildError(f"booklet {content.title} ({content.lang}): " + "; ".join(
                f"page {page} ends with the heading '{heading_text(heading)}'" for page, heading, _ in stranded))
        pads = [i for i, page in enumerate(document.pages) if any(a.startswith("pad-") for a in page.anchors)]
        content_pages = len(document.pages) - PAD_PAGES
        if pads != list(range(content_pages, len(document.pages))):
            raise BuildError(f"the booklet template must end with {PAD_PAGES} pages to fill the last sheet "
                             f"(ids pad-1...)")
        return document, content_pages

    logger.addHandler(warnings)
    try:
        document, content_pages, fit = fitted(laid_out)
    finally:
        logger.removeHandler(warnings)
    problems = [f"refused {url}" for url in fetcher.refused] + warnings.messages
    if problems:
        raise BuildError(f"booklet {content.title} ({content.lang}): " + "; ".join(dict.fromkeys(problems)))
    keep = content_pages + (-content_pages % PAGE_MULTIPLE)
    padded = document.copy(document.pages[:keep])
    # No pdf_identifier and no dates in the metadata: the same input gives the same bytes.
    # Tagging logs an error for a picture without alternative text: that fails the build too.
    # (Only errors: writing also warns that fonts are subset by fontTools where HarfBuzz's
    # subsetter is missing, which changes no byte.)
    tagging = _Warnings(logging.ERROR)
    logger.addHandler(tagging)
    try:
        data = padded.write_pdf(pdf_variant=PDF_VARIANT, finisher=describe_links)
    finally:
        logger.removeHandler(tagging)
    if tagging.messages:
        raise BuildError(f"booklet {content.title} ({content.lang}), tagged for screen readers (every <img> needs "
                         f"an alt text): " + "; ".join(dict.fromkeys(tagging.messages)))
    return RenderedBooklet(data, keep, content_pages, fit)
