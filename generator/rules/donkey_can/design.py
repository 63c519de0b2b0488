"""The rules of seed 001 as numbers, and the decisions the text leaves open (recorded as
`# decided:` in components/donkey-can/cards.yaml), stated here independently of the YAML; and
from them SPEC, what the components must be."""
from __future__ import annotations

from ..spec import GameSpec, Setup

EDITION = "standard"
MIN_PLAYERS, MAX_PLAYERS = 2, 5  # decided: one colour set per player, 5 fit into the box
ROUNDS = 8                       # "візьміть вісім випадкових карт" ослів: one donkey a round
DONKEYS_IN_BOX = 20
CAPACITY_PER_PLAYER = 5          # a donkey without effects carries 5 × players
MAX_ADVANTAGES = 2               # driver advantages per player per game
ADVANTAGES_PER_ROUND = 1         # decided: one advantage card per player per round
ADVANTAGE_SHIFT = 5              # decided: carrot +5, sack -5 capacity (one average cargo card)
TOTAL_CARDS = 90                 # "90 карток"

# Decks (card groups) in cards.yaml.
DONKEY_DECK, CONTRACT_DECK, CARGO_DECK = "donkeys", "contracts", "cargo"
REFERENCE_DECK = "reference"

COLOURS = ("red", "blue", "green", "yellow", "purple")         # decided: 5 colours
CARGO_VALUES = tuple(range(0, 11))                             # decided: 0-10 per colour
ADVANTAGE_ON = {1: "carrot", 2: "sack", 3: "peek", 4: "swap"}  # decided: the value each rides on
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


def cards_per_colour() -> int:
    """Contract + cargo + reference."""
    return 1 + len(CARGO_VALUES) + 1


def box_total() -> int:
    return len(DONKEYS) + len(COLOURS) * cards_per_colour() + 1 + len(CAPACITY_CARDS)


def design_problems() -> list[str]:
    """The decisions must fill exactly 90 cards and let every player play 8 rounds plus 2
    advantages from their hand."""
    problems = []
    if box_total() != TOTAL_CARDS:
        problems.append(f"the box holds {box_total()} cards, the seed says {TOTAL_CARDS}")
    if len(DONKEYS) != DONKEYS_IN_BOX:
        problems.append(f"{len(DONKEYS)} donkeys, the seed says {DONKEYS_IN_BOX}")
    if len(CARGO_VALUES) < ROUNDS + MAX_ADVANTAGES:
        problems.append(f"{len(CARGO_VALUES)} cargo cards per colour; a player needs "
                        f"{ROUNDS} rounds + {MAX_ADVANTAGES} advantages")
    if len(ADVANTAGE_ON) < MAX_ADVANTAGES:
        problems.append(f"{len(ADVANTAGE_ON)} advantage cards per colour, a player may use {MAX_ADVANTAGES}")
    if len(COLOURS) < MAX_PLAYERS:
        problems.append(f"{len(COLOURS)} colours for up to {MAX_PLAYERS} players")
    if sum(change for change, _ in DONKEYS.values()) != 0:
        problems.append("the donkeys' capacity changes do not balance out")
    return problems


if design_problems():       # a broken design is a programming error, not bad data
    raise RuntimeError("donkey_can design: " + "; ".join(design_problems()))


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
    counts={EDITION: {"cards": _counts(), "tuckboxes": {"donkeys-box": 1, "players-box": 1}}},
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
