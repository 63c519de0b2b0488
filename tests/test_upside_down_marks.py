"""Numbers that read as another number upside down (6 and 9, 16 and 91, 68 and 89) carry the mark
their layout asks for, `upside_down_mark: underline` or `dot`, measured on the real PDFs: the
mark's shape in each card's form, in the frame of the number it belongs to (so a turned index's
bar is under the number as its reader sees it)."""
from __future__ import annotations

import re
import shutil

import pikepdf
import pytest

from conftest import ROOT, SAMPLE, line_of, pnp, replace_in
from generator.layout.elements.text import turned_number


# Worked out by hand: the numbers 2..99 made of 0, 1, 6, 8, 9 only, turned digit by digit with 6
# and 9 trading places, that read as a different number with no leading zero.
MARKED = {6, 9, 16, 18, 19, 61, 66, 68, 81, 86, 89, 91, 98, 99}
NOT_MARKED = {8, 10, 11, 60, 69, 80, 88, 90, 96}     # 8, 11, 69, 88, 96 read the same; 10 -> "01"


@pytest.mark.parametrize("text, turned", [
    ("6", "9"), ("9", "6"), ("16", "91"), ("91", "16"), ("18", "81"), ("19", "61"), ("66", "99"),
    ("68", "89"), ("86", "98"), ("101", None), ("8", None), ("11", None), ("69", None), ("88", None),
    ("10", None), ("60", None), ("100", None), ("0", None), ("7", None), ("6a", None), ("J", None),
    ("", None), ("6 9", None), ("٦", None), ("-6", None), ("6.", None),
])
def test_a_number_is_marked_when_it_reads_as_another_number_turned(text, turned):
    assert turned_number(text) == turned


# ---- reading a form's drawing ----------------------------------------------------------------

def _mul(a, b):
    """The PDF matrix product a x b (a applied first)."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


def _invert(m):
    a, b, c, d, e, f = m
    det = a * d - b * c
    return (d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)


def _apply(m, x, y):
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def drawing(form):
    """What a form draws: its texts (string, font's BaseFont, size, width in points, the matrix
    from the text's own frame, baseline at y = 0, to the form, fill colour) and its filled
    shapes (kind 'rect' or 'path', the points in form space, fill colour)."""
    fonts = form.Resources.get("/Font", {})
    texts, shapes = [], []
    ctm, fill, stack = (1, 0, 0, 1, 0, 0), None, []
    tm, font, size, path = None, None, 0.0, []
    for operands, operator in pikepdf.parse_content_stream(form):
        op = str(operator)
        if op == "q":
            stack.append((ctm, fill))
        elif op == "Q":
            ctm, fill = stack.pop()
        elif op == "cm":
            ctm = _mul([float(v) for v in operands], ctm)
        elif op == "rg":
            fill = tuple(round(float(v), 4) for v in operands)
        elif op == "Tm":
            tm = [float(v) for v in operands]
        elif op == "Tf":
            font, size = fonts[operands[0]], float(operands[1])
        elif op == "Tj":
            data = bytes(operands[0])
            first, widths = int(font.FirstChar), [float(w) for w in font.Widths]
            width = sum(widths[c - first] for c in data) * size / 1000
            texts.append({"text": data.decode("latin-1"), "font": str(font.BaseFont), "size": size,
                          "width": width, "matrix": _mul(tm, ctm), "fill": fill})
        elif op == "re":
            x, y, w, h = (float(v) for v in operands)
            path.append(("rect", [_apply(ctm, x, y), _apply(ctm, x + w, y + h)]))
        elif op in ("m", "l", "c"):
            values = [float(v) for v in operands]
            points = [_apply(ctm, values[i], values[i + 1]) for i in range(0, len(values), 2)]
            if op == "m" or not path or path[-1][0] != "path":
                path.append(("path", points))
            else:
                path[-1][1].extend(points)
        elif op in ("f", "f*", "F", "B", "B*", "b", "b*"):
            shapes += [{"kind": kind, "points": points, "fill": fill} for kind, points in path]
            path = []
        elif op in ("S", "s", "n"):
            path = []
    return texts, shapes


def local(text, points):
    """The bounding box of `points` (form space) in the text's own frame: x along its baseline
    from its start, y up from its baseline, as the text's reader sees it."""
    back = _invert(text["matrix"])
    xs, ys = zip(*(_apply(back, x, y) for x, y in points))
    return min(xs), min(ys), max(xs), max(ys)


def underline_of(text, shapes):
    """The filled rectangle under the text, as wide as its glyphs within 0.5 pt and in its colour,
    below its baseline by at most a third of the font size; None without one."""
    found = []
    for shape in shapes:
        if shape["kind"] != "rect":
            continue
        x0, y0, x1, y1 = local(text, shape["points"])
        if (abs(x0) < 0.5 and abs(x1 - text["width"]) < 0.5 and y1 < 0 and y0 > -text["size"] / 3
                and y1 - y0 > 0.02 * text["size"] and shape["fill"] == text["fill"]):
            found.append((x0, y0, x1, y1))
    assert len(found) <= 1, found
    return found[0] if found else None


def dot_of(text, shapes):
    """The filled round path just after the text on its baseline, in its colour; None without."""
    for shape in shapes:
        if shape["kind"] != "path" or len(shape["points"]) < 13:        # a circle: m and 4 curves
            continue
        x0, y0, x1, y1 = local(text, shape["points"])
        if (text["width"] < x0 < text["width"] + 0.2 * text["size"] and abs(y0) < 0.05 * text["size"]
                and abs((x1 - x0) - (y1 - y0)) < 0.05 and 0 < x1 - x0 < 0.3 * text["size"]
                and shape["fill"] == text["fill"]):
            return (x0, y0, x1, y1)
    return None


def forms(path):
    """Each form XObject of a PDF once, by name."""
    found = {}
    with pikepdf.open(path) as pdf:
        for page in pdf.pages:
            for name, form in page.obj.Resources.get("/XObject", {}).items():
                if name not in found:
                    found[name] = drawing(form)
    return found


def turned(text) -> bool:
    """The text runs right to left on the page: half a turn."""
    return text["matrix"][0] < 0 and text["matrix"][3] < 0


# ---- The Game ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def the_game(tmp_path_factory):
    out = tmp_path_factory.mktemp("the-game")
    # the card sheets, where the numbers are drawn
    result = pnp("build", "--game", "the-game", "--locale", "cs", "--paper", "a4", "--kind", "cards", "--out", str(out))
    assert result.exit_code == 0, result.output + result.traceback
    cards = {int(m.group(1)): drawn for name, drawn in
             forms(out / "the-game" / "standard" / "cs" / "the-game-standard-cs-cards-a4.pdf").items()
             if (m := re.fullmatch(r"/FormXob\.card-n(\d+)", name))}
    assert sorted(cards) == list(range(2, 100))
    return cards


@pytest.mark.parametrize("number", [6, 9, 16, 61, 66, 68, 86, 89, 98, 99])
def test_a_number_card_that_reads_otherwise_turned_is_underlined_in_both_corners_and_the_centre(the_game, number):
    texts, shapes = the_game[number]
    shown = [t for t in texts if t["text"] == str(number)]
    assert len(shown) == 3                       # two corners and the centre
    assert sorted(turned(t) for t in shown) == [False, False, True]
    for text in shown:
        bar = underline_of(text, shapes)
        assert bar is not None, (number, text)
        x0, y0, x1, y1 = bar
        # under the glyphs as their reader sees them, a bar some 7 % of the font size thick
        assert y1 == pytest.approx(-0.10 * text["size"], abs=0.05 * text["size"])
        assert y1 - y0 == pytest.approx(0.07 * text["size"], rel=0.3)


def _under(box, text) -> bool:
    x0, y0, x1, y1 = box
    return y1 < 0 and y0 > -text["size"] and x0 < text["width"] and x1 > 0


@pytest.mark.parametrize("number", [11, 8, 10, 88, 69])
def test_a_number_that_reads_the_same_turned_is_not_marked(the_game, number):
    texts, shapes = the_game[number]
    shown = [t for t in texts if t["text"] == str(number)]
    assert len(shown) == 3
    assert all(underline_of(t, shapes) is None for t in shown)
    # nor a bar of any other width or thickness: no filled rectangle lies under a number
    under = [s for s in shapes if s["kind"] == "rect" for t in shown if _under(local(t, s["points"]), t)]
    assert under == []


def test_exactly_the_numbers_that_read_otherwise_turned_are_underlined(the_game):
    underlined = {number for number, (texts, shapes) in the_game.items()
                  if any(underline_of(t, shapes) for t in texts if t["text"] == str(number))}
    assert underlined == MARKED
    assert not underlined & NOT_MARKED


# ---- standard playing cards --------------------------------------------------------------------

def test_a_playing_cards_6_and_9_are_underlined_in_both_indices(tmp_path):
    # The cards file as the build renders it (the cards kind's sheets), without the rest of the
    # kit: its boards and report take most of a build's time and show no card.
    from generator.app.kinds.cards import files
    from generator.app.loading import load_games
    from generator.i18n.texts import Texts
    from generator.layout.faces import Localised
    from generator.layout.kit import Kit
    from generator.load.project import Project
    project = Project(ROOT)
    game = load_games(project, "pegs-and-jokers", "cs", texts=False)[0]
    kit = Kit(project, game, Localised(game, "standard", Texts.load(game, "cs")), "a4")
    path = tmp_path / "cards.pdf"
    path.write_bytes(files(kit, "cards")[0].data)
    cards = forms(path)
    seen = set()
    for name, (texts, shapes) in cards.items():
        match = re.fullmatch(r"/FormXob\.card-standard-[a-z]+-([0-9a-z]+)-\d+", name)
        if not match:
            continue
        rank = match.group(1).upper()
        indices = [t for t in texts if t["text"] == rank and "Bold" in t["font"]]
        assert len(indices) >= 2, name                    # the upright index and the turned one
        assert any(turned(t) for t in indices) and any(not turned(t) for t in indices)
        marked = [underline_of(t, shapes) is not None for t in indices]
        assert marked == [rank in ("6", "9")] * len(indices), (name, marked)
        seen.add(rank)
    assert {"2", "6", "8", "9", "10", "A", "J"} <= seen


# ---- a layout asking for a dot (the sample project's die) ---------------------------------------

DIE_TEXT = ('{type: text, field: name, box: [1, 1, 14, 14], font: bold, size: 26, min_size: 12, '
            'colour: "#1E1E1E", align: center}')


@pytest.fixture
def sample_project(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(SAMPLE, project)
    return project


def test_a_die_face_layout_asking_for_a_dot_dots_its_6_only(sample_project):
    layouts = sample_project / "components" / "sample-game" / "layouts.yaml"
    replace_in(layouts, DIE_TEXT, DIE_TEXT[:-1] + ", upside_down_mark: dot}")
    result = pnp("build", "--paper", "a4", "--kind", "dice", project=sample_project)
    assert result.exit_code == 0, result.output + result.traceback
    dice = sample_project / "output" / "sample-game" / "standard" / "en" / "sample-game-standard-en-dice-a4.pdf"
    assert dice.exists(), sorted(p.name for p in dice.parent.iterdir())
    texts, shapes = forms(dice)["/FormXob.die-sun"]      # the net of the sun die, 1 to 6
    faces = {t["text"]: t for t in texts if t["text"] in "123456"}
    assert sorted(faces) == ["1", "2", "3", "4", "5", "6"]
    dot = dot_of(faces["6"], shapes)
    assert dot is not None
    assert dot[2] - dot[0] == pytest.approx(0.16 * faces["6"]["size"], rel=0.05)
    assert all(dot_of(faces[n], shapes) is None for n in "12345")
    assert all(underline_of(t, shapes) is None for t in faces.values())


CORNER = ('{type: text, field: name, box: [6.5, 68.5, 20, 11], font: bold, size: 22, min_size: 14, '
          'colour: "{ink}", align: left, upside_down_mark: underline}')


def test_a_dot_that_does_not_fit_beside_its_number_is_an_error_at_the_layout_line(project):
    layouts = project / "components" / "the-game" / "layouts.yaml"
    # Two digits at 22 pt are 8.9 mm wide, 10.8 mm with their dot: more than the 10 mm box.
    # 6 and 9 fit with theirs, and 11, 88 or 69 need none.
    replace_in(layouts, CORNER, CORNER.replace("20, 11]", "10, 11]").replace("min_size: 14", "min_size: 22")
               .replace("underline", "dot"))
    line = line_of(layouts, "upside_down_mark: dot")
    for command in (("validate", "the-game"), ("build", "--game", "the-game", "--locale", "cs", "--paper", "a4")):
        result = pnp(*command, project=project)
        assert result.exit_code == 1 and not result.traceback, result.output + result.traceback
        assert result.stderr.splitlines()[:-1] == [
            f"components/the-game/layouts.yaml:{line}: faces.number.elements.2.upside_down_mark: [the-game] "
            f"'{number}' with its upside-down dot is wider than the 10 mm box even at 22 pt"
            for number in sorted(MARKED - {6, 9})], result.stderr
    assert not (project / "output").exists()


def test_an_unknown_mark_is_refused_by_the_schema(sample_project):
    layouts = sample_project / "components" / "sample-game" / "layouts.yaml"
    replace_in(layouts, DIE_TEXT, DIE_TEXT[:-1] + ", upside_down_mark: star}")
    result = pnp("validate", "sample-game", project=sample_project)
    assert result.exit_code == 1 and not result.traceback
    assert "faces.die-face.elements.1.upside_down_mark: 'star' is not one of underline, dot" in result.stderr, result.stderr
