"""`pnp diff REV` and `pnp build --changed-since REV` on a copy of one game, with one card
changed in every locale, one changed in one locale only, one added and one removed; the
other version is a git revision of the copy or a folder holding the copy as it was."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from conftest import ROOT, pnp, replace_in


GAME = "donkey-can"
CARDS = f"components/{GAME}/cards.yaml"
LOCALES = ("uk", "bg", "cs", "ru", "en")
TRANSLATED = ("bg", "cs", "ru", "en")
# The card added: a plain donkey, in every catalog.
ADDED_NAME = {"uk": "Пряник", "bg": "Меденко", "cs": "Perník", "ru": "Пряник", "en": "Gingerbread"}
PLAIN_TEXT = {"uk": "Вантажопідйомність: стандартна."}
ADDED_BLOCK = """  donkey-pryanyk:
    deck: donkeys
    name: Пряник
    text: *plain
    value: 3
    colour: "#6D6875"
    icon: "♞"
    count: {standard: 1}
"""
REMOVED_BLOCK = """  donkey-bublyk:
    deck: donkeys
    name: Бублик
    text: *plain
    value: 0
    colour: "#6D6875"
    icon: "♞"
    count: {standard: 1}
"""
# The project's own rules module of the same name (looked up before the tool's): the tool's
# rules with the box of the new version: a stronger donkey in the place of a plain one.
RULES = '''"""The tool's donkey_can rules, with donkey-pryanyk in the place of donkey-bublyk."""
import copy
import dataclasses

from generator.rules import donkey_can as tool

counts = copy.deepcopy(tool.SPEC.counts)
for edition in counts.values():
    del edition["cards"]["donkey-bublyk"]
    edition["cards"]["donkey-pryanyk"] = 1
facts = {key.replace("donkey-bublyk", "donkey-pryanyk"): value for key, value in tool.SPEC.facts.items()}
facts["cards.yaml:cards.donkey-pryanyk.value"] = 3
SPEC = dataclasses.replace(tool.SPEC, counts=counts, facts=facts)
ENGINE = copy.copy(tool.ENGINE)
ENGINE.spec = SPEC
'''


def _git(folder: Path, *args: str) -> str:
    result = subprocess.run(["git", "-C", str(folder), "-c", "user.name=Test", "-c", "user.email=test@example.org",
                             "-c", "commit.gpgsign=false", *args], capture_output=True, text=True, check=True)
    return result.stdout.strip()


def _translation(key: str, source: str, text: str) -> str:
    return f'\nmsgctxt "{key}"\nmsgid "{source}"\nmsgstr "{text}"\n'


def change(project: Path) -> None:
    """The new version: donkey-vukhan in another colour (every locale), donkey-sirko with
    another Bulgarian name (bg only), donkey-pryanyk (+3) added, donkey-bublyk (±0) removed."""
    cards = project / CARDS
    replace_in(cards, REMOVED_BLOCK, "")
    text = cards.read_text(encoding="utf-8")
    start = text.index("  donkey-vukhan:")
    block_end = text.index("\n  donkey-", start + 1)
    vukhan = text[start:block_end].replace('colour: "#6D6875"', 'colour: "#1D3557"')
    assert vukhan != text[start:block_end]
    cards.write_text(text[:start] + vukhan + "\n" + ADDED_BLOCK.rstrip("\n") + text[block_end:], encoding="utf-8")
    replace_in(project / f"components/{GAME}/locales/bg.po", 'msgstr "Сивчо"', 'msgstr "Сивушко"')
    for locale in TRANSLATED:
        po = project / f"components/{GAME}/locales/{locale}.po"
        plain = _plain_translation(po)
        with po.open("a", encoding="utf-8") as handle:
            handle.write(_translation("cards.donkey-pryanyk.name", "Пряник", ADDED_NAME[locale]))
            handle.write(_translation("cards.donkey-pryanyk.text", PLAIN_TEXT["uk"], plain))


def _plain_translation(po: Path) -> str:
    lines = po.read_text(encoding="utf-8").splitlines()
    at = lines.index('msgctxt "cards.donkey-sirko.text"')
    return lines[at + 2].removeprefix('msgstr "').removesuffix('"')


@pytest.fixture(scope="module")
def versions(tmp_path_factory):
    """(project in a git repository with the change committed, the commit before it, a folder
    with the project as it was)."""
    base = tmp_path_factory.mktemp("diff")
    project = base / "project"
    (project / "components").mkdir(parents=True)
    shutil.copytree(ROOT / "components" / GAME, project / "components" / GAME)
    (project / "rules" / "donkey_can").mkdir(parents=True)
    (project / "rules" / "donkey_can" / "__init__.py").write_text(RULES, encoding="utf-8")
    old_folder = base / "old"
    shutil.copytree(project, old_folder)
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    _git(project, "commit", "-q", "-m", "as published")
    before = _git(project, "rev-parse", "HEAD")
    change(project)
    _git(project, "commit", "-q", "-a", "-m", "errata")
    return project, before, old_folder


def _diff(project: Path, rev: str) -> dict:
    result = pnp("diff", rev, "--json", project=project)
    assert result.exit_code == 0, result.output + result.traceback
    return json.loads(result.stdout)


def test_diff_names_each_change_in_its_locales(versions):
    project, before, old_folder = versions
    seen = []
    for rev in (before, "HEAD~1", str(old_folder)):
        data = _diff(project, rev)
        seen.append(data["games"])
        [entry] = data["games"]
        assert entry["game"] == GAME and entry["status"] == "changed"
        components = entry["components"]
        assert [(c["id"], c["counts"]) for c in components["added"]] == [("donkey-pryanyk", {"standard": 1})]
        assert [(c["id"], c["counts"]) for c in components["removed"]] == [("donkey-bublyk", {"standard": 1})]
        changed = {c["id"]: c["fields"] for c in components["changed"]}
        assert changed == {
            "donkey-vukhan": [{"field": "colour", "old": "#6D6875", "new": "#1D3557"}],
            "donkey-sirko": [{"field": "name", "locales": {"bg": {"old": "Сивчо", "new": "Сивушко"}}}],
        }
        assert components["counts"] == []
        assert "locales/bg.po" in entry["other"]
        # The rules of the project as it is now expect the new box: the old one fails them.
        checks = entry["checks"]
        assert checks["moved"] and checks["new"] == 0 and checks["old"] > 0
        assert any("donkey-pryanyk" in p for p in checks["fixed"])
        assert entry["simulation"]["moved"], "a stronger donkey changes the seeded games"
        assert {m["figure"] for m in entry["simulation"]["moved"]} <= set(_figures(entry["simulation"]["new"]))
    assert seen[0] == seen[1] == seen[2], "the same two versions give the same diff, however named"


def _figures(runs: dict) -> set[str]:
    names = set()
    for figures in runs.values():
        names |= {f"{name} mean" for name in figures["numbers"]}
        names |= {f"{name} {value}" for name, shares in figures["shares"].items() for value in shares}
        names |= {f"win rate seat {seat}" for seat in range(1, len(figures["win_rate"]) + 1)}
        names |= {f"{name} {item} per game" for name, table in figures["counts"].items() for item in table}
    return names


def test_diff_of_the_same_version_is_unchanged(versions):
    project, _before, _old = versions
    data = _diff(project, "HEAD")
    assert data["games"] == [{"game": GAME, "status": "unchanged"}]


def test_diff_text_and_a_bad_revision(versions):
    project, before, _old = versions
    result = pnp("diff", before, project=project)
    assert result.exit_code == 0, result.output + result.traceback
    lines = result.stdout.splitlines()
    assert lines[0] == f"changes since {before} ({before[:10]}):"
    assert "  added cards.donkey-pryanyk (standard ×1)" in lines
    assert "  removed cards.donkey-bublyk (standard ×1)" in lines
    assert '    colour: "#6D6875" → "#1D3557"' in lines
    assert '    name [bg]: "Сивчо" → "Сивушко"' in lines
    result = pnp("diff", "no-such-revision", project=project)
    assert result.exit_code == 2 and "neither a folder nor a revision" in result.stderr
    result = pnp("build", "--changed-since", "no-such-revision", "--game", GAME, "--locale", "uk", project=project)
    assert result.exit_code == 2 and "neither a folder nor a revision" in result.stderr


def _page_texts(path: Path) -> list[str]:
    pdf = pdfium.PdfDocument(path)
    try:
        return [" ".join(page.get_textpage().get_text_range().split()) for page in pdf]
    finally:
        pdf.close()


# ---- the errata kit ---------------------------------------------------------------------------

def _names(project: Path, locale: str, deck: str) -> dict[str, str]:
    """card id -> its name in `locale` as the project's catalogs give it, for one deck."""
    from generator.i18n.texts import Texts
    from generator.load.project import Project
    game, problems = Project(project).load_game(GAME)
    assert not problems
    texts = Texts.load(game, locale)
    return {c.id: texts.get(f"{c.keypath}.name", c.data["name"]) for c in game.components
            if c.category == "cards" and c.data["deck"] == deck}


def _build_errata(project: Path, rev: str, out: Path, *args: str):
    result = pnp("build", "--game", GAME, "--changed-since", rev, "--paper", "a4", "--out", str(out), *args,
                 project=project)
    assert result.exit_code == 0, result.output + result.traceback
    return result


@pytest.fixture(scope="module")
def errata(versions, tmp_path_factory):
    """The errata kits of bg and uk against the commit before the change, and bg's (which
    holds every kind of change) against the folder holding the project as it was."""
    project, before, old_folder = versions
    out = tmp_path_factory.mktemp("errata")
    for locale in ("bg", "uk"):
        _build_errata(project, before, out / "git", "--locale", locale)
    _build_errata(project, str(old_folder), out / "folder", "--locale", "bg")
    return out


# What each locale's errata prints: bg also has the card whose Bulgarian name changed.
EXPECTED = {"bg": ["donkey-sirko", "donkey-vukhan", "donkey-pryanyk"], "uk": ["donkey-vukhan", "donkey-pryanyk"]}


@pytest.mark.parametrize("locale", ["bg", "uk"])
def test_errata_sheets_hold_exactly_the_changed_cards(versions, errata, locale):
    from conftest import cell_texts, check_manifest
    project, _before, _old = versions
    folder = errata / "git" / GAME / "standard" / locale / "errata"
    sheets = folder / f"{GAME}-standard-{locale}-errata-cards-a4.pdf"
    entries = {e["path"]: e for e in check_manifest(errata / "git")}
    assert entries[sheets.relative_to(errata / "git").as_posix()]["cards"] == EXPECTED[locale]
    names = _names(project, locale, "donkeys")
    pdf = pdfium.PdfDocument(sheets)
    try:
        assert len(pdf) == 2, "one page of fronts, its page of backs"
        fronts, backs = cell_texts(pdf[0], "a4"), cell_texts(pdf[1], "a4")
    finally:
        pdf.close()
    printed = [card for card in names if any(names[card] in text.split(" ♞")[0] for text in fronts.values())]
    assert sorted(printed) == sorted(EXPECTED[locale])
    for index, card in enumerate(EXPECTED[locale]):
        assert fronts[(index, 0)].startswith(names[card] + " ")
        # long-edge duplex: the back of the card in column c is in column 2 - c of the back page
        assert backs[(2 - index, 0)], f"no back behind {card}"
    empty = [(c, r) for c in range(3) for r in range(3) if (c, r) not in {(i, 0) for i in range(len(EXPECTED[locale]))}]
    assert all(not fronts[cell] for cell in empty)
    assert all(not backs[(2 - c, r)] for c, r in empty)


def test_errata_booklet_lists_every_change_in_its_language(versions, errata):
    project, before, _old = versions
    names = _names(project, "bg", "donkeys")
    booklet = errata / "git" / GAME / "standard" / "bg" / "errata" / f"{GAME}-standard-bg-errata.pdf"
    pages = _page_texts(booklet)
    assert len(pages) % 4 == 0
    text = " ".join(pages)
    assert f"Промени спрямо {before} ({before[:10]})" in pages[0]
    for section in ("Нови карти", "Променени карти", "Извадени карти"):
        assert section in text
    listed = {card for card, name in names.items() if name in text}
    assert listed == set(EXPECTED["bg"])
    assert "Гевречо: извадете ×1" in text                    # the removed card, by its old name
    assert "Променено: име" in text and "Променено: външен вид" in text
    imposed = booklet.with_name(f"{GAME}-standard-bg-errata-imposed-a4.pdf")
    assert len(_page_texts(imposed)) == len(pages) // 2


def test_errata_from_a_folder_prints_the_same_cards_and_rebuilds_byte_for_byte(versions, errata, tmp_path):
    project, before, _old = versions
    name = f"{GAME}/standard/bg/errata/{GAME}-standard-bg-errata-cards-a4.pdf"
    assert (errata / "git" / name).read_bytes() == (errata / "folder" / name).read_bytes()
    _build_errata(project, before, tmp_path, "--locale", "uk", "--jobs", "1")
    for path in sorted((errata / "git" / GAME / "standard" / "uk").rglob("*.pdf")):
        relative = path.relative_to(errata / "git")
        assert (tmp_path / relative).read_bytes() == path.read_bytes(), relative


def test_an_ink_saving_errata_kit_prints_its_cards_in_the_saver_colours(versions, errata, tmp_path):
    """A family that printed the ink-saving kit gets its errata the same way: the same cards,
    in a file named apart, drawn on a fraction of the ink."""
    from conftest import check_manifest
    project, before, _old = versions
    _build_errata(project, before, tmp_path, "--locale", "uk", "--ink", "saver")
    saver = f"{GAME}/standard/uk/errata/{GAME}-standard-uk-errata-cards-saver-a4.pdf"
    normal = saver.replace("-saver-", "-")
    entries = {e["path"]: e for e in check_manifest(tmp_path)}
    assert normal not in entries
    assert entries[saver]["cards"] == EXPECTED["uk"] and entries[saver]["ink"] == "saver"
    normal_ink = {e["path"]: e for e in check_manifest(errata / "git")}[normal]["ink_coverage_percent"]
    assert entries[saver]["ink_coverage_percent"] < normal_ink / 3


def test_no_change_builds_no_errata(versions, tmp_path):
    project, _before, _old = versions
    result = _build_errata(project, "HEAD", tmp_path, "--locale", "uk")
    assert "no errata to build" in result.stdout
    assert not (tmp_path / GAME).exists()


def test_a_translation_alone_is_one_locale_and_moves_no_check(versions, tmp_path):
    """A version that differs in one catalog entry: that card's text in that locale, and the
    checks and seeded games (which read the YAML alone) are not run again."""
    project, _before, _old = versions
    other = tmp_path / "other"
    shutil.copytree(project / "components", other / "components")
    po = other / "components" / GAME / "locales" / "cs.po"
    lines = po.read_text(encoding="utf-8").splitlines()
    at = lines.index('msgctxt "cards.donkey-vukhan.name"') + 2
    old_name = lines[at].removeprefix('msgstr "').removesuffix('"')
    lines[at] = 'msgstr "Ušáček"'
    po.write_text("\n".join(lines) + "\n", encoding="utf-8")
    [entry] = _diff(project, str(other))["games"]
    assert entry["components"]["changed"] == [{"category": "cards", "id": "donkey-vukhan", "fields": [
        {"field": "name", "locales": {"cs": {"old": "Ušáček", "new": old_name}}}]}]
    assert not entry["components"]["added"] and not entry["components"]["removed"]
    assert entry["other"] == ["locales/cs.po"]
    assert entry["checks"]["same_yaml"] and not entry["checks"]["moved"]
    assert entry["simulation"]["same_yaml"] and not entry["simulation"]["moved"]
