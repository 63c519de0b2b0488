"""Plural phrases in the case their context needs (`{age|years:genitive}`, booklet.yaml
phrase_cases): every shipped game's texts that put a number after a preposition, filled for
numbers whose forms differ, in every locale, through the texts a build prints."""
from __future__ import annotations

import pytest
from babel import Locale

from conftest import ROOT
from generator.app.loading import load_games
from generator.i18n.catalogs import every_text
from generator.i18n.texts import PLACEHOLDER, Texts
from generator.load.project import Project

NUMBERS = (0, 1, 2, 3, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111)
GAMES = {game.slug: game for game in load_games(Project(ROOT), texts=False)}

# What "from {n} years" prints, by the CLDR plural category of n in each locale.
YEARS_AFTER_FROM = {
    "ru": {"one": "От {n} года", "few": "От {n} лет", "many": "От {n} лет"},
    "uk": {"one": "Від {n} року", "few": "Від {n} років", "many": "Від {n} років"},
    "cs": {"one": "Od {n} roku", "few": "Od {n} let", "other": "Od {n} let"},
    "bg": {"one": "От {n} година", "other": "От {n} години"},
    "en": {"one": "{n} year and older", "other": "{n} years and older"},
}


def _filled(game, locale, key, values):
    texts = Texts.load(game, locale)
    source = next(entry.source for entry in every_text(game) if entry.key == key)
    return texts.fill(texts.get(key, source), values).replace("\u00a0", " ")


@pytest.mark.parametrize("slug", sorted(GAMES))
@pytest.mark.parametrize("locale", sorted(YEARS_AFTER_FROM))
def test_the_age_on_every_cover_is_in_the_case_after_from(slug, locale):
    game = GAMES[slug]
    if locale not in game.locales:
        pytest.skip(f"{slug} has no {locale}")
    for n in NUMBERS:
        category = Locale.parse(locale).plural_form(n)
        expected = YEARS_AFTER_FROM[locale][category].format(n=n)
        assert _filled(game, locale, "booklet.cover.facts.1", {"age": n}) == expected, (slug, locale, n)


@pytest.mark.parametrize("locale, n, expected", [
    ("cs", 1, "pro 1 hráče"), ("cs", 4, "pro 4 hráče"), ("cs", 5, "pro 5 hráčů"), ("cs", 21, "pro 21 hráčů"),
    ("ru", 1, "на 1 игрока"), ("ru", 4, "на 4 игроков"), ("ru", 11, "на 11 игроков"), ("ru", 21, "на 21 игрока"),
    ("bg", 4, "за 4 играчи"), ("en", 4, "for 4 players"),
])
def test_a_board_for_n_players_takes_the_accusative(locale, n, expected):
    text = _filled(GAMES["pegs-and-jokers"], locale, "booklet.sections.contents.blocks.3.p",
                   {"players.counts.0": n, "players.counts.1": 6, "players.counts.2": 8})
    assert expected in text, text


@pytest.mark.parametrize("n, expected", [(2, "до 2 игроков"), (4, "до 4 игроков"), (21, "до 21 игрока"), (5, "до 5 игроков")])
def test_up_to_n_players_takes_the_genitive(n, expected):
    text = _filled(GAMES["diced-veggies"], "ru", "booklet.sections.setup.blocks.1.p", {"players.min": 2, "players.max": n})
    assert expected in text, text


def test_every_phrase_in_every_context_has_every_form_of_every_locale():
    """Each phrase a printed text names, in each case it names it, fills for every number in
    every locale of every game: the number and a word, no placeholder left."""
    checked = 0
    for game in GAMES.values():
        for locale in game.locales:
            texts = Texts.load(game, locale)
            for entry in every_text(game):
                if not isinstance(entry.source, str):
                    continue
                for match in PLACEHOLDER.finditer(texts.get(entry.key, entry.source)):
                    name, phrase = match.groups()
                    if not phrase or phrase.startswith("ordinal"):
                        continue
                    for n in NUMBERS:
                        filled = texts.fill(match.group(0), {name: n})
                        assert filled.startswith(str(n)) and "{" not in filled and len(filled) > len(str(n)) + 1, \
                            (game.slug, locale, entry.key, phrase, n, filled)
                        checked += 1
    assert checked > 1000
