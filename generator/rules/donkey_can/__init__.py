"""The Donkey Can! ("Ішак зможе!"): what the rules (seed 001) need of the components, and the
rules engine.

SPEC is written from the rule text and the design decisions recorded in the game's YAML
(`# decided:`), not read from the YAML, so that the two check each other. The engine plays
the loaded components (`box_from_game`), which `pnp validate` has proved equal to SPEC.

Rules (seed 001, uk), with the decisions the text leaves open:
- Each player takes a colour: its contract card, its cargo cards (in hand) and a reference
  card. 8 of the 20 donkeys are drawn at random; the other 12 stay in the box. A first player
  is chosen (here at random).
- A round: reveal the next donkey; its capacity is 5 × players, changed by its effect. Every
  player plays one cargo card face down (the seed's step 1 says "face up", but step 4 turns
  the cards over, so they lie face down). Then, from the first player clockwise, each may use a
  driver advantage: play a cargo card from hand advantage side up; it does not count towards
  the load; at most 2 per player per game (decided: at most 1 per round). Then, from the first
  player clockwise, each accepts (green tick) or refuses (red cross) the contract. The cargo is
  revealed: a donkey is overloaded when the load exceeds its capacity.
  Not overloaded: every player who accepted takes their own cargo card into their score pile.
  Overloaded: all cargo cards are shuffled and every player who refused takes one at random.
  The other cargo cards, and the advantage cards used, go to the discard pile (decided).
  The first-player card passes clockwise.
- After the 8th donkey: the score is the sum of the cargo values won; a tie goes to the most
  cards won; a tie after that is a shared win.

Decided (see components/donkey-can/cards.yaml): 2-5 players; cargo values 0-10 per colour;
advantages peek (2), swap (4), carrot (6, capacity +5), sack (8, capacity -5); donkeys with a
capacity change of 0, +-3 or +-6, and four special effects.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ..engine import Engine, IllegalAction, InvariantBroken, SetupError, State, random_policy
from ..spec import GameSpec, Setup

EDITION = "standard"
MIN_PLAYERS, MAX_PLAYERS = 2, 5
ROUNDS = 8                       # one donkey per round, 8 drawn per game
CAPACITY_PER_PLAYER = 5          # a donkey without effects carries 5 × players
MAX_ADVANTAGES = 2               # driver advantages per player per game
ADVANTAGES_PER_ROUND = 1         # decided: one card per player per round
ADVANTAGE_SHIFT = 5              # decided: carrot +5, sack -5 capacity for the round
TOTAL_CARDS = 90                 # "90 карток"

# Decks (card groups) and what the rules need of each.
DONKEY_DECK, CONTRACT_DECK, CARGO_DECK = "donkeys", "contracts", "cargo"
REFERENCE_DECK, FIRST_PLAYER_DECK, CAPACITY_DECK = "reference", "first-player", "capacity"

COLOURS = ("red", "blue", "green", "yellow", "purple")      # decided: 5 colours
CARGO_VALUES = tuple(range(0, 11))                          # decided: 0-10 per colour
ADVANTAGE_ON = {2: "peek", 4: "swap", 6: "carrot", 8: "sack"}  # decided: the value each rides on
ADVANTAGES = ("peek", "swap", "carrot", "sack")
CAPACITY_CARDS = {players: f"capacity-{players}" for players in range(MIN_PLAYERS, MAX_PLAYERS + 1)}

# decided: the 20 donkeys, id -> (change to the standard capacity, special effect).
DONKEY_EFFECTS = ("stubborn", "ignore-heaviest", "double-heaviest", "reverse-order")
DONKEYS: dict[str, tuple[int, str | None]] = {
    "donkey-sirko": (0, None), "donkey-vukhan": (0, None), "donkey-myshko": (0, None),
    "donkey-tykhon": (0, None), "donkey-bublyk": (0, None), "donkey-khvostyk": (0, None),
    "donkey-kopytko": (3, None), "donkey-hryts": (3, None), "donkey-dzvonyk": (3, None),
    "donkey-sylach": (6, None), "donkey-bohatyr": (6, None),
    "donkey-pyrizhok": (-3, None), "donkey-spliukh": (-3, None), "donkey-kvolyk": (-3, None),
    "donkey-ledar": (-6, None), "donkey-maliuk": (-6, None),
    "donkey-upertiukh": (0, "stubborn"), "donkey-khytrun": (0, "ignore-heaviest"),
    "donkey-skyhlii": (0, "double-heaviest"), "donkey-zadkun": (0, "reverse-order"),
}


def cargo_id(colour: str, value: int) -> str:
    return f"cargo-{colour}-{value}"


def _design_problems() -> list[str]:
    """The decisions must let every player play 8 rounds plus 2 advantages, and fill 90 cards."""
    problems = []
    per_colour_cargo = len(CARGO_VALUES)
    if per_colour_cargo < ROUNDS + MAX_ADVANTAGES:
        problems.append(f"{per_colour_cargo} cargo cards per colour; a player needs "
                        f"{ROUNDS} rounds + {MAX_ADVANTAGES} advantages")
    if len(ADVANTAGE_ON) < MAX_ADVANTAGES:
        problems.append(f"{len(ADVANTAGE_ON)} advantage cards per colour, a player may use {MAX_ADVANTAGES}")
    if len(COLOURS) < MAX_PLAYERS:
        problems.append(f"{len(COLOURS)} colours for up to {MAX_PLAYERS} players")
    if len(DONKEYS) < ROUNDS:
        problems.append(f"{len(DONKEYS)} donkeys for {ROUNDS} rounds")
    if sum(change for change, _ in DONKEYS.values()) != 0:
        problems.append("the donkeys' capacity changes do not balance out")
    return problems


if _design_problems():       # a broken design is a programming error, not bad data
    raise RuntimeError("donkey_can design: " + "; ".join(_design_problems()))


def _counts() -> dict[str, int]:
    cards = {donkey: 1 for donkey in DONKEYS}
    for colour in COLOURS:
        cards[f"contract-{colour}"] = 1
        cards.update({cargo_id(colour, value): 1 for value in CARGO_VALUES})
        cards[f"reference-{colour}"] = 1
    cards["first-player"] = 1
    cards.update({card: 1 for card in CAPACITY_CARDS.values()})
    return cards


def setup(players: int, edition: str) -> Setup:
    """What a game of `players` needs: a colour each with 8 + 2 playable cargo cards."""
    components = {
        "cards/donkeys": ROUNDS,
        "cards/contracts": players,
        "cards/cargo": players * (ROUNDS + MAX_ADVANTAGES),
        "cards/reference": players,
        "cards/first-player": 1,
        "cards/capacity": 1,
    }
    notes = (f"{ROUNDS} of the donkeys, drawn at random", "each player: one colour's contract, cargo and reference",
             f"the capacity card for {players} players")
    return Setup(players, players, components, notes)


def _facts() -> dict[str, object]:
    facts: dict[str, object] = {
        "game.yaml:players.min": MIN_PLAYERS,
        "game.yaml:players.max": MAX_PLAYERS,
    }
    for donkey, (change, effect) in DONKEYS.items():
        facts[f"cards.yaml:cards.{donkey}.value"] = change
        facts[f"cards.yaml:cards.{donkey}.effect"] = effect
    for colour in COLOURS:
        for value in CARGO_VALUES:
            card = cargo_id(colour, value)
            facts[f"cards.yaml:cards.{card}.value"] = value
            facts[f"cards.yaml:cards.{card}.name"] = str(value)
            facts[f"cards.yaml:cards.{card}.effect"] = ADVANTAGE_ON.get(value)
            # an advantage is printed on the card's other side
            facts[f"cards.yaml:cards.{card}.back"] = "advantage" if value in ADVANTAGE_ON else None
    for players, card in CAPACITY_CARDS.items():
        facts[f"cards.yaml:cards.{card}.value"] = CAPACITY_PER_PLAYER * players
        facts[f"cards.yaml:cards.{card}.name"] = str(CAPACITY_PER_PLAYER * players)
    return facts


SPEC = GameSpec(
    slug="donkey-can",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    counts={EDITION: {"cards": _counts()}},
    totals={EDITION: {
        "cards": TOTAL_CARDS,
        "cards/donkeys": 20,
        "cards/contracts": len(COLOURS),
        "cards/cargo": len(COLOURS) * len(CARGO_VALUES),
        "cards/reference": len(COLOURS),
        "cards/first-player": 1,
        "cards/capacity": len(CAPACITY_CARDS),
    }},
    facts=_facts(),
    setup=setup,
)


# ---- the box: what the engine plays with ------------------------------------------------

@dataclass(frozen=True)
class Cargo:
    id: str
    value: int
    advantage: str | None         # the driver advantage on its other side


@dataclass(frozen=True)
class ColourSet:
    colour: str                   # the printed colour, "#rrggbb"
    contract: str | None
    reference: str | None
    cargo: tuple[Cargo, ...]


@dataclass(frozen=True)
class Donkey:
    id: str
    change: int                   # to the standard capacity
    effect: str | None


@dataclass(frozen=True)
class Box:
    colours: tuple[ColourSet, ...]
    donkeys: tuple[Donkey, ...]

    def cargo(self) -> dict[str, Cargo]:
        return {card.id: card for colour in self.colours for card in colour.cargo}


def _copies(component, edition: str) -> list[str]:
    """One id per printed copy: the card id, then id:2, id:3 ..."""
    count = component.count(edition)
    return [component.id] + [f"{component.id}:{n}" for n in range(2, count + 1)]


def box_from_game(game, edition: str = EDITION) -> Box:
    """The cards of one edition of the loaded game, sorted into colour sets and donkeys.
    Raises SetupError naming a card the rules cannot play (a missing value, an unknown effect)."""
    sets: dict[str, dict] = {}
    donkeys = []

    def number(component) -> int:
        value = component.data.get("value")
        if not isinstance(value, int):
            raise SetupError(f"{component.keypath} has no whole-number value, the rules need one",
                             ("cards", ("cards", component.id)))
        return value

    def effect(component, known) -> str | None:
        name = component.data.get("effect")
        if name is not None and name not in known:
            raise SetupError(f"{component.keypath}: no rule for effect '{name}' (rules know: {', '.join(known)})",
                             ("cards", ("cards", component.id, "effect")))
        return name

    for component in game.in_edition(edition, "cards"):
        deck = component.group
        if deck == DONKEY_DECK:
            change, special = number(component), effect(component, DONKEY_EFFECTS)
            donkeys += [Donkey(card, change, special) for card in _copies(component, edition)]
        elif deck in (CONTRACT_DECK, CARGO_DECK, REFERENCE_DECK):
            colour = component.data.get("colour")
            if colour is None:
                raise SetupError(f"{component.keypath} has no colour: the rules deal cards by player colour",
                                 ("cards", ("cards", component.id)))
            entry = sets.setdefault(colour, {"contract": [], "reference": [], "cargo": []})
            if deck == CARGO_DECK:
                value, advantage = number(component), effect(component, ADVANTAGES)
                entry["cargo"] += [Cargo(card, value, advantage) for card in _copies(component, edition)]
            else:
                entry["contract" if deck == CONTRACT_DECK else "reference"] += _copies(component, edition)
    colours = tuple(ColourSet(colour, (entry["contract"] or [None])[0], (entry["reference"] or [None])[0],
                              tuple(entry["cargo"])) for colour, entry in sets.items())
    return Box(colours, tuple(donkeys))


def _playable(colour: ColourSet) -> str | None:
    """Why a colour set cannot seat a player, or None."""
    if colour.contract is None:
        return "has no contract card"
    if colour.reference is None:
        return "has no reference card"
    if len(colour.cargo) < ROUNDS + MAX_ADVANTAGES:
        return (f"has {len(colour.cargo)} cargo cards; a player needs {ROUNDS} rounds + "
                f"{MAX_ADVANTAGES} advantages = {ROUNDS + MAX_ADVANTAGES}")
    if sum(1 for card in colour.cargo if card.advantage) < MAX_ADVANTAGES:
        return f"has fewer than {MAX_ADVANTAGES} cargo cards with a driver advantage"
    return None


# ---- the game ---------------------------------------------------------------------------

PASS = ("pass",)
ACCEPT, REFUSE = ("accept",), ("refuse",)
# Other actions: ("cargo", card) plays a cargo card face down; ("advantage", card, target) uses
# a driver advantage: target is a seat (peek), a card from hand (swap) or None (carrot, sack).


@dataclass
class Round:
    """What happened in one finished round (public once the round is over)."""

    donkey: str
    first: int
    capacity: int
    load: int
    overloaded: bool
    cargo: list[str]
    contracts: list[bool]
    advantages: list[tuple[int, str, Any]]      # (seat, card, target) in the order used
    taken: dict[int, str]                       # seat -> cargo card won

    def to_json(self) -> dict:
        return {"donkey": self.donkey, "first_player": self.first, "capacity": self.capacity,
                "load": self.load, "overloaded": self.overloaded, "cargo": list(self.cargo),
                "contracts": ["accept" if c else "refuse" for c in self.contracts],
                "advantages": [list(a) for a in self.advantages],
                "taken": {str(seat): card for seat, card in sorted(self.taken.items())}}


@dataclass
class DonkeyState(State):
    box: Box
    players: int
    rng: random.Random
    colours: list[ColourSet] = field(default_factory=list)      # by seat
    cards: dict[str, Cargo] = field(default_factory=dict)        # every cargo card in play
    donkeys: list[Donkey] = field(default_factory=list)          # the 8 drawn, in order
    set_aside: list[Donkey] = field(default_factory=list)        # the 12 left in the box
    round: int = 0                  # rounds finished
    first: int = 0                  # seat holding the first-player card
    phase: str = "cargo"            # cargo, advantage, contract, over
    queue: list[int] = field(default_factory=list)               # seats still to act this phase
    hands: list[list[str]] = field(default_factory=list)
    table: list[str | None] = field(default_factory=list)        # face-down cargo by seat
    contracts: list[bool | None] = field(default_factory=list)
    shift: int = 0                  # carrots and sacks this round
    used_now: list[tuple[int, str, Any]] = field(default_factory=list)
    used: list[list[str]] = field(default_factory=list)          # advantage cards by seat, all game
    peeks: list[dict[int, tuple[str, int]]] = field(default_factory=list)  # seat -> target -> (card, step)
    swapped_at: list[int] = field(default_factory=list)          # step of each seat's last swap
    step: int = 0                   # actions this round (orders peeks and swaps)
    won: list[list[str]] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    history: list[Round] = field(default_factory=list)
    actions: int = 0

    # -- the interface

    def current_player(self) -> int:
        return self.queue[0] if self.queue else -1

    def legal_actions(self) -> list:
        if self.phase == "over":
            return []
        seat = self.queue[0]
        hand = self.hands[seat]
        if self.phase == "cargo":
            return [("cargo", card) for card in hand]
        if self.phase == "contract":
            return [ACCEPT, REFUSE]
        actions = [PASS]
        for card in self.usable_advantages(seat):
            kind = self.cards[card].advantage
            if kind == "peek":
                actions += [("advantage", card, target) for target in self._order() if target != seat]
            elif kind == "swap":
                actions += [("advantage", card, other) for other in hand if other != card]
            else:
                actions.append(("advantage", card, None))
        return actions

    def apply(self, action) -> None:
        if self.phase == "over":
            raise IllegalAction("the game is over")
        action = tuple(action) if isinstance(action, (list, tuple)) else action
        if action not in self.legal_actions():
            raise IllegalAction(self._why_illegal(action))
        seat = self.queue.pop(0)
        self.actions += 1
        self.step += 1
        if action[0] == "cargo":
            self.hands[seat].remove(action[1])
            self.table[seat] = action[1]
            if not self.queue:
                self._start_advantages()
        elif action[0] in ("pass", "advantage"):
            if action[0] == "advantage":
                self._use_advantage(seat, action[1], action[2])
            if not self.queue:
                self._start_contracts()
        else:
            self.contracts[seat] = action == ACCEPT
            if not self.queue:
                self._resolve()

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def returns(self) -> list[float]:
        ranking = [(self.points(seat), len(self.won[seat])) for seat in range(self.players)]
        best = max(ranking)
        winners = [seat for seat, rank in enumerate(ranking) if rank == best]
        return [1 / len(winners) if seat in winners else 0.0 for seat in range(self.players)]

    # -- what everyone can see

    @property
    def donkey(self) -> Donkey | None:
        return self.donkeys[self.round] if self.round < len(self.donkeys) else None

    def capacity(self) -> int:
        """The current donkey's capacity, with this round's carrots and sacks."""
        return CAPACITY_PER_PLAYER * self.players + self.donkey.change + self.shift

    def points(self, seat: int) -> int:
        return sum(self.cards[card].value for card in self.won[seat])

    def usable_advantages(self, seat: int) -> list[str]:
        """Advantage cards the seat may use now: within the limits, keeping a card per round."""
        if self.phase != "advantage" or self.donkey.effect == "stubborn":
            return []
        if len(self.used[seat]) >= MAX_ADVANTAGES:
            return []
        if sum(1 for used_by, _, _ in self.used_now if used_by == seat) >= ADVANTAGES_PER_ROUND:
            return []
        rounds_after = ROUNDS - self.round - 1
        if len(self.hands[seat]) - 1 < rounds_after:
            return []
        return [card for card in self.hands[seat] if self.cards[card].advantage]

    def possible_cards(self, viewer: int, target: int) -> list[str]:
        """The cards `viewer` knows `target`'s face-down card to be among: the target's cards
        still unseen (every played card is revealed, so these are public), narrowed by a
        peek or by the advantage side a face-down advantage card shows."""
        card = self.table[target]
        if target == viewer:
            return [card]
        peeked = self.peeks[viewer].get(target)
        if peeked and peeked[1] > self.swapped_at[target]:
            return [peeked[0]]
        unseen = self.hands[target] + [card]
        shown = self.cards[card].advantage
        return [c for c in unseen if self.cards[c].advantage == shown]

    def load_of(self, cargo: list[int]) -> int:
        """The load the donkey feels from these cargo values, with its effect."""
        total = sum(cargo)
        effect = self.donkey.effect
        if effect == "ignore-heaviest" and cargo:
            total -= max(cargo)
        elif effect == "double-heaviest" and cargo:
            total += max(cargo)
        return total

    # -- the round

    def _order(self) -> list[int]:
        return [(self.first + step) % self.players for step in range(self.players)]

    def _start_round(self) -> None:
        self.table = [None] * self.players
        self.contracts = [None] * self.players
        self.shift, self.used_now, self.step = 0, [], 0
        self.peeks = [{} for _ in range(self.players)]
        self.swapped_at = [0] * self.players
        if self.round >= ROUNDS:
            self.phase, self.queue = "over", []
            return
        self.phase = "cargo"
        self.queue = self._order()

    def _start_advantages(self) -> None:
        self.phase = "advantage"
        # Players who cannot use an advantage have nothing to decide and are not asked.
        self.queue = [seat for seat in self._order() if self.usable_advantages(seat)]
        if not self.queue:
            self._start_contracts()

    def _use_advantage(self, seat: int, card: str, target) -> None:
        self.hands[seat].remove(card)
        self.used[seat].append(card)
        self.used_now.append((seat, card, target))
        kind = self.cards[card].advantage
        if kind == "peek":
            self.peeks[seat][target] = (self.table[target], self.step)
        elif kind == "swap":
            self.hands[seat].remove(target)
            self.hands[seat].append(self.table[seat])
            self.table[seat] = target
            self.swapped_at[seat] = self.step
        elif kind == "carrot":
            self.shift += ADVANTAGE_SHIFT
        elif kind == "sack":
            self.shift -= ADVANTAGE_SHIFT

    def _start_contracts(self) -> None:
        self.phase = "contract"
        order = self._order()
        if self.donkey.effect == "reverse-order":
            # counter-clockwise from the player to the first player's right: the first player last
            order = order[1:][::-1] + order[:1]
        self.queue = order

    def _resolve(self) -> None:
        cargo = list(self.table)
        capacity = self.capacity()
        load = self.load_of([self.cards[card].value for card in cargo])
        overloaded = load > capacity
        taken: dict[int, str] = {}
        if overloaded:
            pile = list(cargo)
            self.rng.shuffle(pile)
            for seat in self._order():
                if not self.contracts[seat]:
                    taken[seat] = pile.pop()
        else:
            taken = {seat: cargo[seat] for seat in self._order() if self.contracts[seat]}
        for seat, card in taken.items():
            self.won[seat].append(card)
        self.discard += [card for card in cargo if card not in taken.values()]
        self.discard += [card for _, card, _ in self.used_now]
        self.history.append(Round(self.donkey.id, self.first, capacity, load, overloaded, cargo,
                                  list(self.contracts), list(self.used_now), taken))
        self.round += 1
        self.first = (self.first + 1) % self.players
        self._start_round()

    def _why_illegal(self, action) -> str:
        who = f"player {self.queue[0] + 1}"
        if not isinstance(action, tuple) or not action:
            return f"not an action: {action!r}"
        expected = {"cargo": "play a cargo card (cargo, card)", "advantage": "pass or use an advantage",
                    "contract": "accept or refuse"}[self.phase]
        if action[0] == "cargo" and self.phase == "cargo":
            return f"{who} has no card {action[1:]!r} in hand"
        if action[0] == "advantage" and self.phase == "advantage":
            if self.donkey.effect == "stubborn":
                return "this donkey allows no driver advantages"
            if len(self.used[self.queue[0]]) >= MAX_ADVANTAGES:
                return f"{who} has used {MAX_ADVANTAGES} advantages already"
            return f"{who} cannot use {action[1:]!r} now"
        return f"{who} must {expected} now, not {action!r}"

    # -- checks and figures

    def check_invariants(self) -> None:
        where = f"round {self.round + 1}, {self.phase}"
        for seat, colour in enumerate(self.colours):
            own = [card.id for card in colour.cargo]
            places = (self.hands[seat] + [c for c in self.table if c in own] + self.discard
                      + [c for pile in self.won for c in pile] + [c for _, c, _ in self.used_now])
            places = [card for card in places if card in own]
            if sorted(places) != sorted(own):
                lost = sorted(set(own) - set(places))
                doubled = sorted({card for card in places if places.count(card) > 1})
                raise InvariantBroken(f"{where}: player {seat + 1}'s cargo lost {lost} or doubled {doubled}")
            if len(self.used[seat]) > MAX_ADVANTAGES:
                raise InvariantBroken(f"{where}: player {seat + 1} used {len(self.used[seat])} advantages")
            played = self.round + (self.table[seat] is not None)
            if len(self.hands[seat]) != len(own) - played - len(self.used[seat]):
                raise InvariantBroken(f"{where}: player {seat + 1} holds {len(self.hands[seat])} cards")
            if len(self.hands[seat]) + (self.table[seat] is not None) < ROUNDS - self.round:
                raise InvariantBroken(f"{where}: player {seat + 1} cannot play the rounds left")
        every = [card for pile in (self.hands + self.won) for card in pile] + self.discard \
            + [c for c in self.table if c] + [c for _, c, _ in self.used_now]
        if any(card not in self.cards for card in every) or len(every) != len(self.cards):
            raise InvariantBroken(f"{where}: {len(every)} cargo cards in play, the colours hold {len(self.cards)}")
        for seat in range(self.players):
            rounds = sum(1 for r in self.history for used_by, _, _ in r.advantages if used_by == seat)
            per_round = max((sum(1 for s, _, _ in r.advantages if s == seat) for r in self.history), default=0)
            if rounds != len(self.used[seat]) - sum(1 for s, _, _ in self.used_now if s == seat) \
                    or per_round > ADVANTAGES_PER_ROUND:
                raise InvariantBroken(f"{where}: player {seat + 1}'s advantages do not add up")
        drawn = sorted(d.id for d in self.donkeys + self.set_aside)
        if drawn != sorted(d.id for d in self.box.donkeys) or len(self.donkeys) != ROUNDS:
            raise InvariantBroken(f"{where}: the donkeys are not the box's, {ROUNDS} of them in play")
        if len(self.history) != self.round or self.round > ROUNDS:
            raise InvariantBroken(f"{where}: {len(self.history)} rounds recorded")
        if self.phase == "over" and self.round != ROUNDS:
            raise InvariantBroken(f"game over after {self.round} rounds, not {ROUNDS}")
        if self.phase != "over" and not self.legal_actions():
            raise InvariantBroken(f"{where}: player {self.current_player() + 1} has no action")
        for r in self.history:
            if r.overloaded != (r.load > r.capacity):
                raise InvariantBroken(f"{where}: round with load {r.load}, capacity {r.capacity} misjudged")
            winners = {seat for seat, accepted in enumerate(r.contracts) if accepted != r.overloaded}
            if set(r.taken) != winners:
                raise InvariantBroken(f"{where}: cards went to {sorted(r.taken)}, the contracts say {sorted(winners)}")

    def stats(self) -> dict[str, Any]:
        kinds = {kind: 0 for kind in ADVANTAGES}
        for r in self.history:
            for _, card, _ in r.advantages:
                kinds[self.cards[card].advantage] += 1
        points = [self.points(seat) for seat in range(self.players)]
        calls = [accepted != r.overloaded for r in self.history for accepted in r.contracts]
        winners = sum(1 for share in self.returns() if share > 0)
        return {
            "mean_points": sum(points) / self.players,
            "winning_points": max(points),
            "cards_won": sum(len(pile) for pile in self.won) / self.players,
            "overloaded_rounds": sum(1 for r in self.history if r.overloaded),
            "advantages_used": sum(kinds.values()) / self.players,
            "accepted": sum(1 for r in self.history for accepted in r.contracts if accepted) / self.players,
            "right_calls": sum(calls) / len(calls),
            "shared_win": "yes" if winners > 1 else "no",
            "advantages": kinds,
        }

    def to_json(self) -> dict:
        return {
            "players": self.players,
            "round": self.round + (self.phase != "over"),
            "rounds": ROUNDS,
            "phase": self.phase,
            "current_player": self.current_player(),
            "first_player": self.first,
            "colours": [colour.colour for colour in self.colours],
            "donkey": self.donkey.id if self.donkey else None,
            "capacity": self.capacity() if self.donkey else None,
            "donkeys_to_come": [d.id for d in self.donkeys[self.round + 1:]],
            "hands": [list(hand) for hand in self.hands],
            "table": list(self.table),
            "advantages_this_round": [list(a) for a in self.used_now],
            "contracts": [None if c is None else ("accept" if c else "refuse") for c in self.contracts],
            "advantages_used": [list(cards) for cards in self.used],
            "won": [list(pile) for pile in self.won],
            "points": [self.points(seat) for seat in range(self.players)],
            "discard": list(self.discard),
            "history": [r.to_json() for r in self.history],
        }


def new_game(players: int, edition: str = EDITION, seed: int = 0, *, game=None, box: Box | None = None,
             first_player: int | None = None) -> DonkeyState:
    """A game set up as the seed says: a colour each, 8 random donkeys, a first player
    (random unless `first_player` names a seat). The cards come from `game` or `box`."""
    if box is None:
        if game is None:
            raise TypeError("new_game needs the loaded game (game=) or its cards (box=)")
        box = box_from_game(game, edition)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SetupError(f"The Donkey Can! is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}")
    seated = list(box.colours[:players])
    if len(seated) < players:
        raise SetupError(f"{players} players need {players} colours, the cards have {len(box.colours)}",
                         ("cards", ("cards",)))
    for colour in seated:
        why = _playable(colour)
        if why:
            raise SetupError(f"colour {colour.colour} {why}", ("cards", ("cards",)))
    if len(box.donkeys) < ROUNDS:
        raise SetupError(f"{ROUNDS} rounds need {ROUNDS} donkeys, the cards have {len(box.donkeys)}",
                         ("cards", ("cards",)))
    rng = random.Random(seed)
    pool = list(box.donkeys)
    rng.shuffle(pool)
    state = DonkeyState(box, players, rng, colours=seated,
                        cards={card.id: card for colour in seated for card in colour.cargo},
                        donkeys=pool[:ROUNDS], set_aside=pool[ROUNDS:])
    state.hands = [[card.id for card in colour.cargo] for colour in seated]
    state.used = [[] for _ in range(players)]
    state.won = [[] for _ in range(players)]
    if first_player is not None and not 0 <= first_player < players:
        raise SetupError(f"first_player is a seat from 0 to {players - 1}, not {first_player}")
    state.first = rng.randrange(players) if first_player is None else first_player
    state._start_round()
    return state


# ---- policies -----------------------------------------------------------------------------
# The heuristic sees what its player sees: its own hand and card, every revealed card (so each
# opponent's unplayed cards), what it peeked, and the advantage sides lying face up.

KEEP = 0.5            # share of a card's value it is expected to earn in a later round
ADVANTAGE_OPTION = 1.5  # worth of an advantage still to use, at the start of the game
MIN_GAIN = 0.25       # an advantage must gain at least this much over passing
NOISE = 0.75          # players differ: a card's worth is judged give or take this much


def _distribution(options: list[list[int]], track_max: bool) -> dict:
    """Probability of each (sum, max) of one card from each list, each card equally likely."""
    dist = {(0, -1): 1.0}
    for values in options:
        share = 1.0 / len(values)
        nxt: dict = {}
        for (total, top), p in dist.items():
            for value in values:
                key = (total + value, max(top, value) if track_max else -1)
                nxt[key] = nxt.get(key, 0.0) + p * share
        dist = nxt
    return dist


@dataclass
class Outlook:
    """A seat's chances this round: how likely the donkey is overloaded if it holds `value`."""

    state: DonkeyState
    dist: dict
    players: int

    def chances(self, value: int, capacity: int) -> tuple[float, float]:
        """(P(overloaded), expected value of a random cargo card when overloaded)."""
        effect = self.state.donkey.effect
        over = over_sum = 0.0
        for (total, top), p in self.dist.items():
            load = total + value
            if effect == "ignore-heaviest":
                load -= max(top, value)
            elif effect == "double-heaviest":
                load += max(top, value)
            if load > capacity:
                over += p
                over_sum += p * (total + value)
        pool = over_sum / over / self.players if over else 0.0
        return over, pool

    def best(self, value: int, capacity: int) -> tuple[float, bool]:
        """(expected points, accept?) for the better contract choice."""
        over, pool = self.chances(value, capacity)
        accept, refuse = value * (1 - over), over * pool
        return (accept, True) if accept >= refuse else (refuse, False)


def _outlook(state: DonkeyState, seat: int, seen: bool, fixed: dict[int, list[int]] | None = None) -> Outlook:
    """Opponents' cards as `seat` sees them; `seen` False treats the cargo as still unplayed."""
    options = []
    for other in range(state.players):
        if other == seat:
            continue
        if fixed and other in fixed:
            options.append(fixed[other])
        elif seen:
            options.append([state.cards[c].value for c in state.possible_cards(seat, other)])
        else:
            unplayed = state.hands[other] + ([state.table[other]] if state.table[other] else [])
            options.append([state.cards[c].value for c in unplayed])
    track = state.donkey.effect in ("ignore-heaviest", "double-heaviest")
    return Outlook(state, _distribution(options, track), state.players)


def _future(state: DonkeyState, seat: int, hand: list[str]) -> float:
    """What a hand is worth for the rounds after this one: the cards it will still play
    (the best ones; the rest are spare) and the advantages it can still use."""
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


def heuristic_policy(state: DonkeyState, rng: random.Random):
    """Play high when the donkey looks safe and low when it looks overloaded; call the
    contract by the odds; use an advantage when it gains more than the card is worth."""
    seat = state.current_player()
    capacity = state.capacity()
    if state.phase == "cargo":
        outlook = _outlook(state, seat, seen=False)
        scored = []
        for card in state.hands[seat]:
            value = state.cards[card].value
            worth = outlook.best(value, capacity)[0] - _cost(state, seat, card) + rng.gauss(0, NOISE)
            scored.append((worth, card))
        return ("cargo", max(scored)[1])
    own = state.cards[state.table[seat]].value
    if state.phase == "contract":
        return ACCEPT if _outlook(state, seat, seen=True).best(own, capacity)[1] else REFUSE
    return _choose_advantage(state, seat, own, capacity)


def _choose_advantage(state: DonkeyState, seat: int, own: int, capacity: int):
    outlook = _outlook(state, seat, seen=True)
    now = outlook.best(own, capacity)[0]
    best_gain, best_action = MIN_GAIN, PASS
    for action in state.legal_actions():
        if action == PASS:
            continue
        _, card, target = action
        kind = state.cards[card].advantage
        if kind == "carrot":
            after = outlook.best(own, capacity + ADVANTAGE_SHIFT)[0]
        elif kind == "sack":
            after = outlook.best(own, capacity - ADVANTAGE_SHIFT)[0]
        elif kind == "swap":
            value = state.cards[target].value
            after = outlook.best(value, capacity)[0] - _cost(state, seat, target, back=state.table[seat])
        else:
            after = _peek_worth(state, seat, target, own, capacity)
        gain = after - now - _cost(state, seat, card)
        if gain > best_gain:
            best_gain, best_action = gain, action
    return best_action


def _peek_worth(state: DonkeyState, seat: int, target: int, own: int, capacity: int) -> float:
    """Expected points after seeing the target's card (each possible card alike)."""
    values = [state.cards[c].value for c in state.possible_cards(seat, target)]
    total = 0.0
    for value in values:
        total += _outlook(state, seat, seen=True, fixed={target: [value]}).best(own, capacity)[0]
    return total / len(values)


ENGINE = Engine(
    slug="donkey-can",
    new_game=new_game,
    policies={"random": random_policy, "heuristic": heuristic_policy},
    max_actions=1_000,
    box=box_from_game,
)
