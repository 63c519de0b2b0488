"""Benchmarks for `make bench`, one module each. A module defines `run(project) -> list[str]`
returning the lines it prints; `python -m generator.bench` runs them all in name order."""
