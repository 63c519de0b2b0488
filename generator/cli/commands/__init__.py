"""Sub-commands beyond the core ones, one module each. A module here defines
`register(main)`, which adds its click commands to the `pnp` group; cli.py finds them all."""
from __future__ import annotations

import importlib
import pkgutil


def register_all(main) -> None:
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        importlib.import_module(f"{__name__}.{module.name}").register(main)
