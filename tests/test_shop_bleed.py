"""A background that reaches the trim in a colour that is not paper must run on into a shop's
bleed: found by `pnp validate --profile` and by a shop build at the layout's element, before
anything is drawn, instead of by preflight in the drawn file."""
from __future__ import annotations

import pytest

from conftest import line_of, pnp, replace_in, shop_ready_sample
from generator.app.kinds import KINDS
from generator.app.loading import load_games
from generator.i18n.texts import Texts
from generator.layout.faces import Localised
from generator.layout.kit import validation_kit
from generator.load.profiles import load_profiles
from generator.load.project import Project
from generator.validate.placed import check_placed
from generator.validate.profile import profile_checks

TRAY = 'box: [0, 0, 280, 200], fill: "{colour}", bleed: true}'
HERO = 'box: [0, 0, 63, 88], fill: "{colour}", bleed: true}'


@pytest.fixture
def project(tmp_path):
    return shop_ready_sample(tmp_path)


def _layouts(project):
    return project / "components" / "sample-game" / "layouts.yaml"


def _problems(project, profile="eu-3mm") -> list[str]:
    """What the profile's checks find over every kind of the sample, as `message` strings."""
    project_ = Project(project)
    game = load_games(project_, texts=False)[0]
    kit = validation_kit(project_, game, Localised(game, "standard", Texts.load(game, "en")))
    checks = profile_checks(load_profiles(project_, [profile])[0])
    return [f"{p.file}:{p.line}: {p.key}: {p.message}" for p in check_placed(kit.loc, [k.placed(kit) for k in KINDS], checks)]


def test_a_piece_background_that_stops_at_the_trim_is_named_at_its_element(project):
    replace_in(_layouts(project), TRAY, TRAY.replace(", bleed: true", ""))
    line = line_of(_layouts(project), "box: [0, 0, 280, 200]")
    expected = (f"components/sample-game/layouts.yaml:{line}: faces.tray.elements.0: [eu-3mm sample-game] this "
                "background ({colour}) reaches the trim (left, bottom, right, top edges) and stops there: profile "
                "eu-3mm prints with a 3 mm bleed, so the cut would show paper; add `bleed: true` to run it on "
                "past the trim")
    result = pnp("validate", "--profile", "eu-3mm", project=project)
    assert result.exit_code == 1 and expected in result.stderr, result.output
    assert result.stderr.count("faces.tray.elements.0") == 1, result.stderr
    # The shop build stops at the same place, named once, before preflight draws anything.
    out = project.parent / "out"
    result = pnp("build", "--profile", "eu-3mm", "--out", str(out), project=project)
    assert result.exit_code == 1 and expected in result.stderr, result.output
    assert result.stderr.count("faces.tray.elements.0") == 1 and "preflight" not in result.stderr, result.stderr
    assert not out.exists() or not any(out.rglob("*.pdf"))


def test_a_card_background_that_stops_at_the_trim_is_named_for_the_cards_bleed(project):
    replace_in(_layouts(project), HERO, HERO.replace(", bleed: true", ""))
    found = [p for p in _problems(project) if "faces.hero.elements.0" in p]
    assert len(found) == 1 and "(left, bottom, right, top edges)" in found[0], found


def test_the_shipped_sample_passes_and_a_white_background_needs_no_bleed(project):
    assert _problems(project) == []
    replace_in(_layouts(project), TRAY, TRAY.replace('"{colour}", bleed: true', '"#FFFFFF"'))
    assert _problems(project) == []


def test_a_band_over_a_bled_background_is_covered_and_a_half_bled_edge_is_not(project):
    layouts = _layouts(project)
    # A dark band along the hero's top edge, over the background that bleeds: covered.
    band = '      - {type: rect, box: [0, 78, 63, 10], fill: "#000000"}\n'
    replace_in(layouts, f"      - {{type: rect, {HERO}\n", f"      - {{type: rect, {HERO}\n{band}")
    assert _problems(project) == []
    # The tray's background bleeds only along its lower half: its own colour laid over it,
    # not bled, leaves the upper half of the left and right edges and the top edge bare.
    replace_in(layouts, TRAY, 'box: [0, 0, 280, 100], fill: "#222222", bleed: true}\n'
                              '      - {type: rect, box: [0, 0, 280, 200], fill: "{colour}"}')
    found = [p for p in _problems(project) if "faces.tray.elements.1" in p]
    assert len(found) == 1 and "(left, right, top edges)" in found[0], found
