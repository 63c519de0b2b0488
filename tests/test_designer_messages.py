"""Messages a designer acts on without knowing the tool's insides: what a key takes is said in
words with an example, never as a regular expression; a mistyped name is answered with the
name meant; and one run of `pnp validate` names the mistakes of every file at once, each file's
mistake holding back only the checks that read that file."""
from __future__ import annotations

import re
import shutil

import pytest

from conftest import SAMPLE, line_of, pnp, replace_in
from generator.core.schema import PATTERN_FORMS
from generator.i18n.typography import SCHEMA as TYPOGRAPHY_SCHEMA
from generator.load.profiles import SCHEMA as PROFILE_SCHEMA
from generator.validate.checks import game_schemas


GAME = "sample-game"
FOLDER = f"components/{GAME}"
# What gives a regular expression away: a character range, a counted repeat, an escape, a
# group's (?, an anchor before a group, class or literal, a repeat at the end.
REGEX = re.compile(r"\[\^?[A-Za-z0-9]-[A-Za-z0-9]|\{\d+(,\d*)?\}|\\|\(\?|[*+]\$|\^[(\[#\\]")


@pytest.fixture
def sample(tmp_path):
    project = tmp_path / "sample"
    shutil.copytree(SAMPLE, project)
    return project


def every_pattern(node) -> set[str]:
    if isinstance(node, dict):
        own = {node["pattern"]} if isinstance(node.get("pattern"), str) else set()
        return own.union(*(every_pattern(value) for value in node.values()))
    if isinstance(node, list):
        return set().union(*(every_pattern(value) for value in node))
    return set()


def test_every_pattern_of_every_schema_is_said_in_words():
    patterns = every_pattern([*game_schemas()[0].values(), TYPOGRAPHY_SCHEMA, PROFILE_SCHEMA])
    assert len(patterns) >= 10
    assert patterns <= set(PATTERN_FORMS), sorted(patterns - set(PATTERN_FORMS))
    for pattern, form in PATTERN_FORMS.items():
        assert " like " in form and not REGEX.search(form), (pattern, form)


# (file, text there, text planted): each breaks a pattern of the schemas
PLANTED = [
    ("cards.yaml", 'text: Moves two spaces., colour: "#3A61C4"', 'text: Moves two spaces., colour: "Blue"'),
    ("cards.yaml", "  archer:", "  Archer2:"),
    ("layouts.yaml", 'fill: "{colour}", bleed: true}', 'fill: "colour", bleed: true}'),
    ("layouts.yaml", "file: art/sun.svg", "file: /art/sun.svg"),
    ("game.yaml", "rules: sample_game", "rules: Sample-Game"),
    ("game.yaml", "age: 8\n", "age: 8\nhand_sizes: {'02': 5}\n"),
    ("game.yaml", "  rounds: {name: Rounds}", "  rounds.won: {name: Rounds}"),
    ("booklet.yaml", 'cards: {one: "{n} card", other: "{n} cards"}', 'cards: {one: "a card", other: "{n} cards"}'),
    ("dice.yaml", "  moon:", "  Moon:"),
]


def test_no_message_shows_a_regular_expression(sample):
    folder = sample / FOLDER
    for file, old, new in PLANTED:
        replace_in(folder / file, old, new)
    result = pnp("validate", project=sample)
    assert result.exit_code == 1 and not result.traceback, result.output + result.traceback
    lines = result.stderr.splitlines()
    blue, fill = line_of(folder / "cards.yaml", 'colour: "Blue"'), line_of(folder / "layouts.yaml", 'fill: "colour"')
    expected = {
        f"{FOLDER}/cards.yaml:{blue}: cards.knight.colour: expected a colour like #1E88E5, got 'Blue'",
        f"{FOLDER}/layouts.yaml:{fill}: faces.hero.elements.0.fill: "
        "expected a colour like #1E88E5, a {field}, or none, got 'colour'",
        f"{FOLDER}/game.yaml:{line_of(folder / 'game.yaml', 'rules:')}: rules: expected lower-case letters, digits "
        "and underscores, not starting with a digit, like my_game, got 'Sample-Game'",
    }
    assert expected <= set(lines), result.stderr
    # each plant is named at its key, and none in the words of a regular expression
    for key in ("cards.Archer2", "faces.hero.elements.1.file", "hand_sizes.02", "figures.rounds.won",
                "phrases.cards.one", "dice.Moon"):
        assert any(f": {key}: " in line and "expected " in line for line in lines), (key, result.stderr)
    shown = [line for line in lines if REGEX.search(line)]
    assert not shown, "\n".join(shown)


def test_a_mistyped_name_is_answered_with_the_name_meant(sample):
    folder = sample / FOLDER
    result = pnp("build", "--game", GAME, "--locale", "enn", project=sample)
    assert result.exit_code == 2 and f"{GAME} has no locale 'enn', did you mean 'en'? (locales: en)" in result.stderr, \
        result.output
    replace_in(folder / "cards.yaml", "    layout: hero\n", "    layout: heor\n")
    replace_in(folder / "cards.yaml", "    back: coin-back\n", "    back: coin-bak\n")
    replace_in(folder / "game.yaml", "  en: released\n", "  en: released\n  ukr: draft\n")
    replace_in(folder / "dice.yaml", "    count: {standard: 3}\n", "    count: {standrd: 3}\n", 1)
    result = pnp("validate", project=sample)
    assert result.exit_code == 1 and not result.traceback, result.output + result.traceback
    cards = folder / "cards.yaml"
    for message in [
        f"{FOLDER}/cards.yaml:{line_of(cards, 'layout: heor')}: decks.heroes.layout: no face layout 'heor' in "
        "layouts.yaml, did you mean 'hero'?",
        f"{FOLDER}/cards.yaml:{line_of(cards, 'back: coin-bak')}: decks.coins.back: no back layout 'coin-bak' in "
        "layouts.yaml, did you mean 'coin-back'?",
        f"{FOLDER}/game.yaml:{line_of(folder / 'game.yaml', 'ukr: draft')}: locales.ukr: invalid name: 'ukr' is not "
        "one of bg, uk, cs, ru, en; did you mean 'uk'?",
    ]:
        assert message in result.stderr.splitlines(), f"{message}\n---\n{result.stderr}"
    # the edition check waits for game.yaml: its locale is put right, and the edition is named
    replace_in(folder / "game.yaml", "  ukr: draft\n", "")
    result = pnp("validate", project=sample)
    assert "dice.sun.count.standrd: unknown edition 'standrd', did you mean 'standard'? (editions: standard)" \
        in result.stderr, result.stderr


def test_five_mistakes_in_five_files_are_named_in_one_run(sample):
    """A schema error in cards.yaml, tokens.yaml and booklet.yaml no longer hides the die face
    whose text does not fit nor the piece whose name has no glyph: their files are sound."""
    folder = sample / FOLDER
    replace_in(folder / "cards.yaml", 'text: Moves two spaces., colour: "#3A61C4"', 'text: Moves two spaces., colour: "Blue"')
    replace_in(folder / "tokens.yaml", "    side_mm: 20\n", "    sidemm: 20\n")
    replace_in(folder / "booklet.yaml", "    title: In the box\n", "    titel: In the box\n")
    replace_in(folder / "dice.yaml", '{name: "A"}', '{name: "Abracadabra of the moon"}')
    replace_in(folder / "pieces.yaml", "    name: Sword\n", "    name: Sword ⛧\n")
    result = pnp("validate", project=sample)
    assert result.exit_code == 1, result.output
    assert not result.traceback and "Traceback" not in result.output
    lines = result.stderr.splitlines()
    named = {file: [line for line in lines if line.startswith(f"{FOLDER}/{file}:")]
             for file in ("cards.yaml", "tokens.yaml", "booklet.yaml", "dice.yaml", "pieces.yaml")}
    assert all(named.values()), result.stderr
    assert named["cards.yaml"] == [f"{FOLDER}/cards.yaml:{line_of(folder / 'cards.yaml', 'Blue')}: cards.knight.colour: "
                                   "expected a colour like #1E88E5, got 'Blue'"]
    assert any("tokens.supply.sidemm: unknown key 'sidemm', did you mean 'side_mm'?" in line for line in named["tokens.yaml"])
    assert any("sections.0.titel: unknown key 'titel', did you mean 'title'?" in line for line in named["booklet.yaml"])
    assert named["dice.yaml"] == [f"{FOLDER}/dice.yaml:{line_of(folder / 'dice.yaml', 'Abracadabra')}: "
                                  "dice.moon.faces.0.name: [sample-game standard en] text does not fit: 'Abracadabra' "
                                  "is wider than the 18 mm box even at 12 pt"]
    # (a piece's name is placed from its entry: the problem is at the entry's line)
    assert named["pieces.yaml"] == [f"{FOLDER}/pieces.yaml:{line_of(folder / 'pieces.yaml', '  sword:')}: "
                                    "pieces.sword.name: [en] no glyph in the shipped font for '⛧'"]
    assert lines[-1] == f"{len(lines) - 1} problem(s) found."


def test_a_kind_that_names_a_broken_file_waits_for_it(sample):
    """A tuck box names a deck of cards.yaml: with cards.yaml broken, its checks wait (no
    "no deck" for a deck that is there), while another file's faces are still checked."""
    folder = sample / FOLDER
    replace_in(folder / "cards.yaml", 'text: Moves two spaces., colour: "#3A61C4"', 'text: Moves two spaces., colour: "Blue"')
    replace_in(folder / "pieces.yaml", "    name: Sword\n", "    name: Sword ⛧\n")
    result = pnp("validate", project=sample)
    assert result.exit_code == 1 and not result.traceback, result.output + result.traceback
    assert "no glyph in the shipped font for '⛧'" in result.stderr
    assert "tuckboxes.yaml" not in result.stderr, result.stderr
    assert "2 problem(s) found." in result.stderr, result.stderr
