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
from generator.layout.assembly import lay_out_assembly_map
from generator.layout.furniture import (
    CROSS_CLEAR_MM,
    MARGIN_MM,
    STEPS_MARGIN_MM,
    TITLE_MM,
    lay_out_calibration_steps,
    lay_out_contact_sheet,
)
from generator.layout.placed import place_face
from tests.conftest import ROOT, SAMPLE, line_of, pnp, replace_in

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


def own_sheet(project: Path, name: str) -> Path:
    """The project's own copy of the tool's sheet template `name`, which it then uses instead."""
    sheet = project / "templates" / "sheets" / f"{name}.yaml"
    sheet.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "templates" / "sheets" / f"{name}.yaml", sheet)
    return sheet


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
    sheet = own_sheet(sample_project, "calibration")
    replace_in(sheet, "    - Hold the sheet against a window",
               "    - " + "Take your time and read this slowly. " * 40 + "Hold the sheet against a window")
    out = sample_project / "out"
    result = pnp("build", "--kind", "cards", "--paper", "a4", "--out", str(out), project=sample_project)
    assert result.exit_code == 1, result.output + result.traceback
    assert result.traceback == ""
    line = line_of(sheet, "Take your time")
    assert f"templates/sheets/calibration.yaml:{line}: text.steps.1: [sample-game standard en] step 2 of the " \
           "duplex calibration sheet does not fit on a4 paper" in result.output


# ---- a tiled board's assembly map --------------------------------------------------------

MAP_SETTINGS = {"title_pt": 12, "note_pt": 9, "note_height_mm": 14, "gap_mm": 4, "label_pt": 16, "grid_pt": 0.9}


class _Board:
    key, name, size_mm = "board-track", "Track", (600.0, 400.0)


def _tiles():
    from generator.layout.tiles import tiles_for
    return tiles_for(_Board.size_mm, A4, {"margin_mm": 10, "overlap_mm": 12, "mark_length_mm": 5})[1]


def test_the_assembly_map_keeps_its_words_above_the_map_and_each_label_in_its_cell():
    words = {"assembly_title": "Assembly map", "assembly_note": "Glue each sheet over the hatched strips. " * 3}
    plan = lay_out_assembly_map(_Board(), _tiles(), A4, 10, MAP_SETTINGS, words)
    assert plan.problems == ()
    assert plan.paper_mm == (297.0, 210.0)                  # a wide board takes the page turned
    x0, y0 = plan.origin_mm
    top_of_map = y0 + _Board.size_mm[1] * plan.scale
    assert 10 - 1e-6 <= x0 and x0 + _Board.size_mm[0] * plan.scale <= plan.paper_mm[0] - 10 + 1e-6
    assert plan.note_lines and min(plan.note_baselines_mm) - 9 * 0.3528 * fonts.DESCENT > top_of_map
    assert plan.title_baseline_mm < plan.paper_mm[1] - 10 < plan.title_baseline_mm + 12 * 0.3528 * 1.4
    assert len(plan.labels) == len(plan.cells) == len(_tiles())
    for label in plan.labels:
        x, y, w, h = plan.cells[label.text]
        cx, cy = label.centre_pt
        assert abs(cx / mm - (x + w / 2)) < 1e-6 and abs(cy / mm - (y + h / 2)) < 1e-6
        assert label.width_pt / mm < w and label.size / mm < h


def test_a_note_longer_than_its_room_is_a_reason():
    words = {"assembly_note": "Glue each sheet over the hatched strips of its neighbours. " * 12}
    plan = lay_out_assembly_map(_Board(), _tiles(), A4, 10, MAP_SETTINGS, words)
    assert [key for key, _ in plan.problems] == ["assembly_note"]
    assert "more than the 14 mm kept for it" in plan.problems[0][1]


def test_an_assembly_note_too_long_is_an_error_at_its_words(sample_project):
    sheet = own_sheet(sample_project, "tiles")
    replace_in(sheet, 'assembly_note: "Trim every sheet', 'assembly_note: "' + "Take your time. " * 60 + 'Trim every sheet')
    out = sample_project / "out"
    result = pnp("build", "--kind", "boards", "--paper", "a4", "--out", str(out), project=sample_project)
    assert result.exit_code == 1, result.output + result.traceback
    assert result.traceback == ""
    line = line_of(sheet, "assembly_note:")
    assert f"templates/sheets/tiles.yaml:{line}: text.assembly_note: [sample-game standard en] on a4 paper, " \
           "the note takes" in result.output
    assert not list(out.rglob("*.pdf"))


# ---- what is drawn was measured when laid out ----------------------------------------------

def test_a_token_and_a_glue_label_are_drawn_without_measuring_again(monkeypatch):
    import io

    from reportlab.pdfgen.canvas import Canvas

    from generator.layout import pieces as piece_layout
    from generator.layout import tokens as token_layout
    from generator.layout.elements import icon as icon_layout
    from generator.render import pieces as piece_render
    from generator.render.tokens import draw_token

    token = token_layout.lay_out_token(token_layout.TokenFace(
        key="token-gold", shape="disc", name="Gold", colour="#7A5C00", copies=1, size_mm=(25.0, 25.0),
        icon="★", field="tokens.gold"))
    label = piece_layout.fit_glue_label("glue", (0, 0, 40, 12), (40, 60))
    assert token.icon_glyph is not None and label is not None and label.wide_pt > 0
    # a piece carries its glue areas' labels placed (home: no safe zone), one per area
    face = place_face({"size_mm": [40, 60], "elements": [{"type": "rect", "box": [0, 0, 40, 60], "fill": "#FFFFFF"}]},
                      {})
    piece = piece_layout.PieceFace("piece-box", "Box", (40.0, 60.0), 1, face, ((0, 0), (40, 0), (40, 60), (0, 60)),
                                   (), ((0, 0, 40, 12), (0, 48, 40, 2)), "glue")
    assert piece.labels == (label, None)
    in_safe_zone = piece_layout.place_glue_labels(piece, 3.0)      # a shop's, placed before drawing
    assert in_safe_zone[0] is not None and in_safe_zone[0].centre_mm != label.centre_mm

    def measured(*args, **kwargs):
        raise AssertionError("drawing measured again")

    for module, name in ((icon_layout, "stringWidth"), (token_layout, "placed_glyph"), (token_layout, "fit_lines"),
                         (piece_layout, "stringWidth"), (piece_layout, "getAscentDescent")):
        monkeypatch.setattr(module, name, measured)
    for name in ("stringWidth", "getAscentDescent", "fit_glue_label", "place_glue_labels", "placed_glyph"):   # nor by a name of their own
        monkeypatch.setattr(piece_render, name, measured, raising=False)
    canvas = Canvas(io.BytesIO())
    draw_token(canvas, token)
    piece_render.draw_piece(canvas, piece)
    piece_render.draw_piece(canvas, piece, labels=in_safe_zone)
    canvas.save()


def test_validate_finds_a_step_too_long_for_one_paper_only_and_the_title_too_long(sample_project):
    """Before anything is drawn, in one run: the contact sheet's title, and a step that fits
    the wider paper but not the narrower one, named with the paper it does not fit."""
    sheet = own_sheet(sample_project, "calibration")
    # long enough that the steps reach the cross on US Letter (279.4 mm high) but not on A4 (297 mm)
    replace_in(sheet, "    - Hold the sheet against a window", "    - " + "Take your time and read this slowly. " * 17
               + "Hold the sheet against a window")
    replace_in(sheet, "    - The cross printed", "    - " + "Look closely. " * 17 + "The cross printed")
    cards = sample_project / "components" / "sample-game" / "cards.yaml"
    replace_in(cards, "    name: Heroes", "    name: Heroes" + " and Their Many Friends, Foes and Relations" * 6)
    result = pnp("validate", project=sample_project)
    assert result.exit_code == 1, result.output + result.traceback
    assert "decks.heroes.name: [sample-game standard en] the contact sheet's title" in result.output
    assert "step 6 of the duplex calibration sheet does not fit on letter paper: the steps and the line under " \
           "them run 4.4 mm into the 5 mm kept clear above the cross" in result.output
    assert "does not fit on a4 paper" not in result.output
