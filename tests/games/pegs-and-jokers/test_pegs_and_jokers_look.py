"""Pegs and Jokers: what a player relies on, read off the built card sheets and rule booklet
(the Czech home kit on A4, made by the same functions `pnp build` calls): every playing card
has its index in both corners, one of them turned; number cards show as many pips as their
rank, and a 6 and a 9 are underlined in both indices; every card says its move; each copy of
the deck has a back of its own colour; the booklet explains every card with every number filled
in; its print table names the sheets each table prints."""
from __future__ import annotations

import math
import re
from collections import defaultdict

import pypdfium2 as pdfium
import pytest
import yaml

from conftest import ROOT, form_drawings, turned_text, underline_of
from generator.app.kinds import KINDS
from generator.app.booklet import home_print
from generator.app.kits import booklet_of
from generator.app.loading import load_games
from generator.i18n.texts import Texts
from generator.layout.faces import Localised, card_faces, card_runs, card_sizes, home_sheet, sheet_grid
from generator.layout.kit import Kit
from generator.load.project import Project
from generator.rules import load_rules


SLUG = "pegs-and-jokers"
MM = 72 / 25.4
SUITS = "♠♥♦♣"
CARDS = yaml.safe_load((ROOT / "components" / SLUG / "cards.yaml").read_text(encoding="utf-8"))
RANKS = CARDS["decks"]["standard"]["matrix"]["rank"]
COPIES = CARDS["decks"]["standard"]["count"]["standard"]


@pytest.fixture(scope="module")
def built():
    """The cards' files and the rule booklet of the cs kit on A4, the card faces, and their runs
    (a deck back each, every run on sheets of its own) in the order they print."""
    project = Project(ROOT)
    game, problems = project.load_game(SLUG)
    assert not problems, problems
    game.rules = load_rules(game.meta["rules"])      # as a build has it: the tables' decks
    loc = Localised(game, "standard", Texts.load(game, "cs"))
    kit = Kit(project, game, loc, "a4", papers=("a4",))
    # what these tests read, made as the build makes them: the cards' files and the rule booklet
    cards = next(kind for kind in KINDS if kind.name == "cards")
    files = {artifact.kind: artifact for artifact in cards.files(kit)}
    files["rules"] = booklet_of(kit)
    faces = card_faces(loc)
    runs = card_runs(loc, faces, card_sizes(project))
    assert len({run.size.name for run in runs}) == 1
    grid = sheet_grid(home_sheet(project, runs[0].size, "long"), (210, 297))
    return {"files": files, "faces": faces, "runs": runs, "grid": grid}


def _slots(built):
    """(front page, backs page, slot index, face) for every card printed, in print order: each
    run from the first slot of a sheet of its own."""
    grid = built["grid"]
    first = 0
    for run in built["runs"]:
        sequence = [face for face in run.faces for _ in range(face.copies)]
        for index, face in enumerate(sequence):
            sheet, slot = divmod(index, grid.per_page)
            yield 2 * (first + sheet), 2 * (first + sheet) + 1, slot, face
        first += -(-len(sequence) // grid.per_page)


def _text(page, grid, slot, box, mirror=False):
    """The text inside `box` (x, y, w, h in the card's millimetres) of a slot."""
    corner = grid.slot(slot, mirror_columns=mirror)
    x, y, w, h = box
    return page.get_text_bounded((corner.x + x) * MM, (corner.y + y) * MM,
                                 (corner.x + x + w) * MM, (corner.y + y + h) * MM)


def _playing_cards(built):
    return [(front, back, slot, face) for front, back, slot, face in _slots(built)
            if face.key.startswith("card-standard-")]


@pytest.fixture(scope="module")
def sheets(built):
    pdf = pdfium.PdfDocument(built["files"]["cards"].data)
    yield pdf, {n: pdf[n].get_textpage() for n in range(len(pdf))}
    pdf.close()


def test_the_box_prints_every_copy_of_the_deck_and_a_reference_card_per_player(built):
    faces = built["faces"]
    standard = [f for f in faces if f.key.startswith("card-standard-")]
    # 52 cards and 2 jokers a deck; the jokers of a copy are one face printed twice
    assert sum(f.copies for f in standard) == COPIES * (len(SUITS) * len(RANKS) + 2)
    assert sum(f.copies for f in faces if f.key == "card-reference") == 8
    pdf = pdfium.PdfDocument(built["files"]["cards"].data)
    sheets = sum(-(-sum(f.copies for f in run.faces) // built["grid"].per_page) for run in built["runs"])
    assert len(pdf) == 2 * sheets


def test_every_playing_card_has_its_index_in_both_corners(built, sheets):
    """Rank over suit at the top left, and again turned at the bottom right, so a card reads in
    a fan held either way up."""
    _, text = sheets
    grid = built["grid"]
    for front, _, slot, face in _playing_cards(built):
        rank, suit = face.values["rank"], face.values["suit"]
        top = _text(text[front], grid, slot, (2, 63, 13, 23)).split()
        bottom = _text(text[front], grid, slot, (48, 2, 13, 23)).split()
        if suit == "★":                                  # a joker: its star in both corners
            assert "★" in top and "★" in bottom, face.key
            continue
        assert top[:2] == [rank, suit], (face.key, top)
        # turned half round, the bottom index reads suit then rank from the page's top
        assert sorted(bottom) == sorted([rank, suit]), (face.key, bottom)


def test_the_bottom_index_is_turned_half_round(built):
    """The bottom-right rank and suit are drawn upside down, the top-left ones upright."""
    pdf = pdfium.PdfDocument(built["files"]["cards"].data)
    grid = built["grid"]
    checked = 0
    for front, _, slot, face in _playing_cards(built)[:60]:
        page = pdf[front].get_textpage()
        corner = grid.slot(slot)
        for index in range(page.count_chars()):
            if page.get_text_range(index, 1) not in (face.values["rank"][0], face.values["suit"]):
                continue
            left, bottom, right, top = page.get_charbox(index)
            x, y = (left + right) / 2 / MM - corner.x, (bottom + top) / 2 / MM - corner.y
            if not (0 <= x <= 63 and 0 <= y <= 88):
                continue
            angle = math.degrees(pdfium.raw.FPDFText_GetCharAngle(page.raw, index)) % 360
            if x < 14 and y > 62:
                assert abs(angle) < 1 or abs(angle - 360) < 1, (face.key, angle)
                checked += 1
            elif x > 48 and y < 26:
                assert abs(angle - 180) < 1, (face.key, angle)
                checked += 1
    pdf.close()
    assert checked >= 4 * 60 - 8            # rank and suit in both corners (a joker: a star each)


def test_number_cards_show_as_many_pips_as_their_rank(built, sheets):
    _, text = sheets
    grid = built["grid"]
    for front, _, slot, face in _playing_cards(built):
        rank, suit = face.values["rank"], face.values["suit"]
        if not rank.isdigit():
            continue
        pips = _text(text[front], grid, slot, (14, 11, 35, 67))
        assert pips.count(suit) == int(rank), (face.key, pips)


def test_every_card_says_its_move_along_its_foot(built, sheets):
    _, text = sheets
    grid = built["grid"]
    moves = {entry["fields"]["rank"]: entry["text"] for entry in RANKS.values()}
    seen = set()
    for front, _, slot, face in _playing_cards(built):
        foot = " ".join(_text(text[front], grid, slot, (12, 3, 39, 24)).split())
        move = face.values["text"].replace("\xa0", " ")     # a no-break space is drawn as a space
        assert move and move in foot, (face.key, foot)
        seen.add(face.values["rank"])
        if face.values["rank"] in moves:
            assert move == moves[face.values["rank"]]
    assert seen == set(moves) | {"★"}


def test_court_cards_and_jokers_carry_their_name(built, sheets):
    _, text = sheets
    grid = built["grid"]
    for front, _, slot, face in _playing_cards(built):
        if face.values["rank"] in ("J", "Q", "K", "★"):
            middle = _text(text[front], grid, slot, (14, 12, 35, 64))
            assert face.values["name"] in middle, (face.key, middle)


def test_each_copy_of_the_deck_has_a_back_of_its_own_colour(built):
    """Sampled in the bleeding background of every back: one colour per copy, all different,
    and different from the reference cards' back."""
    pdf = pdfium.PdfDocument(built["files"]["cards"].data)
    grid = built["grid"]
    scale = 2
    rendered = {}
    colours = defaultdict(set)
    for _, back, slot, face in _slots(built):
        if back not in rendered:
            rendered[back] = pdf[back].render(scale=scale).to_pil().convert("RGB")
        image = rendered[back]
        corner = grid.slot(slot, mirror_columns=True)     # long-edge duplex mirrors the columns
        x, y = corner.x + 2, corner.y + 2                 # 2 mm inside the card's corner
        pixel = image.getpixel((round(x * MM * scale), round(image.height - y * MM * scale)))
        copy = face.key.rsplit("-", 1)[-1] if face.key.startswith("card-standard-") else "reference"
        colours[copy].add(pixel)
    pdf.close()
    assert sorted(colours) == sorted([str(n) for n in range(1, COPIES + 1)] + ["reference"])
    assert all(len(found) == 1 for found in colours.values()), colours
    distinct = [next(iter(found)) for found in colours.values()]
    for i, first in enumerate(distinct):
        for second in distinct[i + 1:]:
            # clearly apart, not two shades of one colour
            assert sum(abs(a - b) for a, b in zip(first, second)) > 90, (first, second)
        assert sum(first) < 3 * 200, "a back must not be the paper's white"


def test_a_back_gives_nothing_of_its_card_away(built, sheets):
    _, text = sheets
    for page in range(1, len(text), 2):
        words = text[page].get_text_range()
        assert not any(symbol in words for symbol in SUITS + "★"), page
        assert not re.search(r"\d", words), page


@pytest.fixture(scope="module")
def booklet(built):
    pdf = pdfium.PdfDocument(built["files"]["rules"].data)
    # lines joined again where the booklet hyphenated a word (U+2010 at the line's end)
    pages = [re.sub("\u2010\r?\n", "", pdf[n].get_textpage().get_text_range()) for n in range(len(pdf))]
    yield pages
    pdf.close()


def test_the_booklet_is_whole_and_every_number_is_filled_in(booklet):
    assert len(booklet) % 4 == 0 and len(booklet) >= 8
    text = "\n".join(booklet).replace("\xa0", " ")        # numbers keep to their nouns with no-break spaces
    assert "{" not in text and "}" not in text
    game = yaml.safe_load((ROOT / "components" / SLUG / "game.yaml").read_text(encoding="utf-8"))
    counts = game["players"]["counts"]
    assert f"{counts[0]}, {counts[1]} nebo {counts[2]} hráčů" in text
    assert f"{COPIES} balíčky" in text
    # the board's geometry, as boards.yaml declares it
    boards = yaml.safe_load((ROOT / "components" / SLUG / "boards.yaml").read_text(encoding="utf-8"))
    track = boards["design"]["shapes"]["track"]
    flat = " ".join(text.split())
    assert f"Dráha každé strany má {track['spaces']} jamek" in flat
    assert f"Výchozí jamka je {track['start_area']['at']}. jamka vaší strany" in flat
    assert f"Vstup domů je {track['branch']['at']}. jamka vaší strany" in flat


def test_the_booklet_explains_every_card(booklet):
    text = " ".join(" ".join(booklet).split())
    for words in ("Eso (A)", "Kluk (J), dáma (Q), král (K)", "2, 3, 4, 5, 6, 9, 10", "o 8 jamek dozadu",
                  "rozdělí 7 kroků mezi dva své kolíky", "Žolík"):
        assert words in text, words
    # the reference card is drawn and its text printed beside it
    reference = CARDS["cards"]["reference"]["text"].splitlines()[0]
    assert reference in text


def test_a_6_and_a_9_are_underlined_in_both_indices_and_no_other_rank(built, tmp_path):
    path = tmp_path / "cards.pdf"
    path.write_bytes(built["files"]["cards"].data)
    seen = set()
    for name, (texts, shapes) in form_drawings(path).items():
        match = re.fullmatch(r"/FormXob\.card-standard-[a-z]+-([0-9a-z]+)-\d+", name)
        if not match:
            continue
        rank = match.group(1).upper()
        indices = [t for t in texts if t["text"] == rank and "Bold" in t["font"]]
        assert len(indices) >= 2, name                    # the upright index and the turned one
        assert any(turned_text(t) for t in indices) and any(not turned_text(t) for t in indices)
        marked = [underline_of(t, shapes) is not None for t in indices]
        assert marked == [rank in ("6", "9")] * len(indices), (name, marked)
        seen.add(rank)
    assert {"2", "6", "8", "9", "10", "A", "J"} <= seen


# ---- the print table ----------------------------------------------------------------------

PEGS_DECK = CARDS["decks"]["standard"]
PEGS_PER_COPY = (len(PEGS_DECK["matrix"]["suit"]) * len(PEGS_DECK["matrix"]["rank"])
                 + PEGS_DECK["extra"]["joker"]["copies"])
PEGS_REFERENCE = CARDS["cards"]["reference"]["count"]["standard"]         # cards of the reference deck
PEGS_SPEC = load_rules("pegs_and_jokers").SPEC
PER_SHEET = 9                                           # poker cards, 3 x 3 on A4


def _english_or_russian(locale: str) -> tuple[Project, Localised]:
    project = Project(ROOT)
    game = load_games(project, SLUG, texts=False)[0]
    return project, Localised(game, "standard", Texts.load(game, locale))


def test_the_booklet_names_the_sheets_each_table_prints():
    """Its deck printed four times, 4 or 6 players take three copies and 8 all four (from the
    rules: so many cards, whole decks each); the reference cards' sheet and the copies every
    table takes print first. The print table as the booklet lays it out (the home print of
    generator.app.booklet, the rows the booklet prints), on A4 and Letter, in English and Russian."""
    copies = {players: math.ceil(PEGS_SPEC.setup(players, "standard").components["cards/standard"] / PEGS_PER_COPY)
              for players in PEGS_SPEC.tables}
    assert copies == {4: 3, 6: 3, 8: 4} and PEGS_DECK["count"]["standard"] == len(PEGS_DECK["backs"]) == 4
    per_copy = math.ceil(PEGS_PER_COPY / PER_SHEET)
    assert PEGS_REFERENCE <= PER_SHEET
    small, every = 1 + 3 * per_copy, 1 + 4 * per_copy
    assert every == 25 == math.ceil((4 * PEGS_PER_COPY + PEGS_REFERENCE) / PER_SHEET)     # as many as when the decks were mixed
    # (a no-break space ties the sheet numbers to their word; word joiners keep a run whole)
    run = "\u2060–\u2060"
    expected = {"en": [("Players: 4 or 6", [f"sheets\u00a01{run}{small}"] * 2), ("Players: 8", [f"sheets\u00a01{run}{every}"] * 2)],
                "ru": [("Игроков: 4 или 6", [f"листы\u00a01{run}{small}"] * 2), ("Игроков: 8", [f"листы\u00a01{run}{every}"] * 2)]}
    for locale, rows in expected.items():
        home = home_print(*_english_or_russian(locale))
        assert len(home.papers) == 2 and dict(home.rows)["print_cards"] == [every, every]
        assert home.tables["print_cards"] == rows, locale
