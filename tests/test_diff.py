"""`pnp diff REV` and `pnp build --changed-since REV` on a copy of the translated sample, with
one card changed in every locale, one changed in one locale only, one added and one removed;
the other version is a git revision of the copy or a folder holding the copy as it was."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from babel.messages.pofile import read_po, write_po

from conftest import ROOT, SAMPLE, TRANSLATED_LOCALE, cell_texts, check_manifest, pnp, replace_in, translated_sample


GAME = "sample-game"
RU = TRANSLATED_LOCALE
CARDS = f"components/{GAME}/cards.yaml"
# The card removed, in the version as published, and the card added in its place.
REMOVED_CARD = '  scout: {deck: heroes, name: Scout, text: Looks ahead., colour: "#6D6875", count: {standard: 1}}\n'
ADDED_CARD = '  squire: {deck: heroes, name: Squire, text: Looks ahead., colour: "#6D6875", count: {standard: 1}}\n'
ADDED_NAME = {"en": "Squire", RU: "Оруженосец"}


def _git(folder: Path, *args: str) -> str:
    result = subprocess.run(["git", "-C", str(folder), "-c", "user.name=Test", "-c", "user.email=test@example.org",
                             "-c", "commit.gpgsign=false", *args], capture_output=True, text=True, check=True)
    return result.stdout.strip()


def _translation(key: str, source: str, text: str) -> str:
    return f'\nmsgctxt "{key}"\nmsgid "{source}"\nmsgstr "{text}"\n'


def _translate_new_strings(po: Path) -> None:
    """Every string of the catalog left untranslated is given its source text."""
    with po.open("rb") as handle:
        catalog = read_po(handle, locale=RU)
    for message in catalog:
        if message.id and not message.string:
            message.string = message.id
    with po.open("wb") as handle:
        write_po(handle, catalog, width=100)


def published(folder: Path) -> Path:
    """The translated sample with a scout among its heroes, as published; its rules module
    already expects the box of the new version, a squire in the scout's place."""
    project = translated_sample(folder)
    with (project / CARDS).open("a", encoding="utf-8") as cards:
        cards.write(REMOVED_CARD)
    rules = project / "rules" / "sample_game" / "__init__.py"
    replace_in(rules, '"archer": 3,', '"archer": 3, "scout": 1,')      # while its catalogs are written
    result = pnp("i18n", "extract", GAME, project=project)
    assert result.exit_code == 0, result.output + result.traceback
    _translate_new_strings(project / "components" / GAME / "locales" / f"{RU}.po")
    replace_in(rules, '"scout": 1,', '"squire": 1,')
    return project


def change(project: Path) -> None:
    """The new version: the knight in another colour (every locale), the archer with another
    Russian name (ru only), the squire added, the scout removed."""
    cards = project / CARDS
    replace_in(cards, REMOVED_CARD, ADDED_CARD)
    replace_in(cards, 'colour: "#3A61C4"', 'colour: "#1D3557"')
    po = project / "components" / GAME / "locales" / f"{RU}.po"
    replace_in(po, 'msgctxt "cards.archer.name"\nmsgid "Archer"\nmsgstr "Archer"',
               'msgctxt "cards.archer.name"\nmsgid "Archer"\nmsgstr "Лучник"')
    with po.open("a", encoding="utf-8") as handle:
        handle.write(_translation("cards.squire.name", "Squire", ADDED_NAME[RU]))
        handle.write(_translation("cards.squire.text", "Looks ahead.", "Смотрит вперёд."))


@pytest.fixture(scope="module")
def versions(tmp_path_factory):
    """(project in a git repository with the change committed, the commit before it, a folder
    with the project as it was)."""
    base = tmp_path_factory.mktemp("diff")
    project = published(base)
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
        assert [(c["id"], c["counts"]) for c in components["added"]] == [("squire", {"standard": 1})]
        assert [(c["id"], c["counts"]) for c in components["removed"]] == [("scout", {"standard": 1})]
        changed = {c["id"]: c["fields"] for c in components["changed"]}
        assert changed == {
            "knight": [{"field": "colour", "old": "#3A61C4", "new": "#1D3557"}],
            "archer": [{"field": "name", "locales": {RU: {"old": "Archer", "new": "Лучник"}}}],
        }
        assert components["counts"] == []
        assert f"locales/{RU}.po" in entry["other"]
        # The rules of the project as it is now expect the new box: the old one fails them.
        checks = entry["checks"]
        assert checks["moved"] and checks["new"] == 0 and checks["old"] > 0
        assert any("squire" in p for p in checks["fixed"])
        # The squire in the scout's place neither raids nor stands guard: the seeded games stay the same.
        assert entry["simulation"]["games"] and not entry["simulation"]["moved"]
    assert seen[0] == seen[1] == seen[2], "the same two versions give the same diff, however named"


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
    assert "  added cards.squire (standard ×1)" in lines
    assert "  removed cards.scout (standard ×1)" in lines
    assert '    colour: "#3A61C4" → "#1D3557"' in lines
    assert f'    name [{RU}]: "Archer" → "Лучник"' in lines
    result = pnp("diff", "no-such-revision", project=project)
    assert result.exit_code == 2 and "neither a folder nor a revision" in result.stderr
    result = pnp("build", "--changed-since", "no-such-revision", "--game", GAME, "--locale", "en", project=project)
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


def _tool_words(locale: str) -> dict[str, str]:
    """The tool's errata words in `locale`, from its catalog: key -> text."""
    with (ROOT / "templates" / "locales" / f"{locale}.po").open("rb") as handle:
        catalog = read_po(handle, locale=locale)
    prefix = "sheets.errata.text."
    return {m.context.removeprefix(prefix): m.string for m in catalog if m.context and m.context.startswith(prefix)}


def _build_errata(project: Path, rev: str, out: Path, *args: str):
    result = pnp("build", "--game", GAME, "--changed-since", rev, "--paper", "a4", "--out", str(out), *args,
                 project=project)
    assert result.exit_code == 0, result.output + result.traceback
    return result


@pytest.fixture(scope="module")
def errata(versions, tmp_path_factory):
    """The errata kits of ru and en against the commit before the change, and ru's (which
    holds every kind of change) against the folder holding the project as it was."""
    project, before, old_folder = versions
    out = tmp_path_factory.mktemp("errata")
    for locale in (RU, "en"):
        _build_errata(project, before, out / "git", "--locale", locale)
    _build_errata(project, str(old_folder), out / "folder", "--locale", RU)
    return out


# What each locale's errata prints: ru also has the card whose Russian name changed.
EXPECTED = {RU: ["knight", "archer", "squire"], "en": ["knight", "squire"]}
COPIES = {"knight": 4, "archer": 3, "squire": 1}


@pytest.mark.parametrize("locale", [RU, "en"])
def test_errata_sheets_hold_exactly_the_changed_cards(versions, errata, locale):
    project, _before, _old = versions
    folder = errata / "git" / GAME / "standard" / locale / "errata"
    sheets = folder / f"{GAME}-standard-{locale}-errata-cards-a4.pdf"
    entries = {e["path"]: e for e in check_manifest(errata / "git")}
    assert entries[sheets.relative_to(errata / "git").as_posix()]["cards"] == EXPECTED[locale]
    names = _names(project, locale, "heroes")
    pdf = pdfium.PdfDocument(sheets)
    try:
        assert len(pdf) == 2, "one page of fronts, its page of backs"
        fronts, backs = cell_texts(pdf[0], "a4"), cell_texts(pdf[1], "a4")
    finally:
        pdf.close()
    printed = [card for card in names if any(text.startswith(names[card] + " ") for text in fronts.values())]
    assert sorted(printed) == sorted(EXPECTED[locale])
    # every copy the box holds, card after card, in reading order
    copies = [card for card in EXPECTED[locale] for _ in range(COPIES[card])]
    cells = [(column, row) for row in range(3) for column in range(3)]
    for cell, card in zip(cells, copies):
        assert fronts[cell].startswith(names[card] + " "), (cell, card)
        # long-edge duplex: the back of the card in column c is in column 2 - c of the back page
        assert backs[(2 - cell[0], cell[1])], f"no back behind {card}"
    empty = cells[len(copies):]
    assert all(not fronts[cell] for cell in empty)
    assert all(not backs[(2 - c, r)] for c, r in empty)


def test_errata_booklet_lists_every_change_in_its_language(versions, errata):
    project, before, _old = versions
    names = _names(project, RU, "heroes")
    words = _tool_words(RU)
    booklet = errata / "git" / GAME / "standard" / RU / "errata" / f"{GAME}-standard-{RU}-errata.pdf"
    pages = _page_texts(booklet)
    assert len(pages) % 4 == 0
    text = " ".join(pages)
    assert words["since"].replace("{version}", f"{before} ({before[:10]})") in pages[0]
    for section in ("added", "changed", "removed"):
        assert words[section] in text
    listed = {card for card, name in names.items() if name in text}
    assert listed == set(EXPECTED[RU])
    assert words["removed_line"].format(name="Scout", copies=1) in text      # the removed card, by its old name
    for what in ("what_name", "what_look"):
        assert words["changed_what"].format(what=words[what]) in text
    imposed = booklet.with_name(f"{GAME}-standard-{RU}-errata-imposed-a4.pdf")
    assert len(_page_texts(imposed)) == len(pages) // 2


def test_errata_from_a_folder_prints_the_same_cards_and_rebuilds_byte_for_byte(versions, errata, tmp_path):
    project, before, _old = versions
    name = f"{GAME}/standard/{RU}/errata/{GAME}-standard-{RU}-errata-cards-a4.pdf"
    assert (errata / "git" / name).read_bytes() == (errata / "folder" / name).read_bytes()
    _build_errata(project, before, tmp_path, "--locale", "en", "--jobs", "1")
    for path in sorted((errata / "git" / GAME / "standard" / "en").rglob("*.pdf")):
        relative = path.relative_to(errata / "git")
        assert (tmp_path / relative).read_bytes() == path.read_bytes(), relative


def test_an_ink_saving_errata_kit_prints_its_cards_in_the_saver_colours(versions, errata, tmp_path):
    """A family that printed the ink-saving kit gets its errata the same way: the same cards,
    in a file named apart, drawn on a fraction of the ink."""
    project, before, _old = versions
    _build_errata(project, before, tmp_path, "--locale", "en", "--ink", "saver")
    saver = f"{GAME}/standard/en/errata/{GAME}-standard-en-errata-cards-saver-a4.pdf"
    normal = saver.replace("-saver-", "-")
    entries = {e["path"]: e for e in check_manifest(tmp_path)}
    assert normal not in entries
    assert entries[saver]["cards"] == EXPECTED["en"] and entries[saver]["ink"] == "saver"
    normal_ink = {e["path"]: e for e in check_manifest(errata / "git")}[normal]["ink_coverage_percent"]
    assert entries[saver]["ink_coverage_percent"] < normal_ink / 3


def test_no_change_builds_no_errata(versions, tmp_path):
    project, _before, _old = versions
    result = _build_errata(project, "HEAD", tmp_path, "--locale", "en")
    assert "no errata to build" in result.stdout
    assert not (tmp_path / GAME).exists()


def test_a_translation_alone_is_one_locale_and_moves_no_check(versions, tmp_path):
    """A version that differs in one catalog entry: that card's text in that locale, and the
    checks (which read the YAML alone) are not run again."""
    project, _before, _old = versions
    other = tmp_path / "other"
    shutil.copytree(project / "components", other / "components")
    po = other / "components" / GAME / "locales" / f"{RU}.po"
    replace_in(po, 'msgctxt "cards.knight.name"\nmsgid "Knight"\nmsgstr "Knight"',
               'msgctxt "cards.knight.name"\nmsgid "Knight"\nmsgstr "Рыцарь"')
    [entry] = _diff(project, str(other))["games"]
    assert entry["components"]["changed"] == [{"category": "cards", "id": "knight", "fields": [
        {"field": "name", "locales": {RU: {"old": "Рыцарь", "new": "Knight"}}}]}]
    assert not entry["components"]["added"] and not entry["components"]["removed"]
    assert entry["other"] == [f"locales/{RU}.po"]
    assert entry["checks"]["same_yaml"] and not entry["checks"]["moved"]
    assert entry["simulation"]["same_yaml"] and not entry["simulation"]["moved"]


# The knight as published, and one more of it: a raid adds one to its roll for each knight held.
KNIGHT = '  knight: {deck: heroes, name: Knight, text: Moves two spaces., colour: "#3A61C4", count: {standard: 4}}\n'
MORE_KNIGHTS = KNIGHT.replace("{standard: 4}", "{standard: 5}")


def _figures(runs: dict) -> set[str]:
    names = set()
    for figures in runs.values():
        names |= {f"{name} mean" for name in figures["numbers"]}
        names |= {f"{name} {value}" for name, shares in figures["shares"].items() for value in shares}
        names |= {f"win rate seat {seat}" for seat in range(1, len(figures["win_rate"]) + 1)}
        names |= {f"{name} {item} per game" for name, table in figures["counts"].items() for item in table}
    return names


def test_one_more_knight_moves_the_seeded_games(tmp_path):
    """A changed count: the new version's box is played again (a stronger hand moves the seeded
    games), and the figures named as moved are among those it reports."""
    project = tmp_path / "project"
    shutil.copytree(SAMPLE, project)
    # the project's rules expect the new box: the old one fails them
    replace_in(project / "rules" / "sample_game" / "__init__.py", '"knight": 4,', '"knight": 5,')
    old = tmp_path / "old"
    shutil.copytree(project, old)
    replace_in(project / CARDS, KNIGHT, MORE_KNIGHTS)
    result = pnp("diff", str(old), "--json", project=project)
    assert result.exit_code == 0, result.output + result.traceback
    [entry] = json.loads(result.stdout)["games"]
    assert entry["components"]["counts"] == [{"category": "cards", "id": "knight",
                                              "editions": {"standard": {"old": 4, "new": 5}}}]
    assert not entry["components"]["changed"]
    assert entry["checks"]["moved"] and entry["checks"]["new"] == 0 and entry["checks"]["old"] > 0
    assert entry["checks"]["fixed"] == [f"{CARDS}: cards.knight.count.standard: rules need 5, data says 4"]
    simulation = entry["simulation"]
    assert simulation["moved"], "one more knight changes the seeded games"
    assert {m["figure"] for m in simulation["moved"]} <= _figures(simulation["new"])

