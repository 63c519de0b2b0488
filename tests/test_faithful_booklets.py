"""The kits say what their source texts say, in every locale: Race to the Table's full edition
has every board on one sheet (A4 and Letter, its scale printed), beside the tiled one, and its
booklet says so; the free booklet's examples heading and card counts follow the edition's data;
and where a kit departs from its source on purpose (The Game's "66 on 77", The Donkey Can!'s
cargo face down), the booklet says so. Checked on every locale's booklet as the build lays it out,
and on the printed PDF of one locale, against numbers worked out here from the YAML and the
catalogs."""
from __future__ import annotations

import gettext
import io
import math
import re
from functools import lru_cache

import pikepdf
import pypdfium2 as pdfium
import pytest
import yaml
from babel import Locale
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from conftest import PAPERS, ROOT, content_text, line_of, page_drawing, pnp, replace_in
from generator.app.booklet import rule_booklet_content
from generator.app.kinds import boards as boards_kind
from generator.app.loading import load_games
from generator.i18n.texts import Texts
from generator.layout.faces import Localised
from generator.layout.kit import Kit
from generator.load.project import Project
from generator.layout.tiles import plan_one_sheet


# One worker renders the booklets these tests share (tests/conftest.py `rendered_booklet`).

# The locale whose booklets are also read in print: what the layout holds is what is printed
# (the printed ones prove it), and the words of every locale are checked where they are laid out.
PRINTED = "en"
RTT, THE_GAME, DONKEY = "race-to-the-table", "the-game", "donkey-can"
HYPHEN = "\u2010"              # where WeasyPrint hyphenates a word
TILES = yaml.safe_load((ROOT / "templates" / "sheets" / "tiles.yaml").read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def _yaml(game: str, name: str) -> dict:
    return yaml.safe_load((ROOT / "components" / game / f"{name}.yaml").read_text(encoding="utf-8"))


def data(game: str, name: str) -> dict:
    return _yaml(game, name)


def locales(game: str) -> list[str]:
    return list(data(game, "game")["locales"])


def source_locale(game: str) -> str:
    return data(game, "game")["source_locale"]


def norm(text: str) -> str:
    """Whitespace (no-break spaces too) as single spaces."""
    return " ".join(text.split())


def flat(text: str) -> str:
    """A PDF's text with hyphenated line breaks joined (a hyphen of the word itself that ends a
    line comes out as U+FFFE) and whitespace single spaces."""
    text = re.sub(f"{HYPHEN}\\s*\\n", "", text)
    text = re.sub("\ufffe\\s*", "-", text)
    return norm(text)


@lru_cache(maxsize=None)
def catalog(game: str, locale: str) -> dict:
    with (ROOT / "components" / game / "locales" / f"{locale}.po").open("rb") as po:
        return {m.context: m for m in read_po(po, locale=locale) if m.id}


def string(game: str, locale: str, key: str, source: str) -> str:
    """The text of `key` in the locale: the source's, or the catalog's translation of it."""
    if locale == source_locale(game):
        return source
    message = catalog(game, locale)[key]
    assert message.id == source and not message.fuzzy, f"{game} {locale} {key}: not translated from the source"
    return message.string


def phrase(game: str, locale: str, name: str, n: int) -> str:
    """n with the booklet's plural phrase, the form chosen by CLDR's (gettext's) rule."""
    forms = data(game, "booklet")["phrases"][name]
    if locale == source_locale(game):
        category = Locale.parse(locale).plural_form(n)
        form = forms.get(category) or forms["other"]
    else:
        index = gettext.c2py(get_plural(locale).plural_expr)(n)
        form = catalog(game, locale)[f"booklet.phrases.{name}"].string[index]
    return norm(form.replace("{n}", str(n)))


def label(game: str, locale: str, name: str) -> str:
    return string(game, locale, f"labels.{name}", data(game, "game")["labels"][name])


def block(game: str, section_id: str, index: int) -> tuple[str, dict]:
    """The key and the source of a block of booklet.yaml."""
    section = next(s for s in data(game, "booklet")["sections"] if s["id"] == section_id)
    return f"booklet.sections.{section_id}.blocks.{index}", section["blocks"][index]


def shown(node: dict, edition: str) -> bool:
    return edition in node.get("editions", [edition])


@pytest.fixture(scope="module")
def tree() -> Project:
    """The project itself, read only."""
    return Project(ROOT)


@pytest.fixture(scope="module")
def laid_out(tree):
    """A game's booklet in an edition and locale as the build lays it out (pictures drawn small:
    these tests read words)."""
    games: dict = {}

    def content(game_slug: str, edition: str, locale: str):
        if game_slug not in games:
            games[game_slug] = load_games(tree, game_slug, texts=False)[0]
        game = games[game_slug]
        return rule_booklet_content(Kit(tree, game, Localised(game, edition, Texts.load(game, locale)), ""),
                                    picture_dpi=20)
    return content


@pytest.fixture(scope="module")
def booklet(laid_out, rendered_booklet):
    """The texts to read of a game's booklet in an edition and locale: the laid-out booklet's,
    and in the printed locale also the rendered PDF's."""
    made: dict = {}

    def texts(game_slug: str, edition: str, locale: str) -> list[str]:
        if (game_slug, edition, locale) not in made:
            found = [flat(content_text(laid_out(game_slug, edition, locale)))]
            if locale == PRINTED:
                pdf = pdfium.PdfDocument(rendered_booklet(game_slug, edition, locale)[1])
                try:
                    found.append(flat("\n".join(page.get_textpage().get_text_range() for page in pdf)))
                finally:
                    pdf.close()
            made[game_slug, edition, locale] = found
        return made[game_slug, edition, locale]
    return texts


@pytest.mark.parametrize("game_slug", [RTT, THE_GAME, DONKEY])
def test_the_printed_locale_is_one_of_the_games(game_slug):
    assert PRINTED in locales(game_slug)             # else no booklet of it would be read in print


# ---- Race to the Table: the board on one sheet ----------------------------------------------------

def one_sheet_boards(edition: str) -> list[dict]:
    """The boards of the edition that boards.yaml says also print on one sheet."""
    boards = data(RTT, "boards")
    design = boards["design"].get("one_sheet", False)
    found = []
    for board in boards["boards"].values():
        value = board.get("one_sheet", design)
        if board["count"].get(edition) and (edition in value if isinstance(value, list) else value):
            found.append(board)
    return found


def test_the_full_editions_boards_print_on_one_sheet_too():
    # The source: "В пълното издание има и игрално поле на един лист".
    full = [b for b in data(RTT, "boards")["boards"].values() if b["count"].get("full")]
    assert one_sheet_boards("full") == full and len(full) == 6
    assert one_sheet_boards("free") == []


def expected_scale(paper: tuple[float, float], board: tuple[float, float]) -> tuple[tuple[float, float], int]:
    """The sheet (turned as it takes the board larger) and the whole percent, rounded down,
    at which the board fits inside the tiling margin."""
    margin = TILES["margin_mm"]
    best = max(((sheet, min((sheet[0] - 2 * margin) / board[0], (sheet[1] - 2 * margin) / board[1], 1.0))
                for sheet in (paper, paper[::-1])), key=lambda pair: pair[1])
    return best[0], math.floor(best[1] * 100 + 1e-9)


@pytest.mark.parametrize("board", [(400, 280), (280, 400), (150, 100), (100, 150), (900, 120), (190, 277)])
@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_a_board_on_one_sheet_takes_the_larger_whole_percent_never_above_100_and_is_centred(board, paper):
    sheet = plan_one_sheet(board, PAPERS[paper], TILES["margin_mm"])
    page_mm, percent = expected_scale(PAPERS[paper], board)
    assert sheet.paper_mm == pytest.approx(page_mm) and round(sheet.scale * 100) == percent <= 100
    w, h = board[0] * sheet.scale, board[1] * sheet.scale
    assert (sheet.x_mm, sheet.y_mm) == pytest.approx(((page_mm[0] - w) / 2, (page_mm[1] - h) / 2))
    assert min(sheet.x_mm, sheet.y_mm) >= TILES["margin_mm"] - 1e-9


# Every paper in the source locale, and every other locale on one paper: the scale depends on
# the paper, the words on the locale.
@pytest.mark.parametrize("locale, paper", [(source_locale(RTT), paper) for paper in sorted(PAPERS)]
                         + [(locale, "a4") for locale in locales(RTT) if locale != source_locale(RTT)])
def test_every_full_board_is_on_one_sheet_of_each_paper_at_its_stated_scale(tree, locale, paper):
    game, _ = tree.load_game(RTT)
    files = boards_kind.files(Kit(tree, game, Localised(game, "full", Texts.load(game, locale)), paper))
    sheet, = [f for f in files if f.kind == "boards-one-sheet"]
    assert sheet.path == f"{RTT}/full/{locale}/{RTT}-full-{locale}-boards-one-sheet-{paper}.pdf"
    tiled, = [f for f in files if f.kind == "boards"]                 # beside the large tiled one
    assert tiled.pages > sheet.pages
    boards = one_sheet_boards("full")
    size = tuple(data(RTT, "boards")["design"]["size_mm"])
    page_mm, percent = expected_scale(PAPERS[paper], size)
    assert sheet.pages == len(boards)
    scale_word = norm(label(RTT, locale, "scale"))
    margin = TILES["margin_mm"]
    pdf = pdfium.PdfDocument(sheet.data)
    with pikepdf.open(io.BytesIO(sheet.data)) as doc:
        for index, board in enumerate(boards):
            w, h = pdf[index].get_size()
            assert (w * 25.4 / 72, h * 25.4 / 72) == pytest.approx(page_mm, abs=0.05)
            text = norm(pdf[index].get_textpage().get_text_range())
            name = norm(string(RTT, locale, f"boards.{list(data(RTT, 'boards')['boards'])[index]}.name", board["name"]))
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


def test_a_one_sheet_edition_that_does_not_exist_and_a_missing_label_are_located_errors(project):
    boards, game = (project / "components" / RTT / f"{name}.yaml" for name in ("boards", "game"))
    replace_in(boards, "  one_sheet: [full]\n", "  one_sheet: [full, deluxe]\n")
    replace_in(game, "  scale: Мащаб\n", "")
    result = pnp("validate", RTT, project=project)
    assert result.exit_code == 1, result.output
    assert f"components/{RTT}/boards.yaml:{line_of(boards, 'one_sheet:')}: design.one_sheet: no edition 'deluxe'" \
        in result.output
    assert f"components/{RTT}/game.yaml:{line_of(game, 'labels:')}: labels.scale: a board printed on one sheet " \
        "prints this label" in result.output


@pytest.mark.parametrize("locale", locales(RTT))
def test_the_full_booklet_lists_and_prints_the_one_sheet_boards(booklet, locale):
    on_one_sheet = norm(label(RTT, locale, "one_sheet"))
    boards = one_sheet_boards("full")
    key, source = block(RTT, "printing", 1)
    assert "на един лист" in source["p"] and source["editions"] == ["full"]
    for text in booklet(RTT, "full", locale):
        # the component list: how many boards also come on one sheet
        assert f"{phrase(RTT, locale, 'boards', len(boards))} {on_one_sheet}" in text
        # the print table: their sheets on each paper, one a board, under the tiled boards
        sheets = phrase(RTT, locale, "sheets", len(boards))
        assert f" {on_one_sheet} {sheets} {sheets}" in text
        assert norm(string(RTT, locale, f"{key}.p", source["p"])) in text
    for text in booklet(RTT, "free", locale):
        assert on_one_sheet not in text


# ---- Race to the Table, free edition: headings and counts from the data ----------------------------

def examples_shown(edition: str) -> int:
    section = next(s for s in data(RTT, "booklet")["sections"] if s["id"] == "examples")
    return sum(1 for b in section["blocks"] if "example" in b and shown(b, edition) and shown(b["example"], edition))


@pytest.mark.parametrize("locale", locales(RTT))
def test_the_examples_heading_counts_the_examples_the_edition_shows(booklet, laid_out, locale):
    assert (examples_shown("free"), examples_shown("full")) == (1, 2)
    for edition in ("free", "full"):
        n = examples_shown(edition)
        heading = phrase(RTT, locale, "examples", n)
        section, = [s for s in laid_out(RTT, edition, locale).sections if s.id == "examples"]
        assert norm(section.title) == heading                     # the heading the contents list too
        for text in booklet(RTT, edition, locale)[1:]:
            assert text.count(heading) >= 2, heading               # printed: the contents, and the heading
    for free in booklet(RTT, "free", locale):
        assert phrase(RTT, locale, "examples", 2) not in free and "Два примера" not in free


def free_action_cards() -> tuple[int, int]:
    """Action cards of the free edition, and their kinds, from cards.yaml."""
    cards = [c for c in data(RTT, "cards")["cards"].values() if c["deck"] == "action" and c["count"].get("free")]
    return sum(c["count"]["free"] for c in cards), len(cards)


def test_the_free_edition_has_the_sources_action_cards_and_kinds():
    # The source: "27 карти за действие от пет вида".
    assert free_action_cards() == (27, 5)


@pytest.mark.parametrize("locale", locales(RTT))
def test_the_free_booklet_counts_its_action_cards_and_their_kinds(booklet, locale):
    total, kinds = free_action_cards()
    cards, of_kinds = phrase(RTT, locale, "action_cards", total), phrase(RTT, locale, "kinds", kinds)
    for text in booklet(RTT, "free", locale):
        assert re.search(re.escape(cards) + r".{1,6}" + re.escape(of_kinds), text), (cards, of_kinds)


@pytest.mark.parametrize("locale", locales(RTT))
def test_the_free_booklet_compares_kinds_in_brackets_not_as_a_range(booklet, locale):
    cards = data(RTT, "cards")["cards"].values()
    full_kinds = len([c for c in cards if c["deck"] == "action" and c["count"].get("full")])
    roles = sum(c["count"].get("full", 0) for c in cards if c["deck"] == "roles")
    free_kinds = free_action_cards()[1]
    for text in booklet(RTT, "free", locale):
        assert re.search(r"\(" + re.escape(phrase(RTT, locale, "kinds", full_kinds)) + rf"[^()]*\b{free_kinds}\)",
                         text)
        assert not re.search(rf"\b{free_kinds}\s*[–—-]\s*{re.escape(phrase(RTT, locale, 'roles', roles))}", text)


# ---- departures from the source, said in every locale ----------------------------------------------

@pytest.mark.parametrize("locale", locales(THE_GAME))
def test_the_game_booklet_says_why_its_example_is_67_on_77(booklet, locale):
    # The source's example plays "66" on "77": 11 back, where only exactly 10 back is allowed.
    key, source = block(THE_GAME, "turn", 5)
    note = norm(string(THE_GAME, locale, f"{key}.p", source["p"]))
    assert all(number in note for number in ("66", "77", "67", "11", "10"))
    for text in booklet(THE_GAME, "standard", locale):
        assert note in text


@pytest.mark.parametrize("locale", locales(DONKEY))
def test_the_donkey_booklet_says_why_cargo_is_played_face_down(booklet, locale):
    # The source's step 1 plays cargo face up, its step 4 turns it face up.
    key, source = block(DONKEY, "round", 4)
    assert "лицьовою стороною догори" in source["p"]
    for text in booklet(DONKEY, "standard", locale):
        assert norm(string(DONKEY, locale, f"{key}.p", source["p"])) in text
