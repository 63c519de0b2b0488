"""Card sizes are data (templates/sheets/card-sizes.yaml): each size prints on its own home
sheet, and a face whose size is no card size, or differs from its back, is a located error.
On the shop-ready sample game: its heroes and villains, poker cards, and no mini cards."""
from __future__ import annotations

import shutil
from pathlib import Path

import pypdfium2

from conftest import MM, PAPERS, ROOT, line_of, pnp, replace_in, shop_ready_sample

GAME = "sample-game"
TAROT = (70.0, 120.0)


def _layouts(project):
    return project / "components" / GAME / "layouts.yaml"


def _tarot_sample(folder: Path) -> Path:
    """The shop-ready sample with its hero face and both backs tarot size."""
    project = shop_ready_sample(folder)
    replace_in(_layouts(project), "size_mm: [63, 88]", "size_mm: [70, 120]", count=3)
    assert "[63, 88]" not in _layouts(project).read_text(encoding="utf-8")
    return project


def test_tarot_cards_print_four_to_a_page_with_marks_beside_them(tmp_path):
    project = _tarot_sample(tmp_path)
    result = pnp("build", "--paper", "a4", "--kind", "cards", project=project)
    assert result.exit_code == 0, result.output + result.traceback
    pdf = pypdfium2.PdfDocument(project / "output" / GAME / "standard" / "en" / f"{GAME}-standard-en-cards-a4.pdf")
    assert len(pdf) == 2 * 3        # 7 heroes and 2 villains, 4 a page, each fronts page with its backs
    width, height = PAPERS["a4"]
    left, bottom = (width - 2 * TAROT[0]) / 2, (height - 2 * TAROT[1]) / 2

    def cells(page) -> dict[tuple[int, int], list[str]]:
        """The words in each tarot cell of a centred 2 x 2 sheet, keyed (column, row from the top)."""
        text = pdf[page].get_textpage()
        return {(column, row): text.get_text_bounded(
                    (left + column * TAROT[0] + 1) * MM, (bottom + (1 - row) * TAROT[1] + 1) * MM,
                    (left + (column + 1) * TAROT[0] - 1) * MM, (bottom + (2 - row) * TAROT[1] - 1) * MM).split()
                for row in range(2) for column in range(2)}
    # four knights fill the first sheet, the three archers the next, each in a tarot cell
    assert all("Knight" in words and "Archer" not in words for words in cells(0).values()), cells(0)
    archers = cells(2)
    assert ["Archer" in archers[cell] for cell in ((0, 0), (1, 0), (0, 1), (1, 1))] == [True, True, True, False], archers
    assert "Ogre" in cells(4)[0, 0]


def test_a_face_of_no_card_size_is_a_located_error(tmp_path):
    project = shop_ready_sample(tmp_path)
    replace_in(_layouts(project), "size_mm: [63, 88]", "size_mm: [60, 90]")
    line = line_of(_layouts(project), "size_mm: [60, 90]")
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert (f"components/{GAME}/layouts.yaml:{line}: faces.hero.size_mm: 60 x 90 mm is no card size "
            "(sizes: poker 63 x 88, bridge 57 x 89, mini 44 x 63, tarot 70 x 120, square 70 x 70)") in result.stderr


def test_a_back_of_another_size_than_its_face_is_a_located_error(tmp_path):
    project = shop_ready_sample(tmp_path)
    back_line = line_of(_layouts(project), "size_mm:", start="  hero-back:")
    replace_in(_layouts(project), "  hero-back:\n    size_mm: [63, 88]", "  hero-back:\n    size_mm: [57, 89]")
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1
    assert (f"components/{GAME}/layouts.yaml:{back_line}: backs.hero-back.size_mm: the back is 57 x 89 mm, "
            "its face hero is 63 x 88 mm") in result.stderr


def test_a_duplex_mode_a_size_has_no_sheet_for_is_refused(tmp_path):
    project = _tarot_sample(tmp_path)
    result = pnp("build", "--paper", "a4", "--duplex", "gutterfold", project=project)
    assert result.exit_code == 2 and not result.traceback
    assert ("error: tarot cards have no sheet for --duplex gutterfold (templates/sheets/card-sizes.yaml; "
            "modes: fronts, long, short)") in result.stderr
    assert not (project / "output").exists()


def test_a_sheet_whose_slots_are_not_its_card_size_is_a_located_error(tmp_path):
    project = shop_ready_sample(tmp_path)
    sheets = project / "templates" / "sheets"
    sheets.mkdir(parents=True)
    shutil.copy(ROOT / "templates" / "sheets" / "poker-3x3.yaml", sheets)
    replace_in(sheets / "poker-3x3.yaml", "card_mm: [63, 88]", "card_mm: [63.5, 88.9]")
    result = pnp("build", "--paper", "a4", project=project)
    assert result.exit_code == 1 and not result.traceback
    assert ("templates/sheets/poker-3x3.yaml:3: card_mm: the sheet's slots are 63.5 x 88.9 mm, but card-sizes.yaml "
            "prints poker cards (63 x 88 mm) on it") in result.stderr
