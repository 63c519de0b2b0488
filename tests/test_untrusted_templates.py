"""A template or print-shop profile that came with a project is not trusted: whatever it holds,
`pnp` runs no code, reads and writes nothing outside the project and its output folder, and
a mistake in it is an error at its file and line, exit 1, with output/ as it was."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, SAMPLE, pnp
from generator.core.errors import DataError
from generator.core.artifacts import Artifact
from generator.write.output import write_all


GAME, LOCALE = "sample-game", "en"
HOME_BUILD = ("build", "--game", GAME, "--locale", LOCALE, "--paper", "a4")
# A booklet template is read by the booklet's files: the build of that kind.
BOOKLET_BUILD = (*HOME_BUILD, "--kind", "booklet")
TEMPLATE = "templates/booklet/booklet.html.j2"
TITLE = "  <h1>{{ booklet.title }}</h1>"
PROFILE = "templates/profiles/planted.yaml"
MPC_FRONT = '"{deck}/{number}-{card}-x{copies}-front.png"'


def sample_with_templates(folder: Path) -> Path:
    """A copy of the sample project in `folder`, with templates/ of its own (a copy of the
    tool's) for the tests to plant things in."""
    project = folder / "project"
    shutil.copytree(SAMPLE, project)
    shutil.copytree(ROOT / "templates", project / "templates")
    return project


@pytest.fixture(scope="module")
def good_output(tmp_path_factory) -> Path:
    """output/ of one real build, made once for the module: the booklet's files, which the
    template tests build again."""
    project = sample_with_templates(tmp_path_factory.mktemp("good"))
    result = pnp(*BOOKLET_BUILD, project=project)
    assert result.exit_code == 0, result.output + result.traceback
    return project / "output"


@pytest.fixture
def built(tmp_path, good_output) -> Path:
    """The sample project with the output of a good build in output/."""
    project = sample_with_templates(tmp_path)
    shutil.copytree(good_output, project / "output", symlinks=True)
    return project


def tree(folder: Path, skip: Path | None = None) -> dict[str, object]:
    """Every file's bytes and every link's target under `folder`, links not followed; the
    build cache (output/.cache, whole entries of the work that did finish) aside."""
    found: dict[str, object] = {}
    for top, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not (d == ".cache" and Path(top).name == "output" and
                                           not Path(top, d).is_symlink())]
        for name in dirs + files:
            path = Path(top) / name
            if skip is not None and path == skip:
                continue
            if path.is_symlink():
                found[str(path)] = ("link", os.readlink(path))
            elif path.is_file():
                found[str(path)] = path.read_bytes()
        dirs[:] = [d for d in dirs if Path(top, d) != skip and not Path(top, d).is_symlink()]
    return found


def refused(project: Path, args: tuple[str, ...], expected: list[str]) -> None:
    """`pnp ARGS` fails cleanly with exactly the `expected` lines among its errors, leaving
    output/ and the folders around the project byte for byte as they were."""
    out_before = tree(project / "output")
    assert (project / "output" / "manifest.json") in map(Path, out_before)
    around_before = tree(project.parent, skip=project), sorted(os.listdir(project.parent.parent))
    result = pnp(*args, project=project)
    assert result.exit_code == 1, result.output + result.traceback
    assert not result.traceback and "Traceback" not in result.output, result.output + result.traceback
    lines = result.stderr.splitlines()
    for line in expected:
        assert line in lines, f"{line!r} not in\n{result.stderr}"
    assert lines[-1] == f"{len(expected)} problem(s) found."
    assert tree(project / "output") == out_before
    assert (tree(project.parent, skip=project), sorted(os.listdir(project.parent.parent))) == around_before


def line_of(path: Path, text: str) -> int:
    return path.read_text(encoding="utf-8").splitlines().index(text) + 1


# ---- file names from print-shop profiles ------------------------------------------------------

def plant_profile(project: Path, name: str) -> int:
    """A copy of the mpc profile whose fronts are named `name` (YAML text); the line of it."""
    text = (ROOT / "templates" / "profiles" / "mpc.yaml").read_text(encoding="utf-8")
    assert MPC_FRONT in text
    path = project / PROFILE
    path.write_text(text.replace(MPC_FRONT, name), encoding="utf-8")
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if name in line)


# Seven folders up from output/<game>/<edition>/<locale>/shop/<profile>/ is the project's parent.
CLIMB = "../" * 7


@pytest.mark.parametrize("yaml_name, name, reason", [
    (f'"{CLIMB}{{card}}-front.png"', f"{CLIMB}{{card}}-front.png", "'..' would leave the output folder"),
    ('"{deck}/../../../../../../../../{card}.png"', "{deck}/../../../../../../../../{card}.png",
     "'..' would leave the output folder"),
    ('"{deck}\\\\..\\\\..\\\\{card}.png"', "{deck}\\..\\..\\{card}.png", "it holds a backslash (folders are separated by /)"),
    ('"{deck}/{card}\\0.png"', "{deck}/{card}\0.png", "it holds a control character"),
    ('"{deck}//{card}.png"', "{deck}//{card}.png", "it has an empty or '.' folder name"),
])
def test_a_profile_file_name_must_stay_inside_the_output_folder(built, yaml_name, name, reason):
    line = plant_profile(built, yaml_name)
    expected = [f"{PROFILE}:{line}: cards.files.0.name: cannot name a file {name!r}: {reason}"]
    refused(built, ("validate", GAME, "--profile", "planted"), expected)
    refused(built, ("build", "--profile", "planted", "--game", GAME, "--locale", LOCALE), expected)


def test_an_absolute_profile_file_name_is_refused(built):
    target = built.parent / "planted-{card}.png"
    line = plant_profile(built, f'"{target}"')
    expected = [f"{PROFILE}:{line}: cards.files.0.name: cannot name a file {str(target)!r}: it is an absolute path"]
    refused(built, ("build", "--profile", "planted", "--game", GAME, "--locale", LOCALE), expected)


def test_a_profile_file_name_is_plain_fields_only(built):
    line = plant_profile(built, '"{deck.__class__}/{card}.png"')
    refused(built, ("validate", GAME, "--profile", "planted"), [
        f"{PROFILE}:{line}: cards.files.0.name: unknown field {{deck.__class__}} "
        f"(fields: card, copies, deck, edition, game, locale, number, product)"])


def test_a_profile_booklet_name_must_stay_inside_the_output_folder(built):
    text = (ROOT / "templates" / "profiles" / "eu-3mm.yaml").read_text(encoding="utf-8")
    assert '  name: "booklet.pdf"\n' in text
    (built / PROFILE).write_text(text.replace('  name: "booklet.pdf"\n', f'  name: "{CLIMB}booklet.pdf"\n'),
                                 encoding="utf-8")
    line = line_of(built / PROFILE, f'  name: "{CLIMB}booklet.pdf"')
    refused(built, ("build", "--profile", "planted", "--game", GAME, "--locale", LOCALE), [
        f"{PROFILE}:{line}: booklet.name: cannot name a file '{CLIMB}booklet.pdf': '..' would leave the output folder"])


def test_a_profile_whose_name_climbs_out_is_refused(built):
    shutil.copy(ROOT / "templates" / "profiles" / "mpc.yaml", built / "templates" / "profiles" / "...yaml")
    refused(built, ("build", "--profile", "..", "--game", GAME, "--locale", LOCALE), [
        "templates/profiles/...yaml: cannot name a folder '..': '..' would leave the output folder"])


# ---- the write stage, for every file the build makes ------------------------------------------

def test_a_link_in_the_output_folder_is_not_followed(built):
    elsewhere = built.parent / "elsewhere"
    elsewhere.mkdir()
    folder = built / "output" / GAME / "standard" / LOCALE
    shutil.rmtree(folder)
    folder.symlink_to(elsewhere)
    refused(built, BOOKLET_BUILD, [
        f"{folder}: a link to {elsewhere.resolve()}, outside the output folder: the build writes nothing through it"])
    assert list(elsewhere.iterdir()) == []


def test_a_game_folder_name_that_is_no_file_name_is_refused_at_the_write_stage(built):
    (built / "components" / GAME).rename(built / "components" / "the\\game")
    out_before = tree(built / "output")
    # the card files, four of them: every path of the game is refused
    result = pnp("build", "--game", "the\\game", "--locale", LOCALE, "--paper", "a4", "--kind", "cards", project=built)
    assert result.exit_code == 1 and not result.traceback, result.output + result.traceback
    lines = result.stderr.splitlines()
    assert "components/the\\game: refused to write 'the\\\\game/standard/en/the\\\\game-standard-en-preview-heroes.png' " \
           "and 3 more: it holds a backslash (folders are separated by /)" in lines, result.stderr
    assert tree(built / "output") == out_before


@pytest.mark.parametrize("name", ["{outside}", "../x.pdf", "a/../../x.pdf", "a\\..\\x.pdf", "a/x\0.pdf", "", "a//x.pdf"])
def test_the_write_stage_writes_nothing_when_any_path_leaves_the_output_folder(tmp_path, name):
    outside = tmp_path / "outside.pdf"
    path = name.replace("{outside}", str(outside))
    out = tmp_path / "out"
    good = Artifact("game/good.pdf", b"good", "game", "cards")
    bad = Artifact(path, b"bad", "game", "cards", source=("templates/profiles/p.yaml", 3, "cards.files.0.name"))
    with pytest.raises(DataError) as caught:
        write_all(out, [good, bad])
    [problem] = caught.value.problems
    assert (problem.file, problem.line, problem.key) == ("templates/profiles/p.yaml", 3, "cards.files.0.name")
    assert problem.message.startswith(f"refused to write {path!r}: ")
    assert sorted(os.listdir(tmp_path)) == []


# ---- booklet templates ----------------------------------------------------------------------

def plant_template(project: Path, text: str) -> int:
    """The booklet template with its title line replaced by `text`; that line's number."""
    path = project / TEMPLATE
    line = line_of(path, TITLE)
    path.write_text(path.read_text(encoding="utf-8").replace(TITLE, text, 1), encoding="utf-8")
    return line


def shell(marker: Path) -> str:
    return f"os.popen('touch {marker}').read()"


def test_jinja2_globals_do_not_reach_python(built):
    marker = built.parent / "ran"
    line = plant_template(built, "{{ cycler.__init__.__globals__." + shell(marker) + " }}")
    expected = [f"{TEMPLATE}:{line}: __globals__: not allowed in a booklet template: access to attribute '__globals__' is unsafe",
                f"{TEMPLATE}:{line}: __init__: not allowed in a booklet template: access to attribute '__init__' is unsafe",
                f"{TEMPLATE}:{line}: cycler: 'cycler' is undefined (a booklet template has booklet, fonts, stylesheet, "
                f"pad_pages, range)"]
    refused(built, ("validate", GAME), expected)
    refused(built, BOOKLET_BUILD, expected)
    assert not marker.exists()


def test_the_sandbox_stops_what_validation_cannot_see(built):
    """Names spelt at run time pass the checks on the template's text; the sandbox refuses them."""
    marker = built.parent / "ran"
    names = "".join(f"{{% set {name} = '_' ~ '_{name}__' %}}" for name in ("class", "init", "globals", "builtins", "import"))
    line = plant_template(built, names + "{{ (booklet|attr(class)|attr(init)|attr(globals))[builtins][import]('os')."
                          + shell(marker) + " }}")
    assert pnp("validate", GAME, project=built).exit_code == 0
    refused(built, BOOKLET_BUILD, [f"{TEMPLATE}:{line}: __class__: not allowed in a booklet template: access to attribute "
                                f"'__class__' of 'BookletContent' object is unsafe."])
    assert not marker.exists()


def test_a_template_cannot_change_the_values_it_is_given(built):
    line = plant_template(built, "{{ booklet.sections.append(1) }}")
    refused(built, BOOKLET_BUILD, [f"{TEMPLATE}:{line}: append: not allowed in a booklet template: access to attribute "
                                f"'append' of 'list' object is unsafe."])


UI_WORDS = ", ".join(sorted(yaml.safe_load((SAMPLE / "components" / GAME / "booklet.yaml").read_text("utf-8"))["ui"]))


@pytest.mark.parametrize("text, key_message, validated", [
    ("{{ booklet.title }", "template syntax error: unexpected '}'", True),
    ("{{ booklet.subtitel }}", "subtitel: BookletContent has no 'subtitel' (it has lang, title, subtitle, tagline, "
                               "edition, facts, ui, sections, draft, cover_card, cover_card_alt, scale_label, scale_bar, notes)", True),
    ("{{ booklet.sections[0].titel }}", "titel: Section has no 'titel' (it has id, title, blocks)", False),
    ("{{ booklet.ui.nope }}", f"nope: dict has no 'nope' (it has {UI_WORDS})", False),
    ("{{ 1 / 0 }}", "the template failed: division by zero (ZeroDivisionError)", False),
])
def test_a_mistake_in_a_template_is_reported_at_its_line(built, text, key_message, validated):
    line = plant_template(built, text)
    expected = [f"{TEMPLATE}:{line}: {key_message}"]
    if validated:                 # found without rendering
        refused(built, ("validate", GAME), expected)
    else:
        assert pnp("validate", GAME, project=built).exit_code == 0
    refused(built, BOOKLET_BUILD, expected)


def test_a_template_reads_no_file_outside_the_project(built):
    secret = built.parent / "secret.txt"
    secret.write_text("SECRET", encoding="utf-8")
    line = plant_template(built, "{% include '../../secret.txt' %}")
    dirs = f"{built}/templates, {ROOT}/templates"
    expected = [f"{TEMPLATE}:{line}: no template '../../secret.txt' in {dirs}"]
    refused(built, ("validate", GAME), expected)
    refused(built, BOOKLET_BUILD, expected)


def test_a_template_that_is_a_link_out_of_the_project_is_not_read(built):
    planted = built.parent / "planted.j2"
    planted.write_text("{{ booklet.title }}", encoding="utf-8")
    (built / TEMPLATE).unlink()
    (built / TEMPLATE).symlink_to(planted)
    expected = [f"{TEMPLATE}:1: refused: the path leads outside the project"]
    refused(built, ("validate", GAME), expected)
    refused(built, BOOKLET_BUILD, expected)


def test_a_templates_folder_that_is_a_link_out_of_the_project_is_not_read(built):
    shared = built.parent / "shared-booklet"
    shutil.move(built / "templates" / "booklet", shared)
    (built / "templates" / "booklet").symlink_to(shared)
    expected = [f"{TEMPLATE}:1: refused: the path leads outside the project"]
    refused(built, ("validate", GAME), expected)
    refused(built, BOOKLET_BUILD, expected)
