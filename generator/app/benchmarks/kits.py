"""Build speed, whole processes as a user runs them, on a copy of the project: a cold build of
everything (wall and CPU time of every process, and that CPU time per page it made), a rebuild
with nothing changed, and a rebuild after a translator changed one card's name in one catalog,
with the files it drew again. The cold build's CPU time is shown stage by stage as
`pnp build --timings` prints it (loading and checking, each kind of file, writing).

The cold build's CPU a page is set beside the bare libraries' page measured in the same run
(render_speed.bare_page_costs: ReportLab's card sheets, WeasyPrint's booklet): the ratio moves
with what the tool does, not with the machine's speed that day."""
from __future__ import annotations

import hashlib
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import project_copy
from .render_speed import bare_page_costs


GOAL_PARALLEL = 0.6          # wall time at most this share of the CPU time (2 cores and more)
GOAL_CPU_MS_PER_PAGE = 40    # a cold build's CPU time, the reports' simulations included, per page made
GOAL_NOOP_SECONDS, GOAL_NOOP_SHARE = 1.0, 0.03
GOAL_TRANSLATION_SHARE = 0.15


def _pnp(project: Path, *args: str) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the process and its workers, output) of one `pnp` run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "generator.cli.main", "-C", str(project), *args],
                          capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise RuntimeError(f"pnp {' '.join(args)} failed: {done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout.strip()


def _hashes(out: Path) -> dict[str, str]:
    return {e["path"]: e["sha256"] for e in json.loads((out / "manifest.json").read_text(encoding="utf-8"))["files"]}


def translated_card_name(project: Path) -> tuple[Path, str, str] | None:
    """A catalog and one of its card names (msgctxt `cards.<id>.name`) with a translation."""
    for catalog in sorted(project.glob("components/*/locales/*.po")):
        text = catalog.read_text(encoding="utf-8")
        found = re.search(r'msgctxt "cards\.[^"]+\.name"\nmsgid "[^"]+"\nmsgstr "([^"]+)"', text)
        if found:
            return catalog, found.group(0), found.group(1)
    return None


def pages_built(out: Path) -> int:
    """The pages of every file a build wrote, as its manifest counts them (and its summary line)."""
    return sum(entry["pages"] for entry in json.loads((out / "manifest.json").read_text(encoding="utf-8"))["files"])


def _verdict(ok: bool) -> str:
    return "meets the goal" if ok else "MISSES the goal"


def run(project) -> list[str]:
    lines = []
    with tempfile.TemporaryDirectory() as folder:
        copy = project_copy(Path(project.root), Path(folder))
        out = copy / "output"
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()

        wall, cpu, said = _pnp(copy, "build", "--timings")
        cold = wall
        said, *stages = said.splitlines()
        lines.append(f"cold build of everything: {wall:.1f} s wall, {cpu:.1f} s CPU on {cores} cores "
                     f"(wall/CPU {wall / cpu:.2f}, goal <= {GOAL_PARALLEL}: {_verdict(wall <= GOAL_PARALLEL * cpu)})")
        lines.append(f"  {said}")
        lines += [f"  {line}" for line in stages]
        pages = pages_built(out)
        per_page = 1000 * cpu / pages
        lines.append(f"  {per_page:.0f} ms of CPU per page ({pages} pages; goal <= {GOAL_CPU_MS_PER_PAGE} ms: "
                     f"{_verdict(per_page <= GOAL_CPU_MS_PER_PAGE)})")
        for library, cost in bare_page_costs(project):
            lines.append(f"  = {per_page / (1000 * cost):.2f}x the page of {library} "
                         f"({1000 * cost:.1f} ms of CPU now)")

        wall, _, said = _pnp(copy, "build")
        ok = wall < GOAL_NOOP_SECONDS and wall <= GOAL_NOOP_SHARE * cold
        lines.append(f"no-op rebuild: {wall:.2f} s = {100 * wall / cold:.1f} % of the cold build "
                     f"(goal < {GOAL_NOOP_SECONDS:g} s and <= {100 * GOAL_NOOP_SHARE:g} %: {_verdict(ok)})")

        chosen = translated_card_name(copy)
        if chosen is None:
            lines.append("one translated card name: no catalog translates a card name")
            return lines
        catalog, entry, name = chosen
        before = _hashes(out)
        catalog.write_text(catalog.read_text(encoding="utf-8").replace(entry, entry.replace(
            f'msgstr "{name}"', f'msgstr "{name} 2"'), 1), encoding="utf-8")
        wall, _, said = _pnp(copy, "build")
        after = _hashes(out)
        changed = sorted(path for path, sha in after.items() if before.get(path) != sha)
        share = wall / cold
        lines.append(f"one card name changed in {catalog.relative_to(copy)}: {wall:.2f} s = {100 * share:.1f} % "
                     f"of the cold build (goal <= {100 * GOAL_TRANSLATION_SHARE:g} %: "
                     f"{_verdict(share <= GOAL_TRANSLATION_SHARE)})")
        lines.append(f"  {said}")
        lines += [f"  changed: {path}" for path in changed]
        digest = hashlib.sha256("".join(changed).encode()).hexdigest()[:12]
        lines.append(f"  {len(changed)} files changed (list digest {digest})")
    return lines
