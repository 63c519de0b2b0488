"""Each home kit's print-first page (…-print-first-<paper>.pdf): the folder's very files to
print, in order, with their sheets, settings and paper; the files not for printing; its words in
the kit's locale; and made again exactly when the files it describes change."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import SAMPLE, flat, page_count, page_texts

from generator.app.home import home_work
from generator.app.loading import load_games
from generator.app.request import BuildRequest
from generator.core.artifacts import Artifact
from generator.i18n.catalogs import tool_plural
from generator.i18n.texts import Texts
from generator.layout.faces import Localised
from generator.layout.kit import Kit
from generator.layout.printfirst import KitFile, lay_out_print_first
from generator.load.project import Project

NAME = re.compile(r"sample-game-standard-en-[a-z0-9-]+\.(?:pdf|png)")


@pytest.fixture(scope="module")
def page(sample) -> tuple[Path, str, str]:
    """(the kit's folder, the page's text before 'Not for printing', the text after it)."""
    # A file name broken across lines at one of its hyphens: pdfium reads that hyphen as U+FFFE.
    text = flat(" ".join(page_texts(sample / "sample-game-standard-en-print-first-a4.pdf")).replace("\ufffe", "-"))
    printed, _, rest = text.partition("Not for printing")
    assert rest, text
    return sample, printed, rest


def test_the_page_lists_every_file_to_print_in_order_and_only_files_of_the_folder(page):
    folder, printed, rest = page
    listed = NAME.findall(printed)
    on_paper = sorted(p.name for p in folder.glob("*-a4.pdf") if "print-first" not in p.name)
    assert sorted(listed) == on_paper
    assert listed[0].endswith("-calibration-a4.pdf") and listed[-1].endswith("-rules-imposed-a4.pdf")
    skipped = NAME.findall(rest)
    assert sorted(skipped) == sorted(p.name for p in folder.iterdir()
                                     if p.is_file() and not p.name.endswith("-a4.pdf"))
    assert any(name.endswith(".png") for name in skipped) and any(name.endswith("-report.pdf") for name in skipped)


def test_each_file_takes_the_sheets_the_page_says(page):
    folder, printed, _ = page
    for name in NAME.findall(printed):
        pages = page_count((folder / name).read_bytes())
        both_sides = any(part in name for part in ("-cards-", "-calibration-", "-rules-imposed-"))
        said = re.search(re.escape(name) + r"\s+(\d+) sheets?\b", printed)
        assert said, (name, printed)
        assert int(said.group(1)) == ((pages + 1) // 2 if both_sides else pages), name
        settings = printed[said.end():].split(".pdf")[0]
        assert ("Double-sided" in settings) == both_sides, (name, settings)
        assert ("flip on short edge" in settings) == name.endswith("-rules-imposed-a4.pdf"), (name, settings)
        assert ("Plain paper, 80 g/m" in settings) == name.endswith("-rules-imposed-a4.pdf"), (name, settings)


def test_a_table_that_needs_only_some_boards_is_told_each_boards_sheets(page):
    folder, printed, _ = page
    name = "sample-game-standard-en-boards-a4.pdf"
    row = printed.partition(name)[2].split(".pdf")[0]
    total = int(re.match(r"\s*(\d+) sheets?", row).group(1))
    parts = re.findall(r"(?:Hexagon ring|Square ring): (\d+) sheets?", row)
    assert "only some of these sheets" in row
    assert len(parts) == 2 and sum(map(int, parts)) == total == page_count((folder / name).read_bytes())


def test_sheet_counts_take_each_locales_plural_forms():
    project = Project(SAMPLE)
    forms = {"one": "{n} sheet", "other": "{n} sheets"}
    said = {(locale, n): tool_plural(project, locale, "sheets.print-first.text.phrases.sheets", forms, n).replace("\xa0", " ")
            for locale in ("en", "ru", "uk", "cs", "bg") for n in (1, 3, 5, 21)}
    assert [said["en", n] for n in (1, 3)] == ["1 sheet", "3 sheets"]
    assert [said["ru", n] for n in (1, 3, 5, 21)] == ["1 лист", "3 листа", "5 листов", "21 лист"]
    assert [said["uk", n] for n in (1, 3, 5, 21)] == ["1 аркуш", "3 аркуші", "5 аркушів", "21 аркуш"]
    assert [said["cs", n] for n in (1, 3, 5)] == ["1 list", "3 listy", "5 listů"]
    assert [said["bg", n] for n in (1, 3)] == ["1 лист", "3 листа"]


def test_a_changed_page_count_makes_the_page_again_and_the_same_files_reuse_it():
    work = home_work(Project(SAMPLE), BuildRequest(paper="a4"), None)
    folder = "sample-game/standard/en/sample-game-standard-en-"

    def made(cards_pages: int) -> list[Artifact]:
        return [Artifact(f"{folder}cards-a4.pdf", b"", "sample-game", "cards", "standard", "en", "a4", cards_pages,
                         {"duplex": "long", "ink_coverage_percent": 0.0}),
                Artifact(f"{folder}report.pdf", b"", "sample-game", "report", "standard", "en", "", 3,
                         {"ink_coverage_percent": 0.0})]

    units = {pages: work.after(made(pages)) for pages in (6, 8)}
    assert [unit.name for unit in units[6]] == [unit.name for unit in units[8]] and len(units[6]) == 1
    assert units[6][0].inputs != units[8][0].inputs
    assert units[6][0].inputs == work.after(made(6))[0].inputs


def test_only_tokens_with_standees_are_told_to_fold_them(page):
    _, printed, _ = page
    # the sample's tokens include its fold-over pawns
    after_tokens = printed.split("sample-game-standard-en-tokens-a4.pdf", 1)[1].split(".pdf", 1)[0]
    assert "fold each standee" in after_tokens, after_tokens
    # a game's tokens without one are only cut out
    project = Project(SAMPLE)
    game = load_games(project, texts=False)[0]
    kit = Kit(project, game, Localised(game, "standard", Texts.load(game, "en")), "a4")
    plain, standees = (lay_out_print_first(kit, [KitFile("x-tokens-a4.pdf", "tokens", "a4", 2, variant=variant)], {})
                       for variant in ("", "standees"))
    assert plain.steps[0].then == "Cut out along the outlines."
    assert "fold each standee" in standees.steps[0].then


def test_a_cutter_kits_page_names_only_its_papers_cut_files_once_for_each_sheets_file():
    """Laid out from a folder holding a cutting machine's sheets and cut files for two papers:
    the A4 page prints the A4 sheets, none of the cut files, and names the A4 cut files on one
    line with the pages they cut; the Letter ones it leaves to the Letter page."""
    project = Project(SAMPLE)
    game = load_games(project, texts=False)[0]
    kit = Kit(project, game, Localised(game, "standard", Texts.load(game, "en")), "a4")
    files = [KitFile(f"x-cards-silhouette-{paper}.pdf", "cards", paper, 4, "long", cutter="silhouette")
             for paper in ("a4", "letter")]
    files += [KitFile(f"x-cards-silhouette-cut{page}-{paper}.{ext}", "cards", paper, 0, "long", cutter="silhouette",
                      cut_page=page) for paper in ("a4", "letter") for page in (1, 3) for ext in ("svg", "dxf")]
    page = lay_out_print_first(kit, files, {})
    assert [step.file for step in page.steps] == ["x-cards-silhouette-a4.pdf"]
    assert "cutting machine" in page.steps[0].then and page.steps[0].sheets == "2\xa0sheets"
    cut_lines = [(file, why.replace("\xa0", " ")) for file, why in page.skipped if "cut" in file]
    assert cut_lines == [("x-cards-silhouette-cut1-a4.svg … x-cards-silhouette-cut3-a4.dxf",
                          "For the cutting machine, not the printer: the cut lines of each page of "
                          "x-cards-silhouette-a4.pdf that it cuts (pages 1, 3), as SVG and as DXF; open whichever "
                          "the machine's software takes.")]
