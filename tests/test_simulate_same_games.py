"""Seeded games stay the same games: for every game, edition, player count and policy (and a
few variants), the moves played, the result, the stats and the final state of a few hundred
seeded games match what was recorded in tests/fixtures/simulation_digests.json, and so does
the summary `pnp simulate` makes of them. A faster engine must play exactly the same games.

Recorded with `python tests/test_simulate_same_games.py --record` (only when a rule change is
meant to change games: say so in the commit)."""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.app.loading import load_games  # noqa: E402
from generator.load.project import Project  # noqa: E402
from generator.rules.simulate import game_seed, play_out, policy_rng, simulate  # noqa: E402


FIXTURE = ROOT / "tests" / "fixtures" / "simulation_digests.json"
SEED = 7
RANDOM_GAMES = 200        # per edition and player count, random policy
POLICY_GAMES = 40         # per edition and player count, each other policy
VARIANT_GAMES = 100       # per variant below
SUMMARY_GAMES = 50        # games summed up by simulate() per table
# Long games replay only the first of their recorded games (and not the summary), to keep the
# test quick; `--record` plays them all.
REPLAYED = {"pegs-and-jokers": 16, "diced-veggies": 40}
VARIANTS = {              # options worth replaying besides the defaults: (edition, players, options)
    "race-to-the-table": [("full", 4, {"quick": True}), ("full", 5, {"roles": False}),
                          ("full", 9, {"team_size": 3}), ("free", 6, {"team_size": 3})],
    "pegs-and-jokers": [("standard", 4, {"pairs": True}), ("standard", 6, {"pairs": True})],
    "the-game": [("standard", 3, {"min_after_empty": 1})],
}


def _games():
    return {game.slug: game for game in load_games(Project(ROOT), texts=False)
            if getattr(game.rules, "ENGINE", None)}


GAMES = _games()


def tables() -> list[tuple]:
    """(slug, edition, players, policy, options, games) of every table replayed."""
    found = []
    for slug, game in GAMES.items():
        engine, spec = game.rules.ENGINE, game.rules.SPEC
        editions = [e for e in game.editions if e in spec.counts]
        for edition in editions:
            for players in spec.tables:
                found.append((slug, edition, players, "random", {}, RANDOM_GAMES))
                found += [(slug, edition, players, policy, {}, POLICY_GAMES)
                          for policy in engine.policies if policy != "random"]
        for edition, players, options in VARIANTS.get(slug, []):
            found.append((slug, edition, players, "random", options, VARIANT_GAMES))
    return found


def key(slug, edition, players, policy, options, games) -> str:
    variant = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
    return f"{slug} {edition} {players}p {policy}" + (f" {variant}" if variant else "")


def digest(data) -> str:
    return hashlib.sha256(data.encode()).hexdigest()[:12]


def replay(slug, edition, players, policy, options, games, summary: bool = True) -> dict:
    """Each game's digest (its moves, result, stats and final state) and the run's summary's."""
    game = GAMES[slug]
    engine = game.rules.ENGINE
    components = engine.components(game, edition)
    checked = engine.check_options(options, **components)
    each, lengths = [], []
    for index in range(games):
        seed = game_seed(SEED, index)
        state = engine.new_game(players, seed=seed, **components, **checked)
        state.check_invariants()
        played = []
        play_out(engine, state, policy, policy_rng(seed), check=True, played=played)
        lengths.append(len(played))
        each.append(digest(repr(played) + repr(state.returns()) + repr(state.stats())
                           + json.dumps(state.to_json(), sort_keys=True, ensure_ascii=False, default=repr)))
    if not summary:
        return {"games": each}
    summed = min(games, SUMMARY_GAMES)
    run = simulate(engine, game, edition=edition, players=players, games=summed, seed=SEED,
                   policy=policy, options=options).to_json()
    # The actions counted while the run played are the actions of the games replayed here; the
    # rest of the summary is what was recorded before runs counted their actions.
    assert run.pop("actions_per_game") == pytest.approx(sum(lengths[:summed]) / summed, abs=1e-4)
    return {"games": each, "summary": digest(json.dumps(run, sort_keys=True, ensure_ascii=False))}


def recorded() -> dict:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


@pytest.mark.parametrize("table", tables(), ids=lambda table: key(*table))
def test_seeded_games_are_the_games_recorded(table):
    expected = recorded()[key(*table)]
    slug, *rest, games = table
    replayed = min(games, REPLAYED.get(slug, games))
    found = replay(slug, *rest, replayed, summary=replayed == games)
    assert len(expected["games"]) == games and len(found["games"]) == replayed
    for index, (was, now) in enumerate(zip(expected["games"], found["games"])):
        assert now == was, f"game {index} (seed {game_seed(SEED, index)}) is not the game recorded"
    if replayed == games:
        assert found["summary"] == expected["summary"], "the run's summary is not the one recorded"


def test_every_table_replayed_is_recorded_and_another_seed_is_other_games(monkeypatch):
    assert sorted(key(*table) for table in tables()) == sorted(recorded())
    table = next(table for table in tables() if table[0] == "the-game")
    expected = recorded()[key(*table)]
    monkeypatch.setattr(sys.modules[__name__], "SEED", SEED + 1)
    found = replay(*table)
    assert not set(found["games"]) & set(expected["games"]) and found["summary"] != expected["summary"]


if __name__ == "__main__" and "--record" in sys.argv:
    data = {}
    for table in tables():
        data[key(*table)] = replay(*table)
        print(key(*table), flush=True)
    FIXTURE.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
