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
import pypdfium2
import pytest
import yaml
from babel.messages.pofile import read_po
from babel.numbers import get_decimal_symbol

from conftest import pnp, replace_in
from generator.core.errors import DataError
from generator.load.project import Project
from generator.render import report
from generator.render.report import make_report
from generator.rules import load_rules


ROOT = Path(__file__).resolve().parent.parent
SLUG = "race-to-the-table"
# The report's mechanism is read on a small game with an engine and five locales.
GAME, EDITION, LOCALES = "the-game", "standard", ("bg", "cs", "en", "ru", "uk")
# A few games per player count (of the first policy, of each other one): what is checked here
# does not depend on how many; The Game has five player counts and two policies.
FEW_GAMES = (6, 2)
FEW_PLAYED = 5 * FEW_GAMES[0] + 5 * FEW_GAMES[1]
WORDS = yaml.safe_load((ROOT / "templates" / "sheets" / "report.yaml").read_text(encoding="utf-8"))["text"]


def catalog_words(locale: str) -> dict[str, str]:
    """The report's words as the tool's catalog of `locale` has them (English: the source)."""
    if locale == "en":
        source = {key: value for key, value in WORDS.items() if isinstance(value, str)}
        return {**source, **{f"policies.{key}": value for key, value in WORDS["policies"].items()}}
    with (ROOT / "templates" / "locales" / f"{locale}.po").open("rb") as stream:
        catalog = read_po(stream, locale=locale)
    prefix = "sheets.report.text."
    return {m.context[len(prefix):]: m.string for m in catalog if (m.context or "").startswith(prefix)}


def yaml_of(slug: str, name: str) -> dict:
    return yaml.safe_load((ROOT / "components" / slug / name).read_text(encoding="utf-8"))


def game_words(slug: str, locale: str, keys: dict[str, str]) -> dict[str, str]:
    """What the game's data says at each key path ("title": its game.yaml value, in the source
    locale) in `locale`: game.yaml in the source locale, else the game's catalog, where every
    one of them is translated."""
    if locale == yaml_of(slug, "game.yaml")["source_locale"]:
        return dict(keys)
    with (ROOT / "components" / slug / "locales" / f"{locale}.po").open("rb") as stream:
        catalog = {m.context: m for m in read_po(stream, locale=locale) if m.context in keys}
    assert set(catalog) == set(keys), locale
    assert all(m.string and not m.fuzzy and m.id == keys[key] for key, m in catalog.items()), locale
    return {key: m.string for key, m in catalog.items()}


def pdfium_text(data: bytes) -> str:
    """The report's text as PDFium reads it, every run of spaces and line breaks one space
    (a long table heading wraps)."""
    document = pypdfium2.PdfDocument(data)
    text = " ".join(page.get_textpage().get_text_range() for page in document)
    return " ".join(text.split())


def built_report(out: Path, locale: str) -> Path:
    return out / GAME / EDITION / locale / f"{GAME}-{EDITION}-{locale}-report.pdf"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The Game's reports in every locale, as `pnp build --kind report` writes them, from a few
    games: the build tests/test_accessible_pdfs.py makes too, so a test session makes it once
    (its cache keeps it)."""
    out = tmp_path_factory.mktemp("out")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(report, "REPORT_GAMES", FEW_GAMES[0])
        patch.setattr(report, "REPORT_GAMES_OTHER", FEW_GAMES[1])
        result = pnp("build", "--game", GAME, "--edition", EDITION, "--kind", "report", "--paper", "a4",
                     "--out", str(out))
    assert result.exit_code == 0, result.output + result.traceback
    return out


def test_build_writes_each_locales_report_into_the_manifest(built):
    entries = {e["path"]: e for e in json.loads((built / "manifest.json").read_text(encoding="utf-8"))["files"]}
    assert set(entries) == {built_report(built, locale).relative_to(built).as_posix() for locale in LOCALES}
    for locale in LOCALES:
        path = built_report(built, locale)
        entry = entries[path.relative_to(built).as_posix()]
        assert (entry["kind"], entry["edition"], entry["locale"]) == ("report", EDITION, locale)
        assert entry["pages"] == 5 and entry["games"] == FEW_PLAYED          # the games played, in each
        assert path.read_bytes()[:5] == b"%PDF-"


@pytest.mark.parametrize("locale", LOCALES)
def test_each_locale_has_its_words_and_numbers_in_embedded_fonts(built, locale):
    data = built_report(built, locale).read_bytes()
    text = pdfium_text(data)
    words = catalog_words(locale)
    for word in ("players", "best_seat", "worst_seat", "share_of_games", "endings_title"):
        assert words[word] in text, (locale, word)
    for heading in ("subtitle", "numbers_title", "seats_title"):
        assert words[heading].split(":")[0].split("(")[0].strip() in text, (locale, heading)
    for policy in ("random", "heuristic"):
        assert words["policy"].format(policy=words[f"policies.{policy}"]) in text, (locale, policy)
    # Only the locale's words: no other locale's, English's included.
    for other in set(LOCALES) - {locale}:
        theirs = catalog_words(other)
        for word in ("endings_title", "share_of_games"):
            assert theirs[word] not in text, (locale, other, word)
    # The game's own words in the locale, from its data and catalogs.
    meta = yaml_of(GAME, "game.yaml")
    edition = f"editions.{EDITION}.name"
    own = game_words(GAME, locale, {"title": meta["title"], edition: meta["editions"][EDITION]["name"]})
    assert f"{own['title']} — {own[edition]}" in text, (locale, own)
    # Numbers as the locale writes them: its decimal sign, never the other one.
    sign = get_decimal_symbol(locale)
    assert re.search(rf"\d{re.escape(sign)}\d", text), locale
    assert not re.search(rf"\d{re.escape('.' if sign == ',' else ',')}\d", text), locale
    # Tagged in the locale's language; every font embedded TrueType (Cyrillic too), Noto Sans.
    pdf = pikepdf.open(io.BytesIO(data))
    assert str(pdf.Root.Lang) == locale
    fonts = set()
    for page in pdf.pages:
        for font in page.obj.Resources.Font.values():
            assert font.Subtype != "/Type3"
            descriptor = font.get("/FontDescriptor") or font.DescendantFonts[0].FontDescriptor
            assert "/FontFile2" in descriptor, font.BaseFont
            fonts.add(str(font.BaseFont))
    assert any("NotoSans" in name.replace("-", "") for name in fonts)
    assert "/CreationDate" not in pdf.docinfo


def test_report_is_byte_identical_from_another_process(built):
    code = ("import sys; from pathlib import Path; from generator.load.project import Project; "
            "from generator.rules import load_rules; from generator.render import report; "
            f"report.REPORT_GAMES, report.REPORT_GAMES_OTHER = {FEW_GAMES}; "
            f"p = Project(Path(sys.argv[1])); g, problems = p.load_game({GAME!r}); assert not problems; "
            "g.rules = load_rules(g.meta['rules']); "
            f"sys.stdout.buffer.write(report.make_report(p, g, {EDITION!r}, locale='bg').data)")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    fresh = subprocess.run([sys.executable, "-c", code, str(ROOT)], capture_output=True, env=env, check=True).stdout
    assert fresh == built_report(built, "bg").read_bytes()


def test_no_engine_no_report():
    game = SimpleNamespace(rules=SimpleNamespace(), slug="no-engine")
    assert make_report(None, game, "standard") is None


@pytest.fixture
def quick_reports(monkeypatch):
    """Reports from a few games: what is checked here is which report comes back."""
    monkeypatch.setattr(report, "REPORT_GAMES", FEW_GAMES[0])
    monkeypatch.setattr(report, "REPORT_GAMES_OTHER", FEW_GAMES[1])


def _report(root: Path, slug: str = GAME):
    """The report of data loaded without validation (a changed hand size breaks a rules fact)."""
    project = Project(root)
    game, problems = project.load_game(slug)
    assert not problems
    game.rules = load_rules(game.meta["rules"])
    return make_report(project, game, game.editions[0])


def test_changed_components_give_a_new_report_in_the_same_process(quick_reports, project):
    first = _report(ROOT)
    assert first.details["games"] == FEW_PLAYED
    replace_in(project / "components" / "the-game" / "game.yaml", '  "1": 8\n', '  "1": 7\n')
    changed = _report(project)
    assert changed.data != first.data
    assert _report(ROOT).data == first.data


class _Drawn(Exception):
    """Raised in place of drawing a report: what it would have been drawn with is enough."""


def test_other_run_settings_give_a_new_report_in_the_same_process(quick_reports, monkeypatch):
    assert _report(ROOT).details["games"] == FEW_PLAYED          # made, and kept by this process
    monkeypatch.setattr(report, "REPORT_GAMES", 7)
    drawn = []

    def draws(project, title, runs, figures, words):
        drawn.append(runs)
        raise _Drawn
    monkeypatch.setattr(report, "_render", draws)
    with pytest.raises(_Drawn):                # drawn again, not the report kept
        _report(ROOT)
    assert sum(run.tally.games for runs in drawn[0].values() for run in runs) == 5 * 7 + 5 * 2


def test_every_locale_draws_the_games_of_one_simulation(quick_reports, monkeypatch):
    """The games are played once per edition, whatever the number of locales: each locale's
    report is drawn from the very games the first one played."""
    project = Project(ROOT)
    game, problems = project.load_game(GAME)
    assert not problems
    game.rules = load_rules(game.meta["rules"])
    monkeypatch.setattr(report, "_RUNS", {})        # nothing played earlier in this process
    monkeypatch.setattr(report, "_REPORTS", {})
    played, drawn = [], {}
    simulate = report.simulate
    monkeypatch.setattr(report, "simulate", lambda *args, **kwargs: played.append(kwargs) or simulate(*args, **kwargs))

    def draws(project, title, runs, figures, words):
        drawn[words.locale] = runs
        raise _Drawn
    monkeypatch.setattr(report, "_render", draws)
    for locale in LOCALES:
        with pytest.raises(_Drawn):
            make_report(project, game, EDITION, locale=locale)
    engine = game.rules.ENGINE
    assert len(played) == len(game.rules.SPEC.tables) * len(engine.policies)      # one simulation
    assert set(drawn) == set(LOCALES)
    first = drawn[LOCALES[0]]
    assert sum(run.tally.games for runs in first.values() for run in runs) == FEW_PLAYED
    assert all(runs is first for runs in drawn.values())


def test_by_default_a_report_of_a_shipped_edition_is_made_of_over_a_thousand_games(monkeypatch):
    """The games the report of Race to the Table's full edition asks for, at every player count
    and of every policy (asked here, and one of each played)."""
    project = Project(ROOT)
    game, problems = project.load_game(SLUG)
    assert not problems
    game.rules = load_rules(game.meta["rules"])
    monkeypatch.setattr(report, "_RUNS", {})
    monkeypatch.setattr(report, "_REPORTS", {})
    asked = []
    simulate = report.simulate

    def one_game(*args, games, **kwargs):
        asked.append(games)
        return simulate(*args, games=1, **kwargs)
    monkeypatch.setattr(report, "simulate", one_game)

    def drawn(project, title, runs, figures, words):
        raise _Drawn
    monkeypatch.setattr(report, "_render", drawn)
    with pytest.raises(_Drawn):
        make_report(project, game, "full")
    assert len(asked) == len(game.rules.SPEC.tables) * len(game.rules.ENGINE.policies)
    assert sum(asked) > 1000


def game_figure_names(slug: str, locale: str) -> dict[str, str]:
    """What the game's data calls its figures in `locale`, by catalog key ("figures.turns.name"):
    game.yaml in the source locale, else the game's catalog."""
    source = {}
    for key, entry in yaml_of(slug, "game.yaml")["figures"].items():
        source[f"figures.{key}.name"] = entry["name"]
        for value, named in (entry.get("values") or {}).items():
            source[f"figures.{key}.values.{value}.name"] = named["name"]
    return game_words(slug, locale, source)


def test_every_locale_names_the_engine_figures_from_the_game_catalog(quick_reports, monkeypatch):
    """One locale is printed (a translation): the names are in the PDF's text. Every other
    locale's report is stopped where it would be drawn, and the names it would be drawn with
    are its catalog's, or game.yaml's in the source locale. So are the game's title and
    edition, and the cards its card use lists."""
    project = Project(ROOT)
    game, problems = project.load_game(SLUG)
    assert not problems
    game.rules = load_rules(game.meta["rules"])
    monkeypatch.setattr(report, "_REPORTS", {})     # each printed locale drawn here
    printed = {"en"}
    assert game.meta["source_locale"] not in printed, "the source locale's names are checked without printing"
    draw, drawn_with = report._render, {}

    def figures_then_draw(project, title, runs, figures, words):
        drawn_with[words.locale] = title, figures
        if words.locale not in printed:
            raise _Drawn
        return draw(project, title, runs, figures, words)
    monkeypatch.setattr(report, "_render", figures_then_draw)
    raw = {"ended_by", "rock_paper_scissors", "ended_by: clock", "ended_by: table"}
    cards = yaml_of(SLUG, "cards.yaml")["cards"]
    source = {"title": game.meta["title"], "editions.full.name": game.meta["editions"]["full"]["name"],
              **{f"cards.{card}.name": cards[card]["name"] for card in ("quick", "gossip")}}
    seen = {}
    for locale in game.meta["locales"]:
        names = game_figure_names(SLUG, locale)
        own = game_words(SLUG, locale, source)
        seen[locale] = names["figures.reshuffles.name"]
        if locale not in printed:
            with pytest.raises(_Drawn):
                make_report(project, game, "full", locale=locale)
            title, figures = drawn_with[locale]
            for key, name in names.items():
                parts = key.split(".")       # figures.KEY.name or figures.KEY.values.VALUE.name
                drawn = figures(parts[1]) if len(parts) == 3 else figures.value(parts[1], parts[3])
                assert drawn == name, (locale, key, drawn, name)
            assert title == f"{own['title']} — {own['editions.full.name']}", (locale, title)
            for card in ("quick", "gossip"):
                assert figures.components[card] == own[f"cards.{card}.name"], (locale, card)
            continue
        text = pdfium_text(make_report(project, game, "full", locale=locale).data)
        for key, name in {**names, **own}.items():
            assert name in text, (locale, key, name)
        # The endings as the report heads its columns and legends: the figure's name and the value's.
        for value in ("clock", "table"):
            heading = f"{names['figures.ended_by.name']}: {names[f'figures.ended_by.values.{value}.name']}"
            assert heading in text, (locale, heading)
        for key in raw:
            assert key not in text, (locale, key)
    assert set(drawn_with) == set(game.meta["locales"])
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
