"""The tool's own pages around the faces: a deck's contact sheet and the duplex calibration
sheet. Their words come from the data and the catalogs; laid out before anything is drawn,
words that do not fit are a located error, never a traceback nor a clipped line."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.core import fonts
from generator.layout.furniture import (
    CROSS_CLEAR_MM,
    MARGIN_MM,
    STEPS_MARGIN_MM,
    TITLE_MM,
    lay_out_calibration_steps,
    lay_out_contact_sheet,
)
from tests.conftest import SAMPLE, line_of, pnp, replace_in


A4 = (210.0, 297.0)


class _Back:
    key = "back"


class _Face:
    def __init__(self, key: str, size_mm=(63.0, 88.0), back=None, copies: int = 1):
        self.key, self.layout, self.back, self.copies = key, {"size_mm": size_mm}, back, copies


def test_a_contact_sheet_sets_its_title_inside_its_band_and_rows_of_six():
    back = _Back()
    back.layout, back.back, back.copies = {"size_mm": (63.0, 88.0)}, None, 1
    faces = [_Face(f"card-{n}", back=back, copies=n + 1) for n in range(7)]
    sheet = lay_out_contact_sheet(faces, "Sample Game — Heroes", "back")
    assert sheet.problem == ""
    assert [tile.label for tile in sheet.tiles] == [f"×{n + 1}" for n in range(7)] + ["back"]    # the back once, last
    assert len({tile.x_mm for tile in sheet.tiles}) == 6 and len({tile.top_mm for tile in sheet.tiles}) == 2
    top_band = sheet.page_mm[1] - MARGIN_MM
    for line, baseline in zip(sheet.title.lines, sheet.title_baselines):
        assert stringWidth(line, sheet.title.font, sheet.title.size) / mm <= sheet.page_mm[0] - 2 * MARGIN_MM + 1e-6
        assert baseline / mm + fonts.ASCENT * sheet.title.size / mm <= top_band
        assert baseline / mm - fonts.DESCENT * sheet.title.size / mm >= top_band - TITLE_MM
    assert max(tile.top_mm for tile in sheet.tiles) <= top_band - TITLE_MM


def test_a_title_too_long_for_the_band_is_a_reason_not_an_exception():
    sheet = lay_out_contact_sheet([_Face("one")], "Sample Game — " + "A Very Long Deck Name " * 8)
    assert "does not fit" in sheet.problem or "holds fewer" in sheet.problem


def test_the_calibration_steps_stay_on_their_width_and_above_the_cross():
    steps = lay_out_calibration_steps(A4, ["Print this file double-sided at 100 %."] * 6, 40)
    assert steps.problems == ()
    baselines = [y for step in steps.steps for y in step.baselines_mm]
    assert baselines == sorted(baselines, reverse=True)             # one under the other, in order
    for step in steps.steps:
        for line in step.text.lines:
            assert stringWidth(line, step.text.font, step.text.size) / mm <= A4[0] - 2 * STEPS_MARGIN_MM + 1e-6
    assert steps.below_mm > A4[1] / 2 + 20 + CROSS_CLEAR_MM


def test_steps_that_reach_the_cross_name_the_first_step_that_does():
    long = "Hold the sheet against a window or lamp with this page's back facing you and look. " * 5
    steps = lay_out_calibration_steps(A4, [long] * 6, 40)
    assert len(steps.problems) == 1
    index, reason = steps.problems[0]
    assert 0 < index < 6 and "above the cross" in reason


@pytest.fixture
def sample_project(tmp_path) -> Path:
    project = tmp_path / "project"
    shutil.copytree(SAMPLE, project)
    return project


def test_a_deck_name_too_long_for_its_contact_sheet_is_an_error_at_the_name(sample_project):
    cards = sample_project / "components" / "sample-game" / "cards.yaml"
    replace_in(cards, "    name: Heroes", "    name: Heroes" + " and Their Many Friends, Foes and Relations" * 6)
    out = sample_project / "out"
    result = pnp("build", "--kind", "cards", "--paper", "a4", "--out", str(out), project=sample_project)
    assert result.exit_code == 1, result.output + result.traceback
    assert result.traceback == ""
    line = line_of(cards, "    name: Heroes")
    assert f"components/sample-game/cards.yaml:{line}: decks.heroes.name: [sample-game standard en] " \
           "the contact sheet's title" in result.output
    assert not list(out.rglob("*.png"))                     # nothing half made is left behind


def test_a_calibration_step_too_long_for_the_paper_is_an_error_at_the_step(sample_project):
    sheet = sample_project / "templates" / "sheets" / "calibration.yaml"
    sheet.parent.mkdir(parents=True)
    shutil.copy(Path(__file__).resolve().parent.parent / "templates" / "sheets" / "calibration.yaml", sheet)
    replace_in(sheet, "    - Hold the sheet against a window",
               "    - " + "Take your time and read this slowly. " * 40 + "Hold the sheet against a window")
    out = sample_project / "out"
    result = pnp("build", "--kind", "cards", "--paper", "a4", "--out", str(out), project=sample_project)
    assert result.exit_code == 1, result.output + result.traceback
    assert result.traceback == ""
    line = line_of(sheet, "Take your time")
    assert f"templates/sheets/calibration.yaml:{line}: text.steps.1: [sample-game standard en] step 2 of the " \
           "duplex calibration sheet does not fit on a4 paper" in result.output
