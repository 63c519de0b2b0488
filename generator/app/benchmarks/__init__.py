"""Benchmarks for `make bench`, one module each. A module defines `run(project) -> list[str]`
returning the lines it prints; `python -m generator.app.bench` runs them all in name order, then
each game's own benchmark (a `bench` module in its rules package that declares it, run by
generator/rules/benchmark.py)."""
