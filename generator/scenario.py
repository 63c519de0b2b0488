"""Scenarios: a position, the actions played from it, and the state expected after them.

The format is in docs/scenarios.md. What is generic lives here: reading the file, the steps,
refusing or applying actions, and comparing the expected state with the engine's `to_json()`
(every key the scenario names must match; keys it leaves out are not checked). Building the
position and reading an action are the engine's (`from_setup`, `parse_action`).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from .errors import DataError, Problem, UsageError
from .rules.engine import Engine, IllegalAction, InvariantBroken, ScenarioError, SetupError, State
from .simulate import play_out, policy_rng
from .yamlfile import Located, load_yaml, locate

SCENARIO_KEYS = ("title", "source", "setup", "steps")
STEP_KEYS = ("note", "illegal", "do", "expect")


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
    if engine is None or engine.from_setup is None or engine.parse_action is None:
        raise UsageError(f"{game.slug} has no rules engine that plays scenarios")
    return engine


def run_scenario(game, data: Located, display: str) -> Played:
    """Set up the position and play every step; problems say where in the file each arose."""
    engine = engine_of(game)
    played = Played(None, _plain(data.get("setup", {})))

    def problem(path: tuple, message: str) -> None:
        file, line = locate(data, path)
        played.problems.append(Problem(file or display, line, ".".join(map(str, path)), message))

    for key in data:
        if key not in SCENARIO_KEYS:
            problem((key,), f"unknown key '{key}' (scenario keys: {', '.join(SCENARIO_KEYS)})")
    setup = data.get("setup")
    if not isinstance(setup, Mapping):
        problem(("setup",), "a scenario needs a setup mapping")
        return played
    edition = setup.get("edition", game.editions[0])
    if edition not in game.editions:
        problem(("setup", "edition"), f"no edition '{edition}' (editions: {', '.join(game.editions)})")
        return played
    seed = setup.get("seed", 0)
    if type(seed) is not int:
        problem(("setup", "seed"), f"the seed is a whole number, not {seed!r}")
        return played
    try:
        state = engine.from_setup(setup, edition=edition, seed=seed, **engine.components(game, edition))
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
    for number, step in enumerate(steps):
        here = ("steps", number)
        if not isinstance(step, Mapping):
            problem(here, "a step is a mapping with do, expect and/or illegal")
            return played
        for key in step:
            if key not in STEP_KEYS:
                problem(here + (key,), f"unknown key '{key}' (step keys: {', '.join(STEP_KEYS)})")
        for index, item in enumerate(step.get("illegal", []) or []):
            at = here + ("illegal", index)
            action = _parse(engine, state, item, at, problem)
            if action is not None and action in state.legal_actions():
                problem(at, f"expected to be refused, but {action!r} is legal here")
        for index, item in enumerate(step.get("do", []) or []):
            at = here + ("do", index)
            action = _parse(engine, state, item, at, problem)
            if action is None:
                return played
            try:
                state.apply(action)
                state.check_invariants()
            except IllegalAction as exc:
                problem(at, f"illegal action: {exc}")
                return played
            except InvariantBroken as exc:
                problem(at, f"a rule broke: {exc}")
                return played
            played.actions.append(action)
        if "expect" in step:
            for path, message in differences(step["expect"], state.to_json()):
                problem(here + ("expect",) + path, message)
    return played


def _parse(engine: Engine, state: State, item, at: tuple, problem) -> Any:
    try:
        return engine.parse_action(state, item)
    except ScenarioError as exc:
        problem(at + exc.path, str(exc))
        return None


def differences(expected, actual, path: tuple = ()) -> Iterator[tuple[tuple, str]]:
    """Where `actual` differs from what `expected` names (mappings: only the keys named)."""
    if isinstance(expected, Mapping):
        if not isinstance(actual, Mapping):
            yield path, f"expected a mapping, the state has {actual!r}"
            return
        for key, value in expected.items():
            if key not in actual:
                yield path + (key,), f"the state has no '{key}' (it has: {', '.join(map(str, actual))})"
            else:
                yield from differences(value, actual[key], path + (key,))
    elif isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            yield path, f"expected {_plain(expected)!r}, the state has {actual!r}"
            return
        for index, (want, have) in enumerate(zip(expected, actual)):
            yield from differences(want, have, path + (index,))
    elif expected != actual or isinstance(expected, bool) != isinstance(actual, bool):
        yield path, f"expected {expected!r}, the state has {actual!r}"


def play_on(engine: Engine, played: Played, policy: str, seed: int) -> None:
    """Continue a scenario's game to its end with a policy for every seat (the simulator's
    players for that seed)."""
    play_out(engine, played.state, policy, policy_rng(seed), played=played.actions)


def recording(engine: Engine, game, played: Played, title: str) -> dict:
    """A scenario that replays `played` from its setup and expects the state it reached:
    a golden playthrough."""
    if engine.describe_action is None:
        raise UsageError(f"{game.slug}'s engine cannot write actions back into a scenario")
    setup = played.setup
    edition = setup.get("edition", game.editions[0])
    replay = engine.from_setup(setup, edition=edition, seed=setup.get("seed", 0), **engine.components(game, edition))
    actions = []
    for action in played.actions:
        actions.append(engine.describe_action(replay, action))
        replay.apply(action)
    return {"title": title, "setup": setup, "steps": [{"do": actions, "expect": replay.to_json()}]}


def _plain(node):
    if isinstance(node, Mapping):
        return {key: _plain(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_plain(value) for value in node]
    return node
