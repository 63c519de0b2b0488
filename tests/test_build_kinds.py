"""`pnp build --kind`: only the files of the kinds named are rendered and written, and each
kit's print-first page is made again from the files it lists (the kinds built in place of
theirs); every other file, and its manifest entry, stays exactly as the earlier build left it."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import copy_of_build, first_sample_build, pnp, replace_in
from generator.app.kinds import KINDS
from generator.app.kits import EDITION_MAKERS


# The manifest kinds of the files each --kind names, for the sample game (a card kind makes
# sheets, a calibration sheet and contact sheets; the booklet its A5 file and its imposition).
CARD_FILES = {"cards", "calibration", "preview"}
BOOKLET_FILES = {"rules", "rules-imposed"}
CARDS_YAML = Path("components") / "sample-game" / "cards.yaml"


@pytest.fixture(scope="module")
def first_build(tmp_path_factory) -> tuple[Path, Path]:
    """(project, output folder with its cache) of a whole build of the sample project."""
    return first_sample_build(tmp_path_factory, "--paper", "a4")


@pytest.fixture
def built_sample(first_build, tmp_path) -> tuple[Path, Path]:
    return copy_of_build(first_build, tmp_path)


def build(project: Path, out: Path, *args: str):
    result = pnp("build", "--out", str(out), "--paper", "a4", *args, project=project)
    assert result.exit_code == 0, result.output + result.traceback
    return result


def summary(result) -> str:
    return result.output.strip().splitlines()[-1]


def rendered(result) -> int:
    line = summary(result)
    assert "rendered" in line, line
    return int(line.split(": ")[-1].split(" rendered")[0])


def manifest(out: Path) -> dict[str, dict]:
    return {entry["path"]: entry for entry in json.loads((out / "manifest.json").read_text(encoding="utf-8"))["files"]}


def on_disk(out: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every built file with its bytes, inode and modification time: a file written again,
    even with the same bytes, gets another inode (it is renamed into place)."""
    found = {}
    for path in sorted(out.rglob("*")):
        relative = path.relative_to(out).as_posix()
        if path.is_file() and ".cache" not in path.relative_to(out).parts and relative != "manifest.json":
            stat = path.stat()
            found[relative] = (path.read_bytes(), stat.st_ino, stat.st_mtime_ns)
    return found


def test_cards_only_after_a_full_build_keeps_every_other_file_and_entry(built_sample, tmp_path):
    sample_project, out = built_sample
    before, entries = on_disk(out), manifest(out)
    assert {entry["kind"] for entry in entries.values()} >= CARD_FILES | BOOKLET_FILES | {"boards", "dice"}
    # A colour is data, not text: a full build would draw every file of the game again.
    replace_in(sample_project / CARDS_YAML, 'colour: "#3A61C4"', 'colour: "#7A2E8C"')

    result = build(sample_project, out, "--kind", "cards")
    card_paths = {path for path, entry in entries.items() if entry["kind"] in CARD_FILES}
    # and the kit's print-first page, drawn again (a colour is data) from the files it lists:
    # the same sheets, so the same bytes, not written again
    assert rendered(result) == len(card_paths) + 1 == 5, summary(result)
    assert f"built {len(card_paths) + 1} files" in summary(result)
    after, now = on_disk(out), manifest(out)
    assert set(after) == set(before) and set(now) == set(entries)
    for path in set(before) - card_paths:
        assert after[path] == before[path], f"{path} was written again"
        assert now[path] == entries[path], f"{path}: its manifest entry changed"
    redrawn = {path for path in card_paths if after[path][0] != before[path][0]}
    assert any("-cards-a4" in path for path in redrawn), redrawn
    assert all(now[path]["sha256"] != entries[path]["sha256"] for path in redrawn)

    # The whole build then draws what the cards-only one left, and ends where a cold build does.
    full = build(sample_project, out)
    assert rendered(full) == len(entries) - len(card_paths) - 1, summary(full)
    cold = tmp_path / "cold"
    build(sample_project, cold, "--no-cache")
    assert {path: data for path, (data, _, _) in on_disk(out).items()} == \
           {path: data for path, (data, _, _) in on_disk(cold).items()}


def test_several_kinds_build_just_those_files(built_sample):
    sample_project, out = built_sample
    entries = manifest(out)
    result = build(sample_project, out, "--kind", "boards,booklet", "--no-cache")
    wanted = {path for path, entry in entries.items() if entry["kind"] in BOOKLET_FILES | {"boards", "print-first"}}
    assert rendered(result) == len(wanted) == 4, summary(result)
    assert manifest(out) == entries


def test_the_nothing_changed_shortcut_tells_a_selection_from_the_whole_build(built_sample):
    sample_project, out = built_sample
    everything = len(manifest(out))
    first = build(sample_project, out, "--kind", "cards")
    # The card files and the kit's print-first page
    assert "nothing changed" not in summary(first) and "built 5 files" in summary(first), summary(first)
    assert rendered(first) == 0                         # every card file came from the cache
    again = build(sample_project, out, "--kind", "cards")
    assert summary(again).startswith("nothing changed: 5 files"), summary(again)
    # The same selection written another way is the same build.
    build(sample_project, out, "--kind", "booklet", "--kind", "cards")
    reordered = build(sample_project, out, "--kind", "cards,booklet")
    assert summary(reordered).startswith("nothing changed: 7 files"), summary(reordered)
    whole = build(sample_project, out)
    assert summary(whole).startswith(f"nothing changed: {everything} files"), summary(whole)


def test_an_unknown_kind_is_a_usage_error_naming_the_kinds(built_sample):
    sample_project, out = built_sample
    before = on_disk(out)
    result = pnp("build", "--out", str(out), "--kind", "cards,card", project=sample_project)
    assert result.exit_code == 2, result.output
    names = [kind.name for kind in KINDS] + ["booklet", *EDITION_MAKERS]
    assert f"no kind 'card', did you mean 'cards'? (kinds: {', '.join(names)})" in result.stderr
    assert "Traceback" not in result.output
    for args in (("--kind", ""), ("--kind", "cards", "--profile", "tgc")):
        result = pnp("build", "--out", str(out), *args, project=sample_project)
        assert result.exit_code == 2, (args, result.output)
    # A game whose rules have no engine makes no report.
    replace_in(sample_project / "rules" / "sample_game" / "__init__.py", "\nENGINE = RaidEngine(SPEC)\n", "\n")
    result = pnp("build", "--out", str(out), "--kind", "report", project=sample_project)
    assert result.exit_code == 2 and "the selection has no report files" in result.stderr, result.output
    assert on_disk(out) == before


def test_a_manifest_this_tool_did_not_write_gives_no_earlier_entries():
    """A partial build keeps the earlier build's entries only from a manifest shaped as this
    tool writes it: a list of entries, each with a path that is text."""
    from generator.write.output import manifest_entries
    for data in (None, b"", b"{", b"[]", b'{"files": {}}', b'{"files": "a.pdf"}', b'{"files": [["a.pdf"]]}',
                 b'{"files": [{"path": 5}]}', b'{"files": [{"name": "a.pdf"}]}', b'{"files": [{"path": "a.pdf"}, 3]}'):
        assert manifest_entries(data) == [], data
    assert manifest_entries(b'{"files": [{"path": "a.pdf", "pages": 2}]}') == [{"path": "a.pdf", "pages": 2}]


# ---- the print-first page of a build of some kinds ------------------------------------------

def first_page(out: Path) -> Path:
    [page] = out.rglob("*-print-first-a4.pdf")
    return page


def test_cards_added_and_built_alone_are_counted_on_the_print_first_page(built_sample, tmp_path):
    """The page a whole build would make: the new card sheets in place of the old, every other
    file as the page listed it."""
    sample_project, out = built_sample
    page_before = first_page(out).read_bytes()
    replace_in(sample_project / CARDS_YAML, "count: {standard: 4}}", "count: {standard: 22}}")
    replace_in(sample_project / "rules" / "sample_game" / "__init__.py", '"knight": 4,', '"knight": 22,')
    result = build(sample_project, out, "--kind", "cards")
    assert result.output.count("\n") == 1, result.output          # the summary alone: no page left behind
    page = first_page(out).read_bytes()
    assert page != page_before
    cold = tmp_path / "cold"
    build(sample_project, cold, "--no-cache")
    assert page == first_page(cold).read_bytes()
    assert manifest(out)[first_page(out).relative_to(out).as_posix()] == \
           manifest(cold)[first_page(cold).relative_to(cold).as_posix()]


def test_a_page_that_does_not_list_its_files_is_left_and_named(built_sample):
    """A page made before pages kept their list (or a manifest entry changed by hand) is not
    made again by a build of some kinds: the build says which, and how to make it."""
    sample_project, out = built_sample
    page = first_page(out)
    path = page.relative_to(out).as_posix()
    data = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    for entry in data["files"]:
        if entry["path"] == path:
            entry["lists"] = [["a.pdf", "cards", "a4", "two", "", "", "", 0]]
    (out / "manifest.json").write_text(json.dumps(data), encoding="utf-8")
    before = page.read_bytes()
    replace_in(sample_project / CARDS_YAML, 'colour: "#3A61C4"', 'colour: "#7A2E8C"')
    result = build(sample_project, out, "--kind", "cards")
    assert f"not made again, as it does not list its files: {path} (build without --kind to make it)" \
        in result.output
    assert page.read_bytes() == before


def test_a_build_of_some_kinds_into_an_empty_folder_makes_no_print_first_page(tmp_path):
    from conftest import SAMPLE
    out = tmp_path / "out"
    build(SAMPLE, out, "--kind", "cards", "--locale", "en")
    assert not list(out.rglob("*-print-first-*"))


def test_each_kind_stands_for_the_manifest_kinds_of_the_files_it_makes(built_sample):
    """home.made_kinds: what a `--kind` build replaces on the print-first page is what its
    files are, for every kind the tool has (a kind whose files were not declared would leave
    its earlier files listed beside the new)."""
    from generator.app.build import build as run_build
    from generator.app.home import kind_names, made_kinds
    from generator.app.request import BuildRequest
    from generator.load.project import Project
    sample_project, out = built_sample
    for name in kind_names():
        result = run_build(Project(sample_project), BuildRequest(out=out, paper="a4", kinds=(name,)))
        kinds = {artifact.kind for artifact in result.artifacts} - {"print-first"}
        assert kinds and kinds <= made_kinds({name}), (name, kinds)


def page_listing(out: Path) -> list[list]:
    return manifest(out)[first_page(out).relative_to(out).as_posix()]["lists"]


def test_cards_built_alone_front_only_list_no_calibration_sheet(built_sample, tmp_path):
    """The calibration sheet a duplex build made stays in the folder, but a fronts-only build of
    the cards makes none, and the page lists what a whole fronts-only build lists."""
    sample_project, out = built_sample
    build(sample_project, out, "--kind", "cards", "--duplex", "fronts")
    assert "calibration" not in {row[1] for row in page_listing(out)}
    cold = tmp_path / "cold"
    build(sample_project, cold, "--no-cache", "--duplex", "fronts")
    assert first_page(out).read_bytes() == first_page(cold).read_bytes()


def test_a_page_keeps_the_files_of_the_papers_the_build_left_out(tmp_path_factory, tmp_path):
    first = first_sample_build(tmp_path_factory, "--locale", "en")         # every paper
    sample_project, out = copy_of_build(first, tmp_path)
    a4_page = next(out.rglob("*-print-first-a4.pdf"))
    before = manifest(out)[a4_page.relative_to(out).as_posix()]["lists"]
    assert any(row[1] == "cards" and row[2] == "letter" for row in before)
    result = pnp("build", "--out", str(out), "--locale", "en", "--paper", "a4", "--kind", "cards",
                 project=sample_project)
    assert result.exit_code == 0, result.output
    assert manifest(out)[a4_page.relative_to(out).as_posix()]["lists"] == before


def test_a_listed_file_on_a_paper_the_project_lacks_or_gone_from_the_folder_is_not_listed(built_sample):
    """A page listed a file on a paper since taken out of papers.yaml, and one since deleted:
    the page is made without them, as if they had never been listed."""
    sample_project, out = built_sample
    page = first_page(out)
    data = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    boards = next(entry for entry in data["files"] if entry["kind"] == "boards")
    name = boards["path"].rsplit("/", 1)[1]
    for entry in data["files"]:
        if entry["path"] == page.relative_to(out).as_posix():
            listed = entry["lists"]
            entry["lists"] = listed + [[name, "boards", "a3", 4, "", "", "", 0],
                                       ["gone-a4.pdf", "boards", "a4", 4, "", "", "", 0]]
    (out / "manifest.json").write_text(json.dumps(data), encoding="utf-8")
    before = page.read_bytes()
    replace_in(sample_project / CARDS_YAML, 'colour: "#3A61C4"', 'colour: "#7A2E8C"')
    result = build(sample_project, out, "--kind", "cards")
    assert "Traceback" not in result.output
    assert page.read_bytes() == before
    assert page_listing(out) == listed


def test_a_page_listing_a_file_again_and_a_manifest_naming_an_impossible_file_change_nothing(built_sample):
    """Rows repeated by hand are listed once (the list never outgrows the folder), and a
    manifest entry with a name no file system takes stops nothing: the page is made as before."""
    sample_project, out = built_sample
    page = first_page(out)
    data = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    folder = page.relative_to(out).as_posix().rsplit("/", 1)[0]
    for entry in data["files"]:
        if entry["path"] == page.relative_to(out).as_posix():
            listed = entry["lists"]
            entry["lists"] = listed + [next(row for row in listed if row[1] == "boards")] * 500 + [
                [f"{'a' * 300}.pdf", "boards", "a4", 1, "", "", "", 0]]
    data["files"].append({"path": f"{folder}/{'a' * 300}.pdf", "kind": "boards", "paper": "a4", "pages": 1})
    (out / "manifest.json").write_text(json.dumps(data), encoding="utf-8")
    before = page.read_bytes()
    replace_in(sample_project / CARDS_YAML, 'colour: "#3A61C4"', 'colour: "#7A2E8C"')
    build(sample_project, out, "--kind", "cards")
    assert page.read_bytes() == before
    assert page_listing(out) == listed
