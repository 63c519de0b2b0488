"""`pnp play` (apply a scenario) and `pnp simulate` (seeded games), for any game whose rules
module has an ENGINE."""
from __future__ import annotations

import json
import time
from pathlib import Path

import click
import yaml

from ...core.errors import DataError, PnpError, UsageError
from ...rules.engine import Engine, InvariantBroken, OptionError, SetupError


def _game(obj, slug: str, texts: bool = True):
    """The game and its engine; `texts=False` skips the checks of translations and text fit,
    which playing it never reads."""
    from ...app.loading import load_games  # drawing libraries load only for commands that need them
    from ...write.cache import Cache
    from ...write.incremental import cache_usable
    # The record that these very files passed these checks with this very tool (output/.cache,
    # as a build keeps it): a game played again is not checked again; any change checks it all.
    # Playing makes no output folder of its own, and uses none that leads out of the project.
    out = obj.project.root / "output"
    cache = Cache(out) if out.is_dir() and not out.is_symlink() and cache_usable(out) else None
    game = load_games(obj.project, slug, texts=texts, cache=cache)[0]
    if cache is not None:
        cache.flush()
    engine = getattr(game.rules, "ENGINE", None)
    if engine is None and game.meta.get("rules") is None:
        raise UsageError(f"{slug} has no rules module to play it (game.yaml names none; docs/rules-modules.md "
                         f"says how to add one)")
    if engine is None:
        raise UsageError(f"{slug} has no rules engine (its rules module '{game.meta['rules']}' has no ENGINE)")
    return game, engine


def parse_options(engine: Engine, values: tuple[str, ...]) -> dict:
    """KEY=VALUE pairs, each typed like the engine's default for KEY."""
    options = {}
    for text in values:
        key, sep, raw = text.partition("=")
        if not sep or key not in engine.options:
            known = ", ".join(f"{k}={v}" for k, v in engine.options.items()) or "none"
            raise UsageError(f"--option {text}: expected KEY=VALUE with KEY one of: {known}")
        default = engine.options[key]
        if isinstance(default, bool):
            if raw.lower() not in ("true", "false", "yes", "no", "1", "0"):
                raise UsageError(f"--option {key}: expected true or false, not '{raw}'")
            options[key] = raw.lower() in ("true", "yes", "1")
        elif isinstance(default, int):
            try:
                options[key] = int(raw)
            except ValueError:
                raise UsageError(f"--option {key}: expected a whole number, not '{raw}'") from None
        else:
            options[key] = raw
    return options


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def describe_run(data: dict, names: dict[str, str]) -> list[str]:
    """A run's summary as lines of text."""
    options = ", ".join(f"{k}={v}" for k, v in data["options"].items())
    seats = f", {data['seats']} seats" if data["seats"] != data["players"] else ""
    lines = [f"{data['game']} {data['edition']}: {data['players']} players{seats}, {data['games']} games "
             f"(policy {data['policy']}, seed {data['seed']}{', ' + options if options else ''})"]
    lines.append(f"  actions per game: {data['actions_per_game']}")
    for key, figures in data["numbers"].items():
        lines.append(f"  {key}: mean {figures['mean']}, median {figures['median']} "
                     f"(min {figures['min']}, max {figures['max']})")
    for key, shares in data["shares"].items():
        lines.append(f"  {key}: " + ", ".join(f"{value} {_percent(share)}" for value, share in shares.items()))
    lines.append("  win rate per seat: " + ", ".join(f"{seat + 1}: {_percent(rate)}"
                                                      for seat, rate in enumerate(data["win_rate"])))
    for key, table in data["counts"].items():
        lines.append(f"  {key} per game: " + ", ".join(f"{names.get(name, name)} {figures['per_game']:.2f}"
                                                     for name, figures in table.items()))
    return lines


def register(main) -> None:
    @main.command("play")
    @click.argument("game")
    @click.argument("scenario", type=click.Path(exists=True, dir_okay=False, path_type=Path))
    @click.option("--policy", help="After the scenario's actions, play on to the end with this policy.")
    @click.option("--record", type=click.Path(dir_okay=False, path_type=Path),
                  help="Write what was played as a scenario that expects the state reached (a golden playthrough).")
    @click.pass_obj
    def play(obj, game: str, scenario: Path, policy: str | None, record: Path | None):
        """Set up SCENARIO's position, apply its actions, check its expectations and print the
        state reached as JSON. An illegal action or an unmet expectation exits 1."""
        from ...rules.scenario import load_scenario, play_on, recording, run_scenario
        loaded, engine = _game(obj, game, texts=False)
        if policy is not None and policy not in engine.policies:
            raise UsageError(f"no policy '{policy}' (policies: {', '.join(engine.policies)})")
        display = obj.project.display(scenario)
        data = load_scenario(scenario, display)
        played = run_scenario(loaded, data, display)
        if played.state is not None and policy and not played.problems:
            try:
                play_on(engine, played, policy, data["setup"].get("seed", 0))
            except InvariantBroken as exc:
                raise PnpError(f"a rule broke while playing on: {exc}") from None
        if played.state is not None:
            click.echo(json.dumps(played.state.to_json(), ensure_ascii=False, indent=2))
        if played.problems:
            raise DataError(played.problems)
        if record is not None:
            title = str(data.get("title", scenario.stem)) + (f", played on by policy {policy}" if policy else "")
            text = (f"# A golden playthrough, recorded by `pnp play {game} --policy {policy} --record`:\n"
                    f"# replaying its actions must reach exactly the state it expects.\n"
                    + yaml.safe_dump(recording(engine, loaded, played, title), allow_unicode=True,
                                     sort_keys=False, width=100, default_flow_style=None))
            record.write_text(text, encoding="utf-8")
            click.echo(f"recorded {len(played.actions)} actions into {record}", err=True)

    @main.command("simulate")
    @click.argument("game")
    @click.option("--edition", help="Only this edition (default: every edition).")
    @click.option("--players", type=int, help="Only this many players (default: every supported count).")
    @click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True, help="Games per run.")
    @click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
    @click.option("--policy", default="random", show_default=True, help="How every seat chooses (e.g. random, greedy).")
    @click.option("--option", "option_values", multiple=True, metavar="KEY=VALUE",
                  help="A rules variant, e.g. quick=true, roles=false, team_size=3 (repeatable).")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON (the same for the same seed, but for each run's measured actions_per_second).")
    @click.option("--jobs", type=click.IntRange(min=0), default=1, show_default=True,
                  help="Worker processes sharing the games (0: one per core); the results are the same.")
    @click.pass_obj
    def simulate_command(obj, game: str, edition, players, games, seed, policy, option_values, as_json, jobs):
        """Play seeded games with a policy for every seat, checking the rules' invariants after
        every action, and sum up lengths, endings, seat win rates and card use."""
        from ...app.loading import read_game
        from ...rules.claims import tables_played
        from ...rules.simulate import GameSource, Workers, simulate
        from ..progress import Progress
        loaded, engine = _game(obj, game, texts=False)
        spec = loaded.rules.SPEC
        if policy not in engine.policies:
            raise UsageError(f"no policy '{policy}' (policies: {', '.join(engine.policies)})")
        if edition is not None and edition not in loaded.editions:
            raise UsageError(f"{game} has no edition '{edition}' (editions: {', '.join(loaded.editions)})")
        if players is not None and not spec.seats_players(players):
            raise UsageError(f"{game} is for {spec.players_text()} players, not {players}")
        options = parse_options(engine, option_values)
        editions = [edition] if edition else [e for e in loaded.editions if e in spec.editions]
        counts = [players] if players else list(spec.tables)
        try:
            engine.check_options(options, engine.components(loaded, editions[0])["box"])
        except OptionError as exc:
            raise UsageError(f"--option {exc.key}: {exc}") from None
        except SetupError as exc:
            raise PnpError(f"{editions[0]}: {exc}") from None
        # A table of teams shows the games of as many single players, played once, where the
        # engine claims they are the same (claims.TeamsPlayAsSeats), with their measured speed.
        plays = tables_played(engine, counts, options)
        names = loaded.component_names()
        runs, elapsed, actions, played = [], 0.0, 0, 0
        with Progress(f"simulating {game}", total=games * len(editions) * len(set(plays.values()))) as progress, \
                Workers(jobs, GameSource(read_game, (str(obj.project.root), loaded.slug))) as workers:
            workers.share(engine, loaded, editions)
            for run_edition in editions:
                shown: dict[int, dict] = {}
                for count in counts:
                    if plays[count] != count:
                        shown[count] = {**shown[plays[count]], "players": count}
                        runs.append(shown[count])
                        continue
                    label = f"{run_edition}, {count} players"
                    started = time.perf_counter()
                    try:
                        run = simulate(engine, loaded, edition=run_edition, players=count, games=games, seed=seed,
                                       policy=policy, options=options, progress=lambda: progress.step(label),
                                       workers=workers)
                    except OptionError as exc:
                        raise UsageError(f"--option {exc.key}: {exc}") from None
                    except SetupError as exc:
                        raise PnpError(f"{label}: {exc}") from None
                    except InvariantBroken as exc:
                        raise PnpError(f"a rule broke: {exc}") from None
                    spent = time.perf_counter() - started
                    elapsed += spent
                    actions += sum(run.tally.actions)
                    played += games
                    # Measured, so the one figure of a run that differs from one run to the next.
                    shown[count] = {**run.to_json(), "actions_per_second": round(sum(run.tally.actions) / spent)}
                    runs.append(shown[count])
        if as_json:
            click.echo(json.dumps({"runs": runs}, ensure_ascii=False, indent=2))
            return
        for data in runs:
            click.echo("\n".join(describe_run(data, names)))
        click.echo(f"{played} games, {actions} actions in {elapsed:.2f} s ({played / elapsed:.0f} games/s, "
                   f"{actions / elapsed:.0f} actions/s), invariants checked after every action")
