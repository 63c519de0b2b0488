"""`pnp validate`: the shipped data passes; broken copies fail with file, line and key,
exit code 1, every problem in one run, no traceback, and output/ untouched."""
from __future__ import annotations


import shutil

import pytest

from conftest import SAMPLE, line_of, pnp, replace_in, shop_ready_sample, snapshot

SAMPLE_GAME = "sample-game"


def test_valid_data_passes_every_game_named(tmp_path):
    """Without a game, every game of the project is checked and named. (Every shipped game's
    data: tests/test_every_game.py.)"""
    project, _ = sample_copy(tmp_path)
    result = pnp("validate", project=project)
    assert result.exit_code == 0, result.output + result.traceback
    assert result.stdout == f"ok: {SAMPLE_GAME}\n" and not result.stderr


def test_unknown_game_is_a_usage_error():
    result = pnp("validate", "no-such-game")
    assert result.exit_code == 2
    assert "no game 'no-such-game'" in result.stderr


def sample_copy(tmp_path):
    """A copy of the sample project to break, and its game's folder."""
    project = tmp_path / "sample"
    shutil.copytree(SAMPLE, project)
    return project, project / "components" / SAMPLE_GAME


def test_changed_count_names_file_line_card_and_both_numbers(tmp_path):
    project, folder = sample_copy(tmp_path)
    replace_in(folder / "cards.yaml", "count: {standard: 3}}", "count: {standard: 2}}")
    result = pnp("validate", SAMPLE_GAME, project=project)
    assert result.exit_code == 1
    line = line_of(folder / "cards.yaml", "  archer:")
    assert (f"components/{SAMPLE_GAME}/cards.yaml:{line}: cards.archer.count.standard: rules need 3, data says 2"
            in result.stderr), result.stderr
    assert not result.traceback


def _build_then_break(tmp_path, mutate):
    """Build once (a good output), break the data, build again: must fail and change nothing.
    The sample game, one kind of file: the data is read and checked whole whatever is built."""
    project = tmp_path / "sample"
    shutil.copytree(SAMPLE, project)
    selection = ("build", "--paper", "a4", "--kind", "tokens")
    assert pnp(*selection, project=project).exit_code == 0
    before = snapshot(project / "output")
    mutate(project / "components" / SAMPLE_GAME)
    result = pnp(*selection, project=project)
    assert result.exit_code == 1, result.output
    assert not result.traceback, result.traceback
    assert "Traceback" not in result.output
    assert snapshot(project / "output") == before
    return result, project / "components" / SAMPLE_GAME


def test_yaml_syntax_error_reports_file_and_line(tmp_path):
    result, folder = _build_then_break(tmp_path, lambda folder: replace_in(
        folder / "boards.yaml", "    name: Hexagon ring\n    group: large", "    name: [Hexagon ring\n    group: large"))
    line = line_of(folder / "boards.yaml", "name: [Hexagon ring") + 1    # the open list meets the next key's ':' there
    assert f"components/{SAMPLE_GAME}/boards.yaml:{line}: YAML syntax error: did not find expected ',' or ']'" \
        in result.stderr, result.stderr


def test_unknown_key_reports_file_line_and_key(tmp_path):
    result, folder = _build_then_break(tmp_path, lambda folder: replace_in(
        folder / "tokens.yaml", "    side_mm: 20\n", "    side_mm: 20\n    radius_mm: 12\n"))
    line = line_of(folder / "tokens.yaml", "radius_mm: 12")
    assert f"components/{SAMPLE_GAME}/tokens.yaml:{line}: tokens.supply.radius_mm: unknown key 'radius_mm'" \
        in result.stderr


def test_wrong_type_reports_file_line_and_key(tmp_path):
    result, folder = _build_then_break(tmp_path, lambda folder: replace_in(folder / "game.yaml", "age: 8", "age: eight"))
    line = line_of(folder / "game.yaml", "age: eight")
    assert f"components/{SAMPLE_GAME}/game.yaml:{line}: age: expected integer, got str 'eight'" in result.stderr


def test_duplicate_id_is_reported(tmp_path):
    project, folder = sample_copy(tmp_path)
    replace_in(folder / "cards.yaml", "  archer:", "  knight:")
    result = pnp("validate", SAMPLE_GAME, project=project)
    assert result.exit_code == 1
    line = line_of(folder / "cards.yaml", "  knight:", last=True)                # the second knight, not the first
    assert line != line_of(folder / "cards.yaml", "  knight:")
    assert f"components/{SAMPLE_GAME}/cards.yaml:{line}: knight: duplicate key" in result.stderr, result.stderr


def test_every_problem_is_reported_in_one_run(tmp_path):
    """Counts, totals and facts the rules state, in three files, each named where it is."""
    project, folder = sample_copy(tmp_path)
    replace_in(project / "rules" / "sample_game" / "__init__.py", '    totals={"standard": {"cards/coins": 10}},\n',
               '    totals={"standard": {"cards/coins": 10, "cards/heroes": 7}},\n'
               '    facts={"boards:design.shapes.ring.spaces": 8},\n')
    replace_in(folder / "cards.yaml", "count: {standard: 3}}", "count: {standard: 2}}")
    replace_in(folder / "tokens.yaml", "    count: {standard: 3}\n", "    count: {standard: 2}\n")
    replace_in(folder / "boards.yaml", "      spaces: 8\n", "      spaces: 7\n")
    result = pnp("validate", SAMPLE_GAME, project=project)
    assert result.exit_code == 1
    cards = f"components/{SAMPLE_GAME}/cards.yaml"
    assert result.stderr.splitlines() == [
        f"components/{SAMPLE_GAME}/boards.yaml:{line_of(folder / 'boards.yaml', 'spaces: 7')}: design.shapes.ring.spaces: "
        "rules need 8, data says 7",
        f"{cards}:{line_of(folder / 'cards.yaml', 'cards:')}: cards: total cards/heroes in edition 'standard': "
        "rules need 7, data says 6",
        f"{cards}:{line_of(folder / 'cards.yaml', '  archer:')}: cards.archer.count.standard: rules need 3, data says 2",
        f"components/{SAMPLE_GAME}/tokens.yaml:{line_of(folder / 'tokens.yaml', 'count: {standard: 2}')}: "
        "tokens.camp.count.standard: rules need 3, data says 2",
        "4 problem(s) found.",
    ]


# Far too long, its lines would run off the card, onto nothing: that is not measured for
# contrast too, the text's own problem says what to change.
@pytest.mark.parametrize("sentences, lines", [(6, 8), (14, 18)])
def test_text_that_does_not_fit_names_card_field_and_locale(tmp_path, sentences, lines):
    project, folder = sample_copy(tmp_path)
    replace_in(folder / "cards.yaml", "text: Moves two spaces.",
               "text: " + "Moves one piece two spaces and then once more. " * sentences)
    result = pnp("validate", SAMPLE_GAME, project=project)
    assert result.exit_code == 1
    # A face's problems name the card's line, whichever field of it they are about.
    line = line_of(folder / "cards.yaml", "  knight:")
    assert result.stderr.splitlines() == [
        f"components/{SAMPLE_GAME}/cards.yaml:{line}: cards.knight.text: [{SAMPLE_GAME} standard en] text does not fit: "
        f"needs {lines} lines at 7 pt, the 20 mm box holds fewer", "1 problem(s) found."]


def test_a_missing_component_kind_names_it(tmp_path):
    project, folder = sample_copy(tmp_path)
    cards = folder / "cards.yaml"
    cards.write_text("".join(line for line in cards.read_text(encoding="utf-8").splitlines(keepends=True)
                             if not line.startswith("  archer:")), encoding="utf-8")
    result = pnp("validate", SAMPLE_GAME, project=project)
    assert result.exit_code == 1
    where = f"components/{SAMPLE_GAME}/cards.yaml:{line_of(cards, 'cards:')}: cards"       # where the card is missing
    assert result.stderr.splitlines() == [
        f"{where}: cards.archer: rules need 3 in edition 'standard', data has none under cards",
        "1 problem(s) found.",
    ]


@pytest.mark.parametrize("command", [["list"], ["validate"], ["build", "--paper", "a4"]])
def test_project_folder_is_named_with_C(tmp_path, command):
    result = pnp(*command, project=tmp_path)
    assert result.exit_code == 2
    assert "no components/ folder" in result.stderr


def test_icon_outside_the_basic_plane_is_refused(tmp_path):
    project, folder = sample_copy(tmp_path)
    replace_in(folder / "layouts.yaml", "      - {type: image, file: art/sun.svg, box: [11.5, 34, 40, 40]}\n",
               '      - {type: icon, field: icon, centre: [31.5, 54], size: 30, colour: "{ink}"}\n')
    replace_in(folder / "cards.yaml", "name: Knight,", 'name: Knight, icon: "🍕",')
    result = pnp("validate", SAMPLE_GAME, project=project)
    assert result.exit_code == 1
    line = line_of(folder / "cards.yaml", "  knight:")
    assert result.stderr.splitlines()[0] == (f"components/{SAMPLE_GAME}/cards.yaml:{line}: cards.knight.icon: [en] icon "
                                             "'🍕' is outside the Basic Multilingual Plane (U+0000–U+FFFF)")


def test_a_token_icon_outside_the_basic_plane_is_refused_as_a_face_icon_is(tmp_path):
    project, folder = sample_copy(tmp_path)
    replace_in(folder / "tokens.yaml", '    icon: "★"\n', '    icon: "🍕"\n')
    result = pnp("validate", SAMPLE_GAME, project=project)
    assert result.exit_code == 1
    line = line_of(folder / "tokens.yaml", '    icon: "🍕"')
    assert result.stderr.splitlines() == [
        f"components/{SAMPLE_GAME}/tokens.yaml:{line}: tokens.supply.icon: [{SAMPLE_GAME} standard en] icon '🍕' "
        "is outside the Basic Multilingual Plane (U+0000–U+FFFF)", "1 problem(s) found."]


def test_board_and_token_text_that_does_not_fit_is_located(tmp_path):
    project, folder = sample_copy(tmp_path)
    replace_in(folder / "tokens.yaml", "    name: Supply\n", "    name: The supply of the whole long table\n")
    replace_in(folder / "boards.yaml", "note: out,", "note: 'Out of the ring for every impatient and very hungry player',")
    replace_in(folder / "boards.yaml", 'ring_colour: "{side_ink}"}',
               "ring_colour: \"{side_ink}\", note: 'The corner where all the tired and hungry players meet at last'}")
    result = pnp("validate", SAMPLE_GAME, project=project)
    assert result.exit_code == 1
    # every overflow of a board is named, not only the first one the drawing meets
    tokens_line = line_of(folder / "tokens.yaml", "The supply of the whole long table")
    way_out_line = line_of(folder / "boards.yaml", "note: 'Out of the ring")
    corner_line = line_of(folder / "boards.yaml", "note: 'The corner")
    assert (f"components/{SAMPLE_GAME}/boards.yaml:{corner_line}: design.shapes.ring.marks.corner.note: "
            f"[{SAMPLE_GAME} standard en] text does not fit") in result.stderr
    assert (f"components/{SAMPLE_GAME}/tokens.yaml:{tokens_line}: tokens.supply.name: "
            f"[{SAMPLE_GAME} standard en] text does not fit") in result.stderr
    assert (f"components/{SAMPLE_GAME}/boards.yaml:{way_out_line}: design.shapes.ring.marks.way_out.note: "
            f"[{SAMPLE_GAME} standard en] text does not fit") in result.stderr
    assert not result.traceback


def test_a_field_printed_by_several_elements_is_fitted_per_element(tmp_path):
    """A hero's name in its corner too, a box too low for the centre's 16 pt: fitted there on
    its own, it keeps every shop's safe zone (one shared size pushed corner numbers past the
    trim). Every shipped game's cards: tests/games/test_every_games_shop_components_fit.py."""
    project = shop_ready_sample(tmp_path)
    replace_in(project / "components" / SAMPLE_GAME / "layouts.yaml",
               '      - {type: text, field: text, box: [6, 6, 51, 20]',
               '      - {type: text, field: name, box: [5, 79, 14, 4], font: bold, size: 16, min_size: 6, '
               'colour: "{ink}", align: left}\n      - {type: text, field: text, box: [6, 6, 51, 20]')
    result = pnp("validate", SAMPLE_GAME, "--profile", "all", project=project)
    assert result.exit_code == 0, result.output + result.traceback


def test_safe_zone_names_card_field_and_profile(tmp_path):
    project = shop_ready_sample(tmp_path)
    folder = project / "components" / SAMPLE_GAME
    # the name left-aligned 3.6 mm from the left trim, the text right-aligned 3.6 mm from the right
    # one: inside the card, not inside this shop's safe zone
    replace_in(folder / "layouts.yaml", '{type: text, field: name, box: [6, 76, 51, 9], font: bold, size: 16, min_size: 10, '
               'colour: "{ink}", align: center}', '{type: text, field: name, box: [3.6, 76, 53.4, 9], font: bold, size: 16, '
               'min_size: 10, colour: "{ink}", align: left}')
    replace_in(folder / "layouts.yaml", '{type: text, field: text, box: [6, 6, 51, 20], font: regular, size: 10, min_size: 7, '
               'colour: "{ink}", align: center}', '{type: text, field: text, box: [6, 6, 53.4, 20], font: regular, size: 10, '
               'min_size: 7, colour: "{ink}", align: right}')
    result = pnp("validate", SAMPLE_GAME, "--profile", "eu-3mm", project=project)
    assert result.exit_code == 1
    line = line_of(folder / "cards.yaml", "  knight:")
    for field in ("name", "text"):
        assert (f"components/{SAMPLE_GAME}/cards.yaml:{line}: cards.knight.{field}: [eu-3mm {SAMPLE_GAME} standard en] "
                "text is 3.60 mm from the trim; this shop needs 4 mm (safe zone)") in result.stderr.splitlines(), result.stderr
