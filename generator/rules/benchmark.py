"""The games' own benchmarks (`make bench` runs them after the shared ones in
generator/app/benchmarks). A game's rules package declares its benchmark in a `bench` module,
which imports nothing of this one:

- `GAMES`: the games a run plays per table (PNP_BENCH_GAMES overrides it), and either
- `report(game, games) -> list[str]`: the lines the game prints, or
- `table_line(engine, components, edition, players, policy, games) -> str`: a line per table
  with every seat on the heuristic policy and then on random play; the lines of how often one
  heuristic seat beats random opponents are added here.
"""
from __future__ import annotations

import os
from types import ModuleType

from .simulate import duel


def games_per_run(default: int) -> int:
    """Games a benchmark plays per run: PNP_BENCH_GAMES, or the benchmark's own default."""
    return int(os.environ.get("PNP_BENCH_GAMES", str(default)))


def run(game, bench: ModuleType) -> list[str]:
    """The lines of a game's benchmark, as its `bench` module declares it."""
    games = games_per_run(bench.GAMES)
    if hasattr(bench, "table_line"):
        return heuristic_and_random(game, games, bench.table_line)
    return bench.report(game, games)


def heuristic_and_random(game, games: int, line) -> list[str]:
    """A game's benchmark lines for every table its rules seat: `line(engine, components,
    edition, players, policy, games)` with every seat on the heuristic policy and then on random
    play, and how often one heuristic seat beats random opponents."""
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
