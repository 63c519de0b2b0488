"""`pnp build --timings`: where a build's CPU time went, its own stages and each kind of file
with the files, pages and units it made, read off what the command prints and set against the
manifest of the very build."""
from __future__ import annotations

import os
import re
import shutil
import time

import pytest

from conftest import SAMPLE, check_manifest, pnp
from generator.app import home


GAME = "sample-game"
ROW = re.compile(r"^  (?P<name>\S.*?)\s+(?P<seconds>\d+\.\d\d) s(?:  (?P<files>\d+) files? from (?P<units>\d+) units?"
                 r"(?:, (?P<reused>\d+) reused)?(?:; (?P<pages>\d+) pages?, \d+ ms a page)?)?")


def timings(output: str) -> dict[str, dict]:
    """The table's rows by stage name: seconds, and the files, units, reused units and pages."""
    lines = output.splitlines()
    start = lines.index("CPU time of this build by stage, worker processes included:")
    rows = {}
    for line in lines[start + 1:]:
        found = ROW.match(line)
        assert found, f"not a row of the table: {line!r}"
        rows[found["name"]] = {"seconds": float(found["seconds"]),
                               **{key: int(found[key] or 0) for key in ("files", "units", "reused", "pages")}}
    return rows


@pytest.fixture
def project(tmp_path):
    shutil.copytree(SAMPLE, tmp_path / "sample")
    return tmp_path / "sample"


def by_kind(out) -> dict[str, tuple[int, int]]:
    """(files, pages) of each kind of file, as the build's manifest lists them."""
    kinds: dict[str, tuple[int, int]] = {}
    for entry in check_manifest(out):
        files, pages = kinds.get(entry["kind"], (0, 0))
        kinds[entry["kind"]] = (files + 1, pages + entry["pages"])
    return kinds


FILES_OF = home.files_of
SLOW_SECONDS = 0.6


def slow_files_of(kind, kit, part=None):
    """home.files_of, but drawing the card sheets costs SLOW_SECONDS more of CPU (a function
    of this module, so that the work that holds it goes to a worker process)."""
    if kind.name == "cards":
        started = time.process_time()
        while time.process_time() - started < SLOW_SECONDS:
            pass
    return FILES_OF(kind, kit, part)


def process_and_children_cpu() -> float:
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def test_each_kind_built_is_a_row_with_its_files_and_pages_and_the_total_is_the_whole_builds(project, tmp_path,
                                                                                           monkeypatch):
    monkeypatch.setattr(home, "files_of", slow_files_of)        # most of the build's CPU in its workers
    out = tmp_path / "out"
    before = process_and_children_cpu()          # the build's workers are this process's children
    result = pnp("build", "--game", GAME, "--locale", "en", "--kind", "cards,tokens", "--jobs", "2",
                 "--no-cache", "--timings", "--out", str(out), project=project)
    spent = process_and_children_cpu() - before
    assert result.exit_code == 0, result.output
    rows = timings(result.output)
    made = by_kind(out)
    assert {"cards", "tokens"} <= set(made)
    for kind, (files, pages) in made.items():
        assert (rows[kind]["files"], rows[kind]["pages"]) == (files, pages), kind
        assert rows[kind]["units"] >= 1 and rows[kind]["reused"] == 0
    # The build's own stages; two workers: the faces are laid out here before the work is sent.
    assert {"loading and checking", "laying out for workers", "writing files"} <= set(rows)
    # The total is what the build cost, its two workers included; the command's own start and
    # this test's reading of the manifest are the difference.
    assert 0.7 * spent <= rows["total"]["seconds"] <= spent + 0.01


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_kind_that_took_the_time_is_the_row_that_shows_it(project, tmp_path, monkeypatch, jobs):
    """In this process, or in the worker processes a build of two jobs sends its units to."""
    monkeypatch.setattr(home, "files_of", slow_files_of)
    out = tmp_path / "out"
    result = pnp("build", "--game", GAME, "--locale", "en", "--paper", "a4", "--kind", "cards,tokens",
                 "--jobs", jobs, "--no-cache", "--timings", "--out", str(out), project=project)
    assert result.exit_code == 0, result.output
    rows = timings(result.output)
    assert rows["cards"]["seconds"] >= SLOW_SECONDS
    assert rows["tokens"]["seconds"] < SLOW_SECONDS
    # One process: nothing was sent anywhere; two: the faces were laid out here for the workers.
    assert ("laying out for workers" in rows) == (jobs == "2")


def test_files_taken_from_the_cache_are_counted_as_reused(project, tmp_path):
    out = tmp_path / "out"
    args = ("build", "--game", GAME, "--locale", "en", "--paper", "a4", "--kind", "cards", "--jobs", "1",
            "--timings", "--out", str(out))
    assert pnp(*args, project=project).exit_code == 0
    again = pnp(*args, project=project)
    assert "nothing changed" in again.output
    assert "no CPU time to show: nothing changed, nothing was built" in again.output
    sheet = next(out.rglob("*-cards-a4.pdf"))
    sheet.unlink()                      # the build is no longer up to date; its units are cached
    result = pnp(*args, project=project)
    assert result.exit_code == 0, result.output
    rows = timings(result.output)
    assert rows["cards"]["units"] == rows["cards"]["reused"] >= 1
    assert rows["cards"]["files"] == by_kind(out)["cards"][0]


def test_an_errata_build_with_nothing_to_print_still_shows_its_time(project, tmp_path):
    """`--changed-since` against a copy with the same cards: no errata, and what the comparison cost."""
    same = tmp_path / "same"
    shutil.copytree(project, same)
    result = pnp("build", "--changed-since", str(same), "--locale", "en", "--jobs", "1", "--timings",
                 "--out", str(tmp_path / "out"), project=project)
    assert result.exit_code == 0, result.output
    assert f"no card prints differently since {same}: no errata to build" in result.output
    rows = timings(result.output)
    assert rows["loading and checking"]["seconds"] > 0 and rows["total"]["seconds"] > 0
