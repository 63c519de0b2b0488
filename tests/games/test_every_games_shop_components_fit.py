"""Every shipped game's shop components, as the profiles that take components get them, fit
those shops in the game's longest locale: the glue labels each game's data lays out near a
component's cut stay in the shops' safe zones."""
from __future__ import annotations

import pytest

from conftest import ROOT, pnp
from generator.app.kinds import KINDS as COMPONENT_KINDS
from generator.app.loading import load_games
from generator.app.shop import profile_problems
from generator.i18n.catalogs import every_text
from generator.i18n.texts import Texts
from generator.layout.faces import Localised
from generator.layout.kit import Kit
from generator.load.profiles import load_profiles
from generator.load.project import Project


GAMES = {game.slug: game for game in load_games(Project(ROOT), texts=False)}


def _longest_locale(game) -> str:
    """The released locale whose printed texts are longest in all (the hardest to fit)."""
    entries = [entry for entry in every_text(game) if isinstance(entry.source, str)]
    released = [locale for locale in game.locales if not game.is_draft(locale)]
    texts = {locale: Texts.load(game, locale) for locale in released}
    return max(released, key=lambda locale: (sum(len(texts[locale].get(e.key, e.source)) for e in entries), locale))


# The shops whose files are components only (boards, pieces): what the tool lays out near a
# component's cut, the glue labels among it, must stay in their safe zones there. A profile
# with cards and a booklet too (eu-3mm) costs a minute a game; test_shop_components.py builds
# it for two games, and `pnp validate --profile` checks every card's safe zone.
COMPONENT_PROFILES = sorted(profile.name for profile in load_profiles(Project(ROOT), ["all"])
                            if profile.components and not profile.cards and not profile.booklet)


PROFILE_KINDS = {kind for profile in load_profiles(Project(ROOT), COMPONENT_PROFILES)
                 for kind in profile.components.kinds}
# the games with components those shops print (the others make no file there)
SHOP_GAMES = sorted(slug for slug, game in GAMES.items() if PROFILE_KINDS & set(game.files))


def test_a_components_only_profile_takes_pieces_and_the_games_with_them_are_built():
    assert "pieces" in PROFILE_KINDS
    assert "diced-veggies" in SHOP_GAMES


@pytest.mark.parametrize("slug", SHOP_GAMES)
def test_every_games_shop_components_fit_in_its_longest_locale(slug):
    """What a shop build checks of the data before drawing (generator.app.shop.shop_component_files):
    each component of the kinds the components-only profiles take, that the shop prints, lays
    out its text (the glue labels) inside the shop's safe zone in the game's longest locale.
    Drawing and preflighting such files is checked by test_shop_components.py."""
    project, game = Project(ROOT), GAMES[slug]
    locale = _longest_locale(game)
    printed = []
    for edition, profile in ((e, p) for e in game.editions for p in load_profiles(project, COMPONENT_PROFILES)):
        kit = Kit(project, game, Localised(game, edition, Texts.load(game, locale)), "")
        for kind in COMPONENT_KINDS:
            if kind.name in profile.components.kinds:
                problems = profile_problems(kit, profile, (kind.name,))
                assert not problems, f"{slug} {edition} {locale} {profile.name}: {problems}"
                printed += [item for item in kind.shop(kit) if profile.components.fits(item.size_mm)]
    assert printed, f"{slug} {locale}: the shops print some of its components"


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_games_cards_keep_every_shops_safe_zone(slug):
    """`pnp validate --profile all`: every card's text and icons, in every released locale, inside
    each shop's safe zone (the same check on the sample: tests/test_validate.py)."""
    result = pnp("validate", slug, "--profile", "all")
    assert result.exit_code == 0, result.stderr[-2000:]
