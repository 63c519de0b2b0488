"""Race to the Table's ENGINE: a new game dealt as the rules say, and scenario support: a
position from a scenario's `setup` and actions written in YAML (docs/scenarios.md)."""
from __future__ import annotations

import random
from collections.abc import Mapping

from ..claims import Beats, TeamsPlayAsSeats
from ..engine import Engine, ScenarioError, Table, random_policy
from ..fields import Flag, Given, Kind, OneOf, Player, Whole
from ..pool import CardPool
from .design import SPEC, TWO_PAWNS
from .policies import greedy_policy
from .state import Box, RaceState, box_from_game, check_supply, clock_end


class RaceEngine(Engine):
    spec = SPEC
    policies = {"random": random_policy, "greedy": greedy_policy}
    # Variants: play without roles (first game), the quick game, teams of 2 or 3 from 7 players.
    options = {"roles": True, "quick": False, "team_size": 2}
    max_actions = 2_000
    # Hands are held; the deck lies face down (the discards face up).
    hidden = {"seats.*.hand": "owner", "deck": "nobody"}
    setup_fields = {"deck": Given(), "discard": Given(),
                    "rest": OneOf(("deck", "discard"), "rest is 'deck' (unlisted cards go under the deck) or 'discard'",
                                  default="deck"),
                    "clock": Whole(1, lambda context: clock_end(context.box, context.options) - 1,
                                   "the clock marker is on field 1 to {high}", default=1),
                    "current": Player()}
    seat_fields = {"pawn": Given(),
                   "position": Whole(0, lambda context: context.box.fields,
                                     "a position is 0 (START) to {high} (a pawn on TABLE has already won)", default=0),
                   "closed": Flag("closed is true or false"), "protected": Flag("protected is true or false"),
                   "hand": Given(), "role": Given(), "role_used": Flag("role_used is true or false")}
    action_kinds = {"play": Kind(takes=("pawns",)), "role": Kind(takes=("pawns",))}
    action_example = "{player: Мария, play: quick, pawns: [Пица]}"
    # One greedy seat wins most games among random ones (a quarter would be chance).
    # A team shares its seat's pawn, hand and turn: 7 players play the games of 3.
    claims = (Beats("greedy", "random", players=4, games=60, share=0.6), TeamsPlayAsSeats())

    def box(self, game, edition: str) -> Box:
        return box_from_game(game, edition)

    def deal(self, box: Box, table: Table, rng: random.Random, options: dict) -> RaceState:
        check_supply(box, table, options["roles"])
        state = RaceState(box, table, rng, options)
        state.deal()
        state._start_turn(0)          # the hungriest player, seat 1, begins
        return state

    def position(self, setup: Mapping, box: Box, table: Table, listed: list, rng: random.Random,
                 options: dict) -> RaceState:
        roles_on = options["roles"]
        check_supply(box, table, roles_on)
        state = RaceState(box, table, rng, options)
        state.pawns = [str(entry.get("pawn", entry["name"])) for _, entry in listed]
        names = state.names
        board = state.board

        pool = CardPool(box.deck, noun="action card", source=f"edition '{box.edition}'", listing="card ids",
                        known=f"cards: {', '.join(dict.fromkeys(box.deck))}")

        roles_seen: dict[str, int] = {}
        unlisted_hands = []
        for seat, (path, entry) in enumerate(listed):
            board.pos[seat] = entry["position"]
            board.closed[seat] = 1 if entry["closed"] else 0
            if entry["protected"]:
                if board.protected >= 0:
                    raise ScenarioError("only the Chef's pawn can be protected, and there is one Chef", path + ("protected",))
                board.protected = seat
            if "hand" in entry:
                hand = pool.take(entry["hand"], path + ("hand",))
                if len(hand) != box.hand_size:
                    raise ScenarioError(f"a hand holds {box.hand_size} cards, not {len(hand)}", path + ("hand",))
                state.hands[seat] = hand
            else:
                unlisted_hands.append(seat)
            role = entry.get("role")
            if role is not None:
                if not roles_on or not box.roles:
                    raise ScenarioError("this game is played without roles" if box.roles else
                                        f"edition '{box.edition}' has no roles", path + ("role",))
                if role not in box.roles:
                    raise ScenarioError(f"no role '{role}' (roles: {', '.join(box.roles)})", path + ("role",))
                if role in roles_seen:
                    raise ScenarioError(f"the {role} is already {names[roles_seen[role]]}'s", path + ("role",))
                roles_seen[role] = seat
                state.roles[seat] = role
                state.role_uses[seat] = 1 if entry["role_used"] else 0
            elif entry["role_used"]:
                raise ScenarioError("role_used needs a role", path + ("role_used",))
        if sum(board.closed) > box.closed_tokens:
            raise ScenarioError(f"the box has {box.closed_tokens} Closed tokens", ("players",))

        deck = pool.take(setup.get("deck", []), ("deck",))
        discard = pool.take(setup.get("discard", []), ("discard",))
        rest = pool.rest()
        state.rng.shuffle(rest)
        for seat in unlisted_hands:
            if len(rest) < box.hand_size:
                raise ScenarioError(f"not enough cards left to deal {names[seat]}'s hand", ("players",))
            state.hands[seat] = [rest.pop() for _ in range(box.hand_size)]
        # Lists in the scenario are top first; the state keeps the top at the end.
        if setup["rest"] == "deck":
            state.deck = rest + deck[::-1]
            state.discard = discard[::-1]
        else:
            state.deck = deck[::-1]
            state.discard = rest + discard[::-1]

        state.clock = state.round = setup["clock"]
        seat = setup["current"]
        if board.protected == seat:
            raise ScenarioError(f"the Chef's protection ends when {names[seat]}'s turn begins", ("current",))
        state.sync_guard()
        state._start_turn(seat)
        return state

    def parse_action(self, state: RaceState, kind: str, data, seat: int) -> tuple:
        name = str(data[kind])
        pawns = data.get("pawns", [])
        if not isinstance(pawns, list):
            pawns = [pawns]
        targets = [pawn_index(state, pawn, ("pawns", index)) for index, pawn in enumerate(pawns)]
        if kind == "play" and name in TWO_PAWNS:
            targets.sort()
        return (kind, name, *targets)

    def describe_action(self, state: RaceState, action: tuple) -> dict:
        data = {"player": state.names[state.current], action[0]: action[1]}
        if action[2:]:
            data["pawns"] = [state.pawns[p] if state.pawns.count(state.pawns[p]) == 1 else state.names[p]
                             for p in action[2:]]
        return data


ENGINE = RaceEngine()


def pawn_index(state: RaceState, reference, path: tuple) -> int:
    """A pawn named by its player's name or, when no other pawn has it, by what is written on it."""
    text = str(reference)
    if text in state.names:
        return state.names.index(text)
    if state.pawns.count(text) == 1:
        return state.pawns.index(text)
    if text in state.pawns:
        raise ScenarioError(f"more than one pawn says '{text}'; name its player instead", path)
    raise ScenarioError(f"no pawn or player '{text}' (players: {', '.join(state.names)})", path)
