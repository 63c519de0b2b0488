"""Rules modules, one per game, named by `rules:` in the game's game.yaml.

A rules module states, from the rules and independently of the YAML, what each edition must
contain and what a game of N players takes (`SPEC`, a `GameSpec`). The validator compares the
components against it. Rules modules never import rendering code.
"""
from __future__ import annotations

import importlib
import re
from types import ModuleType

_NAME = re.compile(r"^[a-z_][a-z0-9_]*$")


def load_rules(name: str) -> ModuleType:
    """Import `generator.rules.<name>`; raises LookupError with a readable reason."""
    if not _NAME.match(name):
        raise LookupError(f"'{name}' is not a valid rules module name")
    try:
        module = importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.endswith(name):
            raise LookupError(f"no rules module named '{name}' in generator/rules/") from None
        raise
    if not hasattr(module, "SPEC"):
        raise LookupError(f"rules module '{name}' has no SPEC")
    return module
