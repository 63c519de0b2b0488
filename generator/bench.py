"""`make bench`: run every benchmark in generator/benchmarks and print its figures."""
from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path

from . import benchmarks
from .project import Project


def main(argv: list[str] | None = None) -> int:
    only = set(argv if argv is not None else sys.argv[1:])
    project = Project(Path.cwd())
    for module in sorted(pkgutil.iter_modules(benchmarks.__path__), key=lambda m: m.name):
        if only and module.name not in only:
            continue
        print(f"== {module.name}", flush=True)
        for line in importlib.import_module(f"{benchmarks.__name__}.{module.name}").run(project):
            print(f"   {line}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
