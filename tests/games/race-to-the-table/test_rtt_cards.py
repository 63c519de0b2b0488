"""Race to the Table's own cards, in Bulgarian, as `pnp build` prints them: the role cards'
icon disc and text panel."""
from __future__ import annotations

from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
import yaml

from conftest import ROOT, page_drawing, pnp

GAME = "race-to-the-table"


@pytest.fixture(scope="module")
def cards_pdf(tmp_path_factory) -> Path:
    """The full edition's card sheets on A4: the role cards are in the full edition only."""
    out = tmp_path_factory.mktemp("rtt-cards")
    result = pnp("build", "--game", GAME, "--edition", "full", "--locale", "bg", "--kind", "cards", "--paper", "a4",
                 "--out", str(out))
    assert result.exit_code == 0, result.output + result.traceback
    return out / GAME / "full" / "bg" / f"{GAME}-full-bg-cards-a4.pdf"


def test_the_role_cards_disc_stands_clear_of_the_text_panel(cards_pdf):
    """Between the white text panel and the icon disc above it, the card's own colour shows
    for at least 1.5 mm: the panel does not crowd or cut into the disc."""
    cards = yaml.safe_load((ROOT / "components" / GAME / "cards.yaml").read_text(encoding="utf-8"))
    layout = next(deck["layout"] for deck in cards["decks"].values() if deck["layout"] == "role")
    role = next(card_id for card_id, card in cards["cards"].items() if cards["decks"][card["deck"]]["layout"] == layout)
    path = cards_pdf
    with pikepdf.open(path) as pdf:
        found = [(i, f["rect"]) for i, page in enumerate(pdf.pages) for f in page_drawing(page)["forms"]
                 if f["name"] == f"/FormXob.card-{role}"]
    index, (x, y, w, h) = found[0]
    scale = 600 / 25.4
    document = pdfium.PdfDocument(str(path))
    try:
        image = document[index].render(scale=600 / 72).to_pil().convert("RGB")
    finally:
        document.close()
    column = [image.getpixel((int((x + w / 2) * scale), image.height - 1 - int((y + v / 10) * scale)))
              for v in range(300, 450)]          # 30 to 45 mm from the card's bottom, in 0.1 mm steps
    background = image.getpixel((int((x + 4.2) * scale), image.height - 1 - int((y + 40) * scale)))
    white = next(i for i in range(len(column) - 1, -1, -1) if column[i] == (255, 255, 255))   # the panel's top
    near = lambda pixel: all(abs(a - b) <= 30 for a, b in zip(pixel, background))   # noqa: E731
    start = next(i for i in range(white + 1, white + 4) if near(column[i]))    # past the panel's soft edge
    run = next(i for i in range(start, len(column)) if not near(column[i])) - start
    assert run / 10 >= 1.5, f"{run / 10} mm of the card's colour between the panel and the disc"
