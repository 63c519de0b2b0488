"""The Game's booklet says where the kit departs from its source on purpose: the source's example
plays "66" on "77" (11 back, where only exactly 10 back is allowed), the kit's plays 67, and its
notes on this edition say why. Checked on every locale's booklet as the build lays it out, and
printed in English."""
from __future__ import annotations

import re

import pytest

from conftest import PRINTED_LOCALE, game_locales, game_string, norm, shipped_game_data

GAME = "the-game"


def test_the_printed_locale_is_one_of_the_games():
    assert PRINTED_LOCALE in game_locales(GAME)       # else no booklet of it would be read in print


@pytest.mark.parametrize("locale", game_locales(GAME))
def test_the_booklet_says_why_its_example_is_67_on_77(booklet_texts, locale):
    decision = next(d for d in shipped_game_data(GAME, "booklet")["decisions"] if d["id"] == "backwards-example")
    cards = shipped_game_data(GAME, "cards")["cards"]
    text = game_string(GAME, locale, "booklet.decisions.backwards-example.text", decision["text"])
    note = norm(re.sub(r"\{cards\.([a-z0-9-]+)\.value\}", lambda m: str(cards[m.group(1)]["value"]), text))
    assert all(number in note for number in ("66", "77", "67"))
    for text in booklet_texts(GAME, "standard", locale):
        assert note in text
