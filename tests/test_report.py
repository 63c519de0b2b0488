"""The designer's report: `pnp build` writes one per edition and locale, with plots from
seeded simulation, in the locale's words (the tool's catalogs) and numbers, Cyrillic in
embedded TrueType fonts, and the same bytes from every build. Read on the translated sample
(its engine, "Raid the Coins", and its `ru` catalog naming the game and its figures in Russian);
the games a shipped edition's report is made of are read in that game's folder under tests/games/."""
from __future__ import annotations

import io
import json
import os
import re
import shutil
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

from conftest import ROOT, SAMPLE, build_reports, pnp, project_copy, replace_in, reported_sample
from generator.app.loading import load_games
from generator.core.errors import DataError
from generator.i18n import typography
from generator.load.project import Project
from generator.render import report
from generator.render.report import make_report
from generator.rules.claims import claims_teams_play_as_seats
from generator.rules.simulate import play_games, simulate, wilson_interval


ROOT = Path(__file__).resolve().parent.parent
GAME, EDITION, LOCALES = "sample-game", "standard", ("en", "ru")
# Every locale the tool has words for: a report prints its own locale's and no other's.
TOOL_LOCALES = ("en", *sorted(path.stem for path in (ROOT / "templates" / "locales").glob("*.po")))
PAGES = 6            # the summaries, the figures, the endings, the seats, their intervals, the cards taken
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


def yaml_of(project: Path, name: str) -> dict:
    return yaml.safe_load((project / "components" / GAME / name).read_text(encoding="utf-8"))


def game_words(project: Path, locale: str, keys: dict[str, str]) -> dict[str, str]:
    """What the game's data says at each key path ("title": its game.yaml value, in the source
    locale) in `locale`: game.yaml in the source locale, else the game's catalog, where every
    one of them is translated."""
    if locale == yaml_of(project, "game.yaml")["source_locale"]:
        return dict(keys)
    with (project / "components" / GAME / "locales" / f"{locale}.po").open("rb") as stream:
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


def loaded(project: Path):
    """(Project, the sample game with its rules) as a build loads them."""
    loaded_project = Project(project)
    return loaded_project, load_games(loaded_project, GAME, texts=False)[0]


def games_played(game) -> int:
    """The games the engine's report plays: its first policy's at each table (batches of its
    first report_games until every seat's win rate is known within ±3 points, found here by
    `first_policy_games`; tests/test_report_batches.py checks the batches), then the others'."""
    other = game.rules.ENGINE.report_games[1]
    tables = len(game.rules.SPEC.tables)
    return sum(first_policy_games(game)) + tables * other * (len(game.rules.ENGINE.policies) - 1)


def first_policy_games(game) -> list[int]:
    """At each table, the fewest whole batches of the first policy's games after which every
    seat's 95 % Wilson interval is at most ±0.03: the games played one by one with the plain
    simulator (game i of a seed is the same game in every run), their wins summed batch by batch."""
    engine = game.rules.ENGINE
    batch = engine.report_games[0]
    policy = next(iter(engine.policies))
    key = (game.slug, batch, policy, tuple(game.rules.SPEC.tables))
    if key not in _FIRST_POLICY_GAMES:
        components = engine.components(game, EDITION)
        counts = []
        for players in game.rules.SPEC.tables:
            games = 0
            wins: list[float] = []
            while True:
                for returns, _stats, _actions in play_games(engine, components, players=players, edition=EDITION,
                                                            seed=0, start=games, stop=games + batch, policy=policy):
                    wins = [a + b for a, b in zip(wins, returns)] if wins else list(returns)
                games += batch
                if max((high - low) / 2 for low, high in (wilson_interval(w, games) for w in wins)) <= 0.03:
                    break
            counts.append(games)
        _FIRST_POLICY_GAMES[key] = counts
    return _FIRST_POLICY_GAMES[key]


_FIRST_POLICY_GAMES: dict = {}


@pytest.fixture(scope="module")
def reported(tmp_path_factory) -> Path:
    """The reported sample project (conftest `reported_sample`), made once a module: tests change copies."""
    return reported_sample(tmp_path_factory.mktemp("reported"))


@pytest.fixture
def project(reported, tmp_path) -> Path:
    """A copy of the reported sample that a test may change."""
    return project_copy(reported, tmp_path)


@pytest.fixture(scope="module")
def built(reported, tmp_path_factory) -> Path:
    """The sample's reports in every locale, as `pnp build --kind report` writes them: the
    build tests/test_accessible_pdfs.py makes too, so a test session plays its games once."""
    return build_reports(reported, tmp_path_factory.mktemp("out"))


def test_build_writes_each_locales_report_into_the_manifest(built, reported):
    entries = {e["path"]: e for e in json.loads((built / "manifest.json").read_text(encoding="utf-8"))["files"]}
    assert set(entries) == {built_report(built, locale).relative_to(built).as_posix() for locale in LOCALES}
    played = games_played(loaded(reported)[1])
    for locale in LOCALES:
        path = built_report(built, locale)
        entry = entries[path.relative_to(built).as_posix()]
        assert (entry["kind"], entry["edition"], entry["locale"]) == ("report", EDITION, locale)
        assert entry["pages"] == PAGES and entry["games"] == played          # the games played, in each
        assert path.read_bytes()[:5] == b"%PDF-"


@pytest.mark.parametrize("locale", LOCALES)
def test_each_locale_has_its_words_and_numbers_in_embedded_fonts(built, reported, locale):
    data = built_report(built, locale).read_bytes()
    text = pdfium_text(data)
    words = catalog_words(locale)
    for word in ("players", "best_seat", "worst_seat", "share_of_games", "endings_title"):
        assert words[word] in text, (locale, word)
    for heading in ("subtitle", "numbers_title", "seats_title"):
        assert words[heading].split(":")[0].split("(")[0].strip() in text, (locale, heading)
    for policy in ("random", "heuristic"):
        assert words["policy"].format(policy=words[f"policies.{policy}"]) in text, (locale, policy)
    # Only the locale's words: no other locale's the tool has, English's included.
    for other in set(TOOL_LOCALES) - {locale}:
        theirs = catalog_words(other)
        for word in ("endings_title", "share_of_games"):
            assert theirs[word] not in text, (locale, other, word)
    # The game's own words in the locale, from its data and catalogs.
    meta = yaml_of(reported, "game.yaml")
    edition = f"editions.{EDITION}.name"
    own = game_words(reported, locale, {"title": meta["title"], edition: meta["editions"][EDITION]["name"]})
    assert f"{own['title']} — {own[edition]}" in text, (locale, own)
    # Numbers as the locale writes them: its decimal sign, never the other one.
    sign = get_decimal_symbol(locale)
    assert re.search(rf"\d{re.escape(sign)}\d", text), locale
    # (a comma before three digits that end the number groups thousands in English: 1,080 games)
    assert not re.search(rf"\d{re.escape('.' if sign == ',' else ',')}(?!\d{{3}}(?!\d))\d", text), locale
    # An empty table cell (the sample's tables have some) shows an en dash, or in Russian an em
    # dash, where a spaced en dash would read as one between clauses.
    lone_en_dash = re.search(r"(?<!\S)–(?!\S)", text)
    assert bool(lone_en_dash) != bool(typography.rules(locale).clause_dash), locale
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


def test_report_is_byte_identical_from_another_process(built, reported):
    code = ("import sys; from pathlib import Path; from generator.load.project import Project; "
            "from generator.app.loading import load_games; from generator.render import report; "
            f"p = Project(Path(sys.argv[1])); g = load_games(p, {GAME!r}, texts=False)[0]; "
            f"sys.stdout.buffer.write(report.make_report(p, g, {EDITION!r}, locale='ru').data)")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    fresh = subprocess.run([sys.executable, "-c", code, str(reported)], capture_output=True, env=env,
                           check=True).stdout
    assert fresh == built_report(built, "ru").read_bytes()


def test_no_engine_no_report():
    game = SimpleNamespace(rules=SimpleNamespace(), slug="no-engine")
    assert make_report(None, game, "standard") is None


def _report(root: Path):
    """The report of the sample game as a build loads it, in its source locale."""
    project, game = loaded(root)
    return make_report(project, game, EDITION)


def test_changed_components_give_a_new_report_in_the_same_process(reported, project):
    first = _report(reported)
    assert first.details["games"] == games_played(loaded(reported)[1])
    replace_in(project / "components" / GAME / "cards.yaml", "five: {name: Five, value: 5}",
               "five: {name: Five, value: 4}")
    changed = _report(project)
    assert changed.data != first.data
    assert _report(reported).data == first.data


class _Drawn(Exception):
    """Raised in place of drawing a report: what it would have been drawn with is enough."""


def test_other_run_settings_give_a_new_report_in_the_same_process(reported, monkeypatch):
    project, game = loaded(reported)
    assert make_report(project, game, EDITION).details["games"] == games_played(game)    # made, and kept
    drawn = []

    def draws(project, title, runs, figures, words):
        drawn.append(runs)
        raise _Drawn
    monkeypatch.setattr(report, "_render", draws)
    monkeypatch.setattr(game.rules.ENGINE, "report_games", (7, 2))
    with pytest.raises(_Drawn):                # drawn again, not the report kept
        make_report(project, game, EDITION)
    first, other = drawn[0].values()
    assert [run.tally.games for run in other] == [2] * len(game.rules.SPEC.tables)
    # the first policy in batches of 7, until its seats' win rates are known within ±3 points
    assert all(run.tally.games % 7 == 0 and run.tally.widest_win_interval() <= 0.03 for run in first)


def test_every_locale_draws_the_games_of_one_simulation(reported, monkeypatch):
    """The games are played once per edition, whatever the number of locales: each locale's
    report is drawn from the very games the first one played."""
    project, game = loaded(reported)
    monkeypatch.setattr(report, "_RUNS", {})        # nothing played earlier in this process
    monkeypatch.setattr(report, "_REPORTS", {})
    played, drawn = [], {}
    simulate = report.simulate
    monkeypatch.setattr(report, "simulate", lambda *args, **kwargs: played.append(kwargs) or simulate(*args, **kwargs))

    def draws(project, title, runs, figures, words):
        drawn[words.locale] = runs
        raise _Drawn
    monkeypatch.setattr(report, "_render", draws)
    assert set(game.locales) == set(LOCALES)
    for locale in LOCALES:
        with pytest.raises(_Drawn):
            make_report(project, game, EDITION, locale=locale)
    engine = game.rules.ENGINE
    assert len(played) == len(game.rules.SPEC.tables) * len(engine.policies)      # one simulation
    assert set(drawn) == set(LOCALES)
    first = drawn[LOCALES[0]]
    assert sum(run.tally.games for runs in first.values() for run in runs) == games_played(game)
    assert all(runs is first for runs in drawn.values())


def test_a_report_built_alone_plays_its_games_on_every_core_the_build_may_use(reported, tmp_path, monkeypatch):
    """`pnp build --kind report` of one game is one unit, run in the build's own process: its
    games are played in worker processes (--jobs 2), the same games as in one (--jobs 1), so
    the same bytes; a build running its units in worker processes plays each report's games in
    that worker (a test of the units: tests/test_simulate_jobs.py checks the games)."""
    from generator.rules.simulate import Workers
    monkeypatch.setattr(report, "_RUNS", {})
    monkeypatch.setattr(report, "_REPORTS", {})
    started = []
    executor = Workers._executor
    monkeypatch.setattr(Workers, "_executor", lambda self: started.append(self.jobs) or executor(self))
    made = {}
    for jobs in ("1", "2"):
        report._RUNS.clear()
        report._REPORTS.clear()
        out = tmp_path / f"jobs-{jobs}"
        result = pnp("build", "--game", GAME, "--kind", "report", "--paper", "a4", "--no-cache", "--jobs", jobs,
                     "--out", str(out), project=reported)
        assert result.exit_code == 0, result.output + result.traceback
        made[jobs] = {locale: built_report(out, locale).read_bytes() for locale in LOCALES}
        assert bool(started) == (jobs == "2") and set(started) <= {2}, (jobs, started)
    assert made["1"] == made["2"]


@pytest.mark.parametrize("engine_games", [(), (3, 1)])
def test_a_report_asks_for_the_engines_games_else_the_tools(reported, monkeypatch, engine_games):
    """The games the report asks for at every player count and of every policy: the engine's
    own report_games where it has them, else the tool's default (asked here, one of each played)."""
    project, game = loaded(reported)
    monkeypatch.setattr(game.rules.ENGINE, "report_games", engine_games)
    monkeypatch.setattr(report, "_RUNS", {})
    monkeypatch.setattr(report, "_REPORTS", {})
    asked = []
    simulate = report.simulate

    def one_game(*args, games, policy, **kwargs):
        asked.append((policy, games, kwargs.get("batch")))
        return simulate(*args, games=1, policy=policy, **kwargs)
    monkeypatch.setattr(report, "simulate", one_game)

    def drawn(project, title, runs, figures, words):
        raise _Drawn
    monkeypatch.setattr(report, "_render", drawn)
    with pytest.raises(_Drawn):
        make_report(project, game, EDITION)
    first, other = engine_games or (report.REPORT_GAMES, report.REPORT_GAMES_OTHER)
    tables = len(game.rules.SPEC.tables)
    # the first policy in batches of its games, up to the most that ±3 points can need
    most = -(-1064 // first) * first
    assert asked == [("random", most, first)] * tables + [("heuristic", other, None)] * tables


def game_figure_names(project: Path, locale: str) -> dict[str, str]:
    """What the game's data calls its figures in `locale`, by catalog key ("figures.raids.name"):
    game.yaml in the source locale, else the game's catalog."""
    source = {}
    for key, entry in yaml_of(project, "game.yaml")["figures"].items():
        source[f"figures.{key}.name"] = entry["name"]
        for value, named in (entry.get("values") or {}).items():
            source[f"figures.{key}.values.{value}.name"] = named["name"]
    return game_words(project, locale, source)


def test_every_locale_names_the_engine_figures_from_the_game_catalog(reported, monkeypatch):
    """The translation is printed: the names are in the PDF's text. The source locale's report
    is stopped where it would be drawn, and the names it would be drawn with are game.yaml's.
    So are the game's title and edition, and the coins the games took (a thief)."""
    project, game = loaded(reported)
    monkeypatch.setattr(report, "_REPORTS", {})     # each printed locale drawn here
    printed = {"ru"}
    assert game.meta["source_locale"] not in printed, "the source locale's names are checked without printing"
    draw, drawn_with = report._render, {}

    def figures_then_draw(project, title, runs, figures, words):
        drawn_with[words.locale] = title, figures
        if words.locale not in printed:
            raise _Drawn
        return draw(project, title, runs, figures, words)
    monkeypatch.setattr(report, "_render", figures_then_draw)
    raw = {"ended_by", "thefts", "coins-thief-1", "ended_by: pile", "ended_by: clock"}
    thief = "decks.coins.extra.thief.name"
    source = {"title": game.meta["title"], "editions.standard.name": game.meta["editions"][EDITION]["name"],
              thief: yaml_of(reported, "cards.yaml")["decks"]["coins"]["extra"]["thief"]["name"]}
    seen = {}
    for locale in game.meta["locales"]:
        names = game_figure_names(reported, locale)
        own = game_words(reported, locale, source)
        seen[locale] = names["figures.raids.name"]
        if locale not in printed:
            with pytest.raises(_Drawn):
                make_report(project, game, EDITION, locale=locale)
            title, figures = drawn_with[locale]
            for key, name in names.items():
                parts = key.split(".")       # figures.KEY.name or figures.KEY.values.VALUE.name
                drawn = figures(parts[1]) if len(parts) == 3 else figures.value(parts[1], parts[3])
                assert drawn == name, (locale, key, drawn, name)
            assert title == f"{own['title']} — {own['editions.standard.name']}", (locale, title)
            assert figures.components["coins-thief-1"] == own[thief], locale
            continue
        text = pdfium_text(make_report(project, game, EDITION, locale=locale).data)
        for key, name in {**names, **own}.items():
            assert name in text, (locale, key, name)
        # The endings as the report heads its columns and legends: the figure's name and the value's.
        for value in ("pile", "clock"):
            heading = f"{names['figures.ended_by.name']}: {names[f'figures.ended_by.values.{value}.name']}"
            assert heading in text, (locale, heading)
        for key in raw:
            assert key not in text, (locale, key)
    assert set(drawn_with) == set(game.meta["locales"])
    # Each locale's own words, not one language for all.
    assert len(set(seen.values())) == len(seen)


def test_a_figure_without_a_name_is_a_problem_naming_game_yaml_and_the_key(project):
    game_yaml = project / "components" / GAME / "game.yaml"
    replace_in(game_yaml, "  thefts: {name: Thefts}\n", "")
    replace_in(game_yaml, "      pile: {name: empty pile}\n", "")
    expected = {"figures.thefts", "figures.ended_by.values.pile"}
    # pnp validate: the games it plays report both
    result = pnp("validate", GAME, project=project)
    assert result.exit_code != 0
    found = [line for line in result.output.splitlines() if "figures." in line]
    assert {key for key in expected if any(key in line for line in found)} == expected, result.output
    assert all(f"components/{GAME}/game.yaml" in line for line in found), found
    # the build's report: never a raw key in print
    report._REPORTS.clear()
    with pytest.raises(DataError) as raised:
        _report(project)
    problems = {problem.key: problem for problem in raised.value.problems}
    assert set(problems) == expected
    assert all(problem.file.endswith(f"components/{GAME}/game.yaml") and problem.line > 0
               for problem in problems.values())
    assert "'thefts'" in problems["figures.thefts"].message
    assert "'pile'" in problems["figures.ended_by.values.pile"].message


def test_an_unknown_key_under_figures_is_a_schema_problem(tmp_path):
    """Read on the sample in its one locale: a translated copy also finds the key missing from its catalog."""
    project = tmp_path / "sample"
    shutil.copytree(SAMPLE, project)
    replace_in(project / "components" / GAME / "game.yaml", "  raids: {name: Raids}\n",
               "  raids: {name: Raids, label: Raids}\n")
    result = pnp("validate", GAME, project=project)
    assert result.exit_code != 0
    assert any("game.yaml" in line and "figures.raids.label: unknown key 'label'" in line
               for line in result.output.splitlines()), result.output


def test_a_mistake_in_the_report_template_is_a_problem_at_its_line(project):
    """A designer's own report template (templates/report/ in the project) is checked."""
    template = project / "templates" / "report" / "report.html.j2"
    template.parent.mkdir(parents=True)
    shutil.copyfile(ROOT / "templates" / "report" / "report.html.j2", template)
    replace_in(template, "{{ report.subtitle }}", "{{ reprt.subtitle }}")
    line = next(number for number, text in enumerate(template.read_text(encoding="utf-8").splitlines(), start=1)
                if "reprt" in text)
    result = pnp("validate", GAME, project=project)
    assert result.exit_code != 0
    assert f"templates/report/report.html.j2:{line}: reprt: 'reprt' is undefined (a report template has report, " \
           f"fonts, stylesheet" in result.output, result.output


def test_a_figure_name_wider_than_its_table_cell_fails_the_report_naming_it(tmp_path):
    """A word no cell can hold (as a long compound in a narrow column would) runs over the next
    column in a browser; in the report it is an error naming it, as card text that does not fit."""
    project = project_copy(SAMPLE, tmp_path)
    long_word = "Raidsandmoreraidsandmoreraidsandmoreraidsandmoreraidsandmoreraidsandmoreraids" * 2
    # how a game ended heads a column of the summary table
    replace_in(project / "components" / "sample-game" / "game.yaml", "pile: {name: empty pile}",
               f"pile: {{name: {long_word}}}")
    result = pnp("build", "--game", "sample-game", "--kind", "report", "--paper", "a4", "--locale", "en",
                 "--out", str(tmp_path / "out"), project=project)
    assert result.exit_code == 1 and not result.traceback, result.output + result.traceback
    assert "text does not fit" in result.output and "wider than" in result.output, result.output
    assert long_word[:40] in result.output, result.output


# ---- intervals and seats beyond chance -------------------------------------------------------

@pytest.mark.parametrize("wins, games, expected", [
    (0, 10, (0.0, 0.2775)), (10, 10, (0.7225, 1.0)), (5, 10, (0.2366, 0.7634)),
    (52, 100, (0.4232, 0.6154)), (520, 1000, (0.4890, 0.5508)), (0, 1000, (0.0, 0.0038)),
])
def test_wilson_interval_known_values(wins, games, expected):
    low, high = wilson_interval(wins, games)
    assert low == pytest.approx(expected[0], abs=1e-4) and high == pytest.approx(expected[1], abs=1e-4)
    # the same interval mirrored for the losses
    assert wilson_interval(games - wins, games) == pytest.approx((1 - high, 1 - low), abs=1e-12)


def test_no_seat_beats_chance_where_all_seats_win_or_lose_together():
    """A cooperative game (every seat the same returns): no seat is named, even where no game is won."""
    from generator.render.report import seat_verdicts
    from generator.rules.simulate import Run, Tally
    for wins in (0.0, 7.0, 100.0):
        tally = Tally(seats=4, games=100, wins=[wins] * 4)
        assert seat_verdicts(Run("co-op", "standard", 4, "random", 0, {}, tally)) == []
    assert wilson_interval(0, 7)[0] == 0.0 and wilson_interval(7, 7)[1] == 1.0


def holm_named(wins: list[float], games: int, fair: float, level: float = 0.05) -> list[int]:
    """The seats Holm's method names, from the normal distribution's own tail (statistics), not
    the report's code: each seat's two-sided score-test p-value against `fair`, the smallest
    first at level / seats, the next at level / (seats - 1), ... while each is below."""
    from statistics import NormalDist
    if not 0 < fair < 1:
        return []
    spread = (fair * (1 - fair) / games) ** 0.5
    tested = sorted((2 * (1 - NormalDist().cdf(abs(w / games - fair) / spread)), seat) for seat, w in enumerate(wins))
    named = []
    for rank, (p_value, seat) in enumerate(tested):
        if p_value >= level / (len(wins) - rank):
            break
        named.append(seat)
    return sorted(named)


def test_seats_of_a_table_are_judged_together():
    """A seat whose own 95 % interval only just misses the fair rate is not named when the
    table's other seats are judged with it; one far beyond it is. And at tables where seats do
    not matter, some seat is named about one time in 20 (one by one, a 4-seat table would name
    one about one time in 6)."""
    import random
    from generator.render.report import seat_verdicts
    from generator.rules.simulate import Run, Tally

    def verdicts(wins, games):
        return seat_verdicts(Run("g", "standard", len(wins), "random", 0, {}, Tally(len(wins), games, wins)))

    just = [280.0, 240.0, 240.0, 240.0]               # seat 1 at 28 % against a fair 25 %, 1,000 games
    assert wilson_interval(280, 1000)[0] > 0.25 and verdicts(just, 1000) == [] == holm_named(just, 1000, 0.25)
    far = [310.0, 230.0, 230.0, 230.0]
    assert verdicts(far, 1000) == [(0, 1)] and holm_named(far, 1000, 0.25) == [0]
    both = [320.0, 250.0, 250.0, 180.0]
    assert verdicts(both, 1000) == [(0, 1), (3, -1)] and holm_named(both, 1000, 0.25) == [0, 3]
    rng, tables, games = random.Random(7), 600, 400
    named = alone = 0
    for _ in range(tables):
        wins = [0.0] * 4
        for _ in range(games):
            wins[rng.randrange(4)] += 1
        named += bool(verdicts(wins, games))
        alone += any(low > 0.25 or high < 0.25 for low, high in (wilson_interval(w, games) for w in wins))
    assert named / tables < 0.08 < 0.11 < alone / tables, (named, alone)


def test_a_phrase_writes_its_own_number_as_the_locale_does_and_no_other(reported):
    """The number a plural phrase is for is written with the locale's grouping where `{n}`
    stands, whatever other digits the phrase holds."""
    from generator.render.report import Words
    words = Words("ru", {}, {"games": {"one": "{n} партия, 1000 при самом большом столе",
                                       "other": "{n} партии, 1000 при самом большом столе"}},
                  project=Project(reported))
    assert plain(words.phrase("games", 1000)) == "1 000 партии, 1000 при самом большом столе"


def test_the_most_games_any_rate_needs_for_3_points():
    """The widest Wilson interval of n games is at a rate of 1/2: 1,064 games keep it within ±3 points."""
    from generator.rules.simulate import games_for_half_width
    assert games_for_half_width(0.03) == 1064
    low, high = wilson_interval(532, 1064)
    assert (high - low) / 2 <= 0.03
    low, high = wilson_interval(531.5, 1063)
    assert (high - low) / 2 > 0.03


def plain(text: str) -> str:
    """Text as a test compares it: no-break and narrow spaces as spaces, word joiners gone."""
    return text.replace("\u00a0", " ").replace("\u202f", " ").replace("\u2060", "")


def rate_words(locale: str, wins: float, games: int) -> str:
    """A rate and its 95 % Wilson interval as the locale writes them, e.g. "52 % (49–55 %)"."""
    from babel.numbers import format_percent
    low, high = wilson_interval(wins, games)
    shown = [plain(format_percent(value, locale=locale)) for value in (wins / games, low, high)]
    sign = "%" if locale == "en" else " %"
    return f"{shown[0]} ({shown[1][:-len(sign)]}–{shown[2]})"


def plural_form(locale: str, n: int) -> int:
    if locale == "en":
        return 0 if n == 1 else 1
    assert locale == "ru"
    return 0 if n % 10 == 1 and n % 100 != 11 else 1 if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else 2


def phrase_words(locale: str, name: str, n: int) -> str:
    from babel.numbers import format_decimal
    forms = WORDS["phrases"][name] if locale == "en" else catalog_words(locale)[f"phrases.{name}"]
    form = [forms["one"], forms["other"]][plural_form(locale, n)] if locale == "en" else forms[plural_form(locale, n)]
    return form.replace("{n}", plain(format_decimal(n, locale=locale)))


@pytest.mark.parametrize("locale", LOCALES)
def test_every_seat_rate_carries_its_interval_and_each_table_says_whether_a_seat_beats_chance(built, reported,
                                                                                             locale):
    """Read back from the built report: each seat's win rate with its interval, in the locale's
    percents, and per player count the sentence naming each seat Holm's method finds beyond
    chance (its interval wholly above or below the fair rate, the table's seats judged
    together), or saying no seat's advantage is beyond chance; and the note saying how."""
    from babel.numbers import format_percent
    text = plain(pdfium_text(built_report(built, locale).read_bytes()))
    words = {key: plain(value) if isinstance(value, str) else value for key, value in catalog_words(locale).items()}
    game = loaded(reported)[1]
    engine = game.rules.ENGINE
    named = {1: 0, -1: 0}
    for index, (policy, games) in enumerate(zip(engine.policies, [None] + [engine.report_games[1]] * 9)):
        for players, played in zip(game.rules.SPEC.tables, first_policy_games(game) if index == 0 else
                                   [games] * len(game.rules.SPEC.tables)):
            tally = simulate(engine, game, edition=EDITION, players=players, games=played, seed=0,
                             policy=policy).tally
            rates = [rate_words(locale, wins, played) for wins in tally.wins]
            fair = sum(tally.wins) / (played * tally.seats)
            assert " ".join(rates) in text, (locale, policy, players, rates)         # a row of the seats table
            table = phrase_words(locale, "with_players", players)
            sentences = []
            for seat in holm_named(tally.wins, played, fair):
                low, high = wilson_interval(tally.wins[seat], played)
                assert low > fair or high < fair, "a seat named has its 95 % interval beside the fair rate"
                named[1 if low > fair else -1] += 1
                sentences.append(words["seat_above" if low > fair else "seat_below"].format(
                    table=table, seat=seat + 1, rate=rates[seat], fair=plain(format_percent(fair, locale=locale))))
            sentences = sentences or [words["no_seat"].format(table=table,
                                                              games=phrase_words(locale, "at_games", played))]
            for sentence in sentences:
                assert sentence in text, (locale, sentence)
    assert named[1] and named[-1], "the sample names a seat above chance and one below"
    assert words["chance_note"].format(level=plain(format_percent(0.05, locale=locale))) in text, locale
    # The games the first policy played, stated: the fewest and the most at a player count.
    counts = first_policy_games(game)
    from babel.numbers import format_decimal
    stated = f"{plain(format_decimal(min(counts), locale=locale))}–{plain(format_decimal(max(counts), locale=locale))}"
    assert words["policy_games"].format(policy=words["policies.random"], games=stated) in text, (locale, stated)


def test_a_translators_change_draws_again_only_that_locales_report(project, tmp_path, monkeypatch):
    """A word of one locale changed: the build runs the edition's reports again, and the other
    locale's report comes from the build's cache (the same content, the same tool), not drawn
    again, as a new process finds it; the changed one is drawn, and the files are as a build
    from nothing makes them."""
    out = tmp_path / "out"

    def build() -> dict[str, bytes]:
        monkeypatch.setattr(report, "_REPORTS", {})          # a new process: only the cache remembers
        monkeypatch.setattr(report, "_RUNS", {})
        result = pnp("build", "--game", GAME, "--kind", "report", "--paper", "a4", "--jobs", "1", "--out", str(out),
                     project=project)
        assert result.exit_code == 0, result.output + result.traceback
        return {locale: built_report(out, locale).read_bytes() for locale in LOCALES}

    first = build()
    drawn = []
    real = report._render
    monkeypatch.setattr(report, "_render", lambda *args: drawn.append(args[-1].locale) or real(*args))
    replace_in(project / "components" / GAME / "locales" / "ru.po", 'msgstr "Игра-образец"', 'msgstr "Игра-пример"')
    second = build()
    assert drawn == ["ru"]
    assert second["en"] == first["en"] and second["ru"] != first["ru"]
    assert "Игра-пример" in pdfium_text(second["ru"])
    shutil.rmtree(out)
    drawn.clear()
    assert build() == second and sorted(drawn) == sorted(LOCALES)


def test_the_numbers_plot_draws_each_outlying_game_value_once():
    """A figure's outlying values (whole numbers, shared by many games) are drawn once each:
    the same points as matplotlib's own box statistics find, without the repeats."""
    from types import SimpleNamespace

    from matplotlib.cbook import boxplot_stats
    from matplotlib.figure import Figure

    turns = {2: [10] * 50 + [11] * 50 + [30] * 7 + [31] * 3 + [1] * 4, 3: [12] * 80 + [40] * 9}
    runs = [SimpleNamespace(players=players, tally=SimpleNamespace(numbers={"turns": values}))
            for players, values in turns.items()]
    figure = Figure()
    report._numbers(figure, runs, lambda key: key, report.report_words(Project(ROOT), "en"))
    fliers = [line for line in figure.axes[0].get_lines() if line.get_marker() == "o"]
    assert len(fliers) == len(turns)
    for line, (players, values) in zip(fliers, turns.items()):
        points = list(zip(*line.get_data()))
        outlying = boxplot_stats(values)[0]["fliers"]
        assert len(outlying) > len(points) == len(set(points))
        assert {y for _, y in points} == set(outlying) and {x for x, _ in points} == {players}


def test_a_table_of_teams_takes_the_games_its_seats_played_once(monkeypatch):
    """A game whose engine claims that teams play the games of as many single players
    (claims.TeamsPlayAsSeats, held to it by tests/test_engine_claims.py): its report plays each
    number of seats once per policy, and a table of teams shows that run under its own number
    of players, the very tally that playing the table itself gives."""
    game = next(game for game in load_games(Project(ROOT), texts=False)
                if getattr(game.rules, "ENGINE", None) is not None and claims_teams_play_as_seats(game.rules.ENGINE))
    engine, tables = game.rules.ENGINE, game.rules.SPEC.tables
    edition = game.editions[0]
    monkeypatch.setattr(engine, "report_games", (10, 5))
    monkeypatch.setattr(report, "precise_enough", lambda tally: True)      # one batch a table
    played = []
    plays = report.simulate
    monkeypatch.setattr(report, "simulate",
                        lambda *args, **kwargs: played.append((kwargs["policy"], kwargs["players"])) or plays(*args, **kwargs))
    runs = report._runs(engine, game, edition)
    seats = {players: len(engine.seating(players, engine.options)) for players in tables}
    teams = [players for players in tables if seats[players] != players]
    assert teams, "the game seats teams at some table"
    assert sorted(played) == sorted((policy, players) for policy in engine.policies for players in tables
                                    if players not in teams)
    for policy, policy_runs in runs.items():
        assert [run.players for run in policy_runs] == list(tables)
        # played for real, each table of teams gives the tally the report took for it
        by_players = {run.players: run for run in policy_runs}
        for table in teams:
            games = 10 if policy == next(iter(engine.policies)) else 5
            alone = plays(engine, game, edition=edition, players=table, games=games, seed=report.REPORT_SEED,
                          policy=policy, batch=games, enough=lambda tally: True)
            assert alone.players == table and alone.tally == by_players[table].tally
