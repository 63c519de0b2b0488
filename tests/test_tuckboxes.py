"""Tuck boxes: a box for one deck, its net sized from the deck's cards (card size plus play, the
deck's thickness from its cards and the card stock's calliper), laid out as a cut-out piece, its
front a face placed over the net that the placed checks read. Most tests read the placed model
of the sample project (tests/fixtures/sample); one builds its tuck boxes' PDF."""
from __future__ import annotations

import math
import shutil

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from conftest import MM, ROOT, SAMPLE, line_of, pnp, replace_in
from generator.app.kinds import KINDS
from generator.app.kinds.tuckboxes import box_cards
from generator.layout.kit import validation_kit
from generator.app.loading import check_game_faces, load_games
from generator.i18n.texts import Texts
from generator.layout.faces import Localised
from generator.layout.pieces import page_plan
from generator.layout.placed import text_extents
from generator.layout.tuckbox import lay_out_tuck_box, tuck_box_net
from generator.load.project import Project

# The sample's decks, stated here from its cards.yaml: heroes are 63 x 88 mm, a knight x4 and an
# archer x3; coins are 44 x 63 mm, five cards in each of two copies of the deck.
HEROES = {"card": (63.0, 88.0), "cards": 7}
COINS = {"card": (44.0, 63.0), "cards": 10}
PLAY_MM = 1.0              # the box's default play
CALLIPER_MM = 0.3          # templates/sheets/papers.yaml card_calliper_mm
TUCKBOXES = "components/sample-game/tuckboxes.yaml"


def _placed(project: Project):
    game = load_games(project, texts=False)[0]
    loc = Localised(game, game.editions[0], Texts.load(game, "en"))
    kind = next(kind for kind in KINDS if kind.name == "tuckboxes")
    return {component.id: component for component in kind.placed(validation_kit(project, game, loc)).components}


@pytest.fixture(scope="module")
def boxes():
    return _placed(Project(SAMPLE))


@pytest.fixture
def sample_copy(tmp_path):
    copy = tmp_path / "project"
    shutil.copytree(SAMPLE, copy)
    return copy


def _close(a, b) -> bool:
    return abs(a - b) <= 0.01


@pytest.mark.parametrize("box_id, deck", [("heroes-box", HEROES), ("coins-box", COINS)])
def test_panels_are_the_card_size_and_play_and_as_deep_as_the_deck(boxes, box_id, deck):
    box = boxes[box_id].shape
    width, height = deck["card"][0] + PLAY_MM, deck["card"][1] + PLAY_MM
    depth = deck["cards"] * CALLIPER_MM + PLAY_MM
    panels = box.net.panels
    for name in ("front", "back"):
        assert _close(panels[name][2], width) and _close(panels[name][3], height), (name, panels[name])
    for name in ("side", "other-side"):
        assert _close(panels[name][2], depth) and _close(panels[name][3], height), (name, panels[name])
    for name in ("lid", "bottom"):
        assert _close(panels[name][2], width) and _close(panels[name][3], depth), (name, panels[name])
    # the four walls side by side, in the order they fold round the deck
    x = 0.0
    for name in ("front", "side", "back", "other-side", "glue-tab"):
        assert _close(panels[name][0], x), name
        x += panels[name][2]
    assert _close(box.piece.size_mm[0], x)
    assert box.cards == deck["cards"]


def test_a_box_may_say_its_own_play_and_calliper(sample_copy):
    replace_in(sample_copy / TUCKBOXES, "deck: heroes,", "deck: heroes, play_mm: 2, calliper_mm: 0.5,")
    box = _placed(Project(sample_copy))["heroes-box"].shape
    assert _close(box.net.panels["front"][2], 65.0) and _close(box.net.panels["front"][3], 90.0)
    assert _close(box.net.panels["side"][2], 7 * 0.5 + 2)


def _inside(point, polygon) -> bool:
    """Strictly inside (even-odd rule)."""
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _on_edge(point, polygon) -> bool:
    for a, b in zip(polygon, polygon[1:] + polygon[:1]):
        if abs(math.dist(a, point) + math.dist(point, b) - math.dist(a, b)) < 1e-6:
            return True
    return False


def _crosses(p1, p2, q1, q2) -> bool:
    """Whether two segments cross at a point inside both."""
    def side(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    d1, d2, d3, d4 = side(q1, q2, p1), side(q1, q2, p2), side(p1, p2, q1), side(p1, p2, q2)
    return ((d1 > 1e-9 and d2 < -1e-9) or (d1 < -1e-9 and d2 > 1e-9)) and \
        ((d3 > 1e-9 and d4 < -1e-9) or (d3 < -1e-9 and d4 > 1e-9))


def _nets(boxes):
    """The sample's nets, and a box for one card and one for a thick deck of large cards."""
    return [boxes["heroes-box"].shape.net, boxes["coins-box"].shape.net,
            tuck_box_net(64.0, 89.0, 1 * CALLIPER_MM + PLAY_MM), tuck_box_net(71.0, 121.0, 80 * CALLIPER_MM + PLAY_MM)]


def test_the_outline_is_one_closed_path_and_every_fold_and_glue_area_lies_on_the_net(boxes):
    for net in _nets(boxes):
        outline = list(net.outline)
        edges = list(zip(outline, outline[1:] + outline[:1]))
        assert len(outline) >= 3 and all(math.dist(a, b) > 1e-6 for a, b in edges)
        # closed and simple: no edge crosses another, and it encloses the panels counterclockwise
        for i, (a, b) in enumerate(edges):
            for c, d in edges[i + 2:len(edges) - (1 if i == 0 else 0)]:
                assert not _crosses(a, b, c, d), (a, b, c, d)
        area = sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in edges) / 2
        assert area > 0
        xs, ys = [x for x, _ in outline], [y for _, y in outline]
        assert _close(min(xs), 0) and _close(min(ys), 0)
        assert _close(max(xs), net.size_mm[0]) and _close(max(ys), net.size_mm[1])
        for start, end in net.folds:
            for point in (start, end):
                assert _inside(point, outline) or _on_edge(point, outline), (point, net.size_mm)
            middle = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
            assert _inside(middle, outline), (start, end)
        # the glue area's printed outline keeps off every die line, cut or fold (a shop's preflight)
        for x, y, w, h in net.glue:
            for corner in ((x, y), (x + w, y), (x + w, y + h), (x, y + h)):
                assert _inside(corner, outline) and not _on_edge(corner, outline), corner
                assert not any(_on_edge(corner, list(fold)) for fold in net.folds), corner
        for name, (x, y, w, h) in net.panels.items():
            assert _inside((x + w / 2, y + h / 2), outline), name


def test_the_front_shows_the_title_and_the_deck_name_inside_the_front_panel(boxes):
    box = boxes["heroes-box"]
    face = box.faces[0].face
    assert not face.problems
    fx, fy, fw, fh = box.shape.net.panels["front"]
    printed = dict(text_extents(face))
    assert face.values["game_title"] == "Sample Game" and face.values["deck_name"] == "Heroes"
    for field in ("game_title", "deck_name"):
        x0, y0, x1, y1 = printed[field]
        assert fx <= x0 < x1 <= fx + fw and fy <= y0 < y1 <= fy + fh, (field, printed[field])
    # the title stays clear of the thumb notch cut into the front's top edge
    notch_bottom = min(y for x, y in box.shape.net.outline if 0 < x < fw)
    assert printed["game_title"][3] < notch_bottom
    # the deck's back art prints the title: the box adds only the deck's name, once
    assert [field for field, _ in text_extents(face)] == ["game_title", "deck_name"]
    assert not box.shape.notched


def test_a_text_under_the_thumb_notch_is_a_located_problem(sample_copy):
    layouts = sample_copy / "components/sample-game/layouts.yaml"
    replace_in(layouts, "field: deck_name, box: [3, 5, 39, 9]", "field: deck_name, box: [3, 54, 39, 9]")
    project = Project(sample_copy)
    problems = check_game_faces(project, load_games(project, texts=False)[0], ["en"])
    found = [p for p in problems if p.key == "tuckboxes.coins-box.deck_name"]
    assert found and "thumb notch" in found[0].message
    assert found[0].line == line_of(sample_copy / TUCKBOXES, "coins-box:")


def test_a_deep_box_has_the_deck_name_up_both_sides(boxes):
    thin = boxes["heroes-box"]
    assert [field for field, _ in text_extents(thin.faces[0].face)].count("deck_name") == 1
    # 40 cards: 13 mm deep, room for 10 pt across the side
    deep = lay_out_tuck_box("tuckbox-deep", "Deep", 1, "heroes", HEROES["card"], 40, CALLIPER_MM, PLAY_MM, None, None,
                            {"game_title": "Sample Game", "deck_name": "Heroes"}, "glue")
    assert not deep.piece.face.problems
    spines = [box for field, box in text_extents(deep.piece.face) if field == "deck_name"][1:]
    assert len(spines) == 2
    for (x0, y0, x1, y1), side in zip(spines, ("side", "other-side")):
        sx, sy, sw, sh = deep.net.panels[side]
        assert _close(sw, 40 * CALLIPER_MM + PLAY_MM)
        assert sx < x0 < x1 < sx + sw and sy < y0 < y1 < sy + sh
        assert y1 - y0 > x1 - x0            # turned: it reads up the side


def test_a_deck_name_too_long_for_the_front_is_a_located_problem(sample_copy):
    # three lines of 6 pt fill the name's 9 mm: this takes more
    replace_in(sample_copy / "components/sample-game/cards.yaml", "name: Heroes",
               "name: " + " ".join(["Heroes of the seven kingdoms beyond the western mountains"] * 3))
    project = Project(sample_copy)
    problems = check_game_faces(project, load_games(project, texts=False)[0], ["en"])
    found = [p for p in problems if p.key == "tuckboxes.heroes-box.deck_name"]
    assert found and found[0].file.endswith("tuckboxes.yaml")
    assert found[0].line == line_of(sample_copy / TUCKBOXES, "heroes-box:")


def test_a_box_of_a_deck_that_does_not_exist_is_a_located_error(sample_copy):
    replace_in(sample_copy / TUCKBOXES, "deck: heroes,", "deck: villains,")
    result = pnp("validate", project=sample_copy)
    assert result.exit_code != 0
    line = line_of(sample_copy / TUCKBOXES, "deck: villains")
    assert f"{TUCKBOXES}:{line}: tuckboxes.heroes-box.deck: no deck 'villains' in decks (decks: heroes, coins)" \
        in result.output


def test_a_deck_too_thick_for_a_tuck_box_is_a_located_error(sample_copy):
    replace_in(sample_copy / TUCKBOXES, "deck: heroes,", "deck: heroes, calliper_mm: 5,")
    replace_in(sample_copy / "components/sample-game/cards.yaml", "count: {standard: 4}", "count: {standard: 30}")
    project = Project(sample_copy)
    game, _ = project.load_game("sample-game")        # its rules, which count 4 knights, not asked
    problems = check_game_faces(project, game, ["en"])
    found = [p for p in problems if p.key == "tuckboxes.heroes-box.deck"]
    assert found and found[0].line == line_of(sample_copy / TUCKBOXES, "heroes-box:")
    assert "the deck 'heroes' is 33 cards, 166 mm deep with play: more than the 100 mm" in found[0].message


def test_a_front_layout_not_of_the_front_panels_size_is_a_located_error(sample_copy):
    layouts = sample_copy / "components/sample-game/layouts.yaml"
    replace_in(layouts, "size_mm: [45, 64]", "size_mm: [44, 63]")
    project = Project(sample_copy)
    problems = check_game_faces(project, load_games(project, texts=False)[0], ["en"])
    found = [p for p in problems if p.key == "faces.coins-box-front.size_mm"]
    assert found and found[0].line == line_of(layouts, "size_mm: [44, 63]", start="coins-box-front:")
    assert "tuckboxes.coins-box has 45 x 64 mm faces" in found[0].message


def test_a_box_larger_than_the_paper_is_tiled(boxes):
    project = Project(SAMPLE)
    big = lay_out_tuck_box("tuckbox-big", "Big", 1, "tarot", (70.0, 120.0), 200, CALLIPER_MM, PLAY_MM, None, None,
                           {"game_title": "Sample Game", "deck_name": "Tarot"}, "glue")
    plan = page_plan([boxes["heroes-box"].shape.piece, big.piece], (210.0, 297.0), project.load_sheet("tokens"),
                     project.load_sheet("tiles"), 5.0)
    assert [tiled.item.key for tiled in plan.tiled] == ["tuckbox-big"] and len(plan.tiled[0].tiles) > 1
    assert [packed.piece.key for page in plan.packed for packed in page] == ["tuckbox-heroes-box"]


def test_the_kit_draws_each_net_at_its_size(tmp_path, boxes):
    out = tmp_path / "out"
    result = pnp("build", "--game", "sample-game", "--locale", "en", "--kind", "tuckboxes", "--paper", "a4",
                 "--out", str(out), project=SAMPLE)
    assert result.exit_code == 0, result.output + result.traceback
    files = sorted(p.name for p in out.rglob("*.pdf"))
    assert files == ["sample-game-standard-en-tuckbox-a4.pdf"]
    pdf = pdfium.PdfDocument((out / "sample-game/standard/en" / files[0]).read_bytes())
    try:
        outlines = []
        for obj in pdf[0].get_objects(max_depth=3):
            if obj.type != pdfium_c.FPDF_PAGEOBJ_PATH:
                continue
            fill, stroke = pdfium_c.c_int(), pdfium_c.FPDF_BOOL()
            pdfium_c.FPDFPath_GetDrawMode(obj.raw, fill, stroke)
            width = pdfium_c.FS_FLOAT()
            pdfium_c.FPDFPageObj_GetStrokeWidth(obj.raw, width)
            if stroke.value and not fill.value and pdfium_c.FPDFPath_CountSegments(obj.raw) > 20:
                left, bottom, right, top = obj.get_bounds()
                # pdfium's bounds take in the stroke's width on every side
                outlines.append(((right - left - 2 * width.value) / MM, (top - bottom - 2 * width.value) / MM))
    finally:
        pdf.close()
    expected = sorted(boxes[name].shape.piece.size_mm for name in ("heroes-box", "coins-box"))
    assert len(outlines) == 2
    for (w, h), (ew, eh) in zip(sorted(outlines), expected):
        assert abs(w - ew) < 0.05 and abs(h - eh) < 0.05, ((w, h), (ew, eh))
    # the heroes' net: two walls, two sides and the 10 mm glue tab wide; a wall, the lid, the
    # bottom and two 15 mm tuck flaps tall
    depth = HEROES["cards"] * CALLIPER_MM + PLAY_MM
    assert abs(expected[1][0] - (2 * 64 + 2 * depth + 10)) < 0.01
    assert abs(expected[1][1] - (89 + 2 * depth + 2 * 15)) < 0.01


def test_a_box_for_one_copy_holds_the_cards_with_its_back_and_shows_that_back(sample_copy):
    # the coins deck is printed twice, each copy with its own back: a box for the red copy
    replace_in(sample_copy / TUCKBOXES, "deck: coins, name: Coins box, count: {standard: 1}, layout: coins-box-front,",
               "deck: coins, back: coin-back-red, name: Coins box, count: {standard: 1},")
    box = _placed(Project(sample_copy))["coins-box"].shape
    assert box.cards == COINS["cards"] // 2
    assert _close(box.net.panels["side"][2], COINS["cards"] // 2 * CALLIPER_MM + PLAY_MM)
    fx, fy, fw, fh = box.net.panels["front"]
    fills = {placed.spec.get("fill") for placed in box.piece.face.elements
             if placed.spec["type"] == "rect" and fx <= placed.spec["box"][0] < fx + fw}
    assert "#B33736" in fills and "#C9A227" not in fills, fills


def test_decks_that_travel_with_a_box_add_their_cards_to_its_depth(sample_copy):
    replace_in(sample_copy / TUCKBOXES, "deck: heroes,", "deck: heroes, with: [coins],")
    box = _placed(Project(sample_copy))["heroes-box"].shape
    assert box.cards == HEROES["cards"] + COINS["cards"]
    assert _close(box.net.panels["side"][2], (HEROES["cards"] + COINS["cards"]) * CALLIPER_MM + PLAY_MM)
    # still sized for the heroes' cards, the larger
    assert _close(box.net.panels["front"][2], HEROES["card"][0] + PLAY_MM)


@pytest.mark.parametrize("old, new, key, message", [
    ("deck: coins, name:", "deck: coins, with: [heroes], name:", "tuckboxes.coins-box.with.0",
     "the deck 'heroes' has 63 x 88 mm cards, larger than the 44 x 63 mm of the deck 'coins' the box is sized for"),
    ("deck: coins, name:", "deck: coins, with: [coins], name:", "tuckboxes.coins-box.with.0",
     "'coins' is the box's own deck"),
    ("deck: heroes,", "deck: heroes, with: [villains],", "tuckboxes.heroes-box.with.0",
     "no deck 'villains' in decks (decks: heroes, coins)"),
    ("deck: heroes,", "deck: heroes, back: coin-back-red,", "tuckboxes.heroes-box.back",
     "no card of the deck 'heroes' has the back 'coin-back-red' in this edition (its backs: hero-back)"),
])
def test_what_a_box_holds_is_checked_at_its_line(sample_copy, old, new, key, message):
    replace_in(sample_copy / TUCKBOXES, old, new)
    project = Project(sample_copy)
    problems = check_game_faces(project, load_games(project, texts=False)[0], ["en"])
    found = [p for p in problems if p.key == key]
    assert found and message in found[0].message, [str(p) for p in problems]
    assert found[0].line == line_of(sample_copy / TUCKBOXES, new)


def test_every_card_of_every_shipped_game_is_in_exactly_one_tuck_box():
    """Every deck gets a box: each game's tuckboxes.yaml gives every card of an edition one box
    (its deck's, its copy's by its back, or a box it travels `with`)."""
    project = Project(ROOT)
    for slug in project.game_slugs():
        game, problems = project.load_game(slug)
        assert not problems and game.in_edition(game.editions[0], "tuckboxes"), (slug, problems)
        for edition in game.editions:
            boxes = [box.data for box in game.in_edition(edition, "tuckboxes")]
            for card in game.in_edition(edition, "cards"):
                deck_id = card.data["deck"]
                back = card.data.get("back", game.decks[deck_id]["back"])
                holders = [box for box in boxes if deck_id in box.get("with", ()) or
                           (box["deck"] == deck_id and box.get("back", back) == back)]
                assert len(holders) == 1, (game.slug, edition, card.id, holders)
            # and the boxes are sized for what they hold: every card counted once
            assert sum(box_cards(game, edition, box) for box in boxes) == \
                sum(card.count(edition) for card in game.in_edition(edition, "cards")), (game.slug, edition)
