"""Race to the Table in simulation: what its seeded games report (every card and role played,
the two ways a game ends), both editions and every seating by default, its team options
refused as `pnp simulate` says, and the same games in worker processes as in one."""
from __future__ import annotations

import pytest

from conftest import ROOT, pnp, simulation_runs
from generator.app.loading import load_games, read_game
from generator.load.project import Project
from generator.rules.engine import OptionError
from generator.rules.race_to_the_table import state as rules
from generator.rules.simulate import GameSource, Workers, simulate


SLUG = "race-to-the-table"
GAME = load_games(Project(ROOT), SLUG, texts=False)[0]
ENGINE = GAME.rules.ENGINE


def test_every_card_and_role_is_played_and_a_game_ends_at_the_table_or_by_the_clock():
    tally = simulate(ENGINE, GAME, edition="full", players=4, games=200, check=False).tally
    assert set(tally.counts["cards"]) == set(rules.CARDS) and set(tally.counts["roles"]) == set(rules.ROLES)
    # six Quick cards in the deck, one Sudden rain
    assert sum(tally.counts["cards"]["quick"]) > sum(tally.counts["cards"]["sudden-rain"])
    assert set(tally.texts["ended_by"]) == {"table", "clock"}


def test_both_editions_and_every_player_count_by_default_seated_in_teams_from_seven():
    result = pnp("simulate", SLUG, "--json", "--games", "5")
    assert result.exit_code == 0, result.output
    runs = simulation_runs(result.stdout)
    assert [(r["edition"], r["players"]) for r in runs] == [(e, p) for e in GAME.editions for p in range(2, 11)]
    assert [r["seats"] for r in runs[:9]] == [2, 3, 4, 5, 6, 3, 4, 4, 5]
    assert all("roles" not in r["counts"] or not r["counts"]["roles"] for r in runs if r["edition"] == "free")


@pytest.mark.parametrize("players,size", [(3, 4), (9, 1)])
def test_team_sizes_the_rules_do_not_allow_are_refused_at_every_player_count(players, size):
    """Teams of 4 are refused even for player counts that play without teams."""
    box = ENGINE.components(GAME, "full")["box"]
    with pytest.raises(OptionError, match=f"teams are of 2 or 3 players, not {size}"):
        ENGINE.new_game(players, box=box, team_size=size)


def test_worker_processes_play_the_games_of_one_process():
    source = GameSource(read_game, (str(ROOT), SLUG))

    def run(jobs):
        with Workers(jobs, source) as workers:
            return [simulate(ENGINE, GAME, edition=edition, players=players, games=9, seed=5, workers=workers).to_json()
                    for edition, players in (("free", 3), ("full", 9))]
    assert run(2) == run(1)
