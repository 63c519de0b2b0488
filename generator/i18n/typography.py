"""Locale typography: which words stay on one line, the minus sign, the apostrophe, ordinals.

The rules are data: templates/locales/typography/common.yaml for every locale and
<locale>.yaml for one (its keys replace the common ones). `apply` binds words with no-break
characters in every printed text: Texts.get and Texts.plural give texts through it, so
cards, boards, tokens, booklets and the tool's own sheets all print them bound. `problems`
names what a text breaks that binding cannot mend (an ASCII apostrophe where the locale
writes ’, a dash for a minus, an ordinal suffix typed after a placeholder): pnp validate and
pnp i18n status report it at the catalog's (or the YAML's) line.

Characters used, all in the shipped text fonts except the minus sign (which the booklet and
the card renderer draw from Noto Sans Math, generator/core/fonts.py FALLBACK):
U+00A0 no-break space (between words), U+2011 no-break hyphen (in "8‑ото"), U+2060 word
joiner (before a dash set close, "types—plus"), U+2212 minus.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from babel.numbers import format_percent

from ..core.errors import Problem
from ..core.schema import schema_problems
from ..core.yamlfile import load_yaml
from ..load.project import TOOL_TEMPLATES


NBSP = "\u00a0"
NB_HYPHEN = "\u2011"
WORD_JOINER = "\u2060"
# A range written in code, "1–19", "49–55 %": an en dash no line breaks at, before or after.
RANGE_DASH = f"{WORD_JOINER}\u2013{WORD_JOINER}"
MINUS = "\u2212"
RULES_FOLDER = TOOL_TEMPLATES / "locales" / "typography"
COMMON = "common"
ORDINAL = "ordinal"            # the placeholder phrase: {name|ordinal}, {name|ordinal_<form>}

# The schema of a rules file (checked like every YAML file the tool reads).
SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "bind_numbers": {"type": "boolean"},
        "operators": {"type": "string"},
        "dashes": {"type": "string", "minLength": 1},
        "minus": {"type": "string", "minLength": 1, "maxLength": 1},
        "signs": {"type": "string"},
        "bind_to_next": {"type": "array", "items": {"type": "string", "pattern": r"^\w+$"}, "uniqueItems": True},
        "apostrophe": {"type": "string", "maxLength": 1},
        "clause_dash": {"type": "string", "minLength": 1, "maxLength": 1},
        "quotes": {"type": "string", "minLength": 2, "maxLength": 2},
        "bind_labels": {"type": "boolean"},
        "hyphenation": {
            "type": "object", "additionalProperties": False,
            "properties": {
                # the patterns a booklet is hyphenated with, when not the locale's own ("en-US")
                "patterns": {"type": "string", "pattern": "^[a-z]{2}(-[A-Z]{2})?$"},
                # words the patterns break in the wrong place, each with its breaks as hyphens
                "words": {"type": "array", "items": {"type": "string", "pattern": r"^\w+(-\w+)*$"},
                          "uniqueItems": True},
            }},
        "ordinals": {
            "type": "object", "additionalProperties": False, "required": ["default", "rules"],
            "properties": {
                "default": {"type": "string", "pattern": "^[a-z_]+$"},
                "rules": {"type": "array", "minItems": 1, "items": {
                    "type": "object", "additionalProperties": False, "required": ["suffix"],
                    "properties": {
                        "when": {"type": "object", "additionalProperties": False, "required": ["mod", "in"],
                                 "properties": {"mod": {"type": "integer", "minimum": 2},
                                                "in": {"type": "array", "items": {"type": "integer", "minimum": 0}}}},
                        "suffix": {"type": "object", "minProperties": 1, "propertyNames": {"pattern": "^[a-z_]+$"},
                                   "additionalProperties": {"type": "string", "minLength": 1}},
                    }}},
            }},
    },
}

# A number as a text has it: a placeholder (filled with one) or digits.
NUMBER = r"(?:\{[a-z0-9_.@-]+(?:\|[a-z0-9_]+(?::[a-z_]+)?)?\}|\d+(?:[.,]\d+)*)"
# A number that a noun may follow: not a plural phrase's placeholder, which has its own noun.
BARE_NUMBER = r"(?:\{[a-z0-9_.@-]+(?:\|ordinal[a-z_]*)?\}|\d+(?:[.,]\d+)*)"
# A unit of short words on either side of a slash.
UNIT = re.compile(r"(?<![^\W\d_./:])([^\W\d_]{1,3})/([^\W\d_]{1,3}[²³]?)(?![^\W\d_])")
# A one-letter word after a word (a label's letter when it is a capital: "Team B").
LABEL = re.compile(r"(?<![\w-])([^\W\d_]{2,}) ([^\W\d_])(?![\w-])")
# What may close a clause after a number: the number is then bound to the word before it.
# an icon written inline in a text (generator/layout/inline_icons.py): ":sun:"
ICON_NAME = r":[a-z0-9][a-z0-9_-]*:"
CLAUSE_END = r"(?=[.,;:!?)\]»“”\"…]|\s[–—]|$)"


@dataclass(frozen=True)
class Rules:
    locale: str
    bind_numbers: bool
    operators: str
    dashes: str
    minus: str
    bind_to_next: tuple[str, ...]
    signs: str
    apostrophe: str
    ordinals: dict | None
    clause_dash: str                # the dash set between clauses, spaced; '' where either is written
    bind_labels: bool
    hyphenation: dict
    quotes: str                     # the opening and closing quotation marks; '' where unchecked
    file: str                       # where the locale's own rules are (or the common ones)

    @property
    def ordinal_forms(self) -> set[str]:
        if not self.ordinals:
            return set()
        return {form for rule in self.ordinals["rules"] for form in rule["suffix"]}

    @property
    def ordinal_suffixes(self) -> set[str]:
        if not self.ordinals:
            return set()
        return {suffix for rule in self.ordinals["rules"] for suffix in rule["suffix"].values()}


def _load(name: str) -> tuple[dict, list[Problem]]:
    path = RULES_FOLDER / f"{name}.yaml"
    display = f"templates/locales/typography/{name}.yaml"
    if not path.exists():
        return {}, []
    data, problems = load_yaml(path, display)
    if data is None:
        return {}, problems
    problems = schema_problems(SCHEMA, data, display)
    return (data if not problems else {}), problems


@lru_cache(maxsize=None)
def rules(locale: str) -> Rules:
    """The locale's rules: the common ones with the locale's own file over them."""
    common, _ = _load(COMMON)
    own, _ = _load(locale)
    merged = {**common, **own}
    return Rules(locale, bool(merged.get("bind_numbers", True)), str(merged.get("operators", "")),
                 str(merged.get("dashes", "–—")), str(merged.get("minus", MINUS)),
                 tuple(merged.get("bind_to_next", ())), str(merged.get("signs", "")), str(merged.get("apostrophe", "")),
                 _plain(merged.get("ordinals")), str(merged.get("clause_dash", "")), bool(merged.get("bind_labels", True)),
                 _plain(merged.get("hyphenation", {})), str(merged.get("quotes", "")),
                 f"templates/locales/typography/{locale if own else COMMON}.yaml")


def _plain(node):
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return node


def check_rules() -> list[Problem]:
    """Every rules file read and checked against the schema; an ordinal rule's forms agree."""
    problems = []
    for path in sorted(RULES_FOLDER.glob("*.yaml")):
        data, found = _load(path.stem)
        problems += found
        ordinals = data.get("ordinals") if isinstance(data, dict) else None
        if ordinals:
            for index, rule in enumerate(ordinals["rules"]):
                if ordinals["default"] not in rule["suffix"]:
                    problems.append(Problem(f"templates/locales/typography/{path.name}", getattr(rule["suffix"], "line", 0), f"ordinals.rules.{index}.suffix",
                                            f"no suffix for the default form '{ordinals['default']}'"))
    return problems


# ---- applying -----------------------------------------------------------------------------

@lru_cache(maxsize=65536)
def apply(text: str, locale: str) -> str:
    """`text` with the locale's words bound: the spaces that must not break a line made
    no-break spaces, the hyphen between a number and its ending a no-break hyphen."""
    if not text:
        return text
    r = rules(locale)
    if r.bind_to_next:
        words = "|".join(re.escape(w) for w in sorted(r.bind_to_next, key=len, reverse=True))
        # "a v Praze": each in turn, so the next one is bound too
        text = re.sub(rf"(?<![\w\-]){'(?:' + words + ')'}(?= \S)", lambda m: m.group(0) + "\0", text)
        text = text.replace("\0 ", NBSP)
    if r.signs:
        text = re.sub(rf"(?<=[{re.escape(r.signs)}]) (?=\S)", NBSP, text)          # "№ 12"
    if r.bind_numbers:
        # "4 клетки", "6 жетонов", "8 let"; a percent sign, a degree or an icon (":sun:", a
        # game's icons, written inline) after a number too: "2 :sun:" is a count of suns.
        text = re.sub(rf"({BARE_NUMBER}) (?=[^\W\d_]|[%‰°]|{ICON_NAME})", rf"\1{NBSP}", text)
        # "to space 4.", "до поле 12 – ..."
        text = re.sub(rf"(?<=[^\W\d_]) ({NUMBER}){CLAUSE_END}", rf"{NBSP}\1", text)
        # "8-ото", "{x}-ото": the ending stays with its number
        text = re.sub(r"(\d|\{[a-z0-9_.@-]+\})-(?=[^\W\d_])", rf"\1{NB_HYPHEN}", text)
    if r.dashes:
        dashes = re.escape(r.dashes)
        text = re.sub(rf" (?=[{dashes}](?:\s|$))", NBSP, text)          # no line starts with a dash
        text = re.sub(rf"(?<=[{dashes}]) (?={NUMBER})", NBSP, text)      # "Петър – 2"
        # "types—plus", "{x}—plus": a dash set close before a word is kept to what precedes it
        # (a range, "2–4", "{players.min}–{players.max}", is left as it is)
        text = re.sub(rf"(?<=[^\W_]|\}})(?=[{dashes}][^\W\d_])", WORD_JOINER, text)
        # a range, "160–250", "{min}–{max}", is never broken after its dash
        text = re.sub(rf"(?<=[\d}}])([{dashes}])(?=[\d{{])", rf"\1{WORD_JOINER}", text)
    # a unit, "g/m²", "км/ч", is not broken after its slash
    text = UNIT.sub(rf"\1/{WORD_JOINER}\2", text)
    if r.bind_labels:
        # a label's letter keeps to its word: "Team B", "Tým A", «Команда Б»
        text = LABEL.sub(lambda m: m.group(1) + NBSP + m.group(2) if m.group(2).isupper() else m.group(0), text)
    if r.operators:
        operators = re.escape(r.operators)
        text = re.sub(rf" ([{operators}]) ", rf"{NBSP}\1{NBSP}", text)    # "7 + 8 + 2 = 17"
        text = re.sub(rf" ([{operators}]) ", rf"{NBSP}\1{NBSP}", text)    # overlapping: "= 1 + 2"
    return text


def number(n: int, locale: str) -> str:
    """A whole number as printed: a negative one with the minus sign."""
    return f"{rules(locale).minus}{-n}" if n < 0 else str(n)


def ordinal(n: int, locale: str, form: str = "") -> str:
    """n as an ordinal in the locale ("8‑ото", "8.", "8th"). Raises KeyError for a form the
    locale's rules do not have, or a locale without ordinal rules."""
    r = rules(locale)
    if not r.ordinals:
        raise KeyError(f"{ORDINAL} (templates/locales/typography/{locale}.yaml has no ordinals)")
    form = form or r.ordinals["default"]
    for rule in r.ordinals["rules"]:
        when = rule.get("when")
        if when is None or n % when["mod"] in when["in"]:
            if form not in rule["suffix"]:
                raise KeyError(f"{ORDINAL}_{form} (ordinal forms in {locale}: {', '.join(sorted(r.ordinal_forms))})")
            return number(n, locale) + rule["suffix"][form].replace("-", NB_HYPHEN)
    raise KeyError(f"{ORDINAL} (no ordinal rule in {locale} for {n})")


def printed_ordinal(n: int, locale: str, form: str = "") -> str:
    """ordinal(), or where the locale lacks the form its default one, or the number where it
    has no ordinal rules: what a build prints (the checks name the text)."""
    r = rules(locale)
    if not r.ordinals:
        return number(n, locale)
    try:
        return ordinal(n, locale, form)
    except KeyError:
        return ordinal(n, locale)


def ordinal_form(phrase: str) -> str | None:
    """The ordinal form a placeholder's phrase asks for ('' for the default), or None when
    the phrase is no ordinal."""
    if phrase == ORDINAL:
        return ""
    if phrase.startswith(ORDINAL + "_"):
        return phrase[len(ORDINAL) + 1:]
    return None


# ---- checking -----------------------------------------------------------------------------

# A percentage typed after a number or a placeholder, with or without a space before the sign.
TYPED_PERCENT = re.compile(r"(?<=[\d}])([ \u00a0\u202f]?)%")
APOSTROPHES = "'ʼ`´"          # what is typed for an apostrophe instead of the locale's
# A dash or hyphen for a minus: at the start, or after a space or an opening bracket or quote.
DASH_MINUS = re.compile(r"(?:^|(?<=[\s(\[„«“\"/]))[–—‐‑-](?=\d|\{)")
BARE_PLACEHOLDER = re.compile(r"\{[a-z0-9_.@-]+\}")


TYPED_APOSTROPHE = re.compile(rf"(?<=[^\W\d_])[{re.escape(APOSTROPHES)}](?=[^\W\d_])")


@lru_cache(maxsize=256)
def _typed_ordinals(suffixes: tuple[str, ...]) -> tuple[tuple[str, re.Pattern], ...]:
    """(the suffix as typed, what finds it typed after a placeholder) of each ordinal suffix."""
    found = []
    for suffix in suffixes:
        plain = suffix.replace(NB_HYPHEN, "-")
        pattern = rf"{BARE_PLACEHOLDER.pattern}{re.escape(plain)}"
        # "{x}-о поле"; a full stop ("{x}. pole") only before a word that goes on the sentence
        follows = r"(?= [^\W\d_])" if plain == "." else r"(?![^\W\d_])"
        found.append((plain, re.compile(pattern + follows)))
    return tuple(found)


@lru_cache(maxsize=None)
def percent_spaced(locale: str) -> bool:
    """Whether the locale sets a space between a number and its percent sign (CLDR: "50 %")."""
    return not format_percent(0.5, locale=locale).endswith("50%")


def problems(text: str, locale: str) -> list[str]:
    """What a text (as written, placeholders unfilled) breaks of the locale's rules that binding
    cannot mend, each as a message; [] when it keeps them."""
    if not text:
        return []
    r = rules(locale)
    found = []
    if r.apostrophe:
        typed = TYPED_APOSTROPHE.search(text)
        if typed:
            word = re.search(rf"[^\W\d_]*{re.escape(typed.group())}[^\W\d_]*", text[max(0, typed.start() - 20):]).group()
            found.append(f"typography: write the apostrophe {r.apostrophe!r} (U+{ord(r.apostrophe):04X}), "
                         f"not {typed.group()!r}, as in {word!r}")
    if r.clause_dash:
        other = re.search(r"(?:^|(?<=\s))[–—‐-](?=\s)", text)
        if other and other.group() != r.clause_dash:
            around = text[max(0, other.start() - 12):other.end() + 12]
            found.append(f"typography: a dash between words is {r.clause_dash!r} (U+{ord(r.clause_dash):04X}) in "
                         f"{locale}, not {other.group()!r} (U+{ord(other.group()):04X}), as in {around!r}; "
                         f"a range is written closed, '2–4'")
    if r.quotes and '"' in text:
        at = text.index('"')
        found.append(f"typography: {locale} quotes with {r.quotes[0]}…{r.quotes[1]}, not a straight '\"', as in "
                     f"{text[max(0, at - 12):at + 12]!r}")
    typed_percent = TYPED_PERCENT.search(text)
    if typed_percent and bool(typed_percent.group(1)) != percent_spaced(locale):
        found.append(f"typography: {locale} writes a percentage as {format_percent(0.5, locale=locale)!r} (CLDR), "
                     f"not as in {text[max(0, typed_percent.start() - 4):typed_percent.end()]!r}")
    minus = DASH_MINUS.search(text)
    if minus:
        found.append(f"typography: a negative number takes the minus sign {r.minus!r} (U+{ord(r.minus):04X}), "
                     f"not {minus.group()!r} (U+{ord(minus.group()):04X}), as in "
                     f"{text[minus.start():minus.start() + 8]!r}")
    for plain, typed_after in _typed_ordinals(tuple(sorted(r.ordinal_suffixes, key=len, reverse=True))):
        typed = next((m for m in typed_after.finditer(text)
                      if plain != "." or text[m.end() + 1].islower()), None)
        if typed:
            name = typed.group()[:-len(plain)]
            found.append(f"typography: an ordinal typed after a placeholder ({typed.group()!r}): write "
                         f"{name[:-1]}|{ORDINAL}}} or {name[:-1]}|{ORDINAL}_<form>}} (forms: "
                         f"{', '.join(sorted(r.ordinal_forms))}), the locale's rule writes the ending")
            break
    for placeholder in re.finditer(r"\{[a-z0-9_.@-]+\|([a-z0-9_]+)\}", text):
        form = ordinal_form(placeholder.group(1))
        if form is not None and (not r.ordinals or (form and form not in r.ordinal_forms)):
            known = ", ".join(f"{ORDINAL}_{f}" for f in sorted(r.ordinal_forms)) or "none: the locale has no ordinal rules"
            found.append(f"typography: no ordinal form {placeholder.group(1)!r} in {locale} ({ORDINAL}, {known})")
    return found


def text_problems(file: str, line: int, key: str, strings, locale: str) -> list[Problem]:
    """Problems of one entry (a string, or a plural's forms) at its place."""
    texts = [strings] if isinstance(strings, str) else list(strings)
    messages = list(dict.fromkeys(m for text in texts if isinstance(text, str) for m in problems(text, locale)))
    return [Problem(file, line, key, f"[{locale}] {message}") for message in messages]


# ---- the booklet's layout -----------------------------------------------------------------

SOFT_HYPHEN = "\u00ad"
# A word is hyphenated only when it is at least this long, and never closer to either end
# (the booklet's CSS says the same to the patterns: hyphenate-limit-chars).
HYPHENATE_MIN_WORD, HYPHENATE_MIN_PART = 7, 3


def hyphenation_patterns(locale: str) -> str:
    """The language whose hyphenation patterns a booklet in `locale` is set with."""
    return rules(locale).hyphenation.get("patterns", locale)


@lru_cache(maxsize=None)
def _hyphenation_words(locale: str) -> dict[str, tuple[int, ...]]:
    """Each listed word (lower case) and where it may break, as letter counts from its start."""
    words = {}
    for written in rules(locale).hyphenation.get("words", ()):
        parts = written.split("-")
        word, breaks, at = "".join(parts), [], 0
        for part in parts[:-1]:
            at += len(part)
            if HYPHENATE_MIN_PART <= at <= len(word) - HYPHENATE_MIN_PART:
                breaks.append(at)
        words[word.lower()] = tuple(breaks)
    return words


def listed_words(text: str, locale: str) -> list[tuple[int, int]]:
    """(start, end) in `text` of each word the locale's hyphenation list names: a booklet sets
    each apart, with soft hyphens where it may break, or none where its list entry leaves no
    break three letters from either end ("по-тріб-на")."""
    words = _hyphenation_words(locale)
    if not text or not words:
        return []
    return [match.span() for match in re.finditer(r"[^\W\d_]+", text) if match.group(0).lower() in words]


def with_soft_hyphens(text: str, locale: str) -> str:
    """`text` with soft hyphens where the locale's listed words may break: a word that has one
    is broken only there (CSS Text 3: a conditional hyphen overrides the patterns)."""
    words = _hyphenation_words(locale)
    if not words or not text:
        return text

    def marked(match):
        word = match.group(0)
        breaks = words.get(word.lower())
        if not breaks:
            return word
        cuts = (0, *breaks, len(word))
        return SOFT_HYPHEN.join(word[a:b] for a, b in zip(cuts, cuts[1:]))
    return re.sub(r"[^\W\d_]+", marked, text)


def hyphenated_page_ends(document) -> list:
    """The elements whose text is hyphenated across a page break in a rendered WeasyPrint
    document: the last line on a page ends with the hyphenation character."""
    from weasyprint.formatting_structure import boxes
    found = []
    for page in document.pages:
        # The lowest line of the page's content (not its margin boxes: the page number).
        content = [child for child in page._page_box.children if not isinstance(child, boxes.MarginBox)]
        lines = [line for child in content for line in _line_boxes(child)]
        if not lines:
            continue
        last = max(lines, key=lambda line: line.position_y + line.height)
        texts = [box for box in _descendants(last) if hasattr(box, "text") and box.text]
        if not texts:
            continue
        end = texts[-1]
        character = end.style["hyphenate_character"]
        if character and end.text.endswith(character) and end.style["hyphens"] == "auto":
            element = getattr(last, "element", None)       # the paragraph (or item) the line is of
            if element is not None and element not in found:
                found.append(element)
    return found


def _line_boxes(box):
    from weasyprint.formatting_structure import boxes
    if isinstance(box, boxes.LineBox):
        yield box
        return
    for child in getattr(box, "children", ()):
        yield from _line_boxes(child)


def _descendants(box):
    for child in getattr(box, "children", ()):
        yield child
        yield from _descendants(child)
