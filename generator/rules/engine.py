"""The shape every game's rules engine takes (after OpenSpiel and boardgame.io).

A rules module that can play its game exposes `ENGINE`, an `Engine`. A game is a `State`:
whose turn it is, the legal actions, apply one, terminal or not, the result. Every random
choice (shuffles, dice, ties) comes from the state's own seeded `random.Random`, so the same
seed replays the same game. Engines are pure Python and never import rendering code.
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable

Action = Hashable          # each engine documents its own action form (tuples of plain values)


class IllegalAction(Exception):
    """An action the rules do not allow in this state; the message says why."""


class InvariantBroken(AssertionError):
    """The engine reached a state the rules make impossible (a card lost, a pawn off the board)."""


class State(ABC):
    """One game in progress."""

    rng: random.Random

    @abstractmethod
    def current_player(self) -> int:
        """Seat index of the player to act (0-based). Undefined once terminal."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every action the current player may take, in a stable order."""

    @abstractmethod
    def apply(self, action: Action) -> None:
        """Apply one action; raise IllegalAction if it is not legal."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def returns(self) -> list[float]:
        """Per seat: 1 for a win, 0 for a loss (shared wins share 1); cooperative games give all the same."""

    def check_invariants(self) -> None:
        """Raise InvariantBroken if the state breaks a rule. Called after every action in simulation."""

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
    new_game: Callable[..., State]       # new_game(players=, edition=, seed=, **options) -> State
    policies: dict[str, Policy] = field(default_factory=lambda: {"random": random_policy})
    options: dict[str, Any] = field(default_factory=dict)   # variant options and their defaults
    max_actions: int = 10_000           # a game longer than this is a bug, not a long game
