"""Pegs and Jokers' scenario fields: a list where one card is expected is a located error naming
the card. (That such input stays bounded in time and memory is checked on the sample game in
tests/test_hostile_bounds.py.)"""
from __future__ import annotations

from conftest import ROOT, line_of, pnp


def test_a_list_where_one_card_is_expected_is_a_located_error(tmp_path):
    text = (ROOT / "components" / "pegs-and-jokers" / "scenarios" / "card-ace.yaml").read_text(encoding="utf-8")
    play = next(line for line in text.splitlines() if "play: A" in line)
    scenario = tmp_path / "ace.yaml"
    scenario.write_text(text.replace(play, play.replace("play: A", "play: [A]"), 1), encoding="utf-8")
    result = pnp("play", "pegs-and-jokers", str(scenario))
    assert result.exit_code == 1 and not result.traceback, result.output
    assert f"{scenario}:{line_of(scenario, 'play: [A]')}: " in result.stderr and ".play: no card ['A']" in result.stderr
