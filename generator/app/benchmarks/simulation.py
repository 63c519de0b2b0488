"""Rules engines: 4-player games per second on one core (and where the time goes), then
10,000 seeded games per edition and player count with every invariant checked after every
action, summed up."""
from __future__ import annotations

import cProfile
import io
import os
import pstats
import time

from ...rules.benchmark import games_per_run
from ...rules.simulate import play_game, simulate
from ..loading import load_games


GAMES = 10_000                   # per edition and player count
SPEED_PLAYERS = 4
SPEED_SECONDS = 2.0
PROFILE_GAMES = 1000
PROFILE_LINES = 8


def _speed(engine, components, players: int, edition: str, check: bool) -> float:
    """Games per CPU second of this process (one core, whatever else the machine runs) over
    about SPEED_SECONDS of play with the random policy."""
    played, started = 0, time.process_time()
    while time.process_time() - started < SPEED_SECONDS:
        play_game(engine, components, players=players, edition=edition, seed=played, options=engine.options,
                  check=check)
        played += 1
    return played / (time.process_time() - started)


def _profile(engine, components, players: int, edition: str) -> list[str]:
    profile = cProfile.Profile()
    profile.enable()
    for seed in range(PROFILE_GAMES):
        play_game(engine, components, players=players, edition=edition, seed=seed, options=engine.options)
    profile.disable()
    stats = pstats.Stats(profile, stream=io.StringIO())
    total = stats.total_tt
    lines = []
    for (file, line, name), (_, calls, own, _cumulative, _) in sorted(
            stats.stats.items(), key=lambda item: -item[1][2])[:PROFILE_LINES]:
        where = f"{os.path.basename(file)}:{line}({name})" if line else name
        lines.append(f"    {100 * own / total:5.1f}%  {calls:>9} calls  {where}")
    return lines


def _summary(data: dict) -> str:
    numbers = ", ".join(f"{key} mean {figures['mean']:.1f} median {figures['median']:g}"
                        for key, figures in list(data["numbers"].items())[:2])
    shares = "; ".join(", ".join(f"{value} {100 * share:.1f}%" for value, share in table.items())
                       for table in data["shares"].values())
    seats = " ".join(f"{100 * rate:.1f}" for rate in data["win_rate"])
    return f"{numbers}; {shares}; seat win % {seats}"


def run(project) -> list[str]:
    games = games_per_run(GAMES)
    lines = []
    for game in load_games(project):
        engine = getattr(game.rules, "ENGINE", None)
        if engine is None:
            continue
        spec = game.rules.SPEC
        editions = [e for e in game.editions if e in spec.counts]
        players = SPEED_PLAYERS if spec.min_players <= SPEED_PLAYERS <= spec.max_players else spec.min_players
        for edition in editions:
            components = engine.components(game, edition)
            checked = _speed(engine, components, players, edition, check=True)
            bare = _speed(engine, components, players, edition, check=False)
            lines.append(f"{game.slug} {edition}: {checked:.0f} {players}-player games/s on one core with "
                         f"invariants checked after every action ({bare:.0f} games/s without)")
        lines.append(f"{game.slug} {editions[-1]}, {players} players: where the time goes "
                     f"(own time, {PROFILE_GAMES} games under cProfile)")
        lines += _profile(engine, engine.components(game, editions[-1]), players, editions[-1])
        for edition in editions:
            for count in spec.tables:
                started = time.perf_counter()
                result = simulate(engine, game, edition=edition, players=count, games=games).to_json()
                elapsed = time.perf_counter() - started
                lines.append(f"{game.slug} {edition} {count:>2}p: {result['games']} games, no invariant broken "
                             f"({elapsed:.1f} s): {_summary(result)}")
    return lines
