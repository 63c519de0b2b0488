"""Safe YAML loading that remembers where every key came from.

Mappings load as `Located` dicts that know their file and the line of each key, so any later
stage can report `file:line: key.path: message`. Duplicate keys are errors, not silent overrides.
"""
from __future__ import annotations

from collections.abc import Hashable
from pathlib import Path

import yaml

from .errors import Problem


class Located(dict):
    """A mapping from YAML that knows its file, its own line and the line of each key."""

    file: str = ""
    line: int = 0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.key_lines: dict = {}

    def line_of(self, key) -> int:
        return self.key_lines.get(key, self.line)


class LocatedList(list):
    file: str = ""
    line: int = 0

    def __init__(self, *args):
        super().__init__(*args)
        self.item_lines: list[int] = []

    def line_of(self, index: int) -> int:
        return self.item_lines[index] if 0 <= index < len(self.item_lines) else self.line


class DuplicateKey(Exception):
    def __init__(self, key, line):
        self.key, self.line = key, line


class _Loader(yaml.SafeLoader):
    """SafeLoader (no arbitrary objects) that records locations and refuses duplicate keys."""

    display_name = ""

    def construct_mapping(self, node, deep=False):
        self.flatten_mapping(node)
        mapping = Located()
        mapping.file = self.display_name
        mapping.line = node.start_mark.line + 1
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=True)
            if not isinstance(key, Hashable):
                raise yaml.constructor.ConstructorError(None, None, "a list or mapping cannot be a key",
                                                        key_node.start_mark)
            if key in mapping:
                raise DuplicateKey(key, key_node.start_mark.line + 1)
            mapping[key] = self.construct_object(value_node, deep=True)
            mapping.key_lines[key] = key_node.start_mark.line + 1
        return mapping

    def construct_sequence(self, node, deep=False):
        seq = LocatedList(self.construct_object(child, deep=True) for child in node.value)
        seq.file = self.display_name
        seq.line = node.start_mark.line + 1
        seq.item_lines = [child.start_mark.line + 1 for child in node.value]
        return seq


_Loader.add_constructor("tag:yaml.org,2002:map", _Loader.construct_mapping)
_Loader.add_constructor("tag:yaml.org,2002:seq", _Loader.construct_sequence)


def load_yaml(path: Path, display_name: str) -> tuple[object, list[Problem]]:
    """Load one YAML file; return (data, problems). Never raises for bad content."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, [Problem(display_name, 0, "", f"cannot read file: {exc}")]
    loader = _Loader(text)
    loader.display_name = display_name
    try:
        return loader.get_single_data(), []
    except DuplicateKey as dup:
        return None, [Problem(display_name, dup.line, str(dup.key), "duplicate key")]
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 0
        what = exc.problem or exc.context or "invalid YAML"
        return None, [Problem(display_name, line, "", f"YAML syntax error: {what}")]
    except yaml.YAMLError as exc:
        return None, [Problem(display_name, 0, "", f"YAML error: {exc}")]
    finally:
        loader.dispose()


def locate(root, path: tuple) -> tuple[str, int]:
    """File and line of the deepest located node along `path` (keys and indexes)."""
    node, file, line = root, getattr(root, "file", ""), getattr(root, "line", 0)
    for step in path:
        if isinstance(node, Located) and step in node:
            line = node.line_of(step)
            node = node[step]
        elif isinstance(node, LocatedList) and isinstance(step, int) and step < len(node):
            line = node.line_of(step)
            node = node[step]
        else:
            break
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
