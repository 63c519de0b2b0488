"""Data files built to hurt: each is refused through `pnp validate` and `pnp build` with
`file:line: key.path: message`, exit 1, no traceback, within seconds and bounded memory, and
nothing is written anywhere (output/ stays as it was, nothing appears outside the project)."""
from __future__ import annotations

import hashlib
import os
import shutil
import time

import pytest

from conftest import SAMPLE, bounded_pnp, pnp, replace_in
from generator.layout.elements import text as text_element
from generator.load.project import Project


GAME = "sample-game"
SECONDS = 10                    # a guard: every case here is refused in well under this


def line_of(path, needle: str) -> int:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(needle)


def tree(folder) -> dict:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() and not p.is_fifo() else ""
            for p in sorted(folder.rglob("*"))}


@pytest.fixture
def project(tmp_path):
    """A copy of the sample project to change."""
    copy = tmp_path / "project"
    shutil.copytree(SAMPLE, copy)
    return copy


@pytest.fixture
def planted(project):
    """The project with a good output/ from an earlier build, beside other files of the user."""
    (project / "output").mkdir()
    (project / "output" / "earlier-kit.pdf").write_bytes(b"%PDF-1.7 a good kit from an earlier build\n")
    return project


def refused(project, game: str) -> str:
    """Run validate and build on the project; both must fail cleanly and change nothing in the
    folder around it. Returns validate's stderr (build reports the same problems)."""
    around = project.parent
    before = tree(around)
    errs = []
    for command in (["validate", game], ["build", "--game", game, "--paper", "a4"]):
        start = time.monotonic()
        result = pnp(*command, project=project)
        assert time.monotonic() - start < SECONDS, command
        assert result.exit_code == 1, (command, result.output, result.traceback)
        assert not result.traceback and "Traceback" not in result.output, result.traceback
        errs.append(result.stderr)
    assert tree(around) == before
    assert set(errs[0].splitlines()) <= set(errs[1].splitlines())      # build reports what validate does
    return errs[0]


def own_process(project, *args, timeout: float = 60):
    """`pnp` as its own process with at most 1.5 GB of address space (an unbounded loader
    dies with MemoryError instead of taking the machine) and a time limit."""
    return bounded_pnp(project, *args, memory=1536 * 2**20, seconds=timeout)


# ---- unbounded resources ------------------------------------------------------------------

BILLION_LAUGHS = "".join(
    [f"a: &a [{', '.join(['lol'] * 10)}]\n"]
    + [f"{name}: &{name} [{', '.join(['*' + previous] * 10)}]\n" for previous, name in zip("abcdefgh", "bcdefghi")])


def test_nested_aliases_are_refused_at_the_alias_that_crosses_the_limit(planted):
    cards = planted / "components" / GAME / "cards.yaml"
    cards.write_text(BILLION_LAUGHS, encoding="utf-8")         # a..i: 10^9 values once expanded
    before = tree(planted.parent)
    start = time.monotonic()
    result = own_process(planted, "validate", GAME)
    assert time.monotonic() - start < 3 * SECONDS
    assert result.returncode == 1, result.stderr[-2000:]
    assert not result.traceback and "Traceback" not in result.stderr and "MemoryError" not in result.stderr
    # keys and values count one each: 12,350 before e's list, then 11,111 per alias of d
    assert (f"components/{GAME}/cards.yaml:5: e.3: this alias repeats 11,111 values, which makes the file "
            f"more than 50,000 values here, the most a data file may have") in result.stderr
    assert tree(planted.parent) == before
    # the same through the in-process CLI, build included
    assert "e.3: this alias repeats 11,111 values" in refused(planted, GAME)


def test_an_alias_inside_its_own_value_is_refused(project):
    (project / "components" / GAME / "booklet.yaml").write_text("sections: &s\n  - blocks: [*s]\n", encoding="utf-8")
    err = refused(project, GAME)
    assert (f"components/{GAME}/booklet.yaml:2: sections.0.blocks.0: this alias stands for a value that "
            f"contains it, which would repeat forever") in err


def test_deep_nesting_is_refused_at_the_level_that_crosses_the_limit(project):
    booklet = project / "components" / GAME / "booklet.yaml"
    booklet.write_text("".join("  " * depth + f"k{depth}:\n" for depth in range(40)), encoding="utf-8")
    err = refused(project, GAME)
    # the file's mapping is level 1, k30's value level 32; k31 on line 32 is the 33rd level
    path = ".".join(f"k{depth}" for depth in range(31))
    assert f"components/{GAME}/booklet.yaml:32: {path}: nested more than 32 levels deep; a data file may nest at most 32" in err


def test_a_hundred_thousand_nested_lists_end_in_a_message_not_a_recursion_error(project):
    booklet = project / "components" / GAME / "booklet.yaml"
    booklet.write_text("sections: " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    err = refused(project, GAME)
    (line,) = [line for line in err.splitlines() if "booklet.yaml" in line]
    # libyaml stops it while parsing; without libyaml the loader's own limit does
    assert line.startswith(f"components/{GAME}/booklet.yaml:1: ") and "nest" in line, line
    assert "RecursionError" not in err


def test_a_50_mb_file_is_refused_before_it_is_read(project):
    cards = project / "components" / GAME / "cards.yaml"
    with cards.open("a", encoding="utf-8") as handle:
        for _ in range(50):                                     # 50 MB of comments
            handle.write("# padding\n" * 104_858)
    size = cards.stat().st_size
    assert size > 50 * 10**6
    err = refused(project, GAME)
    assert f"components/{GAME}/cards.yaml:1: refused: {size:,} bytes, more than the 4,194,304 a data file may have" in err


def test_a_file_under_the_size_limit_with_too_many_values_is_refused_where_it_crosses(project):
    tokens = project / "components" / GAME / "tokens.yaml"
    tokens.write_text("tokens:\n" + "".join(f"  t{i}: 1\n" for i in range(300_000)), encoding="utf-8")
    assert tokens.stat().st_size < 4 * 2**20
    err = refused(project, GAME)
    # 3 values before the first entry, then a key and a value each: t24998's value is the 50,001st
    assert (f"components/{GAME}/tokens.yaml:25000: tokens.t24998: the file reaches more than 50,000 values here, "
            f"the most a data file may have") in err


@pytest.mark.parametrize("name, old, new, key, message", [
    ("layouts", "font: bold, size: 16, min_size: 10", "font: bold, size: 100000, min_size: 10",
     "faces.hero.elements.3.size", "100000 is too large (maximum 200)"),
    ("layouts", "font: bold, size: 16, min_size: 10", "font: bold, size: 16, min_size: 0.01",
     "faces.hero.elements.3.min_size", "0.01 is too small (minimum 2)"),
    ("cards", "count: {standard: 4}}", "count: {standard: 1000000000}}",
     "cards.knight.count.standard", "1000000000 is too large (maximum 1000)"),
    ("layouts", "    size_mm: [63, 88]", "    size_mm: [63, 880000]",
     "faces.hero.size_mm.1", "880000 is too large (maximum 1200)"),
    ("boards", "  shapes:\n", "  shapes:\n    clock: {shape: track, box: [30, 16, 200, 18], spaces: 15000000}\n",
     "design.shapes.clock.spaces", "15000000 is too large (maximum 500)"),
    ("tokens", '  supply:\n    shape: square\n    name: Supply\n    count: {standard: 4}\n    side_mm: 20\n'
     '    colour: "#2E7D5B"\n    icon: "★"\n',
     '  supply: {shape: disc, name: Supply, count: {standard: 4}, diameter_mm: 0.0001, colour: "#2E7D5B", icon: "★"}\n',
     "tokens.supply.diameter_mm", "0.0001 is too small (minimum 1)"),
    ("game", "age: 8", "age: 800", "age", "800 is too large (maximum 99)"),
])
def test_every_number_has_a_bound(project, name, old, new, key, message):
    path = project / "components" / GAME / f"{name}.yaml"
    replace_in(path, old, new)
    err = refused(project, GAME)
    assert f"components/{GAME}/{name}.yaml:{line_of(path, new.splitlines()[-1].strip())}: {key}: {message}" in err


def test_the_text_fit_takes_a_few_wraps_whatever_size_is_asked(monkeypatch):
    text = "Zahrajte kartu vyšší, než leží navrchu, nebo přesně o 10 nižší."
    real_wrap, fonts, mm = text_element.wrap, text_element.fonts, text_element.mm

    def one_by_one(size):
        """The largest half-point size from `size` down at which the text fits, step by step."""
        font = fonts.font_name("regular")
        while True:
            lines = real_wrap(text, font, size, 40 * mm)
            block = (len(lines) - 1) * size * fonts.LEADING + (fonts.ASCENT + fonts.DESCENT) * size
            if block <= 20 * mm and max(text_element.stringWidth(line, font, size) for line in lines) <= 40 * mm:
                return size
            size -= 0.5

    wraps = []

    def counted(*args):
        wraps.append(args[2])
        assert len(wraps) <= 40, "the fit steps through the sizes one by one"
        return real_wrap(*args)

    monkeypatch.setattr(text_element, "wrap", counted)
    fitted, _ = text_element.fit_lines(text, "regular", 100_000, 2, 40, 20)
    assert len(wraps) <= 12, wraps
    assert fitted.size == one_by_one(200)        # nothing fits a 20 mm box above 200 pt


# ---- YAML's implicit types ----------------------------------------------------------------

def test_a_bare_date_and_unquoted_number_keys_are_read_as_written(project):
    folder = project / "components" / GAME
    replace_in(folder / "cards.yaml", "name: Knight,", "name: 2025-12-24,")
    replace_in(folder / "layouts.yaml", "bleed: true", "bleed: yes")           # a yes/no value where one is wanted
    replace_in(folder / "game.yaml", "age: 8\n", "age: 8\nhand_sizes:\n  2: 7\n  3: 6\n")   # keys are the text written
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 0, result.output + result.traceback
    game, problems = Project(project).load_game(GAME)
    assert not problems and game.files["cards"]["cards"]["knight"]["name"] == "2025-12-24"
    assert game.files["layouts"]["faces"]["hero"]["elements"][0]["bleed"] is True
    assert game.files["game"]["hand_sizes"] == {"2": 7, "3": 6}


@pytest.mark.parametrize("old, new, key, message", [
    ("name: Knight,", "name: no,", "cards.knight.name",
     'expected string, got bool False: YAML reads an unquoted no as a yes/no value; write it in quotes ("no") to keep it as text'),
    ("name: Knight,", "name: 12,", "cards.knight.name",
     'expected string, got int 12: YAML reads an unquoted 12 as a number; write it in quotes ("12") to keep it as text'),
    ("name: Knight,", "name: ~,", "cards.knight.name",
     'expected string, got an empty value: YAML reads an unquoted ~ as no value; write it in quotes ("~") to keep it as text'),
    ("count: {standard: 4}}", "count: {standard: 01}}", "cards.knight.count.standard",
     "expected integer, got str '01' (a number is written unquoted, in decimal digits without a leading zero: 12, 2.5)"),
    ("count: {standard: 4}}", "count: {standard: 0x1}}", "cards.knight.count.standard",
     "expected integer, got str '0x1' (a number is written unquoted, in decimal digits without a leading zero: 12, 2.5)"),
    ("count: {standard: 4}}", "count: {standard: on}}", "cards.knight.count.standard",
     "expected integer, got bool True (YAML reads an unquoted on as a yes/no value)"),
])
def test_what_yaml_reads_as_another_type_names_what_was_written(project, old, new, key, message):
    cards = project / "components" / GAME / "cards.yaml"
    replace_in(cards, old, new)
    err = refused(project, GAME)
    assert f"components/{GAME}/cards.yaml:{line_of(cards, new)}: {key}: {message}" in err


def test_explicit_tags_beyond_plain_values_are_refused(project):
    cards = project / "components" / GAME / "cards.yaml"
    replace_in(cards, "name: Knight,", "name: !!binary U2hlZg==,")
    err = refused(project, GAME)
    assert (f"components/{GAME}/cards.yaml:{line_of(cards, '!!binary')}: cards.knight.name: the tag !!binary is not used "
            f"in data files; write plain text, numbers, lists and mappings") in err


# ---- every file checked in one run --------------------------------------------------------

def test_a_syntax_error_does_not_hide_problems_of_the_other_files(project):
    folder = project / "components" / GAME
    replace_in(folder / "cards.yaml", "    name: Heroes\n", "    name: [Heroes\n")
    replace_in(folder / "game.yaml", "age: 8", "age: 8\nagee: 9")
    replace_in(folder / "layouts.yaml", "faces:", "faces: [")
    replace_in(folder / "tokens.yaml", "    side_mm: 20", "    side_mm: 20\n    radius_mm: 12")
    err = refused(project, GAME)
    cards_line = line_of(folder / "cards.yaml", "name: [Heroes") + 1      # where the list was still open
    assert f"components/{GAME}/cards.yaml:{cards_line}: YAML syntax error: did not find expected ',' or ']'" in err
    assert f"components/{GAME}/game.yaml:{line_of(folder / 'game.yaml', 'agee')}: agee: unknown key 'agee'" in err
    # the open list takes `hero:` as its first item, and cannot take the face's keys below it
    layouts_line = line_of(folder / "layouts.yaml", "size_mm:")
    assert f"components/{GAME}/layouts.yaml:{layouts_line}: YAML syntax error: did not find expected ',' or ']'" in err
    assert f"components/{GAME}/tokens.yaml:{line_of(folder / 'tokens.yaml', 'radius_mm')}: tokens.supply.radius_mm: unknown key" in err


def test_a_file_of_the_wrong_shape_does_not_hide_the_other_files(project):
    folder = project / "components" / GAME
    cards = folder / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text[:text.index("\ncards:")] + "\ncards: [1, 2]\n", encoding="utf-8")
    replace_in(folder / "game.yaml", "age: 8", "age: 8\nagee: 9")
    err = refused(project, GAME)
    assert f"components/{GAME}/cards.yaml:{line_of(cards, 'cards: [1, 2]')}: cards: expected object, got list [1, 2]" in err
    assert f"components/{GAME}/game.yaml:{line_of(folder / 'game.yaml', 'agee')}: agee: unknown key 'agee'" in err


def test_a_broken_layouts_file_does_not_hide_an_unknown_deck(project):
    folder = project / "components" / GAME
    replace_in(folder / "layouts.yaml", "faces:", "faces: [")
    replace_in(folder / "cards.yaml", "knight: {deck: heroes,", "knight: {deck: bosses,")
    err = refused(project, GAME)
    line = line_of(folder / "cards.yaml", "deck: bosses")
    assert f"components/{GAME}/cards.yaml:{line}: cards.knight.deck: no deck 'bosses' in decks" in err
    # the counts against the rules wait for every file: no "data has no such card" noise
    assert "rules need" not in err


def test_a_game_folder_without_game_yaml_is_an_error(tmp_path):
    project = tmp_path / "project"              # the sample game beside the half-made one
    shutil.copytree(SAMPLE, project)
    folder = project / "components" / "half-made"
    folder.mkdir()
    for name in ("cards", "boards"):
        (folder / f"{name}.yaml").write_bytes((project / "components" / "sample-game" / f"{name}.yaml").read_bytes())
    err = refused(project, "half-made")
    assert "components/half-made/game.yaml: required file is missing" in err
    # the whole project no longer passes over it (the other games are checked in full: no time guard)
    result = pnp("validate", project=project)
    assert result.exit_code == 1 and "components/half-made/game.yaml: required file is missing" in result.stderr


# ---- links out of the project -------------------------------------------------------------

SECRET = "a-private-token-outside-the-project"


def test_a_data_file_linked_out_of_the_project_is_refused(project):
    outside = project.parent / "elsewhere.yaml"
    outside.write_text(f"tokens:\n  x: {{name: {SECRET}}}\n", encoding="utf-8")
    tokens = project / "components" / GAME / "tokens.yaml"
    tokens.unlink()
    tokens.symlink_to(outside)
    err = refused(project, GAME)
    assert f"components/{GAME}/tokens.yaml:1: refused: the path leads outside the project" in err
    assert SECRET not in err


def test_a_game_folder_linked_out_of_the_project_is_refused_file_by_file(project, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "game.yaml").write_text(f"title: {SECRET}\n", encoding="utf-8")
    (elsewhere / "cards.yaml").write_text(f"decks: {SECRET}\n", encoding="utf-8")
    (project / "components" / "linked").symlink_to(elsewhere, target_is_directory=True)
    err = refused(project, "linked")
    for name in ("game", "cards"):
        assert f"components/linked/{name}.yaml:1: refused: the path leads outside the project" in err
    assert SECRET not in err


def test_a_link_out_of_the_project_is_not_even_opened(project):
    """The target is a named pipe: opening it for reading would wait for a writer forever."""
    pipe = project.parent / "pipe"
    os.mkfifo(pipe)
    cards = project / "components" / GAME / "cards.yaml"
    cards.unlink()
    cards.symlink_to(pipe)
    result = own_process(project, "validate", GAME, timeout=30)
    assert result.returncode == 1 and not result.traceback, result.stderr + result.traceback
    assert f"components/{GAME}/cards.yaml:1: refused: the path leads outside the project" in result.stderr


def test_messages_quote_no_more_of_a_file_than_the_offending_token(project):
    folder = project / "components" / GAME
    long_secret = SECRET * 10                # YAML keys stop at 1024 characters
    replace_in(folder / "cards.yaml", "    name: Heroes\n", f"    name: [{long_secret}\n")
    replace_in(folder / "tokens.yaml", "    side_mm: 20", f"    side_mm: *{long_secret}")
    replace_in(folder / "game.yaml", "age: 8", f"age: 8\n{long_secret}: 1")
    err = refused(project, GAME)
    assert SECRET * 2 not in err            # 70 characters: more than any message quotes
    assert f"components/{GAME}/tokens.yaml:{line_of(folder / 'tokens.yaml', long_secret)}: YAML syntax error: found undefined alias" in err
    assert f"unknown key '{long_secret[:59]}…'" in err
