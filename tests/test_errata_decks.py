"""The errata card sheets of `pnp build --changed-since` print deck by deck, as the home card
sheets do: on a copy of the sample game whose changed cards are a Heroes card and the thief of
both copies of the Coins deck (each copy with a back of its own, all three backs of one size
but the heroes'), no sheet holds cards of two backs, and every backs page is the back of its
fronts, in the order of the home card sheets."""
from __future__ import annotations

import shutil
from itertools import groupby
from pathlib import Path

import pikepdf
import pytest
import yaml

from conftest import SAMPLE, page_drawing, pnp, replace_in

GAME = "sample-game"
CARDS = yaml.safe_load((SAMPLE / "components" / GAME / "cards.yaml").read_text(encoding="utf-8"))


def _back_of(card_form: str) -> str:
    """The back a card has in the data: its deck's, or its copy's when the deck has one a copy."""
    card = card_form.removeprefix("/FormXob.card-")
    if card in CARDS["cards"]:
        return CARDS["decks"][CARDS["cards"][card]["deck"]]["back"]
    deck = CARDS["decks"][card.split("-", 1)[0]]
    return deck["backs"][int(card.rsplit("-", 1)[1]) - 1] if deck.get("backs") else deck["back"]


def _sheets(path: Path) -> list[tuple[list[str], list[str]]]:
    """(backs the fronts' cards have in the data, backs drawn on its backs page) of each sheet of a
    long-edge duplex card file."""
    with pikepdf.open(path) as pdf:
        pages = [[form["name"] for form in page_drawing(page)["forms"]] for page in pdf.pages]
    assert len(pages) % 2 == 0
    sheets = []
    for fronts, backs in zip(pages[::2], pages[1::2]):
        assert all(name.startswith("/FormXob.card-") for name in fronts), fronts
        assert all(name.startswith("/FormXob.back-") for name in backs) and len(backs) == len(fronts), backs
        sheets.append(([_back_of(name) for name in fronts], [name.removeprefix("/FormXob.back-") for name in backs]))
    return sheets


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """(the errata card sheets, the home card sheets) of the changed copy on A4."""
    base = tmp_path_factory.mktemp("errata-decks")
    old, new = base / "old", base / "new"
    shutil.copytree(SAMPLE, old)
    shutil.copytree(SAMPLE, new)
    cards = new / "components" / GAME / "cards.yaml"
    replace_in(cards, 'text: Takes a coin., colour: "#1E1E1E"', 'text: Takes a coin., colour: "#2E2E2E"')
    replace_in(cards, "text: Moves two spaces.", "text: Moves three spaces.")
    result = pnp("build", "--changed-since", str(old), "--paper", "a4", "--out", str(base / "errata"), project=new)
    assert result.exit_code == 0, result.output + result.traceback
    result = pnp("build", "--kind", "cards", "--paper", "a4", "--out", str(base / "home"), project=new)
    assert result.exit_code == 0, result.output + result.traceback
    kit = Path(GAME) / "standard" / "en"
    return (base / "errata" / kit / "errata" / f"{GAME}-standard-en-errata-cards-a4.pdf",
            base / "home" / kit / f"{GAME}-standard-en-cards-a4.pdf")


def test_no_errata_sheet_mixes_backs_and_each_backs_page_is_its_fronts(built):
    errata, _home = built
    sheets = _sheets(errata)
    fronts = [back for sheet_fronts, _ in sheets for back in sheet_fronts]
    # the changed cards: four knights, and one thief of each coin copy
    assert sorted(set(fronts)) == ["coin-back", "coin-back-red", "hero-back"] and len(fronts) == 6
    for number, (sheet_fronts, sheet_backs) in enumerate(sheets, 1):
        assert len(set(sheet_backs)) == 1, f"errata sheet {number} mixes backs: {sheet_backs}"
        assert sorted(sheet_fronts) == sorted(sheet_backs), (number, sheet_fronts, sheet_backs)


def test_errata_runs_come_in_the_home_sheets_order(built):
    errata, home = built
    order = [back for back, _ in groupby(sheet_backs[0] for _, sheet_backs in _sheets(errata))]
    home_order = [back for back, _ in groupby(sheet_backs[0] for _, sheet_backs in _sheets(home))]
    assert len(order) == len(set(order)), f"a back's errata sheets are not together: {order}"
    assert order == [back for back in home_order if back in order]
