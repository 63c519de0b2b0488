"""The placed model: every kind describes its laid-out components in one type, one list of checks
(generator/validate/placed.py) runs over all of them, and a kind's faces are laid out once per
edition and locale for its checks and its files alike. On the sample project (every kind), no
PDF drawn."""
from __future__ import annotations

import pickle
from dataclasses import replace

import pytest

from conftest import SAMPLE
from generator.app import shop
from generator.app.kinds import KINDS
from generator.app.kits import Kit
from generator.layout.kit import validation_kit
from generator.app.loading import check_game_faces, load_games
from generator.core.errors import DataError, Problem
from generator.i18n.texts import Texts, collected
from generator.layout import faces as faces_module
from generator.layout.faces import Localised
from generator.load.profiles import load_profile
from generator.load.project import Project
from generator.validate import placed as placed_checks
from generator.validate.profile import profile_checks, profile_kinds


@pytest.fixture(scope="module")
def sample_game():
    project = Project(SAMPLE)
    return project, load_games(project, texts=False)[0]


def test_a_check_added_to_the_list_runs_over_every_kind(sample_game, monkeypatch):
    project, game = sample_game
    seen = []

    @placed_checks.each
    def every_component(loc, component):
        seen.append((loc.edition, component.kind, component.id))
        return [Problem(*component.source[:2], component.source[2], f"seen as {component.kind} {component.id}")]

    monkeypatch.setattr(placed_checks, "CHECKS", [*placed_checks.CHECKS, every_component])
    problems = check_game_faces(project, game, ["en"])

    assert {kind for _, kind, _ in seen} == {kind.name for kind in KINDS}
    # one problem per component laid out, each at the component's place in the data, and nothing
    # else: the sample passes every other check
    assert sorted(p.message for p in problems) == sorted({f"seen as {kind} {id_}" for _, kind, id_ in seen})
    tray = next(p for p in problems if p.message == "seen as pieces tray")
    assert (tray.file, tray.key) == (f"{game.display}/pieces.yaml", "pieces.tray")
    assert tray.line > 0


def _localised(project, game) -> Localised:
    return Localised(game, game.editions[0], Texts.load(game, "en"))


def test_a_kind_lays_its_faces_out_once_for_its_checks_and_its_files(sample_game):
    project, game = sample_game
    kit = validation_kit(project, game, _localised(project, game))
    for kind in KINDS:
        first, again = kind.placed(kit), kind.placed(kit)
        assert first.components, kind.name
        for one, other in zip(first.components, again.components, strict=True):
            assert one.shape is not None and one.shape is other.shape, (kind.name, one.id)
            assert [f.face for f in one.faces] == [f.face for f in other.faces]
            assert all(a.face is b.face for a, b in zip(one.faces, other.faces)), (kind.name, one.id)


def test_faces_laid_out_before_still_tell_the_texts_they_print(sample_game):
    """A piece of work that reuses faces laid out earlier records the texts they print, as if it
    had laid them out itself: a changed text still rebuilds the files that print it."""
    project, game = sample_game
    kit = validation_kit(project, game, _localised(project, game))
    for kind in KINDS:
        with collected() as first:
            kind.placed(kit)
        with collected() as again:
            kind.placed(kit)
        assert first and again.keys() >= first.keys(), kind.name


def test_laid_out_faces_stay_in_their_process(sample_game):
    project, game = sample_game
    loc = _localised(project, game)
    kit = validation_kit(project, game, loc)
    for kind in KINDS:
        kind.placed(kit)
    assert loc._laid
    assert pickle.loads(pickle.dumps(loc))._laid == {}


def test_only_the_latest_few_editions_and_locales_keep_their_faces(sample_game):
    """A build running every unit in one process keeps the faces of a few kits, not of all."""
    project, game = sample_game
    tokens = next(kind for kind in KINDS if kind.name == "tokens")
    locs = [_localised(project, game) for _ in range(faces_module.KEEP_LAID_OUT + 1)]
    for loc in locs:
        tokens.placed(validation_kit(project, game, loc))
    assert locs[0]._laid == {}
    assert all(loc._laid for loc in locs[1:])
    tokens.placed(validation_kit(project, game, locs[0]))      # laid out again when asked again
    assert locs[0]._laid and locs[1]._laid == {}


def _profile_problems(project, game, profile, kit) -> tuple[list[str], dict[str, list[str]]]:
    """The messages of `pnp validate --profile`, and of each shop unit of the kit, by kind."""
    try:
        shop.check_profiles(project, [game], [profile.name])
        validated = []
    except DataError as error:
        validated = [p.message for p in error.problems]
    units = {}
    for kind in KINDS:
        if kind.name in profile_kinds(profile):
            made, problems = (shop.shop_files(kit, profile) if kind.name == "cards" else
                              shop.shop_component_files(kit, profile, kind))
            assert made == [] or not problems, kind.name
            units[kind.name] = [p.message for p in problems]
    return validated, units


def test_a_check_added_to_a_profiles_list_runs_for_validate_and_every_shop_unit(sample_game, monkeypatch):
    """A print profile's checks are a list run by the same runner: a check added to it runs over
    the components of every kind the profile prints, for `pnp validate --profile` and for each
    unit of a shop build, which then stops before drawing."""
    project, game = sample_game
    profile = replace(load_profile(project, "eu-3mm"), booklet=None)
    kit = Kit(project, game, _localised(project, game), "")
    monkeypatch.setattr(shop, "render_shop_components", lambda *args: [])    # nothing drawn
    validated, units = _profile_problems(project, game, profile, kit)
    seen = set()

    @placed_checks.each
    def every_printed(loc, component):
        seen.add((component.kind, component.id))
        return [Problem(*component.source, f"printed: {component.kind} {component.id}")]

    monkeypatch.setattr(shop, "profile_checks", lambda p: [*profile_checks(p), every_printed])
    validated_now, units_now = _profile_problems(project, game, profile, kit)

    # every kind the profile prints, and only those (every kind: it takes tuck boxes too)
    assert {kind for kind, _ in seen} == set(profile_kinds(profile)) == {kind.name for kind in KINDS}
    assert set(validated_now) == set(validated) | {f"printed: {kind} {id_}" for kind, id_ in seen}
    for kind in KINDS:
        if kind.name in units:
            # a problem several components share (a standee's two sides) is named once
            assert units_now[kind.name] == units[kind.name] + list(dict.fromkeys(
                f"printed: {kind.name} {c.id}" for c in kind.placed(kit).components)), kind.name
