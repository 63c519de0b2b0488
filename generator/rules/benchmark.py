"""What the games' own benchmarks share (the `bench` module of a game's rules package,
`run(game) -> list[str]`, which `make bench` runs after the shared ones in generator/app/benchmarks):
how many games a run plays, and the lines of a game whose rules have a heuristic policy."""
from __future__ import annotations

import os

from .simulate import duel


def games_per_run(default: int) -> int:
    """Games a benchmark plays per run: PNP_BENCH_GAMES, or the benchmark's own default."""
    return int(os.environ.get("PNP_BENCH_GAMES", str(default)))


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
