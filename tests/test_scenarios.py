"""The scenario format through `pnp play`: steps carried out in the order written, refusals
and their reasons, who may act, lists compared in any order, broken scenarios failing with
file, line and reason, playing on and recording; played on the sample game's engine
(tests/fixtures/sample/rules/sample_game/engine.py). Every shipped scenario and golden
playthrough of every game is played in test_every_game.py; a game's own setup checks are in
tests/games/<slug>/."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from conftest import SAMPLE, pnp, replace_in
from generator.validate import checks as validate


SLUG = "sample-game"
SCENARIOS = SAMPLE / "components" / SLUG / "scenarios"
RAID = SCENARIOS / "rule-raid.yaml"
END = SCENARIOS / "rule-recruit-and-end.yaml"


def play(path: Path, *args: str):
    return pnp("play", SLUG, str(path), *args, project=SAMPLE)


def _variant(tmp_path, old: str, new: str, source: Path = RAID) -> Path:
    text = source.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / source.name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def _line(path: Path, needle: str, last: bool = True) -> int:
    """The last (or first) line holding needle."""
    lines = [n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line]
    return lines[-1] if last else lines[0]


def _setup(source: Path = END) -> str:
    text = source.read_text(encoding="utf-8")
    return text[text.index("setup:"):text.index("steps:")]


def test_an_illegal_action_exits_1_saying_why(tmp_path):
    path = _variant(tmp_path, "      - {player: Ben, raid: true}", "      - {player: Ben, recruit: true}", END)
    result = play(path)
    assert result.exit_code == 1
    line = _line(path, "{player: Ben, recruit: true}")          # in do:, after illegal:
    assert (f"{path}:{line}: steps.1.do.0: illegal action: the hero deck is empty: there is no one left "
            f"to recruit") in result.stderr
    assert "Traceback" not in result.output


def test_an_action_out_of_turn_exits_1(tmp_path):
    path = _variant(tmp_path, "      - {player: Ana, raid: true}", "      - {player: Ben, raid: true}")
    result = play(path)
    assert result.exit_code == 1
    line = _line(path, "{player: Ben, raid: true}", last=False)
    assert f"{path}:{line}: steps.0.do.0.player: illegal action: it is Ana's turn, not Ben's" in result.stderr


def test_after_the_end_no_action_is_read_and_an_unknown_key_names_the_action_keys(tmp_path):
    path = tmp_path / END.name
    path.write_text(END.read_text(encoding="utf-8") + "  - do:\n      - {player: Ana, raid: true}\n", encoding="utf-8")
    result = play(path)
    steps = len(yaml.safe_load(path.read_text(encoding="utf-8"))["steps"])
    assert result.exit_code == 1
    assert (f"{path}:{_line(path, '{player: Ana, raid: true}')}: steps.{steps - 1}.do.0: this game is already over"
            in result.stderr)
    path.write_text(END.read_text(encoding="utf-8").replace("steps:\n", "steps:\n  - do:\n      - {colour: red}\n", 1),
                    encoding="utf-8")
    result = play(path)
    assert result.exit_code == 1
    assert (f"{path}:{_line(path, 'colour')}: steps.0.do.0.colour: unknown key 'colour' "
            f"(action keys: player, raid, recruit)") in result.stderr


def test_a_player_named_in_an_action_is_any_player_and_may_be_left_out(tmp_path):
    path = _variant(tmp_path, "      - {player: Ana, raid: true}", "      - {raid: true}")
    result = play(path)
    assert result.exit_code == 0, result.output           # the player whose turn it is acts
    path = _variant(tmp_path, "      - {player: Ana, raid: true}", "      - {player: Cid, raid: true}")
    result = play(path)
    assert result.exit_code == 1
    line = _line(path, "Cid")
    assert f"{path}:{line}: steps.0.do.0.player: no player 'Cid' (players: Ana, Ben)" in result.stderr


def test_a_steps_parts_are_carried_out_in_the_order_written(tmp_path):
    """`illegal` before `do` is checked in the position the step starts from, after `do` once
    the actions are applied: recruiting is refused once Ana took the last hero."""
    refused = "    illegal:\n      - {recruit: true}\n"
    recruited = "    do:\n      - {player: Ana, recruit: true}\n"
    expected = "    expect: {deck: [], current: Ben}\n"
    path = tmp_path / "order.yaml"
    path.write_text(_setup() + "steps:\n  -" + (recruited + refused)[3:] + expected, encoding="utf-8")
    result = play(path)
    assert result.exit_code == 0, result.output
    path.write_text(_setup() + "steps:\n  -" + (refused + recruited)[3:] + expected, encoding="utf-8")
    result = play(path)
    assert result.exit_code == 1
    assert result.stderr == (f"{path}:{_line(path, '{recruit: true}')}: steps.0.illegal.0: expected to be refused, "
                             f"but ('recruit',) is legal here\n1 problem(s) found.\n")


def test_a_refusal_for_another_reason_than_the_one_given_fails(tmp_path):
    """Before Ana recruits, Ben's actions are refused only because it is not his turn;
    `because` tells that apart from the empty deck."""
    recruited = "    do:\n      - {player: Ana, recruit: true}\n"
    refused = ("    illegal:\n      - {player: Ben, recruit: true, because: the hero deck is empty}\n"
               "      - {raid: true, because: the hero deck is empty}\n")
    path = tmp_path / "because.yaml"
    path.write_text(_setup() + "steps:\n  -" + (recruited + refused)[3:], encoding="utf-8")
    result = play(path)
    assert result.exit_code == 1                      # Ben may raid: that is legal, not refused
    assert (f"{path}:{_line(path, 'raid: true, because')}: steps.0.illegal.1: expected to be refused, but ('raid',) "
            f"is legal here") in result.stderr
    assert "illegal.0" not in result.stderr            # the recruit is refused for the reason given
    refused = refused.replace("{raid: true", "{player: Ben, raid: true")
    path.write_text(_setup() + "steps:\n  -" + (refused + recruited)[3:], encoding="utf-8")
    result = play(path)
    assert result.exit_code == 1
    line = _line(path, "recruit: true, because")
    assert (f"{path}:{line}: steps.0.illegal.0.because: refused, but because it is Ana's turn, not Ben's"
            in result.stderr)
    assert f"{path}:{line + 1}: steps.0.illegal.1.because: refused, but because it is Ana's turn, not Ben's" \
        in result.stderr
    assert result.stderr.count("problem") == 1 and "2 problem(s) found" in result.stderr


def test_an_action_out_of_turn_can_be_written_as_illegal(tmp_path):
    setup, first, second = "setup:\n  players: [Ana, Ben]\n", "{player: Ana, recruit: true}", "{player: Ben, raid: true}"
    reason = "it is Ana's turn, not Ben's"
    path = tmp_path / "turns.yaml"

    def write(because: str) -> None:
        path.write_text(f'{setup}steps:\n  - illegal:\n      - {second[:-1]}, because: "{because}"}}\n'
                        f"    do: [{first}]\n", encoding="utf-8")

    write(reason)
    result = play(path)
    assert result.exit_code == 0, result.output
    write("it is Ben's turn")
    result = play(path)
    assert result.exit_code == 1
    assert f"{path}:{_line(path, 'because')}: steps.0.illegal.0.because: refused, but because {reason}" in result.stderr
    # Once it is that player's turn, the same action is legal: listing it as illegal fails.
    write(reason)
    path.write_text(path.read_text(encoding="utf-8") + f"  - illegal:\n      - {second}\n", encoding="utf-8")
    result = play(path)
    assert result.exit_code == 1
    assert f"{path}:{_line(path, second)}: steps.1.illegal.0: expected to be refused, but" in result.stderr


def test_an_unmet_expectation_exits_1_naming_the_key(tmp_path):
    path = _variant(tmp_path, "{purse: [coins-silver-one-1], worth: 1}", "{purse: [coins-silver-one-1], worth: 2}")
    result = play(path)
    assert result.exit_code == 1
    line = _line(path, "worth: 2")
    assert f"{path}:{line}: steps.0.expect.seats.Ana.worth: expected 2, the state has 1" in result.stderr


def test_a_legal_action_listed_as_illegal_exits_1(tmp_path):
    path = _variant(tmp_path, """      - {player: Ana, raid: true, because: "it is Ben's turn"}""",
                    "      - {player: Ben, raid: true}")
    result = play(path)
    assert result.exit_code == 1
    line = _line(path, "{player: Ben, raid: true}", last=False)
    assert f"{path}:{line}: steps.1.illegal.0: expected to be refused, but ('raid',) is legal here" in result.stderr


@pytest.mark.parametrize("old,new,message", [
    ("  round: 8", "  round: 9", "setup.round: round is a whole number from 1 to 8"),
    ("  round: 8", "  round: 8\n  current: Cid", "setup.current: no player 'Cid' (players: Ana, Ben)"),
    ("heroes: [archer], purse", "heroes: [archer, archer, archer], purse",
     "setup.players.1.heroes.2: more 'archer' cards than the 3 of the box"),
    ("purse: [coins-gold-five-1, coins-silver-one-1]", "purse: [coins-gold-five-1, coins-thief-1]",
     "setup.players.1.purse.1: a thief is never kept in a purse (coins-thief-1)"),
    ("  pile: [coins-gold-one-1]", "  pile: [coins-gold-one-1, coins-gold-one-1]",
     "setup.pile.1: coin 'coins-gold-one-1' is listed twice"),
    ("  round: 8", "  rounds: 8", "setup.rounds: unknown key 'rounds'"),
    ("  round: 8", "  round: 8\n  edition: deluxe", "setup.edition: no edition 'deluxe'"),
])
def test_a_setup_that_does_not_fit_exits_1_located(tmp_path, old, new, message):
    path = _variant(tmp_path, old, new, END)
    result = play(path)
    assert result.exit_code == 1
    assert f"{path}:{_line(path, new.split()[-1])}: {message}" in result.stderr, result.stderr


def test_play_on_with_a_policy_reaches_the_end(tmp_path):
    path = tmp_path / "seeded.yaml"
    path.write_text("setup: {players: 4, seed: 11}\n", encoding="utf-8")
    result = play(path, "--policy", "heuristic")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["terminal"] is True
    assert play(path, "--policy", "clever").exit_code == 2


def _limited_to(folder: Path, actions: int) -> Path:
    """A copy of the sample project whose engine allows a game `actions` actions."""
    project = folder / f"limited-{actions}"
    shutil.copytree(SAMPLE, project)
    replace_in(project / "rules" / "sample_game" / "engine.py", "    max_actions = 4 * 20 ",
               f"    max_actions = {actions} ")
    return project


def test_play_on_may_end_the_game_on_its_last_allowed_action(tmp_path, monkeypatch):
    path = tmp_path / "seeded.yaml"
    path.write_text("setup: {players: 3, seed: 5}\n", encoding="utf-8")
    record = tmp_path / "recorded.yaml"
    result = play(path, "--policy", "random", "--record", str(record))
    assert result.exit_code == 0, result.output
    length = len(yaml.safe_load(record.read_text(encoding="utf-8"))["steps"][0]["do"])
    monkeypatch.setattr(validate, "PLAY_CHECK_SEEDS", ())      # the seeded games validation plays are longer
    result = pnp("play", SLUG, str(path), "--policy", "random", project=_limited_to(tmp_path, length))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["terminal"] is True
    result = pnp("play", SLUG, str(path), "--policy", "random", project=_limited_to(tmp_path, length - 1))
    assert result.exit_code == 1 and f"no end after {length - 1} actions" in result.stderr


# Ben's purse once his thief stole Ana's coin: the stolen coin is second.
PURSE = "Ben: {purse: [coins-gold-five-1, coins-silver-one-1, coins-gold-one-1], worth: 7}"


def test_lists_named_unordered_are_compared_in_any_order(tmp_path):
    shuffled = "Ben: {purse: [coins-gold-one-1, coins-gold-five-1, coins-silver-one-1], worth: 7}"
    unordered = "unordered: [seats.*.purse]\n"
    (tmp_path / "source").mkdir()
    source = tmp_path / "source" / RAID.name
    source.write_text(unordered + RAID.read_text(encoding="utf-8").replace(PURSE, shuffled), encoding="utf-8")
    assert play(source).exit_code == 0
    # In order, the purse differs.
    path = _variant(tmp_path, unordered, "", source)
    result = play(path)
    assert result.exit_code == 1
    assert (f"{path}:{_line(path, 'Ben: {purse')}: steps.1.expect.seats.Ben.purse.0: expected 'coins-gold-one-1', "
            f"the state has 'coins-gold-five-1'") in result.stderr
    # In any order, but the same coins as many times each.
    path = _variant(tmp_path, shuffled, shuffled.replace("coins-gold-one-1", "coins-silver-five-1"), source)
    result = play(path)
    assert result.exit_code == 1
    assert (f"{path}:{_line(path, 'Ben: {purse')}: steps.1.expect.seats.Ben.purse: expected "
            f"['coins-silver-five-1', 'coins-gold-five-1', 'coins-silver-one-1'] in any order, the state has "
            f"['coins-gold-five-1', 'coins-silver-one-1', 'coins-gold-one-1']") in result.stderr
    # A path that names no list is an error rather than a comparison quietly in order.
    path = _variant(tmp_path, unordered, "unordered: [seats.*.purse, seat.*.purse]\n", source)
    result = play(path)
    assert result.exit_code == 1
    assert result.stderr == (f"{path}:1: unordered.1: seat.*.purse names no list that a step expects\n"
                             "1 problem(s) found.\n")


BASE = "setup:\n  players:\n    - {name: Ana}\n    - {name: Ben}\n"


@pytest.mark.parametrize("text,line,message", [
    ("unordered: seats.*.purse\nsteps: []\n", 5, "unordered: unordered is a list of key paths such as seats.*.hand"),
    ("unordered: [seats..purse]\nsteps: []\n", 5,
     "unordered.0: a key path is keys joined by dots, such as seats.*.hand, not 'seats..purse'"),
    ("steps:\n  - do: {player: Ana, raid: true}\n", 6, "steps.0.do: do is a list of actions"),
    ("steps:\n  - expect: 5\n", 6, "steps.0.expect: expect is a mapping of what the state must hold"),
    ("steps:\n  - illegal:\n      - {player: Ana, raid: true, because: 5}\n", 7,
     "steps.0.illegal.0.because: because is the text the reason for the refusal must contain"),
    ("steps:\n  - do:\n      - {player: Ana, raid: true, because: fine}\n", 7,
     "steps.0.do.0.because: unknown key 'because' (action keys: player, raid, recruit)"),
    ("steps:\n  - expected: {turns: 1}\n", 6, "steps.0.expected: unknown key 'expected' (step keys: note, illegal, do, expect)"),
    ("steps:\n  - do:\n      - [Ana, raid]\n", 7,
     "steps.0.do.0: an action is a mapping such as {player: Ana, raid: true} or {recruit: true}"),
    ("steps:\n  - illegal:\n      - {player: [Ana], raid: true}\n", 7, "steps.0.illegal.0.player: no player '['Ana']'"),
])
def test_bad_scenario_input_is_a_located_error(tmp_path, text, line, message):
    path = tmp_path / "bad.yaml"
    path.write_text(BASE + text, encoding="utf-8")
    result = play(path)
    assert result.exit_code == 1, result.output
    assert f"{path}:{line}: {message}" in result.stderr
    assert not result.traceback


@pytest.mark.parametrize("setup,message", [
    ("setup:\n  players: 1000000000\n", "2: setup.players: sample-game is for 2-4 players, not 1000000000"),
    ("setup:\n  players: [{name: Ana, heroes: {knight: 1}}, Ben]\n",
     "2: setup.players.0.heroes: a list of hero ids is expected"),
    ("setup:\n  players:\n    - {name: Ana, purse: [[coins-gold-five-1]]}\n    - Ben\n",
     "3: setup.players.0.purse.0: no coin ['coins-gold-five-1'] in the box"),
])
def test_a_setup_of_the_wrong_shape_is_a_located_error(tmp_path, setup, message):
    path = tmp_path / "bad.yaml"
    path.write_text(setup, encoding="utf-8")
    result = play(path)
    assert result.exit_code == 1, result.output
    assert f"{path}:{message}" in result.stderr
    assert not result.traceback
