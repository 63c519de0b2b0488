"""The Game's number cards, read off the built Czech card sheets: a number that reads as another
number upside down (6 and 9, 16 and 91, 68 and 89) is underlined, as its layout asks, in both
corners and the centre, the turned index's bar under it as its reader sees it; a number that
reads the same turned, or as no number, is not."""
from __future__ import annotations

import re

import pytest

from conftest import form_drawings, in_text_frame, pnp, turned_text, underline_of

# Worked out by hand: the numbers 2..99 made of 0, 1, 6, 8, 9 only, turned digit by digit with 6
# and 9 trading places, that read as a different number with no leading zero.
MARKED = {6, 9, 16, 18, 19, 61, 66, 68, 81, 86, 89, 91, 98, 99}
NOT_MARKED = {8, 10, 11, 60, 69, 80, 88, 90, 96}     # 8, 11, 69, 88, 96 read the same; 10 -> "01"


@pytest.fixture(scope="module")
def the_game(tmp_path_factory):
    out = tmp_path_factory.mktemp("the-game")
    # the card sheets, where the numbers are drawn
    result = pnp("build", "--game", "the-game", "--locale", "cs", "--paper", "a4", "--kind", "cards", "--out", str(out))
    assert result.exit_code == 0, result.output + result.traceback
    cards = {int(m.group(1)): drawn for name, drawn in
             form_drawings(out / "the-game" / "standard" / "cs" / "the-game-standard-cs-cards-a4.pdf").items()
             if (m := re.fullmatch(r"/FormXob\.card-n(\d+)", name))}
    assert sorted(cards) == list(range(2, 100))
    return cards


@pytest.mark.parametrize("number", [6, 9, 16, 61, 66, 68, 86, 89, 98, 99])
def test_a_number_card_that_reads_otherwise_turned_is_underlined_in_both_corners_and_the_centre(the_game, number):
    texts, shapes = the_game[number]
    shown = [t for t in texts if t["text"] == str(number)]
    assert len(shown) == 3                       # two corners and the centre
    assert sorted(turned_text(t) for t in shown) == [False, False, True]
    for text in shown:
        bar = underline_of(text, shapes)
        assert bar is not None, (number, text)
        x0, y0, x1, y1 = bar
        # under the glyphs as their reader sees them, a bar some 7 % of the font size thick
        assert y1 == pytest.approx(-0.10 * text["size"], abs=0.05 * text["size"])
        assert y1 - y0 == pytest.approx(0.07 * text["size"], rel=0.3)


def _under(box, text) -> bool:
    x0, y0, x1, y1 = box
    return y1 < 0 and y0 > -text["size"] and x0 < text["width"] and x1 > 0


@pytest.mark.parametrize("number", [11, 8, 10, 88, 69])
def test_a_number_that_reads_the_same_turned_is_not_marked(the_game, number):
    texts, shapes = the_game[number]
    shown = [t for t in texts if t["text"] == str(number)]
    assert len(shown) == 3
    assert all(underline_of(t, shapes) is None for t in shown)
    # nor a bar of any other width or thickness: no filled rectangle lies under a number
    under = [s for s in shapes if s["kind"] == "rect" for t in shown if _under(in_text_frame(t, s["points"]), t)]
    assert under == []


def test_exactly_the_numbers_that_read_otherwise_turned_are_underlined(the_game):
    underlined = {number for number, (texts, shapes) in the_game.items()
                  if any(underline_of(t, shapes) for t in texts if t["text"] == str(number))}
    assert underlined == MARKED
    assert not underlined & NOT_MARKED
