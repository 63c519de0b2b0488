"""Every game found in components/, every edition: its card sheets as the layout stage plans
them hold each card of the edition as often as the data counts it, and no card the edition
does not print (a count of 0 in one edition, another edition's card). Read on the placed model,
without drawing; tests/test_kits.py reads the same from a drawn sheet of the fixture game."""
from __future__ import annotations

import pytest

from conftest import ROOT
from generator.app.loading import load_games
from generator.i18n.texts import Texts
from generator.layout.faces import Localised, card_faces, card_runs, card_sizes
from generator.load.project import Project

PROJECT = Project(ROOT)
GAMES = {game.slug: game for game in load_games(PROJECT, texts=False)}
EDITIONS = [(slug, edition) for slug, game in sorted(GAMES.items()) for edition in game.editions]


@pytest.mark.parametrize("slug, edition", EDITIONS)
def test_the_card_sheets_hold_every_card_as_often_as_the_edition_counts_it(slug, edition):
    game = GAMES[slug]
    loc = Localised(game, edition, Texts.load(game, game.source_locale))
    on_sheets: dict[str, int] = {}      # a dict: a face of no copies stays a key (a Counter drops it)
    for run in card_runs(loc, card_faces(loc), card_sizes(PROJECT)):
        for face in run.faces:
            on_sheets[face.source[2]] = on_sheets.get(face.source[2], 0) + face.copies
    counted = {card.keypath: card.count(edition) for card in game.components if card.category == "cards"}
    assert on_sheets == {key: count for key, count in counted.items() if count}
    assert sum(on_sheets.values()) > 0
