"""The tool's own state: the cache keeps what the latest build of each selection needs, whatever
smaller build ran in between, and the files of a component that is gone leave output/ and its
manifest."""
from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from conftest import SAMPLE, pnp, replace_in
from generator.write import cache


# Each test keeps its cache in its own output folder: the cache itself is under test.
pytestmark = pytest.mark.own_cache

def built(project, *args: str) -> str:
    result = pnp("build", *args, project=project)
    assert result.exit_code == 0, result.output + result.traceback
    return result.stdout.strip().splitlines()[-1]


def step_past(project) -> None:
    """Every entry of the project's cache last used before the next build starts, as if the clock
    had moved on: what was used within a second of a build's start counts as that build's."""
    past = time.time() - 2
    for path in (project / "output" / cache.FOLDER).rglob("*"):
        if path.is_file():
            os.utime(path, (past, past))


@pytest.fixture(scope="module")
def whole_build(tmp_path_factory) -> tuple[Path, str]:
    """A copy of the sample project after its first whole build (output/ and its cache, every
    entry this build's), and that build's summary line."""
    project = tmp_path_factory.mktemp("whole") / "project"
    shutil.copytree(SAMPLE, project)
    return project, built(project)


@pytest.fixture
def sample_project(tmp_path) -> Path:
    copy = tmp_path / "project"
    shutil.copytree(SAMPLE, copy)
    return copy


@pytest.mark.parametrize("between", [
    ("--kind", "cards", "--paper", "a4", "--duplex", "short"),       # (the sample's mini cards fold no gutter)
    ("--kind", "cards,boards", "--paper", "letter", "--ink", "saver"),
])
def test_a_small_build_between_two_whole_ones_leaves_nothing_to_draw(whole_build, tmp_path, monkeypatch, between):
    """However tight the cache's size limit, what the whole build used is kept through a small
    selective build: building the whole again with nothing changed draws nothing. The whole is
    the sample game's kit on every paper: every component kind."""
    monkeypatch.setattr(cache, "KEEP_MIN_BYTES", 0)       # keep nothing beyond what is needed
    monkeypatch.setattr(cache, "KEEP_FACTOR", 0)
    # (a first build prunes nothing whatever the limit: every entry is its own)
    project = tmp_path / "project"
    shutil.copytree(whole_build[0], project, symlinks=True)
    first = whole_build[1]
    whole = len(_listed(project / "output"))
    assert first.endswith(f": {whole} rendered") and whole > 10, first
    step_past(project)
    assert ": 0 rendered" not in built(project, *between)
    step_past(project)
    assert built(project).endswith(f": 0 rendered, {whole} unchanged")
    # and the small selection's own files are still there to reuse
    step_past(project)
    last = built(project, *between)
    assert last.startswith("nothing changed: ") or ": 0 rendered, " in last, last


def test_entries_no_selection_uses_are_dropped(sample_project, monkeypatch):
    """The cache stays bounded: an entry only an earlier build of a selection used goes."""
    monkeypatch.setattr(cache, "KEEP_MIN_BYTES", 0)
    monkeypatch.setattr(cache, "KEEP_FACTOR", 0)
    project = sample_project
    built(project, "--kind", "cards", "--paper", "a4")
    blobs = project / "output" / ".cache" / "blobs"
    before = {p.name for p in blobs.rglob("*") if p.is_file()}
    step_past(project)
    replace_in(project / "components" / "sample-game" / "layouts.yaml", "radius: 18, fill: \"{colour}\"",
               "radius: 17, fill: \"{colour}\"")
    built(project, "--kind", "cards", "--paper", "a4")
    after = {p.name for p in blobs.rglob("*") if p.is_file()}
    assert after - before and not before <= after       # new sheets kept, the replaced ones dropped


@pytest.fixture
def sample_with_scouts(tmp_path):
    """The sample game with a third deck, as its rules know it."""
    copy = tmp_path / "project"
    shutil.copytree(SAMPLE, copy)
    game = copy / "components" / "sample-game"
    replace_in(game / "cards.yaml", "cards:\n", "  scouts:\n    name: Scouts\n    layout: hero\n    back: hero-back\n"
                                               "cards:\n  scout: {deck: scouts, name: Scout, text: Looks ahead., "
                                               "colour: \"#7B2CBF\", count: {standard: 2}}\n")
    replace_in(copy / "rules" / "sample_game" / "__init__.py", '"archer": 3,', '"archer": 3, "scout": 2,')
    return copy


def _without_scouts(project) -> None:
    game = project / "components" / "sample-game"
    replace_in(game / "cards.yaml", "  scouts:\n    name: Scouts\n    layout: hero\n    back: hero-back\n", "")
    replace_in(game / "cards.yaml", "  scout: {deck: scouts, name: Scout, text: Looks ahead., "
                                    "colour: \"#7B2CBF\", count: {standard: 2}}\n", "")
    replace_in(project / "rules" / "sample_game" / "__init__.py", '"archer": 3, "scout": 2,', '"archer": 3,')


def _listed(out) -> set[str]:
    return {entry["path"] for entry in json.loads((out / "manifest.json").read_text(encoding="utf-8"))["files"]}


@pytest.mark.parametrize("args", [("--kind", "cards", "--paper", "a4"), ("--paper", "a4")])
def test_a_removed_decks_files_leave_the_output_and_the_manifest(sample_with_scouts, args):
    out = sample_with_scouts / "output"
    folder = "sample-game/standard/en"
    scouts = f"{folder}/sample-game-standard-en-preview-scouts.png"
    built(sample_with_scouts, *args)
    assert (out / scouts).is_file() and scouts in _listed(out)
    # a selective build of another variant leaves the cards of the others alone
    built(sample_with_scouts, "--kind", "cards", "--paper", "a4", "--duplex", "short")
    _without_scouts(sample_with_scouts)
    built(sample_with_scouts, *args)
    assert not (out / scouts).exists() and scouts not in _listed(out)
    previews = {p for p in _listed(out) if "-preview-" in p}
    assert previews == {f"{folder}/sample-game-standard-en-preview-{deck}.png" for deck in ("heroes", "coins")}
    for kept in ("cards-a4.pdf", "cards-short-a4.pdf", "calibration-a4.pdf"):
        assert f"{folder}/sample-game-standard-en-{kept}" in _listed(out)
