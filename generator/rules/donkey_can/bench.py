"""The Donkey Can!: how the decided box plays, by player count. Seeded games with every seat
on the heuristic policy (and, for comparison, on random play): mean scores, how often the
donkey is overloaded, how often each driver advantage is used, games per second; then how
often one heuristic seat beats random opponents."""
from __future__ import annotations

import time

from ..simulate import game_seed, play_game


GAMES = 2000                     # per policy and player count (PNP_BENCH_GAMES overrides it)


def _run(engine, components, edition: str, players: int, policy: str, games: int) -> dict:
    totals = {"points": 0.0, "winning": 0.0, "overloaded": 0, "rounds": 0, "advantages": 0.0,
              "right": 0.0, "shared": 0}
    kinds: dict[str, int] = {}
    started = time.perf_counter()
    for index in range(games):
        state = play_game(engine, components, players=players, edition=edition, seed=game_seed(0, index),
                          policy=policy, check=False)
        stats = state.stats()
        totals["points"] += stats["mean_points"]
        totals["winning"] += stats["winning_points"]
        totals["overloaded"] += stats["overloaded_rounds"]
        totals["rounds"] += len(state.history)
        totals["advantages"] += stats["advantages_per_player"]
        totals["right"] += stats["right_calls"]
        totals["shared"] += stats["shared_win"] == "yes"
        for kind, used in stats["advantages"].items():
            kinds[kind] = kinds.get(kind, 0) + used
    elapsed = time.perf_counter() - started
    return {"totals": totals, "kinds": kinds, "per_second": games / elapsed}


def _line(players: int, policy: str, result: dict, games: int) -> str:
    totals, kinds = result["totals"], result["kinds"]
    per_player_game = games * players
    uses = ", ".join(f"{kind} {used / per_player_game:.2f}" for kind, used in kinds.items())
    return (f"{players}p {policy:>9}: mean score {totals['points'] / games:4.1f}, winner {totals['winning'] / games:4.1f}, "
            f"overloaded {100 * totals['overloaded'] / totals['rounds']:4.1f}% of rounds, "
            f"right calls {100 * totals['right'] / games:4.1f}%, shared wins {100 * totals['shared'] / games:4.1f}%, "
            f"advantages per player {totals['advantages'] / games:.2f} ({uses}), "
            f"{result['per_second']:.0f} games/s")


def table_line(engine, components, edition: str, players: int, policy: str, games: int) -> str:
    return _line(players, policy, _run(engine, components, edition, players, policy, games), games)
