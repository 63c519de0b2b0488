"""Race to the Table under the greedy policy: by edition and player count, how long games run
and how they end with every seat greedy, games per second, and how often one greedy seat beats
random players (teams count as one seat)."""
from __future__ import annotations

import time

from ..simulate import duel, simulate


GAMES = 1000                     # per edition and player count (PNP_BENCH_GAMES overrides it)
POLICY, OTHERS = "greedy", "random"


def report(game, games: int) -> list[str]:
    engine, spec = game.rules.ENGINE, game.rules.SPEC
    duels = max(1, games // 4)
    lines = [f"{games} games per edition and player count, every seat {POLICY}, invariants not checked; "
             f"then {duels} games of one {POLICY} seat among {OTHERS} ones"]
    for edition in game.editions:
        components = engine.components(game, edition)
        for players in range(spec.min_players, spec.max_players + 1):
            started = time.process_time()
            result = simulate(engine, game, edition=edition, players=players, games=games, policy=POLICY,
                              check=False)
            spent = time.process_time() - started
            seats = result.tally.seats
            turns = result.tally.numbers["turns"]
            by_table = result.tally.texts["ended_by"].count("table") / games
            share = duel(engine, components, players=players, hero=POLICY, others=OTHERS, games=duels)
            lines.append(f"{edition} {players:>2}p: turns mean {sum(turns) / games:5.1f}, ended at TABLE "
                         f"{100 * by_table:5.1f}%, {games / spent:5.0f} games/s; one {POLICY} seat wins "
                         f"{100 * share:5.1f}% (chance {100 / seats:.1f}%)")
    return lines
