"""Load stage: find the project's games and read their YAML into located data.

A project is a folder with `components/<game>/` (YAML) and optionally `templates/`; the
tool's own templates fill in whatever the project does not override.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from types import ModuleType

from ..core.errors import DataError, Problem, UsageError
from ..core.files import TOOL_FOLDER
from ..core.schema import did_you_mean, schema_problems, written_schemas
from ..core.yamlfile import Located, load_yaml, locate
from ..rules import RulesName, load_rules
from .decks import matrix_cards
from .spreadsheets import add_sheet_cards


TOOL_TEMPLATES = TOOL_FOLDER.parent / "templates"
# The rules modules of games that arrived pickled in this process (a build's worker), by name
# and project: loaded once, not once per unit of work.
_unpickled_rules: dict[tuple[str, str], ModuleType] = {}
REQUIRED_FILES = ("game",)


# The key of a component kind's schema (generator/schemas/<kind>.yaml) that makes it one, with
# the place its files and booklet rows take among the kinds.
KIND_ORDER = "x-kind-order"


@lru_cache(maxsize=None)
def categories() -> tuple[str, ...]:
    """The component kinds, in their order: each has a schema saying its place (KIND_ORDER) and
    a module in generator/app/kinds; its file (`<kind>.yaml`) holds its components under the same key."""
    kinds = {name: schema[KIND_ORDER] for name, schema in written_schemas().items() if KIND_ORDER in schema}
    return tuple(sorted(kinds, key=kinds.get))


# The key of a component kind's schema naming one of its components ("die" for dice), as a
# message names it.
KIND_SINGULAR = "x-singular"


@lru_cache(maxsize=None)
def singular(kind: str) -> str:
    """One component of the kind, as a message names it: "die", "tuck box"."""
    return written_schemas()[kind][KIND_SINGULAR]


# The key of a component kind's schema listing the other kinds' files its components name
# things in (a tuck box names a deck of cards.yaml).
KIND_READS = "x-reads"


def files_read(name: str) -> frozenset[str]:
    """The game's files that the checks of file `name`'s components read besides it: game.yaml
    and layouts.yaml for every kind, and the files its schema names (KIND_READS)."""
    schema = written_schemas().get(name, {})
    return frozenset({"game", "layouts", *schema.get(KIND_READS, ())}) if KIND_ORDER in schema else frozenset()


# The key of a component kind's schema saying its components go to a print shop one file each,
# drawn whole (the module's `shop`): the kinds a print profile's `components:` may name.
SHOP_FILES = "x-shop-files"


@lru_cache(maxsize=None)
def shop_kinds() -> tuple[str, ...]:
    """The component kinds that make print-shop files (SHOP_FILES in their schema), in their order."""
    schemas = written_schemas()
    return tuple(kind for kind in categories() if schemas[kind].get(SHOP_FILES) is True)


@lru_cache(maxsize=None)
def game_files() -> tuple[str, ...]:
    """The files a game folder may hold, each checked by its schema (generator/schemas)."""
    return ("game", *categories(), "layouts", "booklet", "glossary")


@dataclass
class Component:
    """One card, board or token kind with its copies per edition."""

    category: str
    id: str
    data: Located
    # The catalog key root of a text field when it is not this component's own key path (a
    # card generated from a deck's matrix takes its name from the matrix entry).
    text_roots: dict = field(default_factory=dict)

    def text_root(self, name: str) -> str:
        return self.text_roots.get(name, self.keypath)

    @property
    def group(self) -> str:
        """The deck of a card, the shape of a token; boards form one group unless they name theirs."""
        if self.category == "cards":
            return self.data["deck"]
        if self.category in ("tokens", "dice", "pieces"):
            return self.id
        return self.data.get("group", self.category)

    def count(self, edition: str) -> int:
        return int(self.data.get("count", {}).get(edition, 0))

    @property
    def keypath(self) -> str:
        return f"{self.category}.{self.id}"


@dataclass
class Game:
    slug: str
    folder: Path
    display: str                      # folder as shown in messages, relative to the project
    files: dict[str, Located] = field(default_factory=dict)
    rules: ModuleType | None = None
    # Files that are there (or required) but did not load: checks that need one of them wait
    unread: set[str] = field(default_factory=set)
    # Files that loaded without some of their data (a spreadsheet's rows with problems): their
    # own checks run on the rest, the checks that count every component wait
    partly_read: set[str] = field(default_factory=set)

    @property
    def meta(self) -> Located:
        return self.files["game"]

    @property
    def source_locale(self) -> str:
        return self.meta["source_locale"]

    @property
    def locales(self) -> list[str]:
        return list(self.meta["locales"])

    def is_draft(self, locale: str) -> bool:
        """A draft locale builds with a DRAFT mark and never goes to a print shop."""
        return self.meta["locales"].get(locale) == "draft"

    @property
    def editions(self) -> list[str]:
        return list(self.meta["editions"])

    def file_name(self, name: str) -> str:
        return f"{self.display}/{name}.yaml"

    def __getstate__(self) -> dict:
        """A game sent to a build's worker: its rules module (which does not pickle) is loaded
        again there, from the name that loaded it here."""
        return dict(self.__dict__, rules=self.rules is not None)

    def __setstate__(self, state: dict) -> None:
        rules = None
        if state["rules"]:
            name = state["files"]["game"]["rules"]
            key = (str(name), str(getattr(name, "project", "")))
            if key not in _unpickled_rules:
                _unpickled_rules[key] = load_rules(name)
            rules = _unpickled_rules[key]
        self.__dict__.update(state, rules=rules)

    @cached_property
    def components(self) -> list[Component]:
        found = []
        for category in categories():
            section = (self.files.get(category) or {}).get(category, {})
            if isinstance(section, dict):       # anything else is a schema error of its file
                for component_id, data in section.items():
                    found.append(Component(category, component_id, data))
        decks = self.decks
        if isinstance(decks, dict):
            found += [Component("cards", card_id, data, roots) for card_id, data, roots in matrix_cards(decks)]
        return found

    def where(self, component: Component) -> tuple[str, int]:
        """File and line that declare the component: its entry, or for a card generated from a
        deck's matrix, the matrix entry it was made from."""
        if component.text_roots:
            return component.data.file, component.data.line
        return locate(self.files[component.category], (component.category, component.id))

    def component_names(self) -> dict[str, str]:
        """Display names by id, as the data writes them; a card's name wins over a token's of the same id."""
        names = {}
        for component in sorted(self.components, key=lambda c: c.category == "cards"):
            names[component.id] = str(component.data.get("name", component.id))
        return names

    def without(self, names) -> "Game":
        """The game as if the files `names` were not there (its rules module kept): what the
        checks of its other files see when those files have problems."""
        files = {name: data for name, data in self.files.items() if name not in names}
        return Game(self.slug, self.folder, self.display, files, self.rules, set(self.unread) - set(names),
                    set(self.partly_read) - set(names))

    def in_edition(self, edition: str, category: str | None = None) -> list[Component]:
        return [c for c in self.components
                if c.count(edition) > 0 and (category is None or c.category == category)]

    @property
    def decks(self) -> dict:
        return (self.files.get("cards") or {}).get("decks", {})

    @property
    def booklet(self) -> Located:
        return self.files.get("booklet") or Located()

    @property
    def layouts(self) -> Located:
        return self.files.get("layouts") or Located()


@dataclass
class Project:
    root: Path
    # Sheets already read and checked, by file and its state on disk: a build reads the same
    # few sheets for every kit, and a preview server sees an edited sheet as a new one.
    _sheets: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def components_dir(self) -> Path:
        return self.root / "components"

    @property
    def template_dirs(self) -> list[Path]:
        own = self.root / "templates"
        dirs = [own] if own.is_dir() else []
        if TOOL_TEMPLATES.is_dir() and TOOL_TEMPLATES.resolve() != own.resolve():
            dirs.append(TOOL_TEMPLATES)
        return dirs

    def template(self, relative: str) -> Path:
        for folder in self.template_dirs:
            candidate = folder / relative
            if candidate.exists():
                return candidate
        raise UsageError(f"template '{relative}' not found in {', '.join(map(str, self.template_dirs))}")

    def display(self, path: Path) -> str:
        try:
            return str(path.resolve().relative_to(self.root.resolve()))
        except ValueError:
            return str(path)

    def game_slugs(self) -> list[str]:
        """Every folder of components/ with a game file in it; one without game.yaml is a game
        with a missing file, not a folder to pass over."""
        if not self.components_dir.is_dir():
            raise UsageError(f"{self.root}: no components/ folder here (use -C DIR to name the project)")
        return sorted(p.name for p in self.components_dir.iterdir()
                      if p.is_dir() and any(_present(p / f"{name}.yaml") for name in game_files()))

    def select(self, slug: str | None) -> list[str]:
        slugs = self.game_slugs()
        if slug is None:
            return slugs
        if slug not in slugs:
            raise UsageError(f"no game '{slug}' in {self.display(self.components_dir)}{did_you_mean(slug, slugs)} "
                             f"(games: {', '.join(slugs) or 'none'})")
        return [slug]

    def load_game(self, slug: str) -> tuple[Game, list[Problem]]:
        folder = self.components_dir / slug
        game = Game(slug, folder, self.display(folder))
        problems: list[Problem] = []
        for name in game_files():
            path = folder / f"{name}.yaml"
            if not _present(path):
                if name in REQUIRED_FILES:
                    game.unread.add(name)
                    problems.append(Problem(game.file_name(name), 0, "", "required file is missing"))
                continue
            data, found = load_yaml(path, game.file_name(name), [self.root])
            if data is None and not found:
                data = Located()
            if not found and not isinstance(data, Located):
                found = [Problem(game.file_name(name), 1, "", "expected a mapping at the top level")]
            if found:
                game.unread.add(name)
                problems.extend(found)
            else:
                game.files[name] = data
        if "cards" in game.files:
            found, left_out = add_sheet_cards(game.files["cards"], folder, game.display, _editions(game))
            problems.extend(found)
            if left_out or found:
                game.partly_read.add("cards")
        self._name_rules(game)
        return game, problems

    def _name_rules(self, game: Game) -> None:
        """Rules-module discovery: a game's `rules:` name remembers this project, whose own
        rules/ folder generator.rules.load_rules searches first."""
        meta = game.files.get("game")
        if meta is not None and isinstance(meta.get("rules"), str):
            meta["rules"] = RulesName(meta["rules"], self.root)

    def load_sheet(self, name: str) -> Located:
        """A sheet template (templates/sheets/NAME.yaml), checked against the schema of its
        kind; anything wrong is a DataError located in the sheet's file. The caller's own copy,
        to change as it needs."""
        return copy.deepcopy(self.read_sheet(name))

    def read_sheet(self, name: str) -> Located:
        """The sheet template as load_sheet gives it, shared by every caller: to read, never to
        change."""
        path = self.template(f"sheets/{name}.yaml")
        try:
            state = path.stat()
            key = (name, str(path), state.st_mtime_ns, state.st_size, state.st_ino)
        except OSError:
            key = None                      # loading it names what is wrong
        if key in self._sheets:
            return self._sheets[key]
        display = self.display(path)
        data, problems = load_yaml(path, display, [self.root, TOOL_TEMPLATES])
        if not problems and not isinstance(data, Located):
            problems = [Problem(display, 1, "", "expected a mapping at the top level")]
        if not problems:
            problems = _sheet_problems(data, SHEET_KINDS.get(name, "cards"), display)
        if problems:
            raise DataError(problems)
        if key is not None:
            self._sheets[key] = data
        return data


def check_sheets(project: "Project") -> list[Problem]:
    """Every sheet template a build loads, checked before anything is drawn: a mistake in one
    is found in the validate stage, at once, not after every other file has rendered. The
    sheets are the tool's by name (SHEET_KINDS) and the card grids the card sizes name."""
    problems: list[Problem] = []

    def load(name: str):
        try:
            return project.load_sheet(name)
        except DataError as exc:
            problems.extend(exc.problems)
        except UsageError:
            return None             # not there: the stage that needs it says so

    sizes = (load("card-sizes") or {}).get("sizes", {})
    grids = {sheet for size in sizes.values() for sheet in size.get("sheets", {}).values()}
    loaded = {name: load(name) for name in [*SHEET_KINDS, *sorted(grids)] if name != "card-sizes"}
    # every sheet a card size prints on has slots of that size: each wrong one named at once
    for size_name, size in sizes.items():
        for sheet_name in dict.fromkeys(size.get("sheets", {}).values()):
            sheet = loaded.get(sheet_name)
            if sheet is not None and "card_mm" in sheet and \
                    not all(abs(a - b) < 0.01 for a, b in zip(sheet["card_mm"], size["size_mm"])):
                problems.append(Problem(sheet.file, sheet.line_of("card_mm"), "card_mm",
                                        f"the sheet's slots are {sheet['card_mm'][0]:g} x {sheet['card_mm'][1]:g} mm, "
                                        f"but card-sizes.yaml prints {size_name} cards ({size['size_mm'][0]:g} x "
                                        f"{size['size_mm'][1]:g} mm) on it"))
    return list(dict.fromkeys(problems))


def _editions(game: Game) -> list[str]:
    """The editions game.yaml names, for a spreadsheet's count column (one count for every
    edition); none when game.yaml did not load or names them wrongly."""
    editions = (game.files.get("game") or {}).get("editions")
    return [str(name) for name in editions] if isinstance(editions, dict) else []


def _present(path: Path) -> bool:
    """There, even as a link that leads nowhere (reading it says why it cannot be read)."""
    return path.exists() or path.is_symlink()


# The kind of each sheet the tool loads by name (its definition in generator/schemas/sheets.yaml);
# any other sheet is a grid of cards.
SHEET_KINDS = {"papers": "papers", "tiles": "tiles", "tokens": "tokens", "calibration": "calibration",
               "poker-gutterfold": "gutterfold", "card-sizes": "card_sizes", "dice": "dice",
               "errata": "errata", "ink": "ink", "print-first": "print_first", "cutters": "cutters"}


def _sheet_problems(data: Located, kind: str, display: str) -> list[Problem]:
    problems = schema_problems({"$ref": f"sheets#/$defs/{kind}"}, data, display)
    if not problems and kind == "gutterfold" and data["rows"] % 2:
        problems.append(Problem(display, data.line_of("rows"), "rows",
                                f"a gutterfold sheet needs an even number of rows (fronts in the top half, their "
                                f"backs below the fold), not {data['rows']}"))
    return problems
