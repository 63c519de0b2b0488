"""Diced Veggies' tokens, read off the built Russian sheet: every token's text stands out from the
token, and nothing printed is under 6 pt."""
from __future__ import annotations

import pikepdf
import pytest

from conftest import (MIN_PT, TEXT_RATIO, contrast_ratio, pnp, text_sizes, token_texts_on_their_background)

GAME, LOCALE = "diced-veggies", "ru"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("legible")
    result = pnp("build", "--game", GAME, "--locale", LOCALE, "--paper", "a4", "--kind", "tokens", "--out", str(out))
    assert result.exit_code == 0, result.output[-2000:]
    return out


def pdf_of(out, kind: str) -> pikepdf.Pdf:
    return pikepdf.open(next(out.glob(f"{GAME}/*/*/*-{kind}-a4.pdf")))


def test_every_token_text_stands_out_from_the_token_on_the_built_sheet(built):
    texts = token_texts_on_their_background(pdf_of(built, "tokens"))
    assert texts
    for name, ink, background in texts:
        assert contrast_ratio(ink, background) >= TEXT_RATIO, \
            f"{name}: text {ink} on {background} is {contrast_ratio(ink, background):.2f}:1"


@pytest.mark.parametrize("kind", ["tokens"])
def test_no_text_on_a_token_a_board_or_the_scale_bar_is_under_6_pt(built, kind):
    pdf = pdf_of(built, kind)
    sizes = text_sizes(pdf)
    assert any(where == "page" and page == 1 for page, _, where in sizes), "the scale bar's label is on page 1"
    small = [(page, round(size, 2), where) for page, size, where in sizes if size < MIN_PT - 1e-6]
    assert not small, f"text under {MIN_PT:g} pt: {small[:5]}"
