"""Translation catalogs: extract every translatable string of a game from its YAML into a
gettext template, merge it into one PO catalog per locale, check the catalogs, and count
what is translated.

msgctxt is the string's key path (`cards.quick.name`, `booklet.sections.setup.blocks.0.steps.1`):
components and booklet sections are named by id, so they keep their translations when the YAML
around them moves (blocks inside a section are numbered, so inserting one renumbers the ones
after it). When the source text changes, the translation is kept but marked fuzzy, with the
previous source for the translator.
"""
from __future__ import annotations

import io
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.plurals import get_plural
from babel.messages.pofile import unescape, write_po

from ..core import fonts
from ..core.errors import DataError, Problem
from ..core.files import relative_to, write_inside
from ..core.schema import text_keys, text_map_keys, written_schemas
from ..core.yamlfile import Located, LocatedList
from ..load import shapes
from ..load.icons import icon_names, icons_differ
from ..load.project import TOOL_TEMPLATES, Game, game_files
from ..load.spreadsheets import Cell
from . import typography
from .texts import (
    CASE,
    PLACEHOLDER,
    Texts,
    catalog_display,
    catalog_path,
    game_catalog,
    has_catalog,
    messages_by_key,
    numbers,
    placeholders,
    plural_index,
    read_catalog,
    shown,
)


# Keys whose string values are words for people, per file (the last key of the path).
# In the booklet every string is text except these settings.
BOOKLET_SETTINGS = {"id", "editions", "deck", "component"}
# A decision's record (booklet.yaml `decisions`) is for whoever keeps the game; its `text` is printed.
DECISION_RECORD = {"rule", "says", "does", "why"}
# A fixed date keeps the template byte-identical between runs with the same strings.
FIXED_DATE = datetime(2026, 1, 1, tzinfo=timezone.utc)
WORD = re.compile(r"\w+", re.UNICODE)


@dataclass
class Entry:
    key: str                         # msgctxt
    source: str | dict               # a string, or plural forms {one: ..., other: ...}
    file: str
    line: int
    notes: list[str] = field(default_factory=list)
    # Where the string sits in its file's data (list items by index), file name first.
    data_path: tuple = ()

    @property
    def msgid(self):
        if isinstance(self.source, dict):
            forms = self.source
            return (forms.get("one") or next(iter(forms.values())),
                    forms.get("other") or forms.get("many") or list(forms.values())[-1])
        return self.source


@lru_cache(maxsize=None)
def translatable_keys() -> frozenset[str]:
    """Every key whose schema is translatable text (`common#/$defs/text`) in a game file's
    schema (and the board shapes it refers to): what `pnp i18n extract` takes into the catalogs."""
    schemas = written_schemas()
    return text_keys([schemas[name] for name in game_files() if name in schemas] + [shapes.schema()])


@lru_cache(maxsize=None)
def translatable_maps() -> frozenset[str]:
    """Every key whose every value is translatable text, in a board shape's schema (a grid's
    `labels`)."""
    return text_map_keys([shapes.schema()])


def every_text(game: Game) -> list[Entry]:
    """Every string of the game that is printed through a catalog lookup, in file order,
    those without letters too."""
    entries: list[Entry] = []
    for name, data in game.files.items():
        if name == "layouts":
            continue
        if name == "booklet":
            _walk_booklet(data, ("booklet",), entries, (name,))
        else:
            _walk(data, (), entries, (name,))
    return entries


def source_strings(game: Game) -> dict:
    """key path -> the source text (or plural forms) as the data says it now."""
    return {entry.key: entry.source for entry in every_text(game)}


def translatable_paths(game: Game) -> set[str]:
    """Where in its file's data each such string sits ("cards.cards.quick.name")."""
    return {".".join(map(str, entry.data_path)) for entry in every_text(game)}


class TextsNow:
    """Answers lookups told to an observer (texts.observed) again, with the data and catalogs
    as they are now: a file made earlier is still right while its texts read the same."""

    def __init__(self, games: dict):
        self.games = games               # slug -> Game
        self._texts: dict = {}
        self._sources: dict = {}

    def _lookup(self, slug: str, locale: str):
        if (slug, locale) not in self._texts:
            game = self.games[slug]
            self._texts[slug, locale] = Texts.load(game, locale) if locale in game.locales else None
            if slug not in self._sources:
                self._sources[slug] = source_strings(game)
        return self._texts[slug, locale], self._sources[slug]

    def text(self, lookup: tuple) -> str | None:
        """The text the lookup gives now; None when it cannot be asked again (the key is gone)."""
        slug, locale, op, key, *rest = lookup
        if slug not in self.games:
            return None
        texts, sources = self._lookup(slug, locale)
        source = sources.get(key)
        if texts is None or source is None:
            return None
        if op == "get" and isinstance(source, str):
            return texts.get(key, source)
        if op == "plural" and isinstance(source, dict):
            return texts.plural(key, source, rest[0])
        return None


def extract(game: Game, notes: dict[str, list[str]] | None = None) -> list[Entry]:
    """Every translatable string of the game, in file order, with `notes` for translators by
    key (layout.faces.translator_notes: where a card string is printed, how much room it has)."""
    notes = notes or {}
    # A string with no letters ("42", "×") reads the same in every language.
    entries = [e for e in every_text(game) if isinstance(e.source, dict) or any(ch.isalpha() for ch in e.source)]
    for entry in entries:
        entry.notes += notes.get(entry.key, [])
        if isinstance(entry.source, dict):
            entry.notes.append("Plural phrase: {n} is replaced by the number; give every plural form of your language.")
        found = PLACEHOLDER.findall(entry.msgid) if isinstance(entry.msgid, str) else []
        if found:
            # a phrase's case is the source language's: the translation takes its own
            shown = ("{" + name + (f"|{phrase.partition(CASE)[0]}" if phrase else "") + "}" for name, phrase in found)
            entry.notes.append("Keep the placeholders " + " ".join(dict.fromkeys(shown)) +
                               ": they are filled with numbers from the component data.")
            if any(CASE in phrase for _, phrase in found):
                entry.notes.append("A plural phrase takes the case your sentence needs: {x|phrase:case}, "
                                   "where booklet.yaml phrase_cases gives that case.")
        icons = icon_names(entry.msgid) if isinstance(entry.msgid, str) else []
        if icons:
            entry.notes.append("Keep the icons " + " ".join(dict.fromkeys(f":{name}:" for name in icons)) +
                               ": each is drawn as a picture where it stands.")
    return entries


def _walk(node, path, entries, data_path, *, under_labels=False):
    if isinstance(node, Located):
        for key, value in node.items():
            here = path + (key,)
            if isinstance(value, str):
                if key in translatable_keys() or under_labels:
                    entries.append(Entry(".".join(map(str, here)), value, node.file, node.line_of(key),
                                         data_path=data_path + (key,)))
            else:
                _walk(value, here, entries, data_path + (key,),
                      under_labels=(key == "labels" and not path) or key in translatable_maps())


def _walk_booklet(node, path, entries, data_path):
    if isinstance(node, Located):
        if path[-1:] == ("phrases",) or path[-2:-1] == ("phrase_cases",):
            for key, forms in node.items():
                entries.append(Entry(".".join(path + (key,)), dict(forms), node.file, node.line_of(key),
                                     data_path=data_path + (key,)))
            return
        for key, value in node.items():
            if key in BOOKLET_SETTINGS or (path[1:2] == ("decisions",) and key in DECISION_RECORD):
                continue
            here = path + (key,)
            if isinstance(value, str):
                entries.append(Entry(".".join(map(str, here)), value, node.file, node.line_of(key),
                                     data_path=data_path + (key,)))
            else:
                _walk_booklet(value, here, entries, data_path + (key,))
    elif isinstance(node, LocatedList):
        for index, value in enumerate(node):
            # Sections are named by id, so inserting one does not renumber the rest.
            step = value["id"] if isinstance(value, Located) and "id" in value else index
            here = path + (step,)
            if isinstance(value, str):
                entries.append(Entry(".".join(map(str, here)), value, node.file, node.line_of(index),
                                     data_path=data_path + (index,)))
            else:
                _walk_booklet(value, here, entries, data_path + (index,))


# ---- catalogs -----------------------------------------------------------------------------

def template_path(game: Game) -> Path:
    return game.folder / "locales" / "messages.pot"


def _new_catalog(game: Game, locale: str | None) -> Catalog:
    return _catalog(game.slug, f"components/{game.slug}/", locale)


def _catalog(domain: str, source: str, locale: str | None) -> Catalog:
    """An empty catalog (or template) with a fixed date, so unchanged strings give unchanged files."""
    what = f"{locale} translation" if locale else "Translation template"
    header = (f"# {what} of {domain}, made by `pnp i18n extract` from {source}.\n"
              f"# msgctxt is the key path of each string in the YAML; keep every {{placeholder}}.")
    return Catalog(locale=locale, domain=domain, project=domain, version="1",
                   header_comment=header, msgid_bugs_address="",
                   creation_date=FIXED_DATE, revision_date=FIXED_DATE, fuzzy=False,
                   language_team=locale or "", last_translator="", charset="utf-8")


def make_template(game: Game, notes: dict[str, list[str]]) -> Catalog:
    catalog = _new_catalog(game, None)
    for entry in extract(game, notes):
        catalog.add(entry.msgid, context=entry.key, auto_comments=entry.notes,
                    locations=[(_reference(entry), entry.line)])
    return catalog


def _reference(entry: Entry) -> str:
    """Where a translator finds the string: its file, and for a spreadsheet's cell its row too
    (a catalog names no lines of a YAML file, which move as it is edited; a card's row in its
    spreadsheet is where the designer looks for it)."""
    return f"{entry.file}:{int(entry.line)}" if isinstance(entry.line, Cell) else entry.file


# decided: catalogs are written as GNU gettext writes them (msgmerge, msgcat: lines of at most
# 79 columns, broken where libunistring breaks them, comments not wrapped), so a catalog a
# translator ran through msgmerge is written back byte for byte and not rewrapped to and fro.
# Babel's own wrapping breaks before spaces and at other places, at any width.
PO_WIDTH = 79
UNWRAPPED = 10**6          # a width no line of a catalog reaches: Babel wraps nothing
_FIELD = re.compile(r'^(?P<prefix>#[|~] |)(?P<keyword>msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?) "(?P<text>.*)"$')
_MORE = re.compile(r'^(?P<prefix>#[|~] |)"(?P<text>.*)"$')
_ESCAPED = re.compile(r'\\.|[^\\]')          # an escape sequence, or one character
# Where gettext may break a line, as far as catalogs need it: after spaces; after a hyphen, a
# period or a bar that a letter follows; after a dash that no space follows.
_WORD = re.compile(r'(?:\\.|[^ \\\-.|\u2013\u2014]|[-.|]+(?![^\W\d_])|[\u2013\u2014](?![^ ]))*'
                   r'(?:[-.|]+| +|[\u2013\u2014]|$)')


def _columns(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def _portions(escaped: str) -> list[str]:
    """An escaped string cut after each escaped newline, as gettext starts a line there."""
    portions, current = [], ""
    for piece in _ESCAPED.findall(escaped):
        current += piece
        if piece == "\\n":
            portions.append(current)
            current = ""
    return portions + [current] if current or not portions else portions


def _broken(portion: str, width: int) -> list[str]:
    """The portion in lines of at most `width` columns (a word longer than that alone)."""
    lines, line = [], ""
    for word in filter(None, _WORD.findall(portion)):
        if line and _columns(line + word) > width:
            lines.append(line)
            line = word
        else:
            line += word
    return lines + [line]


def _field_lines(prefix: str, keyword: str, escaped: str) -> list[str]:
    """`keyword "text"` on one line when it fits and has no newline inside; else `keyword ""`
    and the text in lines of at most PO_WIDTH columns."""
    portions = _portions(escaped)
    head = f"{prefix}{keyword} "
    if len(portions) == 1 and _columns(head) + 2 + _columns(escaped) <= PO_WIDTH:
        return [f'{head}"{escaped}"']
    width = PO_WIDTH - 2 - _columns(prefix)
    return [f'{head}""'] + [f'{prefix}"{line}"' for portion in portions for line in _broken(portion, width)]


def gettext_wrapped(text: str) -> str:
    """PO text with every string (msgctxt, msgid, msgstr, a previous `#|` msgid) wrapped as
    GNU gettext wraps it; comments as they are."""
    lines, out, index = text.split("\n"), [], 0
    while index < len(lines):
        field = _FIELD.match(lines[index])
        index += 1
        if not field:
            out.append(lines[index - 1])
            continue
        escaped = field["text"]
        while index < len(lines) and (more := _MORE.match(lines[index])) and more["prefix"] == field["prefix"]:
            escaped += more["text"]
            index += 1
        out += _field_lines(field["prefix"], field["keyword"], escaped)
    return "\n".join(out).rstrip("\n") + "\n"


# The header's fields in the order msgmerge writes them; Babel's `Generated-By` (its version,
# which would rewrite every catalog when Babel is upgraded) is left out.
HEADER_ORDER = ("Project-Id-Version", "Report-Msgid-Bugs-To", "POT-Creation-Date", "PO-Revision-Date",
                "Last-Translator", "Language-Team", "Language", "MIME-Version", "Content-Type",
                "Content-Transfer-Encoding", "Plural-Forms")


def _gettext_header(text: str) -> str:
    """Babel's unwrapped header entry with its fields as msgmerge writes them."""
    lines = text.split("\n")
    start = lines.index('msgstr ""') + 1
    end = lines.index("", start)
    fields = {line[1:].split(":", 1)[0]: line.replace("charset=utf-8", "charset=UTF-8") for line in lines[start:end]}
    ordered = [fields[name] for name in HEADER_ORDER if name in fields]
    return "\n".join(lines[:start] + ordered + lines[end:])


def serialise(catalog: Catalog) -> bytes:
    """The catalog as a PO file: Babel writes it unwrapped (references without line numbers,
    which would go stale whenever the YAML above a string moves), then the header and the
    wrapping as gettext's tools write them."""
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=UNWRAPPED, include_previous=True, include_lineno=False, sort_output=False)
    return gettext_wrapped(_gettext_header(buffer.getvalue().decode("utf-8"))).encode("utf-8")


@dataclass
class MergeResult:
    locale: str
    new: int = 0
    changed: int = 0
    removed: int = 0


def _merged(template: Catalog, old: Catalog | None, locale: str, catalog: Catalog) -> tuple[Catalog, MergeResult]:
    """The locale's catalog brought in line with the template: translations kept, changed
    sources marked fuzzy (previous source kept), new strings empty, gone strings dropped."""
    old_by_key = {m.context: m for m in old if m.id} if old is not None else {}
    result = MergeResult(locale)
    for message in template:
        if not message.id:
            continue
        previous = old_by_key.pop(message.context, None)
        before, comments = _previous_source(previous) if previous else ([], ())
        merged = Message(message.id, context=message.context, auto_comments=message.auto_comments,
                         locations=message.locations, user_comments=comments)
        if previous is None or not _any_text(previous.string):
            result.new += previous is None
        else:
            merged.string = _reshape(previous.string, message.id, locale)
            if previous.fuzzy:
                merged.flags.add("fuzzy")
                merged.previous_id = before or previous.previous_id
            if _same(previous.id) != _same(message.id):
                result.changed += 1
                merged.flags.add("fuzzy")
                merged.previous_id = previous.id if isinstance(previous.id, (list, tuple)) else [previous.id]
        catalog[message.id] = merged
    result.removed = len(old_by_key)
    return catalog, result


_PREVIOUS = re.compile(r'^\|\s*(?:(?P<keyword>msgctxt|msgid|msgid_plural)\s+)?"(?P<text>.*)"$')


def _previous_source(message: Message) -> tuple[list[str], list[str]]:
    """The previous source of a fuzzy entry (its `#| msgid` lines), and its translator's own
    comments. Babel reads `#|` lines as comments (they come last, after the translator's):
    taken back here, they are written as `#|` again, not as comments that pile up and break
    with every extract; what is not a previous msgid in gettext's form is dropped."""
    comments = list(message.user_comments)
    start = next((index for index, comment in enumerate(comments) if comment.startswith("|")), len(comments))
    forms: dict[str, str] = {}
    keyword = None
    for comment in comments[start:]:
        line = _PREVIOUS.match(comment)
        keyword = line and (line["keyword"] or keyword)
        if not keyword:
            return [], comments[:start]
        forms[keyword] = forms.get(keyword, "") + unescape(f'"{line["text"]}"')
    return [forms[key] for key in ("msgid", "msgid_plural") if key in forms], comments[:start]


def _reshape(string, msgid, locale):
    """Keep a translation's forms, sized to what the entry is (plural or not)."""
    plural = isinstance(msgid, (list, tuple))
    if plural:
        forms = list(string) if isinstance(string, (list, tuple)) else [string or ""]
        count = get_plural(locale).num_plurals
        return tuple((forms + [""] * count)[:count])
    if isinstance(string, (list, tuple)):
        return string[0] if string else ""
    return string or ""


@dataclass
class Extraction:
    """The files `pnp i18n extract` writes for a game (or the tool), and what stops it: a
    catalog that cannot be read cleanly is not rewritten, as its translations would be lost."""
    files: list[tuple[Path, bytes]] = field(default_factory=list)
    results: list[MergeResult] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def add(self, path: Path, template: Catalog, old: tuple[Catalog | None, list[Problem]],
            locale: str, catalog: Catalog) -> None:
        """The catalog at `path`: `old` (as read, with its problems) merged into the empty `catalog`."""
        merged, result = _merged(template, old[0], locale, catalog)
        self.files.append((path, serialise(merged)))
        self.results.append(result)
        self.problems += old[1]


def extract_game(game: Game, notes: dict[str, list[str]]) -> Extraction:
    """messages.pot, with `notes` for translators by key, and every non-source locale's catalog
    merged with it."""
    template = make_template(game, notes)
    extraction = Extraction([(template_path(game), serialise(template))])
    for locale in game.locales:
        if locale != game.source_locale:
            extraction.add(catalog_path(game, locale), template, game_catalog(game, locale), locale,
                           _new_catalog(game, locale))
    return extraction


def write_extractions(extractions: list[Extraction], root: Path) -> None:
    """Every file of every extraction into the project at `root`, or none when a catalog stops
    one of them or a path leads out of the project (a linked locales/ folder)."""
    problems = [problem for extraction in extractions for problem in extraction.problems]
    if problems:
        raise DataError(problems)
    write_inside([file for extraction in extractions for file in extraction.files], [root], shown=relative_to(root))


# ---- checks and status --------------------------------------------------------------------

@dataclass
class Status:
    game: str
    locale: str
    strings: dict = field(default_factory=lambda: {"translated": 0, "fuzzy": 0, "untranslated": 0})
    words: dict = field(default_factory=lambda: {"translated": 0, "fuzzy": 0, "untranslated": 0})
    problems: list = field(default_factory=list)
    source: bool = False
    released: bool = False

    @property
    def total(self) -> int:
        return sum(self.strings.values())

    @property
    def percent(self) -> float:
        return 100.0 * self.strings["translated"] / self.total if self.total else 100.0

    def to_json(self) -> dict:
        total_words = sum(self.words.values())
        return {"game": self.game, "locale": self.locale, "source": self.source,
                "released": self.released, "strings": dict(self.strings, total=self.total),
                "words": dict(self.words, total=total_words),
                "percent": round(self.percent, 1),
                "words_percent": round(100.0 * self.words["translated"] / total_words, 1) if total_words else 100.0,
                "problems": [str(p) for p in self.problems]}


def _words(msgid) -> int:
    text = msgid if isinstance(msgid, str) else " ".join(msgid)
    return len(WORD.findall(re.sub(r"\{[^}]*\}", "", text)))


def catalog_status(game: Game, locale: str) -> Status:
    """Counts and failing checks for one locale against the current YAML."""
    status = Status(game.slug, locale, source=locale == game.source_locale,
                    released=locale in game.locales and not game.is_draft(locale))
    entries = extract(game)
    if status.source:
        status.strings["translated"] = len(entries)
        status.words["translated"] = sum(_words(e.msgid) for e in entries)
        status.problems = glyph_problems(locale, [(e.file, e.line, e.key, e.msgid) for e in entries])
        for e in entries:
            status.problems += typography.text_problems(e.file, e.line, e.key, e.msgid, locale)
        status.problems += glossary_problems(game, locale, [(e.file, e.line, e.key, e.msgid) for e in entries])
        return status
    display = catalog_display(game, locale)
    catalog, status.problems = game_catalog(game, locale)
    by_key = messages_by_key(catalog)
    translated, unfinished = [], []
    for entry in entries:
        message = by_key.get(entry.key)
        words = _words(entry.msgid)
        if message is not None and isinstance(entry.msgid, tuple) and _any_text(message.string) \
                and not _complete(message.string):
            empty = [i for i, form in enumerate(message.string) if not form]
            status.problems.append(Problem(display, message.lineno or 0, entry.key,
                                           f"plural form msgstr[{empty[0]}] is empty, {locale} needs "
                                           f"{get_plural(locale).num_plurals} forms"))
        if message is None or not _complete(message.string):
            state = "untranslated"
        elif _same(message.id) != _same(entry.msgid):
            state = "fuzzy"          # the source changed since this was translated
        elif message.fuzzy:
            state = "fuzzy"
        else:
            state = "translated"
            translated.append((display, message.lineno or 0, entry.key, message.string))
            status.problems += _check_message(display, message, entry, locale)
            status.problems += _unknown_phrases(game, display, message, entry)
        if state != "translated":
            unfinished.append(_unfinished(display, locale, entry, message))
        status.strings[state] += 1
        status.words[state] += words
    status.problems += glyph_problems(locale, translated)
    status.problems += glossary_problems(game, locale, translated)
    if status.released and not has_catalog(catalog_path(game, locale)):
        status.problems.append(Problem(display, 0, "", f"locale '{locale}' is released but has no catalog "
                                                      "(run pnp i18n extract, then translate it)"))
    elif status.released and catalog is not None and unfinished:
        # Each string is named where the translator finds it; a catalog that cannot be read is
        # named once, above, not once per string.
        status.problems += [problem for problem in unfinished if problem is not None]
        status.problems.append(Problem(display, 0, "", f"locale '{locale}' is released but {len(unfinished)} of "
                                                      f"{len(entries)} strings are not translated (or fuzzy)"))
    return status


def _unfinished(display: str, locale: str, entry: Entry, message: Message | None) -> Problem | None:
    """Where a released locale's string lacks its translation, and what to do about it."""
    if message is None:
        return Problem(entry.file, entry.line, entry.key, f"no entry in locales/{locale}.po (run pnp i18n extract)")
    where = (display, message.lineno or 0, entry.key)
    if not _any_text(message.string):
        return Problem(*where, "not translated")
    if not _complete(message.string):
        return None              # named above, by the form that is empty
    if _same(message.id) != _same(entry.msgid):
        return Problem(*where, "translated from an earlier source text (run pnp i18n extract, then review it)")
    return Problem(*where, "marked fuzzy: review the translation, then remove the fuzzy flag")


def _any_text(string) -> bool:
    return any(string) if isinstance(string, (list, tuple)) else bool(string)


def _same(msgid):
    return tuple(msgid) if isinstance(msgid, (list, tuple)) else msgid


def _complete(string) -> bool:
    if isinstance(string, (list, tuple)):
        return bool(string) and all(string)
    return bool(string)


def _unknown_phrases(game: Game, display: str, message: Message, entry: Entry) -> list[Problem]:
    """A translation's plural phrases the booklet does not have (a case it needs that
    booklet.yaml phrase_cases does not give yet)."""
    if not isinstance(message.string, str):
        return []
    texts, problems = Texts(game, game.source_locale), []
    for name, phrase in PLACEHOLDER.findall(message.string):
        if phrase and typography.ordinal_form(phrase) is None and texts.phrase_forms(phrase) is None:
            where = "phrase_cases" if CASE in phrase else "phrases"
            problems.append(Problem(display, message.lineno or 0, entry.key,
                                    f"no plural phrase '{phrase}' in booklet.yaml {where}"))
    return problems


def _check_message(display: str, message: Message, entry: Entry, locale: str) -> list[Problem]:
    problems = []
    where = (display, message.lineno or 0, entry.key)
    if isinstance(entry.msgid, tuple):
        forms = list(message.string) if isinstance(message.string, (list, tuple)) else [message.string]
        expected = get_plural(locale).num_plurals
        if len(forms) > expected:
            problems.append(Problem(*where, f"{len(forms)} plural forms, {locale} needs {expected}"))
        for index, form in enumerate(forms[:expected]):
            if form and "{n}" not in form:
                problems.append(Problem(*where, f"plural form {shown(form)} lacks the placeholder {{n}}"))
    else:
        source_ph, target_ph = placeholders(entry.msgid), placeholders(message.string)
        if source_ph != target_ph:
            missing = sorted(set(source_ph) - set(target_ph))
            extra = sorted(set(target_ph) - set(source_ph))
            detail = "; ".join(filter(None, [f"missing {' '.join(missing)}" if missing else "",
                                             f"unknown {' '.join(extra)}" if extra else ""]))
            problems.append(Problem(*where, f"placeholders differ from the source ({detail or 'count differs'})"))
        icons = icons_differ(entry.msgid, message.string) if message.string else ""
        if icons:
            problems.append(Problem(*where, f"icons differ from the source ({icons})"))
    problems += typography.text_problems(*where, message.string, locale)
    return problems


def glyph_problems(locale: str, strings) -> list[Problem]:
    """Characters the shipped text fonts cannot draw, in (file, line, key, string) strings."""
    problems = []
    for file, line, key, string in strings:
        text = " ".join(string) if isinstance(string, (list, tuple)) else string
        missing = fonts.missing_glyphs(text)
        if missing:
            problems.append(Problem(file, line, key,
                                    f"[{locale}] no glyph in the shipped fonts for {shown(''.join(sorted(missing)))}"))
    return problems


def _avoided(phrase: str) -> re.Pattern:
    """A glossary's avoided phrase as a pattern: each word the start of a word, case ignored."""
    words = r"\s+".join(re.escape(word) + r"[^\W\d_]*" for word in phrase.split())
    return re.compile(rf"(?<![^\W\d_]){words}", re.IGNORECASE)


def glossary_problems(game: Game, locale: str, strings) -> list[Problem]:
    """Texts of `locale` that say for a concept of the game's glossary (glossary.yaml) what the
    glossary says to avoid, in (file, line, key, string) strings."""
    glossary = (game.files.get("glossary") or {}).get("glossary") or {}
    avoided = [(concept, entry["term"].get(locale), phrase, _avoided(phrase))
               for concept, entry in glossary.items() for phrase in (entry.get("avoid") or {}).get(locale, ())]
    problems = []
    for file, line, key, string in strings:
        text = " ".join(string) if isinstance(string, (list, tuple)) else string
        for concept, term, phrase, pattern in avoided:
            found = pattern.search(text)
            if found:
                instead = f", the glossary's term is {term!r}" if term else ""
                problems.append(Problem(file, line, key, f"[{locale}] glossary: {found.group()!r} for "
                                                         f"{concept}{instead} (avoid {phrase!r})"))
    return problems


def check_translations(game: Game, locales=None) -> list[Problem]:
    """Validation: every catalog's failing checks, for every declared locale (or those given)."""
    problems = []
    for locale in locales or game.locales:
        problems += catalog_status(game, locale).problems
    return problems


# Quotation marks a source text may put around a card's name (bg/cs „“, uk/ru «», en “” "").
QUOTES = (("„", "“"), ("«", "»"), ("“", "”"), ('"', '"'), ("‚", "‘"))


def glossary_warnings(game: Game, locale: str) -> list[str]:
    """A card name quoted in another string should be quoted in its translated form there too."""
    if locale == game.source_locale:
        return []
    texts = Texts.load(game, locale)
    names = {}
    for card_id, card in (game.files.get("cards") or {}).get("cards", {}).items():
        translated = texts.get(f"cards.{card_id}.name", card["name"])
        if translated != card["name"]:
            names[card["name"]] = translated
    warnings = []
    for entry in extract(game):
        if not isinstance(entry.source, str) or entry.key.startswith("cards."):
            continue
        target = texts.get(entry.key, entry.source)
        if target == entry.source:
            continue
        for source_name, translated_name in names.items():
            quoted = any(f"{opening}{source_name}{closing}" in entry.source for opening, closing in QUOTES)
            # A name may lose its closing "!" or "?" inside a sentence; the rest must be there.
            if quoted and translated_name.rstrip("!?.") not in target:
                warnings.append(f"{entry.key}: quotes the card „{source_name}“, but the translation "
                                f"does not contain its name {shown(translated_name)}")
    return warnings


def check_placeholder_names(game: Game) -> list[Problem]:
    """Every placeholder in the source names a number the data has, in every edition."""
    problems = []
    texts = Texts(game, game.source_locale)
    for edition in game.editions:
        values = numbers(game, edition)
        for entry in extract(game):
            # Plural phrases have only {n}, the number they are given.
            sources = [f.replace("{n}", "") for f in entry.source.values()] \
                if isinstance(entry.source, dict) else [entry.source]
            for source in sources:
                try:
                    texts.fill(source, values)
                except KeyError as exc:
                    problems.append(Problem(entry.file, entry.line, entry.key,
                                            f"unknown placeholder {exc.args[0]!r} (edition {edition})"))
    return problems


# ---- the tool's own words -----------------------------------------------------------------
# Sheets such as the duplex calibration page print instructions of the tool itself, not of a
# game. Their English source is the `text:` of templates/sheets/*.yaml; translations live in
# templates/locales/<lang>.po, made and counted by the same commands as a game's catalogs.

TOOL_SOURCE_LOCALE = "en"


def tool_entries(project) -> list[Entry]:
    """The sheets' words, from whichever template of each sheet the project uses."""
    from ..core.yamlfile import load_yaml
    entries: list[Entry] = []
    names = sorted({path.stem for folder in project.template_dirs for path in (folder / "sheets").glob("*.yaml")})
    for name in names:
        path = project.template(f"sheets/{name}.yaml")
        data, _ = load_yaml(path, project.display(path))
        if isinstance(data, Located) and isinstance(data.get("text"), Located):
            _walk_booklet(data["text"], ("sheets", name, "text"), entries, ("text",))
    return entries


def tool_locales(project) -> list[str]:
    """Every locale a game of the project ships in, and every one the tool has a catalog for."""
    locales = {path.stem for path in (TOOL_TEMPLATES / "locales").glob("*.po")}
    for slug in project.game_slugs():
        game, problems = project.load_game(slug)
        if not problems and isinstance(game.meta.get("locales"), dict):
            locales.update(game.meta["locales"])
    return sorted(locales - {TOOL_SOURCE_LOCALE})


def tool_catalog_path(project, locale: str) -> Path:
    """The project's own catalog of the tool's words if it has one, else the tool's."""
    for folder in project.template_dirs:
        candidate = folder / "locales" / f"{locale}.po"
        if has_catalog(candidate):
            return candidate
    return TOOL_TEMPLATES / "locales" / f"{locale}.po"


def tool_catalog(project, locale: str, path: Path | None = None) -> tuple[Catalog | None, list[Problem]]:
    """The catalog of the tool's words in `locale` the project uses (or the one at `path`)."""
    path = path or tool_catalog_path(project, locale)
    if not has_catalog(path):
        return None, []
    return read_catalog(path, locale, [project.root, TOOL_TEMPLATES], project.display(path))


def owns_tool_catalogs(project) -> bool:
    """Only the tool's own project extracts into the tool's catalogs; a designer's project
    uses them (or its own templates/locales/, kept by hand)."""
    return project.template_dirs[0].resolve() == TOOL_TEMPLATES.resolve()


def extract_tool(project) -> Extraction:
    """templates/locales/messages.pot and the tool's catalogs, like a game's."""
    folder = TOOL_TEMPLATES / "locales"
    source = "templates/sheets/ (the tool's own words)"
    template = _catalog("pnp", source, None)
    for entry in tool_entries(project):
        template.add(entry.msgid, context=entry.key, locations=[(entry.file, entry.line)])
    extraction = Extraction([(folder / "messages.pot", serialise(template))])
    for locale in tool_locales(project):
        path = folder / f"{locale}.po"
        extraction.add(path, template, tool_catalog(project, locale, path), locale, _catalog("pnp", source, locale))
    return extraction


def tool_text(project, locale: str, key: str, source: str) -> str:
    """A tool string in `locale`, or its English source while untranslated."""
    message = _tool_message(project, locale, key, source)
    return typography.apply(source if message is None else message.string, locale)


def tool_plural(project, locale: str, key: str, forms: dict, n: int, shown: str | None = None) -> str:
    """A tool's plural phrase (`forms`: the English {one: ..., other: ...}, `{n}` in each) for
    n in `locale`: the catalog's form for n, or the English one while untranslated; n written
    as `shown` when given (the number as the caller formats it), else plainly."""
    source = Entry(key, dict(forms), "", 0).msgid
    message = None
    if locale != TOOL_SOURCE_LOCALE:
        path = tool_catalog_path(project, locale)
        if path not in _tool_catalogs:
            _tool_catalogs[path] = messages_by_key(tool_catalog(project, locale)[0])
        message = _tool_catalogs[path].get(key)
    strings = message.string if message is not None and not message.fuzzy else None
    if isinstance(strings, (tuple, list)) and all(strings) and tuple(message.id) == source:
        text = strings[min(plural_index(locale, n), len(strings) - 1)]
    else:
        text = source[0] if n == 1 else source[1]
    return typography.apply(text, locale).replace("{n}", typography.number(n, locale) if shown is None else shown)


def tool_text_place(project, locale: str, key: str, source: str,
                    source_place: tuple[str, int, str]) -> tuple[str, int, str]:
    """(file, line, key) of the words `tool_text` gives: their catalog entry, or `source_place`
    (the English source's) while untranslated."""
    message = _tool_message(project, locale, key, source)
    if message is None:
        return source_place
    return project.display(tool_catalog_path(project, locale)), message.lineno or 0, key


def _tool_message(project, locale: str, key: str, source: str):
    """The catalog entry that translates a tool string in `locale`, or None while its English
    source prints (the source locale, no entry, a fuzzy or empty one, or one of older words)."""
    if locale == TOOL_SOURCE_LOCALE:
        return None
    path = tool_catalog_path(project, locale)
    if path not in _tool_catalogs:
        _tool_catalogs[path] = messages_by_key(tool_catalog(project, locale)[0])
    message = _tool_catalogs[path].get(key)
    if message is None or message.fuzzy or not message.string or message.id != source:
        return None
    return message


_tool_catalogs: dict = {}


def tool_status(project) -> list[Status]:
    """Status rows for the tool's catalogs (never released/draft: untranslated falls back to English)."""
    entries = tool_entries(project)
    # The tool's own English, held to the typography its translations are held to.
    source = Status("(tool)", TOOL_SOURCE_LOCALE, source=True)
    source.strings["translated"] = len(entries)
    source.words["translated"] = sum(_words(e.msgid) for e in entries)
    for e in entries:
        source.problems += typography.text_problems(e.file, e.line, e.key, e.msgid, TOOL_SOURCE_LOCALE)
    rows = [source]
    for locale in tool_locales(project):
        status = Status("(tool)", locale)
        path = tool_catalog_path(project, locale)
        catalog, status.problems = tool_catalog(project, locale)
        by_key = messages_by_key(catalog)
        display = project.display(path)
        for entry in entries:
            message = by_key.get(entry.key)
            words = _words(entry.msgid)
            if message is None or not _complete(message.string):
                state = "untranslated"
            elif message.fuzzy or _same(message.id) != _same(entry.msgid):
                state = "fuzzy"
            else:
                state = "translated"
                status.problems += _check_message(display, message, entry, locale)
            status.strings[state] += 1
            status.words[state] += words
        rows.append(status)
    return rows
