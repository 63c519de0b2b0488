"""Every game's tokens and boards, read off sheets built in a translated locale (the last of its
locales that is not its source: longer words than the source's, often): every token's text (a
standee's words too) stands out from the token, and nothing printed on a token, a board or the
scale bar is under 6 pt. A game's own marks (a board's holes) are read in its folder."""
from __future__ import annotations

import pikepdf
import pytest

from conftest import ROOT, MIN_PT, TEXT_RATIO, contrast_ratio, pnp, text_sizes, token_texts_on_their_background
from generator.load.project import Project

PROJECT = Project(ROOT)


def _sheets() -> dict[str, tuple[str, tuple[str, ...]]]:
    """slug -> (the locale read, the kinds among tokens and boards that the game prints)."""
    found = {}
    for slug in PROJECT.game_slugs():
        game, problems = PROJECT.load_game(slug)
        assert not problems, problems
        kinds = tuple(kind for kind in ("tokens", "boards")
                      if any(game.in_edition(edition, kind) for edition in game.editions))
        if kinds:
            translated = [locale for locale in sorted(game.locales) if locale != game.source_locale]
            found[slug] = ((translated or [game.source_locale])[-1], kinds)
    return found


SHEETS = _sheets()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    made = {}

    def sheets(slug: str):
        if slug not in made:
            locale, kinds = SHEETS[slug]
            out = tmp_path_factory.mktemp("legible")
            kind_args = [arg for kind in kinds for arg in ("--kind", kind)]
            result = pnp("build", "--game", slug, "--locale", locale, "--paper", "a4", *kind_args, "--out", str(out))
            assert result.exit_code == 0, result.output[-2000:]
            made[slug] = out
        return made[slug]
    return sheets


def _pdf(out, slug: str, kind: str) -> pikepdf.Pdf:
    return pikepdf.open(next(out.glob(f"{slug}/*/*/*-{kind}-a4.pdf")))


@pytest.mark.parametrize("slug", [slug for slug, (_, kinds) in SHEETS.items() if "tokens" in kinds])
def test_every_token_text_stands_out_from_the_token_on_the_built_sheet(built, slug):
    texts = token_texts_on_their_background(_pdf(built(slug), slug, "tokens"))
    assert texts
    for name, ink, background in texts:
        assert contrast_ratio(ink, background) >= TEXT_RATIO, \
            f"{name}: text {ink} on {background} is {contrast_ratio(ink, background):.2f}:1"


@pytest.mark.parametrize("slug,kind", [(slug, kind) for slug, (_, kinds) in SHEETS.items() for kind in kinds])
def test_no_text_on_a_token_a_board_or_the_scale_bar_is_under_6_pt(built, slug, kind):
    pdf = _pdf(built(slug), slug, kind)
    sizes = text_sizes(pdf)
    assert any(where == "page" and page == 1 for page, _, where in sizes), "the scale bar's label is on page 1"
    small = [(page, round(size, 2), where) for page, size, where in sizes if size < MIN_PT - 1e-6]
    assert not small, f"text under {MIN_PT:g} pt: {small[:5]}"
    if kind == "boards":
        # the assembly map opens the file: the board drawn small, its tiles' labels over it
        assert pdf.pages[0].obj.get("/Resources", {}).get("/XObject"), "the map draws the board"
