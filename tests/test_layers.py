"""The stages' layering is a contract: each stage package imports only the stages below it, and
no module or package takes part in an import cycle, imports inside functions counted. The
contracts live in pyproject.toml ([tool.importlinter]); import-linter reads every import
statement of a module, wherever it stands."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROOT


def lint(root: Path) -> subprocess.CompletedProcess:
    """import-linter over the generator package found in `root`, with `root`'s contracts."""
    return subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
                               "sys.exit(lint_imports_command())", "--no-cache", "--config",
         str(root / "pyproject.toml")],
        cwd=root, env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True)


def test_the_stages_keep_their_layers_and_no_import_makes_a_cycle():
    done = lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 kept, 0 broken" in done.stdout


def planted(tmp_path: Path, module: str, line: str) -> Path:
    """A copy of the package and its contracts with `line` added inside a function of `module`."""
    shutil.copytree(ROOT / "generator", tmp_path / "generator",
                    ignore=shutil.ignore_patterns("__pycache__", "*.ttf", "*.icc"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    path = tmp_path / "generator" / Path(*module.split(".")).with_suffix(".py")
    path.write_text(path.read_text() + f"\n\ndef _planted():\n    {line}\n")
    return tmp_path


def test_an_upward_import_inside_a_function_breaks_the_layers(tmp_path):
    done = lint(planted(tmp_path, "core.errors", "from ..app import build  # noqa"))
    assert done.returncode == 1
    assert "generator.core is not allowed to import generator.app" in done.stdout
    assert "generator.core.errors -> generator.app.build" in done.stdout


def test_a_cycle_between_two_modules_of_a_stage_breaks_the_contracts(tmp_path):
    done = lint(planted(tmp_path, "core.files", "from . import yamlfile  # noqa"))
    assert done.returncode == 1
    assert "No import cycle" in done.stdout and "BROKEN" in done.stdout
