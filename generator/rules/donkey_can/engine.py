"""The Donkey Can!'s ENGINE: a new game set up as the seed says, and scenario support: a
position from a scenario's `setup`, and actions written in YAML (docs/scenarios.md gives the
general format; the keys below are this game's).

setup:
  players: 3                      a game dealt from the seed, or a list of players:
  players:
    - Оля                         a name: the next colour in the data's order, a full hand
    - {name: Петро, colour: contract-green, hand: [0, 3, 9], won: [cargo-red-7], advantages_used: [2]}
  first_player: Оля               who holds the first-player card (default: the first listed)
  donkeys: [donkey-khytrun, ...]  the donkeys of rounds 1, 2, ... (the rest drawn from the others)
  round: 6                        the round about to start (earlier ones count as played; every
                                  player then lists a hand)
  discard: [...]                  cards played before (default: every card not held or won)
A card is its id, or a number: the card of that value in the player's own colour.

Actions:
  {player: Оля, cargo: 7}
  {player: Оля, pass: true}
  {player: Оля, advantage: peek, target: Петро}    (advantage: the kind, or the card)
  {player: Оля, advantage: swap, target: 3}        (the card from hand to play instead)
  {player: Оля, advantage: carrot}
  {player: Оля, contract: accept}                  (or refuse)
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping

from ..claims import Beats, Short
from ..engine import Engine, ScenarioError, Table, random_policy
from ..fields import Flag, Given, Kind, OneOf, Player, Whole
from .design import ADVANTAGES, MAX_ADVANTAGES, ROUNDS, SPEC
from .policies import heuristic_policy
from .state import Box, ColourSet, DonkeyState, box_from_game, check_box, seat_game


class DonkeyEngine(Engine):
    spec = SPEC
    policies = {"random": random_policy, "heuristic": heuristic_policy}
    max_actions = 1_000
    # The cargo lies face down until the round's reveal; the donkeys to come are in the box.
    # Hands are not hidden: every card played is revealed, so what each colour still holds is known.
    hidden = {"seats.*.table": "owner", "donkeys_to_come": "nobody"}
    setup_fields = {"first_player": Player(), "donkeys": Given(),
                    "round": Whole(1, ROUNDS, "round is the round about to start, {low} to {high}", default=1),
                    "discard": Given()}
    seat_fields = dict.fromkeys(("colour", "hand", "won", "advantages_used"), Given())
    action_kinds = {"cargo": Kind(), "pass": Kind(value=Flag("pass: true passes the driver advantage", only=True)),
                    "advantage": Kind(takes=("target",)),
                    "contract": Kind(value=OneOf(("accept", "refuse"), "contract is accept or refuse"))}
    action_example = "{player: Оля, cargo: 7}"
    # One heuristic seat wins most games among random ones (a third would be chance); each
    # round takes a donkey.
    claims = (Beats("heuristic", "random", players=3, games=60, share=0.5),
              Short("cards/donkeys", keep=ROUNDS - 1, players=3, refusal=f"{ROUNDS} rounds need {ROUNDS} donkeys"))

    def box(self, game, edition: str) -> Box:
        return box_from_game(game, edition)

    def deal(self, box: Box, table: Table, rng: random.Random, options: dict) -> DonkeyState:
        """A colour each (in the data's order), 8 donkeys drawn at random, a first player chosen
        at random."""
        check_box(box, table.seats)
        state = seat_game(box, table, rng)
        pool = list(box.donkeys)
        rng.shuffle(pool)
        state.donkeys, state.set_aside = pool[:ROUNDS], pool[ROUNDS:]
        state.first = rng.randrange(table.seats)
        state._start_round()
        return state

    def position(self, setup: Mapping, box: Box, table: Table, listed: list, rng: random.Random,
                 options: dict) -> DonkeyState:
        entries = [entry for _, entry in listed]
        colours = _colours(box, entries)
        check_box(Box(tuple(colours), box.donkeys), len(entries))
        round_number = setup["round"]
        state = seat_game(box, table, rng, colours)
        for seat, entry in enumerate(entries):
            path = ("players", seat)
            if "hand" not in entry and round_number > 1:
                raise ScenarioError(f"from round {round_number} on, say which cards {entry['name']} still holds",
                                    path)
            used = _cards(state, seat, entry.get("advantages_used", []), path + ("advantages_used",))
            won = _cards(state, seat, entry.get("won", []), path + ("won",))
            for index, card in enumerate(used):
                if not state.cards[card].advantage or card not in {c.id for c in colours[seat].cargo}:
                    raise ScenarioError(f"{card} is not one of {entry['name']}'s driver advantage cards",
                                        path + ("advantages_used", index))
            if len(used) > MAX_ADVANTAGES:
                raise ScenarioError(f"at most {MAX_ADVANTAGES} driver advantages a game", path + ("advantages_used",))
            if "hand" in entry:
                hand = _cards(state, seat, entry["hand"], path + ("hand",))
                own = {c.id for c in colours[seat].cargo}
                for index, card in enumerate(hand):
                    if card not in own:
                        raise ScenarioError(f"{card} is not {entry['name']}'s colour", path + ("hand", index))
                expected = len(own) - (round_number - 1) - len(used)
                if len(hand) != expected:
                    raise ScenarioError(f"after {round_number - 1} rounds and {len(used)} advantages "
                                        f"{entry['name']} holds {expected} cards, not {len(hand)}", path + ("hand",))
            else:
                hand = [card.id for card in colours[seat].cargo]
            state.hands[seat], state.won[seat], state.used[seat] = hand, won, used
            state.start_used[seat] = len(used)
        # Advantage cards used went to the discard pile with their round's cargo.
        placed = Counter(card for pile in state.hands + state.won + state.used for card in pile)
        for card in sorted(card for card, times in placed.items() if times > 1):
            raise ScenarioError(f"{card} is in two places", ("players",))
        placed = [card for pile in state.hands + state.won for card in pile]
        rest = [card for card in state.cards if card not in placed]
        if "discard" in setup:
            discard = _cards(state, None, setup["discard"], ("discard",))
            if sorted(discard) != sorted(rest):
                raise ScenarioError(f"the discard pile holds every card neither held nor won: {', '.join(rest)}",
                                    ("discard",))
            rest = discard
        state.discard = rest
        state.donkeys, state.set_aside = _donkeys(box, setup.get("donkeys", []), rng)
        state.round = state.start_round = round_number - 1
        state.first = setup["first_player"]
        state._start_round()
        return state

    def parse_action(self, state: DonkeyState, kind: str, data, seat: int) -> tuple:
        """Every action carries the seat that acts."""
        if kind == "cargo":
            return ("cargo", seat, _card(state, seat, data["cargo"], ("cargo",)))
        if kind == "pass":
            return ("pass", seat)
        if kind == "contract":
            return (data["contract"], seat)
        card = _advantage_card(state, seat, data["advantage"])
        advantage = state.cards[card].advantage
        target = data.get("target")
        if advantage == "peek":
            if str(target) not in state.names:
                raise ScenarioError(f"peek at whom? target is a player ({', '.join(state.names)})", ("target",))
            target = state.names.index(str(target))
        elif advantage == "swap":
            if target is None:
                raise ScenarioError("swap for which card? target is a card from hand", ("target",))
            target = _card(state, seat, target, ("target",))
        elif target is not None:
            raise ScenarioError(f"{advantage} takes no target", ("target",))
        return ("advantage", seat, card, target)

    def describe_action(self, state: DonkeyState, action: tuple) -> dict:
        kind, seat = action[0], action[1]
        data: dict = {"player": state.names[seat]}
        if kind == "cargo":
            data["cargo"] = _short(state, seat, action[2])
        elif kind == "pass":
            data["pass"] = True
        elif kind in ("accept", "refuse"):
            data["contract"] = kind
        else:
            card, target = action[2], action[3]
            data["advantage"] = _short(state, seat, card)
            if isinstance(target, int):
                data["target"] = state.names[target]
            elif target is not None:
                data["target"] = _short(state, seat, target)
        return data


ENGINE = DonkeyEngine()


def _colours(box: Box, entries: list[dict]) -> list[ColourSet]:
    """Each player's colour: named by its contract card or "#rrggbb", else the next free one."""
    chosen: list[ColourSet | None] = []
    for index, entry in enumerate(entries):
        if "colour" not in entry:
            chosen.append(None)
            continue
        match = [c for c in box.colours if entry["colour"] in (c.colour, c.contract)]
        if not match:
            known = ", ".join(c.contract or c.colour for c in box.colours)
            raise ScenarioError(f"no colour '{entry['colour']}' (colours: {known})", ("players", index, "colour"))
        if match[0] in chosen:
            raise ScenarioError(f"two players have the colour '{entry['colour']}'", ("players", index, "colour"))
        chosen.append(match[0])
    free = [c for c in box.colours if c not in chosen]
    return [colour or free.pop(0) for colour in chosen]


def _cards(state: DonkeyState, seat: int | None, value, path: tuple) -> list[str]:
    if not isinstance(value, list):
        raise ScenarioError("a list of cards (ids, or values of the player's colour) is expected", path)
    return [_card(state, seat, item, path + (index,)) for index, item in enumerate(value)]


def _card(state: DonkeyState, seat: int | None, item, path: tuple) -> str:
    """A card id, or a number: the card of that value in the seat's colour."""
    if type(item) is int and seat is not None:
        found = [c.id for c in state.colours[seat].cargo if c.value == item]
        if len(found) != 1:
            raise ScenarioError(f"{state.names[seat]}'s colour has {len(found)} cargo cards worth {item}", path)
        return found[0]
    if not isinstance(item, str) or item not in state.cards:
        raise ScenarioError(f"no cargo card '{item}' among the seated colours", path)
    return str(item)


def _donkeys(box: Box, listed, rng: random.Random) -> tuple[list, list]:
    if not isinstance(listed, list) or len(listed) > ROUNDS:
        raise ScenarioError(f"donkeys is a list of up to {ROUNDS} donkey cards, in the order they come", ("donkeys",))
    by_id = {d.id: d for d in box.donkeys}
    for index, donkey in enumerate(listed):
        if not isinstance(donkey, str) or donkey not in by_id:
            raise ScenarioError(f"no donkey '{donkey}' (donkeys: {', '.join(by_id)})", ("donkeys", index))
        if listed.index(donkey) != index:
            raise ScenarioError(f"{donkey} comes twice", ("donkeys", index))
    rest = [d for d in box.donkeys if d.id not in listed]
    rng.shuffle(rest)
    chosen = [by_id[d] for d in listed] + rest[:ROUNDS - len(listed)]
    return chosen, rest[ROUNDS - len(listed):]


ACTION_EXAMPLE = "{player: Оля, cargo: 7}"


def _advantage_card(state: DonkeyState, seat: int, item) -> str:
    if item in ADVANTAGES:
        found = [c.id for c in state.colours[seat].cargo if c.advantage == item]
        if not found:
            raise ScenarioError(f"{state.names[seat]}'s colour has no {item} card", ("advantage",))
        held = [card for card in found if card in state.hands[seat]]
        return (held or found)[0]
    card = _card(state, seat, item, ("advantage",))
    if not state.cards[card].advantage:
        raise ScenarioError(f"{card} has no driver advantage", ("advantage",))
    return card


def _short(state: DonkeyState, seat: int, card: str):
    """A card of the seat's own colour by its value when that names it alone, else its id."""
    value = state.cards[card].value
    same = [c for c in state.colours[seat].cargo if c.value == value]
    return value if len(same) == 1 and same[0].id == card else card
