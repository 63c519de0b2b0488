"""The cards of a box that a scenario's setup hands out: the lists it writes (hands, decks,
piles) take their cards from the pool, and whatever no list names is dealt from the rest.

A card no copy of which is in the box, or one listed more often than the box holds it, is
refused where it is written, naming the card: "no number card 101 in the box (the cards are
2-99)", "number card 30 is listed twice", "more 'closed' cards than the 3 of edition 'free'".
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable

from .fields import ScenarioError


class CardPool:
    """The copies of each card still free. `cards` are the box's, one entry a copy, in the
    order the rest is given back; `noun` names one ("number card"), `source` the box
    ("edition 'full'"), `listing` what a list of them holds ("card numbers"); `read` turns a
    written item into its card (None: no such card), or refuses it with a ScenarioError;
    `known`, the cards there are as a message lists them."""

    def __init__(self, cards: Iterable[Hashable], *, noun: str, source: str, listing: str,
                 read: Callable[[object], Hashable | None] | None = None, known: str | None = None):
        self.order = list(cards)
        self.box = Counter(self.order)
        self.free = Counter(self.box)
        self.noun, self.source, self.listing = noun, source, listing
        self.read = read or (lambda item: item if isinstance(item, Hashable) and item in self.box else None)
        self.known = known if known is not None else ", ".join(map(str, dict.fromkeys(self.order)))

    def take(self, value, path: tuple) -> list:
        """The cards a scenario's list names, taken from the pool; ScenarioError at the item
        that is not a list, no card of the box, or one copy more than the box holds."""
        if not isinstance(value, list):
            raise ScenarioError(f"a list of {self.listing} is expected", path)
        return [self.take_one(item, path + (index,)) for index, item in enumerate(value)]

    def take_one(self, item, path: tuple):
        try:
            card = self.read(item)
        except ScenarioError as exc:        # `read` refuses the item itself: say where it is
            raise ScenarioError(str(exc), path + exc.path) from None
        if card is None or card not in self.box:
            known = f" ({self.known})" if self.known else ""
            raise ScenarioError(f"no {self.noun} {item!r} in {self.source}{known}", path)
        if not self.free[card]:
            copies = self.box[card]
            raise ScenarioError(f"{self.noun} {item!r} is listed twice" if copies == 1 else
                                f"more {item!r} cards than the {copies} of {self.source}", path)
        self.free[card] -= 1
        return card

    def rest(self) -> list:
        """Every copy no list took, in the box's order (each card's copies together)."""
        return [card for card in dict.fromkeys(self.order) for _ in range(self.free[card])]
