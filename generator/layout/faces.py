"""Lay-out stage: turn a game's data into faces with their final, localised text, and place
them on sheets. Nothing here draws; the renderers take what this module decides.
"""
from __future__ import annotations

import difflib
import io
import math
import pickle
import weakref
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Callable, TypeVar

from ..core.errors import DataError, Problem, UsageError
from ..core.yamlfile import key_path, locate
from ..i18n.texts import Texts, collected, numbers, retell
from ..load.card_sizes import CardSize, card_sizes, size_of  # noqa: F401  (card_sizes: read here by the kinds)
from ..load.icons import declared_icons
from ..load.project import Component, Game, Project
from .placed import PlacedFace, contrast_of, place_face, placed_once
from .elements import element_type
from .elements.base import colour_field

T = TypeVar("T")


@dataclass(frozen=True)
class Face:
    """One distinct card face: drawn once, placed `copies` times."""

    key: str                 # unique within a document, names the PDF form
    layout: dict
    values: dict
    copies: int
    back: "Face | None" = None
    source: tuple[str, int, str] = ("", 0, "")   # file, line, key path: for error messages
    folder: Path | None = None                   # the game's folder, where its pictures are
    # The back that tells the card's deck apart (its deck's, or its copy's when the deck is
    # printed several times with a back each), and that copy: the deck, or `<deck>-<back>`.
    deck_back: str = ""
    deck_copy: str = ""
    icons: dict | None = None                    # the icons its game declares, by name

    @cached_property
    def placed(self) -> PlacedFace:
        """The face fitted once; validation, every renderer and the safe-zone check read it."""
        return place_face(self.layout, self.values, self.folder, self.icons)


@dataclass
class Localised:
    """A game's strings in one locale for one edition, with numbers filled in."""

    game: Game
    edition: str
    texts: Texts

    def __post_init__(self):
        self.values = numbers(self.game, self.edition)
        self._laid: dict[str, tuple[object, dict]] = {}      # by name: (what was made, texts printed)
        self._packed: dict[str, tuple[bytes, dict]] = {}     # the same, pickled: kept small

    def __getstate__(self) -> dict:
        # A worker process gets what was laid out here, packed, and unpacks what it draws: a
        # face is laid out once per build, not again in every process that draws it.
        self._pack()
        return {**self.__dict__, "_laid": {}}

    def _pack(self) -> None:
        for name, (made, lookups) in self._laid.items():
            if name not in self._packed:
                buffer = io.BytesIO()
                _Packer(buffer, _layout_nodes(self.game)).dump(made)
                self._packed[name] = (buffer.getvalue(), lookups)

    def laid_out(self, name: str, lay_out: Callable[[], T]) -> T:
        """What `lay_out()` makes of this edition and locale (a kind's faces), made once for this
        object and shared by its checks and its files. The texts it printed are told again on
        every call, as if printed then, so each piece of work still records what it printed."""
        if name not in self._laid:
            if not self._laid:
                _keep_laid_out(self)
            if name in self._packed:
                packed, lookups = self._packed[name]
                self._laid[name] = (_Unpacker(io.BytesIO(packed), self.game.layouts).load(), lookups)
            else:
                with collected() as lookups:
                    made = lay_out()
                self._laid[name] = (made, lookups)
        made, lookups = self._laid[name]
        retell(lookups)
        return made

    @property
    def locale(self) -> str:
        return self.texts.locale

    def text(self, key: str, source: str) -> str:
        return self.texts.fill(self.texts.get(key, source), self.values)

    def field(self, root: str, data: dict, name: str) -> str:
        if name not in data:
            return ""
        return self.text(f"{root}.{name}", data[name])

    def label(self, name: str) -> str:
        return self.field("labels", self.game.meta["labels"], name)

    @property
    def title(self) -> str:
        return self.text("title", self.game.meta["title"])

    def edition_name(self, edition: str | None = None) -> str:
        edition = edition or self.edition
        return self.text(f"editions.{edition}.name", self.game.meta["editions"][edition]["name"])


class _Packer(pickle.Pickler):
    """Pickles what was laid out, naming the game's own layouts and their elements by where they
    are instead of copying them: unpacked (in a worker, against the game it received), a face's
    layout and elements are the game's objects again, which checks find by identity (`key_path`)."""

    def __init__(self, file, nodes: dict[int, tuple]):
        super().__init__(file, pickle.HIGHEST_PROTOCOL)
        self.nodes = nodes

    def persistent_id(self, obj):
        return self.nodes.get(id(obj)) if isinstance(obj, (dict, list)) else None


class _Unpacker(pickle.Unpickler):
    def __init__(self, file, layouts: dict):
        super().__init__(file)
        self.layouts = layouts

    def persistent_load(self, path: tuple):
        node = self.layouts
        for step in path:
            node = node[step]
        return node


def _layout_nodes(game: Game) -> dict[int, tuple]:
    """id -> path of every mapping and list in the game's layouts."""
    nodes, stack = {}, [(game.layouts, ())]
    while stack:
        node, path = stack.pop()
        nodes[id(node)] = path
        items = node.items() if isinstance(node, dict) else enumerate(node)
        stack.extend((value, path + (key,)) for key, value in items if isinstance(value, (dict, list)))
    return nodes


# The Localised objects keeping laid-out faces unpacked, the latest last. Work done in one
# process (a build with one worker) goes from edition and locale to edition and locale: only the
# latest few keep theirs as objects, the others packed (pickled, a tenth of the size or less),
# so memory stays that of a few kits however many the build makes, and nothing is laid out twice.
KEEP_LAID_OUT = 4
_keeping: list[weakref.ref] = []


def _keep_laid_out(loc: Localised) -> None:
    _keeping[:] = [ref for ref in _keeping if ref() is not None]
    _keeping.append(weakref.ref(loc))
    while len(_keeping) > KEEP_LAID_OUT:
        oldest = _keeping.pop(0)()
        if oldest is not None:
            oldest._pack()
            oldest._laid.clear()


# While `laid_out_once` holds: the Localised of each game (the object: an errata build loads two
# versions of one game), edition and locale.
_shared: ContextVar[dict | None] = ContextVar("localised", default=None)


@contextmanager
def laid_out_once():
    """Within it (a build, its checks included), every piece of work that asks for a game's
    edition and locale gets one and the same Localised, so its faces are laid out once for the
    checks and every file and paper; and each element is placed once for the values it reads
    (`placed_once`). Within an outer one, the outer's serve."""
    if _shared.get() is not None:
        with placed_once():
            yield
        return
    token = _shared.set({})
    try:
        with placed_once():
            yield
    finally:
        _shared.reset(token)


def localised(game: Game, edition: str, texts: Texts) -> Localised:
    """The game's strings in `texts`' locale for `edition`: within `laid_out_once`, the one
    object for that game, edition and locale."""
    shared = _shared.get()
    if shared is None:
        return Localised(game, edition, texts)
    key = (id(game), edition, texts.locale)
    known = shared.get(key)
    if known is None or known[0] is not game:
        known = shared[key] = (game, Localised(game, edition, texts))
    return known[1]


def component_values(loc: Localised, component: Component) -> dict:
    data = component.data
    values = {key: value for key, value in data.items() if isinstance(value, str)}
    # a card's own `fields` are values too, numbers written out; the component's keys win
    for key, value in (data.get("fields") or {}).items():
        values.setdefault(key, str(value))
    values.update(name=loc.field(component.text_root("name"), data, "name"),
                  text=loc.field(component.text_root("text"), data, "text"))
    editions_with = [e for e in loc.game.editions if component.count(e)]
    if len(editions_with) == len(loc.game.editions):
        values["edition_label"] = loc.label("all_editions")
    else:
        values["edition_label"] = " · ".join(loc.edition_name(e).upper() for e in editions_with)
    values["count_label"] = f"×{component.count(loc.edition)}"
    values["game_title"] = loc.title
    labels = loc.game.meta["labels"]
    for label, field in (("role", "role_label"), ("once_per_game", "once_label")):
        if label in labels:
            values[field] = loc.label(label)
    if component.category == "cards":
        deck_id = data["deck"]
        values["deck_name"] = loc.field(f"decks.{deck_id}", loc.game.decks[deck_id], "name")
        values["stock"] = loc.game.decks[deck_id].get("stock")
    return values


def card_faces(loc: Localised) -> list[Face]:
    """Every card face of the edition in data order, with its back.

    A back is one shared face per distinct look: cards whose back layout reads the same
    values share it, a back that shows a card's own fields (double-sided cards) is its own."""
    faces, texts = _card_faces(loc)
    for _back, lookups in texts:
        retell(lookups)                   # a file of every card prints every card's texts
    return faces


def deck_faces(loc: Localised, deck: str) -> list[Face]:
    """The faces of one deck, as card_faces makes them. A file of these depends on their own
    texts, and on those of the cards that share a back with them (which back is shared, and
    its name, follow from those), not on any other card's."""
    faces, texts = _card_faces(loc)
    mine = [face for face in faces if face.values["deck"] == deck]
    backs = {back for face, (back, _) in zip(faces, texts) if face.values["deck"] == deck}
    for back, lookups in texts:
        if back in backs:
            retell(lookups)
    return mine


def card_faces_with_texts(loc: Localised) -> tuple[list[Face], list[tuple[str, dict]]]:
    """The faces, and per face its back's id and the texts its values were made of, for a
    caller that shows some of the faces and says which (`retell` their texts)."""
    return _card_faces(loc)


def _card_faces(loc: Localised) -> tuple[list[Face], list[tuple[str, dict]]]:
    """The faces, and per face its back's id and the texts its values were made of; laid out
    once per Localised."""
    faces, texts = loc.laid_out("cards", lambda: _lay_out_card_faces(loc))
    return list(faces), list(texts)


def _lay_out_card_faces(loc: Localised) -> tuple[list[Face], list[tuple[str, dict]]]:
    game = loc.game
    faces_layouts = game.layouts.get("faces", {})
    backs_layouts = game.layouts.get("backs", {})
    backs: dict[tuple, Face] = {}
    faces, texts = [], []
    for component in game.in_edition(loc.edition, "cards"):
        deck = game.decks[component.data["deck"]]
        with collected() as lookups:
            values = component_values(loc, component)
        back_id = component.data.get("back", deck["back"])
        back_layout = backs_layouts[back_id]
        look = (back_id,) + tuple(sorted((f, values.get(f)) for f in layout_fields(back_layout)))
        if look not in backs:
            suffix = "" if not backs or all(b[0] != back_id for b in backs) else f"-{component.id}"
            backs[look] = Face(f"back-{back_id}{suffix}", back_layout, values, 0,
                               source=_where(game, component, "back"), folder=game.folder,
                               icons=declared_icons(game.meta) or None)
        file, line = game.where(component)
        # a card's own `back` (a double-sided card) stays in its deck; a copy's is a deck of its own
        copy_back = back_id if back_id in (deck.get("backs") or ()) else None
        faces.append(Face(f"card-{component.id}", faces_layouts[component.data.get("layout", deck["layout"])], values,
                          component.count(loc.edition), backs[look], (file, line, component.keypath), game.folder,
                          deck_back=copy_back or deck["back"],
                          deck_copy=f"{component.data['deck']}-{copy_back}" if copy_back else component.data["deck"],
                          icons=declared_icons(game.meta) or None))
        texts.append((back_id, lookups))
    return faces, texts


def layout_fields(layout: dict) -> set[str]:
    """Names of the values a layout reads: text and icon fields, and {field} colours."""
    fields = set()
    for element in layout["elements"]:
        fields |= element_type(element).fields(element)
    return fields - set(layout.get("defaults", {}))


def _where(game: Game, component: Component, what: str) -> tuple[str, int, str]:
    file, line = game.where(component)
    return file, line, f"{component.keypath}.{what}"


def distinct_faces(faces: list[Face]):
    """Every distinct face, fronts and backs, once each (a back shared by a deck is one face)."""
    seen = set()
    for face in faces:
        for candidate in (face, face.back):
            if candidate is not None and candidate.key not in seen:
                seen.add(candidate.key)
                yield candidate


def text_place(loc: Localised, file: str, line: int, key: str) -> tuple[str, int]:
    """Where a face's text is fixed: the catalog entry of the translation the locale prints,
    or else the card's place in the data."""
    message = loc.texts.by_context.get(key)
    keypath, _, field = key.rpartition(".")
    source = next((c.data.get(field) for c in loc.game.components if c.keypath == keypath), None)
    if message is None or not isinstance(source, str) or not loc.texts.translated(key, source):
        return file, line
    return f"{loc.game.display}/locales/{loc.locale}.po", message.lineno


def problem_label(loc: Localised, placed, values: dict, problem: tuple[str, str]) -> str:
    """What a face's problem is named with: a missing glyph by its locale (the text is the same
    in every edition: named once), a text that does not fit by its game, edition and locale."""
    glyphs = element_type(placed.spec).check(placed.spec, values)
    return f"[{loc.locale}]" if problem in glyphs else f"[{loc.game.slug} {loc.edition} {loc.locale}]"


def colour_problems(loc: Localised, face: PlacedFace, source: tuple[str, int, str]) -> list[Problem]:
    """Every text and mark of `face` that does not stand out from what is under it, located where
    its colour is set: the layout element's own colour key, or the component (`source`: file,
    line, key path) whose value a `{field}` colour reads."""
    refs = {colour_field(placed.spec.get(key)) for placed in face.elements for key in ("colour", "stroke", "fill")}
    if not refs <= {None, *face.values}:
        return []     # a colour read from a value the face lacks: unknown_fields names that, not its stand-in
    problems = []
    for placed, field, message in contrast_of(face):
        spec = placed.spec
        key = next((k for k in ("colour", "stroke", "fill") if k in spec), "colour")
        ref = colour_field(spec.get(key))
        if ref or not hasattr(spec, "line_of"):
            file, line, keypath = source
            name = ref or field
            problems.append(Problem(file, line, f"{keypath}.{name}",
                                    f"[{loc.game.slug} {loc.edition} {loc.locale}] {field}: {message}"))
        else:
            path = key_path(loc.game.layouts, spec) + (key,)
            problems.append(Problem(spec.file, spec.line_of(key), ".".join(map(str, path)),
                                    f"[{loc.game.slug}] {field}: {message}"))
    return problems


def card_field_uses(loc: Localised) -> list[tuple[dict | None, dict]]:
    """(layout, values) of every card of every edition, front and back: the values a card
    layout may read (a field may be one edition's)."""
    game = loc.game
    decks, faces_layouts, backs_layouts = game.decks, game.layouts.get("faces", {}), game.layouts.get("backs", {})
    uses = []
    for component in game.components:
        if component.category == "cards" and component.data.get("deck") in decks:
            deck = decks[component.data["deck"]]
            values = component_values(loc, component)
            uses += [(faces_layouts.get(component.data.get("layout", deck["layout"])), values),
                     (backs_layouts.get(component.data.get("back", deck["back"])), values)]
    return uses


def unknown_fields(game: Game, uses, what: str) -> list[Problem]:
    """Every value a layout reads (a text's or an icon's field, a `{field}` colour, a picture's
    file) that no `what` printed with it has: a mistyped name would print nothing, on every
    one of them. `uses` are (layout, values) of each face printed; an error at the layout's
    line, with the name it may mean."""
    known: dict[int, tuple[dict, set]] = {}
    for layout, values in uses:
        if layout is not None:
            known.setdefault(id(layout), (layout, set(layout.get("defaults", {}))))[1].update(values)
    problems = []
    for layout, names in known.values():
        for element in layout["elements"]:
            for field in sorted(element_type(element).fields(element) - names):
                key = next((k for k, v in element.items() if v == field or (isinstance(v, str) and f"{{{field}}}" in v)),
                           "type")
                close = difflib.get_close_matches(field, sorted(names), n=1)
                problems.append(Problem(element.file, element.line_of(key),
                                        ".".join(map(str, key_path(game.layouts, element) + (key,))),
                                        f"no {what} printed with this layout has a value '{field}'"
                                        + (f", did you mean '{close[0]}'?" if close else "")))
    return problems


# ---- card sizes ---------------------------------------------------------------------------

def by_card_size(faces: list[Face], sizes: list[CardSize]) -> list[tuple[CardSize, list[Face]]]:
    """The faces grouped by card size, sizes in the order their first card comes."""
    groups: dict[str, tuple[CardSize, list[Face]]] = {}
    for face in faces:
        size = size_of(face.layout["size_mm"], sizes)
        groups.setdefault(size.name, (size, []))[1].append(face)
    return list(groups.values())


@dataclass(frozen=True)
class CardRun:
    """The cards of one card size with one deck back, on sheets of their own: no sheet mixes two
    backs, so a duplex shift shows no sliver of another deck's back on a card's edge, and a
    table that needs only some decks prints only their sheets."""

    size: CardSize
    back: str
    faces: list[Face]
    tables: tuple[int, ...]        # the numbers of players whose game takes these cards


def card_runs(loc: Localised, faces: list[Face], sizes: list[CardSize]) -> list[CardRun]:
    """The faces by card size and then by deck back, each size's runs in the order a table cuts
    them: those every table needs first, then those fewer tables need (a deck printed only for
    the most players last); otherwise in the order of their first card."""
    needs = tables_needing(loc, faces)
    runs = []
    for size, sized in by_card_size(faces, sizes):
        by_back: dict[str, list[Face]] = {}
        for face in sized:
            by_back.setdefault(face.deck_back, []).append(face)
        made = [CardRun(size, back, members, tuple(t for t in table_sizes(loc)
                                                  if any(t in needs[face.deck_copy] for face in members)))
                for back, members in by_back.items()]
        runs += sorted(made, key=lambda run: -len(run.tables))
    return runs


def table_sizes(loc: Localised) -> tuple[int, ...]:
    """Every number of players the game's rules module seats, smallest first (none without one)."""
    spec = getattr(loc.game.rules, "SPEC", None)
    return spec.tables if spec is not None else ()


def tables_needing(loc: Localised, faces: list[Face]) -> dict[str, set[int]]:
    """The numbers of players that take each deck copy: the rules' setup says how many cards of a
    deck (`cards/<deck>`) a table takes, and those come from its copies in data order; a deck the
    setup does not name is taken whole."""
    spec = getattr(loc.game.rules, "SPEC", None)
    copies: dict[str, dict[str, int]] = {}
    for face in faces:
        deck = copies.setdefault(face.values["deck"], {})
        deck[face.deck_copy] = deck.get(face.deck_copy, 0) + face.copies
    needs = {copy: set(table_sizes(loc)) for deck in copies.values() for copy in deck}
    if spec is None or spec.setup is None or loc.edition not in spec.counts:
        return needs
    for players in spec.tables:
        wanted = spec.setup(players, loc.edition).components
        for deck_id, deck in copies.items():
            left = wanted.get(f"cards/{deck_id}")
            if left is None:
                continue
            for copy, cards in deck.items():
                if left <= 0:
                    needs[copy].discard(players)
                left -= cards
    return needs


def run_pages(runs: list[CardRun], per_page) -> list[tuple[CardRun, int, int]]:
    """(run, first page, last page) of each run, pages numbered from 1; `per_page(size)` is the
    cards a page of that size holds."""
    spans, page = [], 0
    for run in runs:
        count = pages_needed(sum(face.copies for face in run.faces), per_page(run.size))
        spans.append((run, page + 1, page + count))
        page += count
    return spans


def home_sheet(project: Project, size: CardSize, duplex: str):
    """The sheet `size` prints on in `duplex` mode; its slots must be exactly the card size."""
    if duplex not in size.sheets:
        modes = ", ".join(sorted(size.sheets))
        raise UsageError(f"{size.name} cards have no sheet for --duplex {duplex} (templates/sheets/card-sizes.yaml; "
                         f"modes: {modes})")
    sheet = project.load_sheet(size.sheets[duplex])
    if size_of(sheet["card_mm"], [size]) is None:
        raise DataError([Problem(sheet.file, sheet.line_of("card_mm"), "card_mm",
                                 f"the sheet's slots are {sheet['card_mm'][0]:g} x {sheet['card_mm'][1]:g} mm, but "
                                 f"card-sizes.yaml prints {size.name} cards "
                                 f"({size.size_mm[0]:g} x {size.size_mm[1]:g} mm) on it")])
    return sheet


# ---- sheets -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Slot:
    """A card position on a sheet: bottom-left corner in mm, column and row."""

    x: float
    y: float
    column: int
    row: int


@dataclass(frozen=True)
class SheetGrid:
    paper_mm: tuple[float, float]
    card_mm: tuple[float, float]
    columns: int
    rows: int
    gap_mm: float
    origin: tuple[float, float]          # bottom-left of the grid
    marks: dict                          # the sheet's crop_marks
    mark_lengths_mm: tuple[float, float]  # marks beside the grid, marks above and below it
    row_gap_mm: float | None = None      # between rows, when it differs from gap_mm (a gutter)
    bleed_mm: float = 0.0                # the outer cards' artwork runs this far past the cut line
    # card edge to the start of the marks beside the grid, and above and below it
    mark_offsets_mm: tuple[float, float] | None = None

    @property
    def offsets_mm(self) -> tuple[float, float]:
        return self.mark_offsets_mm or (self.marks["offset_mm"],) * 2

    @property
    def gap_y(self) -> float:
        return self.gap_mm if self.row_gap_mm is None else self.row_gap_mm

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    def slot(self, index: int, mirror_columns: bool = False, mirror_rows: bool = False) -> Slot:
        """Slot `index` reading left to right, top to bottom; mirrored for duplex backs."""
        column, row = index % self.columns, index // self.columns
        if mirror_columns:
            column = self.columns - 1 - column
        if mirror_rows:
            row = self.rows - 1 - row
        w, h = self.card_mm
        x = self.origin[0] + column * (w + self.gap_mm)
        y = self.origin[1] + (self.rows - 1 - row) * (h + self.gap_y)
        return Slot(x, y, column, row)

    @property
    def size_mm(self) -> tuple[float, float]:
        w, h = self.card_mm
        return (self.columns * w + (self.columns - 1) * self.gap_mm,
                self.rows * h + (self.rows - 1) * self.gap_y)


# A crop mark shorter than this is hard to see and to cut along. (Letter's 7.7 mm margin above
# and below a 3 x 3 poker grid, less its 6.35 mm unprintable band, leaves 1.35 mm.)
MIN_MARK_MM = 1.2


def sheet_grid(sheet: dict, paper_mm: tuple[float, float], unprintable_mm: float = 0.0) -> SheetGrid:
    """Centre the sheet's card grid on the paper, with crop marks as long as the sheet asks
    where the margin allows, never in the paper's `unprintable_mm` band (nor nearer the edge
    than the sheet's `min_edge_mm`). A grid that leaves no room for marks is a DataError located
    in the sheet. A sheet with `orientation: landscape` turns the paper first."""
    columns, rows, gap = sheet["columns"], sheet["rows"], sheet.get("gap_mm", 0)
    row_gap = sheet.get("row_gap_mm", gap)
    if sheet.get("orientation") == "landscape" and paper_mm[0] < paper_mm[1]:
        paper_mm = (paper_mm[1], paper_mm[0])
    w, h = sheet["card_mm"]
    grid_w, grid_h = columns * w + (columns - 1) * gap, rows * h + (rows - 1) * row_gap
    margin_x, margin_y = (paper_mm[0] - grid_w) / 2, (paper_mm[1] - grid_h) / 2
    marks = dict(sheet["crop_marks"])
    marks["min_edge_mm"] = max(marks["min_edge_mm"], unprintable_mm)
    # marks start at most min_offset_mm from the cards where the margin is narrow
    reach = min(marks["offset_mm"], marks.get("min_offset_mm", marks["offset_mm"])) + marks["min_edge_mm"]
    problems = []
    for key, count, card, gaps, size, margin, extent, where in (
            ("columns", columns, w, gap, grid_w, margin_x, "wide", "beside"),
            ("rows", rows, h, row_gap, grid_h, margin_y, "tall", "above and below")):
        if margin - reach < MIN_MARK_MM:
            file, line = locate(sheet, (key,))
            problems.append(Problem(file, line, key, (
                f"{count} {key} of {card:g} mm cards" + (f" with {gaps:g} mm gaps" if gaps and count > 1 else "")
                + f" make the grid {size:g} mm {extent}, which leaves {max(margin, 0):.2f} mm {where} it on "
                f"{paper_mm[0]:g} x {paper_mm[1]:g} mm paper: crop marks start {reach - marks['min_edge_mm']:g} mm "
                f"from the cards, stay {marks['min_edge_mm']:g} mm from the paper edge (the paper's unprintable "
                f"band: {unprintable_mm:g} mm) and need {MIN_MARK_MM:g} mm of length")))
    if problems:
        raise DataError(problems)
    fitted = [_fit_marks(marks, margin) for margin in (margin_x, margin_y)]
    return SheetGrid(tuple(paper_mm), (w, h), columns, rows, gap, (margin_x, margin_y), dict(marks),
                     (fitted[0][1], fitted[1][1]), row_gap if row_gap != gap else None,
                     sheet.get("bleed_mm", 0), (fitted[0][0], fitted[1][0]))


def unprintable_band(project: Project, paper_mm) -> float:
    """The band a home printer cannot print along the edges of the paper of this size
    (templates/sheets/papers.yaml), either way round; 0 for a size no paper has."""
    for paper in project.read_sheet("papers")["papers"].values():
        if sorted(map(float, paper["size_mm"])) == sorted(map(float, paper_mm)):
            return float(paper.get("unprintable_mm", 0))
    return 0.0


def check_sheet_bands(project: Project) -> list[Problem]:
    """Every card sheet's grid on every paper leaves room for its crop marks outside the
    paper's unprintable band (templates/sheets/papers.yaml): found when validating, before any
    sheet is drawn."""
    try:
        papers = project.read_sheet("papers")["papers"]
        sizes = card_sizes(project)
    except (DataError, UsageError):
        return []               # check_sheets names what is wrong with them
    problems: list[Problem] = []
    names = sorted({sheet for size in sizes for sheet in size.sheets.values()})
    for name in names:
        try:
            sheet = project.load_sheet(name)
        except (DataError, UsageError):
            continue
        for paper in papers.values():
            try:
                sheet_grid(sheet, tuple(paper["size_mm"]))
            except DataError:
                continue        # the grid does not fit that paper at all: said when a game uses it
            try:
                sheet_grid(sheet, tuple(paper["size_mm"]), float(paper.get("unprintable_mm", 0)))
            except DataError as exc:
                problems += exc.problems
    return list(dict.fromkeys(problems))


def _fit_marks(marks: dict, margin: float) -> tuple[float, float]:
    """(offset, length) of the crop marks in a margin: the sheet's, shortened where the margin
    is narrow; a mark that would come out shorter than `min_length_mm` starts closer to the
    card instead (down to `min_offset_mm`), so a narrow margin still gets marks one can cut by."""
    room = margin - marks["min_edge_mm"]
    offset = marks["offset_mm"]
    length = min(marks["length_mm"], room - offset)
    wanted = min(marks.get("min_length_mm", 0), marks["length_mm"])
    if length < wanted:
        offset = max(min(marks.get("min_offset_mm", offset), offset), room - wanted)
        length = min(marks["length_mm"], room - offset)
    return offset, length


def pages_needed(copies: int, per_page: int) -> int:
    return max(1, math.ceil(copies / per_page))


def translator_notes(game: Game) -> dict[str, list[str]]:
    """Where each card string is printed and how much room it has, by catalog key: the notes
    `pnp i18n extract` writes beside each string for its translators."""
    notes: dict[str, list[str]] = {}
    faces = game.layouts.get("faces", {})
    for card_id, card in (game.files.get("cards") or {}).get("cards", {}).items():
        layout_name = game.decks.get(card["deck"], {}).get("layout")
        for element in faces.get(layout_name, {}).get("elements", []):
            note = element_type(element).translator_note(element)
            if note and element["field"] in ("name", "text"):
                notes.setdefault(f"cards.{card_id}.{element['field']}", []).append(note)
    return notes
