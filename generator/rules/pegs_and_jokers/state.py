"""Pegs and Jokers, the rules of seed 002 as a playable state.

The track is one loop of holes, numbered 0 .. 18 × players - 1 inside the engine (1 .. in
what a player reads), side by side in seat order: seat s's side holds holes 18 s .. 18 s + 17,
its corner first. A peg is in its start area (START), on a track hole (0 .. L - 1) or in its
home (L + 0 .. L + 4: home 1 next to the in-spot, home 5 at the back).

Cards are their values: 0 the joker, 1 the ace ... 13 the king (suits play no part). Actions
are tuples of plain values; pegs are numbered 0-4 among the pegs of the player whose pegs the
current player moves (their own, or a partner's once all of their own are home):
    ("play", card, peg)               A, J, Q, K from the start area to the come-out hole; any
                                      card but the joker along the track or into home
    ("split", peg, steps, other)      a seven: `steps` (1-6) with one peg, then the rest with another
    ("joker", peg, hole)              a peg (even from START) onto the track hole another peg holds
    ("discard", card)                 no card can move: discard one and draw; the turn ends
The only random choices are the dealer and the shuffles, from the state's rng.
"""
from __future__ import annotations

# Where the seed's translation leaves the rules open, they follow the game as commonly played:
# decided: a seven split moves two different pegs forward by 1-6 and the rest of 7, the first
#   part before the second; a split part may end in home, neither part leaves START.
# decided: the joker lands on a track hole another player's peg holds; pegs at home or in a
#   start area are no target; it moves a peg on the track or the first one in START.
# decided: "must play" counts every card but the joker: with a moving card in hand any move
#   (the joker's too) may be played; with none, the joker or any discard.
# decided: a discard draws its replacement at once, so that hand starts its next turn with 6.
# decided: no hole is safe; a peg on its own come-out hole or in-spot may be landed on.
# decided: pegs at home move on only forward and by exact count, passing no peg there; an 8
#   never takes a peg out of home.
# decided: the whole discard pile, its top card too, is shuffled into a new draw pile.
# decided: one deal a game; the dealer is drawn at random and the player to the left begins
#   (the cut the seed mentions changes nothing a shuffle does not).
import random
from bisect import bisect_left
from collections import Counter
from itertools import chain
from dataclasses import dataclass, field
from typing import Any

from ..engine import InvariantBroken, SetupError, State
from .design import (
    ACE,
    COLOURS,
    COME_OUT_HOLE,
    COURT,
    DECK,
    DECKS_FOR,
    DRAW_TO,
    EIGHT,
    HAND_SIZE,
    HOLES_PER_SIDE,
    HOME_HOLES,
    IN_SPOT_HOLE,
    JOKER,
    LABELS,
    LEAVES_START,
    MAX_PLAYERS,
    PEGS,
    SEVEN,
    STEPS,
    team_count,
)


START = -1
# decided: after most actions only what the action changed is checked; every this many turns,
# and once a game ends, every invariant (check_rules)
FULL_CHECK_EVERY = 64
TEAM_NAMES = ("A", "B", "C", "D")      # as the team markers show them
ORDINALS = ("1st", "2nd", "3rd", "4th")


PEG_NUMBERS = tuple(range(PEGS))
# Actions are made once and handed out again whenever they are legal. The pegs a card moves are
# a set of bits (peg n: 1 << n); PLAY_ACTIONS[card][pegs] plays it with each, in peg order.
PLAY_ACTIONS = {card: tuple(tuple(("play", card, peg) for peg in PEG_NUMBERS if pegs >> peg & 1)
                            for pegs in range(1 << PEGS)) for card in LABELS if card != JOKER}
SPLIT_ACTIONS = tuple(tuple(tuple(tuple(("split", peg, steps, other) for other in PEG_NUMBERS if others >> other & 1)
                                    for others in range(1 << PEGS)) for steps in range(SEVEN)) for peg in PEG_NUMBERS)
JOKER_ACTIONS = tuple(tuple(("joker", peg, hole) for hole in range(MAX_PLAYERS * HOLES_PER_SIDE)) for peg in PEG_NUMBERS)
DISCARD_ACTIONS = {card: ("discard", card) for card in LABELS}


def _home_room(taken: int, depth: int) -> int:
    """How far a peg in home hole `depth` (0-4) may move on, by exact count and passing no peg,
    when the home holes `taken` (a bit each) hold the player's pegs."""
    for deeper in range(depth + 1, HOME_HOLES):
        if taken >> deeper & 1:
            return deeper - depth - 1
    return HOME_HOLES - 1 - depth


# Per set of home holes taken: each hole's room (HOME_ROOM), and how many holes from home 1 on are free.
HOME_ROOM = tuple(tuple(_home_room(taken, depth) for depth in range(HOME_HOLES)) for taken in range(1 << HOME_HOLES))
HOME_FREE = tuple(next((depth for depth in range(HOME_HOLES) if taken >> depth & 1), HOME_HOLES)
                  for taken in range(1 << HOME_HOLES))
# Per steps (an eight's -8 as 8: steps & 15), the pegs at home that may move so, when none may.
NO_HOME_MOVERS = (0,) * 16


# ---- what the components give the engine ----------------------------------------------------

@dataclass(frozen=True)
class Box:
    """One edition's playing cards, deck by deck (each copy has its own back), as card values."""

    edition: str
    decks: tuple[tuple[int, ...], ...]

    def cards_for(self, players: int) -> list[int]:
        """The decks a table of `players` shuffles together."""
        wanted = DECKS_FOR[players]
        if len(self.decks) < wanted:
            raise SetupError(f"{players} players need {wanted} decks, edition '{self.edition}' has {len(self.decks)}",
                             ("cards", ("decks", DECK, "count")))
        return [card for deck in self.decks[:wanted] for card in deck]


def box_from_game(game, edition: str) -> Box:
    """Read one edition's playing cards; a card the rules cannot use is a SetupError naming it."""
    by_back: dict[str, list[int]] = {}
    for component in game.in_edition(edition, "cards"):
        if component.group != DECK:
            continue
        where = ("cards", ("decks", DECK))
        value = component.data.get("value")
        if type(value) is not int or value not in LABELS:
            raise SetupError(f"card '{component.id}' has no value the rules know (0 joker, 1 ace ... 13 king)", where)
        back = str(component.data.get("back", game.decks[DECK]["back"]))
        by_back.setdefault(back, []).extend([value] * component.count(edition))
    if not by_back:
        raise SetupError(f"edition '{edition}' has no deck '{DECK}'", ("cards", ("decks",)))
    order = list(game.decks[DECK].get("backs") or by_back)
    decks = tuple(tuple(sorted(by_back[back])) for back in order if back in by_back)
    for deck in decks:
        if Counter(deck) != Counter(decks[0]):
            raise SetupError("every copy of the deck must hold the same cards", ("cards", ("decks", DECK)))
    return Box(edition, decks)


def hole_label(hole: int) -> int:
    return hole + 1


def position_label(position: int, track: int) -> str | int:
    if position == START:
        return "start"
    if position >= track:
        return f"home-{position - track + 1}"
    return hole_label(position)


# ---- the state ------------------------------------------------------------------------------

@dataclass
class PegState(State):
    names: list[str]
    teams: list[int]                 # the team of each seat
    rng: random.Random
    pairs: bool = False
    pool: tuple[int, ...] = ()       # every card of the table's decks, sorted
    pegs: list[list[int]] = field(default_factory=list)
    board: list[int] = field(default_factory=list)   # per track hole: seat * PEGS + peg, or -1
    hands: list[list[int]] = field(default_factory=list)   # each kept sorted
    deck: list[int] = field(default_factory=list)    # the top is the end
    discard: list[int] = field(default_factory=list)  # the top is the end
    seat: int = 0
    dealer: int = 0
    winner: int | None = None        # the team that has every peg home
    turns: int = 0
    counts: Counter = field(default_factory=Counter)  # figures for the report
    # True: check_invariants checks every invariant after every action, not only what it changed
    full_checks: bool = False
    # What the last action changed, for check_invariants: (the seat that acted, [(seat, peg,
    # position before)...]); None when the state changed otherwise (a setup, a test).
    changed: tuple | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.players = len(self.names)
        self.track = self.players * HOLES_PER_SIDE
        if not self.pegs:
            self.pegs = [[START] * PEGS for _ in self.names]
        if not self.board:
            self.board = [-1] * self.track
        if not self.hands:
            self.hands = [[] for _ in self.names]
        self.team_count = max(self.teams) + 1
        self.team_seats = tuple(tuple(seat for seat in range(self.players) if self.teams[seat] == team)
                                for team in range(self.team_count))

    # -- geometry

    def come_out(self, seat: int) -> int:
        return seat * HOLES_PER_SIDE + COME_OUT_HOLE - 1

    def in_spot(self, seat: int) -> int:
        return seat * HOLES_PER_SIDE + IN_SPOT_HOLE - 1

    def all_home(self, seat: int) -> bool:
        return min(self.pegs[seat]) >= self.track

    def owner(self, seat: int | None = None) -> int:
        """Whose pegs `seat` moves: its own, or once they are all home the nearest partner to
        its left who still has pegs out (decided: the seed's "closest to the left")."""
        seat = self.seat if seat is None else seat
        if min(self.pegs[seat]) < self.track:
            return seat
        for step in range(1, self.players):
            other = (seat + step) % self.players
            if self.teams[other] == self.teams[seat] and not self.all_home(other):
                return other
        return seat

    # -- the interface

    def current_player(self) -> int:
        return self.seat

    def find_actions(self) -> list:
        if self.winner is not None:
            return []
        track, board, teams = self.track, self.board, self.teams
        seat = self.seat
        owner = seat if min(self.pegs[seat]) < track else self.owner()
        pegs = self.pegs[owner]
        team, own = teams[owner], owner * PEGS
        first = None                              # the peg that leaves START first
        out = []                                  # the pegs out of START
        holes = []                                # the track holes of those on the track
        taken = 0                                 # the home holes (0-4) they hold, a bit each
        for peg in PEG_NUMBERS:
            position = pegs[peg]
            if position == START:
                if first is None:
                    first = peg
            else:
                out.append(peg)
                if position < track:
                    holes.append(position)
                else:
                    taken |= 1 << (position - track)
        home_free = HOME_FREE[taken]              # home holes free from home 1 on
        # A peg at home moves on by 1 .. its room (`home_movers`: per steps, the pegs that may).
        # A peg on the track (`along`, and `reach` by peg): its hole, the nearest own peg ahead
        # and behind, the holes to its in-spot, and the steps that take it home (first .. last).
        in_spot = owner * HOLES_PER_SIDE + IN_SPOT_HOLE - 1
        rooms = HOME_ROOM[taken]
        home_movers = NO_HOME_MOVERS
        along = []
        reach = [None] * PEGS
        for peg in out:
            position = pegs[peg]
            if position >= track:
                room = rooms[position - track]
                if room:
                    if home_movers is NO_HOME_MOVERS:
                        home_movers = [0] * 16
                    for steps in range(1, room + 1):
                        home_movers[steps] |= 1 << peg
                continue
            ahead = behind = track
            for other in holes:
                if other != position:
                    gap = (other - position) % track
                    if gap < ahead:
                        ahead = gap
                    if track - gap < behind:
                        behind = track - gap
            to_in_spot = (in_spot - position) % track
            # plan_step: a move that can end in home goes in, unless an own peg stands on the way to the in-spot
            home_last = to_in_spot + home_free if ahead > to_in_spot else 0
            reach[peg] = entry = (peg, 1 << peg, position, ahead, behind, to_in_spot, home_last)
            along.append(entry)

        def lands(peg: int, hole: int) -> bool:
            """Whether _land lets the peg onto a track hole that holds a peg."""
            seat = board[hole] // PEGS
            if seat == owner:
                return False
            if teams[seat] != team:
                return True
            there = board[seat * HOLES_PER_SIDE + IN_SPOT_HOLE - 1]
            return there < 0 or there == own + peg or teams[there // PEGS] != team

        found, jokers = [], []
        movers: dict[int, int] = {}               # J, Q, K and 10 move alike: per steps, the pegs
        comes_out = None                          # whether the first peg in START may leave it
        hand = sorted(set(self.hands[seat]))
        for card in hand:
            if card == JOKER:
                jokers = self._joker_actions(owner, first)
                continue
            steps = STEPS[card]
            moved = movers.get(steps)
            if moved is None:
                # as plan_step decides, on the position as it stands: home if it can, else along
                # the track, passing no own peg, onto a hole _land allows
                moved = home_movers[steps & 15]
                if steps > 0:
                    for peg, bit, position, ahead, _, to_in_spot, home_last in along:
                        if to_in_spot < steps <= home_last:
                            moved |= bit
                        elif steps < ahead:
                            hole = (position + steps) % track
                            if board[hole] < 0 or lands(peg, hole):
                                moved |= bit
                else:
                    for peg, bit, position, _, behind, _, _ in along:
                        if -steps < behind:
                            hole = (position + steps) % track
                            if board[hole] < 0 or lands(peg, hole):
                                moved |= bit
                movers[steps] = moved
            if first is not None and card in LEAVES_START:
                if comes_out is None:
                    hole = self.come_out(owner)
                    comes_out = board[hole] < 0 or lands(first, hole)
                if comes_out:
                    moved |= 1 << first
            found += PLAY_ACTIONS[card][moved]
            if card == SEVEN and len(out) > 1:
                found += self._splits(owner, out, reach, along, holes, taken, home_movers, lands)
        if found:
            return found + jokers
        # Nothing but a joker can move: the joker is never forced, a discard ends the turn.
        return jokers + [DISCARD_ACTIONS[card] for card in hand]

    def play(self, action) -> None:
        kind = action[0]
        seat = self.seat
        hand = self.hands[seat]
        moved: list = []
        self.changed = (seat, moved)
        counts = self.counts
        if kind == "discard":
            hand.remove(action[1])
            self.discard.append(action[1])
            counts["discards"] += 1
            self._draw(seat, 1)
            self._next_turn()
            return
        owner = seat if min(self.pegs[seat]) < self.track else self.owner()
        if kind == "play":
            _, card, peg = action
            counts[PLAY_KIND[card][self.pegs[owner][peg] == START]] += 1
            home = self._move(self.plan_card(owner, peg, card), moved)
            if card == SEVEN:
                counts["sevens whole"] += 1
        elif kind == "split":
            _, peg, steps, other = action
            home = self._move(self.plan_step(owner, peg, steps), moved)
            home = self._move(self.plan_step(owner, other, SEVEN - steps), moved) or home
            card = SEVEN
            counts["sevens split"] += 1
        else:
            _, peg, hole = action
            home = self._move(self.plan_joker(owner, peg, hole), moved)
            card = JOKER
            counts["jokers"] += 1
        hand.remove(card)
        self.discard.append(card)
        # A team has every peg home only once a peg of it goes home (or on there).
        if home:
            team = self.teams[seat]
            if all(self.all_home(partner) for partner in self.team_seats[team]):
                self.winner = team
                return
        self._next_turn()

    def why_illegal(self, action) -> str:
        if self.winner is not None:
            return f"the game is over: team {TEAM_NAMES[self.winner]} has every peg home"
        name = self.names[self.seat]
        if not isinstance(action, tuple) or not action or action[0] not in ("play", "split", "joker", "discard"):
            return f"unknown action {action!r}"
        hand = self.hands[self.seat]
        card = {"play": action[1] if len(action) > 1 else None, "split": SEVEN, "joker": JOKER,
                "discard": action[1] if len(action) > 1 else None}[action[0]]
        if card not in hand:
            return f"{name} holds no {LABELS.get(card, card)} (hand: {', '.join(LABELS[c] for c in hand)})"
        legal = self.legal_actions()
        if action[0] == "discard":
            return f"{name} can move a peg and must play a card that does; a discard is only for a hand that cannot move"
        owner = self.owner()
        whose = "" if owner == self.seat else f" (moving {self.names[owner]}'s pegs, all of {name}'s are home)"
        if action[0] == "play":
            return f"{LABELS[card]} cannot move peg {action[2] + 1}{whose}: " + self._why_not(owner, action[2], card)
        if action[0] == "split":
            return (f"the seven cannot move peg {action[1] + 1} by {action[2]} and peg {action[3] + 1} by "
                    f"{SEVEN - action[2] if isinstance(action[2], int) else '?'}{whose}: two different pegs out of the "
                    "start area, each move legal after the one before")
        if not any(a[0] == "joker" for a in legal):
            return "no peg can take a joker move"
        return (f"the joker moves peg {action[1] + 1}{whose} onto a track hole another player's peg holds "
                f"(not its own colour; a partner's peg must find its in-spot free of its own colour)")

    def _why_not(self, owner: int, peg, card: int) -> str:
        if not isinstance(peg, int) or not 0 <= peg < PEGS:
            return f"pegs are numbered 1-{PEGS}"
        if card == JOKER:
            return "the joker names the hole it jumps to"
        position = self.pegs[owner][peg]
        if position == START:
            if card not in LEAVES_START:
                return "a peg leaves the start area only with an A, J, Q, K (or a joker)"
            if peg != self._first_in_start(owner):
                return f"the pegs in the start area are alike: peg {self._first_in_start(owner) + 1} leaves first"
            return "the come-out hole holds a peg of its own colour, or a partner's peg that cannot go to its in-spot"
        track = self.track
        if position >= track:
            if card == EIGHT:
                return "a peg at home does not move back"
            depth = position - track + 1 + STEPS[card]
            if depth > HOME_HOLES:
                return f"home has {HOME_HOLES} holes: a peg in home-{position - track + 1} moves on only by exact count"
            return "a peg in home passes no other peg"
        steps = STEPS[card]
        direction = 1 if steps > 0 else -1
        for step in range(1, abs(steps) + 1):
            hole = (position + direction * step) % track
            held = self.board[hole]
            if held >= 0 and held // PEGS == owner:
                verb = "land on" if step == abs(steps) else "pass"
                return f"it would {verb} its own peg in hole {hole_label(hole)}"
        hole = (position + steps) % track
        seat = self.board[hole] // PEGS
        spot = self.in_spot(seat)
        return (f"it would land on {self.names[seat]}'s peg in hole {hole_label(hole)}, a partner's, "
                f"whose in-spot (hole {hole_label(spot)}) holds a peg of the team")

    def is_terminal(self) -> bool:
        return self.winner is not None

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0] * self.players
        winners = [seat for seat in range(self.players) if self.teams[seat] == self.winner]
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(self.players)]

    # -- moves

    def _first_in_start(self, owner: int) -> int | None:
        for peg, position in enumerate(self.pegs[owner]):
            if position == START:
                return peg
        return None

    def plan_card(self, owner: int, peg: int, card: int):
        """The pegs a card moves (seat, peg, new position), or None if the rules forbid it."""
        position = self.pegs[owner][peg]
        if position == START:
            if card not in LEAVES_START or peg != self._first_in_start(owner):
                return None
            return self._land(owner, peg, self.come_out(owner))
        return self.plan_step(owner, peg, STEPS[card])

    def plan_step(self, owner: int, peg: int, steps: int):
        """`steps` holes forward (negative: back), for a peg out of the start area."""
        pegs = self.pegs[owner]
        position = pegs[peg]
        track = self.track
        if position == START:
            return None
        if position >= track:                     # in home: forward only, by exact count
            there = position - track + steps
            if steps < 0 or there >= HOME_HOLES:
                return None
            for other in pegs:                    # no peg on the way or in the hole it ends in
                if position < other <= track + there:
                    return None
            return [(owner, peg, track + there)]
        # The nearest own peg on the track, forward or back, blocks it there and beyond (the
        # board shows each peg where `pegs` has it: check_rules holds them to it).
        nearest = track
        if steps > 0:
            for other in pegs:
                if 0 <= other < track and other != position:
                    ahead = (other - position) % track
                    if ahead < nearest:
                        nearest = ahead
            to_in_spot = (owner * HOLES_PER_SIDE + IN_SPOT_HOLE - 1 - position) % track
            deeper = steps - to_in_spot           # holes into home after passing the in-spot
            # decided: a move that can end in home goes in; the track beyond is for one that cannot
            if 0 < deeper <= HOME_HOLES and nearest > to_in_spot:
                for other in pegs:
                    if track <= other < track + deeper:
                        break
                else:
                    return [(owner, peg, track + deeper - 1)]
            if nearest < steps:
                return None
        else:
            for other in pegs:
                if 0 <= other < track and other != position:
                    behind = (position - other) % track
                    if behind < nearest:
                        nearest = behind
            if nearest < -steps:
                return None
        return self._land(owner, peg, (position + steps) % track)

    def _land(self, owner: int, peg: int, hole: int):
        """The moves of a peg landing on a track hole, with what it sends away; None if forbidden."""
        moves = [(owner, peg, hole)]
        held = self.board[hole]
        if held < 0:
            return moves
        seat, other = divmod(held, PEGS)
        if seat == owner:
            return None
        if self.teams[seat] != self.teams[owner]:
            moves.append((seat, other, START))
            return moves
        # A partner's peg goes to its in-spot, unless a peg of its colour is there already.
        spot = self.in_spot(seat)
        there = self.board[spot]
        if there >= 0 and there != owner * PEGS + peg:
            there_seat = there // PEGS
            if self.teams[there_seat] == self.teams[owner]:
                # decided: any peg of the team there (the partner's colour, the mover's) stops the
                # move; the seed names only the partner's colour, and chains of bumps are not played
                return None
            moves.append((there_seat, there % PEGS, START))
        moves.append((seat, other, spot))
        return moves

    def plan_joker(self, owner: int, peg: int, hole: int):
        position = self.pegs[owner][peg]
        if position >= self.track or (position == START and peg != self._first_in_start(owner)):
            return None
        held = self.board[hole]
        if held < 0 or held // PEGS == owner:
            return None
        return self._land(owner, peg, hole)

    def _joker_actions(self, owner: int, first: int | None) -> list:
        track, board, teams = self.track, self.board, self.teams
        pegs = [peg for peg, position in enumerate(self.pegs[owner]) if 0 <= position < track]
        if first is not None:
            pegs.append(first)
            pegs.sort()
        team, own = teams[owner], owner * PEGS
        # The holes a joker may go to: those another player's pegs stand on (the board shows
        # each peg where `pegs` has it: check_rules holds them to it), each with the one peg
        # that alone may go there, or None for any. Onto another team's peg a joker always goes
        # (it sends the peg to START); onto a partner's only if its in-spot holds no peg of the
        # team, or the moving peg itself (as _land decides).
        targets = []
        positions = sorted(chain.from_iterable(self.pegs))
        for hole in positions[bisect_left(positions, 0):bisect_left(positions, track)]:
            seat = board[hole] // PEGS
            if seat == owner:
                continue
            if teams[seat] == team:
                there = board[seat * HOLES_PER_SIDE + IN_SPOT_HOLE - 1]
                if there >= 0 and teams[there // PEGS] == team:
                    targets.append((hole, there - own))
                    continue
            targets.append((hole, None))
        result = []
        for peg in pegs:
            jumps = JOKER_ACTIONS[peg]
            result += [jumps[hole] for hole, only in targets if only is None or only == peg]
        return result

    def _splits(self, owner: int, out: list, reach: list, along: list, holes: list, taken: int,
                home_movers, lands) -> list:
        """The seven's splits of the pegs `out` of START, as plan_step decides each part, the
        second on the board the first leaves; `reach`, `along`, `holes`, `taken`, `home_movers`
        and `lands` are find_actions' for the position as it stands."""
        track, board, teams = self.track, self.board, self.teams
        pegs = self.pegs[owner]
        own = owner * PEGS
        at_home = None                            # (peg, home hole) of the pegs at home, once needed
        splits = []
        for peg in out:
            by_peg = SPLIT_ACTIONS[peg]
            position = pegs[peg]
            if position >= track:                 # at home: on by 1 .. room
                depth = position - track
                room = HOME_ROOM[taken][depth]
                if not room:
                    continue
                taken_left = taken & ~(1 << depth)
            else:
                _, _, _, ahead, _, to_in_spot, home_last = reach[peg]
                holes_left = [hole for hole in holes if hole != position]
            for steps in range(1, SEVEN):
                # The first part, made on the board: the peg leaves its hole for home or a hole
                # on the track, where it sends another team's peg to START, or a partner's to the
                # partner's in-spot (and what stood there to START).
                if position >= track:
                    if steps > room:
                        break
                    holes_after, taken_after = holes, taken_left | 1 << (depth + steps)
                else:
                    landing = spot = None
                    if to_in_spot < steps <= home_last:
                        holes_after, taken_after = holes_left, taken | 1 << (steps - to_in_spot - 1)
                    else:
                        if steps >= ahead:
                            continue
                        landing = (position + steps) % track
                        held = board[landing]
                        if held >= 0:
                            if not lands(peg, landing):
                                continue
                            partner = held // PEGS
                            if teams[partner] == teams[owner]:
                                spot = partner * HOLES_PER_SIDE + IN_SPOT_HOLE - 1
                        holes_after, taken_after = holes_left + [landing], taken
                    left = board[position]
                    board[position] = -1
                    if landing is not None:
                        board[landing] = own + peg
                        if spot is not None:
                            spot_held = board[spot]
                            board[spot] = held
                # The second part, with another peg out of START: the pegs that may take it.
                rest = SEVEN - steps
                if taken_after == taken:          # home as it was: a peg there moves on as far as before
                    others = home_movers[rest]
                else:                             # at home: on by exact count, passing no peg
                    if at_home is None:
                        at_home = [(other, pegs[other] - track) for other in out if pegs[other] >= track]
                    others = 0
                    rooms_after = HOME_ROOM[taken_after]
                    for other, depth_other in at_home:
                        if other != peg and rest <= rooms_after[depth_other]:
                            others |= 1 << other
                free_after = HOME_FREE[taken_after]
                for other, bit, there, _, _, to_in_spot_other, _ in along:
                    if other == peg:
                        continue
                    nearest = track
                    for hole in holes_after:
                        if hole != there:
                            gap = (hole - there) % track
                            if gap < nearest:
                                nearest = gap
                    deeper = rest - to_in_spot_other
                    if 0 < deeper <= free_after and nearest > to_in_spot_other:
                        others |= bit
                    elif rest < nearest:
                        hole = (there + rest) % track
                        if board[hole] < 0 or lands(other, hole):
                            others |= bit
                if others:
                    splits += by_peg[steps][others]
                if position < track:              # the board as it was
                    if landing is not None:
                        if spot is not None:
                            board[spot] = spot_held
                        board[landing] = held
                    board[position] = left
        return splits

    def _apply(self, moves) -> list:
        """Move every peg named; return what undoes it."""
        board, pegs = self.board, self.pegs
        undo = [(seat, peg, pegs[seat][peg]) for seat, peg, _ in moves]
        for seat, peg, _ in moves:
            if 0 <= pegs[seat][peg] < self.track:
                board[pegs[seat][peg]] = -1
        for seat, peg, position in moves:
            pegs[seat][peg] = position
            if 0 <= position < self.track:
                board[position] = seat * PEGS + peg
        return undo

    def _move(self, moves, moved: list) -> bool:
        """Make a planned move as _apply does and count what it sent away (the first entry is
        the moving peg); add each peg moved and where it stood to `moved`. Whether the moving
        peg is now at home."""
        board, pegs, track = self.board, self.pegs, self.track
        if len(moves) == 1:                       # nothing sent away
            seat, peg, position = moves[0]
            before = pegs[seat][peg]
            moved.append((seat, peg, before))
            if 0 <= before < track:
                board[before] = -1
            pegs[seat][peg] = position
            if position < track:
                if position >= 0:
                    board[position] = seat * PEGS + peg
                return False
            self.counts["pegs home"] += 1
            return True
        for seat, peg, _ in moves:
            before = pegs[seat][peg]
            moved.append((seat, peg, before))
            if 0 <= before < track:
                board[before] = -1
        for seat, peg, position in moves:
            pegs[seat][peg] = position
            if 0 <= position < track:
                board[position] = seat * PEGS + peg
        if len(moves) > 1:
            for seat, _, position in moves[1:]:
                self.counts["sent to start" if position == START else "sent to in-spot"] += 1
        if moves[0][2] >= track:
            self.counts["pegs home"] += 1
            return True
        return False

    def _undo(self, undo) -> None:
        board, pegs = self.board, self.pegs
        for seat, peg, _ in undo:
            if 0 <= pegs[seat][peg] < self.track:
                board[pegs[seat][peg]] = -1
        for seat, peg, position in undo:
            pegs[seat][peg] = position
            if 0 <= position < self.track:
                board[position] = seat * PEGS + peg

    # -- cards and turns

    def _draw(self, seat: int, count: int) -> None:
        hand = self.hands[seat]
        for _ in range(count):
            if not self.deck:
                # The draw pile is shuffled again from the discards.
                self.deck, self.discard = self.discard, []
                self.rng.shuffle(self.deck)
                self.counts["reshuffles"] += 1
            if not self.deck:
                raise InvariantBroken("no card left to draw: every card is in a hand")
            hand.append(self.deck.pop())
        hand.sort()

    def deal(self) -> None:
        """The dealer deals 5 cards to each player, from the left of the dealer."""
        for _ in range(HAND_SIZE):
            for step in range(1, self.players + 1):
                self.hands[(self.dealer + step) % self.players].append(self.deck.pop())
        for hand in self.hands:
            hand.sort()

    def start_turn(self, seat: int) -> None:
        self.seat = seat
        self.turns += 1
        missing = DRAW_TO - len(self.hands[seat])
        if missing > 0:
            self._draw(seat, missing)
        else:
            self.hands[seat].sort()

    def _next_turn(self) -> None:
        self.start_turn((self.seat + 1) % self.players)

    # -- checks and figures

    def check_invariants(self) -> None:
        changed, self.changed = self.changed, None
        if changed is None or self.full_checks or self.winner is not None or self.turns % FULL_CHECK_EVERY == 0:
            return super().check_invariants()
        if not self._changed_holds(*changed):
            self._check_rules_in_full()
            raise InvariantBroken(f"turn {self.turns}: the last action broke the board, the cards or the winner")
        if not self.legal_actions():
            raise InvariantBroken(f"{self.names[self.seat]} can do nothing but play goes on")

    def _changed_holds(self, actor: int, moved: list) -> bool:
        """Whether what one action changed keeps the invariants check_rules checks: each peg it
        moved where the board shows it, the holes it left, the cards counted, the hands' sizes,
        and no team with every peg home but no winner."""
        track, board, pegs_of = self.track, self.board, self.pegs
        for seat, peg, before in moved:
            pegs = pegs_of[seat]
            if len(pegs) != PEGS:
                return False
            position = pegs[peg]
            if position < track:
                if position < START or (position >= 0 and board[position] != seat * PEGS + peg):
                    return False
            elif position >= track + HOME_HOLES or pegs.count(position) > 1:
                return False
            if 0 <= before < track and before != position:
                held = board[before]        # the hole it left: empty, or another peg that stands there
                if held >= 0 and pegs_of[held // PEGS][held % PEGS] != before:
                    return False
        hands = self.hands
        if len(self.deck) + len(self.discard) + sum(map(len, hands)) != len(self.pool):
            return False
        if len(hands[actor]) > DRAW_TO or len(hands[self.seat]) != DRAW_TO:
            return False
        for seat in self.team_seats[self.teams[actor]]:
            if min(pegs_of[seat]) < track:
                return True
        return False

    def check_rules(self) -> None:
        # The fast checks below pass exactly when the full one does; it runs only to name what broke.
        track, board, teams = self.track, self.board, self.teams
        expected = [-1] * track             # the board the pegs make
        on_track = 0
        home = []                           # per seat: every peg home
        broken = False
        for seat, pegs in enumerate(self.pegs):
            if len(pegs) != PEGS or min(pegs) < START or max(pegs) >= track + HOME_HOLES:
                broken = True
                break
            base = seat * PEGS
            homes = 0
            for peg, position in enumerate(pegs):
                if position >= track:
                    homes += 1
                elif position >= 0:
                    expected[position] = base + peg
                    on_track += 1
            if homes > 1 and len({position for position in pegs if position >= track}) != homes:
                broken = True
                break
            home.append(homes == PEGS)
        if broken or expected != board or len(board) - board.count(-1) != on_track:
            return self._check_rules_in_full()
        cards = self.deck + self.discard
        for hand in self.hands:
            cards += hand
        cards.sort()
        pool = self.__dict__.get("_pool_list")
        if pool is None or pool[0] is not self.pool:
            pool = self.__dict__["_pool_list"] = (self.pool, list(self.pool))
        if cards != pool[1]:
            return self._check_rules_in_full()
        draw_to, seat_now, winner = DRAW_TO, self.seat, self.winner
        for seat, hand in enumerate(self.hands):
            if len(hand) > draw_to or (winner is None and seat == seat_now and len(hand) != draw_to):
                return self._check_rules_in_full()
        won = [team for team in range(self.team_count)
               if all(home[seat] for seat in range(self.players) if teams[seat] == team)]
        if (winner is None and won) or (winner is not None and winner not in won):
            return self._check_rules_in_full()

    def _check_rules_in_full(self) -> None:
        """Every invariant, one by one, raising InvariantBroken for the first that breaks."""
        where = f"turn {self.turns}"
        seen: dict[int, tuple[int, int]] = {}
        for seat, pegs in enumerate(self.pegs):
            if len(pegs) != PEGS:
                raise InvariantBroken(f"{where}: {self.names[seat]} has {len(pegs)} pegs, not {PEGS}")
            homes = [position for position in pegs if position >= self.track]
            if len(set(homes)) != len(homes) or any(position >= self.track + HOME_HOLES for position in homes):
                raise InvariantBroken(f"{where}: {self.names[seat]}'s home holds two pegs in one hole")
            for peg, position in enumerate(pegs):
                if not START <= position < self.track + HOME_HOLES:
                    raise InvariantBroken(f"{where}: {self.names[seat]}'s peg {peg + 1} is off the board")
                if 0 <= position < self.track:
                    if position in seen:
                        raise InvariantBroken(f"{where}: two pegs in hole {hole_label(position)}")
                    seen[position] = (seat, peg)
                    if self.board[position] != seat * PEGS + peg:
                        raise InvariantBroken(f"{where}: the board lost track of hole {hole_label(position)}")
        if len(self.board) - self.board.count(-1) != len(seen):
            raise InvariantBroken(f"{where}: the board shows a peg where none stands")
        cards = self.deck + self.discard
        for hand in self.hands:
            cards += hand
        cards.sort()
        if tuple(cards) != self.pool:
            lost = Counter(self.pool) - Counter(cards)
            made = Counter(cards) - Counter(self.pool)
            raise InvariantBroken(f"{where}: cards lost {dict(lost)}, cards created {dict(made)}")
        for seat, hand in enumerate(self.hands):
            if len(hand) > DRAW_TO or (self.winner is None and seat == self.seat and len(hand) != DRAW_TO):
                raise InvariantBroken(f"{where}: {self.names[seat]} holds {len(hand)} cards")
        won = [team for team in range(self.team_count)
               if all(self.all_home(seat) for seat in range(self.players) if self.teams[seat] == team)]
        if (self.winner is None and won) or (self.winner is not None and self.winner not in won):
            raise InvariantBroken(f"{where}: the winner is {self.winner}, teams with every peg home {won}")

    def stats(self) -> dict[str, Any]:
        first = (self.dealer + 1) % self.players
        figures: dict[str, Any] = {
            "turns": self.turns,
            "rounds": round(self.turns / self.players, 2),
            "discards": self.counts["discards"],
            "stuck_share": round(self.counts["discards"] / max(1, self.turns), 4),
            "jokers": self.counts["jokers"],
            "sevens_split": self.counts["sevens split"],
            "sent_to_start": self.counts["sent to start"],
            # every turn's card by what it did
            "plays": {**{kind: self.counts[kind] for kind in PLAY_KINDS},
                      "7 split": self.counts["sevens split"], "joker": self.counts["jokers"],
                      "discard": self.counts["discards"]},
        }
        if self.winner is not None:
            # Which team won, by the turn order: the team of the first player, of the second...
            order = [self.teams[(first + step) % self.players] for step in range(self.players)]
            figures["winner"] = ORDINALS[order.index(self.winner)] + " player's team"
        return figures

    def to_json(self) -> dict:
        terminal = self.winner is not None
        track = self.track
        teams = {TEAM_NAMES[team]: [self.names[seat] for seat in range(self.players) if self.teams[seat] == team]
                 for team in range(self.team_count)}
        return {
            "players": self.players, "options": {"pairs": self.pairs},
            "holes": track,
            "teams": teams,
            "terminal": terminal,
            "current": None if terminal else self.names[self.seat],
            "moves_for": None if terminal else self.names[self.owner()],
            "dealer": self.names[self.dealer],
            "winner": TEAM_NAMES[self.winner] if terminal else None,
            "turns": self.turns,
            "deck": [LABELS[card] for card in reversed(self.deck)],
            "discard": [LABELS[card] for card in reversed(self.discard)],
            "seats": {name: {
                "seat": seat + 1, "team": TEAM_NAMES[self.teams[seat]], "colour": COLOURS[seat],
                "come_out": hole_label(self.come_out(seat)), "in_spot": hole_label(self.in_spot(seat)),
                "pegs": [position_label(position, track) for position in self.pegs[seat]],
                "home": sum(position >= track for position in self.pegs[seat]),
                "moves": self.names[self.owner(seat)],        # whose pegs this player moves
                "hand": [LABELS[card] for card in self.hands[seat]],
            } for seat, name in enumerate(self.names)},
            "figures": {key: self.counts[key] for key in sorted(self.counts)},
        }


PLAY_KINDS = ("A out", "A 1", "J Q K out", "J Q K 10", "2-6 9 10", "7", "8 back")


def _play_kind(card: int, from_start: bool) -> str:
    if card == ACE:
        return "A out" if from_start else "A 1"
    if card in COURT:
        return "J Q K out" if from_start else "J Q K 10"
    return {SEVEN: "7", EIGHT: "8 back"}.get(card, "2-6 9 10")


# Per card, what playing it does: moving a peg on (PLAY_KIND[card][False]) or out of START ([True]).
PLAY_KIND = {card: (_play_kind(card, False), _play_kind(card, True)) for card in LABELS if card != JOKER}


def seat_teams(players: int, pairs: bool) -> list[int]:
    """Partners alternate round the table: two teams (seat % 2) or, with pairs, partners facing
    each other (seat % teams), so that every player sits between two opponents."""
    teams = team_count(players, pairs)
    return [seat % teams for seat in range(players)]


def new_state(names, rng: random.Random, box: Box, pairs: bool) -> PegState:
    players = len(names)
    pool = box.cards_for(players)
    return PegState(list(names), seat_teams(players, pairs), rng, pairs=pairs, pool=tuple(sorted(pool)))

