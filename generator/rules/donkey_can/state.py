"""The Donkey Can!, the rules of seed 001 as a playable state: the box of cards and a game
in progress.

Actions (tuples of plain values; the seat acting comes second):
  ("cargo", seat, card)               play a cargo card face down
  ("pass", seat)                      use no driver advantage this round
  ("advantage", seat, card, target)   use the advantage on `card`'s back; target is a seat
                                      (peek), a card from hand (swap) or None (carrot, sack)
  ("accept", seat) / ("refuse", seat) the contract card, green tick or red cross up
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ..engine import InvariantBroken, SetupError, State, Table
from .design import (
    ADVANTAGE_SHIFT,
    ADVANTAGES,
    ADVANTAGES_PER_ROUND,
    CAPACITY_PER_PLAYER,
    CARGO_DECK,
    CONTRACT_DECK,
    DONKEY_DECK,
    DONKEY_EFFECTS,
    EDITION,
    MAX_ADVANTAGES,
    REFERENCE_DECK,
    ROUNDS,
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


def _copies(component, edition: str) -> list[str]:
    """One id per printed copy: the card id, then id:2, id:3 ..."""
    return [component.id] + [f"{component.id}:{n}" for n in range(2, component.count(edition) + 1)]


def box_from_game(game, edition: str = EDITION) -> Box:
    """The cards of one edition of the loaded game, sorted into colour sets and donkeys.
    Raises SetupError naming a card the rules cannot play (no value, an unknown effect)."""
    sets: dict[str, dict[str, list]] = {}
    donkeys: list[Donkey] = []

    def number(component) -> int:
        value = component.data.get("value")
        if type(value) is not int:
            raise SetupError(f"{component.keypath} has no whole-number value, the rules need one",
                             ("cards", ("cards", component.id)))
        return value

    def effect(component, known: tuple[str, ...]) -> str | None:
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
            entry = sets.setdefault(colour, {CONTRACT_DECK: [], REFERENCE_DECK: [], CARGO_DECK: []})
            if deck == CARGO_DECK:
                value, advantage = number(component), effect(component, ADVANTAGES)
                entry[deck] += [Cargo(card, value, advantage) for card in _copies(component, edition)]
            else:
                entry[deck] += _copies(component, edition)
    colours = tuple(ColourSet(colour, next(iter(entry[CONTRACT_DECK]), None), next(iter(entry[REFERENCE_DECK]), None),
                              tuple(entry[CARGO_DECK])) for colour, entry in sets.items())
    return Box(colours, tuple(donkeys))


def unplayable(colour: ColourSet) -> str | None:
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


def check_box(box: Box, players: int) -> None:
    """Raise SetupError unless the box seats `players`."""
    if len(box.colours) < players:
        raise SetupError(f"{players} players need {players} colours, the cards have {len(box.colours)}",
                         ("cards", ("cards",)))
    for colour in box.colours[:players]:
        why = unplayable(colour)
        if why:
            raise SetupError(f"colour {colour.colour} {why}", ("cards", ("cards",)))
    if len(box.donkeys) < ROUNDS:
        raise SetupError(f"{ROUNDS} rounds need {ROUNDS} donkeys, the cards have {len(box.donkeys)}",
                         ("cards", ("cards",)))


# ---- the game ---------------------------------------------------------------------------

@dataclass
class Round:
    """One finished round, as everyone saw it once the cargo was turned over."""

    donkey: str
    first: int
    capacity: int
    load: int
    overloaded: bool
    cargo: list[str]                            # by seat
    contracts: list[bool]                       # by seat: accepted?
    advantages: list[tuple[int, str, Any]]      # (seat, card, target) in the order used
    taken: dict[int, str]                       # seat -> cargo card won

    def to_json(self, names: list[str]) -> dict:
        def target(value):
            return names[value] if isinstance(value, int) else value
        return {"donkey": self.donkey, "first_player": names[self.first], "capacity": self.capacity,
                "load": self.load, "overloaded": self.overloaded,
                "cargo": {names[seat]: card for seat, card in enumerate(self.cargo)},
                "contracts": {names[seat]: "accept" if c else "refuse" for seat, c in enumerate(self.contracts)},
                "advantages": [{"player": names[seat], "card": card, "target": target(aim)}
                               for seat, card, aim in self.advantages],
                "taken": {names[seat]: card for seat, card in sorted(self.taken.items())}}


@dataclass
class DonkeyState(State):
    box: Box
    players: int
    rng: random.Random
    names: list[str] = field(default_factory=list)
    colours: list[ColourSet] = field(default_factory=list)      # by seat
    cards: dict[str, Cargo] = field(default_factory=dict)        # every cargo card of the seated colours
    donkeys: list[Donkey] = field(default_factory=list)          # the 8 drawn, in order
    set_aside: list[Donkey] = field(default_factory=list)        # the 12 left in the box
    round: int = 0                  # rounds finished
    first: int = 0                  # seat holding the first-player card
    phase: str = "cargo"            # cargo, advantage, contract, over
    queue: list[int] = field(default_factory=list)               # seats still to act this phase
    hands: list[list[str]] = field(default_factory=list)
    table: list[str | None] = field(default_factory=list)        # face-down cargo by seat
    contracts: list[bool | None] = field(default_factory=list)
    shift: int = 0                  # this round's carrots and sacks
    used_now: list[tuple[int, str, Any]] = field(default_factory=list)
    used: list[list[str]] = field(default_factory=list)          # advantage cards by seat, all game
    peeks: list[dict[int, tuple[str, int]]] = field(default_factory=list)  # seat -> target -> (card, step)
    swapped_at: list[int] = field(default_factory=list)          # step of each seat's last swap
    step: int = 0                   # actions this round (orders peeks and swaps)
    won: list[list[str]] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    history: list[Round] = field(default_factory=list)
    start_round: int = 0            # rounds already played when the position was set up
    start_used: list[int] = field(default_factory=list)         # advantages used before that
    # True: check_invariants checks every invariant after every action, not only what it changed
    full_checks: bool = False
    # What the last action changed, for check_invariants: (the seat that acted, rounds finished
    # before it, the kind of action); None when the state changed otherwise (a setup, a test).
    changed: tuple | None = field(default=None, repr=False, compare=False)

    # -- the interface

    def current_player(self) -> int:
        return self.queue[0] if self.queue else -1

    def find_actions(self) -> list:
        if self.phase == "over":
            return []
        seat = self.queue[0]
        hand = self.hands[seat]
        if self.phase == "cargo":
            return [("cargo", seat, card) for card in hand]
        if self.phase == "contract":
            return [("accept", seat), ("refuse", seat)]
        actions: list[tuple] = [("pass", seat)]
        for card in self.usable_advantages(seat):
            kind = self.cards[card].advantage
            if kind == "peek":
                actions += [("advantage", seat, card, target) for target in self._order() if target != seat]
            elif kind == "swap":
                actions += [("advantage", seat, card, other) for other in hand if other != card]
            else:
                actions.append(("advantage", seat, card, None))
        return actions

    def play(self, action) -> None:
        kind, seat = action[0], self.queue.pop(0)
        self.changed = (seat, self.round, kind)
        self.step += 1
        if kind == "cargo":
            self.hands[seat].remove(action[2])
            self.table[seat] = action[2]
            if not self.queue:
                self._start_advantages()
        elif kind in ("pass", "advantage"):
            if kind == "advantage":
                self._use_advantage(seat, action[2], action[3])
            if not self.queue:
                self._start_contracts()
        else:
            self.contracts[seat] = kind == "accept"
            if not self.queue:
                self._resolve()

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def returns(self) -> list[float]:
        winners = self.winners()
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

    def winners(self) -> list[int]:
        """Most points; tied, most cards won; tied again, a shared win."""
        ranking = [(self.points(seat), len(self.won[seat])) for seat in range(self.players)]
        return [seat for seat, rank in enumerate(ranking) if rank == max(ranking)]

    def usable_advantages(self, seat: int) -> list[str]:
        """Advantage cards the seat may use now: within the limits, keeping a card per round."""
        if self.phase != "advantage" or self.donkey.effect == "stubborn":
            return []
        if len(self.used[seat]) >= MAX_ADVANTAGES:
            return []
        if sum(1 for used_by, _, _ in self.used_now if used_by == seat) >= ADVANTAGES_PER_ROUND:
            return []
        if len(self.hands[seat]) - 1 < ROUNDS - self.round - 1:
            return []
        return [card for card in self.hands[seat] if self.cards[card].advantage]

    def possible_cards(self, viewer: int, target: int) -> list[str]:
        """The cards `viewer` knows `target`'s face-down card to be among: the target's cards
        still unseen (every played card is revealed, so these are public), narrowed by a peek
        or by the advantage side a face-down advantage card shows."""
        card = self.table[target]
        if target == viewer:
            return [card]
        peeked = self.peeks[viewer].get(target)
        if peeked and peeked[1] > self.swapped_at[target]:
            return [peeked[0]]
        shown = self.cards[card].advantage
        return [c for c in self.hands[target] + [card] if self.cards[c].advantage == shown]

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
        # A player who cannot use an advantage has nothing to decide and is not asked.
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
        if overloaded:
            pile = list(cargo)
            self.rng.shuffle(pile)
            taken = {seat: pile.pop() for seat in self._order() if not self.contracts[seat]}
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

    def why_illegal(self, action) -> str:
        if self.phase == "over":
            return "the game is over"
        if not isinstance(action, tuple) or len(action) < 2:
            return f"not an action: {action!r}"
        seat = self.queue[0]
        if action[1] != seat:
            who = self.names[action[1]] if isinstance(action[1], int) and 0 <= action[1] < self.players else action[1]
            return f"it is {self.names[seat]}'s turn, not {who}'s"
        expected = {"cargo": "play a cargo card", "advantage": "pass or use a driver advantage",
                    "contract": "accept or refuse the contract"}[self.phase]
        if action[0] == "cargo" and self.phase == "cargo":
            return f"{self.names[seat]} has no cargo card {action[2:]!r} in hand"
        if action[0] == "advantage" and self.phase == "advantage":
            if len(self.used[seat]) >= MAX_ADVANTAGES:
                return f"{self.names[seat]} has used {MAX_ADVANTAGES} driver advantages already"
            return f"{self.names[seat]} cannot use {action[2:]!r} now"
        return f"{self.names[seat]} must {expected} now, not {action!r}"

    # -- checks and figures

    def _fixed(self) -> tuple:
        """What the checks compare against and no action changes: every cargo card sorted,
        each seat's colour's cards, the box's donkeys sorted (worked out once per game)."""
        fixed = self.__dict__.get("_fixed_parts")
        if fixed is None or fixed[0] is not self.cards or fixed[1] is not self.colours:
            fixed = (self.cards, self.colours, sorted(self.cards),
                     [frozenset(c.id for c in colour.cargo) for colour in self.colours],
                     sorted(d.id for d in self.box.donkeys))
            self.__dict__["_fixed_parts"] = fixed
        return fixed

    def check_invariants(self) -> None:
        # decided: an action that ends a round (and so maybe the game) gets every invariant
        # checked; any other one moves only the acting seat's cards, if any, and only those are
        # checked (a pass or a contract card moves none)
        changed, self.changed = self.changed, None
        if changed is None or self.full_checks or self.round != changed[1]:
            return super().check_invariants()
        seat, kind = changed[0], changed[2]
        if (kind == "cargo" or kind == "advantage") and not self._changed_holds(seat, kind):
            self.check_rules()         # names what broke
            raise InvariantBroken(f"round {self.round + 1}, {self.phase}: {self.names[seat]}'s last action "
                                  f"broke the cards or the driver advantages")
        if not self.legal_actions():
            raise InvariantBroken(f"{self.names[self.current_player()]} can do nothing but play goes on")

    def _changed_holds(self, seat: int, kind: str) -> bool:
        """Whether what one cargo card or advantage played inside a round changed keeps the
        invariants check_rules checks: the acting seat's hand, face-down card and (for an
        advantage) advantages used, and the number of cargo cards in play (the history, the
        donkeys and the other seats' cards are unchanged)."""
        all_cards, colour_cards = self._fixed()[2:4]
        hand, played_by, on_table = self.hands[seat], self.used[seat], self.table[seat]
        mine = colour_cards[seat]
        if not mine.issuperset(hand) or len(played_by) > MAX_ADVANTAGES:
            return False
        if on_table is not None and (on_table not in mine or on_table in hand):
            return False
        down = on_table is not None
        if len(hand) != len(self.colours[seat].cargo) - self.round - down - len(played_by) \
                or len(hand) + down < ROUNDS - self.round:
            return False
        if kind == "advantage":
            now = sum(1 for used_by, _, _ in self.used_now if used_by == seat)
            before = sum(1 for r in self.history for used_by, _, _ in r.advantages if used_by == seat)
            if now > ADVANTAGES_PER_ROUND or self.start_used[seat] + before + now != len(played_by):
                return False
        table = self.table
        in_play = (sum(map(len, self.hands)) + sum(map(len, self.won)) + len(self.discard)
                   + len(table) - table.count(None) + len(self.used_now))
        return in_play == len(all_cards)

    def check_rules(self) -> None:
        _, _, all_cards, colour_cards, box_donkeys = self._fixed()
        in_play = [card for pile in self.hands for card in pile]
        for pile in self.won:
            in_play += pile
        in_play += self.discard
        in_play += [card for card in self.table if card]
        in_play += [card for _, card, _ in self.used_now]
        in_play.sort()
        if in_play != all_cards:
            where = f"round {self.round + 1}, {self.phase}"
            lost = sorted(set(self.cards) - set(in_play))
            doubled = sorted({card for card in in_play if in_play.count(card) > 1})
            foreign = sorted(set(in_play) - set(self.cards))
            raise InvariantBroken(f"{where}: cargo cards lost {lost}, doubled {doubled} or foreign {foreign}")
        history = self.history
        now_counts = [0] * self.players            # advantages used by each seat this round,
        totals, most = [0] * self.players, [0] * self.players     # in the rounds before, at most in one
        for r in history:
            if r.advantages:
                counts = [0] * self.players
                for s, _, _ in r.advantages:
                    counts[s] += 1
                totals = [a + b for a, b in zip(totals, counts)]
                most = [max(a, b) for a, b in zip(most, counts)]
        for s, _, _ in self.used_now:
            now_counts[s] += 1
        hands, used, table = self.hands, self.used, self.table
        for seat, colour in enumerate(self.colours):
            hand, played_by = hands[seat], used[seat]
            if not colour_cards[seat].issuperset(hand):
                raise InvariantBroken(f"round {self.round + 1}, {self.phase}: {self.names[seat]} holds another "
                                      f"colour's card")
            if len(played_by) > MAX_ADVANTAGES:
                raise InvariantBroken(f"round {self.round + 1}, {self.phase}: {self.names[seat]} used "
                                      f"{len(played_by)} driver advantages")
            on_table = table[seat] is not None
            if len(hand) != len(colour.cargo) - self.round - on_table - len(played_by):
                raise InvariantBroken(f"round {self.round + 1}, {self.phase}: {self.names[seat]} holds "
                                      f"{len(hand)} cards")
            if len(hand) + on_table < ROUNDS - self.round:
                raise InvariantBroken(f"round {self.round + 1}, {self.phase}: {self.names[seat]} cannot play "
                                      f"the rounds left")
            now = now_counts[seat]
            if self.start_used[seat] + totals[seat] + now != len(played_by) \
                    or most[seat] > ADVANTAGES_PER_ROUND or now > ADVANTAGES_PER_ROUND:
                raise InvariantBroken(f"round {self.round + 1}, {self.phase}: {self.names[seat]}'s driver "
                                      f"advantages do not add up")
        where = f"round {self.round + 1}, {self.phase}"
        donkeys = (*self.donkeys, *self.set_aside)
        if donkeys != self.__dict__.get("_donkeys_checked") or len(self.donkeys) != ROUNDS:
            if sorted([d.id for d in donkeys]) != box_donkeys or len(self.donkeys) != ROUNDS:
                raise InvariantBroken(f"{where}: the donkeys are not the box's, with {ROUNDS} of them in play")
            self.__dict__["_donkeys_checked"] = donkeys     # the same donkeys pass without sorting again
        if len(history) != self.round - self.start_round or self.round > ROUNDS:
            raise InvariantBroken(f"{where}: {len(history)} rounds recorded")
        if self.phase == "over" and self.round != ROUNDS:
            raise InvariantBroken(f"game over after {self.round} rounds, not {ROUNDS}")
        for r in history:
            if r.overloaded != (r.load > r.capacity):
                raise InvariantBroken(f"{where}: load {r.load} on capacity {r.capacity} misjudged")
            right = {seat for seat, accepted in enumerate(r.contracts) if accepted != r.overloaded}
            if set(r.taken) != right:
                raise InvariantBroken(f"{where}: cards went to {sorted(r.taken)}, the contracts say {sorted(right)}")

    def stats(self) -> dict[str, Any]:
        kinds = {kind: 0 for kind in ADVANTAGES}
        for r in self.history:
            for _, card, _ in r.advantages:
                kinds[self.cards[card].advantage] += 1
        points = [self.points(seat) for seat in range(self.players)]
        calls = [accepted != r.overloaded for r in self.history for accepted in r.contracts]
        return {
            "mean_points": sum(points) / self.players,
            "winning_points": max(points),
            "cards_won": sum(len(pile) for pile in self.won) / self.players,
            "overloaded_rounds": sum(1 for r in self.history if r.overloaded),
            "advantages_per_player": sum(kinds.values()) / self.players,
            "accepted_per_player": sum(1 for r in self.history for accepted in r.contracts if accepted) / self.players,
            "right_calls": sum(calls) / len(calls) if calls else 0.0,
            "shared_win": "yes" if len(self.winners()) > 1 else "no",
            "advantages": kinds,
        }

    def to_json(self) -> dict:
        names = self.names
        seats = {}
        for seat, name in enumerate(names):
            seats[name] = {
                "colour": self.colours[seat].colour,
                "hand": list(self.hands[seat]),
                "table": self.table[seat],
                "contract": None if self.contracts[seat] is None else ("accept" if self.contracts[seat] else "refuse"),
                "advantages_used": list(self.used[seat]),
                "won": list(self.won[seat]),
                "points": self.points(seat),
                "cards_won": len(self.won[seat]),
            }
        over = self.phase == "over"
        return {
            "players": self.players,
            "round": min(self.round + 1, ROUNDS),
            "rounds": ROUNDS,
            "phase": self.phase,
            "terminal": over,
            "current_player": None if over else names[self.current_player()],
            "first_player": names[self.first],
            "donkey": None if over else self.donkey.id,
            "capacity": None if over else self.capacity(),
            "donkeys_to_come": [d.id for d in self.donkeys[self.round + 1:]],
            "advantages_this_round": [{"player": names[seat], "card": card,
                                       "target": names[aim] if isinstance(aim, int) else aim}
                                      for seat, card, aim in self.used_now],
            "seats": seats,
            "discard": list(self.discard),
            "last_round": self.history[-1].to_json(names) if self.history else None,
            "history": [r.to_json(names) for r in self.history],
            "winners": [names[seat] for seat in self.winners()] if over else [],
        }


def seat_game(box: Box, table: Table, rng: random.Random, colours: list[ColourSet] | None = None) -> DonkeyState:
    """A state with every seated player holding their colour's cargo cards, no donkey drawn yet."""
    players = table.seats
    seated = colours or list(box.colours[:players])
    state = DonkeyState(box, players, rng, names=list(table.names), colours=seated,
                        cards={card.id: card for colour in seated for card in colour.cargo})
    state.hands = [[card.id for card in colour.cargo] for colour in seated]
    state.used = [[] for _ in range(players)]
    state.start_used = [0] * players
    state.won = [[] for _ in range(players)]
    return state
