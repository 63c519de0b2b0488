"""Race to the Table's scenarios: the worked examples and FAQ answers each have one, the second
worked example ends as the rulebook tells, and a scenario's setup is held to this game's box
(clock, roles, hands, editions). The scenario format itself is checked on the sample game in
tests/test_scenarios.py."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import ROOT, line_of, pnp


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


def _variant(tmp_path, old: str, new: str) -> Path:
    text = EXAMPLE.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / EXAMPLE.name
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def test_a_protected_pawn_cannot_be_taken(tmp_path):
    path = _variant(tmp_path, "      - {player: Ники, role: gossip}", "      - {player: Ники, play: long-queue, pawns: [Пица]}")
    result = pnp("play", SLUG, str(path))
    assert result.exit_code == 1
    line = line_of(path, "{player: Ники, play: long-queue, pawns: [Пица]}", last=True)
    assert (f"{path}:{line}: steps.2.do.0: illegal action: long-queue cannot take Пица: Пица is protected "
            f"by the Chef until Мария's next turn") in result.stderr


@pytest.mark.parametrize("old,new,message", [
    ("  clock: 12", "  clock: 15", "setup.clock: the clock marker is on field 1 to 14"),
    ("role: chef, hand", "role: accountant, hand", "setup.players.1.role: the accountant is already Дядо Иван's"),
    ("hand: [quick, smells-good, swap]", "hand: [quick, smells-good]", "setup.players.1.hand: a hand holds 3 cards"),
    ("hand: [quick, smells-good, swap]", "hand: [quick, smells-good, pizza]",
     "setup.players.1.hand.2: no action card 'pizza' in edition 'full'"),
    ("  clock: 12", "  clocks: 12", "setup.clocks: unknown key 'clocks'"),
    ("edition: full", "edition: deluxe", "setup.edition: no edition 'deluxe'"),
])
def test_a_setup_that_does_not_fit_the_box_exits_1_located(tmp_path, old, new, message):
    path = _variant(tmp_path, old, new)
    result = pnp("play", SLUG, str(path))
    assert result.exit_code == 1
    assert f"{path}:{line_of(path, new.strip(), last=True)}: {message}" in result.stderr, result.stderr


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


def test_a_player_count_of_the_wrong_size_is_a_located_error(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("setup:\n  players: 1000000000\n", encoding="utf-8")
    result = pnp("play", SLUG, str(path))
    assert result.exit_code == 1 and not result.traceback
    assert f"{path}:2: setup.players: race-to-the-table is for 2-10 players, not 1000000000" in result.stderr


def test_play_on_with_the_greedy_policy_reaches_the_end(tmp_path):
    path = tmp_path / "seeded.yaml"
    path.write_text("setup: {edition: full, players: 5, seed: 11}\n", encoding="utf-8")
    result = pnp("play", SLUG, str(path), "--policy", "greedy")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["terminal"] is True
