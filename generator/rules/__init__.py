"""Rules modules, one per game, named by `rules:` in the game's game.yaml: the project's own,
an installed package's, or the tool's.

A rules module states, from the rules and independently of the YAML, what each edition must
contain and what a game of N players takes (`SPEC`, a `GameSpec`). The validator compares the
components against it. Rules modules never import rendering code.
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.util
import re
import sys
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType

_NAME = re.compile(r"^[a-z_][a-z0-9_]*$")
ENTRY_POINTS = "pnp.rules"


def load_rules(name: str, project_root: Path | None = None) -> ModuleType:
    """The rules module `name`: the project's own (`rules/<name>/` or `rules/<name>.py` in the
    project folder), else one an installed package registers under the `pnp.rules` entry
    point group, else the tool's `generator.rules.<name>`. Loading a project's module runs that
    project's code, as the designer who put it there asks. Raises LookupError with a reason."""
    if not _NAME.match(name):
        raise LookupError(f"'{name}' is not a valid rules module name")
    module = (_project_module(name, project_root) if project_root else None) or _registered(name) or _tools(name)
    if not hasattr(module, "SPEC"):
        raise LookupError(f"rules module '{name}' has no SPEC")
    return module


def _project_module(name: str, root: Path) -> ModuleType | None:
    folder = root / "rules"
    for path, package in ((folder / name / "__init__.py", True), (folder / f"{name}.py", False)):
        if not path.is_file():
            continue
        if not path.resolve().is_relative_to(root.resolve()):
            raise LookupError(f"rules/{name}: refused: the path leads outside the project")
        # One module per file, whatever else is loaded: two projects may both have a `rules/x`.
        unique = f"pnp_project_rules_{hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:12]}_{name}"
        if unique in sys.modules:
            return sys.modules[unique]
        spec = importlib.util.spec_from_file_location(
            unique, path, submodule_search_locations=[str(path.parent)] if package else None)
        module = importlib.util.module_from_spec(spec)
        sys.modules[unique] = module
        try:
            spec.loader.exec_module(module)
        except Exception as exc:           # the designer's code: report it, never a traceback
            del sys.modules[unique]
            raise LookupError(f"rules/{name} in the project cannot be loaded: {type(exc).__name__}: {exc}") from None
        return module
    return None


def _registered(name: str) -> ModuleType | None:
    for entry in entry_points(group=ENTRY_POINTS):
        if entry.name == name:
            try:
                return entry.load()
            except Exception as exc:
                raise LookupError(f"rules module '{name}' of {entry.value} cannot be loaded: "
                                  f"{type(exc).__name__}: {exc}") from None
    return None


def _tools(name: str) -> ModuleType:
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.endswith(name):
            raise LookupError(f"no rules module named '{name}' (looked in the project's rules/, the "
                              f"'{ENTRY_POINTS}' entry points and the tool's own)") from None
        raise
