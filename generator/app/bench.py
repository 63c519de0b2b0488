"""`make bench`: run every benchmark in generator/app/benchmarks, then each game's own (the `bench`
module of its rules package, as generator/rules/benchmark.py runs it), and print their figures. Names on the command line pick some:
a shared benchmark's module name or a game's slug."""
from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import sys
from pathlib import Path

from ..load.project import Project
from ..rules.benchmark import run as run_game_benchmark
from . import benchmarks
from .loading import load_games


def game_benchmark(game):
    """The `bench` module of a game's rules package, or None."""
    rules = game.rules
    if not hasattr(rules, "__path__") or importlib.util.find_spec(f"{rules.__name__}.bench") is None:
        return None
    return importlib.import_module(f"{rules.__name__}.bench")


def main(argv: list[str] | None = None) -> int:
    only = set(argv if argv is not None else sys.argv[1:])
    project = Project(Path.cwd())
    for module in sorted(pkgutil.iter_modules(benchmarks.__path__), key=lambda m: m.name):
        if only and module.name not in only:
            continue
        print(f"== {module.name}", flush=True)
        for line in importlib.import_module(f"{benchmarks.__name__}.{module.name}").run(project):
            print(f"   {line}", flush=True)
    for slug in project.game_slugs():
        if only and slug not in only:
            continue
        game = load_games(project, slug, texts=False)[0]
        benchmark = game_benchmark(game)
        if benchmark is None:
            continue
        print(f"== {slug}", flush=True)
        for line in run_game_benchmark(game, benchmark):
            print(f"   {line}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
