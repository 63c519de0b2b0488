"""How seats choose in simulation: at random, or by a heuristic a careful player would use.

The heuristic sees what a player sees: its own hand, the piles (so every card played) and the
hints the rules allow ("please do not play on this pile"), never another hand's numbers.
"""
from __future__ import annotations

import bisect
import random

from .design import BACKWARDS
from .state import END, GameState, Pile

PAIR_BONUS = 0.5          # a card and its backwards partner: two cards gone for one move
HINT_REACH = 1            # a player asks to keep a pile it can play on skipping at most this many
HINT_PENALTY = 6          # extra cost of moving forward a pile someone asked to keep
PATIENCE = 0              # after the minimum, play on only while a play skips at most this many


def _live_between(live: list[int], low: int, high: int) -> int:
    """Unplayed cards strictly between low and high (live is ascending)."""
    return max(0, bisect.bisect_left(live, high) - bisect.bisect_right(live, low))


def play_cost(card: int, pile: Pile, live: list[int], hand: set[int]) -> float:
    """How many unplayed cards a play shuts off the pile; a backwards move reopens some
    (negative cost). A card whose backwards partner is in the same hand counts as the pair:
    play it, then the partner, and the pile ends at the partner with two cards gone."""
    low, high = sorted((card, pile.top))
    skipped = _live_between(live, low, high)
    if (card - pile.top) * pile.direction < 0:
        return -skipped
    partner = card - BACKWARDS * pile.direction
    if partner not in hand:
        return skipped
    low, high = sorted((partner, pile.top))
    net = _live_between(live, low, high)
    return (net if (partner - pile.top) * pile.direction > 0 else -net) - PAIR_BONUS


def wanted_piles(state: GameState, live: list[int]) -> set[int]:
    """The piles another player asks to keep: it could play there backwards, or skipping at
    most HINT_REACH unplayed cards. Only that much of the other hands reaches the policy."""
    others = {card for seat, hand in enumerate(state.hands) if seat != state.seat for card in hand}
    wanted = set()
    for index, pile in enumerate(state.piles):
        if pile.direction > 0:
            start = bisect.bisect_right(live, pile.top)
            near = live[start:start + HINT_REACH + 1]
        else:
            end = bisect.bisect_left(live, pile.top)
            near = live[max(0, end - HINT_REACH - 1):end]
        if others.intersection(near) or pile.top - BACKWARDS * pile.direction in others:
            wanted.add(index)
    return wanted


def heuristic_policy(state: GameState, rng: random.Random):
    """Play the cheapest card: fewest unplayed cards skipped, backwards moves (and pairs that
    end in one) first, piles the others asked to keep last. After the minimum, play on only
    while a play skips at most PATIENCE unplayed cards, so the hand keeps its choice."""
    actions = state.legal_actions()
    plays = [action for action in actions if action != END]
    if not plays:
        return END
    played = {card for pile in state.piles for card in pile.cards}
    live = [card for card in state.box.numbers if card not in played]
    hand = set(state.hands[state.seat])
    wanted = wanted_piles(state, live)
    best = None
    for _, card, index in plays:
        cost = play_cost(card, state.piles[index], live, hand)
        if cost > 0 and index in wanted:
            cost += HINT_PENALTY
        if best is None or (cost, card, index) < best:
            best = (cost, card, index)
    cost, card, index = best
    if END in actions and cost > PATIENCE:
        return END
    return ("play", card, index)
