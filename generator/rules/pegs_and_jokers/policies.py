"""How seats choose in simulation: at random, or by a heuristic a careful player would use.

The heuristic sees what a player sees: the board and its own hand. It scores each action by
how far it brings its team's pegs towards home and sends the other teams' pegs back, and
keeps the cards that are hard to replace (jokers, cards that leave the start area, eights)
for when they count.
"""
from __future__ import annotations

import random

from .design import EIGHT, HOLES_PER_SIDE, HOME_HOLES, IN_SPOT_HOLE, JOKER, LEAVES_START, MAX_PLAYERS, PEGS, SEVEN
from .state import START, PegState

OUT_OF_START = 12         # a peg on the track is worth this much more than one in START
HOME_BONUS = 25           # a peg safe at home
DEPTH_BONUS = 2           # per hole deeper in home: the back of home keeps the way free
JOKER_COST = 14           # what playing a joker gives up
KEEPER_COST = 4           # an A, J, Q, K used to move on while pegs wait in START
EIGHT_COST = 2
DANGER = 3                # ending a move just ahead of another team's peg
DANGER_REACH = 10
# Discard the card least worth keeping: low cards first, the joker last.
# Each seat's in-spot (PegState.in_spot), looked up rather than worked out for every peg scored.
IN_SPOTS = tuple(seat * HOLES_PER_SIDE + IN_SPOT_HOLE - 1 for seat in range(MAX_PLAYERS))
KEEP = {2: 0, 3: 1, 4: 2, 5: 3, 6: 4, 9: 5, 10: 6, SEVEN: 7, EIGHT: 8, 12: 9, 11: 9, 13: 10, 1: 11, JOKER: 12}


def peg_value(state: PegState, seat: int, position: int) -> float:
    """How far a peg of `seat` has come: START 0, then the holes it has covered, home most."""
    track = state.track
    if position == START:
        return 0.0
    if position >= track:
        return OUT_OF_START + track + HOME_BONUS + DEPTH_BONUS * (position - track)
    return OUT_OF_START + track - (IN_SPOTS[seat] - position) % track


def _moves_of(state: PegState, action, owner: int) -> list | None:
    kind = action[0]
    if kind == "play":
        return state.plan_card(owner, action[2], action[1])
    if kind == "joker":
        return state.plan_joker(owner, action[1], action[2])
    return None


def _danger(state: PegState, seat: int, hole: int) -> int:
    """Pegs of other teams within reach behind `hole` (they could land on it)."""
    teams, board = state.teams, state.board
    team = teams[seat]
    # the holes behind as a slice, round the track's end if need be (a track, 18 holes a side,
    # is always longer than the reach)
    start = hole - DANGER_REACH
    behind = board[start:hole] if start >= 0 else board[start:] + board[:hole]
    count = 0
    for held in behind:
        if held >= 0 and teams[held // PEGS] != team:
            count += 1
    return count


def _score_moves(state: PegState, moves: list) -> float:
    teams, pegs, track = state.teams, state.pegs, state.track
    team = teams[state.seat]
    score = 0.0
    for seat, peg, position in moves:
        # peg_value where the move puts the peg less where it stands, written out: this runs
        # for every action a seat weighs
        in_spot, before = IN_SPOTS[seat], pegs[seat][peg]
        if position == START:
            gain = 0.0
        elif position >= track:
            gain = OUT_OF_START + track + HOME_BONUS + DEPTH_BONUS * (position - track)
        else:
            gain = OUT_OF_START + track - (in_spot - position) % track
        if before >= track:
            gain -= OUT_OF_START + track + HOME_BONUS + DEPTH_BONUS * (before - track)
        elif before != START:
            gain -= OUT_OF_START + track - (in_spot - before) % track
        score += gain if teams[seat] == team else -gain
    seat, _, position = moves[0]
    if 0 <= position < track:
        score -= DANGER * _danger(state, seat, position)
    return score


def score(state: PegState, action, owner: int) -> float:
    """What an action is worth to the current player, who moves `owner`'s pegs."""
    kind = action[0]
    if kind == "discard":
        return -100.0 - KEEP[action[1]]
    if kind == "split":
        _, peg, steps, other = action
        first = state.plan_step(owner, peg, steps)
        undo = state._apply(first)
        second = state.plan_step(owner, other, SEVEN - steps)
        total = _score_moves(state, second)
        state._undo(undo)
        return total + _score_moves(state, first)
    moves = _moves_of(state, action, owner)
    total = _score_moves(state, moves)
    if kind == "joker":
        return total - JOKER_COST
    card = action[1]
    waiting = START in state.pegs[owner]
    if card in LEAVES_START and waiting and state.pegs[owner][action[2]] != START:
        total -= KEEPER_COST
    if card == EIGHT and moves[0][2] < state.track and total < HOME_HOLES:
        total -= EIGHT_COST
    return total


def heuristic_policy(state: PegState, rng: random.Random):
    """The best-scoring action; a joker only when it is worth more than it gives up, and with
    nothing to move the card least worth keeping is discarded."""
    actions = state.legal_actions()
    owner = state.owner()
    best, best_score = None, None
    for action in actions:
        value = score(state, action, owner)
        if best_score is None or value > best_score:
            best, best_score = action, value
    if best[0] == "joker" and best_score < 0:
        discards = [action for action in actions if action[0] == "discard"]
        if discards:
            return max(discards, key=lambda action: score(state, action, owner))
    return best
