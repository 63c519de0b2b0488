"""The Donkey Can! ("Ішак зможе!"): what the rules (seed 001) need of the components, and the
rules engine.

SPEC is written from the rule text and the decisions in `design.py` (the same ones the YAML
records as `# decided:`), not read from the YAML, so that the two check each other. The engine
plays the loaded components (`box_from_game`), which `pnp validate` has proved equal to SPEC.

Rules (seed 001, uk), with the decisions the text leaves open:
- Each player takes a colour: its contract card, its cargo cards (in hand) and a reference
  card. 8 of the 20 donkeys are drawn at random; the other 12 stay in the box. A first player
  is chosen (in simulation, at random).
- A round: reveal the next donkey; its capacity is 5 × players, changed by its effect. Every
  player plays one cargo card face down (the seed's step 1 says "face up", but step 4 turns
  the cards over, so they lie face down). Then, from the first player clockwise, each may use a
  driver advantage: play a cargo card from hand advantage side up; its cargo does not count;
  at most 2 per player per game (decided: at most 1 per round). Then, from the first player
  clockwise, each accepts (green tick) or refuses (red cross) the contract. The cargo is
  turned over: the donkey is overloaded when the load is more than its capacity.
  Not overloaded: every player who accepted takes their own cargo card into their score pile.
  Overloaded: all cargo cards are shuffled and every player who refused takes one at random.
  The other cargo cards and the advantage cards used go to the discard pile (decided).
  The first-player card passes clockwise.
- After the 8th donkey: the score is the sum of the cargo values won; a tie goes to the most
  cards won; a tie after that is a shared win.
"""
from __future__ import annotations

from ..engine import Engine, random_policy
from ..spec import GameSpec, Setup
from .design import (ADVANTAGE_ON, CAPACITY_CARDS, CAPACITY_PER_PLAYER, CARGO_VALUES, COLOURS, DONKEYS,
                     DONKEYS_IN_BOX, EDITION, MAX_ADVANTAGES, MAX_PLAYERS, MIN_PLAYERS, ROUNDS, TOTAL_CARDS,
                     cargo_id)
from .engine import box_from_game, new_game
from .policies import heuristic_policy
from .setups import ACTION_EXAMPLE, ACTION_KEYS, describe_action, from_setup, parse_action


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
    """What a game of `players` needs: a colour each with cargo for 8 rounds + 2 advantages."""
    components = {
        "cards/donkeys": ROUNDS,
        "cards/contracts": players,
        "cards/cargo": players * (ROUNDS + MAX_ADVANTAGES),
        "cards/reference": players,
        "cards/first-player": 1,
        "cards/capacity": 1,
    }
    return Setup(components)


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
            # the advantage is printed on the card's other side
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
        "cards/donkeys": DONKEYS_IN_BOX,
        "cards/contracts": len(COLOURS),
        "cards/cargo": len(COLOURS) * len(CARGO_VALUES),
        "cards/reference": len(COLOURS),
        "cards/first-player": 1,
        "cards/capacity": len(CAPACITY_CARDS),
    }},
    facts=_facts(),
    setup=setup,
)

ENGINE = Engine(
    slug="donkey-can",
    new_game=new_game,
    policies={"random": random_policy, "heuristic": heuristic_policy},
    max_actions=1_000,
    box=box_from_game,
    from_setup=from_setup,
    parse_action=parse_action,
    describe_action=describe_action,
    action_keys=ACTION_KEYS,
    action_example=ACTION_EXAMPLE,
)
