"""JSON schemas: the ones written in generator/schemas/, every way located YAML data breaks one
(each named by file, line and key, in words a designer can act on), and the keys a schema says
are translatable text.

The schemas composed from code (the element types' and the board shapes') are not written here:
the stages that have those modules add them (`with_registry`) and pass the registry in.
"""
from __future__ import annotations

import difflib
import json
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Iterable

import yaml

from .errors import Problem
from .yamlfile import locate, shown, shown_path, written_as

if TYPE_CHECKING:                    # jsonschema's libraries load only when data is checked
    from referencing import Registry


SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@lru_cache(maxsize=None)
def written_schemas() -> dict[str, dict]:
    """The schemas of generator/schemas/*.yaml by `$id`."""
    folder = resources.files("generator") / "schemas"
    schemas = {}
    for entry in folder.iterdir():
        if entry.name.endswith(".yaml"):
            # the tool's own files, no locations needed: libyaml's safe loader when PyYAML has it
            # (a sixth of the pure-Python reader's time, at every command's start)
            schema = yaml.load(entry.read_text(encoding="utf-8"), Loader=SAFE_LOADER)
            schemas[schema["$id"]] = schema
    return schemas


def with_registry(schemas: dict[str, dict]) -> tuple[dict[str, dict], Registry]:
    """The schemas and the registry their `$ref`s to each other resolve in."""
    from referencing import Registry, Resource      # jsonschema's libraries load when data is checked:
    from referencing.jsonschema import DRAFT202012  # not for a command that reads checked data alone
    registry = Registry().with_resources(
        (sid, Resource.from_contents(s, default_specification=DRAFT202012)) for sid, s in schemas.items())
    return schemas, registry


@lru_cache(maxsize=None)
def _written_registry() -> Registry:
    return with_registry(written_schemas())[1]


def _plain(node):
    """Located containers -> plain JSON-like data (jsonschema wants dict/list)."""
    return json.loads(json.dumps(node, default=str))


def _describe(error, data) -> list[tuple[tuple, str]]:
    """Turn a jsonschema error into (path, message) a person can act on, one for each key it
    is about (every unknown key of a mapping, not only the first); what the message quotes
    from the file is cut short (yamlfile.shown)."""
    path = tuple(error.absolute_path)
    if list(error.schema_path)[-2:-1] == ["propertyNames"]:
        # the error is about a key of the mapping at `path`: name it, and point at its line
        return [(path + (error.instance,), f"invalid name: {message}")
                for _, message in _describe_value(error, data, path)]
    return _describe_value(error, data, path)


def _describe_value(error, data, path: tuple) -> list[tuple[tuple, str]]:
    v, instance = error.validator, error.instance
    if v == "additionalProperties":
        known = error.schema.get("properties", {})
        extra = sorted(set(instance) - set(known))
        if extra:
            allowed = f" (allowed: {', '.join(sorted(known))})" if known else ""
            return [(path + (key,), f"unknown key '{shown(key)}'" + did_you_mean(key, known) + allowed) for key in extra]
    if v == "oneOf" and error.context:
        best = min(error.context, key=lambda e: len(e.absolute_path))
        return _describe(best, data)
    return [_one_value(error, data, path)]


def did_you_mean(name: str, known) -> str:
    """`, did you mean 'x'?` for the known name nearest to a mistyped one, or ''."""
    close = difflib.get_close_matches(str(name), sorted(map(str, known)), n=1)
    return f", did you mean '{shown(close[0])}'?" if close else ""


def _one_value(error, data, path: tuple) -> tuple[tuple, str]:
    v, instance, limit = error.validator, error.instance, error.validator_value
    if v == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        return path, f"missing required key '{missing}'"
    if v == "type":
        return path, _wrong_type(limit, instance, written_as(data, path))
    if v == "enum":
        close = did_you_mean(instance, [value for value in limit if isinstance(value, str)]) \
            if isinstance(instance, str) else ""
        return path, (f"{_value(instance)} is not one of {', '.join(map(str, limit))}" + close.replace(",", ";", 1)
                      + _quote_hint(instance, written_as(data, path)))
    if v == "pattern":
        form = PATTERN_FORMS.get(limit)
        if form is None:
            return path, f"{_value(instance)} is not written the way this key is"
        return path, f"expected {form}, got {_value(instance)}"
    if v in ("minimum", "exclusiveMinimum"):
        return path, f"{_value(instance)} is too small ({v} {limit})"
    if v in ("maximum", "exclusiveMaximum"):
        return path, f"{_value(instance)} is too large ({v} {limit})"
    if v == "maxLength":
        return path, f"{len(instance):,} characters is too long (at most {limit:,})"
    if v == "minLength":
        return path, f"{_value(instance)} is too short (at least {limit} characters)"
    if v in ("minItems", "maxItems"):
        items = f"{len(instance)} item" + ("" if len(instance) == 1 else "s")
        return path, f"{items}, expected {'at least' if v == 'minItems' else 'at most'} {limit}"
    return path, _shortened(error)


def _value(instance) -> str:
    return shown(repr(instance))


def _shortened(error) -> str:
    """jsonschema's own message, with the value it quotes from the file cut short."""
    message, quoted = error.message, repr(error.instance)
    return _value(error.instance) + message[len(quoted):] if message.startswith(quoted) else shown(message, 200)


# What each `pattern` of the schemas asks for, in words and with an example: a message never
# shows a regular expression (tests/test_validation_messages.py finds every pattern here).
PATTERN_FORMS = {
    r"^#[0-9A-Fa-f]{6}$": "a colour like #1E88E5",
    r"^(#[0-9A-Fa-f]{6}|\{[a-z_]+\}|none)$": "a colour like #1E88E5, a {field}, or none",
    r"^[a-z0-9][a-z0-9-]*$": "lower-case letters, digits and hyphens, like gold-coin or 2-player",
    r"^[a-z][a-z0-9-]*$": "lower-case letters, digits and hyphens, starting with a letter, like gold-coin",
    r"^[a-z][a-z0-9_]*$": "lower-case letters, digits and underscores, starting with a letter, like gold_coin",
    r"^[a-z_][a-z0-9_]*$": "lower-case letters, digits and underscores, not starting with a digit, like my_game",
    r"^[a-z0-9][a-z0-9]*$": "lower-case letters and digits, like red or 10",
    r"^[a-z0-9][a-z0-9_-]*$": "lower-case letters, digits, hyphens and underscores, like in-spot or peg_1",
    r"^[a-z]{2,3}$": "a language's code of two or three lower-case letters, like cs",
    r"^[a-z]{2}(-[A-Z]{2})?$": "a language's code, alone or with its country's, like en or en-US",
    r"^\w+(-\w+)*$": "a word with a hyphen at each place it may break, like hy-phen-ation",
    r"^[a-z_]+$": "lower-case letters and underscores, like feminine",
    r"^\w+$": "one word of letters or digits, like a",
    r"^[^.]+$": "a name without a dot, like cards_left",
    r"^[1-9][0-9]{0,2}$": "a whole number from 1 to 999 without a leading zero, like 4",
    r"^[a-z]+\.[a-z0-9][a-z0-9-]*$": "a kind and an id joined by a dot, like dice.sun",
    r"\{n\}": 'a text with {n} where the number goes, like "{n} cards"',
    r"^(?![/\\])(?!.*\\)[^\x00]+\.(svg|png|jpe?g)$":
        "a picture in the game's folder, .svg, .png, .jpg or .jpeg, its folders joined by /, like art/sun.svg",
    r"^(?![/\\])(?!.*\\)[^\x00]+\.(svg|png)$":
        "an icon's picture in the game's folder, .svg or .png, its folders joined by /, like art/sun.svg",
}


YAML_READS = {bool: "a yes/no value", int: "a number", float: "a number", type(None): "no value"}


def _wrong_type(expected, instance, written: str | None) -> str:
    got = "an empty value" if instance is None else f"{type(instance).__name__} {_value(instance)}"
    message = f"expected {expected}, got {got}"
    wants = expected if isinstance(expected, list) else [expected]
    if "string" in wants:
        return message + _quote_hint(instance, written)
    if {"integer", "number"} & set(wants) and isinstance(instance, str) and any(c.isdigit() for c in instance):
        return message + " (a number is written unquoted, in decimal digits without a leading zero: 12, 2.5)"
    if "boolean" in wants:
        message += " (write true or false)"
    elif isinstance(instance, bool) and written:        # `on`, `no`: not what the writer thought
        message += f" (YAML reads an unquoted {shown(written)} as {YAML_READS[bool]})"
    return message


def _quote_hint(instance, written: str | None) -> str:
    """How to keep as text what YAML read as a yes/no value, a number or no value."""
    if not written or type(instance) not in YAML_READS:
        return ""
    return (f": YAML reads an unquoted {shown(written)} as {YAML_READS[type(instance)]}; "
            f"write it in quotes (\"{shown(written)}\") to keep it as text")


def schema_errors(schema: dict, data, registry: Registry | None = None) -> list[tuple[tuple, str]]:
    """(path, message) for every way `data` (located YAML) breaks `schema`, whose `$ref`s resolve
    in `registry` (by default the schemas written in generator/schemas/)."""
    registry = registry if registry is not None else _written_registry()
    from jsonschema import Draft202012Validator
    return [described for error in Draft202012Validator(schema, registry=registry).iter_errors(_plain(data))
            for described in _describe(error, data)]


def schema_problems(schema: dict, data, display: str, registry: Registry | None = None) -> list[Problem]:
    """Every way `data` (located YAML) breaks `schema`, at its file, line and key (`display`
    names the file when the data does not)."""
    problems = []
    for path, message in schema_errors(schema, data, registry):
        file, line = locate(data, path)
        problems.append(Problem(file or display, line, shown_path(path), message))
    return problems


TEXT = {"$ref": "common#/$defs/text"}


def _keys_whose_schema(schemas: Iterable[dict], matches) -> frozenset[str]:
    """Every property name in `schemas` (at any depth) whose own schema `matches`."""
    found = set()

    def walk(node):
        if isinstance(node, dict):
            for key, value in (node.get("properties") or {}).items():
                if isinstance(value, dict) and matches(value):
                    found.add(key)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(list(schemas))
    return frozenset(found)


def text_keys(schemas: Iterable[dict]) -> frozenset[str]:
    """Every key whose schema in `schemas` is translatable text (`common#/$defs/text`)."""
    return _keys_whose_schema(schemas, lambda schema: schema.get("$ref") == TEXT["$ref"])


def text_map_keys(schemas: Iterable[dict]) -> frozenset[str]:
    """Every key whose schema in `schemas` is a map of translatable texts by name (a grid's
    `labels`, by cell id)."""
    return _keys_whose_schema(schemas, lambda schema: (schema.get("additionalProperties") or {}) == TEXT)
