"""A board that also prints on one sheet: the sheet it takes and the scale it is drawn at, worked
out here from the paper and the tiling margin; and the data that would break it (a `one_sheet`
naming an edition the game lacks, a missing label the sheet prints) are located errors of
`pnp validate`, shown on a copy of the sample game."""
from __future__ import annotations

import shutil

import pytest

from conftest import PAPERS, SAMPLE, TILES, expected_scale, line_of, pnp, replace_in
from generator.layout.tiles import plan_one_sheet


@pytest.mark.parametrize("board", [(400, 280), (280, 400), (150, 100), (100, 150), (900, 120), (190, 277)])
@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_a_board_on_one_sheet_takes_the_larger_whole_percent_never_above_100_and_is_centred(board, paper):
    sheet = plan_one_sheet(board, PAPERS[paper], TILES["margin_mm"])
    page_mm, percent = expected_scale(PAPERS[paper], board)
    assert sheet.paper_mm == pytest.approx(page_mm) and round(sheet.scale * 100) == percent <= 100
    w, h = board[0] * sheet.scale, board[1] * sheet.scale
    assert (sheet.x_mm, sheet.y_mm) == pytest.approx(((page_mm[0] - w) / 2, (page_mm[1] - h) / 2))
    assert min(sheet.x_mm, sheet.y_mm) >= TILES["margin_mm"] - 1e-9


def test_a_one_sheet_edition_that_does_not_exist_and_a_missing_label_are_located_errors(tmp_path):
    project = tmp_path / "sample"
    shutil.copytree(SAMPLE, project)
    folder = project / "components" / "sample-game"
    boards, game = folder / "boards.yaml", folder / "game.yaml"
    # the sample's boards on one sheet in its edition and one it lacks; the sheet's words given
    # but for its scale
    replace_in(boards, "  layout: ring-board\n", "  layout: ring-board\n  one_sheet: [standard, deluxe]\n")
    replace_in(game, "  tile: Tile\n", "  tile: Tile\n  one_sheet: on one sheet\n")
    result = pnp("validate", "sample-game", project=project)
    assert result.exit_code == 1 and not result.traceback, result.output + result.traceback
    assert f"components/sample-game/boards.yaml:{line_of(boards, 'one_sheet:')}: design.one_sheet: " \
        "no edition 'deluxe'" in result.stderr, result.stderr
    assert f"components/sample-game/game.yaml:{line_of(game, 'labels:')}: labels.scale: a board printed on one " \
        "sheet prints this label" in result.stderr, result.stderr
    assert "labels.one_sheet" not in result.stderr
