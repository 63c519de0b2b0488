"""Validate stage: schema, cross-references, the counts game.yaml's `needs` declares, and the
rules module's counts.

Every check appends located problems; nothing stops at the first one.
"""
from __future__ import annotations

import difflib

from functools import lru_cache

from referencing import Registry

from ..core.errors import Problem
from ..core.schema import did_you_mean, schema_errors, schema_problems, with_registry, written_schemas
from ..core.yamlfile import Located, locate, shown
from ..layout import elements
from ..layout.boards import board_shapes
from ..load import shapes
from ..load.decks import MAX_DECK_CARDS, deck_size
from ..load.project import Game, categories, game_files, singular
from ..rules import load_rules
from .icons import check_icons


@lru_cache(maxsize=None)
def game_schemas() -> tuple[dict, Registry]:
    """The schemas of a game's files: those written in generator/schemas and those composed
    from the element and shape modules, with the registry they resolve in."""
    return with_registry({**written_schemas(), **{composed["$id"]: composed
                                                  for composed in (elements.schema(), shapes.schema())}})


def file_schema_problems(game: Game, name: str) -> list[Problem]:
    """Every way the game's file `name` breaks its schema."""
    schemas, registry = game_schemas()
    return schema_problems(schemas[name], game.files[name], game.file_name(name), registry)


def check_references(game: Game, trusted: set[str]) -> list[Problem]:
    """Names that must point at something: decks, layouts, backs, editions, locales. Each
    check runs when every file it reads is `trusted` (passed the schema, or is not there)."""
    problems = []
    layouts = game.layouts
    faces, backs = layouts.get("faces", {}), layouts.get("backs", {})
    cards_file = game.files.get("cards")

    def add(data, path, message):
        file, line = locate(data, path)
        problems.append(Problem(file, line, ".".join(map(str, path)), message))

    if "game" in trusted:
        if game.source_locale not in game.meta["locales"]:
            add(game.meta, ("source_locale",), f"'{game.source_locale}' is not listed under locales")
        players = game.meta.get("players", {})
        if players.get("min", 0) > players.get("max", 0):
            add(game.meta, ("players", "min"), "min is greater than max")
    if {"cards", "layouts"} <= trusted:
        for deck_id, deck in game.decks.items():
            if deck["layout"] not in faces:
                add(cards_file, ("decks", deck_id, "layout"), f"no face layout '{deck['layout']}' in layouts.yaml"
                                                                     + did_you_mean(deck["layout"], faces))
            if deck["back"] not in backs:
                add(cards_file, ("decks", deck_id, "back"), f"no back layout '{deck['back']}' in layouts.yaml"
                                                                   + did_you_mean(deck["back"], backs))
            for index, back in enumerate(deck.get("backs", [])):
                if back not in backs:
                    add(cards_file, ("decks", deck_id, "backs", index), f"no back layout '{back}' in layouts.yaml"
                                                                                + did_you_mean(back, backs))
            entries = [(("decks", deck_id, "matrix", axis, key), entry)
                       for axis, values in (deck.get("matrix") or {}).items() for key, entry in values.items()]
            entries += [(("decks", deck_id, "extra", key), entry) for key, entry in (deck.get("extra") or {}).items()]
            for path, entry in entries:
                if "layout" in entry and entry["layout"] not in faces:
                    add(cards_file, path + ("layout",), f"no face layout '{entry['layout']}' in layouts.yaml"
                                                      + did_you_mean(entry["layout"], faces))
            printed = max(deck.get("count", {}).values(), default=0)
            if deck.get("backs") and printed > len(deck["backs"]):
                add(cards_file, ("decks", deck_id, "count"), f"{printed} copies of the deck, but {len(deck['backs'])} "
                                                             f"backs: give every copy its back")
    if "boards" in trusted and game.files.get("boards"):
        problems += _board_problems(game, faces if "layouts" in trusted else None)
    for component in game.components:
        if component.category not in trusted:
            continue
        root = game.files[component.category]
        if "game" in trusted:
            for edition in component.data.get("count", {}):
                if edition not in game.editions:
                    add(root, (component.category, component.id, "count", edition),
                        f"unknown edition '{shown(edition)}'{did_you_mean(edition, game.editions)} "
                        f"(editions: {', '.join(game.editions)})")
        if component.category == "cards":
            if component.data["deck"] not in game.decks:
                add(root, ("cards", component.id, "deck"), f"no deck '{component.data['deck']}' in decks"
                                                        + did_you_mean(component.data["deck"], game.decks))
            back = component.data.get("back")
            if back and "layouts" in trusted and back not in backs:
                add(root, ("cards", component.id, "back"), f"no back layout '{back}' in layouts.yaml"
                                                            + did_you_mean(back, backs))
        phrase = component.data.get("phrase")
        phrases = game.booklet.get("phrases", {}) if "booklet" in trusted else None
        if phrase and phrases is not None and phrase not in phrases:
            near = difflib.get_close_matches(phrase, list(phrases), n=1)
            add(root, (component.category, component.id, "phrase"),
                f"no phrase '{phrase}' in booklet.yaml phrases" + (f" (did you mean '{near[0]}'?)" if near else ""))
    return problems


def deck_problems(game: Game) -> list[Problem]:
    """A matrix deck's size, counted before any card is made: one past the limit is not
    expanded (decks.matrix_cards), and is this error at its matrix."""
    problems = []
    for deck_id, deck in game.decks.items():
        size, how = deck_size(deck) if deck.get("matrix") else (0, "")
        if size > MAX_DECK_CARDS:
            file, line = locate(game.files["cards"], ("decks", deck_id, "matrix"))
            problems.append(Problem(file, line, f"decks.{deck_id}.matrix",
                                    f"the deck makes {size:,} cards ({how}), more than the {MAX_DECK_CARDS:,} "
                                    f"a deck may have"))
    return problems


def _board_problems(game: Game, faces: dict | None) -> list[Problem]:
    """Each board's shapes as the board sees them (its own keys over the shared design) are
    whole shapes; its size is known and is its face layout's size."""
    boards_file = game.files["boards"]
    design = boards_file.get("design") or {}
    _, registry = game_schemas()
    problems = []
    shared = design.get("shapes") or {}
    seen = set()
    for board_id, board in boards_file["boards"].items():
        spec, roots = board_shapes(design, board_id, board)
        own = board.get("shapes") or {}
        for name, shape in spec["shapes"].items():
            # the shape as the board sees it, knowing how each of its keys was written
            seen_as = Located(shape)
            for part in (shared.get(name), own.get(name)):
                seen_as.written.update(getattr(part, "written", {}))
            for path, message in schema_errors({"$ref": "shapes#/$defs/shape"}, seen_as, registry):
                # a key the board gives is the board's mistake; the rest are the shared design's
                if name in own and (not path or path[0] in own[name]) or name not in shared:
                    root, node = ("boards", board_id, "shapes", name), own[name]
                else:
                    root, node = ("design", "shapes", name), shared[name]
                file, line = locate(node, path)
                problem = Problem(file, line, ".".join(map(str, root + path)), message)
                if problem not in seen:
                    seen.add(problem)
                    problems.append(problem)
        size = spec.get("size_mm")
        if size is None:
            file, line = locate(boards_file, ("boards", board_id))
            problems.append(Problem(file, line, f"boards.{board_id}.size_mm",
                                    "the board has no size: give size_mm here or under design"))
        if faces is not None and spec.get("layout"):
            path = ("boards", board_id, "layout") if "layout" in board else ("design", "layout")
            file, line = locate(boards_file, path)
            face = faces.get(spec["layout"])
            if face is None:
                problems.append(Problem(file, line, ".".join(path), f"no face layout '{spec['layout']}' in layouts.yaml"
                                                                            + did_you_mean(spec["layout"], faces)))
            elif size is not None and tuple(face["size_mm"]) != tuple(size):
                problems.append(Problem(file, line, ".".join(path),
                                        f"the face '{spec['layout']}' is {face['size_mm'][0]:g} x {face['size_mm'][1]:g} mm, "
                                        f"the board {size[0]:g} x {size[1]:g} mm: a board is never scaled"))
    return problems


def no_rules_note(game: Game) -> list[Problem]:
    """Once for a game without a rules module: nothing but `needs` checks its counts."""
    if "game" not in game.files or game.meta.get("rules") is not None:
        return []
    declared = "only the counts under needs: are checked" if game.meta.get("needs") else \
        "declare the counts the rules need under needs:"
    return [Problem(game.file_name("game"), 0, "rules",
                    f"no rules module checks this game's counts; {declared} (docs/rules-modules.md)", "note")]


def check_needs(game: Game, trusted: set[str]) -> list[Problem]:
    """The counts game.yaml's `needs` declares, edition by edition: a component's copies and a
    deck's cards exactly as stated, and at least what a game of N players takes. Each kind is
    checked when its file is `trusted`."""
    problems = []

    def add(root, path, message):
        file, line = locate(root, path)
        problems.append(Problem(file, line, ".".join(map(str, path)), message))

    players = game.meta["players"]
    seated_by = list(players.get("counts") or range(players["min"], players["max"] + 1))
    seats = (f"{players['min']} to {players['max']}" if "counts" not in players else
             ", ".join(map(str, seated_by[:-1])) + (" or " if len(seated_by) > 1 else "") + str(seated_by[-1]))
    for edition, declared in (game.meta.get("needs") or {}).items():
        where = ("needs", edition)
        if edition not in game.editions:
            add(game.meta, where, f"unknown edition '{shown(edition)}'{did_you_mean(edition, game.editions)} "
                                  f"(editions: {', '.join(game.editions)})")
            continue
        for kind, copies in declared.items():
            if kind == "players":
                for seated, taken in copies.items():
                    count = int(seated)
                    if count not in seated_by:
                        add(game.meta, where + ("players", seated), f"the game seats {seats} players, not {count}")
                        continue
                    for taken_kind, taken_copies in taken.items():
                        for cid, needed in taken_copies.items():
                            path = where + ("players", seated, taken_kind, cid)
                            selector = _needed_selector(game, trusted, taken_kind, cid, path, add)
                            if selector is None:
                                continue
                            have = _copies(game, edition, selector)
                            if have < needed:
                                add(game.meta, path, f"a {count}-player game of edition '{edition}' needs {needed}, "
                                                     f"data has {have}")
                continue
            for cid, needed in copies.items():
                selector = _needed_selector(game, trusted, kind, cid, where + (kind, cid), add)
                if selector is None:
                    continue
                says = _copies(game, edition, selector)
                if says == needed:
                    continue
                if kind == "decks":
                    add(game.files["cards"], ("decks", cid),
                        f"rules need {needed} cards in edition '{edition}', data says {says}")
                    continue
                component = selector[1]
                counted = "count" in component.data and edition in component.data["count"]
                if component.text_roots:        # a card of a deck's matrix: the entry it is made from
                    file, line = game.where(component)
                    problems.append(Problem(file, line, f"{kind}.{cid}.count", f"rules need {needed} in edition "
                                                                             f"'{edition}', data says {says}"))
                else:
                    add(game.files[kind], (kind, cid, "count", edition) if counted else (kind, cid, "count"),
                        f"rules need {needed}, data says {says}")
    return problems


def _needed_selector(game: Game, trusted: set[str], kind: str, cid: str, path: tuple, add):
    """What a `needs` entry counts: ("decks", deck id) or (kind, its component); None, with the
    problem named, for a kind or id the data does not have, or when its file is not trusted."""
    file_of = "cards" if kind == "decks" else kind
    if kind != "decks" and kind not in categories():
        add(game.meta, path[:-1], f"no kind '{shown(kind)}'{did_you_mean(kind, ('decks', *categories()))} "
                                  f"(kinds: decks, {', '.join(categories())})")
        return None
    if file_of not in trusted:
        return None
    if kind == "decks":
        if cid in game.decks:
            return ("decks", cid)
        add(game.meta, path, f"no deck '{shown(cid)}' in cards.yaml{did_you_mean(cid, game.decks)}")
        return None
    found = {c.id: c for c in game.components if c.category == kind}
    if cid in found:
        return (kind, found[cid])
    add(game.meta, path, f"no {singular(kind)} '{shown(cid)}' in {kind}.yaml{did_you_mean(cid, found)}")
    return None


def _copies(game: Game, edition: str, selector) -> int:
    kind, what = selector
    return total(game, edition, f"cards/{what}") if kind == "decks" else what.count(edition)


def check_rules(game: Game) -> list[Problem]:
    """Compare the YAML with what the game's rules module says the rules need."""
    try:
        game.rules = load_rules(game.meta["rules"])
    except LookupError as exc:
        file, line = locate(game.meta, ("rules",))
        return [Problem(file, line, "rules", str(exc))]
    spec = game.rules.SPEC
    problems = []

    def add(root, path, message):
        file, line = locate(root, path)
        problems.append(Problem(file, line, ".".join(path), message))

    for edition in spec.editions:
        if edition not in game.editions:
            add(game.meta, ("editions",), f"the rules know edition '{edition}', the data does not")
    have: dict[str, dict] = {}
    for component in game.components:
        have.setdefault(component.category, {})[component.id] = component
    for edition in game.editions:
        if edition not in spec.counts:
            add(game.meta, ("editions", edition), f"the rules know no edition '{edition}'")
            continue
        need = spec.counts[edition]
        for category, counts in need.items():
            for cid, needed in counts.items():
                component = have.get(category, {}).get(cid)
                if component is None:
                    root = game.files.get(category)
                    add(root if root is not None else game.meta, (category,),
                        f"{category}.{cid}: rules need {needed} in edition '{edition}', data has none under {category}")
                    continue
                says = component.count(edition)
                if says != needed:
                    counted = "count" in component.data and edition in component.data["count"]
                    path = (category, cid, "count", edition) if counted else (category, cid, "count")
                    add(game.files[category], path, f"rules need {needed}, data says {says}")
        for component in game.components:
            if component.count(edition) and component.id not in need.get(component.category, {}):
                add(game.files[component.category], (component.category, component.id, "count", edition),
                    f"rules count no '{component.id}' among their {component.category} in edition '{edition}', "
                    f"data says {component.count(edition)}")
        for selector, needed in spec.totals.get(edition, {}).items():
            says = total(game, edition, selector)
            if says != needed:
                category = selector.split("/")[0]
                root = game.files.get(category, game.meta)
                add(root, (category,), f"total {selector} in edition '{edition}': rules need {needed}, data says {says}")
    for where, value in spec.facts.items():
        file_name, keypath = where.split(":")
        root = game.files.get(file_name.removesuffix(".yaml"))
        path = tuple(keypath.split("."))
        node = root
        for step in path:
            node = node.get(step) if isinstance(node, dict) else None
        if node != value:
            add(root if root is not None else game.meta, path, f"rules need {value}, data says {node}")
    return problems


def total(game: Game, edition: str, selector: str) -> int:
    category, _, group = selector.partition("/")
    return sum(c.count(edition) for c in game.components
               if c.category == category and (not group or c.group == group))


def check_setups(game: Game) -> list[Problem]:
    """Every supported player count must find enough components in every edition."""
    spec = game.rules.SPEC
    problems = []
    if spec.setup is None:
        return problems
    for edition in game.editions:
        if edition not in spec.counts:
            continue
        for players in spec.tables:
            setup = spec.setup(players, edition)
            for selector, needed in setup.components.items():
                have = total(game, edition, selector)
                if have < needed:
                    category = selector.split("/")[0]
                    file, line = locate(game.files.get(category, game.meta), (category,))
                    problems.append(Problem(file, line, selector,
                                            f"a {players}-player game of edition '{edition}' needs {needed}, data has {have}"))
    return problems


PLAY_CHECK_SEEDS = (1, 2)       # seeded games per edition and player count: a few, to stay fast
# What check_play found, by what it played from: a long-running process (`pnp serve`, a test
# session) plays a game's data through once, not at every build.
_PLAYED: dict[str, list[Problem]] = {}
PLAYED_KEPT = 32


def forget_play_checks() -> None:
    _PLAYED.clear()


def check_play(game: Game) -> list[Problem]:
    """With a rules engine, set every player count of every edition up from the components and
    play a few seeded games: a shortage or a broken rule is a problem that names it."""
    engine = getattr(game.rules, "ENGINE", None)
    if engine is None:
        return []
    from ..core.digests import digest, game_folder_digest, rules_digest
    # every byte of the game's folder (so a problem's line is the file's), its rules module
    key = digest("play", game.slug, game.display, game_folder_digest(game.folder), rules_digest(game))
    if key not in _PLAYED:
        if len(_PLAYED) >= PLAYED_KEPT:
            _PLAYED.clear()
        _PLAYED[key] = _check_play(game, engine)
    return list(_PLAYED[key])


def _check_play(game: Game, engine) -> list[Problem]:
    from ..rules.engine import InvariantBroken, SetupError
    from ..rules.simulate import play_game
    spec = game.rules.SPEC
    problems, stats = [], []

    def add(where, message: str) -> None:
        name, keypath = where or ("game", ())
        file, line = locate(game.files.get(name, game.meta), keypath)
        problems.append(Problem(file or game.file_name(name), line, ".".join(map(str, keypath)), message))

    for edition in game.editions:
        if edition not in spec.counts:
            continue
        try:
            components = engine.components(game, edition)
        except SetupError as exc:
            add(exc.where, f"edition '{edition}': {exc}")
            continue
        for players in spec.tables:
            for seed in PLAY_CHECK_SEEDS:
                try:
                    played = play_game(engine, components, players=players, edition=edition, seed=seed,
                                       options=engine.options)
                except SetupError as exc:
                    add(exc.where, str(exc))
                    break
                except InvariantBroken as exc:
                    add(None, f"a seeded game broke a rule: {exc}")
                    break
                stats.append(played.stats())
    # what those games report must have names for the designer's report (game.yaml `figures:`)
    from ..rules.figures import stats_figures, unnamed_figures
    return problems + unnamed_figures(game, stats_figures(stats))


def validate_game(game: Game) -> list[Problem]:
    """Every check whose files are sound. A file that did not load, or broke its schema, holds
    back only the checks that read it: one run reports what every other file has wrong."""
    problems, trusted = [], set()
    for name in game_files():
        if name in game.files:
            found = file_schema_problems(game, name)
            problems += found
            if not found:
                trusted.add(name)
        elif name not in game.unread:
            trusted.add(name)           # an optional file that is not there: nothing to contradict
    from ..i18n.typography import check_rules as typography_rules  # the locales' typography (shared data)
    problems += typography_rules()
    if "cards" in trusted:
        too_large = deck_problems(game)
        if too_large:               # its cards are not there to count
            problems += too_large
            trusted.discard("cards")
    # later checks assume the shapes the schema guarantees
    problems += check_references(game, trusted)
    if "game" in trusted and not game.partly_read:
        problems += check_needs(game, trusted)
    if "game" in trusted:
        problems += check_icons(game, trusted)
    if trusted == set(game_files()) and not game.partly_read and game.meta.get("rules") is not None:
        # the rules read every file, whole
        problems += check_rules(game)
        if not problems:
            problems += check_setups(game) + check_play(game)
    return problems
