"""The designer's report: `pnp build` writes one per edition and locale, with plots from
seeded simulation, in the locale's words (the tool's catalogs) and numbers, Cyrillic in
embedded TrueType fonts, and the same bytes from every build."""
from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pikepdf
import pytest
import yaml
from babel.messages.pofile import read_po
from pypdf import PdfReader

from conftest import pnp, replace_in
from generator.core.errors import DataError
from generator.load.project import Project
from generator.render import report
from generator.render.report import make_report
from generator.rules import load_rules


ROOT = Path(__file__).resolve().parent.parent
SLUG = "race-to-the-table"
REPORT = f"{SLUG}/full/bg/{SLUG}-full-bg-report.pdf"
WORDS = yaml.safe_load((ROOT / "templates" / "sheets" / "report.yaml").read_text(encoding="utf-8"))["text"]


def catalog_words(locale: str) -> dict[str, str]:
    """The report's words as the tool's catalog of `locale` has them (English: the source)."""
    if locale == "en":
        return {key: value for key, value in WORDS.items() if isinstance(value, str)}
    with (ROOT / "templates" / "locales" / f"{locale}.po").open("rb") as stream:
        catalog = read_po(stream, locale=locale)
    prefix = "sheets.report.text."
    return {m.context[len(prefix):]: m.string for m in catalog if (m.context or "").startswith(prefix)}


def report_text(data: bytes) -> str:
    reader = PdfReader(io.BytesIO(data))
    return "\n".join(page.extract_text() for page in reader.pages)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("out")
    result = pnp("build", "--game", SLUG, "--edition", "full", "--locale", "bg", "--paper", "a4", "--out", str(out))
    assert result.exit_code == 0, result.output + result.traceback
    return out


def test_build_writes_the_report_into_the_manifest(built):
    entries = {e["path"]: e for e in json.loads((built / "manifest.json").read_text(encoding="utf-8"))["files"]}
    entry = entries[REPORT]
    assert entry["kind"] == "report" and entry["edition"] == "full" and entry["locale"] == "bg"
    assert entry["pages"] == 5 and entry["games"] > 1000
    assert (built / REPORT).read_bytes()[:5] == b"%PDF-"


def test_report_shows_the_simulation_in_cyrillic_with_embedded_fonts(built):
    reader = PdfReader(built / REPORT)
    assert len(reader.pages) == 5
    text = "\n".join(page.extract_text() for page in reader.pages)
    bg = catalog_words("bg")
    greedy = bg["policy"].format(policy=bg["policies.greedy"])
    for needle in ("Надпревара до масата", "Пълно издание", "Бързо!", "Клюкарката", bg["endings_title"],
                   bg["seats_title"].split("(")[0].strip(), bg["numbers_title"].split("(")[0].strip(), greedy,
                   bg["best_seat"], bg["share_of_games"]):
        assert needle in text, needle
    for english in ("Seat win rates", "How games end", "Game length", "policy greedy", "share of games"):
        assert english not in text, english
    # Numbers as Bulgarian writes them: a decimal comma, never a point.
    assert re.search(r"\d,\d", text) and not re.search(r"\d\.\d", text)
    assert str(pikepdf.open(built / REPORT).Root.Lang) == "bg"
    fonts = set()
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            assert font["/Subtype"] != "/Type3"
            descriptor = font.get("/FontDescriptor") or font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
            assert "/FontFile2" in descriptor.get_object(), font["/BaseFont"]
            fonts.add(str(font["/BaseFont"]))
    assert any("NotoSans" in name.replace("-", "") for name in fonts)
    assert "/CreationDate" not in reader.metadata


def test_report_is_byte_identical_from_another_process(built):
    code = ("import sys; from pathlib import Path; from generator.load.project import Project; "
            "from generator.app.loading import load_games; from generator.render.report import make_report; "
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


def test_each_locale_has_its_words_and_numbers_from_one_simulation(quick_reports, monkeypatch):
    project = Project(ROOT)
    game, problems = project.load_game("the-game")
    assert not problems
    game.rules = load_rules(game.meta["rules"])
    report._REPORTS.clear()
    made = {"cs": make_report(project, game, "standard", locale="cs")}
    # The other locales draw the games the first one played.
    monkeypatch.setattr(report, "simulate", lambda *args, **kwargs: pytest.fail("the games were played again"))
    for locale in ("en", "uk"):
        made[locale] = make_report(project, game, "standard", locale=locale)
    for locale, artifact in made.items():
        assert artifact.path == f"the-game/standard/{locale}/the-game-standard-{locale}-report.pdf"
        assert artifact.locale == locale and artifact.details["games"] == made["cs"].details["games"]
        text = report_text(artifact.data)
        words = catalog_words(locale)
        for word in ("players", "best_seat", "share_of_games", "endings_title"):
            assert words[word] in text, (locale, word)
        assert words["subtitle"].split(":")[0] in text
        others = [catalog_words(other)["endings_title"] for other in made if other != locale]
        assert not any(other in text for other in others)
        # the game's own words in the locale: its title from the game's catalog
        assert artifact.data != made["cs"].data or locale == "cs"
    assert re.search(r"\d\.\d", report_text(made["en"].data))         # 4.1 turns
    assert not re.search(r"\d\.\d", report_text(made["cs"].data))    # 4,1 tahu
    assert "Hraj, dokud můžeš" in report_text(made["cs"].data)
    assert "Play as long as you can" in report_text(made["en"].data)


def game_figure_names(slug: str, locale: str) -> dict[str, str]:
    """What the game's data calls its figures in `locale`, by catalog key ("figures.turns.name"):
    game.yaml in the source locale, else the game's catalog."""
    meta = yaml.safe_load((ROOT / "components" / slug / "game.yaml").read_text(encoding="utf-8"))
    source = {}
    for key, entry in meta["figures"].items():
        source[f"figures.{key}.name"] = entry["name"]
        for value, named in (entry.get("values") or {}).items():
            source[f"figures.{key}.values.{value}.name"] = named["name"]
    if locale == meta["source_locale"]:
        return source
    with (ROOT / "components" / slug / "locales" / f"{locale}.po").open("rb") as stream:
        catalog = {m.context: m for m in read_po(stream, locale=locale) if m.context in source}
    assert set(catalog) == set(source), locale
    assert all(m.string and not m.fuzzy and m.id == source[key] for key, m in catalog.items()), locale
    return {key: m.string for key, m in catalog.items()}


def pdfium_text(data: bytes) -> str:
    """The report's text as PDFium reads it, every run of spaces and line breaks one space
    (a long table heading wraps)."""
    import pypdfium2
    document = pypdfium2.PdfDocument(data)
    text = " ".join(page.get_textpage().get_text_range() for page in document)
    return " ".join(text.split())


class _Drawn(Exception):
    """Raised in place of drawing a report: what it would have been drawn with is enough."""


def test_every_locale_names_the_engine_figures_from_the_game_catalog(quick_reports, monkeypatch):
    """Two locales are printed (the source, named in game.yaml, and a translation): the names
    are in the PDF's text. Every other locale's report is stopped where it would be drawn, and
    the names it would be drawn with are its catalog's."""
    project = Project(ROOT)
    game, problems = project.load_game(SLUG)
    assert not problems
    game.rules = load_rules(game.meta["rules"])
    report._REPORTS.clear()
    printed = {game.meta["source_locale"], "en"}
    assert set(game.meta["locales"]) - printed, "no locale is left to check without printing"
    draw, figures_of = report._render, {}

    def figures_then_draw(project, title, runs, figures, words):
        figures_of[words.locale] = figures
        if words.locale not in printed:
            raise _Drawn
        return draw(project, title, runs, figures, words)
    monkeypatch.setattr(report, "_render", figures_then_draw)
    raw = {"ended_by", "rock_paper_scissors", "ended_by: clock", "ended_by: table"}
    seen = {}
    for locale in game.meta["locales"]:
        names = game_figure_names(SLUG, locale)
        seen[locale] = names["figures.reshuffles.name"]
        if locale not in printed:
            with pytest.raises(_Drawn):
                make_report(project, game, "full", locale=locale)
            figures = figures_of[locale]
            for key, name in names.items():
                parts = key.split(".")       # figures.KEY.name or figures.KEY.values.VALUE.name
                drawn = figures(parts[1]) if len(parts) == 3 else figures.value(parts[1], parts[3])
                assert drawn == name, (locale, key, drawn, name)
            continue
        text = pdfium_text(make_report(project, game, "full", locale=locale).data)
        for key, name in names.items():
            assert name in text, (locale, key, name)
        # The endings as the report heads its columns and legends: the figure's name and the value's.
        for value in ("clock", "table"):
            heading = f"{names['figures.ended_by.name']}: {names[f'figures.ended_by.values.{value}.name']}"
            assert heading in text, (locale, heading)
        for key in raw:
            assert key not in text, (locale, key)
    assert set(figures_of) == set(game.meta["locales"])
    # Each locale's own words, not one language for all.
    assert len(set(seen.values())) == len(seen)


def test_a_figure_without_a_name_is_a_problem_naming_game_yaml_and_the_key(project, quick_reports):
    game_yaml = project / "components" / "the-game" / "game.yaml"
    replace_in(game_yaml, "  cards_left: {name: Zbylé karty}\n", "")
    replace_in(game_yaml, "      lost: {name: prohra}\n", "")
    expected = {"figures.cards_left", "figures.result.values.lost"}
    # pnp validate: the games it plays report both
    result = pnp("validate", "the-game", project=project)
    assert result.exit_code != 0
    found = [line for line in result.output.splitlines() if "figures." in line]
    assert {key for key in expected if any(key in line for line in found)} == expected, result.output
    assert all("components/the-game/game.yaml" in line for line in found), found
    # the build's report: never a raw key in print
    report._REPORTS.clear()
    with pytest.raises(DataError) as raised:
        _report(project)
    problems = {problem.key: problem for problem in raised.value.problems}
    assert set(problems) == expected
    assert all(problem.file.endswith("components/the-game/game.yaml") and problem.line > 0
               for problem in problems.values())
    assert "'cards_left'" in problems["figures.cards_left"].message
    assert "'lost'" in problems["figures.result.values.lost"].message


def test_an_unknown_key_under_figures_is_a_schema_problem(project):
    replace_in(project / "components" / "the-game" / "game.yaml", "  turns: {name: Tahy}\n",
               "  turns: {name: Tahy, label: Tahy}\n")
    result = pnp("validate", "the-game", project=project)
    assert result.exit_code != 0
    assert any("game.yaml" in line and "figures.turns" in line and "label" in line
               for line in result.output.splitlines()), result.output


def test_a_mistake_in_the_report_template_is_a_problem_at_its_line(project):
    template = project / "templates" / "report" / "report.html.j2"
    replace_in(template, "{{ report.subtitle }}", "{{ reprt.subtitle }}")
    line = next(number for number, text in enumerate(template.read_text(encoding="utf-8").splitlines(), start=1)
                if "reprt" in text)
    result = pnp("validate", "the-game", project=project)
    assert result.exit_code != 0
    assert f"templates/report/report.html.j2:{line}: reprt: 'reprt' is undefined (a report template has report, " \
           f"fonts, stylesheet" in result.output, result.output
