"""What a player must read or see stands out from what is under it, and nothing printed is
smaller than 6 pt: read from the built PDFs (the colours and text sizes their content streams
draw), and the data changes that would break it are located errors of `pnp validate`."""
from __future__ import annotations

import math
import shutil
from pathlib import Path

import pikepdf
import pytest

from conftest import MM, SAMPLE, content_ops, line_of, pnp, replace_in

TEXT_RATIO, MARK_RATIO, MIN_PT = 4.5, 3.0, 6.0
DARK_SIDE = "#263238"           # the Pegs and Jokers side whose come-out hole could not be seen
HOLE_MM = 12.0                  # a hole's diameter, boards.yaml


def luminance(rgb) -> float:
    """WCAG 2.x relative luminance of an sRGB colour given as three 0..1 channels."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def ratio(a, b) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def rgb(hex_colour: str) -> tuple[float, ...]:
    return tuple(int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))


def same(a, b) -> bool:
    return all(abs(x - y) < 0.003 for x, y in zip(a, b))


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """Pegs and Jokers' tokens and boards in Ukrainian (its longest peg names), Diced Veggies'
    tokens in Russian and Race to the Table's (standees) in Czech."""
    out = tmp_path_factory.mktemp("contrast")
    for game, locale, kinds in (("pegs-and-jokers", "uk", ("tokens", "boards")), ("diced-veggies", "ru", ("tokens",)),
                                ("race-to-the-table", "cs", ("tokens",))):
        args = ["build", "--game", game, "--locale", locale, "--paper", "a4", "--out", str(out)]
        for kind in kinds:
            args += ["--kind", kind]
        result = pnp(*args)
        assert result.exit_code == 0, result.output[-2000:]
    return out


def pdf_of(out: Path, game: str, kind: str) -> pikepdf.Pdf:
    return pikepdf.open(next(out.glob(f"{game}/*/*/*-{kind}-a4.pdf")))


def forms(pdf) -> dict[str, pikepdf.Object]:
    found = {}
    for page in pdf.pages:
        for name, xobject in page.obj.Resources.get("/XObject", {}).items():
            if xobject.get("/Subtype") == "/Form":
                found[str(name)] = xobject
    return found


def painted(stream) -> list[dict]:
    """Every path a form or page paints: its points' box (mm), the fill and stroke colours
    (0..1 RGB, None when not painted that way) and the colour text was shown in, in order."""
    shapes, points, fill, stroke, origin = [], [], (0, 0, 0), (0, 0, 0), (0.0, 0.0)
    for operands, op, ctm in content_ops(stream):
        values = [float(v) for v in operands] if op in ("Tm", "rg", "RG", "m", "l", "c", "re") else []
        if op == "Tm":
            # where the text starts, a point up into its glyphs
            x, y = values[4], values[5] + 1
            origin = ((ctm[0] * x + ctm[2] * y + ctm[4]) / MM, (ctm[1] * x + ctm[3] * y + ctm[5]) / MM)
        elif op == "rg":
            fill = tuple(values)
        elif op == "RG":
            stroke = tuple(values)
        elif op in ("m", "l", "c"):
            points += [(ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5])
                       for x, y in zip(values[0::2], values[1::2])]
        elif op == "re":
            x, y, w, h = values
            points += [(ctm[0] * px + ctm[2] * py + ctm[4], ctm[1] * px + ctm[3] * py + ctm[5])
                       for px, py in ((x, y), (x + w, y + h))]
        elif op in ("f", "f*", "B", "B*", "b", "b*", "S", "s", "n"):
            if points and op != "n":
                xs, ys = [p[0] / MM for p in points], [p[1] / MM for p in points]
                shapes.append({"box": (min(xs), min(ys), max(xs), max(ys)), "points": [(p[0] / MM, p[1] / MM) for p in points],
                               "fill": fill if op[0] in "fBb" else None,
                               "stroke": stroke if op[0] in "SsBb" else None})
            points = []
        elif op in ("Tj", "TJ"):
            shapes.append({"text": True, "fill": fill, "at": origin})
    return shapes


def circle(shape, diameter_mm: float) -> bool:
    x0, y0, x1, y1 = shape.get("box", (0, 0, 0, 0))
    return abs((x1 - x0) - diameter_mm) < 0.3 and abs((y1 - y0) - diameter_mm) < 0.3


def centre(shape) -> tuple[float, float]:
    x0, y0, x1, y1 = shape["box"]
    return (x0 + x1) / 2, (y0 + y1) / 2


def inside(point, polygon) -> bool:
    x, y = point
    crossings = 0
    for (ax, ay), (bx, by) in zip(polygon, polygon[1:] + polygon[:1]):
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            crossings += 1
    return crossings % 2 == 1


def test_the_octagons_dark_side_come_out_hole_stands_out_from_its_band(built):
    pdf = pdf_of(built, "pegs-and-jokers", "boards")        # kept open while its forms are read
    shapes = painted(forms(pdf)["/FormXob.board-octagon"])
    dark = rgb(DARK_SIDE)
    bands = [s for s in shapes if "box" in s and s["fill"] and same(s["fill"], dark) and len(s["points"]) == 4]
    assert len(bands) == 1, "one side's band is drawn in the dark colour"
    band = bands[0]
    holes = [s for s in shapes if circle(s, HOLE_MM) and s["fill"] and inside(centre(s), band["points"])]
    assert len(holes) == 18, "the dark side's band holds its 18 track holes"
    come_out = [s for s in holes if same(s["fill"], dark)]
    assert len(come_out) == 1, "one hole of the band is filled in the band's colour: the come-out hole"
    hole = come_out[0]
    assert hole["stroke"] and ratio(hole["stroke"], dark) >= MARK_RATIO, \
        f"its outline {hole['stroke']} must stand out from the band {DARK_SIDE}"
    rings = [s for s in shapes if s["fill"] is None and s.get("stroke") and "box" in s
             and math.dist(centre(s), centre(hole)) < 0.1 and s["box"][2] - s["box"][0] > HOLE_MM + 1]
    assert rings and all(ratio(ring["stroke"], dark) >= MARK_RATIO for ring in rings), "its ring stands out too"
    # every other hole of the band shows by its fill or its outline
    for other in holes:
        assert max(ratio(other["fill"], dark), ratio(other["stroke"] or other["fill"], dark)) >= MARK_RATIO


@pytest.mark.parametrize("game", ["pegs-and-jokers", "diced-veggies", "race-to-the-table"])
def test_token_text_stands_out_from_the_token_on_the_built_sheet(built, game):
    """Every text a token form shows (name, icon, a standee's words) against the last area
    painted under where it starts: at least 4.5:1."""
    checked, pdf = 0, pdf_of(built, game, "tokens")
    for name, form in forms(pdf).items():
        shapes = painted(form)
        for index, shape in enumerate(shapes):
            if not shape.get("text"):
                continue
            x, y = shape["at"]
            under = [s for s in shapes[:index] if s.get("fill") and "box" in s
                     and s["box"][0] <= x <= s["box"][2] and s["box"][1] <= y <= s["box"][3]]
            assert under, f"{name}: text at {shape['at']} lies on nothing painted"
            background = under[-1]["fill"]
            assert ratio(shape["fill"], background) >= TEXT_RATIO, \
                f"{name}: text {shape['fill']} on {background} is {ratio(shape['fill'], background):.2f}:1"
            checked += 1
    assert checked


def text_sizes(pdf) -> list[tuple[int, float, str]]:
    """(page, size in points as printed, what) of every text shown: the font size times the
    scale of the text matrix, the transformation and the forms it is drawn through."""
    found = []

    def walk(stream, ctm, page, resources, where):
        size, matrix = 0.0, (1, 0, 0, 1, 0, 0)
        for operands, op, current in content_ops(stream, ctm):
            if op == "Tf":
                size = float(operands[1])
            elif op == "Tm":
                matrix = tuple(float(v) for v in operands)
            elif op == "BT":
                matrix = (1, 0, 0, 1, 0, 0)
            elif op in ("Tj", "TJ", "'", '"'):
                a, b, c, d = matrix[:4]
                scale = math.sqrt(abs(a * d - b * c)) * math.sqrt(abs(current[0] * current[3] - current[1] * current[2]))
                found.append((page, size * scale, where))
            elif op == "Do":
                xobject = (resources or {}).get("/XObject", {}).get(operands[0])
                if xobject is not None and xobject.get("/Subtype") == "/Form":
                    m = [float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                    placed = (m[0] * current[0] + m[1] * current[2], m[0] * current[1] + m[1] * current[3],
                              m[2] * current[0] + m[3] * current[2], m[2] * current[1] + m[3] * current[3],
                              m[4] * current[0] + m[5] * current[2] + current[4],
                              m[4] * current[1] + m[5] * current[3] + current[5])
                    # a component drawn smaller than itself (a board's assembly map) is named so
                    real = abs(math.sqrt(abs(placed[0] * placed[3] - placed[1] * placed[2])) - 1) < 0.01
                    walk(xobject, placed, page, xobject.get("/Resources"),
                         str(operands[0]) + ("" if real else " (scaled)"))

    for number, page in enumerate(pdf.pages, 1):
        walk(page, (1, 0, 0, 1, 0, 0), number, page.obj.get("/Resources"), "page")
    return found


@pytest.mark.parametrize("game, kind", [("pegs-and-jokers", "tokens"), ("pegs-and-jokers", "boards"),
                                        ("diced-veggies", "tokens"), ("race-to-the-table", "tokens")])
def test_no_text_on_a_token_a_board_or_the_scale_bar_is_under_6_pt(built, game, kind):
    pdf = pdf_of(built, game, kind)
    sizes = text_sizes(pdf)
    assert any(where == "page" and page == 1 for page, _, where in sizes), "the scale bar's label is on page 1"
    small = [(page, round(size, 2), where) for page, size, where in sizes if size < MIN_PT - 1e-6]
    assert not small, f"text under {MIN_PT:g} pt: {small[:5]}"
    if kind == "boards":
        # the assembly map opens the file: the board drawn small, its tiles' labels over it
        assert any(page == 1 and where == "page" for page, _, where in sizes)
        assert pdf.pages[0].obj.get("/Resources", {}).get("/XObject"), "the map draws the board"


def sample_copy(tmp_path) -> Path:
    project = tmp_path / "sample"
    shutil.copytree(SAMPLE, project)
    return project


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
            f"{ratio(rgb('#1E1E1E'), rgb('#2E7D5B')):.2f}:1, below 4.5:1") in result.stderr
    assert (f"components/sample-game/boards.yaml:{ring_line}: design.shapes.ring.marks.corner.ring_colour: "
            f"[sample-game standard en] mark in #D62828 on #D62828 has contrast 1.00:1, below 3:1") in result.stderr
    assert (f"components/sample-game/layouts.yaml:{card_line}: faces.hero.elements.4.colour: "
            f"[sample-game] text: text in #C8C8C8 on #3A61C4 has contrast {ratio(rgb('#C8C8C8'), rgb('#3A61C4')):.2f}:1, "
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
