"""Rules modules, one per game, named by `rules:` in a game's game.yaml.

A rules module states, from the rules and independently of the YAML, what each edition must
contain and what a game of N players takes (`SPEC`, a `GameSpec`), and may play it
(`ENGINE`, an `Engine`). The validator compares the components against SPEC. Rules modules
never import rendering code. docs/rules-modules.md says what a module provides.

`load_rules(name)` looks, in this order, in:
1. the project: `rules/<name>/__init__.py` (a package) or `rules/<name>.py` beside components/,
   the designer's own code, run because the project's game names it;
2. the tool's own: `generator.rules.<name>`;
3. installed packages: an entry point `<name>` in the group `pnp.rules` (as MkDocs finds its
   plugins), naming the module.
The tool's own names come before installed packages: an installed package cannot stand in for
the tool's engine of a game unseen, and the installed packages' metadata (a tenth of a
command's start) is read only for a name neither the project nor the tool has.
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.util
import re
import sys
import traceback
from pathlib import Path
from types import ModuleType

from ..core.files import outside_roots
from .engine import Engine
from .spec import GameSpec


ENTRY_POINT_GROUP = "pnp.rules"
PROJECT_FOLDER = "rules"
_NAME = re.compile(r"^[a-z_][a-z0-9_]*$")


class RulesName(str):
    """A game.yaml's `rules:` value that knows the project it was read from, so that
    load_rules looks in that project's rules/ folder first."""

    project: Path

    def __new__(cls, name: str, project: Path):
        text = super().__new__(cls, name)
        text.project = project
        return text

    def __reduce__(self):
        return RulesName, (str(self), self.project)


def load_rules(name: str, project: Path | None = None) -> ModuleType:
    """The rules module `name`, from the project (`project`, or the one a RulesName came
    from), the tool, or an installed `pnp.rules` entry point; LookupError says why not: none
    found, or one that fails to load or lacks what a rules module provides."""
    project = project or getattr(name, "project", None)
    name = str(name)
    if not _NAME.match(name):
        raise LookupError(f"'{name}' is not a valid rules module name")
    module = (_from_project(name, project) if project is not None else None) or _from_tool(name) \
        or _from_entry_point(name, project)
    _check(module, name)
    return module


def _from_project(name: str, root: Path) -> ModuleType | None:
    folder = root / PROJECT_FOLDER
    package = folder / name / "__init__.py"
    path = package if package.is_file() else folder / f"{name}.py"
    if not path.is_file():
        return None
    shown = path.relative_to(root).as_posix()
    files = sorted(path.parent.rglob("*.py")) if path == package else [path]
    for file in [path.parent] + files:
        if outside_roots(file, [root]):
            raise LookupError(f"rules module '{name}' ({shown}): refused, "
                              f"{file.relative_to(root).as_posix()} is a link to a place outside the project")
    # A name of its own per project, so that two projects' modules of one name never meet.
    unique = f"_pnp_rules_{hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:12]}_{name}"
    for loaded in [key for key in sys.modules if key == unique or key.startswith(unique + ".")]:
        del sys.modules[loaded]          # the code on disk now, not what an earlier run read
    spec = importlib.util.spec_from_file_location(
        unique, path, submodule_search_locations=[str(path.parent)] if path == package else None)
    module = importlib.util.module_from_spec(spec)
    sys.modules[unique] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[unique]
        raise LookupError(f"rules module '{name}' ({shown}) failed to load: {_where(exc, root)}") from None
    return module


def _from_tool(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"{__name__}.{name}":
            return None
        raise LookupError(f"rules module '{name}' failed to load: {_where(exc, None)}") from None
    except Exception as exc:
        raise LookupError(f"rules module '{name}' failed to load: {_where(exc, None)}") from None


def _from_entry_point(name: str, project: Path | None) -> ModuleType:
    # Read only here: importing the installed packages' metadata and scanning it costs more
    # than the rest of a small simulation's start.
    from importlib.metadata import entry_points
    found = list(entry_points(group=ENTRY_POINT_GROUP, name=name))
    if not found:
        places = f"{PROJECT_FOLDER}/{name}/ in the project, " if project is not None else ""
        raise LookupError(f"no rules module named '{name}' (looked in {places}generator/rules/ and "
                          f"installed '{ENTRY_POINT_GROUP}' entry points)")
    if len(found) > 1:
        owners = ", ".join(sorted(f"{point.value} ({point.dist.name if point.dist else '?'})" for point in found))
        raise LookupError(f"more than one installed package registers rules module '{name}': {owners}")
    point = found[0]
    try:
        module = point.load()
    except Exception as exc:
        raise LookupError(f"rules module '{name}' (entry point {point.value}) failed to load: "
                          f"{_where(exc, None)}") from None
    if not isinstance(module, ModuleType):
        raise LookupError(f"entry point '{name}' in {ENTRY_POINT_GROUP} names {point.value}, which is not a module")
    return module


def _where(exc: Exception, root: Path | None) -> str:
    """The error and where it arose: the last line of the module's own code it passed through."""
    what = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, SyntaxError) and exc.filename:
        return f"{_shown(exc.filename, root)}:{exc.lineno}: SyntaxError: {exc.msg}"
    frames = traceback.extract_tb(exc.__traceback__)
    own = [frame for frame in frames if root is None or Path(frame.filename).resolve().is_relative_to(root.resolve())]
    if not own:
        return what
    return f"{_shown(own[-1].filename, root)}:{own[-1].lineno}: {what}"


def _shown(filename: str, root: Path | None) -> str:
    path = Path(filename)
    if root is not None and path.resolve().is_relative_to(root.resolve()):
        return path.resolve().relative_to(root.resolve()).as_posix()
    return filename


def _check(module: ModuleType, name: str) -> None:
    spec = getattr(module, "SPEC", None)
    if not isinstance(spec, GameSpec):
        raise LookupError(f"rules module '{name}' has no SPEC (a generator.rules.spec.GameSpec)")
    engine = getattr(module, "ENGINE", None)
    if engine is not None and not isinstance(engine, Engine):
        raise LookupError(f"rules module '{name}': ENGINE is not an instance of generator.rules.engine.Engine")
    if engine is not None and engine.spec is not spec:
        raise LookupError(f"rules module '{name}': ENGINE.spec is not the module's SPEC")
