"""Safe YAML loading that remembers where every key came from, within fixed limits.

Mappings load as `Located` dicts that know their file and the line of each key, so any later
stage can report `file:line: key.path: message`. Duplicate keys are errors, not silent overrides.

A data file is read through `files.read_bytes_inside` (no link out of the project, bounded
size), and while it is composed the loader counts every value, aliases counted as often as
they repeat, and how deep the values nest: a file past either limit is refused at the line
where it crosses it, before it costs memory or a deep recursion. What YAML's implicit types
become is decided below (docs/data-files.md).
"""
from __future__ import annotations

import math
import re
from pathlib import Path

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.events import AliasEvent
from yaml.nodes import ScalarNode
from yaml.resolver import Resolver

from .errors import Problem
from .files import read_bytes_inside


try:                                    # libyaml parses ten times faster; same events either way
    from yaml._yaml import CParser as _Parser
    # libyaml reads the text as UTF-8 and says where a character it refuses is in bytes; the
    # pure-Python reader says it in characters
    _OFFSETS_IN_BYTES = True
except ImportError:                     # pragma: no cover - PyYAML built without libyaml
    _OFFSETS_IN_BYTES = False
    from yaml.parser import Parser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _Parser(Reader, Scanner, Parser):
        def __init__(self, stream):
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            Parser.__init__(self)

# Values in one file, an alias counted once per value it repeats: the largest shipped file has
# under 1,000; 50,000 load in about a second.
MAX_NODES = 50_000
# Levels of nesting; shipped files reach 9. Far below Python's recursion limit.
MAX_DEPTH = 32
# How much of a token from the file a message may quote.
SHOWN_CHARS = 60

STR_TAG = "tag:yaml.org,2002:str"


def shown(text: str, limit: int = SHOWN_CHARS) -> str:
    """`text` cut to `limit` characters, so a message never echoes a long stretch of a file."""
    text = str(text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def shown_path(path: tuple) -> str:
    """A key path for a message, each key cut short on its own."""
    return ".".join(shown(step) for step in path)


def _parser_message(message: str) -> str:
    """A parser's message with what it quotes from the file (an alias, a tag) cut short."""
    return shown(re.sub(r"'([^']*)'", lambda quoted: f"'{shown(quoted.group(1))}'", message), 2 * SHOWN_CHARS)


class Located(dict):
    """A mapping from YAML that knows its file, its own line and the line of each key."""

    file: str = ""
    line: int = 0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.key_lines: dict = {}
        self.written: dict = {}          # key -> source text of a value YAML read as not text

    def line_of(self, key) -> int:
        return self.key_lines.get(key, self.line)


class LocatedList(list):
    file: str = ""
    line: int = 0

    def __init__(self, *args):
        super().__init__(*args)
        self.item_lines: list[int] = []
        self.written: dict = {}          # index -> source text of an item YAML read as not text

    def line_of(self, index: int) -> int:
        return self.item_lines[index] if 0 <= index < len(self.item_lines) else self.line


class DuplicateKey(Exception):
    def __init__(self, key, line):
        self.key, self.line = key, line


class Refused(Exception):
    """A value the loader will not build; `path` gathers the keys above it on the way out."""

    def __init__(self, mark, message: str):
        super().__init__(message)
        self.line = mark.line + 1 if mark else 0
        self.message = message
        self.path: tuple = ()


class _Loader(Composer, _Parser, SafeConstructor, Resolver):
    """SafeLoader (no arbitrary objects) that records locations, refuses duplicate keys and
    keeps count of what it composes."""

    display_name = ""
    yaml_implicit_resolvers: dict = {}      # only the ones added below, not all of YAML 1.1's

    def __init__(self, text: str, display_name: str):
        _Parser.__init__(self, text)
        Composer.__init__(self)
        SafeConstructor.__init__(self)
        Resolver.__init__(self)
        self.display_name = display_name
        self._nodes = 0            # values composed so far, aliases expanded
        self._depth = 0            # nesting of the value being composed
        self._deepest = 0          # deepest nesting reached inside the value being composed
        self._extents: dict = {}   # anchored node -> (values, levels) it stands for

    # -- composing: count and measure -----------------------------------------------------

    def _grow(self, values: int, depth: int, mark, alias: bool) -> None:
        self._nodes += values
        self._deepest = max(self._deepest, depth)
        if self._nodes > MAX_NODES:
            raise Refused(mark, (f"this alias repeats {values:,} values, which makes the file" if alias
                                 else "the file reaches") + f" more than {MAX_NODES:,} values here, the most a data file may have")
        if depth > MAX_DEPTH:
            raise Refused(mark, f"nested more than {MAX_DEPTH} levels deep"
                                + (" once this alias is expanded" if alias else "")
                                + f"; a data file may nest at most {MAX_DEPTH}")

    def compose_node(self, parent, index):
        mark = self.peek_event().start_mark
        try:
            if self.check_event(AliasEvent):
                node = super().compose_node(parent, index)
                if node not in self._extents:       # its anchor is still open
                    raise Refused(mark, "this alias stands for a value that contains it, which would repeat forever")
                values, levels = self._extents[node]
                self._grow(values, self._depth + levels, mark, alias=True)
                return node
            anchored = self.peek_event().anchor is not None
            self._depth += 1
            self._grow(1, self._depth, mark, alias=False)
            start_nodes, start_depth, outer_deepest = self._nodes, self._depth, self._deepest
            self._deepest = self._depth
            try:
                node = super().compose_node(parent, index)
            finally:
                self._depth -= 1
            if anchored:
                self._extents[node] = (self._nodes - start_nodes + 1, self._deepest - start_depth + 1)
            self._deepest = max(outer_deepest, self._deepest)
            return node
        except Refused as refused:
            if isinstance(index, ScalarNode):
                refused.path = (index.value,) + refused.path
            elif isinstance(index, int):
                refused.path = (index,) + refused.path
            raise

    # -- constructing: located containers, keys as written --------------------------------

    def construct_mapping(self, node, deep=False):
        self.flatten_mapping(node)
        mapping = Located()
        mapping.file = self.display_name
        mapping.line = node.start_mark.line + 1
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode):
                raise yaml.constructor.ConstructorError(None, None, "a list or mapping cannot be a key",
                                                        key_node.start_mark)
            key = key_node.value
            if key in mapping:
                raise DuplicateKey(key, key_node.start_mark.line + 1)
            try:
                mapping[key] = self.construct_object(value_node, deep=True)
            except Refused as refused:
                refused.path = (key,) + refused.path
                raise
            mapping.key_lines[key] = key_node.start_mark.line + 1
            if isinstance(value_node, ScalarNode) and value_node.tag != STR_TAG:
                mapping.written[key] = value_node.value
        return mapping

    def construct_sequence(self, node, deep=False):
        seq = LocatedList()
        for index, child in enumerate(node.value):
            try:
                seq.append(self.construct_object(child, deep=True))
            except Refused as refused:
                refused.path = (index,) + refused.path
                raise
            if isinstance(child, ScalarNode) and child.tag != STR_TAG:
                seq.written[index] = child.value
        seq.file = self.display_name
        seq.line = node.start_mark.line + 1
        seq.item_lines = [child.start_mark.line + 1 for child in node.value]
        return seq

    def construct_number(self, node):
        convert = SafeConstructor.construct_yaml_int if node.tag.endswith(":int") else SafeConstructor.construct_yaml_float
        try:
            number = convert(self, node)
        except ValueError:          # an explicit !!int on a word, or thousands of digits
            raise Refused(node.start_mark, f"{shown(node.value)} cannot be read as a number") from None
        if not math.isfinite(number):
            raise Refused(node.start_mark, f"{shown(node.value)} is not a finite number")
        return number

    def refuse_tag(self, node):
        raise Refused(node.start_mark, f"the tag {shown(node.tag.replace('tag:yaml.org,2002:', '!!'))} is not used in "
                                       f"data files; write plain text, numbers, lists and mappings")


_Loader.add_constructor("tag:yaml.org,2002:map", _Loader.construct_mapping)
_Loader.add_constructor("tag:yaml.org,2002:seq", _Loader.construct_sequence)
_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_number)
_Loader.add_constructor("tag:yaml.org,2002:float", _Loader.construct_number)
for _tag in ("timestamp", "binary", "set", "omap", "pairs"):
    _Loader.add_constructor(f"tag:yaml.org,2002:{_tag}", _Loader.refuse_tag)
_Loader.add_constructor(None, _Loader.refuse_tag)

# decided: YAML 1.1 reads some unquoted words as other types. Dates (`2025-12-24`), numbers
# with a leading zero or in another base (`012`, `0x1F`, `1:30`) and `.inf`/`.nan` read as the
# text written: none is a value our data has, and as text they print as written. Keys are
# always the text written (`1:` is the key "1", `no:` the key "no"; construct_mapping).
# yes/no/on/off/true/false stay yes-or-no values, accepted where the schema wants one; where it
# wants text the schema check says what YAML read and how to quote it (`written_as`), since a
# card named `no` read silently as False would be worse than an error.
_Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(
    r"^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$"), list("yYnNtTfFoO"))
_Loader.add_implicit_resolver("tag:yaml.org,2002:int", re.compile(r"^[-+]?(?:0|[1-9][0-9_]*)$"),
                              list("-+0123456789"))
_Loader.add_implicit_resolver("tag:yaml.org,2002:float", re.compile(
    r"^(?:[-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?)$"),
    list("-+0123456789."))
_Loader.add_implicit_resolver("tag:yaml.org,2002:merge", re.compile(r"^(?:<<)$"), ["<"])
_Loader.add_implicit_resolver("tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"),
                              ["~", "n", "N", ""])


def load_yaml(path: Path, display_name: str, roots: list[Path] | None = None) -> tuple[object, list[Problem]]:
    """Load one YAML file; return (data, problems). Never raises for bad content.
    `roots` are the folders the file may really lie in (links resolved); by default its own."""
    data, problems = read_bytes_inside(path, roots or [path.parent], display_name)
    if data is None:
        return None, problems
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        return None, [Problem(display_name, line, "", f"not UTF-8 text (byte 0x{data[exc.start]:02x}); save the file as UTF-8")]
    try:
        loader = _Loader(text, display_name)        # the pure-Python reader checks the text here
        try:
            return loader.get_single_data(), []
        finally:
            loader.dispose()
    except DuplicateKey as dup:
        return None, [Problem(display_name, dup.line, shown(dup.key), "duplicate key")]
    except Refused as refused:
        return None, [Problem(display_name, refused.line, shown_path(refused.path), refused.message)]
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        what = exc.problem or exc.context or "invalid YAML"
        return None, [Problem(display_name, line, "", f"YAML syntax error: {_parser_message(what)}")]
    except yaml.YAMLError as exc:
        line = _reader_line(text, exc.position) if isinstance(exc, yaml.reader.ReaderError) else 1
        what = exc.reason if isinstance(exc, yaml.reader.ReaderError) else "invalid YAML"
        return None, [Problem(display_name, line, "", f"YAML error: {_parser_message(what)}")]


def _reader_line(text: str, position: int) -> int:
    """The line of the character the reader refused, at `position` of the text as it read it."""
    before = text.encode("utf-8")[:position] if _OFFSETS_IN_BYTES else text[:position]
    return before.count(b"\n" if _OFFSETS_IN_BYTES else "\n") + 1


def _step(node, step):
    if isinstance(node, Located) and step in node:
        return True
    return isinstance(node, LocatedList) and isinstance(step, int) and 0 <= step < len(node)


def locate(root, path: tuple) -> tuple[str, int]:
    """File and line of the deepest located node along `path` (keys and indexes)."""
    node, file, line = root, getattr(root, "file", ""), getattr(root, "line", 0)
    for step in path:
        if not _step(node, step):
            break
        line = node.line_of(step)
        node = node[step]
        file = getattr(node, "file", file) or file
    return file, line


def key_path(root, node) -> tuple:
    """The keys and indexes that lead from `root` to `node` itself (by identity), or ()."""
    stack = [(root, ())]
    while stack:
        current, path = stack.pop()
        if current is node:
            return path
        if isinstance(current, dict):
            stack.extend((value, path + (key,)) for key, value in current.items() if isinstance(value, (dict, list)))
        elif isinstance(current, list):
            stack.extend((value, path + (index,)) for index, value in enumerate(current) if isinstance(value, (dict, list)))
    return ()


def written_as(root, path: tuple) -> str | None:
    """The source text of the value at `path` when YAML read it as something other than text
    (`no` read as false, `12` as a number, an empty value as null); None otherwise."""
    node = root
    for step in path[:-1]:
        if not _step(node, step):
            return None
        node = node[step]
    if not path or not _step(node, path[-1]):
        return None
    return node.written.get(path[-1])


def plain(node):
    """Located containers as plain dicts and lists, for code that compares or prints them."""
    if isinstance(node, dict):
        return {key: plain(value) for key, value in node.items()}
    if isinstance(node, list):
        return [plain(value) for value in node]
    return node
