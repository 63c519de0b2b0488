"""Diced Veggies' look, measured on its real built PDFs: a die's net folds to a cube of the
declared edge with seven glue tabs, the frame holds the 5 × 7 block, the pieces larger than the
paper are tiled with a glue overlap, the booklet draws the net at real size. And the small
element features the game's faces use: a picture chosen and repeated by the face's values."""
from __future__ import annotations

import io
from pathlib import Path

import pikepdf
import pypdfium2
import pytest
import yaml

from conftest import MM, PAPERS, ROOT, _apply as apply_ctm, _mul, pnp, replace_in, shop_components_pass

GAME = "diced-veggies"
FOLDER = ROOT / "components" / GAME
BLOCK_ROWS, BLOCK_COLUMNS = 5, 7          # the block the frame forms (generator/rules/diced_veggies)
EPS = 0.1                                 # mm


def _data(name: str) -> dict:
    return yaml.safe_load((FOLDER / f"{name}.yaml").read_text(encoding="utf-8"))


def _sheet(name: str) -> dict:
    return yaml.safe_load((ROOT / "templates" / "sheets" / f"{name}.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    out = tmp_path_factory.mktemp("diced-veggies") / "out"
    # what these tests read: the dice and pieces sheets and the booklet
    result = pnp("build", "--game", GAME, "--locale", "ru", "--paper", "all", "--kind", "dice,pieces,booklet",
                 "--out", str(out))
    assert result.exit_code == 0, result.output + result.traceback
    return out / GAME / "standard" / "ru"


# ---- reading a page's vector drawing ------------------------------------------------------

def _apply(ctm, x, y):
    """A point of the content, in mm on the page."""
    px, py = apply_ctm(ctm, x, y)
    return (px / MM, py / MM)


def strokes(page: pikepdf.Page) -> list[dict]:
    """Every straight stroked segment drawn on the page, inside forms too, in page mm: its ends,
    whether it is dashed, its width (pt), the form it is in and that form's origin on the page;
    and every clip rectangle, as a segment-less entry with `clip`."""
    found = []

    def walk(stream_owner, resources, ctm, form, origin):
        state = {"dash": False, "width": 1.0}
        stack, path, start, current = [], [], None, None
        xobjects = resources.get("/XObject", {}) if resources is not None else {}
        for operands, operator in pikepdf.parse_content_stream(stream_owner):
            op = str(operator)
            if op == "q":
                stack.append((ctm, dict(state)))
            elif op == "Q":
                ctm, state = stack.pop()
            elif op == "cm":
                ctm = _mul([float(v) for v in operands], ctm)
            elif op == "w":
                state["width"] = float(operands[0]) * abs(ctm[0] or ctm[1])
            elif op == "d":
                state["dash"] = len(operands[0]) > 0
            elif op == "m":
                start = current = _apply(ctm, float(operands[0]), float(operands[1]))
            elif op == "l" and current is not None:
                end = _apply(ctm, float(operands[0]), float(operands[1]))
                path.append((current, end))
                current = end
            elif op == "h" and current is not None and start is not None:
                path.append((current, start))
                current = start
            elif op == "re":
                x, y, w, h = (float(v) for v in operands)
                corners = [_apply(ctm, x, y), _apply(ctm, x + w, y), _apply(ctm, x + w, y + h), _apply(ctm, x, y + h)]
                path += list(zip(corners, corners[1:] + corners[:1]))
                found.append({"rect": corners, "form": form, "origin": origin, "op": None})
            elif op in ("S", "s", "B", "b", "B*", "b*"):
                for a, b in path:
                    found.append({"a": a, "b": b, "dashed": state["dash"], "width": state["width"],
                                  "form": form, "origin": origin})
                path = []
            elif op in ("f", "F", "f*", "n"):
                path = []
            elif op == "W" or op == "W*":
                if path:
                    xs = [p[0] for seg in path for p in seg]
                    ys = [p[1] for seg in path for p in seg]
                    found.append({"clip": (min(xs), min(ys), max(xs), max(ys)), "form": form})
            elif op == "Do":
                xobject = xobjects[operands[0]]
                if xobject.get("/Subtype") == "/Form":
                    matrix = [float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                    inner = _mul(matrix, ctm)
                    walk(xobject, xobject.get("/Resources"), inner, str(operands[0]).removeprefix("/").removeprefix("FormXob."),
                         _apply(inner, 0, 0))

    walk(page, page.obj.get("/Resources"), (1, 0, 0, 1, 0, 0), None, None)
    return found


def _pages(path: Path):
    pdf = pikepdf.open(path)
    return pdf, list(pdf.pages)


def _length(segment) -> float:
    (x0, y0), (x1, y1) = segment["a"], segment["b"]
    return ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5


def _key(point) -> tuple[float, float]:
    return (round(point[0], 1), round(point[1], 1))


# ---- dice -----------------------------------------------------------------------------------

def _fold_net(squares: set[tuple[int, int]]):
    """Roll a cube over the net's squares: {square: (outward normal, 3D direction of the net's
    +x, of +y)}. A cube net puts its six squares on six different faces."""
    def neg(v):
        return tuple(-c for c in v)
    first = min(squares)
    placed = {first: ((0, 0, -1), (1, 0, 0), (0, 1, 0))}
    pending = [first]
    while pending:
        square = pending.pop()
        n, u, v = placed[square]
        x, y = square
        for step, turned in (((1, 0), (u, neg(n), v)), ((-1, 0), (neg(u), n, v)),
                             ((0, 1), (v, u, neg(n))), ((0, -1), (neg(v), u, n))):
            neighbour = (x + step[0], y + step[1])
            if neighbour in squares and neighbour not in placed:
                placed[neighbour] = turned
                pending.append(neighbour)
    return placed


def _side_edge(fold, square, side):
    """The cube edge (two face normals) that a side of a square becomes."""
    n, u, v = fold[square]
    neighbour = {"+x": u, "-x": tuple(-c for c in u), "+y": v, "-y": tuple(-c for c in v)}[side]
    return frozenset((n, neighbour))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_printed_die_net_folds_to_a_cube_of_the_declared_edge_with_seven_glue_tabs(kit, paper):
    dice, sheet = _data("dice")["dice"], _sheet("dice")
    pdf, pages = _pages(kit / f"{GAME}-standard-ru-dice-{paper}.pdf")
    # The first net on the page: the first form placed, with every line drawn in it.
    drawn = [s for s in strokes(pages[0]) if "a" in s and s["form"]]
    form, origin = drawn[0]["form"], drawn[0]["origin"]
    placed = [s for s in drawn if (s["form"], s["origin"]) == (form, origin)]
    die_id = form.rsplit("die-", 1)[1]
    edge = dice[die_id]["edge_mm"]
    # Cut lines are solid at the sheet's cut width, fold lines dashed at its fold width (the
    # faces' pictures draw lines of their own, none of them dashed or that wide).
    folds = [s for s in placed if s["dashed"] and abs(s["width"] - sheet["fold_pt"]) < 0.05]
    cuts = [s for s in placed if not s["dashed"] and abs(s["width"] - sheet["cut_pt"]) < 0.05]
    # Face edges are the segments one edge long that lie on a grid of the edge from the faces'
    # corner: fold lines, and the cut sides of faces.
    face_edges = [s for s in folds + cuts if abs(_length(s) - edge) < EPS
                  and (abs(s["a"][0] - s["b"][0]) < EPS or abs(s["a"][1] - s["b"][1]) < EPS)]
    corner_x = min(min(s["a"][0], s["b"][0]) for s in face_edges)
    corner_y = min(min(s["a"][1], s["b"][1]) for s in face_edges)

    def cell(point):
        gx, gy = (point[0] - corner_x) / edge, (point[1] - corner_y) / edge
        assert abs(gx - round(gx)) * edge < EPS and abs(gy - round(gy)) * edge < EPS, "an edge off the grid of the edge"
        return (round(gx), round(gy))

    sides = {frozenset((cell(s["a"]), cell(s["b"]))): s for s in face_edges}
    squares = {(x, y) for x in range(-1, 6) for y in range(-1, 6)
               if all(frozenset(pair) in sides for pair in (((x, y), (x + 1, y)), ((x + 1, y), (x + 1, y + 1)),
                                                            ((x, y + 1), (x + 1, y + 1)), ((x, y), (x, y + 1))))}
    assert len(squares) == 6, f"six face squares of {edge} mm, found {sorted(squares)}"
    fold = _fold_net(squares)
    assert len(fold) == 6 and len({normal for normal, _, _ in fold.values()}) == 6, "the squares fold to a cube"
    # Each square side is a fold between two faces, a tab's hinge (dashed, on the net's edge)
    # or a plain cut; the folds and the seven tabs together close all twelve edges of the cube.
    joins, hinges = set(), []
    for (x, y) in squares:
        for side, pair, outside in (("+x", ((x + 1, y), (x + 1, y + 1)), (x + 1, y)),
                                    ("-x", ((x, y), (x, y + 1)), (x - 1, y)),
                                    ("+y", ((x, y + 1), (x + 1, y + 1)), (x, y + 1)),
                                    ("-y", ((x, y), (x + 1, y)), (x, y - 1))):
            line = sides[frozenset(pair)]
            if outside in squares:
                assert line["dashed"], "two faces meet at a fold"
                joins.add(_side_edge(fold, (x, y), side))
            elif line["dashed"]:
                hinges.append(_side_edge(fold, (x, y), side))
    assert len(joins) == 5 and len(hinges) == 7, f"5 folds between faces and 7 glue tabs, got {len(joins)} and {len(hinges)}"
    assert len(joins | set(hinges)) == 12, "every edge of the cube is folded or glued, and no edge twice"
    # each tab is cut on its three other sides: 7 tabs x 3 + the 7 plain face sides
    assert len(cuts) == 7 * 3 + 7
    # The numbers read on the page: opposite faces as dice.yaml pairs them (0-5, 1-3, 2-4).
    textpage = pypdfium2.PdfDocument(kit / f"{GAME}-standard-ru-dice-{paper}.pdf")[0].get_textpage()
    shown = {}
    for (x, y), (normal, _, _) in fold.items():
        x0, y0 = corner_x + x * edge, corner_y + y * edge
        text = textpage.get_text_bounded(x0 * MM + 1, y0 * MM + 1, (x0 + edge) * MM - 1, (y0 + edge) * MM - 1)
        shown[normal] = text.strip()
    faces = [face["name"] for face in dice[die_id]["faces"]]
    pairs = sorted(sorted((faces[a], faces[b])) for a, b in ((0, 5), (1, 3), (2, 4)))
    assert sorted(sorted((shown[n], shown[tuple(-c for c in n)])) for n in shown if n > tuple(-c for c in n)) == pairs
    pdf.close()


# ---- the frame and the cleaver ------------------------------------------------------------

def _piece_pages(kit, paper: str, name: str) -> list[tuple[pikepdf.Page, list[dict], str]]:
    """(page, strokes, label) of each page that shows the piece named `name`."""
    path = kit / f"{GAME}-standard-ru-pieces-{paper}.pdf"
    texts = pypdfium2.PdfDocument(path)
    pdf, pages = _pages(path)
    shown = []
    for index, page in enumerate(pages):
        label = texts[index].get_textpage().get_text_range()
        if label.lstrip().startswith(f"{name} ·") or f"\n{name} ·" in label:
            shown.append((page, strokes(page), label))
    return shown


def _windows(shown, form: str) -> list[tuple[float, float, float, float]]:
    """Each page's window onto the piece, in the piece's own mm: (x0, y0, x1, y1)."""
    windows = []
    for _, found, _ in shown:
        origin = next(s["origin"] for s in found if s.get("form") == form and s.get("origin"))
        clip = next(s["clip"] for s in found if "clip" in s and s["form"] is None)
        windows.append((clip[0] - origin[0], clip[1] - origin[1], clip[2] - origin[0], clip[3] - origin[1]))
    return windows


# A piece's fold lines: dashed at this width (generator/render/pieces.py); the art's own dashed
# lines (the ticks a die edge apart) are far wider.
PIECE_FOLD_PT = 0.5


def _piece_folds(found, form: str) -> list[dict]:
    return [s for s in found if s.get("form") == form and "a" in s and s["dashed"]
            and abs(s["width"] - PIECE_FOLD_PT) < 0.05]


def _visible_folds(shown, form: str) -> set[tuple]:
    """The fold lines the pages show (in part at least), in the piece's mm, each once."""
    folds = set()
    for (page, found, _), window in zip(shown, _windows(shown, form)):
        for s in _piece_folds(found, form):
            a = (s["a"][0] - s["origin"][0], s["a"][1] - s["origin"][1])
            b = (s["b"][0] - s["origin"][0], s["b"][1] - s["origin"][1])
            if min(a[0], b[0]) <= window[2] + EPS and max(a[0], b[0]) >= window[0] - EPS:
                folds.add(tuple(sorted((_key(a), _key(b)))))
    return folds


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_frame_holds_the_block_of_dice_of_the_declared_edge(kit, paper):
    pieces, labels = _data("pieces")["pieces"], _data("game")["labels"]
    edge = {die["edge_mm"] for die in _data("dice")["dice"].values()}
    assert len(edge) == 1
    edge = edge.pop()
    shown = _piece_pages(kit, paper, pieces["frame"]["name"])
    assert shown, "the frame is printed"
    folds = _visible_folds(shown, "piece-frame")
    across = sorted(a[0] for a, b in folds if abs(a[0] - b[0]) < EPS)        # the folds across the strip
    along = [(a, b) for a, b in folds if abs(a[1] - b[1]) < EPS]             # the rim
    assert len(along) == 1
    rim = along[0][0][1]
    corners = [x for x in across if any(abs(x - a[0]) < EPS and abs(b[1] - a[1] - 2 * rim) < EPS
                                        for a, b in folds if abs(a[0] - b[0]) < EPS)]
    assert len(corners) == 3, f"three corners of the ring folded across the whole strip, got {corners}"
    tab_hinge = max(across)
    walls = [b - a for a, b in zip([0.0] + corners, corners + [tab_hinge])]
    assert len(walls) == 4 and abs(walls[0] - walls[2]) < EPS and abs(walls[1] - walls[3]) < EPS
    inside = sorted(walls[:2])
    assert inside[0] >= BLOCK_ROWS * edge and inside[1] >= BLOCK_COLUMNS * edge, \
        f"the {inside[0]:g} x {inside[1]:g} mm ring holds {BLOCK_ROWS} x {BLOCK_COLUMNS} dice of {edge:g} mm"
    # the walls stand at least one die high, so they push the dice rather than ride over them
    assert rim >= edge - EPS
    # the tab beyond the last wall, and both glue areas, labelled
    glue = [s for _, found, _ in shown for s in found if "rect" in s and s["form"] == "piece-frame"]
    assert glue, "the glue areas are drawn"
    text = "".join(label for _, _, label in shown)
    assert text.count(labels["glue"]) >= 2


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pieces_larger_than_the_paper_are_tiled_with_a_glue_overlap(kit, paper):
    pieces, layouts = _data("pieces")["pieces"], _data("layouts")["faces"]
    tiles, packing = _sheet("tiles"), _sheet("tokens")
    width, height = PAPERS[paper]
    tiled = 0
    for piece_id, piece in pieces.items():
        w, h = layouts[piece["layout"]]["size_mm"]
        shown = _piece_pages(kit, paper, piece["name"])
        fits = w <= width - 2 * packing["margin_mm"] and h <= height - 2 * packing["margin_mm"]
        if fits:
            assert not shown, f"{piece_id} fits the paper: it is packed, not tiled"
            continue
        windows = sorted(_windows(shown, f"piece-{piece_id}"))
        assert windows, f"{piece_id} is larger than the paper: it is printed on tiles"
        # The windows cover the piece; each overlaps the next by the glue strip exactly.
        assert min(x0 for x0, _, _, _ in windows) <= EPS and max(x1 for _, _, x1, _ in windows) >= w - EPS
        assert min(y0 for _, y0, _, _ in windows) <= EPS and max(y1 for _, _, _, y1 in windows) >= h - EPS
        for left, right in zip(windows, windows[1:]):
            if abs(left[1] - right[1]) < EPS:
                assert abs(left[2] - right[0] - tiles["overlap_mm"]) < EPS
                tiled += 1
        # each window fits inside the page's margins (on the page turned as the tiling chose)
        for _, _, label in shown:
            assert piece["name"] in label
        for x0, y0, x1, y1 in windows:
            assert x1 - x0 <= max(width, height) - 2 * tiles["margin_mm"] + EPS
            assert y1 - y0 <= max(width, height) - 2 * tiles["margin_mm"] + EPS
    assert tiled, "at least one piece is longer than the paper and joined with a glue overlap"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_cleaver_cuts_across_the_whole_block(kit, paper):
    pieces = _data("pieces")["pieces"]
    edge = next(iter(_data("dice")["dice"].values()))["edge_mm"]
    shown = _piece_pages(kit, paper, pieces["cleaver"]["name"])
    assert len(shown) == 1, "the cleaver is whole on one page"
    _, found, _ = shown[0]
    outline = [s for s in found if s.get("form") == "piece-cleaver" and "a" in s and not s["dashed"]]
    spine = _piece_folds(found, "piece-cleaver")
    assert len(spine) == 1
    lowest = min(min(s["a"][1], s["b"][1]) for s in outline)
    edge_length = max(_length(s) for s in outline if abs(s["a"][1] - lowest) < EPS and abs(s["b"][1] - lowest) < EPS)
    assert edge_length >= BLOCK_COLUMNS * edge, f"a {edge_length:g} mm edge crosses {BLOCK_COLUMNS} dice of {edge:g} mm"


# ---- the booklet ----------------------------------------------------------------------------

def test_the_booklet_draws_the_die_net_at_real_size_beside_its_assembly(kit):
    dice = _data("dice")["dice"]
    edge = next(iter(dice.values()))["edge_mm"]
    tab = min(_sheet("dice")["tab_mm"], edge / 3)
    pdf = pypdfium2.PdfDocument(kit / f"{GAME}-standard-ru-rules.pdf")
    widths = []
    for page in pdf:
        for image in page.get_objects(filter=[pypdfium2.raw.FPDF_PAGEOBJ_IMAGE]):
            left, bottom, right, top = image.get_bounds()
            widths.append(((right - left) / MM, (top - bottom) / MM))
    net = (4 * edge + tab + 2, 3 * edge + 2)         # the net with 1 mm round it
    assert any(abs(w - net[0]) < 0.3 and abs(h - net[1]) < 0.3 for w, h in widths), widths
    # a number keeps to its unit: "16 мм" is printed with a no-break space
    text = "".join(page.get_textpage().get_text_range() for page in pdf)
    assert "Сборка" in text and f"{edge}\xa0мм" in text


# ---- the element features the faces use ------------------------------------------------------

SQUARE = ('<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm" viewBox="0 0 10 10">'
          '<rect x="0" y="0" width="10" height="10" fill="{colour}"/></svg>')


def _draw(layout: dict, values: dict, folder: Path):
    from generator.layout.placed import place_face
    from generator.render.faces import draw_placed
    from generator.render.pdf import Document
    face = place_face(layout, values, folder)
    doc = Document(tuple(layout["size_mm"]), "test")
    doc.new_page()
    draw_placed(doc.canvas, face)
    data, _ = doc.finish()
    image = pypdfium2.PdfDocument(data)[0].render(scale=4 / MM).to_pil().convert("RGB")
    height = layout["size_mm"][1]
    return face, (lambda x, y: image.getpixel((round(x * 4), round((height - y) * 4))))


@pytest.fixture
def art(tmp_path):
    (tmp_path / "art").mkdir()
    for name, colour in (("red", "#DD0000"), ("blue", "#0000DD")):
        (tmp_path / "art" / f"{name}.svg").write_text(SQUARE.replace("{colour}", colour), encoding="utf-8")
    return tmp_path


def test_a_picture_is_chosen_by_a_face_value_and_nothing_is_drawn_without_one(art):
    layout = {"size_mm": [20, 20], "elements": [{"type": "image", "file": "art/{kind}.svg", "box": [5, 5, 10, 10]}]}
    for kind, rgb in (("red", (0xDD, 0, 0)), ("blue", (0, 0, 0xDD))):
        face, pixel = _draw(layout, {"kind": kind}, art)
        assert face.problems == [] and pixel(10, 10) == rgb
    face, pixel = _draw(layout, {}, art)
    assert face.problems == [] and pixel(10, 10) == (255, 255, 255)


@pytest.mark.parametrize("value, reason", [
    ("../red", "kind is '../red', which is not a plain file name"),
    ("green", "picture art/green.svg:"),
])
def test_a_chosen_picture_that_cannot_be_used_is_a_problem_of_the_file(art, value, reason):
    from generator.layout.placed import place_face
    layout = {"size_mm": [20, 20], "elements": [{"type": "image", "file": "art/{kind}.svg", "box": [5, 5, 10, 10]}]}
    problems = place_face(layout, {"kind": value}, art).problems
    assert len(problems) == 1 and problems[0][0] == "file" and reason in problems[0][1]


def test_a_picture_repeats_as_often_as_a_face_value_says(art):
    layout = {"size_mm": [40, 10], "elements": [
        {"type": "image", "file": "art/red.svg", "box": [1, 2, 6, 6], "repeat": "count", "step": [8, 0]}]}
    for count in (0, 1, 3):
        face, pixel = _draw(layout, {"count": str(count)}, art)
        drawn = [pixel(4 + 8 * i, 5) == (0xDD, 0, 0) for i in range(4)]
        assert face.problems == [] and drawn == [i < count for i in range(4)]
    _, pixel = _draw(layout, {}, art)                 # no value: no copy
    assert pixel(4, 5) == (255, 255, 255)
    from generator.layout.placed import place_face
    problems = place_face(layout, {"count": "many"}, art).problems
    assert problems == [("count", "count is 'many': a picture repeats 0 to 50 times")]


def test_repeat_without_step_is_a_located_error_of_the_layout(project):
    layouts = project / "components" / GAME / "layouts.yaml"
    replace_in(layouts, "repeat: tomato, step: [0, -11.5]}", "repeat: tomato}")
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1
    line = next(i for i, text in enumerate(layouts.read_text(encoding="utf-8").splitlines(), 1) if "repeat: tomato}" in text)
    assert any(problem.startswith(f"components/{GAME}/layouts.yaml:{line}: faces.recipe-card.elements.") and "step" in problem
               for problem in result.stderr.splitlines()), result.stderr


def test_a_dashed_line_leaves_the_next_element_solid(tmp_path):
    layout = {"size_mm": [40, 10], "elements": [
        {"type": "shape", "points": [[0, 7], [40, 7]], "stroke": "#000000", "stroke_width": 1, "dash_mm": [1, 4]},
        {"type": "shape", "points": [[0, 3], [40, 3]], "stroke": "#000000", "stroke_width": 1}]}
    _, pixel = _draw(layout, {}, tmp_path)
    assert [pixel(x + 0.5, 7) for x in (0, 2)] == [(0, 0, 0), (255, 255, 255)]      # dashed
    assert all(pixel(x + 0.5, 3) == (0, 0, 0) for x in range(0, 39))                  # solid after it


# ---- the booklet's picture block --------------------------------------------------------------

def test_a_booklet_picture_of_a_component_that_is_not_there_is_a_located_error(project):
    booklet = project / "components" / GAME / "booklet.yaml"
    replace_in(booklet, "          component: dice.mushroom", "          component: dice.potato")
    replace_in(booklet, "          component: pieces.cleaver", "          component: boards.cleaver")
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1
    lines = booklet.read_text(encoding="utf-8").splitlines()
    first = next(i for i, line in enumerate(lines, 1) if "dice.potato" in line)
    second = next(i for i, line in enumerate(lines, 1) if "boards.cleaver" in line)
    found = [line for line in result.stderr.splitlines() if "picture.component" in line]
    assert found[0].startswith(f"components/{GAME}/booklet.yaml:{first}: booklet.sections.assembly.blocks.")
    assert found[0].endswith("no component 'potato' in dice.yaml, did you mean 'tomato'? "
                             "(dice: broccoli, carrot, eggplant, mushroom, tomato)")
    assert found[1].startswith(f"components/{GAME}/booklet.yaml:{second}: ")
    assert found[1].endswith("no component 'cleaver' in boards.yaml (boards: none)")     # boards are pictured too


def test_cards_with_drawn_pictures_go_to_a_cmyk_press_profile_and_pass_its_preflight():
    """The ingredient pictures are SVG: in a CMYK press file their colours are the press's, and
    no font but the shipped ones is named. The card files are made as `pnp build --profile`
    makes them (generator.app.shop.shop_files, which preflights them), the profile's booklet
    left out (its press files are checked by test_shop_booklet.py and test_press_colour.py)."""
    from dataclasses import replace

    from generator.app.shop import shop_files
    from generator.app.loading import load_games
    from generator.i18n.texts import Texts
    from generator.layout.faces import Localised
    from generator.layout.kit import Kit
    from generator.load.profiles import load_profile
    from generator.load.project import Project
    project = Project(ROOT)
    game = load_games(project, GAME, texts=False)[0]
    kit = Kit(project, game, Localised(game, "standard", Texts.load(game, "ru")), "")
    profile = load_profile(project, "eu-3mm")
    assert profile.cards.palette.space == "cmyk"
    made, problems = shop_files(kit, replace(profile, booklet=None))
    assert not problems, problems
    files = [artifact for artifact in made if artifact.path.endswith(".pdf")]
    assert files and all(artifact.kind.startswith("shop-card") for artifact in files), [a.kind for a in made]
    for artifact in files:
        with pikepdf.open(io.BytesIO(artifact.data)) as pdf:
            fonts = {str(o.get("/BaseFont")) for o in pdf.objects
                     if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/Font"}
        # every font is embedded and shipped (preflight says so); none is a standard PDF font
        assert fonts and not any(font.lstrip("/").startswith(("Helvetica", "Times", "Courier")) for font in fonts), \
            (artifact.path, fonts)


def test_the_pieces_pass_the_roll_printers_checks_and_preflight():
    """Its pieces (the frame too long for a press sheet) drawn as `pnp build --profile
    large-format-3mm` draws them: each file checked and preflighted, one for every piece.
    Its tokens, dice and pieces for eu-3mm: test_shop_cut_layer.py."""
    shop_components_pass(ROOT, GAME, "standard", "en", "large-format-3mm")
