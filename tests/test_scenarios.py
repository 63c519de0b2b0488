"""Scenarios through `pnp play`: the worked examples and FAQ answers of seed 000 pass, broken
scenarios fail with file, line and reason, and golden playthroughs replay and re-record."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, pnp
from generator import validate
from generator.build import load_games
from generator.project import Project

SLUG = "race-to-the-table"
SCENARIOS = ROOT / "components" / SLUG / "scenarios"
EXAMPLE = SCENARIOS / "example-end-of-a-game.yaml"


def test_every_example_and_faq_answer_has_a_scenario():
    names = {p.stem for p in SCENARIOS.glob("*.yaml")}
    assert {"example-long-queue", "example-end-of-a-game"} <= names
    faq = [n for n in names if n.startswith("faq-")]
    # The seed's FAQ has eight rules answers (the ninth is about printing).
    assert len(faq) >= 8


@pytest.mark.parametrize("scenario", sorted(SCENARIOS.glob("*.yaml")), ids=lambda p: p.stem)
def test_scenario_passes(scenario):
    result = pnp("play", SLUG, str(scenario))
    assert result.exit_code == 0, result.output
    state = json.loads(result.stdout)
    assert "seats" in state and "phase" in state


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


def _line(path: Path, needle: str, first: bool = False) -> int:
    """The last (or first) line holding needle."""
    numbers = [n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line]
    return numbers[0] if first else numbers[-1]


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
    line = _line(path, "{player: Ники, role: gossip}", first=True)              # step 1, not the later one
    assert f"{path}:{line}: steps.1.do.0.player: it is Мария's turn, not Ники's" in result.stderr


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
    assert f"{path}:{_line(path, action)}: steps.{steps - 1}.do.0: the game is already over" in result.stderr
    path.write_text(source.read_text(encoding="utf-8").replace("steps:\n", "steps:\n  - do:\n      - {colour: red}\n", 1),
                    encoding="utf-8")
    result = pnp("play", slug, str(path))
    assert result.exit_code == 1
    assert f"{path}:{_line(path, '{colour: red}')}: steps.0.do.0.colour: unknown key 'colour' ({keys})" in result.stderr


def test_a_donkey_can_action_names_its_player_who_may_be_out_of_turn(tmp_path):
    """Every phase asks the players in an order the rules set, so an action out of turn is an
    illegal action (a scenario can list it under illegal:), and an action names its player."""
    source = ROOT / "components" / "donkey-can" / "scenarios" / "round-not-overloaded.yaml"
    path = _variant(tmp_path, "      - {player: Петро, cargo: 3}", "      - {cargo: 3}", source)
    result = pnp("play", "donkey-can", str(path))
    assert result.exit_code == 1
    assert (f"{path}:{_line(path, '- {cargo: 3}')}: steps.0.do.1: an action names the player who acts, such as "
            "{player: Оля, cargo: 7}") in result.stderr
    path = _variant(tmp_path, "      - {player: Оля, cargo: 7}", "      - {player: Петро, cargo: 3}", source)
    result = pnp("play", "donkey-can", str(path))
    assert result.exit_code == 1
    line = _line(path, "{player: Петро, cargo: 3}", first=True)                 # do.0 now reads as do.1 does
    assert f"{path}:{line}: steps.0.do.0: illegal action: it is Оля's turn, not Петро's" in result.stderr
    path = _variant(tmp_path, "      - {player: Оля, cargo: 7}", "      - {player: Оксана, cargo: 7}", source)
    result = pnp("play", "donkey-can", str(path))
    assert result.exit_code == 1
    line = _line(path, "{player: Оксана, cargo: 7}")
    assert f"{path}:{line}: steps.0.do.0.player: no player 'Оксана' (players: Оля, Петро, Ганна)" in result.stderr


def test_an_unmet_expectation_exits_1_naming_the_key(tmp_path):
    path = _variant(tmp_path, "Дядо Иван: {position: 11}", "Дядо Иван: {position: 12}")
    result = pnp("play", SLUG, str(path))
    assert result.exit_code == 1
    line = _line(path, "Дядо Иван: {position: 12}")
    assert f"{path}:{line}: steps.3.expect.seats.Дядо Иван.position: expected 12, the state has 11" in result.stderr


def test_a_legal_action_listed_as_illegal_exits_1(tmp_path):
    path = _variant(tmp_path, "      - {player: Ники, play: road-works, pawns: [Пица]}",
                    "      - {player: Ники, play: long-queue, pawns: [Супа]}")
    result = pnp("play", SLUG, str(path))
    assert result.exit_code == 1
    line = _line(path, "{player: Ники, play: long-queue, pawns: [Супа]}")
    assert (f"{path}:{line}: steps.2.illegal.1: expected to be refused, but ('play', 'long-queue', 0) is legal here"
            in result.stderr)


ACTION_CARDS = "quick, smells-good, long-queue, closed, shortcut, swap, taxi, road-works, friday, double-order, sudden-rain"


@pytest.mark.parametrize("old,new,message", [
    ("  clock: 12", "  clock: 15", "setup.clock: the clock marker is on field 1 to 14"),
    ("role: chef, hand", "role: accountant, hand", "setup.players.1.role: the accountant is already Дядо Иван's"),
    ("hand: [quick, smells-good, swap]", "hand: [quick, smells-good]", "setup.players.1.hand: a hand holds 3 cards, not 2"),
    ("hand: [quick, smells-good, swap]", "hand: [quick, smells-good, pizza]",
     f"setup.players.1.hand.2: edition 'full' has no action card 'pizza' (cards: {ACTION_CARDS})"),
    ("  clock: 12", "  clocks: 12",
     "setup.clocks: unknown key 'clocks' (setup keys: clock, current, deck, discard, edition, options, players, rest, seed)"),
    ("edition: full", "edition: deluxe", "setup.edition: no edition 'deluxe' (editions: free, full)"),
])
def test_a_setup_that_does_not_fit_exits_1_located(tmp_path, old, new, message):
    path = _variant(tmp_path, old, new)
    result = pnp("play", SLUG, str(path))
    assert result.exit_code == 1
    # The line of the changed text; a second accountant is the player who repeats the role.
    line = _line(path, new.strip())
    assert result.stderr.splitlines() == [f"{path}:{line}: {message}", "1 problem(s) found."]


def test_more_copies_than_the_edition_has_are_refused(tmp_path):
    path = tmp_path / "too-many.yaml"
    path.write_text("setup:\n  edition: free\n  players:\n    - {name: A, hand: [friday, quick, quick]}\n"
                    "    - B\n", encoding="utf-8")
    result = pnp("play", SLUG, str(path))
    assert result.exit_code == 1
    assert (f"{path}:4: setup.players.0.hand.0: edition 'free' has no action card 'friday' "
            "(cards: quick, smells-good, long-queue, closed, shortcut)\n") in result.stderr
    path.write_text("setup:\n  edition: free\n  players: [A, B]\n  discard: [closed, closed, closed, closed]\n",
                    encoding="utf-8")
    result = pnp("play", SLUG, str(path))
    assert result.exit_code == 1
    assert f"{path}:4: setup.discard.3: more 'closed' cards than the 3 of edition 'free'\n" in result.stderr


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


@pytest.mark.parametrize("name,policy", [("playthrough-full-4p", "greedy"), ("playthrough-free-3p", "random")])
def test_golden_playthrough_records_the_same_again(tmp_path, name, policy):
    golden = SCENARIOS / f"{name}.yaml"
    data = yaml.safe_load(golden.read_text(encoding="utf-8"))
    start = tmp_path / "start.yaml"
    title = data["title"].removesuffix(f", played on by policy {policy}")
    start.write_text(yaml.safe_dump({"title": title, "setup": data["setup"]}, allow_unicode=True), encoding="utf-8")
    out = tmp_path / "recorded.yaml"
    result = pnp("play", SLUG, str(start), "--policy", policy, "--record", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == golden.read_text(encoding="utf-8")
