"""Numbers that read as another number upside down (6 and 9, 16 and 91, 68 and 89) carry the mark
their layout asks for, `upside_down_mark: underline` or `dot`, measured on the sample game's
built dice (a copy whose die layout asks for the mark): the mark's shape in the die's form, in
the frame of the number it belongs to. A dot that does not fit its box, and a mark the schema
does not know, are located errors. (The Game's and Pegs and Jokers' own marked cards are checked
in their folders under tests/games/.)"""
from __future__ import annotations

import shutil

import pytest

from conftest import SAMPLE, dot_of, form_drawings, line_of, pnp, replace_in, underline_of
from generator.layout.elements.text import turned_number


# Worked out by hand: the numbers 2..99 made of 0, 1, 6, 8, 9 only, turned digit by digit with 6
# and 9 trading places, that read as a different number with no leading zero.
MARKED = {6, 9, 16, 18, 19, 61, 66, 68, 81, 86, 89, 91, 98, 99}
NOT_MARKED = {8, 10, 11, 60, 69, 80, 88, 90, 96}     # 8, 11, 69, 88, 96 read the same; 10 -> "01"


@pytest.mark.parametrize("text, turned", [
    ("6", "9"), ("9", "6"), ("16", "91"), ("91", "16"), ("18", "81"), ("19", "61"), ("66", "99"),
    ("68", "89"), ("86", "98"), ("101", None), ("8", None), ("11", None), ("69", None), ("88", None),
    ("10", None), ("60", None), ("100", None), ("0", None), ("7", None), ("6a", None), ("J", None),
    ("", None), ("6 9", None), ("٦", None), ("-6", None), ("6.", None),
])
def test_a_number_is_marked_when_it_reads_as_another_number_turned(text, turned):
    assert turned_number(text) == turned


def test_the_numbers_2_to_99_marked_are_those_that_read_as_another_number_turned():
    marked = {n for n in range(2, 100) if turned_number(str(n))}
    assert marked == MARKED and not marked & NOT_MARKED


# ---- a layout asking for a dot (the sample project's die) ---------------------------------------

DIE_TEXT = ('{type: text, field: name, box: [1, 1, 14, 14], font: bold, size: 26, min_size: 12, '
            'colour: "#1E1E1E", align: center}')


@pytest.fixture
def sample_project(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(SAMPLE, project)
    return project


def test_a_die_face_layout_asking_for_a_dot_dots_its_6_only(sample_project):
    layouts = sample_project / "components" / "sample-game" / "layouts.yaml"
    replace_in(layouts, DIE_TEXT, DIE_TEXT[:-1] + ", upside_down_mark: dot}")
    result = pnp("build", "--paper", "a4", "--kind", "dice", project=sample_project)
    assert result.exit_code == 0, result.output + result.traceback
    dice = sample_project / "output" / "sample-game" / "standard" / "en" / "sample-game-standard-en-dice-a4.pdf"
    assert dice.exists(), sorted(p.name for p in dice.parent.iterdir())
    texts, shapes = form_drawings(dice)["/FormXob.die-sun"]      # the net of the sun die, 1 to 6
    faces = {t["text"]: t for t in texts if t["text"] in "123456"}
    assert sorted(faces) == ["1", "2", "3", "4", "5", "6"]
    dot = dot_of(faces["6"], shapes)
    assert dot is not None
    assert dot[2] - dot[0] == pytest.approx(0.16 * faces["6"]["size"], rel=0.05)
    assert all(dot_of(faces[n], shapes) is None for n in "12345")
    assert all(underline_of(t, shapes) is None for t in faces.values())


def test_a_die_face_layout_asking_for_an_underline_underlines_its_6_only(sample_project):
    layouts = sample_project / "components" / "sample-game" / "layouts.yaml"
    replace_in(layouts, DIE_TEXT, DIE_TEXT[:-1] + ", upside_down_mark: underline}")
    result = pnp("build", "--paper", "a4", "--kind", "dice", project=sample_project)
    assert result.exit_code == 0, result.output + result.traceback
    dice = sample_project / "output" / "sample-game" / "standard" / "en" / "sample-game-standard-en-dice-a4.pdf"
    texts, shapes = form_drawings(dice)["/FormXob.die-sun"]
    faces = {t["text"]: t for t in texts if t["text"] in "123456"}
    assert sorted(faces) == ["1", "2", "3", "4", "5", "6"]
    bar = underline_of(faces["6"], shapes)
    assert bar is not None
    # under the glyphs as their reader sees them (the net turns some faces), some 7 % of the size thick
    x0, y0, x1, y1 = bar
    assert y1 == pytest.approx(-0.10 * faces["6"]["size"], abs=0.05 * faces["6"]["size"])
    assert y1 - y0 == pytest.approx(0.07 * faces["6"]["size"], rel=0.3)
    assert all(underline_of(faces[n], shapes) is None for n in "12345")
    assert all(dot_of(t, shapes) is None for t in faces.values())


NARROW_DIE_TEXT = DIE_TEXT.replace("[1, 1, 14, 14]", "[1, 1, 7, 14]").replace("min_size: 12", "min_size: 26")


def test_a_dot_that_does_not_fit_beside_its_number_is_an_error_at_the_faces_line(sample_project):
    # One digit at 26 pt fits the 7 mm box; a 6 with its dot does not. 1 to 5 need no dot.
    folder = sample_project / "components" / "sample-game"
    replace_in(folder / "layouts.yaml", DIE_TEXT, NARROW_DIE_TEXT[:-1] + ", upside_down_mark: dot}")
    line = line_of(folder / "dice.yaml", "faces:")
    for command in (("validate", "sample-game"), ("build", "--paper", "a4")):
        result = pnp(*command, project=sample_project)
        assert result.exit_code == 1 and not result.traceback, result.output + result.traceback
        assert result.stderr.splitlines()[:-1] == [
            f"components/sample-game/dice.yaml:{line}: dice.sun.faces.5.upside_down_mark: [sample-game standard en] "
            "'6' with its upside-down dot is wider than the 7 mm box even at 26 pt"], result.stderr
    assert not (sample_project / "output").exists()


COIN_TEXT = ('{type: text, field: name, box: [4, 26.5, 36, 10], font: bold, size: 12, min_size: 8, colour: "{ink}", '
             'align: center}')


def test_on_a_card_a_dot_that_does_not_fit_is_an_error_at_the_layout_line(sample_project):
    # A card's texts may come from the catalogs: the layout, the same in every locale, is what to
    # mend. The coins named 8, 9 and 7: one digit at 12 pt fits the 3 mm box, a 9 with its dot does not.
    folder = sample_project / "components" / "sample-game"
    for old, new in (("one: {name: One,", 'one: {name: "8",'), ("five: {name: Five,", 'five: {name: "9",'),
                     ("thief: {name: Thief,", 'thief: {name: "7",')):
        replace_in(folder / "cards.yaml", old, new)
    narrow = COIN_TEXT.replace("36, 10]", "3, 10]").replace("min_size: 8", "min_size: 12")
    replace_in(folder / "layouts.yaml", COIN_TEXT, narrow.replace("center}", "center, upside_down_mark: dot}"))
    line = line_of(folder / "layouts.yaml", "upside_down_mark: dot")
    for command in (("validate", "sample-game"), ("build", "--paper", "a4")):
        result = pnp(*command, project=sample_project)
        assert result.exit_code == 1 and not result.traceback, result.output + result.traceback
        assert result.stderr.splitlines()[:-1] == [
            f"components/sample-game/layouts.yaml:{line}: faces.coin.elements.2.upside_down_mark: [sample-game] "
            "'9' with its upside-down dot is wider than the 3 mm box even at 12 pt"], result.stderr
    assert not (sample_project / "output").exists()


def test_an_unknown_mark_is_refused_by_the_schema(sample_project):
    layouts = sample_project / "components" / "sample-game" / "layouts.yaml"
    replace_in(layouts, DIE_TEXT, DIE_TEXT[:-1] + ", upside_down_mark: star}")
    result = pnp("validate", "sample-game", project=sample_project)
    assert result.exit_code == 1 and not result.traceback
    assert "faces.die-face.elements.1.upside_down_mark: 'star' is not one of underline, dot" in result.stderr, result.stderr
