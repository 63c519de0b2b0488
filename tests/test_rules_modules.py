"""Rules modules beyond the tool's own: a project's rules/ folder and installed `pnp.rules`
entry points, through `pnp`, built from the example in docs/rules-modules.md; a missing or
broken module is a located error on game.yaml's `rules:` line."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from conftest import ROOT, pnp

DOC = ROOT / "docs" / "rules-modules.md"
MODULE = "rules/take_away/__init__.py"
GAME_YAML = "components/take-away/game.yaml"
SCENARIO = "components/take-away/scenarios/last-stone.yaml"


def doc_files() -> dict[str, str]:
    """The example project's files: each code block whose first line is `# <path>`."""
    blocks = re.findall(r"```(?:yaml|python)\n# (\S+)\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    return {path: body for path, body in blocks}


@pytest.fixture
def designer(tmp_path) -> Path:
    """The project of the docs' example: components/take-away/ and rules/take_away/."""
    root = tmp_path / "designer"
    files = doc_files()
    assert set(files) == {GAME_YAML, "components/take-away/tokens.yaml", MODULE, SCENARIO}
    for path, body in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(body, encoding="utf-8")
    return root


def line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


def test_the_documented_project_validates_plays_and_simulates_with_its_own_rules(designer):
    result = pnp("validate", "take-away", project=designer)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "ok: take-away"
    result = pnp("play", "take-away", str(designer / SCENARIO), project=designer)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"left": 0, "current": None, "winner": "Ben"}
    result = pnp("simulate", "take-away", "--games", "30", "--json", project=designer)
    assert result.exit_code == 0, result.output
    runs = json.loads(result.stdout)["runs"]
    assert [run["players"] for run in runs] == [2, 3, 4] and all(run["games"] == 30 for run in runs)


def test_the_projects_module_is_what_checks_its_data(designer):
    """The stones the project's module needs are compared with its tokens.yaml."""
    module = designer / MODULE
    module.write_text(module.read_text(encoding="utf-8").replace("STONES, MOST = 15, 3", "STONES, MOST = 12, 3"),
                      encoding="utf-8")
    result = pnp("validate", "take-away", project=designer)
    assert result.exit_code == 1
    tokens = designer / "components/take-away/tokens.yaml"
    assert (f"components/take-away/tokens.yaml:{line_of(tokens, 'stone:')}: tokens.stone.count.standard: "
            f"rules need 12, data says 15") in result.stderr


def test_two_projects_with_a_module_of_the_same_name_keep_their_own(designer, tmp_path):
    other = tmp_path / "other"
    for path, body in doc_files().items():
        (other / path).parent.mkdir(parents=True, exist_ok=True)
        body = body.replace("STONES, MOST = 15, 3", "STONES, MOST = 12, 3").replace("standard: 15", "standard: 12")
        (other / path).write_text(body, encoding="utf-8")
    assert pnp("validate", "take-away", project=other).exit_code == 0
    assert pnp("validate", "take-away", project=designer).exit_code == 0
    result = pnp("simulate", "take-away", "--games", "1", "--players", "2", "--json", project=other)
    assert result.exit_code == 0


def _broken(designer: Path, old: str, new: str) -> tuple[str, int]:
    module = designer / MODULE
    text = module.read_text(encoding="utf-8")
    assert old in text
    module.write_text(text.replace(old, new, 1), encoding="utf-8")
    result = pnp("validate", "take-away", project=designer)
    assert result.exit_code == 1 and not result.traceback
    return result.stderr, line_of(designer / GAME_YAML, "rules:")


def test_a_module_that_fails_on_import_names_its_own_file_and_line(designer):
    stderr, line = _broken(designer, "STONES, MOST = 15, 3", "STONES, MOST = 15, THREE")
    at = line_of(designer / MODULE, "THREE")
    assert stderr == (f"{GAME_YAML}:{line}: rules: rules module 'take_away' ({MODULE}) failed to load: "
                      f"{MODULE}:{at}: NameError: name 'THREE' is not defined\n1 problem(s) found.\n")


def test_a_syntax_error_names_its_line(designer):
    stderr, line = _broken(designer, "STONES, MOST = 15, 3", "STONES, MOST = 15, 3)")
    at = line_of(designer / MODULE, "STONES, MOST = 15, 3)")
    assert f"{GAME_YAML}:{line}: rules: rules module 'take_away' ({MODULE}) failed to load: " \
           f"{MODULE}:{at}: SyntaxError: unmatched ')'" in stderr


def test_an_error_in_a_packages_own_module_names_that_module(designer):
    module = designer / MODULE
    state = module.parent / "state.py"
    state.write_text("from __future__ import annotations\n\nMOST = 3 / 0\n", encoding="utf-8")
    module.write_text(module.read_text(encoding="utf-8").replace("STONES, MOST = 15, 3",
                                                                 "from .state import MOST\nSTONES = 15"),
                      encoding="utf-8")
    result = pnp("validate", "take-away", project=designer)
    assert result.exit_code == 1
    assert "failed to load: rules/take_away/state.py:3: ZeroDivisionError: division by zero" in result.stderr


@pytest.mark.parametrize("old,new,message", [
    ("ENGINE = TakeAway()", "ENGINE = 3", "rules module 'take_away': ENGINE is not an instance of "
                                          "generator.rules.engine.Engine"),
    ("ENGINE = TakeAway()\n", "ENGINE = TakeAway()\ndel SPEC\n",
     "rules module 'take_away' has no SPEC (a generator.rules.spec.GameSpec)"),
    ("    def describe_action(self, state, action):\n        return {\"player\": state.names[state.seat], "
     "\"take\": action[1]}\n", "", f"rules module 'take_away' ({MODULE}) failed to load: {MODULE}:LINE: TypeError: "
     "Can't instantiate abstract class TakeAway with abstract method describe_action"),
])
def test_a_module_without_what_it_must_provide_is_refused(designer, old, new, message):
    stderr, line = _broken(designer, old, new)
    if "LINE" in message:
        message = message.replace("LINE", str(line_of(designer / MODULE, "ENGINE = TakeAway()")))
    assert stderr == f"{GAME_YAML}:{line}: rules: {message}\n1 problem(s) found.\n"


def test_a_missing_module_says_where_it_was_looked_for(designer):
    game = designer / GAME_YAML
    game.write_text(game.read_text(encoding="utf-8").replace("rules: take_away", "rules: take_aways"), encoding="utf-8")
    result = pnp("validate", "take-away", project=designer)
    assert result.exit_code == 1
    assert result.stderr == (f"{GAME_YAML}:2: rules: no rules module named 'take_aways' (looked in "
                             "rules/take_aways/ in the project, generator/rules/ and installed 'pnp.rules' "
                             "entry points)\n1 problem(s) found.\n")


def test_a_rules_folder_linking_out_of_the_project_is_refused_unrun(designer, tmp_path):
    outside = tmp_path / "elsewhere" / "take_away"
    outside.parent.mkdir()
    (designer / "rules" / "take_away").rename(outside)
    (outside / "__init__.py").write_text("raise SystemExit('this code must not run')\n", encoding="utf-8")
    (designer / "rules" / "take_away").symlink_to(outside, target_is_directory=True)
    result = pnp("validate", "take-away", project=designer)
    assert result.exit_code == 1
    assert (f"{GAME_YAML}:2: rules: rules module 'take_away' ({MODULE}): refused, rules/take_away is a link "
            "to a place outside the project") in result.stderr


def test_an_installed_package_brings_a_rules_module_by_entry_point(designer, tmp_path, monkeypatch):
    """A package on the path that registers `take_away` in `pnp.rules` is found when the project
    has no rules/ folder of that name; the project's own folder comes first."""
    site = tmp_path / "site"
    package = site / "take_away_installed"
    package.mkdir(parents=True)
    code = (designer / MODULE).read_text(encoding="utf-8")
    (package / "__init__.py").write_text(code.replace("STONES, MOST = 15, 3", "STONES, MOST = 12, 3"), encoding="utf-8")
    info = site / "take_away_installed-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: take-away-installed\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[pnp.rules]\ntake_away = take_away_installed\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.delitem(sys.modules, "take_away_installed", raising=False)
    assert pnp("validate", "take-away", project=designer).exit_code == 0          # the project's own, 15
    (designer / MODULE).unlink()
    (designer / MODULE).parent.rmdir()
    result = pnp("validate", "take-away", project=designer)
    assert result.exit_code == 1                                                  # the installed one, 12
    assert "tokens.stone.count.standard: rules need 12, data says 15" in result.stderr
    sys.modules.pop("take_away_installed", None)


def test_an_installed_package_does_not_replace_a_tools_rules_module(tmp_path, monkeypatch):
    """An installed package registering a name of the tool's own (`the_game`) is not what a game
    naming it gets: the tool's module comes first, and the package's code is never imported."""
    site = tmp_path / "site"
    (site / "the_game_elsewhere").mkdir(parents=True)
    (site / "the_game_elsewhere" / "__init__.py").write_text("raise SystemExit('this code must not run')\n",
                                                            encoding="utf-8")
    info = site / "the_game_elsewhere-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: the-game-elsewhere\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[pnp.rules]\nthe_game = the_game_elsewhere\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    result = pnp("simulate", "the-game", "--players", "3", "--games", "2", "--json", project=ROOT)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["runs"][0]["games"] == 2
    assert "the_game_elsewhere" not in sys.modules
