"""How seats choose in simulation: at random, or by a heuristic a careful cook would use.

The heuristic sees what a player sees: the block, its own dice, recipes and hype cards, the
display. It cuts the dice that bring its recipes closest to cooked, cooks whenever it can
(the most points first, with the hype card worth most), spends the chef token when that lets
a recipe be cooked now, draws the recipe it is closest to, and throws away what it needs least.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from operator import attrgetter

from .state import DONE, GameState, Seat, hype_points

PARTIAL = 0.45            # what a recipe one die short is worth, as a share of its points
DIE_BONUS = 0.05          # a die in hand is worth a little even when no recipe needs it yet
CHEF_REACH = 1            # the chef token can make up one missing die
_POINTS = attrgetter("points")


def missing(need: dict[str, int], have: Mapping[str, int]) -> int:
    """Dice of `need` that `have` (dice by kind) lacks."""
    short = 0
    for kind, count in need.items():
        lacking = count - have.get(kind, 0)
        if lacking > 0:
            short += lacking
    return short


def pool_value(state: GameState, recipes: list[str], have: Mapping[str, int], chef: bool) -> float:
    """How close a player with these dice (by kind) is to cooking its recipes, in expected points."""
    return _pool_value(by_points(state, recipes), have, chef)


def by_points(state: GameState, recipes: list[str]) -> list:
    """The recipes, the most points first (a stable sort: equal points keep their order)."""
    recipe_of = state.box.recipe_by_id
    return sorted([recipe_of[card] for card in recipes], key=_POINTS, reverse=True)


def _pool_value(ordered: list, have: Mapping[str, int], chef: bool) -> float:
    """pool_value of recipes already in order: the policy weighs every cut by it, over plain dicts."""
    value = 0.0
    spare = chef
    held = sum(have.values())
    for recipe in ordered:
        short = missing(recipe.need, have)
        if short and spare and short <= CHEF_REACH and held > sum(recipe.need.values()) - short:
            short, spare = short - CHEF_REACH, False
        value += recipe.points * PARTIAL ** short
    return value + DIE_BONUS * min(held, 8)


def counted(state: GameState, dice) -> dict[str, int]:
    """The dice by the kind each counts as (GameState.kind_of)."""
    return _with({}, add=[state.kind_of(die) for die in dice])


def _with(have: Mapping[str, int], add=(), take=()) -> dict[str, int]:
    """`have` (dice by kind) with a die more of each kind in `add`, one less of each in `take`."""
    after = dict(have)
    for kind in add:
        after[kind] = after.get(kind, 0) + 1
    for kind in take:
        after[kind] = after.get(kind, 0) - 1
    return after


def hype_value(state: GameState, seat: Seat, hype: str | None, recipe: str) -> float:
    if hype is None:
        return 0.0
    cooked = [state.box.recipe(card) for card in seat.cooked + [recipe]]
    return hype_points(state.box.hype_card(hype), cooked, len(seat.played) + 1)


def choose_cut(state: GameState, actions: list) -> tuple:
    """The first cut (in the engine's order) of those whose dice help the recipes most."""
    seat = state.seats[state.seat]
    have = counted(state, seat.dice)
    dice, block = state.box.dice, state.block
    ordered = by_points(state, seat.recipes)
    best, best_value = actions[0], None
    values: dict[tuple, float] = {}       # many cuts bring the same kinds
    for action in actions:
        kinds = tuple(sorted([dice[block[cell]] for cell in action[1]]))
        value = values.get(kinds)
        if value is None:
            value = values[kinds] = _pool_value(ordered, _with(have, add=kinds), seat.chef)
        if best_value is None or value > best_value + 1e-9:
            best, best_value = action, value
    return best


def choose_cook(state: GameState, actions: list):
    seat = state.seats[state.seat]
    cooks = [action for action in actions if action[0] == "cook"]
    if cooks:
        def worth(action):
            _, card, dice, hype = action
            left = counted(state, [die for die in seat.dice if die not in dice])
            rest = [other for other in seat.recipes if other != card]
            return (state.box.recipe(card).points + hype_value(state, seat, hype, card)
                    + pool_value(state, rest, left, seat.chef) * 0.1
                    - 0.01 * sum(state.face[die] for die in dice))
        return max(cooks, key=worth)
    chefs = [action for action in actions if action[0] == "chef" and action[2] == "kind"]
    if chefs:
        have = counted(state, seat.dice)
        best, best_points = None, 0
        for action in chefs:
            _, die, _, kind = action
            after = _with(have, add=[kind], take=[state.kind_of(die)])
            for card in seat.recipes:
                recipe = state.box.recipe(card)
                if not missing(recipe.need, after) and recipe.points > best_points:
                    best, best_points = action, recipe.points
        if best is not None:
            return best
    return DONE


def choose_draw(state: GameState, actions: list):
    seat = state.seats[state.seat]
    have = counted(state, seat.dice)
    display = [action for action in actions if action[1] == "display"]
    if ("draw", "hype") in actions and not seat.hype:
        return ("draw", "hype")
    if len(seat.recipes) < 2 and display:
        return max(display, key=lambda action: pool_value(state, [action[2]], have, seat.chef))
    if len(seat.recipes) < 2 and ("draw", "recipe") in actions:
        return ("draw", "recipe")
    if ("draw", "hype") in actions and len(seat.hype) < 2:
        return ("draw", "hype")
    if display:
        return max(display, key=lambda action: pool_value(state, [action[2]], have, seat.chef))
    return actions[0]


def choose_discard(state: GameState, actions: list):
    seat = state.seats[state.seat]
    have = counted(state, seat.dice)
    if actions[0][1] == "die":
        def kept(action):
            return pool_value(state, seat.recipes, _with(have, take=[state.kind_of(action[2])]), seat.chef)
        return max(actions, key=kept)
    if actions[0][1] == "recipe":
        return max(actions, key=lambda action: pool_value(
            state, [card for card in seat.recipes if card != action[2]], have, seat.chef))
    # keep the hype cards that score whatever the dice: the conditional ones go first
    return min(actions, key=lambda action: (state.box.hype_card(action[2]).condition == "always",
                                            state.box.hype_card(action[2]).points))


def heuristic_policy(state: GameState, rng: random.Random):
    actions = state.legal_actions()
    phase = state.phase
    if phase == "restock":
        seat = state.seats[state.seat]
        present = Counter(state.box.dice[die] for die in state.block_dice())
        needed = {kind for card in seat.recipes for kind in state.box.recipe(card).need}
        small = len(state.block_dice()) < 8
        return ("restock", small or any(present[kind] == 0 for kind in needed))
    if phase == "cut":
        return choose_cut(state, actions)
    if phase in ("cook", "last-cook"):
        return choose_cook(state, actions)
    if phase == "draw":
        return choose_draw(state, actions)
    return choose_discard(state, actions)
