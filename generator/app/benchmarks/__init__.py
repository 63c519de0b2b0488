"""Benchmarks for `make bench`, one module each. A module defines `run(project) -> list[str]`
returning the lines it prints; `python -m generator.app.bench` runs them all in name order, then
each game's own benchmark (a `bench` module in its rules package that declares it, run by
generator/rules/benchmark.py)."""
from __future__ import annotations

import shutil
from pathlib import Path

# What a copy of the project holds: its data, not its output.
COPIED = ("components", "templates", "rules")


def project_copy(root: Path, folder: Path) -> Path:
    """A copy of the project at `root` (its components, templates and rules) in `folder`, with
    an empty output folder: a benchmark measures the same state whatever the user's output/
    holds (a cache, or none at all in a fresh clone)."""
    copy = folder / "project"
    copy.mkdir()
    for name in COPIED:
        if (root / name).is_dir():
            shutil.copytree(root / name, copy / name)
    (copy / "output").mkdir()
    return copy
