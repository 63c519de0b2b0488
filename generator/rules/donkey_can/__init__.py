"""The Donkey Can! ("Ішак зможе!"): what the rules (seed 001) need of the components, and the
rules engine.

SPEC (design.py) is written from the rule text and the decisions there (the same ones the
YAML records as `# decided:`), not read from the YAML, so that the two check each other. The
ENGINE (engine.py, with the state in state.py and the simulated players in policies.py) plays
the loaded components (`box_from_game`), which `pnp validate` has proved equal to SPEC.

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

from .design import SPEC
from .engine import ENGINE

__all__ = ["ENGINE", "SPEC"]
