"""What each game's engine claims (`ENGINE.claims`, generator/rules/claims.py): its heuristic
players beat random ones by the margin it states, and its box seats each table it says, or
refuses a short one saying why. One test for every claim of every game found; the games are
few and short, the long runs are `make bench`'s."""
from __future__ import annotations

import pytest

from conftest import ROOT, pnp, simulation_runs
from generator.app.loading import load_games
from generator.load.project import Project
from generator.rules.claims import Beats, Mean, Short, TeamsPlayAsSeats, tables_played


GAMES = {game.slug: game for game in load_games(Project(ROOT), texts=False)
         if getattr(game.rules, "ENGINE", None) is not None}
CLAIMS = [(slug, claim) for slug, game in sorted(GAMES.items()) for claim in game.rules.ENGINE.claims]


def test_every_game_with_a_heuristic_claims_it_beats_random_play():
    for slug, game in GAMES.items():
        engine = game.rules.ENGINE
        others = set(engine.policies) - {"random"}
        claimed = {claim.hero for claim in engine.claims if isinstance(claim, Beats)} | \
                  {claim.policy for claim in engine.claims if isinstance(claim, Mean)}
        assert others <= claimed, f"{slug}: no claim for {', '.join(sorted(others - claimed))}"


@pytest.mark.parametrize("slug,claim", CLAIMS, ids=lambda item: str(item))
def test_the_claim_holds(slug, claim):
    game = GAMES[slug]
    assert isinstance(claim, (Beats, Mean, Short, TeamsPlayAsSeats))
    verdict = claim.verdict(game.rules.ENGINE, game, game.editions[0])
    assert verdict is None, f"{slug}: {claim}: {verdict}"


def test_teams_that_play_otherwise_than_single_players_break_the_claim(monkeypatch):
    """TeamsPlayAsSeats fails for an engine whose deal heeds how many players share a seat,
    naming the table, and for a game that seats no teams."""
    teamed = next(game for game in GAMES.values() if game.rules.SPEC.teams is not None)
    engine = teamed.rules.ENGINE
    deal = engine.deal

    def heeding_members(box, table, rng, options):
        if table.players != table.seats:
            rng.random()                     # a team table shuffles otherwise
        return deal(box, table, rng, options)
    monkeypatch.setattr(engine, "deal", heeding_members)
    verdict = TeamsPlayAsSeats(games=2).verdict(engine, teamed, teamed.editions[0])
    assert verdict is not None and "players in" in verdict and "play otherwise than" in verdict
    single = next(game for game in GAMES.values() if game.rules.SPEC.teams is None)
    assert TeamsPlayAsSeats(games=2).verdict(single.rules.ENGINE, single, single.editions[0]) == \
        "the game seats no teams"


def test_a_table_of_teams_plays_the_games_of_the_first_table_with_as_many_seats():
    """Where an engine claims TeamsPlayAsSeats, each table of teams shows the games of the
    first table seated as many seats; elsewhere every table plays its own."""
    for game in GAMES.values():
        engine, tables = game.rules.ENGINE, game.rules.SPEC.tables
        plays = tables_played(engine, tables)
        assert list(plays) == list(tables)
        if not any(isinstance(claim, TeamsPlayAsSeats) for claim in engine.claims):
            assert all(source == players for players, source in plays.items())
            continue
        seats = {players: len(engine.seating(players, engine.options)) for players in tables}
        for players, source in plays.items():
            assert source <= players and seats[source] == seats[players]
            assert plays[source] == source
        assert any(source != players for players, source in plays.items())


def test_pnp_simulate_shows_a_table_of_teams_the_games_of_its_seats_played_once(monkeypatch):
    """`pnp simulate` of every table of a game claiming TeamsPlayAsSeats plays each number of
    seats once: a table of teams shows that run under its own number of players, the very run
    `--players` gives when it plays that table itself."""
    from generator.rules import simulate as simulator
    slug, game = next((slug, game) for slug, game in sorted(GAMES.items())
                      if any(isinstance(claim, TeamsPlayAsSeats) for claim in game.rules.ENGINE.claims))
    edition, tables = game.editions[0], game.rules.SPEC.tables
    plays = tables_played(game.rules.ENGINE, tables)
    played = []
    plays_one = simulator.simulate
    monkeypatch.setattr(simulator, "simulate", lambda *args, **kwargs: played.append(kwargs["players"])
                        or plays_one(*args, **kwargs))
    result = pnp("simulate", slug, "--edition", edition, "--games", "12", "--json")
    assert result.exit_code == 0, result.output
    runs = {run["players"]: run for run in simulation_runs(result.stdout)}
    assert list(runs) == list(tables)
    assert played == [players for players in tables if plays[players] == players]
    teams = [players for players in tables if plays[players] != players]
    assert teams
    for players in teams:                    # each as its own table plays it
        alone = pnp("simulate", slug, "--edition", edition, "--games", "12", "--players", str(players), "--json")
        assert alone.exit_code == 0, alone.output
        assert simulation_runs(alone.stdout) == [runs[players]]
