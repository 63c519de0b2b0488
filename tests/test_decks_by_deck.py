"""Decks print deck by deck: a deck printed in copies, each copy with a back of its own, and
tables that play with only some of the copies. On a copy of the sample game (its coins printed
twice, a back each; its rules changed so that a table of 2 takes one copy's worth of coins),
read off what `pnp build` writes: every card sheet carries one back, each copy's sheets come
together and in order (the copy only the larger tables need last), the booklet's print table
names the sheets each table prints, a print shop gets one product per copy and Tabletop
Simulator one deck per back. Pegs and Jokers' own print table is its own test
(tests/games/pegs-and-jokers/test_pegs_and_jokers_look.py)."""
from __future__ import annotations

import io
import json
import math
import shutil
from itertools import groupby

import pikepdf
import pypdfium2 as pdfium
import pytest
import yaml

from generator.app.booklet import home_print
from generator.app.loading import load_games
from generator.i18n.texts import Texts
from generator.layout.faces import Localised
from generator.load.project import Project

from conftest import SAMPLE, page_drawing, pnp, replace_in

GAME = "sample-game"
KIT = f"{GAME}-standard-en"
CARDS = yaml.safe_load((SAMPLE / "components" / GAME / "cards.yaml").read_text(encoding="utf-8"))
COINS = CARDS["decks"]["coins"]
BACKS = COINS["backs"]                                  # copy n of the coins has back n
PER_COPY = len(COINS["matrix"]["metal"]) * len(COINS["matrix"]["value"]) + len(COINS["extra"])
HEROES = sum(card["count"]["standard"] for card in CARDS["cards"].values() if card["deck"] == "heroes")
HERO_BACK = CARDS["decks"]["heroes"]["back"]
PER_SHEET = 9                                           # poker cards, 3 x 3 on A4
# The copies of the coins each table takes, as the copy's rules below say: 5 coins for 2 players.
COPIES_TAKEN = {2: 1, 3: 2, 4: 2}


def two_copies_for_two_tables(project) -> None:
    """The sample's coins as poker cards (a size with a gutterfold sheet, and one the print
    shops print), and its rules giving a table of 2 one copy's worth of coins."""
    layouts = project / "components" / GAME / "layouts.yaml"
    replace_in(layouts, "size_mm: [44, 63]", "size_mm: [63, 88]", count=3)       # a coin and its two backs
    replace_in(layouts, "box: [0, 0, 44, 63]", "box: [0, 0, 63, 88]", count=3)
    replace_in(layouts, "size_mm: [45, 64]", "size_mm: [64, 89]")                # their tuck box: 1 mm over
    replace_in(project / "rules" / "sample_game" / "__init__.py", 'Setup({"cards/heroes": 7,',
               'Setup({"cards/heroes": 7, "cards/coins": 5 if players == 2 else 10,')


def _back_of(card_form: str) -> str:
    """The back a card has in the data: its coin copy's own, or its deck's."""
    card = card_form.removeprefix("FormXob.card-")
    if card.startswith("coins-"):
        return BACKS[int(card.rsplit("-", 1)[1]) - 1]
    return CARDS["decks"][CARDS["cards"][card]["deck"]]["back"]


def _loaded(root, slug: str, locale: str = "en") -> tuple[Project, Localised]:
    project = Project(root)
    game = load_games(project, slug, texts=False)[0]
    return project, Localised(game, "standard", Texts.load(game, locale))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The copy, built once for its A4 card sheets (long-edge duplex) and booklet, and once for
    its gutterfold card sheets: (project, kit folder, gutterfold kit folder)."""
    project = tmp_path_factory.mktemp("decks") / "project"
    shutil.copytree(SAMPLE, project)
    two_copies_for_two_tables(project)
    folders = []
    for duplex in ("long", "gutterfold"):
        out = project.parent / duplex
        kinds = "cards,booklet" if duplex == "long" else "cards"
        result = pnp("build", "--kind", kinds, "--paper", "a4", "--duplex", duplex, "--out", str(out), project=project)
        assert result.exit_code == 0, result.output + result.traceback
        folders.append(out / GAME / "standard" / "en")
    return project, *folders


@pytest.fixture(scope="module")
def sheets(built):
    """Per sheet of the A4 cards file (long-edge duplex): the backs its fronts' cards have in
    the data, and the backs drawn on its backs page."""
    found = []
    with pikepdf.open(built[1] / f"{KIT}-cards-a4.pdf") as pdf:
        pages = list(pdf.pages)
        assert len(pages) % 2 == 0
        for front, back in zip(pages[::2], pages[1::2]):
            fronts = [form["name"].lstrip("/") for form in page_drawing(front)["forms"]]
            backs = [form["name"].lstrip("/") for form in page_drawing(back)["forms"]]
            assert all(name.startswith("FormXob.card-") for name in fronts)
            assert all(name.startswith("FormXob.back-") for name in backs) and len(backs) == len(fronts)
            found.append(({_back_of(name) for name in fronts}, {name.removeprefix("FormXob.back-") for name in backs}))
    return found


def test_every_sheet_carries_one_back(sheets):
    for number, (fronts, backs) in enumerate(sheets, 1):
        assert len(backs) == 1, (number, backs)
        assert fronts == backs, (number, fronts, backs)


def test_each_copy_is_on_sheets_of_its_own_in_order_the_copy_for_the_larger_tables_last(sheets):
    """The coins' copies are mixed in the data (each coin's copies one after the other); on the
    sheets each copy's cards come together."""
    order = [back for (_, backs) in sheets for back in backs]
    runs = [(back, len(list(group))) for back, group in groupby(order)]
    assert len(runs) == len({back for back, _ in runs}), f"a back's sheets are not together: {runs}"
    assert dict(runs) == {HERO_BACK: math.ceil(HEROES / PER_SHEET), **{back: math.ceil(PER_COPY / PER_SHEET)
                                                                        for back in BACKS}}
    assert [back for back, _ in runs if back in BACKS] == BACKS
    # every table takes the heroes and the first copy: they print first
    assert [back for back, _ in runs][-1] == BACKS[-1]


def test_a_gutterfold_sheet_carries_one_back_too(built):
    """Fronts above the fold, their backs below it: one deck's cards on each sheet, each copy's
    sheets together (four cards a sheet: each copy of the coins takes two)."""
    order = []
    with pikepdf.open(built[2] / f"{KIT}-cards-gutterfold-a4.pdf") as pdf:
        for page in pdf.pages:
            names = [form["name"].lstrip("/") for form in page_drawing(page)["forms"]]
            fronts = {_back_of(name) for name in names if name.startswith("FormXob.card-")}
            backs = {name.removeprefix("FormXob.back-") for name in names if name.startswith("FormXob.back-")}
            assert len(backs) == 1 and fronts == backs, (fronts, backs)
            order += backs
    assert [(back, len(list(group))) for back, group in groupby(order)] == [(HERO_BACK, 2), (BACKS[0], 2), (BACKS[1], 2)]


def _rows(path) -> list[str]:
    """The booklet's lines of text, spaces as plain spaces."""
    pdf = pdfium.PdfDocument(path)
    try:
        text = [pdf[n].get_textpage().get_text_range() for n in range(len(pdf))]
    finally:
        pdf.close()
    return [" ".join(line.split()) for page in text for line in page.splitlines()]   # no-break spaces too


def test_the_booklet_names_the_sheets_each_table_size_prints(built, sheets):
    """The tables come from the rules' setup: the booklet gives the 2-player table the sheets
    before the second copy of the coins; the sheets counted off the cards file."""
    numbers = {}
    for players, copies in COPIES_TAKEN.items():
        taken = {HERO_BACK, *BACKS[:copies]}
        numbers[players] = [n for n, (_, backs) in enumerate(sheets, 1) if backs <= taken]
        assert numbers[players] == list(range(1, numbers[players][-1] + 1)), numbers    # one run from sheet 1
    small, every = numbers[2][-1], len(sheets)
    assert small < every == numbers[3][-1] == numbers[4][-1]
    lines = _rows(built[1] / f"{KIT}-rules.pdf")
    at = lines.index(f"Cards {every} sheets {every} sheets")          # on A4 and on Letter
    assert lines[at + 1:at + 3] == [f"Players: 2 sheets 1–{small} sheets 1–{small}",
                                    f"Players: 3 or 4 sheets 1–{every} sheets 1–{every}"]


def test_while_every_table_takes_every_card_the_booklet_has_no_table_rows():
    """The sample as it is: every table takes both copies of the coins."""
    project, loc = _loaded(SAMPLE, GAME)
    home = home_print(project, loc)
    assert [part for part, _ in home.rows][0] == "print_cards" and home.tables == {}


def test_a_print_shop_gets_one_product_per_copy(built):
    """The card files as `pnp build --profile eu-3mm` makes them (generator.app.shop.shop_files
    draws them with generator.render.shop.render_shop_cards, its manifest entries the files'
    details). Preflight of such files: test_diced_veggies_look.py."""
    from generator.layout.faces import card_faces
    from generator.layout.kit import deck_title
    from generator.load.profiles import load_profile
    from generator.render.shop import decks_of, render_shop_cards
    project, loc = _loaded(built[0], GAME)
    faces = card_faces(loc)
    titles = {deck: deck_title(loc, deck, cards[0].face) for deck, cards in decks_of(faces).items()}
    made = list(render_shop_cards(faces, load_profile(project, "eu-3mm"),
                                  {"game": GAME, "edition": "standard", "locale": "en"}, titles))
    data = {artifact.path: artifact.data for artifact in made}
    products = {a.details["product"]: a for a in made if a.kind == "shop-cards" and a.details["sides"] == ["back"]}
    assert sorted(products) == sorted([f"coins-{back}" for back in BACKS] + ["heroes"])
    for name, artifact in products.items():
        assert len(artifact.details["decks"]) == 1
        assert artifact.details["cards"] == (HEROES if name == "heroes" else PER_COPY)
        with pikepdf.open(io.BytesIO(artifact.data)) as pdf:
            drawn = {str(name).lstrip("/") for page in pdf.pages for name in page.obj.Resources.XObject.keys()}
        assert len(drawn) == 1, (name, drawn)
        with pikepdf.open(io.BytesIO(data[artifact.path.replace("-backs.pdf", "-fronts.pdf")])) as pdf:
            cards = {str(name).lstrip("/") for page in pdf.pages for name in page.obj.Resources.XObject.keys()}
        assert {_back_of(card) for card in cards} == {next(iter(drawn)).removeprefix("FormXob.back-")}


def test_tabletop_simulator_has_one_deck_per_back(built):
    """The saved objects as `pnp build --target tts` writes them (generator.app.tts.TtsKit's
    save file, planned from the data without drawing the sheets test_tts.py checks)."""
    from generator.app.tts import TtsKit
    project, loc = _loaded(built[0], GAME)
    save = json.loads(next(a.data for a in TtsKit(loc, project).save_files() if a.kind == "tts-save"))
    decks = [o for o in save["ObjectStates"] if o["Name"] == "Deck"]
    backs = [{entry["BackURL"] for entry in deck["CustomDeck"].values()} for deck in decks]
    assert all(len(urls) == 1 for urls in backs), backs
    assert len({next(iter(urls)) for urls in backs}) == len(decks) == len(BACKS) + 1
    for deck in decks:
        cards = {_back_of(f"FormXob.card-{card['Memo']}") for card in deck["ContainedObjects"]}
        assert len(cards) == 1, (deck["Nickname"], cards)
        assert len(deck["ContainedObjects"]) == (PER_COPY if cards <= set(BACKS) else HEROES)
