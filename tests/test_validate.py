"""`pnp validate`: the shipped data passes; broken copies fail with file, line and key,
exit code 1, every problem in one run, no traceback, and output/ untouched."""
from __future__ import annotations


import shutil

import pytest

from conftest import SAMPLE, line_of, pnp, replace_in, snapshot

GAME = "race-to-the-table"
SAMPLE_GAME = "sample-game"


def test_shipped_data_is_valid():
    result = pnp("validate")
    assert result.exit_code == 0, result.output + result.traceback
    assert GAME in result.stdout


def test_unknown_game_is_a_usage_error():
    result = pnp("validate", "no-such-game")
    assert result.exit_code == 2
    assert "no game 'no-such-game'" in result.stderr


def test_changed_count_names_file_line_card_and_both_numbers(project):
    cards = project / "components" / GAME / "cards.yaml"
    replace_in(cards, "count: {full: 15, free: 10}", "count: {full: 14, free: 10}")
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1
    line = line_of(cards, "count: {full: 14, free: 10}")
    assert f"components/{GAME}/cards.yaml:{line}: cards.quick.count.full: rules need 15, data says 14" in result.stderr
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


def test_duplicate_id_is_reported(project):
    cards = project / "components" / GAME / "cards.yaml"
    replace_in(cards, "  intern:\n", "  boss:\n")
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1
    line = line_of(cards, "  boss:", start="name: Шефът")           # the second boss, not the first
    assert f"components/{GAME}/cards.yaml:{line}: boss: duplicate key" in result.stderr, result.stderr


def test_every_problem_is_reported_in_one_run(project):
    folder = project / "components" / GAME
    replace_in(folder / "cards.yaml", "count: {full: 7, free: 5}", "count: {full: 7, free: 4}")
    replace_in(folder / "cards.yaml", "count: {full: 3}\n    colour: \"#C25611\"", "count: {full: 2}\n    colour: \"#C25611\"")
    replace_in(folder / "boards.yaml", "      spaces: 15\n      label: Часовник", "      spaces: 14\n      label: Часовник")
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1
    cards = f"components/{GAME}/cards.yaml"
    assert result.stderr.splitlines() == [
        f"components/{GAME}/boards.yaml:{line_of(folder / 'boards.yaml', 'spaces: 14')}: design.shapes.clock.spaces: "
        "rules need 15, data says 14",
        f"{cards}:{line_of(folder / 'cards.yaml', 'cards:')}: cards: total cards in edition 'free': rules need 27, data says 26",
        f"{cards}:{line_of(folder / 'cards.yaml', 'cards:')}: cards: total cards in edition 'full': rules need 63, data says 62",
        f"{cards}:{line_of(folder / 'cards.yaml', 'cards:')}: cards: total cards/action in edition 'free': "
        "rules need 27, data says 26",
        f"{cards}:{line_of(folder / 'cards.yaml', 'cards:')}: cards: total cards/action in edition 'full': "
        "rules need 54, data says 53",
        f"{cards}:{line_of(folder / 'cards.yaml', 'count: {full: 7, free: 4}')}: cards.long-queue.count.free: "
        "rules need 5, data says 4",
        f"{cards}:{line_of(folder / 'cards.yaml', 'count: {full: 2}')}: cards.road-works.count.full: "
        "rules need 3, data says 2",
        "7 problem(s) found.",
    ]


def test_text_that_does_not_fit_names_card_field_and_locale(project):
    cards = project / "components" / GAME / "cards.yaml"
    replace_in(cards, "text: Преместете един пул 2 полета напред.",
               "text: " + "Преместете един пул 2 полета напред и после още веднъж. " * 12)
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1
    # A face's problems name the card's line, whichever field of it they are about.
    line = line_of(cards, "  quick:")
    for edition in ("free", "full"):
        assert (f"components/{GAME}/cards.yaml:{line}: cards.quick.text: [{GAME} {edition} bg] text does not fit: "
                "needs 18 lines at 6.5 pt, the 25.5 mm box holds fewer") in result.stderr


def test_a_missing_component_kind_names_it(project):
    cards = project / "components" / GAME / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    start = text.index("  sudden-rain:")
    end = text.index("\n\n", start)
    cards.write_text(text[:start] + text[end + 2:], encoding="utf-8")
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1
    where = f"components/{GAME}/cards.yaml:{line_of(cards, 'cards:')}: cards"       # where the card is missing
    assert result.stderr.splitlines() == [
        f"{where}: cards.sudden-rain: rules need 1 in edition 'full', data has none under cards",
        f"{where}: total cards in edition 'full': rules need 63, data says 62",
        f"{where}: total cards/action in edition 'full': rules need 54, data says 53",
        "3 problem(s) found.",
    ]


@pytest.mark.parametrize("command", [["list"], ["validate"], ["build", "--paper", "a4"]])
def test_project_folder_is_named_with_C(tmp_path, command):
    result = pnp(*command, project=tmp_path)
    assert result.exit_code == 2
    assert "no components/ folder" in result.stderr


def test_icon_outside_the_basic_plane_is_refused(project):
    cards = project / "components" / GAME / "cards.yaml"
    replace_in(cards, 'icon: "☕"', 'icon: "🍕"')
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1
    line = line_of(cards, "  gourmet:")
    assert result.stderr.splitlines()[0] == (f"components/{GAME}/cards.yaml:{line}: cards.gourmet.icon: [bg] icon '🍕' is "
                                             "outside the Basic Multilingual Plane (U+0000–U+FFFF)")


def test_board_and_token_text_that_does_not_fit_is_located(project):
    folder = project / "components" / GAME
    replace_in(folder / "tokens.yaml", "    name: Маркер\n", "    name: Часовникът на голямата маса\n")
    replace_in(folder / "boards.yaml", "note: Бърза игра}", "note: 'Бърза игра за много нетърпеливи и изключително гладни хора, които не могат да чакат'}")
    replace_in(folder / "boards.yaml", "note: Край}", "note: 'Край на играта за всички гладни, нетърпеливи и много, много уморени хора, които искат да ядат веднага'}")
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1
    # every overflow of a board is named, not only the first one the drawing meets
    tokens_line = line_of(folder / "tokens.yaml", "Часовникът на голямата маса")
    boards_line = line_of(folder / "boards.yaml", "нетърпеливи")
    red_line = line_of(folder / "boards.yaml", "note: 'Край на играта")
    assert (f"components/{GAME}/boards.yaml:{red_line}: design.shapes.clock.marks.red.note: "
            f"[{GAME} free bg] text does not fit") in result.stderr
    assert (f"components/{GAME}/tokens.yaml:{tokens_line}: tokens.clock-marker.name: "
            f"[{GAME} full bg] text does not fit") in result.stderr
    assert (f"components/{GAME}/boards.yaml:{boards_line}: design.shapes.clock.marks.middle.note: "
            f"[{GAME} free bg] text does not fit") in result.stderr
    assert not result.traceback


def test_shipped_cards_keep_every_shops_safe_zone():
    """Also guards that a field printed by several elements (a number in the corners and the
    centre) is fitted per element: one shared size pushed corner numbers past the trim."""
    result = pnp("validate", "--profile", "all")
    assert result.exit_code == 0, result.stderr[-2000:]


def test_safe_zone_names_card_field_and_profile(project):
    layouts = project / "components" / GAME / "layouts.yaml"
    # right-aligned to 3.6 mm from the right trim: still on the white panel, so still readable
    replace_in(layouts, "{type: text, field: count_label, box: [44, 5.5, 13, 4.5]",
               "{type: text, field: count_label, box: [44, 5.5, 15.4, 4.5]")
    result = pnp("validate", GAME, "--profile", "eu-3mm", project=project)
    assert result.exit_code == 1
    line = line_of(project / "components" / GAME / "cards.yaml", "  quick:")
    assert (f"components/{GAME}/cards.yaml:{line}: cards.quick.count_label: [eu-3mm {GAME} full bg] "
            "text is 3.60 mm from the trim; this shop needs 4 mm (safe zone)") in result.stderr, result.stderr
