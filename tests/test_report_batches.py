"""The designer's report plays its first policy's games in seeded batches until every seat's
win rate is known within ±3 points: which games and how many depend on the seed and the
games' results alone, never on the worker processes that play them. Played on the sample
game's engine."""
from __future__ import annotations

import dataclasses

from conftest import SAMPLE
from generator.app.loading import load_games, read_game
from generator.load.project import Project
from generator.render.report import REPORT_HALF_WIDTH, most_games, precise_enough
from generator.rules.simulate import GameSource, Workers, simulate


def test_batches_play_the_same_games_whatever_the_workers():
    game = load_games(Project(SAMPLE), "sample-game", texts=False)[0]
    engine = game.rules.ENGINE
    source = GameSource(read_game, (str(SAMPLE), "sample-game"))

    def run(jobs):
        with Workers(jobs, source) as workers:
            return simulate(engine, game, edition="standard", players=3, games=most_games(50), seed=0,
                            policy="random", batch=50, enough=precise_enough, workers=workers)

    one = run(1)
    assert dataclasses.asdict(run(2)) == dataclasses.asdict(one)
    tally = one.tally
    assert tally.games % 50 == 0 and tally.games <= most_games(50)
    assert tally.widest_win_interval() <= REPORT_HALF_WIDTH
    # the batch before was not enough: the report stops at the first batch that is
    fewer = simulate(engine, game, edition="standard", players=3, games=tally.games - 50, seed=0, policy="random")
    assert fewer.tally.widest_win_interval() > REPORT_HALF_WIDTH
    # and its games are the first games of the longer run
    assert fewer.tally.actions == tally.actions[:tally.games - 50]


def test_most_games_is_whole_batches_of_the_worst_case():
    assert most_games(100) == 1100 and most_games(60) == 1080 and most_games(1064) == 1064
