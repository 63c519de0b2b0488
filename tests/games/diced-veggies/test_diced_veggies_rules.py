"""Diced Veggies' chef token as its source (seed 004) states it, tested on positions: before
cooking a player may spend it to change the type or the number of one of their dice; "you get
the chef token back when anyone restocks the block" (every player's, the one who restocks or not).
"""
from __future__ import annotations

import random

import pytest

from conftest import ROOT
from generator.load.project import Project
from generator.rules.diced_veggies import ENGINE


@pytest.fixture(scope="module")
def veggies():
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
