"""Benchmarks for `make bench`, one module each. A module defines `run(project) -> list[str]`
returning the lines it prints; `python -m generator.bench` runs them all in name order, then
each game's own benchmark (a `bench` module in its rules package, `run(game) -> list[str]`)."""
from __future__ import annotations

import os


def games_per_run(default: int) -> int:
    """Games a benchmark plays per run: PNP_BENCH_GAMES, or the benchmark's own default."""
    return int(os.environ.get("PNP_BENCH_GAMES", str(default)))
