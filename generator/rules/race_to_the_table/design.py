"""Race to the Table: what the rules (seed 000) need of the components, as numbers and names.

Written from the rule text, not from the YAML, so that the two check each other.
"""
from __future__ import annotations

from ..spec import GameSpec, Setup, Teams

HAND_SIZE = 3
MIN_PLAYERS, MAX_PLAYERS = 2, 10
# From 7 players, teams of 2 (or 3) share a pawn, a hand and a turn.
TEAMS = Teams(from_players=7, sizes=(2, 3))
TRACK_FIELDS = 15       # START, fields 1-15, TABLE
CLOCK_FIELDS = 15       # decided in boards.yaml; red is the last, the quick game's middle the 8th
CLOCK_MIDDLE = 8

# What each card and role needs as targets (the rest take none).
ONE_PAWN = ("quick", "long-queue", "closed", "shortcut", "taxi", "road-works")
TWO_PAWNS = ("smells-good", "swap")
NO_PAWN = ("friday", "double-order", "sudden-rain")
CARDS = ONE_PAWN + TWO_PAWNS + NO_PAWN
ROLES = ("boss", "intern", "gourmet", "table-guard", "accountant", "driver", "chef", "gossip")
GUARD = "table-guard"            # acts by itself: never an action

# Action cards: (full, free). "Sums: 54 and 27."
ACTION_CARDS = {
    "quick": (15, 10),
    "smells-good": (8, 6),
    "long-queue": (7, 5),
    "closed": (4, 3),
    "shortcut": (4, 3),
    "swap": (3, 0),
    "taxi": (4, 0),
    "road-works": (3, 0),
    "friday": (3, 0),
    "double-order": (2, 0),
    "sudden-rain": (1, 0),
}
BOARDS = ("lunch-break", "whats-for-dinner", "street-food-night", "picnic-day",
          "christmas-dinner", "the-big-decision")


def _edition_counts(column: int, roles: bool, boards: tuple[str, ...], clock_markers: int) -> dict:
    cards = {card: counts[column] for card, counts in ACTION_CARDS.items() if counts[column]}
    if roles:
        cards.update({role: 1 for role in ROLES})
        cards["quick-reference"] = 1
    return {
        "cards": cards,
        "boards": {board: 1 for board in boards},
        "tokens": {"pawn": 6, "closed": 6, "clock-marker": clock_markers},
        "tuckboxes": {"cards-box": 1},
    }


def setup(players: int, edition: str) -> Setup:
    hands = len(TEAMS.split(players, TEAMS.sizes[0]))      # one hand (and pawn) a seat
    components = {
        "cards/action": hands * HAND_SIZE,
        "boards": 1,
        "tokens/pawn": hands,
        "tokens/clock-marker": 1,
    }
    if edition == "full":
        # decided: with teams, each team (one hand) gets one role.
        components["cards/roles"] = hands
    return Setup(components)


SPEC = GameSpec(
    slug="race-to-the-table",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    counts={
        "full": _edition_counts(0, roles=True, boards=BOARDS, clock_markers=2),
        "free": _edition_counts(1, roles=False, boards=BOARDS[:1], clock_markers=1),
    },
    totals={
        "full": {"cards/action": 54, "cards/roles": 8, "cards/reference": 1, "cards": 63, "boards": 6},
        "free": {"cards/action": 27, "cards": 27, "boards": 1},
    },
    facts={
        "game.yaml:players.min": MIN_PLAYERS,
        "game.yaml:players.max": MAX_PLAYERS,
        "game.yaml:players.teams_from": TEAMS.from_players,
        "game.yaml:players.team_size_min": TEAMS.sizes[0],
        "game.yaml:players.team_size_max": TEAMS.sizes[-1],
        "game.yaml:hand_size": HAND_SIZE,
        "boards.yaml:design.shapes.track.spaces": TRACK_FIELDS,
        "boards.yaml:design.shapes.clock.spaces": CLOCK_FIELDS,
        "boards.yaml:design.shapes.clock.marks.red.at": CLOCK_FIELDS,
        "boards.yaml:design.shapes.clock.marks.middle.at": CLOCK_MIDDLE,
    },
    setup=setup,
    teams=TEAMS,
)
