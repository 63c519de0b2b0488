"""The scenario format through `pnp play`: steps carried out in the order written, refusals
and their reasons, who may act, lists compared in any order, broken scenarios failing with
file, line and reason, playing on and recording. Every shipped scenario and golden
playthrough of every game is played in test_every_game.py."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, pnp
from generator.app.loading import load_games
from generator.load.project import Project
from generator.validate import checks as validate


SLUG = "race-to-the-table"
SCENARIOS = ROOT / "components" / SLUG / "scenarios"
EXAMPLE = SCENARIOS / "example-end-of-a-game.yaml"


def test_every_example_and_faq_answer_has_a_scenario():
    names = {p.stem for p in SCENARIOS.glob("*.yaml")}
    assert {"example-long-queue", "example-end-of-a-game"} <= names
    faq = [n for n in names if n.startswith("faq-")]
    # The seed's FAQ has eight rules answers (the ninth is about printing).
    assert len(faq) >= 8


def test_worked_example_two_ends_with_pizza_at_the_table():
    state = json.loads(pnp("play", SLUG, str(EXAMPLE)).stdout)
    assert state["terminal"] and state["winning_pawn"] == "Пица" and state["ended_by"] == "table"
    assert {name: seat["position"] for name, seat in state["seats"].items()} == \
        {"Дядо Иван": 11, "Мария": 16, "Ники": 12}


def _variant(tmp_path, old: str, new: str, source: Path = EXAMPLE) -> Path:
    text = source.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / source.name
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def _line(path: Path, needle: str, last: bool = True) -> int:
    """The last (or first) line holding needle."""
    lines = [n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line]
    return lines[-1] if last else lines[0]


def test_an_illegal_action_exits_1_saying_why(tmp_path):
    path = _variant(tmp_path, "      - {player: Ники, role: gossip}", "      - {player: Ники, play: long-queue, pawns: [Пица]}")
    result = pnp("play", SLUG, str(path))
    assert result.exit_code == 1
    line = _line(path, "{player: Ники, play: long-queue, pawns: [Пица]}")       # in do:, after illegal:
    assert (f"{path}:{line}: steps.2.do.0: illegal action: long-queue cannot take Пица: Пица is protected "
            f"by the Chef until Мария's next turn") in result.stderr
    assert "Traceback" not in result.output


def test_an_action_out_of_turn_exits_1(tmp_path):
    path = _variant(tmp_path, "{player: Мария, role: chef}", "{player: Ники, role: gossip}")
    result = pnp("play", SLUG, str(path))
    assert result.exit_code == 1
    line = _line(path, "{player: Ники, role: gossip}", last=False)
    assert f"{path}:{line}: steps.1.do.0.player: illegal action: it is Мария's turn, not Ники's" in result.stderr


# Each game's scenario that ends the game, and one of its actions.
ENDINGS = {
    "race-to-the-table": ("example-end-of-a-game.yaml", "{player: Ники, play: quick, pawns: [Супа]}",
                          "action keys: pawns, play, player, role"),
    "the-game": ("end-lost.yaml", "{player: Ana, end: true}", "action keys: end, pile, play, player"),
    "donkey-can": ("end-most-cards.yaml", "{player: Оля, cargo: 5}",
                   "action keys: advantage, cargo, contract, pass, player, target"),
}


@pytest.mark.parametrize("slug", sorted(ENDINGS))
def test_every_game_reads_the_opening_of_an_action_alike(tmp_path, slug):
    """After the end no action is read; an unknown key names the game's action keys."""
    name, action, keys = ENDINGS[slug]
    source = ROOT / "components" / slug / "scenarios" / name
    path = tmp_path / name
    path.write_text(source.read_text(encoding="utf-8") + f"  - do:\n      - {action}\n", encoding="utf-8")
    result = pnp("play", slug, str(path))
    steps = len(yaml.safe_load(path.read_text(encoding="utf-8"))["steps"])
    assert result.exit_code == 1
    assert f"{path}:{_line(path, action)}: steps.{steps - 1}.do.0: this game is already over" in result.stderr
    path.write_text(source.read_text(encoding="utf-8").replace("steps:\n", "steps:\n  - do:\n      - {colour: red}\n", 1),
                    encoding="utf-8")
    result = pnp("play", slug, str(path))
    assert result.exit_code == 1
    assert f"steps.0.do.0.colour: unknown key 'colour' ({keys})" in result.stderr


DONKEY = ROOT / "components" / "donkey-can" / "scenarios"
THE_GAME = ROOT / "components" / "the-game" / "scenarios"


def test_a_player_named_in_an_action_is_any_player_and_may_be_left_out(tmp_path):
    source = DONKEY / "round-not-overloaded.yaml"
    path = _variant(tmp_path, "      - {player: Петро, cargo: 3}", "      - {cargo: 3}", source)
    result = pnp("play", "donkey-can", str(path))
    assert result.exit_code == 0, result.output           # the player whose turn it is acts
    path = _variant(tmp_path, "      - {player: Оля, cargo: 7}", "      - {player: Петро, cargo: 3}", source)
    result = pnp("play", "donkey-can", str(path))
    assert result.exit_code == 1
    line = _line(path, "{player: Петро, cargo: 3}", last=False)
    assert f"{path}:{line}: steps.0.do.0.player: illegal action: it is Оля's turn, not Петро's" in result.stderr
    path = _variant(tmp_path, "      - {player: Оля, cargo: 7}", "      - {player: Оксана, cargo: 7}", source)
    result = pnp("play", "donkey-can", str(path))
    assert result.exit_code == 1
    line = _line(path, "Оксана")
    assert f"{path}:{line}: steps.0.do.0.player: no player 'Оксана' (players: Оля, Петро, Ганна)" in result.stderr


def test_a_steps_parts_are_carried_out_in_the_order_written(tmp_path):
    """`illegal` before `do` is checked in the position the step starts from, after `do` once
    the actions are applied: ending the turn after two cards is legal."""
    setup = ("setup:\n  players:\n    - {name: Ana, hand: [10, 20, 30, 40, 50, 60, 70]}\n"
             "    - {name: Ben, hand: [11, 21, 31, 41, 51, 61, 71]}\nsteps:\n")
    refused = "    illegal:\n      - {player: Ana, end: true}\n"
    played = "    do:\n      - {player: Ana, play: 10, pile: up-1}\n      - {player: Ana, play: 20, pile: up-1}\n"
    expected = "    expect: {played_this_turn: 2}\n"
    path = tmp_path / "order.yaml"
    path.write_text(setup + "  -" + (refused + played)[3:] + expected, encoding="utf-8")
    result = pnp("play", "the-game", str(path))
    assert result.exit_code == 0, result.output
    path.write_text(setup + "  -" + (played + refused)[3:] + expected, encoding="utf-8")
    result = pnp("play", "the-game", str(path))
    assert result.exit_code == 1
    assert result.stderr == (f"{path}:{_line(path, 'end: true')}: steps.0.illegal.0: expected to be refused, "
                             f"but ('end',) is legal here\n1 problem(s) found.\n")


def test_a_refusal_for_another_reason_than_the_one_given_fails(tmp_path):
    """In the old order (illegal first) the donkey Упертюх's advantages were refused only
    because the cargo was not down yet; `because` tells the two apart."""
    source = DONKEY / "donkey-effects.yaml"
    cargo = """    do:
      - {player: Оля, cargo: 1}
      - {player: Петро, cargo: 1}
      - {player: Ганна, cargo: 1}
"""
    refused = """    illegal:
      - {player: Оля, advantage: carrot, because: Оля must accept or refuse the contract now}
      - {player: Оля, pass: true, because: Оля must accept or refuse the contract now}
"""
    assert cargo + refused in source.read_text(encoding="utf-8")
    path = _variant(tmp_path, cargo + refused, refused + cargo, source)
    result = pnp("play", "donkey-can", str(path))
    assert result.exit_code == 1
    line = _line(path, "advantage: carrot, because")
    assert (f"{path}:{line}: steps.0.illegal.0.because: refused, but because Оля must play a cargo card now, "
            f"not ('advantage', 0, 'cargo-red-1', None)") in result.stderr
    assert f"{path}:{line + 1}: steps.0.illegal.1.because: refused, but because Оля must play a cargo card now" \
        in result.stderr
    assert result.stderr.count("problem") == 1 and "2 problem(s) found" in result.stderr


# Per game: a position, the first player's action, and the second player's action that is legal
# once it is their turn.
OUT_OF_TURN = {
    "race-to-the-table": ("""setup:
  edition: free
  players:
    - {name: Ана, hand: [quick, quick, quick]}
    - {name: Боби, hand: [quick, quick, quick]}
""", "{player: Ана, play: quick, pawns: [Боби]}", "{player: Боби, play: quick, pawns: [Ана]}", "Ана", "Боби"),
    "the-game": ("""setup:
  players:
    - {name: Ana, hand: [10, 20, 30, 40, 50, 60, 70]}
    - {name: Ben, hand: [11, 21, 31, 41, 51, 61, 71]}
""", "{player: Ana, play: 10, pile: up-1}, {player: Ana, play: 20, pile: up-1}, {player: Ana, end: true}",
                 "{player: Ben, play: 11, pile: up-2}", "Ana", "Ben"),
    "donkey-can": ("""setup:
  players: [Оля, Петро]
  donkeys: [donkey-sirko]
""", "{player: Оля, cargo: 7}", "{player: Петро, cargo: 3}", "Оля", "Петро"),
}


@pytest.mark.parametrize("slug", sorted(OUT_OF_TURN))
def test_an_action_out_of_turn_can_be_written_as_illegal_in_every_game(tmp_path, slug):
    setup, first, second, first_name, second_name = OUT_OF_TURN[slug]
    reason = f"it is {first_name}'s turn, not {second_name}'s"
    path = tmp_path / "turns.yaml"

    def write(because: str) -> None:
        path.write_text(f'{setup}steps:\n  - illegal:\n      - {second[:-1]}, because: "{because}"}}\n'
                        f"    do: [{first}]\n", encoding="utf-8")

    write(reason)
    result = pnp("play", slug, str(path))
    assert result.exit_code == 0, result.output
    write(f"it is {second_name}'s turn")
    result = pnp("play", slug, str(path))
    assert result.exit_code == 1
    assert f"{path}:{_line(path, 'because')}: steps.0.illegal.0.because: refused, but because {reason}" in result.stderr
    # Once it is that player's turn, the same action is legal: listing it as illegal fails.
    path.write_text(path.read_text(encoding="utf-8") + f"  - illegal:\n      - {second}\n", encoding="utf-8")
    write(reason)
    path.write_text(path.read_text(encoding="utf-8") + f"  - illegal:\n      - {second}\n", encoding="utf-8")
    result = pnp("play", slug, str(path))
    assert result.exit_code == 1
    assert f"{path}:{_line(path, second)}: steps.1.illegal.0: expected to be refused, but" in result.stderr


def test_an_unmet_expectation_exits_1_naming_the_key(tmp_path):
    path = _variant(tmp_path, "Дядо Иван: {position: 11}", "Дядо Иван: {position: 12}")
    result = pnp("play", SLUG, str(path))
    assert result.exit_code == 1
    line = _line(path, "Дядо Иван: {position: 12}")
    assert f"{path}:{line}: steps.3.expect.seats.Дядо Иван.position: expected 12, the state has 11" in result.stderr


def test_a_legal_action_listed_as_illegal_exits_1(tmp_path):
    path = _variant(tmp_path, "      - {player: Ники, play: road-works, pawns: [Пица], because: Пица is protected by the Chef}",
                    "      - {player: Ники, play: long-queue, pawns: [Супа]}")
    result = pnp("play", SLUG, str(path))
    assert result.exit_code == 1
    line = _line(path, "{player: Ники, play: long-queue, pawns: [Супа]}")
    assert (f"{path}:{line}: steps.2.illegal.1: expected to be refused, but ('play', 'long-queue', 0) is legal here"
            in result.stderr)


@pytest.mark.parametrize("old,new,message", [
    ("  clock: 12", "  clock: 15", "setup.clock: the clock marker is on field 1 to 14"),
    ("role: chef, hand", "role: accountant, hand", "setup.players.1.role: the accountant is already Дядо Иван's"),
    ("hand: [quick, smells-good, swap]", "hand: [quick, smells-good]", "setup.players.1.hand: a hand holds 3 cards"),
    ("hand: [quick, smells-good, swap]", "hand: [quick, smells-good, pizza]",
     "setup.players.1.hand.2: no action card 'pizza' in edition 'full'"),
    ("  clock: 12", "  clocks: 12", "setup.clocks: unknown key 'clocks'"),
    ("edition: full", "edition: deluxe", "setup.edition: no edition 'deluxe'"),
])
def test_a_setup_that_does_not_fit_exits_1_located(tmp_path, old, new, message):
    path = _variant(tmp_path, old, new)
    result = pnp("play", SLUG, str(path))
    assert result.exit_code == 1
    assert message in result.stderr, result.stderr
    assert f"{path}:" in result.stderr


def test_more_copies_than_the_edition_has_are_refused(tmp_path):
    path = tmp_path / "too-many.yaml"
    path.write_text("setup:\n  edition: free\n  players:\n    - {name: A, hand: [friday, quick, quick]}\n"
                    "    - B\n", encoding="utf-8")
    result = pnp("play", SLUG, str(path))
    assert result.exit_code == 1 and "setup.players.0.hand.0: no action card 'friday' in edition 'free'" in result.stderr
    path.write_text("setup:\n  edition: free\n  players: [A, B]\n  discard: [closed, closed, closed, closed]\n",
                    encoding="utf-8")
    result = pnp("play", SLUG, str(path))
    assert result.exit_code == 1 and "more 'closed' cards than the 3 of edition 'free'" in result.stderr


def test_play_on_with_a_policy_reaches_the_end(tmp_path):
    path = tmp_path / "seeded.yaml"
    path.write_text("setup: {edition: full, players: 5, seed: 11}\n", encoding="utf-8")
    result = pnp("play", SLUG, str(path), "--policy", "greedy")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["terminal"] is True
    assert pnp("play", SLUG, str(path), "--policy", "clever").exit_code == 2


def test_play_on_may_end_the_game_on_its_last_allowed_action(tmp_path, monkeypatch):
    path = tmp_path / "seeded.yaml"
    path.write_text("setup: {edition: free, players: 3, seed: 5}\n", encoding="utf-8")
    record = tmp_path / "recorded.yaml"
    result = pnp("play", SLUG, str(path), "--policy", "random", "--record", str(record))
    assert result.exit_code == 0, result.output
    length = len(yaml.safe_load(record.read_text(encoding="utf-8"))["steps"][0]["do"])
    engine = load_games(Project(ROOT), SLUG)[0].rules.ENGINE
    monkeypatch.setattr(validate, "PLAY_CHECK_SEEDS", ())      # the seeded games validation plays are longer
    monkeypatch.setattr(engine, "max_actions", length)
    result = pnp("play", SLUG, str(path), "--policy", "random")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["terminal"] is True
    monkeypatch.setattr(engine, "max_actions", length - 1)
    result = pnp("play", SLUG, str(path), "--policy", "random")
    assert result.exit_code == 1 and f"no end after {length - 1} actions" in result.stderr


def test_lists_named_unordered_are_compared_in_any_order(tmp_path):
    source = DONKEY / "advantages.yaml"
    assert pnp("play", "donkey-can", str(source)).exit_code == 0
    hand = "hand: [cargo-green-0, cargo-green-1"
    # In order, the hand the swap changed differs: the 0 went to the end of it.
    path = _variant(tmp_path, "unordered: [seats.*.hand]\n", "", source)
    result = pnp("play", "donkey-can", str(path))
    assert result.exit_code == 1
    assert (f"{path}:{_line(path, hand)}: steps.1.expect.seats.Ганна.hand.0: expected 'cargo-green-0', "
            f"the state has 'cargo-green-1'") in result.stderr
    # In any order, but the same cards as many times each.
    path = _variant(tmp_path, hand, "hand: [cargo-green-4, cargo-green-1", source)
    result = pnp("play", "donkey-can", str(path))
    assert result.exit_code == 1
    assert (f"{path}:{_line(path, 'hand: [cargo-green-4')}: steps.1.expect.seats.Ганна.hand: expected "
            f"['cargo-green-4', 'cargo-green-1', 'cargo-green-2', 'cargo-green-3', 'cargo-green-5', 'cargo-green-6', "
            f"'cargo-green-7', 'cargo-green-8', 'cargo-green-9'] in any order, the state has ['cargo-green-1', "
            f"'cargo-green-2', 'cargo-green-3', 'cargo-green-5', 'cargo-green-6', 'cargo-green-7', 'cargo-green-8', "
            f"'cargo-green-9', 'cargo-green-0']") in result.stderr
    # A path that names no list is an error rather than a comparison quietly in order.
    path = _variant(tmp_path, "unordered: [seats.*.hand]", "unordered: [seats.*.hand, seat.*.hand]", source)
    result = pnp("play", "donkey-can", str(path))
    assert result.exit_code == 1
    assert result.stderr == (f"{path}:10: unordered.1: seat.*.hand names no list that a step expects\n"
                             "1 problem(s) found.\n")


BASE = ("setup:\n  players:\n    - {name: Ana, hand: [10, 20, 30, 40, 50, 60, 70]}\n"
        "    - {name: Ben, hand: [11, 21, 31, 41, 51, 61, 71]}\n")


@pytest.mark.parametrize("text,line,message", [
    ("unordered: seats.*.hand\nsteps: []\n", 5, "unordered: unordered is a list of key paths such as seats.*.hand"),
    ("unordered: [seats..hand]\nsteps: []\n", 5,
     "unordered.0: a key path is keys joined by dots, such as seats.*.hand, not 'seats..hand'"),
    ("steps:\n  - do: {player: Ana, play: 10, pile: up-1}\n", 6, "steps.0.do: do is a list of actions"),
    ("steps:\n  - expect: 5\n", 6, "steps.0.expect: expect is a mapping of what the state must hold"),
    ("steps:\n  - illegal:\n      - {player: Ana, end: true, because: 5}\n", 7,
     "steps.0.illegal.0.because: because is the text the reason for the refusal must contain"),
    ("steps:\n  - do:\n      - {player: Ana, play: 10, pile: up-1, because: fine}\n", 7,
     "steps.0.do.0.because: unknown key 'because' (action keys: end, pile, play, player)"),
    ("steps:\n  - expected: {turns: 1}\n", 6, "steps.0.expected: unknown key 'expected' (step keys: note, illegal, do, expect)"),
    ("steps:\n  - do:\n      - [Ana, 10]\n", 7,
     "steps.0.do.0: an action is a mapping such as {player: Ana, play: 30, pile: up-1} or {end: true}"),
    ("steps:\n  - illegal:\n      - {player: [Ana], end: true}\n", 7, "steps.0.illegal.0.player: no player '['Ana']'"),
])
def test_bad_scenario_input_is_a_located_error(tmp_path, text, line, message):
    path = tmp_path / "bad.yaml"
    path.write_text(BASE + text, encoding="utf-8")
    result = pnp("play", "the-game", str(path))
    assert result.exit_code == 1, result.output
    assert f"{path}:{line}: {message}" in result.stderr
    assert not result.traceback


@pytest.mark.parametrize("slug,setup,message", [
    ("donkey-can", "setup:\n  players:\n    - {name: Оля, hand: [[1]]}\n    - Петро\n",
     "3: setup.players.0.hand.0: no cargo card '[1]' among the seated colours"),
    ("donkey-can", "setup:\n  players: [Оля, Петро]\n  donkeys: [[donkey-sirko]]\n",
     "3: setup.donkeys.0: no donkey '['donkey-sirko']'"),
    ("race-to-the-table", "setup:\n  players: 1000000000\n", "2: setup.players: race-to-the-table is for 2-10 players, not 1000000000"),
    ("the-game", "setup:\n  players: [{name: Ana, hand: {up: 1}}]\n",
     "2: setup.players.0.hand: a list of card numbers is expected"),
])
def test_a_setup_of_the_wrong_shape_is_a_located_error(tmp_path, slug, setup, message):
    path = tmp_path / "bad.yaml"
    path.write_text(setup, encoding="utf-8")
    result = pnp("play", slug, str(path))
    assert result.exit_code == 1, result.output
    assert f"{path}:{message}" in result.stderr
    assert not result.traceback
