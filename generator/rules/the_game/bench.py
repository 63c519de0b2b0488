"""The Game under the heuristic policy: win rate and cards left by player count, for the seed's
minimum (two cards a turn to the end) and the published one (one card once the draw pile is
empty), and games per second. The same seeds for both rules, so they play the same deals."""
from __future__ import annotations

import time

from ..simulate import simulate


GAMES = 2000                     # per rule and player count (PNP_BENCH_GAMES overrides it)
POLICY = "heuristic"
RULES = (("seed: 2 to the end", 2), ("published: 1 once the deck is empty", 1))
EXCELLENT = 10                   # the published rules call fewer cards left than this excellent


def report(game, games: int) -> list[str]:
    engine = game.rules.ENGINE
    spec = game.rules.SPEC
    edition = game.editions[0]
    lines = [f"{games} games per rule and player count, policy {POLICY}, invariants not checked"]
    played, elapsed = 0, 0.0
    for label, minimum in RULES:
        lines.append(f"min_after_empty={minimum} ({label})")
        for players in range(spec.min_players, spec.max_players + 1):
            started = time.process_time()
            result = simulate(engine, game, edition=edition, players=players, games=games, seed=0,
                              policy=POLICY, options={"min_after_empty": minimum}, check=False)
            spent = time.process_time() - started
            played, elapsed = played + games, elapsed + spent
            left = result.tally.numbers["cards_left"]
            excellent = sum(1 for value in left if value < EXCELLENT) / games
            lines.append(f"  {players} player{'s' if players > 1 else ' '}: won {100 * result.tally.wins[0] / games:5.1f}%, "
                         f"cards left mean {sum(left) / games:5.2f}, under {EXCELLENT} {100 * excellent:5.1f}%, "
                         f"{games / spent:.0f} games/s")
    lines.append(f"{played} games in {elapsed:.1f} s CPU ({played / elapsed:.0f} games/s on one core)")
    return lines
