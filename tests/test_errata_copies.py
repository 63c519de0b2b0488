"""The errata kit prints what a player lacks: every copy of a changed card, and of a card that
gains copies only the copies it gains (the others are in the box already). Counted on the
errata card sheets of `pnp build --changed-since` against an earlier copy of the sample game."""
from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pikepdf
import pytest

from conftest import SAMPLE, page_drawing, pnp, replace_in


GAME = "sample-game"


@pytest.fixture(scope="module")
def fronts(tmp_path_factory) -> Counter:
    """How often each card's front is drawn on the errata sheets (fronts pages of long-edge
    duplex sheets), by card id: knights go from 4 to 6, the archer's text changes (3 copies)."""
    base = tmp_path_factory.mktemp("errata-copies")
    old, new = base / "old", base / "new"
    shutil.copytree(SAMPLE, old)
    shutil.copytree(SAMPLE, new)
    replace_in(new / "components" / GAME / "cards.yaml", "count: {standard: 4}", "count: {standard: 6}")
    replace_in(new / "rules" / "sample_game" / "__init__.py", '"knight": 4', '"knight": 6')
    replace_in(new / "components" / GAME / "cards.yaml", "Shoots three spaces away.", "Shoots four spaces away.")
    out = base / "errata"
    result = pnp("build", "--changed-since", str(old), "--paper", "a4", "-j", "1", "--out", str(out), project=new)
    assert result.exit_code == 0, result.output + result.traceback
    sheets = out / GAME / "standard" / "en" / "errata" / f"{GAME}-standard-en-errata-cards-a4.pdf"
    with pikepdf.open(sheets) as pdf:
        names = [form["name"] for page in list(pdf.pages)[::2] for form in page_drawing(page)["forms"]]
    assert all(name.startswith("/FormXob.card-") for name in names), names
    return Counter(name.removeprefix("/FormXob.card-") for name in names)


def test_a_card_with_more_copies_prints_only_the_copies_it_gains(fronts):
    assert fronts["knight"] == 2


def test_a_changed_card_prints_every_copy(fronts):
    assert fronts["archer"] == 3


def test_nothing_else_is_printed(fronts):
    assert set(fronts) == {"knight", "archer"}


def test_the_errata_counts_copies_gained_from_the_data_of_both_versions():
    from generator.app.errata import errata_of
    from generator.app.loading import load_games
    from generator.load.project import Project
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        new = Path(folder) / "new"
        shutil.copytree(SAMPLE, new)
        replace_in(new / "components" / GAME / "cards.yaml", "count: {standard: 3}", "count: {standard: 8}")
        replace_in(new / "rules" / "sample_game" / "__init__.py", '"archer": 3', '"archer": 8')
        (old_game,) = load_games(Project(SAMPLE), GAME)
        (new_game,) = load_games(Project(new), GAME)
        errata = errata_of(old_game, new_game, "standard", "en")
    (card,) = errata.cards
    assert (card.status, card.face.copies, card.old_copies) == ("more", 5, 3)
