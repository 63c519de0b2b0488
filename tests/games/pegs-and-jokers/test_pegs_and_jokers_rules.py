"""Pegs and Jokers' rules as its source (seed 002) states them, tested one by one on positions,
not only through playthroughs: "7: 7 forward, may be split between two own pegs"; "8: 8
backward"; "you may not land on or pass your own pegs"; landing on an opponent sends it to start.
"""
from __future__ import annotations

from conftest import ROOT
from generator.app.loading import load_games
from generator.load.project import Project
from generator.rules.pegs_and_jokers.state import START


PEGS_GAME = load_games(Project(ROOT), "pegs-and-jokers", texts=False)[0]
PEGS = PEGS_GAME.rules.ENGINE
PEGS_BOX = PEGS.box(PEGS_GAME, "standard")
NAMES = ["Anna", "Bohdan", "Cyril", "Dana"]
HAND = ["2", "3", "4", "5", "6"]


def pegs_position(**seats):
    """Four players; `seats` gives a player's pegs (hole numbers as the board prints them, or
    "start") and hand."""
    listed = [{"name": name, **seats.get(name, {})} for name in NAMES]
    return PEGS.from_setup({"players": listed, "options": {}}, seed=0, box=PEGS_BOX)


def hole(label: int) -> int:
    """The engine's track position of the hole the board numbers `label` (1-based)."""
    return label - 1


def with_card(card: str, *pegs):
    return pegs_position(Anna={"pegs": [*pegs] + ["start"] * (5 - len(pegs)), "hand": [card] + HAND})


def test_a_seven_may_be_split_every_way_between_two_pegs():
    state = with_card("7", 10, 40)
    splits = {action for action in state.legal_actions() if action[0] == "split"}
    assert splits == {("split", first, steps, other) for first, other in ((0, 1), (1, 0)) for steps in range(1, 7)}


def test_a_split_seven_moves_each_peg_its_part():
    state = with_card("7", 10, 40)
    state.apply(("split", 0, 2, 1))
    state.check_invariants()
    assert state.pegs[0][:2] == [hole(12), hole(45)]


def test_a_seven_is_not_split_with_one_peg_out_and_moves_it_seven():
    state = with_card("7", 10)
    assert not [a for a in state.legal_actions() if a[0] == "split"]
    (play,) = [a for a in state.legal_actions() if a[0] == "play" and a[1] == 7]
    state.apply(play)
    assert state.pegs[0][0] == hole(17)


def test_no_part_of_a_split_seven_passes_or_lands_on_an_own_peg():
    state = with_card("7", 10, 14)
    splits = {action for action in state.legal_actions() if action[0] == "split"}
    # the back peg may go at most 3 (to 13), the rest with the front one
    assert {(first, steps) for _, first, steps, _ in splits if first == 0} == {(0, 1), (0, 2), (0, 3)}
    # the front peg first: the back one follows it by 7 - steps, not onto or past it
    assert {(first, steps) for _, first, steps, _ in splits if first == 1} == {(1, s) for s in range(1, 7) if 7 - s < 4 + s}
    assert ("split", 0, 4, 1) not in splits


def test_an_eight_moves_a_peg_eight_holes_backward():
    state = with_card("8", 30)
    state.apply(("play", 8, 0))
    assert state.pegs[0][0] == hole(22)


def test_an_eight_goes_back_round_past_hole_one():
    state = with_card("8", 3)
    state.apply(("play", 8, 0))
    assert state.pegs[0][0] == (hole(3) - 8) % state.track == state.track - 6


def test_an_eight_may_not_pass_or_land_on_an_own_peg_backward():
    assert ("play", 8, 0) not in with_card("8", 30, 25).legal_actions()
    assert ("play", 8, 0) not in with_card("8", 30, 22).legal_actions()
    assert ("play", 8, 0) in with_card("8", 30, 21).legal_actions()


def test_an_eight_landing_on_an_opponent_sends_it_to_start():
    state = pegs_position(Anna={"pegs": [30, "start", "start", "start", "start"], "hand": ["8"] + HAND},
                          Bohdan={"pegs": [22, "start", "start", "start", "start"]})
    state.apply(("play", 8, 0))
    assert state.pegs[0][0] == hole(22) and state.pegs[1][0] == START


def test_an_eight_does_not_move_a_peg_in_start_or_at_home():
    state = pegs_position(Anna={"pegs": ["home-3", "start", "start", "start", "start"], "hand": ["8"] + HAND})
    assert not [a for a in state.legal_actions() if a[0] == "play" and a[1] == 8]
