"""A build lays each face out once. Its checks lay out every kind of an edition and locale in
the build's process, the kits of every paper share them, and a unit of work sent to a worker
carries them packed: the worker draws without placing a single element again."""
from __future__ import annotations

import pickle
from concurrent.futures import Future
from contextlib import contextmanager

import pytest

from conftest import SAMPLE, shop_ready_sample
from generator.app import loading, units
from generator.app.home import home_work
from generator.app.kinds import KINDS
from generator.app.shop import shop_work
from generator.app.tts import tts_work
from generator.app.units import _run
from generator.layout.elements import ELEMENTS
from generator.layout import faces
from generator.layout.faces import laid_out_once
from generator.core.yamlfile import key_path
from generator.load.project import Project
from generator.app.request import BuildRequest


COMPONENT_KINDS = tuple(sorted(kind.name for kind in KINDS))
TARGETS = {
    "home": (home_work, BuildRequest(kinds=COMPONENT_KINDS)),
    "home, ink saver, short edge": (home_work, BuildRequest(kinds=COMPONENT_KINDS, ink="saver", duplex="short")),
    "shop": (shop_work, BuildRequest(profiles=("eu-3mm",))),
    "tts": (tts_work, BuildRequest(target="tts")),
}

EXPECTED = {"home": {"cards", "tokens", "boards", "dice", "pieces"}, "home, ink saver, short edge": {"cards", "tokens"},
            "shop": {"shop-cards", "shop-component"}, "tts": {"tts-cards", "tts-token", "tts-board", "tts-die"}}


def _never_placed(monkeypatch) -> None:
    def placed(*args, **kwargs):
        raise AssertionError("an element was placed again in a worker")
    for element in ELEMENTS.values():
        monkeypatch.setattr(element, "place", placed)


@pytest.mark.parametrize("target", TARGETS)
def test_a_worker_draws_the_faces_the_build_laid_out_without_placing_any_again(target, monkeypatch, tmp_path):
    make_work, request = TARGETS[target]
    project = shop_ready_sample(tmp_path) if request.profiles else SAMPLE
    with laid_out_once():                     # what `build` holds while its target loads and checks
        work = make_work(Project(project), request, None)
    # What the pool sends each worker, and what the worker receives.
    sent = [pickle.loads(pickle.dumps(unit.work)) for unit in work.units]
    _never_placed(monkeypatch)
    files = []
    for unit, received in zip(work.units, sent):
        outcome = _run(received)
        assert outcome[0] == "done" and not outcome[2], unit.name
        files += outcome[1]
    assert {a.kind for a in files} >= EXPECTED[target], sorted({a.kind for a in files})


@pytest.mark.parametrize("kept", [faces.KEEP_LAID_OUT, 1])
def test_every_paper_of_a_kit_draws_the_one_laying_out_its_checks_made(kept, translated, monkeypatch):
    """In one process too, and when more kits were laid out than are kept unpacked (with one
    kept, the checks' laying out of en is packed away once ru's is made)."""
    monkeypatch.setattr(faces, "KEEP_LAID_OUT", kept)
    with laid_out_once():
        work = home_work(Project(translated), BuildRequest(kinds=COMPONENT_KINDS), None)
        _never_placed(monkeypatch)
        made = set()
        for unit in work.units:
            outcome = _run(unit.work)
            assert outcome[0] == "done" and not outcome[2], unit.name
            made |= {(a.locale, a.paper) for a in outcome[1] if a.kind == "cards"}
    assert made == {(locale, paper) for locale in ("en", "ru") for paper in ("a4", "letter")}, made


def test_without_the_checks_laying_out_a_worker_lays_out_what_it_draws(monkeypatch):
    """The proof that the tests above can fail: a unit that carries nothing laid out places."""
    work = home_work(Project(SAMPLE), BuildRequest(kinds=("cards",)), None)
    for unit in work.units:
        unit.work.args[2].loc._laid.clear()
        unit.work.args[2].loc._packed.clear()
    sent = pickle.loads(pickle.dumps(work.units[0].work))
    _never_placed(monkeypatch)
    with pytest.raises(AssertionError, match="placed again"):
        _run(sent)


def test_faces_unpacked_in_a_worker_are_laid_out_from_the_games_own_layouts():
    """Packed, a face names the game's layouts and elements instead of copying them: unpacked
    against the game a worker received, its elements are that game's, where checks find them."""
    with laid_out_once():
        work = home_work(Project(SAMPLE), BuildRequest(kinds=("cards",)), None)
    received = pickle.loads(pickle.dumps(work.units[0].work))
    kit = received.args[2]
    cards = next(kind for kind in KINDS if kind.name == "cards").placed(kit)
    specs = [placed.spec for component in cards.components for laid in component.faces
             for placed in laid.face.elements]
    assert specs and all(key_path(kit.game.layouts, spec)[:1] in (("faces",), ("backs",)) for spec in specs)


class _PicklingPool:
    """Stands for the build's worker pool: each piece of work goes through pickle, as to a
    worker, and runs here with placing forbidden while it runs."""

    forbid = None

    def __init__(self, *args, **kwargs):
        pass

    def submit(self, fn, *args):
        received = pickle.loads(pickle.dumps(args))
        future = Future()
        with _PicklingPool.forbid():
            future.set_result(fn(*received))
        return future

    def shutdown(self, wait=True, cancel_futures=False):
        pass


@pytest.mark.parametrize("target", ["home", "shop", "tts"])
def test_when_the_checks_are_taken_from_the_cache_the_build_lays_out_before_sending_work(target, monkeypatch, tmp_path):
    """A game whose checks passed before is not laid out by them: the build lays out what its
    units draw before sending any to a worker, once per edition and locale, not in each worker."""
    make_work, request = TARGETS["home" if target == "home" else target]
    project = shop_ready_sample(tmp_path) if request.profiles else SAMPLE
    monkeypatch.setattr(loading, "check_game_faces", lambda *args, **kwargs: [])      # passed before

    @contextmanager
    def forbidden():
        with monkeypatch.context() as inside:
            for element in ELEMENTS.values():
                inside.setattr(element, "place", _placed_again)
            yield
    monkeypatch.setattr(_PicklingPool, "forbid", staticmethod(forbidden))
    monkeypatch.setattr(units, "ProcessPoolExecutor", _PicklingPool)
    with laid_out_once():
        work = make_work(Project(project), request, None)
        outcomes = units.run_units(work.units, None, None, jobs=2)
    assert outcomes and all(not outcome.problems for outcome in outcomes)
    assert {a.kind for outcome in outcomes for a in outcome.artifacts} >= EXPECTED[target]


def _placed_again(*args, **kwargs):
    raise AssertionError("an element was placed again in a worker")
