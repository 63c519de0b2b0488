"""Seeded simulation for any game whose rules module has an ENGINE.

A run plays K games of one edition and player count with one policy for every seat, checks
the engine's invariants after every action, and sums up what happened. What it sums is
generic: win rate per seat from `returns()`, and each game's `stats()` by the kind of value
(a number: mean, median, min, max; a text: share of games per value; a mapping of numbers:
totals and per-game means). Game i of seed S is the same game in every run.
"""
from __future__ import annotations

import math
import os
import random
import statistics
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .engine import Action, Engine, InvariantBroken, SetupError, State


SEED_STRIDE = 1_000_000          # games per seed before two seeds' games could coincide
Z95 = 1.959963984540054          # the standard normal quantile of 97.5 %: a two-sided 95 % interval


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a rate of `successes` in `trials`:
    (low, high), within 0 .. 1 even at 0 or `trials` successes. A shared win counts its share
    (a tie of two is half a success each). No trials say nothing: (0, 1)."""
    if trials <= 0:
        return 0.0, 1.0
    p, q = successes / trials, z * z / trials
    centre, half = (p + q / 2) / (1 + q), z * math.sqrt(p * (1 - p) / trials + q / (4 * trials)) / (1 + q)
    # No successes, or only successes: the end is exactly 0 (or 1), never a rounding error beside it.
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return low, high


def score_p_value(successes: float, trials: int, rate: float) -> float:
    """The two-sided p-value of the score test that `successes` in `trials` arose at `rate`: the
    test the Wilson interval turns round (`rate` lies outside the 95 % interval exactly when
    this is below 5 %). 1, saying nothing, without trials or at a rate of 0 or 1."""
    if trials <= 0 or not 0 < rate < 1:
        return 1.0
    z = (successes / trials - rate) / math.sqrt(rate * (1 - rate) / trials)
    return math.erfc(abs(z) / math.sqrt(2))


def games_for_half_width(width: float, z: float = Z95) -> int:
    """The fewest games whose Wilson interval is at most ±`width` whatever the rate: the
    widest is at a rate of 1/2, z / (2 √(n + z²))."""
    return max(1, math.ceil((z / (2 * width)) ** 2 - z * z))


def game_seed(seed: int, index: int) -> int:
    """The state's seed for game `index` of a run seeded `seed`."""
    return seed * SEED_STRIDE + index


def policy_rng(state_seed: int) -> random.Random:
    """The players' own random choices, independent of the state's shuffles."""
    return random.Random(f"policy:{state_seed}")


def play_out(engine: Engine, state: State, policy: str, rng: random.Random, *, check: bool = True,
             played: list[Action] | None = None) -> State:
    """Play `state` on to its end with `policy` for every seat, appending each action to
    `played` when given. With `check`, invariants are tested after every action. A game still
    going after the engine's max_actions is a broken rule (InvariantBroken)."""
    _play_on(engine, state, policy, rng, check, played)
    return state


def _play_on(engine: Engine, state: State, policy: str, rng: random.Random, check: bool,
             played: list[Action] | None) -> int:
    """play_out's loop: how many actions it took to end the game."""
    choose, limit = engine.policies[policy], engine.max_actions
    is_terminal, apply, check_invariants = state.is_terminal, state.apply, state.check_invariants
    actions = 0
    while not is_terminal():
        if actions == limit:
            raise InvariantBroken(f"no end after {limit} actions")
        action = choose(state, rng)
        apply(action)
        actions += 1
        if check:
            check_invariants()
        if played is not None:
            played.append(action)
    return actions


def play_game(engine: Engine, components: Mapping[str, Any], *, players: int, edition: str, seed: int,
              policy: str = "random", options: Mapping[str, Any] | None = None, check: bool = True) -> State:
    """Play one game to its end. With `check`, invariants are tested after every action and a
    broken one raises InvariantBroken saying which game, action and rule."""
    return _played_game(engine, components, players, edition, seed, policy, options, check)[0]


def _played_game(engine: Engine, components: Mapping[str, Any], players: int, edition: str, seed: int,
                 policy: str, options: Mapping[str, Any] | None, check: bool) -> tuple[State, int]:
    """One game played to its end, and how many actions it took."""
    state = engine.new_game(players, seed=seed, **components, **(options or {}))
    try:
        if check:
            state.check_invariants()
        return state, _play_on(engine, state, policy, policy_rng(seed), check, None)
    except InvariantBroken as exc:
        raise InvariantBroken(f"{engine.slug} {edition} {players} players, seed {seed}: {exc}") from None


def duel(engine: Engine, components: Mapping[str, Any], *, players: int, hero: str, others: str, games: int,
         seed: int = 1) -> float:
    """The share of games that one seat playing `hero` (and its partners, in a game where
    seats play in teams) wins against seats playing `others`; the hero's seat goes round the
    table from game to game. Invariants are not checked."""
    wins = 0.0
    heroic, rest = engine.policies[hero], engine.policies[others]
    for index in range(games):
        state_seed = game_seed(seed, index)
        state = engine.new_game(players, seed=state_seed, **components)
        rng, seat = policy_rng(state_seed), index % len(state.names)
        team = engine.partners(state, seat)
        actions = 0
        while not state.is_terminal():
            if actions == engine.max_actions:
                raise InvariantBroken(f"{engine.slug} seed {state_seed}: no end after {engine.max_actions} actions")
            state.apply((heroic if state.current_player() in team else rest)(state, rng))
            actions += 1
        returns = state.returns()
        wins += sum(returns[partner] for partner in team)
    return wins / games


@dataclass
class Tally:
    """The games of one run, kept whole so a report can plot distributions."""

    seats: int = 0
    games: int = 0
    wins: list[float] = field(default_factory=list)
    numbers: dict[str, list[float]] = field(default_factory=dict)
    texts: dict[str, list[str]] = field(default_factory=dict)
    counts: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    # How many actions each game took (every player's move, draw or pass the engine applied).
    actions: list[int] = field(default_factory=list)

    def add(self, returns: list[float], stats: Mapping[str, Any], actions: int | None = None) -> None:
        if actions is not None:
            self.actions.append(actions)
        if not self.wins:
            self.seats = len(returns)
            self.wins = [0.0] * self.seats
        for seat, value in enumerate(returns):
            self.wins[seat] += value
        for key, value in stats.items():
            if isinstance(value, str):
                self.texts.setdefault(key, []).append(value)
            elif isinstance(value, Mapping):
                table = self.counts.setdefault(key, {})
                for name, number in value.items():
                    # A name first seen in a later game counts 0 in every game before it.
                    table.setdefault(name, [0.0] * self.games).append(float(number))
                for name, numbers in table.items():
                    if len(numbers) == self.games:
                        numbers.append(0.0)
            else:
                self.numbers.setdefault(key, []).append(float(value))
        self.games += 1

    def win_intervals(self) -> list[tuple[float, float]]:
        """Each seat's 95 % Wilson interval of its win rate."""
        return [wilson_interval(wins, self.games) for wins in self.wins]

    def widest_win_interval(self) -> float:
        """The half-width of the widest of the seats' win-rate intervals (1/2 before any game)."""
        return max([(high - low) / 2 for low, high in self.win_intervals()] or [0.5]) if self.games else 0.5

    def fair_rate(self) -> float:
        """What each seat would win if seats did not matter: the seats' mean win rate. It is
        1/seats where every game has one win to share out (ties split it); less where games
        may end without a winner; every seat's own rate where all seats win or lose together."""
        return sum(self.wins) / (self.games * self.seats) if self.games and self.seats else 0.0

    def summary(self) -> dict[str, Any]:
        games = self.games or 1
        return {
            "games": self.games,
            "win_rate": [_round(w / games) for w in self.wins],
            **({"actions_per_game": _round(statistics.fmean(self.actions))} if self.actions else {}),
            "numbers": {key: _describe(values) for key, values in self.numbers.items()},
            "shares": {key: {value: _round(values.count(value) / games) for value in sorted(set(values))}
                       for key, values in self.texts.items()},
            "counts": {key: {name: {"total": _round(sum(values)), "per_game": _round(sum(values) / games)}
                             for name, values in table.items()}
                       for key, table in self.counts.items()},
        }


def _round(value: float) -> float | int:
    value = round(value, 4)
    return int(value) if value == int(value) else value


def _describe(values: list[float]) -> dict[str, float]:
    return {"mean": _round(statistics.fmean(values)), "median": _round(statistics.median(values)),
            "min": _round(min(values)), "max": _round(max(values))}


@dataclass
class Run:
    """One simulation run: its settings and its tally."""

    game: str
    edition: str
    players: int
    policy: str
    seed: int
    options: dict[str, Any]
    tally: Tally

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "edition": self.edition, "players": self.players, "seats": self.tally.seats,
                "policy": self.policy, "seed": self.seed, "options": self.options, **self.tally.summary()}


def play_games(engine: Engine, components: Mapping[str, Any], *, players: int, edition: str, seed: int,
               start: int, stop: int, policy: str = "random", options: Mapping[str, Any] | None = None,
               check: bool = True) -> list[tuple[list[float], dict[str, Any], int]]:
    """Games `start` .. `stop - 1` of a run seeded `seed`: each one's returns, stats and number
    of actions."""
    played = []
    for index in range(start, stop):
        state, actions = _played_game(engine, components, players, edition, game_seed(seed, index), policy,
                                      options, check)
        played.append((state.returns(), state.stats(), actions))
    return played


@dataclass(frozen=True)
class GameSource:
    """How a worker process reads a game it was not handed: `read(*where)` returns the game.
    `read` is a module's top-level function, pickled by its name, so that a spawned worker
    can call it; the caller that loads projects provides it, the simulator only calls it."""

    read: Callable[..., Any]
    where: tuple = ()

    def load(self):
        return self.read(*self.where)


# (source, edition) -> (engine, components): filled in by the parent before its workers start,
# so that forked workers begin with the game read; a spawned worker reads it once itself.
_LOADED: dict[tuple[GameSource, str], tuple[Engine, Mapping[str, Any]]] = {}


def _play_chunk(source: GameSource, edition: str, players: int, seed: int, start: int, stop: int, policy: str,
                options: dict, check: bool):
    try:
        loaded = _LOADED.get((source, edition))
        if loaded is None:
            game = source.load()
            engine = game.rules.ENGINE
            loaded = _LOADED[(source, edition)] = (engine, engine.components(game, edition))
        engine, components = loaded
        return play_games(engine, components, players=players, edition=edition, seed=seed, start=start,
                          stop=stop, policy=policy, options=options, check=check)
    except (InvariantBroken, SetupError) as exc:      # raised again in the parent, as they were
        return (type(exc).__name__, str(exc))


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:                              # not on Linux
        return os.cpu_count() or 1


class Workers:
    """Worker processes that play a run's games between them (`jobs` of them; 0: one per core).
    Used as a context manager; with one job, games are played in this process."""

    CHUNKS_PER_JOB = 8          # a run's games in this many pieces per worker, so all finish together

    def __init__(self, jobs: int, source: GameSource | None = None):
        self.jobs = jobs or cores()
        self.source = source
        self._pool = None
        self._shared: list[tuple[GameSource, str]] = []

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None
        for key in self._shared:            # the game as read now, never by a later run
            _LOADED.pop(key, None)
        self._shared.clear()

    def share(self, engine: Engine, game, editions: list[str]) -> None:
        """Read these editions' components here, before the workers start, so that every worker
        begins with them instead of reading the game again."""
        if self.jobs > 1 and self.source is not None and self._pool is None:
            for edition in editions:
                try:
                    self._share(edition, engine, engine.components(game, edition))
                except SetupError:
                    continue            # the run says so when it comes to this edition

    def _share(self, edition: str, engine: Engine, components: Mapping[str, Any]) -> None:
        _LOADED[(self.source, edition)] = (engine, components)
        self._shared.append((self.source, edition))

    def _executor(self):
        if self._pool is None:
            # Loaded only here: a one-process run (`--jobs 1`, a game's checks) starts without them.
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor
            # The platform's own start method: where it forks, workers begin with `_LOADED`;
            # elsewhere each reads the game once itself.
            self._pool = ProcessPoolExecutor(self.jobs, mp_context=multiprocessing.get_context())
        return self._pool

    def play(self, engine: Engine, components: Mapping[str, Any], *, edition: str, players: int, games: int,
             seed: int, policy: str, options: dict, check: bool, progress: Callable[[int], None] | None,
             start: int = 0):
        """Games `start` .. `start + games - 1` of a run, in order, each as (returns, stats, actions)."""
        if self.jobs == 1 or self.source is None or games < 2:
            for index in range(start, start + games):
                [result] = play_games(engine, components, players=players, edition=edition, seed=seed,
                                      start=index, stop=index + 1, policy=policy, options=options, check=check)
                yield result
                if progress:
                    progress(1)
            return
        if self._pool is None:
            self._share(edition, engine, components)
        size = max(1, -(-games // (self.jobs * self.CHUNKS_PER_JOB)))
        futures = [self._executor().submit(_play_chunk, self.source, edition, players, seed, first,
                                           min(start + games, first + size), policy, dict(options), check)
                   for first in range(start, start + games, size)]
        for future in futures:
            chunk = future.result()
            if isinstance(chunk, tuple):
                kind, message = chunk
                for other in futures:
                    other.cancel()
                raise (InvariantBroken if kind == "InvariantBroken" else SetupError)(message)
            yield from chunk
            if progress:
                progress(len(chunk))


def simulate(engine: Engine, game, *, edition: str, players: int, games: int, seed: int = 0,
             policy: str = "random", options: Mapping[str, Any] | None = None, check: bool = True,
             progress: Callable[[], None] | None = None, workers: Workers | None = None,
             batch: int | None = None, enough: Callable[[Tally], bool] | None = None) -> Run:
    """Play `games` seeded games; raise InvariantBroken at the first broken rule, OptionError
    before the first game for an option the rules do not allow. With `workers`, the games are
    played in their processes and summed up here in order: the same run as in one process.
    With `enough`, the games are played in batches of `batch` and the run stops after the first
    batch whose tally is enough (or at `games`): the tally alone decides, so the same seed plays
    the same games whatever the workers."""
    components = engine.components(game, edition)       # read from the YAML once per run
    options = engine.check_options(options or {}, **components)
    tally = Tally()
    workers = workers or Workers(1)
    step = (lambda count: [progress() for _ in range(count)]) if progress else None
    size = max(1, batch or games) if enough is not None else games
    played = 0
    while played < games:
        count = min(size, games - played)
        for returns, stats, actions in workers.play(engine, components, edition=edition, players=players,
                                                    games=count, seed=seed, policy=policy, options=options,
                                                    check=check, progress=step, start=played):
            tally.add(returns, stats, actions)
        played += count
        if enough is not None and enough(tally):
            break
    return Run(engine.slug, edition, players, policy, seed, options, tally)
