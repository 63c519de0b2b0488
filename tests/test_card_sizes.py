"""Card sizes are data (templates/sheets/card-sizes.yaml): each size prints on its own home
sheet, and a face whose size is no card size, or differs from its back, is a located error."""
from __future__ import annotations

import pypdfium2

from conftest import MM, PAPERS, pnp, replace_in

GAME = "the-game"
TAROT = (70.0, 120.0)


def _layouts(project):
    return project / "components" / GAME / "layouts.yaml"


def test_tarot_cards_print_four_to_a_page_with_marks_beside_them(project):
    replace_in(_layouts(project), "size_mm: [63, 88]", "size_mm: [70, 120]", count=3)
    result = pnp("build", "--game", GAME, "--locale", "cs", "--paper", "a4", project=project)
    assert result.exit_code == 0, result.output + result.traceback
    pdf = pypdfium2.PdfDocument(project / "output" / GAME / "standard" / "cs" / f"{GAME}-standard-cs-cards-a4.pdf")
    assert len(pdf) == 2 * 26                     # 102 cards, 4 a page, each fronts page with its backs
    width, height = PAPERS["a4"]
    left, bottom = (width - 2 * TAROT[0]) / 2, (height - 2 * TAROT[1]) / 2
    text = pdf[0].get_textpage()
    # two 1 ↑ piles in the top row, two 100 ↓ piles below them
    top_left = text.get_text_bounded((left + 1) * MM, (bottom + TAROT[1] + 1) * MM,
                                     (left + TAROT[0] - 1) * MM, (bottom + 2 * TAROT[1] - 1) * MM)
    top_right = text.get_text_bounded((left + TAROT[0] + 1) * MM, (bottom + TAROT[1] + 1) * MM,
                                      (left + 2 * TAROT[0] - 1) * MM, (bottom + 2 * TAROT[1] - 1) * MM)
    bottom_left = text.get_text_bounded((left + 1) * MM, (bottom + 1) * MM,
                                        (left + TAROT[0] - 1) * MM, (bottom + TAROT[1] - 1) * MM)
    assert "1" in top_left.split() and "1" in top_right.split() and "100" not in top_right.split()
    assert "100" in bottom_left.split()


def test_a_face_of_no_card_size_is_a_located_error(project):
    replace_in(_layouts(project), "size_mm: [63, 88]", "size_mm: [60, 90]")
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert (f"components/{GAME}/layouts.yaml:10: faces.number.size_mm: 60 x 90 mm is no card size "
            "(sizes: poker 63 x 88, bridge 57 x 89, mini 44 x 63, tarot 70 x 120, square 70 x 70)") in result.stderr


def test_a_back_of_another_size_than_its_face_is_a_located_error(project):
    text = _layouts(project).read_text(encoding="utf-8")
    back_line = text.splitlines().index("  card-back:") + 2
    replace_in(_layouts(project), "  card-back:\n    size_mm: [63, 88]", "  card-back:\n    size_mm: [57, 89]")
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1
    assert (f"components/{GAME}/layouts.yaml:{back_line}: backs.card-back.size_mm: the back is 57 x 89 mm, "
            "its face number is 63 x 88 mm") in result.stderr


def test_a_duplex_mode_a_size_has_no_sheet_for_is_refused(project):
    replace_in(_layouts(project), "size_mm: [63, 88]", "size_mm: [70, 120]", count=3)
    result = pnp("build", "--game", GAME, "--locale", "cs", "--paper", "a4", "--duplex", "gutterfold", project=project)
    assert result.exit_code == 2 and not result.traceback
    assert ("error: tarot cards have no sheet for --duplex gutterfold (templates/sheets/card-sizes.yaml; "
            "modes: fronts, long, short)") in result.stderr
    assert not (project / "output").exists()


def test_a_sheet_whose_slots_are_not_its_card_size_is_a_located_error(project):
    replace_in(project / "templates" / "sheets" / "poker-3x3.yaml", "card_mm: [63, 88]", "card_mm: [63.5, 88.9]")
    result = pnp("build", "--game", GAME, "--locale", "cs", "--paper", "a4", project=project)
    assert result.exit_code == 1 and not result.traceback
    assert ("templates/sheets/poker-3x3.yaml:3: card_mm: the sheet's slots are 63.5 x 88.9 mm, but card-sizes.yaml "
            "prints poker cards (63 x 88 mm) on it") in result.stderr
