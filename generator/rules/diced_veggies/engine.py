"""Diced Veggies' ENGINE: a new game dealt as the rules say, and scenario support: a position
from a scenario's `setup`, and actions written in YAML (the generic format is in
docs/scenarios.md).

setup:
  players:                                  # a number (a game dealt from the seed) or, in turn order:
    - name: Аня
      dice: [mushroom:3, carrot:2, tomato:6=carrot]   # kind:number, =kind when the chef token changed it
      recipes: [recipe-01, recipe-16]       # face up before the player (at most 2 at a turn's start)
      hype: [hype-01]                       # held secretly
      cooked: [recipe-11]                   # recipes cooked before
      played_hype: [{hype: hype-20, recipe: recipe-11}]
      chef: false                           # the chef token is spent (default: at hand)
    - {name: Борис}                         # without recipes/hype: dealt 2 recipes and 1 hype
  block: {A1: mushroom:3, A2: tomato:6}     # the block's dice by cell (rows A-E, columns 1-7);
                                            # without it, every die nobody holds forms the block
  frame: [carrot:4]                         # used dice; with `block`, every unlisted die is here
  display: [recipe-30, recipe-31, recipe-32]   # without it, 3 dealt from the deck
  recipe_deck: [recipe-40]                  # the tops of the decks, first drawn first; the cards
  hype_deck: [hype-05]                      # nobody listed are shuffled under them
  recipe_discard: []                        # the discards, top first
  hype_discard: []
  rest: deck                                # the cards nobody listed: under the decks, or discard
  current: Аня                              # whose turn begins (default: the first player)
  phase: cook                               # start (default: the turn begins, restocking if the
                                            # rules say), cut or cook (the cut is made)

Actions:
  {restock: true}  {restock: false}
  {cut: [A6, A7]}                            # the cells of the dice cut off
  {chef: mushroom:3, kind: carrot}   {chef: mushroom:3, number: 6}
  {cook: recipe-16, dice: [tomato:6, tomato:2, carrot:2], hype: hype-01}   # hype optional
  {done: true}                               # stop cooking
  {draw: hype}  {draw: recipe}  {draw: recipe-31}   # the deck, or a recipe of the display
  {discard: carrot:2}  {discard: recipe-01}  {discard: hype-01}
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping

from ..claims import Beats
from ..engine import Engine, ScenarioError, Table, one_name, random_policy
from ..fields import Flag, Given, Kind, OneOf, Player
from ..pool import CardPool
from .design import MAX_DICE, MAX_HYPE, MAX_RECIPES, NUMBERS, SPEC
from .policies import heuristic_policy
from .state import CELL_NAMES, CELLS, DONE, Box, GameState, Seat, box_from_game, deal_cards


class DicedVeggiesEngine(Engine):
    spec = SPEC
    policies = {"random": random_policy, "heuristic": heuristic_policy}
    max_actions = 5_000
    # Hype cards are held and played face down; the decks lie face down. Dice, recipes in
    # front of the players and cooked recipes are in plain view.
    hidden = {"seats.*.hype": "owner", "seats.*.played_hype": "owner", "recipe_deck": "nobody",
              "hype_deck": "nobody"}
    setup_fields = {**dict.fromkeys(("block", "frame", "display", "recipe_deck", "hype_deck", "recipe_discard",
                                     "hype_discard"), Given()),
                    "rest": OneOf(("deck", "discard"), "rest is deck (unlisted cards go under the decks) or discard "
                                  "(into the discards)", default="deck"),
                    "current": Player(),
                    "phase": OneOf(("start", "cut", "cook"), "phase is start (the turn begins), cut or cook",
                                   default="start")}
    seat_fields = {**dict.fromkeys(("dice", "recipes", "hype", "cooked", "played_hype"), Given()),
                   "chef": Flag("chef is true (the token is at hand) or false (spent)", default=True)}
    action_kinds = {"restock": Kind(value=Flag("restock is true or false")), "cut": Kind(),
                    "chef": Kind(takes=("kind", "number")), "cook": Kind(takes=("dice", "hype")),
                    "done": Kind(value=Flag("stopping to cook is {done: true}", only=True)),
                    "draw": Kind(), "discard": Kind()}
    action_example = "{player: Аня, cut: [A6, A7]} or {cook: recipe-16, dice: [tomato:6, tomato:2, carrot:2]}"
    # One heuristic seat wins most games among random ones (a third would be chance).
    claims = (Beats("heuristic", "random", players=3, games=12, share=0.6),)

    def box(self, game, edition: str) -> Box:
        return box_from_game(game, edition)

    def _new_state(self, box: Box, table: Table, rng: random.Random) -> GameState:
        state = GameState(box, list(table.names), rng, seats=[Seat() for _ in table.names])
        state.face = [box.faces[0]] * len(box.dice)
        return state

    def deal(self, box: Box, table: Table, rng: random.Random, options: dict) -> GameState:
        state = self._new_state(box, table, rng)
        state.form_block(list(range(len(box.dice))))     # the first block: no restock yet
        deal_cards(state, box, rng)
        state.begin_turn(0)
        return state

    # -- a scenario's position

    def position(self, setup: Mapping, box: Box, table: Table, listed: list, rng: random.Random,
                 options: dict) -> GameState:
        state = self._new_state(box, table, rng)
        free = {kind: [die for die, own in enumerate(box.dice) if own == kind] for kind in box.kinds}

        def die_from(label, path: tuple, held: bool) -> int:
            kind, number, counts_as = parse_label(label, box, path, held)
            if not free[kind]:
                raise ScenarioError(f"the box has only {box.dice.count(kind)} {kind} dice", path)
            die = free[kind].pop(0)
            state.face[die] = number
            if counts_as is not None and counts_as != kind:
                state.counts_as[die] = counts_as
            return die

        recipes = _pool(box, [recipe.id for recipe in box.recipes], "recipe")
        hype = _pool(box, [card for card, _ in box.hype], "hype")

        dealt_later = []
        for index, (path, entry) in enumerate(listed):
            seat = state.seats[index]
            dice = entry.get("dice", [])
            if not isinstance(dice, list):
                raise ScenarioError("dice is a list such as [mushroom:3, carrot:2]", path + ("dice",))
            seat.dice = sorted(die_from(label, path + ("dice", i), True) for i, label in enumerate(dice))
            seat.recipes = recipes.take(entry.get("recipes", []), path + ("recipes",))
            seat.hype = hype.take(entry.get("hype", []), path + ("hype",))
            seat.cooked = recipes.take(entry.get("cooked", []), path + ("cooked",))
            played = entry.get("played_hype", [])
            if not isinstance(played, list):
                raise ScenarioError("played_hype is a list of {hype: ..., recipe: ...}", path + ("played_hype",))
            for i, item in enumerate(played):
                where = path + ("played_hype", i)
                if not isinstance(item, Mapping) or set(item) != {"hype", "recipe"}:
                    raise ScenarioError("a played hype card is {hype: ..., recipe: ...}", where)
                if item["recipe"] not in seat.cooked:
                    raise ScenarioError(f"{item['recipe']} is not among the player's cooked recipes", where + ("recipe",))
                if item["recipe"] in [r for _, r in seat.played]:
                    raise ScenarioError("one hype card per recipe", where + ("recipe",))
                hype.take([item["hype"]], where + ("hype",))
                seat.played.append((item["hype"], item["recipe"]))
            seat.chef = entry["chef"]
            if len(seat.dice) > MAX_DICE or len(seat.recipes) > MAX_RECIPES or len(seat.hype) > MAX_HYPE:
                raise ScenarioError(f"a player keeps at most {MAX_DICE} dice, {MAX_RECIPES} recipes and "
                                    f"{MAX_HYPE} hype cards between turns", path)
            if "recipes" not in entry and "hype" not in entry:
                dealt_later.append(seat)

        frame = setup.get("frame", [])
        if not isinstance(frame, list):
            raise ScenarioError("frame is a list of dice such as [carrot:4]", ("frame",))
        state.frame = [die_from(label, ("frame", i), False) for i, label in enumerate(frame)]
        rest = [die for kind in box.kinds for die in free[kind]]
        if "block" in setup:
            block = setup["block"]
            if not isinstance(block, Mapping):
                raise ScenarioError("block is a mapping from cells (A1-E7) to dice", ("block",))
            for cell, label in block.items():
                if cell not in CELL_NAMES:
                    raise ScenarioError(f"no cell {cell!r} (rows A-E, columns 1-7)", ("block", cell))
                if label is not None:
                    die = die_from(label, ("block", cell), False)
                    rest.remove(die)
                    state.block[CELL_NAMES.index(cell)] = die
            for die in rest:
                state._roll(die)
            state.frame += rest
        else:
            state.form_block(rest)

        display = recipes.take(setup.get("display", []), ("display",))
        recipe_deck = recipes.take(setup.get("recipe_deck", []), ("recipe_deck",))
        recipe_discard = recipes.take(setup.get("recipe_discard", []), ("recipe_discard",))
        hype_deck = hype.take(setup.get("hype_deck", []), ("hype_deck",))
        hype_discard = hype.take(setup.get("hype_discard", []), ("hype_discard",))
        if len(display) > 3:
            raise ScenarioError("the display holds 3 recipes", ("display",))
        recipes_left, hype_left = recipes.rest(), hype.rest()
        rng.shuffle(recipes_left)
        rng.shuffle(hype_left)
        # the engine keeps a pile's top at its end; a scenario lists the top first
        under_deck = setup["rest"] == "deck"
        state.recipe_deck = (recipes_left if under_deck else []) + recipe_deck[::-1]
        state.hype_deck = (hype_left if under_deck else []) + hype_deck[::-1]
        state.recipe_discard = ([] if under_deck else recipes_left) + recipe_discard[::-1]
        state.hype_discard = ([] if under_deck else hype_left) + hype_discard[::-1]
        for seat in dealt_later:
            seat.hype = [state.take_hype()]
            seat.recipes = [state.take_recipe(), state.take_recipe()]
        state.display = display
        if "display" not in setup:
            state.top_up_display()
        if len(state.display) < 3 and (state.recipe_deck or state.recipe_discard):
            raise ScenarioError("the display holds 3 recipes while the deck has cards", ("display",))
        cooked = [len(seat.cooked) for seat in state.seats]
        if max(cooked) >= 6:
            raise ScenarioError("a player with 6 cooked recipes has ended the game; list at most 5", ("players",))

        seat, phase = setup["current"], setup["phase"]
        if phase == "start":
            state.begin_turn(seat)
        else:
            state.seat, state.turns, state.phase = seat, 1, phase
            if phase == "cut" and not state.block_dice():
                raise ScenarioError("an empty block is restocked when the turn begins: phase start", ("phase",))
        return state

    # -- actions

    def parse_action(self, state: GameState, key: str, data, seat: int) -> tuple:
        value = data[key]
        if key in ("cook", "draw", "discard"):
            one_name(value, (key,), key, {"cook": "recipe-16", "draw": "hype", "discard": "carrot:2"}[key])
        player = state.seats[seat]
        if key == "restock":
            return ("restock", value)
        if key == "done":
            return DONE
        if key == "cut":
            if value == "all":
                return ("cut", tuple(cell for cell in range(CELLS) if state.block[cell] is not None))
            if not isinstance(value, list) or not value:
                raise ScenarioError("cut lists the cells of the dice cut off, such as [A6, A7]", ("cut",))
            cells = []
            for index, cell in enumerate(value):
                if cell not in CELL_NAMES:
                    raise ScenarioError(f"no cell {cell!r} (rows A-E, columns 1-7)", ("cut", index))
                cells.append(CELL_NAMES.index(cell))
            if len(set(cells)) != len(cells):
                raise ScenarioError("a cell is named twice", ("cut",))
            return ("cut", tuple(sorted(cells)))
        if key == "chef":
            [die] = held_dice(state, player, [value], ("chef",), listed=False)
            ways = [way for way in ("kind", "number") if way in data]
            if len(ways) != 1:
                raise ScenarioError("the chef token changes the kind or the number: give kind: or number:", ("chef",))
            way = ways[0]
            if way == "kind" and data["kind"] not in state.box.kinds:
                raise ScenarioError(f"kind is one of {', '.join(state.box.kinds)}", ("kind",))
            if way == "number" and data["number"] not in NUMBERS:
                raise ScenarioError(f"number is one of {', '.join(map(str, NUMBERS))}", ("number",))
            return ("chef", die, way, data[way])
        if key == "cook":
            if value not in state.box.recipe_by_id:
                raise ScenarioError(f"no recipe card {value!r}", ("cook",))
            hype = data.get("hype")
            if hype is not None:
                one_name(hype, ("hype",), "hype", "hype-01")
            if hype is not None and hype not in state.box.hype_by_id:
                raise ScenarioError(f"no hype card {hype!r}", ("hype",))
            labels = data.get("dice")
            if not isinstance(labels, list) or not labels:
                raise ScenarioError("dice lists the dice cooked with, such as [tomato:6, carrot:2]", ("dice",))
            return ("cook", value, tuple(sorted(held_dice(state, player, labels, ("dice",)))), hype)
        if key == "draw":
            if value in ("hype", "recipe"):
                return ("draw", value)
            if value in state.box.recipe_by_id:
                return ("draw", "display", value)
            raise ScenarioError("draw is hype, recipe (the deck) or a recipe card of the display", ("draw",))
        # discard
        if value in state.box.recipe_by_id:
            return ("discard", "recipe", value)
        if value in state.box.hype_by_id:
            return ("discard", "hype", value)
        [die] = held_dice(state, player, [value], ("discard",), listed=False)
        return ("discard", "die", die)

    def describe_action(self, state: GameState, action: tuple) -> dict:
        described: dict = {"player": state.names[state.seat]}
        kind = action[0]
        if kind == "restock":
            described["restock"] = action[1]
        elif action == DONE:
            described["done"] = True
        elif kind == "cut":
            described["cut"] = [CELL_NAMES[cell] for cell in action[1]]
        elif kind == "chef":
            described["chef"] = state.die_label(action[1])
            described[action[2]] = action[3]
        elif kind == "cook":
            described["cook"] = action[1]
            described["dice"] = [state.die_label(die) for die in action[2]]
            if action[3] is not None:
                described["hype"] = action[3]
        elif kind == "draw":
            described["draw"] = action[2] if action[1] == "display" else action[1]
        else:
            described["discard"] = state.die_label(action[2]) if action[1] == "die" else action[2]
        return described


ENGINE = DicedVeggiesEngine()


def _pool(box: Box, cards: list[str], what: str) -> CardPool:
    """The recipe or hype cards a scenario hands out, each named by its id."""
    def read(card):
        return one_name(card, (), f"a {what} card", f"{what}-01")
    return CardPool(cards, noun=f"{what} card", source="the box", listing=f"{what} cards", read=read, known="")


def parse_label(label, box: Box, path: tuple, held: bool) -> tuple[str, int, str | None]:
    """`kind:number`, or `kind:number=kind` for a player's die the chef token changed."""
    text = str(label)
    body, _, counts_as = text.partition("=")
    kind, _, number = body.partition(":")
    if kind not in box.kinds or not number.isdigit() or int(number) not in box.faces:
        raise ScenarioError(f"a die is kind:number ({', '.join(box.kinds)}; {', '.join(map(str, sorted(set(box.faces))))}), "
                            f"not {text!r}", path)
    if counts_as and (not held or counts_as not in box.kinds):
        raise ScenarioError(f"=kind (one of {', '.join(box.kinds)}) marks a player's die the chef token changed",
                            path)
    return kind, int(number), counts_as or None


NOT_HELD = -1          # a die the player does not have: the action names it, and is refused


def held_dice(state: GameState, seat: Seat, labels: list, path: tuple, listed: bool = True) -> list[int]:
    """The player's dice the labels name (`listed`: the labels are a list at `path`): alike dice
    are taken lowest numbered first; a die the player does not have is a number below NOT_HELD,
    so that the action is refused saying so."""
    for index, label in enumerate(labels):
        parse_label(label, state.box, path + (index,) if listed else path, True)
    by_label: dict[str, list[int]] = {}
    for die in seat.dice:
        by_label.setdefault(state.die_label(die), []).append(die)
    taken: Counter = Counter()
    dice = []
    for label in map(str, labels):
        found, index = by_label.get(label, []), taken[label]
        taken[label] += 1
        dice.append(found[index] if index < len(found) else NOT_HELD - index)
    return dice
