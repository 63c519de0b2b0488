"""Notes on this edition: each game's decisions (booklet.yaml `decisions`) printed, in their order,
as the section that ends the rules of every booklet in every locale, under the tool's heading;
a decision's text is translated like every booklet text."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from conftest import ROOT, SAMPLE, add_catalog, flat, line_of, page_texts, pnp, replace_in
from generator.app.booklet import rule_booklet_content
from generator.app.loading import load_games
from generator.i18n.texts import Texts
from generator.layout.booklet import booklet_words
from generator.layout.faces import Localised
from generator.layout.kit import Kit
from generator.load.project import Project

GAME = "sample-game"
LOCALE = "ru"
# Two decisions of the sample game, the second touching a section before the first's.
DECISIONS = """
decisions:
  - id: table-size
    rule: print
    says: The source gives no number of players.
    does: A table of players.min to players.max.
    why: The box holds one set of pieces per player.
    text: "The source names no table size; this edition is for {players.min}–{players.max|players}."
  - id: box-count
    rule: box
    says: The source does not count the pieces.
    does: The box holds what components.yaml lists.
    why: Every piece the rules use is printed.
    text: The source does not count the pieces; the box holds every piece the rules use.
"""
RUSSIAN = {"booklet.phrases.players": ("{n} игрок", "{n} игрока", "{n} игроков"),
           "booklet.decisions.table-size.text": "В оригинале число игроков не указано; это издание — на {players.min}–{players.max|players}.",
           "booklet.decisions.box-count.text": "В оригинале детали не сосчитаны; в коробке все детали, нужные по правилам."}


def with_decisions(folder) -> Path:
    project = folder / "sample"
    shutil.copytree(SAMPLE, project)
    booklet = project / "components" / GAME / "booklet.yaml"
    replace_in(booklet, "      - print: {}\n", "      - print: {}\n  - id: edition-notes\n    decisions: {}\n")
    booklet.write_text(booklet.read_text(encoding="utf-8") + DECISIONS, encoding="utf-8")
    return project


@pytest.fixture(scope="module")
def noted(tmp_path_factory):
    """The sample project with two decisions and a released Russian catalog that translates them."""
    project = with_decisions(tmp_path_factory.mktemp("notes"))
    add_catalog(project, LOCALE, RUSSIAN)
    return project


def booklet_text(project, locale, out) -> str:
    result = pnp("build", "--game", GAME, "--locale", locale, "--paper", "a4", "--kind", "booklet",
                 "--out", str(out), project=project)
    assert result.exit_code == 0, result.output + result.traceback
    return flat("\n".join(page_texts(out / GAME / "standard" / locale / f"{GAME}-standard-{locale}-rules.pdf")))


@pytest.mark.parametrize("locale", ["en", LOCALE])
def test_the_notes_are_printed_from_the_data_in_order_after_the_rules(noted, locale, tmp_path):
    text = booklet_text(noted, locale, tmp_path / "out")
    loaded = Project(noted)
    game = load_games(loaded, GAME, texts=False)[0]
    loc = Localised(game, "standard", Texts.load(game, locale))
    heading = flat(booklet_words(loaded, locale)["edition_notes"])
    players = game.meta["players"]
    first = {"en": f"this edition is for {players['min']}–{players['max']} players.",
             LOCALE: f"это издание — на {players['min']}–{players['max']} игрока."}[locale]
    # After the contents' entry, the section: its heading, then each decision's rule and text.
    start = text.index(heading, text.index(heading) + len(heading))
    titles = {section["id"]: section.get("title") for section in game.booklet["sections"]}
    expected = [heading,
                loc.text("booklet.sections.print.title", titles["print"]), first,
                loc.text("booklet.sections.box.title", titles["box"]),
                flat(loc.text("booklet.decisions.box-count.text", game.booklet["decisions"][1]["text"]))]
    expected = [flat(part) for part in expected]
    where = [text.find(part, start) for part in expected]
    assert -1 not in where and where == sorted(where), list(zip(expected, where))
    assert text.index(expected[1]) < start      # the rules come first


def test_a_decision_untranslated_in_a_released_locale_is_reported(noted, tmp_path):
    project = tmp_path / "project"
    shutil.copytree(noted, project)
    po = project / "components" / GAME / "locales" / f"{LOCALE}.po"
    with po.open("rb") as handle:
        catalog = read_po(handle, locale=LOCALE)
    message = next(m for m in catalog if m.context == "booklet.decisions.box-count.text")
    assert message.string
    message.string = ""
    with po.open("wb") as handle:
        write_po(handle, catalog, width=100)
    result = pnp("validate", project=project)
    assert result.exit_code == 1
    line = line_of(po, 'msgctxt "booklet.decisions.box-count.text"') + 1
    assert f"components/{GAME}/locales/{LOCALE}.po:{line}: booklet.decisions.box-count.text: not translated" in result.stderr


def test_a_decision_on_no_section_is_named_at_its_line(tmp_path):
    project = with_decisions(tmp_path)
    booklet = project / "components" / GAME / "booklet.yaml"
    replace_in(booklet, "    rule: box\n", "    rule: boxes\n")
    result = pnp("validate", project=project)
    assert result.exit_code == 1
    line = line_of(booklet, "    rule: boxes")
    assert f"components/{GAME}/booklet.yaml:{line}: booklet.decisions.box-count.rule: no section 'boxes'" in result.stderr


# ---- the shipped games ----------------------------------------------------------------------

PROJECT = Project(ROOT)
GAMES = load_games(PROJECT, texts=False)


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.slug)
def test_every_booklet_ends_its_rules_with_the_notes_on_this_edition(game):
    decisions = game.booklet.get("decisions", [])
    assert decisions, f"{game.slug}: booklet.yaml records no decisions"
    ids = [section["id"] for section in game.booklet["sections"]]
    touched = {decision["rule"] for decision in decisions}
    for locale in game.locales:
        words = booklet_words(PROJECT, locale)
        for edition in game.editions:
            loc = Localised(game, edition, Texts.load(game, locale))
            content = rule_booklet_content(Kit(PROJECT, game, loc, ""), picture_dpi=8)
            laid = [section.id for section in content.sections]
            notes = next(s for s in content.sections if s.title == words["edition_notes"])
            at = laid.index(notes.id)
            # Every rule a decision touches and the questions come before; only reference follows.
            assert all(laid.index(rule) < at for rule in touched if rule in laid), (game.slug, locale, edition)
            assert "faq" not in laid[at:], (game.slug, locale, edition)
            shown = [d for d in decisions if "editions" not in d or edition in d["editions"]]
            assert notes.blocks[0].content == [
                (loc.text(f"booklet.sections.{d['rule']}.title", game.booklet["sections"][ids.index(d["rule"])]["title"]),
                 loc.text(f"booklet.decisions.{d['id']}.text", d["text"])) for d in shown]
