"""Catalogs: extract/merge keeps translations and marks changed sources fuzzy; status counts
what a catalog holds; validation catches dropped placeholders and wrong plural forms."""
from __future__ import annotations

import json
import re
import shutil

import pytest
import yaml
from babel import Locale
from babel.messages.pofile import read_po, write_po

from conftest import ROOT, TRANSLATED_LOCALE, line_of, pnp, replace_in
from generator.app.loading import load_games
from generator.i18n import typography
from generator.i18n.texts import Texts
from generator.load.project import Project


GAME = "sample-game"
LOCALE = TRANSLATED_LOCALE             # the sample's second locale: a catalog with three plural forms


@pytest.fixture
def project(translated_project):
    """The project these tests change: a copy of the translated sample (tests/conftest.py)."""
    return translated_project


def catalog(project, locale):
    with (project / "components" / GAME / "locales" / f"{locale}.po").open("rb") as handle:
        return read_po(handle, locale=locale)


def save(project, locale, cat):
    with (project / "components" / GAME / "locales" / f"{locale}.po").open("wb") as handle:
        write_po(handle, cat, width=100)


def set_translation(project, locale, key, string, fuzzy=False):
    cat = catalog(project, locale)
    message = next(m for m in cat if m.context == key)
    message.string = string
    if fuzzy:
        message.flags.add("fuzzy")
    else:
        message.flags.discard("fuzzy")
    save(project, locale, cat)


def status(project, locale):
    result = pnp("i18n", "status", GAME, "--json", project=project)
    rows = json.loads(result.stdout)["catalogs"]
    return result, next(r for r in rows if r["locale"] == locale)


def fresh_catalog(project, locale):
    """Empty every translation of a locale, so the test controls what the catalog holds."""
    cat = catalog(project, locale)
    for message in cat:
        if message.id:
            message.string = ("",) * len(message.string) if isinstance(message.string, tuple) else ""
            message.flags.discard("fuzzy")
    save(project, locale, cat)
    game = project / "components" / GAME / "game.yaml"
    text = game.read_text(encoding="utf-8")
    game.write_text(text.replace(f"  {locale}: released", f"  {locale}: draft"), encoding="utf-8")


def test_extract_writes_template_and_catalogs(project):
    locales = project / "components" / GAME / "locales"
    shutil.rmtree(locales)
    result = pnp("i18n", "extract", GAME, project=project)
    assert result.exit_code == 0, result.output + result.traceback
    template = (locales / "messages.pot").read_text(encoding="utf-8")
    assert 'msgctxt "cards.knight.name"' in template
    assert 'msgctxt "booklet.phrases.cards"' in template and "msgid_plural" in template
    assert "#. Printed on the card in a" in template
    # a reference names the file a string comes from, never a line that goes stale
    assert f"#: components/{GAME}/cards.yaml\nmsgctxt \"cards.knight.name\"" in template
    assert not re.search(r"^#: .*:\d+$", template, re.M)
    assert (locales / f"{LOCALE}.po").exists()


def _catalog_files(project):
    return {p.relative_to(project): p.read_bytes() for p in sorted((project / "components").glob("*/locales/*.po*"))}


def test_extract_on_a_fresh_copy_changes_no_catalog_byte(tmp_path):
    """The shipped games' committed catalogs are what extract writes: nothing to commit after it.
    (That a second run writes what the first wrote is checked on the sample below.)"""
    shutil.copytree(ROOT / "components", tmp_path / "components")
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    committed = _catalog_files(tmp_path)
    assert len(committed) == 20 + 5            # a catalog per translated locale and a template per game
    result = pnp("i18n", "extract", project=tmp_path)
    assert result.exit_code == 0, result.output + result.traceback
    assert _catalog_files(tmp_path) == committed
    counts = re.findall(r"^  \w+: (\d+) new, (\d+) changed \(fuzzy\), (\d+) removed$", result.stdout, re.M)
    assert len(counts) == 20 and set(counts) == {("0", "0", "0")}


def test_the_tools_catalogs_are_what_extract_writes():
    from generator.i18n.catalogs import extract_tool
    for path, data in extract_tool(Project(ROOT)).files:
        assert path.read_bytes() == data, path


def test_a_catalog_wrapped_as_gettext_wraps_it_is_written_back_unchanged(project):
    """Lines of at most 79 columns, broken after spaces (and after a hyphen inside a word), the
    header's fields in msgmerge's order: a catalog a translator ran through msgmerge is not
    rewrapped by the next extract."""
    long = "Преместете един пул 2 полета напред, после още едно поле-две, ако никой не стои там вече."
    set_translation(project, LOCALE, "cards.knight.text", long)
    pnp("i18n", "extract", GAME, project=project)
    po = project / "components" / GAME / "locales" / f"{LOCALE}.po"
    text = po.read_text(encoding="utf-8")
    assert ('msgstr ""\n"Преместете един пул 2 полета напред, после още едно поле-две, ако никой не "\n'
            '"стои там вече."\n') in text
    assert all(len(line) <= 79 for line in text.splitlines() if line.startswith(("msg", '"')))
    before = po.read_bytes()
    assert pnp("i18n", "extract", GAME, project=project).exit_code == 0
    assert po.read_bytes() == before


LONG_DUPLEX = "Print every sheet of the booklet double-sided, flipping on the long edge, on any printer that can."


def _fuzzy_with_a_long_previous_source(project):
    """A translated sentence whose source then changes, long enough that its previous msgid is
    wrapped onto several `#|` lines (what Babel cannot read back by itself)."""
    booklet = project / "components" / GAME / "booklet.yaml"
    replace_in(booklet, "print_duplex: Print double-sided, flipping on the long edge.", f"print_duplex: {LONG_DUPLEX}")
    assert pnp("i18n", "extract", GAME, project=project).exit_code == 0
    set_translation(project, LOCALE, "booklet.ui.print_duplex",
                    "Печатайте двусторонне, переворачивая по длинному краю, если принтер это умеет, а если нет — вручную.")
    replace_in(booklet, f"print_duplex: {LONG_DUPLEX}", "print_duplex: Print double-sided, flipping on the long edge.")


def test_a_fuzzy_entrys_previous_source_survives_extract_after_extract(project):
    """Babel reads `#|` lines as comments: extract writes them back as `#|`, the same bytes
    each time, not as comments that pile up."""
    _fuzzy_with_a_long_previous_source(project)
    pnp("i18n", "extract", GAME, project=project)
    po = project / "components" / GAME / "locales" / f"{LOCALE}.po"
    first = po.read_bytes()
    text = first.decode("utf-8")
    assert '#, fuzzy\n#| msgid ""\n#| "Print every sheet of the booklet double-sided, flipping on the long ' in text
    assert "\n# |" not in text
    for _ in range(2):
        assert pnp("i18n", "extract", GAME, project=project).exit_code == 0
        assert po.read_bytes() == first


@pytest.mark.skipif(shutil.which("msgmerge") is None, reason="GNU gettext is not installed")
def test_msgmerge_and_extract_agree_on_every_catalog(project):
    """What extract writes, fuzzy entries with their previous source too, is what
    `msgmerge --previous` writes, and the other way round."""
    import subprocess
    _fuzzy_with_a_long_previous_source(project)
    assert pnp("i18n", "extract", GAME, project=project).exit_code == 0
    text = (project / "components" / GAME / "locales" / f"{LOCALE}.po").read_text(encoding="utf-8")
    assert '#, fuzzy\n#| msgid ""\n#| "' in text
    assert 'msgstr ""\n"Печатайте двусторонне' in text        # a wrapped translation too
    for po in sorted((project / "components").glob("*/locales/*.po")):
        merged = subprocess.run(["msgmerge", "--quiet", "--previous", "--output-file=-", str(po),
                                 str(po.parent / "messages.pot")], capture_output=True, check=True).stdout
        assert merged == po.read_bytes(), po
        po.write_bytes(merged)
    before = _catalog_files(project)
    assert pnp("i18n", "extract", GAME, project=project).exit_code == 0
    assert _catalog_files(project) == before


def test_status_figures_match_a_catalog_made_for_the_test(project):
    fresh_catalog(project, LOCALE)
    set_translation(project, LOCALE, "cards.knight.name", "Рыцарь")
    set_translation(project, LOCALE, "cards.archer.name", "Лучник", fuzzy=True)
    set_translation(project, LOCALE, "booklet.phrases.cards", ("{n} карта", "{n} карты", "{n} карт"))
    result, row = status(project, LOCALE)
    total = row["strings"]["total"]
    assert row["strings"]["translated"] == 2
    assert row["strings"]["fuzzy"] == 1
    assert row["strings"]["untranslated"] == total - 3
    # words of "Knight" + "{n} card / {n} cards" (placeholders are not words)
    assert row["words"]["translated"] == 1 + 2
    assert row["percent"] == round(100 * 2 / total, 1)


def test_changed_source_keeps_translation_but_marks_it_fuzzy(project):
    fresh_catalog(project, LOCALE)
    set_translation(project, LOCALE, "cards.knight.name", "Рыцарь")
    replace_in(project / "components" / GAME / "cards.yaml", "name: Knight,", "name: Sir Knight,")
    result = pnp("i18n", "extract", GAME, project=project)
    assert re.search(rf"{LOCALE}: \d+ new, 1 changed \(fuzzy\)", result.stdout), result.stdout
    message = next(m for m in catalog(project, LOCALE) if m.context == "cards.knight.name")
    assert message.string == "Рыцарь" and message.fuzzy
    # the translator sees what the source was before
    text = (project / "components" / GAME / "locales" / f"{LOCALE}.po").read_text(encoding="utf-8")
    assert '#| msgid "Knight"\nmsgctxt "cards.knight.name"\nmsgid "Sir Knight"' in text


def test_dropped_placeholder_fails_validation(project):
    set_translation(project, LOCALE, "booklet.cover.facts.0", "{players.min}–4 игрока")
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1
    po = project / "components" / GAME / "locales" / f"{LOCALE}.po"
    line = line_of(po, 'msgctxt "booklet.cover.facts.0"') + 1          # the entry's msgid
    assert result.stderr.splitlines() == [f"components/{GAME}/locales/{LOCALE}.po:{line}: booklet.cover.facts.0: "
                                          "placeholders differ from the source (missing {players.max|players})",
                                          "1 problem(s) found."]


def test_wrong_number_of_plural_forms_fails_validation(project):
    set_translation(project, LOCALE, "booklet.phrases.cards", ("{n} карта", "{n} карты"))
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1
    line = line_of(project / "components" / GAME / "locales" / f"{LOCALE}.po", 'msgctxt "booklet.phrases.cards"') + 1
    assert (f"components/{GAME}/locales/{LOCALE}.po:{line}: booklet.phrases.cards: plural form msgstr[2] is empty, "
            f"{LOCALE} needs 3 forms\n") in result.stderr


def test_released_locale_must_be_complete(project):
    fresh_catalog(project, LOCALE)
    game = project / "components" / GAME / "game.yaml"
    replace_in(game, f"  {LOCALE}: draft", f"  {LOCALE}: released")
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1
    # A whole catalog falls short: the problem is the file's, at no one line.
    assert f"components/{GAME}/locales/{LOCALE}.po: locale '{LOCALE}' is released but " in result.stderr


def test_translated_card_text_must_fit(project):
    set_translation(project, LOCALE, "cards.knight.text", "Передвиньте " + "одну фишку на две клетки вперёд и потом ещё дальше " * 4)
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1
    # Named where the translator fixes it: the catalog entry's msgid line.
    line = line_of(project / "components" / GAME / "locales" / f"{LOCALE}.po", 'msgctxt "cards.knight.text"') + 1
    assert result.stderr.splitlines() == [
        f"components/{GAME}/locales/{LOCALE}.po:{line}: cards.knight.text: [{GAME} standard {LOCALE}] text does not fit: "
        "needs 7 lines at 7 pt, the 20 mm box holds fewer", "1 problem(s) found."]


# Numbers where the locales' plural rules part ways: the teens of ru and uk, 2-4, 21, 101, 111.
PLURAL_NUMBERS = (0, 1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111, 112)
CLDR_ORDER = ("zero", "one", "two", "few", "many", "other")


def integer_categories(locale: str) -> list[str]:
    """The CLDR categories whole numbers fall in, in CLDR's order: a catalog's msgstr[0], [1], ..."""
    seen = {Locale.parse(locale).plural_form(n) for n in range(1000)}
    return [category for category in CLDR_ORDER if category in seen]


PLURAL_LOCALES = ("bg", "uk", "cs", "ru")


@pytest.fixture(scope="module")
def plural_sample(translated, tmp_path_factory):
    """The translated sample with catalogs for locales whose plural rules part ways, each giving
    the "sheets" phrase one form per CLDR category, the form naming its category."""
    project = tmp_path_factory.mktemp("plurals") / "sample"
    shutil.copytree(translated, project)
    others = "".join(f"  {locale}: draft\n" for locale in PLURAL_LOCALES if locale != LOCALE)
    replace_in(project / "components" / GAME / "game.yaml", f"  {LOCALE}: released\n", f"  {LOCALE}: released\n{others}")
    assert pnp("i18n", "extract", GAME, project=project).exit_code == 0
    for locale in PLURAL_LOCALES:
        set_translation(project, locale, "booklet.phrases.sheets",
                        tuple(f"{{n}} sheets ({category})" for category in integer_categories(locale)))
    return project


@pytest.mark.parametrize("locale", [*PLURAL_LOCALES, "en"])
def test_plural_phrases_take_the_form_cldr_gives_each_number(plural_sample, locale):
    """Through the path a booklet takes (a phrase placeholder filled from a locale's texts), the
    "sheets" phrase for each number against the CLDR category Babel gives that number."""
    game = load_games(Project(plural_sample), GAME, texts=False)[0]
    texts = Texts.load(game, locale)
    if locale == game.source_locale:
        forms = game.booklet["phrases"]["sheets"]
    else:
        message = next(m for m in catalog(plural_sample, locale) if m.context == "booklet.phrases.sheets")
        forms = dict(zip(integer_categories(locale), message.string, strict=True))
        assert all(form == f"{{n}} sheets ({category})" for category, form in forms.items()), forms
    assert len(set(forms.values())) == len(integer_categories(locale)), forms    # every form tells itself apart
    for n in PLURAL_NUMBERS:
        # as printed: with the locale's typography ("5 листа" keeps its number and noun together)
        expected = typography.apply(forms[Locale.parse(locale).plural_form(n)], locale).replace("{n}", str(n))
        assert texts.fill("{n|sheets}", {"n": n}) == expected, (locale, n)


def test_a_designer_can_rebuild_the_source_locale_before_translators_catch_up(project, tmp_path):
    """Changing a card's text leaves the released catalogs behind: the full validation says
    so, but a build of the source locale alone goes through (its cards, which print the text)."""
    replace_in(project / "components" / GAME / "cards.yaml", "text: Moves two spaces.", "text: Moves any two spaces.")
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1
    assert f"components/{GAME}/locales/{LOCALE}.po: locale '{LOCALE}' is released but 1 of " in result.stderr
    result = pnp("build", "--game", GAME, "--locale", "en", "--paper", "a4", "--kind", "cards",
                 "--out", str(tmp_path / "out"), project=project)
    assert result.exit_code == 0, result.output + result.traceback
    result = pnp("build", "--game", GAME, "--locale", LOCALE, "--paper", "a4", "--kind", "cards",
                 "--out", str(tmp_path / "out"), project=project)
    assert result.exit_code == 1


def test_the_calibration_sheet_speaks_the_kits_language(project, tmp_path):
    """The tool's own words (templates/locales/*.po) are translated like a game's: every text of
    the sheet, front and back, and the line naming the offset it was built with, both numbers in."""
    import pypdfium2 as pdfium
    result = pnp("build", "--game", GAME, "--locale", LOCALE, "--paper", "a4", "--kind", "cards",
                 "--back-offset", "1.5,-0.5", "--out", str(tmp_path / "out"), project=project)  # the sheet comes with the cards
    assert result.exit_code == 0, result.output + result.traceback
    source = yaml.safe_load((ROOT / "templates" / "sheets" / "calibration.yaml").read_text(encoding="utf-8"))["text"]
    source = {**{k: v for k, v in source.items() if k != "steps"}, **{f"steps.{i}": v for i, v in enumerate(source["steps"])}}
    with (ROOT / "templates" / "locales" / f"{LOCALE}.po").open("rb") as handle:
        words = {m.context.removeprefix("sheets.calibration.text."): m.string for m in read_po(handle, locale=LOCALE)
                 if m.context and m.context.startswith("sheets.calibration.text.")}
    assert words.keys() == source.keys() and all(words[k] and words[k] != source[k] for k in source)
    pdf = pdfium.PdfDocument(tmp_path / "out" / GAME / "standard" / LOCALE / f"{GAME}-standard-{LOCALE}-calibration-a4.pdf")
    try:
        front, back = (" ".join(page.get_textpage().get_text_range().split()) for page in pdf)
    finally:
        pdf.close()
    steps = sorted(k for k in source if k.startswith("steps."))
    assert front.startswith(words["title"])
    for number, key in enumerate(steps, 1):
        assert f"{number}. {words[key]}" in front, key
    assert words["current"].format(dx="+1.5", dy="-0.5") in front
    assert back.startswith(words["back_title"]) and words["dx"] in back and words["dy"] in back
    for key, english in source.items():
        assert english.split("{")[0] not in front + back, key


def test_status_counts_the_tools_catalogs_too(translated):
    result = pnp("i18n", "status", "--json", project=translated)
    rows = [r for r in json.loads(result.stdout)["catalogs"] if r["game"] == "(tool)"]
    # the English source (held to its typography) and every locale the tool is translated into
    assert {r["locale"] for r in rows} == {"en", "bg", "uk", "cs", "ru"}
    assert [r["locale"] for r in rows if r["source"]] == ["en"]
    assert all(r["strings"]["total"] >= 9 for r in rows)


def test_a_mistyped_catalog_line_is_named_with_its_line(project):
    po = project / "components" / GAME / "locales" / f"{LOCALE}.po"
    lines = po.read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines) if line == 'msgctxt "title"') + 3   # its msgstr line
    assert lines[number - 1].startswith("msgstr ")
    lines[number - 1] = "msgstr Образец игры"
    po.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1
    assert f"components/{GAME}/locales/{LOCALE}.po:{number}: not valid PO syntax" in result.stderr
