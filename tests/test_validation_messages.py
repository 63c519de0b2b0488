"""Each kind of problem `pnp validate` names for a translation (README, Translating: placeholders,
plural forms, glyphs, typography, text that does not fit) at its exact `file:line: key: message`:
a message at the wrong line or key, or one that goes quiet, fails here. The line of a catalog's
problem is its entry's msgid line, as for every catalog problem.
"""
from __future__ import annotations

import shutil

import pytest

from conftest import SAMPLE, line_of, pnp, replace_in


GAME = "sample-game"
FOLDER = f"components/{GAME}"
HEADER = 'msgid ""\nmsgstr ""\n"Language: bg\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n' \
         '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n'


def entry(key: str, source: str, translation: str) -> str:
    return f'\nmsgctxt "{key}"\nmsgid "{source}"\nmsgstr "{translation}"\n'


def plural_entry(key: str, one: str, other: str, forms: list[str]) -> str:
    strings = "".join(f'msgstr[{i}] "{form}"\n' for i, form in enumerate(forms))
    return f'\nmsgctxt "{key}"\nmsgid "{one}"\nmsgid_plural "{other}"\n{strings}'


@pytest.fixture
def translated(tmp_path):
    """The sample game with a number its texts quote (`hand_size`), a knight that quotes it,
    and a draft Bulgarian catalog to break."""
    project = tmp_path / "project"
    shutil.copytree(SAMPLE, project)
    folder = project / FOLDER
    replace_in(folder / "game.yaml", "age: 8\n", "age: 8\nhand_size: 5\n")
    replace_in(folder / "game.yaml", "  en: released\n", "  en: released\n  bg: draft\n")
    replace_in(folder / "cards.yaml", "text: Moves two spaces.", 'text: "Draw up to {hand_size} cards."')
    (folder / "locales").mkdir()
    return project


def write_catalog(project, *entries: str):
    path = project / FOLDER / "locales" / "bg.po"
    path.write_text(HEADER + "".join(entries), encoding="utf-8")
    return path


def validate_fails_with(project, expected: list[str]) -> None:
    result = pnp("validate", project=project)
    assert result.exit_code == 1 and not result.traceback, result.output + result.traceback
    assert result.stderr.splitlines() == expected + [f"{len(expected)} problem(s) found."], result.stderr


def msgid_line(po, key: str) -> int:
    return line_of(po, f'msgctxt "{key}"') + 1


def test_a_good_translation_validates(translated):
    write_catalog(translated, entry("cards.knight.text", "Draw up to {hand_size} cards.", "Теглете до {hand_size} карти."))
    result = pnp("validate", project=translated)
    assert result.exit_code == 0, result.output


def test_a_renamed_placeholder_in_a_translation_is_named_and_refused_by_the_build(translated, tmp_path):
    po = write_catalog(translated, entry("cards.knight.name", "Knight", "Рицар"),
                       entry("cards.knight.text", "Draw up to {hand_size} cards.", "Теглете до {hand_sise} карти."))
    expected = [f"{FOLDER}/locales/bg.po:{msgid_line(po, 'cards.knight.text')}: cards.knight.text: "
                "placeholders differ from the source (missing {hand_size}; unknown {hand_sise})"]
    validate_fails_with(translated, expected)
    build = pnp("build", "--locale", "bg", "--kind", "cards", "--paper", "a4", "--out", str(tmp_path / "out"),
                project=translated)
    assert build.exit_code == 1 and build.stderr.splitlines()[0] == expected[0], build.output
    assert not (tmp_path / "out" / "manifest.json").exists()


def test_a_renamed_placeholder_in_the_source_is_named_at_its_line(translated):
    cards = translated / FOLDER / "cards.yaml"
    replace_in(cards, "{hand_size}", "{hand_sise}")
    validate_fails_with(translated, [
        f"{FOLDER}/cards.yaml:{line_of(cards, '{hand_sise}')}: cards.knight.text: "
        "unknown placeholder 'hand_sise' (edition standard)"])


def test_every_kind_of_translation_problem_at_its_entry_and_key(translated):
    """Placeholders, a plural form lacking {n}, a glyph no font has, the locale's typography:
    all in one run, each at its own entry."""
    po = write_catalog(
        translated,
        entry("cards.knight.text", "Draw up to {hand_size} cards.", "Теглете {hand_size} карти, после още {n}."),
        entry("cards.knight.name", "Knight", "Рицар ก"),
        plural_entry("booklet.phrases.cards", "{n} card", "{n} cards", ["{n} карта", "карти"]),
        entry("cards.archer.text", "Shoots three spaces away. :sun: by day.", "Стреля на -3 полета. :sun: денем."),
    )
    problems = pnp("validate", project=translated).stderr.splitlines()
    at = {key: f"{FOLDER}/locales/bg.po:{msgid_line(po, key)}: {key}: " for key in
          ("cards.knight.text", "cards.knight.name", "booklet.phrases.cards", "cards.archer.text")}
    expected = {
        at["cards.knight.text"] + "placeholders differ from the source (unknown {n})",
        at["cards.knight.name"] + "[bg] no glyph in the shipped fonts for 'ก'",
        at["booklet.phrases.cards"] + "plural form 'карти' lacks the placeholder {n}",
    }
    assert expected <= set(problems), "\n".join(problems)
    minus = [p for p in problems if p.startswith(at["cards.archer.text"])]
    assert len(minus) == 1 and "typography: a negative number takes the minus sign" in minus[0], problems
    named = {p.split(": ")[0] + ": " + p.split(": ")[1] for p in problems[:-1]}
    assert named == {a.rstrip(": ") for a in at.values()}, problems


def test_one_plural_form_too_many_is_named_at_its_line(translated):
    po = write_catalog(translated, plural_entry("booklet.phrases.dice", "{n} die", "{n} dice",
                                                ["{n} зар", "{n} зара", "{n} зарове"]))
    validate_fails_with(translated, [f"{FOLDER}/locales/bg.po:{line_of(po, 'msgstr[2]')}: 'msgstr[2]': "
                                     "bg has 2 plural forms, msgstr[0] to msgstr[1]"])


def test_a_translation_that_does_not_fit_is_named_at_its_entry_with_the_card_and_locale(translated):
    po = write_catalog(translated, entry("cards.knight.name", "Knight", "Рицар " * 30))
    problems = [p for p in pnp("validate", project=translated).stderr.splitlines() if "does not fit" in p]
    assert problems == [f"{FOLDER}/locales/bg.po:{msgid_line(po, 'cards.knight.name')}: cards.knight.name: "
                        f"[{GAME} standard bg] text does not fit: needs 8 lines at 10 pt, the 9 mm box holds fewer"]
