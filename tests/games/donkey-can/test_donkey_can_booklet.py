"""The Donkey Can!'s booklet says where the kit departs from its source on purpose: the source's
step 1 plays cargo face up and its step 4 turns it face up; the kit plays it face down and says
why. Checked on every locale's booklet as the build lays it out, and printed in English."""
from __future__ import annotations

import pytest

from conftest import PRINTED_LOCALE, booklet_block, game_locales, game_string, norm

GAME = "donkey-can"


def test_the_printed_locale_is_one_of_the_games():
    assert PRINTED_LOCALE in game_locales(GAME)       # else no booklet of it would be read in print


@pytest.mark.parametrize("locale", game_locales(GAME))
def test_the_booklet_says_why_cargo_is_played_face_down(booklet_texts, locale):
    key, source = booklet_block(GAME, "round", 4)
    assert "лицьовою стороною догори" in source["p"]
    for text in booklet_texts(GAME, "standard", locale):
        assert norm(game_string(GAME, locale, f"{key}.p", source["p"])) in text
