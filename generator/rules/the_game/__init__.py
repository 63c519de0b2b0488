"""The Game ("Hraj, dokud můžeš"): what the rules (seed 003) need of the components, and the
rules engine.

SPEC is written from the rule text, not from the YAML, so that the two check each other. The
engine deals from the loaded components (`box_from_game`), so a simulation plays the cards
the kit prints, and `pnp validate` has already proved those equal to SPEC.

Rules (seed 003, cs):
- Two ascending piles start at 1, two descending piles at 100. The draw pile holds one card of
  each number 2-99. Hands: 8 for one player, 7 for two, 6 for three to five.
- On an ascending pile any higher card may be played, on a descending pile any lower one; on
  any pile a card exactly 10 "backwards" may be played (10 lower on ascending, 10 higher on
  descending).
- A turn: play at least 2 cards (the last card, if only one is left in hand), as many more as
  wished, then refill the hand from the draw pile. The seed keeps the minimum at 2 after the
  draw pile runs out; the published rules lower it to 1 then, here the option
  `min_after_empty=1`.
- A player without cards takes no more turns. Loss: the current player cannot play the
  minimum. Win: draw pile and every hand emptied. Score: cards not played (0 is a win).
"""
from __future__ import annotations

import bisect
import random
from dataclasses import dataclass, field
from typing import Any

from ..engine import Engine, IllegalAction, InvariantBroken, State, random_policy
from ..spec import GameSpec, Setup

MIN_PLAYERS, MAX_PLAYERS = 1, 5
HAND_SIZES = {1: 8, 2: 7, 3: 6, 4: 6, 5: 6}
LOWEST, HIGHEST = 2, 99          # the draw pile: one card of each number
ASCENDING_START, DESCENDING_START = 1, 100
PILES_EACH_WAY = 2
MINIMUM = 2                       # cards a turn must play (fewer only when the hand holds fewer)
BACKWARDS = 10                    # the exact step that may go against a pile's direction
EDITION = "standard"

NUMBER_IDS = {value: f"n{value:02d}" for value in range(LOWEST, HIGHEST + 1)}
PILE_IDS = {ASCENDING_START: "pile-up", DESCENDING_START: "pile-down"}


def setup(players: int, edition: str) -> Setup:
    hand = HAND_SIZES[players]
    components = {
        # Every number card is shuffled into the draw pile, whatever the table.
        "cards/numbers": HIGHEST - LOWEST + 1,
        "cards/piles": 2 * PILES_EACH_WAY,
    }
    return Setup(players, players, components, (f"{hand} cards in hand",))


def _facts() -> dict[str, object]:
    facts: dict[str, object] = {
        "game.yaml:players.min": MIN_PLAYERS,
        "game.yaml:players.max": MAX_PLAYERS,
    }
    facts.update({f"game.yaml:hand_sizes.{players}": hand for players, hand in HAND_SIZES.items()})
    # Each card counts as, and shows, its number.
    for value, card in list(NUMBER_IDS.items()) + list(PILE_IDS.items()):
        facts[f"cards.yaml:cards.{card}.value"] = value
        facts[f"cards.yaml:cards.{card}.name"] = str(value)
    return facts


SPEC = GameSpec(
    slug="the-game",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    counts={EDITION: {"cards": {**{card: 1 for card in NUMBER_IDS.values()},
                                **{card: PILES_EACH_WAY for card in PILE_IDS.values()}}}},
    totals={EDITION: {"cards/numbers": 98, "cards/piles": 4, "cards": 102}},
    facts=_facts(),
    setup=setup,
)


# ---- the engine ---------------------------------------------------------------------------

END = ("end",)                    # end the turn (legal once the minimum is played)
# A play is ("play", card, pile index); piles are numbered as dealt: ascending first.


@dataclass(frozen=True)
class Box:
    """What the engine deals from: the number cards and the pile cards, one entry per copy."""

    numbers: tuple[int, ...]
    piles: tuple[int, ...]
    hand_sizes: dict[int, int]


def box_from_game(game, edition: str = EDITION) -> Box:
    """The cards of one edition of the loaded game (deck `numbers` and deck `piles`)."""
    numbers, piles = [], []
    for component in game.in_edition(edition, "cards"):
        into = numbers if component.group == "numbers" else piles
        into += [int(component.data["value"])] * component.count(edition)
    hands = {int(players): size for players, size in game.meta.get("hand_sizes", {}).items()}
    return Box(tuple(sorted(numbers)), tuple(sorted(piles)), hands)


@dataclass
class Pile:
    direction: int                # +1 ascending, -1 descending
    cards: list[int]              # the pile card first, the top last

    @property
    def top(self) -> int:
        return self.cards[-1]

    def takes(self, card: int) -> bool:
        step = (card - self.top) * self.direction
        return step > 0 or step == -BACKWARDS

    def to_json(self) -> dict:
        return {"direction": "up" if self.direction > 0 else "down", "cards": list(self.cards)}


@dataclass
class GameState(State):
    box: Box
    players: int
    hand_size: int
    min_after_empty: int
    rng: random.Random
    deck: list[int] = field(default_factory=list)          # drawn from the end
    hands: list[list[int]] = field(default_factory=list)   # each kept sorted
    piles: list[Pile] = field(default_factory=list)
    seat: int = 0
    played: int = 0               # cards played this turn
    required: int = MINIMUM       # cards this turn must play, fixed when it starts
    status: str = "playing"       # playing, won, lost
    turns: int = 0
    plays: int = 0
    backwards: int = 0            # exact-10 moves played

    # -- the interface

    def current_player(self) -> int:
        return self.seat

    def legal_actions(self) -> list:
        if self.status != "playing":
            return []
        actions = [("play", card, index) for card in self.hands[self.seat]
                   for index, pile in enumerate(self.piles) if pile.takes(card)]
        if self.played >= self.required:
            actions.append(END)
        return actions

    def apply(self, action) -> None:
        if self.status != "playing":
            raise IllegalAction(f"the game is over ({self.status})")
        if action == END:
            if self.played < self.required:
                raise IllegalAction(f"the turn must play {self.required} card(s), {self.played} played")
            self._end_turn()
            return
        if not (isinstance(action, tuple) and len(action) == 3 and action[0] == "play"):
            raise IllegalAction(f"unknown action {action!r}")
        _, card, index = action
        hand = self.hands[self.seat]
        if card not in hand:
            raise IllegalAction(f"card {card} is not in player {self.seat + 1}'s hand")
        if not (isinstance(index, int) and 0 <= index < len(self.piles)):
            raise IllegalAction(f"no pile {index!r}")
        pile = self.piles[index]
        if not pile.takes(card):
            way = "ascending" if pile.direction > 0 else "descending"
            raise IllegalAction(f"{card} cannot go on the {way} pile showing {pile.top}")
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

    def is_terminal(self) -> bool:
        return self.status != "playing"

    def returns(self) -> list[float]:
        result = 1.0 if self.status == "won" else 0.0
        return [result] * self.players

    # -- turns

    def _start_turn(self) -> None:
        self.turns += 1
        self.played = 0
        minimum = MINIMUM if self.deck else self.min_after_empty
        self.required = min(minimum, len(self.hands[self.seat]))
        self._check_stuck()

    def _check_stuck(self) -> None:
        """The current player loses the game for everyone if the minimum is out of reach."""
        if self.played < self.required and not any(
                pile.takes(card) for card in self.hands[self.seat] for pile in self.piles):
            self.status = "lost"

    def _end_turn(self) -> None:
        hand = self.hands[self.seat]
        while len(hand) < self.hand_size and self.deck:
            bisect.insort(hand, self.deck.pop())
        for step in range(1, self.players + 1):
            seat = (self.seat + step) % self.players
            if self.hands[seat]:
                self.seat = seat
                self._start_turn()
                return
        self.status = "won"       # unreachable: the last card played already won

    # -- figures

    @property
    def cards_left(self) -> int:
        """The score: cards in the draw pile and in hands (0 when the game is won)."""
        return len(self.deck) + sum(len(hand) for hand in self.hands)

    def check_invariants(self) -> None:
        where = f"after {self.plays} plays, turn {self.turns}"
        places = self.deck + [card for hand in self.hands for card in hand] \
            + [card for pile in self.piles for card in pile.cards[1:]]
        if sorted(places) != list(self.box.numbers):
            missing = sorted(set(self.box.numbers) - set(places))
            extra = sorted(card for card in set(places) if places.count(card) > 1 or card not in self.box.numbers)
            raise InvariantBroken(f"{where}: cards lost {missing} or doubled/foreign {extra}")
        if sorted(places) != list(range(LOWEST, HIGHEST + 1)):
            raise InvariantBroken(f"{where}: the cards are not one each of {LOWEST}-{HIGHEST}")
        starts = sorted(pile.cards[0] for pile in self.piles)
        if starts != list(self.box.piles):
            raise InvariantBroken(f"{where}: pile cards {starts}, the box has {list(self.box.piles)}")
        for index, pile in enumerate(self.piles):
            for below, above in zip(pile.cards, pile.cards[1:]):
                step = (above - below) * pile.direction
                if not (step > 0 or step == -BACKWARDS):
                    raise InvariantBroken(f"{where}: pile {index} has {above} on {below}")
        for seat, hand in enumerate(self.hands):
            # While the draw pile lasts, every hand is full but for this turn's plays.
            held = len(hand) + (self.played if seat == self.seat else 0)
            if len(hand) > self.hand_size or (self.deck and held != self.hand_size):
                raise InvariantBroken(f"{where}: player {seat + 1} holds {len(hand)} cards "
                                      f"({len(self.deck)} left to draw)")
        if self.status == "won" and self.cards_left:
            raise InvariantBroken(f"{where}: won with {self.cards_left} cards left")
        if self.status == "playing" and not self.legal_actions():
            raise InvariantBroken(f"{where}: player {self.seat + 1} has no action but the game goes on")
        if self.status == "lost" and self.played >= self.required:
            raise InvariantBroken(f"{where}: lost although the minimum was played")

    def stats(self) -> dict[str, Any]:
        return {"result": self.status, "cards_left": self.cards_left, "won": self.status == "won",
                "turns": self.turns, "plays": self.plays, "backwards_moves": self.backwards,
                "players": self.players}

    def to_json(self) -> dict:
        return {"players": self.players, "hand_size": self.hand_size,
                "min_after_empty": self.min_after_empty, "status": self.status,
                "current_player": self.seat, "played_this_turn": self.played,
                "required_this_turn": self.required, "cards_left": self.cards_left,
                "deck": list(self.deck), "hands": [list(hand) for hand in self.hands],
                "piles": [pile.to_json() for pile in self.piles], "turns": self.turns}


def new_game(players: int, edition: str = EDITION, seed: int = 0, *, game=None, box: Box | None = None,
             min_after_empty: int = MINIMUM) -> GameState:
    """A shuffled, dealt game. The cards come from `game` (the loaded components) or `box`."""
    if box is None:
        if game is None:
            raise TypeError("new_game needs the loaded game (game=) or its cards (box=)")
        box = box_from_game(game, edition)
    if players not in box.hand_sizes:
        raise ValueError(f"The Game is for {min(box.hand_sizes)}-{max(box.hand_sizes)} players, not {players}")
    if min_after_empty not in (1, MINIMUM):
        raise ValueError(f"min_after_empty is {MINIMUM} (the seed's rule) or 1 (the published variant)")
    rng = random.Random(seed)
    deck = list(box.numbers)
    rng.shuffle(deck)
    lowest, highest = min(box.numbers), max(box.numbers)
    piles = [Pile(+1 if start < lowest else -1, [start]) for start in box.piles]
    if any(lowest <= start <= highest for start in box.piles):
        raise ValueError(f"pile cards {box.piles} must lie outside the numbers {lowest}-{highest}")
    piles.sort(key=lambda pile: -pile.direction)
    hand_size = box.hand_sizes[players]
    state = GameState(box, players, hand_size, min_after_empty, rng, deck=deck, piles=piles)
    state.hands = [sorted(deck.pop() for _ in range(hand_size)) for _ in range(players)]
    state.seat = 0
    state._start_turn()
    return state


# ---- policies -----------------------------------------------------------------------------

def _live_between(live: list[int], low: int, high: int) -> int:
    """Unplayed cards strictly between low and high (live is sorted)."""
    return max(0, bisect.bisect_left(live, high) - bisect.bisect_right(live, low))


def play_cost(card: int, pile: Pile, live: list[int], hand: set[int]) -> float:
    """How many unplayed cards this play shuts off the pile; a backwards move reopens some
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


PAIR_BONUS = 0.5          # two cards gone for the price of one move
HINT_REACH = 1            # a player asks to keep a pile it can play on skipping at most this
HINT_PENALTY = 6          # extra cost of moving a pile forward that someone asked to keep


def wanted_piles(state: GameState, live: list[int]) -> set[int]:
    """The hints the rules allow ("please do not play on this pile"): the piles another
    player could play on with a backwards move or skipping at most HINT_REACH unplayed cards.
    Only that much of the other hands reaches the policy."""
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


def heuristic_policy(state: GameState, rng: random.Random, *, patience: float = 0):
    """Play the cheapest card: fewest unplayed cards skipped, backwards moves (and pairs that
    end in one) first, piles the others asked to keep last. After the minimum, keep playing
    only while a play skips at most `patience` unplayed cards, so the hand keeps its choice.
    It sees what a player sees: its own hand, the piles (so every played card) and the hints."""
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
    if END in actions and cost > patience:
        return END
    return ("play", card, index)


ENGINE = Engine(
    slug="the-game",
    new_game=new_game,
    policies={"random": random_policy, "heuristic": heuristic_policy},
    options={"min_after_empty": MINIMUM},
    max_actions=1_000,
)
