"""What a player must read stands out from what is under it, and nothing printed is smaller than
6 pt: read from the PDFs built from a copy of the sample game (the colours and text sizes their
content streams draw), and the data changes that would break it are located errors of `pnp
validate`. (Each shipped game's own sheets are read in its folder under tests/games/.)"""
from __future__ import annotations

import shutil
from pathlib import Path

import pikepdf
import pytest

from conftest import (MIN_PT, SAMPLE, TEXT_RATIO, contrast_ratio, hex_rgb, line_of, pnp, replace_in, text_sizes,
                      token_texts_on_their_background)

LIGHT_TOKEN = "#F4D35E"         # a token white text could not be read on
DARK_TOKEN = "#1D4ED8"          # and one black text could not


def sample_copy(tmp_path) -> Path:
    project = tmp_path / "sample"
    shutil.copytree(SAMPLE, project)
    return project


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The tokens and boards of a copy of the sample in which the camp is light and the supply
    is a standee in a dark and a light colour: their text must be dark on the one, light on the
    other."""
    project = sample_copy(tmp_path_factory.mktemp("legible"))
    folder = project / "components" / "sample-game"
    replace_in(folder / "tokens.yaml", '    colour: "#5B3FA8"\n', f'    colour: "{LIGHT_TOKEN}"\n')
    supply = ('    shape: square\n    name: Supply\n    count: {standard: 4}\n    side_mm: 20\n'
              '    colour: "#2E7D5B"\n    icon: "★"\n')
    replace_in(folder / "tokens.yaml", supply, '    shape: standee\n    name: Supply\n    count: {standard: 4}\n'
               f'    size_mm: [28, 40]\n    base_mm: 14\n    colours: ["{DARK_TOKEN}", "{LIGHT_TOKEN}"]\n')
    result = pnp("build", "--paper", "a4", "--kind", "tokens", "--kind", "boards", project=project)
    assert result.exit_code == 0, result.output + result.traceback
    return project / "output" / "sample-game" / "standard" / "en"


def test_token_text_stands_out_from_the_token_whatever_its_colour(built):
    """Every text a token form shows (name, icon, a standee's words) against the last area
    painted under where it starts: at least 4.5:1, dark and light text each where it reads."""
    with pikepdf.open(built / "sample-game-standard-en-tokens-a4.pdf") as pdf:
        texts = token_texts_on_their_background(pdf)
    for name, ink, background in texts:
        assert contrast_ratio(ink, background) >= TEXT_RATIO, \
            f"{name}: text {ink} on {background} is {contrast_ratio(ink, background):.2f}:1"
    backgrounds = {tuple(round(c, 2) for c in background) for _, _, background in texts}
    assert {tuple(round(c, 2) for c in hex_rgb(colour)) for colour in (LIGHT_TOKEN, DARK_TOKEN)} <= backgrounds
    assert len({ink for _, ink, _ in texts}) >= 2, "light text on the dark tokens, dark on the light ones"


@pytest.mark.parametrize("kind", ["tokens", "boards"])
def test_no_text_on_a_token_a_board_or_the_scale_bar_is_under_6_pt(built, kind):
    with pikepdf.open(built / f"sample-game-standard-en-{kind}-a4.pdf") as pdf:
        sizes = text_sizes(pdf)
        if kind == "boards":
            # the assembly map opens the file: the board drawn small, its tiles' labels over it
            assert pdf.pages[0].obj.get("/Resources", {}).get("/XObject"), "the map draws the board"
    assert any(where == "page" and page == 1 for page, _, where in sizes), "the scale bar's label is on page 1"
    assert any(where != "page" for _, _, where in sizes), "the components' own texts are read too"
    small = [(page, round(size, 2), where) for page, size, where in sizes if size < MIN_PT - 1e-6]
    assert not small, f"text under {MIN_PT:g} pt: {small[:5]}"


def test_a_data_change_that_makes_text_or_a_mark_low_contrast_is_located(tmp_path):
    """One run names each: a token's text colour, a board's ring, a card layout's text."""
    project = sample_copy(tmp_path)
    folder = project / "components" / "sample-game"
    replace_in(folder / "tokens.yaml", '    colour: "#2E7D5B"\n', '    colour: "#2E7D5B"\n    text_colour: "#1E1E1E"\n')
    replace_in(folder / "boards.yaml", 'corner: {at: 1, ring: true, ring_colour: "{side_ink}"}',
               'corner: {at: 1, ring: true, ring_colour: "{side}"}')
    layouts = folder / "layouts.yaml"
    card_text = '{type: text, field: text, box: [6, 6, 51, 20], font: regular, size: 10, min_size: 7, colour: "{ink}"'
    replace_in(layouts, card_text, card_text.replace("{ink}", "#C8C8C8"))
    result = pnp("validate", project=project)
    assert result.exit_code == 1 and not result.traceback
    token_line = line_of(folder / "tokens.yaml", "text_colour")
    ring_line = line_of(folder / "boards.yaml", "corner: {at: 1")
    card_line = line_of(layouts, "#C8C8C8")
    assert (f"components/sample-game/tokens.yaml:{token_line}: tokens.supply.text_colour: "
            f"[sample-game standard en] name: text in #1E1E1E on #2E7D5B has contrast "
            f"{contrast_ratio(hex_rgb('#1E1E1E'), hex_rgb('#2E7D5B')):.2f}:1, below 4.5:1") in result.stderr
    assert (f"components/sample-game/boards.yaml:{ring_line}: design.shapes.ring.marks.corner.ring_colour: "
            f"[sample-game standard en] mark in #D62828 on #D62828 has contrast 1.00:1, below 3:1") in result.stderr
    assert (f"components/sample-game/layouts.yaml:{card_line}: faces.hero.elements.4.colour: "
            f"[sample-game] text: text in #C8C8C8 on #3A61C4 has contrast "
            f"{contrast_ratio(hex_rgb('#C8C8C8'), hex_rgb('#3A61C4')):.2f}:1, "
            f"below 4.5:1") in result.stderr
    assert result.stderr.strip().endswith("problem(s) found.")


def test_a_token_name_that_does_not_fit_at_6_pt_is_a_located_fit_error(tmp_path):
    folder = sample_copy(tmp_path) / "components" / "sample-game"
    replace_in(folder / "tokens.yaml", "    name: Camp\n", "    name: Campingplatz\n")
    result = pnp("validate", "sample-game", project=folder.parent.parent)
    assert result.exit_code == 1 and not result.traceback
    line = line_of(folder / "tokens.yaml", "Campingplatz")
    assert (f"components/sample-game/tokens.yaml:{line}: tokens.camp.name: [sample-game standard en] "
            f"text does not fit: 'Campingplatz' is wider than the") in result.stderr
    assert "even at 6 pt" in result.stderr


def test_a_layout_text_set_under_6_pt_is_a_located_error(tmp_path):
    project = sample_copy(tmp_path)
    layouts = project / "components" / "sample-game" / "layouts.yaml"
    corner = '{type: text, field: name, box: [4, 3, 36, 6], font: bold, size: 8, colour: "#1E1E1E"'
    replace_in(layouts, corner, corner.replace("size: 8", "size: 5"))
    result = pnp("validate", project=project)
    assert result.exit_code == 1 and not result.traceback
    line = line_of(layouts, "size: 5, colour")
    assert (f"components/sample-game/layouts.yaml:{line}: faces.coin.elements.3.size: [sample-game] "
            f"5 pt is under the 6 pt that anything printed keeps") in result.stderr
