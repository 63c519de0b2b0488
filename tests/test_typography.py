"""Locale typography (generator/i18n/typography.py, templates/locales/typography/): the rules, the
checks `pnp i18n status` and `pnp validate` report, and every booklet of every game, edition
and locale read back from its PDF against the rules."""
from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from fontTools.ttLib import TTFont

from conftest import ROOT, SAMPLE, add_catalog, pnp, replace_in
from generator.app.loading import load_games
from generator.core import fonts
from generator.i18n import typography
from generator.i18n.texts import PLACEHOLDER, Texts, placeholders
from generator.layout.booklet import BookletContent
from generator.layout.elements.text import line_width, wrap
from generator.layout.faces import Localised, card_faces
from generator.load.project import Project


NBSP, NB_HYPHEN, MINUS, APOSTROPHE, WORD_JOINER = "\u00a0", "\u2011", "\u2212", "\u2019", "\u2060"
AUTO_HYPHEN = "\u2010"          # what WeasyPrint draws where it hyphenates a word
DASHES = "–—"
# One worker renders the booklets these tests share (tests/conftest.py `rendered_booklet`).

GAMES = {game.slug: game for game in load_games(Project(ROOT), texts=False)}
BOOKLETS = [(slug, locale, edition) for slug, game in sorted(GAMES.items()) if game.booklet.get("sections")
            for locale in game.locales for edition in game.editions]


# ---- the rules ----------------------------------------------------------------------------

def test_czech_one_letter_words_keep_to_the_next_word():
    assert typography.apply("Můžete zahrát i kartu, přesně o 10 a v ruce", "cs") == \
        f"Můžete zahrát i{NBSP}kartu, přesně o{NBSP}10{NBSP}a{NBSP}v{NBSP}ruce"
    # not in other locales, and not inside a word
    assert typography.apply("a v b", "en") == "a v b"
    assert typography.apply("Praha s Brnem", "cs") == f"Praha s{NBSP}Brnem"


@pytest.mark.parametrize("locale", ["bg", "cs", "en", "ru", "uk"])
def test_numbers_expressions_and_dashes_stay_on_one_line(locale):
    apply = lambda text: typography.apply(text, locale)     # noqa: E731
    assert apply("връща 4 полета") == f"връща 4{NBSP}полета"
    # "и" is a word bound to the next in Bulgarian and Russian
    joined = NBSP if locale in ("bg", "ru") else " "
    assert apply("{count.x|cards} и {hand_size} карти") == f"{{count.x|cards}} и{joined}{{hand_size}}{NBSP}карти"
    assert apply("Move to space 4.") == f"Move to space{NBSP}4."
    assert apply("7 + 8 + 2 = 17") == f"7{NBSP}+{NBSP}8{NBSP}+{NBSP}2{NBSP}={NBSP}17"
    assert apply("Петър – 2, Оля – много") == f"Петър{NBSP}–{NBSP}2, Оля{NBSP}– много"
    assert apply("поле № 12") == f"поле №{NBSP}12"
    assert apply("{x}-ото поле") == f"{{x}}{NB_HYPHEN}ото поле"
    assert apply("– the list item") == "– the list item"     # a dash that starts a text stays
    # a dash set close before a word is kept to what precedes it; a range is not broken after its dash
    assert apply("types—plus 2–4, {a}–{b|cards}, {c}—plus") == \
        "types\u2060—plus 2–\u20604, {a}–\u2060{b|cards}, {c}\u2060—plus"
    assert apply("160–250 g/m², km/h") == f"160–\u2060250{NBSP}g/\u2060m², km/\u2060h"
    assert apply("{n|dice}-veggies") == "{n|dice}-veggies"     # a phrase's noun, not a number, before it


@pytest.mark.parametrize("locale, text, bound", [
    ("bg", "дърпа и в къщи с 2 зара", f"дърпа и{NBSP}в{NBSP}къщи с{NBSP}2{NBSP}зара"),
    ("uk", "і в руці й з 2 кубиками", f"і{NBSP}в{NBSP}руці й{NBSP}з{NBSP}2{NBSP}кубиками"),
    ("ru", "и в руке к 2 кубикам", f"и{NBSP}в{NBSP}руке к{NBSP}2{NBSP}кубикам"),
])
def test_bulgarian_ukrainian_and_russian_one_letter_words_keep_to_the_next_word(locale, text, bound):
    assert typography.apply(text, locale) == bound


@pytest.mark.parametrize("locale", ["bg", "cs", "en", "ru", "uk"])
def test_a_label_s_letter_keeps_to_its_word(locale):
    assert typography.apply("Team B wins", locale) == f"Team{NBSP}B wins"
    assert typography.apply("Команда Б", locale) == f"Команда{NBSP}Б"
    assert typography.apply("конец. А потом", "bg") == "конец. А\u00a0потом"      # a sentence's first word


def test_russian_and_ukrainian_set_an_em_dash_between_clauses():
    ru = typography.problems("50 мм – проверьте", "ru")
    assert len(ru) == 1 and "'—' (U+2014)" in ru[0] and "'–' (U+2013)" in ru[0]
    assert typography.problems("Разница - очки", "uk")                 # a hyphen typed for a dash
    assert not typography.problems("50 мм — проверьте, 2–4 игрока", "ru")
    assert not typography.problems("50 mm – zkontrolujte", "cs")         # Czech sets the en dash
    assert typography.apply("к каждому — одна", "ru") == f"к{NBSP}каждому{NBSP}— одна"


@pytest.mark.parametrize("locale, written, mistaken", [
    ("en", "100%", "100 %"), ("bg", "100%", "100 %"), ("uk", "{scale}%", "{scale} %"),
    ("cs", f"100{NBSP}%", "100%"), ("ru", "100 %", "{scale}%"),
])
def test_a_percentage_is_written_as_cldr_writes_it_in_the_locale(locale, written, mistaken):
    assert not typography.problems(f"печат {written}", locale)
    found = typography.problems(f"печат {mistaken}", locale)
    assert len(found) == 1 and "percentage" in found[0], found


def test_ordinals_follow_the_locale_rule():
    bg = [typography.ordinal(n, "bg", "neuter_definite") for n in (1, 2, 3, 4, 5, 8, 11, 12, 21, 100, 1000)]
    assert bg == [f"{n}{NB_HYPHEN}{s}" for n, s in zip((1, 2, 3, 4, 5, 8, 11, 12, 21, 100, 1000),
                                                     ("вото", "рото", "тото", "тото", "ото", "ото", "ото", "ото",
                                                      "вото", "тното", "ното"))]
    assert typography.ordinal(8, "bg") == f"8{NB_HYPHEN}и"                  # the default form
    assert [typography.ordinal(n, "en") for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == \
        ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]
    assert typography.ordinal(8, "cs") == "8."
    assert typography.ordinal(8, "ru", "feminine") == f"8{NB_HYPHEN}я"
    assert [typography.ordinal(n, "uk", "feminine") for n in (1, 2, 3, 8, 12, 40)] == \
        [f"{n}{NB_HYPHEN}{s}" for n, s in zip((1, 2, 3, 8, 12, 40), ("ша", "га", "тя", "ма", "та", "ва"))]
    with pytest.raises(KeyError):
        typography.ordinal(8, "bg", "genitive")


def test_a_placeholder_fills_ordinals_and_minus_signs():
    game = load_games(Project(SAMPLE), texts=False)[0]      # a game's texts in locales it has no catalog of
    texts = Texts(game, "bg")
    values = {"x": 8, "y": -3}
    assert texts.fill("({x|ordinal_neuter_definite} поле), {y}", values) == f"(8{NB_HYPHEN}ото поле), {MINUS}3"
    # a form the locale lacks (a source text printed untranslated) gives its default form
    assert texts.fill("{x|ordinal_nothing}", values) == f"8{NB_HYPHEN}и"
    assert Texts(game, "de").fill("{x|ordinal}", values) == "8"            # no ordinal rules: the number
    # a translation may write the number as an ordinal in its own form, or as a number
    assert placeholders("{x|ordinal_neuter_definite} поле") == placeholders("space {x}") == ["{x}"]


def test_the_checks_name_what_binding_cannot_mend():
    assert any("apostrophe" in m for m in typography.problems("з'являється", "uk"))
    assert typography.problems("з’являється", "uk") == []
    assert typography.problems("it’s", "en") == []                # English writes ’
    assert typography.problems("it's", "cs") == []               # Czech has no apostrophe rule
    assert any("minus" in m for m in typography.problems("стандартна –3", "bg"))
    assert typography.problems(f"стандартна {MINUS}3, 2–4 hráči", "cs") == []
    assert any("ordinal" in m for m in typography.problems("({x}-о поле)", "bg"))
    assert any("ordinal" in m for m in typography.problems("je {x}. jamka", "cs"))
    assert typography.problems("do {x}. Číslo", "cs") == []         # a sentence ends there
    assert any("ordinal_genitive" in m for m in typography.problems("{x|ordinal_genitive}", "bg"))
    assert typography.check_rules() == []


def test_the_renderers_keep_bound_words_together_and_have_every_glyph():
    line = f"стандартна {MINUS}3 o{NBSP}10"
    font = fonts.font_name("regular")
    narrow = line_width(f"o{NBSP}10", font, 10) + 0.5     # the bound pair fits, and no more
    assert wrap(line, font, 10, narrow) == ["стандартна", f"{MINUS}3", f"o{NBSP}10"]
    for file in sorted(fonts.FONT_DIR.glob("Noto[SM]*-*.ttf")):
        if "Symbols" in file.name or "Math" in file.name:
            continue
        cmap = TTFont(file, lazy=True).getBestCmap()
        assert {ord(NBSP), ord(NB_HYPHEN), ord(APOSTROPHE)} <= set(cmap), file.name
    math = TTFont(fonts.FONT_DIR / "NotoSansMath-Regular.ttf", lazy=True).getBestCmap()
    assert all(ord(ch) in math for ch in fonts.FALLBACK)
    assert fonts.missing_glyphs(line) == set()


def test_a_word_hyphenated_across_a_page_break_is_found_and_laid_out_again():
    from weasyprint import HTML
    words = " ".join(["Überwachungskamerasystem Donaudampfschifffahrtsgesellschaft"] * 40)
    html = (f'<html lang="de"><style>@page {{ size: A7 }} p {{ hyphens: auto; text-align: justify }}</style>'
            f'<p>{words}</p></html>')
    source = HTML(string=html)
    split = typography.hyphenated_page_ends(source.render())
    assert [element.tag for element in split] == ["p"]
    split[0].set("style", "hyphens: manual")
    assert typography.hyphenated_page_ends(source.render()) == []


# ---- the checks through the CLI -----------------------------------------------------------

SAMPLE_GAME = "sample-game"


def _entry_line(path: Path, key: str) -> int:
    """The line of a catalog entry's msgid (where Babel places a message), found by its key."""
    lines = path.read_text(encoding="utf-8").splitlines()
    context = lines.index(f'msgctxt "{key}"')
    return next(n for n, line in enumerate(lines[context:], context + 1) if line.startswith("msgid "))


def test_i18n_status_and_validate_report_broken_rules_at_the_catalog_line(translated_project):
    """Ukrainian writes its apostrophe ’: the sample with a uk catalog passes with it and fails,
    at the entry's line, with the ASCII one."""
    key = "cards.knight.text"
    catalog = add_catalog(translated_project, "uk", {key: "Хід з’являється."})
    assert pnp("i18n", "status", SAMPLE_GAME, project=translated_project).exit_code == 0
    replace_in(catalog, "з’являється", "з'являється")
    status = pnp("i18n", "status", SAMPLE_GAME, project=translated_project)
    assert status.exit_code == 1, status.output           # a failing check fails the command
    expected = (f"components/{SAMPLE_GAME}/locales/uk.po:{_entry_line(catalog, key)}: {key}: [uk] typography: "
                "write the apostrophe")
    assert expected in status.output, status.output
    result = pnp("validate", SAMPLE_GAME, project=translated_project)
    assert result.exit_code == 1 and expected in result.output, result.output


def test_i18n_status_reports_a_dash_for_a_minus_and_a_typed_ordinal(translated_project):
    catalog = translated_project / "components" / SAMPLE_GAME / "locales" / "ru.po"
    key = "booklet.cover.facts.0"
    line = _entry_line(catalog, key)
    replace_in(catalog, 'msgstr "{players.min}–{players.max|players}"',
               'msgstr "с {players.min}-го, –1 {players.max|players}"')
    status = pnp("i18n", "status", SAMPLE_GAME, project=translated_project)
    found = [l for l in status.output.splitlines() if f": {key}: " in l]
    assert any("minus sign" in l for l in found) and any("ordinal typed after" in l for l in found), status.output
    assert all(l.startswith(f"components/{SAMPLE_GAME}/locales/ru.po:{line}: ") for l in found), found


def test_validate_checks_the_rules_files(tmp_path, monkeypatch):
    folder = tmp_path / "typography"
    shutil.copytree(typography.RULES_FOLDER, folder)
    (folder / "bg.yaml").write_text("ordinals:\n  default: masculine\n  rules:\n    - suffix: {neuter: 5}\n",
                                    encoding="utf-8")
    monkeypatch.setattr(typography, "RULES_FOLDER", folder)
    typography.rules.cache_clear()
    try:
        found = [str(p) for p in typography.check_rules()]
    finally:
        typography.rules.cache_clear()
    assert any(p.startswith("templates/locales/typography/bg.yaml:4") for p in found), found


# ---- every booklet ------------------------------------------------------------------------

@dataclass
class Built:
    content: BookletContent
    pages: list[list[str]]          # each page's lines as the PDF gives them back, page numbers left out

    @property
    def text(self) -> str:
        return "\n".join("\n".join(page) for page in self.pages)


def _pages(data: bytes) -> list[list[str]]:
    pdf = pdfium.PdfDocument(data)
    try:
        pages = []
        for page in pdf:
            lines = page.get_textpage().get_text_bounded().replace("\r\n", "\n").split("\n")
            pages.append([line for line in lines if line.strip() and not line.strip().isdigit()])
        return pages
    finally:
        pdf.close()


@pytest.fixture(scope="module")
def booklets(rendered_booklet) -> dict[tuple[str, str, str], Built]:
    """Every booklet of every game, edition and locale, rendered once for the session."""
    built = {}
    for slug, locale, edition in BOOKLETS:
        content, data = rendered_booklet(slug, edition, locale)
        built[slug, locale, edition] = Built(content, _pages(data))
    return built


def _print_rows(content: BookletContent) -> set[str]:
    return {row for section in content.sections for block in section.blocks if block.kind == "print"
            for row, *_ in block.content["rows"]}


def _report(problems: list[str]) -> str:
    return f"{len(problems)} found:\n" + "\n".join(problems[:40])


def test_no_line_starts_with_a_dash(booklets):
    problems = []
    for (slug, locale, edition), built in booklets.items():
        rows = _print_rows(built.content)       # the print table's sub-rows begin with a dash
        for page, lines in enumerate(built.pages, 1):
            for line in lines:
                if line[:1] in DASHES and not any(line.startswith(row.replace(NBSP, " ")) or line.startswith(row)
                                                  for row in rows):
                    problems.append(f"{slug} {locale} {edition} p{page}: {line!r}")
    assert not problems, _report(problems)


def test_no_line_ends_with_a_word_bound_to_the_next(booklets):
    problems = []
    for (slug, locale, edition), built in booklets.items():
        bound = set(typography.rules(locale).bind_to_next)
        for page, lines in enumerate(built.pages, 1):
            # A justified line's stretched no-break space comes back with spaces around it.
            lines = [re.sub(f" ?{NBSP} ?", NBSP, line) for line in lines]
            for line, after in zip(lines, lines[1:]):
                # words as the lines break them: at spaces, not at the no-break ones
                last, first = line.split(" ")[-1], after.split(" ")[0]
                if re.fullmatch(r"(\S )+\S", line):       # a letter-spaced label reads as one-letter words
                    continue
                # a capital one-letter word ends a line only where a sentence starts ("… . V / Praze");
                # elsewhere it is a name ("Tým A" in a table row)
                if last in bound and (last.islower() or re.search(r"[.!?] \S$", line)):
                    problems.append(f"{slug} {locale} {edition} p{page}: {line!r} / {after!r}")
                elif last.isdigit() and first[:1].islower():           # "4 / клетки"
                    problems.append(f"{slug} {locale} {edition} p{page}: number {line!r} / {after!r}")
                # "to space / 4, then" (not "1." nor "7:" nor "2, 3", which start list items and table rows)
                elif re.fullmatch(r"\d+[,;!?)»]", first) and line[-1:].isalpha() \
                        and after[len(first) + 1:len(first) + 2].islower():
                    problems.append(f"{slug} {locale} {edition} p{page}: {line!r} / {after!r}")
    assert not problems, _report(problems)


def test_ordinals_are_the_locale_rule_s(booklets):
    """Every ordinal placeholder of the printed texts comes out as the rule writes it, and no
    number carries an ending its rule does not give it."""
    problems, seen = [], 0
    for (slug, locale, edition), built in booklets.items():
        rules = typography.rules(locale)
        text = built.text.replace("\n", " ")
        every = {suffix.lstrip("-") for suffix in rules.ordinal_suffixes}
        for number, ending in re.findall(rf"(?<![\w.])(\d+)[-{NB_HYPHEN}]([^\W\d_]{{1,5}})(?![^\W\d_])", text):
            if ending not in every:            # not an ordinal ending ("7-те", the sevens)
                continue
            endings = {typography.ordinal(int(number), locale, form)[len(number):].lstrip(NB_HYPHEN)
                       for form in rules.ordinal_forms}
            if ending not in endings:
                problems.append(f"{slug} {locale} {edition}: {number}-{ending} (the rule gives {sorted(endings)})")
        game = GAMES[slug]
        loc = Localised(game, edition, Texts.load(game, locale))
        for source in _ordinal_texts(game):
            for match in PLACEHOLDER.finditer(loc.texts.get(*source)):
                form = typography.ordinal_form(match.group(2) or "")
                if form is not None and match.group(1) in loc.values:
                    seen += 1
                    if typography.ordinal(loc.values[match.group(1)], locale, form) not in text:
                        problems.append(f"{slug} {locale} {edition}: {match.group(0)} is not printed as the rule says")
    assert seen, "no booklet prints an ordinal from a placeholder"
    assert not problems, _report(problems)


def _ordinal_texts(game) -> list[tuple[str, str]]:
    from generator.i18n.catalogs import every_text
    return [(entry.key, entry.source) for entry in every_text(game) if isinstance(entry.source, str)
            and entry.key.startswith("booklet.")]


def test_apostrophes_and_minus_signs(booklets):
    problems = []
    for (slug, locale, edition), built in booklets.items():
        rules = typography.rules(locale)
        text = built.text
        if rules.apostrophe:
            for word in re.findall(r"[^\W\d_]+['ʼ`][^\W\d_]+", text):
                problems.append(f"{slug} {locale} {edition}: apostrophe in {word!r}")
        for found in re.findall(r"(?:^|(?<=[\s(«„“\"]))[–—‐-]\d+", text, re.MULTILINE):
            problems.append(f"{slug} {locale} {edition}: a dash for a minus in {found!r}")
    assert not problems, _report(problems)


def test_no_word_is_hyphenated_across_a_page_break_or_in_a_title(booklets):
    problems = []
    for (slug, locale, edition), built in booklets.items():
        content = built.content
        cover = [content.title, content.subtitle, content.tagline, *content.facts]
        sections = [section.title for section in content.sections]
        for page, lines in enumerate(built.pages, 1):
            if lines and lines[-1].endswith(AUTO_HYPHEN) and page < len(built.pages):
                problems.append(f"{slug} {locale} {edition} p{page}: ends with {lines[-1]!r}")
            # the cover's words on the cover; section titles wherever they are
            titles = [" ".join(t.replace(NBSP, " ").split()) for t in (cover if page == 1 else []) + sections if t]
            for line in lines:
                if line.endswith(AUTO_HYPHEN):
                    start = " ".join(line[:-1].replace(NBSP, " ").split())
                    if len(start) > 3 and any(start in title for title in titles):
                        problems.append(f"{slug} {locale} {edition} p{page}: a title hyphenated: {line!r}")
    assert not problems, _report(problems)


def test_a_word_is_hyphenated_only_where_the_locale_accepts_it(booklets):
    """No word of 6 letters or fewer is broken, no break leaves under 3 letters on either side,
    and a word the locale's rules list breaks only where they list (templates/locales/typography/)."""
    problems, breaks = [], 0
    for (slug, locale, edition), built in booklets.items():
        listed = typography._hyphenation_words(locale)
        for page, lines in enumerate(built.pages, 1):
            for line, after in zip(lines, lines[1:]):
                if not line.endswith(AUTO_HYPHEN):
                    continue
                breaks += 1
                start = re.search(r"[^\W\d_]*$", line[:-1]).group()
                end = re.match(r"[^\W\d_]*", after.replace("\u00ad", "")).group()
                word = start + end
                if len(start) < 3 or len(end) < 3 or len(word) < 7:
                    problems.append(f"{slug} {locale} {edition} p{page}: {start}-{end}")
                elif word.lower() in listed and len(start) not in listed[word.lower()]:
                    problems.append(f"{slug} {locale} {edition} p{page}: {start}-{end}, not as listed")
    assert breaks, "no booklet hyphenates a word"
    assert not problems, _report(problems)


def column_lines(text: str, width_mm: int, marked: bool, locale: str = "uk") -> list[str]:
    """The lines of one paragraph of `text` laid out by WeasyPrint, hyphenated, in a column
    `width_mm` wide; `marked`: first through the booklet's mark_hyphenation."""
    from weasyprint import HTML
    from generator.render.booklet import mark_hyphenation
    html = (f'<html lang="{locale}"><body><p style="width: {width_mm}mm; font: 10pt sans-serif; hyphens: auto">'
            f'{text}</p></body></html>')
    source = HTML(string=html)
    if marked:
        mark_hyphenation(source.etree_element, locale)
    page = pdfium.PdfDocument(source.write_pdf())[0]
    return [line.strip() for line in page.get_textpage().get_text_bounded().split("\n") if line.strip()]


def test_a_listed_word_with_no_break_left_is_never_broken_in_a_booklet():
    """uk «потрібна»: the patterns break it по-т-рі-б-на, which leaves no break three letters
    from either end; listed so, the booklet sets it in a span WeasyPrint does not hyphenate,
    where a column too narrow for it would otherwise break it (the longer forms break where
    listed, «потріб-ний»)."""
    from weasyprint import HTML
    from generator.render.booklet import mark_hyphenation
    assert typography.with_soft_hyphens("потрібний", "uk") == "потріб\u00adний"
    assert typography.with_soft_hyphens("потрібна", "uk") == "потрібна"
    assert typography.listed_words("Дуже потрібна річ", "uk") == [(5, 13)]

    text = " ".join(["на потрібна"] * 8)
    broken = [line for line in column_lines(text, 14, False) if line.endswith(("-", "\u2010"))]
    assert broken, "the patterns alone break «потрібна» in this column"
    assert not [line for line in column_lines(text, 14, True) if line.endswith(("-", "\u2010"))]
    # the document's title, in the head, is its name: neither set apart nor given soft hyphens
    titled = HTML(string="<html><head><title>Потрібна шестиúhelníková</title></head><body></body></html>")
    mark_hyphenation(titled.etree_element, "uk")
    assert titled.etree_element.find("head/title").text == "Потрібна шестиúhelníková"
    assert list(titled.etree_element.find("head/title")) == []


def test_a_listed_word_leaves_the_rest_of_its_paragraph_to_the_patterns():
    """A soft hyphen anywhere in a text turns WeasyPrint's patterns off for the whole of it: a
    listed word's soft hyphens, set inline, left the other words of its paragraph unbroken and
    its lines ragged. Set apart in its span, the paragraph's other long words are hyphenated
    as if nothing were listed."""
    words = " ".join(["відправляє", "використовуйте", "перестрибувати", "вантажопідйомність"] * 6)

    def others_hyphenated(text: str, marked: bool) -> int:
        return len([line for line in column_lines(text, 35, marked)
                    if line.endswith("\u2010") and not line.endswith(("від\u2010", "прав\u2010"))])
    inline = typography.with_soft_hyphens(words, "uk")
    assert inline != words
    assert others_hyphenated(inline, False) <= 2 < 10 <= others_hyphenated(words, True) == others_hyphenated(words, False)


def test_listed_words_break_where_listed_and_english_takes_us_patterns():
    assert typography.with_soft_hyphens("Šestiúhelníková deska", "cs") == "Šesti\u00adúhel\u00adníková deska"
    # a break closer than 3 letters to an end is dropped ("осмо-ъгъл-на")
    assert typography.with_soft_hyphens("Осмоъгълна", "bg") == "Осмо\u00adъгълна"
    assert typography.with_soft_hyphens("Осмоъгълна", "ru") == "Осмоъгълна"
    assert typography.hyphenation_patterns("en") == "en-US" and typography.hyphenation_patterns("cs") == "cs"


@pytest.mark.parametrize("locale, quotes", [("en", "“”"), ("cs", "„“"), ("bg", "„“"), ("ru", "«»"), ("uk", "«»")])
def test_quotation_marks_are_the_locale_s(locale, quotes):
    assert not typography.problems(f"turn off {quotes[0]}fit to page{quotes[1]}", locale)
    found = typography.problems('turn off "fit to page"', locale)
    assert len(found) == 1 and quotes[0] in found[0], found


def test_the_tool_s_own_english_is_held_to_the_typography(tmp_path):
    """A straight apostrophe typed into the tool's own words (a project's templates/sheets) is
    named by pnp i18n status at its line, as a game's text is."""
    project = tmp_path / "project"
    shutil.copytree(SAMPLE, project)
    sheets = project / "templates" / "sheets"
    sheets.mkdir(parents=True)
    text = (typography.RULES_FOLDER.parent.parent / "sheets" / "calibration.yaml").read_text(encoding="utf-8")
    (sheets / "calibration.yaml").write_text(text.replace("this page’s back", "this page's back"), encoding="utf-8")
    status = pnp("i18n", "status", project=project)
    assert "templates/sheets/calibration.yaml:13: sheets.calibration.text.steps.1: [en] typography: write the " \
           "apostrophe" in status.output, status.output


def test_no_spaced_en_dash_split_range_or_other_percent_style_in_any_booklet(booklets):
    """Read back from every booklet's PDF: Russian and Ukrainian set no spaced en dash between
    words, no line ends inside a range ("160– / 250"), and every percentage is written as CLDR
    writes it in the locale."""
    problems = []
    for (slug, locale, edition), built in booklets.items():
        text = built.text.replace(NBSP, " ")
        if typography.rules(locale).clause_dash == "—":
            problems += [f"{slug} {locale} {edition}: spaced en dash in {found!r}"
                         for found in re.findall(r".{0,15}\S –\s.{0,15}", text)]
        for page, lines in enumerate(built.pages, 1):
            for line, after in zip(lines, lines[1:]):
                if re.search(r"\d[–—]$", line) and after[:1].isdigit():
                    problems.append(f"{slug} {locale} {edition} p{page}: a range split: {line[-12:]!r} / {after[:8]!r}")
        spaced = typography.percent_spaced(locale)
        for found in re.findall(r"\d\s?%", text):
            if (" " in found) != spaced:
                problems.append(f"{slug} {locale} {edition}: percentage {found!r}")
    assert not problems, _report(problems)


def test_every_card_line_of_every_game_keeps_the_locale_s_typography():
    """Every text line of every card face of every game, edition and locale, as placed: no line
    ends with a word bound to the next, Russian and Ukrainian set no spaced en dash, and every
    percentage is written as CLDR writes it in the locale."""
    problems, lines = [], 0
    for slug, game in sorted(GAMES.items()):
        for locale in game.locales:
            texts = Texts.load(game, locale)
            rules = typography.rules(locale)
            for edition in game.editions:
                for face in card_faces(Localised(game, edition, texts)):
                    for placed in face.placed.elements:
                        for line in getattr(placed.fitted, "placed_lines", ()):
                            lines += 1
                            last = line.text.split(" ")[-1]
                            if last in rules.bind_to_next and last.islower():
                                problems.append(f"{slug} {locale}: {line.text!r} ends with {last!r}")
                            if rules.clause_dash == "—" and re.search(r"\S – ", line.text):
                                problems.append(f"{slug} {locale}: spaced en dash in {line.text!r}")
                            for found in re.findall(r"\d[ \u00a0]?%", line.text):
                                if (len(found) == 3) != typography.percent_spaced(locale):
                                    problems.append(f"{slug} {locale}: percentage {found!r}")
    assert lines > 1000
    assert not problems, _report(problems)


def test_sheet_ranges_written_in_code_never_break_at_their_dash():
    """The print table's "sheets 1–19, 21–25" (the booklet's and the print-first page's),
    laid out by WeasyPrint in a column so narrow that every line ends at a run: no line ends
    at a range's dash, and the text reads back as written."""
    from weasyprint import HTML
    from generator.layout.booklet import sheet_ranges
    runs = sheet_ranges([*range(1, 20), *range(21, 26), 30, *range(101, 120)])
    assert runs.replace(WORD_JOINER, "") == "1–19, 21–25, 30, 101–119"
    html = f'<p style="width: 12mm; font: 10pt sans-serif">{" ".join([runs] * 6)}</p>'
    lines = pdfium.PdfDocument(HTML(string=html).write_pdf())[0].get_textpage().get_text_bounded().split("\n")
    lines = [line.strip() for line in lines if line.strip()]
    assert len(lines) > 6
    assert not [line for line in lines if line.endswith("–")], lines
