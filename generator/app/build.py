"""The orchestrator: the only place that knows the order of the stages.

load -> validate -> lay out -> render -> write. A build has one target: home kits
(generator/app/home.py), print-shop files (generator/app/shop.py), an errata kit
(generator/app/errata.py) or the Tabletop Simulator export (generator/app/tts.py). Each target
loads and checks its games and returns its units of work; no target runs, writes or imports
this module. Here the units run (generator/app/units.py), on every core, each reused when what
it is made of is unchanged (generator/write/incremental.py), and every file renders into memory
first: the output folder is touched only when the whole build succeeded.
"""
from __future__ import annotations

from ..core.reproducible import fixed_clock
from ..layout.faces import laid_out_once
from ..load.project import Project
from ..write.cache import Cache
from ..write.incremental import cache_usable, remember_build, selection, whole_build_inputs
from .errata import errata_work
from .home import check_kinds, home_work
from .request import BuildRequest, BuildResult, unchanged_build
from .shop import shop_work
from .timings import CACHE, LOADING, Timings
from .tts import check_addresses, check_request, tts_work
from .units import run_and_write


def build(project: Project, request: BuildRequest, progress=None) -> BuildResult:
    """Home kits, or with `request.profiles` print-shop files; the clock never shows in them.
    What an earlier build made from the same input is reused (generator/write/incremental.py).
    With `request.kinds`, only those kinds' files are made and written; the others stay."""
    check_kinds(request)
    check_addresses(request)
    if request.target == "tts":
        check_request(request)
    timings = Timings()
    if request.changed_since:                   # made from two versions: never from the cache
        with fixed_clock():
            with timings.stage(LOADING):
                work = errata_work(project, request)
            result = run_and_write(project, request, work, None, progress, timings)
        timings.end()
        return result
    out = request.out_folder(project)
    kept = unchanged_build(project, request)
    if kept is not None:
        return kept
    inputs = whole_build_inputs(project, request) if request.cache else None
    cache = Cache(out) if request.cache and cache_usable(out) else None
    target = tts_work if request.target == "tts" else shop_work if request.profiles else home_work
    # Checked and drawn from one laying out: a face the checks laid out is drawn as laid out,
    # by the units that run in this process and, packed with their work, by the workers'.
    with fixed_clock(), laid_out_once():
        with timings.stage(LOADING):
            work = target(project, request, cache)
        result = run_and_write(project, request, work, cache, progress, timings)
    if cache is not None:
        with timings.stage(CACHE):
            cache.flush()
            remember_build(cache, out, inputs, result.artifacts)
            cache.keep_for(selection(request))
            cache.prune(sum(len(a.data) for a in result.artifacts))
    timings.end()
    return result
