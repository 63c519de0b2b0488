"""Race to the Table's rule booklets, read in its own words: every card count and total in
Bulgarian from its data, the free booklet limited to the free edition, the print table
against the built kits, and its booklets in Bulgarian, its source language, hyphenated. A draft
locale's booklet, the language and hyphenation of another locale and a count changed in every
locale's booklet are mechanisms, checked on the translated sample in tests/test_booklet.py."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pikepdf
import pytest
import yaml

from conftest import HYPHEN, ROOT, flat, page_texts, pnp

pytestmark = pytest.mark.usefixtures("without_edition_files")


GAME = "race-to-the-table"
MM = 72 / 25.4
SHEETS = {"a4": (297 * MM, 210 * MM), "letter": (279.4 * MM, 215.9 * MM)}


def rules(out: Path, edition: str, locale: str, paper: str = "") -> Path:
    kind = f"rules-imposed-{paper}" if paper else "rules"
    return out / GAME / edition / locale / f"{GAME}-{edition}-{locale}-{kind}.pdf"


def yaml_of(name: str) -> dict:
    return yaml.safe_load((ROOT / "components" / GAME / f"{name}.yaml").read_text(encoding="utf-8"))


def bg_cards(n: int) -> str:
    forms = yaml_of("booklet")["phrases"]["cards"]
    return (forms["one"] if n == 1 else forms["other"]).replace("{n}", str(n))


def build(out: Path, *args: str, project: Path = ROOT):
    result = pnp("build", "--game", GAME, *args, "--out", str(out), project=project)
    assert result.exit_code == 0, result.output + result.traceback
    return result


@pytest.fixture(scope="module")
def bg(tmp_path_factory) -> Path:
    """Both editions in the source locale, on both papers."""
    out = tmp_path_factory.mktemp("bg")
    build(out, "--locale", "bg")
    return out


def manifest(out: Path) -> list[dict]:
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))["files"]


def test_language_is_set_and_words_are_hyphenated(bg):
    """The game's own language, Bulgarian: hyphenated from its own patterns."""
    for edition in ("full", "free"):
        with pikepdf.open(rules(bg, edition, "bg")) as pdf:
            assert str(pdf.Root.Lang) == "bg"
    text = "\n".join(page_texts(rules(bg, "full", "bg")))
    source = "".join((ROOT / "components" / GAME / f"{n}.yaml").read_text(encoding="utf-8")
                     for n in ("booklet", "cards", "game", "boards", "tokens"))
    assert HYPHEN not in source          # so every one in the PDF is a hyphenation point
    assert len(re.findall(f"\\w{HYPHEN}\\r?\\n\\w", text)) >= 10


# ---- numbers from the data --------------------------------------------------------------------

def test_full_booklet_gives_every_card_count_from_the_data(bg):
    text = flat("\n".join(page_texts(rules(bg, "full", "bg"))))
    names = yaml_of("game")["editions"]
    full, free = names["full"]["name"], names["free"]["name"]
    assert f"Бързо! Преместете един пул 2 полета напред. {full}: 15 карти · {free}: 10 карти" in text
    for card in yaml_of("cards")["cards"].values():
        counts = card["count"]
        line = f"{full}: {bg_cards(counts['full'])}"
        if counts.get("free"):
            line += f" · {free}: {bg_cards(counts['free'])}"
        assert f"{card['name']}" in text and line in text, card["name"]
    # Totals from the data, in the text and in the component list.
    assert "63 карти" in text and "54 карти за действие от 11 вида" in text and "8 карти с роли" in text
    assert "6 игрални полета" in text and "2 жетона Маркер" in text and "6 пула Пул" in text
    # A text quoting many numbers has each of them filled in.
    players = yaml_of("game")["players"]
    assert (f"{players['min']}–{players['max']} играчи (най-добре {players['best_min']}–{players['best_max']}), "
            f"от {players['teams_from']} играчи – в отбори") in text
    assert not re.search(r"\{[a-z0-9_.@|-]+\}", text), "a placeholder is left unfilled"


def test_free_booklet_says_nothing_the_free_edition_lacks(bg):
    text = flat("\n".join(page_texts(rules(bg, "free", "bg"))))
    ui = yaml_of("booklet")["ui"]
    names = yaml_of("game")["editions"]
    assert f"{names['free']['name']}: 10 карти" in text
    assert f"{names['full']['name']}:" not in text          # no full-edition counts
    for category in ("cards", "boards"):
        for item in yaml_of(category)[category].values():
            shown = item["name"] in text
            assert shown == bool(item["count"].get("free")), item["name"]
    cards = yaml_of("cards")["cards"].values()
    for deck_id, deck in yaml_of("cards")["decks"].items():
        in_free = any(c["deck"] == deck_id and c["count"].get("free") for c in cards)
        assert (deck["name"] in text) == in_free, deck["name"]
    assert ui["role"] not in text and ui["effect"] not in text


def test_print_table_matches_the_built_kits(bg):
    pages = {(e["edition"], e["kind"], e["paper"]): e["pages"] for e in manifest(bg)}

    def sheets(n):
        return f"{n} лист" if n == 1 else f"{n} листа"
    ui = yaml_of("booklet")["ui"]
    for edition in ("full", "free"):
        text = flat("\n".join(page_texts(rules(bg, edition, "bg"))))
        cards = " ".join(sheets(pages[(edition, "cards", p)] // 2) for p in SHEETS)
        boards = " ".join(sheets(pages[(edition, "boards", p)]) for p in SHEETS)
        if (edition, "boards-one-sheet", "a4") in pages:          # printed instead of the tiles
            boards += f" {yaml_of('game')['labels']['one_sheet']} " + \
                " ".join(sheets(pages[(edition, "boards-one-sheet", p)]) for p in SHEETS)
        tokens = " ".join(sheets(pages[(edition, "tokens", p)]) for p in SHEETS)
        assert f"A4 US Letter {ui['print_cards']} {cards} {ui['print_boards']} {boards} " \
               f"{ui['print_tokens']} {tokens}" in text
