"""How simulated players choose. `greedy` looks one action ahead on a copy of the board.

decided: greedy scores a position for its seat as its own progress minus most of the leading
rival's and a little of the others' (a Closed token costs a pawn about one card's move), takes
an immediate win whenever it can, and keeps its role unless the role beats its best card by a
margin or the game is near its end. It sees what a player sees: the board, the discards and
its own hand.
"""
from __future__ import annotations

import random

from .state import EFFECTS, Board, RaceState

WIN = 1000.0
LEAD_WEIGHT = 0.7          # hindering the leader
REST_WEIGHT = 0.3          # ... and the field
CLOSED_COST = 1.5          # a Closed token cancels the pawn's next move
PROTECTED_BONUS = 1.0      # the Chef's shield is worth about a Long queue avoided
EXTRA_CARD = 1.5           # Double order and the Intern's extra turn: one more card to play
ROLE_RESERVE = 1.5         # a role is used once; spend it only for a clear gain ...
NEAR_END_FIELDS = 4        # ... or when a pawn is this close to TABLE, or the clock's last round


def position_value(board: Board, seat: int) -> float:
    arrived = board.arrived
    if arrived:
        return WIN / len(set(arrived)) if seat in arrived else -WIN
    pos, closed = board.pos, board.closed
    values = [p - CLOSED_COST * c for p, c in zip(pos, closed)] if any(closed) else pos[:]
    own = values[seat] + (PROTECTED_BONUS if board.protected == seat else 0.0)
    rest = sum(values) - values[seat]
    values[seat] = -WIN
    return own - LEAD_WEIGHT * max(values) - REST_WEIGHT * rest / (len(values) - 1)


def action_value(state: RaceState, action: tuple, seat: int) -> float:
    name = action[1]
    trial = state.board.copy()
    EFFECTS[name](trial, seat, action[2:])
    value = position_value(trial, seat)
    if trial.arrived:
        return value
    if name in ("double-order", "intern"):
        value += EXTRA_CARD
    elif name == "gossip" and state.discard:
        # The Gossip is worth the best card it can take from the discards.
        value = max(action_value(state, option, seat)
                    for card in dict.fromkeys(state.discard) for option in state.card_actions(card))
    return value


def greedy_policy(state: RaceState, rng: random.Random):
    actions = state.legal_actions()
    if len(actions) == 1:
        return actions[0]
    seat = state.current
    board = state.board
    near_end = state.clock_end - state.clock <= 1 or max(board.pos) >= board.table - NEAR_END_FIELDS
    best: list = []
    best_value = -float("inf")
    for action in actions:
        value = action_value(state, action, seat)
        if action[0] == "role" and not near_end and value < WIN:
            value -= ROLE_RESERVE
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif value > best_value - 1e-9:
            best.append(action)
    return best[0] if len(best) == 1 else rng.choice(best)
