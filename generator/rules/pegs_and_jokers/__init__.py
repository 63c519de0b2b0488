"""Pegs and Jokers (seed 002): two teams (or, as a variant, teams of two) race their pegs round
a board with one side per player, moved by playing cards; a joker jumps onto another peg and
sends it back. What the rules need of the components (`SPEC`, in design.py) and the rules
engine that plays them (`ENGINE`, in engine.py: the state in state.py, the simulated players in
policies.py, the benchmark in bench.py)."""
from __future__ import annotations

from .design import SPEC
from .engine import ENGINE

__all__ = ["ENGINE", "SPEC"]
