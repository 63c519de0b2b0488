"""The Game (seed 003): what the rules need of the components, as numbers.

Written from the rule text, not from the YAML, so that the two check each other.
"""
from __future__ import annotations

from ..spec import GameSpec, Setup

MIN_PLAYERS, MAX_PLAYERS = 1, 5
HAND_SIZES = {1: 8, 2: 7, 3: 6, 4: 6, 5: 6}
LOWEST, HIGHEST = 2, 99          # the draw pile: one card of each number
ASCENDING_START, DESCENDING_START = 1, 100
PILES_EACH_WAY = 2
MINIMUM = 2                       # cards a turn must play (fewer only when the hand holds fewer)
BACKWARDS = 10                    # the exact step that may go against a pile's direction
MIN_AFTER_EMPTY = (MINIMUM, 1)    # once the draw pile is empty: the seed's rule, the published variant
EDITION = "standard"

NUMBER_IDS = {value: f"n{value:02d}" for value in range(LOWEST, HIGHEST + 1)}
PILE_IDS = {ASCENDING_START: "pile-up", DESCENDING_START: "pile-down"}


def setup(players: int, edition: str) -> Setup:
    return Setup({
        # Every number card is shuffled into the draw pile, whatever the table.
        "cards/numbers": HIGHEST - LOWEST + 1,
        "cards/piles": 2 * PILES_EACH_WAY,
    })


def _facts() -> dict[str, object]:
    facts: dict[str, object] = {
        "game.yaml:players.min": MIN_PLAYERS,
        "game.yaml:players.max": MAX_PLAYERS,
    }
    facts.update({f"game.yaml:hand_sizes.{players}": hand for players, hand in HAND_SIZES.items()})
    # Each card counts as, and shows, its number.
    for value, card in list(NUMBER_IDS.items()) + list(PILE_IDS.items()):
        facts[f"cards.yaml:cards.{card}.value"] = value
        facts[f"cards.yaml:cards.{card}.name"] = str(value)
    return facts


SPEC = GameSpec(
    slug="the-game",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    counts={EDITION: {"cards": {**{card: 1 for card in NUMBER_IDS.values()},
                                **{card: PILES_EACH_WAY for card in PILE_IDS.values()}},
                      "tuckboxes": {"cards-box": 1}}},
    totals={EDITION: {"cards/numbers": 98, "cards/piles": 4, "cards": 102}},
    facts=_facts(),
    setup=setup,
)

