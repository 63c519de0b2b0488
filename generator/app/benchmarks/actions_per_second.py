"""Checked actions per second, as a designer meets them: `pnp simulate GAME --edition E --players N
--games 500 --jobs 1 --json` run as a whole process (start-up, reading the game, every invariant
checked after every action), its CPU time, for every game, edition and table size. The goal,
GOAL actions per CPU second, is judged at each game's largest table, where games are longest;
the smaller tables are printed beside it. Then, per game, the wall time of `--jobs 2` against
`--jobs 1`.

The runs are made in a copy of the project with an output folder, as after a build: the first,
a 1-game run, checks the game and keeps the record that it passed (output/.cache), so that each
measured run reads the game and finds it checked, as a designer's runs do after a build. A
project without an output folder (a fresh clone) checks the game in full on every run.

Actions are counted by the simulator as it applies them (`actions_per_game` in the JSON); the
figure here divides the run's actions by the whole process's CPU time, so start-up counts
against it. A smaller table far below the goal plays fewer games (about CAP_SECONDS of CPU,
sized by a short in-process measure first); the line says how many. The largest table, where
the goal is judged, always plays them all. PNP_BENCH_GAMES sets the 500.

Each run is set beside its floor, measured in the same run of the benchmark: the interpreter
starting and stopping (`python -c pass`, the best of a few) plus the same seeded games played
in this process with no invariant checked. The ratio says what the command adds to the bare
engine (start-up, reading and checking the game, the checks after every action), whatever the
machine's speed that day; the goal itself is in actions per CPU second."""
from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ...load.project import Project
from ...rules.benchmark import games_per_run
from ...rules.simulate import play_game, simulate
from ..loading import load_games
from . import project_copy


GOAL = 50_000                # checked actions per CPU second, whole process, at the largest table
GAMES = 500
CAP_SECONDS = 20.0           # at most about this much CPU per whole-process run
ESTIMATE_SECONDS = 0.5       # the in-process measure that sizes a run
JOBS_SECONDS = 6.0           # about this long a --jobs 1 run, for the --jobs 2 ratio
FLOOR_ROUNDS = 5             # the interpreter's start, best of


def _pnp(project, *args: str) -> tuple[float, float, str]:
    """Run `pnp -C project ARGS` as its own process: (wall seconds, CPU seconds of it and its
    workers, what it printed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "generator.cli.main", "-C", str(project.root), *args],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise RuntimeError(f"pnp {' '.join(args)} failed: {done.stderr.strip()}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stdout


def interpreter_start() -> float:
    """CPU seconds of the bare interpreter starting and stopping, the best of FLOOR_ROUNDS."""
    best = float("inf")
    for _ in range(FLOOR_ROUNDS):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return best


def unchecked_play(engine, game, edition: str, players: int, games: int) -> float:
    """CPU seconds of this process playing the run's seeded games (the command's seed, 0) with
    no invariant checked."""
    started = time.process_time()
    simulate(engine, game, edition=edition, players=players, games=games, check=False)
    return time.process_time() - started


def _estimate(engine, components, edition: str, players: int) -> float:
    """Games per CPU second in this process, invariants checked, over about ESTIMATE_SECONDS."""
    played, started = 0, time.process_time()
    while time.process_time() - started < ESTIMATE_SECONDS:
        play_game(engine, components, players=players, edition=edition, seed=played, options=engine.options)
        played += 1
    return played / (time.process_time() - started)


def run(project) -> list[str]:
    with tempfile.TemporaryDirectory() as folder:
        return _run(project, Project(project_copy(Path(project.root), Path(folder))))


def _run(project, copy) -> list[str]:
    """The benchmark, the games read from `project`, the commands run in its `copy`."""
    wanted = games_per_run(GAMES)
    start = interpreter_start()
    lines = [f"goal: >= {GOAL:,} checked actions per CPU second at each game's largest table, whole process "
             f"(`pnp simulate --games {wanted} --jobs 1`), random policy; smaller tables for comparison",
             f"floor of each run: the interpreter's start ({start * 1000:.0f} ms of CPU now) and the same games "
             f"played unchecked in this process"]
    passed = failed = 0
    for game in load_games(project, texts=False):
        engine = getattr(game.rules, "ENGINE", None)
        if engine is None:
            continue
        spec = game.rules.SPEC
        editions = [e for e in game.editions if e in spec.counts]
        _, startup, _ = _pnp(copy, "simulate", game.slug, "--edition", editions[0], "--players",
                             str(spec.tables[0]), "--games", "1")
        lines.append(f"{game.slug}: a 1-game run takes {startup:.2f} s CPU (start-up, reading the game and, as "
                     f"the first run in the copy, checking it)")
        slowest = {}
        largest = max(spec.tables)
        for edition in editions:
            components = engine.components(game, edition)
            for players in spec.tables:
                estimate = _estimate(engine, components, edition, players)
                capped = players != largest and wanted > estimate * CAP_SECONDS
                games = max(20, int(estimate * CAP_SECONDS)) if capped else wanted
                _, cpu, printed = _pnp(copy, "simulate", game.slug, "--edition", edition, "--players",
                                       str(players), "--games", str(games), "--jobs", "1", "--json")
                [figures] = json.loads(printed)["runs"]
                actions = figures["actions_per_game"] * games
                rate = actions / cpu
                floor = start + unchecked_play(engine, game, edition, players, games)
                fewer = "" if games == wanted else f", only {games} games: too slow for {wanted}"
                verdict = ""
                if players == largest:
                    ok = rate >= GOAL and games == wanted
                    passed, failed = passed + ok, failed + (not ok)
                    verdict = f", goal >= {GOAL:,}: {'PASS' if ok else 'FAIL'}"
                lines.append(f"{game.slug} {edition} {players:>2}p: {rate:8,.0f} actions/s whole process "
                             f"({figures['actions_per_game']:g} actions a game, {games / cpu:6.0f} games/s, "
                             f"{cpu:.2f} s CPU{fewer}; {figures['actions_per_second']:,} actions/s while playing; "
                             f"{cpu / floor:.2f}x its floor of {floor:.2f} s){verdict}")
                slowest[(edition, players)] = estimate
        # --jobs 2 against --jobs 1, on the table that takes longest per game
        edition, players = min(slowest, key=slowest.get)
        games = max(64, int(slowest[(edition, players)] * JOBS_SECONDS))
        args = ("simulate", game.slug, "--edition", edition, "--players", str(players), "--games", str(games))
        one, _, _ = _pnp(copy, *args, "--jobs", "1")
        two, _, _ = _pnp(copy, *args, "--jobs", "2")
        lines.append(f"{game.slug} {edition} {players}p, {games} games: --jobs 2 takes {two / one:.2f} of "
                     f"--jobs 1's wall time ({two:.2f} s against {one:.2f} s; 0.5 is two free cores)")
    lines.append(f"{passed} largest tables PASS, {failed} FAIL")
    return lines
