"""Benchmarks for `make bench`, one module each. A module defines `run(project) -> list[str]`
returning the lines it prints; `python -m generator.bench` runs them all in name order, then
each game's own benchmark (a `bench` module in its rules package, `run(game) -> list[str]`)."""
from __future__ import annotations

import os


def games_per_run(default: int) -> int:
    """Games a benchmark plays per run: PNP_BENCH_GAMES, or the benchmark's own default."""
    return int(os.environ.get("PNP_BENCH_GAMES", str(default)))


def heuristic_and_random(game, games: int, line) -> list[str]:
    """A game's benchmark lines for every table its rules seat: `line(engine, components,
    edition, players, policy, games)` with every seat on the heuristic policy and then on random
    play, and how often one heuristic seat beats random opponents."""
    from ..simulate import duel             # simulation imports the rules, which import this
    engine, spec = game.rules.ENGINE, game.rules.SPEC
    edition = game.editions[0]
    components = engine.components(game, edition)
    duels = max(1, games // 4)
    lines = [f"{games} seeded games per player count and policy (no invariant checks: the tests "
             f"and `pnp simulate` make those)"]
    for players in spec.tables:
        for policy in ("heuristic", "random"):
            lines.append(line(engine, components, edition, players, policy, games))
        share = duel(engine, components, players=players, hero="heuristic", others="random", games=duels)
        lines.append(f"{players}p one heuristic seat among random players wins {100 * share:.1f}% "
                     f"of {duels} games (chance: {100 / players:.1f}%)")
    return lines
