"""Shared fixtures: a private copy of the project to change, and running `pnp` like a user."""
from __future__ import annotations

import shutil
import traceback
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main

ROOT = Path(__file__).resolve().parent.parent


class Result:
    def __init__(self, result):
        self.exit_code = result.exit_code
        self.stdout = result.stdout
        self.stderr = result.stderr
        self.output = result.output
        self.exception = result.exception
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            self.traceback = "".join(traceback.format_exception(result.exception))
        else:
            self.traceback = ""


def pnp(*args: str, project: Path = ROOT) -> Result:
    """Run `pnp -C project ARGS` in-process, as the console script would."""
    runner = CliRunner()
    return Result(runner.invoke(main, ["-C", str(project), *args], catch_exceptions=True))


@pytest.fixture
def project(tmp_path) -> Path:
    """A copy of the project's data and templates that a test may change."""
    copy = tmp_path / "project"
    copy.mkdir()
    shutil.copytree(ROOT / "components", copy / "components")
    shutil.copytree(ROOT / "templates", copy / "templates")
    return copy


def replace_in(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")
