"""The order a parallel build starts its units in, and the order it keeps their files in: long
work (a unit marked `early`, a designer's report) starts first, so no core waits at the end of
a build while another finishes it; the outcomes stay in the units' order, as a serial build's."""
from __future__ import annotations

import time
from functools import partial
from pathlib import Path

from generator.app.units import Unit, run_units
from generator.core.artifacts import Artifact


def _work(log: str, name: str, seconds: float):
    """A unit's work (a module's function: it pickles): note when it started, take a while."""
    with open(log, "a", encoding="utf-8") as stream:
        stream.write(f"{name} {time.monotonic()}\n")
    time.sleep(seconds)
    return [Artifact(f"{name}.txt", name.encode(), "game", "note", "", "", "", 1)], []


def test_early_units_start_first_and_their_files_keep_their_place(tmp_path: Path):
    log = str(tmp_path / "started")
    # Two workers: the first two units submitted start at once, the third when one of them ends.
    units = [Unit(name, name, partial(_work, log, name, 0.6 if name != "short" else 0.0), early=name == "report")
             for name in ("first", "short", "report")]
    outcomes = run_units(units, None, None, jobs=2)
    started = {name: float(at) for name, at in (line.split() for line in Path(log).read_text().splitlines())}
    assert started["report"] < started["short"] and started["first"] < started["short"], started
    assert [outcome.artifacts[0].path for outcome in outcomes] == ["first.txt", "short.txt", "report.txt"]

    # Without the mark, the units start in their own order: the last one starts last.
    Path(log).unlink()
    plain = [Unit(u.name, u.label, u.work) for u in units]
    run_units(plain, None, None, jobs=2)
    started = {name: float(at) for name, at in (line.split() for line in Path(log).read_text().splitlines())}
    assert started["report"] > started["first"] and started["report"] > started["short"], started
