"""Decks print deck by deck: Pegs and Jokers prints its deck four times, each copy with a back of
its own, and a table of 4 or 6 players plays with three of them. Read off what `pnp build`
writes: every card sheet carries one back, each copy's sheets come together and in order (the
copy only the largest table needs last), the booklet's print table names the sheets each table
prints, a print shop gets one product per copy and Tabletop Simulator one deck per back."""
from __future__ import annotations

import io
import json
import math
import re
import shutil
from itertools import groupby

import pikepdf
import pypdfium2 as pdfium
import pytest
import yaml

from generator.rules import load_rules

from conftest import ROOT, SAMPLE, page_drawing, pnp, replace_in

GAME = "pegs-and-jokers"
CARDS = yaml.safe_load((ROOT / "components" / GAME / "cards.yaml").read_text(encoding="utf-8"))
DECK = CARDS["decks"]["standard"]
BACKS = DECK["backs"]                                   # copy n has back n
PER_COPY = len(DECK["matrix"]["suit"]) * len(DECK["matrix"]["rank"]) + DECK["extra"]["joker"]["copies"]
REFERENCE_BACK = CARDS["decks"]["reference"]["back"]
SPEC = load_rules("pegs_and_jokers").SPEC
PER_SHEET = 9                                           # poker cards, 3 x 3 on A4


def _copies_for(players: int) -> int:
    """The copies of the deck a table takes, from the rules: so many cards, whole decks each."""
    return math.ceil(SPEC.setup(players, "standard").components["cards/standard"] / PER_COPY)


def _back_of(card_form: str) -> str:
    """The back a card has in the data: a copy's own, or the reference deck's."""
    card = card_form.removeprefix("FormXob.card-")
    if card.startswith("standard-"):
        return BACKS[int(card.rsplit("-", 1)[1]) - 1]
    assert card == "reference", card
    return REFERENCE_BACK


@pytest.fixture(scope="module")
def sheets(tmp_path_factory):
    """Per sheet of the A4 cards file (long-edge duplex): the backs its fronts' cards have in
    the data, and the backs drawn on its backs page."""
    out = tmp_path_factory.mktemp("cards")
    result = pnp("build", "--game", GAME, "--locale", "en", "--kind", "cards", "--paper", "a4", "--out", str(out))
    assert result.exit_code == 0, result.output + result.traceback
    found = []
    with pikepdf.open(out / GAME / "standard" / "en" / f"{GAME}-standard-en-cards-a4.pdf") as pdf:
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


def test_each_copy_is_on_sheets_of_its_own_in_order_the_copy_for_the_largest_table_last(sheets):
    order = [back for (_, backs) in sheets for back in backs]
    runs = [(back, len(list(group))) for back, group in groupby(order)]
    assert len(runs) == len({back for back, _ in runs}), f"a back's sheets are not together: {runs}"
    assert dict(runs) == {**{back: math.ceil(PER_COPY / PER_SHEET) for back in BACKS}, REFERENCE_BACK: 1}
    copies = [back for back, _ in runs if back in BACKS]
    assert copies == BACKS
    # every table takes the reference cards and the first copies: they print first
    fewest = _copies_for(SPEC.tables[0])
    assert fewest < len(BACKS) and [back for back, _ in runs][-(len(BACKS) - fewest):] == BACKS[fewest:]
    assert len(sheets) == 25            # as many sheets as when the decks were mixed


def test_a_gutterfold_sheet_carries_one_back_too(tmp_path):
    """Fronts above the fold, their backs below it: one deck's cards on each sheet, each copy's
    sheets together."""
    result = pnp("build", "--game", GAME, "--locale", "en", "--kind", "cards", "--paper", "a4",
                 "--duplex", "gutterfold", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output + result.traceback
    order = []
    with pikepdf.open(tmp_path / GAME / "standard" / "en" / f"{GAME}-standard-en-cards-gutterfold-a4.pdf") as pdf:
        for page in pdf.pages:
            names = [form["name"].lstrip("/") for form in page_drawing(page)["forms"]]
            fronts = {_back_of(name) for name in names if name.startswith("FormXob.card-")}
            backs = {name.removeprefix("FormXob.back-") for name in names if name.startswith("FormXob.back-")}
            assert len(backs) == 1 and fronts == backs, (fronts, backs)
            order += backs
    runs = [back for back, _ in groupby(order)]
    assert len(runs) == len(set(runs)) and [back for back in runs if back in BACKS] == BACKS


def _print_rows(out, locale: str) -> list[str]:
    return _rows(out / GAME / "standard" / locale / f"{GAME}-standard-{locale}-rules.pdf")


def _rows(path) -> list[str]:
    """The booklet's lines of text, spaces as plain spaces."""
    pdf = pdfium.PdfDocument(path)
    try:
        text = [pdf[n].get_textpage().get_text_range() for n in range(len(pdf))]
    finally:
        pdf.close()
    return [" ".join(line.split()) for page in text for line in page.splitlines()]   # no-break spaces too


@pytest.fixture(scope="module")
def booklets(tmp_path_factory):
    out = tmp_path_factory.mktemp("booklets")
    rows = {}
    for locale in ("en", "ru"):
        result = pnp("build", "--game", GAME, "--locale", locale, "--kind", "booklet", "--paper", "a4",
                     "--out", str(out))
        assert result.exit_code == 0, result.output + result.traceback
        rows[locale] = _print_rows(out, locale)
    return rows


def test_the_booklet_names_the_sheets_each_table_size_prints(sheets, booklets):
    """From the rules: 3 copies for 4 or 6 players, 4 for 8; the sheets counted off the file."""
    tables: dict[int, list[int]] = {}
    for players in SPEC.tables:
        taken = set(BACKS[:_copies_for(players)]) | {REFERENCE_BACK}
        tables.setdefault(_copies_for(players), []).append(players)
        numbers = [n for n, (_, backs) in enumerate(sheets, 1) if backs <= taken]
        assert numbers == list(range(1, numbers[-1] + 1)), numbers    # one run from sheet 1
    assert sorted(tables.values()) == [[4, 6], [8]]
    small = len([1 for _, backs in sheets if backs <= set(BACKS[:3]) | {REFERENCE_BACK}])
    expected = {"en": [f"Players: 4 or 6 sheets 1–{small} sheets 1–{small}",
                       f"Players: 8 sheets 1–{len(sheets)} sheets 1–{len(sheets)}"],
                "ru": [f"Игроков: 4 или 6 листы 1–{small} листы 1–{small}",
                       f"Игроков: 8 листы 1–{len(sheets)} листы 1–{len(sheets)}"]}
    for locale, lines in expected.items():
        found = booklets[locale]
        cards = next(i for i, line in enumerate(found) if re.match(r"\S+ 25 \S+ 25 \S+", line))
        assert found[cards + 1:cards + 3] == lines, (locale, found[cards - 1:cards + 4])


def test_a_print_shop_gets_one_product_per_copy():
    """The card files as `pnp build --profile eu-3mm` makes them (generator.app.shop.shop_files
    draws them with generator.render.shop.render_shop_cards, its manifest entries the files'
    details). Preflight of such files: test_diced_veggies_look.py."""
    from generator.app.loading import load_games
    from generator.i18n.texts import Texts
    from generator.layout.faces import Localised, card_faces
    from generator.layout.kit import deck_title
    from generator.load.profiles import load_profile
    from generator.load.project import Project
    from generator.render.shop import decks_of, render_shop_cards
    project = Project(ROOT)
    game = load_games(project, GAME, texts=False)[0]
    loc = Localised(game, "standard", Texts.load(game, "en"))
    faces = card_faces(loc)
    titles = {deck: deck_title(loc, deck, cards[0].face) for deck, cards in decks_of(faces).items()}
    made = list(render_shop_cards(faces, load_profile(project, "eu-3mm"),
                                  {"game": GAME, "edition": "standard", "locale": "en"}, titles))
    data = {artifact.path: artifact.data for artifact in made}
    products = {a.details["product"]: a for a in made if a.kind == "shop-cards" and a.details["sides"] == ["back"]}
    assert sorted(products) == sorted([f"standard-{back}" for back in BACKS] + ["reference"])
    for name, artifact in products.items():
        assert len(artifact.details["decks"]) == 1
        assert artifact.details["cards"] == (8 if name == "reference" else PER_COPY)
        with pikepdf.open(io.BytesIO(artifact.data)) as pdf:
            drawn = {str(name).lstrip("/") for page in pdf.pages for name in page.obj.Resources.XObject.keys()}
        assert len(drawn) == 1, (name, drawn)
        with pikepdf.open(io.BytesIO(data[artifact.path.replace("-backs.pdf", "-fronts.pdf")])) as pdf:
            cards = {str(name).lstrip("/") for page in pdf.pages for name in page.obj.Resources.XObject.keys()}
        assert {_back_of(card) for card in cards} == {next(iter(drawn)).removeprefix("FormXob.back-")}


def test_tabletop_simulator_has_one_deck_per_back():
    """The saved objects as `pnp build --target tts` writes them (generator.app.tts.TtsKit's
    save file, planned from the data without drawing the sheets test_tts.py checks)."""
    from generator.app.loading import load_games
    from generator.app.tts import TtsKit
    from generator.i18n.texts import Texts
    from generator.layout.faces import Localised
    from generator.load.project import Project
    game = load_games(Project(ROOT), GAME, texts=False)[0]
    kit = TtsKit(Localised(game, "standard", Texts.load(game, "en")))
    save = json.loads(next(a.data for a in kit.save_files() if a.kind == "tts-save"))
    decks = [o for o in save["ObjectStates"] if o["Name"] == "Deck"]
    backs = [{entry["BackURL"] for entry in deck["CustomDeck"].values()} for deck in decks]
    assert all(len(urls) == 1 for urls in backs), backs
    assert len({next(iter(urls)) for urls in backs}) == len(decks) == len(BACKS) + 1
    for deck in decks:
        cards = {_back_of(f"FormXob.card-{card['Memo']}") for card in deck["ContainedObjects"]}
        assert len(cards) == 1, (deck["Nickname"], cards)
        assert len(deck["ContainedObjects"]) == (PER_COPY if cards <= set(BACKS) else 8)


def test_the_tables_come_from_the_rules_setup_of_any_game(tmp_path):
    """The neutral sample game: its coins deck printed in two copies, a back each. When its rules
    say a table of 2 takes one copy's worth of coins, the booklet gives the 2-player table the
    sheets before the second copy; while every table takes every card, no such rows."""
    project = tmp_path / "project"
    shutil.copytree(SAMPLE, project)
    folder = project / "output" / "sample-game" / "standard" / "en"
    result = pnp("build", "--kind", "booklet", "--paper", "a4", project=project)
    assert result.exit_code == 0, result.output + result.traceback
    assert not any(line.startswith("Players:") for line in _rows(folder / "sample-game-standard-en-rules.pdf"))
    replace_in(project / "rules" / "sample_game" / "__init__.py", 'Setup({"cards/heroes": 7,',
               'Setup({"cards/heroes": 7, "cards/coins": 5 if players == 2 else 10,')
    result = pnp("build", "--kind", "booklet", "--paper", "a4", project=project)
    assert result.exit_code == 0, result.output + result.traceback
    lines = _rows(folder / "sample-game-standard-en-rules.pdf")
    # the heroes' sheet, then a sheet per copy of the coins
    at = lines.index("Cards 3 sheets 3 sheets")
    assert lines[at + 1:at + 3] == ["Players: 2 sheets 1–2 sheets 1–2", "Players: 3 or 4 sheets 1–3 sheets 1–3"]
