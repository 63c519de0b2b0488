"""Diced Veggies, the rules of seed 004 as a playable state.

The block lies on a grid of ROWS × COLUMNS cells, row A at the corner the dice are pulled
into, columns 1-7 from that corner: cell A1 is (0, 0). Dice are numbered 0-34 inside the
engine (kind = box.dice[die]); scenarios and the JSON name a die by what it shows,
`kind:number`, and `kind:number=other` for a die the chef token made count as another kind.

Actions are tuples of plain values:
    ("restock", True | False)            at the start of a turn, when restocking is allowed
    ("cut", cells)                       the cells of the dice cut off, ascending
    ("chef", die, "kind" | "number", v)  spend the chef token on one of the player's dice
    ("cook", recipe, dice, hype | None)  cook a recipe with these dice, playing a hype card
    ("done",)                            stop cooking
    ("draw", "hype") | ("draw", "recipe") | ("draw", "display", recipe)
    ("discard", "die" | "recipe" | "hype", what)   at the end of a turn, over a limit
Every roll and shuffle comes from the state's rng.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import accumulate, chain, combinations_with_replacement, product
from typing import Any

from ..engine import InvariantBroken, SetupError, State
from .design import (
    CHEF_TOKEN,
    COLUMNS,
    CUT_LIMIT,
    DISPLAY,
    FACES,
    HYPE_DECK,
    HYPE_EACH,
    HYPE_FIELDS,
    KINDS,
    MAX_DICE,
    MAX_HYPE,
    MAX_RECIPES,
    NUMBERS,
    RECIPE_DECK,
    RECIPES_EACH,
    RECIPES_TO_END,
    REFERENCE_DECK,
    ROWS,
    Hype,
)


DONE = ("done",)
# decided: after most actions only what the action can have changed is checked; as every this
# many turns begins, and once a game ends, every invariant (check_rules)
FULL_CHECK_EVERY = 16


class _Where:
    """Where a check stands ("turn 3 (cook)"), worked out only for a message that says it."""

    __slots__ = ("state",)

    def __init__(self, state):
        self.state = state

    def __str__(self) -> str:
        return f"turn {self.state.turns} ({self.state.phase})"
CELLS = ROWS * COLUMNS
ROW_NAMES = "ABCDEFGHIJ"[:ROWS]


def cell_name(cell: int) -> str:
    return f"{ROW_NAMES[cell // COLUMNS]}{cell % COLUMNS + 1}"


CELL_NAMES = tuple(cell_name(cell) for cell in range(CELLS))


def _pushes() -> tuple:
    """Every way to lay the blade and push, as (the cell beside the blade in each lane, the
    cells each lane pushes): the blade lies across the rows (in a gap between two columns, or
    along the block's left or right edge) or across the columns, and pushes to either side."""
    pushes = []
    for lanes, length, cell_at in ((ROWS, COLUMNS, lambda lane, i: lane * COLUMNS + i),
                                   (COLUMNS, ROWS, lambda lane, i: i * COLUMNS + lane)):
        for near in range(length):
            for span in (range(near, length), range(0, near + 1)):
                pushes.append((tuple(cell_at(lane, near) for lane in range(lanes)),
                               tuple(tuple(cell_at(lane, i) for i in span) for lane in range(lanes))))
    return tuple(pushes)


PUSHES = _pushes()


def _lanes(push) -> tuple:
    """A push as cuts_possible reads it: the cell beside the blade in each lane, each lane's
    cells as bits, and where each lane's cells lie (0 a row, 1 a column; which; from, to)."""
    near_cells, span_cells = push
    masks, spans = [], []
    for cells in span_cells:
        masks.append(sum(1 << cell for cell in cells))
        rows = {cell // COLUMNS for cell in cells}
        if len(rows) == 1 and len(cells) > 1 or (len(cells) == 1 and ROWS == 1):
            spans.append((0, cells[0] // COLUMNS, min(cells) % COLUMNS, max(cells) % COLUMNS + 1))
        else:
            spans.append((1, cells[0] % COLUMNS, min(cells) // COLUMNS, max(cells) // COLUMNS + 1))
    return near_cells, tuple(masks), tuple(spans)


PUSH_LANES = tuple(_lanes(push) for push in PUSHES)


def _flat(across: int, lane: int, at: int) -> int:
    """Where a running sum lies in cuts_possible's one list: every row's, then every column's."""
    return at + (lane * (COLUMNS + 1) if across == 0 else ROWS * (COLUMNS + 1) + lane * (ROWS + 1))


# PUSH_LANES with each lane's (near cell's bit, where its cells' running sums start and stop)
FLAT_PUSH_LANES = tuple(
    (masks, tuple((1 << near, _flat(across, lane, start), _flat(across, lane, stop))
                  for near, (across, lane, start, stop) in zip(near_cells, spans)))
    for near_cells, masks, spans in PUSH_LANES)


@lru_cache(maxsize=1 << 14)      # the same cuts come back game after game
def _cells_of(bits: int) -> tuple[int, ...]:
    """The cells of a number's bits, lowest first."""
    cells = []
    while bits:
        low = bits & -bits
        cells.append(low.bit_length() - 1)
        bits ^= low
    return tuple(cells)


def _beyond(cell: int, row_step: int, column_step: int) -> int:
    """The cells from `cell` to the block's edge going one way, as bits."""
    row, column, bits = divmod(cell, COLUMNS) + (0,)
    while 0 <= row < ROWS and 0 <= column < COLUMNS:
        bits |= 1 << (row * COLUMNS + column)
        row, column = row + row_step, column + column_step
    return bits


# For each cell, what a blade laid beside it pushes in its lane: toward the row's end (the
# blade across the rows, before the cell's column), toward its start, toward the column's end,
# toward its start. The way and the blade's place make a family of pushes; its lanes are the
# rows (or the columns) it crosses.
RIGHT, LEFT, DOWN, UP = ([_beyond(cell, *step) for cell in range(CELLS)]
                         for step in ((0, 1), (0, -1), (1, 0), (-1, 0)))


PLACES = max(ROWS, COLUMNS)      # where a blade may lie beside a lane's cells, at most


def _ways() -> tuple:
    """Per way of pushing (toward a row's end, its start, a column's end, its start), per cell:
    (the family of pushes whose blade lies beside the cell, the cell's lane in that family, the
    cells the blade pushes). A family is a way and the blade's place; its lanes are the rows
    (or the columns) the blade crosses."""
    ways = []
    for index, beyond in enumerate((RIGHT, LEFT, DOWN, UP)):
        across_rows = index < 2
        ways.append(tuple((index * PLACES + (cell % COLUMNS if across_rows else cell // COLUMNS),
                           cell // COLUMNS if across_rows else cell % COLUMNS, beyond[cell])
                          for cell in range(CELLS)))
    return tuple(ways)


WAYS = _ways()
FAMILIES = 4 * PLACES
CELL_BITS = tuple(1 << cell for cell in range(CELLS))


def _walks() -> tuple:
    """Every lane walked from the block's edge inward, each way, rows first then columns: per
    walk, the lane's cells as bits, and per cell (the cell, its family, its lane, the cells the
    blade pushes) as WAYS has them."""
    rows = [tuple(range(row * COLUMNS, (row + 1) * COLUMNS)) for row in range(ROWS)]
    columns = [tuple(range(column, CELLS, COLUMNS)) for column in range(COLUMNS)]
    walks = []
    for lanes, toward_end, toward_start in ((rows, WAYS[0], WAYS[1]), (columns, WAYS[2], WAYS[3])):
        for cells in lanes:
            for order, way in ((cells[::-1], toward_end), (cells, toward_start)):
                walks.append((sum(1 << cell for cell in cells), tuple((cell,) + way[cell] for cell in order)))
    return tuple(walks)


WALKS = _walks()


def _cut_order(cells: tuple[int, ...]) -> int:
    """A number that orders cuts as their ascending cells do (a cut before any that extends it)."""
    order = 0
    for cell in cells:
        order = order * (CELLS + 1) + cell + 1
    return order * (CELLS + 1) ** (CELLS - len(cells))


class _CutActions(dict):
    """Per cut's cells as bits: (its place in the legal cuts' order, its action), made as first
    needed; the same cuts come back game after game."""

    def __missing__(self, bits: int) -> tuple[int, tuple]:
        if len(self) > 1 << 16:
            self.clear()
        cells = _cells_of(bits)
        entry = self[bits] = (_cut_order(cells), ("cut", cells))
        return entry


CUT_ACTIONS = _CutActions()


# ---- what the components give the engine ----------------------------------------------------

@dataclass(frozen=True)
class Recipe:
    id: str
    needs: tuple[tuple[str, int], ...]      # (kind, dice), in kind order
    points: int
    need: dict = field(default_factory=dict, repr=False, compare=False, hash=False)   # the same, by kind

    def __post_init__(self):
        object.__setattr__(self, "need", dict(self.needs))


@dataclass(frozen=True)
class Box:
    """One edition's components as the rules use them, read from the loaded YAML."""

    kinds: tuple[str, ...]
    faces: tuple[int, ...]                   # the numbers on every die's six faces
    dice: tuple[str, ...]                    # the kind of each die, by die number
    recipes: tuple[Recipe, ...]
    hype: tuple[tuple[str, Hype], ...]
    chef_tokens: int
    reference_cards: int

    # derived, for quick look-ups
    recipe_by_id: dict = field(default_factory=dict, repr=False, compare=False)
    hype_by_id: dict = field(default_factory=dict, repr=False, compare=False)
    die_numbers: frozenset = field(default_factory=frozenset, repr=False, compare=False)
    face_numbers: frozenset = field(default_factory=frozenset, repr=False, compare=False)
    # a die's chef actions by (die, the kind it counts as, its number), made as first needed
    chef_moves: dict = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "recipe_by_id", {recipe.id: recipe for recipe in self.recipes})
        object.__setattr__(self, "hype_by_id", dict(self.hype))
        object.__setattr__(self, "die_numbers", frozenset(range(len(self.dice))))
        object.__setattr__(self, "face_numbers", frozenset(self.faces))

    def recipe(self, card: str) -> Recipe:
        return self.recipe_by_id[card]

    def hype_card(self, card: str) -> Hype:
        return self.hype_by_id[card]


def box_from_game(game, edition: str) -> Box:
    """Read one edition's components; one the rules cannot use is a SetupError naming it."""
    dice: list[str] = []
    faces: tuple[int, ...] | None = None
    for component in game.in_edition(edition, "dice"):
        where = ("dice", ("dice", component.id))
        if component.id not in KINDS:
            raise SetupError(f"die '{component.id}' is no ingredient kind the rules know ({', '.join(KINDS)})", where)
        numbers = []
        for index, face in enumerate(component.data["faces"]):
            name = str(face.get("name", ""))
            if not name.isdigit():
                raise SetupError(f"face {index + 1} of die '{component.id}' shows no number", where)
            if face.get("ingredient") != component.id:
                raise SetupError(f"face {index + 1} of die '{component.id}' names ingredient "
                                 f"{face.get('ingredient')!r}, not '{component.id}'", ("dice", ("dice", component.id, "faces", index)))
            numbers.append(int(name))
        if sorted(numbers) != sorted(FACES):
            raise SetupError(f"die '{component.id}' has faces {numbers}; the rules need {sorted(FACES)}", where)
        faces = tuple(sorted(numbers))
        dice.extend([component.id] * component.count(edition))
    kinds = tuple(kind for kind in KINDS if kind in dice)
    if len(dice) != CELLS or faces is None:
        raise SetupError(f"the block is {ROWS} × {COLUMNS} = {CELLS} dice, the components have {len(dice)}", ("dice", ("dice",)))
    have = Counter(dice)
    recipes, hype, references = [], [], 0
    for component in game.in_edition(edition, "cards"):
        where = ("cards", ("cards", component.id))
        fields = component.data.get("fields") or {}
        copies = component.count(edition)
        if component.group == RECIPE_DECK:
            needs = tuple((kind, fields[kind]) for kind in KINDS if kind in fields)
            points = fields.get("points")
            if not needs or type(points) is not int:
                raise SetupError(f"recipe '{component.id}' needs fields points and the dice of each kind", where)
            for kind, count in needs:
                # The rules promise that every recipe can be cooked with the dice that exist,
                # and within the dice a player may keep.
                if type(count) is not int or not 1 <= count <= have[kind]:
                    raise SetupError(f"recipe '{component.id}' needs {count!r} {kind}, the box has {have[kind]}", where)
            if sum(count for _, count in needs) > MAX_DICE:
                raise SetupError(f"recipe '{component.id}' needs more than the {MAX_DICE} dice a player keeps", where)
            recipes.extend([Recipe(component.id, needs, points)] * copies)
        elif component.group == HYPE_DECK:
            values = {name: fields.get(name) for name in HYPE_FIELDS}
            if values["kind"] is not None and values["kind"] not in kinds:
                raise SetupError(f"hype '{component.id}' names the kind {values['kind']!r}, no die's", where)
            hype.extend([(component.id, Hype(**values))] * copies)
        elif component.group == REFERENCE_DECK:
            references += copies
        else:
            raise SetupError(f"card '{component.id}' is in deck '{component.group}'; the rules know "
                             f"'{RECIPE_DECK}', '{HYPE_DECK}' and '{REFERENCE_DECK}'", where)
    if len({r.id for r in recipes}) != len(recipes) or len({h for h, _ in hype}) != len(hype):
        raise SetupError("every recipe and hype card is one of a kind", ("cards", ("cards",)))
    chefs = sum(c.count(edition) for c in game.in_edition(edition, "tokens") if c.id == CHEF_TOKEN)
    return Box(kinds, faces, tuple(dice), tuple(recipes), tuple(hype), chefs, references)


# ---- hype conditions and scoring --------------------------------------------------------------

def longest_run(numbers) -> int:
    values = sorted(set(numbers))
    best = run = 0
    for index, value in enumerate(values):
        run = run + 1 if index and value == values[index - 1] + 1 else 1
        best = max(best, run)
    return best


# Each hype condition as a test of (the card, the recipe, the dice's numbers, the chef token at
# hand, recipes already cooked this turn).
HOLDS = {
    "all-even": lambda hype, recipe, numbers, chef, cooked: all(n % 2 == 0 for n in numbers),
    "all-odd": lambda hype, recipe, numbers, chef, cooked: all(n % 2 == 1 for n in numbers),
    "all-same": lambda hype, recipe, numbers, chef, cooked: len(set(numbers)) == 1,
    "number-count": lambda hype, recipe, numbers, chef, cooked: numbers.count(hype.number) >= hype.amount,
    "same-count": lambda hype, recipe, numbers, chef, cooked: max(Counter(numbers).values()) >= hype.amount,
    "number-none": lambda hype, recipe, numbers, chef, cooked: hype.number not in numbers,
    "sum-min": lambda hype, recipe, numbers, chef, cooked: sum(numbers) >= hype.amount,
    "sum-max": lambda hype, recipe, numbers, chef, cooked: sum(numbers) <= hype.amount,
    "sum-exact": lambda hype, recipe, numbers, chef, cooked: sum(numbers) == hype.amount,
    "run": lambda hype, recipe, numbers, chef, cooked: longest_run(numbers) >= hype.amount,
    "all-min": lambda hype, recipe, numbers, chef, cooked: min(numbers) >= hype.amount,
    "all-max": lambda hype, recipe, numbers, chef, cooked: max(numbers) <= hype.amount,
    "kinds-min": lambda hype, recipe, numbers, chef, cooked: len(recipe.need) >= hype.amount,
    "dice-min": lambda hype, recipe, numbers, chef, cooked: sum(recipe.need.values()) >= hype.amount,
    "points-min": lambda hype, recipe, numbers, chef, cooked: recipe.points >= hype.amount,
    "points-max": lambda hype, recipe, numbers, chef, cooked: recipe.points <= hype.amount,
    "kind-count": lambda hype, recipe, numbers, chef, cooked: recipe.need.get(hype.kind, 0) >= hype.amount,
    "chef-unused": lambda hype, recipe, numbers, chef, cooked: chef,
    "cooked-this-turn": lambda hype, recipe, numbers, chef, cooked: cooked + 1 >= hype.amount,
    "always": lambda hype, recipe, numbers, chef, cooked: True,
}


def _unknown_condition(hype: Hype, recipe: Recipe, numbers: list[int], chef: bool, cooked: int) -> bool:
    raise InvariantBroken(f"unknown hype condition {hype.condition!r}")


def hype_test(hype: Hype):
    """The test of a hype card's condition (HOLDS): one of an unknown condition breaks the
    rules when it is tried."""
    return HOLDS.get(hype.condition, _unknown_condition)


def hype_holds(hype: Hype, recipe: Recipe, numbers: list[int], chef: bool, cooked_this_turn: int) -> bool:
    """Whether a hype card may be played with this recipe, cooked with dice showing `numbers`,
    `cooked_this_turn` recipes already cooked this turn, the chef token at hand or not."""
    return hype_test(hype)(hype, recipe, numbers, chef, cooked_this_turn)


def hype_points(hype: Hype, cooked: list[Recipe], played: int) -> int:
    """What a played hype card scores at the end, given the player's cooked recipes and the
    number of hype cards the player played."""
    if hype.scoring == "fixed":
        return hype.points
    if hype.scoring == "per-recipe-with-kind":
        return hype.points * sum(1 for recipe in cooked if hype.kind in recipe.need)
    if hype.scoring == "per-hype":
        return hype.points * played
    if hype.scoring == "per-kind-cooked":
        return hype.points * len({kind for recipe in cooked for kind in recipe.need})
    raise InvariantBroken(f"unknown hype scoring {hype.scoring!r}")


# ---- the state ------------------------------------------------------------------------------

@dataclass
class Seat:
    dice: list[int] = field(default_factory=list)            # die numbers, ascending
    recipes: list[str] = field(default_factory=list)         # face up in front of the player
    hype: list[str] = field(default_factory=list)            # held secretly
    cooked: list[str] = field(default_factory=list)          # in the order cooked
    played: list[tuple[str, str]] = field(default_factory=list)   # (hype, the recipe it went with)
    chef: bool = True                                        # the chef token is at hand


@lru_cache(maxsize=None)         # a few hundred shapes of a player's dice at most
def _takings(sizes: tuple[int, ...], count: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The ways to take `count` dice from groups of alike dice of these sizes, alike dice one
    way: (group, dice taken from it) per group used, in combinations_with_replacement's order."""
    takings = []
    for chosen in combinations_with_replacement(range(len(sizes)), count):
        taken = tuple(Counter(chosen).items())
        if all(sizes[group] >= n for group, n in taken):
            takings.append(taken)
    return tuple(takings)


def _selections(by_kind: dict, needs: tuple[tuple[str, int], ...]) -> list[tuple[int, ...]]:
    """GameState.selections from the player's groups of alike dice by the kind they count as,
    in their order, and a recipe's needs."""
    per_kind = []
    for kind, count in needs:
        groups = by_kind.get(kind)
        if groups is None:
            return []
        if len(groups) == 1:                   # one way, or none (_takings of one size)
            if len(groups[0]) < count:
                return []
            per_kind.append([groups[0][:count]])
            continue
        if count == 1:                         # the first die of each group (_takings of 1)
            per_kind.append([group[:1] for group in groups])
            continue
        takings = _takings(tuple([len(group) for group in groups]), count)
        if not takings:
            return []
        per_kind.append([[die for group, n in taking for die in groups[group][:n]] for taking in takings])
    if len(per_kind) == 1:
        return [tuple(sorted(option)) for option in per_kind[0]]
    return [tuple(sorted(chain.from_iterable(parts))) for parts in product(*per_kind)]


def _stack(cards: list[str]) -> list[str]:
    """A pile as JSON lists it, top first (the engine keeps the top at the end)."""
    return cards[::-1]


@dataclass
class GameState(State):
    box: Box
    names: list[str]
    rng: random.Random
    seats: list[Seat] = field(default_factory=list)
    block: list[int | None] = field(default_factory=lambda: [None] * CELLS)
    frame: list[int] = field(default_factory=list)           # used dice, waiting for a restock
    face: list[int] = field(default_factory=list)            # the number each die shows
    counts_as: dict[int, str] = field(default_factory=dict)  # dice the chef token changed the kind of
    recipe_deck: list[str] = field(default_factory=list)     # the top is the end
    recipe_discard: list[str] = field(default_factory=list)
    hype_deck: list[str] = field(default_factory=list)
    hype_discard: list[str] = field(default_factory=list)
    display: list[str] = field(default_factory=list)
    seat: int = 0
    phase: str = "cut"              # restock, cut, cook, draw, discard, last-cook, over
    turns: int = 0
    cooked_this_turn: int = 0
    ended_by: int | None = None     # the seat that cooked a 6th recipe
    extra_turns: list[int] | None = None   # seats still to take their one more turn
    last_cooks: list[int] | None = None    # seats still to cook once more, the first now
    # figures
    restocks: int = 0
    restocks_forced: int = 0
    chef_uses: int = 0
    reshuffles: int = 0
    cut_dice: int = 0
    cuts: int = 0
    # True: check_invariants checks every invariant after every action, not only what it changed
    full_checks: bool = False
    # The seat that played the last action, for check_invariants; None when the state changed
    # otherwise (a setup, a test).
    changed: int | None = field(default=None, repr=False, compare=False)
    # and that action, so that only what its kind can change is checked
    changed_by: tuple | None = field(default=None, repr=False, compare=False)

    @property
    def players(self) -> int:
        return len(self.names)

    # -- dice

    def kind_of(self, die: int) -> str:
        """The kind a die counts as: its own, or the one the chef token gave it."""
        return self.counts_as.get(die, self.box.dice[die])

    def die_label(self, die: int) -> str:
        own = self.box.dice[die]
        label = f"{own}:{self.face[die]}"
        return label if die not in self.counts_as else f"{label}={self.counts_as[die]}"

    def _roll(self, die: int) -> None:
        self.face[die] = self.rng.choice(self.box.faces)

    def form_block(self, dice: list[int]) -> None:
        """Roll the dice into the frame and pull it diagonally: they gather in the corner, row A
        first (decided: the rows fill from the corner in the order the dice fell)."""
        dice = list(dice)
        face, faces, choice = self.face, self.box.faces, self.rng.choice
        for die in dice:
            face[die] = choice(faces)          # as _roll does
        self.rng.shuffle(dice)
        self.block = dice + [None] * (CELLS - len(dice))

    def block_dice(self) -> list[int]:
        return [die for die in self.block if die is not None]

    def kinds_in_block(self) -> set[str]:
        own = self.box.dice
        return {own[die] for die in self.block if die is not None}

    def missing_kind(self) -> bool:
        return not self.kinds_in_block().issuperset(self.box.kinds)

    def restock(self) -> None:
        """Chef tokens return; the used dice and the block's rest are rolled into a new block."""
        for seat in self.seats:
            seat.chef = True
        dice = sorted(self.frame + self.block_dice())
        self.frame = []
        self.form_block(dice)
        self.restocks += 1

    # -- cuts

    def cuts_possible(self, limit: int | None = None) -> list[tuple[int, ...]]:
        """Every set of dice one straight cut separates, as ascending cells; with `limit`, only
        those totalling at most that.

        decided: a cut is the cleaver lowered into one straight gap of the grid, along any
        unbroken stretch of it, and pushed to one side: it moves the dice next to the blade on
        that side and everything beyond them in the same rows (or columns) to the block's edge.
        Every row (or column) the stretch crosses has a die next to the blade. The gap may be
        the block's own edge, where nothing lies beyond the blade: then whole rows (or
        columns) are pushed out. On a partial block the same holds: where the rows are of
        unequal length, the end of a row or a short column can be pushed off at its edge."""
        # Cells are bits of a number here, and a lane's total comes from its row's (or
        # column's) running sums: the cuts are those of pushing lane after lane as described.
        block, face = self.block, self.face
        value = [0 if die is None else face[die] for die in block]
        present = 0
        for cell, die in enumerate(block):
            if die is not None:
                present |= 1 << cell
        running = []
        for row in range(ROWS):
            running += accumulate(value[row * COLUMNS:(row + 1) * COLUMNS], initial=0)
        for column in range(COLUMNS):
            running += accumulate(value[column::COLUMNS], initial=0)
        found: set[int] = set()
        for lane_masks, lanes in FLAT_PUSH_LANES:
            count = len(lanes)
            # each lane's total, or None where no die lies beside the blade
            totals = [running[stop] - running[start] if present & near else None for near, start, stop in lanes]
            for first in range(count):
                if totals[first] is None:
                    continue
                total, last, cells = 0, first, 0
                while last < count and totals[last] is not None:
                    total += totals[last]
                    if limit is not None and total > limit:
                        break         # more lanes only add dice
                    cells |= lane_masks[last] & present
                    found.add(cells)
                    last += 1
        found.discard(present)
        return sorted([_cells_of(cells) for cells in found])

    def _cuts_within(self, present: int, limit: int) -> set[int]:
        """cuts_possible(limit) as bits, the whole block (`present`) left out. Each lane's dice
        are walked from the edge inward while their total stays within the limit; a lane of use
        extends the stretches its family's lane before it ended, and starts one of its own (a
        lane beyond the limit, or without a die beside the blade, ends every stretch through it)."""
        block, face = self.block, self.face
        found = set()
        add = found.add
        # per family: the last lane of use, and the stretches ending there as (total, cells)
        last = [-2] * FAMILIES
        ending: list = [None] * FAMILIES
        for lane_bits, walk in WALKS:
            if not present & lane_bits:
                continue                  # no die in this lane
            total = 0
            for cell, family, lane, beyond in walk:
                die = block[cell]
                if die is None:
                    continue
                total += face[die]
                if total > limit:
                    break
                cells = present & beyond
                add(cells)
                if last[family] != lane - 1:
                    last[family] = lane
                    ending[family] = ((total, cells),)
                    continue
                last[family] = lane
                stretches = [(total, cells)]
                for so_far, pushed in ending[family]:
                    so_far += total
                    if so_far <= limit:
                        pushed |= cells
                        add(pushed)
                        stretches.append((so_far, pushed))
                ending[family] = stretches
        found.discard(present)
        return found

    def cut_actions(self) -> list[tuple]:
        """The legal cuts as actions, in legal_cuts' order."""
        face = self.face
        present = total = 0
        for cell, die in enumerate(self.block):
            if die is not None:
                present |= CELL_BITS[cell]
                total += face[die]
        if total <= CUT_LIMIT:
            return [CUT_ACTIONS[present][1]]      # the whole block is taken, without a cut
        ordered = [CUT_ACTIONS[bits] for bits in self._cuts_within(present, CUT_LIMIT)]
        ordered.sort()
        return [action for _, action in ordered]

    def cut_total(self, cells) -> int:
        return sum(self.face[self.block[cell]] for cell in cells)

    def legal_cuts(self) -> list[tuple[int, ...]]:
        """The cuts_possible(CUT_LIMIT), or the whole block when it totals that or less."""
        return [cells for _, cells in self.cut_actions()]

    # -- cooking

    def groups(self, dice) -> dict[tuple, list[int]]:
        """The dice that are alike (own kind, number, the kind they count as), lowest first."""
        return self._grouped(sorted(dice))[0]

    def _grouped(self, dice) -> tuple[dict[tuple, list[int]], dict[str, list[list[int]]]]:
        """groups(dice) of ascending dice (a player's), and the same groups by the kind they
        count as, in their order."""
        alike: dict[tuple, list[int]] = {}
        by_kind: dict[str, list[list[int]]] = {}
        own, face, counts_as = self.box.dice, self.face, self.counts_as
        for die in dice:
            kind = own[die]
            counted = counts_as[die] if die in counts_as else kind
            key = (kind, face[die], counted)
            group = alike.get(key)
            if group is not None:
                group.append(die)
                continue
            group = alike[key] = [die]
            same = by_kind.get(counted)
            if same is None:
                by_kind[counted] = [group]
            else:
                same.append(group)
        return alike, by_kind

    def selections(self, alike: dict[tuple, list[int]], recipe: Recipe) -> list[tuple[int, ...]]:
        """Every distinct choice of the player's dice (`alike`: their groups) that cooks the
        recipe (alike dice are one choice: the lowest numbered of them are named)."""
        by_kind: dict[str, list[list[int]]] = {}
        for key, dice in alike.items():
            by_kind.setdefault(key[2], []).append(dice)
        return _selections(by_kind, recipe.needs)

    def cook_actions(self, by_kind: dict[str, list[list[int]]] | None = None) -> list[tuple]:
        seat = self.seats[self.seat]
        box, face = self.box, self.face
        if by_kind is None:
            by_kind = self._grouped(seat.dice)[1]
        chef, cooked = seat.chef, self.cooked_this_turn
        actions = []
        append = actions.append
        recipe_by_id = box.recipe_by_id
        tests = None                           # the hype cards' tests, once a recipe can be cooked
        for card in seat.recipes:
            recipe = recipe_by_id[card]
            for dice in _selections(by_kind, recipe.needs):
                append(("cook", card, dice, None))
                if tests is None:
                    hype_by_id = box.hype_by_id
                    tests = [(hype, hype_by_id[hype], hype_test(hype_by_id[hype])) for hype in seat.hype]
                if tests:
                    numbers = [face[die] for die in dice]
                    for hype, hype_card, test in tests:
                        if test(hype_card, recipe, numbers, chef, cooked):
                            append(("cook", card, dice, hype))
        return actions

    def chef_actions(self, alike: dict[tuple, list[int]] | None = None) -> list[tuple]:
        seat = self.seats[self.seat]
        if not seat.chef:
            return []
        if alike is None:
            alike = self.groups(seat.dice)
        moves = self.box.chef_moves
        actions = []
        for key in sorted(alike):
            die = alike[key][0]
            # the die's kind and number as the key says: kind_of(die) and face[die]
            found = moves.get((die, key[2], key[1]))
            if found is None:
                found = moves[die, key[2], key[1]] = (
                    tuple(("chef", die, "kind", kind) for kind in self.box.kinds if kind != key[2])
                    + tuple(("chef", die, "number", n) for n in NUMBERS if n != key[1]))
            actions += found
        return actions

    # -- the interface

    def current_player(self) -> int:
        return self.seat

    def find_actions(self) -> list:
        phase = self.phase
        if phase == "over":
            return []
        if phase == "restock":
            return [("restock", True), ("restock", False)]
        if phase == "cut":
            return self.cut_actions()
        if phase in ("cook", "last-cook"):
            alike, by_kind = self._grouped(self.seats[self.seat].dice)
            actions = self.cook_actions(by_kind)
            actions += self.chef_actions(alike)
            actions.append(DONE)
            return actions
        if phase == "draw":
            return self.draw_actions()
        if phase == "discard":
            return self.discard_actions()
        raise InvariantBroken(f"unknown phase {phase!r}")

    def draw_actions(self) -> list[tuple]:
        actions = []
        if self.hype_deck or self.hype_discard:
            actions.append(("draw", "hype"))
        if self.recipe_deck or self.recipe_discard:
            actions.append(("draw", "recipe"))
        actions += [("draw", "display", card) for card in sorted(set(self.display))]
        return actions

    def over_limits(self, seat: Seat) -> tuple[bool, bool, bool]:
        return len(seat.dice) > MAX_DICE, len(seat.recipes) > MAX_RECIPES, len(seat.hype) > MAX_HYPE

    def discard_actions(self) -> list[tuple]:
        seat = self.seats[self.seat]
        dice, recipes, hype = self.over_limits(seat)
        actions = []
        if dice:
            actions += [("discard", "die", alike[0]) for _, alike in sorted(self.groups(seat.dice).items())]
        if recipes:
            actions += [("discard", "recipe", card) for card in seat.recipes]
        if hype:
            actions += [("discard", "hype", card) for card in seat.hype]
        return actions

    def play(self, action) -> None:
        kind = action[0]
        self.changed, self.changed_by = self.seat, action
        seat = self.seats[self.seat]
        if kind == "restock":
            if action[1]:
                self.restock()
            self.phase = "cut"
        elif kind == "cut":
            for cell in action[1]:
                seat.dice.append(self.block[cell])
                self.block[cell] = None
            seat.dice.sort()
            self.cuts += 1
            self.cut_dice += len(action[1])
            self.phase = "cook"
        elif kind == "chef":
            _, die, what, value = action
            if what == "kind":
                if value == self.box.dice[die]:
                    self.counts_as.pop(die, None)
                else:
                    self.counts_as[die] = value
            else:
                self.face[die] = value
            seat.chef = False
            self.chef_uses += 1
        elif kind == "cook":
            self._cook(seat, action)
        elif action == DONE:
            if self.phase == "last-cook":
                self._next_last_cook()
            else:
                self.phase = "draw"
                if not self.draw_actions():
                    self._to_limits()
        elif kind == "draw":
            self._draw(seat, action)
            self._to_limits()
        elif kind == "discard":
            _, what, item = action
            if what == "die":
                seat.dice.remove(item)
                self._to_frame(item)
            elif what == "recipe":
                seat.recipes.remove(item)
                self.recipe_discard.append(item)
                self.top_up_display()
            else:
                seat.hype.remove(item)
                self.hype_discard.append(item)
            self._to_limits()

    def _to_frame(self, die: int) -> None:
        self.counts_as.pop(die, None)
        self.frame.append(die)

    def _cook(self, seat: Seat, action) -> None:
        _, card, dice, hype = action
        for die in dice:
            seat.dice.remove(die)
            self._to_frame(die)
        seat.recipes.remove(card)
        seat.cooked.append(card)
        if hype is not None:
            seat.hype.remove(hype)
            seat.played.append((hype, card))
        self.cooked_this_turn += 1
        if len(seat.cooked) >= RECIPES_TO_END and self.ended_by is None:
            self.ended_by = self.seat

    def _refill(self, deck: list[str], discard: list[str]) -> None:
        """A deck that runs out is the shuffled discards."""
        if not deck and discard:
            deck.extend(discard)
            discard.clear()
            self.rng.shuffle(deck)
            self.reshuffles += 1

    def take_recipe(self) -> str | None:
        self._refill(self.recipe_deck, self.recipe_discard)
        return self.recipe_deck.pop() if self.recipe_deck else None

    def take_hype(self) -> str | None:
        self._refill(self.hype_deck, self.hype_discard)
        return self.hype_deck.pop() if self.hype_deck else None

    def top_up_display(self) -> None:
        """decided: an empty place in the display is filled as soon as the deck (or its
        reshuffled discards) has a card for it."""
        while len(self.display) < DISPLAY:
            card = self.take_recipe()
            if card is None:
                return
            self.display.append(card)

    def _draw(self, seat: Seat, action) -> None:
        if action[1] == "hype":
            seat.hype.append(self.take_hype())
        elif action[1] == "recipe":
            seat.recipes.append(self.take_recipe())
        else:
            self.display.remove(action[2])
            seat.recipes.append(action[2])
        self.top_up_display()

    def _to_limits(self) -> None:
        """The end of the turn: discard down to the limits, then the next turn."""
        if any(self.over_limits(self.seats[self.seat])):
            self.phase = "discard"
        else:
            self._end_turn()

    # -- turns and the end

    def begin_turn(self, seat: int) -> None:
        self.seat = seat
        self.turns += 1
        self.cooked_this_turn = 0
        present = self.kinds_in_block()
        if not present:
            self.restock()                  # an empty block must be restocked
            self.restocks_forced += 1
            self.phase = "cut"
        elif not present.issuperset(self.box.kinds):       # missing_kind
            self.phase = "restock"
        else:
            self.phase = "cut"

    def _end_turn(self) -> None:
        if self.ended_by is None:
            self.begin_turn((self.seat + 1) % self.players)
            return
        if self.extra_turns is None:
            # The player who cooked the 6th recipe has finished the turn: one more turn each.
            self.extra_turns = [(self.ended_by + step) % self.players for step in range(1, self.players)]
        if self.extra_turns:
            self.begin_turn(self.extra_turns.pop(0))
            return
        # decided: the last chance to cook goes round from the player after the one who ended
        # the game, that player last.
        self.last_cooks = [(self.ended_by + step) % self.players for step in range(1, self.players + 1)]
        self._start_last_cook()

    def _start_last_cook(self) -> None:
        self.seat = self.last_cooks[0]
        self.cooked_this_turn = 0
        self.phase = "last-cook"

    def _next_last_cook(self) -> None:
        self.last_cooks.pop(0)
        if self.last_cooks:
            self._start_last_cook()
        else:
            self.phase = "over"

    def is_terminal(self) -> bool:
        return self.phase == "over"

    # -- scoring

    def score(self, seat: Seat) -> int:
        cooked = [self.box.recipe(card) for card in seat.cooked]
        return sum(recipe.points for recipe in cooked) + sum(
            hype_points(self.box.hype_card(hype), cooked, len(seat.played)) for hype, _ in seat.played)

    def scores(self) -> list[int]:
        return [self.score(seat) for seat in self.seats]

    def winners(self) -> list[int]:
        scores = self.scores()
        return [index for index, score in enumerate(scores) if score == max(scores)]

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.players
        winners = self.winners()
        return [1.0 / len(winners) if index in winners else 0.0 for index in range(self.players)]

    # -- refusals

    def why_illegal(self, action) -> str:
        name = self.names[self.seat]
        phase = self.phase
        if phase == "over":
            return "the game is over"
        kind = action[0] if isinstance(action, tuple) and action else None
        step = {"restock": f"{name} first decides whether to restock the block",
                "cut": f"{name} must first cut dice off the block",
                "cook": f"{name} is cooking (cook, chef or done)",
                "last-cook": f"{name} may only cook once more (cook, chef or done)",
                "draw": f"{name} must draw one card",
                "discard": f"{name} must discard down to {MAX_DICE} dice, {MAX_RECIPES} recipes and "
                           f"{MAX_HYPE} hype cards"}[phase]
        allowed = {"restock": {"restock"}, "cut": {"cut"}, "cook": {"cook", "chef", "done"},
                   "last-cook": {"cook", "chef", "done"}, "draw": {"draw"}, "discard": {"discard"}}[phase]
        if kind not in allowed:
            if kind == "restock" and phase == "cut" and not self.missing_kind():
                return f"{name} may restock only when an ingredient kind is missing from the block"
            return step
        seat = self.seats[self.seat]
        if kind == "cut":
            return self._why_cut(action[1])
        if kind == "chef":
            if not seat.chef:
                return f"{name}'s chef token is already spent"
            if action[1] not in seat.dice:
                return f"{name} does not have this die"
            return f"the chef token changes one of {name}'s dice to another kind or number"
        if kind == "cook":
            return self._why_cook(seat, action)
        if kind == "draw":
            if action[1] == "display":
                return f"{action[2]} is not in the display {self.display}"
            return f"no {action[1]} card is left to draw"
        if kind == "discard":
            dice, recipes, hype = self.over_limits(seat)
            over = {"die": dice, "recipe": recipes, "hype": hype}.get(action[1])
            if not over:
                return f"{name} keeps {len(seat.dice)} dice, {len(seat.recipes)} recipes and {len(seat.hype)} hype cards: no {action[1]} is over the limit"
            return f"{name} has no such {action[1]}"
        return step

    def _why_cut(self, cells) -> str:
        whole = tuple(cell for cell in range(CELLS) if self.block[cell] is not None)
        if any(self.block[cell] is None for cell in cells):
            empty = [CELL_NAMES[cell] for cell in cells if self.block[cell] is None]
            return f"no die lies on {', '.join(empty)}"
        total = self.cut_total(cells)
        if self.cut_total(whole) <= CUT_LIMIT:
            return f"the whole block totals {self.cut_total(whole)}, {CUT_LIMIT} or less: it is taken whole, without a cut"
        if tuple(cells) not in self.cuts_possible():
            return "one straight cut does not separate just these dice"
        return f"the dice cut off total {total}, more than {CUT_LIMIT}"

    def _why_cook(self, seat: Seat, action) -> str:
        _, card, dice, hype = action
        name = self.names[self.seat]
        if card not in seat.recipes:
            return f"{card} is not among {name}'s recipes {seat.recipes}"
        if hype is not None and hype not in seat.hype:
            return f"{hype} is not in {name}'s hand"
        recipe = self.box.recipe(card)
        if any(die not in seat.dice for die in dice):
            return f"{name} does not have these dice"
        counted = Counter(self.kind_of(die) for die in dice)
        if counted != Counter(recipe.need):
            needs = ", ".join(f"{n} {kind}" for kind, n in recipe.needs)
            has = ", ".join(f"{n} {kind}" for kind, n in sorted(counted.items()))
            return f"{card} needs {needs}, the dice are {has}"
        return f"the condition of {hype} does not hold for these dice"

    # -- invariants and figures

    def check_invariants(self) -> None:
        actor, self.changed = self.changed, None
        action, self.changed_by = self.changed_by, None
        if (actor is None or self.full_checks or self.phase == "over"
                or (self.turns % FULL_CHECK_EVERY == 0 and self.phase in ("restock", "cut"))):
            return super().check_invariants()
        if not self._changed_holds(actor, action):
            self.check_rules()
            raise InvariantBroken(f"{_Where(self)}: the last action broke the dice, the cards, the limits or the end")
        if not self.legal_actions():
            raise InvariantBroken(f"{self.names[self.seat]} can do nothing but play goes on")

    def _changed_holds(self, actor: int, action: tuple | None = None) -> bool:
        """Whether what `action` of `actor` (None: any action) can change keeps the invariants
        check_rules checks: as many dice and cards as the box holds, the numbers the dice show,
        the dice the chef token changed still held, the display, the actor's dice, limits and
        hype, and the end. A chef token changes one die; a cut moves dice from the block to the
        actor; a restock rolls the block; stopping to cook before the draw changes the phase
        alone. Cooking, drawing, discarding and the end of a turn may change any of them."""
        kind = action[0] if action else None
        seats = self.seats
        if kind == "chef":
            die = action[1]
            return die in seats[actor].dice and self.face[die] in self.box.face_numbers
        if kind == "done" and self.phase == "draw":
            return True
        box, counts_as = self.box, self.counts_as
        dice = len(self.frame) + CELLS - self.block.count(None)
        for seat in seats:
            dice += len(seat.dice)
        if dice != len(box.dice):
            return False
        if kind == "cut":
            dice = seats[actor].dice
            return dice == sorted(dice)
        if not box.face_numbers.issuperset(self.face):
            return False
        if kind == "restock":
            return True
        recipes = len(self.recipe_deck) + len(self.recipe_discard) + len(self.display)
        hype = len(self.hype_deck) + len(self.hype_discard)
        most_cooked = 0
        for seat in seats:
            cooked = len(seat.cooked)
            recipes += len(seat.recipes) + cooked
            hype += len(seat.hype) + len(seat.played)
            if cooked > most_cooked:
                most_cooked = cooked
        if recipes != len(box.recipes) or hype != len(box.hype):
            return False
        # a die leaves a hand for the frame (and, when the block is formed anew, the block)
        if counts_as and not (counts_as.keys().isdisjoint(self.frame) and counts_as.keys().isdisjoint(self.block)):
            return False
        shown = len(self.display)
        if shown > DISPLAY or (shown < DISPLAY and (self.recipe_deck or self.recipe_discard)):
            return False
        seat = seats[actor]
        if ((len(seat.dice) > MAX_DICE or len(seat.recipes) > MAX_RECIPES or len(seat.hype) > MAX_HYPE)
                and not (actor == self.seat and self.phase in ("cook", "draw", "discard"))):
            return False
        if seat.dice != sorted(seat.dice):
            return False
        for _, recipe in seat.played:
            if recipe not in seat.cooked:
                return False
        return (self.ended_by is None) == (most_cooked < RECIPES_TO_END)

    def check_rules(self) -> None:
        where = _Where(self)
        box = self.box
        places = [die for die in self.block if die is not None] + self.frame
        for seat in self.seats:
            places += seat.dice
        if len(places) != len(box.dice) or set(places) != box.die_numbers:
            doubled = sorted(die for die, n in Counter(places).items() if n > 1)
            missing = sorted(box.die_numbers - set(places))
            raise InvariantBroken(f"{where}: every one of the {len(box.dice)} dice is somewhere once; "
                                  f"missing {missing}, doubled {doubled}")
        if not box.face_numbers.issuperset(self.face):
            raise InvariantBroken(f"{where}: a die shows a number none of its faces has")
        if self.counts_as:
            held = {die for seat in self.seats for die in seat.dice}
            if any(die not in held for die in self.counts_as):
                raise InvariantBroken(f"{where}: a die the chef token changed is no longer with a player")
        # every card is one of a kind (the box says so), so each is somewhere exactly once
        # when the places hold as many cards as the box and every one of them
        recipes = self.recipe_deck + self.recipe_discard + self.display
        hype = self.hype_deck + self.hype_discard
        for seat in self.seats:
            recipes += seat.recipes
            recipes += seat.cooked
            hype += seat.hype
            hype += [h for h, _ in seat.played]
        if len(recipes) != len(box.recipes) or set(recipes) != box.recipe_by_id.keys():
            raise InvariantBroken(f"{where}: recipe cards created or lost: {sorted(Counter(recipes) - Counter(list(box.recipe_by_id)))}"
                                  f" extra, {sorted(Counter(list(box.recipe_by_id)) - Counter(recipes))} missing")
        if len(hype) != len(box.hype) or set(hype) != box.hype_by_id.keys():
            raise InvariantBroken(f"{where}: hype cards created or lost: {sorted(Counter(hype) - Counter(list(box.hype_by_id)))}"
                                  f" extra, {sorted(Counter(list(box.hype_by_id)) - Counter(hype))} missing")
        if len(self.display) > DISPLAY or (len(self.display) < DISPLAY and (self.recipe_deck or self.recipe_discard)):
            raise InvariantBroken(f"{where}: the display holds {len(self.display)} recipes with cards left to fill it")
        for index, seat in enumerate(self.seats):
            if any(self.over_limits(seat)) and not (index == self.seat and self.phase in ("cook", "draw", "discard")):
                raise InvariantBroken(f"{where}: {self.names[index]} keeps {len(seat.dice)} dice, "
                                      f"{len(seat.recipes)} recipes, {len(seat.hype)} hype cards")
            for hype_card, recipe_card in seat.played:
                if recipe_card not in seat.cooked:
                    raise InvariantBroken(f"{where}: {hype_card} went with {recipe_card}, which was not cooked")
            if seat.dice != sorted(seat.dice):
                raise InvariantBroken(f"{where}: {self.names[index]}'s dice are out of order")
        cooked = [len(seat.cooked) for seat in self.seats]
        if (self.ended_by is None) != (max(cooked) < RECIPES_TO_END):
            raise InvariantBroken(f"{where}: recipes cooked {cooked}, the end {'not ' if self.ended_by is None else ''}triggered")

    def stats(self) -> dict[str, Any]:
        scores = self.scores()
        recipes = Counter(card for seat in self.seats for card in seat.cooked)
        hype = Counter(card for seat in self.seats for card, _ in seat.played)
        return {
            "turns": self.turns, "rounds": self.turns / self.players,
            "winning_score": max(scores), "score_spread": max(scores) - min(scores),
            "recipes_cooked": sum(recipes.values()), "hype_played": sum(hype.values()),
            "chef_uses": self.chef_uses, "restocks": self.restocks,
            "restocks_forced": self.restocks_forced, "dice_per_cut": self.cut_dice / max(1, self.cuts),
            "reshuffles": self.reshuffles,
            "result": "shared win" if len(self.winners()) > 1 else "one winner",
            "recipes": {card: recipes.get(card, 0) for card in sorted({r.id for r in self.box.recipes})},
            "hype": {card: hype.get(card, 0) for card in sorted({h for h, _ in self.box.hype})},
        }

    def to_json(self) -> dict:
        terminal = self.phase == "over"
        scores = self.scores()
        return {
            "players": self.players,
            "phase": self.phase,
            "terminal": terminal,
            "current": None if terminal else self.names[self.seat],
            "turns": self.turns,
            "cooked_this_turn": self.cooked_this_turn,
            "block": {CELL_NAMES[cell]: None if die is None else self.die_label(die)
                      for cell, die in enumerate(self.block)},
            "block_dice": len(self.block_dice()),
            "block_total": sum(self.face[die] for die in self.block_dice()),
            "frame": sorted(self.die_label(die) for die in self.frame),
            "frame_dice": len(self.frame),
            "seats": {name: {
                "seat": index + 1,
                "dice": [self.die_label(die) for die in seat.dice],
                "recipes": list(seat.recipes),
                "hype": list(seat.hype),
                "cooked": list(seat.cooked),
                "played_hype": [{"hype": h, "recipe": r} for h, r in seat.played],
                "chef": seat.chef,
                "score": scores[index],
            } for index, (name, seat) in enumerate(zip(self.names, self.seats))},
            "display": list(self.display),
            "recipe_deck": _stack(self.recipe_deck),
            "recipe_discard": _stack(self.recipe_discard),
            "hype_deck": _stack(self.hype_deck),
            "hype_discard": _stack(self.hype_discard),
            "ended_by": None if self.ended_by is None else self.names[self.ended_by],
            "extra_turns": None if self.extra_turns is None else [self.names[s] for s in self.extra_turns],
            "last_cooks": None if self.last_cooks is None else [self.names[s] for s in self.last_cooks],
            "winners": [self.names[s] for s in self.winners()] if terminal else None,
            "restocks": self.restocks, "chef_uses": self.chef_uses, "reshuffles": self.reshuffles,
        }


def deal_cards(state: GameState, box: Box, rng: random.Random) -> None:
    """Shuffle both decks; deal a hype card and two recipes to each player, then the display."""
    state.recipe_deck = [recipe.id for recipe in box.recipes]
    state.hype_deck = [card for card, _ in box.hype]
    rng.shuffle(state.recipe_deck)
    rng.shuffle(state.hype_deck)
    for seat in state.seats:
        seat.hype = [state.hype_deck.pop() for _ in range(HYPE_EACH)]
    for seat in state.seats:
        seat.recipes = [state.recipe_deck.pop() for _ in range(RECIPES_EACH)]
    state.display = [state.recipe_deck.pop() for _ in range(DISPLAY)]
