"""Where a build's CPU time went (`pnp build --timings`): the build's own stages (loading and
checking the games, laying out faces for the workers, writing the files, keeping the cache) and
its units of work by the kind of file they made, what a designer asks of a slow build and what
the kit benchmark prints stage by stage.

Each figure is the CPU time of the process that did the work, its child processes that ended
included (a report run alone plays its games on every core), so that a build on two cores adds
up as it does on one. What no stage holds (starting worker processes, handing their results
over) is shown as the rest of the whole build's CPU time.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass, field


def cpu_seconds() -> float:
    """CPU time of this process and of its child processes that have ended (os.times: the
    children are 0 where the platform does not count them)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


@dataclass
class Stage:
    seconds: float = 0.0
    files: int = 0
    pages: int = 0
    units: int = 0
    reused: int = 0              # units whose files came from the cache, at no drawing cost


# The build's own stages, in the order they run; the kinds of file follow them, costliest first.
LOADING, LAYING_OUT, WRITING, CACHE = ("loading and checking", "laying out for workers", "writing files",
                                       "keeping the cache")
OWN_STAGES = (LOADING, LAYING_OUT, WRITING, CACHE)
# Units that made no file (a kind the kit has no components of): shown only when they cost time.
NOTHING = "units with nothing to make"


@dataclass
class Timings:
    stages: dict[str, Stage] = field(default_factory=dict)
    started: float = field(default_factory=cpu_seconds)
    total: float | None = None         # the whole build's CPU time, once it ended

    def add(self, name: str, seconds: float, *, files: int = 0, pages: int = 0, units: int = 0,
            reused: int = 0) -> None:
        stage = self.stages.setdefault(name, Stage())
        stage.seconds += seconds
        stage.files += files
        stage.pages += pages
        stage.units += units
        stage.reused += reused

    @contextmanager
    def stage(self, name: str):
        started = cpu_seconds()
        try:
            yield
        finally:
            self.add(name, cpu_seconds() - started)

    def unit(self, artifacts, seconds: float, reused: bool) -> None:
        """A unit's work, under the kind of its first file (the booklet's unit, which also
        imposes it on each paper, under "rules")."""
        kind = artifacts[0].kind if artifacts else NOTHING
        self.add(kind, seconds, files=len(artifacts), pages=sum(a.pages for a in artifacts), units=1,
                 reused=int(reused))

    def end(self) -> None:
        self.total = cpu_seconds() - self.started

    def lines(self) -> list[str]:
        """The table `pnp build --timings` prints."""
        own = [name for name in OWN_STAGES if name in self.stages]
        kinds = sorted((name for name in self.stages if name not in OWN_STAGES
                        and (name != NOTHING or self.stages[name].seconds >= 0.005)),
                       key=lambda name: (-self.stages[name].seconds, name))
        width = max([len(name) for name in own + kinds] + [len("total")])
        lines = ["CPU time of this build by stage, worker processes included:"]
        for name in own[:1] + kinds + own[1:]:
            stage = self.stages[name]
            what = ""
            if stage.units:
                reused = f", {stage.reused} reused" if stage.reused else ""
                what = (f"  {stage.files} file{'s' * (stage.files != 1)} from {stage.units} "
                        f"unit{'s' * (stage.units != 1)}{reused}")
                if stage.pages:
                    what += (f"; {stage.pages} page{'s' * (stage.pages != 1)}, "
                             f"{1000 * stage.seconds / stage.pages:.0f} ms a page")
            lines.append(f"  {name:<{width}} {stage.seconds:8.2f} s{what}")
        measured = sum(stage.seconds for stage in self.stages.values())
        if self.total is not None:
            rest = self.total - measured
            if rest >= 0.005:
                lines.append(f"  {'the rest':<{width}} {rest:8.2f} s  between the stages (starting workers, "
                             "handing results over)")
            lines.append(f"  {'total':<{width}} {max(self.total, measured):8.2f} s")
        return lines
