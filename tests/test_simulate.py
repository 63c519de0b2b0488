"""`pnp simulate`: seeded, reproducible, summed up per edition and player count, and every
invariant checked after every action of every game; played on the sample game's engine
(tests/fixtures/sample/rules/sample_game/engine.py)."""
from __future__ import annotations

import shutil

import pytest

from conftest import SAMPLE, pnp, replace_in, simulation_runs
from generator.app.loading import load_games
from generator.load.project import Project
from generator.rules.engine import InvariantBroken
from generator.rules.simulate import Tally, game_seed, play_game, play_out, policy_rng
from generator.validate import checks as validate


SLUG = "sample-game"
GAME = load_games(Project(SAMPLE), SLUG, texts=False)[0]
ENGINE = GAME.rules.ENGINE
COINS = {card.id for card in GAME.in_edition("standard", "cards") if card.group == "coins"}
RULES = "rules/sample_game/engine.py"


def simulate_json(*args, project=SAMPLE):
    result = pnp("simulate", SLUG, "--json", *args, project=project)
    assert result.exit_code == 0, result.output
    return simulation_runs(result.stdout)


def test_same_seed_same_json_other_seed_other_result():
    args = ("--players", "4", "--games", "150")
    first = simulate_json("--seed", "3", *args)
    assert first == simulate_json("--seed", "3", *args)
    other = simulate_json("--seed", "4", *args)
    assert [{**run, "seed": 3} for run in other] != first         # other games, not just another label
    heuristic = ("--policy", "heuristic", "--games", "20", "--players", "3")
    assert simulate_json(*heuristic) == simulate_json(*heuristic)


def test_the_summary_has_what_a_designer_asks_for():
    [run] = simulate_json("--players", "4", "--games", "200")
    assert run["games"] == 200 and run["players"] == 4 and run["seats"] == 4 and run["policy"] == "random"
    for figure in ("rounds", "raids", "thefts"):
        assert set(run["numbers"][figure]) == {"mean", "median", "min", "max"}
    assert run["numbers"]["rounds"]["min"] >= 1 and run["numbers"]["rounds"]["max"] <= 8
    assert set(run["shares"]["ended_by"]) == {"pile", "clock"}
    assert sum(run["shares"]["ended_by"].values()) == pytest.approx(1)
    assert len(run["win_rate"]) == 4 and sum(run["win_rate"]) == pytest.approx(1)
    # Each coin comes off the pile at most once a game, and in most games it does.
    assert set(run["counts"]["coins"]) == COINS
    for taken in run["counts"]["coins"].values():
        assert 0.5 < taken["per_game"] <= 1 and taken["total"] == pytest.approx(200 * taken["per_game"])


def test_every_edition_and_player_count_by_default():
    runs = simulate_json("--games", "5")
    assert [(r["edition"], r["players"]) for r in runs] == [("standard", players) for players in (2, 3, 4)]
    assert [r["seats"] for r in runs] == [2, 3, 4] and all(r["games"] == 5 for r in runs)


def test_text_output_and_speed_line():
    result = pnp("simulate", SLUG, "--players", "3", "--games", "50", project=SAMPLE)
    assert result.exit_code == 0, result.output
    assert "win rate per seat: 1:" in result.stdout and "ended_by: " in result.stdout
    [coins] = [line for line in result.stdout.splitlines() if "coins per game: " in line]
    assert "Thief" in coins and "coins-" not in coins          # the cards by their names, not their ids
    assert "games/s" in result.stdout


def test_variants_through_options():
    [short] = simulate_json("--players", "4", "--games", "100", "--option", "rounds=3")
    assert short["numbers"]["rounds"]["max"] <= 3 and short["options"]["rounds"] == 3
    [plain] = simulate_json("--players", "4", "--games", "50", "--option", "thieves=false")
    assert plain["numbers"]["thefts"]["max"] == 0 and plain["options"]["thieves"] is False
    [stealing] = simulate_json("--players", "4", "--games", "50")
    assert stealing["numbers"]["thefts"]["max"] > 0 and stealing["options"] == {"rounds": 8, "thieves": True}


@pytest.mark.parametrize("args,message", [
    (("--players", "5"), "is for 2-4 players"),
    (("--policy", "clever"), "no policy 'clever'"),
    (("--edition", "deluxe"), "no edition 'deluxe'"),
    (("--option", "speed=fast"), "KEY one of"),
    (("--option", "thieves=maybe"), "expected true or false"),
    (("--players", "3", "--option", "rounds=0"), "--option rounds: rounds is a whole number from 1 to 20, not 0"),
])
def test_bad_requests_are_usage_errors(args, message):
    result = pnp("simulate", SLUG, *args, project=SAMPLE)
    assert result.exit_code == 2 and message in result.stderr


def broken_sample(folder, old: str, new: str):
    """A copy of the sample project whose rules engine has `old` replaced by `new`."""
    project = folder / "sample"
    shutil.copytree(SAMPLE, project)
    replace_in(project / RULES, old, new)
    return project


# a recruit that leaves the hero on the deck: one hero more than the box holds
COPIED_HERO = ("self.bands[seat].append(self.deck.pop())", "self.bands[seat].append(self.deck[-1])")
# a thief that copies the coin it steals
COPIED_COIN = ("self.purses[victim].remove(best)", "pass")


def test_validation_plays_seeded_games_and_reports_a_broken_rule(tmp_path):
    result = pnp("validate", project=broken_sample(tmp_path, *COPIED_HERO))
    assert result.exit_code == 1
    assert "a seeded game broke a rule: sample-game standard 2 players, seed 1: round" in result.stderr
    assert "heroes created or lost" in result.stderr


def test_a_broken_rule_stops_the_run_with_exit_1(tmp_path, monkeypatch):
    monkeypatch.setattr(validate, "PLAY_CHECK_SEEDS", ())      # let the data load; the run must catch it
    result = pnp("simulate", SLUG, "--players", "4", "--games", "200", project=broken_sample(tmp_path, *COPIED_COIN))
    assert result.exit_code == 1
    assert "a rule broke: sample-game standard 4 players, seed" in result.stderr
    assert "coins created or lost" in result.stderr


def test_a_coin_lost_in_the_middle_of_a_game_is_caught(tmp_path, monkeypatch):
    monkeypatch.setattr(validate, "PLAY_CHECK_SEEDS", ())
    lost = ("        self.turns += 1\n", "        self.turns += 1\n        if self.turns == 7 and self.pile:\n"
                                         "            self.pile.pop()\n")
    result = pnp("simulate", SLUG, "--players", "3", "--games", "3", project=broken_sample(tmp_path, *lost))
    assert result.exit_code == 1 and "turn 7: coins created or lost" in result.stderr


def test_a_game_ending_on_the_last_allowed_action_is_finished(monkeypatch):
    components = ENGINE.components(GAME, "standard")
    played = []
    state = ENGINE.new_game(3, seed=7, **components)
    play_out(ENGINE, state, "random", policy_rng(7), played=played)
    monkeypatch.setattr(ENGINE, "max_actions", len(played))
    final = play_game(ENGINE, components, players=3, edition="standard", seed=7, options=ENGINE.options)
    assert final.is_terminal() and final.to_json() == state.to_json()
    monkeypatch.setattr(ENGINE, "max_actions", len(played) - 1)
    with pytest.raises(InvariantBroken, match=f"seed 7: no end after {len(played) - 1} actions"):
        play_game(ENGINE, components, players=3, edition="standard", seed=7, options=ENGINE.options)


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
    [run] = simulate_json("--players", "3", "--games", str(games), "--seed", str(seed))
    components = ENGINE.components(GAME, "standard")
    lengths = []
    for index in range(games):
        played, state_seed = [], game_seed(seed, index)
        state = ENGINE.new_game(3, seed=state_seed, **components, **ENGINE.options)
        play_out(ENGINE, state, "random", policy_rng(state_seed), played=played)
        lengths.append(len(played))
    assert len(set(lengths)) > 1
    assert run["actions_per_game"] == pytest.approx(sum(lengths) / games, abs=1e-4)
    printed = pnp("simulate", SLUG, "--players", "3", "--games", str(games), "--seed", str(seed), project=SAMPLE)
    assert f"actions per game: {run['actions_per_game']}" in printed.stdout
    assert f"{games} games, {sum(lengths)} actions in " in printed.stdout
