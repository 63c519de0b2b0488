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


# Home paper and card sizes in mm, stated here independently of the templates under test.
MM = 72 / 25.4
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
CARD = (63.0, 88.0)


def cell_texts(page, paper: str) -> dict[tuple[int, int], str]:
    """Text inside each card cell of a centred 3 x 3 sheet of poker cards, keyed (column, row)."""
    width, height = PAPERS[paper]
    left, bottom = (width - 3 * CARD[0]) / 2, (height - 3 * CARD[1]) / 2
    textpage = page.get_textpage()
    cells = {}
    for row in range(3):
        for column in range(3):
            x0, y0 = left + column * CARD[0], bottom + (2 - row) * CARD[1]
            text = textpage.get_text_bounded(x0 * MM + 1, y0 * MM + 1, (x0 + CARD[0]) * MM - 1, (y0 + CARD[1]) * MM - 1)
            cells[(column, row)] = " ".join(text.split())
    return cells
