"""How simulated players choose. The heuristic sees only what its player sees: its own hand
and card, every revealed card (and so each opponent's unplayed cards), what it peeked, and the
advantage sides lying face up."""
from __future__ import annotations

import random
from dataclasses import dataclass

from .design import ADVANTAGE_SHIFT, MAX_ADVANTAGES, ROUNDS
from .state import DonkeyState

KEEP = 0.5              # share of a card's value it is expected to earn in a later round
ADVANTAGE_OPTION = 1.5  # worth of an advantage still to use, at the start of the game
MIN_GAIN = 0.25         # an advantage must gain at least this much over passing
NOISE = 0.75            # players differ: a card's worth is judged give or take this much


def _distribution(options: list[list[int]], track_max: bool) -> dict[tuple[int, int], float]:
    """Probability of each (sum, max) of one card from each list, each card equally likely."""
    dist = {(0, -1): 1.0}
    for values in options:
        share = 1.0 / len(values)
        nxt: dict[tuple[int, int], float] = {}
        for (total, top), p in dist.items():
            for value in values:
                key = (total + value, max(top, value) if track_max else -1)
                nxt[key] = nxt.get(key, 0.0) + p * share
        dist = nxt
    return dist


@dataclass
class Outlook:
    """The other players' cargo as one seat sees it."""

    effect: str | None
    dist: dict[tuple[int, int], float]
    players: int

    def chances(self, value: int, capacity: int, known: tuple[int, ...] = ()) -> tuple[float, float]:
        """With our card worth `value` (and `known` cards of players left out of the
        distribution): (P(overloaded), mean card a refuser draws then)."""
        mine, heaviest = value + sum(known), max((value,) + known)
        over = over_sum = 0.0
        for (total, top), p in self.dist.items():
            load = total + mine
            if self.effect == "ignore-heaviest":
                load -= max(top, heaviest)
            elif self.effect == "double-heaviest":
                load += max(top, heaviest)
            if load > capacity:
                over += p
                over_sum += p * (total + mine)
        return over, (over_sum / over / self.players if over else 0.0)

    def best(self, value: int, capacity: int, known: tuple[int, ...] = ()) -> tuple[float, bool]:
        """(expected points, accept?) for the better contract choice."""
        over, pool = self.chances(value, capacity, known)
        accept, refuse = value * (1 - over), over * pool
        return (accept, True) if accept >= refuse else (refuse, False)


def outlook(state: DonkeyState, seat: int, seen: bool, leave_out: int | None = None) -> Outlook:
    """The others' cargo as `seat` sees it, without `leave_out`'s; `seen` False judges the
    cargo as not yet played (the cards go down at the same time)."""
    options = []
    for other in range(state.players):
        if other in (seat, leave_out):
            continue
        if seen:
            options.append([state.cards[c].value for c in state.possible_cards(seat, other)])
        else:
            unplayed = state.hands[other] + ([state.table[other]] if state.table[other] else [])
            options.append([state.cards[c].value for c in unplayed])
    effect = state.donkey.effect
    return Outlook(effect, _distribution(options, effect in ("ignore-heaviest", "double-heaviest")), state.players)


def _future(state: DonkeyState, seat: int, hand: list[str]) -> float:
    """What a hand is worth for the rounds after this one: the cards it will still play (the
    best ones; the rest are spare) and the advantages it can still use."""
    rounds_after = ROUNDS - state.round - 1
    if rounds_after <= 0:
        return 0.0
    values = sorted((state.cards[card].value for card in hand), reverse=True)
    uses = min(MAX_ADVANTAGES - len(state.used[seat]), sum(1 for card in hand if state.cards[card].advantage))
    return KEEP * sum(values[:rounds_after]) + ADVANTAGE_OPTION * uses * rounds_after / (ROUNDS - 1)


def _cost(state: DonkeyState, seat: int, spend: str, back: str | None = None) -> float:
    """What spending a card from hand now (and taking `back` into it) costs the later rounds."""
    hand = state.hands[seat]
    after = [card for card in hand if card != spend] + ([back] if back else [])
    return _future(state, seat, hand) - _future(state, seat, after)


def heuristic_policy(state: DonkeyState, rng: random.Random) -> tuple:
    """Play high when the donkey looks safe and low when it looks overloaded; call the
    contract by the odds; use an advantage when it gains more than the card is worth."""
    seat = state.current_player()
    capacity = state.capacity()
    if state.phase == "cargo":
        view = outlook(state, seat, seen=False)
        scored = [(view.best(state.cards[card].value, capacity)[0] - _cost(state, seat, card)
                   + rng.gauss(0, NOISE), card) for card in state.hands[seat]]
        return ("cargo", seat, max(scored)[1])
    own = state.cards[state.table[seat]].value
    if state.phase == "contract":
        return ("accept" if outlook(state, seat, seen=True).best(own, capacity)[1] else "refuse", seat)
    return _choose_advantage(state, seat, own, capacity)


def _choose_advantage(state: DonkeyState, seat: int, own: int, capacity: int) -> tuple:
    view = outlook(state, seat, seen=True)
    now = view.best(own, capacity)[0]
    best_gain, best_action = MIN_GAIN, ("pass", seat)
    for action in state.legal_actions():
        if action[0] != "advantage":
            continue
        _, _, card, target = action
        kind = state.cards[card].advantage
        if kind == "carrot":
            after = view.best(own, capacity + ADVANTAGE_SHIFT)[0]
        elif kind == "sack":
            after = view.best(own, capacity - ADVANTAGE_SHIFT)[0]
        elif kind == "swap":
            after = view.best(state.cards[target].value, capacity)[0] - _cost(state, seat, target, back=state.table[seat])
        else:
            after = _peek_worth(state, seat, target, own, capacity)
        gain = after - now - _cost(state, seat, card)
        if gain > best_gain:
            best_gain, best_action = gain, action
    return best_action


def _peek_worth(state: DonkeyState, seat: int, target: int, own: int, capacity: int) -> float:
    """Expected points once the target's card is seen (each card it may be alike)."""
    values = [state.cards[c].value for c in state.possible_cards(seat, target)]
    rest = outlook(state, seat, seen=True, leave_out=target)
    return sum(rest.best(own, capacity, (value,))[0] for value in values) / len(values)
