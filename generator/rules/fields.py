"""How a scenario's values are read: the keys a game declares for its setup, each listed
player and each action, with what each holds, so that every game refuses a value that does
not fit alike, at its key path.

A game declares `setup_fields` and `seat_fields` (key: Field) on its Engine; the base reads
them before the game's `position` hook sees the setup, filling in each absent key's default.
A `Given` field is only named here: the game's hook reads it (card lists, through a CardPool).
An action is one of the kinds a game declares in `action_kinds` (key: Kind), read alike before
the game's `parse_action` sees it.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


class ScenarioError(Exception):
    """A scenario's setup or action that does not fit its game; `path` is the key path
    below the part being read (the setup, or one action)."""

    def __init__(self, message: str, path: tuple = ()):
        super().__init__(message)
        self.path = tuple(path)


def check_keys(mapping: Mapping, allowed, path: tuple = (), what: str = "setup") -> None:
    """A scenario mapping names only keys its game knows."""
    for key in mapping:
        if key not in allowed:
            raise ScenarioError(f"unknown key '{key}' ({what} keys: {', '.join(sorted(allowed))})", path + (key,))


def one_name(value, path: tuple, what: str, example: str) -> str:
    """A scenario value that names one thing (a card, a die, a cell) as text: a list, a mapping
    or a number where one name is expected is refused at its path, never looked up."""
    if isinstance(value, str):
        return value
    if isinstance(value, (Mapping, list)):
        got = "a mapping" if isinstance(value, Mapping) else "a list"
    else:
        got = "an empty value" if value is None else repr(value)[:40]
    raise ScenarioError(f"{what} is one name, such as {example}, not {got}", path)


def seat_named(names, name, path: tuple) -> int:
    """The seat of the player a scenario names (setup `current`, `first_player`, an action's `player`)."""
    if name not in names:
        raise ScenarioError(f"no player '{name}' (players: {', '.join(names)})", path)
    return list(names).index(name)


@dataclass(frozen=True)
class Context:
    """What a field's bounds may depend on: the box, the options and the seats' names."""

    box: Any
    options: Mapping
    names: tuple[str, ...]


Bound = int | Callable[[Context], int]


class Field:
    """One key of a scenario mapping; `read` gives its value or raises ScenarioError at `path`."""

    default: Any = None

    def read(self, value, path: tuple, context: Context):
        return value


@dataclass(frozen=True)
class Given(Field):
    """A value the game's hook reads itself (a list of cards, a mapping of piles); left out,
    the key stays out."""


@dataclass(frozen=True)
class Whole(Field):
    """A whole number from `low` to `high` (either may depend on the box and options);
    `refusal` is the message, with {low} and {high} filled in."""

    low: Bound
    high: Bound
    refusal: str
    default: Any = None

    def read(self, value, path: tuple, context: Context):
        low, high = (bound(context) if callable(bound) else bound for bound in (self.low, self.high))
        if type(value) is not int or not low <= value <= high:
            raise ScenarioError(self.refusal.format(low=low, high=high), path)
        return value


@dataclass(frozen=True)
class Flag(Field):
    """true or false; with `only`, that value alone (`{end: true}`)."""

    refusal: str
    default: bool = False
    only: bool | None = None

    def read(self, value, path: tuple, context: Context):
        if type(value) is not bool or self.only is not None and value is not self.only:
            raise ScenarioError(self.refusal, path)
        return value


@dataclass(frozen=True)
class OneOf(Field):
    """One of a few words; `refusal` says what each means."""

    choices: tuple[str, ...]
    refusal: str
    default: Any = None

    def read(self, value, path: tuple, context: Context):
        if value not in self.choices:
            raise ScenarioError(self.refusal, path)
        return value


@dataclass(frozen=True)
class Player(Field):
    """A player named by the scenario, read as their seat; absent: the first player, or None
    when `first` is False."""

    first: bool = True

    def read(self, value, path: tuple, context: Context):
        return seat_named(context.names, value, path)


@dataclass(frozen=True)
class Kind:
    """One kind of action, named by its key (`play:`): the other keys it may take, and how
    the value of its own key is read."""

    takes: tuple[str, ...] = ()
    value: Field = Given()


def read_kind(data: Mapping, kinds: Mapping[str, Kind], example: str, context: Context) -> tuple[str, dict]:
    """The kind of a scenario's action, and the action with its key's value read: exactly one
    kind's key, and no key another kind takes."""
    given = [key for key in kinds if key in data]
    if len(given) != 1:
        names = list(kinds)
        listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
        raise ScenarioError(f"an action does one thing: {listed} (such as {example})")
    kind = given[0]
    extra = sorted(str(key) for key in data if key not in ("player", kind) + kinds[kind].takes)
    if extra:
        raise ScenarioError(f"{kind} takes no {', '.join(extra)}", (extra[0],))
    return kind, {**data, kind: kinds[kind].value.read(data[kind], (kind,), context)}


def read_fields(mapping: Mapping, fields: Mapping[str, Field], path: tuple, context: Context) -> dict:
    """Every declared key's value as read (the mapping's own keys are already checked), the
    default for a key left out (a Given one stays out); keys the fields do not declare are kept
    as written."""
    read = dict(mapping)
    for key, field in fields.items():
        if key in mapping:
            read[key] = field.read(mapping[key], path + (key,), context)
        elif isinstance(field, Given):
            continue                # the hook tells a key left out from one written empty
        elif isinstance(field, Player):
            read[key] = 0 if field.first else None
        else:
            read[key] = field.default
    return read
