"""Race to the Table, the rules of seed 000 as a playable state.

Positions: 0 is START, fields 1..N, N + 1 is TABLE (N from boards.yaml). Seats are hands: one
per player, or one per team (design.TEAMS); seat i owns pawn i and plays i-th.

Actions are tuples of plain values:
    ("play", card)               a card without a target (or with none it can take)
    ("play", card, pawn)         a card aimed at one pawn
    ("play", card, pawn, pawn)   Smells good / Swap: two different pawns, lower index first
    ("role", role)               use the seat's role instead of playing a card
    ("role", "driver", pawn)     the Driver names which of the nearest pawns ahead
After Double order the same seat plays again from its hand; after the Gossip it plays a card
from the discards. Every random choice (shuffles, rock-paper-scissors) uses the state's rng.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from ..engine import InvariantBroken, SetupError, State, Table
from .design import CARDS, GUARD, ONE_PAWN, ROLES, TWO_PAWNS

ACTION_DECK, ROLE_DECK = "action", "roles"
PAWN, CLOSED_TOKEN, CLOCK_MARKER = "pawn", "closed", "clock-marker"

TURN, DOUBLE, GOSSIP, OVER = "turn", "double-order", "gossip", "over"


# ---- what the components give the engine ----------------------------------------------------

@dataclass(frozen=True)
class Box:
    """One edition's components as the rules use them, read from the loaded YAML."""

    edition: str
    deck: tuple[str, ...]          # every action card, one entry per copy, in data order
    roles: tuple[str, ...]         # role cards (none in the free edition)
    pawns: int
    closed_tokens: int
    clock_markers: int
    boards: int
    hand_size: int
    fields: int                    # track fields between START and TABLE
    clock_red: int                 # the clock field that ends a game
    clock_middle: int              # ... and a quick game

    @property
    def table(self) -> int:
        return self.fields + 1


def box_from_game(game, edition: str) -> Box:
    """Read one edition's components; a card or role without a rule here is a SetupError."""
    deck: list[str] = []
    roles: list[str] = []
    for component in game.in_edition(edition, "cards"):
        copies = component.count(edition)
        rule = component.data.get("effect", component.id)     # a card may name its rule
        if component.group == ACTION_DECK:
            if rule not in CARDS:
                raise SetupError(f"action card '{component.id}' has no rule '{rule}' in the engine "
                                 f"(rules: {', '.join(CARDS)})", ("cards", ("cards", component.id)))
            deck += [rule] * copies
        elif component.group == ROLE_DECK:
            if rule not in ROLES:
                raise SetupError(f"role '{component.id}' has no rule '{rule}' in the engine "
                                 f"(roles: {', '.join(ROLES)})", ("cards", ("cards", component.id)))
            roles += [rule] * copies
    tokens = {c.id: c.count(edition) for c in game.in_edition(edition, "tokens")}
    boards = len(game.in_edition(edition, "boards"))
    shapes = ((game.files.get("boards") or {}).get("design") or {}).get("shapes") or {}
    try:
        track, clock = shapes["track"], shapes["clock"]
        return Box(edition, tuple(deck), tuple(roles), tokens.get(PAWN, 0), tokens.get(CLOSED_TOKEN, 0),
                   tokens.get(CLOCK_MARKER, 0), boards, int(game.meta["hand_size"]), int(track["spaces"]),
                   int(clock["marks"]["red"]["at"]), int(clock["marks"]["middle"]["at"]))
    except KeyError as exc:
        raise SetupError(f"the rules need {exc.args[0]!r} in the game data", ("game", ())) from None


# ---- the board: pawns, tokens and protections -----------------------------------------------

class Board:
    """Positions and what guards them; card and role effects act on this alone, so a policy
    can try an effect on a copy without touching the deck or the random generator."""

    __slots__ = ("pos", "closed", "protected", "guard", "table", "arrived")

    def __init__(self, pos: list[int], closed: list[int], protected: int, guard: int, table: int):
        self.pos = pos
        self.closed = closed            # Closed tokens on each pawn (the rules allow 0 or 1)
        self.protected = protected      # pawn under the Chef's protection, or -1
        self.guard = guard              # pawn whose Table Guard has not acted yet, or -1
        self.table = table
        self.arrived: list[int] = []    # pawns that reached TABLE during the current effect

    def copy(self) -> "Board":
        return Board(self.pos[:], self.closed[:], self.protected, self.guard, self.table)

    def forward(self, pawn: int, steps: int) -> None:
        if self.closed[pawn]:
            self.closed[pawn] -= 1      # the move does not happen; the token goes
            return
        position = self.pos[pawn] + steps
        if position >= self.table:      # surplus steps do not matter
            position = self.table
            self.arrived.append(pawn)
        self.pos[pawn] = position

    def back(self, pawn: int, steps: int, mover: int) -> None:
        # decided: "nobody" in the Chef's text includes the Chef's own player.
        if pawn == self.protected:
            return
        old = self.pos[pawn]
        position = old - steps if old > steps else 0          # never behind START
        # decided: with teams, "another player" is another seat (team).
        if pawn == self.guard and mover != pawn:
            # decided: the Guard acts only when it changes something (a move of more than 1 field).
            guarded = old - 1 if old > 1 else 0
            if guarded != position:
                position = guarded
                self.guard = -1
        self.pos[pawn] = position

    def close(self, pawn: int, mover: int) -> None:
        if pawn == self.guard and mover != pawn:
            self.guard = -1                 # "if they close it, nothing happens"
            return
        self.closed[pawn] += 1

    def swap(self, a: int, b: int) -> None:
        # A swap is not a forward move: Closed tokens stay on their pawns (FAQ).
        # decided: nor is it a move back, so the Table Guard does not act on a swap (the Chef's
        # protection, where "nothing moves it back", does: see the swap's and Driver's targets).
        pos = self.pos
        pos[a], pos[b] = pos[b], pos[a]


# Effects: effect(board, mover, targets). Targets are already legal.

def _quick(b, m, t): b.forward(t[0], 2)
def _smells_good(b, m, t):
    # decided: both pawns move at once; if both reach TABLE the tie goes to rock-paper-scissors.
    b.forward(t[0], 1)
    b.forward(t[1], 1)
# decided: a pawn on START may be aimed at by a backward card (nothing happens), like any pawn.
def _long_queue(b, m, t): b.back(t[0], 2, m)
def _closed(b, m, t):
    if t:
        b.close(t[0], m)
def _shortcut(b, m, t): b.forward(t[0], 3)
def _swap(b, m, t):
    if t:
        b.swap(t[0], t[1])
def _taxi(b, m, t):
    if t:
        b.forward(t[0], 3)
def _road_works(b, m, t):
    if t:
        b.back(t[0], 3, m)
def _friday(b, m, t):
    # decided: all pawns move at once; several reaching TABLE tie (rock-paper-scissors).
    for pawn in range(len(b.pos)):
        b.forward(pawn, 1)
def _double_order(b, m, t): pass        # the draw and the extra card are turn structure
def _sudden_rain(b, m, t):
    top = max(b.pos)
    for pawn in [p for p, position in enumerate(b.pos) if position == top]:
        b.back(pawn, 1, m)


def _boss(b, m, t):
    for pawn in range(len(b.pos)):
        if pawn != m:
            b.back(pawn, 2, m)
def _intern(b, m, t): b.forward(m, 1)
def _gourmet(b, m, t): b.forward(m, 2)
def _accountant(b, m, t):
    # decided: every pawn in first place but the Accountant's own moves back; with its own pawn
    # first that is exactly the FAQ's "only the others tied first with it".
    top = max(b.pos)
    for pawn in [p for p, position in enumerate(b.pos) if position == top and p != m]:
        b.back(pawn, 4, m)
def _driver(b, m, t):
    if t:
        b.swap(m, t[0])
def _chef(b, m, t):
    b.forward(m, 2)
    b.protected = m                     # until its owner's next turn
# decided: with empty discards the Gossip is used up without effect.
def _gossip(b, m, t): pass              # the card it takes is the next action


EFFECTS = {
    "quick": _quick, "smells-good": _smells_good, "long-queue": _long_queue, "closed": _closed,
    "shortcut": _shortcut, "swap": _swap, "taxi": _taxi, "road-works": _road_works,
    "friday": _friday, "double-order": _double_order, "sudden-rain": _sudden_rain,
    "boss": _boss, "intern": _intern, "gourmet": _gourmet, "accountant": _accountant,
    "driver": _driver, "chef": _chef, "gossip": _gossip,
}
SWAP_REACH = 3


class Tables(NamedTuple):
    one: dict[str, tuple]          # card -> its action on pawn 0, 1, ...
    pairs: tuple                   # (i, j) pawn pairs, i < j
    two: dict[str, tuple]          # card -> its action on each pair, in `pairs` order
    bare: dict[str, tuple]         # card -> its action without a target
    roles: dict[str, tuple]
    driver: tuple                  # the Driver's action naming pawn 0, 1, ...


@lru_cache(maxsize=None)
def action_tables(seats: int) -> Tables:
    """Every action tuple for this many pawns, made once: legal_actions only picks from them."""
    pairs = tuple((i, j) for i in range(seats) for j in range(i + 1, seats))
    return Tables({card: tuple(("play", card, p) for p in range(seats)) for card in ONE_PAWN}, pairs,
                  {card: tuple(("play", card, i, j) for i, j in pairs) for card in TWO_PAWNS},
                  {name: ("play", name) for name in CARDS}, {name: ("role", name) for name in ROLES},
                  tuple(("role", "driver", p) for p in range(seats)))


# Targets: which actions a card allows on this board. A card that fits no pawn is still
# played, without a target ("a card with no suitable pawn may still be played").

def _any_pawn(card, board, t): return t.one[card]
def _any_pair(card, board, t): return t.two[card]
def _no_pawn(card, board, t): return (t.bare[card],)


def _unprotected(card, board, t):
    protected = board.protected
    return t.one[card] if protected < 0 else [a for a in t.one[card] if a[2] != protected]


def _closable(card, board, t):
    closed, protected = board.closed, board.protected
    return [a for a in t.one[card] if not closed[a[2]] and a[2] != protected] or (t.bare[card],)


# decided: "first" and "last" are every pawn on the furthest and the rearmost occupied field,
# START included (at the start every pawn is both).
def _last(card, board, t):
    pos = board.pos
    low = min(pos)
    actions = t.one[card]
    return [actions[p] for p, position in enumerate(pos) if position == low]


def _not_first(card, board, t):
    pos = board.pos
    top = max(pos)
    actions = t.one[card]
    return [actions[p] for p, position in enumerate(pos) if position < top] or (t.bare[card],)


def _first_unprotected(card, board, t):
    # decided: a Chef-protected first pawn cannot be picked; the card does not pass to a second pawn.
    pos, protected = board.pos, board.protected
    top = max(pos)
    actions = t.one[card]
    return [actions[p] for p, position in enumerate(pos) if position == top and p != protected] or (t.bare[card],)


def _in_reach(card, board, t):
    # decided: two pawns on one field are "at most 3 apart" and may be swapped (to no effect).
    pos, protected = board.pos, board.protected
    return [action for (i, j), action in zip(t.pairs, t.two[card])
            if -SWAP_REACH <= pos[i] - pos[j] <= SWAP_REACH
            # decided: nothing moves the Chef's pawn back, a swap included.
            and not (i == protected and pos[j] < pos[i]) and not (j == protected and pos[i] < pos[j])
            ] or (t.bare[card],)


TARGETS = {
    "quick": _any_pawn, "smells-good": _any_pair, "long-queue": _unprotected, "closed": _closable,
    "shortcut": _last, "swap": _in_reach, "taxi": _not_first, "road-works": _first_unprotected,
    "friday": _no_pawn, "double-order": _no_pawn, "sudden-rain": _no_pawn,
}


# ---- the game -------------------------------------------------------------------------------

# check_invariants checks, after each action, every invariant but which cards are where (their
# number only: cards only move between deck, discards and hands); every card at every
# FULL_CHECK_EVERY-th turn, once the game ends, and whenever the state changed otherwise.
FULL_CHECK_EVERY = 8


class RaceState(State):
    """A game of Race to the Table in progress."""

    # True: check_invariants checks every invariant after every action
    full_checks = False
    # Whether the state changed by an action (play) since the last check, not otherwise
    _acted = False

    def __init__(self, box: Box, table: Table, rng: random.Random, options: dict):
        seats = table.seats
        self.box = box
        self.rng = rng
        self.members = list(table.members)
        self.players = table.players
        self.seats = seats
        self.options = {**options, "roles": options["roles"] and bool(box.roles)}
        self.names = list(table.names)
        self.pawns = list(self.names)          # what is written on each pawn
        self.board = Board([0] * seats, [0] * seats, -1, -1, box.table)
        self.hands: list[list[str]] = [[] for _ in range(seats)]
        self.deck: list[str] = []          # the top is the end of the list
        self.discard: list[str] = []       # the top is the end of the list
        self.roles: list[str | None] = [None] * seats
        self.role_uses = [0] * seats
        self.guard_seat = -1               # seat whose Table Guard has not acted yet
        self.current = 0
        self.phase = TURN
        self.extra_turn = False            # the Intern's
        self.clock = 1                     # the marker starts on the clock's first field
        self.clock_end = clock_end(box, options)
        self.round = 1
        self.turns = 0
        self.winner = -1
        self.ended_by: str | None = None
        self.tied: list[int] = []          # pawns that went to rock-paper-scissors
        self.reshuffles = 0
        self.card_plays = dict.fromkeys(CARDS, 0)
        self.role_plays = dict.fromkeys(ROLES, 0)
        self._all_cards = sorted(box.deck)
        self._tables = action_tables(seats)

    # -- setting up

    def deal(self) -> None:
        """Shuffle and deal as the rules say: hands, then (full edition) one role per seat."""
        deck = list(self.box.deck)
        self.rng.shuffle(deck)
        self.deck = deck
        for _ in range(self.box.hand_size):
            for hand in self.hands:
                hand.append(deck.pop())
        if self.options["roles"] and self.box.roles:
            roles = list(self.box.roles)
            self.rng.shuffle(roles)
            self.roles = roles[:self.seats]
        self.sync_guard()

    def sync_guard(self) -> None:
        """Point the board at the Table Guard's pawn while that role is unused."""
        self.guard_seat = -1
        for seat, role in enumerate(self.roles):
            if role == GUARD and not self.role_uses[seat]:
                self.guard_seat = seat
        self.board.guard = self.guard_seat

    # -- the interface

    def current_player(self) -> int:
        return -1 if self.phase == OVER else self.current

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        return [1.0 if seat == self.winner else 0.0 for seat in range(self.seats)]

    def find_actions(self) -> list:
        actions: list = []
        phase = self.phase
        if phase == OVER:
            return actions
        source = self.discard if phase == GOSSIP else self.hands[self.current]
        board, tables = self.board, self._tables
        for card in dict.fromkeys(source):
            actions.extend(TARGETS[card](card, board, tables))
        # decided: the card Double order calls for comes from the hand; a role is not a card.
        if phase == TURN:
            role = self.roles[self.current]
            if role is not None and role != GUARD and not self.role_uses[self.current]:
                found = self.driver_targets(self.current) if role == "driver" else None
                if found:
                    actions.extend(tables.driver[p] for p in found)
                else:
                    actions.append(tables.roles[role])
        return actions

    def card_actions(self, card: str) -> list:
        """The actions a card allows on the board now, wherever it is played from."""
        return list(TARGETS[card](card, self.board, self._tables))

    def driver_targets(self, seat: int) -> list[int]:
        """The nearest pawns ahead of the seat's pawn that a swap may move back."""
        pos, protected = self.board.pos, self.board.protected
        own = pos[seat]
        ahead = [p for p in pos if p > own]
        if not ahead:
            return []
        nearest = min(ahead)
        # decided: a Chef-protected pawn cannot be swapped back; the Driver then has no target.
        return [p for p in range(self.seats) if pos[p] == nearest and p != protected]

    def play(self, action) -> None:
        self._acted = True
        seat = self.current
        board = self.board
        if action[0] == "play":
            card = action[1]
            self.card_plays[card] += 1
            if self.phase == GOSSIP:
                self.discard.remove(card)           # taken from the discards ...
                EFFECTS[card](board, seat, action[2:])
                self.discard.append(card)           # ... and returned once played
            else:
                self.hands[seat].remove(card)
                self.discard.append(card)           # played face up onto the discards, then resolved
                EFFECTS[card](board, seat, action[2:])
            if self._after_effect():
                return
            if card == "double-order":
                self._refill(seat)
                self.phase = DOUBLE
                return
            self._end_turn()
            return
        role = action[1]
        self.role_uses[seat] += 1
        self.role_plays[role] += 1
        EFFECTS[role](board, seat, action[2:])
        if self._after_effect():
            return
        if role == "intern":
            self.extra_turn = True
        elif role == "gossip" and self.discard:
            self.phase = GOSSIP
            return
        self._end_turn()

    def _after_effect(self) -> bool:
        """Note a Table Guard that acted; end the game if a pawn reached TABLE."""
        board = self.board
        if self.guard_seat >= 0 and board.guard < 0:
            self.role_uses[self.guard_seat] += 1       # the Guard's card turns face down
            self.role_plays[GUARD] += 1
            self.guard_seat = -1
        if board.arrived:
            self._finish(list(dict.fromkeys(board.arrived)), "table")
            return True
        return False

    def _refill(self, seat: int) -> None:
        """Draw back up to the hand size, shuffling the discards into a new deck when it runs out.
        decided: every turn ends by refilling the hand: one card after a card, none after a role,
        and after Double order played by the Gossip the hand card played is replaced."""
        hand = self.hands[seat]
        deck = self.deck
        while len(hand) < self.box.hand_size:
            if not deck:
                if not self.discard:
                    return
                deck.extend(self.discard)
                self.discard.clear()
                self.rng.shuffle(deck)
                self.reshuffles += 1
            hand.append(deck.pop())

    def _end_turn(self) -> None:
        seat = self.current
        self._refill(seat)
        if self.extra_turn:
            # decided: the Intern's extra turn belongs to the same round (the clock waits) and
            # counts as a turn.
            self.extra_turn = False
        else:
            seat += 1
            if seat == self.seats:
                seat = 0
                self.clock += 1
                if self.clock >= self.clock_end:
                    top = max(self.board.pos)
                    self._finish([p for p, position in enumerate(self.board.pos) if position == top], "clock")
                    return
                self.round += 1
        self._start_turn(seat)

    def _start_turn(self, seat: int) -> None:
        self.current = seat
        self.phase = TURN
        self.turns += 1
        if self.board.protected == seat:
            self.board.protected = -1       # the Chef's protection lasts until this turn

    def _finish(self, pawns: list[int], how: str) -> None:
        # Ties: rock-paper-scissors among the tied, which is a fair random draw.
        self.tied = pawns if len(pawns) > 1 else []
        self.winner = pawns[0] if len(pawns) == 1 else self.rng.choice(pawns)
        self.ended_by = how
        self.phase = OVER

    # -- explaining refusals

    def why_illegal(self, action) -> str:
        who = self.names[self.current]
        if self.phase == OVER:
            return "the game is over"
        if not isinstance(action, tuple) or not action or action[0] not in ("play", "role") or len(action) < 2:
            return f"{action!r} is not an action of this game"
        kind, name, targets = action[0], action[1], action[2:]
        if kind == "role":
            role = self.roles[self.current]
            if self.phase != TURN:
                return f"{who} must play a card now ({self.phase}), not use a role"
            if role != name:
                return f"{who}'s role is {role or 'none'}, not {name}"
            if role == GUARD:
                return "the Table Guard acts by itself, it is never played"
            if self.role_uses[self.current]:
                return f"{who} has already used the {role}"
        elif self.phase == GOSSIP:
            if name not in self.discard:
                return f"the Gossip takes a card from the discards; there is no {name} there"
        elif name not in self.hands[self.current]:
            return f"{who} has no {name} in hand (hand: {', '.join(self.hands[self.current])})"
        same = [a for a in self.legal_actions() if a[:2] == action[:2]]
        if not same:
            return f"{name} cannot be played now"
        options = ["(" + ", ".join(self.pawns[p] for p in a[2:]) + ")" if a[2:] else "(no pawn)" for a in same]
        shown = ", ".join(self.pawns[p] if isinstance(p, int) and 0 <= p < self.seats else repr(p) for p in targets)
        reason = self._target_rule(name, targets)
        return (f"{name} cannot take {shown or 'no pawn'}{': ' + reason if reason else ''}; "
                f"possible: {', '.join(options)}")

    def _target_rule(self, name: str, targets: tuple) -> str:
        if any(not isinstance(p, int) or not 0 <= p < self.seats for p in targets):
            return "no such pawn"
        protected = self.board.protected
        if protected in targets and name in ("long-queue", "closed", "road-works", "swap", "driver"):
            return f"{self.pawns[protected]} is protected by the Chef until {self.names[protected]}'s next turn"
        rules = {
            "closed": "a pawn carries at most one Closed token",
            "shortcut": "only a last pawn", "taxi": "only a pawn that is not first",
            "road-works": "only a first pawn", "swap": f"two different pawns at most {SWAP_REACH} fields apart",
            "smells-good": "two different pawns", "driver": "only the nearest pawn ahead",
        }
        return rules.get(name, "")

    # -- checks and figures

    def check_invariants(self) -> None:
        acted, self._acted = self._acted, False
        if not acted or self.full_checks or self.phase == OVER or self.turns % FULL_CHECK_EVERY == 0:
            return super().check_invariants()
        held = len(self.deck) + len(self.discard)
        for hand in self.hands:
            held += len(hand)
        if held != len(self._all_cards):
            self.check_rules()                  # names what broke
            raise InvariantBroken(f"turn {self.turns}: {held} cards in play, the deck has {len(self._all_cards)}")
        self._check_board()
        if not self.legal_actions():
            raise InvariantBroken(f"{self.names[self.current]} can do nothing but play goes on")

    def check_rules(self) -> None:
        # Fast checks with builtins first; the loops only run to name what broke.
        cards = self.deck + self.discard
        for hand in self.hands:
            cards += hand
        cards.sort()
        if cards != self._all_cards:
            raise InvariantBroken(f"turn {self.turns}: cards created or lost: {_difference(cards, self._all_cards)}")
        self._check_board()

    def _check_board(self) -> None:
        """Every invariant but which cards are where: the pawns, the tokens, the roles, the hands' sizes."""
        board = self.board
        pos, table = board.pos, board.table
        if min(pos) < 0 or max(pos) > table or (table in pos and self.ended_by != "table"):
            for pawn, position in enumerate(pos):
                if position < 0:
                    raise InvariantBroken(f"turn {self.turns}: {self.pawns[pawn]} is behind START ({position})")
                if position > table or position == table:
                    raise InvariantBroken(f"turn {self.turns}: {self.pawns[pawn]} is past TABLE ({position}) "
                                          f"or on it while the game goes on")
        closed = board.closed
        if max(closed) > 1 or min(closed) < 0:
            pawn = closed.index(max(closed)) if max(closed) > 1 else closed.index(min(closed))
            raise InvariantBroken(f"turn {self.turns}: {self.pawns[pawn]} carries {closed[pawn]} Closed tokens")
        if sum(closed) > self.box.closed_tokens:
            raise InvariantBroken(f"turn {self.turns}: {sum(closed)} Closed tokens out, the box has "
                                  f"{self.box.closed_tokens}")
        if max(self.role_uses) > 1:
            seat = self.role_uses.index(max(self.role_uses))
            raise InvariantBroken(f"turn {self.turns}: {self.names[seat]} used the {self.roles[seat]} "
                                  f"{self.role_uses[seat]} times")
        if max(map(len, self.hands)) > self.box.hand_size:
            raise InvariantBroken(f"turn {self.turns}: a hand holds more than {self.box.hand_size} cards")

    def stats(self) -> dict[str, Any]:
        return {
            "turns": self.turns, "rounds": self.round, "ended_by": self.ended_by or "unfinished",
            "reshuffles": self.reshuffles, "rock_paper_scissors": 1 if self.tied else 0,
            "cards": {card: n for card, n in self.card_plays.items() if card in self.box.deck},
            "roles": {role: n for role, n in self.role_plays.items() if role in self.box.roles},
        }

    def to_json(self) -> dict:
        board = self.board
        over = self.phase == OVER
        return {
            "edition": self.box.edition, "players": self.players, "options": dict(self.options),
            "current": None if over else self.names[self.current], "phase": self.phase,
            "round": self.round, "clock": self.clock, "clock_end": self.clock_end, "turns": self.turns,
            "seats": {name: {
                "seat": seat + 1, "members": self.members[seat], "pawn": self.pawns[seat],
                "position": board.pos[seat], "closed": board.closed[seat], "protected": board.protected == seat,
                "role": self.roles[seat], "role_used": bool(self.role_uses[seat]),
                "hand": list(self.hands[seat]),
            } for seat, name in enumerate(self.names)},
            "deck": self.deck[::-1], "discard": self.discard[::-1], "reshuffles": self.reshuffles,
            "terminal": over, "ended_by": self.ended_by,
            "winner": self.names[self.winner] if over else None,
            "winning_pawn": self.pawns[self.winner] if over else None,
            "tied": [self.pawns[p] for p in self.tied],
        }


def _difference(have: list[str], want: list[str]) -> str:
    counts: dict[str, int] = {}
    for card in have:
        counts[card] = counts.get(card, 0) + 1
    for card in want:
        counts[card] = counts.get(card, 0) - 1
    return ", ".join(f"{card} {'+' if n > 0 else ''}{n}" for card, n in counts.items() if n)


def check_supply(box: Box, table: Table, roles: bool) -> None:
    """A shortage of any component the table needs is a SetupError naming it."""
    seats = table.seats
    game = f"a {table.players}-player game of edition '{box.edition}'"
    needs = [
        (seats, box.pawns, "pawns", ("tokens", ("tokens", PAWN))),
        (1, box.clock_markers, "clock markers", ("tokens", ("tokens", CLOCK_MARKER))),
        # At most one Closed token per pawn, so every pawn may need one at the same time.
        (seats, box.closed_tokens, "Closed tokens", ("tokens", ("tokens", CLOSED_TOKEN))),
        (1, box.boards, "boards", ("boards", ("boards",))),
        # Drawing happens only after playing, so the deal is the most the deck must hold at once.
        (seats * box.hand_size, len(box.deck), "action cards", ("cards", ("cards",))),
    ]
    if roles and box.roles:
        needs.append((seats, len(box.roles), "role cards", ("cards", ("cards",))))
    for needed, have, what, where in needs:
        if have < needed:
            raise SetupError(f"{game} needs {needed} {what}, the components have {have}", where)


def clock_end(box: Box, options) -> int:
    """The clock field that ends the game: red, or the middle in the quick game."""
    return box.clock_middle if options["quick"] else box.clock_red
