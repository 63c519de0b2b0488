"""Pegs and Jokers' Ukrainian rule booklet pictures each of its boards with their parts named in
the catalog's words."""
from __future__ import annotations

import re

import pikepdf
import pypdfium2 as pdfium

from conftest import ROOT, pnp

GAME = "pegs-and-jokers"
SPACES = re.compile(r"\s+")


def test_the_booklet_pictures_each_board_with_its_parts_named_in_the_locale(tmp_path):
    """Pegs and Jokers in Ukrainian: under each board's picture, its numbered parts in the
    catalog's words (the path with the way play runs, start area, home, in-spot, come-out hole)."""
    out = tmp_path / "out"
    result = pnp("build", "--game", GAME, "--locale", "uk", "--kind", "booklet", "--out", str(out))
    assert result.exit_code == 0, result.output
    catalog = (ROOT / "components" / GAME / "locales" / "uk.po").read_text(encoding="utf-8")
    names = {key: re.search(rf'msgctxt "design\.shapes\.track\.{re.escape(key)}\.?callout"\nmsgid ".*"\nmsgstr "(.*)"',
                            catalog).group(1) for key in ("", "start_area.", "branch.", "marks.in_spot.", "marks.come_out.")}
    pdf = out / GAME / "standard" / "uk" / f"{GAME}-standard-uk-rules.pdf"
    document = pdfium.PdfDocument(str(pdf))
    try:
        text = SPACES.sub(" ", " ".join(page.get_textpage().get_text_range() for page in document))
    finally:
        document.close()
    # the five parts, in the order the picture numbers them, under each of the three boards
    order = [names[key] for key in ("", "start_area.", "branch.", "marks.in_spot.", "marks.come_out.")]
    assert len(set(order)) == 5 and "Track" not in text
    starts = [m.start() for m in re.finditer(re.escape(order[0]), text)]
    assert len(starts) == 3
    for start in starts:
        legend = text[start:start + sum(len(name) for name in order) + 40]
        found = [legend.find(name) for name in order]
        assert -1 not in found and found == sorted(found), legend
    with pikepdf.open(pdf) as opened:
        images = {x.objgen: (int(x.Width), int(x.Height)) for page in opened.pages
                  for x in (page.obj.Resources.get("/XObject") or {}).values() if x.get("/Subtype") == "/Image"}
    # the three boards drawn, each to the column's width (120 mm at 200 dpi)
    sizes = sorted(images.values())
    boards = [size for size in sizes if size[0] >= 900]
    assert len(boards) == 3, sizes
