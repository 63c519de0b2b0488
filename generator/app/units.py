"""Units of work of a build: each makes some files; reused from the cache when what it is made
of is unchanged, otherwise run, on every core, in worker processes. The build's files are
written once every unit has made its own, and none when a unit found a problem.

Workers are started with the platform's own method (spawn on Windows and macOS): each unit's
work is a picklable callable (a module-level function with its arguments, games and kits
included) that a worker receives with the build's cache, runs, and answers with the files it
made, the texts it printed and what it added to the cache. Nothing reaches a worker through
memory it inherited. The results are taken in the units' order, never in the order they
finish, so a parallel build gives the files, the manifest and the errors of a serial one.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Callable

from ..core.artifacts import Artifact
from ..core.errors import DataError, PnpError, Problem, UsageError
from ..core.reproducible import fixed_clock
from ..i18n.catalogs import TextsNow
from ..i18n.texts import collected
from ..load.project import Game, Project
from ..write.cache import Cache
from ..write.incremental import FORMAT, lookups_to_json, texts_unchanged
from ..write.output import write_all
from .request import BuildRequest, BuildResult
from .timings import LAYING_OUT, WRITING, Timings, cpu_seconds


@dataclass
class Unit:
    name: str                          # unique in a build, options included: the cache's key
    label: str                         # what the progress line says
    # Picklable (a function of a module, or functools.partial of one): it runs in a worker.
    work: Callable[[], tuple[list[Artifact], list[Problem]]]
    inputs: dict = field(default_factory=dict)   # what else it is made of: {"tool": digest, ...}
    # Lays out, in the build's process, what the work draws (its kit's faces), so that a worker
    # receives it with the work instead of laying it out again; None: nothing to lay out.
    lay_out: Callable[[], object] | None = None
    # Long work (a report's simulation) is started before the rest, so that at the end of a
    # build no core waits while another finishes it; its files keep their place in the build.
    early: bool = False


@dataclass
class Work:
    """What a target hands the build: the games it loaded (a reused unit's texts are checked
    against theirs) and its units, in the order of their files."""

    games: list[Game]
    units: list[Unit]
    # Units made from what the others made (the files each kit holds): given their files,
    # after they ran; None: none.
    after: Callable[[list[Artifact]], list[Unit]] | None = None
    # What the build tells its user besides its files (a page it did not make again).
    notes: list[str] = field(default_factory=list)


@dataclass
class Outcome:
    artifacts: list[Artifact]
    problems: list[Problem]
    reused: bool
    seconds: float = 0.0          # CPU time of its work, in the process that ran it


def jobs_wanted(jobs: int | None) -> int:
    """--jobs: 0 or None for every core this process may use."""
    if jobs:
        return jobs
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:            # not Linux
        return max(1, os.cpu_count() or 1)


# The processes a unit's work may start itself (a report's simulation): the build's cores when
# it runs its units one after another in this process (one unit left to make, or --jobs 1),
# and 1 in a worker process, where the build already uses every core.
_UNIT_JOBS: ContextVar[int] = ContextVar("unit_jobs", default=1)


def unit_jobs() -> int:
    """How many processes the running unit's work may use for itself."""
    return _UNIT_JOBS.get()


@contextmanager
def _units_may_use(jobs: int):
    token = _UNIT_JOBS.set(jobs)
    try:
        yield
    finally:
        _UNIT_JOBS.reset(token)


def run_units(units: list[Unit], cache: Cache | None, now: TextsNow | None, jobs: int | None = None,
              progress=None, timings: Timings | None = None) -> list[Outcome]:
    """Every unit's outcome, in the units' order; with `timings`, each unit's CPU time is
    added to them, and the laying out done here for the workers."""
    timings = timings if timings is not None else Timings()
    outcomes: list[Outcome | None] = [None] * len(units)
    pending = []
    for index, unit in enumerate(units):
        started = cpu_seconds()
        reused = _reused(unit, cache, now) if cache is not None else None
        if reused is not None:
            outcomes[index] = Outcome(reused, [], True, cpu_seconds() - started)
            if progress:
                progress(unit.label)
        else:
            pending.append(index)
    workers = min(jobs_wanted(jobs), len(pending))

    def finished(index: int, result) -> None:
        artifacts, problems, lookups, seconds = _unpack(result)
        outcomes[index] = Outcome(artifacts, problems, False, seconds)
        if cache is not None and not problems:
            _store(units[index], artifacts, lookups, cache)
        if progress:
            progress(units[index].label)

    if workers <= 1:
        with _units_may_use(jobs_wanted(jobs)):
            for index in pending:
                finished(index, _run(units[index].work))
    else:
        # Laid out here, once, before any work is sent: the build's checks usually did it already
        # (a kit's units share what they lay out); when they were taken from the cache, it is done
        # now rather than in every worker that draws the same faces.
        with timings.stage(LAYING_OUT):
            for index in pending:
                if units[index].lay_out is not None:
                    units[index].lay_out()
        _parallel(units, pending, workers, finished, cache)
    for outcome in outcomes:
        timings.unit(outcome.artifacts, outcome.seconds, outcome.reused)
    return outcomes


def run_and_write(project: Project, request: BuildRequest, work: Work, cache: Cache | None,
                  progress=None, timings: Timings | None = None) -> BuildResult:
    """Run (or reuse) every unit, then write their files; every unit's problems first, if any."""
    timings = timings if timings is not None else Timings()
    now = TextsNow({g.slug: g for g in work.games})
    outcomes = run_units(work.units, cache, now, request.jobs, progress, timings)
    _raise_problems(outcomes)
    if request.kinds and not any(outcome.artifacts for outcome in outcomes):
        raise UsageError(f"nothing to build: the selection has no {', '.join(request.kinds)} files")
    if work.after is not None:
        outcomes += run_units(work.after([a for outcome in outcomes for a in outcome.artifacts]), cache, now,
                              request.jobs, progress, timings)
        _raise_problems(outcomes)
    artifacts = [a for outcome in outcomes for a in outcome.artifacts]
    with timings.stage(WRITING):
        write_all(request.out_folder(project), artifacts)
    return BuildResult(artifacts, [a.path for o in outcomes if not o.reused for a in o.artifacts], timings=timings,
                       notes=list(work.notes))


def _raise_problems(outcomes: list[Outcome]) -> None:
    # a layout's fault that every locale's unit finds is named once
    problems = list(dict.fromkeys(p for outcome in outcomes for p in outcome.problems))
    if problems:
        raise DataError(problems)


# ---- running -----------------------------------------------------------------------------

def _worker_started() -> None:
    """Ctrl-C reaches every process of the terminal: the build stops its workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_unit(work, cache: Cache | None):
    """In a worker: the unit's result, and what its work added to the worker's copy of the
    cache (a report keeps its simulation there), for the build to write with the rest. `work`
    and `cache` arrive in one message, so work that uses the cache uses this very copy."""
    with fixed_clock():
        result = _run(work)
    return result, (cache.pending() if cache is not None else ({}, {}))


def _run(work):
    """(artifacts, problems, texts printed, CPU seconds), or an error to raise in the build."""
    started = cpu_seconds()
    with collected() as lookups:
        try:
            artifacts, problems = work()
        except DataError as exc:
            return ("problems", exc.problems)
        except PnpError as exc:          # a usage or build error, raised again by the build
            return ("error", exc)
    return ("done", artifacts, problems, lookups, cpu_seconds() - started)


def _unpack(result):
    if result[0] == "problems":
        return [], list(result[1]), {}, 0.0
    if result[0] == "error":
        raise result[1]
    return result[1], list(result[2]), result[3], result[4]


def _parallel(units, pending, workers, finished, cache) -> None:
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(),
                               initializer=_worker_started)
    try:
        futures = {pool.submit(_run_unit, units[index].work, cache): index
                   for index in sorted(pending, key=lambda index: not units[index].early)}
        done_early: dict[int, object] = {}
        order = list(pending)
        while order:
            ready, _ = wait(list(futures), return_when=FIRST_COMPLETED)
            for future in ready:
                result, added = future.result()
                if cache is not None:
                    cache.hold(added)
                done_early[futures.pop(future)] = result
            # Hand results over in the units' order: the same files and errors as a serial build.
            while order and order[0] in done_early:
                index = order.pop(0)
                finished(index, done_early.pop(index))
    except BaseException:
        # Interrupted, or a unit failed: no unit starts any more; those running end with the process.
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


# ---- the cache ---------------------------------------------------------------------------

def _reused(unit: Unit, cache: Cache, now: TextsNow | None) -> list[Artifact] | None:
    record = cache.record("units", unit.name)
    if not record or record.get("format") != FORMAT or record.get("inputs") != unit.inputs:
        return None
    if not isinstance(record.get("texts"), list) or not isinstance(record.get("artifacts"), list):
        return None
    try:
        if now is None or not texts_unchanged(record["texts"], now):
            return None
        artifacts = []
        for entry in record["artifacts"]:
            data = cache.blob(entry["blob"])
            if data is None:
                return None
            artifacts.append(Artifact(entry["path"], data, entry["game"], entry["kind"], entry["edition"],
                                      entry["locale"], entry["paper"], entry["pages"], entry["details"],
                                      tuple(entry["source"])))
        return artifacts
    except (KeyError, TypeError, ValueError):
        return None


def _store(unit: Unit, artifacts: list[Artifact], lookups: dict, cache: Cache) -> None:
    entries = [{"path": a.path, "game": a.game, "kind": a.kind, "edition": a.edition, "locale": a.locale,
                "paper": a.paper, "pages": a.pages, "details": a.details, "source": list(a.source),
                "blob": cache.put_blob(a.data)} for a in artifacts]
    cache.put_record("units", unit.name, {"format": FORMAT, "inputs": unit.inputs,
                                          "texts": lookups_to_json(lookups), "artifacts": entries})
