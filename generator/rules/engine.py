"""The skeleton every game's rules engine fills in (after OpenSpiel and boardgame.io).

A rules module that can play its game exposes `ENGINE`, an instance of its own `Engine`
subclass. A game in progress is a `State`: whose turn it is, the legal actions, apply one,
terminal or not, the result. The base does what every game does alike: a new game from the
box alone, option checks, seating players and teams, reading a scenario's setup and the
opening of its actions, refusing illegal actions. Every random choice (shuffles, dice, ties)
comes from the state's own seeded `random.Random`, so the same seed replays the same game.
Engines are pure Python and never import rendering code. docs/rules-modules.md says what a
game writes.
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Callable, Hashable, NamedTuple

from .fields import Context, Field, Kind, ScenarioError, check_keys, one_name, read_fields, read_kind, seat_named
from .spec import GameSpec

__all__ = ["Action", "Engine", "IllegalAction", "InvariantBroken", "OptionError", "ScenarioError", "SetupError",
           "State", "Table", "check_keys", "one_name", "random_policy", "seat_named"]

Action = Hashable          # each engine documents its own action form (tuples of plain values)


class IllegalAction(Exception):
    """An action the rules do not allow in this state; the message says why."""


class InvariantBroken(AssertionError):
    """The engine reached a state the rules make impossible (a card lost, a pawn off the board)."""


class SetupError(Exception):
    """The components cannot set up what was asked for: a shortage, a player count the rules
    do not seat, or a component the engine has no rule for. The message names it; `where` is
    (data file without .yaml, key path)."""

    def __init__(self, message: str, where: tuple[str, tuple] | None = None):
        super().__init__(message)
        self.where = where


class OptionError(ValueError):
    """A variant option set to a value the rules do not allow; `key` names the option."""

    def __init__(self, key: str, message: str):
        super().__init__(message)
        self.key = key


class State(ABC):
    """One game in progress. A game writes `current_player`, `find_actions`, `play`,
    `is_terminal`, `returns` and `check_rules`; the state keeps the legal actions until the
    next action, refuses an illegal one saying why, and checks what holds in every game."""

    rng: random.Random
    names: list[str]           # each seat's name: scenarios and `to_json` name players by it
    _legal: list | None = None

    @abstractmethod
    def current_player(self) -> int:
        """Seat index of the player to act (0-based). Undefined once terminal."""

    def legal_actions(self) -> list[Action]:
        """Every action the current player may take, in a stable order (do not change the list)."""
        if self._legal is None:
            self._legal = self.find_actions()
        return self._legal

    @abstractmethod
    def find_actions(self) -> list[Action]:
        """Every action the current player may take now (none once terminal)."""

    def apply(self, action: Action) -> None:
        """Apply one action; raise IllegalAction, saying why, if it is not legal."""
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if action not in legal:
            raise IllegalAction(self.why_illegal(action))
        self._legal = None
        self.play(action)

    @abstractmethod
    def play(self, action: Action) -> None:
        """Carry out one legal action."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def returns(self) -> list[float]:
        """Per seat: 1 for a win, 0 for a loss (shared wins share 1); cooperative games give all the same."""

    def why_illegal(self, action: Action) -> str:
        """Why the rules refuse `action` here, for a player reading a scenario's result."""
        return f"{action!r} is not possible here"

    def check_invariants(self) -> None:
        """Raise InvariantBroken if the state breaks a rule. Called after every action in simulation."""
        self.check_rules()
        if not self.is_terminal() and not self.legal_actions():
            raise InvariantBroken(f"{self.names[self.current_player()]} can do nothing but play goes on")

    def check_rules(self) -> None:
        """The game's own invariants: raise InvariantBroken naming what broke."""

    def stats(self) -> dict[str, Any]:
        """Figures for the simulation report once a game has ended (turns, how it ended, ...)."""
        return {}

    def to_json(self) -> dict:
        """The state as plain data (for `pnp play` and golden files)."""
        return {}


Policy = Callable[[State, random.Random], Action]


def random_policy(state: State, rng: random.Random) -> Action:
    return rng.choice(state.legal_actions())


class Table(NamedTuple):
    """Who sits where: each seat's name and how many players share it (a team shares a seat)."""

    names: tuple[str, ...]
    members: tuple[int, ...]

    @classmethod
    def numbered(cls, members: list[int]) -> Table:
        """Seats named by number, as in a game dealt for the simulator."""
        return cls(_numbered(len(members)), tuple(members))

    @property
    def players(self) -> int:
        return sum(self.members)

    @property
    def seats(self) -> int:
        return len(self.names)


@lru_cache(maxsize=None)
def _numbered(seats: int) -> tuple[str, ...]:
    return tuple(f"seat {seat + 1}" for seat in range(seats))


SETUP_KEYS = ("edition", "seed", "players", "options")     # every scenario setup may give these


class Engine(ABC):
    """What a game's rules engine declares and writes, and what every game does alike.

    A game subclasses it, sets the declarations below and writes the hooks: `box` (what one
    edition's components give the engine), `deal` (a fresh game), `position` (the rest of a
    scenario's setup), `parse_action` and `describe_action` (an action as a scenario writes
    it), and `check_option` when an option has values its type allows but the rules do not.
    """

    spec: GameSpec                                   # the rules module's SPEC: players, teams, editions
    policies: dict[str, Policy] = {"random": random_policy}
    options: dict[str, Any] = {}                     # variant options and their defaults (and types)
    max_actions: int = 10_000                        # a game longer than this is a bug, not a long game
    # games the designer's report plays per table: (the first policy's, each other's); () the
    # report's own numbers. A game whose games are long plays fewer, so a build stays quick.
    report_games: tuple[int, int] = ()
    # Turn order: one player acts at a time, the one `State.current_player()` names; nobody
    # else may (the scenario runner refuses it: "it is X's turn, not Y's").
    # The result: "winner" (the winners share 1) or "together" (every seat wins or loses alike).
    outcome: str = "winner"
    # Hidden information: key paths into `State.to_json()` (`*` for any key) and who sees them:
    # "owner", the player named by the path's `seats.<name>`, or "nobody" (the order of a deck).
    hidden: dict[str, str] = {}
    # A scenario setup's own keys besides SETUP_KEYS, and a listed player's besides name (and
    # members), with what each holds (generator/rules/fields.py): read before `position`.
    setup_fields: dict[str, Field] = {}
    seat_fields: dict[str, Field] = {}
    # The kinds of action (play:, end: ...), each with the other keys it takes; besides player.
    action_kinds: dict[str, Kind] = {}
    action_example: str = ""                         # an action as a scenario writes one
    # What the engine claims of its players and its box (generator/rules/claims.py): checked
    # for every game by tests/test_engine_claims.py.
    claims: tuple = ()

    @property
    def slug(self) -> str:
        return self.spec.slug

    # -- what a game writes

    @abstractmethod
    def box(self, game, edition: str) -> Any:
        """What one edition's loaded components give the engine (read once per run); raise
        SetupError naming a component the rules cannot use."""

    @abstractmethod
    def deal(self, box, table: Table, rng: random.Random, options: dict) -> State:
        """A game shuffled and dealt as the rules say, seated as `table`, ready for its first
        action; raise SetupError when the box cannot seat the table."""

    @abstractmethod
    def position(self, setup: Mapping, box, table: Table, listed: list[tuple[tuple, dict]],
                 rng: random.Random, options: dict) -> State:
        """The position a scenario's setup describes, seated as `table`: `setup` and each
        seat's entry (in `listed`, with its key path) hold every declared field as read, its
        default when left out. Raise ScenarioError for data that does not fit."""

    @abstractmethod
    def parse_action(self, state: State, kind: str, data: Mapping, seat: int) -> Action:
        """The action of `seat` as a scenario writes it: of `kind`, with the keys that kind
        takes and its own key's value read (who acts and a game going on are already checked);
        raise ScenarioError for data that does not fit."""

    @abstractmethod
    def describe_action(self, state: State, action: Action) -> dict:
        """An action as a scenario writes it: the inverse of parse_action."""

    def check_option(self, key: str, value, box) -> str | None:
        """Why the rules refuse this value of an option (of the right type), or None."""
        return None

    def partners(self, state: State, seat: int) -> tuple[int, ...]:
        """The seats that win or lose with `seat` (itself included): in a game where seats
        play in teams, its team."""
        return (seat,)

    # -- what every game does alike

    def components(self, game, edition: str) -> dict[str, Any]:
        """The keywords new_game and from_setup take the components by, for one edition."""
        return {"box": self.box(game, edition)}

    def check_options(self, options: Mapping, box) -> dict:
        """The options with their defaults filled in: every one known, of its default's type
        and allowed by the rules, whatever the number of players; else OptionError."""
        for key, value in options.items():
            if key not in self.options:
                raise OptionError(str(key), f"unknown option '{key}' (options: {', '.join(self.options) or 'none'})")
            default = self.options[key]
            if type(value) is not type(default):
                kind = {bool: "true or false", int: "a whole number"}.get(type(default), type(default).__name__)
                raise OptionError(key, f"option {key} is {kind}, not {value!r}")
            teams = self.spec.teams
            if teams is not None and key == teams.option and value not in teams.sizes:
                raise OptionError(key, f"teams are of {' or '.join(map(str, teams.sizes))} players, not {value}")
            refused = self.check_option(key, value, box)
            if refused:
                raise OptionError(key, refused)
        return {**self.options, **options}

    def seating(self, players: int, options: Mapping) -> list[int]:
        """Players at each seat: one each, or in teams as `spec.teams` says; SetupError for a
        number of players the rules do not seat."""
        spec = self.spec
        if not spec.seats_players(players):
            raise SetupError(f"{spec.slug} is for {spec.players_text()} players, not {players}")
        if spec.teams is None:
            return [1] * players
        return spec.teams.split(players, options.get(spec.teams.option, spec.teams.sizes[0]))

    def new_game(self, players: int, *, box, seed: int = 0, **options) -> State:
        """A game of `players` from the box, dealt from `seed`; SetupError when the box cannot
        seat them, OptionError for an option the rules do not allow."""
        options = self.check_options(options, box)
        return self.deal(box, Table.numbered(self.seating(players, options)), random.Random(seed), options)

    def from_setup(self, setup: Mapping, *, box, seed: int = 0) -> State:
        """The position a scenario's setup describes (docs/scenarios.md): `players` as a number
        is what the simulator deals from that seed; as a list, the seats, which this game's
        `position` fills in with the rest of the setup."""
        check_keys(setup, SETUP_KEYS + tuple(self.setup_fields))
        options = setup.get("options") or {}
        if not isinstance(options, Mapping):
            raise ScenarioError(f"options is a mapping (options: {', '.join(self.options) or 'none'})", ("options",))
        try:
            options = self.check_options(options, box)
        except OptionError as exc:
            raise ScenarioError(str(exc), ("options", exc.key)) from None
        players = setup.get("players")
        if isinstance(players, int) and not isinstance(players, bool):
            extra = [key for key in setup if key not in SETUP_KEYS]
            if extra:
                raise ScenarioError("a game dealt from the seed (players as a number) takes no "
                                    f"{', '.join(extra)}; list the players to set up a position", (extra[0],))
            self._seated(players, options)
            return self.new_game(players, box=box, seed=seed, **options)
        if not isinstance(players, list) or not players:
            raise ScenarioError("players is a number (a game dealt from the seed) or a list of players", ("players",))
        listed = self._listed(players)
        members = [entry.get("members", 1) for _, entry in listed]
        for (path, _), count in zip(listed, members):
            if type(count) is not int or count < 1:
                raise ScenarioError("members is the number of players sharing this seat", path + ("members",))
        expected = self._seated(sum(members), options)
        if sorted(members) != sorted(expected):
            raise ScenarioError(f"{sum(members)} players sit as {len(expected)} seats of "
                                f"{sorted(expected, reverse=True)} players, not {members}", ("players",))
        table = Table(tuple(entry["name"] for _, entry in listed), tuple(members))
        context = Context(box, options, table.names)
        listed = [(path, read_fields(entry, self.seat_fields, path, context)) for path, entry in listed]
        setup = read_fields(setup, self.setup_fields, (), context)
        return self.position(setup, box, table, listed, random.Random(seed), options)

    def _seated(self, players: int, options: Mapping) -> list[int]:
        try:
            return self.seating(players, options)
        except SetupError as exc:
            raise ScenarioError(str(exc), ("players",)) from None

    def _listed(self, players: list) -> list[tuple[tuple, dict]]:
        """(path, entry) of every listed seat: a name, or a mapping with a name and this game's
        own keys (and `members` in a game with teams). Names are strings and unique."""
        if len(players) > self.spec.max_players:
            raise ScenarioError(f"{self.slug} seats at most {self.spec.max_players} players", ("players",))
        keys = ("name",) + (("members",) if self.spec.teams else ()) + tuple(self.seat_fields)
        listed, names = [], set()
        for index, entry in enumerate(players):
            path = ("players", index)
            if isinstance(entry, str):
                entry = {"name": entry}
            if not isinstance(entry, Mapping) or "name" not in entry:
                raise ScenarioError("a player is a name or a mapping with at least a name", path)
            check_keys(entry, keys, path, "player")
            name = str(entry["name"])
            if name in names:
                raise ScenarioError(f"two players are called '{name}'", path + ("name",))
            names.add(name)
            listed.append((path, {**entry, "name": name}))
        return listed

    def read_action(self, state: State, data) -> tuple[int, Action]:
        """A scenario's action: the seat of the player who acts and the action itself.

        `player:` names who acts, any player at the table; without it, the player whose turn it
        is acts. Whether that player may act now is the scenario runner's to judge, so that a
        scenario can write an action out of turn among its `illegal:` ones."""
        if not isinstance(data, Mapping):
            raise ScenarioError(f"an action is a mapping such as {self.action_example}")
        keys = dict.fromkeys(key for kind, spec in self.action_kinds.items() for key in (kind, *spec.takes))
        check_keys(data, ("player", *keys), what="action")
        if state.is_terminal():
            raise ScenarioError("this game is already over")
        seat = seat_named(state.names, str(data["player"]), ("player",)) if "player" in data else state.current_player()
        kind, data = read_kind(data, self.action_kinds, self.action_example, Context(None, {}, tuple(state.names)))
        return seat, self.parse_action(state, kind, data, seat)

    def view(self, state: State, seat: int) -> dict:
        """The state as the player at `seat` sees it: `to_json()` with what `hidden` keeps
        from them replaced by {"hidden": how many} for a list, "hidden" for anything else."""
        data = state.to_json()
        for path, seen_by in self.hidden.items():
            _hide(data, tuple(path.split(".")), (), seen_by, state.names[seat])
        return data


def _hide(node, pattern: tuple, path: tuple, seen_by: str, viewer: str) -> None:
    if not pattern or not isinstance(node, dict):
        return
    head, rest = pattern[0], pattern[1:]
    for key in (list(node) if head == "*" else [head] if head in node else []):
        here = path + (key,)
        if rest:
            _hide(node[key], rest, here, seen_by, viewer)
        elif seen_by == "nobody" or here[:2] != ("seats", viewer):
            value = node[key]
            node[key] = {"hidden": len(value)} if isinstance(value, list) else "hidden"
