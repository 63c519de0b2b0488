"""The tool's own pages around a game's faces, laid out before anything is drawn: a deck's
contact sheet (its title and where each card goes) and the calibration sheet's instructions.
Their words come from the data and the catalogs, so they can be too long: what does not fit is
a reason in the plan, for the caller to report at the words' place, never a clipped line.
"""
from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.units import mm

from ..core import fonts
from .elements.text import FittedText, fit_lines
from .faces import Face


# A contact sheet: at most this many cards a row, gaps, the label under each card, the margin
# round the page and the band the title is set in (mm).
COLUMNS = 6
GAP_MM, LABEL_MM, MARGIN_MM, TITLE_MM = 5.0, 6.0, 6.0, 12.0
TITLE_PT, TITLE_MIN_PT = 20, 10


@dataclass(frozen=True)
class ContactTile:
    """One card on a contact sheet: its face, the label under it, its top-left corner (mm)."""

    face: Face
    label: str
    x_mm: float
    top_mm: float


@dataclass(frozen=True)
class ContactSheet:
    page_mm: tuple[float, float]
    title_text: str
    title: FittedText
    title_baselines: tuple[float, ...]       # in points, from the page's bottom
    tiles: tuple[ContactTile, ...]
    problem: str                             # why the title does not fit its band; '' when it does


def lay_out_contact_sheet(faces: list[Face], title: str, back_label: str = "") -> ContactSheet:
    """`faces` are one deck's cards in data order; each distinct back follows the fronts, in
    rows of at most COLUMNS under the deck's title."""
    backs = list({face.back.key: face.back for face in faces if face.back is not None}.values())
    shown = [(face, f"×{face.copies}") for face in faces] + [(back, back_label) for back in backs]
    card_w = max(face.layout["size_mm"][0] for face, _ in shown)
    card_h = max(face.layout["size_mm"][1] for face, _ in shown)
    columns = min(COLUMNS, len(shown))
    rows = -(-len(shown) // columns)
    page = (2 * MARGIN_MM + columns * card_w + (columns - 1) * GAP_MM,
            2 * MARGIN_MM + TITLE_MM + rows * (card_h + LABEL_MM) + (rows - 1) * GAP_MM)
    fitted, problem = fit_lines(title, "bold", TITLE_PT, TITLE_MIN_PT, page[0] - 2 * MARGIN_MM, TITLE_MM - 2)
    baselines, baseline = [], (page[1] - MARGIN_MM - 1.4) * mm - fonts.ASCENT * fitted.size
    for _ in fitted.lines:
        baselines.append(baseline)
        baseline -= fonts.LEADING * fitted.size
    tiles = []
    for index, (face, label) in enumerate(shown):
        column, row = index % columns, index // columns
        tiles.append(ContactTile(face, label, MARGIN_MM + column * (card_w + GAP_MM),
                                 page[1] - MARGIN_MM - TITLE_MM - row * (card_h + LABEL_MM + GAP_MM)))
    return ContactSheet(page, title, fitted, tuple(baselines), tuple(tiles), problem)


# The calibration sheet's numbered steps: from this far below the page's top, as wide as the
# page less this margin on each side, each step in at most STEP_MM of height (mm, points).
STEPS_TOP_MM, STEPS_MARGIN_MM, STEP_MM = 32, 20, 30
STEP_PT, STEP_MIN_PT = 9, 7
STEP_LEADING = 1.25
STEP_GAP_MM = 1.5
# The line under the steps that says which --back-offset the sheet was built with (its room is
# kept whether or not it prints), and the clearance the words keep above the cross (mm).
OFFSET_LINE_PT, OFFSET_LINE_BELOW_MM = 8, 2
CROSS_CLEAR_MM = 5


@dataclass(frozen=True)
class CalibrationStep:
    text: FittedText
    baselines_mm: tuple[float, ...]


@dataclass(frozen=True)
class CalibrationSteps:
    steps: tuple[CalibrationStep, ...]
    below_mm: float                         # where the line after the steps goes
    problems: tuple[tuple[int, str], ...]   # (step's index, why it does not fit)


def lay_out_calibration_steps(paper_mm: tuple[float, float], steps: list[str], cross_mm: float) -> CalibrationSteps:
    """The steps numbered from 1, one under the other from STEPS_TOP_MM below the top, each
    shrunk to fit its width and STEP_MM of height; with the offset line under them, they end
    above the cross (`cross_mm` long) at the page's centre, or the first step that reaches it
    is a problem."""
    laid, problems = [], []
    y = paper_mm[1] - STEPS_TOP_MM
    for number, step in enumerate(steps, 1):
        fitted, problem = fit_lines(f"{number}. {step}", "regular", STEP_PT, STEP_MIN_PT,
                                    paper_mm[0] - 2 * STEPS_MARGIN_MM, STEP_MM)
        if problem:
            problems.append((number - 1, problem))
        baselines = []
        for _ in fitted.lines:
            baselines.append(y)
            y -= fitted.size * STEP_LEADING / mm
        laid.append(CalibrationStep(fitted, tuple(baselines)))
        y -= STEP_GAP_MM
    floor = paper_mm[1] / 2 + cross_mm / 2 + CROSS_CLEAR_MM
    lowest = y - OFFSET_LINE_BELOW_MM - fonts.DESCENT * OFFSET_LINE_PT / mm
    if lowest < floor and not problems:
        bottoms = [step.baselines_mm[-1] - fonts.DESCENT * step.text.size / mm for step in laid]
        reaching = next((index for index, bottom in enumerate(bottoms) if bottom < floor), len(laid) - 1)
        problems.append((reaching, f"the steps and the line under them run {floor - lowest:.1f} mm into the "
                                   f"{CROSS_CLEAR_MM:g} mm kept clear above the cross at the page's centre"))
    return CalibrationSteps(tuple(laid), y, tuple(problems))
