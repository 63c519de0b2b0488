"""`pnp new SLUG`: a new game folder of YAML alone (with `--rules`, and its rules module) in
the project, which validate, play their scenario and build at once with the installed tool; a
name that is taken or not a game name is refused and nothing is written."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import SAMPLE, page_count, pnp, snapshot
from generator.cli.commands import new as new_command


SLUG, MODULE = "card-duel", "card_duel"
GAME = Path("components") / SLUG
SCENARIO = GAME / "scenarios" / "highest-card-wins.yaml"
FILES = {GAME / "game.yaml", GAME / "cards.yaml", GAME / "layouts.yaml", GAME / "booklet.yaml",
         GAME / "locales" / "messages.pot", SCENARIO, Path("rules") / MODULE / "__init__.py"}
CARDS, PER_SHEET = 12, 9            # the scaffold's deck; poker cards 3 x 3 on A4


@pytest.fixture
def project(tmp_path) -> Path:
    """A copy of the sample project, a game and its rules module already there."""
    copy = tmp_path / "sample"
    shutil.copytree(SAMPLE, copy)
    return copy


def written(root: Path) -> set[Path]:
    return {p.relative_to(root) for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts}


def test_a_new_game_in_the_project_validates_plays_and_builds(project):
    before = written(project)
    result = pnp("new", SLUG, "--rules", project=project)
    assert result.exit_code == 0, result.output + result.traceback
    assert written(project) - before == FILES
    assert all(str(path) in result.stdout for path in FILES)
    game_yaml = (project / GAME / "game.yaml").read_text(encoding="utf-8")
    assert f"rules: {MODULE}\n" in game_yaml and 'title: "Card Duel"' in game_yaml
    assert f'slug="{SLUG}"' in (project / "rules" / MODULE / "__init__.py").read_text(encoding="utf-8")

    result = pnp("validate", SLUG, project=project)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == f"ok: {SLUG}"
    # The catalog template is the one the translators' command writes from this data.
    pot = (project / GAME / "locales" / "messages.pot").read_bytes()
    assert b'msgid "Card Duel"' in pot
    assert pnp("i18n", "extract", SLUG, project=project).exit_code == 0
    assert (project / GAME / "locales" / "messages.pot").read_bytes() == pot

    result = pnp("play", SLUG, str(project / SCENARIO), project=project)
    assert result.exit_code == 0, result.output
    state = json.loads(result.stdout)
    assert state["terminal"] and state["winners"] == ["Ann", "Ben"]

    result = pnp("build", "--game", SLUG, "--paper", "a4", project=project)
    assert result.exit_code == 0, result.output + result.traceback
    kit = project / "output" / SLUG / "standard" / "en"
    prefix = f"{SLUG}-standard-en"
    pages = {name: page_count((kit / f"{prefix}-{name}").read_bytes())
             for name in ("cards-a4.pdf", "calibration-a4.pdf", "rules.pdf", "rules-imposed-a4.pdf",
                          "preview-numbers.png")}
    sheets = -(-CARDS // PER_SHEET)
    assert pages["cards-a4.pdf"] == 2 * sheets               # each fronts page and its backs
    assert pages["rules.pdf"] >= 4 and pages["rules.pdf"] % 4 == 0
    assert pages["rules-imposed-a4.pdf"] == pages["rules.pdf"] // 2
    assert pages["calibration-a4.pdf"] >= 1 and pages["preview-numbers.png"] == 1
    report = kit / f"{prefix}-report.pdf"
    assert page_count(report.read_bytes()) >= 1
    entries = json.loads((project / "output" / "manifest.json").read_text(encoding="utf-8"))["files"]
    assert {entry["game"] for entry in entries} == {SLUG}


def test_a_new_game_in_an_empty_folder_makes_a_project(tmp_path):
    root = tmp_path / "designer"
    root.mkdir()
    result = pnp("new", "duel2", "--rules", project=root)
    assert result.exit_code == 0, result.output + result.traceback
    assert (root / "components" / "duel2" / "game.yaml").is_file()
    assert (root / "rules" / "duel2" / "__init__.py").is_file()
    result = pnp("validate", project=root)
    assert result.exit_code == 0 and result.stdout.strip() == "ok: duel2", result.output
    result = pnp("simulate", "duel2", "--games", "20", "--json", project=root)
    assert result.exit_code == 0, result.output
    assert [run["players"] for run in json.loads(result.stdout)["runs"]] == [2, 3, 4]


def test_a_new_game_is_yaml_alone_unless_a_rules_module_is_asked_for(tmp_path):
    """Without --rules: no rules module, no scenario; the game validates with one note that no
    rules module checks its counts, holds the counts its `needs` states, and builds every
    file but the designer's report."""
    root = tmp_path / "designer"
    root.mkdir()
    result = pnp("new", SLUG, project=root)
    assert result.exit_code == 0, result.output + result.traceback
    assert written(root) == FILES - {SCENARIO, Path("rules") / MODULE / "__init__.py"}
    assert "pnp play" not in result.stdout
    game_yaml = (root / GAME / "game.yaml").read_text(encoding="utf-8")
    assert "rules:" not in game_yaml.replace("# ", "") and "needs:" in game_yaml

    result = pnp("validate", project=root)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == f"ok: {SLUG}"
    notes = [line for line in result.stderr.splitlines() if "note: no rules module checks" in line]
    assert len(notes) == 1 and notes[0].startswith(f"components/{SLUG}/game.yaml: rules: note:"), result.stderr

    result = pnp("simulate", SLUG, "--games", "1", project=root)
    assert result.exit_code == 2 and "has no rules module to play it" in result.stderr, result.output

    # a broken count and a note: the note is not counted as a problem
    (root / GAME / "game.yaml").write_text(game_yaml.replace("decks: {numbers: 12}", "decks: {numbers: 13}", 1),
                                           encoding="utf-8")
    result = pnp("validate", project=root)
    assert result.exit_code == 1, result.output
    assert "decks.numbers: rules need 13 cards in edition 'standard', data says 12" in result.stderr
    assert "1 problem(s) found." in result.stderr and "note: no rules module checks" in result.stderr
    (root / GAME / "game.yaml").write_text(game_yaml, encoding="utf-8")

    result = pnp("build", "--game", SLUG, "--paper", "a4", project=root)
    assert result.exit_code == 0, result.output + result.traceback
    kit = root / "output" / SLUG / "standard" / "en"
    built = {path.name.removeprefix(f"{SLUG}-standard-en-") for path in kit.iterdir()}
    assert built == {"cards-a4.pdf", "calibration-a4.pdf", "print-first-a4.pdf", "rules.pdf", "rules-imposed-a4.pdf",
                     "preview-numbers.png"}


@pytest.mark.parametrize("slug", ["My-Game", "9lives", "two--hyphens", "-lead", "trail-", "snake_case",
                                  "../escape", "a/b", "x" * 65, ""])
def test_a_bad_name_is_refused_and_nothing_written(tmp_path, slug):
    root = tmp_path / "designer"
    root.mkdir()
    result = pnp("new", "--", slug, project=root)       # "--": a name may start with a hyphen
    assert result.exit_code == 1, result.output
    assert f"'{slug}' is not a game name" in result.stderr and "Traceback" not in result.output
    assert list(root.iterdir()) == []


def test_a_game_or_rules_module_that_is_there_is_refused_and_left_alone(project):
    before = snapshot(project)
    result = pnp("new", "sample-game", project=project)
    assert result.exit_code == 1, result.output
    assert "components/sample-game already exists" in result.stderr
    assert snapshot(project) == before

    (project / "rules" / f"{MODULE}.py").write_text("# the designer's own\n", encoding="utf-8")
    before = snapshot(project)
    result = pnp("new", SLUG, "--rules", project=project)
    assert result.exit_code == 1, result.output
    assert f"rules/{MODULE}.py already exists" in result.stderr
    assert snapshot(project) == before and not (project / GAME).exists()


def test_a_scaffold_that_does_not_validate_leaves_nothing_behind(tmp_path, monkeypatch):
    """The new game is validated before `pnp new` succeeds: its rules and its data must agree."""
    scaffold = tmp_path / "scaffold"
    shutil.copytree(new_command.SCAFFOLD, scaffold)
    cards = scaffold / "game" / "cards.yaml.j2"
    text = cards.read_text(encoding="utf-8")
    assert 'n1: {deck: numbers, name: "1", value: 1, colour: "#3A61C4", count: {standard: 1}}' in text
    cards.write_text(text.replace("count: {standard: 1}}", "count: {standard: 2}}", 1), encoding="utf-8")
    monkeypatch.setattr(new_command, "SCAFFOLD", scaffold)
    root = tmp_path / "designer"
    root.mkdir()
    result = pnp("new", SLUG, "--rules", project=root)
    assert result.exit_code == 1, result.output
    assert f"components/{SLUG}/cards.yaml:" in result.stderr and "rules need 1, data says 2" in result.stderr
    assert list(root.iterdir()) == []
    # a game of YAML alone holds its deck's size as its game.yaml's `needs` states it
    result = pnp("new", SLUG, project=root)
    assert result.exit_code == 1, result.output
    assert f"components/{SLUG}/cards.yaml:" in result.stderr
    assert "decks.numbers: rules need 12 cards in edition 'standard', data says 13" in result.stderr
    assert list(root.iterdir()) == []


def test_no_file_is_written_through_a_link_out_of_the_project(tmp_path):
    root, elsewhere = tmp_path / "designer", tmp_path / "elsewhere"
    root.mkdir()
    elsewhere.mkdir()
    (root / "rules").symlink_to(elsewhere, target_is_directory=True)
    result = pnp("new", SLUG, "--rules", project=root)
    assert result.exit_code == 1, result.output
    assert "rules is not a folder of the project" in result.stderr
    assert list(elsewhere.iterdir()) == [] and not (root / "components").exists()
