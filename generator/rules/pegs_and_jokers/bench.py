"""Pegs and Jokers under the heuristic policy: by table (4, 6, 8 players; two teams, and the
variant with teams of two), how long games run, how often each team wins by turn order, how
often jokers are played, sevens split and players stuck, games per second; then how often a
heuristic team beats a random one."""
from __future__ import annotations

import time

from ..simulate import duel, simulate


GAMES = 200                      # per table (PNP_BENCH_GAMES overrides it)
POLICY = "heuristic"


def report(game, games: int) -> list[str]:
    engine, spec = game.rules.ENGINE, game.rules.SPEC
    edition = game.editions[0]
    components = engine.components(game, edition)
    lines = [f"{games} games per table, every seat {POLICY}, invariants not checked"]
    for players in spec.tables:
        for pairs in ((False, True) if players > 4 else (False,)):
            started = time.process_time()
            result = simulate(engine, game, edition=edition, players=players, games=games, policy=POLICY,
                              options={"pairs": pairs}, check=False)
            spent = time.process_time() - started
            tally = result.tally
            mean = {key: sum(values) / games for key, values in tally.numbers.items()}
            winners = {value: tally.texts["winner"].count(value) / games for value in sorted(set(tally.texts["winner"]))}
            label = f"{players}p {'pairs' if pairs else '2 teams'}"
            lines.append(f"{label:>10}: turns mean {mean['turns']:6.1f} (rounds {mean['rounds']:5.1f}), "
                         f"jokers {mean['jokers']:4.1f}, sevens split {mean['sevens_split']:4.1f}, "
                         f"discards {mean['discards']:5.1f} ({100 * mean['stuck_share']:4.1f}% of turns), "
                         f"sent to start {mean['sent_to_start']:4.1f}, {games / spent:5.1f} games/s")
            lines.append(" " * 12 + "wins by turn order: " + ", ".join(
                f"{value} {100 * share:.0f}%" for value, share in winners.items()))
    for players in spec.tables:
        duels = max(1, games // 4)
        share = duel(engine, components, players=players, hero=POLICY, others="random", games=duels)
        lines.append(f"{players}p: a heuristic team beats a random team in {100 * share:.0f}% of {duels} games")
    return lines
