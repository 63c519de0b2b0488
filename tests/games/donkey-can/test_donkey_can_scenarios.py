"""The Donkey Can!'s scenario setups are held to its box: cargo cards of the seated colours and
its donkeys; a refusal names this game's reason. (The scenario format itself is checked on the
sample game in tests/test_scenarios.py.)"""
from __future__ import annotations

import pytest

from conftest import ROOT, line_of, pnp


SLUG = "donkey-can"
SCENARIOS = ROOT / "components" / SLUG / "scenarios"


@pytest.mark.parametrize("setup,message", [
    ("setup:\n  players:\n    - {name: Оля, hand: [[1]]}\n    - Петро\n",
     "3: setup.players.0.hand.0: no cargo card '[1]' among the seated colours"),
    ("setup:\n  players: [Оля, Петро]\n  donkeys: [[donkey-sirko]]\n", "3: setup.donkeys.0: no donkey '['donkey-sirko']'"),
])
def test_a_setup_of_the_wrong_shape_is_a_located_error(tmp_path, setup, message):
    path = tmp_path / "bad.yaml"
    path.write_text(setup, encoding="utf-8")
    result = pnp("play", SLUG, str(path))
    assert result.exit_code == 1, result.output
    assert f"{path}:{message}" in result.stderr
    assert not result.traceback


def test_advantages_wait_until_the_cargo_is_down(tmp_path):
    """Before the cargo cards are down, Упертюх's advantages are refused because a cargo card
    must be played first, not for the contract the shipped scenario names."""
    source = SCENARIOS / "donkey-effects.yaml"
    cargo = """    do:
      - {player: Оля, cargo: 1}
      - {player: Петро, cargo: 1}
      - {player: Ганна, cargo: 1}
"""
    refused = """    illegal:
      - {player: Оля, advantage: carrot, because: Оля must accept or refuse the contract now}
      - {player: Оля, pass: true, because: Оля must accept or refuse the contract now}
"""
    text = source.read_text(encoding="utf-8")
    assert cargo + refused in text
    path = tmp_path / source.name
    path.write_text(text.replace(cargo + refused, refused + cargo), encoding="utf-8")
    result = pnp("play", SLUG, str(path))
    assert result.exit_code == 1
    line = line_of(path, "advantage: carrot, because")
    assert (f"{path}:{line}: steps.0.illegal.0.because: refused, but because Оля must play a cargo card now, "
            f"not ('advantage', 0, 'cargo-red-1', None)") in result.stderr
