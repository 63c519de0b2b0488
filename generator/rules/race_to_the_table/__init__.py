"""Race to the Table (seed 000): what the rules need of the components (`SPEC`, in design.py)
and the rules engine that plays them (`ENGINE`, in engine.py: the state in state.py, the
simulated players in policies.py, the benchmark in bench.py)."""
from __future__ import annotations

from .design import SPEC
from .engine import ENGINE

__all__ = ["ENGINE", "SPEC"]
