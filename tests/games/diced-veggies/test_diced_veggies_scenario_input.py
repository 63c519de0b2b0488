"""Diced Veggies' scenario fields: a list or mapping where one card or die name is expected is
answered with the game's own located message. (That such input stays bounded in time and memory
is checked on the sample game in tests/test_hostile_bounds.py.)"""
from __future__ import annotations

import pytest

from conftest import ROOT, line_of, pnp


COOK = ROOT / "components" / "diced-veggies" / "scenarios" / "cook.yaml"


@pytest.mark.parametrize("old, new, key, message", [
    ("{player: Аня, cook: recipe-16, dice: ['tomato:6', 'tomato:2', 'carrot:2']}",
     "{player: Аня, cook: [recipe-16], dice: ['tomato:6', 'tomato:2', 'carrot:2']}",
     "steps.1.do.0.cook", "cook is one name, such as recipe-16, not a list"),
    ("{player: Аня, cook: recipe-16, dice: ['tomato:6', 'tomato:2', 'carrot:2']}",
     "{player: Аня, cook: recipe-16, dice: ['tomato:6', 'tomato:2', 'carrot:2'], hype: [hype-05]}",
     "steps.1.do.0.hype", "hype is one name, such as hype-01, not a list"),
    ("{player: Аня, done: true}", "{player: Аня, draw: [recipe]}", "steps.2.do.0.draw",
     "draw is one name, such as hype, not a list"),
    ("{player: Аня, done: true}", "{player: Аня, discard: {hype: hype-05}}", "steps.2.do.0.discard",
     "discard is one name, such as carrot:2, not a mapping"),
    ("      recipes: [recipe-16, recipe-08]", "      recipes: [[recipe-16], recipe-08]", "setup.players.0.recipes.0",
     "a recipe card is one name, such as recipe-01, not a list"),
    ("    - {name: Борис, recipes: [recipe-07], hype: [hype-06]}", "    - {name: Борис, recipes: [recipe-07], hype: [{a: 1}]}",
     "setup.players.1.hype.0", "a hype card is one name, such as hype-01, not a mapping"),
])
def test_a_list_where_one_name_is_expected_is_a_located_error(tmp_path, old, new, key, message):
    scenario = tmp_path / "cook.yaml"
    scenario.write_text(COOK.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    assert new in scenario.read_text(encoding="utf-8")
    result = pnp("play", "diced-veggies", str(scenario))
    assert result.exit_code == 1 and not result.traceback, result.output
    assert f"{scenario}:{line_of(scenario, new.strip())}: {key}: {message}" in result.stderr
