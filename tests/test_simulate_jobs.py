"""`pnp simulate --jobs N`: the games spread over worker processes give exactly what one
process gives, the JSON and the printed summary alike, and a rule broken in a worker is
reported as in one process; played on the sample game's engine."""
from __future__ import annotations

import dataclasses

import pytest

from conftest import SAMPLE, pnp, simulation_runs
from generator.app.loading import load_games, read_game
from generator.load.project import Project
from generator.rules import simulate as simulation
from generator.rules.engine import InvariantBroken
from generator.rules.simulate import GameSource, Workers


def simulate(*args):
    """What `pnp simulate ARGS` printed: the runs, for --json, without their measured speed."""
    result = pnp("simulate", *args, project=SAMPLE)
    assert result.exit_code == 0, result.output
    return simulation_runs(result.stdout) if "--json" in args else result.stdout


# Game counts that two jobs do not split evenly: a run is cut into chunks of games / 16
# games rounded up (Workers.CHUNKS_PER_JOB per job), the last chunk short (17: eight chunks
# of 2 and one of 1; 37: twelve of 3 and one of 1; 19: nine of 2 and one of 1).
@pytest.mark.parametrize("args", [
    ("sample-game", "--games", "17", "--seed", "5"),                        # every player count
    ("sample-game", "--players", "3", "--games", "37", "--option", "rounds=5"),
    ("sample-game", "--players", "4", "--games", "19", "--policy", "heuristic"),
])
def test_json_is_the_same_with_one_two_or_every_core(args):
    one = simulate(*args, "--json", "--jobs", "1")
    assert simulate(*args, "--json", "--jobs", "2") == one
    assert simulate(*args, "--json", "--jobs", "0") == one
    assert simulate(*args, "--json") == one                 # one job is the default


def test_workers_started_by_spawn_play_the_games_of_one_process(spawned_workers):
    """Where the platform spawns its workers (Windows, macOS), each reads the game itself."""
    args = ("sample-game", "--players", "3", "--games", "20", "--json")
    two = simulate(*args, "--jobs", "2")
    assert len(spawned_workers) == 2
    assert two == simulate(*args, "--jobs", "1")


def test_the_printed_summary_is_the_same_byte_for_byte():
    args = ("sample-game", "--games", "19")
    one = simulate(*args, "--jobs", "1").splitlines()
    two = simulate(*args, "--jobs", "2").splitlines()
    # every line but the last, which says how fast it went
    assert two[:-1] == one[:-1] and len(one) > 3 * 3
    assert "games/s" in two[-1]


def test_a_rule_broken_in_a_worker_is_reported(monkeypatch):
    real = simulation._played_game

    def broken(engine, components, players, edition, seed, *settings):
        state, actions = real(engine, components, players, edition, seed, *settings)
        if seed in (130, 170):
            raise InvariantBroken(f"seed {seed}: turn {state.turns}: broken on purpose")
        return state, actions

    monkeypatch.setattr(simulation, "_played_game", broken)     # the workers fork with it
    args = ("simulate", "sample-game", "--players", "4", "--games", "200")
    one, two = pnp(*args, "--jobs", "1", project=SAMPLE), pnp(*args, "--jobs", "2", project=SAMPLE)
    assert one.exit_code == two.exit_code != 0
    assert "a rule broke: seed 130: turn " in one.stderr
    assert two.stderr == one.stderr


def test_jobs_must_be_a_count():
    result = pnp("simulate", "sample-game", "--jobs", "-1", project=SAMPLE)
    assert result.exit_code == 2 and "--jobs" in result.output


def test_workers_play_the_components_they_are_given_not_an_earlier_run_s():
    game = load_games(Project(SAMPLE), "sample-game", texts=False)[0]
    engine = game.rules.ENGINE
    box = engine.components(game, "standard")["box"]
    loaded = {"box": dataclasses.replace(box, faces=(1, 2, 6, 6, 6, 6))}
    source = GameSource(read_game, (str(SAMPLE), "sample-game"))

    def play(components, jobs):
        with Workers(jobs, source) as workers:
            return list(workers.play(engine, components, edition="standard", players=2, games=40, seed=0,
                                     policy="random", options=engine.options, check=True, progress=None))

    first = play({"box": box}, 2)
    assert play(loaded, 2) == play(loaded, 1) != first
