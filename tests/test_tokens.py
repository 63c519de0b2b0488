"""Flat tokens (discs, squares, hexes) on the sample project's built token sheet: the cut line
measured on the rendered page lies on each shape's outline, and the booklet lists them."""
from __future__ import annotations

import math
import shutil
from pathlib import Path

import numpy
import pypdfium2
import yaml

from conftest import line_of, pnp
from generator.app.kinds.tokens import placed, token_faces
from generator.app.loading import load_games
from generator.i18n.texts import Texts
from generator.layout.faces import Localised
from generator.layout.kit import Kit
from generator.load.project import Project

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "sample"
TOKENS = FIXTURE / "components" / "sample-game" / "tokens.yaml"
MM = 72 / 25.4
COARSE, FINE = 4, 25             # pixels per mm: finding the tokens, measuring them
TOLERANCE_MM = 0.3


def token_data(token_id: str) -> dict:
    return yaml.safe_load(TOKENS.read_text(encoding="utf-8"))["tokens"][token_id]


def _rgb(hex_colour: str) -> numpy.ndarray:
    return numpy.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)])


def first_copy(page, colour: str, box_mm: tuple[float, float]) -> numpy.ndarray:
    """The first copy (leftmost, then topmost) of a token of `colour`, rendered finely with a
    little white around it: an RGB array, y downwards."""
    coarse = numpy.asarray(page.render(scale=COARSE / MM).to_pil().convert("RGB")).astype(int)
    mask = numpy.all(numpy.abs(coarse - _rgb(colour)) <= 12, axis=2)
    ys, xs = numpy.nonzero(mask)
    assert len(xs), f"no token of colour {colour} on the page"
    left = xs.min() / COARSE
    top = ys[xs / COARSE < left + box_mm[0]].min() / COARSE
    width, height = page.get_width() / MM, page.get_height() / MM
    margin = 1.5
    crop = ((left - margin) * MM, (height - top - box_mm[1] - margin) * MM,
            (width - left - box_mm[0] - margin) * MM, (top - margin) * MM)     # points cut off left, bottom, right, top
    return numpy.asarray(page.render(scale=FINE / MM, crop=crop).to_pil().convert("RGB")).astype(int)


def cut_line_crossings(image: numpy.ndarray, row: int) -> tuple[float, float]:
    """Where the black cut line crosses a row, first and last: the middle of each dark run, mm."""
    dark = numpy.nonzero(numpy.all(image[row] < 60, axis=1))[0]
    assert len(dark) >= 2, f"row {row} does not cross the outline twice"
    runs = numpy.split(dark, numpy.nonzero(numpy.diff(dark) > 1)[0] + 1)
    return runs[0].mean() / FINE, runs[-1].mean() / FINE


def outline_rows(image: numpy.ndarray) -> tuple[int, int]:
    rows = numpy.nonzero(numpy.any(numpy.all(image < 60, axis=2), axis=1))[0]
    return rows.min(), rows.max()


def fit_edge(image, rows, side: int):
    """x = a * y + b (mm) through the cut line's crossings of `rows` on one side (0 left, 1 right)."""
    ys = [row / FINE for row in rows]
    xs = [cut_line_crossings(image, row)[side] for row in rows]
    a, b = numpy.polyfit(ys, xs, 1)
    return a, b


def meet(edge, other) -> tuple[float, float]:
    (a1, b1), (a2, b2) = edge, other
    y = (b2 - b1) / (a1 - a2)
    return a1 * y + b1, y


def test_a_square_token_is_cut_along_its_four_sides(sample):
    data = token_data("supply")
    side = data["side_mm"]
    page = pypdfium2.PdfDocument(sample / "sample-game-standard-en-tokens-a4.pdf")[0]
    image = first_copy(page, data["colour"], (side, side))
    top, bottom = outline_rows(image)
    # the horizontal cut lines: the middle of the dark band at the top and at the bottom
    column = image[:, image.shape[1] // 2]
    dark = numpy.nonzero(numpy.all(column < 60, axis=1))[0]
    top_line = dark[dark < top + FINE].mean() / FINE
    bottom_line = dark[dark > bottom - FINE].mean() / FINE
    assert abs(bottom_line - top_line - side) < TOLERANCE_MM
    middle = range(top + FINE, bottom - FINE, 5)
    for edge in (0, 1):
        a, _ = fit_edge(image, middle, edge)
        assert abs(a) < 0.005                     # upright sides: the corners are right angles
    lefts, rights = zip(*(cut_line_crossings(image, row) for row in middle))
    assert abs(numpy.mean(rights) - numpy.mean(lefts) - side) < TOLERANCE_MM
    assert max(lefts) - min(lefts) < 0.1 and max(rights) - min(rights) < 0.1


def test_a_hex_token_is_pointy_topped_with_six_equal_sides_at_120_degrees(sample):
    data = token_data("camp")
    side = data["side_mm"]
    page = pypdfium2.PdfDocument(sample / "sample-game-standard-en-tokens-a4.pdf")[0]
    image = first_copy(page, data["colour"], (math.sqrt(3) * side, 2 * side))
    top, bottom = outline_rows(image)
    height = bottom - top
    band = lambda start, end: range(round(top + start * height), round(top + end * height), 3)  # noqa: E731
    upper_left, upper_right = fit_edge(image, band(0.08, 0.2), 0), fit_edge(image, band(0.08, 0.2), 1)
    left, right = fit_edge(image, band(0.32, 0.68), 0), fit_edge(image, band(0.32, 0.68), 1)
    lower_left, lower_right = fit_edge(image, band(0.8, 0.92), 0), fit_edge(image, band(0.8, 0.92), 1)
    # corners in order round the outline, from the top
    corners = [meet(upper_left, upper_right), meet(upper_left, left), meet(left, lower_left),
               meet(lower_left, lower_right), meet(lower_right, right), meet(right, upper_right)]
    sides = [math.dist(corners[i], corners[(i + 1) % 6]) for i in range(6)]
    assert all(abs(length - side) < TOLERANCE_MM for length in sides), sides
    for i in range(6):
        before, at, after = corners[i - 1], corners[i], corners[(i + 1) % 6]
        turn = math.degrees(math.atan2(before[1] - at[1], before[0] - at[0]) - math.atan2(after[1] - at[1], after[0] - at[0]))
        assert abs(abs((turn + 180) % 360 - 180) - 120) < 1, (i, turn)
    assert abs(left[0]) < 0.005 and abs(right[0]) < 0.005            # pointy-topped: the flats are upright
    assert abs(right[1] - left[1] - math.sqrt(3) * side) < TOLERANCE_MM      # across the flats
    assert abs(corners[3][1] - corners[0][1] - 2 * side) < TOLERANCE_MM       # corner to corner


def test_every_copy_is_on_the_sheet_and_the_booklet_lists_the_tokens(sample):
    page = pypdfium2.PdfDocument(sample / "sample-game-standard-en-tokens-a4.pdf")[0]
    coarse = numpy.asarray(page.render(scale=COARSE / MM).to_pil().convert("RGB")).astype(int)
    for token_id in ("supply", "camp"):
        data = token_data(token_id)
        mask = numpy.all(numpy.abs(coarse - _rgb(data["colour"])) <= 12, axis=2)
        columns = numpy.nonzero(mask.any(axis=0))[0]
        copies = 1 + int(numpy.count_nonzero(numpy.diff(columns) > COARSE))    # separated by the 4 mm gap
        assert copies == data["count"]["standard"]
    booklet = pypdfium2.PdfDocument(sample / "sample-game-standard-en-rules.pdf")
    lines = [line.strip().replace("\xa0", " ") for p in booklet for line in p.get_textpage().get_text_range().splitlines()]
    assert "4 tokens Supply" in lines and "3 camp tiles Camp" in lines
    assert "Tokens 1 sheet 1 sheet" in lines


def test_a_hex_without_its_side_is_a_located_error(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(FIXTURE, project)
    tokens = project / "components" / "sample-game" / "tokens.yaml"
    tokens.write_text(tokens.read_text(encoding="utf-8").replace("    side_mm: 12\n", ""), encoding="utf-8")
    result = pnp("validate", project=project)
    assert result.exit_code == 1 and not result.traceback
    assert (f"components/sample-game/tokens.yaml:{line_of(tokens, '  camp:')}: tokens.camp: missing required key "
            "'side_mm'") in result.stderr.splitlines()


def _supply_named(project: Path, name: str, label: str | None) -> Path:
    """The sample with its 20 mm square supply token named `name` (and labelled `label`)."""
    shutil.copytree(FIXTURE, project)
    tokens = project / "components" / "sample-game" / "tokens.yaml"
    label_line = f"    label: {label}\n" if label is not None else ""
    replaced = tokens.read_text(encoding="utf-8").replace("    name: Supply\n", f"    name: {name}\n{label_line}", 1)
    tokens.write_text(replaced, encoding="utf-8")
    return tokens


def test_a_token_prints_its_label_where_its_name_is_too_long_and_a_label_too_long_is_named(tmp_path):
    long_name = "Supplies of the whole camp"
    tokens = _supply_named(tmp_path / "long", long_name, None)
    result = pnp("validate", project=tmp_path / "long")
    assert result.exit_code == 1 and not result.traceback
    assert any(line.startswith(f"components/sample-game/tokens.yaml:{line_of(tokens, '    name: ' + long_name)}: "
                               "tokens.supply.name: ") and "does not fit" in line for line in result.stderr.splitlines())

    tokens = _supply_named(tmp_path / "labelled", long_name, "Supplies")
    assert pnp("validate", project=tmp_path / "labelled").exit_code == 0
    project = Project(tmp_path / "labelled")
    game = load_games(project, texts=False)[0]
    loc = Localised(game, "standard", Texts.load(game, "en"))
    supply = next(face for face in token_faces(loc) if face.field == "tokens.supply")
    # printed: the label; named: the name (lists, the booklet, exports)
    assert supply.name_fit.lines == ("Supplies",) and supply.name == long_name
    placed_texts = {key: text for component in placed_tokens_of(project, game, loc) for key, text, _ in component.texts}
    assert placed_texts["tokens.supply.label"] == "Supplies" and "tokens.supply.name" not in placed_texts

    tokens = _supply_named(tmp_path / "both", long_name, long_name + "x")
    result = pnp("validate", project=tmp_path / "both")
    assert result.exit_code == 1
    assert any(line.startswith(f"components/sample-game/tokens.yaml:{line_of(tokens, '    label: ')}: "
                               "tokens.supply.label: ") and "does not fit" in line for line in result.stderr.splitlines())


def placed_tokens_of(project, game, loc):
    return placed(Kit(project, game, loc, "")).components
