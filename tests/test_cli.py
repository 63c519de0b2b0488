"""The command line as a user meets it: list, -C, exit codes, the installed console script."""
from __future__ import annotations

import contextlib
import errno
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import yaml

import generator.app.units
from conftest import ROOT, SAMPLE, check_manifest, pnp, replace_in, snapshot


SAMPLE_GAME = "sample-game"
OTHER_GAME = "other-game"
# A text on one of the sample's hero cards, and a longer one: the card sheets grow with it.
HERO_TEXT = "text: Moves two spaces."
LONGER_HERO_TEXT = "text: Moves two spaces and then two more."


@pytest.fixture
def sample_project(tmp_path) -> Path:
    copy = tmp_path / "sample"
    shutil.copytree(SAMPLE, copy)
    return copy


@pytest.fixture(scope="module")
def two_games(tmp_path_factory) -> Path:
    """A copy of the sample project with a second game (the sample game under another name, with
    rules of its own) and, for the sample game, a second edition its rules know: a travel box of
    two knights, which its rules only count (no engine plays a box without coins and dice)."""
    project = tmp_path_factory.mktemp("list") / "project"
    shutil.copytree(SAMPLE, project)
    other = project / "components" / OTHER_GAME
    shutil.copytree(project / "components" / SAMPLE_GAME, other)
    replace_in(other / "game.yaml", "rules: sample_game", "rules: other_game")
    replace_in(other / "game.yaml", "title: Sample Game", "title: Other Game")
    shutil.copytree(project / "rules" / "sample_game", project / "rules" / "other_game")
    replace_in(project / "rules" / "other_game" / "__init__.py", 'slug="sample-game"', 'slug="other-game"')
    game = project / "components" / SAMPLE_GAME
    replace_in(game / "game.yaml", "  standard:\n    name: Standard\n", "  standard:\n    name: Standard\n  travel:\n    name: Travel\n")
    replace_in(game / "cards.yaml", "count: {standard: 4}}", "count: {standard: 4, travel: 2}}")
    rules = project / "rules" / "sample_game" / "__init__.py"
    replace_in(rules, "    }},\n    totals=", '    }, "travel": {"cards": {"knight": 2}}},\n    totals=')
    replace_in(rules, 'Setup({"cards/heroes": 7,', 'Setup({} if edition == "travel" else {"cards/heroes": 7,')
    replace_in(rules, "\nENGINE = RaidEngine(SPEC)\n", "\n")
    return project


@pytest.fixture(scope="module")
def listed(two_games) -> dict:
    """What `pnp list --json` prints for the two games, run once for the tests that read it."""
    result = pnp("list", "--json", project=two_games)
    assert result.exit_code == 0, result.output + result.traceback
    return json.loads(result.stdout)


def test_list_json_has_games_editions_components_and_totals(listed, two_games):
    game = next(g for g in listed["games"] if g["id"] == SAMPLE_GAME)
    assert set(game["editions"]) == {"standard", "travel"}
    assert "en" in game["locales"]
    cards = yaml.safe_load((two_games / "components" / SAMPLE_GAME / "cards.yaml").read_text(encoding="utf-8"))["cards"]
    for edition in ("standard", "travel"):
        components = {c["id"]: c for c in game["editions"][edition]["components"] if c["category"] == "cards"}
        for card_id, card in cards.items():
            if card["count"].get(edition):
                assert components[card_id]["count"] == card["count"][edition]
                assert components[card_id]["kind"] == card["deck"]
            else:
                assert card_id not in components
    standard, travel = game["editions"]["standard"]["totals"], game["editions"]["travel"]["totals"]
    assert (standard["cards/heroes"], standard["cards/coins"], standard["cards"]) == (7, 10, 17)
    assert standard["boards"] == 2 and standard["tokens/supply"] == 4
    assert travel == {"cards": 2, "cards/heroes": 2}


def test_list_json_has_every_game_with_its_card_totals(listed):
    totals = {game["id"]: {edition: data["totals"]["cards"] for edition, data in game["editions"].items()}
              for game in listed["games"]}
    assert totals == {SAMPLE_GAME: {"standard": 17, "travel": 2}, OTHER_GAME: {"standard": 17}}


def test_list_table_shows_every_component_with_counts():
    """The sample game (every component kind): a row per component with its count in each
    edition, and a row per total, as `pnp list --json` gives them."""
    result = pnp("list", project=SAMPLE)
    assert result.exit_code == 0, result.output + result.traceback
    listed = pnp("list", "--json", project=SAMPLE)
    assert listed.exit_code == 0, listed.output + listed.traceback
    (game,) = json.loads(listed.stdout)["games"]
    assert result.stdout.startswith(f"{SAMPLE_GAME} — {game['title']}")
    rows = {tuple(cell.strip() for cell in line.strip("│").split("│"))
            for line in result.stdout.splitlines() if line.startswith("│")}
    editions = list(game["editions"])
    components = {(c["category"], c["kind"], c["id"]): {} for e in editions for c in game["editions"][e]["components"]}
    for edition in editions:
        for c in game["editions"][edition]["components"]:
            components[c["category"], c["kind"], c["id"]][edition] = str(c["count"])
    wanted = {(*key, *(counts.get(e, "–") for e in editions)) for key, counts in components.items()}
    wanted |= {("total", key, "", *(str(game["editions"][e]["totals"].get(key, "–")) for e in editions))
               for key in {k for e in editions for k in game["editions"][e]["totals"]}}
    assert {"tokens", "dice", "pieces", "tuckboxes", "boards"} <= {category for category, *_ in wanted}
    assert ("cards", "heroes", "knight", "4") in wanted and ("cards", "heroes", "archer", "3") in wanted
    assert rows == wanted


def test_usage_errors_exit_2(tmp_path):
    assert pnp("build", "--paper", "a3", "--out", str(tmp_path / "out"), project=SAMPLE).exit_code == 2
    assert pnp("no-such-command", project=SAMPLE).exit_code == 2
    result = pnp("build", "--game", SAMPLE_GAME, "--edition", "deluxe", "--out", "/nonexistent-never-written",
                 project=SAMPLE)
    assert result.exit_code == 2
    assert "no edition 'deluxe'" in result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("args,message", [
    (("--back-offset", "left"), "'left' is not DX,DY in millimetres"),
    (("--back-offset", "1.5"), "'1.5' is not DX,DY in millimetres"),
    (("--back-offset", "25,0"), "more than 20 mm"),
    (("--back-offset", "nan,0"), "'nan,0' is not DX,DY in millimetres"),
    (("--back-offset", "1,1", "--duplex", "fronts"), "backs are not printed separately with --duplex fronts"),
])
def test_a_bad_back_offset_exits_2(tmp_path, args, message):
    out = tmp_path / "out"
    result = pnp("build", "--paper", "a4", *args, "--out", str(out), project=SAMPLE)
    assert result.exit_code == 2 and message in result.stderr
    assert not out.exists()


def test_C_at_something_that_is_not_a_folder_exits_2(tmp_path):
    (tmp_path / "game.yaml").write_text("title: x\n", encoding="utf-8")
    for target, message in ((tmp_path / "game.yaml", "is a file"), (tmp_path / "missing", "is not a folder")):
        result = pnp("list", project=target)
        assert result.exit_code == 2 and "-C" in result.stderr and message in result.stderr
        assert not result.traceback


def test_a_draft_locale_marks_every_page_of_its_card_board_and_token_sheets(sample_project, tmp_path):
    game = sample_project / "components" / SAMPLE_GAME / "game.yaml"
    replace_in(game, "  en: released\n", "  en: draft\n")
    out = tmp_path / "out"
    result = pnp("build", "--paper", "a4", "--out", str(out), "--kind", "cards,boards,tokens", project=sample_project)
    assert result.exit_code == 0, result.output + result.traceback
    draft = yaml.safe_load(game.read_text(encoding="utf-8"))["labels"]["draft"]
    for kind in ("cards", "boards", "tokens"):
        pdf = pdfium.PdfDocument(out / SAMPLE_GAME / "standard" / "en" / f"{SAMPLE_GAME}-standard-en-{kind}-a4.pdf")
        try:
            texts = [page.get_textpage().get_text_range() for page in pdf]
        finally:
            pdf.close()
        assert texts and all(draft in text for text in texts), kind


@pytest.fixture(scope="module")
def designers_folder(tmp_path_factory) -> Path:
    """A copy of the sample project built for A4 with -C into its own output/, once for the
    tests that read it or copy it."""
    project = tmp_path_factory.mktemp("designer") / "sample"
    shutil.copytree(SAMPLE, project)
    result = pnp("build", "--paper", "a4", project=project)
    assert result.exit_code == 0, result.output + result.traceback
    return project


def console_script(project: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    """`pnp ARGS` as installed (the venv's console script), run like a user in the project folder."""
    script = Path(sys.executable).with_name("pnp")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "generator.cli.main"]
    return subprocess.run(command + list(args), cwd=project, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **env})


def test_builds_are_byte_identical_whatever_the_hash_seed(designers_folder, tmp_path):
    """Nothing written may depend on the order of a set or a dict of strings: the sample game's
    kit, with every component kind and element type, built by the console script in a copy of
    the project's folder with a hash seed other than this process's, is the build made here,
    byte for byte, its designer's report (simulated games) too."""
    # This process, and any worker it starts, hashes with PYTHONHASHSEED's seed, or a random one.
    seed = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"
    project = tmp_path / "sample"
    shutil.copytree(SAMPLE, project)
    done = console_script(project, "build", "--paper", "a4", PYTHONHASHSEED=seed)
    assert done.returncode == 0, done.stderr
    outs = (designers_folder / "output", project / "output")
    check_manifest(outs[1])
    files = sorted(path.relative_to(outs[0]) for path in outs[0].rglob("*")
                   if path.is_file() and ".cache" not in path.relative_to(outs[0]).parts)
    assert Path("manifest.json") in files and len(files) > 3
    assert any(name.name.endswith("-report.pdf") for name in files)
    assert files == sorted(path.relative_to(outs[1]) for path in outs[1].rglob("*")
                            if path.is_file() and ".cache" not in path.relative_to(outs[1]).parts)
    for name in files:
        assert (outs[0] / name).read_bytes() == (outs[1] / name).read_bytes(), name


def test_a_designers_own_folder_works_with_C(designers_folder):
    """The installed tool on a project folder elsewhere (a copy of the sample game's), with its own output/."""
    assert (designers_folder / "output" / "sample-game" / "standard" / "en" / "sample-game-standard-en-cards-a4.pdf").exists()
    assert (designers_folder / "output" / "manifest.json").exists()


def test_narrower_builds_keep_earlier_manifest_entries(sample_project):
    """Two builds of one kind (the card sheets) that differ in paper: the second keeps the
    first's entries, byte for byte, beside its own."""
    selection = ("build", "--kind", "cards")
    assert pnp(*selection, "--paper", "a4", project=sample_project).exit_code == 0
    first = {e["path"]: e for e in check_manifest(sample_project / "output")}
    assert pnp(*selection, "--paper", "letter", project=sample_project).exit_code == 0
    manifest = json.loads((sample_project / "output" / "manifest.json").read_text(encoding="utf-8"))
    papers = {e["paper"] for e in manifest["files"] if e["kind"] == "cards"}
    assert papers == {"a4", "letter"}
    kept = {e["path"]: e for e in manifest["files"] if e["path"] in first}
    assert kept == first


def test_a_rebuild_into_the_same_folder_lists_the_files_it_wrote(designers_folder, tmp_path):
    """Built, a card's text changed, built again into the same output/: every manifest entry
    (sha256, size, pages) is the file now on disk, not the one the first build wrote."""
    project = tmp_path / "sample"
    shutil.copytree(designers_folder, project, symlinks=True)
    first = {e["path"]: e["sha256"] for e in check_manifest(project / "output")}
    replace_in(project / "components" / SAMPLE_GAME / "cards.yaml", HERO_TEXT, LONGER_HERO_TEXT)
    result = pnp("build", "--paper", "a4", project=project)
    assert result.exit_code == 0, result.output + result.traceback
    second = {e["path"]: e["sha256"] for e in check_manifest(project / "output")}
    assert second.keys() == first.keys()
    changed = {path for path in first if first[path] != second[path]}
    kit = f"{SAMPLE_GAME}/standard/en/{SAMPLE_GAME}-standard-en"
    assert {f"{kit}-cards-a4.pdf", f"{kit}-rules.pdf", f"{kit}-preview-heroes.png"} <= changed


def test_console_script_runs_from_the_project_folder(sample_project):
    """`pnp` as installed, run like a user in the folder (its build there: the hash seed's test
    above): a file it cannot read is a located message and exit 1."""
    (sample_project / "components" / SAMPLE_GAME / "game.yaml").write_text("title: [broken\n", encoding="utf-8")
    done = console_script(sample_project, "validate", SAMPLE_GAME)
    assert done.returncode == 1
    # The list opened on line 1 is still open where the file ends, after its one line.
    assert done.stderr == (f"components/{SAMPLE_GAME}/game.yaml:2: YAML syntax error: did not find expected ',' or ']'"
                           "\n1 problem(s) found.\n")
    assert "Traceback" not in done.stderr


def test_an_unwritable_output_folder_is_a_message_not_a_traceback(tmp_path):
    blocked = tmp_path / "blocked"
    blocked.mkdir()
    blocked.chmod(0o500)
    try:
        if os.access(blocked, os.W_OK):          # root ignores permissions: use a path under a file
            (tmp_path / "file").write_text("x")
            target = tmp_path / "file" / "out"
        else:
            target = blocked / "out"
        result = pnp("build", "--kind", "cards", "--paper", "a4", "--out", str(target), project=SAMPLE)
    finally:
        blocked.chmod(0o700)
    assert result.exit_code == 1
    assert "error: cannot write" in result.stderr
    assert not result.traceback


def _failing_writes(monkeypatch, failure):
    """Run the build's write stage under `failure`, a context manager that makes writing fail."""
    write_all = generator.app.units.write_all

    def write_all_failing(*args):
        with failure():
            return write_all(*args)
    monkeypatch.setattr(generator.app.units, "write_all", write_all_failing)


# The card's contact sheet and the booklet are written before the card sheets, the largest file.
CARDS_AND_BOOKLET = ("build", "--kind", "cards,booklet", "--paper", "a4")


@pytest.fixture(scope="module")
def built_cards_and_booklet(tmp_path_factory) -> Path:
    """A copy of the sample project with its output/ (cache included) of CARDS_AND_BOOKLET."""
    project = tmp_path_factory.mktemp("written") / "sample"
    shutil.copytree(SAMPLE, project)
    result = pnp(*CARDS_AND_BOOKLET, project=project)
    assert result.exit_code == 0, result.output + result.traceback
    return project


@pytest.mark.own_cache
@pytest.mark.parametrize("how", ["the disk fills up", "a rename is refused"])
def test_a_build_that_fails_while_writing_leaves_the_earlier_build_as_it_was(built_cards_and_booklet, tmp_path,
                                                                              monkeypatch, how):
    """The new files render (a card's text changed), then writing them fails partway: exit 1 with
    a message, and output/ holds the earlier build byte for byte, its manifest and no temporary file."""
    project = tmp_path / "sample"
    shutil.copytree(built_cards_and_booklet, project, symlinks=True)
    selection = CARDS_AND_BOOKLET
    before = snapshot(project / "output")
    replace_in(project / "components" / SAMPLE_GAME / "cards.yaml", HERO_TEXT, LONGER_HERO_TEXT)
    if how == "the disk fills up":
        # Writes past this size fail as on a full disk (Python ignores SIGXFSZ): the largest file
        # fails, and every smaller one written before it fits.
        assert signal.getsignal(signal.SIGXFSZ) == signal.SIG_IGN
        limit = max(len(data) for data in before.values()) - 1

        @contextlib.contextmanager
        def failure():
            soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
            try:
                yield
            finally:
                resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        message = "File too large"
    else:
        @contextlib.contextmanager
        def failure():
            def refuse(source, target):
                raise PermissionError(errno.EACCES, "Permission denied", str(target))
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(os, "replace", refuse)
                yield
        message = "Permission denied"
    _failing_writes(monkeypatch, failure)
    result = pnp(*selection, project=project)
    assert result.exit_code == 1, result.output
    assert not result.traceback and "Traceback" not in result.output
    assert result.stderr.startswith("error: cannot write ") and message in result.stderr, result.stderr
    assert snapshot(project / "output") == before


def test_every_command_module_is_listed_with_its_commands():
    """`pnp` imports a command's module only when it runs (generator/cli/commands.COMMANDS):
    the map names every command each module adds, and no other."""
    import importlib
    import pkgutil

    import click

    from generator.cli import commands
    for module in pkgutil.iter_modules(commands.__path__):
        group = click.Group()
        importlib.import_module(f"generator.cli.commands.{module.name}").register(group)
        assert {name: module.name for name in group.commands} == \
            {name: held for name, held in commands.COMMANDS.items() if held == module.name}


def test_simulate_imports_neither_the_other_commands_nor_the_checks_once_a_game_passed(tmp_path):
    """A game played again with the same files and tool starts without the libraries that
    check or draw it, nor the modules of the other commands."""
    project = tmp_path / "project"
    shutil.copytree(SAMPLE, project)
    command = [sys.executable, "-X", "importtime", "-m", "generator.cli.main", "-C", str(project),
               "simulate", "sample-game", "--games", "1", "--json"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    # a project never built has no output folder, and playing it makes none
    subprocess.run(command, check=True, capture_output=True, env=env)
    assert not (project / "output").exists()
    (project / "output").mkdir()                 # as a build leaves it: its checks are kept there
    subprocess.run(command, check=True, capture_output=True, env=env)
    again = subprocess.run(command, check=True, capture_output=True, text=True, env=env)
    imported = {line.split("|")[-1].strip() for line in again.stderr.splitlines() if "|" in line}
    assert "generator.rules.simulate" in imported
    for heavy in ("jsonschema", "generator.validate.checks", "generator.layout.elements", "rich.console",
                  "python_calamine", "generator.cli.commands.new", "generator.cli.commands.i18n"):
        assert heavy not in imported, heavy
