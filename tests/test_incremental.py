"""Rebuilds render only what changed, on every core, and a cache is never trusted blindly.

Every test compares the rebuilt folder with a cold build of the same input (what a build with
no cache makes), and the files rendered with the files whose bytes changed: a rebuild that
misses a change, or redraws what did not change, fails.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import SAMPLE, copy_of_build, first_sample_build, pnp, replace_in


SCRIPT = Path(sys.executable).with_name("pnp")


def files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and ".cache" not in p.relative_to(out).parts}


def rendered(result) -> int:
    """The count of files a build rendered, from its summary line."""
    line = result.output.strip().splitlines()[-1]
    assert "rendered" in line, line
    return int(line.split(": ")[-1].split(" rendered")[0])


def build(project: Path, out: Path, *args: str):
    result = pnp("build", "--out", str(out), *args, project=project)
    assert result.exit_code == 0, result.output + result.traceback
    return result


def rebuilt_paths(out: Path, before: dict[str, bytes]) -> set[str]:
    """Files whose bytes differ from `before` (or are new)."""
    return {path for path, data in files(out).items() if before.get(path) != data} - {"manifest.json"}


@pytest.fixture
def sample_project(tmp_path) -> Path:
    copy = tmp_path / "sample"
    shutil.copytree(SAMPLE, copy)
    return copy


@pytest.fixture(scope="module")
def first_build(tmp_path_factory) -> tuple[Path, Path]:
    """(project, output folder with its cache) of a first build of the sample project for A4,
    on two cores; tests change copies of both."""
    return first_sample_build(tmp_path_factory, "--paper", "a4", "--jobs", "2")


@pytest.fixture
def built_sample(first_build, tmp_path) -> tuple[Path, Path]:
    return copy_of_build(first_build, tmp_path)


def test_a_failed_build_leaves_the_output_and_its_cache_as_they_were(built_sample):
    sample_project, out = built_sample
    good, cache_before = files(out), cache_files(out)
    replace_in(sample_project / "components" / "sample-game" / "cards.yaml", "name: Knight", "name: " + "Knight " * 40)
    result = pnp("build", "--out", str(out), "--paper", "a4", project=sample_project)
    assert result.exit_code == 1 and "does not fit" in result.stderr, result.output
    assert files(out) == good and cache_files(out) == cache_before


def test_a_rebuild_with_nothing_changed_renders_nothing(built_sample, monkeypatch):
    sample_project, out = built_sample
    before = files(out)
    stamps = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file() and ".cache" not in p.parts}
    again = build(sample_project, out, "--paper", "a4")
    assert "nothing changed" in again.output
    assert files(out) == before
    assert {p: p.stat().st_mtime_ns for p in stamps} == stamps, "a no-op build rewrote files"

    # A change that reaches no file (a comment) loads and checks the data, and renders nothing:
    # drawing anything now fails the test.
    replace_in(sample_project / "components" / "sample-game" / "cards.yaml", "cards:", "# a note\ncards:")
    import generator.app.units as units
    monkeypatch.setattr(units, "_run", lambda work: pytest.fail("a file was rendered again"))
    third = build(sample_project, out, "--paper", "a4")
    assert rendered(third) == 0
    assert files(out) == before


def with_translation(project: Path, locale: str, translations: dict[str, tuple[str, str]]) -> None:
    """Give the sample game a draft locale whose catalog translates these strings (key path:
    (source text, translation)); a draft prints the source text for the rest."""
    replace_in(project / "components" / "sample-game" / "game.yaml", "  en: released\n",
               f"  en: released\n  {locale}: draft\n")
    entries = "".join(f'\nmsgctxt "{key}"\nmsgid "{source}"\nmsgstr "{text}"\n'
                      for key, (source, text) in translations.items())
    catalog = project / "components" / "sample-game" / "locales" / f"{locale}.po"
    catalog.parent.mkdir()
    catalog.write_text('msgid ""\nmsgstr ""\n"Language: ' + locale + '\\n"\n'
                       '"Content-Type: text/plain; charset=UTF-8\\n"\n' + entries, encoding="utf-8")


def test_one_translated_card_name_rebuilds_exactly_the_files_that_print_it(sample_project, tmp_path):
    with_translation(sample_project, "bg", {"cards.knight.name": ("Knight", "Рицар"),
                                            "cards.archer.name": ("Archer", "Стрелец")})
    out = tmp_path / "out"
    args = ("--locale", "bg", "--paper", "a4")
    build(sample_project, out, *args)
    before = files(out)
    catalog = sample_project / "components" / "sample-game" / "locales" / "bg.po"
    replace_in(catalog, 'msgstr "Рицар"', 'msgstr "Млад рицар"')
    second = build(sample_project, out, *args)
    changed = rebuilt_paths(out, before)
    # What prints the name: the card sheets, the deck's contact sheet, the booklet that lists it.
    assert any("-cards-a4" in path for path in changed), changed
    assert rendered(second) == len(changed), f"rendered {rendered(second)} files, {len(changed)} changed: {changed}"
    assert len(changed) < len(before) / 2
    cold = tmp_path / "cold"
    build(sample_project, cold, *args, "--no-cache")
    assert files(out) == files(cold)


def test_changed_source_texts_and_counts_give_what_a_cold_build_gives(built_sample, tmp_path):
    sample_project, out = built_sample
    cold = tmp_path / "cold"
    cards = sample_project / "components" / "sample-game" / "cards.yaml"

    def cold_build():
        shutil.rmtree(cold, ignore_errors=True)
        build(sample_project, cold, "--paper", "a4", "--no-cache")
        return files(cold)

    # A card's name in the source language, and the name of a card a deck's matrix makes:
    # exactly the files whose bytes change are drawn again, and the designer's report, whose
    # games are played from the cards (it prints the coins' names, not the heroes').
    report = "sample-game/standard/en/sample-game-standard-en-report.pdf"
    for old, new, report_changes in (("name: Knight", "name: Knight Errant", False), ("name: Thief", "name: Robber", True)):
        before = files(out)
        replace_in(cards, old, new)
        again = build(sample_project, out, "--paper", "a4")
        changed = rebuilt_paths(out, before)
        assert any("-cards-a4" in path for path in changed), changed
        assert (report in changed) == report_changes, (old, changed)
        assert rendered(again) == len(changed | {report}), (old, changed)
        assert files(out) == cold_build()

    # A deck's name is carried by each of its cards' faces (contact sheet and shop titles read
    # it there): their files are drawn again, and the result is the cold build's.
    replace_in(cards, "name: Heroes", "name: Champions")
    build(sample_project, out, "--paper", "a4")
    assert files(out) == cold_build()

    # A colour is data, not text: every file of the game may depend on it.
    replace_in(cards, 'colour: "#3A61C4"', 'colour: "#3A61C5"')
    build(sample_project, out, "--paper", "a4")
    assert files(out) == cold_build()


def test_a_parallel_build_gives_the_files_of_a_serial_one(first_build, tmp_path):
    """The first build ran on two cores with an empty cache: it rendered every file in parallel."""
    project, parallel = first_build
    serial = tmp_path / "serial"
    build(project, serial, "--paper", "a4", "--jobs", "1", "--no-cache")
    assert files(serial) == files(parallel)


def cache_files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted((out / ".cache").rglob("*")) if p.is_file()}


def test_a_killed_build_leaves_output_and_cache_usable(built_sample, tmp_path):
    sample_project, out = built_sample
    good, cache_before = files(out), cache_files(out)
    replace_in(sample_project / "components" / "sample-game" / "game.yaml", "title: ", "title: New ")
    process = subprocess.Popen([str(SCRIPT), "-C", str(sample_project), "build", "--out", str(out), "--paper", "a4",
                                "--jobs", "2"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    # Killed while drawing: its worker processes exist only once the files are being rendered.
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None and not children.read_text().split():
        time.sleep(0.01)
    assert process.poll() is None, "the build ended before it could be killed"
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    assert files(out) == good, "a killed build changed the output"
    assert cache_files(out) == cache_before, "a killed build changed the cache"
    build(sample_project, out, "--paper", "a4")
    cold = tmp_path / "cold"
    build(sample_project, cold, "--paper", "a4", "--no-cache")
    assert files(out) == files(cold)


def test_a_corrupt_or_foreign_cache_entry_is_rebuilt_not_trusted(built_sample):
    sample_project, out = built_sample
    good = files(out)
    cache = out / ".cache"
    blobs = sorted((cache / "blobs").rglob("*"))
    blobs = [b for b in blobs if b.is_file()]
    for blob in blobs[: len(blobs) // 2]:
        blob.write_bytes(blob.read_bytes()[:-10] + b"corrupted!")
    records = sorted((cache / "units").iterdir())
    records[0].write_text("{not json", encoding="utf-8")
    foreign = json.loads(records[1].read_text(encoding="utf-8"))
    foreign["name"] = "some other unit"
    records[1].write_text(json.dumps(foreign), encoding="utf-8")
    # What a machine that lost power while writing the cache may leave: a temporary file.
    (records[2].parent / f".{records[2].name}.x1y2.tmp").write_text('{"half": ', encoding="utf-8")
    for path in list(good)[:3]:
        (out / path).unlink()            # the output changed too: the whole-build shortcut is off
    build(sample_project, out, "--paper", "a4")
    assert files(out) == good


class Drawn(Exception):
    """Raised in place of drawing a report: the games it would be drawn from are what is checked."""


def test_the_report_draws_from_its_kept_simulation_without_playing_again(sample_project, tmp_path, monkeypatch):
    from generator.app.loading import load_games
    from generator.load.project import Project
    from generator.render import report
    from generator.write.cache import Cache
    project = Project(sample_project)
    game = load_games(project, "sample-game", texts=False)[0]        # its engine, Raid the Coins
    tables = game.rules.SPEC.tables
    assert len(tables) > 1 and len(game.rules.ENGINE.policies) == 2
    # A few games: what is checked is where the second report's games come from.
    monkeypatch.setattr(game.rules.ENGINE, "report_games", (6, 2))
    drawn = []

    def draws(project, title, runs, figures, words):
        drawn.append(runs)
        raise Drawn
    monkeypatch.setattr(report, "_render", draws)
    monkeypatch.setattr(report, "_REPORTS", {})

    def build_report():
        """The games the report is drawn from, as a build in a process that played nothing yet
        makes it: with the cache the earlier builds wrote to the output folder."""
        monkeypatch.setattr(report, "_RUNS", {})
        cache = Cache(tmp_path / "out")
        with pytest.raises(Drawn):
            report.make_report(project, game, "standard", cache=cache)
        cache.flush()
        return drawn[-1]

    played = build_report()
    # the first policy plays batches of 6 until its intervals are narrow enough, the others 2 games
    first, *others = played.values()
    assert len(first) == len(tables) and all(run.tally.games >= 6 and run.tally.games % 6 == 0 for run in first)
    assert others and [run.tally.games for runs in others for run in runs] == [2] * (len(tables) * len(others))
    monkeypatch.setattr(report, "simulate", lambda *args, **kwargs: pytest.fail("the games were played again"))
    kept = build_report()
    assert kept is not played and repr(kept) == repr(played)       # the same games, to the last figure
    # Another seed is another simulation: it is played, not taken from the cache.
    monkeypatch.setattr(report, "REPORT_SEED", 1)
    with pytest.raises(pytest.fail.Exception):
        build_report()


def test_a_link_planted_in_the_cache_leads_no_read_or_write_out_of_the_output_folder(built_sample, tmp_path):
    sample_project, out = built_sample
    good = files(out)
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(out / ".cache" / "units", elsewhere)
    before = {p.name: p.read_bytes() for p in elsewhere.iterdir()}
    shutil.rmtree(out / ".cache" / "units")
    (out / ".cache" / "units").symlink_to(elsewhere, target_is_directory=True)
    (out / "manifest.json").unlink()       # not the last build's output: the units are looked up
    again = build(sample_project, out, "--paper", "a4")
    assert rendered(again) == len(good) - 1, "records behind a link were trusted"
    assert {p.name: p.read_bytes() for p in elsewhere.iterdir()} == before
    assert files(out) == good


def test_blobs_that_are_links_are_not_read_even_when_their_target_hashes_to_their_name(built_sample, tmp_path):
    """A blob replaced by a link to a file outside with the very same bytes (so it would pass the
    hash check) is not read through: every file is made again, and is what it was."""
    sample_project, out = built_sample
    good = files(out)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    blobs = [b for b in sorted((out / ".cache" / "blobs").rglob("*")) if b.is_file()]
    for blob in blobs:
        target = elsewhere / blob.name
        blob.rename(target)
        blob.symlink_to(target)
    (out / "manifest.json").unlink()       # not the last build's output: the units are looked up
    again = build(sample_project, out, "--paper", "a4")
    assert rendered(again) == len(good) - 1, "blobs behind links were trusted"
    assert files(out) == good


def test_a_blob_name_that_is_not_a_sha256_is_not_looked_for(tmp_path, monkeypatch):
    """A record naming its blob with a 64-character path, or with capital hex digits, leads to
    no read at all: such a name is no SHA-256 the cache wrote."""
    from generator.write.cache import Cache
    cache = Cache(tmp_path / "out")
    data = b"kept"
    sha = cache.put_blob(data)
    cache.flush()
    climbing = "../../../../secret"
    names = [("./" * 32)[:64 - len(climbing)] + climbing, sha.upper(), sha[:-1] + "g", sha[:-1], sha + "0"]
    assert all(len(name) == 64 for name in names[:3])
    reads = []
    real = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: reads.append(self) or real(self))
    assert [cache.blob(name) for name in names] == [None] * len(names)
    assert reads == []
    assert cache.blob(sha) == data and len(reads) == 1          # the check reads what it should


def test_a_copy_of_the_project_reuses_its_cache_and_a_changed_copy_does_not(first_build, tmp_path):
    """The cache is keyed by what files are made from, not by where the project lies: a copy
    (a clone, a moved folder) with the first build's cache renders nothing and makes the same
    bytes; a copy with one card changed renders the files that show it."""
    sample_project, first = first_build
    copy = tmp_path / "elsewhere" / "sample"
    shutil.copytree(sample_project, copy)
    second = tmp_path / "second"
    shutil.copytree(first / ".cache", second / ".cache")
    result = build(copy, second, "--paper", "a4")
    assert rendered(result) == 0, result.output
    assert files(second) == files(first)
    replace_in(copy / "components" / "sample-game" / "cards.yaml", "name: Knight", "name: Squire")
    assert rendered(build(copy, second, "--paper", "a4")) > 0
