"""The rule booklet's content: one per edition and locale, laid out from `booklet.yaml`.

Every string goes through Texts by the key path `pnp i18n extract` gives it
(`booklet.sections.<id>.blocks.<i>.p`, `booklet.ui.<word>`, ...), sections and blocks are
filtered by `editions:`, placeholders are filled from the data, and the generated blocks
(components, cards, print) are built from the components themselves. What only the component
kinds know (the sheets the home kit prints, the kit's contents) and the pictures (every card
drawn by the same face renderer as the card sheets) are given by the caller: `shows` says which
pictures the booklet needs. generator/render/booklet.py draws them and renders the content.
"""
from __future__ import annotations

import base64
from dataclasses import dataclass, field

from markupsafe import Markup, escape

from ..core import fonts
from ..core.errors import DataError, Problem
from ..core.yamlfile import locate
from ..i18n.texts import retell
from ..i18n.typography import RANGE_DASH
from ..load.icons import ICON_MARK, declared_icons
from ..load.project import TOOL_TEMPLATES, Project
from .faces import Face, Localised
from .inline_icons import has_icons


# Words the layout prints around the text, from `ui:` in booklet.yaml: the contents title
# always; a card table's header, the print table's rows, when the booklet has them.
TABLE_WORDS = ("role", "effect")
# Advice under the print table, each printed when the booklet defines it.
PRINT_NOTES = ("print_scale", "fold_booklet", "booklet_flip")


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
    # p, tip, list, steps, example, table, faq, components, cards, card-table, print, picture,
    # decisions (the notes on this edition: (rule's title, text) pairs)
    kind: str
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
    # tool's words in the locale). (The spacing it is laid out in, '' as designed or one of
    # generator.render.booklet.FITS, is its root element's class, set on the parsed page.)
    notes: str = ""


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


@dataclass
class BookletPictures:
    """The pictures the booklet shows (the faces and components `shows` names), drawn."""

    cards: dict[str, str] = field(default_factory=dict)      # face key -> data: URI of the drawn face
    # component (`dice.sun`) -> (data: URI, width in mm, the names of the parts its numbered
    # marks point at); a component the edition lacks has none, and its picture block is left out
    components: dict[str, tuple[str, float, list[str]]] = field(default_factory=dict)


@dataclass
class Shows:
    """What the booklet of an edition shows that its caller draws or counts: the card faces (the
    cover's, and those of the decks its card blocks list), the components its picture blocks
    draw (`dice.sun`), and whether a block lists the kit's contents."""

    faces: list[Face]
    components: list[str]
    contents: bool


def shown(node, edition: str) -> bool:
    return "editions" not in node or edition in node["editions"]


def contains(game, larger: str, smaller: str) -> bool:
    """Every component of edition `smaller` is in `larger` in at least the same number."""
    return all(c.count(larger) >= c.count(smaller) for c in game.components)


def shows(loc: Localised, faces: list[Face]) -> Shows:
    """What the booklet shows of `faces` (the edition's card faces, the cover's first) and of
    the components, in the sections and blocks of its edition."""
    game = loc.game
    blocks = [block for section in game.booklet["sections"] if shown(section, loc.edition)
              for block in section.get("blocks", ()) if shown(block, loc.edition)]
    decks = {block["cards"]["deck"] for block in blocks if "cards" in block}
    deck_of = {f"card-{c.id}": c.data["deck"] for c in game.in_edition(loc.edition, "cards")}
    return Shows([face for i, face in enumerate(faces) if i == 0 or deck_of.get(face.key) in decks],
                 list(dict.fromkeys(block["picture"]["component"] for block in blocks if "picture" in block)),
                 any("components" in block for block in blocks))


def lay_out(loc: Localised, faces: list[Face], home: HomePrint, contents: list[tuple[str, str]],
            pictures: BookletPictures, *, draft: str = "", face_texts: list | None = None,
            notes_title: str = "") -> BookletContent:
    """The booklet's text for one edition and locale, every number filled from the data. The
    caller gives what the component kinds know: `home`, the sheets the home kit prints; `contents`,
    the (how many, what) rows of a components block; `pictures`, those `shows` names, drawn;
    `notes_title`, the tool's heading of the notes on this edition (a `decisions` section). With
    `face_texts` (the texts each face was made of, layout.card_faces_with_texts), those of the
    faces it shows are recorded as what the booklet is made of."""
    game = loc.game
    booklet = game.booklet
    ui = Words(loc, booklet.get("ui", {}))
    ui.need("contents")
    shown_keys = {face.key for face in shows(loc, faces).faces}     # card blocks list only cards of these decks
    for face, (_back, lookups) in zip(faces, face_texts or ()):
        if face.key in shown_keys:
            retell(lookups)
    entries = {face.key: face for face in faces}
    cover = booklet.get("cover", {})
    sections = []
    for section in booklet["sections"]:
        if not shown(section, loc.edition):
            continue
        root = f"booklet.sections.{section['id']}"
        if "decisions" in section:
            notes = edition_notes(loc)
            if notes:
                sections.append(Section(section["id"], notes_title, [Block("decisions", notes)]))
            continue
        blocks = []
        for index, block in enumerate(section["blocks"]):
            if shown(block, loc.edition):
                made = _block(loc, f"{root}.blocks.{index}", block, entries, pictures, home, ui, contents)
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
        ui=ui, sections=sections, draft=draft, cover_card=pictures.cards.get(first, ""),
        cover_card_alt=card_alt(faces[0]) if faces else "",
        scale_label=loc.label("scale_check") if "scale_check" in game.meta.get("labels", {}) else "")


def edition_notes(loc: Localised) -> list[tuple[str, str]]:
    """The game's decisions (booklet.yaml `decisions`) shown in this edition, in their order: the
    title of the rule each touches and the decision's text, in the locale."""
    titles = {section["id"]: section.get("title", "") for section in loc.game.booklet["sections"]}
    return [(loc.text(f"booklet.sections.{decision['rule']}.title", titles[decision["rule"]]),
             loc.text(f"booklet.decisions.{decision['id']}.text", decision["text"]))
            for decision in loc.game.booklet.get("decisions", ()) if shown(decision, loc.edition)]


def _block(loc, key, block, faces, pictures: BookletPictures, home, ui, contents) -> Block | None:
    def text(key: str, source: str):
        return with_icons(loc, loc.text(key, source))

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
        return Block("components", [(count, with_icons(loc, name)) for count, name in contents])
    if "cards" in block:
        entries = card_entries(loc, block["cards"]["deck"], faces, pictures.cards)
        if not entries:
            return None
        if block["cards"].get("table"):
            ui.need(*TABLE_WORDS)
            return Block("card-table", entries)
        return Block("cards", entries)
    if "picture" in block:
        picture = block["picture"]
        drawn = pictures.components.get(picture["component"])
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
            rows += [(with_icons(loc, name), [phrase(loc, "sheets", n) for n in counts], True)
                     for name, counts in home.details.get(part, [])]
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
        entries.append(CardEntry(component.keypath, face.values["name"], with_icons(loc, face.values.get("text", "")),
                                 counts, pictures[face.key], card_alt(face)))
    return entries


# An icon in the booklet's text: as high as the letters' em, standing on the baseline.
ICON_STYLE = "height: 1em; width: auto; vertical-align: baseline"


def with_icons(loc: Localised, text: str):
    """The text as the booklet prints it: each `:name:` its icon, an <img> with its alternative
    text in the locale (the picture read from the game's folder through the booklet's URL
    fetcher, a glyph as an SVG of its outline in the text's black); a text without icons as it is. An
    undeclared name stays as written (validation names it)."""
    if not isinstance(text, str) or not has_icons(text):
        return text
    icons = declared_icons(loc.game.meta)
    made, last = Markup(""), 0
    for found in ICON_MARK.finditer(text):
        spec = icons.get(found.group(1))
        if spec is None:
            continue
        if spec.glyph:
            source = "data:image/svg+xml;base64," + base64.b64encode(fonts.glyph_svg(spec.glyph)).decode("ascii")
        else:
            source = (loc.game.folder / spec.file).resolve().as_uri()
        alt = loc.text(spec.alt_key, spec.alt)
        made += escape(text[last:found.start()]) + Markup('<img class="icon" src="{}" alt="{}" style="{}">').format(
            source, alt, ICON_STYLE)
        last = found.end()
    return made + escape(text[last:])


def card_alt(face: Face) -> str:
    """A card picture's alternative text, from the catalog of the locale: its deck's name and
    its own ("Number cards: 2"), or what of them it has."""
    return ": ".join(part for part in (face.values.get("deck_name", ""), face.values.get("name", "")) if part)


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
    """Sheet numbers as runs: [1, 2, 3, 7] -> "1–3, 7", no run broken at a line end."""
    spans: list[list[int]] = []
    for number in numbers:
        if spans and number == spans[-1][1] + 1:
            spans[-1][1] = number
        else:
            spans.append([number, number])
    return ", ".join(f"{a}{RANGE_DASH}{b}" if b > a else str(a) for a, b in spans)


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
