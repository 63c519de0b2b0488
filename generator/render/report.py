"""The designer's report: for one edition of a game with a rules engine, a PDF of plots made
from seeded simulation - game length by player count, how games end, seat win rates and
card use - in each locale of the build, like the booklet: the report's own words from the
tool's catalogs (templates/sheets/report.yaml, templates/locales/), the game's title, edition
and component names from the game's, numbers as the locale writes them (Babel). The games are
played once per edition, whatever the number of locales.

The report is a tagged PDF (PDF/UA-1) made as the booklet is: HTML from a template
(templates/report/, in the booklet's Jinja2 sandbox), WeasyPrint with the project's fetcher,
the shipped Noto Sans (so Cyrillic card names render). The summaries and card use are HTML
tables that head their columns and rows; each plot is a matplotlib SVG (Agg backend, `Figure`
objects, no pyplot state; its words SVG text, no date, ids from a fixed salt) shown as an
image whose text says what it shows, so the same data gives byte-identical files.

What is plotted is generic: `Tally` keeps each game's `stats()`; numbers become box plots,
texts (how a game ended) stacked shares, and mappings of numbers (cards, roles) tables of
uses per game. What each figure is called is the game's data: its game.yaml names every
figure its engine reports under `figures:` (and every value that is a word under the
figure's `values:`; a mapping's component ids go by the components' names), in its source
locale and, through its catalogs, in every other. A figure without a name is a problem that
names game.yaml and the key, never a raw key in print.
"""
from __future__ import annotations

import base64
import dataclasses
import hashlib
import io
import json

from babel.lists import format_list
from babel.numbers import format_decimal, format_percent

from ..core.artifacts import Artifact
from ..core.digests import GENERATOR, digest, folder_digest, rules_digest
from ..core.errors import DataError
from ..core.fonts import FONT_DIR
from ..core.yamlfile import load_yaml
from ..i18n import typography
from ..i18n.catalogs import tool_catalog_path, tool_plural, tool_text
from ..i18n.texts import Texts
from ..layout.faces import Localised
from ..load.project import Game, Project
from ..rules.claims import tables_played
from ..rules.figures import FIGURES, tally_figures, unnamed_figures
from ..rules.simulate import Run, Tally, Workers, games_for_half_width, score_p_value, simulate, wilson_interval
from .booklet_templates import render_html
from .tagged_page import tagged_pdf


# Games per player count: the engine's first policy plays batches of REPORT_GAMES games until
# every seat's 95 % interval of its win rate is at most ±REPORT_HALF_WIDTH (at most
# games_for_half_width(REPORT_HALF_WIDTH) games, 1,064: the worst case, a rate of 1/2); each
# other policy plays REPORT_GAMES_OTHER, and its intervals, wider, are shown as they are.
REPORT_GAMES, REPORT_GAMES_OTHER = 100, 50
REPORT_HALF_WIDTH = 0.03
CONFIDENCE = 0.95
REPORT_SEED = 0
FONT_FILES = ("NotoSans-Regular.ttf", "NotoSans-Bold.ttf")
# The report's fonts, as @font-face rules (family, weight, style, file): the plots' words name
# Noto Sans too, so WeasyPrint draws them in the shipped files.
FONT_FACES = (
    ("Noto Sans", 400, "normal", "NotoSans-Regular.ttf"),
    ("Noto Sans", 700, "normal", "NotoSans-Bold.ttf"),
    ("Noto Sans", 400, "italic", "NotoSans-Italic.ttf"),
    ("Report Math", 400, "normal", "NotoSansMath-Regular.ttf"),     # what Noto Sans lacks (the minus sign)
)
# A plot's size: an A4 landscape page's width inside its margins (report.css), under its heading.
PLOT_MM = (269.0, 168.0)
TEMPLATE, STYLESHEET = "report/report.html.j2", "report/report.css"
INK, MUTED, ACCENT = "#222222", "#777777", "#C8553D"
PALETTE = ["#3F88C5", "#C8553D", "#2A9D3F", "#F49D37", "#6A4C93", "#1B998B", "#E0B100", "#7A1F3D"]
# The report's words, under templates/: its `text:` is the English source of the tool's catalogs.
WORDS = "sheets/report.yaml"


def report_path(game: Game, edition: str, locale: str) -> str:
    return f"{game.slug}/{edition}/{locale}/{game.slug}-{edition}-{locale}-report.pdf"


class Words:
    """The report's words in one locale, and the locale's way of writing numbers."""

    def __init__(self, locale: str, text: dict[str, str], phrases: dict[str, dict] | None = None, project=None):
        self.locale = locale
        self.text = text
        self.phrases = phrases or {}
        self.project = project

    def phrase(self, name: str, n: int) -> str:
        """A plural phrase of the report (`phrases:` in report.yaml) for `n`, in the locale's
        form for n, n written as the locale writes numbers."""
        return tool_plural(self.project, self.locale, f"sheets.report.text.phrases.{name}", self.phrases[name], n,
                           shown=self.number(n))

    def __call__(self, word: str, **values) -> str:
        return self.text[word].format(**values)

    def policy(self, name: str) -> str:
        """A simulated player's name in the locale, or the engine's own for one the tool lacks."""
        return self.text.get(f"policies.{name}", name)

    def number(self, value, digits: int | None = None) -> str:
        """`value` with exactly `digits` decimals, or with as many as it has (up to 2)."""
        pattern = "#,##0." + "0" * digits if digits else "#,##0" if digits == 0 else "#,##0.##"
        return format_decimal(value, pattern, locale=self.locale)

    def percent(self, share: float) -> str:
        return format_percent(share, locale=self.locale)

    def interval(self, low: float, high: float) -> str:
        """A range of percents as the locale writes one: the percent sign once, where the
        locale puts it ("49–55 %", "49–55%"), the ends joined by an unbreakable en dash."""
        first, last = self.percent(low), self.percent(high)
        number = format_decimal(0, "0", locale=self.locale)
        before, _, after = self.percent(0).partition(number)
        if after and first.endswith(after):
            first = first[:-len(after)]
        elif before and last.startswith(before):
            last = last[len(before):]
        return f"{first}{typography.RANGE_DASH}{last}"

    @property
    def empty(self) -> str:
        """What an empty table cell shows: the locale's dash (Russian and Ukrainian tables set
        an em dash, as between clauses)."""
        return typography.rules(self.locale).clause_dash or "–"

    def rate(self, successes: float, trials: int) -> str:
        """A rate with its 95 % Wilson interval: "52 % (49–55 %)"."""
        low, high = wilson_interval(successes, trials)
        return f"{self.percent(successes / trials if trials else 0)} ({self.interval(low, high)})"

    def items(self, parts: list[str]) -> str:
        return format_list(parts, locale=self.locale)


def report_words(project: Project, locale: str) -> Words:
    """The report's words (templates/sheets/report.yaml) in `locale`, from the tool's catalogs."""
    path = project.template(WORDS)
    data, problems = load_yaml(path, project.display(path))
    if problems:
        raise DataError(problems)
    text: dict[str, str] = {}
    phrases = {key: dict(forms) for key, forms in (data["text"].get("phrases") or {}).items()}

    def walk(node, keys):
        for key, value in node.items():
            if keys == () and key == "phrases":
                continue                    # plural phrases: Words.phrase
            if isinstance(value, dict):
                walk(value, keys + (key,))
            else:
                word = ".".join(keys + (key,))
                text[word] = tool_text(project, locale, f"sheets.report.text.{word}", str(value))
    walk(data["text"], ())
    return Words(locale, text, phrases, project)


class Figures:
    """What the figures a game's engine reports are called in one locale, and their values
    that are words (how a game ended, the items of a mapping): the game's `figures:` through
    its catalogs. A value the data does not name there is a component's id, named as the
    component is."""

    def __init__(self, loc: Localised, components: dict[str, str]):
        self.components = components
        self.names: dict[str, str] = {}
        self.values: dict[tuple[str, str], str] = {}
        for key, entry in (loc.game.meta.get(FIGURES) or {}).items():
            self.names[key] = loc.texts.get(f"{FIGURES}.{key}.name", entry["name"])
            for value, named in (entry.get("values") or {}).items():
                self.values[key, value] = loc.texts.get(f"{FIGURES}.{key}.values.{value}.name", named["name"])

    def __call__(self, key: str) -> str:
        return self.names[key]

    def value(self, key: str, value: str) -> str:
        named = self.values.get((key, value))
        return named if named is not None else self.components[value]

    def key_digest(self) -> tuple:
        return tuple(sorted(self.names.items())), tuple(sorted(self.values.items()))


def make_report(project: Project, game: Game, edition: str, cache=None, locale: str | None = None,
                tool: str = "", workers: Workers | None = None) -> Artifact | None:
    """The report for one edition in `locale` (by default the game's source locale), or None
    when the game's rules have no engine. With a build's `cache`, the simulation's results are
    kept there: a report whose words changed is drawn again without playing its games again.
    With the `tool` digest too, so is the report itself, by everything it is made from: when a
    translator changes one locale's words, the edition's other reports are not drawn again.
    With `workers`, the games are played in their processes (the same games, the same report)."""
    engine = getattr(game.rules, "ENGINE", None)
    if engine is None:
        return None
    locale = locale or game.source_locale
    loc = Localised(game, edition, Texts.load(game, locale))
    words = report_words(project, locale)
    runs = _cached_runs(engine, game, edition, cache, workers)
    reported = tally_figures(run.tally for policy in runs.values() for run in policy)
    problems = unnamed_figures(game, reported)
    if problems:
        raise DataError(problems)
    # Only the names of components the games reported are looked up: a build records the texts
    # a file prints, and a card's new name redraws the reports that show it, not every one.
    names = localised_names(loc, {value for values in reported.values() for value in values})
    figures = Figures(loc, names)
    title = f"{loc.title} — {loc.edition_name()}"
    # Repeated builds in one process (the tests build many times) reuse a report made from the
    # same content: changed components, names, words or run settings make a new one.
    key = _content_key(engine, game, edition, title, names, words, figures)
    if key not in _REPORTS:
        kept = digest("report", key, tool, _simulation_key(engine, game, edition)) if cache is not None and tool else ""
        made = _kept_report(cache, kept) if kept else None
        if made is None:
            data, pages = _render(project, title, runs, figures, words)
            made = (data, pages, sum(run.tally.games for policy in runs.values() for run in policy))
            if kept:
                cache.put_record("report", kept, {"blob": cache.put_blob(data), "pages": pages, "games": made[2]})
        _keep(_REPORTS, key, made)
    data, pages, games = _REPORTS[key]
    return Artifact(report_path(game, edition, locale), data, game.slug, "report", edition, locale, "", pages,
                    details={"games": games})


_REPORTS: dict[str, tuple[bytes, int, int]] = {}
# The games played, by what they depend on: a build's reports of one edition in each locale
# share one simulation even without a cache.
_RUNS: dict[str, dict[str, list[Run]]] = {}
_KEPT = 8


def _keep(kept: dict, key: str, value) -> None:
    if len(kept) >= _KEPT:
        kept.pop(next(iter(kept)))
    kept[key] = value


def _kept_report(cache, name: str) -> tuple[bytes, int, int] | None:
    """(PDF, pages, games played) of the report the build's cache keeps by `name`, if whole."""
    record = cache.record("report", name)
    if record is None or not isinstance(record.get("pages"), int) or not isinstance(record.get("games"), int):
        return None
    data = cache.blob(record.get("blob"))
    return None if data is None else (data, record["pages"], record["games"])


def _content_key(engine, game: Game, edition: str, title: str, names: dict[str, str], words: Words,
                 figures: Figures) -> str:
    """A digest of everything a report is made from: what the simulation reads (the engine's
    box when it has one, else all the game's data), how it runs, and the words it prints."""
    if engine.box is not None:
        simulated = repr(engine.box(game, edition))
    else:
        simulated = json.dumps(game.files, sort_keys=True, ensure_ascii=False, default=str)
    spec = game.rules.SPEC
    content = (game.slug, edition, simulated, spec.tables, tuple(engine.policies),
               tuple(sorted(engine.options.items())), _games(engine), REPORT_SEED, REPORT_HALF_WIDTH,
               title, tuple(sorted(names.items())), words.locale, tuple(sorted(words.text.items())),
               repr(sorted(words.phrases.items())), _catalog_bytes(words), figures.key_digest())
    return hashlib.sha256(repr(content).encode("utf-8")).hexdigest()


def _catalog_bytes(words: Words) -> str:
    """A digest of the tool's catalog the plural phrases are read from (none in English)."""
    try:
        return hashlib.sha256(tool_catalog_path(words.project, words.locale).read_bytes()).hexdigest()
    except (OSError, TypeError, AttributeError):
        return ""


def _simulation_key(engine, game: Game, edition: str) -> str:
    """What the simulation's results depend on: what it reads of the data, how it runs, and
    the code that plays (the game's rules module, the shared engine and simulator)."""
    simulated = repr(engine.box(game, edition)) if engine.box is not None else \
        json.dumps(game.files, sort_keys=True, ensure_ascii=False, default=str)
    code = [folder_digest(GENERATOR / "rules", skip=lambda relative: "/" in relative), rules_digest(game)]
    spec = game.rules.SPEC
    return digest("simulation", game.slug, edition, simulated, list(spec.tables), list(engine.policies),
                  sorted(engine.options.items()), list(_games(engine)), REPORT_SEED, REPORT_HALF_WIDTH, code)


def _cached_runs(engine, game: Game, edition: str, cache, workers: Workers | None = None) -> dict[str, list[Run]]:
    """The games of the edition: from the build's cache, else as played earlier in this
    process (another locale's report), else played now (and kept in both)."""
    key = _simulation_key(engine, game, edition)
    if cache is not None:
        record = cache.record("simulation", key)
        if record is not None:
            try:
                return {policy: [_run_from_json(run) for run in runs] for policy, runs in record["runs"].items()}
            except (KeyError, TypeError, ValueError):
                pass                           # not a record this version wrote: play again
    if key not in _RUNS:
        _keep(_RUNS, key, _runs(engine, game, edition, workers))
    runs = _RUNS[key]
    if cache is not None:
        cache.put_record("simulation", key, {"runs": {policy: [dataclasses.asdict(run) for run in policy_runs]
                                                      for policy, policy_runs in runs.items()}})
    return runs


def _run_from_json(data: dict) -> Run:
    fields = {f.name for f in dataclasses.fields(Run)}
    tally_fields = {f.name for f in dataclasses.fields(Tally)}
    if set(data) != fields or set(data["tally"]) != tally_fields:
        raise ValueError("another version's record")
    return Run(**{**data, "tally": Tally(**data["tally"])})


def _games(engine) -> tuple[int, int]:
    """Games per table of the first policy's batches and of each other policy."""
    return engine.report_games or (REPORT_GAMES, REPORT_GAMES_OTHER)


def most_games(batch: int) -> int:
    """The most games the first policy plays at a table: whole batches of `batch` up to the
    worst case of ±REPORT_HALF_WIDTH (a rate of 1/2), where every interval is narrow enough."""
    return -(-games_for_half_width(REPORT_HALF_WIDTH) // batch) * batch


def precise_enough(tally: Tally) -> bool:
    """Every seat's 95 % interval of its win rate is at most ±REPORT_HALF_WIDTH."""
    return tally.widest_win_interval() <= REPORT_HALF_WIDTH


def _runs(engine, game: Game, edition: str, workers: Workers | None = None) -> dict[str, list[Run]]:
    """Seeded runs of every player count, per policy: the first policy's in batches until its
    seats' win rates are known within ±REPORT_HALF_WIDTH, the others' a fixed number. A table
    of teams whose engine claims it plays the games of as many single players
    (claims.TeamsPlayAsSeats) takes that table's run, played once."""
    spec = game.rules.SPEC
    runs: dict[str, list[Run]] = {}
    first, other = _games(engine)
    plays = tables_played(engine, spec.tables)
    for index, policy in enumerate(engine.policies):
        by_players: dict[int, Run] = {}
        for players in spec.tables:
            if plays[players] != players:
                by_players[players] = dataclasses.replace(by_players[plays[players]], players=players)
            elif index == 0:
                by_players[players] = simulate(engine, game, edition=edition, players=players,
                                               games=most_games(first), seed=REPORT_SEED, policy=policy, batch=first,
                                               enough=precise_enough, workers=workers)
            else:
                by_players[players] = simulate(engine, game, edition=edition, players=players, games=other,
                                               seed=REPORT_SEED, policy=policy, workers=workers)
        runs[policy] = [by_players[players] for players in spec.tables]
    return runs


# ---- drawing ------------------------------------------------------------------------------

def _use_shipped_fonts() -> None:
    """Make the shipped Noto Sans win over any system copy of the same family (matplotlib takes
    the first of equally good matches), so every machine lays out the plots' words with the
    metrics of the font WeasyPrint draws them in."""
    from matplotlib import font_manager
    manager = font_manager.fontManager
    shipped = [str(FONT_DIR / name) for name in FONT_FILES]
    if [entry.fname for entry in manager.ttflist[:len(shipped)]] == shipped:
        return
    manager.ttflist = [entry for entry in manager.ttflist if entry.fname not in shipped]
    for path in reversed(shipped):
        manager.addfont(path)
        manager.ttflist.insert(0, manager.ttflist.pop())
    cached = getattr(manager, "_findfont_cached", None)
    if cached is not None and hasattr(cached, "cache_clear"):
        cached.cache_clear()


def _style() -> dict:
    _use_shipped_fonts()
    return {
        "font.family": "Noto Sans", "font.size": 9, "axes.titlesize": 11, "axes.titleweight": "bold",
        "axes.edgecolor": MUTED, "axes.labelcolor": INK, "xtick.color": INK, "ytick.color": INK,
        "axes.spines.top": False, "axes.spines.right": False,
        # Words as SVG text (drawn by WeasyPrint in the shipped fonts, read by screen readers and
        # searches), ids from a fixed salt.
        "svg.fonttype": "none", "path.simplify": False, "svg.hashsalt": "pnp",
    }


def _render(project: Project, title: str, runs: dict[str, list[Run]], figures: Figures,
            words: Words) -> tuple[bytes, int]:
    """The report as HTML (templates/report/, in the sandbox) made into a tagged PDF by
    WeasyPrint, as the booklet is: the plots SVG images with a text that says what each
    shows, the summaries and card use tables with headed columns and rows."""
    import matplotlib
    matplotlib.use("Agg")

    main_policy = next(iter(runs))
    main = runs[main_policy]
    with matplotlib.rc_context(_style()):
        pages = [
            _plot_page(words("numbers_title", policy=words.policy(main_policy)),
                       lambda fig: _numbers(fig, main, figures, words),
                       [figures(key) for key in main[0].tally.numbers]),
            _plot_page(words("endings_title"), lambda fig: _endings(fig, runs, figures, words),
                       [f"{_endings_heading(policy, policy_runs, words)}: {words.items(_ending_labels(policy_runs, figures))}"
                        for policy, policy_runs in runs.items()]),
            _plot_page(words("seats_title", first=words.number(1), fair=words.number(1.0, 1)),
                       lambda fig: _seat_rates(fig, runs, words),
                       [words("policy", policy=words.policy(policy)) for policy in runs]),
            {"heading": words("intervals_title", confidence=words.percent(CONFIDENCE)), "plots": [],
             "tables": [], "sections": [_seat_section(policy, policy_runs, words) for policy, policy_runs in runs.items()]},
            {"heading": words("usage_title", policy=words.policy(main_policy)), "plots": [],
             "tables": _usage_tables(main, figures, words), "sections": []},
        ]
    report = {
        "lang": words.locale, "document": words("document", title=title), "title": title,
        "subtitle": words("subtitle"), "notes": _notes(runs, words),
        "summaries": [_summary_table(policy, policy_runs, figures, words) for policy, policy_runs in runs.items()],
        "pages": pages,
    }
    stylesheet = project.template(STYLESHEET)
    html = render_html(project, {"report": report, "fonts": _font_faces(), "stylesheet": stylesheet.resolve().as_uri()},
                       TEMPLATE)
    return tagged_pdf(project, html, stylesheet, f"report {title} ({words.locale})")


def _font_faces() -> list[dict]:
    return [{"family": family, "weight": weight, "style": style, "url": (FONT_DIR / file).resolve().as_uri()}
            for family, weight, style, file in FONT_FACES]


def _notes(runs: dict[str, list[Run]], words: Words) -> list[str]:
    notes = [words("seed_note", seed=REPORT_SEED)]
    policy = next(iter(runs))
    notes.append(words("precision_note", policy=words.policy(policy), confidence=words.percent(CONFIDENCE),
                       points=words.phrase("points", round(REPORT_HALF_WIDTH * 100))))
    notes.append(words("chance_note", level=words.percent(1 - CONFIDENCE)))
    first = next(iter(runs.values()))
    shared = [run for run in first if run.tally.seats != run.players]
    if shared:
        notes.append(words("teams", tables=words.items([words("team_table", players=run.players, seats=run.tally.seats)
                                                         for run in shared])))
    return notes


def _plot_page(heading: str, draw, shows: list[str]) -> dict:
    """A page of one plot: `draw(figure)` draws it, `shows` says what its parts show (its
    text for a screen reader: the heading, then each part)."""
    figure = _figure()
    draw(figure)
    buffer = io.BytesIO()
    # No date and ids from a fixed salt (svg.hashsalt): the same plot gives the same bytes.
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    image = "data:image/svg+xml;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
    alt = f"{heading}: {'; '.join(shows)}" if shows else heading
    return {"heading": heading, "plots": [{"image": image, "alt": alt, "width_mm": PLOT_MM[0]}], "tables": [],
            "sections": []}


def _endings_heading(policy: str, runs: list[Run], words: Words) -> str:
    return words("endings_policy", policy=words.policy(policy), games=_games_played(runs, words))


def _games_played(runs: list[Run], words: Words) -> str:
    """The games played at each player count: one number, or the fewest and the most."""
    counts = [run.tally.games for run in runs]
    if min(counts) == max(counts):
        return words.number(counts[0])
    return f"{words.number(min(counts))}{typography.RANGE_DASH}{words.number(max(counts))}"


def seat_verdicts(run: Run) -> list[tuple[int, int]]:
    """The seats whose advantage is beyond chance at the games played, as (seat from 0, +1 for
    a seat that wins more often than the fair rate, -1 for one that wins less), in seat order.
    The seats of a table are judged together (Holm's method): the seat furthest from
    `Tally.fair_rate` by its score test first, at 1 - CONFIDENCE shared among the seats, the
    next at that shared among one fewer, and so on while each is beyond. So a table where seats
    do not matter names a seat by chance at most one time in 20, whatever its number of seats
    (judged one by one, a 4-seat table would name one about one time in 6). A seat named has
    its own 95 % interval wholly above or below the fair rate; one whose interval only just
    misses it may go unnamed."""
    tally = run.tally
    fair, level = tally.fair_rate(), 1 - CONFIDENCE
    tested = sorted((score_p_value(wins, tally.games, fair), seat) for seat, wins in enumerate(tally.wins))
    verdicts = []
    for rank, (p_value, seat) in enumerate(tested):
        if p_value >= level / (len(tested) - rank):
            break
        verdicts.append((seat, 1 if tally.wins[seat] > fair * tally.games else -1))
    return sorted(verdicts)


def _table_words(run: Run, words: Words) -> str:
    table = words.phrase("with_players", run.players)
    if run.tally.seats != run.players:
        table = words("players_seats", players=table, seats=words.number(run.tally.seats))
    return table


def verdict_sentences(run: Run, words: Words) -> list[str]:
    """In words, whether any seat's advantage at this table is beyond chance at the games played."""
    tally = run.tally
    table = _table_words(run, words)
    fair = words.percent(tally.fair_rate())
    sentences = [words("seat_above" if sign > 0 else "seat_below", table=table, seat=words.number(seat + 1),
                       rate=words.rate(tally.wins[seat], tally.games), fair=fair)
                 for seat, sign in seat_verdicts(run)]
    return sentences or [words("no_seat", table=table, games=words.phrase("at_games", tally.games))]


def _seat_section(policy: str, runs: list[Run], words: Words) -> dict:
    """One policy's seat win rates with their intervals (a row per player count, a column per
    seat, the games played and the fair rate), and a sentence per player count saying which
    seat, if any, wins more or less often than chance."""
    most = max(run.tally.seats for run in runs)
    rows = []
    for run in runs:
        tally = run.tally
        cells = [words.number(tally.games), words.percent(tally.fair_rate())]
        cells += [words.rate(wins, tally.games) for wins in tally.wins] + [words.empty] * (most - tally.seats)
        header = words("players_seats", players=words.number(run.players), seats=words.number(tally.seats)) \
            if tally.seats != run.players else words.number(run.players)
        rows.append({"header": header, "cells": [{"text": cell, "style": ""} for cell in cells]})
    table = {"kind": "intervals", "caption": "", "group": "", "corner": words("players"), "rows": rows,
             "columns": [words("games"), words("fair_rate")] + [words("seat_number", seat=words.number(seat + 1))
                                                                 for seat in range(most)]}
    return {"heading": words("policy_games", policy=words.policy(policy), games=_games_played(runs, words)),
            "table": table, "notes": [sentence for run in runs for sentence in verdict_sentences(run, words)]}


def _ending_labels(runs: list[Run], figures: Figures) -> list[str]:
    return [f"{figures(key)}: {figures.value(key, value)}" for key in runs[0].tally.texts
            for value in sorted({v for run in runs for v in run.tally.texts[key]})]


def localised_names(loc: Localised, ids=None) -> dict[str, str]:
    """Display names by id in the locale (its catalog), as `Game.component_names` orders them; with
    `ids`, of those components only."""
    names = {}
    for component in sorted(loc.game.components, key=lambda c: c.category == "cards"):
        if ids is not None and component.id not in ids:
            continue
        names[component.id] = loc.field(component.text_root("name"), component.data, "name") or component.id
    return names


def _figure():
    from matplotlib.figure import Figure
    return Figure(figsize=(PLOT_MM[0] / 25.4, PLOT_MM[1] / 25.4))


def _players(runs: list[Run]) -> list[int]:
    return [run.players for run in runs]


def _numbers_as_written(words: Words, *axes) -> None:
    """Tick labels as the locale writes numbers (decimal comma, its grouping)."""
    from matplotlib.ticker import FuncFormatter
    formatter = FuncFormatter(lambda value, _position: words.number(value))
    for axis in axes:
        axis.set_major_formatter(formatter)


def _summary_table(policy: str, runs: list[Run], figures: Figures, words: Words) -> dict:
    """The figures of one policy's games at each player count: a row per player count."""
    endings = [(key, value) for key in runs[0].tally.texts
               for value in sorted({v for run in runs for v in run.tally.texts[key]})]
    columns = [words("seats"), words("games"), words("turns_mean"), words("turns_median")]
    columns += [f"{figures(key)}: {figures.value(key, value)}" for key, value in endings] + [words("best_seat"), words("worst_seat")]
    rows = []
    for run in runs:
        summary = run.tally.summary()
        turns = summary["numbers"].get("turns")
        tally = run.tally
        row = [words.number(tally.seats), words.number(tally.games)]
        row += [words.number(turns["mean"], 1), words.number(turns["median"])] if turns else [words.empty] * 2
        row += [words.rate(tally.texts[key].count(value), tally.games) for key, value in endings]
        best, worst = tally.wins.index(max(tally.wins)), tally.wins.index(min(tally.wins))
        row += [words("rate_at_seat", rate=words.rate(tally.wins[best], tally.games), seat=best + 1),
                words("rate_at_seat", rate=words.rate(tally.wins[worst], tally.games), seat=worst + 1)]
        rows.append({"header": words.number(run.players), "cells": [{"text": str(cell), "style": ""} for cell in row]})
    return {"kind": "summary", "caption": "", "group": "", "corner": words("players"), "columns": columns, "rows": rows,
            "heading": words("policy_games", policy=words.policy(policy), games=_games_played(runs, words))}


def _numbers(fig, runs: list[Run], figures: Figures, words: Words) -> None:
    keys = list(runs[0].tally.numbers)
    columns = min(2, len(keys)) or 1
    rows = -(-len(keys) // columns) or 1
    players = _players(runs)
    for index, key in enumerate(keys):
        ax = fig.add_subplot(rows, columns, index + 1)
        _numbers_as_written(words, ax.xaxis, ax.yaxis)
        values = [run.tally.numbers[key] for run in runs]
        if all(v in (0.0, 1.0) for series in values for v in series):
            # A yes/no figure: the share of games where it happened.
            shares = [sum(series) / len(series) for series in values]
            bounds = [wilson_interval(sum(series), len(series)) for series in values]
            ax.bar(players, shares, color=PALETTE[0],
                   yerr=[[share - low for share, (low, _) in zip(shares, bounds)],
                         [high - share for share, (_, high) in zip(shares, bounds)]],
                   error_kw={"ecolor": INK, "capsize": 3, "elinewidth": 0.8})
            for x, (low, high) in zip(players, bounds):
                ax.text(x, high, words.interval(low, high), ha="center", va="bottom", fontsize=6, color=INK)
            shares = [high for _, high in bounds]
            ax.set_ylabel(words("share_of_games"))
            ax.set_ylim(0, max(shares + [0.01]) * 1.2)
        else:
            drawn = ax.boxplot(values, positions=players, widths=0.6, showmeans=True, showfliers=True,
                               medianprops={"color": ACCENT}, meanprops={"marker": "D", "markerfacecolor": INK,
                                                                           "markeredgecolor": INK, "markersize": 3},
                               flierprops={"markersize": 2, "markeredgecolor": MUTED})
            for fliers in drawn["fliers"]:
                # Each outlying value once: many games share one (a whole number of turns), and
                # a marker drawn again on itself looks the same but weighs on every reader.
                points = list(dict.fromkeys(zip(*fliers.get_data())))
                fliers.set_data([x for x, _ in points], [y for _, y in points])
        ax.set_title(figures(key), loc="left")
        if index + columns >= len(keys):            # the lowest plot of its column
            ax.set_xlabel(words("players"))
        ax.set_xticks(players)
    # More rows, lower plots: the gap grows with them so that no figure's name runs into the
    # numbers of the plot above it.
    fig.subplots_adjust(left=0.07, right=0.97, top=0.95, bottom=0.08, hspace=0.45 * max(1.0, rows / 3), wspace=0.2)


def _endings(fig, runs: dict[str, list[Run]], figures: Figures, words: Words) -> None:
    policies = list(runs)
    for index, policy in enumerate(policies):
        ax = fig.add_subplot(1, len(policies), index + 1)
        _numbers_as_written(words, ax.xaxis, ax.yaxis)
        policy_runs = runs[policy]
        players = _players(policy_runs)
        for key in policy_runs[0].tally.texts:
            values = sorted({v for run in policy_runs for v in run.tally.texts[key]})
            bottom = [0.0] * len(players)
            for colour, value in zip(PALETTE, values):
                shares = [run.tally.texts[key].count(value) / run.tally.games for run in policy_runs]
                ax.bar(players, shares, bottom=bottom, color=colour, label=f"{figures(key)}: {figures.value(key, value)}")
                for x, b, s, run in zip(players, bottom, shares, policy_runs):
                    if s >= 0.12:       # tall enough for the share's interval under it
                        low, high = wilson_interval(run.tally.texts[key].count(value), run.tally.games)
                        ax.text(x, b + s / 2, f"{words.percent(s)}\n({words.interval(low, high)})", ha="center",
                                va="center", fontsize=6.5, color="white", linespacing=1.1)
                    elif s >= 0.06:
                        ax.text(x, b + s / 2, words.percent(s), ha="center", va="center", fontsize=7, color="white")
                bottom = [b + s for b, s in zip(bottom, shares)]
        ax.set_title(_endings_heading(policy, policy_runs, words), loc="left")
        ax.set_xlabel(words("players"))
        ax.set_ylabel(words("share_of_games"))
        ax.set_xticks(players)
        ax.set_ylim(0, 1)
        # As many columns of labels as fit under the plot (about 55 characters a row).
        labels = ax.get_legend_handles_labels()[1]
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), frameon=False,
                  ncol=max(1, min(3, 55 // max([len(label) for label in labels] + [1]))))
    fig.subplots_adjust(left=0.07, right=0.97, top=0.93, bottom=0.2, wspace=0.25)


def _seat_rates(fig, runs: dict[str, list[Run]], words: Words) -> None:
    policies = list(runs)
    for index, policy in enumerate(policies):
        ax = fig.add_subplot(1, len(policies), index + 1)
        policy_runs = runs[policy]
        most = max(run.tally.seats for run in policy_runs)
        grid = [[float("nan")] * most for _ in policy_runs]
        for row, run in enumerate(policy_runs):
            for seat, wins in enumerate(run.tally.wins):
                rate = wins / run.tally.games
                grid[row][seat] = rate * run.tally.seats          # relative to a fair 1/seats
                low, high = wilson_interval(wins, run.tally.games)
                dark = abs(rate * run.tally.seats - 1) > 0.6         # the colour map's darkest ends
                ax.text(seat, row, f"{words.percent(rate)}\n({words.interval(low, high)})", ha="center",
                        va="center", fontsize=6, color="#FFFFFF" if dark else INK, linespacing=1.1)
        image = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=2, aspect="auto")
        ax.set_xticks(range(most), [words.number(s + 1) for s in range(most)])
        ax.set_yticks(range(len(policy_runs)),
                      [words("players_seats", players=words.number(run.players), seats=words.number(run.tally.seats))
                       if run.tally.seats != run.players else words.number(run.players) for run in policy_runs])
        ax.set_xlabel(words("seat"))
        ax.set_ylabel(words("players"))
        ax.set_title(words("policy", policy=words.policy(policy)), loc="left")
        for side in ("left", "bottom"):
            ax.spines[side].set_visible(False)
        bar = fig.colorbar(image, ax=ax, shrink=0.7, label=words("win_rate_seats"))
        _numbers_as_written(words, bar.ax.yaxis)
    fig.subplots_adjust(left=0.1, right=0.97, top=0.93, bottom=0.1, wspace=0.25)


def _usage_tables(runs: list[Run], figures: Figures, words: Words) -> list[dict]:
    """For each mapping the games report (cards, roles): a table of its items' uses per game
    (a row per item, a column per player count), each cell shaded by how high it is."""
    from matplotlib import colormaps
    from matplotlib.colors import to_hex
    shades = colormaps["Oranges"]
    tables = []
    players = _players(runs)
    for key in [key for key, table in runs[0].tally.counts.items() if table]:
        rows = []
        grid = {}
        for item in runs[0].tally.counts[key]:
            grid[item] = []
            for run in runs:
                values = run.tally.counts[key].get(item, [])
                grid[item].append(sum(values) / run.tally.games if values else 0.0)
        top = max([v for row in grid.values() for v in row] + [1e-9])
        for item, row in grid.items():
            cells = [{"text": words.number(value, 1) if value < 10 else words.number(value, 0),
                      "style": f"background: {to_hex(shades(value / top))}; color: {'#FFFFFF' if value > 0.6 * top else INK}"}
                     for value in row]
            rows.append({"header": figures.value(key, item), "cells": cells})
        tables.append({"kind": "usage", "caption": figures(key), "group": words("players"), "corner": None,
                       "columns": [words.number(p) for p in players], "rows": rows})
    return tables
