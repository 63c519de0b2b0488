"""Rules each game's source states, tested one by one on positions, not only through
playthroughs (sources: the seeds; facts in reference/games.md):

- Pegs and Jokers (seed 002): "7: 7 forward, may be split between two own pegs"; "8: 8
  backward"; "you may not land on or pass your own pegs"; landing on an opponent sends it to
  start.
- Diced Veggies (seed 004): before cooking a player may spend the chef token to change the type
  or the number of one of their dice; "you get the chef token back when anyone restocks the
  block" (every player's, the one who restocks or not).
"""
from __future__ import annotations

import random

import pytest

from conftest import ROOT
from generator.app.loading import load_games
from generator.load.project import Project
from generator.rules.pegs_and_jokers.state import START


# ---- Pegs and Jokers -----------------------------------------------------------------------------

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


# ---- Diced Veggies -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def veggies():
    from generator.rules.diced_veggies import ENGINE
    game = Project(ROOT).load_game("diced-veggies")[0]
    return ENGINE, ENGINE.box(game, "standard")


def _to_phase(state, phase: str, rng: random.Random, avoid=("chef",)) -> None:
    """Play on (random legal actions, never the chef token, never a restock) until `phase`."""
    for _ in range(2000):
        if state.phase == phase:
            return
        actions = [a for a in state.legal_actions() if a[0] not in avoid and a != ("restock", True)]
        state.apply(rng.choice(actions))
        state.check_invariants()
    raise AssertionError(f"no {phase} phase reached")


def test_the_chef_token_changes_one_die_and_is_spent_until_a_restock(veggies):
    engine, box = veggies
    state = engine.new_game(3, box=box, seed=4)
    rng = random.Random(4)
    _to_phase(state, "cook", rng)
    player = state.seat
    chef = [a for a in state.legal_actions() if a[0] == "chef" and a[2] == "number"]
    assert chef, "a player with dice and the chef token may spend it before cooking"
    _, die, _, number = chef[0]
    state.apply(chef[0])
    assert state.face[die] == number and state.seats[player].chef is False
    assert not [a for a in state.legal_actions() if a[0] == "chef"], "the token is spent: no second change"
    # round the table without a restock: the token stays spent
    _to_phase(state, "draw", rng)
    for _ in range(len(state.seats)):
        state.apply(rng.choice(state.legal_actions()) if state.phase != "restock" else ("restock", False))
        _to_phase(state, "cook", rng)
        if state.seat == player:
            break
    assert state.seats[player].chef is False
    assert not [a for a in state.legal_actions() if a[0] == "chef"] or state.seat != player


def test_every_chef_token_returns_when_anyone_restocks(veggies):
    engine, box = veggies
    state = engine.new_game(3, box=box, seed=11)
    rng = random.Random(11)
    spent = set()
    for _ in range(3000):
        if state.phase == "restock" and len(spent) >= 2:
            restocker = state.seat
            state.apply(("restock", True))
            break
        actions = state.legal_actions()
        chef = [a for a in actions if a[0] == "chef"]
        if chef and state.seat not in spent:
            action = chef[0]
            spent.add(state.seat)
        else:
            action = rng.choice([a for a in actions if a[0] != "chef" and a != ("restock", True)])
        state.apply(action)
        state.check_invariants()
    else:
        raise AssertionError("no restock with two chef tokens spent")
    assert {seat for seat, s in enumerate(state.seats) if not s.chef} == set()
    assert spent - {restocker}, "a token of a player other than the one who restocked came back"


def test_a_restock_declined_returns_no_chef_token(veggies):
    engine, box = veggies
    state = engine.new_game(2, box=box, seed=7)
    rng = random.Random(7)
    for _ in range(3000):
        if state.phase == "restock" and not all(s.chef for s in state.seats) and \
                ("restock", False) in state.legal_actions():
            before = [s.chef for s in state.seats]
            state.apply(("restock", False))
            assert [s.chef for s in state.seats] == before
            return
        actions = state.legal_actions()
        chef = [a for a in actions if a[0] == "chef"]
        state.apply(chef[0] if chef else rng.choice([a for a in actions if a != ("restock", True)]))
    raise AssertionError("no declined restock with a chef token spent")
