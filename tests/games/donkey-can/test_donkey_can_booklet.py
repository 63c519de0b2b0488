"""The Donkey Can!'s booklet says where the kit departs from its source on purpose: the source's
step 1 plays cargo face up and its step 4 turns it face up; the kit plays it face down, and its
notes on this edition say why. Checked on every locale's booklet as the build lays it out, and printed in English."""
from __future__ import annotations

import pytest

from conftest import PRINTED_LOCALE, game_locales, game_string, norm, shipped_game_data

GAME = "donkey-can"


def test_the_printed_locale_is_one_of_the_games():
    assert PRINTED_LOCALE in game_locales(GAME)       # else no booklet of it would be read in print


@pytest.mark.parametrize("locale", game_locales(GAME))
def test_the_booklet_says_why_cargo_is_played_face_down(booklet_texts, locale):
    decision = next(d for d in shipped_game_data(GAME, "booklet")["decisions"] if d["id"] == "face-down")
    assert decision["rule"] == "round" and "лицьовою стороною догори" in decision["text"]
    for text in booklet_texts(GAME, "standard", locale):
        assert norm(game_string(GAME, locale, "booklet.decisions.face-down.text", decision["text"])) in text
