"""Cards from spreadsheets, through the CLI on a copy of the sample game: the hero deck's cards
come from a CSV, XLSX or ODS file (tests/fixtures/spreadsheets, made by make_fixtures.py)
instead of cards.yaml; every row's name is printed on its cards, a broken cell is reported at
its file:ROW:COLUMN, and a hostile file is refused with the limit it passed."""
from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from conftest import SAMPLE, bounded_pnp, pnp, replace_in
from generator.core.files import MAX_FILE_BYTES
from generator.load.spreadsheets import MAX_CELL_CHARS, MAX_ROWS


FIXTURES = Path(__file__).resolve().parent / "fixtures" / "spreadsheets"
GAME = "components/sample-game"
CSV = ("id,Name,text,colour,count.standard,points\n"
       "knight,Knight of Rows,Moves two spaces.,#3A61C4,4,2\n"
       "\n"
       "archer,Archer of Rows,\"Shoots three spaces away.\",#087F2A,3,1\n")
# the cards the sample's rules count, each with the copies they count
COPIES = {"knight": 4, "archer": 3}


def heroes_from(project: Path, file: str, sheet: str | None = None) -> Path:
    """The sample's hero deck taking its cards from `file` (in the game's folder), its cards
    in cards.yaml taken out."""
    cards = project / GAME / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    text = re.sub(r"\ncards:\n(  .*\n)+", "\n", text)
    cards.write_text(text, encoding="utf-8")
    replace_in(cards, "    back: hero-back\n",
               f"    back: hero-back\n    spreadsheet: {file}\n" + (f"    sheet: {sheet}\n" if sheet else ""))
    return project / GAME / file


@pytest.fixture
def project(tmp_path) -> Path:
    copy = tmp_path / "project"
    shutil.copytree(SAMPLE, copy)
    return copy


def card_texts(out: Path) -> str:
    pdf = pdfium.PdfDocument(str(next(out.rglob("*-cards-a4.pdf"))))
    try:
        return "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    finally:
        pdf.close()


def failed(project: Path, *args: str) -> list[str]:
    """The problems `pnp validate` prints, which must end it with exit code 1 and no traceback."""
    result = pnp("validate", *args, project=project)
    assert result.exit_code == 1, result.output + result.traceback
    assert "Traceback" not in result.output and not result.traceback
    return result.stderr.strip().splitlines()[:-1]


@pytest.mark.parametrize("source, names", [
    ("heroes.csv", {"knight": "Knight of Rows", "archer": "Archer of Rows"}),
    ("heroes.xlsx", {"knight": "Knight of Cells", "archer": "Archer of Cells"}),
    ("heroes.ods", {"knight": "Knight of Tables", "archer": "Archer of Tables"}),
])
def test_every_rows_name_is_printed_on_its_cards(project, tmp_path, source, names):
    path = heroes_from(project, source, sheet=None if source.endswith(".csv") else "Heroes")
    if source.endswith(".csv"):
        path.write_text(CSV, encoding="utf-8")
    else:
        shutil.copy(FIXTURES / source, path)
    out = tmp_path / "out"
    result = pnp("build", "--out", str(out), "--kind", "cards", "--paper", "a4", "--no-cache", project=project)
    assert result.exit_code == 0, result.output + result.traceback
    printed = card_texts(out)
    for card, name in names.items():
        assert printed.count(name) == COPIES[card], (name, printed)
    assert "Knight\r\n" not in printed and "Archer\r\n" not in printed      # cards.yaml's names are gone


def test_broken_cells_are_reported_at_their_row_and_column_all_in_one_run(project):
    heroes_from(project, "heroes.csv").write_text(
        "id,Name,text,colour,count.standard,points,back\n"
        "knight,Knight,Moves two spaces.,#3A61C4,three,2,\n"
        "Archer 2,Archer,Shoots.,#087F2A,3,1,\n"
        "mage,Mage,Casts.,#087F2A,,1,\n"
        "knight,Knight again,Moves.,#3A61C4,1,1,\n"
        "rogue,Rogue,Steals.,#3A61C4,1,-,hero-back\n"
        "thief,Thief,Steals.,#3A61C4,1,-,nope\n", encoding="utf-8")
    assert failed(project, "sample-game") == [
        f"{GAME}/heroes.csv:2:E: cards.knight.count.standard: expected a whole number like 3, got \"three\"",
        f"{GAME}/heroes.csv:3:A: cards.row-3.id: expected an id of lowercase letters, digits and -, like hero-2, "
        f"got \"Archer 2\"",
        f"{GAME}/heroes.csv:4:E: cards.mage.count: no count: write how many copies of the card, like 3 (0 leaves it out)",
        f"{GAME}/heroes.csv:5:A: cards.knight.id: the id \"knight\" is already a card's ({GAME}/heroes.csv:2)",
        f"{GAME}/heroes.csv:7:G: cards.thief.back: no back layout 'nope' in layouts.yaml",
    ]


def test_a_workbooks_sheet_is_read_by_name_and_its_cells_located(project):
    shutil.copy(FIXTURES / "heroes.xlsx", heroes_from(project, "heroes.xlsx", sheet="Broken"))
    assert failed(project, "sample-game") == [
        f"{GAME}/heroes.xlsx:3:E: cards.archer.count.standard: expected a whole number like 3, got \"three\""]
    replace_in(project / GAME / "cards.yaml", "sheet: Broken", "sheet: Heroez")
    [problem] = failed(project, "sample-game")
    assert problem.endswith("decks.heroes.spreadsheet: no sheet 'Heroez' in heroes.xlsx, did you mean 'Heroes'? "
                            "(sheets: Notes, Heroes, Broken)"), problem


def test_a_schema_error_and_an_unknown_edition_in_a_row_are_located_at_their_cell(project):
    path = heroes_from(project, "heroes.csv")
    path.write_text(CSV.replace("#3A61C4", "#3A61C"), encoding="utf-8")
    [problem] = failed(project, "sample-game")
    assert problem.startswith(f"{GAME}/heroes.csv:2:D: cards.knight.colour: "), problem
    path.write_text(CSV.replace("count.standard", "count.deluxe"), encoding="utf-8")
    assert f"{GAME}/heroes.csv:2:E: cards.knight.count.deluxe: unknown edition 'deluxe' (editions: standard)" \
        in failed(project, "sample-game")


def test_translatable_cells_go_into_the_catalog_with_their_row(project):
    heroes_from(project, "heroes.csv").write_text(CSV, encoding="utf-8")
    result = pnp("i18n", "extract", "sample-game", project=project)
    assert result.exit_code == 0, result.output + result.traceback
    template = (project / GAME / "locales" / "messages.pot").read_text(encoding="utf-8")
    assert f'#: {GAME}/heroes.csv:2\nmsgctxt "cards.knight.name"\nmsgid "Knight of Rows"' in template
    assert f'#: {GAME}/heroes.csv:4\nmsgctxt "cards.archer.text"\nmsgid "Shoots three spaces away."' in template


def test_a_changed_spreadsheet_rebuilds_its_cards(project, tmp_path):
    path = heroes_from(project, "heroes.csv")
    path.write_text(CSV, encoding="utf-8")
    out = tmp_path / "out"
    args = ("build", "--out", str(out), "--kind", "cards", "--paper", "a4")
    assert pnp(*args, project=project).exit_code == 0
    before = next(out.rglob("*-cards-a4.pdf")).read_bytes()
    # a colour is data: the cards are drawn again, as a build without the cache draws them
    path.write_text(CSV.replace("#3A61C4", "#3A61C5"), encoding="utf-8")
    assert pnp(*args, project=project).exit_code == 0
    cold = tmp_path / "cold"
    assert pnp("build", "--out", str(cold), "--kind", "cards", "--paper", "a4", "--no-cache", project=project).exit_code == 0
    rebuilt = next(out.rglob("*-cards-a4.pdf")).read_bytes()
    assert rebuilt != before and rebuilt == next(cold.rglob("*-cards-a4.pdf")).read_bytes()
    # a name is a text, looked up again before a file is reused
    path.write_text(CSV.replace("#3A61C4", "#3A61C5").replace("Knight of Rows", "Knight of Lines"), encoding="utf-8")
    assert pnp(*args, project=project).exit_code == 0
    assert card_texts(out).count("Knight of Lines") == COPIES["knight"]


# ---- hostile files ---------------------------------------------------------------------------

def test_a_spreadsheet_outside_the_games_folder_is_refused_unread(project, tmp_path):
    outside = tmp_path / "secret.csv"
    outside.write_text(CSV, encoding="utf-8")
    cards = project / GAME / "cards.yaml"
    heroes_from(project, "../../../secret.csv")
    [problem] = failed(project, "sample-game")
    assert problem.endswith("decks.heroes.spreadsheet: secret.csv: refused: the path leads outside the game's folder"), problem
    replace_in(cards, "../../../secret.csv", "heroes.csv")
    (project / GAME / "heroes.csv").symlink_to(outside)
    [problem] = failed(project, "sample-game")
    assert problem.endswith("decks.heroes.spreadsheet: heroes.csv: refused: the path leads outside the game's folder"), problem


def test_a_spreadsheet_too_big_too_long_or_unpacking_too_far_is_refused(project):
    path = heroes_from(project, "heroes.csv")
    with path.open("wb") as handle:
        handle.write(CSV.encode())
        handle.truncate(MAX_FILE_BYTES + 1)
    [problem] = failed(project, "sample-game")
    assert problem.endswith(f"decks.heroes.spreadsheet: heroes.csv: refused: {MAX_FILE_BYTES + 1:,} bytes, more than "
                            f"the {MAX_FILE_BYTES:,} a data file may have"), problem

    rows = "".join(f"hero-{n},Hero,Text.,#3A61C4,1,1\n" for n in range(MAX_ROWS + 5))
    path.write_text(CSV.split("\n")[0] + "\n" + rows, encoding="utf-8")
    assert f"{GAME}/heroes.csv:{MAX_ROWS + 2}:A: refused: more than {MAX_ROWS:,} rows of cards, the most a deck's " \
           f"spreadsheet may have" in failed(project, "sample-game")

    path.write_text(CSV.replace("Moves two spaces.", "x" * (MAX_CELL_CHARS + 1)), encoding="utf-8")
    assert failed(project, "sample-game") == [
        f"{GAME}/heroes.csv:2:C: refused: {MAX_CELL_CHARS + 1:,} characters, more than the {MAX_CELL_CHARS:,} "
        f"a cell may hold"]

    # a small workbook whose parts unpack to far more than any deck's data
    bomb = project / GAME / "heroes.xlsx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"\0" * (40 * 1024 * 1024))
    assert bomb.stat().st_size < 100_000
    replace_in(project / GAME / "cards.yaml", "heroes.csv", "heroes.xlsx")
    [problem] = failed(project, "sample-game")
    assert re.search(r"decks\.heroes\.spreadsheet: heroes\.xlsx: refused: it unpacks to 41,943,040 bytes, more than "
                     r"the [\d,]+ a workbook may$", problem), problem


def rewritten(source: Path, target: Path, part: str, old: bytes, new: bytes) -> None:
    """`source` (a zip) copied to `target` with `old` replaced by `new` in its `part`."""
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as copy:
        for item in original.infolist():
            data = original.read(item.filename)
            if item.filename == part:
                assert old in data
                data = data.replace(old, new)
            copy.writestr(item, data)


@pytest.mark.parametrize("source, part, old, new", [
    # one value in the last cell a sheet has: calamine would hold every cell up to it (500 GB)
    ("heroes.xlsx", "xl/worksheets/sheet2.xml", b"</sheetData>",
     b'<row r="1048576"><c r="XFD1048576"><v>1</v></c></row></sheetData>'),
    # a value repeated 50,000 rows down and 1,000 columns across, in a 2 KB file (calamine refuses
    # 100 million cells itself, not 50 million, 1.6 GB)
    ("heroes.ods", "content.xml", b"</table:table></office:spreadsheet>",
     b'<table:table-row table:number-rows-repeated="50000"><table:table-cell office:value-type="string" '
     b'table:number-columns-repeated="1000"><text:p>x</text:p></table:table-cell></table:table-row>'
     b"</table:table></office:spreadsheet>"),
])
def test_a_workbook_whose_values_reach_far_is_refused_before_it_is_read(project, source, part, old, new):
    target = heroes_from(project, source, sheet="Heroes")
    rewritten(FIXTURES / source, target, part, old, new)
    assert target.stat().st_size < 10_000
    result = bounded_pnp(project, "validate", "sample-game", memory=512 * 2**20, seconds=10)
    assert result.returncode == 1 and not result.traceback, result.stderr + result.traceback
    assert re.search(rf"decks\.heroes\.spreadsheet: {source}: refused: values down to row [0-9,]{{6,}}, more than the "
                     rf"{MAX_ROWS:,} rows of cards a deck's spreadsheet may have\n", result.stderr), result.stderr


def test_diff_names_a_changed_row_like_a_changed_card(project, tmp_path):
    heroes_from(project, "heroes.csv").write_text(CSV, encoding="utf-8")
    old = tmp_path / "old"
    shutil.copytree(project, old)
    (project / GAME / "heroes.csv").write_text(CSV.replace("Archer of Rows", "Archer of Lines"), encoding="utf-8")
    result = pnp("diff", str(old), project=project)
    assert result.exit_code == 0, result.output + result.traceback
    assert '  changed cards.archer:\n    name [en]: "Archer of Rows" → "Archer of Lines"\n' in result.stdout, result.stdout
