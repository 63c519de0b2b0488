"""The Game ("Hraj, dokud můžeš"): what the rules (seed 003) need of the components, and the
rules engine.

SPEC is written from the rule text, not from the YAML, so that the two check each other. The
engine (state.py, policies.py, setups.py) deals from the loaded components (`box_from_game`),
so a simulation plays the cards the kit prints, which `pnp validate` has proved equal to SPEC.

Rules (seed 003, cs):
- Two ascending piles start at 1, two descending piles at 100. The draw pile holds one card of
  each number 2-99. Hands: 8 for one player, 7 for two, 6 for three to five.
- On an ascending pile any higher card may be played, on a descending pile any lower one; on
  any pile a card exactly 10 "backwards" may be played (10 lower on ascending, 10 higher on
  descending).
- A turn: play at least 2 cards (the last card, if only one is left in hand), as many more as
  wished, then refill the hand from the draw pile. The seed keeps the minimum at 2 after the
  draw pile runs out; the published rules lower it to 1 then, here the option
  `min_after_empty=1`.
- A player without cards takes no more turns. Loss: the current player cannot play the
  minimum. Win: draw pile and every hand emptied. Score: cards not played (0 is a win).
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
                                **{card: PILES_EACH_WAY for card in PILE_IDS.values()}}}},
    totals={EDITION: {"cards/numbers": 98, "cards/piles": 4, "cards": 102}},
    facts=_facts(),
    setup=setup,
)


from .engine import ENGINE  # noqa: E402  (the engine plays by the rules stated above)
