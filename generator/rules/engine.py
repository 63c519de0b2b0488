"""The shape every game's rules engine takes (after OpenSpiel and boardgame.io).

A rules module that can play its game exposes `ENGINE`, an `Engine`. A game is a `State`:
whose turn it is, the legal actions, apply one, terminal or not, the result. Every random
choice (shuffles, dice, ties) comes from the state's own seeded `random.Random`, so the same
seed replays the same game. Engines are pure Python and never import rendering code.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable

Action = Hashable          # each engine documents its own action form (tuples of plain values)


class IllegalAction(Exception):
    """An action the rules do not allow in this state; the message says why."""


class InvariantBroken(AssertionError):
    """The engine reached a state the rules make impossible (a card lost, a pawn off the board)."""


class SetupError(Exception):
    """The components cannot set up the game asked for: a shortage, or a component the engine
    has no rule for. The message names it; `where` is (data file without .yaml, key path)."""

    def __init__(self, message: str, where: tuple[str, tuple] | None = None):
        super().__init__(message)
        self.where = where


class OptionError(ValueError):
    """A variant option set to a value the rules do not allow; `key` names the option."""

    def __init__(self, key: str, message: str):
        super().__init__(message)
        self.key = key


class ScenarioError(Exception):
    """A scenario's setup or action that does not fit the game; `path` is the key path
    below the part being read (the setup, or one action)."""

    def __init__(self, message: str, path: tuple = ()):
        super().__init__(message)
        self.path = tuple(path)


def check_keys(mapping: Mapping, allowed, path: tuple = (), what: str = "setup") -> None:
    """A scenario mapping names only keys the game knows."""
    for key in mapping:
        if key not in allowed:
            raise ScenarioError(f"unknown key '{key}' ({what} keys: {', '.join(sorted(allowed))})", path + (key,))


def seat_named(names: list[str], name, path: tuple) -> int:
    """The seat of the player a scenario names (setup `current`, `first_player`, an action's `player`)."""
    if name not in names:
        raise ScenarioError(f"no player '{name}' (players: {', '.join(names)})", path)
    return names.index(name)


def acting_seat(state: State, data, keys, example: str) -> int:
    """The opening every scenario action shares: a mapping of the game's action keys, a game not
    yet over, and the seat of the player who acts, which it returns.

    `player:` names who acts, any player of the game; without it, the player whose turn it is
    acts. Whether that player may act now is the scenario runner's to judge, so that a scenario
    can write an action out of turn among its `illegal:` ones."""
    if not isinstance(data, Mapping):
        raise ScenarioError(f"an action is a mapping such as {example}")
    check_keys(data, keys, what="action")
    if state.is_terminal():
        raise ScenarioError("this game is already over")
    if "player" in data:
        return seat_named(state.names, str(data["player"]), ("player",))
    return state.current_player()


def dealt_players(setup: Mapping, dealt_keys=("edition", "seed", "players", "options")) -> int | None:
    """`players: N` asks for a game dealt from the seed (N is returned); a list of players
    describes a position (None is returned, read it with `listed_players`)."""
    players = setup.get("players")
    if isinstance(players, int) and not isinstance(players, bool):
        extra = sorted(set(setup) - set(dealt_keys))
        if extra:
            raise ScenarioError("a game dealt from the seed (players as a number) takes no "
                                f"{', '.join(extra)}; list the players to set up a position", (extra[0],))
        return players
    if not isinstance(players, list) or not players:
        raise ScenarioError("players is a number (a game dealt from the seed) or a list of players", ("players",))
    return None


def listed_players(players: list, keys) -> list[tuple[tuple, dict]]:
    """(path, entry) of every listed player: a name, or a mapping with a name and the game's
    own keys. Names are strings and unique."""
    seats = []
    for index, entry in enumerate(players):
        path = ("players", index)
        if isinstance(entry, str):
            entry = {"name": entry}
        if not isinstance(entry, Mapping) or "name" not in entry:
            raise ScenarioError("a player is a name or a mapping with at least a name", path)
        check_keys(entry, keys, path, "player")
        seats.append((path, {**entry, "name": str(entry["name"])}))
    names = [entry["name"] for _, entry in seats]
    for path, entry in seats:
        if names.count(entry["name"]) > 1:
            raise ScenarioError(f"two players are called '{entry['name']}'", path + ("name",))
    return seats


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
        if action not in self.legal_actions():
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
            raise InvariantBroken(f"{self.names[self.current_player()]} can do nothing but the game goes on")

    def check_rules(self) -> None:
        """The game's own invariants: raise InvariantBroken naming what broke."""

    def stats(self) -> dict[str, Any]:
        """Figures for the simulation report once the game has ended (turns, how it ended, ...)."""
        return {}

    def to_json(self) -> dict:
        """The state as plain data (for `pnp play` and golden files)."""
        return {}


Policy = Callable[[State, random.Random], Action]


def random_policy(state: State, rng: random.Random) -> Action:
    return rng.choice(state.legal_actions())


@dataclass
class Engine:
    """What the simulator and `pnp play` need to know about a game's engine."""

    slug: str
    # new_game(players=, edition=, seed=, game= or box=, **options) -> State; raises SetupError
    # when the components cannot seat that many players.
    new_game: Callable[..., State]
    policies: dict[str, Policy] = field(default_factory=lambda: {"random": random_policy})
    options: dict[str, Any] = field(default_factory=dict)   # variant options and their defaults
    # check_options(options, box= or game=) raises OptionError for an option value the rules
    # do not allow, whatever the number of players.
    check_options: Callable[..., None] | None = None
    max_actions: int = 10_000           # a game longer than this is a bug, not a long game
    # box(game, edition): what one edition's loaded components give the engine. When set, a
    # run computes it once and passes it to new_game as box=; otherwise new_game gets game=.
    box: Callable[[Any, str], Any] | None = None
    # Scenarios (generator/scenario.py). from_setup(setup, edition=, seed=, box= or game=)
    # builds the position a scenario's `setup` mapping describes; parse_action(state, data,
    # seat) reads the action of `seat`, once the opening every action shares is read
    # (`acting_seat`: known `action_keys`, a game going on, who acts); describe_action(state,
    # action) writes one back. All raise ScenarioError for data that does not fit.
    from_setup: Callable[..., State] | None = None
    parse_action: Callable[[State, Any, int], Action] | None = None
    describe_action: Callable[[State, Action], Any] | None = None
    action_keys: tuple[str, ...] = ()
    action_example: str = ""

    def components(self, game, edition: str) -> dict[str, Any]:
        """The keyword new_game and from_setup take the components by, for one edition."""
        return {"box": self.box(game, edition)} if self.box else {"game": game}
