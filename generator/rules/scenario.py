"""Scenarios: a position, the actions played from it, and the state expected after them.

The format is in docs/scenarios.md. What is generic lives here: reading the file, the steps
(each step's parts in the order written), refusing or applying actions, who may act, and
comparing the expected state with the engine's `to_json()` (every key the scenario names must
match; keys it leaves out are not checked). Building the position and reading an action are the
engine's (`from_setup`, `parse_action`).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from ..core.errors import DataError, Problem, UsageError
from ..core.yamlfile import Located, load_yaml, locate, plain, shown
from .engine import Engine, IllegalAction, InvariantBroken, ScenarioError, SetupError, State
from .simulate import play_out, policy_rng


SCENARIO_KEYS = ("title", "source", "setup", "unordered", "steps")
STEP_KEYS = ("note", "illegal", "do", "expect")
REASON_KEY = "because"          # in an `illegal:` entry: what the refusal must say
MAX_SEED = 2**32 - 1            # every number read has a bound (docs/data-files.md)


@dataclass
class Played:
    """A scenario run: the state it reached, every action applied, and what did not hold."""

    state: State | None
    setup: dict
    actions: list[Any] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def load_scenario(path: Path, display: str) -> Located:
    data, problems = load_yaml(path, display)
    if problems:
        raise DataError(problems)
    if not isinstance(data, Located):
        raise DataError([Problem(display, 1, "", "a scenario is a mapping with setup and steps")])
    return data


def engine_of(game) -> Engine:
    engine = getattr(game.rules, "ENGINE", None)
    if not isinstance(engine, Engine):
        raise UsageError(f"{game.slug} has no rules engine that plays scenarios")
    return engine


def run_scenario(game, data: Located, display: str) -> Played:
    """Set up the position and play every step, each step's parts in the order written;
    problems say where in the file each arose."""
    engine = engine_of(game)
    played = Played(None, plain(data.get("setup", {})))

    def problem(path: tuple, message: str) -> None:
        file, line = locate(data, path)
        played.problems.append(Problem(file or display, line, ".".join(map(str, path)), message))

    for key in data:
        if key not in SCENARIO_KEYS:
            problem((key,), f"unknown key '{key}' (scenario keys: {', '.join(SCENARIO_KEYS)})")
    unordered = _unordered_paths(data.get("unordered", []), problem)
    setup = data.get("setup")
    if not isinstance(setup, Mapping):
        problem(("setup",), "a scenario needs a setup mapping")
        return played
    edition = setup.get("edition", game.editions[0])
    if not isinstance(edition, str) or edition not in game.editions:
        problem(("setup", "edition"), f"no edition '{edition}' (editions: {', '.join(game.editions)})")
        return played
    seed = setup.get("seed", 0)
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        problem(("setup", "seed"), f"the seed is a whole number from 0 to {MAX_SEED:,}, not {shown(repr(seed))}")
        return played
    try:
        state = engine.from_setup(setup, seed=seed, **engine.components(game, edition))
        state.check_invariants()
    except ScenarioError as exc:
        problem(("setup",) + exc.path, str(exc))
        return played
    except (SetupError, InvariantBroken) as exc:
        problem(("setup",), str(exc))
        return played
    played.state = state

    steps = data.get("steps", [])
    if not isinstance(steps, list):
        problem(("steps",), "steps is a list")
        return played
    matched: set[tuple] = set()
    for number, step in enumerate(steps):
        here = ("steps", number)
        if not isinstance(step, Mapping):
            problem(here, "a step is a mapping with do, expect and/or illegal")
            return played
        for key, part in step.items():
            at = here + (key,)
            if key not in STEP_KEYS:
                problem(at, f"unknown key '{key}' (step keys: {', '.join(STEP_KEYS)})")
            elif key == "expect":
                if not isinstance(part, Mapping):
                    problem(at, "expect is a mapping of what the state must hold")
                    continue
                for path, message in differences(part, state.to_json(), unordered=unordered, matched=matched):
                    problem(at + path, message)
            elif key in ("illegal", "do"):
                if not isinstance(part, list):
                    problem(at, f"{key} is a list of actions")
                    return played
                for index, item in enumerate(part):
                    if key == "illegal":
                        _refused(engine, state, item, at + (index,), problem)
                    elif not _applied(engine, played, item, at + (index,), problem):
                        return played
    for index, pattern in enumerate(unordered):
        if pattern not in matched:
            problem(("unordered", index), f"{'.'.join(pattern)} names no list that a step expects")
    return played


def _read(engine: Engine, state: State, item, at: tuple, problem) -> tuple[int, Any] | None:
    """The seat that acts and its action, or None after saying what does not fit."""
    try:
        return engine.read_action(state, item)
    except ScenarioError as exc:
        problem(at + exc.path, str(exc))
        return None


def _out_of_turn(state: State, seat: int) -> str | None:
    to_act = state.current_player()
    return None if seat == to_act else f"it is {state.names[to_act]}'s turn, not {state.names[seat]}'s"


def _refused(engine: Engine, state: State, item, at: tuple, problem) -> None:
    """An `illegal:` entry: the action must be refused, and for the reason it gives, if any."""
    reason_wanted = None
    if isinstance(item, Mapping) and REASON_KEY in item:
        reason_wanted = item[REASON_KEY]
        if not isinstance(reason_wanted, str) or not reason_wanted:
            problem(at + (REASON_KEY,), "because is the text the reason for the refusal must contain")
            return
        item = {key: value for key, value in item.items() if key != REASON_KEY}
    read = _read(engine, state, item, at, problem)
    if read is None:
        return
    seat, action = read
    reason = _out_of_turn(state, seat)
    if reason is None:
        if action in state.legal_actions():
            problem(at, f"expected to be refused, but {action!r} is legal here")
            return
        reason = state.why_illegal(action)
    if reason_wanted is not None and reason_wanted not in reason:
        problem(at + (REASON_KEY,), f"refused, but because {reason}")


def _applied(engine: Engine, played: Played, item, at: tuple, problem) -> bool:
    """A `do:` entry applied, with the invariants checked after it; False when it could not be."""
    state = played.state
    read = _read(engine, state, item, at, problem)
    if read is None:
        return False
    seat, action = read
    reason = _out_of_turn(state, seat)
    if reason is not None:
        problem(at + ("player",), f"illegal action: {reason}")
        return False
    try:
        state.apply(action)
        state.check_invariants()
    except IllegalAction as exc:
        problem(at, f"illegal action: {exc}")
        return False
    except InvariantBroken as exc:
        problem(at, f"a rule broke: {exc}")
        return False
    played.actions.append(action)
    return True


def _unordered_paths(value, problem) -> list[tuple[str, ...]]:
    """The key paths (`*` for any key or index) whose lists are compared in any order."""
    if not isinstance(value, list):
        problem(("unordered",), "unordered is a list of key paths such as seats.*.hand")
        return []
    paths = []
    for index, text in enumerate(value):
        parts = tuple(text.split(".")) if isinstance(text, str) else ()
        if not parts or not all(parts):
            problem(("unordered", index), f"a key path is keys joined by dots, such as seats.*.hand, not {text!r}")
        else:
            paths.append(parts)
    return paths


def _matching(path: tuple, patterns) -> tuple | None:
    for pattern in patterns:
        if len(pattern) == len(path) and all(want in ("*", str(step)) for want, step in zip(pattern, path)):
            return pattern
    return None


def differences(expected, actual, path: tuple = (), *, unordered=(), matched: set | None = None
                ) -> Iterator[tuple[tuple, str]]:
    """Where `actual` differs from what `expected` names (mappings: only the keys named; lists
    whole, in order unless their path matches one of `unordered`, which is then added to
    `matched`)."""
    if isinstance(expected, Mapping):
        if not isinstance(actual, Mapping):
            yield path, f"expected a mapping, the state has {actual!r}"
            return
        for key, value in expected.items():
            if key not in actual:
                yield path + (key,), f"the state has no '{key}' (it has: {', '.join(map(str, actual))})"
            else:
                yield from differences(value, actual[key], path + (key,), unordered=unordered, matched=matched)
    elif isinstance(expected, list):
        pattern = _matching(path, unordered)
        if pattern is not None and matched is not None:
            matched.add(pattern)
        if not isinstance(actual, list) or len(actual) != len(expected):
            yield path, f"expected {plain(expected)!r}, the state has {actual!r}"
            return
        if pattern is None:
            for index, (want, have) in enumerate(zip(expected, actual)):
                yield from differences(want, have, path + (index,), unordered=unordered, matched=matched)
            return
        left = list(actual)
        for want in expected:
            found = next((index for index, have in enumerate(left)
                          if not any(differences(want, have, unordered=unordered))), None)
            if found is None:
                yield path, f"expected {plain(expected)!r} in any order, the state has {actual!r}"
                return
            del left[found]
    elif expected != actual or isinstance(expected, bool) != isinstance(actual, bool):
        yield path, f"expected {expected!r}, the state has {actual!r}"


def play_on(engine: Engine, played: Played, policy: str, seed: int) -> None:
    """Continue a scenario's game to its end with a policy for every seat (the simulator's
    players for that seed)."""
    play_out(engine, played.state, policy, policy_rng(seed), played=played.actions)


def recording(engine: Engine, game, played: Played, title: str) -> dict:
    """A scenario that replays `played` from its setup and expects the state it reached:
    a golden playthrough."""
    setup = played.setup
    edition = setup.get("edition", game.editions[0])
    replay = engine.from_setup(setup, seed=setup.get("seed", 0), **engine.components(game, edition))
    actions = []
    for action in played.actions:
        actions.append(engine.describe_action(replay, action))
        replay.apply(action)
    return {"title": title, "setup": setup, "steps": [{"do": actions, "expect": replay.to_json()}]}


