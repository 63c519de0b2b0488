"""Diced Veggies: how the decided box plays, by player count. Seeded games with every seat on
the heuristic policy (and on random play): game length, winning score and spread, win rate by
seat, chef token and restock use, games per second; then how often one heuristic seat beats
random opponents."""
from __future__ import annotations

import time

from ..simulate import game_seed, play_game


GAMES = 400                      # per policy and player count (PNP_BENCH_GAMES overrides it)
FIGURES = ("turns", "winning_score", "score_spread", "recipes_cooked", "hype_played", "chef_uses", "restocks")


def _run(engine, components, edition: str, players: int, policy: str, games: int) -> dict:
    totals = dict.fromkeys(FIGURES, 0.0)
    wins = [0.0] * players
    started = time.process_time()
    for index in range(games):
        state = play_game(engine, components, players=players, edition=edition, seed=game_seed(0, index),
                          policy=policy, check=False)
        stats = state.stats()
        for figure in FIGURES:
            totals[figure] += stats[figure]
        for seat, value in enumerate(state.returns()):
            wins[seat] += value
    spent = max(time.process_time() - started, 1e-9)
    return {"means": {figure: total / games for figure, total in totals.items()},
            "wins": [value / games for value in wins], "per_second": games / spent}


def _line(players: int, policy: str, result: dict) -> str:
    means = result["means"]
    seats = " ".join(f"{100 * share:.0f}%" for share in result["wins"])
    return (f"{players}p {policy:>9}: {means['turns']:4.1f} turns, winner {means['winning_score']:4.1f} points, "
            f"spread {means['score_spread']:4.1f}, recipes {means['recipes_cooked']:4.1f}, hype {means['hype_played']:4.1f}, "
            f"chef {means['chef_uses']:4.1f}, restocks {means['restocks']:3.1f}, seats won {seats}, "
            f"{result['per_second']:.0f} games/s")


def table_line(engine, components, edition: str, players: int, policy: str, games: int) -> str:
    return _line(players, policy, _run(engine, components, edition, players, policy, games))
