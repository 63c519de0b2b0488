"""Race to the Table's rule booklets, read in its own words: every card count and total in
Bulgarian from its data, the free booklet limited to the free edition, the print table
against the built kits, Bulgarian hyphenation, its draft English booklet and a count changed
in every locale's booklet."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pikepdf
import pytest
import yaml
from babel.messages.pofile import read_po

import generator.app.home
from conftest import HYPHEN, ROOT, content_text, flat, page_texts, pnp, replace_in
from generator.i18n.texts import Texts
from generator.layout.faces import Localised
from generator.load.project import Project


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


@pytest.fixture(scope="module", autouse=True)
def booklets_and_kits_only():
    """These builds need the booklets and the home kits (whose page counts the booklet quotes),
    not the per-edition files such as the simulated designer's report, which take long."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(generator.app.home, "EDITION_MAKERS", {})
        yield


@pytest.fixture(scope="module")
def bg(tmp_path_factory) -> Path:
    """Both editions in the source locale, on both papers."""
    out = tmp_path_factory.mktemp("bg")
    build(out, "--locale", "bg")
    return out


@pytest.fixture(scope="module")
def en_draft_project(tmp_path_factory) -> Path:
    """A copy of the project in which en is still a draft."""
    copy = tmp_path_factory.mktemp("en-draft")
    shutil.copytree(ROOT / "components", copy / "components")
    shutil.copytree(ROOT / "templates", copy / "templates")
    replace_in(copy / "components" / GAME / "game.yaml", "  en: released\n", "  en: draft\n")
    return copy


@pytest.fixture(scope="module")
def en(tmp_path_factory, en_draft_project) -> Path:
    """The full edition's booklet in a draft locale."""
    out = tmp_path_factory.mktemp("en")
    build(out, "--edition", "full", "--locale", "en", "--paper", "a4", "--kind", "booklet", project=en_draft_project)
    return out


def manifest(out: Path) -> list[dict]:
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))["files"]


def test_language_is_set_and_words_are_hyphenated(bg):
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


def test_a_draft_locale_shows_its_words_and_a_draft_mark_on_every_page(en, en_draft_project):
    game, _ = Project(en_draft_project).load_game(GAME)
    loc = Localised(game, "full", Texts.load(game, "en"))
    path = rules(en, "full", "en")
    with pikepdf.open(path) as pdf:
        assert str(pdf.Root.Lang) == "en"
    texts = page_texts(path)
    with (en_draft_project / "components" / GAME / "locales" / "en.po").open("rb") as po:
        draft = next(message.string for message in read_po(po) if message.context == "labels.draft")
    assert draft and all(draft in text for text in texts)
    text = flat("\n".join(texts))
    quick = loc.field("cards.quick", game.files["cards"]["cards"]["quick"], "name")

    def cards(n):
        return loc.texts.fill("{n|cards}", {"n": n})
    assert flat(quick) in text
    assert flat(f"{loc.edition_name('full')}: {cards(15)} · {loc.edition_name('free')}: {cards(10)}") in text


def test_changing_a_count_changes_every_locales_booklet(project, tmp_path, monkeypatch):
    """The quick card's free count goes from 10 to 11 in the data and, consistently, in the
    rules module (whose check would otherwise refuse the data): every locale's free booklet
    then quotes 11 and the new total of 28 cards. The source locale's booklet is built and
    read in print; every locale's is laid out as the build lays it out."""
    from generator.app.booklet import rule_booklet_content
    from generator.app.loading import load_games
    from generator.layout.kit import Kit
    from generator.rules.race_to_the_table import SPEC
    replace_in(project / "components" / GAME / "cards.yaml", "count: {full: 15, free: 10}",
               "count: {full: 15, free: 11}")
    monkeypatch.setitem(SPEC.counts["free"]["cards"], "quick", 11)
    monkeypatch.setitem(SPEC.totals["free"], "cards/action", 28)
    monkeypatch.setitem(SPEC.totals["free"], "cards", 28)
    loaded = Project(project)
    game = load_games(loaded, GAME, texts=False)[0]
    out = tmp_path / "out"
    build(out, "--edition", "free", "--locale", game.source_locale, "--paper", "a4", "--kind", "booklet",
          project=project)
    printed = flat("\n".join(page_texts(rules(out, "free", game.source_locale))))
    assert len(game.locales) > 1
    for locale in game.locales:
        loc = Localised(game, "free", Texts.load(game, locale))
        text = flat(content_text(rule_booklet_content(Kit(loaded, game, loc, ""), picture_dpi=20)))
        def cards(n):
            return flat(loc.texts.fill("{n|cards}", {"n": n}))
        for words in ((text, printed) if locale == game.source_locale else (text,)):
            assert f"{flat(loc.edition_name())}: {cards(11)}" in words, locale
            assert cards(28) in words and cards(27) not in words, locale
