"""The Game's scenario setups: a hand is a list of card numbers. (The scenario format itself is
checked on the sample game in tests/test_scenarios.py.)"""
from __future__ import annotations

from conftest import pnp


def test_a_hand_of_the_wrong_shape_is_a_located_error(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("setup:\n  players: [{name: Ana, hand: {up: 1}}]\n", encoding="utf-8")
    result = pnp("play", "the-game", str(path))
    assert result.exit_code == 1, result.output
    assert f"{path}:2: setup.players.0.hand: a list of card numbers is expected" in result.stderr
    assert not result.traceback
