"""Diced Veggies ("Нарезанные овощи"): what the rules (seed 004) need of the components, and
the rules engine.

SPEC (design.py) is written from the rule text and the decisions there (the same ones the
YAML records as `# decided:`), not read from the YAML, so that the two check each other. The
ENGINE (engine.py, with the state in state.py and the simulated players in policies.py) plays
the loaded components (`box_from_game`), which `pnp validate` has proved equal to SPEC.

Rules (seed 004, ru), with the decisions the text leaves open:
- 35 dice, 7 of each of 5 ingredient kinds, faces 2, 2, 3, 4, 5, 6, are rolled into the frame
  and form a 5 × 7 block. Each player gets a chef token, a secret hype card and 2 recipes face
  up; 3 recipes form the display. The first listed player starts (decided).
- A turn: (1) restock: allowed when a kind is missing from the block, required when it is
  empty: chef tokens return, the used dice and the block's rest are rolled into the frame and
  pulled into its corner as a new, maybe partial, block (decided: row A first, in the order
  they fell); players keep their dice. (2) One straight cut separates dice totalling 10 or
  less (decided: the cleaver goes into one straight gap along any stretch of it and pushes to
  one side everything beyond the blade in the rows or columns it crosses); a block totalling
  10 or less is taken whole. (3) Cook any number of recipes from the dice held, each die one
  ingredient of its kind; with each, one hype card whose condition holds for that recipe.
  Before cooking, the chef token may change one die's kind or number (decided: the number to
  any number a face shows; the kind counts until the die leaves the player). (4) Draw one
  card: a hype card, or a recipe from the deck or the display (refilled). (5) Keep at most 8
  dice, 2 recipes and 2 hype cards. Cooked dice and discarded dice go to the frame; discarded
  cards to their discard piles, which become the deck again when it runs out.
- Cooking a 6th recipe ends the game: that player finishes the turn, every other player has one
  more turn, then everyone may cook once more (decided: from the next player round to the one
  who ended it). Score: recipes' points plus the played hype cards'; the most points win, a tie
  is a shared win.
"""
from __future__ import annotations

from .design import SPEC
from .engine import ENGINE

__all__ = ["ENGINE", "SPEC"]
