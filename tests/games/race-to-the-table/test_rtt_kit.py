"""Race to the Table's own boards and tokens, in Bulgarian, as `pnp build` prints them: the
track from START to THE TABLE with its clock on every board, and every token with its label
(the pawn's label set at 6 pt or more, so on two lines); and as a print shop gets them."""
from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from conftest import ROOT, pnp, shop_components_pass

GAME = "race-to-the-table"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("rtt-kit")
    result = pnp("build", "--game", GAME, "--locale", "bg", "--kind", "boards,tokens", "--paper", "a4",
                 "--out", str(out))
    assert result.exit_code == 0, result.output + result.traceback
    return out


def kit(out: Path, edition: str, kind: str) -> Path:
    return out / GAME / edition / "bg" / f"{GAME}-{edition}-bg-{kind}-a4.pdf"


def test_track_runs_from_start_to_table_on_every_board(built):
    pdf = pdfium.PdfDocument(kit(built, "free", "boards"))
    text = " ".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    for label in ["СТАРТ", "МАСАТА", "Часовник", "Бърза игра", "Край"] + [str(n) for n in range(1, 16)]:
        assert label in text


def test_tokens_sheet_has_every_token(built):
    text = pdfium.PdfDocument(kit(built, "full", "tokens"))[0].get_textpage().get_text_range()
    assert text.count("Затворено") == 6
    assert text.count("Маркер") == 2
    # 6 pawns, front and back; the label is set at 6 pt or more, so it takes two lines
    assert text.count("Напишете избора") == 12 and text.count("\r\nси\r\n") == 12


def test_the_boards_and_tokens_pass_a_sheet_fed_shops_checks_and_preflight():
    """The full edition's boards and tokens, in Bulgarian, drawn as `pnp build --profile eu-3mm`
    draws them: each file checked and preflighted, one for every one that fits the sheet."""
    shop_components_pass(ROOT, GAME, "full", "bg", "eu-3mm")
