"""Games per second, as a designer meets them: `pnp simulate GAME --edition E --players N
--games 5000` run as a whole process (start-up, reading the game, every invariant checked after
every action), its CPU time on one core, for every game, edition and player count, against
the goal of 1,000 games/s. Then, per game, the wall time of `--jobs 2` against `--jobs 1`.

A table far below the goal plays fewer games (about CAP_SECONDS of CPU, from a short in-process
measure first); the line says how many. PNP_BENCH_GAMES sets the 5,000."""
from __future__ import annotations

import resource
import subprocess
import sys
import time

from ...rules.benchmark import games_per_run
from ...rules.simulate import play_game
from ..loading import load_games


GOAL = 1000                  # games/s on one core, whole process, invariants checked
GAMES = 5000
CAP_SECONDS = 12.0           # at most about this much CPU per whole-process run
ESTIMATE_SECONDS = 0.5       # the in-process measure that sizes a run
JOBS_SECONDS = 6.0           # about this long a --jobs 1 run, for the --jobs 2 ratio


def _pnp(project, *args: str) -> tuple[float, float]:
    """Run `pnp -C project ARGS` as its own process: (wall seconds, CPU seconds of it and its
    workers)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "generator.cli.main", "-C", str(project.root), *args],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise RuntimeError(f"pnp {' '.join(args)} failed: {done.stderr.strip()}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _estimate(engine, components, edition: str, players: int) -> float:
    """Games per CPU second in this process, invariants checked, over about ESTIMATE_SECONDS."""
    played, started = 0, time.process_time()
    while time.process_time() - started < ESTIMATE_SECONDS:
        play_game(engine, components, players=players, edition=edition, seed=played, options=engine.options)
        played += 1
    return played / (time.process_time() - started)


def run(project) -> list[str]:
    wanted = games_per_run(GAMES)
    lines = [f"goal: >= {GOAL} games/s on one core, whole process (`pnp simulate --games {wanted}`), "
             f"invariants checked after every action, random policy"]
    passed = failed = 0
    for game in load_games(project, texts=False):
        engine = getattr(game.rules, "ENGINE", None)
        if engine is None:
            continue
        spec = game.rules.SPEC
        editions = [e for e in game.editions if e in spec.counts]
        _, startup = _pnp(project, "simulate", game.slug, "--edition", editions[0], "--players",
                          str(spec.tables[0]), "--games", "1")
        lines.append(f"{game.slug}: a 1-game run takes {startup:.2f} s CPU (start-up and reading the game)")
        fastest = {}
        for edition in editions:
            components = engine.components(game, edition)
            for players in spec.tables:
                estimate = _estimate(engine, components, edition, players)
                games = wanted if wanted <= estimate * CAP_SECONDS else max(20, int(estimate * CAP_SECONDS))
                _, cpu = _pnp(project, "simulate", game.slug, "--edition", edition, "--players", str(players),
                              "--games", str(games), "--jobs", "1")
                rate = games / cpu
                verdict = "PASS" if rate >= GOAL and games == wanted else "FAIL"
                passed, failed = passed + (verdict == "PASS"), failed + (verdict == "FAIL")
                fewer = "" if games == wanted else f", only {games} games: too slow for {wanted}"
                lines.append(f"{game.slug} {edition} {players:>2}p: {rate:6.0f} games/s whole process "
                             f"({cpu:.2f} s CPU{fewer}; {estimate:.0f} games/s in a loop in this process), "
                             f"goal >= {GOAL}: {verdict}")
                fastest[(edition, players)] = estimate
        # --jobs 2 against --jobs 1, on the table that takes longest per game
        edition, players = min(fastest, key=fastest.get)
        games = max(64, int(fastest[(edition, players)] * JOBS_SECONDS))
        args = ("simulate", game.slug, "--edition", edition, "--players", str(players), "--games", str(games))
        one, _ = _pnp(project, *args, "--jobs", "1")
        two, _ = _pnp(project, *args, "--jobs", "2")
        lines.append(f"{game.slug} {edition} {players}p, {games} games: --jobs 2 takes {two / one:.2f} of "
                     f"--jobs 1's wall time ({two:.2f} s against {one:.2f} s; 0.5 is two free cores)")
    lines.append(f"{passed} tables PASS, {failed} FAIL")
    return lines
