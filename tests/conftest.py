"""Shared fixtures: a private copy of the project to change, and running `pnp` like a user."""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import math
import multiprocessing
import multiprocessing.spawn
import os
import re
import shutil
import traceback
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
import yaml
from babel.messages.pofile import read_po
from click.testing import CliRunner

from generator.app import home as home_target
from generator.app.booklet import rule_booklet_content
from generator.app.loading import load_games
from generator.cli.main import main
from generator.i18n.texts import Texts
from generator.layout.faces import Localised
from generator.layout.kit import Kit
from generator.load.project import Project as LoadedProject


ROOT = Path(__file__).resolve().parent.parent
# The suite runs its files on every core (pytest -n): each build it makes runs in one process,
# as `pnp build --jobs 1` does. Tests of parallel builds say --jobs themselves.
os.environ["PNP_JOBS"] = "1"


class Result:
    def __init__(self, result):
        self.exit_code = result.exit_code
        self.stdout = result.stdout
        self.stderr = result.stderr
        self.output = result.output
        self.exception = result.exception
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            self.traceback = "".join(traceback.format_exception(result.exception))
        else:
            self.traceback = ""


def pnp(*args: str, project: Path = ROOT) -> Result:
    """Run `pnp -C project ARGS` in-process, as the console script would. After every build,
    the output folder's manifest is checked against the files on disk."""
    runner = CliRunner()
    result = Result(runner.invoke(main, ["-C", str(project), *args], catch_exceptions=True))
    if args and args[0] == "build":
        out = Path(args[args.index("--out") + 1]) if "--out" in args else project / "output"
        if result.exit_code == 0:     # a failed build's folder is checked by the tests that make one
            check_manifest(out)
    return result


def simulation_runs(stdout: str) -> list[dict]:
    """The runs `pnp simulate --json` printed, each run's measured actions_per_second checked
    (a whole number of actions a second, above 0) and taken out: the rest is the same for the
    same seed."""
    runs = json.loads(stdout)["runs"]
    for run in runs:
        speed = run.pop("actions_per_second")
        assert isinstance(speed, int) and speed > 0, speed
        assert run["actions_per_game"] > 0
    return runs


def check_manifest(out: Path) -> list[dict]:
    """Every entry of out/manifest.json names a file there with that sha256, size and page
    count, and every file in the folder has an entry: what the manifest says is on disk."""
    entries = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["files"]
    on_disk = sorted(p.relative_to(out).as_posix() for p in out.rglob("*")
                     if p.is_file() and p.name != "manifest.json" and not _through_link(out, p)
                     and p.relative_to(out).parts[0] != ".cache")
    assert sorted(e["path"] for e in entries) == on_disk, f"{out}: the manifest and the folder list other files"
    for entry in entries:
        data = (out / entry["path"]).read_bytes()
        assert (entry["sha256"], entry["bytes"]) == (hashlib.sha256(data).hexdigest(), len(data)), \
            f"{entry['path']}: the manifest's sha256 and size are not the file's"
        assert entry["pages"] == page_count(data), f"{entry['path']}: the manifest's page count is not the file's"
    return entries


def _through_link(out: Path, path: Path) -> bool:
    """Whether `path` is reached through a linked folder in `out` (the build writes nothing there)."""
    folder = out
    for part in path.relative_to(out).parts[:-1]:
        folder = folder / part
        if folder.is_symlink():
            return True
    return False


def page_count(data: bytes) -> int:
    """Pages of a PDF; a PNG is one page, any other file (JSON, text) none."""
    if data.startswith(b"\x89PNG"):
        return 1
    if not data.startswith(b"%PDF"):
        return 0
    pdf = pdfium.PdfDocument(data)
    try:
        return len(pdf)
    finally:
        pdf.close()


def snapshot(folder: Path) -> dict[Path, bytes]:
    """Every file under `folder` with its bytes."""
    return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
            and ".cache" not in p.relative_to(folder).parts}


def line_of(path: Path, needle: str, start: str | None = None, last: bool = False) -> int:
    """The number of the first (or last) line holding `needle`, after the first line holding `start`."""
    lines = path.read_text(encoding="utf-8").splitlines()
    first = 0 if start is None else next(i for i, line in enumerate(lines) if start in line)
    found = [number for number, line in enumerate(lines[first:], first + 1) if needle in line]
    assert found, f"{needle!r} not in {path}"
    return found[-1] if last else found[0]


@pytest.fixture
def project(tmp_path) -> Path:
    """A copy of the project's data and templates that a test may change."""
    copy = tmp_path / "project"
    copy.mkdir()
    shutil.copytree(ROOT / "components", copy / "components")
    shutil.copytree(ROOT / "templates", copy / "templates")
    return copy


def replace_in(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


# Home paper and card sizes in mm, stated here independently of the templates under test.
MM = 72 / 25.4
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
CARD = (63.0, 88.0)


def card_cells(paper: str) -> dict[tuple[int, int], tuple[float, float]]:
    """Lower-left corner (mm) of each card cell of a centred 3 x 3 sheet of poker cards, keyed
    (column, row), rows counted from the top."""
    width, height = PAPERS[paper]
    left, bottom = (width - 3 * CARD[0]) / 2, (height - 3 * CARD[1]) / 2
    return {(column, row): (left + column * CARD[0], bottom + (2 - row) * CARD[1])
            for row in range(3) for column in range(3)}


def cell_texts(page, paper: str) -> dict[tuple[int, int], str]:
    """Text inside each card cell of a centred 3 x 3 sheet of poker cards, keyed (column, row)."""
    textpage = page.get_textpage()
    cells = {}
    for cell, (x0, y0) in card_cells(paper).items():
        text = textpage.get_text_bounded(x0 * MM + 1, y0 * MM + 1, (x0 + CARD[0]) * MM - 1, (y0 + CARD[1]) * MM - 1)
        cells[cell] = " ".join(text.split())
    return cells


def _mul(m, n):
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2,
            e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def _apply(ctm, x, y):
    a, b, c, d, e, f = ctm
    return (a * x + c * y + e, b * x + d * y + f)


def content_streams(pdf):
    """(content owner, its resources) of each page of `pdf`, each followed by the form
    XObjects it draws, every form once."""
    seen = set()

    def visit(owner, resources):
        yield owner, resources
        for xobject in (resources or {}).get("/XObject", {}).values():
            if xobject.objgen not in seen and xobject.get("/Subtype") == "/Form":
                seen.add(xobject.objgen)
                yield from visit(xobject, xobject.get("/Resources"))

    for page in pdf.pages:
        yield from visit(page, page.obj.get("/Resources"))


def painted_operators(pdf) -> list[tuple[str, list]]:
    """(operator, operands) of everything painted: every page and form of `pdf`, each form once."""
    return [(str(operator), operands) for owner, _ in content_streams(pdf)
            for operands, operator in pikepdf.parse_content_stream(owner)]


def content_ops(stream, ctm=(1, 0, 0, 1, 0, 0)):
    """(operands, operator, current transformation) of each operator of a page's or a form's
    content, the graphics state's q / Q / cm followed."""
    stack = []
    for operands, operator in pikepdf.parse_content_stream(stream):
        op = str(operator)
        if op == "q":
            stack.append(ctm)
        elif op == "Q":
            ctm = stack.pop()
        elif op == "cm":
            ctm = _mul([float(v) for v in operands], ctm)
        yield operands, op, ctm


def page_drawing(page) -> dict:
    """Forms placed on the page (mm rectangle, turned or not, form name), line segments in mm
    (outside forms), clip rectangles with the translation that follows them."""
    forms, lines, clips = [], [], []
    current = None
    xobjects = page.obj.Resources.get("/XObject", {})
    pending_clip = None
    for operands, op, ctm in content_ops(page):
        if op == "cm":
            if pending_clip:
                clips.append((pending_clip, (ctm[4] / MM, ctm[5] / MM)))
                pending_clip = None
        elif op == "m":
            current = _apply(ctm, float(operands[0]), float(operands[1]))
        elif op == "l" and current is not None:
            end = _apply(ctm, float(operands[0]), float(operands[1]))
            lines.append(((current[0] / MM, current[1] / MM), (end[0] / MM, end[1] / MM)))
            current = end
        elif op == "re":
            x, y, w, h = (float(v) for v in operands)
            pending_clip = (x / MM, y / MM, w / MM, h / MM)
        elif op == "Do":
            form = xobjects[operands[0]]
            x0, y0, x1, y1 = (float(v) for v in form.BBox)
            corner_a = _apply(ctm, x0, y0)
            corner_b = _apply(ctm, x1, y1)
            left, right = sorted((corner_a[0], corner_b[0]))
            bottom, top = sorted((corner_a[1], corner_b[1]))
            forms.append({"rect": (left / MM, bottom / MM, (right - left) / MM, (top - bottom) / MM),
                          "turned": ctm[0] < 0 and ctm[3] < 0, "name": str(operands[0])})
    return {"forms": forms, "lines": lines, "clips": clips}


# ---- one build cache for the test session ----------------------------------------------
# Many tests build the same kits into folders of their own. Their builds share one cache (kept
# by content: a unit is reused only when its tool, data and texts are the ones it was made
# from), so a file the session has made once is made again only where its inputs differ.
# A test that changes the generator's code or environment (monkeypatch), or that is about the
# cache, the build's work or its reproducibility itself, keeps the cache in its own folder, and
# what the process remembers of earlier checks (generator.validate.checks's played games) is dropped
# before and after it.
OWN_CACHE_MODULES = {"test_incremental", "test_reproducible", "test_render_speedups", "test_serve",
                     "test_build_kinds", "test_untrusted_templates", "test_home_ink", "test_input_limits"}
_shared_cache = {"root": None, "on": False}


def _uses_shared_cache(item) -> bool:
    module = item.module.__name__.rpartition(".")[2] if getattr(item, "module", None) else ""
    return (module not in OWN_CACHE_MODULES and "monkeypatch" not in getattr(item, "fixturenames", ())
            and item.get_closest_marker("own_cache") is None)


def pytest_configure(config):
    config.addinivalue_line("markers", "own_cache: the test's builds keep their cache in their output folder")
    from generator.write import cache as cache_module
    if getattr(cache_module.Cache, "_session_shared", False):
        return
    original_init, original_prune = cache_module.Cache.__init__, cache_module.Cache.prune

    def init(self, out):
        original_init(self, out)
        self.shared = _shared_cache["on"] and _shared_cache["root"] is not None
        if self.shared:
            self.root = _shared_cache["root"] / cache_module.FOLDER

    def prune(self, made_bytes):
        if not getattr(self, "shared", False):     # the session's cache is dropped with its folder
            original_prune(self, made_bytes)

    cache_module.Cache.__init__, cache_module.Cache.prune = init, prune
    cache_module.Cache._session_shared = True


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    _shared_cache["on"] = _uses_shared_cache(item)
    if not _shared_cache["on"]:
        _forget_in_process_results()


def pytest_runtest_teardown(item):
    if not _uses_shared_cache(item):       # what a patched test played is not for the next one
        _forget_in_process_results()


def _forget_in_process_results():
    from generator.app.loading import forget_passed
    from generator.validate.checks import forget_play_checks
    forget_play_checks()
    forget_passed()


@pytest.fixture(scope="session", autouse=True)
def _session_build_cache(tmp_path_factory):
    """The folder of the session's shared cache: one for every worker of a parallel run."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "shared-build-cache"
    folder.mkdir(exist_ok=True)
    _shared_cache["root"] = folder
    yield folder
    _shared_cache["root"] = None


def content_text(node) -> str:
    """Every string a laid-out booklet holds (its sections, blocks, facts and words), one per line."""
    if isinstance(node, str):
        return node if not node.startswith("data:") else ""        # a drawn picture, not text
    if dataclasses.is_dataclass(node):
        node = [getattr(node, f.name) for f in dataclasses.fields(node)]
    if isinstance(node, dict):
        node = list(node.values())
    if isinstance(node, (list, tuple)):
        return "\n".join(content_text(item) for item in node)
    return ""


SAMPLE = Path(__file__).resolve().parent / "fixtures" / "sample"


@pytest.fixture(scope="session")
def sample(tmp_path_factory) -> Path:
    """The sample project (tests/fixtures/sample) built once for A4 per test session: the folder
    of its kit. Tests only read it."""
    return build_sample(tmp_path_factory, "sample", "--paper", "a4")


def build_sample(tmp_path_factory, name: str, *args: str) -> Path:
    """A fresh copy of the sample project built with `pnp build ARGS`: the folder of its kit."""
    project = tmp_path_factory.mktemp(name) / "project"
    shutil.copytree(SAMPLE, project)
    result = pnp("build", *args, project=project)
    assert result.exit_code == 0, result.output + result.traceback
    return project / "output" / "sample-game" / "standard" / "en"


def first_sample_build(tmp_path_factory, *args: str) -> tuple[Path, Path]:
    """(project, output folder with its cache) of a build of a fresh copy of the sample project
    with `pnp build --out OUT ARGS`, for tests to copy (`copy_of_build`)."""
    project = tmp_path_factory.mktemp("first") / "sample"
    shutil.copytree(SAMPLE, project)
    out = project.parent / "out"
    result = pnp("build", "--out", str(out), *args, project=project)
    assert result.exit_code == 0, result.output + result.traceback
    return project, out


def copy_of_build(first: tuple[Path, Path], folder: Path) -> tuple[Path, Path]:
    """A copy of a built project and of its output (files and cache, as they were written) in
    `folder`: what building it there would leave."""
    project, out = folder / "sample", folder / "out"
    shutil.copytree(first[0], project)
    shutil.copytree(first[1], out, symlinks=True)
    return project, out


@pytest.fixture(scope="session")
def rendered_booklet(tmp_path_factory):
    """A game's home rule booklet in an edition and locale: (BookletContent, PDF bytes), the
    PDF as `pnp build --kind booklet` writes it (so the session's other builds of that booklet
    share its rendering, on either worker of a parallel run), the content laid out here as the
    build lays it out."""
    from generator.app.booklet import rule_booklet_content
    from generator.app.loading import load_games
    from generator.i18n.texts import Texts
    from generator.layout.faces import Localised
    from generator.layout.kit import Kit
    from generator.load.project import Project as _Project
    project, games, made = _Project(ROOT), {}, {}
    out = tmp_path_factory.mktemp("booklets")

    def booklet(slug: str, edition: str, locale: str):
        if (slug, edition, locale) not in made:
            if slug not in games:
                games[slug] = load_games(project, slug, texts=False)[0]
            folder = out / f"{slug}-{edition}-{locale}"
            result = pnp("build", "--game", slug, "--edition", edition, "--locale", locale, "--kind", "booklet",
                         "--out", str(folder))
            assert result.exit_code == 0, result.output + result.traceback
            loc = Localised(games[slug], edition, Texts.load(games[slug], locale))
            content = rule_booklet_content(Kit(project, games[slug], loc, ""))   # as the build lays it out
            data = (folder / slug / edition / locale / f"{slug}-{edition}-{locale}-rules.pdf").read_bytes()
            made[slug, edition, locale] = (content, data)
        return made[slug, edition, locale]
    return booklet


@pytest.fixture
def spawned_workers(monkeypatch):
    """Workers started as Windows and macOS start them, a fresh interpreter that
    inherits nothing of the build's memory; how many processes were spawned."""
    spawned = []
    prepare = multiprocessing.spawn.get_preparation_data

    def counted(name):
        spawned.append(name)
        return prepare(name)
    monkeypatch.setattr(multiprocessing.spawn, "get_preparation_data", counted)
    method = multiprocessing.get_start_method()
    multiprocessing.set_start_method("spawn", force=True)
    yield spawned
    multiprocessing.set_start_method(method, force=True)


# ---- which tests share a worker -----------------------------------------------------------
# Files that read the same rendered booklets run on one worker, one after the other: the
# session's cache then hands the later ones the booklets the first rendered, where two
# workers would render each of them side by side. Every other file is its own unit of work.
SAME_WORKER = {name: "booklets" for name in ("test_booklet_print.py", "test_typography.py", "test_rtt_faithful.py",
                                             "test_the_game_booklet.py", "test_donkey_can_booklet.py",
                                             "test_board_map.py")}


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    from xdist.scheduler import LoadFileScheduling

    class SharedFileScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            file = super()._split_scope(nodeid)
            return SAME_WORKER.get(file.rpartition("/")[2], file)

    return SharedFileScheduling(config, log)


# ---- the sample game as print shops take it ----------------------------------------------

def shop_ready_sample(folder: Path) -> Path:
    """A copy of the sample project in `folder/sample` that every shipped print profile takes,
    for the tests of shop files: its coins deck and their box left out (mini cards, which
    DriveThruCards and MakePlayingCards do not print); a second poker deck, villains, with a back of its own and a light
    card with dark text; the boards', dice's and pieces' backgrounds run into the bleed; and a
    460 mm banner, too long for a press sheet (eu-3mm) and printed on the roll
    (large-format-3mm). Its rules count what it holds and play nothing (without coins there is
    no raid). Its hex token stays: the bleed along its
    slanted edges passes preflight as a straight edge's does."""
    project = folder / "sample"
    shutil.copytree(SAMPLE, project)
    game = project / "components" / "sample-game"
    cards = game / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    coins = text[text.index("  coins:\n"):text.index("cards:\n")]
    cards.write_text(text.replace(coins, "  villains:\n    name: Villains\n    layout: hero\n    back: villain-back\n")
                     + '  ogre: {deck: villains, name: Ogre, text: Blocks a space., colour: "#E9C46A", '
                       'ink: "#1E1E1E", count: {standard: 2}}\n', encoding="utf-8")
    boxes = game / "tuckboxes.yaml"
    boxes.write_text("".join(line for line in boxes.read_text(encoding="utf-8").splitlines(keepends=True)
                             if "{deck: coins" not in line), encoding="utf-8")
    layouts = game / "layouts.yaml"
    for face in ("[0, 0, 16, 16]", "[0, 0, 20, 20]", "[0, 0, 280, 200]", "[0, 0, 30, 90]"):
        replace_in(layouts, f'box: {face}, fill: "{{colour}}"}}', f'box: {face}, fill: "{{colour}}", bleed: true}}')
    for board in ("[0, 0, 260, 240]", "[0, 0, 180, 180]"):
        replace_in(layouts, f'box: {board}, fill: "#FAF7F0"}}', f'box: {board}, fill: "#FAF7F0", bleed: true}}')
    replace_in(layouts, "backs:\n", (
        "  banner:\n    size_mm: [460, 40]\n    elements:\n"
        '      - {type: rect, box: [0, 0, 460, 40], fill: "{colour}", bleed: true}\n'
        '      - {type: text, field: name, box: [20, 15, 420, 10], font: bold, size: 20, colour: "#FFFFFF", '
        "align: center}\n"
        "backs:\n  villain-back:\n    size_mm: [63, 88]\n    elements:\n"
        '      - {type: rect, box: [0, 0, 63, 88], fill: "#5A1E1E", bleed: true}\n'
        "      - {type: text, field: game_title, box: [6, 38, 51, 12], font: bold, size: 14, min_size: 8, "
        'colour: "#FFFFFF", align: center}\n'))
    with (game / "pieces.yaml").open("a", encoding="utf-8") as pieces:
        pieces.write('  banner:\n    name: Banner\n    count: {standard: 1}\n    layout: banner\n'
                     '    colour: "#C0392B"\n    outline: [[0, 0], [460, 0], [460, 40], [0, 40]]\n')
    rules = project / "rules" / "sample_game" / "__init__.py"
    replace_in(rules, '"archer": 3, **{coin: 1 for coin in COINS}', '"archer": 3, "ogre": 2')
    replace_in(rules, '"sword": 2}', '"sword": 2, "banner": 1}')
    replace_in(rules, ', "coins-box": 1', "")
    replace_in(rules, '    totals={"standard": {"cards/coins": 10}},\n', "")
    replace_in(rules, "\nENGINE = RaidEngine(SPEC)\n", "\n")
    return project


def shop_card_files(project: Path, profile_name: str, game_slug: str = "sample-game", edition: str = "standard",
                    locale: str = "en") -> list[tuple[str, bytes]]:
    """(path, bytes) of a profile's card files for the game, made and preflighted as `pnp build
    --profile` makes them (generator.app.shop.shop_files); the booklet and components, which the
    tests that call this do not read, left out."""
    from dataclasses import replace

    from generator.app.loading import load_games
    from generator.app.shop import shop_files
    from generator.i18n.texts import Texts
    from generator.layout.faces import Localised
    from generator.layout.kit import Kit
    from generator.load.profiles import load_profile
    from generator.load.project import Project
    loaded = Project(project)
    game = load_games(loaded, game_slug, texts=False)[0]
    kit = Kit(loaded, game, Localised(game, edition, Texts.load(game, locale)), "")
    made, problems = shop_files(kit, replace(load_profile(loaded, profile_name), booklet=None))
    assert not problems, problems
    return [(artifact.path, artifact.data) for artifact in made]


@pytest.fixture(scope="session")
def shop_sample(tmp_path_factory) -> tuple[Path, Path]:
    """(project, output folder) of the shop-ready sample built for every profile with `pnp build
    --profile all`, once a session: the shop tests' files, which they only read."""
    project = shop_ready_sample(tmp_path_factory.mktemp("shop-sample"))
    out = project.parent / "out"
    result = pnp("build", "--profile", "all", "--out", str(out), project=project)
    assert result.exit_code == 0, result.output + result.traceback
    return project, out


# ---- `pnp` in a bounded process of its own ------------------------------------------------
# Hostile inputs run the CLI in a process with a time limit and a bound on its address space:
# a command that runs away fails its test instead of taking the machine. The process is forked
# from the test's, the CLI and the libraries its commands load already imported, where a fresh
# interpreter would spend a second or two importing them for each command.

import importlib  # noqa: E402
import resource  # noqa: E402
import sys  # noqa: E402
import warnings  # noqa: E402


# What the commands import when they run (build, shop profiles, validate, preflight, play).
COMMAND_MODULES = ("generator.app.build", "generator.app.shop", "generator.app.plan", "generator.write.preflight",
                   "generator.rules.scenario")


@dataclasses.dataclass
class Bounded:
    returncode: int
    stdout: str
    stderr: str
    traceback: str          # an exception that escaped the CLI, as the user would have seen it


def bounded_pnp(project: Path, *args: str, memory: int, seconds: float, preload: tuple[str, ...] = ()) -> Bounded:
    """`pnp -C project ARGS` in a forked process that may take `seconds` and hold `memory` bytes
    of address space more than this process does; `preload`: modules imported before the CLI
    runs (what they set for the process holds)."""
    for module in COMMAND_MODULES:
        importlib.import_module(module)
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_run_bounded, args=(send, project, args, memory, preload), daemon=True)
    child.start()
    send.close()
    try:
        if not receive.poll(seconds):
            pytest.fail(f"pnp {' '.join(args)} did not finish within {seconds} s")
        try:
            return Bounded(*receive.recv())
        except EOFError:
            child.join(seconds)
            pytest.fail(f"pnp {' '.join(args)} ended without an answer (exit code {child.exitcode})")
    finally:
        receive.close()
        child.kill()
        child.join()


def _run_bounded(send, project: Path, args: tuple[str, ...], memory: int, preload: tuple[str, ...]) -> None:
    # Warnings are printed with the command's errors, as a process of its own prints them: the
    # test's recorder of warnings, forked with it, would keep them from the test.
    warnings.simplefilter("default")
    warnings.showwarning = _print_warning
    for module in preload:
        importlib.import_module(module)
    with open("/proc/self/statm", encoding="ascii") as statm:       # the address space held now
        held = int(statm.read().split()[0]) * resource.getpagesize()
    resource.setrlimit(resource.RLIMIT_AS, (held + memory, held + memory))
    result = pnp(*args, project=project)
    send.send((result.exit_code, result.stdout, result.stderr, result.traceback))


def _print_warning(message, category, filename, lineno, file=None, line=None) -> None:
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


# ---- the sample game with a second locale ------------------------------------------------
TRANSLATED_LOCALE = "ru"        # three plural forms: a catalog must give more than the source's two


def typeset_as(locale: str, text: str) -> str:
    """Source text with the clause dash and the percent sign `locale` sets
    (templates/locales/typography/, CLDR): what a translator would type."""
    from generator.i18n import typography
    dash = typography.rules(locale).clause_dash
    text = text.replace(" – ", f" {dash} ") if dash else text
    return re.sub(r"(?<=[\d}])[ \u00a0]?%", "\u00a0%" if typography.percent_spaced(locale) else "%", text)


def translated_sample(folder: Path) -> Path:
    """A copy of the sample project in `folder/sample` with a released `ru` catalog that
    `pnp i18n extract` wrote and in which every string is its source text (each plural form
    the source's last), its dashes and percentages set as the locale sets them: complete and
    valid, for tests to change."""
    from babel.messages.plurals import get_plural
    from babel.messages.pofile import read_po, write_po
    project = folder / "sample"
    shutil.copytree(SAMPLE, project)
    game = project / "components" / "sample-game" / "game.yaml"
    replace_in(game, "  en: released\n", f"  en: released\n  {TRANSLATED_LOCALE}: released\n")
    result = pnp("i18n", "extract", "sample-game", project=project)
    assert result.exit_code == 0, result.output + result.traceback
    po = project / "components" / "sample-game" / "locales" / f"{TRANSLATED_LOCALE}.po"
    with po.open("rb") as handle:
        catalog = read_po(handle, locale=TRANSLATED_LOCALE)
    forms = get_plural(TRANSLATED_LOCALE).num_plurals
    for message in catalog:
        if message.id:
            message.string = (message.id[-1],) * forms if isinstance(message.id, tuple) else message.id
            message.string = (tuple(typeset_as(TRANSLATED_LOCALE, text) for text in message.string)
                              if isinstance(message.string, tuple) else typeset_as(TRANSLATED_LOCALE, message.string))
    with po.open("wb") as handle:
        write_po(handle, catalog, width=100)
    result = pnp("i18n", "extract", "sample-game", project=project)     # written as extract writes it
    assert result.exit_code == 0, result.output + result.traceback
    return project


@pytest.fixture(scope="module")
def translated(tmp_path_factory) -> Path:
    """The translated sample project (`translated_sample`), made once a module: tests change copies."""
    return translated_sample(tmp_path_factory.mktemp("translated"))


def project_copy(project: Path, folder: Path) -> Path:
    """A copy of a project made once for a module, in `folder/project`, for one test to change."""
    copy = folder / "project"
    shutil.copytree(project, copy)
    return copy


@pytest.fixture
def translated_project(translated, tmp_path) -> Path:
    """A copy of the translated sample project that a test may change."""
    return project_copy(translated, tmp_path)


# ---- a booklet's printed text --------------------------------------------------------------
HYPHEN = "\u2010"        # what WeasyPrint prints where it hyphenates a word


def page_texts(path: Path) -> list[str]:
    """Each page's text, as a PDF reader extracts it."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    finally:
        pdf.close()


def flat(text: str) -> str:
    """Text with hyphenated line breaks joined and all whitespace single spaces."""
    return " ".join(re.sub(f"{HYPHEN}\\s*\\n", "", text).split())


# ---- a shipped game's booklet against its data and catalogs ---------------------------------
# Per-game tests (tests/games/) read what a booklet says in every locale of the game, worked
# out here from its YAML and its released catalogs.
PRINTED_LOCALE = "en"     # the locale whose booklets are also read in print, not only as laid out


@functools.lru_cache(maxsize=None)
def shipped_game_data(game: str, name: str) -> dict:
    return yaml.safe_load((ROOT / "components" / game / f"{name}.yaml").read_text(encoding="utf-8"))


def game_locales(game: str) -> list[str]:
    return list(shipped_game_data(game, "game")["locales"])


def source_locale(game: str) -> str:
    return shipped_game_data(game, "game")["source_locale"]


def norm(text: str) -> str:
    """Whitespace (no-break spaces too) as single spaces."""
    return " ".join(text.split())


def flat_printed(text: str) -> str:
    """A PDF's text with hyphenated line breaks joined (a hyphen of the word itself that ends a
    line comes out as U+FFFE) and whitespace single spaces."""
    return norm(re.sub("\ufffe\\s*", "-", re.sub(f"{HYPHEN}\\s*\\n", "", text)))


@functools.lru_cache(maxsize=None)
def game_catalog(game: str, locale: str) -> dict:
    with (ROOT / "components" / game / "locales" / f"{locale}.po").open("rb") as po:
        return {m.context: m for m in read_po(po, locale=locale) if m.id}


def game_string(game: str, locale: str, key: str, source: str) -> str:
    """The text of `key` in the locale: the source's, or the catalog's translation of it."""
    if locale == source_locale(game):
        return source
    message = game_catalog(game, locale)[key]
    assert message.id == source and not message.fuzzy, f"{game} {locale} {key}: not translated from the source"
    return message.string


def booklet_block(game: str, section_id: str, index: int) -> tuple[str, dict]:
    """The key and the source of a block of booklet.yaml."""
    section = next(s for s in shipped_game_data(game, "booklet")["sections"] if s["id"] == section_id)
    return f"booklet.sections.{section_id}.blocks.{index}", section["blocks"][index]


@pytest.fixture(scope="module")
def laid_out_booklet():
    """A shipped game's booklet in an edition and locale as the build lays it out (pictures
    drawn small: the tests read words)."""
    tree, games = LoadedProject(ROOT), {}

    def content(slug: str, edition: str, locale: str):
        if slug not in games:
            games[slug] = load_games(tree, slug, texts=False)[0]
        game = games[slug]
        return rule_booklet_content(Kit(tree, game, Localised(game, edition, Texts.load(game, locale)), ""),
                                    picture_dpi=20)
    return content


@pytest.fixture(scope="module")
def booklet_texts(laid_out_booklet, rendered_booklet):
    """The texts to read of a shipped game's booklet in an edition and locale: the laid-out
    booklet's, and in the printed locale also the rendered PDF's."""
    made: dict = {}

    def texts(slug: str, edition: str, locale: str) -> list[str]:
        if (slug, edition, locale) not in made:
            found = [flat_printed(content_text(laid_out_booklet(slug, edition, locale)))]
            if locale == PRINTED_LOCALE:
                pdf = pdfium.PdfDocument(rendered_booklet(slug, edition, locale)[1])
                try:
                    found.append(flat_printed("\n".join(page.get_textpage().get_text_range() for page in pdf)))
                finally:
                    pdf.close()
            made[slug, edition, locale] = found
        return made[slug, edition, locale]
    return texts


# ---- a number's upside-down mark, read off the form that draws it -------------------------
# What a form draws, and the underline or dot a number carries in the frame of the text it
# belongs to (a turned index's bar is under the number as its reader sees it).

def _invert(m):
    a, b, c, d, e, f = m
    det = a * d - b * c
    return (d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)


def form_drawing(form):
    """What a form draws: its texts (string, font's BaseFont, size, width in points, the matrix
    from the text's own frame, baseline at y = 0, to the form, fill colour) and its filled
    shapes (kind 'rect' or 'path', the points in form space, fill colour)."""
    fonts = form.Resources.get("/Font", {})
    texts, shapes = [], []
    ctm, fill, stack = (1, 0, 0, 1, 0, 0), None, []
    tm, font, size, path = None, None, 0.0, []
    for operands, operator in pikepdf.parse_content_stream(form):
        op = str(operator)
        if op == "q":
            stack.append((ctm, fill))
        elif op == "Q":
            ctm, fill = stack.pop()
        elif op == "cm":
            ctm = _mul([float(v) for v in operands], ctm)
        elif op == "rg":
            fill = tuple(round(float(v), 4) for v in operands)
        elif op == "Tm":
            tm = [float(v) for v in operands]
        elif op == "Tf":
            font, size = fonts[operands[0]], float(operands[1])
        elif op == "Tj":
            data = bytes(operands[0])
            first, widths = int(font.FirstChar), [float(w) for w in font.Widths]
            width = sum(widths[c - first] for c in data) * size / 1000
            texts.append({"text": data.decode("latin-1"), "font": str(font.BaseFont), "size": size,
                          "width": width, "matrix": _mul(tm, ctm), "fill": fill})
        elif op == "re":
            x, y, w, h = (float(v) for v in operands)
            path.append(("rect", [_apply(ctm, x, y), _apply(ctm, x + w, y + h)]))
        elif op in ("m", "l", "c"):
            values = [float(v) for v in operands]
            points = [_apply(ctm, values[i], values[i + 1]) for i in range(0, len(values), 2)]
            if op == "m" or not path or path[-1][0] != "path":
                path.append(("path", points))
            else:
                path[-1][1].extend(points)
        elif op in ("f", "f*", "F", "B", "B*", "b", "b*"):
            shapes += [{"kind": kind, "points": points, "fill": fill} for kind, points in path]
            path = []
        elif op in ("S", "s", "n"):
            path = []
    return texts, shapes


def in_text_frame(text, points):
    """The bounding box of `points` (form space) in the text's own frame: x along its baseline
    from its start, y up from its baseline, as the text's reader sees it."""
    back = _invert(text["matrix"])
    xs, ys = zip(*(_apply(back, x, y) for x, y in points))
    return min(xs), min(ys), max(xs), max(ys)


def underline_of(text, shapes):
    """The filled rectangle under the text, as wide as its glyphs within 0.5 pt and in its colour,
    below its baseline by at most a third of the font size; None without one."""
    found = []
    for shape in shapes:
        if shape["kind"] != "rect":
            continue
        x0, y0, x1, y1 = in_text_frame(text, shape["points"])
        if (abs(x0) < 0.5 and abs(x1 - text["width"]) < 0.5 and y1 < 0 and y0 > -text["size"] / 3
                and y1 - y0 > 0.02 * text["size"] and shape["fill"] == text["fill"]):
            found.append((x0, y0, x1, y1))
    assert len(found) <= 1, found
    return found[0] if found else None


def dot_of(text, shapes):
    """The filled round path just after the text on its baseline, in its colour; None without."""
    for shape in shapes:
        if shape["kind"] != "path" or len(shape["points"]) < 13:        # a circle: m and 4 curves
            continue
        x0, y0, x1, y1 = in_text_frame(text, shape["points"])
        if (text["width"] < x0 < text["width"] + 0.2 * text["size"] and abs(y0) < 0.05 * text["size"]
                and abs((x1 - x0) - (y1 - y0)) < 0.05 and 0 < x1 - x0 < 0.3 * text["size"]
                and shape["fill"] == text["fill"]):
            return (x0, y0, x1, y1)
    return None


def form_drawings(path):
    """Each form XObject of a PDF once, by name."""
    found = {}
    with pikepdf.open(path) as pdf:
        for page in pdf.pages:
            for name, form in page.obj.Resources.get("/XObject", {}).items():
                if name not in found:
                    found[name] = form_drawing(form)
    return found


def turned_text(text) -> bool:
    """The text runs right to left on the page: half a turn."""
    return text["matrix"][0] < 0 and text["matrix"][3] < 0


# ---- what a printed page shows and how legibly, read off its content streams -----------------
# WCAG's contrast between colours, the paths and texts a form paints, and every text's printed
# size: for the tests of legibility on the sample and on each shipped game.
TEXT_RATIO, MARK_RATIO, MIN_PT = 4.5, 3.0, 6.0

def luminance(rgb) -> float:
    """WCAG 2.x relative luminance of an sRGB colour given as three 0..1 channels."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast_ratio(a, b) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def hex_rgb(hex_colour: str) -> tuple[float, ...]:
    return tuple(int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))


def same_colour(a, b) -> bool:
    return all(abs(x - y) < 0.003 for x, y in zip(a, b))


def pdf_forms(pdf) -> dict[str, pikepdf.Object]:
    found = {}
    for page in pdf.pages:
        for name, xobject in page.obj.Resources.get("/XObject", {}).items():
            if xobject.get("/Subtype") == "/Form":
                found[str(name)] = xobject
    return found


def painted_shapes(stream) -> list[dict]:
    """Every path a form or page paints: its points' box (mm), the fill and stroke colours
    (0..1 RGB, None when not painted that way) and the colour text was shown in, in order."""
    shapes, points, fill, stroke, origin = [], [], (0, 0, 0), (0, 0, 0), (0.0, 0.0)
    for operands, op, ctm in content_ops(stream):
        values = [float(v) for v in operands] if op in ("Tm", "rg", "RG", "m", "l", "c", "re") else []
        if op == "Tm":
            # where the text starts, a point up into its glyphs
            x, y = values[4], values[5] + 1
            origin = ((ctm[0] * x + ctm[2] * y + ctm[4]) / MM, (ctm[1] * x + ctm[3] * y + ctm[5]) / MM)
        elif op == "rg":
            fill = tuple(values)
        elif op == "RG":
            stroke = tuple(values)
        elif op in ("m", "l", "c"):
            points += [(ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5])
                       for x, y in zip(values[0::2], values[1::2])]
        elif op == "re":
            x, y, w, h = values
            points += [(ctm[0] * px + ctm[2] * py + ctm[4], ctm[1] * px + ctm[3] * py + ctm[5])
                       for px, py in ((x, y), (x + w, y + h))]
        elif op in ("f", "f*", "B", "B*", "b", "b*", "S", "s", "n"):
            if points and op != "n":
                xs, ys = [p[0] / MM for p in points], [p[1] / MM for p in points]
                shapes.append({"box": (min(xs), min(ys), max(xs), max(ys)), "points": [(p[0] / MM, p[1] / MM) for p in points],
                               "fill": fill if op[0] in "fBb" else None,
                               "stroke": stroke if op[0] in "SsBb" else None})
            points = []
        elif op in ("Tj", "TJ"):
            shapes.append({"text": True, "fill": fill, "at": origin})
    return shapes


def token_texts_on_their_background(pdf) -> list[tuple[str, tuple, tuple]]:
    """(form, text colour, colour under it) of every text a token form shows (name, icon, a
    standee's words): the background is the last area painted under where the text starts."""
    found = []
    for name, form in pdf_forms(pdf).items():
        shapes = painted_shapes(form)
        for index, shape in enumerate(shapes):
            if not shape.get("text"):
                continue
            x, y = shape["at"]
            under = [s for s in shapes[:index] if s.get("fill") and "box" in s
                     and s["box"][0] <= x <= s["box"][2] and s["box"][1] <= y <= s["box"][3]]
            assert under, f"{name}: text at {shape['at']} lies on nothing painted"
            found.append((name, shape["fill"], under[-1]["fill"]))
    return found


def text_sizes(pdf) -> list[tuple[int, float, str]]:
    """(page, size in points as printed, what) of every text shown: the font size times the
    scale of the text matrix, the transformation and the forms it is drawn through."""
    found = []

    def walk(stream, ctm, page, resources, where):
        size, matrix = 0.0, (1, 0, 0, 1, 0, 0)
        for operands, op, current in content_ops(stream, ctm):
            if op == "Tf":
                size = float(operands[1])
            elif op == "Tm":
                matrix = tuple(float(v) for v in operands)
            elif op == "BT":
                matrix = (1, 0, 0, 1, 0, 0)
            elif op in ("Tj", "TJ", "'", '"'):
                a, b, c, d = matrix[:4]
                scale = math.sqrt(abs(a * d - b * c)) * math.sqrt(abs(current[0] * current[3] - current[1] * current[2]))
                found.append((page, size * scale, where))
            elif op == "Do":
                xobject = (resources or {}).get("/XObject", {}).get(operands[0])
                if xobject is not None and xobject.get("/Subtype") == "/Form":
                    m = [float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                    placed = (m[0] * current[0] + m[1] * current[2], m[0] * current[1] + m[1] * current[3],
                              m[2] * current[0] + m[3] * current[2], m[2] * current[1] + m[3] * current[3],
                              m[4] * current[0] + m[5] * current[2] + current[4],
                              m[4] * current[1] + m[5] * current[3] + current[5])
                    # a component drawn smaller than itself (a board's assembly map) is named so
                    real = abs(math.sqrt(abs(placed[0] * placed[3] - placed[1] * placed[2])) - 1) < 0.01
                    walk(xobject, placed, page, xobject.get("/Resources"),
                         str(operands[0]) + ("" if real else " (scaled)"))

    for number, page in enumerate(pdf.pages, 1):
        walk(page, (1, 0, 0, 1, 0, 0), number, page.obj.get("/Resources"), "page")
    return found


# ---- a further catalog for a sample copy -----------------------------------------------------

def add_catalog(project: Path, locale: str, strings: dict[str, str] | None = None) -> Path:
    """A released catalog of `locale` added to a copy of the sample project as `pnp i18n extract`
    writes it, every string its source text (each plural form the source's last; its dashes and
    percentages as the locale sets them) but those `strings` gives by key: its path."""
    from babel.messages.plurals import get_plural
    from babel.messages.pofile import read_po, write_po
    replace_in(project / "components" / "sample-game" / "game.yaml", "  en: released\n",
               f"  en: released\n  {locale}: released\n")
    result = pnp("i18n", "extract", "sample-game", project=project)
    assert result.exit_code == 0, result.output + result.traceback
    po = project / "components" / "sample-game" / "locales" / f"{locale}.po"
    with po.open("rb") as handle:
        catalog = read_po(handle, locale=locale)
    forms, strings = get_plural(locale).num_plurals, dict(strings or {})
    for message in catalog:
        if message.id:
            source = ((typeset_as(locale, message.id[-1]),) * forms if isinstance(message.id, tuple)
                      else typeset_as(locale, message.id))
            message.string = strings.pop(message.context, source)
    assert not strings, f"no such keys in the catalog: {sorted(strings)}"
    with po.open("wb") as handle:
        write_po(handle, catalog, width=100)
    result = pnp("i18n", "extract", "sample-game", project=project)     # written as extract writes it
    assert result.exit_code == 0, result.output + result.traceback
    return po


# ---- a kit's component files as print shops get them ---------------------------------------

def component_data(project: Path, game: str, name: str) -> dict:
    """A game's `name`.yaml as data ({} when it has none)."""
    path = project / "components" / game / f"{name}.yaml"
    return yaml.safe_load(path.read_text(encoding="utf-8")) if path.is_file() else {}


def expected_trims(project: Path, game: str, edition: str) -> dict[tuple[str, str], tuple[float, float]]:
    """(kind, component) -> trim in mm, straight from the YAML (and the dice sheet's tab)."""
    layouts = component_data(project, game, "layouts").get("faces", {})
    tab = yaml.safe_load((ROOT / "templates" / "sheets" / "dice.yaml").read_text(encoding="utf-8"))["tab_mm"]
    trims = {}
    boards = component_data(project, game, "boards")
    for board_id, board in (boards.get("boards") or {}).items():
        if board.get("count", {}).get(edition):
            trims["boards", board_id] = tuple(board["size_mm"] if "size_mm" in board else boards["design"]["size_mm"])
    for token_id, token in (component_data(project, game, "tokens").get("tokens") or {}).items():
        if token.get("count", {}).get(edition):
            if token["shape"] == "disc":
                trims["tokens", token_id] = (token["diameter_mm"],) * 2
            elif token["shape"] == "square":
                trims["tokens", token_id] = (token["side_mm"],) * 2
            elif token["shape"] == "hex":          # pointy-topped: across the flats, corner to corner
                trims["tokens", token_id] = (math.sqrt(3) * token["side_mm"], 2 * token["side_mm"])
            elif token["shape"] == "standee":
                w, h = token["size_mm"]
                trims["tokens", token_id] = (w, 2 * h + 2 * token["base_mm"])
    for die_id, die in (component_data(project, game, "dice").get("dice") or {}).items():
        if die.get("count", {}).get(edition):
            edge = die["edge_mm"]
            trims["dice", die_id] = (4 * edge + min(tab, edge / 3), 3 * edge)
    for piece_id, piece in (component_data(project, game, "pieces").get("pieces") or {}).items():
        if piece.get("count", {}).get(edition):
            trims["pieces", piece_id] = tuple(layouts[piece["layout"]]["size_mm"])
    # a tuck box's net: two walls, two sides and a 10 mm glue tab across; a wall, the lid, the
    # bottom and two 15 mm tuck flaps up; walls the card size plus play (1 mm), sides as deep as
    # the deck's cards times the papers' calliper plus play (decks listed card by card only)
    cards = component_data(project, game, "cards")
    calliper = yaml.safe_load((ROOT / "templates" / "sheets" / "papers.yaml").read_text(encoding="utf-8"))["card_calliper_mm"]
    for box_id, box in (component_data(project, game, "tuckboxes").get("tuckboxes") or {}).items():
        if box.get("count", {}).get(edition):
            play = box.get("play_mm", 1)
            w, h = layouts[cards["decks"][box["deck"]]["layout"]]["size_mm"]
            held = sum(card["count"].get(edition, 0) for card in cards["cards"].values()
                       if card["deck"] in (box["deck"], *box.get("with", ())))
            depth = held * box.get("calliper_mm", calliper) + play
            trims["tuckboxes", box_id] = (2 * (w + play) + 2 * depth + 10, h + play + 2 * depth + 2 * 15)
    return trims


def make_component_files(root: Path, game_slug: str, edition: str, locales: list[str] | None, profile_name: str,
               only_kind: str | None = None):
    """{locale: (the component files one profile gets for one kit, their problems)} for `locales`
    (None: every locale a shop gets), made as `pnp build --profile` makes them
    (generator.app.shop.shop_component_files, one unit per kind), the game loaded once."""
    from generator.app.kinds import KINDS
    from generator.app.loading import load_games
    from generator.app.shop import shop_component_files
    from generator.i18n.texts import Texts
    from generator.layout.faces import Localised
    from generator.layout.kit import Kit
    from generator.load.profiles import load_profile
    from generator.load.project import Project
    project = Project(root)
    game = load_games(project, game_slug, texts=False)[0]
    profile = load_profile(project, profile_name)
    files = {}
    for locale in locales or [locale for locale in game.locales if not game.is_draft(locale)]:
        kit = Kit(project, game, Localised(game, edition, Texts.load(game, locale)), "")
        made, problems = [], []
        for kind in KINDS:
            if kind.name in profile.components.kinds and only_kind in (None, kind.name):
                artifacts, found = shop_component_files(kit, profile, kind)
                made += artifacts
                problems += found
        files[locale] = made, problems
    return files


def shop_components_pass(root: Path, slug: str, edition: str, locale: str, profile_name: str) -> None:
    """A kit's components drawn as a shop build draws them for one profile: no problem found
    (the profile's checks, preflight) and a file for every component of the kinds the shop
    prints that fits its sizes, read from the YAML."""
    made, problems = make_component_files(root, slug, edition, [locale], profile_name)[locale]
    assert not problems, problems
    spec = next(p for p in json.loads(pnp("profiles", "--json", project=root).output)
                if p["name"] == profile_name)["components"]
    wanted = {key for key, (w, h) in expected_trims(root, slug, edition).items() if key[0] in spec["kinds"]
              and max(w, h) <= max(spec["max_mm"]) and min(w, h) <= min(spec["max_mm"])}
    assert wanted and {(a.details["component_kind"], a.details["component"]) for a in made
                       if a.kind == "shop-component"} == wanted


def glyphs_outside_the_round_safe_zone(data: bytes, safe_mm: float) -> tuple[int, list[str]]:
    """(glyphs printed, those not `safe_mm` inside the round cut) of a disc token's file: every
    glyph's tight box (pdfium's) against the circle in its trim box."""
    document = pdfium.PdfDocument(data)
    try:
        page = document[0]
        x0, y0, x1, y1 = page.get_trimbox()
        cx, cy, room = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2 - safe_mm * MM
        text = page.get_textpage()
        glyphs = [(text.get_text_range(i, 1), text.get_charbox(i)) for i in range(text.count_chars())]
        glyphs = [(glyph, box) for glyph, box in glyphs if glyph.strip() and box[2] > box[0]]
        outside = []
        for glyph, (left, bottom, right, top) in glyphs:
            farthest = max(math.hypot(x - cx, y - cy) for x in (left, right) for y in (bottom, top))
            if farthest > room + 0.01 * MM:
                outside.append(f"{glyph!r} {(x1 - x0) / 2 / MM - farthest / MM:.2f} mm inside the cut")
        return len(glyphs), outside
    finally:
        document.close()


# ---- the translated sample's designer's reports --------------------------------------------
# What the Russian catalog of the reported sample calls the game, its edition, its figures and
# its thief: words of its own, so a report shows which catalog it was drawn from.
RUSSIAN_REPORT_NAMES = {
    "title": "Игра-образец", "editions.standard.name": "Стандартное",
    "figures.ended_by.name": "Конец игры", "figures.ended_by.values.pile.name": "пустая стопка",
    "figures.ended_by.values.clock.name": "последний раунд", "figures.rounds.name": "Раунды",
    "figures.raids.name": "Набеги", "figures.thefts.name": "Кражи", "figures.coins.name": "Взятые монеты",
    "decks.coins.extra.thief.name": "Вор",
}


def reported_sample(folder: Path) -> Path:
    """The translated sample (`translated_sample`) in `folder/sample` whose `ru` catalog names
    the game, its edition, its figures and its thief in Russian (RUSSIAN_REPORT_NAMES): the
    project whose reports tests/test_report.py and tests/test_accessible_pdfs.py read."""
    from babel.messages.pofile import read_po, write_po
    project = translated_sample(folder)
    po = project / "components" / "sample-game" / "locales" / f"{TRANSLATED_LOCALE}.po"
    with po.open("rb") as handle:
        catalog = read_po(handle, locale=TRANSLATED_LOCALE)
    named = {message.context: message for message in catalog if message.context in RUSSIAN_REPORT_NAMES}
    assert set(named) == set(RUSSIAN_REPORT_NAMES), set(RUSSIAN_REPORT_NAMES) - set(named)
    for key, message in named.items():
        message.string = RUSSIAN_REPORT_NAMES[key]
    with po.open("wb") as handle:
        write_po(handle, catalog, width=100)
    return project


def build_reports(project: Path, out: Path) -> Path:
    """`out` after `pnp build --kind report --paper a4` of `project`'s sample game."""
    result = pnp("build", "--game", "sample-game", "--kind", "report", "--paper", "a4", "--out", str(out),
                 project=project)
    assert result.exit_code == 0, result.output + result.traceback
    return out


# ---- a board printed on one sheet ----------------------------------------------------------
TILES = yaml.safe_load((ROOT / "templates" / "sheets" / "tiles.yaml").read_text(encoding="utf-8"))


def expected_scale(paper: tuple[float, float], board: tuple[float, float]) -> tuple[tuple[float, float], int]:
    """The sheet (turned as it takes the board larger) and the whole percent, rounded down,
    at which the board fits inside the tiling margin."""
    margin = TILES["margin_mm"]
    best = max(((sheet, min((sheet[0] - 2 * margin) / board[0], (sheet[1] - 2 * margin) / board[1], 1.0))
                for sheet in (paper, paper[::-1])), key=lambda pair: pair[1])
    return best[0], math.floor(best[1] * 100 + 1e-9)


# ---- builds without the per-edition files ----------------------------------------------------
@pytest.fixture(scope="module")
def without_edition_files():
    """A module's builds make the booklets and home kits (whose page counts the booklet quotes),
    not the per-edition files such as the simulated designer's report, which take long: a module
    asks for it with `pytestmark = pytest.mark.usefixtures("without_edition_files")`."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(home_target, "EDITION_MAKERS", {})
        yield
