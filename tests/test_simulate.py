"""`pnp simulate`: seeded, reproducible, summed up per edition and player count, and every
invariant checked after every action of every game."""
from __future__ import annotations


import pytest

from conftest import ROOT, pnp, simulation_runs
from generator.app.loading import load_games
from generator.load.project import Project
from generator.rules.engine import InvariantBroken
from generator.rules.race_to_the_table import state as rules
from generator.rules.simulate import Tally, game_seed, play_game, play_out, policy_rng
from generator.validate import checks as validate


SLUG = "race-to-the-table"
GAME = load_games(Project(ROOT), SLUG, texts=False)[0]
ENGINE = GAME.rules.ENGINE


def simulate_json(*args):
    result = pnp("simulate", SLUG, "--json", *args)
    assert result.exit_code == 0, result.output
    return simulation_runs(result.stdout)


def test_same_seed_same_json_other_seed_other_result():
    args = ("--edition", "full", "--players", "4", "--games", "150")
    first = simulate_json("--seed", "3", *args)
    assert first == simulate_json("--seed", "3", *args)
    assert first != simulate_json("--seed", "4", *args)
    greedy = ("--policy", "greedy", "--games", "20", "--edition", "full", "--players", "3")
    assert simulate_json(*greedy) == simulate_json(*greedy)


def test_the_summary_has_what_a_designer_asks_for():
    [run] = simulate_json("--edition", "full", "--players", "4", "--games", "200")
    assert run["games"] == 200 and run["players"] == 4 and run["seats"] == 4 and run["policy"] == "random"
    for figure in ("turns", "rounds", "reshuffles"):
        assert set(run["numbers"][figure]) == {"mean", "median", "min", "max"}
    assert set(run["shares"]["ended_by"]) <= {"table", "clock"}
    assert sum(run["shares"]["ended_by"].values()) == pytest.approx(1)
    assert len(run["win_rate"]) == 4 and sum(run["win_rate"]) == pytest.approx(1)
    assert set(run["counts"]["cards"]) == set(rules.CARDS)
    assert set(run["counts"]["roles"]) == set(rules.ROLES)
    assert run["counts"]["cards"]["quick"]["per_game"] > run["counts"]["cards"]["sudden-rain"]["per_game"]


def test_every_edition_and_player_count_by_default():
    runs = simulate_json("--games", "5")
    assert [(r["edition"], r["players"]) for r in runs] == \
        [(e, p) for e in GAME.editions for p in range(2, 11)]
    assert [r["seats"] for r in runs[:9]] == [2, 3, 4, 5, 6, 3, 4, 4, 5]
    assert all("roles" not in r["counts"] or not r["counts"]["roles"] for r in runs if r["edition"] == "free")


def test_text_output_and_speed_line():
    result = pnp("simulate", SLUG, "--edition", "free", "--players", "3", "--games", "50")
    assert result.exit_code == 0, result.output
    assert "win rate per seat: 1:" in result.stdout and "ended_by: " in result.stdout
    assert "cards per game: Бързо!" in result.stdout
    assert "games/s" in result.stdout


def test_variants_through_options():
    [quick] = simulate_json("--edition", "full", "--players", "4", "--games", "100", "--option", "quick=true")
    assert quick["numbers"]["rounds"]["max"] <= 7 and quick["options"]["quick"] is True
    [plain] = simulate_json("--edition", "full", "--players", "4", "--games", "50", "--option", "roles=false")
    assert all(v["total"] == 0 for v in plain["counts"]["roles"].values())
    [teams] = simulate_json("--edition", "full", "--players", "9", "--games", "20", "--option", "team_size=3")
    assert teams["seats"] == 3


@pytest.mark.parametrize("args,message", [
    (("--players", "11"), "is for 2-10 players"),
    (("--policy", "clever"), "no policy 'clever'"),
    (("--edition", "deluxe"), "no edition 'deluxe'"),
    (("--option", "speed=fast"), "KEY one of"),
    (("--option", "quick=maybe"), "expected true or false"),
    # Teams of 4 are refused even for player counts that play without teams.
    (("--players", "3", "--option", "team_size=4"), "--option team_size: teams are of 2 or 3 players, not 4"),
    (("--players", "9", "--option", "team_size=1"), "--option team_size: teams are of 2 or 3 players, not 1"),
])
def test_bad_requests_are_usage_errors(args, message):
    result = pnp("simulate", SLUG, *args)
    assert result.exit_code == 2 and message in result.stderr


def _forget_start(monkeypatch):
    def fall_off(board, mover, targets):
        board.pos[targets[0]] -= 2                 # a Long queue that forgets START
    monkeypatch.setitem(rules.EFFECTS, "long-queue", fall_off)


def test_validation_plays_seeded_games_and_reports_a_broken_rule(monkeypatch):
    _forget_start(monkeypatch)
    result = pnp("validate", SLUG)
    assert result.exit_code == 1
    assert "a seeded game broke a rule: race-to-the-table free 2 players, seed 1: turn" in result.stderr
    assert "is behind START (-" in result.stderr


def test_a_broken_rule_stops_the_run_with_exit_1(monkeypatch):
    _forget_start(monkeypatch)
    monkeypatch.setattr(validate, "PLAY_CHECK_SEEDS", ())      # let the data load; the run must catch it
    result = pnp("simulate", SLUG, "--edition", "free", "--players", "4", "--games", "200")
    assert result.exit_code == 1
    assert "a rule broke: race-to-the-table free 4 players, seed" in result.stderr
    assert "is behind START" in result.stderr


def test_a_lost_card_is_caught(monkeypatch):
    refill = rules.RaceState._refill

    def lose_one(self, seat):
        refill(self, seat)
        if self.turns == 7 and self.hands[seat]:
            self.hands[seat].pop()
    monkeypatch.setattr(rules.RaceState, "_refill", lose_one)
    monkeypatch.setattr(validate, "PLAY_CHECK_SEEDS", ())
    result = pnp("simulate", SLUG, "--edition", "full", "--players", "3", "--games", "3")
    assert result.exit_code == 1 and "cards created or lost" in result.stderr


def test_a_game_ending_on_the_last_allowed_action_is_finished(monkeypatch):
    components = ENGINE.components(GAME, "free")
    played = []
    state = ENGINE.new_game(3, seed=7, **components)
    play_out(ENGINE, state, "random", policy_rng(7), played=played)
    monkeypatch.setattr(ENGINE, "max_actions", len(played))
    final = play_game(ENGINE, components, players=3, edition="free", seed=7, options=ENGINE.options)
    assert final.is_terminal() and final.to_json() == state.to_json()
    monkeypatch.setattr(ENGINE, "max_actions", len(played) - 1)
    with pytest.raises(InvariantBroken, match=f"seed 7: no end after {len(played) - 1} actions"):
        play_game(ENGINE, components, players=3, edition="free", seed=7, options=ENGINE.options)


def test_tally_sums_numbers_texts_and_counts():
    tally = Tally()
    tally.add([1.0, 0.0], {"turns": 10, "ended_by": "table", "cards": {"quick": 2}})
    tally.add([0.0, 1.0], {"turns": 20, "ended_by": "clock", "cards": {"quick": 1, "taxi": 4}})
    summary = tally.summary()
    assert summary["win_rate"] == [0.5, 0.5]
    assert summary["numbers"]["turns"] == {"mean": 15, "median": 15, "min": 10, "max": 20}
    assert summary["shares"]["ended_by"] == {"clock": 0.5, "table": 0.5}
    assert summary["counts"]["cards"] == {"quick": {"total": 3, "per_game": 1.5}, "taxi": {"total": 4, "per_game": 2}}


def test_actions_per_game_is_the_mean_length_of_the_games_played():
    """Each game's actions counted as they are applied: the seeded games replayed here, action by
    action, give the mean `pnp simulate --json` prints; the text summary prints it too."""
    games, seed = 7, 2
    [run] = simulate_json("--edition", "free", "--players", "3", "--games", str(games), "--seed", str(seed))
    components = ENGINE.components(GAME, "free")
    lengths = []
    for index in range(games):
        played, state_seed = [], game_seed(seed, index)
        state = ENGINE.new_game(3, seed=state_seed, **components, **ENGINE.options)
        play_out(ENGINE, state, "random", policy_rng(state_seed), played=played)
        lengths.append(len(played))
    assert len(set(lengths)) > 1
    assert run["actions_per_game"] == pytest.approx(sum(lengths) / games, abs=1e-4)
    printed = pnp("simulate", SLUG, "--edition", "free", "--players", "3", "--games", str(games), "--seed", str(seed))
    assert f"actions per game: {run['actions_per_game']}" in printed.stdout
    assert f"{games} games, {sum(lengths)} actions in " in printed.stdout
