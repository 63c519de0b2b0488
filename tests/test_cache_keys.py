"""Every input of a built file's cache key: change it, rebuild into the same output folder, and
the files are those of a build with no cache; a damaged output file is made again.

A key that leaves an input out fails here: the rebuild keeps the old files (or says "nothing
changed") while a build without the cache makes other bytes. Each case also checks that its
change does reach a file, so no case passes for want of anything to rebuild.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import ROOT, SAMPLE, pnp, replace_in


pytestmark = pytest.mark.own_cache

GAME = "sample-game"
CARDS = ("--kind", "cards", "--paper", "a4")
BOOKLET = ("--kind", "booklet", "--paper", "a4")


def files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and ".cache" not in p.relative_to(out).parts and p.name != "manifest.json"}


def manifest(out: Path) -> dict[str, dict]:
    return {e["path"]: e for e in json.loads((out / "manifest.json").read_text(encoding="utf-8"))["files"]}


def build(project: Path, out: Path, *args: str):
    result = pnp("build", "-j", "1", "--out", str(out), *args, project=project)
    assert result.exit_code == 0, result.output + result.traceback
    return result


def rendered(result) -> int:
    line = result.output.strip().splitlines()[-1]
    if "nothing changed" in line:
        return 0
    return int(line.split(": ")[-1].split(" rendered")[0])


# ---- one project and one first build per selection, copied by each case ---------------------------

@pytest.fixture(scope="module")
def seed(tmp_path_factory) -> Path:
    """The sample project with templates of its own (a card sheet and the booklet's style, as a
    designer overrides them) and a draft Bulgarian catalog."""
    project = tmp_path_factory.mktemp("seed") / "project"
    shutil.copytree(SAMPLE, project)
    (project / "templates" / "sheets").mkdir(parents=True)
    shutil.copy(ROOT / "templates" / "sheets" / "poker-3x3.yaml", project / "templates" / "sheets")
    shutil.copytree(ROOT / "templates" / "booklet", project / "templates" / "booklet")
    replace_in(project / "components" / GAME / "game.yaml", "  en: released\n", "  en: released\n  bg: draft\n")
    catalog = project / "components" / GAME / "locales" / "bg.po"
    catalog.parent.mkdir()
    catalog.write_text('msgid ""\nmsgstr ""\n"Language: bg\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                       'msgctxt "cards.knight.name"\nmsgid "Knight"\nmsgstr "Рицар"\n', encoding="utf-8")
    return project


@pytest.fixture(scope="module")
def first_builds(seed, tmp_path_factory):
    """The output folder (cache included) of a first build of the seed with these options."""
    made: dict[tuple, Path] = {}

    def first(args: tuple) -> Path:
        if args not in made:
            out = tmp_path_factory.mktemp("first") / "out"
            build(seed, out, *args)
            made[args] = out
        return made[args]
    return first


@pytest.fixture
def copy(seed, first_builds, tmp_path):
    """(project, output folder) copies of the seed and its first build with `args`."""
    def make(args: tuple) -> tuple[Path, Path]:
        project, out = tmp_path / "project", tmp_path / "out"
        shutil.copytree(seed, project)
        shutil.copytree(first_builds(args), out, symlinks=True)
        return project, out
    return make


def assert_as_without_cache(project: Path, out: Path, args: tuple, before: dict[str, bytes], tmp_path: Path):
    """What the rebuild into `out` holds for every file a build without the cache makes is that
    build's, bytes and manifest entry; and the change made some file other than it was."""
    cold = tmp_path / "cold"
    build(project, cold, *args, "--no-cache")
    wanted, got = files(cold), files(out)
    assert any(before.get(path) != data for path, data in wanted.items()), "the change reached no file"
    stale = sorted(path for path, data in wanted.items() if got.get(path) != data)
    assert not stale, f"the rebuild kept files a build without the cache makes otherwise: {stale}"
    entries = manifest(out)
    assert {path: entries.get(path) for path in manifest(cold)} == manifest(cold)


# ---- the options ---------------------------------------------------------------------------------

@pytest.mark.parametrize("option", [("--back-offset", "2,-1.5"), ("--duplex", "short"), ("--duplex", "fronts"), ("--ink", "saver"),
                                    ("--cutter", "silhouette")], ids=lambda o: " ".join(o))
def test_every_option_is_part_of_a_files_key(copy, tmp_path, option):
    project, out = copy(CARDS)
    before = files(out)
    result = build(project, out, *CARDS, *option)
    assert rendered(result) > 0, result.output
    assert_as_without_cache(project, out, CARDS + option, before, tmp_path)


def test_the_paper_is_part_of_a_files_key(copy, tmp_path):
    project, out = copy(CARDS)
    before = files(out)
    letter = ("--kind", "cards", "--paper", "letter")
    build(project, out, *letter)
    assert_as_without_cache(project, out, letter, before, tmp_path)


# ---- the project's own templates, its catalogs, data and pictures -----------------------------------

CHANGES = {
    "a sheet of the project's templates": (
        CARDS, lambda p: replace_in(p / "templates" / "sheets" / "poker-3x3.yaml", "length_mm: 4", "length_mm: 7")),
    "the booklet style of the project's templates": (
        BOOKLET, lambda p: (p / "templates" / "booklet" / "booklet.css").write_text(
            (p / "templates" / "booklet" / "booklet.css").read_text(encoding="utf-8")
            + "\nh1, h2 { letter-spacing: 2pt; }\n", encoding="utf-8")),
    "a translation in a catalog": (
        ("--locale", "bg") + CARDS,
        lambda p: replace_in(p / "components" / GAME / "locales" / "bg.po", 'msgstr "Рицар"', 'msgstr "Млад рицар"')),
    "a colour in the data": (
        CARDS, lambda p: replace_in(p / "components" / GAME / "cards.yaml", 'colour: "#3A61C4"', 'colour: "#3A61C5"')),
    "a count in the data": (
        CARDS, lambda p: (replace_in(p / "components" / GAME / "cards.yaml", "count: {standard: 4}", "count: {standard: 5}"),
                          replace_in(p / "rules" / "sample_game" / "__init__.py", '"knight": 4', '"knight": 5'))),
    "the order of the boards in the data": (
        ("--kind", "boards", "--paper", "a4"), lambda p: _boards_swapped(p / "components" / GAME / "boards.yaml")),
    "a layout": (
        CARDS, lambda p: replace_in(p / "components" / GAME / "layouts.yaml", "box: [11.5, 34, 40, 40]",
                                   "box: [13.5, 34, 36, 36]")),
    "a picture the data names": (
        CARDS, lambda p: (p / "components" / GAME / "art" / "sun.svg").write_text(
            (p / "components" / GAME / "art" / "sun.svg").read_text(encoding="utf-8").replace('r="12"', 'r="9"'),
            encoding="utf-8")),
}


def _boards_swapped(path: Path) -> None:
    """The sample's two boards written the other way round: printed in that order."""
    text = path.read_text(encoding="utf-8")
    head, boards = text.split("boards:\n", 1)
    starts = [i for i, line in enumerate(boards.splitlines(keepends=True)) if line.startswith("  ") and not line.startswith("   ")]
    lines = boards.splitlines(keepends=True)
    assert len(starts) == 2, starts
    first, second = "".join(lines[starts[0]:starts[1]]), "".join(lines[starts[1]:])
    path.write_text(head + "boards:\n" + "".join(lines[:starts[0]]) + second + first, encoding="utf-8")


@pytest.mark.parametrize("what", list(CHANGES))
def test_a_changed_input_rebuilds_as_a_build_without_the_cache(copy, tmp_path, what):
    args, change = CHANGES[what]
    project, out = copy(args)
    before = files(out)
    change(project)
    result = build(project, out, *args)
    assert "nothing changed" not in result.output and rendered(result) > 0, result.output
    if what == "a translation in a catalog":
        # a text is looked up again, not the whole kit redrawn: only the files that print it
        changed = {path for path, data in files(out).items() if before.get(path) != data}
        assert rendered(result) == len(changed) < len(before), (result.output, changed)
    assert_as_without_cache(project, out, args, before, tmp_path)


# ---- the tool's own inputs: its code, fonts, templates; a game's rules module ------------------------

def _tool_folders(tmp_path, monkeypatch, tool_files: list[str], project_files: list[str]):
    """A generator and tool templates (`tool_files`, under "generator/" or "tool-templates/") in
    place of the tool's own, and a project (`project_files`), each file with some bytes; the
    incremental module, and a project object for its digests."""
    from generator.write import incremental

    for relative in tool_files + [f"project/{name}" for name in project_files]:
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"first " + path.name.encode())
    monkeypatch.setattr(incremental, "GENERATOR", tmp_path / "generator")
    monkeypatch.setattr(incremental, "TOOL_TEMPLATES", tmp_path / "tool-templates")

    class Project:
        root = tmp_path / "project"

    return incremental, Project


def _each_file_changes(tmp_path, digest, which: str, skip=()) -> set[str]:
    """Change every file of the tool's and project's folders in turn (but those ending in
    `skip`): each gives a new digest. The digests seen."""
    seen = {digest()}
    for path in sorted(p for folder in ("generator", "tool-templates", "project") for p in (tmp_path / folder).rglob("*")
                       if p.is_file() and not p.name.endswith(tuple(skip))):
        path.write_bytes(path.read_bytes() + b" changed")
        now = digest()
        assert now not in seen, f"{path.relative_to(tmp_path)} changed and the {which} digest did not"
        seen.add(now)
    return seen


def test_the_tool_digest_covers_the_generator_its_fonts_templates_and_the_projects_own(tmp_path, monkeypatch):
    """Each folder the tool draws with: the generator (its code and fonts), the tool's templates
    (sheets, profiles, booklet), the project's templates and its rules modules."""
    incremental, project = _tool_folders(
        tmp_path, monkeypatch,
        ["generator/core/colour.py", "generator/fonts/NotoSans-Regular.ttf", "tool-templates/sheets/poker-3x3.yaml",
         "tool-templates/profiles/eu-3mm.yaml", "tool-templates/booklet/booklet.css"],
        ["templates/sheets/poker-3x3.yaml", "templates/profiles/mine.yaml", "rules/my_game/__init__.py"])

    def digest() -> str:
        incremental.forget_digests()
        return incremental.tool_digest(project)

    seen = _each_file_changes(tmp_path, digest, "tool")
    (project.root / "templates" / "sheets" / "new.yaml").write_text("name: new\n", encoding="utf-8")
    assert digest() not in seen, "a template added to the project left the tool digest as it was"


def test_the_data_checks_digest_covers_the_code_templates_and_rules_and_fonts_by_name_and_size(tmp_path, monkeypatch):
    """What `pnp simulate` and `pnp play` key a game's passed data checks by: every file the
    tool digest covers, but a font or colour profile by its name and size, not its content."""
    incremental, project = _tool_folders(
        tmp_path, monkeypatch,
        ["generator/validate/checks.py", "generator/schemas/cards.yaml", "generator/fonts/NotoSans-Regular.ttf",
         "generator/core/icc/press.icc", "tool-templates/profiles/eu-3mm.yaml"],
        ["templates/sheets/mine.yaml", "rules/my_game/__init__.py"])

    def digest() -> str:
        incremental.forget_digests()
        return incremental.checks_digest(project)

    seen = _each_file_changes(tmp_path, digest, "checks", skip=(".ttf", ".icc"))
    font = tmp_path / "generator" / "fonts" / "NotoSans-Regular.ttf"
    same = digest()
    font.write_bytes(font.read_bytes().upper())             # the same size: no check reads a glyph
    assert digest() == same
    font.write_bytes(font.read_bytes() + b"!")
    assert digest() not in seen | {same}, "a font of another size left the checks digest as it was"
    seen.add(digest())
    (tmp_path / "generator" / "fonts" / "NotoSerif-Regular.ttf").write_bytes(b"new")
    assert digest() not in seen, "a font added left the checks digest as it was"


def test_a_games_rules_module_is_part_of_its_data_digests(tmp_path):
    from generator.app.loading import load_games
    from generator.load.project import Project
    from generator.write.incremental import data_digest, structure_digest

    project = tmp_path / "project"
    shutil.copytree(SAMPLE, project)

    def digests():
        (game,) = load_games(Project(project), GAME, texts=False)
        return data_digest(game), structure_digest(game, set())

    before = digests()
    rules = project / "rules" / "sample_game" / "__init__.py"
    rules.write_text(rules.read_text(encoding="utf-8") + "\nEXTRA = 1\n", encoding="utf-8")
    after = digests()
    assert before[0] != after[0] and before[1] != after[1]


# ---- damaged output files ----------------------------------------------------------------------------

def damage_in_place(path: Path) -> None:
    """The same size, other bytes: a flipped run in the middle of the file."""
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle:middle + 16] = bytes(b ^ 0xFF for b in data[middle:middle + 16])
    path.write_bytes(bytes(data))


def test_an_output_file_damaged_in_place_is_made_again(copy):
    project, out = copy(CARDS)
    before = files(out)
    sheet = out / GAME / "standard" / "en" / f"{GAME}-standard-en-cards-a4.pdf"
    damage_in_place(sheet)
    assert sheet.read_bytes() != before[sheet.relative_to(out).as_posix()]
    result = build(project, out, *CARDS)
    assert "nothing changed" not in result.output
    assert files(out) == before


def test_a_damaged_file_is_made_again_when_the_build_changes_other_files(copy):
    """The build is not up to date (a card's colour changed) and the damaged file's own unit is
    reused from the cache: it is still written again, whole."""
    project, out = copy(CARDS)
    calibration = out / GAME / "standard" / "en" / f"{GAME}-standard-en-calibration-a4.pdf"
    good = calibration.read_bytes()
    damage_in_place(calibration)
    replace_in(project / "components" / GAME / "cards.yaml", 'colour: "#3A61C4"', 'colour: "#3A61C5"')
    build(project, out, *CARDS)
    assert calibration.read_bytes() == good


def test_an_installed_rules_package_is_part_of_a_whole_builds_inputs(monkeypatch):
    """A rules module installed as a package (entry point group `pnp.rules`) is known by its
    name, its module and its version: another version is another build, and so is another
    module under the same name; what other groups hold is not read."""
    from importlib import metadata
    from types import SimpleNamespace

    from generator.app.request import BuildRequest
    from generator.load.project import Project
    from generator.write import incremental

    installed = {"version": "1.0", "value": "dice_rules"}

    def entry_points(group=None):
        if group != "pnp.rules":
            return [SimpleNamespace(name="elsewhere", value=installed["value"], dist=None)]
        return [SimpleNamespace(name="dice", value=installed["value"], dist=SimpleNamespace(version=installed["version"]))]

    monkeypatch.setattr(metadata, "entry_points", entry_points)
    project, request = Project(SAMPLE), BuildRequest()
    first = incremental.whole_build_inputs(project, request)
    assert incremental.whole_build_inputs(project, request) == first
    installed["version"] = "1.1"
    second = incremental.whole_build_inputs(project, request)
    installed["value"] = "other_rules"
    assert len({first, second, incremental.whole_build_inputs(project, request)}) == 3
