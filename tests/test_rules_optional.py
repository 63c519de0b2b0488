"""A game without a rules module: everything else is checked and built, and the counts its
game.yaml `needs` declares (per edition: a card's copies, a deck's cards, what a game of N
players takes) are held, each broken one named at its file, line and key."""
from __future__ import annotations

import re
import shutil

from conftest import SAMPLE, line_of, pnp


NEEDS = """needs:
  standard:
    cards: {knight: 5, archer: 3, archr: 1}
    decks: {coins: 11, heroes: 7}
    dic: {sun: 3}
    dice: {sun: 3, mon: 2}
    players:
      4: {decks: {heroes: 8}, dice: {sun: 1}}
      5: {dice: {sun: 1}}
  deluxe:
    cards: {knight: 1}
"""


def yaml_only(tmp_path, needs: str = ""):
    """A copy of the sample project whose game names no rules module (nor the figures only a
    rules engine reports), with `needs` appended to its game.yaml."""
    project = tmp_path / "sample"
    shutil.copytree(SAMPLE, project, ignore=shutil.ignore_patterns("rules"))
    game = project / "components" / "sample-game" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^rules: .*\n", "", text)
    text = text[:text.index("# What the designer's report")]
    game.write_text(text + needs, encoding="utf-8")
    return project, game


def test_a_game_without_rules_validates_with_one_note(tmp_path):
    project, _ = yaml_only(tmp_path)
    result = pnp("validate", project=project)
    assert result.exit_code == 0, result.output + result.traceback
    assert result.stdout.strip() == "ok: sample-game"
    assert result.stderr.count("note: no rules module checks this game's counts") == 1, result.stderr


def test_the_counts_game_yaml_needs_are_held_and_each_broken_one_located(tmp_path):
    project, game = yaml_only(tmp_path, NEEDS)
    cards = project / "components" / "sample-game" / "cards.yaml"
    result = pnp("validate", project=project)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    here = lambda needle: line_of(game, needle, start="needs:")      # noqa: E731
    expected = [
        f"components/sample-game/cards.yaml:{line_of(cards, 'knight:')}: cards.knight.count.standard: "
        f"rules need 5, data says 4",
        f"components/sample-game/cards.yaml:{line_of(cards, '  coins:')}: decks.coins: "
        f"rules need 11 cards in edition 'standard', data says 10",
        f"components/sample-game/game.yaml:{here('archr')}: needs.standard.cards.archr: "
        f"no card 'archr' in cards.yaml, did you mean 'archer'?",
        f"components/sample-game/game.yaml:{here('dic:')}: needs.standard.dic: no kind 'dic', did you mean 'dice'?",
        f"components/sample-game/game.yaml:{here('mon:')}: needs.standard.dice.mon: "
        f"no die 'mon' in dice.yaml, did you mean 'moon'?",
        f"components/sample-game/game.yaml:{here('4:')}: needs.standard.players.4.decks.heroes: "
        f"a 4-player game of edition 'standard' needs 8, data has 7",
        f"components/sample-game/game.yaml:{here('5:')}: needs.standard.players.5: "
        f"the game seats 2 to 4 players, not 5",
        f"components/sample-game/game.yaml:{here('deluxe:')}: needs.deluxe: unknown edition 'deluxe' "
        f"(editions: standard)",
    ]
    for message in expected:
        assert message in result.stderr, f"{message}\n---\n{result.stderr}"
    # the counts that agree say nothing: archer 3, heroes 7, sun 3, a 4-player game's die
    assert ": cards.archer.count" not in result.stderr and ": decks.heroes:" not in result.stderr
    assert ": dice.sun" not in result.stderr and "players.4.dice" not in result.stderr
    assert f"{len(expected)} problem(s) found." in result.stderr


def test_a_game_without_rules_builds_every_file_but_the_report(tmp_path):
    project, _ = yaml_only(tmp_path)
    out = tmp_path / "out"
    result = pnp("build", "--paper", "a4", "--kind", "cards,dice,report", "--out", str(out), project=project)
    assert result.exit_code == 0, result.output + result.traceback
    kit = out / "sample-game" / "standard" / "en"
    built = {path.name.removeprefix("sample-game-standard-en-") for path in kit.iterdir()}
    assert {"cards-a4.pdf", "dice-a4.pdf"} <= built and not any("report" in name for name in built), built


def test_needs_for_a_table_the_game_does_not_seat_is_named(tmp_path):
    project, game = yaml_only(tmp_path, "needs:\n  standard:\n    players:\n      3: {dice: {sun: 1}}\n")
    text = game.read_text(encoding="utf-8").replace("players: {min: 2, max: 4}", "players: {min: 2, max: 4, counts: [2, 4]}")
    game.write_text(text, encoding="utf-8")
    result = pnp("validate", project=project)
    assert result.exit_code == 1 and not result.traceback, result.output + result.traceback
    assert f"game.yaml:{line_of(game, '3: {dice')}: needs.standard.players.3: the game seats 2 or 4 players, not 3" \
        in result.stderr, result.stderr
