"""Broken input is reported where it is: every problem at its file:line and key, all of them in
one run (across files, and within a list or a mapping), exit code 1 and no traceback. A field a
layout reads that the component does not have, and a character no shipped font draws, are
errors of every kind of component, not blanks on the printed sheet."""
from __future__ import annotations

import shutil

import pytest

from conftest import ROOT, SAMPLE, line_of, pnp, replace_in
from generator.load import shapes


GAME = "sample-game"
FOLDER = f"components/{GAME}"


@pytest.fixture
def sample_copy(tmp_path):
    """A copy of the sample project that a test may break."""
    copy = tmp_path / "project"
    shutil.copytree(SAMPLE, copy)
    return copy


def game_file(project, name):
    return project / FOLDER / f"{name}.yaml"


def fails_with(project, expected: list[str], *args: str) -> None:
    """`pnp validate` (or `args`) fails with exactly these problems, in one run."""
    result = pnp(*(args or ("validate",)), project=project)
    assert result.exit_code == 1 and not result.traceback, result.output + result.traceback
    assert result.stderr.splitlines() == expected + [f"{len(expected)} problem(s) found."], result.stderr


# ---- YAML the reader refuses -------------------------------------------------------------------

@pytest.mark.parametrize("name, above, bad", [
    ("cards", "# " + "Ж" * 400 + "\n", "\x00"),            # two bytes a character above the NUL
    ("cards", "# " + "€" * 300 + "\n" + "# ☀" * 50 + "\n", "\x07"),   # three bytes a character
    ("tokens", "# Жетони: " + "ї" * 120 + "\n" * 3, "\x1b"),
])
def test_a_control_character_is_named_on_its_own_line(sample_copy, name, above, bad):
    path = game_file(sample_copy, name)
    text = path.read_text(encoding="utf-8")
    needle = "name: Knight" if name == "cards" else "name: Supply"
    path.write_text(above + text.replace(needle, needle[:-2] + bad + needle[-2:]), encoding="utf-8")
    line = line_of(path, needle[:-2] + bad)
    assert line > 2
    fails_with(sample_copy, [f"{FOLDER}/{name}.yaml:{line}: YAML error: control characters are not allowed"])


def test_control_characters_in_two_files_are_both_named(sample_copy):
    expected = []
    for name, needle in (("cards", "name: Archer"), ("dice", "name: Moon die")):
        path = game_file(sample_copy, name)
        path.write_text("# Ще " + "щ" * 200 + "\n" + path.read_text(encoding="utf-8").replace(needle, needle + "\x00"),
                        encoding="utf-8")
        expected.append(f"{FOLDER}/{name}.yaml:{line_of(path, needle)}: YAML error: control characters are not allowed")
    fails_with(sample_copy, expected)


def test_files_over_the_size_limit_are_refused_at_their_first_line(sample_copy):
    """Refused unread, each named with a line like every other problem."""
    expected = []
    for name in ("cards", "pieces"):
        path = game_file(sample_copy, name)
        with path.open("a", encoding="utf-8") as handle:
            handle.write("# padding\n" * 430_000)
        expected.append(f"{FOLDER}/{name}.yaml:1: refused: {path.stat().st_size:,} bytes, more than the 4,194,304 "
                        f"a data file may have")
    fails_with(sample_copy, expected)


# ---- every key of a loop board ----------------------------------------------------------------

# every key a loop takes, as the shapes' schema lists them
LOOP_KEYS = ", ".join(sorted(next(branch["then"]["properties"] for branch in shapes.schema()["$defs"]["shape"]["allOf"]
                                  if branch["if"]["properties"]["shape"]["const"] == "loop")))


def test_every_unknown_key_of_a_loop_is_named_with_the_key_it_may_mean(sample_copy):
    boards = game_file(sample_copy, "boards")
    replace_in(boards, "      sides: 6\n", "      sides: 6\n      sidse: 5\n      pitch: 3\n      bandmm: 4\n"
                                         "      dirction: clockwise\n")
    replace_in(boards, "      ring: {sides: 4}", "      ring: {sides: 4, centr: [90, 90]}")
    fails_with(sample_copy, [
        f"{FOLDER}/boards.yaml:{line_of(boards, 'sidse')}: design.shapes.ring.sidse: unknown key 'sidse', "
        f"did you mean 'sides'? (allowed: {LOOP_KEYS})",
        f"{FOLDER}/boards.yaml:{line_of(boards, 'pitch:')}: design.shapes.ring.pitch: unknown key 'pitch', "
        f"did you mean 'pitch_mm'? (allowed: {LOOP_KEYS})",
        f"{FOLDER}/boards.yaml:{line_of(boards, 'bandmm')}: design.shapes.ring.bandmm: unknown key 'bandmm', "
        f"did you mean 'band_mm'? (allowed: {LOOP_KEYS})",
        f"{FOLDER}/boards.yaml:{line_of(boards, 'dirction')}: design.shapes.ring.dirction: unknown key 'dirction', "
        f"did you mean 'direction'? (allowed: {LOOP_KEYS})",
        # the board's own key is the board's, named once (the design's are not the square's)
        f"{FOLDER}/boards.yaml:{line_of(boards, 'centr:')}: boards.square.shapes.ring.centr: unknown key 'centr', "
        f"did you mean 'centre'? (allowed: {LOOP_KEYS})",
    ])


def test_every_place_past_a_loops_side_is_named(sample_copy):
    """A start area, a branch or a mark past the spaces of a side would not be drawn: each is
    an error at its line, beside a loop too large for its board."""
    boards = game_file(sample_copy, "boards")
    replace_in(boards, "start_area: {at: 4,", "start_area: {at: 9,")
    replace_in(boards, "branch: {at: 2,", "branch: {at: 12,")
    replace_in(boards, "corner: {at: 1, ring: true", "corner: {at: 10, ring: true")
    replace_in(boards, "way_out: {at: 4,", "way_out: {at: 11,")
    replace_in(boards, "ring: {sides: 4}", "ring: {sides: 4, pitch_mm: 22}")
    where = "[sample-game standard en]"
    past = "spaces of each side; it would not be drawn"
    fails_with(sample_copy, [
        f"{FOLDER}/boards.yaml:{line_of(boards, 'start_area:')}: design.shapes.ring.start_area: {where} at 9 is past "
        f"the 8 {past}",
        f"{FOLDER}/boards.yaml:{line_of(boards, 'branch:')}: design.shapes.ring.branch: {where} at 12 is past the 8 "
        f"{past}",
        f"{FOLDER}/boards.yaml:{line_of(boards, 'marks:')}: design.shapes.ring.marks: {where} corner at 10 is past "
        f"the 8 {past}",
        f"{FOLDER}/boards.yaml:{line_of(boards, 'marks:')}: design.shapes.ring.marks: {where} way_out at 11 is past "
        f"the 8 {past}",
        f"{FOLDER}/boards.yaml:{line_of(boards, 'pitch_mm: 22')}: boards.square.shapes.ring.pitch_mm: {where} the loop "
        f"of 4 sides x 8 spaces at 22 mm spans 196 x 196 mm about its centre; it does not fit the 180 x 180 mm board",
    ])


# ---- every card size --------------------------------------------------------------------------

def test_every_sheet_whose_slots_are_not_its_card_size_is_named_by_validate(sample_copy):
    sheets = sample_copy / "templates" / "sheets"
    sheets.mkdir(parents=True)
    for name, old, new in (("poker-3x3", "card_mm: [63, 88]", "card_mm: [63, 89]"),
                           ("poker-gutterfold", "card_mm: [63, 88]", "card_mm: [64, 88]"),
                           ("mini-4x4", "card_mm: [44, 63]", "card_mm: [44, 64]")):
        shutil.copy(ROOT / "templates" / "sheets" / f"{name}.yaml", sheets)
        replace_in(sheets / f"{name}.yaml", old, new)
    line = {name: line_of(sheets / f"{name}.yaml", "card_mm:") for name in ("poker-3x3", "poker-gutterfold", "mini-4x4")}
    fails_with(sample_copy, [
        f"templates/sheets/mini-4x4.yaml:{line['mini-4x4']}: card_mm: the sheet's slots are 44 x 64 mm, but "
        f"card-sizes.yaml prints mini cards (44 x 63 mm) on it",
        f"templates/sheets/poker-3x3.yaml:{line['poker-3x3']}: card_mm: the sheet's slots are 63 x 89 mm, but "
        f"card-sizes.yaml prints poker cards (63 x 88 mm) on it",
        f"templates/sheets/poker-gutterfold.yaml:{line['poker-gutterfold']}: card_mm: the sheet's slots are "
        f"64 x 88 mm, but card-sizes.yaml prints poker cards (63 x 88 mm) on it",
    ])


def test_every_bad_size_of_the_card_size_list_is_named(sample_copy):
    sheets = sample_copy / "templates" / "sheets"
    sheets.mkdir(parents=True)
    sizes = sheets / "card-sizes.yaml"
    shutil.copy(ROOT / "templates" / "sheets" / "card-sizes.yaml", sizes)
    replace_in(sizes, "size_mm: [57, 89]", "size_mm: [0, -89]")
    replace_in(sizes, "size_mm: [70, 70]", "size_mm: [70]")
    replace_in(sizes, "mini:   {size_mm: [44, 63],", "mini:   {size: [44, 63],")
    fails_with(sample_copy, [
        f"templates/sheets/card-sizes.yaml:{line_of(sizes, 'bridge:')}: sizes.bridge.size_mm.0: 0 is too small (minimum 1)",
        f"templates/sheets/card-sizes.yaml:{line_of(sizes, 'bridge:')}: sizes.bridge.size_mm.1: -89 is too small "
        f"(minimum 1)",
        f"templates/sheets/card-sizes.yaml:{line_of(sizes, 'mini:')}: sizes.mini: missing required key 'size_mm'",
        f"templates/sheets/card-sizes.yaml:{line_of(sizes, 'mini:')}: sizes.mini.size: unknown key 'size', did you "
        f"mean 'size_mm'? (allowed: sheets, size_mm)",
        f"templates/sheets/card-sizes.yaml:{line_of(sizes, 'square:')}: sizes.square.size_mm: 1 item, expected at "
        f"least 2",
    ])


# ---- a field no component has --------------------------------------------------------------------

def test_a_field_no_component_has_is_named_at_the_layout_of_every_kind(sample_copy):
    """A mistyped field prints nothing on every card, die, piece or board of the layout: it is
    an error at the layout's line, with the value it may mean."""
    layouts = sample_copy / FOLDER / "layouts.yaml"
    changes = [("faces.hero.elements.0.fill", 'box: [0, 0, 63, 88], fill: "{colour}"', 'box: [0, 0, 63, 88], fill: "{colur}"',
                "card", "colur", "colour"),
               ("faces.hero.elements.3.field", "field: name, box: [6, 76,", "field: deck_nmae, box: [6, 76,",
                "card", "deck_nmae", "deck_name"),
               ("faces.die-face.elements.1.field", "field: name, box: [1, 1, 14, 14]", "field: nmae, box: [1, 1, 14, 14]",
                "die face", "nmae", "name"),
               ("faces.tray.elements.1.field", "field: name, box: [40, 90,", "field: nam, box: [40, 90,",
                "piece", "nam", "name"),
               ("faces.ring-board.elements.1.field", "field: name, box: [40, 115,", "field: nmae, box: [40, 115,",
                "board", "nmae", "name"),
               ("backs.hero-back.elements.1.field", "field: game_title, box: [6, 38", "field: game_titel, box: [6, 38",
                "card", "game_titel", "game_title")]
    for _, old, new, *_ in changes:
        replace_in(layouts, old, new)
    fails_with(sample_copy, [f"{FOLDER}/layouts.yaml:{line_of(layouts, new)}: {key}: no {what} printed with this layout "
                             f"has a value '{typo}', did you mean '{meant}'?"
                             for key, _, new, what, typo, meant in changes])


def test_a_field_only_some_cards_have_is_no_error(sample_copy):
    """A value one card of the layout has (an optional subtitle) is the layout's to read."""
    replace_in(sample_copy / FOLDER / "cards.yaml", "name: Archer,", "name: Archer, fields: {subtitle: Bow},")
    replace_in(sample_copy / FOLDER / "layouts.yaml", "field: text, box: [6, 6, 51, 20]",
               "field: subtitle, box: [6, 6, 51, 20]")
    result = pnp("validate", project=sample_copy)
    assert result.exit_code == 0, result.output + result.traceback


# ---- a character no font draws ------------------------------------------------------------------

def test_a_character_no_font_draws_is_an_error_on_every_kind(sample_copy):
    """A die face, a token, a piece and a board with a character the font lacks would print a
    blank: each is named at its data, in one run."""
    dice, tokens = game_file(sample_copy, "dice"), game_file(sample_copy, "tokens")
    replace_in(dice, 'faces: [{name: "1"}, {name: "2"}', 'faces: [{name: "★"}, {name: "≈"}')
    replace_in(game_file(sample_copy, "dice"), '{name: "E"}', '{name: "ᚠ"}')
    replace_in(tokens, '    icon: "▲"', '    icon: "ᚠ"')
    sun = line_of(dice, "★")
    fails_with(sample_copy, [
        f"{FOLDER}/dice.yaml:{sun}: dice.sun.faces.0.name: [en] no glyph in the shipped font for '★'",
        f"{FOLDER}/dice.yaml:{sun}: dice.sun.faces.1.name: [en] no glyph in the shipped font for '≈'",
        f"{FOLDER}/dice.yaml:{line_of(dice, 'ᚠ')}: dice.moon.faces.4.name: [en] no glyph in the shipped font for 'ᚠ'",
        f"{FOLDER}/tokens.yaml:{line_of(tokens, 'ᚠ')}: tokens.camp.icon: [sample-game standard en] no shipped font has "
        f"the icon glyph 'ᚠ'",
    ])


def test_a_name_no_font_draws_is_named_on_boards_pieces_and_tokens(sample_copy):
    boards, pieces, tokens = (game_file(sample_copy, name) for name in ("boards", "pieces", "tokens"))
    replace_in(boards, "    name: Square ring", "    name: Square ≈ ring")
    replace_in(pieces, "    name: Tray", "    name: Tray ≈")
    replace_in(tokens, "    name: Supply", "    name: Supply ≈")
    result = pnp("validate", project=sample_copy)
    assert result.exit_code == 1 and not result.traceback, result.output + result.traceback
    errors = result.stderr.splitlines()
    for line in (f"{FOLDER}/boards.yaml:{line_of(boards, 'Square ≈')}: boards.square.name: [sample-game standard en] "
                 "no glyph in the shipped font for '≈'",
                 f"{FOLDER}/pieces.yaml:{line_of(pieces, '  tray:')}: pieces.tray.name: [en] no glyph in the shipped "
                 "font for '≈'",
                 f"{FOLDER}/tokens.yaml:{line_of(tokens, 'Supply ≈')}: tokens.supply.name: [sample-game standard en] no "
                 "glyph in the shipped font for '≈'"):
        assert line in errors, result.stderr
