"""The Game's ENGINE: a new game dealt as the rules say, and scenario support: a position from
a scenario's `setup`, and actions written in YAML (the generic format is in docs/scenarios.md).

setup:
  edition: standard
  seed: 0
  options: {min_after_empty: 1}        # 2 (the seed, default) or 1 (the published rules)
  players:                             # a number (a game dealt from the seed) or, in turn order:
    - {name: Ana, hand: [12, 34, 56]}  # cards in hand; without `hand`, dealt from the rest
    - {name: Ben}
  piles:                               # cards played on each pile, bottom first (pile card not
    up-1: [12, 30]                     # written); up-1, up-2, down-1, down-2; unnamed: nothing
    down-2: [80, 90]
  deck: [5, 6]                         # the draw pile, top first
  rest: deck                           # unlisted cards: `deck` (shuffled under the listed deck)
                                       # or `piles` (under each pile's listed cards, in order)
  current: Ana                         # whose turn begins (default: the first player)

Actions: {player: Ana, play: 30, pile: up-1} and {player: Ana, end: true}.
"""
from __future__ import annotations

import random
from collections.abc import Mapping

from ..claims import Mean
from ..engine import Engine, ScenarioError, SetupError, Table, random_policy
from ..fields import Flag, Given, Kind, OneOf, Player
from ..pool import CardPool
from .design import MIN_AFTER_EMPTY, MINIMUM, SPEC
from .policies import heuristic_policy
from .state import END, Box, GameState, box_from_game, make_piles


class TheGameEngine(Engine):
    spec = SPEC
    policies = {"random": random_policy, "heuristic": heuristic_policy}
    # The variant: min_after_empty=1, the published rules' minimum once the draw pile is empty.
    options = {"min_after_empty": MINIMUM}
    max_actions = 1_000              # 98 plays and fewer turn ends than plays
    outcome = "together"
    # Hands are held, the draw pile lies face down; the piles show every card played.
    hidden = {"seats.*.hand": "owner", "deck": "nobody"}
    setup_fields = {"piles": Given(), "deck": Given(),
                    "rest": OneOf(("deck", "piles"), "rest is 'deck' (unlisted cards go under the draw pile) or 'piles'",
                                  default="deck"),
                    "current": Player()}
    seat_fields = {"hand": Given()}
    action_kinds = {"play": Kind(takes=("pile",)),
                    "end": Kind(value=Flag("ending the turn is {end: true}", only=True))}
    action_example = "{player: Ana, play: 30, pile: up-1} or {end: true}"
    # The heuristic leaves far fewer cards than random play.
    claims = (Mean("cards_left", "heuristic", players=3, games=60, below=15),
              Mean("cards_left", "random", players=3, games=60, above=60))

    def box(self, game, edition: str) -> Box:
        return box_from_game(game, edition)

    def check_option(self, key: str, value, box: Box) -> str | None:
        if value not in MIN_AFTER_EMPTY:
            return (f"min_after_empty is {MINIMUM} (the seed: the minimum stays {MINIMUM} once the draw "
                    f"pile is empty) or 1 (the published rules), not {value!r}")
        return None

    def deal(self, box: Box, table: Table, rng: random.Random, options: dict) -> GameState:
        players = table.seats
        hand_size = box.hand_size(players)
        if hand_size * players > len(box.numbers):
            raise SetupError(f"{players} hands of {hand_size} need {hand_size * players} number cards, "
                             f"the components have {len(box.numbers)}", ("cards", ("cards",)))
        deck = list(box.numbers)
        rng.shuffle(deck)
        state = GameState(box, list(table.names), hand_size, options["min_after_empty"], rng, deck=deck,
                          piles=make_piles(box))
        state.hands = [sorted(deck.pop() for _ in range(hand_size)) for _ in range(players)]
        state.start_turn(0)
        return state

    def position(self, setup: Mapping, box: Box, table: Table, listed: list, rng: random.Random,
                 options: dict) -> GameState:
        names = list(table.names)
        hand_size = box.hand_size(len(names))
        state = GameState(box, names, hand_size, options["min_after_empty"], rng, piles=make_piles(box))
        pool = CardPool(box.numbers, noun="number card", source="the box", listing="card numbers",
                        read=lambda item: item if type(item) is int else None,
                        known=f"the cards are {box.numbers[0]}-{box.numbers[-1]}")

        piles = setup.get("piles") or {}
        if not isinstance(piles, Mapping):
            raise ScenarioError("piles is a mapping from pile names to the cards played on them", ("piles",))
        by_name = {pile.name: pile for pile in state.piles}
        for name, played in piles.items():
            if name not in by_name:
                raise ScenarioError(f"no pile '{name}' (piles: {', '.join(by_name)})", ("piles", name))
            pile = by_name[name]
            for index, card in enumerate(pool.take(played, ("piles", name))):
                if not pile.takes(card):
                    raise ScenarioError(f"{card} cannot lie on {pile.top} on {name}", ("piles", name, index))
                pile.cards.append(card)
        deck = pool.take(setup.get("deck", []), ("deck",))
        unlisted_hands = []
        for seat, (path, entry) in enumerate(listed):
            if "hand" in entry:
                hand = pool.take(entry["hand"], path + ("hand",))
                if len(hand) > hand_size:
                    raise ScenarioError(f"a hand holds at most {hand_size} cards with {len(names)} players", path + ("hand",))
                state.hands.append(sorted(hand))
            else:
                state.hands.append([])
                unlisted_hands.append(seat)

        rest = pool.rest()
        state.rng.shuffle(rest)
        for seat in unlisted_hands:
            state.hands[seat] = sorted(rest.pop() for _ in range(min(hand_size, len(rest))))
        if setup["rest"] == "deck":
            state.deck = rest + deck[::-1]               # the scenario lists the top first
        else:
            _under_piles(state, sorted(rest))
            state.deck = deck[::-1]

        if state.deck:
            for seat, (path, _) in enumerate(listed):
                if len(state.hands[seat]) != hand_size:
                    raise ScenarioError(f"while the draw pile has cards every hand holds {hand_size}, "
                                        f"{names[seat]}'s holds {len(state.hands[seat])}", path)
        if not any(state.hands):
            raise ScenarioError("every card is played: there is no game left", ("players",))
        seat = setup["current"]
        if not state.hands[seat]:
            raise ScenarioError(f"{names[seat]} has no cards left and takes no turns", ("current",))
        state.start_turn(seat)
        return state

    def parse_action(self, state: GameState, kind: str, data, seat: int) -> tuple:
        if kind == "end":
            return END
        card = data["play"]
        if type(card) is not int:
            raise ScenarioError(f"play names a card by its number, not {card!r}", ("play",))
        names = [pile.name for pile in state.piles]
        if data.get("pile") not in names:
            raise ScenarioError(f"pile is one of {', '.join(names)}", ("pile",))
        return ("play", card, names.index(data["pile"]))

    def describe_action(self, state: GameState, action: tuple) -> dict:
        if action == END:
            return {"player": state.names[state.seat], "end": True}
        return {"player": state.names[state.seat], "play": action[1], "pile": state.piles[action[2]].name}


ENGINE = TheGameEngine()


def _under_piles(state: GameState, rest: list[int]) -> None:
    """Each unlisted card goes under the listed cards of the first pile where it keeps the
    pile's order (above the pile card, before the first listed card)."""
    below: dict[int, list[int]] = {index: [] for index in range(len(state.piles))}
    for card in rest:
        for index, pile in enumerate(state.piles):
            if pile.cards and 0 < (card - pile.start) * pile.direction and 0 < (pile.cards[0] - card) * pile.direction:
                below[index].append(card)
                break
        else:
            raise ScenarioError(f"card {card} fits under no pile's listed cards: list it in a hand, "
                                "the deck or a pile", ("rest",))
    for index, cards in below.items():
        pile = state.piles[index]
        pile.cards[:0] = sorted(cards, reverse=pile.direction < 0)


ACTION_EXAMPLE = "{player: Ana, play: 30, pile: up-1} or {end: true}"
