"""What a game's engine claims about its players and its box, declared as data (`Engine.claims`)
and checked for every game by one test (tests/test_engine_claims.py) on a few seeded games;
`make bench` plays the long runs.

- `Beats`: one seat playing `hero` among seats playing `others` wins more than `share` of
  `games` (the hero's seat going round the table), at `players`.
- `Mean`: a `stats()` figure, averaged over `games` seeded games with every seat on `policy`,
  lies below `below` and/or above `above`.
- `Short`: a box holding only the first `keep` components of `group` ("cards/donkeys", copies
  per edition as the YAML gives them) cannot seat `players`, and says why (`refusal`), while
  the whole box can.
- `TeamsPlayAsSeats`: in a game whose players share seats in teams (`GameSpec.teams`), a table
  of teams plays exactly the games of as many single players: the same actions, results and
  figures, seed for seed (the members only name the seats). The designer's report and `pnp
  simulate` then play each number of seats once (`tables_played`).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .engine import Engine, SetupError
from .simulate import duel, game_seed, play_game, play_out, policy_rng


@dataclass(frozen=True)
class Beats:
    hero: str
    others: str
    players: int
    games: int
    share: float
    seed: int = 1

    def __str__(self) -> str:
        return (f"{self.hero} among {self.others} wins more than {100 * self.share:.0f}% of {self.games} "
                f"games at {self.players} players")

    def verdict(self, engine: Engine, game, edition: str) -> str | None:
        won = duel(engine, engine.components(game, edition), players=self.players, hero=self.hero,
                   others=self.others, games=self.games, seed=self.seed)
        return None if won > self.share else f"won {100 * won:.1f}%"


@dataclass(frozen=True)
class Mean:
    stat: str
    policy: str
    players: int
    games: int
    below: float | None = None
    above: float | None = None
    seed: int = 0

    def __str__(self) -> str:
        bounds = " and ".join(f"{word} {bound}" for word, bound in (("below", self.below), ("above", self.above))
                              if bound is not None)
        return f"mean {self.stat} under {self.policy} at {self.players} players is {bounds}"

    def verdict(self, engine: Engine, game, edition: str) -> str | None:
        components = engine.components(game, edition)
        mean = sum(play_game(engine, components, players=self.players, edition=edition,
                             seed=game_seed(self.seed, index), policy=self.policy, check=False).stats()[self.stat]
                   for index in range(self.games)) / self.games
        held = (self.below is None or mean < self.below) and (self.above is None or mean > self.above)
        return None if held else f"the mean is {mean:.2f}"


@dataclass(frozen=True)
class Short:
    group: str
    keep: int
    players: int
    refusal: str

    def __str__(self) -> str:
        return f"a box with only {self.keep} of {self.group} cannot seat {self.players} players"

    def verdict(self, engine: Engine, game, edition: str) -> str | None:
        engine.new_game(self.players, **engine.components(game, edition))       # the whole box seats them
        try:
            engine.new_game(self.players, **engine.components(_keeping(game, edition, self.group, self.keep), edition))
        except SetupError as exc:
            return None if self.refusal in str(exc) else f"refused, but because {exc}"
        return "the short box seats them"


@dataclass(frozen=True)
class TeamsPlayAsSeats:
    games: int = 20
    seed: int = 0

    def __str__(self) -> str:
        return f"a table of teams plays the games of as many single players ({self.games} seeded games each)"

    def verdict(self, engine: Engine, game, edition: str) -> str | None:
        teams = engine.spec.teams
        if teams is None:
            return "the game seats no teams"
        components = engine.components(game, edition)
        for size in teams.sizes:
            options = {**engine.options, teams.option: size}
            for players in engine.spec.tables:
                seats = len(engine.seating(players, options))
                if seats == players:
                    continue
                for policy in engine.policies:
                    for index in range(self.games):
                        seed = game_seed(self.seed, index)
                        team, alone = (_played(engine, components, count, seed, policy, options)
                                       for count in (players, seats))
                        if team != alone:
                            return (f"{players} players in {seats} teams of {size} (policy {policy}, seed {seed}) "
                                    f"play otherwise than {seats} players")
        return None


def _played(engine: Engine, components, players: int, seed: int, policy: str, options: dict) -> tuple:
    """One seeded game to its end, unchecked: its actions, returns and figures."""
    state = engine.new_game(players, seed=seed, **components, **options)
    actions: list = []
    play_out(engine, state, policy, policy_rng(seed), check=False, played=actions)
    return actions, state.returns(), state.stats()


def claims_teams_play_as_seats(engine: Engine) -> bool:
    """Whether the engine claims (and tests/test_engine_claims.py holds it to) TeamsPlayAsSeats."""
    return any(isinstance(claim, TeamsPlayAsSeats) for claim in engine.claims)


def tables_played(engine: Engine, tables, options: dict | None = None) -> dict[int, int]:
    """Each number of players of `tables` -> the number whose games its run shows, with the
    engine's options and `options` (checked already: Engine.check_options): itself, or, where
    the engine claims TeamsPlayAsSeats, the first of `tables` with as many seats (7 players in
    teams of 2 play the games of 3)."""
    if not claims_teams_play_as_seats(engine):
        return {players: players for players in tables}
    seated = {**engine.options, **(options or {})}
    first: dict[int, int] = {}          # a number of seats -> the first table seated so
    return {players: first.setdefault(len(engine.seating(players, seated)), players) for players in tables}


Claim = Beats | Mean | Short | TeamsPlayAsSeats


def _keeping(game, edition: str, selector: str, keep: int):
    """The game with only the first `keep` components of `selector` (category/group) in `edition`."""
    category, _, group = selector.partition("/")
    kept, components = 0, []
    for component in game.components:
        if component.category == category and component.group == group and component.count(edition):
            kept += 1
            if kept > keep:
                counts = {key: value for key, value in component.data.get("count", {}).items() if key != edition}
                component = replace(component, data={**component.data, "count": counts})
        components.append(component)
    return _Reduced(game, components)


class _Reduced:
    """A game as loaded, with other components."""

    def __init__(self, game, components):
        self._game, self.components = game, components

    def __getattr__(self, name):
        return getattr(self._game, name)

    def in_edition(self, edition: str, category: str | None = None):
        return [c for c in self.components if c.count(edition) > 0 and (category is None or c.category == category)]
