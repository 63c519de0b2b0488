"""Scenario support: a position from a scenario's `setup`, and actions written in YAML.
The format is documented in docs/scenarios.md."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from ..engine import OptionError, ScenarioError, check_keys, dealt_players, listed_players, seat_named
from .state import TWO_PAWNS, Box, RaceState, box_from_game, check_options, check_supply, new_game, team_sizes

OPTION_TYPES = {"roles": bool, "quick": bool, "team_size": int}
SETUP_KEYS = {"edition", "seed", "players", "options", "deck", "discard", "rest", "clock", "current"}
SEAT_KEYS = {"name", "pawn", "members", "position", "closed", "protected", "hand", "role", "role_used"}
ACTION_KEYS = {"player", "play", "role", "pawns"}


def _options(setup: Mapping) -> dict:
    options = setup.get("options") or {}
    if not isinstance(options, Mapping):
        raise ScenarioError("options is a mapping (roles, quick, team_size)", ("options",))
    for key, value in options.items():
        if key not in OPTION_TYPES:
            raise ScenarioError(f"unknown option '{key}' (options: {', '.join(OPTION_TYPES)})", ("options", key))
        if type(value) is not OPTION_TYPES[key]:
            raise ScenarioError(f"option {key} is a {OPTION_TYPES[key].__name__}, not {value!r}", ("options", key))
    return dict(options)


def _cards(value, path: tuple, box: Box) -> list[str]:
    if not isinstance(value, list):
        raise ScenarioError("a list of card ids is expected", path)
    known = sorted(set(box.deck), key=box.deck.index)
    for index, card in enumerate(value):
        if card not in known:
            raise ScenarioError(f"edition '{box.edition}' has no action card '{card}' (cards: {', '.join(known)})",
                                path + (index,))
    return [str(card) for card in value]


def from_setup(setup: Mapping, *, edition: str, seed: int = 0, box: Box | None = None, game=None) -> RaceState:
    """The position a scenario's setup describes (docs/scenarios.md)."""
    box = box or box_from_game(game, edition)
    check_keys(setup, SETUP_KEYS)
    options = _options(setup)
    try:
        check_options(options, box=box)
    except OptionError as exc:
        raise ScenarioError(str(exc), ("options", exc.key)) from None
    dealt = dealt_players(setup)
    if dealt is not None:
        return new_game(dealt, box=box, seed=seed, **options)
    return _position(setup, box, seed, options, setup["players"])


def _position(setup: Mapping, box: Box, seed: int, options: dict, players: list) -> RaceState:
    seats = listed_players(players, SEAT_KEYS)
    names = [entry["name"] for _, entry in seats]
    members = [entry.get("members", 1) for _, entry in seats]
    for (path, _), count in zip(seats, members):
        if type(count) is not int or count < 1:
            raise ScenarioError("members is the number of players sharing this pawn", path + ("members",))
    people = sum(members)
    expected = team_sizes(box, people, options.get("team_size", 2))     # SetupError when out of range
    if sorted(members) != sorted(expected):
        raise ScenarioError(f"{people} players sit as {len(expected)} seats of {sorted(expected, reverse=True)} "
                            f"players, not {members}", ("players",))
    roles_on = options.get("roles", True)
    check_supply(box, sum(members), len(seats), roles_on)
    state = RaceState(box, members, seed, names=names,
                      pawns=[str(entry.get("pawn", entry["name"])) for _, entry in seats], **options)
    board = state.board

    pool = Counter(box.deck)

    def take(cards: list[str], path: tuple) -> None:
        for index, card in enumerate(cards):
            pool[card] -= 1
            if pool[card] < 0:
                raise ScenarioError(f"more '{card}' cards than the {Counter(box.deck)[card]} of edition "
                                    f"'{box.edition}'", path + (index,))

    roles_seen: dict[str, int] = {}
    unlisted_hands = []
    for seat, (path, entry) in enumerate(seats):
        position = entry.get("position", 0)
        if type(position) is not int or not 0 <= position <= box.fields:
            raise ScenarioError(f"a position is 0 (START) to {box.fields} (a pawn on TABLE has already won)",
                                path + ("position",))
        board.pos[seat] = position
        board.closed[seat] = 1 if entry.get("closed", False) else 0
        if entry.get("protected", False):
            if board.protected >= 0:
                raise ScenarioError("only the Chef's pawn can be protected, and there is one Chef", path + ("protected",))
            board.protected = seat
        if "hand" in entry:
            hand = _cards(entry["hand"], path + ("hand",), box)
            if len(hand) != box.hand_size:
                raise ScenarioError(f"a hand holds {box.hand_size} cards, not {len(hand)}", path + ("hand",))
            take(hand, path + ("hand",))
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
            state.role_uses[seat] = 1 if entry.get("role_used", False) else 0
        elif entry.get("role_used", False):
            raise ScenarioError("role_used needs a role", path + ("role_used",))
    if sum(board.closed) > box.closed_tokens:
        raise ScenarioError(f"the box has {box.closed_tokens} Closed tokens", ("players",))

    deck = _cards(setup.get("deck", []), ("deck",), box)
    discard = _cards(setup.get("discard", []), ("discard",), box)
    take(deck, ("deck",))
    take(discard, ("discard",))
    rest = []
    for card in dict.fromkeys(box.deck):
        rest += [card] * pool[card]
    state.rng.shuffle(rest)
    for seat in unlisted_hands:
        if len(rest) < box.hand_size:
            raise ScenarioError(f"not enough cards left to deal {names[seat]}'s hand", ("players",))
        state.hands[seat] = [rest.pop() for _ in range(box.hand_size)]
    where = setup.get("rest", "deck")
    if where not in ("deck", "discard"):
        raise ScenarioError("rest is 'deck' (unlisted cards go under the deck) or 'discard'", ("rest",))
    # Lists in the scenario are top first; the state keeps the top at the end.
    if where == "deck":
        state.deck = rest + deck[::-1]
        state.discard = discard[::-1]
    else:
        state.deck = deck[::-1]
        state.discard = rest + discard[::-1]

    clock = setup.get("clock", 1)
    if type(clock) is not int or not 1 <= clock < state.clock_end:
        raise ScenarioError(f"the clock marker is on field 1 to {state.clock_end - 1}", ("clock",))
    state.clock = state.round = clock
    seat = seat_named(names, setup.get("current", names[0]), ("current",))
    if board.protected == seat:
        raise ScenarioError(f"the Chef's protection ends when {names[seat]}'s turn begins", ("current",))
    state.sync_guard()
    state._start_turn(seat)
    return state


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


ACTION_EXAMPLE = "{player: Мария, play: quick, pawns: [Пица]}"


def parse_action(state: RaceState, data, seat: int) -> tuple:
    if ("play" in data) == ("role" in data):
        raise ScenarioError("an action either plays a card (play:) or uses a role (role:)")
    kind = "play" if "play" in data else "role"
    name = str(data[kind])
    pawns = data.get("pawns", [])
    if not isinstance(pawns, list):
        pawns = [pawns]
    targets = [pawn_index(state, pawn, ("pawns", index)) for index, pawn in enumerate(pawns)]
    if kind == "play" and name in TWO_PAWNS:
        targets.sort()
    return (kind, name, *targets)


def describe_action(state: RaceState, action: tuple) -> dict:
    """An action as a scenario writes it (the inverse of parse_action)."""
    data = {"player": state.names[state.current], action[0]: action[1]}
    if action[2:]:
        data["pawns"] = [state.pawns[p] if state.pawns.count(state.pawns[p]) == 1 else state.names[p]
                         for p in action[2:]]
    return data
