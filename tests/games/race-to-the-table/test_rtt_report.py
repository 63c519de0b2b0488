"""Race to the Table's designer's report: by default its full edition's report is made of over
a thousand games. How a report asks its engine's games or the tool's, and everything else a
report does, is read on the sample game in tests/test_report.py."""
from __future__ import annotations

import pytest

from conftest import ROOT
from generator.load.project import Project
from generator.render import report
from generator.render.report import make_report
from generator.rules import load_rules


GAME = "race-to-the-table"


class _Drawn(Exception):
    """Raised in place of drawing a report: what it would have been drawn with is enough."""


def test_by_default_a_report_of_its_full_edition_is_made_of_over_a_thousand_games(monkeypatch):
    """The games the report of Race to the Table's full edition asks for, at every number of
    seats and of every policy (asked here, and one of each played)."""
    project = Project(ROOT)
    game, problems = project.load_game(GAME)
    assert not problems
    game.rules = load_rules(game.meta["rules"])
    monkeypatch.setattr(report, "_RUNS", {})
    monkeypatch.setattr(report, "_REPORTS", {})
    asked = []
    simulate = report.simulate

    def one_game(*args, games, **kwargs):
        asked.append(games)
        return simulate(*args, games=1, **kwargs)
    monkeypatch.setattr(report, "simulate", one_game)

    def drawn(project, title, runs, figures, words):
        raise _Drawn
    monkeypatch.setattr(report, "_render", drawn)
    with pytest.raises(_Drawn):
        make_report(project, game, "full")
    # each number of seats once: 7 players in teams of 2 play the games of 3 (claims.TeamsPlayAsSeats)
    engine = game.rules.ENGINE
    seats = {len(engine.seating(players, engine.options)) for players in game.rules.SPEC.tables}
    assert len(asked) == len(seats) * len(engine.policies) < len(game.rules.SPEC.tables) * len(engine.policies)
    assert sum(asked) > 1000
