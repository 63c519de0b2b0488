"""The rules of seed 004 as numbers, and the decisions the text leaves open (recorded as
`# decided:` in components/diced-veggies/*.yaml), stated here independently of the YAML; and
from them SPEC, what the components must be."""
from __future__ import annotations

from typing import NamedTuple

from ..spec import GameSpec, Setup

EDITION = "standard"
MIN_PLAYERS, MAX_PLAYERS = 2, 4        # decided: the published range (the seed names none)

# -- dice: 35 in 5 ingredient kinds, no 1 and two faces with 2
# decided: the kinds, their colours and icons (one beige mushroom, one green kind).
KINDS = ("mushroom", "tomato", "carrot", "broccoli", "eggplant")
KIND_ICONS = {"mushroom": "☂", "tomato": "●", "carrot": "▼", "broccoli": "♣", "eggplant": "◆"}
KIND_COLOURS = {"mushroom": "#D8C3A5", "tomato": "#D7263D", "carrot": "#F28C28",
                "broccoli": "#3A9D23", "eggplant": "#6A4C93"}
DICE_PER_KIND = 7
FACES = (2, 2, 3, 4, 5, 6)              # decided: the published dice (reference/games.md); the seed gives no faces
NUMBERS = tuple(sorted(set(FACES)))     # what the chef token may turn a die to
EDGE_MM = 16                            # decided: the 5 × 7 block is 80 × 112 mm in the frame

# -- the block and a turn
ROWS, COLUMNS = 5, 7                    # decided: the published 5 × 7 block (reference/games.md); the seed gives no size
CUT_LIMIT = 10                          # the dice cut off total 10 or less
MAX_DICE, MAX_RECIPES, MAX_HYPE = 8, 2, 2   # what a player may keep at the end of a turn
RECIPES_TO_END = 6                      # cooking a 6th recipe ends the game
DISPLAY = 3                             # face-up recipes anyone may draw (decided: the published setup)
HYPE_EACH, RECIPES_EACH = 1, 2          # dealt to each player at the start (decided: the published setup)

# -- cards
RECIPE_DECK, HYPE_DECK, REFERENCE_DECK = "recipes", "hype", "reference"
REFERENCE_CARD = "reference"
RECIPE_COUNT, HYPE_COUNT = 44, 34       # decided: the published counts (reference/games.md); the seed gives none
# Cut-out pieces (pieces.yaml): the frame the block forms in, and the cleaver.
PIECES = ("frame", "cleaver")
CHEF_TOKEN = "chef"

_SHORT = {kind[0]: kind for kind in KINDS}

# decided: the 44 recipes, by the dice of each kind they need (m mushroom, t tomato, c carrot,
# b broccoli, e eggplant): 10 of 2 dice, 14 of 3, 12 of 4, 8 of 5; at most 3 of one kind.
_RECIPES = {
    "recipe-01": "m2", "recipe-02": "t2", "recipe-03": "c2", "recipe-04": "b2", "recipe-05": "e2",
    "recipe-06": "m1 t1", "recipe-07": "c1 b1", "recipe-08": "t1 e1", "recipe-09": "m1 e1",
    "recipe-10": "m1 b1",
    "recipe-11": "m3", "recipe-12": "t3", "recipe-13": "c3", "recipe-14": "b3", "recipe-15": "e3",
    "recipe-16": "t2 c1", "recipe-17": "m2 b1", "recipe-18": "t2 e1", "recipe-19": "m1 c2",
    "recipe-20": "t1 b2", "recipe-21": "c1 e2", "recipe-22": "m1 t1 e1", "recipe-23": "t1 c1 b1",
    "recipe-24": "m1 c1 b1",
    "recipe-25": "m3 t1", "recipe-26": "t2 c2", "recipe-27": "t2 e2", "recipe-28": "c2 b2",
    "recipe-29": "m2 e2", "recipe-30": "m1 t1 e2", "recipe-31": "m1 t2 b1", "recipe-32": "m1 c2 b1",
    "recipe-33": "t1 c1 b2", "recipe-34": "m1 t1 c1 e1", "recipe-35": "m1 c1 b1 e1",
    "recipe-36": "t1 c1 b1 e1",
    "recipe-37": "m3 c1 b1", "recipe-38": "m1 t2 e2", "recipe-39": "t1 c2 b2", "recipe-40": "t2 e3",
    "recipe-41": "m1 c3 e1", "recipe-42": "m1 t1 c1 b1 e1", "recipe-43": "m2 t1 b1 e1",
    "recipe-44": "m2 b3",
}
RECIPE_NEEDS: dict[str, dict[str, int]] = {
    card: {_SHORT[part[0]]: int(part[1:]) for part in spec.split()} for card, spec in _RECIPES.items()}

# decided: points by the dice a recipe needs, one more when it needs 3 kinds or more.
POINTS_BY_DICE = {2: 2, 3: 3, 4: 5, 5: 7}
MANY_KINDS, MANY_KINDS_BONUS = 3, 1


def recipe_points(needs: dict[str, int]) -> int:
    return POINTS_BY_DICE[sum(needs.values())] + (MANY_KINDS_BONUS if len(needs) >= MANY_KINDS else 0)


def needs_glyphs(needs: dict[str, int]) -> str:
    """The ingredients as the kinds' icons in kind order, as a recipe card prints them."""
    return "".join(KIND_ICONS[kind] * needs[kind] for kind in KINDS if kind in needs)


class Hype(NamedTuple):
    """A hype card as the rules read it (cards.yaml explains every condition and scoring)."""

    condition: str
    scoring: str
    points: int
    amount: int | None = None
    number: int | None = None
    kind: str | None = None


CONDITIONS = ("all-even", "all-odd", "all-same", "number-count", "same-count", "number-none", "sum-min",
              "sum-max", "sum-exact", "run", "all-min", "all-max", "kinds-min", "dice-min", "points-min",
              "points-max", "kind-count", "chef-unused", "cooked-this-turn", "always")
SCORINGS = ("fixed", "per-recipe-with-kind", "per-hype", "per-kind-cooked")

# decided: the 34 hype cards: a condition on the recipe being cooked (its dice as they show,
# the recipe itself, or the turn) and a score, fixed or counted at the end.
HYPE: dict[str, Hype] = {
    "hype-01": Hype("all-even", "fixed", 3),
    "hype-02": Hype("all-odd", "fixed", 4),
    "hype-03": Hype("all-same", "fixed", 4),
    "hype-04": Hype("number-count", "fixed", 3, number=6, amount=2),
    "hype-05": Hype("number-count", "fixed", 2, number=2, amount=2),
    "hype-06": Hype("same-count", "fixed", 4, amount=3),
    "hype-07": Hype("sum-max", "fixed", 3, amount=8),
    "hype-08": Hype("sum-min", "fixed", 3, amount=18),
    "hype-09": Hype("sum-min", "fixed", 5, amount=24),
    "hype-10": Hype("sum-exact", "fixed", 4, amount=12),
    "hype-11": Hype("run", "fixed", 3, amount=3),
    "hype-12": Hype("run", "fixed", 5, amount=4),
    "hype-13": Hype("all-min", "fixed", 4, amount=4),
    "hype-14": Hype("all-max", "fixed", 3, amount=3),
    "hype-15": Hype("number-none", "fixed", 2, number=6),
    "hype-16": Hype("kinds-min", "fixed", 2, amount=3),
    "hype-17": Hype("kinds-min", "fixed", 4, amount=4),
    "hype-18": Hype("dice-min", "fixed", 3, amount=5),
    "hype-19": Hype("points-max", "fixed", 2, amount=2),
    "hype-20": Hype("chef-unused", "fixed", 2),
    "hype-21": Hype("cooked-this-turn", "fixed", 3, amount=2),
    "hype-22": Hype("kind-count", "fixed", 3, amount=2, kind="mushroom"),
    "hype-23": Hype("kind-count", "fixed", 3, amount=2, kind="tomato"),
    "hype-24": Hype("kind-count", "fixed", 3, amount=2, kind="carrot"),
    "hype-25": Hype("kind-count", "fixed", 3, amount=2, kind="broccoli"),
    "hype-26": Hype("kind-count", "fixed", 3, amount=2, kind="eggplant"),
    "hype-27": Hype("kind-count", "per-recipe-with-kind", 1, amount=1, kind="mushroom"),
    "hype-28": Hype("kind-count", "per-recipe-with-kind", 1, amount=1, kind="tomato"),
    "hype-29": Hype("kind-count", "per-recipe-with-kind", 1, amount=1, kind="carrot"),
    "hype-30": Hype("kind-count", "per-recipe-with-kind", 1, amount=1, kind="broccoli"),
    "hype-31": Hype("kind-count", "per-recipe-with-kind", 1, amount=1, kind="eggplant"),
    "hype-32": Hype("always", "per-hype", 1),
    "hype-33": Hype("always", "per-kind-cooked", 1),
    "hype-34": Hype("points-min", "fixed", 2, amount=5),
}
HYPE_FIELDS = ("condition", "scoring", "points", "amount", "number", "kind")


def design_problems() -> list[str]:
    """The decisions must fill the published box, and every recipe must be one the
    dice can make: no more of a kind than there are dice of it, no more dice than a player
    may hold."""
    problems = []
    if len(KINDS) * DICE_PER_KIND != ROWS * COLUMNS:
        problems.append(f"{len(KINDS)} kinds × {DICE_PER_KIND} dice do not fill the {ROWS} × {COLUMNS} block")
    if 1 in FACES or FACES.count(2) != 2 or len(FACES) != 6:
        problems.append(f"faces {FACES}: the published dice have no 1 and two faces with 2")
    if len(RECIPE_NEEDS) != RECIPE_COUNT or len(HYPE) != HYPE_COUNT:
        problems.append(f"{len(RECIPE_NEEDS)} recipes and {len(HYPE)} hype cards, the published game has "
                        f"{RECIPE_COUNT} and {HYPE_COUNT}")
    for card, needs in RECIPE_NEEDS.items():
        if any(count > DICE_PER_KIND for count in needs.values()):
            problems.append(f"{card} needs more of a kind than there are dice of it")
        if sum(needs.values()) > MAX_DICE or sum(needs.values()) not in POINTS_BY_DICE:
            problems.append(f"{card} needs {sum(needs.values())} dice")
    for card, hype in HYPE.items():
        if hype.condition not in CONDITIONS or hype.scoring not in SCORINGS:
            problems.append(f"{card}: unknown condition or scoring {hype}")
        if hype.kind is not None and hype.kind not in KINDS:
            problems.append(f"{card}: unknown kind {hype.kind}")
    if not all(any(kind in needs for needs in RECIPE_NEEDS.values()) for kind in KINDS):
        problems.append("a kind no recipe needs")
    # The setup of the most players must leave recipes in the deck to refill the display.
    if MAX_PLAYERS * RECIPES_EACH + DISPLAY >= RECIPE_COUNT or MAX_PLAYERS * HYPE_EACH >= HYPE_COUNT:
        problems.append("the setup takes every card")
    return problems


if design_problems():       # a broken design is a programming error, not bad data
    raise RuntimeError("diced_veggies design: " + "; ".join(design_problems()))


def setup(players: int, edition: str) -> Setup:
    """What a game of `players` takes out of the box: every die for the block, a hype card and
    two recipes each, the display of three, a chef token and a reference card each."""
    return Setup({
        "dice": ROWS * COLUMNS,
        "cards/recipes": players * RECIPES_EACH + DISPLAY,
        "cards/hype": players * HYPE_EACH,
        "cards/reference": players,
        "tokens": players,
        "pieces": len(PIECES),
    })


def _facts() -> dict[str, object]:
    facts: dict[str, object] = {
        "game.yaml:players.min": MIN_PLAYERS,
        "game.yaml:players.max": MAX_PLAYERS,
    }
    for kind in KINDS:
        facts[f"dice.yaml:dice.{kind}.icon"] = KIND_ICONS[kind]
        facts[f"dice.yaml:dice.{kind}.colour"] = KIND_COLOURS[kind]
        facts[f"dice.yaml:dice.{kind}.edge_mm"] = EDGE_MM
    for card, needs in RECIPE_NEEDS.items():
        facts[f"cards.yaml:cards.{card}.deck"] = RECIPE_DECK
        facts[f"cards.yaml:cards.{card}.fields.points"] = recipe_points(needs)
        facts[f"cards.yaml:cards.{card}.fields.needs"] = needs_glyphs(needs)
        for kind in KINDS:
            facts[f"cards.yaml:cards.{card}.fields.{kind}"] = needs.get(kind)
    for card, hype in HYPE.items():
        facts[f"cards.yaml:cards.{card}.deck"] = HYPE_DECK
        for name in HYPE_FIELDS:
            facts[f"cards.yaml:cards.{card}.fields.{name}"] = getattr(hype, name)
    return facts


SPEC = GameSpec(
    slug="diced-veggies",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    counts={EDITION: {
        "cards": {**{card: 1 for card in RECIPE_NEEDS}, **{card: 1 for card in HYPE},
                  REFERENCE_CARD: MAX_PLAYERS},
        "dice": {kind: DICE_PER_KIND for kind in KINDS},
        "tokens": {CHEF_TOKEN: MAX_PLAYERS},
        "pieces": {piece: 1 for piece in PIECES},
        "tuckboxes": {"recipes-box": 1, "hype-box": 1},
    }},
    totals={EDITION: {
        "cards/recipes": RECIPE_COUNT,
        "cards/hype": HYPE_COUNT,
        "cards/reference": MAX_PLAYERS,
        "dice": len(KINDS) * DICE_PER_KIND,
        "tokens": MAX_PLAYERS,
        "pieces": len(PIECES),
    }},
    facts=_facts(),
    setup=setup,
)
