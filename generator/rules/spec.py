"""What a rules module declares about its game's components and its table."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass(frozen=True)
class Setup:
    """What one game of N players takes out of the box (the most any seating needs):
    copies per selector, as in `GameSpec.totals`."""

    components: dict[str, int]


@dataclass(frozen=True)
class Teams:
    """From `from_players` players on, players sit in teams that share a seat (its pawn, hand
    and turn). The team size is the variant option `option`, one of `sizes`, smallest first."""

    from_players: int
    sizes: tuple[int, ...]
    option: str = "team_size"

    def split(self, players: int, size: int) -> list[int]:
        """Players at each seat: one each below `from_players`, else teams of `size`.
        decided: the players left over join the first teams when `size` is the smallest size
        (teams of 2: one team of 3); with a larger size, the last teams are one short."""
        if players < self.from_players:
            return [1] * players
        seats = players // size if size == self.sizes[0] else -(-players // size)
        members = [players // seats] * seats
        for index in range(players - sum(members)):
            members[index] += 1
        return members


@dataclass(frozen=True)
class GameSpec:
    """A game's limits and, per edition, the component counts its rules need.

    counts[edition][category][id]: copies the rules need; a component the rules do not name
        must not exist in that edition.
    totals[edition][selector]: sums the rules state ("54 action cards"); a selector is a
        category ("cards") or a category and group ("cards/action", the deck).
    facts["file:key.path"]: single values the rules fix (hand size, clock length) that the
        YAML must state the same way.
    setup(players, edition): what a game of that many players takes.
    teams: how players share seats from some number on, or None (one player a seat).
    player_counts: the only numbers of players the rules seat, when not every one from
        min_players to max_players (a board with one side per player: 4, 6 or 8).
    """

    slug: str
    min_players: int
    max_players: int
    counts: dict[str, dict[str, dict[str, int]]]
    totals: dict[str, dict[str, int]] = field(default_factory=dict)
    facts: dict[str, object] = field(default_factory=dict)
    setup: Callable[[int, str], Setup] | None = None
    teams: Teams | None = None
    player_counts: tuple[int, ...] = ()

    @property
    def tables(self) -> tuple[int, ...]:
        """Every number of players the rules seat, smallest first."""
        return self.player_counts or tuple(range(self.min_players, self.max_players + 1))

    def seats_players(self, players: int) -> bool:
        return players in self.tables

    def players_text(self) -> str:
        """The numbers of players the rules seat, as a message names them: "2-5", "4, 6 or 8"."""
        if not self.player_counts:
            return f"{self.min_players}-{self.max_players}"
        counts = [str(count) for count in self.player_counts]
        return counts[0] if len(counts) == 1 else f"{', '.join(counts[:-1])} or {counts[-1]}"

    @property
    def editions(self) -> tuple[str, ...]:
        return tuple(self.counts)
