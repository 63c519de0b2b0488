"""Nothing is written outside the project and its output folder, whatever links a project
holds: `pnp i18n extract`, `pnp build` (kits, the cache, `--target tts`, `--changed-since`)
and `pnp new` refuse a path whose folder, links resolved, leads out, with a located error,
exit 1 and nothing written; a link that stays inside is followed. A build whose workers are
spawned (the start method of Windows and macOS) makes the bytes of a one-process build."""
from __future__ import annotations

import multiprocessing
import shutil
from pathlib import Path

import pytest

from conftest import SAMPLE, pnp, replace_in

GAME = "sample-game"
CARDS = ("--game", GAME, "--locale", "en", "--kind", "cards", "--paper", "a4")
TOKENS = ("--game", GAME, "--locale", "en", "--kind", "tokens", "--paper", "a4")      # two units of work


def tree(folder: Path) -> dict:
    """Every file and folder under `folder`, with the bytes of each file."""
    return {p.relative_to(folder): (p.read_bytes() if p.is_file() else None) for p in sorted(folder.rglob("*"))}


@pytest.fixture
def places(tmp_path) -> tuple[Path, Path]:
    """(a copy of the sample project, a folder beside it with a file of someone's)."""
    project = tmp_path / "project"
    shutil.copytree(SAMPLE, project)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "notes.txt").write_text("someone's notes", encoding="utf-8")
    return project, outside


def refused(result, *lines: str) -> None:
    """Exit 1, no traceback, and stderr has a line starting with each of `lines`."""
    assert result.exit_code == 1, result.output + result.traceback
    assert not result.traceback and "Traceback" not in result.output
    for line in lines:
        assert any(printed.startswith(line) for printed in result.stderr.splitlines()), (line, result.stderr)


# ---- pnp i18n extract ----------------------------------------------------------------------

LOCALES = f"components/{GAME}/locales"


def link_locales_out(project: Path, outside: Path) -> Path:
    (project / LOCALES).symlink_to(outside, target_is_directory=True)
    return outside


def link_locales_out_with_a_template(project: Path, outside: Path) -> Path:
    (outside / "messages.pot").write_text("# someone's template\n", encoding="utf-8")
    (project / LOCALES).symlink_to(outside, target_is_directory=True)
    return outside


def link_locales_to_a_missing_folder_out(project: Path, outside: Path) -> Path:
    (project / LOCALES).symlink_to(outside / "made-here", target_is_directory=True)
    return outside


def link_locales_through_an_inside_link_that_leads_out(project: Path, outside: Path) -> Path:
    (project / "shared").symlink_to(outside, target_is_directory=True)
    (project / LOCALES).symlink_to(Path("..", "..", "shared"), target_is_directory=True)
    return outside


@pytest.mark.parametrize("plant", [link_locales_out, link_locales_out_with_a_template,
                                   link_locales_to_a_missing_folder_out,
                                   link_locales_through_an_inside_link_that_leads_out])
def test_extract_writes_no_catalog_through_a_locales_folder_linked_out(places, plant):
    project, outside = places
    plant(project, outside)
    before = tree(outside)
    result = pnp("i18n", "extract", GAME, project=project)
    refused(result, f"{LOCALES}/messages.pot: refused to write: the path leads outside the project")
    assert tree(outside) == before


def test_extract_writes_no_catalog_of_a_game_in_a_linked_locales_folder_of_the_whole_project(places):
    project, outside = places
    link_locales_out(project, outside)
    result = pnp("i18n", "extract", project=project)
    refused(result, f"{LOCALES}/messages.pot: refused to write")
    assert tree(outside) == {Path("notes.txt"): b"someone's notes"}


def test_extract_rewrites_no_catalog_linked_out_of_the_project(places):
    project, outside = places
    replace_in(project / "components" / GAME / "game.yaml", "  en: released", "  en: released\n  cs: draft")
    (project / LOCALES).mkdir()
    (outside / "cs.po").write_text('msgid ""\nmsgstr ""\n', encoding="utf-8")
    (project / LOCALES / "cs.po").symlink_to(outside / "cs.po")
    before = tree(outside)
    result = pnp("i18n", "extract", GAME, project=project)
    refused(result, f"{LOCALES}/cs.po:1: refused: the path leads outside the project")
    assert tree(outside) == before and not (project / LOCALES / "messages.pot").exists()
    assert (project / LOCALES / "cs.po").is_symlink()


def test_extract_follows_a_locales_link_that_stays_in_the_project(places):
    project, _ = places
    (project / "translations").mkdir()
    (project / LOCALES).symlink_to(Path("..", "..", "translations"), target_is_directory=True)
    result = pnp("i18n", "extract", GAME, project=project)
    assert result.exit_code == 0, result.output + result.traceback
    assert (project / "translations" / "messages.pot").read_text(encoding="utf-8").count("msgid") > 10


# ---- pnp build: kits, the cache, tts, errata ------------------------------------------------

def test_a_build_writes_nothing_through_a_game_folder_of_output_linked_out(places):
    project, outside = places
    (project / "output").mkdir()
    (project / "output" / GAME).symlink_to(outside, target_is_directory=True)
    result = pnp("build", *CARDS, project=project)
    refused(result, f"{project / 'output' / GAME}: a link to {outside}, outside the output folder")
    assert tree(outside) == {Path("notes.txt"): b"someone's notes"}
    assert not (project / "output" / "manifest.json").exists()


def test_a_build_writes_nothing_through_an_edition_folder_of_out_linked_out(places, tmp_path):
    project, outside = places
    out = tmp_path / "out"
    (out / GAME).mkdir(parents=True)
    (out / GAME / "standard").symlink_to(outside, target_is_directory=True)
    result = pnp("build", *CARDS, "--out", str(out), project=project)
    refused(result, f"{out / GAME / 'standard'}: a link to {outside}, outside the output folder")
    assert tree(outside) == {Path("notes.txt"): b"someone's notes"}


def test_a_build_writes_nothing_through_an_output_folder_linked_out_of_the_project(places):
    project, outside = places
    (project / "output").symlink_to(outside, target_is_directory=True)
    result = pnp("build", *CARDS, project=project)
    refused(result, f"output: a link to {outside}, outside the project")
    assert tree(outside) == {Path("notes.txt"): b"someone's notes"}


@pytest.mark.own_cache
def test_a_build_keeps_no_cache_in_a_cache_folder_linked_out(places, tmp_path):
    """The cache only saves time: a build with a linked cache writes its files and no entry."""
    project, outside = places
    out = tmp_path / "out"
    out.mkdir()
    (out / ".cache").symlink_to(outside, target_is_directory=True)
    result = pnp("build", *CARDS, "--out", str(out), project=project)
    assert result.exit_code == 0, result.output + result.traceback
    assert (out / GAME / "standard" / "en" / f"{GAME}-standard-en-cards-a4.pdf").is_file()
    assert tree(outside) == {Path("notes.txt"): b"someone's notes"}


def test_a_tts_export_writes_nothing_through_its_folder_linked_out(places, tmp_path):
    project, outside = places
    out = tmp_path / "out"
    (out / GAME / "standard" / "en").mkdir(parents=True)
    (out / GAME / "standard" / "en" / "tts").symlink_to(outside, target_is_directory=True)
    result = pnp("build", "--target", "tts", "--game", GAME, "--out", str(out), project=project)
    refused(result, f"{out / GAME / 'standard' / 'en' / 'tts'}: a link to {outside}, outside the output folder")
    assert tree(outside) == {Path("notes.txt"): b"someone's notes"}
    assert not (out / "manifest.json").exists()


def test_an_errata_kit_writes_nothing_through_its_folder_linked_out(places, tmp_path):
    project, outside = places
    earlier = tmp_path / "earlier"
    shutil.copytree(project, earlier)
    replace_in(project / "components" / GAME / "cards.yaml", "name: Knight", "name: Knight Errant")
    out = tmp_path / "out"
    (out / GAME / "standard" / "en").mkdir(parents=True)
    (out / GAME / "standard" / "en" / "errata").symlink_to(outside, target_is_directory=True)
    result = pnp("build", "--game", GAME, "--paper", "a4", "--changed-since", str(earlier), "--out", str(out),
                 project=project)
    refused(result, f"{out / GAME / 'standard' / 'en' / 'errata'}: a link to {outside}, outside the output folder")
    assert tree(outside) == {Path("notes.txt"): b"someone's notes"}


# ---- pnp new --------------------------------------------------------------------------------

def test_new_writes_no_game_into_a_components_folder_linked_out(tmp_path):
    root, outside = tmp_path / "designer", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (root / "components").symlink_to(outside, target_is_directory=True)
    result = pnp("new", "my-game", project=root)
    refused(result, "error: components is not a folder of the project")
    assert list(outside.iterdir()) == [] and not (root / "rules").exists()


def test_new_writes_no_rules_module_through_a_link_to_a_missing_folder_out(tmp_path):
    root, outside = tmp_path / "designer", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (root / "rules").symlink_to(outside / "rules", target_is_directory=True)
    result = pnp("new", "my-game", "--rules", project=root)     # a game with a rules module
    refused(result, "error: rules is not a folder of the project")
    assert list(outside.iterdir()) == [] and not (root / "components").exists()


def test_new_writes_its_game_through_a_components_link_that_stays_in_the_project(tmp_path):
    root = tmp_path / "designer"
    (root / "data").mkdir(parents=True)
    (root / "components").symlink_to(Path("data"), target_is_directory=True)
    result = pnp("new", "my-game", project=root)
    assert result.exit_code == 0, result.output + result.traceback
    assert (root / "data" / "my-game" / "game.yaml").is_file()
    assert (root / "data" / "my-game" / "locales" / "messages.pot").is_file()


# ---- workers started by spawn ---------------------------------------------------------------

def test_a_build_with_spawned_workers_makes_the_bytes_of_a_one_process_build(places, tmp_path, spawned_workers):
    project, _ = places
    made = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs-{jobs}"
        result = pnp("build", *CARDS, "--jobs", jobs, "--no-cache", "--out", str(out), project=project)
        assert result.exit_code == 0, result.output + result.traceback
        made[jobs] = tree(out)
    assert len(spawned_workers) == 2
    assert len([path for path in made["1"] if path.suffix in (".pdf", ".png")]) >= 3
    assert made["2"] == made["1"]


@pytest.fixture
def forked_workers(monkeypatch):
    """Workers started as Linux starts them, by fork (no interpreter to start, nothing to
    import); the names of the processes started."""
    started = []
    start = multiprocessing.process.BaseProcess.start

    def counted(process):
        started.append(process.name)
        return start(process)
    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", counted)
    method = multiprocessing.get_start_method()
    multiprocessing.set_start_method("fork", force=True)
    yield started
    multiprocessing.set_start_method(method, force=True)


def test_pnp_jobs_is_how_many_workers_a_build_starts_unless_jobs_is_given(places, tmp_path, forked_workers,
                                                                          monkeypatch):
    project, _ = places
    for setting, given, started in (("2", (), 2), ("1", (), 0), ("1", ("--jobs", "2"), 2), ("2", ("--jobs", "1"), 0)):
        monkeypatch.setenv("PNP_JOBS", setting)
        before = len(forked_workers)
        result = pnp("build", *TOKENS, *given, "--no-cache", "--out", str(tmp_path / f"{setting}{len(given)}"),
                     project=project)
        assert result.exit_code == 0, result.output + result.traceback
        assert len(forked_workers) - before == started, (setting, given)
