"""Race to the Table's kits say what its source says, in every locale: the full edition has every
board on one sheet (A4 and Letter, its scale printed), beside the tiled one, and its booklet says
so; the free booklet's examples heading and card counts follow the edition's data. Checked on
every locale's booklet as the build lays it out, and printed in English, against numbers worked
out here from the YAML and the catalogs."""
from __future__ import annotations

import gettext
import io
import re

import pikepdf
import pypdfium2 as pdfium
import pytest
from babel import Locale
from babel.messages.plurals import get_plural

from conftest import (PAPERS, PRINTED_LOCALE, ROOT, TILES, booklet_block, expected_scale, game_catalog, game_locales,
                      game_string, norm, page_drawing, shipped_game_data, source_locale)
from generator.app.kinds import boards as boards_kind
from generator.i18n.texts import Texts
from generator.layout.faces import Localised
from generator.layout.kit import Kit
from generator.load.project import Project

RTT = "race-to-the-table"
@pytest.fixture(scope="module")
def tree() -> Project:
    """The project itself, read only."""
    return Project(ROOT)


def phrase(locale: str, name: str, n: int) -> str:
    """n with the booklet's plural phrase, the form chosen by CLDR's (gettext's) rule."""
    forms = shipped_game_data(RTT, "booklet")["phrases"][name]
    if locale == source_locale(RTT):
        category = Locale.parse(locale).plural_form(n)
        form = forms.get(category) or forms["other"]
    else:
        index = gettext.c2py(get_plural(locale).plural_expr)(n)
        form = game_catalog(RTT, locale)[f"booklet.phrases.{name}"].string[index]
    return norm(form.replace("{n}", str(n)))


def label(locale: str, name: str) -> str:
    return game_string(RTT, locale, f"labels.{name}", shipped_game_data(RTT, "game")["labels"][name])


def shown(node: dict, edition: str) -> bool:
    return edition in node.get("editions", [edition])


def test_the_printed_locale_is_one_of_the_games():
    assert PRINTED_LOCALE in game_locales(RTT)       # else no booklet of it would be read in print


# ---- Race to the Table: the board on one sheet ----------------------------------------------------

def one_sheet_boards(edition: str) -> list[dict]:
    """The boards of the edition that boards.yaml says also print on one sheet."""
    boards = shipped_game_data(RTT, "boards")
    design = boards["design"].get("one_sheet", False)
    found = []
    for board in boards["boards"].values():
        value = board.get("one_sheet", design)
        if board["count"].get(edition) and (edition in value if isinstance(value, list) else value):
            found.append(board)
    return found


def test_the_full_editions_boards_print_on_one_sheet_too():
    # The source: "В пълното издание има и игрално поле на един лист".
    full = [b for b in shipped_game_data(RTT, "boards")["boards"].values() if b["count"].get("full")]
    assert one_sheet_boards("full") == full and len(full) == 6
    assert one_sheet_boards("free") == []


# Every paper in the source locale, and every other locale on one paper: the scale depends on
# the paper, the words on the locale.
@pytest.mark.parametrize("locale, paper", [(source_locale(RTT), paper) for paper in sorted(PAPERS)]
                         + [(locale, "a4") for locale in game_locales(RTT) if locale != source_locale(RTT)])
def test_every_full_board_is_on_one_sheet_of_each_paper_at_its_stated_scale(tree, locale, paper):
    game, _ = tree.load_game(RTT)
    files = boards_kind.files(Kit(tree, game, Localised(game, "full", Texts.load(game, locale)), paper))
    sheet, = [f for f in files if f.kind == "boards-one-sheet"]
    assert sheet.path == f"{RTT}/full/{locale}/{RTT}-full-{locale}-boards-one-sheet-{paper}.pdf"
    tiled, = [f for f in files if f.kind == "boards"]                 # beside the large tiled one
    assert tiled.pages > sheet.pages
    boards = one_sheet_boards("full")
    size = tuple(shipped_game_data(RTT, "boards")["design"]["size_mm"])
    page_mm, percent = expected_scale(PAPERS[paper], size)
    assert sheet.pages == len(boards)
    scale_word = norm(label(locale, "scale"))
    margin = TILES["margin_mm"]
    pdf = pdfium.PdfDocument(sheet.data)
    with pikepdf.open(io.BytesIO(sheet.data)) as doc:
        for index, board in enumerate(boards):
            w, h = pdf[index].get_size()
            assert (w * 25.4 / 72, h * 25.4 / 72) == pytest.approx(page_mm, abs=0.05)
            text = norm(pdf[index].get_textpage().get_text_range())
            name = norm(game_string(RTT, locale, f"boards.{list(shipped_game_data(RTT, 'boards')['boards'])[index]}.name", board["name"]))
            stated = re.search(re.escape(f"{name} · {scale_word} ") + r"(\d+)\s?%", text)
            assert stated, text
            assert int(stated.group(1)) == percent
            form = max(page_drawing(doc.pages[index])["forms"], key=lambda f: f["rect"][2] * f["rect"][3])
            x, y, fw, fh = form["rect"]
            assert (fw, fh) == pytest.approx((size[0] * percent / 100, size[1] * percent / 100), abs=0.05)
            assert margin - 0.05 <= x and x + fw <= page_mm[0] - margin + 0.05
            assert margin - 0.05 <= y and y + fh <= page_mm[1] - margin + 0.05
    pdf.close()


def test_the_free_kit_has_no_one_sheet_board(tree):
    game, _ = tree.load_game(RTT)
    files = boards_kind.files(Kit(tree, game, Localised(game, "free", Texts.load(game, "bg")), "a4"))
    assert [f.kind for f in files] == ["boards"]


@pytest.mark.parametrize("locale", game_locales(RTT))
def test_the_full_booklet_lists_and_prints_the_one_sheet_boards(booklet_texts, locale):
    on_one_sheet = norm(label(locale, "one_sheet"))
    boards = one_sheet_boards("full")
    key, source = booklet_block(RTT, "printing", 1)
    assert "на един лист" in source["p"] and source["editions"] == ["full"]
    for text in booklet_texts(RTT, "full", locale):
        # the component list: how many boards also come on one sheet
        assert f"{phrase(locale, 'boards', len(boards))} {on_one_sheet}" in text
        # the print table: their sheets on each paper, one a board, under the tiled boards
        sheets = phrase(locale, "sheets", len(boards))
        assert f" {on_one_sheet} {sheets} {sheets}" in text
        assert norm(game_string(RTT, locale, f"{key}.p", source["p"])) in text
    for text in booklet_texts(RTT, "free", locale):
        assert on_one_sheet not in text


# ---- Race to the Table, free edition: headings and counts from the data ----------------------------

def examples_shown(edition: str) -> int:
    section = next(s for s in shipped_game_data(RTT, "booklet")["sections"] if s["id"] == "examples")
    return sum(1 for b in section["blocks"] if "example" in b and shown(b, edition) and shown(b["example"], edition))


@pytest.mark.parametrize("locale", game_locales(RTT))
def test_the_examples_heading_counts_the_examples_the_edition_shows(booklet_texts, laid_out_booklet, locale):
    assert (examples_shown("free"), examples_shown("full")) == (1, 2)
    for edition in ("free", "full"):
        n = examples_shown(edition)
        heading = phrase(locale, "examples", n)
        section, = [s for s in laid_out_booklet(RTT, edition, locale).sections if s.id == "examples"]
        assert norm(section.title) == heading                     # the heading the contents list too
        for text in booklet_texts(RTT, edition, locale)[1:]:
            assert text.count(heading) >= 2, heading               # printed: the contents, and the heading
    for free in booklet_texts(RTT, "free", locale):
        assert phrase(locale, "examples", 2) not in free and "Два примера" not in free


def free_action_cards() -> tuple[int, int]:
    """Action cards of the free edition, and their kinds, from cards.yaml."""
    cards = [c for c in shipped_game_data(RTT, "cards")["cards"].values() if c["deck"] == "action" and c["count"].get("free")]
    return sum(c["count"]["free"] for c in cards), len(cards)


def test_the_free_edition_has_the_sources_action_cards_and_kinds():
    # The source: "27 карти за действие от пет вида".
    assert free_action_cards() == (27, 5)


@pytest.mark.parametrize("locale", game_locales(RTT))
def test_the_free_booklet_counts_its_action_cards_and_their_kinds(booklet_texts, locale):
    total, kinds = free_action_cards()
    cards, of_kinds = phrase(locale, "action_cards", total), phrase(locale, "kinds", kinds)
    for text in booklet_texts(RTT, "free", locale):
        assert re.search(re.escape(cards) + r".{1,6}" + re.escape(of_kinds), text), (cards, of_kinds)


@pytest.mark.parametrize("locale", game_locales(RTT))
def test_the_free_booklet_compares_kinds_in_brackets_not_as_a_range(booklet_texts, locale):
    cards = shipped_game_data(RTT, "cards")["cards"].values()
    full_kinds = len([c for c in cards if c["deck"] == "action" and c["count"].get("full")])
    roles = sum(c["count"].get("full", 0) for c in cards if c["deck"] == "roles")
    free_kinds = free_action_cards()[1]
    for text in booklet_texts(RTT, "free", locale):
        assert re.search(r"\(" + re.escape(phrase(locale, "kinds", full_kinds)) + rf"[^()]*\b{free_kinds}\)",
                         text)
        assert not re.search(rf"\b{free_kinds}\s*[–—-]\s*{re.escape(phrase(locale, 'roles', roles))}", text)
