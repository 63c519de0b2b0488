"""The example game a new designer starts from (examples/garden-race): no Python, cards from a
CSV file and from a sheet of an XLSX workbook, icons in text, two card sizes, a board, a token,
a die and two locales. It validates and builds with `pnp -C examples/garden-race`, every
spreadsheet row's name is on its cards, no icon markup is printed, and a broken cell is named
where the spreadsheet shows it."""
from __future__ import annotations

import csv
import re
import shutil

import pypdfium2 as pdfium
import pytest
from python_calamine import CalamineWorkbook

from conftest import ROOT, pnp, replace_in

EXAMPLE = ROOT / "examples" / "garden-race"
GAME = EXAMPLE / "components" / "garden-race"


def _text(path) -> str:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return "\n".join(page.get_textpage().get_text_range() for page in pdf)
    finally:
        pdf.close()


def _row_names() -> list[str]:
    with (GAME / "flowers.csv").open(encoding="utf-8", newline="") as handle:
        flowers = [row["name"] for row in csv.DictReader(handle)]
    rows = CalamineWorkbook.from_path(str(GAME / "weather.xlsx")).get_sheet_by_name("Weather").to_python()
    weather = [row[rows[0].index("name")] for row in rows[1:]]
    return flowers + weather


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("example")
    result = pnp("build", "--locale", "en", "--paper", "a4", "--out", str(out), project=EXAMPLE)
    assert result.exit_code == 0, result.output + result.traceback
    return out / "garden-race" / "standard" / "en"


def test_the_example_validates_without_a_rules_module():
    result = pnp("validate", project=EXAMPLE)
    assert result.exit_code == 0 and result.stdout.strip() == "ok: garden-race", result.output
    assert "no rules module checks this game's counts" in result.output


def test_every_spreadsheet_row_is_a_card_of_its_size(built):
    text = _text(built / "garden-race-standard-en-cards-a4.pdf").replace("\r\n", "\n")
    names = _row_names()
    assert len(names) == 10
    for name in names:
        assert name in text, name
    # two card sizes: the poker flowers and the mini weather cards, each on sheets of its own
    pdf = pdfium.PdfDocument(str(built / "garden-race-standard-en-cards-a4.pdf"))
    try:
        fronts = [page.get_textpage().get_text_range() for page in pdf][::2]
    finally:
        pdf.close()
    assert any("Daisy" in page for page in fronts) and any("Sunny Day" in page for page in fronts)
    assert not any("Daisy" in page and "Sunny Day" in page for page in fronts)


def test_no_icon_markup_is_printed_in_any_file(built):
    pdfs = sorted(built.glob("*.pdf"))
    assert {"cards", "boards", "tokens", "dice", "rules"} <= {p.stem.split("-")[4] for p in pdfs}
    for path in pdfs:
        assert not re.search(r":[a-z][a-z0-9_-]*:", _text(path)), path.name


def test_a_broken_cell_is_named_at_its_row_and_column(tmp_path):
    project = tmp_path / "example"
    shutil.copytree(EXAMPLE, project)
    replace_in(project / "components" / "garden-race" / "flowers.csv", "#AD1457,4,3", "#AD1457,four,3")
    result = pnp("validate", project=project)
    assert result.exit_code == 1 and not result.traceback, result.output
    assert "components/garden-race/flowers.csv:4:E: cards.rose.count.standard: expected a whole number" in result.output


def test_the_tabletop_export_names_icons_by_their_words(tmp_path):
    """Tabletop Simulator shows names, card texts and what a die rolled as plain words: an icon
    is its alternative text there ("Grow 1 Flower."), never its markup."""
    result = pnp("build", "--target", "tts", "--locale", "en", "--out", str(tmp_path), project=EXAMPLE)
    assert result.exit_code == 0, result.output + result.traceback
    save = (tmp_path / "garden-race" / "standard" / "en" / "tts" / "garden-race-standard-en.json").read_text(encoding="utf-8")
    assert not re.search(r":[a-z][a-z0-9_-]*:", save)
    assert "Grow 1\u00a0Flower." in save and '"Value": "Watering can"' in save
