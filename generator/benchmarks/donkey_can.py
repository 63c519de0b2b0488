"""The Donkey Can!: how the decided box plays, by player count. Seeded games with every seat
on the heuristic policy (and, for comparison, on random play): mean scores, how often the
donkey is overloaded, how often each driver advantage is used, games per second; then how
often one heuristic seat beats random opponents."""
from __future__ import annotations

import os
import time

from ..build import load_games
from ..simulate import game_seed, play_game, policy_rng

GAME = "donkey-can"
GAMES = int(os.environ.get("PNP_BENCH_GAMES", "2000"))     # per policy and player count
DUEL_GAMES = max(1, GAMES // 4)


def _run(engine, components, players: int, policy: str) -> dict:
    totals = {"points": 0.0, "winning": 0.0, "overloaded": 0, "rounds": 0, "advantages": 0.0,
              "right": 0.0, "shared": 0}
    kinds: dict[str, int] = {}
    started = time.perf_counter()
    for index in range(GAMES):
        state = play_game(engine, components, players=players, edition="standard", seed=game_seed(0, index),
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
    return {"totals": totals, "kinds": kinds, "per_second": GAMES / elapsed}


def _line(players: int, policy: str, result: dict) -> str:
    totals, kinds = result["totals"], result["kinds"]
    per_player_game = GAMES * players
    uses = ", ".join(f"{kind} {used / per_player_game:.2f}" for kind, used in kinds.items())
    return (f"{players}p {policy:>9}: mean score {totals['points'] / GAMES:4.1f}, winner {totals['winning'] / GAMES:4.1f}, "
            f"overloaded {100 * totals['overloaded'] / totals['rounds']:4.1f}% of rounds, "
            f"right calls {100 * totals['right'] / GAMES:4.1f}%, shared wins {100 * totals['shared'] / GAMES:4.1f}%, "
            f"advantages per player {totals['advantages'] / GAMES:.2f} ({uses}), "
            f"{result['per_second']:.0f} games/s")


def _duel(engine, components, players: int) -> float:
    """Share of wins of one heuristic seat (rotating) against random players."""
    wins = 0.0
    heuristic, rand = engine.policies["heuristic"], engine.policies["random"]
    for index in range(DUEL_GAMES):
        seed = game_seed(1, index)
        state = engine.new_game(players=players, edition="standard", seed=seed, **components)
        rng, hero = policy_rng(seed), index % players
        while not state.is_terminal():
            choose = heuristic if state.current_player() == hero else rand
            state.apply(choose(state, rng))
        wins += state.returns()[hero]
    return wins / DUEL_GAMES


def run(project) -> list[str]:
    game = load_games(project, GAME)[0]
    engine, spec = game.rules.ENGINE, game.rules.SPEC
    components = engine.components(game, "standard")
    lines = [f"{GAMES} seeded games per player count and policy (no invariant checks: the tests "
             f"and `pnp simulate` make those)"]
    for players in range(spec.min_players, spec.max_players + 1):
        for policy in ("heuristic", "random"):
            lines.append(_line(players, policy, _run(engine, components, players, policy)))
        share = _duel(engine, components, players)
        lines.append(f"{players}p one heuristic seat among random players wins {100 * share:.1f}% "
                     f"of {DUEL_GAMES} games (chance: {100 / players:.1f}%)")
    return lines
