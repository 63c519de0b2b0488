"""The Game, the rules of seed 003 as a playable state.

Piles are numbered as dealt, ascending first, and named up-1, up-2, down-1, down-2. Actions
are tuples of plain values:
    ("play", card, pile)     play a card of the current hand on pile number `pile`
    ("end",)                 end the turn and refill the hand (legal once the minimum is played)
The only random choice is the shuffle, from the state's rng.
"""
from __future__ import annotations

import bisect
import random
from dataclasses import dataclass, field
from typing import Any

from ..engine import InvariantBroken, SetupError, State
from .design import BACKWARDS, HIGHEST, LOWEST, MINIMUM

NUMBER_DECK, PILE_DECK = "numbers", "piles"
END = ("end",)
# check_invariants checks what an action changed after each action, and everything after every
# FULL_CHECK_EVERY-th, once the game ends, and whenever the state changed otherwise.
FULL_CHECK_EVERY = 16


# ---- what the components give the engine ----------------------------------------------------

@dataclass(frozen=True)
class Box:
    """One edition's cards as the rules use them, read from the loaded YAML."""

    numbers: tuple[int, ...]       # the draw pile, one entry per card, ascending
    piles: tuple[int, ...]         # the cards that start the piles, ascending
    hand_sizes: tuple[tuple[int, int], ...]   # (players, cards in hand)

    def hand_size(self, players: int) -> int:
        sizes = dict(self.hand_sizes)
        if players not in sizes:
            raise SetupError(f"hand_sizes gives no hand for {players} players (only for {', '.join(map(str, sorted(sizes)))})",
                             ("game", ("hand_sizes",)))
        return sizes[players]


def box_from_game(game, edition: str) -> Box:
    """Read one edition's cards; a card the rules cannot use is a SetupError naming it."""
    numbers: list[int] = []
    piles: list[int] = []
    for component in game.in_edition(edition, "cards"):
        where = ("cards", ("cards", component.id))
        if component.group not in (NUMBER_DECK, PILE_DECK):
            raise SetupError(f"card '{component.id}' is in deck '{component.group}'; the rules know "
                             f"the decks '{NUMBER_DECK}' and '{PILE_DECK}'", where)
        value = component.data.get("value")
        if type(value) is not int:
            raise SetupError(f"card '{component.id}' has no value (its number)", where)
        (numbers if component.group == NUMBER_DECK else piles).extend([value] * component.count(edition))
    if not numbers:
        raise SetupError(f"edition '{edition}' has no number cards", ("cards", ("decks",)))
    for value in piles:
        if min(numbers) <= value <= max(numbers):
            raise SetupError(f"a pile card shows {value}, inside the numbers {min(numbers)}-{max(numbers)}: "
                             "a pile must start below or above them", ("cards", ("cards",)))
    sizes = game.meta.get("hand_sizes", {})
    hand_sizes = tuple(sorted((int(players), size) for players, size in sizes.items()))
    if not hand_sizes:
        raise SetupError("the rules need hand_sizes (cards in hand by number of players)", ("game", ()))
    return Box(tuple(sorted(numbers)), tuple(sorted(piles)), hand_sizes)


def _every_card(numbers: tuple[int, ...]) -> tuple:
    """The box's number cards, as they are and as the lists a check compares with, and every
    card LOWEST-HIGHEST."""
    return numbers, list(numbers), list(range(LOWEST, HIGHEST + 1))


# ---- the state ------------------------------------------------------------------------------

@dataclass
class Pile:
    name: str
    direction: int                 # +1 ascending, -1 descending
    start: int                     # the pile card
    cards: list[int] = field(default_factory=list)   # played on it, the top last

    @property
    def top(self) -> int:
        return self.cards[-1] if self.cards else self.start

    def takes(self, card: int) -> bool:
        step = (card - self.top) * self.direction
        return step > 0 or step == -BACKWARDS

    def to_json(self) -> dict:
        return {"direction": "up" if self.direction > 0 else "down", "start": self.start,
                "top": self.top, "cards": list(self.cards)}


def make_piles(box: Box) -> list[Pile]:
    """A pile card below the numbers starts an ascending pile, one above them a descending one."""
    ups = [start for start in box.piles if start < box.numbers[0]]
    downs = [start for start in box.piles if start > box.numbers[-1]]
    return ([Pile(f"up-{i + 1}", +1, start) for i, start in enumerate(ups)]
            + [Pile(f"down-{i + 1}", -1, start) for i, start in enumerate(downs)])


@dataclass
class GameState(State):
    box: Box
    names: list[str]
    hand_size: int
    min_after_empty: int
    rng: random.Random
    deck: list[int] = field(default_factory=list)          # the top is the end
    hands: list[list[int]] = field(default_factory=list)   # each kept ascending
    piles: list[Pile] = field(default_factory=list)
    seat: int = 0
    played: int = 0                # cards played this turn
    required: int = MINIMUM        # cards this turn must play, fixed when it begins
    status: str = "playing"        # playing, won, lost
    turns: int = 0
    plays: int = 0
    backwards: int = 0             # exact-10 moves played
    # True: check_invariants checks every invariant after every action, not only what it changed
    full_checks: bool = False
    # What the last action changed, for check_invariants: ("play", card, pile index) or ("end",
    # the seat whose turn ended); None when the state changed otherwise (a setup, a test).
    changed: tuple | None = field(default=None, repr=False, compare=False)

    @property
    def players(self) -> int:
        return len(self.names)

    # -- the interface

    def current_player(self) -> int:
        return self.seat

    def find_actions(self) -> list:
        if self.status != "playing":
            return []
        tops = [(index, pile.cards[-1] if pile.cards else pile.start, pile.direction)
                for index, pile in enumerate(self.piles)]
        actions = [("play", card, index) for card in self.hands[self.seat]
                   for index, top, direction in tops
                   if (step := (card - top) * direction) > 0 or step == -BACKWARDS]
        if self.played >= self.required:
            actions.append(END)
        return actions

    def play(self, action) -> None:
        if action == END:
            self.changed = ("end", self.seat)
            self._end_turn()
            return
        _, card, index = action
        self.changed = action
        hand = self.hands[self.seat]
        pile = self.piles[index]
        if (card - pile.top) * pile.direction < 0:
            self.backwards += 1
        hand.remove(card)
        pile.cards.append(card)
        self.played += 1
        self.plays += 1
        if not self.deck and not any(self.hands):
            self.status = "won"
        else:
            self._check_stuck()

    def why_illegal(self, action) -> str:
        if self.status != "playing":
            return f"the game is over ({self.status})"
        name = self.names[self.seat]
        if action == END:
            return f"{name} must play {self.required} card(s) this turn, {self.played} played so far"
        if not (isinstance(action, tuple) and len(action) == 3 and action[0] == "play"):
            return f"unknown action {action!r}"
        _, card, index = action
        hand = self.hands[self.seat]
        if card not in hand:
            return f"{card} is not in {name}'s hand {hand}"
        if not (type(index) is int and 0 <= index < len(self.piles)):
            return f"no pile {index!r}"
        pile = self.piles[index]
        way = "an ascending" if pile.direction > 0 else "a descending"
        return (f"{card} cannot go on {pile.name}, {way} pile showing {pile.top} "
                f"(it takes a card {'above' if pile.direction > 0 else 'below'} {pile.top}, "
                f"or {pile.top - BACKWARDS * pile.direction})")

    def is_terminal(self) -> bool:
        return self.status != "playing"

    def returns(self) -> list[float]:
        result = 1.0 if self.status == "won" else 0.0
        return [result] * self.players

    # -- turns

    def start_turn(self, seat: int) -> None:
        self.seat = seat
        self.turns += 1
        self.played = 0
        minimum = MINIMUM if self.deck else self.min_after_empty
        self.required = min(minimum, len(self.hands[seat]))
        self._check_stuck()

    def _check_stuck(self) -> None:
        """The current player loses the game for everyone when the minimum is out of reach."""
        if self.played < self.required and not self._can_play():
            self.status = "lost"

    def _can_play(self) -> bool:
        """Whether a card of the current hand goes on a pile."""
        hand = self.hands[self.seat]
        for pile in self.piles:
            top, direction = pile.cards[-1] if pile.cards else pile.start, pile.direction
            for card in hand:
                step = (card - top) * direction
                if step > 0 or step == -BACKWARDS:
                    return True
        return False

    def _end_turn(self) -> None:
        hand = self.hands[self.seat]
        while len(hand) < self.hand_size and self.deck:
            bisect.insort(hand, self.deck.pop())
        # A player without cards takes no more turns; the last card played has already won.
        for step in range(1, self.players + 1):
            seat = (self.seat + step) % self.players
            if self.hands[seat]:
                self.start_turn(seat)
                return
        raise InvariantBroken("every hand is empty but the game was not won")

    # -- figures

    @property
    def cards_left(self) -> int:
        """The score: cards in the draw pile and in hands (0 when the game is won)."""
        return len(self.deck) + sum(len(hand) for hand in self.hands)

    def _where(self) -> str:
        return f"turn {self.turns}, {self.plays} cards played"

    def check_invariants(self) -> None:
        changed, self.changed = self.changed, None
        if changed is None or self.full_checks or self.status != "playing" \
                or (self.plays + self.turns) % FULL_CHECK_EVERY == 0:
            return super().check_invariants()
        if not self._changed_holds(changed):
            self.check_rules()              # names what broke
            raise InvariantBroken(f"{self._where()}: the last action broke the cards, a pile or a hand")
        if not self.legal_actions():
            raise InvariantBroken(f"{self.names[self.seat]} can do nothing but play goes on")

    def _changed_holds(self, changed: tuple) -> bool:
        """Whether what one action changed keeps the invariants check_rules checks: every card
        counted, the card played on its pile as the pile allows and out of the hand, and the
        hands it touched in order and of their size."""
        deck, hands, piles, hand_size = self.deck, self.hands, self.piles, self.hand_size
        held = len(deck)
        for hand in hands:
            held += len(hand)
        for pile in piles:
            held += len(pile.cards)
        if held != len(self.box.numbers):
            return False
        if changed[0] == "play":
            _, card, index = changed
            pile = piles[index]
            cards = pile.cards
            if not cards or cards[-1] != card or card in hands[self.seat]:
                return False
            step = (card - (cards[-2] if len(cards) > 1 else pile.start)) * pile.direction
            if not (step > 0 or step == -BACKWARDS):
                return False
            seats = (self.seat,)
        else:
            seats = (changed[1], self.seat)
        for seat in seats:
            hand = hands[seat]
            size = len(hand)
            if size > hand_size or (deck and size + (self.played if seat == self.seat else 0) != hand_size):
                return False
            for left, right in zip(hand, hand[1:]):
                if left > right:
                    return False
        return True

    def check_rules(self) -> None:
        places = self.deck[:]
        for hand in self.hands:
            places += hand
        for pile in self.piles:
            places += pile.cards
        places.sort()
        every = self.__dict__.get("_every_card")
        if every is None or every[0] is not self.box.numbers:
            every = self.__dict__["_every_card"] = _every_card(self.box.numbers)
        every = every[1:]
        if places != every[0] or places != every[1]:
            missing = sorted(set(range(LOWEST, HIGHEST + 1)) - set(places))
            extra = sorted({card for card in places if places.count(card) > 1
                            or not LOWEST <= card <= HIGHEST})
            raise InvariantBroken(f"{self._where()}: every card {LOWEST}-{HIGHEST} is somewhere exactly once; "
                                  f"missing {missing}, doubled or foreign {extra}")
        if sorted([pile.start for pile in self.piles]) != list(self.box.piles):
            raise InvariantBroken(f"{self._where()}: the piles start on {[p.start for p in self.piles]}, "
                                  f"the pile cards are {list(self.box.piles)}")
        # A pile's cards already found in order need no second look while they stay the same.
        checked = self.__dict__.setdefault("_piles_checked", {})   # id -> (pile, start, direction, cards)
        for pile in self.piles:
            cards, done = pile.cards, 0
            known = checked.get(id(pile))
            if known is not None and known[0] is pile and known[1] == pile.start \
                    and known[2] == pile.direction and cards[:len(known[3])] == known[3]:
                done = len(known[3])
            below = cards[done - 1] if done else pile.start
            for card in cards[done:]:
                step = (card - below) * pile.direction
                if not (step > 0 or step == -BACKWARDS):
                    raise InvariantBroken(f"{self._where()}: {pile.name} has {card} on {below}")
                below = card
            if len(cards) != done:
                checked[id(pile)] = (pile, pile.start, pile.direction, cards[:])
        deck, hand_size = self.deck, self.hand_size
        for seat, hand in enumerate(self.hands):
            # While the draw pile lasts, every hand is full but for this turn's plays.
            held = len(hand) + (self.played if seat == self.seat else 0)
            if len(hand) > hand_size or (deck and held != hand_size):
                raise InvariantBroken(f"{self._where()}: {self.names[seat]} holds {len(hand)} cards "
                                      f"with {len(deck)} left to draw")
            if hand != sorted(hand):
                raise InvariantBroken(f"{self._where()}: {self.names[seat]}'s hand is out of order")
        if self.status == "won" and self.cards_left:
            raise InvariantBroken(f"{self._where()}: won with {self.cards_left} cards left")
        if self.status == "lost" and (self.played >= self.required or self._can_play()):
            raise InvariantBroken(f"{self._where()}: lost although {self.names[self.seat]} could go on")

    def stats(self) -> dict[str, Any]:
        return {"result": self.status, "cards_left": self.cards_left, "turns": self.turns,
                "plays": self.plays, "backwards_moves": self.backwards}

    def to_json(self) -> dict:
        terminal = self.status != "playing"
        return {
            "players": self.players, "hand_size": self.hand_size,
            "options": {"min_after_empty": self.min_after_empty},
            "status": self.status, "terminal": terminal,
            "current": None if terminal else self.names[self.seat],
            "lost_by": self.names[self.seat] if self.status == "lost" else None,
            "turns": self.turns, "played_this_turn": self.played, "required_this_turn": self.required,
            "cards_left": self.cards_left,
            "deck": self.deck[::-1],
            "seats": {name: {"seat": seat + 1, "hand": list(self.hands[seat])}
                      for seat, name in enumerate(self.names)},
            "piles": {pile.name: pile.to_json() for pile in self.piles},
            "plays": self.plays, "backwards_moves": self.backwards,
        }
