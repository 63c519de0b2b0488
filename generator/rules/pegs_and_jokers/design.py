"""Pegs and Jokers: what the rules (seed 002) need of the components, as numbers and names,
and the board's geometry the engine plays on.

Written from the rule text, not from the YAML, so that the two check each other.
"""
from __future__ import annotations

from ..spec import GameSpec, Setup

EDITION = "standard"
PLAYER_COUNTS = (4, 6, 8)        # one board side per player: a square, a hexagon, an octagon
MIN_PLAYERS, MAX_PLAYERS = PLAYER_COUNTS[0], PLAYER_COUNTS[-1]
PEGS = 5                         # per player
HAND_SIZE = 5                    # dealt
DRAW_TO = 6                      # a turn begins by drawing up to this many

# ---- the board: one side per player, the same on every side --------------------------------
# Holes of a side are numbered from its corner, hole 1. The track runs clockwise, from a
# side's hole 18 on to the next side's hole 1, and the sides follow the seats.
HOLES_PER_SIDE = 18
COME_OUT_HOLE = 8                # where a peg leaving its start area arrives
START_HOLES = 5                  # the start area beside the come-out hole
IN_SPOT_HOLE = 3                 # where the home branch leaves the track
HOME_HOLES = 5                   # home 1 next to the in-spot, home 5 at the back
# The three boards (4, 6 and 8 sides, one per table) must draw exactly this: the sides in seat
# order and seat colours (COLOURS), clockwise; holes at least 17 mm apart (16 mm pegs). Once
# boards.yaml has them, SPEC states them as facts and counts (one board per table).
BOARDS = {4: "square", 6: "hexagon", 8: "octagon"}      # boards.yaml: one side per player
BOARD_SHAPE = "track"            # the board's looped shape, in boards.yaml


def board_group(players: int) -> str:
    """The group of boards a table of `players` plays on (boards.yaml: group)."""
    return f"sides-{players}"

# ---- the cards: standard decks of 52 with 2 jokers each ------------------------------------
SUITS = ("spades", "hearts", "diamonds", "clubs")
RANK_KEYS = ("a", "2", "3", "4", "5", "6", "7", "8", "9", "10", "j", "q", "k")
JOKER = 0                        # a card's `value`: the joker 0, A 1 ... K 13
ACE, SEVEN, EIGHT = 1, 7, 8
COURT = (11, 12, 13)             # J, Q, K
RANKS = tuple(range(1, 14))
LABELS = {JOKER: "joker", ACE: "A", 11: "J", 12: "Q", 13: "K", **{n: str(n) for n in range(2, 11)}}
VALUES = {label: value for value, label in LABELS.items()}
LEAVES_START = (ACE, *COURT)     # and the joker, which goes anywhere another peg stands
STEPS = {ACE: 1, 11: 10, 12: 10, 13: 10, **{n: n for n in (2, 3, 4, 5, 6, 7, 9, 10)}, EIGHT: -8}
JOKERS_PER_DECK = 2
CARDS_PER_DECK = len(SUITS) * len(RANK_KEYS) + JOKERS_PER_DECK
DECKS_IN_BOX = 4                 # each copy with its own back
DECKS_FOR = {4: 3, 6: 3, 8: 4}   # "for 8 players 4 decks and 8 jokers, for all others 3 and 6"
DECK, REFERENCE_DECK = "standard", "reference"

# ---- the tokens ----------------------------------------------------------------------------
# decided: 8 player colours, in seat order; partners alternate, so seats 1, 3, 5, 7 (one team)
# are red, yellow, purple, black and seats 2, 4, 6, 8 blue, green, orange, pink.
COLOURS = ("red", "blue", "yellow", "green", "purple", "orange", "black", "pink")
# One team marker per player: two teams of up to 4 take A and B, teams of two also C and D.
TEAM_MARKERS = {"team-a": 4, "team-b": 4, "team-c": 2, "team-d": 2}


def peg_token(colour: str) -> str:
    return f"peg-{colour}"


def card_id(suit: str, rank: str, copy: int) -> str:
    return f"{DECK}-{suit}-{rank}-{copy}"


def team_count(players: int, pairs: bool) -> int:
    """Two teams seated alternately, or (the variant) teams of two partners facing each other."""
    return players // 2 if pairs else 2


def setup(players: int, edition: str) -> Setup:
    return Setup({
        # the board with one side for each player
        f"boards/{board_group(players)}": 1,
        # every card of the decks this table uses is shuffled together, jokers included
        f"cards/{DECK}": DECKS_FOR[players] * CARDS_PER_DECK,
        "cards/reference": players,
        # 5 pegs in each seat's colour
        **{f"tokens/{peg_token(colour)}": PEGS for colour in COLOURS[:players]},
        # one team marker a player, as many of a team's as the largest team the table seats
        **{f"tokens/{marker}": max(_members(players, pairs, team) for pairs in (False, True))
           for team, marker in enumerate(TEAM_MARKERS) if _members(players, True, team)},
    })


def _members(players: int, pairs: bool, team: int) -> int:
    teams = team_count(players, pairs)
    return players // teams if team < teams else 0


def design_problems() -> list[str]:
    """The box must seat every table: decks, jokers, pegs and markers, and hands of 5."""
    problems = []
    for players in PLAYER_COUNTS:
        decks = DECKS_FOR[players]
        if decks > DECKS_IN_BOX:
            problems.append(f"{players} players use {decks} decks, the box holds {DECKS_IN_BOX}")
        if players * DRAW_TO > decks * CARDS_PER_DECK:
            problems.append(f"{players} hands of {DRAW_TO} need more than {decks} decks")
        if players > len(COLOURS):
            problems.append(f"{players} players, {len(COLOURS)} peg colours")
        for pairs in (False, True):
            teams = team_count(players, pairs)
            per_team = players // teams
            markers = sorted(TEAM_MARKERS.values(), reverse=True)
            if teams > len(markers) or any(markers[team] < per_team for team in range(teams)):
                problems.append(f"{teams} teams of {per_team} find no marker for every player")
    if IN_SPOT_HOLE >= COME_OUT_HOLE or COME_OUT_HOLE > HOLES_PER_SIDE:
        problems.append("the in-spot lies before the come-out hole on a side")
    return problems


if design_problems():       # a broken design is a programming error, not bad data
    raise RuntimeError("pegs_and_jokers design: " + "; ".join(design_problems()))


def _counts() -> dict:
    cards = {card_id(suit, rank, copy): 1 for suit in SUITS for rank in RANK_KEYS
             for copy in range(1, DECKS_IN_BOX + 1)}
    cards.update({f"{DECK}-joker-{copy}": JOKERS_PER_DECK for copy in range(1, DECKS_IN_BOX + 1)})
    cards["reference"] = MAX_PLAYERS
    tokens = {peg_token(colour): PEGS for colour in COLOURS}
    tokens.update(TEAM_MARKERS)
    # a tuck box for each copy of the deck, by its back
    boxes = {f"deck-{copy}-box": 1 for copy in range(1, DECKS_IN_BOX + 1)}
    return {"cards": cards, "tokens": tokens, "boards": {board: 1 for board in BOARDS.values()}, "tuckboxes": boxes}


def _facts() -> dict:
    facts: dict[str, object] = {
        "game.yaml:players.min": MIN_PLAYERS,
        "game.yaml:players.max": MAX_PLAYERS,
        "game.yaml:players.counts": list(PLAYER_COUNTS),
        "game.yaml:hand_size": HAND_SIZE,
        f"cards.yaml:decks.{DECK}.count.{EDITION}": DECKS_IN_BOX,
        f"cards.yaml:decks.{DECK}.extra.joker.copies": JOKERS_PER_DECK,
        f"cards.yaml:decks.{DECK}.extra.joker.value": JOKER,
    }
    for key, value in zip(RANK_KEYS, RANKS):
        facts[f"cards.yaml:decks.{DECK}.matrix.rank.{key}.value"] = value
    # every side of every board is the same: holes, the come-out hole with its start area
    # beside it, the in-spot where the home branch leaves the track
    shape = f"boards.yaml:design.shapes.{BOARD_SHAPE}"
    facts.update({f"{shape}.spaces": HOLES_PER_SIDE, f"{shape}.start_area.at": COME_OUT_HOLE,
                  f"{shape}.start_area.spaces": START_HOLES, f"{shape}.branch.at": IN_SPOT_HOLE,
                  f"{shape}.branch.spaces": HOME_HOLES})
    for players, board in BOARDS.items():
        facts[f"boards.yaml:boards.{board}.shapes.{BOARD_SHAPE}.sides"] = players
        facts[f"boards.yaml:boards.{board}.group"] = board_group(players)
    return facts


SPEC = GameSpec(
    slug="pegs-and-jokers",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    player_counts=PLAYER_COUNTS,
    counts={EDITION: _counts()},
    totals={EDITION: {"boards": len(BOARDS), f"cards/{DECK}": DECKS_IN_BOX * CARDS_PER_DECK, "cards/reference": MAX_PLAYERS,
                      "cards": DECKS_IN_BOX * CARDS_PER_DECK + MAX_PLAYERS,
                      "tokens": len(COLOURS) * PEGS + sum(TEAM_MARKERS.values())}},
    facts=_facts(),
    setup=setup,
)
