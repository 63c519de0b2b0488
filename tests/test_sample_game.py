"""A designer's project (tests/fixtures/sample) with every component kind and element type:
it validates and builds through the CLI, and its pages are measured. The project brings its
own rules module, as a designer's would."""
from __future__ import annotations

import shutil

import pypdfium2
import pytest

from conftest import MM, PAPERS, pnp


FIXTURE = __import__("pathlib").Path(__file__).resolve().parent / "fixtures" / "sample"
PX_PER_MM = 8
ORANGE, GREY = (0xF2, 0xA5, 0x41), (0xE6, 0xE6, 0xE6)


def _page(pdf_path, index):
    page = pypdfium2.PdfDocument(pdf_path)[index]
    return page, page.render(scale=PX_PER_MM / MM).to_pil().convert("RGB")


def _mask(image, colour, tolerance=12):
    """The (x, y) of every pixel within `tolerance` of `colour` in each channel."""
    import numpy
    near = (numpy.abs(numpy.asarray(image, dtype=numpy.int16) - numpy.array(colour, dtype=numpy.int16))
            <= tolerance).all(axis=2)
    ys, xs = numpy.nonzero(near)
    return set(zip(xs.tolist(), ys.tolist()))


def _regions(points):
    """Connected regions of a set of pixels (4-neighbours)."""
    regions, left = [], set(points)
    while left:
        stack, region = [left.pop()], set()
        while stack:
            x, y = stack.pop()
            region.add((x, y))
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in left:
                    left.remove(n)
                    stack.append(n)
        regions.append(region)
    return regions


def test_the_sample_project_validates_with_its_own_rules_module():
    result = pnp("validate", project=FIXTURE)
    assert result.exit_code == 0, result.output + result.traceback
    assert result.stdout.strip() == "ok: sample-game"


@pytest.mark.parametrize("scenario", sorted((FIXTURE / "components" / "sample-game" / "scenarios").glob("*.yaml")),
                         ids=lambda path: path.stem)
def test_the_sample_game_s_scenarios_play_as_written(scenario):
    """The project's rules engine plays its own scenarios, each expectation met."""
    result = pnp("play", "sample-game", str(scenario), project=FIXTURE)
    assert result.exit_code == 0, result.output + result.traceback


def test_a_die_is_a_cross_of_six_faces_with_seven_tabs_and_opposite_faces_apart(sample):
    page, image = _page(sample / "sample-game-standard-en-dice-a4.pdf", 0)
    # the first sun die: the top-left net on the page, upright
    top_left = image.crop((0, 0, 78 * PX_PER_MM, 58 * PX_PER_MM))      # 8 mm margin, 69 x 48 mm net
    faces = max(_regions(_mask(top_left, ORANGE)), key=len)
    xs, ys = [x for x, _ in faces], [y for _, y in faces]
    edge = 16
    assert abs((max(xs) - min(xs) + 1) / PX_PER_MM - 4 * edge) < 0.4        # the row of four faces
    assert abs((max(ys) - min(ys) + 1) / PX_PER_MM - 3 * edge) < 0.4        # the column of three
    tabs = [r for r in _regions(_mask(top_left, GREY, 6)) if len(r) > 4 * PX_PER_MM ** 2]
    assert len(tabs) == 7
    # Which number sits where in the cross: two apart in a line of the cross are opposite when
    # folded, and a die's opposite faces add up to 7.
    left, top = min(xs) / PX_PER_MM, min(ys) / PX_PER_MM
    text = page.get_textpage()
    cells = {}
    width, height = PAPERS["a4"]
    for column, row in ((1, 0), (0, 1), (1, 1), (2, 1), (3, 1), (1, 2)):
        x0, y_top = left + column * edge, top + row * edge
        found = text.get_text_bounded((x0 + 2) * MM, (height - y_top - edge + 2) * MM,
                                      (x0 + edge - 2) * MM, (height - y_top - 2) * MM).strip()
        cells[(column, row)] = int(found)
    assert cells[(1, 0)] + cells[(1, 2)] == 7
    assert cells[(0, 1)] + cells[(2, 1)] == 7 and cells[(1, 1)] + cells[(3, 1)] == 7
    assert sorted(cells.values()) == [1, 2, 3, 4, 5, 6]


def test_a_piece_larger_than_the_paper_is_tiled_and_a_small_one_packed(sample):
    pdf = pypdfium2.PdfDocument(sample / "sample-game-standard-en-pieces-a4.pdf")
    # the two swords share page 1; the 280 x 200 mm tray takes two portrait tiles
    # (190 x 277 mm inside a 10 mm margin, overlapping by the 12 mm glue strip)
    assert len(pdf) == 3
    labels = [pdf[i].get_textpage().get_text_range() for i in (1, 2)]
    assert "Tile A1 (1/1, 1/2)" in labels[0] and "Tile A2 (1/1, 2/2)" in labels[1]
    _, image = _page(sample / "sample-game-standard-en-pieces-a4.pdf", 0)
    swords = [r for r in _regions(_mask(image, (0x8A, 0x8D, 0x91))) if len(r) > 100 * PX_PER_MM ** 2]
    assert len(swords) == 2
    for sword in swords:
        xs, ys = [x for x, _ in sword], [y for _, y in sword]
        assert abs((max(xs) - min(xs) + 1) / PX_PER_MM - 30) < 0.6 and abs((max(ys) - min(ys) + 1) / PX_PER_MM - 90) < 0.6


def test_cards_of_two_sizes_print_on_their_own_sheets(sample):
    pdf = pypdfium2.PdfDocument(sample / "sample-game-standard-en-cards-a4.pdf")
    # 7 poker heroes on one 3 x 3 sheet, 10 mini coins on 4 x 4 sheets, each copy of the deck
    # (5 coins, a back of its own) on a sheet of its own: fronts and backs
    assert len(pdf) == 2 + 2 + 2
    width, height = PAPERS["a4"]
    left, bottom = (width - 4 * 44) / 2, (height - 4 * 63) / 2
    first_coin = pdf[2].get_textpage().get_text_bounded(
        (left + 1) * MM, (bottom + 3 * 63 + 1) * MM, (left + 43) * MM, (bottom + 4 * 63 - 1) * MM)
    assert first_coin.split() == ["One", "One"]          # the name, and again turned at the foot


def test_a_matrix_deck_is_every_combination_and_each_copy_has_its_own_back(sample):
    pdf = sample / "sample-game-standard-en-cards-a4.pdf"
    width, height = PAPERS["a4"]
    left, top = (width - 4 * 44) / 2, (height - 4 * 63) / 2
    # each copy of the deck on a sheet of its own, copy 1 first: 2 metals x 2 values and a
    # thief, each coin showing its name twice; behind every coin of a copy the copy's back
    # (long-edge duplex mirrors the columns: the first card is backed in the last column)
    for fronts, back in ((2, (0xC9, 0xA2, 0x27)), (4, (0xB3, 0x37, 0x36))):
        text = pypdfium2.PdfDocument(pdf)[fronts].get_textpage().get_text_range().split()
        assert sorted(text) == sorted(["One"] * 4 + ["Five"] * 4 + ["Thief"] * 2)
        _, backs = _page(pdf, fronts + 1)
        colour = lambda column, row: backs.getpixel((round((left + column * 44 + 5) * PX_PER_MM),
                                                     round((top + row * 63 + 5) * PX_PER_MM)))
        assert [colour(3 - n % 4, n // 4) for n in range(5)] == [back] * 5


def test_a_matrix_deck_printed_more_often_than_it_has_backs_is_a_located_error(tmp_path):
    project = _copy(tmp_path)
    cards = project / "components" / "sample-game" / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("count: {standard: 2}", "count: {standard: 3}"), encoding="utf-8")
    result = pnp("validate", project=project)
    assert result.exit_code == 1 and not result.traceback
    assert ("components/sample-game/cards.yaml:20: decks.coins.count: 3 copies of the deck, but 2 backs: give "
            "every copy its back") in result.stderr.splitlines()


def test_a_matrix_entrys_text_is_translated_under_its_own_key(tmp_path):
    project = _copy(tmp_path)
    game = project / "components" / "sample-game" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("  en: released", "  en: released\n  cs: draft"), encoding="utf-8")
    result = pnp("i18n", "extract", "sample-game", project=project)
    assert result.exit_code == 0, result.output + result.traceback
    catalog = (project / "components" / "sample-game" / "locales" / "messages.pot").read_text(encoding="utf-8")
    for key, text in (("decks.coins.matrix.value.one.name", "One"), ("decks.coins.extra.thief.text", "Takes a coin.")):
        assert f'msgctxt "{key}"\nmsgid "{text}"' in catalog


def test_the_svg_picture_is_drawn_on_the_card(sample):
    _, image = _page(sample / "sample-game-standard-en-cards-a4.pdf", 0)
    width, height = PAPERS["a4"]
    left, top = (width - 3 * 63) / 2, (height - 3 * 88) / 2
    # the sun's disc at the middle of its 40 mm box, 54 mm above the card's bottom
    x, y = (left + 31.5) * PX_PER_MM, (top + 88 - 54) * PX_PER_MM
    assert all(abs(a - b) < 12 for a, b in zip(image.getpixel((round(x), round(y))), ORANGE))


def _copy(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(FIXTURE, project)
    return project


def test_a_broken_rules_module_of_the_project_is_a_located_error(tmp_path):
    project = _copy(tmp_path)
    rules = project / "rules" / "sample_game" / "__init__.py"
    rules.write_text("raise RuntimeError('the counts are not written yet')\n", encoding="utf-8")
    result = pnp("validate", project=project)
    assert result.exit_code == 1 and not result.traceback
    assert result.stderr.splitlines()[0] == (
        "components/sample-game/game.yaml:3: rules: rules module 'sample_game' (rules/sample_game/__init__.py) failed "
        "to load: rules/sample_game/__init__.py:1: RuntimeError: the counts are not written yet")


def test_a_rules_module_linked_from_outside_the_project_is_refused(tmp_path):
    project = _copy(tmp_path)
    outside = tmp_path / "elsewhere"
    shutil.move(project / "rules" / "sample_game", outside)
    (project / "rules" / "sample_game").symlink_to(outside, target_is_directory=True)
    (outside / "__init__.py").write_text("open('ran', 'w').close()\n" + (outside / "__init__.py").read_text(), encoding="utf-8")
    result = pnp("validate", project=project)
    assert result.exit_code == 1 and not result.traceback
    assert result.stderr.splitlines()[0] == (
        "components/sample-game/game.yaml:3: rules: rules module 'sample_game' (rules/sample_game/__init__.py): "
        "refused, rules/sample_game is a link to a place outside the project")
    assert not (project / "ran").exists() and not __import__("pathlib").Path("ran").exists()


def test_an_unknown_rules_module_says_where_it_was_looked_for(tmp_path):
    project = _copy(tmp_path)
    game = project / "components" / "sample-game" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("rules: sample_game", "rules: sample_gaem"), encoding="utf-8")
    result = pnp("validate", project=project)
    assert result.exit_code == 1
    assert ("components/sample-game/game.yaml:3: rules: no rules module named 'sample_gaem' (looked in "
            "rules/sample_gaem/ in the project, generator/rules/ and installed 'pnp.rules' entry points)") in result.stderr


def test_the_booklet_lists_every_kind_and_its_sheets_per_paper(sample):
    pdf = pypdfium2.PdfDocument(sample / "sample-game-standard-en-rules.pdf")
    # a number keeps to its noun with a no-break space
    lines = [line.strip().replace("\xa0", " ") for page in pdf for line in page.get_textpage().get_text_range().splitlines()]
    for row in ("7 cards Heroes", "10 cards Coins", "3 dice Sun die", "2 dice Moon die", "1 piece Tray",
                "2 pieces Sword"):
        assert row in lines
    # heroes 1 sheet + coins 2 (a copy each); the five nets on one page; swords on one, the tray on two tiles
    assert "Cards 3 sheets 3 sheets" in lines and "Dice 1 sheet 1 sheet" in lines
    assert "Pieces 3 sheets 3 sheets" in lines
    # boards of several groups: each board's own sheets too, as a table prints only its board
    # (the hexagon's two tiles after its assembly map; the square fits one sheet, no map)
    at = lines.index("Boards 4 sheets 4 sheets")
    assert lines[at + 1:at + 3] == ["Hexagon ring 3 sheets 3 sheets", "Square ring 1 sheet 1 sheet"]   # indented rows


# ---- boards: a loop of sides with start areas and branches ---------------------------------------

def _discs(pdf_path):
    """Per page: the discs the page draws (fill colour as '#rrggbb', centre in page mm, radius
    in mm), read from the content of the board's form as placed on the page, and the page's
    window onto the board (x, y, w, h in board mm)."""
    import pikepdf

    from conftest import _apply, content_ops, page_drawing
    pages = []
    with pikepdf.open(pdf_path) as pdf:
        for page in pdf.pages:
            form, form_ctm = next((page.obj.Resources.XObject[operands[0]], ctm)
                                  for operands, op, ctm in content_ops(page) if op == "Do")
            if abs(form_ctm[0] - 1) > 1e-6:
                continue                      # a board's assembly map: the whole board, drawn small
            discs, fill, points, moves = [], "#000000", [], 0
            for operands, op, ctm in content_ops(form, form_ctm):
                if op == "rg":
                    fill = "#" + "".join(f"{round(float(v) * 255):02X}" for v in operands)
                elif op == "m":
                    points, moves = [_apply(ctm, *map(float, operands))], 1
                elif op == "c":
                    points.append(_apply(ctm, *map(float, operands[4:6])))
                elif op in ("f", "B", "b", "f*", "B*", "S", "n"):
                    if moves == 1 and len(points) == 5 and op != "S":
                        xs, ys = [p[0] / MM for p in points], [p[1] / MM for p in points]
                        discs.append((fill, ((max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2), (max(xs) - min(xs)) / 2))
                    points, moves = [], 0
            window = page_drawing(page)["clips"][0]
            pages.append((discs, window))
    return pages


SIDE_COLOURS = ["#D62828", "#2A9D3F", "#1D4ED8", "#F4A261"]
PITCH, PER_SIDE = 14, 8


def _track(discs, centre, half):
    """The holes on the square's outline: |x| or |y| from the centre is half the side."""
    return [(fill, (x, y)) for fill, (x, y), r in discs if abs(r - 4) < 0.05
            and abs(max(abs(x - centre[0]), abs(y - centre[1])) - half) < 0.3]


def test_a_looped_board_has_its_sides_start_areas_and_branches_where_the_data_says(sample):
    (discs, window), = _discs(sample / "sample-game-standard-en-boards-a4.pdf")[2:]     # the square: one tile
    (x0, y0, w, h), _ = window
    centre, half = (x0 + w / 2, y0 + h / 2), PER_SIDE * PITCH / 2                      # 180 mm board, one page
    track = _track(discs, centre, half)
    assert len(track) == 4 * PER_SIDE
    # the four corners exactly, and every hole a pitch from its two neighbours round the loop
    holes = [p for _, p in track]
    for dx in (-half, half):
        for dy in (-half, half):
            assert any(abs(x - centre[0] - dx) < 0.2 and abs(y - centre[1] - dy) < 0.2 for x, y in holes)
    for x, y in holes:
        near = sorted(((x - a) ** 2 + (y - b) ** 2) ** 0.5 for a, b in holes)[1:3]
        assert near == pytest.approx([PITCH, PITCH], abs=0.2)
    # each side's fourth hole is its player's colour (the way out), once per side
    assert sorted(fill for fill, _ in track if fill != "#FFFFFF") == sorted(SIDE_COLOURS)
    # branches: 4 rows of 3 dark holes, a pitch apart, each starting a pitch inside the outline
    branch = [p for fill, p, r in discs if fill == "#444444"]
    assert len(branch) == 12
    for x, y in branch:
        inside = half - max(abs(x - centre[0]), abs(y - centre[1]))
        assert min(abs(inside - k * PITCH) for k in (1, 2, 3)) < 0.2
    # start areas: five holes in each side's colour off the outline
    start = [fill for fill, p, r in discs if fill in SIDE_COLOURS and (fill, p) not in track and abs(r - 4) < 0.05]
    assert sorted(start) == sorted(SIDE_COLOURS * 5)


def test_a_board_larger_than_the_paper_is_tiled_with_the_glue_strip_and_no_hole_lost(sample):
    import yaml
    tiles = yaml.safe_load((FIXTURE.parent.parent.parent / "templates" / "sheets" / "tiles.yaml").read_text())
    pages = _discs(sample / "sample-game-standard-en-boards-a4.pdf")[:2]            # the hexagon: two tiles
    windows = []
    holes = set()
    for discs, ((x0, y0, w, h), (tx, ty)) in pages:
        # page mm to board mm: the form is shifted by the window's translation
        windows.append((x0 - tx, y0 - ty, w, h))
        for fill, (x, y), r in discs:
            bx, by = x - tx, y - ty
            if abs(r - 4) < 0.05 and windows[-1][0] <= bx <= windows[-1][0] + w:
                holes.add((round(bx, 1), round(by, 1)))
    (ax, _, aw, _), (bx, _, _, _) = sorted(windows)
    assert ax + aw - bx == pytest.approx(tiles["overlap_mm"], abs=0.01)
    # 6 sides x 8 track holes + 6 branches of 3 + 6 start areas of 5, each seen whole on some tile
    assert len({(round(x), round(y)) for x, y in holes}) == 6 * 8 + 6 * 3 + 6 * 5


def test_a_shared_shapes_text_is_looked_up_where_it_is_written():
    """A board that changes only `sides` of the shared loop keeps the design's notes: they are
    translated once, under the design's key, for every board."""
    import yaml

    from generator.layout.boards import lay_out_board
    data = yaml.safe_load((FIXTURE / "components" / "sample-game" / "boards.yaml").read_text(encoding="utf-8"))
    asked = []

    def text(path, source):
        asked.append(".".join(path))
        return source.upper()

    plan = lay_out_board(data["design"], "square", data["boards"]["square"], {}, {"name": "Square"}, text)
    assert asked == ["design.shapes.ring.marks.way_out.note"]
    assert plan.face.values["ring.marks.way_out.note"] == "OUT"
    assert len([s for s in plan.spaces if s.startswith("ring.") and "-" in s[5:] and s.count("-") == 1]) == 4 * 8
