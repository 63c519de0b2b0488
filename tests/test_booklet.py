"""Rule booklets built through `pnp build` from the sample game, checked on the real PDFs: A5
pages padded to a multiple of 4, embedded shipped fonts, the language, no DRAFT mark on a
released locale, the home-print imposition's page order, the URL fetcher, byte-identical
rebuilds and the booklet's data errors; and on its translated copy, a draft locale's booklet
in its own words and language, hyphenated, and a count changed in every locale's booklet."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
import yaml

from conftest import (HYPHEN, ROOT, SAMPLE, TRANSLATED_LOCALE, content_text, flat, line_of, page_texts, pnp, project_copy,
                      replace_in)
from generator.app.booklet import component_rows
from generator.app.loading import load_games
from generator.i18n.texts import Texts
from generator.layout.booklet import booklet_words
from generator.layout.faces import Localised
from generator.load.project import Project
from generator.render.booklet import ProjectFetcher

pytestmark = pytest.mark.usefixtures("without_edition_files")


SAMPLE_GAME = "sample-game"
MM = 72 / 25.4
A5 = (148 * MM, 210 * MM)
SHEETS = {"a4": (297 * MM, 210 * MM), "letter": (279.4 * MM, 215.9 * MM)}
# a paragraph of the most the schema lets one hold; four of them fill eight pages and more
LONG = " ".join(["Understandably, interchangeable responsibilities characteristically accompany extraordinary "
                 "circumstances; nevertheless, uncompromising manufacturers recommend straightforward "
                 "arrangements."] * 20)


def rules(out: Path, paper: str = "") -> Path:
    kind = f"rules-imposed-{paper}" if paper else "rules"
    return out / SAMPLE_GAME / "standard" / "en" / f"{SAMPLE_GAME}-standard-en-{kind}.pdf"


@pytest.fixture(scope="module")
def long_booklet(tmp_path_factory) -> Path:
    """The output folder of a copy of the sample project whose booklet has a long section of
    its own, built on both papers: a booklet of several sheets."""
    project = tmp_path_factory.mktemp("long-booklet") / "sample"
    shutil.copytree(SAMPLE, project)
    replace_in(project / "components" / SAMPLE_GAME / "booklet.yaml", "\n  - id: print\n",
               "\n  - id: extra\n    title: More\n    blocks:\n" + f"      - p: {LONG}\n" * 4 + "\n  - id: print\n")
    out = project / "output"
    result = pnp("build", "--kind", "booklet", "--out", str(out), project=project)
    assert result.exit_code == 0, result.output + result.traceback
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

def test_booklets_are_a5_padded_to_a_multiple_of_4_and_in_the_manifest(long_booklet):
    entries = {e["path"]: e for e in manifest(long_booklet)}
    path = rules(long_booklet)
    with pikepdf.open(path) as pdf:
        pages = len(pdf.pages)
        for page in pdf.pages:
            box = [float(v) for v in page.mediabox]
            assert box[2] - box[0] == pytest.approx(A5[0], abs=0.1)
            assert box[3] - box[1] == pytest.approx(A5[1], abs=0.1)
    assert pages % 4 == 0 and pages >= 8
    entry = entries[str(path.relative_to(long_booklet))]
    assert (entry["kind"], entry["locale"], entry["edition"], entry["pages"]) == ("rules", "en", "standard", pages)
    assert pages - 3 <= entry["content_pages"] <= pages
    for paper in SHEETS:
        imposed = entries[str(rules(long_booklet, paper).relative_to(long_booklet))]
        assert (imposed["kind"], imposed["locale"], imposed["paper"], imposed["pages"]) == \
            ("rules-imposed", "en", paper, pages // 2)


def test_only_the_shipped_fonts_are_used_and_all_are_embedded(long_booklet):
    with pikepdf.open(rules(long_booklet)) as pdf:
        assert str(pdf.Root.Lang) == "en"
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


def test_a_released_locale_has_no_draft_mark(long_booklet):
    draft = yaml.safe_load((SAMPLE / "components" / SAMPLE_GAME / "game.yaml").read_text(encoding="utf-8"))["labels"]["draft"]
    texts = page_texts(rules(long_booklet))
    assert draft and texts and not any(draft in text for text in texts)


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
def test_home_print_sides_are_in_saddle_stitch_order(long_booklet, paper):
    source = [re.sub(r"\s", "", t) for t in page_texts(rules(long_booklet))]
    assert len(set(source)) == len(source)         # so each side shows which page it carries
    pdf = pdfium.PdfDocument(str(rules(long_booklet, paper)))
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


def test_rebuilds_are_byte_identical(long_booklet, tmp_path):
    # drawn anew: the session's shared cache would hand back the first build's files
    result = pnp("build", "--paper", "a4", "--kind", "booklet", "--no-cache", "--out", str(tmp_path),
                 project=long_booklet.parent)
    assert result.exit_code == 0, result.output + result.traceback
    for path in (rules(long_booklet), rules(long_booklet, "a4")):
        again = tmp_path / path.relative_to(long_booklet)
        assert again.read_bytes() == path.read_bytes(), path.name


# ---- no heading left alone at a page's foot ---------------------------------------------------

def test_an_example_a_page_tall_starts_under_its_heading_and_goes_on_over(tmp_path):
    """A worked example is kept whole; one nearly a page tall fits under its section's heading on
    no page, and kept whole it would leave the heading alone at the foot of one: it starts on
    the heading's page and goes on over."""
    project = tmp_path / "sample"
    shutil.copytree(SAMPLE, project)
    steps = "".join(f"          - Step {n}, the player on turn moves a knight.\n" for n in range(1, 29))
    replace_in(project / "components" / SAMPLE_GAME / "booklet.yaml", "\n  - id: print\n",
               "\n  - id: example\n    title: An example turn\n    blocks:\n      - example:\n"
               f"          title: Anna’s turn\n          steps:\n{steps}\n  - id: print\n")
    out = tmp_path / "out"
    result = pnp("build", "--paper", "a4", "--kind", "booklet", "--out", str(out), project=project)
    assert result.exit_code == 0, result.output + result.traceback
    pages = [flat(text) for text in page_texts(rules(out))]
    [start] = [number for number, text in enumerate(pages) if "Anna’s turn" in text]
    assert "An example turn Anna’s turn Step 1," in pages[start]
    assert "Step 28," in pages[start + 1] and "Step 28," not in pages[start]


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


def test_a_word_wider_than_its_table_cell_fails_the_booklet_naming_it(tmp_path):
    """A word no cell of a booklet's table can hold ran past the cell and off the page, clipped
    without a word; it is an error naming the booklet, its page and the text, and nothing is
    written."""
    project = project_copy(SAMPLE, tmp_path)
    long_word = "1234567890" * 16                  # digits: no pattern hyphenates them
    replace_in(project / "components" / SAMPLE_GAME / "booklet.yaml",
               '      - p: "Archers shoot by day',
               f'      - table:\n          header: [Players, Raids]\n          rows: [["2", "{long_word}"]]\n'
               '      - p: "Archers shoot by day')
    result = pnp("build", "--game", SAMPLE_GAME, "--paper", "a4", "--kind", "booklet", "--locale", "en",
                 "--out", str(tmp_path / "out"), project=project)
    assert result.exit_code == 1 and not result.traceback, result.output + result.traceback
    assert "booklet " in result.output and "(en): text does not fit: page " in result.output, result.output
    assert long_word[:40] in result.output, result.output
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


def test_a_released_locale_must_be_fully_translated(translated_project, tmp_path):
    project = translated_project
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
        "no edition 'standart' in game.yaml, did you mean 'standard'?",
        f"{where}:{line_of(booklet, 'cards: {deck: heroez')}: booklet.sections.print.blocks.1.cards.deck: "
        "no deck 'heroez' in cards.yaml, did you mean 'heroes'?",
        "2 problem(s) found."]


# ---- a booklet in another locale: its words, its language, its counts ---------------------------
# The translated sample in Russian words, its `ru` a draft: a section of the booklet shows the
# heroes with their counts, and paragraphs of long words that a Russian reader sees hyphenated.
# Its knights are 5, not the sample's 4, in the data and, consistently, in the rules module
# (whose check would otherwise refuse the data).
HEROES_SECTION = ("\n  - id: heroes\n    title: Heroes\n    blocks:\n      - cards: {deck: heroes}\n"
                  + f"      - p: {LONG[:300]}\n" * 3)
# a paragraph a page holds whole: one split over two pages is not hyphenated at all
RU_LONG = ("Достопримечательности, высококвалифицированные, взаимозаменяемые и человеконенавистнические "
           "преобразователи самосовершенствовались; переосвидетельствование непредсказуемых обстоятельств "
           "продолжалось.")
RU_WORDS = {
    "labels.draft": "ЧЕРНОВИК",
    "editions.standard.name": "Стандарт",
    "decks.heroes.name": "Герои",
    "cards.knight.name": "Рыцарь",
    "cards.archer.name": "Лучник",
    "booklet.phrases.cards": ("{n} карта", "{n} карты", "{n} карт"),
    "booklet.sections.heroes.title": "Герои",
    **{f"booklet.sections.heroes.blocks.{block}.p": RU_LONG for block in (1, 2, 3)},
}


def translate(po: Path, words: dict) -> None:
    """Set the catalog's strings of the given keys (a tuple: each plural form)."""
    from babel.messages.pofile import read_po, write_po
    with po.open("rb") as handle:
        catalog = read_po(handle, locale=TRANSLATED_LOCALE)
    found = set()
    for message in catalog:
        if message.context in words:
            message.string = words[message.context]
            found.add(message.context)
    assert found == set(words), set(words) - found
    with po.open("wb") as handle:
        write_po(handle, catalog, width=100)


@pytest.fixture(scope="module")
def russian_draft(translated, tmp_path_factory) -> Path:
    """A copy of the translated sample whose booklet has the heroes' section, its `ru` a draft
    in Russian words, with 5 knights."""
    project = tmp_path_factory.mktemp("russian-draft") / "sample"
    shutil.copytree(translated, project)
    game = project / "components" / SAMPLE_GAME
    replace_in(game / "booklet.yaml", "\n  - id: print\n", HEROES_SECTION + "\n  - id: print\n")
    replace_in(game / "game.yaml", f"  {TRANSLATED_LOCALE}: released\n", f"  {TRANSLATED_LOCALE}: draft\n")
    replace_in(game / "cards.yaml", "count: {standard: 4}", "count: {standard: 5}")
    replace_in(project / "rules" / "sample_game" / "__init__.py", '"knight": 4', '"knight": 5')
    result = pnp("i18n", "extract", SAMPLE_GAME, project=project)
    assert result.exit_code == 0, result.output + result.traceback
    translate(game / "locales" / f"{TRANSLATED_LOCALE}.po", RU_WORDS)
    return project


@pytest.fixture(scope="module")
def russian_booklet(russian_draft, tmp_path_factory) -> Path:
    """The draft locale's booklet, built: its PDF."""
    out = tmp_path_factory.mktemp("russian-booklet")
    result = pnp("build", "--locale", TRANSLATED_LOCALE, "--paper", "a4", "--kind", "booklet", "--out", str(out),
                 project=russian_draft)
    assert result.exit_code == 0, result.output + result.traceback
    return out / SAMPLE_GAME / "standard" / TRANSLATED_LOCALE / \
        f"{SAMPLE_GAME}-standard-{TRANSLATED_LOCALE}-rules.pdf"


def test_a_draft_locale_shows_its_words_and_a_draft_mark_on_every_page(russian_booklet):
    with pikepdf.open(russian_booklet) as pdf:
        assert str(pdf.Root.Lang) == TRANSLATED_LOCALE
    texts = page_texts(russian_booklet)
    assert len(texts) >= 4 and all(RU_WORDS["labels.draft"] in text for text in texts)
    text = flat("\n".join(texts))
    # the cards' names and counts, the decks' totals and the edition's name in the catalog's words
    assert "Рыцарь Moves two spaces. Стандарт: 5 карт" in text and "Лучник" in text, text
    assert "8 карт Герои" in text and "Knight" not in text and "Standard" not in text


def test_language_is_set_and_words_are_hyphenated_in_it(russian_booklet):
    text = "\n".join(page_texts(russian_booklet))
    assert HYPHEN not in RU_LONG              # so every one in the PDF is a hyphenation point
    breaks = re.findall(f"(\\w+){HYPHEN}\\r?\\n(\\w+)", text)
    words = set(re.findall(r"\w+", RU_LONG))
    hyphenated = [a + b for a, b in breaks if a + b in words]
    # Russian words broken where Russian patterns allow (English ones leave Cyrillic whole); how
    # many fall at a line's end moves with the layout
    assert len(set(hyphenated)) >= 2 and len(hyphenated) == len(breaks), breaks


def test_changing_a_count_changes_every_locales_booklet(russian_draft, russian_booklet):
    """The knights, 4 in the sample, are 5 in this copy's data: every locale's booklet quotes 5
    knights and a deck of 8. The draft locale's booklet is read in print; every locale's is laid
    out as the build lays it out."""
    from generator.app.booklet import rule_booklet_content
    from generator.app.loading import load_games
    from generator.i18n.texts import Texts
    from generator.layout.faces import Localised
    from generator.layout.kit import Kit
    printed = flat("\n".join(page_texts(russian_booklet)))
    loaded = Project(russian_draft)
    game = load_games(loaded, SAMPLE_GAME, texts=False)[0]
    assert sorted(game.locales) == ["en", TRANSLATED_LOCALE]
    for locale in game.locales:
        loc = Localised(game, "standard", Texts.load(game, locale))
        text = flat(content_text(rule_booklet_content(Kit(loaded, game, loc, ""), picture_dpi=20)))

        def cards(n):
            return flat(loc.texts.fill("{n|cards}", {"n": n}))
        for words in ((text, printed) if locale == TRANSLATED_LOCALE else (text,)):
            assert f"{flat(loc.edition_name())}: {cards(5)}" in words, locale
            assert f"{flat(loc.edition_name())}: {cards(4)}" not in words, locale
            assert cards(8) in words and cards(7) not in words, locale


def test_a_component_names_itself_in_the_components_list(tmp_path):
    """A token's own `phrase:` counts it ("3 camp tiles"); one without counts it as its kind does;
    a phrase the booklet does not have is an error at the component, with the name meant."""
    game = load_games(Project(SAMPLE))[0]
    rows = dict((what, amount) for amount, what in component_rows(Localised(game, "standard", Texts.load(game, "en"))))
    assert rows["Camp"] == "3\u00a0camp tiles" and rows["Supply"] == "4\u00a0tokens", rows
    project = project_copy(SAMPLE, tmp_path)
    replace_in(project / "components" / "sample-game" / "tokens.yaml", "phrase: camps", "phrase: camp")
    result = pnp("validate", "sample-game", project=project)
    assert result.exit_code == 1, result.output
    assert "tokens.camp.phrase: no phrase 'camp' in booklet.yaml phrases (did you mean 'camps'?)" in result.output
