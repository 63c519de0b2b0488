"""Every game with a rules engine goes through the same checks (after OpenSpiel's): seeded
random play to the end with the invariants and the engine's promises checked at every step,
the same seed for the same game, every scenario and golden playthrough through `pnp play`,
the components seating every player count, options and player counts refused alike, hidden
information declared, and the game's benchmark. A game's own rules are tested in its own file."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
import yaml

from conftest import ROOT, line_of, pnp, simulation_runs
from generator.app.bench import game_benchmark
from generator.app.loading import load_games
from generator.load.project import Project
from generator.rules.benchmark import run as run_game_benchmark
from generator.rules.engine import Engine, OptionError, SetupError
from generator.rules.scenario import load_scenario, run_scenario
from generator.rules.simulate import policy_rng
from generator.validate.checks import check_play, check_setups


GAMES = {game.slug: game for game in load_games(Project(ROOT), texts=False)
         if isinstance(getattr(game.rules, "ENGINE", None), Engine)}
SLUGS = sorted(GAMES)
SCENARIOS = [(slug, path) for slug in SLUGS for path in sorted((ROOT / "components" / slug / "scenarios").glob("*.yaml"))]
GOLDEN = [(slug, path) for slug, path in SCENARIOS if path.stem.startswith("playthrough-")]
SEEDS = (3, 4)                   # random games per edition and player count
RECORDED_BY = re.compile(r", played on by policy (\w+)$")
# Seeded games per table played in two processes of other hash seeds: fewer of a long game's.
OTHER_PROCESS_GAMES = {"pegs-and-jokers": 3}


def test_the_games_are_found():
    assert SLUGS == sorted(p.name for p in (ROOT / "components").iterdir() if (p / "game.yaml").is_file())
    assert {slug for slug, _ in GOLDEN} == set(SLUGS)       # every game has a golden playthrough


def _tables(slug):
    game = GAMES[slug]
    engine, spec = game.rules.ENGINE, game.rules.SPEC
    for edition in game.editions:
        box = engine.box(game, edition)
        for players in spec.tables:
            yield engine, edition, box, players


def _play_checking_every_step(engine, box, players: int, seed: int, policy: str):
    """Play to the end, checking after every action what every engine promises."""
    state = engine.new_game(players, box=box, seed=seed)
    state.check_invariants()
    choose, rng = engine.policies[policy], policy_rng(seed)
    seats = len(state.names)
    json.dumps(state.to_json())
    for _ in range(engine.max_actions):
        if state.is_terminal():
            break
        seat, legal = state.current_player(), state.legal_actions()
        assert 0 <= seat < seats and legal and len(set(legal)) == len(legal)
        action = choose(state, rng)
        assert action in legal
        # What a scenario writes for the action reads back as the same action of the same seat.
        assert engine.read_action(state, engine.describe_action(state, action)) == (seat, action)
        state.apply(action)
        state.check_invariants()
    assert state.is_terminal() and state.legal_actions() == []
    _check_returns(engine, state)
    json.dumps(state.to_json())
    assert all(isinstance(value, (int, float, str, dict)) for value in state.stats().values())
    return state


def _check_returns(engine, state) -> None:
    returns = state.returns()
    assert len(returns) == len(state.names) and all(0 <= value <= 1 for value in returns)
    if engine.outcome == "together":
        assert len(set(returns)) == 1
    else:
        assert sum(returns) == pytest.approx(1)


@pytest.mark.parametrize("slug", SLUGS)
def test_seeded_random_play_keeps_every_invariant(slug):
    for engine, edition, box, players in _tables(slug):
        for seed in SEEDS:
            _play_checking_every_step(engine, box, players, seed, "random")


@pytest.mark.parametrize("slug", SLUGS)
def test_every_policy_plays_by_the_rules(slug):
    engine = GAMES[slug].rules.ENGINE
    assert "random" in engine.policies
    for policy in engine.policies:
        for _, edition, box, players in _tables(slug):
            _play_checking_every_step(engine, box, players, 5, policy)


@pytest.mark.parametrize("slug", SLUGS)
def test_the_same_seed_plays_the_same_game(slug):
    engine, _, box, players = next(_tables(slug))
    first = _play_checking_every_step(engine, box, players, 11, "random").to_json()
    assert first == _play_checking_every_step(engine, box, players, 11, "random").to_json()
    assert first != _play_checking_every_step(engine, box, players, 12, "random").to_json()


# Every game's `pnp simulate --json`, run by the command's own entry point in this process and
# in one other process of another hash seed (a process started once, not once per game): what
# each run printed, by game.
IN_OTHER_PROCESS = """
import json, sys
from click.testing import CliRunner
from generator.cli.main import main
root, runs = sys.argv[1], json.loads(sys.argv[2])
printed = {}
for slug, games in runs.items():
    result = CliRunner().invoke(main, ["-C", root, "simulate", slug, "--games", str(games), "--seed", "3", "--json"])
    printed[slug] = [result.exit_code, result.stdout, result.stderr]
print(json.dumps(printed))
"""


@pytest.fixture(scope="module")
def simulated_in_other_processes() -> list[dict]:
    """Each game's (exit code, stdout, stderr) of `pnp simulate --json`, in this process and in
    a process whose hash seed is not this one's."""
    runs = {slug: OTHER_PROCESS_GAMES.get(slug, 10) for slug in SLUGS}
    here = {}
    for slug, games in runs.items():
        result = pnp("simulate", slug, "--games", str(games), "--seed", "3", "--json")
        here[slug] = [result.exit_code, result.stdout, result.stderr]
    # this process's seed is random unless PYTHONHASHSEED names one: the other's is another
    other_seed = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"
    done = subprocess.run([sys.executable, "-c", IN_OTHER_PROCESS, str(ROOT), json.dumps(runs)], capture_output=True,
                          text=True, env={**os.environ, "PYTHONHASHSEED": other_seed, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    return [here, json.loads(done.stdout)]


@pytest.mark.parametrize("slug", SLUGS)
def test_the_same_seed_gives_the_same_json_in_other_processes(simulated_in_other_processes, slug):
    """Nothing may depend on the order of a set or a dict of strings, which changes with the
    process's hash seed."""
    games = OTHER_PROCESS_GAMES.get(slug, 10)
    outputs = []
    for printed in simulated_in_other_processes:
        exit_code, stdout, stderr = printed[slug]
        assert exit_code == 0, stderr
        outputs.append(simulation_runs(stdout))
    assert outputs[0] == outputs[1]
    assert outputs[0] and all(run["games"] == games for run in outputs[0])


@pytest.mark.parametrize("slug,path", SCENARIOS, ids=lambda item: getattr(item, "stem", item))
def test_every_scenario_plays_as_written(slug, path):
    result = pnp("play", slug, str(path))
    assert result.exit_code == 0, result.output + result.traceback
    assert json.loads(result.stdout)
    # A scenario that ends the game (a shared win, say) ends it with returns the engine promises.
    played = run_scenario(GAMES[slug], load_scenario(path, path.name), path.name)
    if played.state.is_terminal():
        _check_returns(GAMES[slug].rules.ENGINE, played.state)


@pytest.mark.parametrize("slug,path", GOLDEN, ids=lambda item: getattr(item, "stem", item))
def test_a_golden_playthrough_records_the_same_again(tmp_path, slug, path):
    """Played on from its setup by the policy that recorded it, a golden playthrough comes out
    the same to the byte: any change to how the game plays shows here."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    found = RECORDED_BY.search(data["title"])
    assert found, f"{path.name}: the title names the policy that recorded it"
    start = tmp_path / "start.yaml"
    start.write_text(yaml.safe_dump({"title": data["title"][:found.start()], "setup": data["setup"]},
                                    allow_unicode=True, sort_keys=False), encoding="utf-8")
    out = tmp_path / "recorded.yaml"
    result = pnp("play", slug, str(start), "--policy", found.group(1), "--record", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("slug,path", sorted(dict(reversed(GOLDEN)).items()),      # one playthrough per game
                         ids=lambda item: getattr(item, "stem", item))
def test_every_game_reads_the_opening_of_an_action_alike(tmp_path, slug, path):
    """After the end no action is read; an unknown key names the game's action keys."""
    text = path.read_text(encoding="utf-8")
    steps = yaml.safe_load(text)["steps"]
    assert steps[-1]["expect"]["terminal"] is True, f"{path.name}: a golden playthrough is played to the end"
    last = yaml.safe_dump(steps[-1]["do"][-1], allow_unicode=True, default_flow_style=True, width=10_000).strip()
    scenario = tmp_path / path.name
    scenario.write_text(text + f"- do:\n  - {last}\n", encoding="utf-8")
    result = pnp("play", slug, str(scenario))
    assert result.exit_code == 1
    line = len(scenario.read_text(encoding="utf-8").splitlines())
    assert f"{scenario}:{line}: steps.{len(steps)}.do.0: this game is already over" in result.stderr
    scenario.write_text(text.replace("\nsteps:\n", "\nsteps:\n- do:\n  - {colour: red}\n", 1), encoding="utf-8")
    result = pnp("play", slug, str(scenario))
    assert result.exit_code == 1
    line = line_of(scenario, "{colour: red}")
    assert f"{scenario}:{line}: steps.0.do.0.colour: unknown key 'colour' (action keys: " in result.stderr
    assert "player" in result.stderr.split("(action keys: ")[1].split(")")[0].split(", ")


@pytest.mark.parametrize("slug", SLUGS)
def test_the_components_seat_every_player_count_and_no_other(slug):
    game = GAMES[slug]
    spec = game.rules.SPEC
    assert check_setups(game) == [] and check_play(game) == []
    for engine, edition, box, players in _tables(slug):
        state = engine.new_game(players, box=box)
        seats = len(spec.teams.split(players, spec.teams.sizes[0])) if spec.teams else players
        assert len(state.names) == seats and len(state.returns()) == seats
        for size in spec.teams.sizes if spec.teams else ():
            # Every team size the rules allow seats every player count, in teams of allowed sizes.
            members = engine.seating(players, {spec.teams.option: size})
            assert sum(members) == players
            assert players < spec.teams.from_players or set(members) <= set(spec.teams.sizes), (players, size, members)
            engine.new_game(players, box=box, **{spec.teams.option: size})
    unseated = [n for n in range(spec.min_players, spec.max_players + 1) if n not in spec.tables]
    for players in (spec.min_players - 1, *unseated, spec.max_players + 1):
        with pytest.raises(SetupError, match=f"^{slug} is for {spec.players_text()} players, not {players}$"):
            engine.new_game(players, box=box)


@pytest.mark.parametrize("slug", SLUGS)
def test_validation_is_green(slug):
    result = pnp("validate", slug)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == f"ok: {slug}"


@pytest.mark.parametrize("slug", SLUGS)
def test_a_player_count_or_option_the_rules_do_not_allow_is_a_located_error(tmp_path, slug):
    game = GAMES[slug]
    engine, spec = game.rules.ENGINE, game.rules.SPEC
    path = tmp_path / "table.yaml"
    path.write_text(f"setup:\n  players: {spec.max_players + 1}\n", encoding="utf-8")
    result = pnp("play", slug, str(path))
    assert result.exit_code == 1
    assert (f"{path}:2: setup.players: {slug} is for {spec.players_text()} players, "
            f"not {spec.max_players + 1}") in result.stderr
    path.write_text(f"setup:\n  players: {spec.min_players}\n  options: {{nope: 1}}\n", encoding="utf-8")
    result = pnp("play", slug, str(path))
    assert result.exit_code == 1
    assert (f"{path}:3: setup.options.nope: unknown option 'nope' (options: {', '.join(engine.options) or 'none'})"
            in result.stderr)
    box = engine.box(game, game.editions[0])
    for key, default in engine.options.items():
        with pytest.raises(OptionError, match=f"^option {key} is "):
            engine.new_game(spec.min_players, box=box, **{key: "x"})
        result = pnp("simulate", slug, "--games", "1", "--option", f"{key}=x")
        assert result.exit_code == 2 and f"--option {key}: expected" in result.stderr


@pytest.mark.parametrize("slug", SLUGS)
def test_hidden_information_is_declared_and_kept_from_the_others(slug):
    engine, _, box, players = next(_tables(slug))
    state = engine.new_game(max(players, 2), box=box, seed=1)
    full = state.to_json()
    assert engine.hidden and set(engine.hidden.values()) <= {"owner", "nobody"}
    for path, seen_by in engine.hidden.items():
        keys = path.split(".")
        found = [full]
        for key in keys:
            found = [value for node in found for name, value in node.items() if key in ("*", name)]
        assert found, f"{path} names nothing in the state"
        if seen_by == "owner":
            assert keys[:2] == ["seats", "*"], path
            mine, theirs = engine.view(state, 0)["seats"], state.names[1]
            assert mine[state.names[0]][keys[2]] == full["seats"][state.names[0]][keys[2]]
            assert mine[theirs][keys[2]] in ("hidden", {"hidden": len(full["seats"][theirs][keys[2]] or [])})
        else:
            assert engine.view(state, 0)[keys[0]] in ("hidden", {"hidden": len(full[keys[0]])})


@pytest.mark.parametrize("slug", [slug for slug in SLUGS if game_benchmark(GAMES[slug]) is not None])
def test_the_games_benchmark_runs(monkeypatch, slug):
    monkeypatch.setenv("PNP_BENCH_GAMES", "2")          # as `make bench` takes it
    lines = run_game_benchmark(GAMES[slug], game_benchmark(GAMES[slug]))
    assert lines and all(isinstance(line, str) and line for line in lines)
    assert lines[0].startswith("2 ")                     # the games per run it was asked for
