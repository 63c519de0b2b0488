"""Pegs and Jokers' ENGINE: a new game dealt as the rules say, and scenario support: a position
from a scenario's `setup` and actions written in YAML (the generic format is in docs/scenarios.md).

setup:
  seed: 0
  options: {pairs: false}        # true: teams of two (3 teams with 6 players, 4 with 8)
  players:                       # in turn order (clockwise); seat n plays the board's side n
    - name: Ana
      pegs: [start, start, 8, 30, home-5]   # 5 pegs: start, a track hole 1 .. 18 x players
                                             # (hole 1 is seat 1's corner), or home-1 .. home-5
      hand: [A, 7, 8, joker, K]  # up to 6 cards: A, 2 .. 10, J, Q, K, joker
    - {name: Ben}                # without pegs: all in START; without hand: dealt from the rest
  deck: [5, 6]                   # the draw pile, top first
  discard: [9]                   # the discard pile, top first
  rest: deck                     # cards nobody listed: shuffled under the deck, or the discards
  current: Ana                   # whose turn begins (default the first player); they draw up to 6
  dealer: Dan                    # default: the player before `current`

Actions:
  {player: Ana, play: K, peg: 1}                  # a card moving one peg (out of START, along, home)
  {player: Ana, play: 7, pegs: [1, 2], steps: [3, 4]}   # a seven split: peg 1 by 3, then peg 2 by 4
  {player: Ana, play: joker, peg: 1, hole: 30}    # the joker onto the track hole another peg holds
  {player: Ana, discard: 5}                       # nothing can move: discard and draw
Pegs are numbered 1-5 among the pegs the player moves: their own, or once those are all home,
the partner's (`moves_for` in the state).
"""
from __future__ import annotations

import random
from collections.abc import Mapping

from ..claims import Beats
from ..engine import Engine, ScenarioError, Table, random_policy
from ..fields import Given, Kind, OneOf, Player
from ..pool import CardPool
from .design import DRAW_TO, HOME_HOLES, JOKER, LABELS, PEGS, SEVEN, SPEC, VALUES
from .policies import heuristic_policy
from .state import START, Box, PegState, box_from_game, new_state


class PegsEngine(Engine):
    spec = SPEC
    # The heuristic first: the designer's report plays most games with the first policy.
    policies = {"heuristic": heuristic_policy, "random": random_policy}
    # decided: the report plays 60 heuristic and 10 random games a table: a random 8-player
    # game takes about 2,750 turns, and 200 + 50 games took three minutes a build
    report_games = (60, 10)
    # The variant: teams of two partners (3 teams with 6 players, 4 with 8).
    options = {"pairs": False}
    max_actions = 50_000
    # Hands are held; the draw pile lies face down.
    hidden = {"seats.*.hand": "owner", "deck": "nobody"}
    setup_fields = {"deck": Given(), "discard": Given(),
                    "rest": OneOf(("deck", "discard"), "rest is 'deck' (unlisted cards go under the deck) or 'discard'",
                                  default="deck"),
                    "current": Player(), "dealer": Player(first=False)}
    seat_fields = {"pegs": Given(), "hand": Given()}
    action_kinds = {"play": Kind(takes=("peg", "pegs", "steps", "hole")), "discard": Kind()}
    action_example = "{player: Ana, play: K, peg: 1}"
    # A heuristic team beats a random one in most games.
    claims = (Beats("heuristic", "random", players=4, games=20, share=0.8),)

    def partners(self, state: PegState, seat: int) -> tuple[int, ...]:
        return tuple(other for other in range(state.players) if state.teams[other] == state.teams[seat])

    def box(self, game, edition: str) -> Box:
        return box_from_game(game, edition)

    def deal(self, box: Box, table: Table, rng: random.Random, options: dict) -> PegState:
        state = new_state(table.names, rng, box, options["pairs"])
        state.deck = list(state.pool)
        rng.shuffle(state.deck)
        state.dealer = rng.randrange(state.players)      # the first dealer is chosen at random
        state.deal()
        state.start_turn((state.dealer + 1) % state.players)
        return state

    def position(self, setup: Mapping, box: Box, table: Table, listed: list, rng: random.Random,
                 options: dict) -> PegState:
        state = new_state(table.names, rng, box, options["pairs"])
        names, track = state.names, state.track
        pool = CardPool(state.pool, noun="card", source=f"{len(names)} players' decks",
                        listing="cards (A, 2 ... 10, J, Q, K, joker)", read=lambda label: VALUES.get(str(label)),
                        known=f"cards: {', '.join(LABELS[v] for v in sorted(LABELS))}")

        unlisted = []
        for seat, (path, entry) in enumerate(listed):
            pegs = entry.get("pegs", ["start"] * PEGS)
            if not isinstance(pegs, list) or len(pegs) != PEGS:
                raise ScenarioError(f"pegs lists the {PEGS} pegs: start, a hole 1-{track} or home-1 .. home-{HOME_HOLES}",
                                    path + ("pegs",))
            for peg, where in enumerate(pegs):
                position = _position(where, track, path + ("pegs", peg))
                if 0 <= position < track:
                    if state.board[position] >= 0:
                        held = names[state.board[position] // PEGS]
                        raise ScenarioError(f"hole {position + 1} already holds a peg of {held}", path + ("pegs", peg))
                    state.board[position] = seat * PEGS + peg
                elif position >= track and position in state.pegs[seat]:
                    raise ScenarioError(f"two of {names[seat]}'s pegs in home-{position - track + 1}", path + ("pegs", peg))
                state.pegs[seat][peg] = position
            if "hand" in entry:
                hand = pool.take(entry["hand"], path + ("hand",))
                if len(hand) > DRAW_TO:
                    raise ScenarioError(f"a hand holds at most {DRAW_TO} cards", path + ("hand",))
                state.hands[seat] = sorted(hand)
            else:
                unlisted.append(seat)
        for team in range(state.team_count):
            if all(state.all_home(seat) for seat in range(state.players) if state.teams[seat] == team):
                raise ScenarioError("a team already has every peg home: there is no game left", ("players",))
        deck = pool.take(setup.get("deck", []), ("deck",))
        discard = pool.take(setup.get("discard", []), ("discard",))
        rest = pool.rest()
        state.rng.shuffle(rest)
        for seat in unlisted:
            state.hands[seat] = sorted(rest.pop() for _ in range(5))
        # Lists in the scenario are top first; the state keeps the top at the end.
        if setup["rest"] == "deck":
            state.deck, state.discard = rest + deck[::-1], discard[::-1]
        else:
            state.deck, state.discard = deck[::-1], rest + discard[::-1]
        seat, dealer = setup["current"], setup["dealer"]
        state.dealer = (seat - 1) % state.players if dealer is None else dealer
        if not state.deck and not state.discard and len(state.hands[seat]) < DRAW_TO:
            raise ScenarioError(f"{names[seat]} has no card to draw", ("current",))
        state.start_turn(seat)
        return state

    def parse_action(self, state: PegState, kind: str, data, seat: int) -> tuple:
        if kind == "discard":
            return ("discard", _card(data["discard"], ("discard",)))
        card = _card(data["play"], ("play",))
        if card == SEVEN and ("pegs" in data or "steps" in data):
            _only(data, ("play", "pegs", "steps"))
            pegs, steps = data.get("pegs"), data.get("steps")
            if not (isinstance(pegs, list) and len(pegs) == 2 and isinstance(steps, list) and len(steps) == 2):
                raise ScenarioError("a split seven names two pegs and two step counts: pegs: [1, 2], steps: [3, 4]")
            first, second = (_peg(peg, ("pegs", index)) for index, peg in enumerate(pegs))
            if any(type(n) is not int for n in steps) or sum(steps) != SEVEN or min(steps) < 1:
                raise ScenarioError(f"the steps of a split seven are two counts of at least 1 making {SEVEN}", ("steps",))
            return ("split", first, steps[0], second)
        if card == JOKER:
            _only(data, ("play", "peg", "hole"))
            hole = data.get("hole")
            if type(hole) is not int or not 1 <= hole <= state.track:
                raise ScenarioError(f"the joker names the track hole it goes to, 1-{state.track}", ("hole",))
            return ("joker", _peg(data.get("peg"), ("peg",)), hole - 1)
        _only(data, ("play", "peg"))
        return ("play", card, _peg(data.get("peg"), ("peg",)))

    def describe_action(self, state: PegState, action: tuple) -> dict:
        player = {"player": state.names[state.seat]}
        kind = action[0]
        if kind == "discard":
            return {**player, "discard": LABELS[action[1]]}
        if kind == "split":
            return {**player, "play": LABELS[SEVEN], "pegs": [action[1] + 1, action[3] + 1],
                    "steps": [action[2], SEVEN - action[2]]}
        if kind == "joker":
            return {**player, "play": LABELS[JOKER], "peg": action[1] + 1, "hole": action[2] + 1}
        return {**player, "play": LABELS[action[1]], "peg": action[2] + 1}


ENGINE = PegsEngine()


def _only(data: Mapping, keys: tuple) -> None:
    for key in data:
        if key != "player" and key not in keys:
            raise ScenarioError(f"this action takes {', '.join(keys)}, not {key}", (key,))


def _card(label, path: tuple) -> int:
    card = VALUES.get(str(label))
    if card is None:
        raise ScenarioError(f"no card {label!r} (cards: {', '.join(LABELS[v] for v in sorted(LABELS))})", path)
    return card


def _peg(number, path: tuple) -> int:
    if type(number) is not int or not 1 <= number <= PEGS:
        raise ScenarioError(f"a peg is named by its number, 1-{PEGS}", path)
    return number - 1


def _position(where, track: int, path: tuple) -> int:
    if where == "start":
        return START
    if isinstance(where, str) and where.startswith("home-") and where[5:].isdigit():
        depth = int(where[5:])
        if 1 <= depth <= HOME_HOLES:
            return track + depth - 1
    if type(where) is int and 1 <= where <= track:
        return where - 1
    raise ScenarioError(f"a peg is at start, on a hole 1-{track} or in home-1 .. home-{HOME_HOLES}, not {where!r}", path)
