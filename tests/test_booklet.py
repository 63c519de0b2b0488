"""Rule booklets built through `pnp build`, checked on the real PDFs: A5 pages padded to a
multiple of 4, embedded shipped fonts, language and hyphenation, every count taken from the
data in the locale's words, the free booklet limited to the free edition, the DRAFT mark,
the home-print imposition's page order, the URL fetcher, and byte-identical rebuilds."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
import yaml
from babel.messages.pofile import read_po

import generator.app.home
from conftest import ROOT, SAMPLE, TRANSLATED_LOCALE, content_text, line_of, pnp, replace_in, translated_sample
from generator.i18n.texts import Texts
from generator.layout.booklet import booklet_words
from generator.layout.faces import Localised
from generator.load.project import Project
from generator.render.booklet import ProjectFetcher


GAME = "race-to-the-table"
SAMPLE_GAME = "sample-game"
MM = 72 / 25.4
A5 = (148 * MM, 210 * MM)
SHEETS = {"a4": (297 * MM, 210 * MM), "letter": (279.4 * MM, 215.9 * MM)}
HYPHEN = "\u2010"        # what WeasyPrint prints where it hyphenates a word


def rules(out: Path, edition: str, locale: str, paper: str = "") -> Path:
    kind = f"rules-imposed-{paper}" if paper else "rules"
    return out / GAME / edition / locale / f"{GAME}-{edition}-{locale}-{kind}.pdf"


def page_texts(path: Path) -> list[str]:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    finally:
        pdf.close()


def flat(text: str) -> str:
    """Text with hyphenated line breaks joined and all whitespace single spaces."""
    return " ".join(re.sub(f"{HYPHEN}\\s*\\n", "", text).split())


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


@pytest.fixture
def sample_project(tmp_path) -> Path:
    """The sample project with templates of its own (copies of the tool's) to change: what is
    not about one game's booklet is checked on it."""
    project = tmp_path / "sample"
    shutil.copytree(SAMPLE, project)
    shutil.copytree(ROOT / "templates", project / "templates")
    return project


def manifest(out: Path) -> list[dict]:
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))["files"]


# ---- the booklet file -----------------------------------------------------------------------

def test_booklets_are_a5_padded_to_a_multiple_of_4_and_in_the_manifest(bg):
    entries = {e["path"]: e for e in manifest(bg)}
    for edition in ("full", "free"):
        path = rules(bg, edition, "bg")
        with pikepdf.open(path) as pdf:
            pages = len(pdf.pages)
            for page in pdf.pages:
                box = [float(v) for v in page.mediabox]
                assert box[2] - box[0] == pytest.approx(A5[0], abs=0.1)
                assert box[3] - box[1] == pytest.approx(A5[1], abs=0.1)
        assert pages % 4 == 0 and pages >= 8
        entry = entries[str(path.relative_to(bg))]
        assert (entry["kind"], entry["locale"], entry["edition"], entry["pages"]) == ("rules", "bg", edition, pages)
        assert pages - 3 <= entry["content_pages"] <= pages
        for paper in SHEETS:
            imposed = entries[str(rules(bg, edition, "bg", paper).relative_to(bg))]
            assert (imposed["kind"], imposed["locale"], imposed["paper"], imposed["pages"]) == \
                ("rules-imposed", "bg", paper, pages // 2)


def test_only_the_shipped_fonts_are_used_and_all_are_embedded(bg):
    with pikepdf.open(rules(bg, "full", "bg")) as pdf:
        names = set()
        for page in pdf.pages:
            for font in page.Resources.Font.values():
                names.add(str(font.BaseFont))
                descriptor = font.DescendantFonts[0].FontDescriptor if "/DescendantFonts" in font \
                    else font.FontDescriptor
                assert any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3")), font.BaseFont
    # The @font-face families (served only from generator/fonts/): no fallback to a system font.
    families = {re.sub(r"^/[A-Z]{6}\+", "", name) for name in names}
    assert families and all(f.startswith("Booklet-") for f in families), families
    assert {"Booklet-Serif", "Booklet-Sans-Bold"} <= families


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


def test_a_released_locale_has_no_draft_mark(bg):
    draft = yaml_of("game")["labels"]["draft"]
    assert not any(draft in text for text in page_texts(rules(bg, "full", "bg")))


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


# ---- padding, imposition, reproducibility ---------------------------------------------------

def test_short_content_is_padded_with_notes_pages(sample_project, tmp_path):
    words = " ".join(["Every turn is short, and the choice is yours."] * 60)
    replace_in(sample_project / "components" / SAMPLE_GAME / "booklet.yaml", "\n  - id: print\n",
               f"\n  - id: extra\n    title: More\n    blocks:\n      - p: {words}\n      - p: {words}\n"
               f"\n  - id: print\n")
    out = tmp_path / "out"
    result = pnp("build", "--game", SAMPLE_GAME, "--paper", "a4", "--kind", "booklet", "--out", str(out),
                 project=sample_project)
    assert result.exit_code == 0, result.output + result.traceback
    entry = next(e for e in manifest(out) if e["kind"] == "rules")
    texts = page_texts(out / SAMPLE_GAME / "standard" / "en" / f"{SAMPLE_GAME}-standard-en-rules.pdf")
    assert entry["content_pages"] % 4 != 0          # so this booklet needed padding
    assert len(texts) == entry["pages"] and entry["pages"] % 4 == 0
    notes = booklet_words(Project(sample_project), "en")["notes"]
    assert all(flat(t) == notes for t in texts[entry["content_pages"]:])      # ruled, headed in the locale
    assert texts[entry["content_pages"] - 1].strip()


# Printed sides, (left, right) 1-based, sheet by sheet, front then back: sheet 1 carries the
# last and first pages, and each fold nests inside the one before.
SADDLE_SIDES = {
    8: [(8, 1), (2, 7), (6, 3), (4, 5)],
    12: [(12, 1), (2, 11), (10, 3), (4, 9), (8, 5), (6, 7)],
    16: [(16, 1), (2, 15), (14, 3), (4, 13), (12, 5), (6, 11), (10, 7), (8, 9)],
    20: [(20, 1), (2, 19), (18, 3), (4, 17), (16, 5), (6, 15), (14, 7), (8, 13), (12, 9), (10, 11)],
}


@pytest.mark.parametrize("paper", sorted(SHEETS))
def test_home_print_sides_are_in_saddle_stitch_order(bg, paper):
    source = [re.sub(r"\s", "", t) for t in page_texts(rules(bg, "full", "bg"))]
    pdf = pdfium.PdfDocument(str(rules(bg, "full", "bg", paper)))
    try:
        sides = [(left - 1, right - 1) for left, right in SADDLE_SIDES[len(source)]]
        assert len(pdf) == len(sides)
        for page, (left, right) in zip(pdf, sides):
            width, height = page.get_size()
            assert (width, height) == pytest.approx(SHEETS[paper], abs=0.1)
            textpage = page.get_textpage()
            # the pages' own area: a sheet that shrinks them says so in the margin below
            low = (height - A5[1] * min(width / 2 / A5[0], height / A5[1], 1)) / 2
            halves = [textpage.get_text_bounded(0, low, width / 2, height - low),
                      textpage.get_text_bounded(width / 2, low, width, height - low)]
            assert [re.sub(r"\s", "", h) for h in halves] == [source[left], source[right]]
    finally:
        pdf.close()


def test_rebuilds_are_byte_identical(bg, tmp_path):
    build(tmp_path, "--edition", "free", "--locale", "bg", "--paper", "a4")
    for path in (rules(bg, "free", "bg"), rules(bg, "free", "bg", "a4")):
        again = tmp_path / path.relative_to(bg)
        assert again.read_bytes() == path.read_bytes(), path.name


# ---- what the booklet may read ----------------------------------------------------------------

def test_url_fetcher_allows_only_the_projects_own_files(tmp_path):
    inside = tmp_path / "project" / "style.css"
    inside.parent.mkdir()
    inside.write_text("p {}", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("no", encoding="utf-8")
    fetcher = ProjectFetcher([inside.parent])
    for url in ("https://example.com/font.ttf", "http://127.0.0.1/x.png", "ftp://example.com/x",
                (tmp_path / "secret.txt").as_uri(), "file:///etc/passwd",
                inside.parent.as_uri() + "/../secret.txt", "file://example.com" + str(inside)):
        with pytest.raises(ValueError, match="refused"):
            fetcher.fetch(url)
    assert len(fetcher.refused) == 7
    assert fetcher.fetch(inside.as_uri()).read() == b"p {}"
    assert fetcher.fetch("data:text/plain;base64,b2s=").read() == b"ok"


def test_a_template_asking_for_a_remote_file_fails_the_build(sample_project, tmp_path):
    css = sample_project / "templates" / "booklet" / "booklet.css"
    css.write_text('@import url("https://example.com/evil.css");\n' + css.read_text(encoding="utf-8"),
                   encoding="utf-8")
    result = pnp("build", "--game", SAMPLE_GAME, "--paper", "a4", "--kind", "booklet",
                 "--out", str(tmp_path / "out"), project=sample_project)
    assert result.exit_code == 1, result.output + result.traceback
    assert "refused https://example.com/evil.css" in result.output
    assert not (tmp_path / "out").exists()


def test_a_missing_layout_word_is_reported_with_its_key(sample_project, tmp_path):
    booklet = sample_project / "components" / SAMPLE_GAME / "booklet.yaml"
    replace_in(booklet, "  print_cards: Cards\n", "")
    result = pnp("build", "--game", SAMPLE_GAME, "--paper", "a4", "--out", str(tmp_path / "out"),
                 project=sample_project)
    assert result.exit_code == 1, result.output + result.traceback
    assert result.stderr.splitlines() == [
        f"components/{SAMPLE_GAME}/booklet.yaml:{line_of(booklet, 'ui:')}: booklet.ui.print_cards: "
        "the booklet layout prints this word; add it", "1 problem(s) found."]
    assert not result.traceback and not (tmp_path / "out").exists()


def test_a_released_locale_must_be_fully_translated(tmp_path):
    project = translated_sample(tmp_path)
    po = project / "components" / SAMPLE_GAME / "locales" / f"{TRANSLATED_LOCALE}.po"
    text = po.read_text(encoding="utf-8")
    # Empty one translation, whatever state the catalog is in.
    text, emptied = re.subn(r'(msgctxt "booklet.ui.contents"\nmsgid "[^"]*"\nmsgstr )"[^"]*"', r'\1""', text)
    assert emptied == 1
    po.write_text(text, encoding="utf-8")
    result = pnp("build", "--game", SAMPLE_GAME, "--locale", TRANSLATED_LOCALE, "--paper", "a4",
                 "--out", str(tmp_path / "out"), project=project)
    assert result.exit_code == 1
    (problem, entry, summary) = result.stderr.splitlines()
    # The catalog falls short as a whole, and the string it lacks is named at its entry.
    assert problem.startswith(f"components/{SAMPLE_GAME}/locales/{TRANSLATED_LOCALE}.po: locale "
                              f"'{TRANSLATED_LOCALE}' is released but 1 of "), problem
    assert problem.endswith(" strings are not translated (or fuzzy)") and summary == "2 problem(s) found."
    entry_line = line_of(po, 'msgctxt "booklet.ui.contents"') + 1        # its msgid line
    assert entry == f"components/{SAMPLE_GAME}/locales/{TRANSLATED_LOCALE}.po:{entry_line}: booklet.ui.contents: not translated"


def test_booklet_names_an_unknown_deck_or_edition_with_file_and_line(sample_project):
    booklet = sample_project / "components" / SAMPLE_GAME / "booklet.yaml"
    replace_in(booklet, "      - components: {}\n",
               "      - components: {}\n      - p: Only in one edition.\n        editions: [standart]\n")
    replace_in(booklet, "      - print: {}\n", "      - print: {}\n      - cards: {deck: heroez, table: true}\n")
    replace_in(booklet, "  page: p.\n", "  page: p.\n  role: Role\n  effect: What it does\n")   # a table's words
    result = pnp("validate", SAMPLE_GAME, project=sample_project)
    assert result.exit_code == 1
    where = f"components/{SAMPLE_GAME}/booklet.yaml"
    assert result.stderr.splitlines() == [
        f"{where}:{line_of(booklet, 'editions: [standart]')}: booklet.sections.box.blocks.1.editions: "
        "no edition 'standart' in game.yaml",
        f"{where}:{line_of(booklet, 'cards: {deck: heroez')}: booklet.sections.print.blocks.1.cards.deck: "
        "no deck 'heroez' in cards.yaml",
        "2 problem(s) found."]
