"""The designer's report: `pnp build` writes one per edition, with plots from seeded
simulation, Cyrillic in embedded TrueType fonts, and the same bytes from every build."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from pypdf import PdfReader

from conftest import pnp, replace_in
from generator import report
from generator.project import Project
from generator.report import make_report
from generator.rules import load_rules

ROOT = Path(__file__).resolve().parent.parent
SLUG = "race-to-the-table"
REPORT = f"{SLUG}/full/{SLUG}-full-report.pdf"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("out")
    result = pnp("build", "--game", SLUG, "--edition", "full", "--locale", "bg", "--paper", "a4", "--out", str(out))
    assert result.exit_code == 0, result.output + result.traceback
    return out


def test_build_writes_the_report_into_the_manifest(built):
    entries = {e["path"]: e for e in json.loads((built / "manifest.json").read_text(encoding="utf-8"))["files"]}
    entry = entries[REPORT]
    assert entry["kind"] == "report" and entry["edition"] == "full" and entry["locale"] == ""
    assert entry["pages"] == 5 and entry["games"] > 1000
    assert (built / REPORT).read_bytes()[:5] == b"%PDF-"


def test_report_shows_the_simulation_in_cyrillic_with_embedded_fonts(built):
    reader = PdfReader(built / REPORT)
    assert len(reader.pages) == 5
    text = "\n".join(page.extract_text() for page in reader.pages)
    for needle in ("Надпревара до масата", "Пълно издание", "Бързо!", "Клюкарката", "Seat win rates",
                   "How games end", "Game length", "policy greedy"):
        assert needle in text, needle
    fonts = set()
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            assert font["/Subtype"] != "/Type3"
            descriptor = font.get("/FontDescriptor") or font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
            assert "/FontFile2" in descriptor.get_object(), font["/BaseFont"]
            fonts.add(str(font["/BaseFont"]))
    assert any("NotoSans" in name for name in fonts)
    assert "/CreationDate" not in reader.metadata


def test_report_is_byte_identical_from_another_process(built):
    code = ("import sys; from pathlib import Path; from generator.project import Project; "
            "from generator.build import load_games; from generator.report import make_report; "
            "p = Project(Path(sys.argv[1])); g = load_games(p, 'race-to-the-table')[0]; "
            "sys.stdout.buffer.write(make_report(p, g, 'full').data)")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    fresh = subprocess.run([sys.executable, "-c", code, str(ROOT)], capture_output=True, env=env, check=True).stdout
    assert fresh == (built / REPORT).read_bytes()


def test_no_engine_no_report():
    game = SimpleNamespace(rules=SimpleNamespace(), slug="no-engine")
    assert make_report(None, game, "standard") is None


@pytest.fixture
def quick_reports(monkeypatch):
    """Reports from a few games: what is checked here is which report comes back."""
    monkeypatch.setattr(report, "REPORT_GAMES", 6)
    monkeypatch.setattr(report, "REPORT_GAMES_OTHER", 2)


def _report(root: Path, slug: str = "the-game"):
    """The report of data loaded without validation (a changed hand size breaks a rules fact)."""
    project = Project(root)
    game, problems = project.load_game(slug)
    assert not problems
    game.rules = load_rules(game.meta["rules"])
    return make_report(project, game, game.editions[0])


def test_changed_components_give_a_new_report_in_the_same_process(quick_reports, project):
    first = _report(ROOT)
    assert first.details["games"] == 5 * 6 + 5 * 2
    replace_in(project / "components" / "the-game" / "game.yaml", '  "1": 8\n', '  "1": 7\n')
    changed = _report(project)
    assert changed.data != first.data
    assert _report(ROOT).data == first.data


def test_other_run_settings_give_a_new_report_in_the_same_process(quick_reports, monkeypatch):
    first = _report(ROOT)
    monkeypatch.setattr(report, "REPORT_GAMES", 7)
    again = _report(ROOT)
    assert again.details["games"] == 5 * 7 + 5 * 2 and again.data != first.data
