"""Catalogs as a translator might get them wrong, or as someone might plant them in a contributed
translation: each is a located error and exit 1 from `pnp validate`, `pnp build` and
`pnp i18n status`, never a traceback; output/ is left as it was; nothing outside the project is
read, and no message carries more of a catalog than the offending token."""
from __future__ import annotations

import json
import os
import re
import resource
import sys
import time
from pathlib import Path

import pytest

from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po

from conftest import TRANSLATED_LOCALE, pnp

GAME = "sample-game"
LOCALE = TRANSLATED_LOCALE     # the sample's released translation: the catalog these tests break
BUILD = ("build", "--game", GAME, "--paper", "a4")
# A catalog line is quoted by at most this much of its text.
SHOWN = 20


@pytest.fixture
def project(translated_project):
    """The project these tests change: a copy of the translated sample (tests/conftest.py)."""
    return translated_project


def catalog(project: Path, locale: str = LOCALE) -> Path:
    return project / "components" / GAME / "locales" / f"{locale}.po"


def shown(locale: str = LOCALE) -> str:
    return f"components/{GAME}/locales/{locale}.po"


def line_of(path: Path, text: str) -> int:
    """The number of the first line of `path` that contains `text`."""
    lines = path.read_text(encoding="utf-8").split("\n")
    return next(number for number, line in enumerate(lines, 1) if text in line)


def change_line(path: Path, old: str, new: bytes) -> int:
    """Replace the first line containing `old` with the bytes `new`; its line number."""
    number = line_of(path, old)
    lines = path.read_bytes().split(b"\n")
    lines[number - 1] = new
    path.write_bytes(b"\n".join(lines))
    return number


def set_title(po: Path, title: str) -> None:
    with po.open("rb") as handle:
        cat = read_po(handle, locale=LOCALE)
    cat.get("Sample Game", context="title").string = title
    with po.open("wb") as handle:
        write_po(handle, cat, width=100)


def tree(folder: Path) -> dict:
    return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
            and ".cache" not in p.relative_to(folder).parts}


def fails_everywhere(project: Path, locale: str, *expected: str) -> str:
    """validate, build (of that locale) and i18n status all exit 1 naming every expected line,
    with no traceback, and leave output/ as it was; their output, joined."""
    output = project / "output"
    output.mkdir(exist_ok=True)
    (output / "kept.txt").write_text("from the last good build", encoding="utf-8")
    before = tree(output)
    printed = []
    for args in (("validate", GAME), (*BUILD, "--locale", locale), ("i18n", "status", GAME)):
        result = pnp(*args, project=project)
        assert result.exit_code == 1, (args, result.output + result.traceback)
        assert not result.traceback and "Traceback" not in result.output, args
        lines = result.output.splitlines()
        for line in expected:
            assert line in lines, (args, line, result.output)
        printed.append(result.output)
    assert tree(output) == before
    return "\n".join(printed)


def fails_validation(project: Path, *expected: str) -> str:
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1, result.output + result.traceback
    assert not result.traceback and "Traceback" not in result.output
    lines = result.stderr.splitlines()
    for line in expected:
        assert line in lines, (line, result.stderr)
    return result.stderr


def status_row(project: Path, locale: str, game: str = GAME) -> dict:
    result = pnp("i18n", "status", game, "--json", project=project)
    assert not result.traceback, result.traceback
    return next(r for r in json.loads(result.stdout)["catalogs"] if r["locale"] == locale)


# ---- headers -------------------------------------------------------------------------------

def test_an_unknown_charset_is_named_on_its_line(project):
    line = change_line(catalog(project), "Content-Type:", b'"Content-Type: text/plain; charset=klingon\\n"')
    fails_everywhere(project, LOCALE, f"{shown()}:{line}: Content-Type: unknown charset 'klingon' (use utf-8)")


def test_a_broken_content_type_is_named_on_its_line(project):
    line = change_line(catalog(project), "Content-Type:", b'"Content-Type: text/plain; charset\\n"')
    fails_validation(project, f"{shown()}:{line}: Content-Type: 'text/plain; charset' is not "
                              '"text/plain; charset=NAME"')


def test_a_charset_that_cannot_spell_po_is_refused(project):
    line = change_line(catalog(project), "Content-Type:", b'"Content-Type: text/plain; charset=utf-16\\n"')
    fails_validation(project, f"{shown()}:{line}: Content-Type: charset 'utf-16' does not read ASCII as "
                              "ASCII, as PO syntax needs (use utf-8)")


def test_bytes_that_are_not_the_declared_charset_are_named_by_line(project):
    po = catalog(project)
    line = change_line(po, 'msgstr "Sample Game"', 'msgstr "Sample Game: Образец"'.encode("utf-8") + b"\xe9")
    fails_everywhere(project, LOCALE, f"{shown()}:{line}: byte 0xe9 is not valid utf-8: save the catalog as "
                                    "utf-8, or correct the charset its header declares")


def test_a_catalog_in_the_charset_it_declares_is_read(project):
    po = catalog(project)
    set_title(po, "Ukázková hra č. 1")     # letters cp1250 writes as bytes of their own
    text = po.read_text(encoding="utf-8")
    assert "charset=utf-8" in text.lower()
    text = re.sub("charset=utf-8", "charset=cp1250", text, flags=re.I)
    po.write_bytes(text.encode("cp1250"))
    row = status_row(project, LOCALE)
    assert row["problems"] == [] and row["strings"]["translated"] == row["strings"]["total"]


def test_a_utf8_byte_order_mark_is_accepted_as_yaml_accepts_it(project):
    before = status_row(project, LOCALE)
    po = catalog(project)
    po.write_bytes(b"\xef\xbb\xbf" + po.read_bytes())
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 0, result.output + result.traceback
    after = status_row(project, LOCALE)
    assert after["strings"] == before["strings"] and after["strings"]["translated"] == after["strings"]["total"]


def test_a_utf16_catalog_is_named_as_such(project):
    po = catalog(project)
    po.write_bytes(po.read_text(encoding="utf-8").encode("utf-16"))
    fails_validation(project, f"{shown()}:1: the file is saved as UTF-16 or UTF-32 (it starts with that "
                              "byte-order mark): save it as UTF-8")


def test_a_byte_order_mark_that_contradicts_the_charset(project):
    po = catalog(project)
    line = change_line(po, "Content-Type:", b'"Content-Type: text/plain; charset=latin-1\\n"')
    po.write_bytes(b"\xef\xbb\xbf" + po.read_bytes())
    fails_validation(project, f"{shown()}:{line}: Content-Type: charset 'latin-1', but the file starts with "
                              "a UTF-8 byte-order mark")


def test_repeated_entries_are_named_in_bounded_time(project):
    """Babel merges repeated entries at a cost that grows with the square of their number."""
    po = catalog(project)
    first = line_of(po, 'msgctxt "title"') + 1
    lines = po.read_bytes().count(b"\n")
    entries = (b'#: x.yaml:%d\nmsgctxt "title"\nmsgid "Dup"\nmsgstr "Dup"\n\n' % n for n in range(15_000))
    po.write_bytes(po.read_bytes() + b"\n" + b"".join(entries))
    started = time.monotonic()
    fails_validation(project, f"{shown()}:{lines + 4}: a second entry for msgctxt 'title'; the first is "
                              f"on line {first}")
    assert time.monotonic() - started < 60


# ---- plural forms --------------------------------------------------------------------------

def test_a_huge_plural_count_is_refused_without_taking_memory(project):
    po = catalog(project)
    line = change_line(po, "Plural-Forms:", b'"Plural-Forms: nplurals=200000000; plural=0;\\n"')
    rule = get_plural("ru").plural_forms
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    fails_everywhere(project, LOCALE, f"{shown()}:{line}: Plural-Forms: nplurals=200000000, but no language "
                                    f"has more than 6 plural forms; ru has 3 (use {rule})")
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak < 300_000        # kB: not 200 million forms


def test_a_second_header_cannot_set_the_plural_count(project):
    """Babel takes every msgid "" for the header, and the last one's plural count for every
    plural entry after it."""
    po = catalog(project)
    header = line_of(po, 'msgid ""')
    last = po.read_bytes().split(b"\n")[line_of(po, '">= 2 && n % 10 <= 4') - 1]      # the header's last line
    second = change_line(po, '">= 2 && n % 10 <= 4', last + b'\n\nmsgid ""\n'
                                                    b'msgstr "Plural-Forms: nplurals=200000000; plural=0;\\n"') + 2
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    fails_validation(project, f'{shown()}:{second}: a second header (msgid ""); the header is on line {header}')
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak < 300_000


def test_a_plural_count_other_than_cldrs(project):
    po = catalog(project)
    line = change_line(po, "Plural-Forms:", b'"Plural-Forms: nplurals=2; plural=(n != 1);"')
    change_line(po, '">= 2 && n % 10 <= 4', b'"\\n"')
    fails_validation(project, f"{shown()}:{line}: Plural-Forms: nplurals=2, but ru has 3 plural forms "
                              f"(use {get_plural('ru').plural_forms})")


def test_a_plural_rule_other_than_cldrs(project):
    po = catalog(project)
    line = change_line(po, "Plural-Forms:", b'"Plural-Forms: nplurals=3; plural=(n == 1 ? 0 : n < 5 ? 1 : 2);"')
    change_line(po, '">= 2 && n % 10 <= 4', b'"\\n"')
    fails_validation(project, f"{shown()}:{line}: Plural-Forms: plural='(n == 1 ? 0 : n < 5 …' gives form 1 "
                              f"for n=0, where ru uses form 2 (use {get_plural('ru').plural_forms})")


# ---- untranslated strings ------------------------------------------------------------------

def test_each_string_a_released_locale_lacks_is_named(project):
    po = catalog(project)
    empty = change_line(po, 'msgstr "Heroes"', b'msgstr ""') - 1                     # its msgid line
    fuzzy = line_of(po, 'msgctxt "cards.archer.text"') + 1
    change_line(po, 'msgctxt "cards.archer.text"', b'#, fuzzy\nmsgctxt "cards.archer.text"')
    fuzzy += 1
    text = po.read_text(encoding="utf-8")             # the entry goes after those above, moving none
    at = text.index('msgctxt "boards.hexagon.name"')
    po.write_text(text[:text.rindex("\n\n", 0, at) + 2] + text[text.index("\n\n", at) + 2:], encoding="utf-8")
    boards = project / "components" / GAME / "boards.yaml"
    absent = line_of(boards, "  hexagon:") + 1                                         # its name:
    assert "name:" in boards.read_text(encoding="utf-8").split("\n")[absent - 1]
    total = status_row(project, LOCALE)["strings"]["total"]
    fails_everywhere(
        project, LOCALE,
        f"{shown()}:{empty}: decks.heroes.name: not translated",
        f"{shown()}:{fuzzy}: cards.archer.text: marked fuzzy: review the translation, then remove the fuzzy flag",
        f"components/{GAME}/boards.yaml:{absent}: boards.hexagon.name: no entry in locales/{LOCALE}.po "
        "(run pnp i18n extract)",
        f"{shown()}: locale '{LOCALE}' is released but 3 of {total} strings are not translated (or fuzzy)")


def test_a_wholly_untranslated_released_catalog_names_every_string_in_a_short_line(project):
    po = catalog(project)
    with po.open("rb") as handle:
        cat = read_po(handle, locale=LOCALE)
    for message in cat:
        if message.id:
            message.string = ("",) * len(message.string) if isinstance(message.string, tuple) else ""
    with po.open("wb") as handle:
        write_po(handle, cat, width=100)
    err = fails_validation(project)
    total = status_row(project, LOCALE)["strings"]["total"]
    named = [line for line in err.splitlines() if line.endswith(": not translated")]
    assert len(named) == total and len(set(named)) == total
    assert all(line.startswith(f"{shown()}:") and len(line) < 120 for line in named)


# ---- links out of the project --------------------------------------------------------------

SECRET = "TOPSECRET-7f3a9c"


def plant_secret(tmp_path: Path) -> Path:
    """A file outside the project that any reading or echoing of would show."""
    secret = tmp_path / "outside" / f"{LOCALE}.po"
    secret.parent.mkdir()
    secret.write_text(f'msgid ""\nmsgstr "{SECRET}: 1\\n"\n\n{SECRET} is not PO\nmsgstr {SECRET}\n', encoding="utf-8")
    return secret


class Opened:
    """Every path the process opens while watching (Python's audit hook sees each open)."""

    paths: list[str] | None = None

    @classmethod
    def hook(cls, event, args):
        if event == "open" and cls.paths is not None and isinstance(args[0], (str, bytes, os.PathLike)):
            cls.paths.append(os.path.realpath(os.fsdecode(args[0])))


sys.addaudithook(Opened.hook)


def test_a_catalog_linked_out_of_the_project_is_refused_unread(project, tmp_path):
    secret = plant_secret(tmp_path)
    po = catalog(project)
    po.unlink()
    po.symlink_to(secret)
    refused = f"{shown()}:1: refused: the path leads outside the project"
    Opened.paths = []
    try:
        printed = fails_everywhere(project, LOCALE, refused)
        result = pnp("i18n", "extract", GAME, project=project)
    finally:
        opened, Opened.paths = Opened.paths, None
    assert result.exit_code == 1 and refused in result.stderr.splitlines() and not result.traceback
    assert SECRET not in printed + result.output
    assert str(secret.resolve()) not in opened
    assert po.is_symlink() and SECRET in secret.read_text(encoding="utf-8")     # extract rewrote neither


def test_a_locales_folder_linked_out_of_the_project_is_refused(project, tmp_path):
    plant_secret(tmp_path)
    locales = project / "components" / GAME / "locales"
    (locales / f"{LOCALE}.po").unlink()             # the secret stands in its place
    for po in locales.iterdir():
        po.rename(tmp_path / "outside" / po.name)
    locales.rmdir()
    locales.symlink_to(tmp_path / "outside")
    err = fails_validation(project, f"{shown()}:1: refused: the path leads outside the project")
    assert SECRET not in err


# ---- what messages quote -------------------------------------------------------------------

def test_a_mistyped_line_is_quoted_only_by_its_offending_token(project):
    po = catalog(project)
    token = SECRET + "-" + "x" * 40
    line = change_line(po, 'msgstr "Sample Game"', f"msgstr {token} and a private line".encode())
    quoted = repr(token[:SHOWN] + "…")
    err = fails_validation(project, f'{shown()}:{line}: not valid PO syntax: {quoted} is not a "quoted" string')
    assert token[:SHOWN + 1] not in err and "private" not in err


def test_a_plural_form_is_quoted_only_in_part(project):
    po = catalog(project)
    form = "много карт, и ещё длинный текст"
    line = change_line(po, 'msgstr[2] "{n} cards"', f'msgstr[2] "{form}"'.encode()) - 4  # the entry's msgid
    err = fails_validation(project, f"{shown()}:{line}: booklet.phrases.cards: plural form "
                                    f"{form[:SHOWN] + '…'!r} lacks the placeholder {{n}}")
    assert form not in err


def test_status_prints_a_token_that_looks_like_markup_as_it_is(project):
    line = change_line(catalog(project), 'msgstr "Sample Game"', b'msgstr "Igraj" [/red]')
    result = pnp("i18n", "status", GAME, project=project)
    assert result.exit_code == 1 and not result.traceback, result.output + result.traceback
    assert f"{shown()}:{line}: not valid PO syntax: '[/red]' after the closing quote" in result.stdout.splitlines()
