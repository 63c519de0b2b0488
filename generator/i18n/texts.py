"""Localised strings and the numbers they quote.

Every translatable string has a key path (`cards.quick.name`). The source locale's text is
in the YAML; other locales come from `components/<game>/locales/<lang>.po`, where msgctxt is
the key path. Placeholders such as `{hand_size}` or `{count.quick|cards}` are filled from the
component data at build time, so no number is ever typed into a text.
"""
from __future__ import annotations

import codecs
import gettext
import hashlib
import pickle
import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import accumulate
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.plurals import get_plural
from babel.messages.pofile import PoFileError, read_po, unescape

from ..core.errors import Problem
from ..core.files import read_bytes_inside
from ..load.project import Game
from . import typography


PLACEHOLDER = re.compile(r"\{([a-z0-9_.@-]+)(?:\|([a-z0-9_]+(?::[a-z_]+)?))?\}")
# A plural phrase in the case its context needs: `{players.max|players:genitive}` ("до 4 игроков").
CASE = ":"


def placeholders(text: str) -> list[str]:
    """The placeholders of a string, as written, sorted (for comparing translations). An
    ordinal (`{x|ordinal}`, `{x|ordinal_neuter}`) stands for its number `{x}`: a translation
    writes the number as its language does, an ordinal in the form its own noun takes, or not.
    A phrase in a case (`{x|players:genitive}`) stands for the phrase: each language puts its
    nouns in the case its own words around them need."""
    def written(m) -> str:
        if m.group(2) and typography.ordinal_form(m.group(2)) is not None:
            return "{" + m.group(1) + "}"
        if m.group(2) and CASE in m.group(2):
            return "{" + m.group(1) + "|" + m.group(2).partition(CASE)[0] + "}"
        return m.group(0)
    return sorted(written(m) for m in PLACEHOLDER.finditer(text))


def phrase_key(phrase: str) -> str:
    """The key path of a plural phrase as a placeholder names it, in a case or not:
    `booklet.phrases.players`, `booklet.phrase_cases.genitive.players`."""
    name, _, case = phrase.partition(CASE)
    return f"booklet.phrase_cases.{case}.{name}" if case else f"booklet.phrases.{name}"


def numbers(game: Game, edition: str) -> dict[str, int]:
    """Every number a text may quote, computed from the component data of one edition."""
    values: dict[str, int] = {}
    _integers(game.meta, (), values)
    # A component's own whole numbers by key path (`cards.capacity-3.value`); counts are below.
    for component in game.components:
        for name, value in component.data.items():
            if name != "count" and isinstance(value, int) and not isinstance(value, bool):
                values[f"{component.keypath}.{name}"] = value
    shapes = ((game.files.get("boards") or {}).get("design") or {}).get("shapes") or {}
    _integers(shapes, (), values)          # the boards' shared shapes: `track.spaces`, `clock.marks.red.at`
    # A deck's own numbers: copies printed (`decks.standard.count.standard`), jokers a copy...
    _integers(game.decks, ("decks",), values)
    # Unsuffixed names are the booklet's own edition; `@edition` names any edition.
    for other, suffix in [(edition, "")] + [(e, f"@{e}") for e in game.editions]:
        for component in game.components:
            values[f"count.{component.id}{suffix}"] = component.count(other)
        groups: dict[str, int] = {}
        for component in game.components:
            for selector in (component.category, f"{component.category}.{component.group}"):
                groups[selector] = groups.get(selector, 0) + component.count(other)
        for selector, value in groups.items():
            values[f"total.{selector}{suffix}"] = value
        values[f"kinds.cards{suffix}"] = len(game.in_edition(other, "cards"))
        for deck in game.decks:
            values[f"kinds.cards.{deck}{suffix}"] = len(
                [c for c in game.in_edition(other, "cards") if c.group == deck])
        # The worked examples a booklet section shows (`examples.<section id>`), for its heading.
        for section_id, count in booklet_examples(game, other).items():
            values[f"examples.{section_id}{suffix}"] = count
    values["editions"] = len(game.editions)
    return values


def booklet_examples(game: Game, edition: str) -> dict[str, int]:
    """Section id -> how many example blocks the booklet shows there in this edition."""
    def shown(node) -> bool:
        return not isinstance(node, dict) or "editions" not in node or edition in node["editions"]
    counts = {}
    for section in game.booklet.get("sections") or []:
        if isinstance(section, dict) and isinstance(section.get("id"), str):
            blocks = (section.get("blocks") or []) if shown(section) else []
            counts[section["id"]] = sum(1 for block in blocks if isinstance(block, dict) and "example" in block
                                        and shown(block) and shown(block["example"]))
    return counts


def _integers(node, path: tuple, values: dict) -> None:
    """Every whole number of game.yaml by its dotted path (`players.min`, `hand_sizes.3`); a
    list's items by their index (`players.counts.0`)."""
    if isinstance(node, dict):
        for key, value in node.items():
            _integers(value, path + (str(key),), values)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            _integers(value, path + (str(index),), values)
    elif isinstance(node, int) and not isinstance(node, bool) and path:
        values[".".join(path)] = node


# ---- telling an observer what was printed ---------------------------------------------------
# Whoever needs to know which texts some work printed (the build, to make a file again only when
# one of them changes) observes the work; a text lookup only says what it printed.

Lookup = tuple          # (game, locale, "get", key) or (game, locale, "plural", key, n)
_observers: list[Callable[[Lookup, str], None]] = []


@contextmanager
def observed(observer: Callable[[Lookup, str], None]) -> Iterator[None]:
    """Inside it, every text printed is told to `observer` as (lookup, text), and not to the
    observers around it: the caller passes on what the work it observes depends on (`retell`)."""
    _observers.append(observer)
    try:
        yield
    finally:
        _observers.pop()


@contextmanager
def collected() -> Iterator[dict]:
    """Every text printed inside it, {lookup: text}."""
    lookups: dict = {}
    with observed(lookups.__setitem__):
        yield lookups


def printed(lookup: Lookup, text: str) -> None:
    """Tell the innermost observer; nearly free when nothing observes."""
    if _observers:
        _observers[-1](lookup, text)


def retell(lookups: dict) -> None:
    """Tell the innermost observer of texts printed earlier, as if printed now."""
    for lookup, text in lookups.items():
        printed(lookup, text)


@dataclass
class Texts:
    """The strings of one game in one locale."""

    game: Game
    locale: str
    by_context: dict = field(default_factory=dict)

    @classmethod
    def load(cls, game: Game, locale: str) -> "Texts":
        texts = cls(game, locale)
        if locale != game.source_locale:
            # A catalog with problems fails validation, which names them; here it gives what it can.
            texts.by_context = messages_by_key(game_catalog(game, locale)[0])
        return texts

    @property
    def is_source(self) -> bool:
        return self.locale == self.game.source_locale

    def get(self, key: str, source: str) -> str:
        """The translation of `source` (key path `key`), or the source when there is none, with
        the locale's typography applied (generator/i18n/typography.py): what is printed."""
        text = typography.apply(self._get(key, source), self.locale)
        printed((self.game.slug, self.locale, "get", key), text)
        return text

    def translated(self, key: str, source: str) -> bool:
        """Whether a translation of the string is printed, rather than its source."""
        return self._get(key, source) != source

    def _get(self, key: str, source: str) -> str:
        if self.is_source:
            return source
        message = self.by_context.get(key)
        if message is None or message.fuzzy or not message.string:
            return source
        source_id = message.id[0] if isinstance(message.id, (tuple, list)) else message.id
        string = message.string[0] if isinstance(message.string, (tuple, list)) else message.string
        # A stale translation, or one whose placeholders differ (a validation error), is not
        # printed: the source stands in until the catalog is fixed.
        if source_id != source or placeholders(string) != placeholders(source):
            return source
        return string

    @property
    def phrases(self) -> dict:
        return self.game.booklet.get("phrases", {})

    def phrase_forms(self, phrase: str) -> dict | None:
        """The source's forms of a phrase as a placeholder names it (`players`,
        `players:genitive`: booklet.yaml phrase_cases), or None when the booklet has none."""
        name, _, case = phrase.partition(CASE)
        if case:
            return ((self.game.booklet.get("phrase_cases") or {}).get(case) or {}).get(name)
        return self.phrases.get(name)

    def plural(self, key: str, forms: dict, n: int) -> str:
        """`forms` is the source's {one: ..., other: ...}; picks the locale's form for n."""
        text = typography.apply(self._plural(key, forms, n), self.locale)
        printed((self.game.slug, self.locale, "plural", key, n), text)
        return text

    def _plural(self, key: str, forms: dict, n: int) -> str:
        if not self.is_source:
            message = self.by_context.get(key)
            if message is not None and not message.fuzzy and isinstance(message.string, (tuple, list)) \
                    and all(message.string):
                index = plural_index(self.locale, n)
                if index < len(message.string):
                    return message.string[index]
        category = Locale.parse(self.game.source_locale).plural_form(n)
        return forms.get(category) or forms.get("other") or forms.get("many") or next(iter(forms.values()))

    def fill(self, text: str, values: dict) -> str:
        """Replace placeholders with numbers (plural phrases, ordinals) from the data, a negative
        number with the locale's minus sign. Raises KeyError naming an unknown number or phrase."""
        def replace(match):
            name, phrase = match.group(1), match.group(2)
            if name not in values:
                raise KeyError(name)
            n = values[name]
            if phrase and typography.ordinal_form(phrase) is not None:
                # A form this locale lacks (a source text printed while its translation is
                # missing) gives the locale's default one: validation names the text.
                return typography.printed_ordinal(n, self.locale, typography.ordinal_form(phrase))
            if phrase:
                forms = self.phrase_forms(phrase)
                if forms is None:
                    raise KeyError(f"{phrase} (plural phrase)")
                return self.plural(phrase_key(phrase), forms, n).replace("{n}", typography.number(n, self.locale))
            return typography.number(n, self.locale)
        return PLACEHOLDER.sub(replace, text)


# ---- reading a catalog ------------------------------------------------------------------------
# A catalog may come from anyone who contributes a translation. It is read only from inside the
# project and within a bounded size (generator/core/files.py); every line is checked before Babel
# parses it, and the header is read here and never given to Babel, so no charset or plural count
# written in it can make Babel decode, allocate or fail on its say. Messages quote a catalog only
# by the offending token, cut short, so no file's content reaches a log.

CLDR_MAX_PLURALS = 6             # zero, one, two, few, many, other (Arabic, Welsh)
SHOWN_CHARS = 20
# A file with more mistyped lines than this is not a catalog with typos; naming every line of
# it would only flood the log.
MAX_LINE_PROBLEMS = 100
KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)(?=\s|$)")
QUOTED = re.compile(r'"(?:[^"\\]++|\\.)*+"')        # possessive: no backtracking on a long line
CONTENT_TYPE = re.compile(r"text/plain\s*;\s*charset\s*=\s*([A-Za-z0-9._-]{1,40})\s*;?", re.IGNORECASE)
PLURAL_FORMS = re.compile(r"nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*(.+?)\s*;?")
# What PO syntax is made of, and escapes some codecs read as something else (`\x41`, UTF-7's `+`).
ASCII_SAMPLE = bytes(range(32, 127)) + b"\t\\x41\\u0041+AEE-"
# decided: a UTF-8 byte-order mark is accepted, as YAML accepts it (editors on Windows add one);
# a UTF-16 or UTF-32 one is refused, naming it: PO keywords must read as ASCII.
WIDE_BOMS = (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
# Numbers on which a catalog's plural expression must pick the form CLDR's rule picks: every
# ending up to 1000, and the millions some languages treat apart.
PLURAL_SAMPLES = (*range(1001), 10_000, 100_000, 1_000_000, 1_000_001, 2_000_000, 1_000_000_000)


def shown(text: str) -> str:
    """A piece of a catalog as a message quotes it: a token, never a line of content."""
    return repr(text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "…")


def catalog_path(game: Game, locale: str) -> Path:
    return game.folder / "locales" / f"{locale}.po"


def catalog_display(game: Game, locale: str) -> str:
    return f"{game.display}/locales/{locale}.po"


def has_catalog(path: Path) -> bool:
    """A link counts even when it leads nowhere: it is refused, not taken for a missing catalog."""
    return path.is_symlink() or path.exists()


def game_catalog(game: Game, locale: str) -> tuple[Catalog | None, list[Problem]]:
    """The game's catalog for `locale` (None when it has none or it cannot be read) and what is
    wrong with the file."""
    path = catalog_path(game, locale)
    if not has_catalog(path):
        return None, []
    # components/<game>/ lies in the project's root folder.
    return read_catalog(path, locale, [game.folder.parent.parent], catalog_display(game, locale))


def messages_by_key(catalog: Catalog | None) -> dict:
    return {m.context: m for m in catalog if m.id and m.context} if catalog is not None else {}


def read_catalog(path: Path, locale: str, roots: list[Path], display: str) -> tuple[Catalog | None, list[Problem]]:
    """A PO catalog read from inside `roots`, and its problems. None when its lines cannot be
    read safely (refused, not decodable, not PO syntax); a catalog with other problems is
    still returned, so every check runs."""
    data, problems = read_bytes_inside(path, roots, display)
    if data is None:
        return None, problems
    key = (hashlib.blake2b(data, digest_size=20).digest(), locale, display)
    if key in _READ_CATALOGS:
        kept, problems = _READ_CATALOGS[key]
        return (None if kept is None else pickle.loads(kept)), list(problems)
    catalog, problems = _parsed_catalog(data, locale, display)
    # kept pickled: every caller gets a catalog of its own to change
    _READ_CATALOGS[key] = (None if catalog is None else pickle.dumps(catalog), tuple(problems))
    while len(_READ_CATALOGS) > KEEP_READ_CATALOGS:
        del _READ_CATALOGS[next(iter(_READ_CATALOGS))]
    return catalog, problems


# Catalogs parsed in this process by their bytes, locale and name: a command reads each one
# for the texts of every edition and for the translation checks. The oldest go first.
KEEP_READ_CATALOGS = 64
_READ_CATALOGS: dict[tuple[bytes, str, str], tuple[bytes | None, tuple[Problem, ...]]] = {}


def _parsed_catalog(data: bytes, locale: str, display: str) -> tuple[Catalog | None, list[Problem]]:
    bom = data.startswith(codecs.BOM_UTF8)
    if bom:
        data = data[len(codecs.BOM_UTF8):]
    elif data.startswith(WIDE_BOMS):
        return None, [Problem(display, 1, "", "the file is saved as UTF-16 or UTF-32 (it starts with that "
                                              "byte-order mark): save it as UTF-8")]
    # Keywords, quotes and header names are ASCII in every charset a catalog may be in, so the
    # header can be found before the charset it declares is known.
    header = _scan(data.decode("latin-1").split("\n"), locale, display, first_entry_only=True)
    charset, problems = _charset(header, display, bom)
    if charset is None:
        return None, problems
    try:
        text = data.decode(charset)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return None, [Problem(display, line, "", f"byte 0x{data[exc.start]:02x} is not valid {charset}: save the "
                                                 f"catalog as {charset}, or correct the charset its header declares")]
    scan = _scan(text.split("\n"), locale, display)
    problems = scan.problems + _header_problems(scan, locale, display)
    if scan.problems:
        return None, problems
    try:
        catalog = read_po(scan.lines, locale=locale, abort_invalid=True)
    except PoFileError as exc:
        # Babel's own wording, up to where it would quote the file.
        reason = str(exc).rsplit(" on ", 1)[0].split("'")[0].strip()
        return None, problems + [Problem(display, exc.lineno + 1, "", f"cannot be read: {reason}")]
    return catalog, problems


@dataclass
class _PoEntry:
    line: int = 0                     # of its msgid, where Babel places the message
    msgctxt: list | None = None       # (line, "quoted") pieces
    msgid: list | None = None
    plural: bool = False
    msgstrs: list = field(default_factory=list)     # the pieces of each msgstr, msgstr[0], ...
    obsolete: bool = False
    mistyped: bool = False            # a line of it is not PO syntax (and is named for that)

    @property
    def is_header(self) -> bool:
        return not self.plural and not self.obsolete and all(quoted == '""' for _, quoted in self.msgid)

    @property
    def key(self) -> tuple[str, str]:
        """What names the entry: its msgctxt (the string's key path), or its msgid if it has none."""
        if self.msgctxt is not None:
            return "msgctxt", "".join(unescape(quoted) for _, quoted in self.msgctxt)
        return "msgid", "".join(unescape(quoted) for _, quoted in self.msgid)


@dataclass
class _PoScan:
    lines: list          # each line as Babel is to read it: stripped, keyword and string one space apart
    problems: list
    headers: list        # entries with msgid "", the first being the header

    @cached_property
    def fields(self) -> dict[str, tuple[int, str]]:
        """The header's `Name: value` lines by lower-case name, with the catalog line each starts on."""
        if not self.headers:
            return {}
        pieces = self.headers[0].msgstrs[0]
        texts = [unescape(quoted) for _, quoted in pieces]
        ends = list(accumulate(map(len, texts)))
        fields: dict[str, tuple[int, str]] = {}
        offset = 0
        for text in "".join(texts).split("\n"):
            name, colon, value = text.partition(":")
            if colon:
                line = pieces[min(bisect_right(ends, offset), len(pieces) - 1)][0]
                fields.setdefault(name.strip().lower(), (line, value.strip()))
            offset += len(text) + 1
        return fields


def _scan(lines: list[str], locale: str, display: str, first_entry_only: bool = False) -> _PoScan:
    """Every line of a catalog checked the way Babel will read it, and the header entries found.
    The headers are blanked out of the lines Babel gets, leaving an empty one in their place.
    `first_entry_only` stops after the first entry, where gettext puts the header."""
    forms = get_plural(locale).num_plurals
    out, problems, headers, finished = [], [], [], 0
    entry, pieces = _PoEntry(), None
    seen: dict[tuple[str, str], int] = {}      # entry key: line

    def problem(line: int, message: str):
        problems.append(Problem(display, line, "", message))

    def finish():
        nonlocal entry, pieces, finished
        if entry.msgid is None:        # Babel carries a lone msgctxt on to the next msgid
            return
        finished += 1
        if not entry.msgstrs and not entry.mistyped:
            problem(entry.line, "msgid without a msgstr after it")
        elif entry.is_header:
            headers.append(entry)
        elif not entry.obsolete:
            # Only one translation of a string can be used; and Babel merges repeated entries
            # at a cost that grows with the square of their number.
            key = entry.key
            if key in seen:
                problem(entry.line, f"a second entry for {key[0]} {shown(key[1])}; the first is on line {seen[key]}")
            seen.setdefault(key, entry.line)
        entry, pieces = _PoEntry(), None

    for number, raw in enumerate(lines, 1):
        if first_entry_only and (finished or problems):
            break
        if len(problems) >= MAX_LINE_PROBLEMS:
            problem(number, "more problems from here on are not listed (is this a PO catalog?)")
            break
        text = raw.strip()
        out.append(text)
        obsolete = text.startswith("#~")
        if text.startswith("#-"):
            problem(number, "a msgmerge conflict marker: merge the versions by hand and remove the marker lines")
            continue
        if text.startswith("#") and not obsolete:
            finish()
            continue
        if obsolete:
            text = text[2:].strip()
        if not text:
            continue
        if text[0] == '"':
            if not QUOTED.fullmatch(text):
                problem(number, _syntax_error(text))
                entry.mistyped = True
            elif pieces is None:
                problem(number, 'a "quoted" line that continues no msgctxt, msgid or msgstr')
            else:
                pieces.append((number, text))
                out[-1] = ("#~ " if obsolete else "") + text
            continue
        keyword = KEYWORD.match(text)
        quoted = QUOTED.fullmatch(text[keyword.end():].strip()) if keyword else None
        if quoted is None:
            problem(number, _syntax_error(text))
            entry.mistyped = True
            continue
        name, index = keyword.groups()
        out[-1] = ("#~ " if obsolete else "") + f"{name} {quoted.group()}"
        if name in ("msgctxt", "msgid"):
            finish()
        entry.obsolete = obsolete
        pieces = [(number, quoted.group())]
        if name == "msgctxt":
            entry.msgctxt = pieces
        elif name == "msgid":
            entry.line, entry.msgid = number, pieces
        elif name == "msgid_plural":
            if entry.msgid is None:
                problem(number, "msgid_plural without a msgid before it")
            entry.plural = True
        elif name.startswith("msgstr"):
            if entry.msgid is None:
                problem(number, "msgstr without a msgid before it")
            if index is not None and (len(index) > 2 or int(index) >= forms):
                problem(number, f"{shown(name)}: {locale} has {forms} plural forms, msgstr[0] to msgstr[{forms - 1}]")
            entry.msgstrs.append(pieces)
    finish()
    for header in headers:
        lines_of = [number for msgstr in header.msgstrs for number, _ in msgstr]
        for number in lines_of:
            out[number - 1] = ""
        out[lines_of[0] - 1] = 'msgstr ""'
    return _PoScan(out, problems, headers)


def _syntax_error(text: str) -> str:
    """What is wrong with a line that is not PO syntax, naming its offending token."""
    keyword = KEYWORD.match(text)
    rest = text[keyword.end():].strip() if keyword else text
    quoted = QUOTED.match(rest)
    if keyword is None and not rest.startswith('"'):
        what = f"unknown keyword {shown(rest.split()[0])}"
    elif not rest:
        what = f'{keyword.group(1)} without a "quoted" string'
    elif quoted:
        what = f"{shown(rest[quoted.end():].split()[0])} after the closing quote"
    elif rest.startswith('"'):
        what = 'a string not closed by "'
    else:
        what = f'{shown(rest.split()[0])} is not a "quoted" string'
    return f"not valid PO syntax: {what}"


def _charset(scan: _PoScan, display: str, bom: bool) -> tuple[str | None, list[Problem]]:
    """The codec of the charset the header declares (UTF-8 when it names none), or None and why
    PO syntax cannot be read in it."""
    if "content-type" not in scan.fields:
        return "utf-8", []
    line, value = scan.fields["content-type"]
    where = (display, line, "Content-Type")
    match = CONTENT_TYPE.fullmatch(value)
    if not match:
        return None, [Problem(*where, f'{shown(value)} is not "text/plain; charset=NAME"')]
    name = match.group(1)
    if name.lower() == "charset":      # the placeholder in gettext's templates; Babel reads it as UTF-8
        return "utf-8", []
    try:
        codec = codecs.lookup(name).name
        readable = ASCII_SAMPLE.decode(codec) == ASCII_SAMPLE.decode("ascii")
    except LookupError:
        return None, [Problem(*where, f"unknown charset {shown(name)} (use utf-8)")]
    except UnicodeError:
        readable = False
    if not readable:
        return None, [Problem(*where, f"charset {shown(name)} does not read ASCII as ASCII, as PO syntax needs "
                                      "(use utf-8)")]
    if bom and codec not in ("utf-8", "utf-8-sig"):
        return None, [Problem(*where, f"charset {shown(name)}, but the file starts with a UTF-8 byte-order mark")]
    return codec, []


def _header_problems(scan: _PoScan, locale: str, display: str) -> list[Problem]:
    problems = [Problem(display, extra.line, "", f'a second header (msgid ""); the header is on line '
                                                 f'{scan.headers[0].line}') for extra in scan.headers[1:]]
    if "plural-forms" in scan.fields:
        problems += _plural_forms_problems(*scan.fields["plural-forms"], locale, display)
    return problems


def _plural_forms_problems(line: int, value: str, locale: str, display: str) -> list[Problem]:
    """The header's Plural-Forms must be the locale's CLDR rule (as Babel gives it): the build
    picks forms by that rule, so any other would put a translator's forms in the wrong places."""
    rule = get_plural(locale)
    where = (display, line, "Plural-Forms")
    use = f"(use {rule.plural_forms})"
    match = PLURAL_FORMS.fullmatch(value)
    if not match:
        return [Problem(*where, f'{shown(value)} is not "nplurals=N; plural=EXPRESSION;" {use}')]
    count, expression = match.groups()
    if len(count) > 1 or int(count) > CLDR_MAX_PLURALS:
        return [Problem(*where, f"nplurals={shown(count)[1:-1]}, but no language has more than {CLDR_MAX_PLURALS} "
                                f"plural forms; {locale} has {rule.num_plurals} {use}")]
    if int(count) != rule.num_plurals:
        return [Problem(*where, f"nplurals={count}, but {locale} has {rule.num_plurals} plural forms {use}")]
    expected = _plural_function(locale)
    try:
        given = gettext.c2py(expression)
        for n in PLURAL_SAMPLES:
            if given(n) != expected(n):
                return [Problem(*where, f"plural={shown(expression)} gives form {given(n)} for n={n}, where "
                                        f"{locale} uses form {expected(n)} {use}")]
    except (ValueError, ArithmeticError):
        return [Problem(*where, f"plural={shown(expression)} is not an expression gettext can compute {use}")]
    return []


def plural_index(locale: str, n: int) -> int:
    """gettext plural form index for n in the locale (from CLDR via Babel)."""
    return _plural_function(locale)(n)


@lru_cache(maxsize=None)
def _plural_function(locale: str):
    # Babel knows each locale's gettext plural expression; gettext compiles it safely.
    return gettext.c2py(get_plural(locale).plural_expr)
