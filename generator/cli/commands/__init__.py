"""Sub-commands beyond the core ones, one module each. A module here defines
`register(main)`, which adds its click commands to the `pnp` group. A module is imported only
when one of its commands runs (or `pnp --help` lists them): COMMANDS says which module holds
which command, so that a command starts without importing every other one."""
from __future__ import annotations

import importlib

# Each command of these modules, and its module (tests/test_cli.py checks that it is complete).
COMMANDS = {"diff": "diff", "play": "engine", "simulate": "engine", "i18n": "i18n", "new": "new",
            "profiles": "print", "preflight": "print", "serve": "serve"}


def register(main, name: str) -> None:
    """Add the commands of the module that holds command `name`."""
    importlib.import_module(f"{__name__}.{COMMANDS[name]}").register(main)


def register_all(main) -> None:
    for module in sorted(set(COMMANDS.values())):
        importlib.import_module(f"{__name__}.{module}").register(main)
