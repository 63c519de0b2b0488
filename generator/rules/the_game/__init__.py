"""The Game ("Hraj, dokud můžeš"): what the rules (seed 003) need of the components, and the
rules engine.

SPEC (design.py) is written from the rule text, not from the YAML, so that the two check each
other. The ENGINE (engine.py, with the state in state.py and the simulated players in
policies.py) deals from the loaded components (`box_from_game`), so a simulation plays the
cards the kit prints, which `pnp validate` has proved equal to SPEC.

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

from .design import SPEC
from .engine import ENGINE

__all__ = ["ENGINE", "SPEC"]
