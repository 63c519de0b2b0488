"""Diced Veggies ("Нарезанные овощи", seed 004): the box the rules need, checked by `pnp
validate`, down to every recipe's ingredients and every hype card's condition; the straight
cuts of the block; every hype condition and scoring; the invariants that catch a lost die or
card; and the figures the designer's report reads."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from conftest import ROOT, line_of, pnp, replace_in
from generator.load.project import Project
from generator.rules.diced_veggies import ENGINE, SPEC
from generator.rules.diced_veggies.design import (
    CUT_LIMIT,
    DICE_PER_KIND,
    FACES,
    HYPE,
    KINDS,
    MAX_DICE,
    RECIPE_NEEDS,
    design_problems,
    recipe_points,
)
from generator.rules.diced_veggies.state import (
    CELL_NAMES,
    CELLS,
    COLUMNS,
    FULL_CHECK_EVERY,
    Recipe,
    box_from_game,
    hype_holds,
    hype_points,
    longest_run,
)
from generator.rules.engine import InvariantBroken, SetupError, random_policy
from generator.rules.simulate import play_out, policy_rng


GAME = "diced-veggies"


@pytest.fixture(scope="module")
def box():
    game, problems = Project(ROOT).load_game(GAME)
    assert not problems
    return box_from_game(game, "standard")


def cells(*names: str) -> tuple[int, ...]:
    return tuple(sorted(CELL_NAMES.index(name) for name in names))


# -- the box

def test_the_design_fills_the_box_the_seed_describes():
    assert design_problems() == []
    assert len(KINDS) * DICE_PER_KIND == 35 and sorted(FACES) == [2, 2, 3, 4, 5, 6]
    assert len(RECIPE_NEEDS) == 44 and len(HYPE) == 34
    assert SPEC.totals["standard"]["dice"] == 35


def test_every_recipe_can_be_cooked_with_the_dice_that_exist(box):
    have = Counter(box.dice)
    for recipe in box.recipes:
        assert all(have[kind] >= count for kind, count in recipe.needs)
        assert sum(count for _, count in recipe.needs) <= MAX_DICE
        assert recipe.points == recipe_points(recipe.need)


def test_every_player_count_is_set_up_with_cards_left_to_draw():
    for players in range(SPEC.min_players, SPEC.max_players + 1):
        state = ENGINE.new_game(players, box=ENGINE.box(Project(ROOT).load_game(GAME)[0], "standard"))
        assert all(len(seat.recipes) == 2 and len(seat.hype) == 1 and seat.chef for seat in state.seats)
        assert len(state.display) == 3 and len(state.block_dice()) == 35
        assert len(state.recipe_deck) == 44 - 2 * players - 3 and len(state.hype_deck) == 34 - players


def test_validate_names_a_recipe_whose_ingredients_differ_from_the_rules(project):
    cards = project / "components" / GAME / "cards.yaml"
    old = "fields: {points: 2, mushroom: 2, needs: \"☂☂\"}"
    replace_in(cards, old, "fields: {points: 2, mushroom: 8, needs: \"☂☂\"}")
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1
    line = line_of(cards, "mushroom: 8")
    assert f"cards.yaml:{line}: cards.recipe-01.fields.mushroom: rules need 2, data says 8" in result.output


def test_the_engine_refuses_a_recipe_the_dice_cannot_make():
    game, _ = Project(ROOT).load_game(GAME)
    recipe = next(c for c in game.components if c.id == "recipe-01")
    recipe.data["fields"]["mushroom"] = 8
    with pytest.raises(SetupError, match="recipe 'recipe-01' needs 8 mushroom, the box has 7") as refused:
        box_from_game(game, "standard")
    assert refused.value.where == ("cards", ("cards", "recipe-01"))


def test_validate_names_a_die_with_a_face_the_rules_do_not_know(project):
    dice = project / "components" / GAME / "dice.yaml"
    replace_in(dice, '- {name: "2", ingredient: carrot}', '- {name: "1", ingredient: carrot}')
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1
    assert "die 'carrot' has faces [1, 3, 2, 4, 6, 5]; the rules need [2, 2, 3, 4, 5, 6]" in result.output
    assert "dice.yaml:" in result.output


def test_validate_names_a_hype_card_whose_condition_differs(project):
    cards = project / "components" / GAME / "cards.yaml"
    replace_in(cards, "fields: {condition: all-even, scoring: fixed, points: 3}",
               "fields: {condition: all-odd, scoring: fixed, points: 3}")
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1
    assert "cards.hype-01.fields.condition: rules need all-even, data says all-odd" in result.output


def test_a_box_without_enough_dice_for_a_recipe_is_refused(box):
    game, _ = Project(ROOT).load_game(GAME)
    for component in game.components:
        if component.category == "dice" and component.id == "eggplant":
            component.data["count"]["standard"] = 2
    with pytest.raises(SetupError, match="the block is 5 × 7 = 35 dice, the components have 30"):
        box_from_game(game, "standard")


# -- the block and its cuts

def full_block(seed: int = 0):
    state = ENGINE.new_game(2, box=ENGINE.box(Project(ROOT).load_game(GAME)[0], "standard"), seed=seed)
    assert len(state.block_dice()) == CELLS
    return state


def test_on_a_full_block_an_edge_die_is_a_cut_and_an_inner_one_is_not():
    state = full_block()
    possible = set(state.cuts_possible())
    for corner in ("A1", "A7", "E1", "E7", "A4", "C1", "E5", "C7"):
        assert cells(corner) in possible, corner
    for inner in ("B2", "C4", "D6"):
        assert cells(inner) not in possible, inner
    assert cells("A6", "A7", "B6", "B7") in possible           # two rows' ends pushed off together
    assert cells("A1", "A7") not in possible
    # every cut of the full block is a rectangle touching the block's edge
    for cut in possible:
        rows = {cell // COLUMNS for cell in cut}
        columns = {cell % COLUMNS for cell in cut}
        assert len(cut) == len(rows) * len(columns)
        assert rows == set(range(min(rows), max(rows) + 1)) and columns == set(range(min(columns), max(columns) + 1))
        assert min(rows) == 0 or max(rows) == 4 or min(columns) == 0 or max(columns) == 6


def test_the_legal_cuts_are_the_possible_ones_totalling_ten_or_less():
    for seed in range(3):
        state = full_block(seed)
        legal = state.legal_cuts()
        assert legal and all(state.cut_total(cut) <= CUT_LIMIT for cut in legal)
        assert set(legal) == {cut for cut in state.cuts_possible() if state.cut_total(cut) <= CUT_LIMIT}


def test_the_legal_cuts_of_any_block_are_the_possible_ones_in_order():
    """legal_cuts walks lanes from the edge; cuts_possible tries every push: the same cuts, in
    the same order, on blocks with holes and gaps, dice showing any number."""
    state = full_block()
    rng = random.Random(4)
    for _ in range(400):
        keep = rng.random()
        state.block = [die if rng.random() < keep else None for die in range(CELLS)]
        state.face = [rng.choice((0, 1, 2, 3, 4, 5, 6, 9)) for _ in range(CELLS)]
        whole = tuple(cell for cell in range(CELLS) if state.block[cell] is not None)
        expected = ([whole] if state.cut_total(whole) <= CUT_LIMIT else
                    sorted(cut for cut in state.cuts_possible() if state.cut_total(cut) <= CUT_LIMIT and cut != whole))
        assert state.legal_cuts() == expected


def test_a_block_totalling_ten_or_less_is_taken_whole():
    state = full_block()
    for cell in range(3, CELLS):
        state.frame.append(state.block[cell])
        state.block[cell] = None
    for die in state.block_dice():
        state.face[die] = 2
    assert state.legal_cuts() == [cells("A1", "A2", "A3")]


# -- hype cards

NEEDS = {"m1 t1": Recipe("r2", (("mushroom", 1), ("tomato", 1)), 2),
         "m1 t1 c1 b1 e1": Recipe("r5", tuple((kind, 1) for kind in KINDS), 8),
         "b3": Recipe("r3", (("broccoli", 3),), 3)}
CASES = [
    ("hype-01", "m1 t1", [2, 6], True), ("hype-01", "m1 t1", [2, 5], False),
    ("hype-02", "m1 t1", [3, 5], True), ("hype-02", "m1 t1", [3, 4], False),
    ("hype-03", "b3", [4, 4, 4], True), ("hype-03", "b3", [4, 4, 5], False),
    ("hype-04", "b3", [6, 6, 2], True), ("hype-04", "b3", [6, 5, 2], False),
    ("hype-05", "b3", [2, 2, 6], True), ("hype-05", "m1 t1", [2, 3], False),
    ("hype-06", "b3", [5, 5, 5], True), ("hype-06", "b3", [5, 5, 6], False),
    ("hype-07", "m1 t1", [2, 6], True), ("hype-07", "m1 t1", [3, 6], False),
    ("hype-08", "m1 t1 c1 b1 e1", [2, 3, 4, 5, 4], True), ("hype-08", "b3", [6, 6, 5], False),
    ("hype-09", "m1 t1 c1 b1 e1", [6, 6, 6, 4, 2], True), ("hype-09", "m1 t1 c1 b1 e1", [6, 6, 5, 4, 2], False),
    ("hype-10", "b3", [6, 4, 2], True), ("hype-10", "b3", [6, 4, 3], False),
    ("hype-11", "b3", [3, 5, 4], True), ("hype-11", "b3", [2, 3, 5], False),
    ("hype-12", "m1 t1 c1 b1 e1", [2, 3, 4, 5, 5], True), ("hype-12", "m1 t1 c1 b1 e1", [2, 3, 4, 6, 6], False),
    ("hype-13", "b3", [4, 5, 6], True), ("hype-13", "b3", [3, 5, 6], False),
    ("hype-14", "b3", [2, 3, 3], True), ("hype-14", "b3", [2, 3, 4], False),
    ("hype-15", "b3", [2, 3, 5], True), ("hype-15", "b3", [2, 3, 6], False),
    ("hype-16", "m1 t1 c1 b1 e1", [2, 2, 2, 2, 2], True), ("hype-16", "m1 t1", [2, 2], False),
    ("hype-17", "m1 t1 c1 b1 e1", [2, 2, 2, 2, 2], True), ("hype-17", "b3", [2, 2, 2], False),
    ("hype-18", "m1 t1 c1 b1 e1", [2, 2, 2, 2, 2], True), ("hype-18", "b3", [2, 2, 2], False),
    ("hype-19", "m1 t1", [2, 2], True), ("hype-19", "b3", [2, 2, 2], False),
    ("hype-25", "b3", [2, 2, 2], True), ("hype-22", "m1 t1", [2, 2], False),
    ("hype-30", "m1 t1 c1 b1 e1", [2, 2, 2, 2, 2], True), ("hype-30", "m1 t1", [2, 2], False),
    ("hype-32", "m1 t1", [2, 3], True), ("hype-33", "b3", [6, 6, 6], True),
    ("hype-34", "m1 t1 c1 b1 e1", [2, 2, 2, 2, 2], True), ("hype-34", "b3", [2, 2, 2], False),
]


@pytest.mark.parametrize("card,needs,numbers,holds", CASES)
def test_a_hype_condition_holds_exactly_when_its_text_says(card, needs, numbers, holds):
    assert hype_holds(HYPE[card], NEEDS[needs], numbers, chef=False, cooked_this_turn=0) is holds


def test_hype_conditions_on_the_turn():
    recipe = NEEDS["m1 t1"]
    assert hype_holds(HYPE["hype-20"], recipe, [2, 3], chef=True, cooked_this_turn=0)
    assert not hype_holds(HYPE["hype-20"], recipe, [2, 3], chef=False, cooked_this_turn=0)
    assert not hype_holds(HYPE["hype-21"], recipe, [2, 3], chef=True, cooked_this_turn=0)
    assert hype_holds(HYPE["hype-21"], recipe, [2, 3], chef=True, cooked_this_turn=1)


def test_every_condition_and_scoring_of_the_design_is_tested():
    tested = {HYPE[card].condition for card, *_ in CASES} | {"chef-unused", "cooked-this-turn"}
    assert tested == {hype.condition for hype in HYPE.values()}
    assert longest_run([2, 3, 3, 4, 6]) == 3 and longest_run([6]) == 1


def test_conditional_hype_scores_count_the_cooked_recipes_and_the_hype_played():
    cooked = [NEEDS["m1 t1"], NEEDS["b3"], NEEDS["m1 t1 c1 b1 e1"]]
    assert hype_points(HYPE["hype-27"], cooked, 1) == 2             # recipes with a mushroom
    assert hype_points(HYPE["hype-30"], cooked, 1) == 2             # recipes with broccoli
    assert hype_points(HYPE["hype-32"], cooked, 3) == 3             # hype cards played
    assert hype_points(HYPE["hype-33"], cooked, 1) == 5             # kinds cooked
    assert hype_points(HYPE["hype-09"], cooked, 1) == 5             # fixed


# -- invariants

def test_a_lost_die_or_card_breaks_the_invariants():
    state = full_block()
    state.check_rules()
    lost = state.block[0]
    state.block[0] = None
    with pytest.raises(InvariantBroken, match=rf"missing \[{lost}\]"):
        state.check_rules()
    state = full_block()
    state.recipe_deck.append(state.recipe_deck[0])
    with pytest.raises(InvariantBroken, match="recipe cards created or lost"):
        state.check_rules()
    state = full_block()
    state.hype_deck.pop()
    with pytest.raises(InvariantBroken, match="hype cards created or lost"):
        state.check_rules()


def test_a_player_over_a_limit_between_turns_breaks_the_invariants():
    state = full_block()
    state.seats[1].recipes += [state.recipe_deck.pop()]
    with pytest.raises(InvariantBroken, match="keeps 0 dice, 3 recipes"):
        state.check_rules()


def _played(players: int, seed: int, *, full_checks: bool = False):
    """A new seeded game, and the actions random play takes to end it."""
    box = ENGINE.box(Project(ROOT).load_game(GAME)[0], "standard")
    played = []
    play_out(ENGINE, ENGINE.new_game(players, box=box, seed=seed), "random", policy_rng(seed), check=False,
             played=played)
    state = ENGINE.new_game(players, box=box, seed=seed)
    state.full_checks = full_checks
    return state, played


def test_the_check_after_an_action_catches_a_die_it_lost():
    state, played = _played(3, 1)
    rng = policy_rng(1)
    while True:
        state.apply(random_policy(state, rng))
        if state.phase == "cook" and state.turns % FULL_CHECK_EVERY and state.seats[state.changed].dice:
            break
        state.check_invariants()
    lost = state.seats[state.changed].dice.pop()          # the cut took one die fewer than it says
    assert not state._changed_holds(state.changed)
    with pytest.raises(InvariantBroken, match=rf"missing \[{lost}\]"):
        state.check_invariants()


def _after_a(kind: str, seed: int = 1, held: int = 1):
    """A game of random play up to just after an action of this kind, outside a full check's
    turn, its player holding at least `held` dice."""
    state, _ = _played(3, seed)
    rng = policy_rng(seed)
    while True:
        action = random_policy(state, rng)
        state.apply(action)
        if (action[0] == kind and state.turns % FULL_CHECK_EVERY and state.phase in ("cook", "cut")
                and len(state.seats[state.changed].dice) >= held):
            return state, action
        state.check_invariants()


def test_the_check_after_a_chef_action_catches_a_number_no_face_has_and_a_die_not_held():
    state, (_, die, _, _) = _after_a("chef")
    state.face[die] = 7
    assert not state._changed_holds(state.changed, state.changed_by)
    with pytest.raises(InvariantBroken, match="shows a number none of its faces has"):
        state.check_invariants()
    state, (_, die, _, _) = _after_a("chef")
    seat = state.seats[state.changed]
    seat.dice.remove(die)
    state.frame.append(die)
    assert not state._changed_holds(state.changed, state.changed_by)


def test_the_check_after_a_cut_or_a_restock_catches_dice_out_of_order_or_shown_wrong():
    state, _ = _after_a("cut", held=2)
    dice = state.seats[state.changed].dice
    dice.reverse()
    assert not state._changed_holds(state.changed, state.changed_by)
    with pytest.raises(InvariantBroken, match="out of order"):
        state.check_invariants()
    state, _ = _after_a("restock")
    state.face[state.block_dice()[0]] = 1
    with pytest.raises(InvariantBroken, match="shows a number none of its faces has"):
        state.check_invariants()


def _a_die_doubled(state) -> None:
    """One die stands for another: as many dice as the box holds, one of them twice."""
    held = next(seat for seat in state.seats if seat.dice)
    held.dice[0] = ([die for die in state.block if die is not None] + state.frame)[0]
    held.dice.sort()


@pytest.mark.parametrize("full_checks", [False, True])
def test_the_full_check_catches_what_the_check_after_an_action_does_not(full_checks):
    """A die doubled while another is lost is no action's change: the check after the action
    before the last passes it (unless full_checks), the full check once the game ends does not."""
    state, played = _played(4, 3, full_checks=full_checks)
    for action in played[:-1]:
        state.apply(action)
        state.check_invariants()
    assert state.turns % FULL_CHECK_EVERY, "the last turn falls on a full check: take another seed"
    _a_die_doubled(state)
    if full_checks:
        with pytest.raises(InvariantBroken, match="doubled"):
            state.check_invariants()
        return
    state.changed = state.seat
    state.check_invariants()
    state.apply(played[-1])
    assert state.is_terminal()
    with pytest.raises(InvariantBroken, match="doubled"):
        state.check_invariants()


# -- the end and the report's figures

@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_games_end_with_everyone_cooking_once_more_and_report_their_figures(players):
    for seed in range(3):
        state = ENGINE.new_game(players, box=ENGINE.box(Project(ROOT).load_game(GAME)[0], "standard"), seed=seed)
        play_out(ENGINE, state, "heuristic", policy_rng(seed))
        assert state.is_terminal() and state.ended_by is not None
        assert len(state.seats[state.ended_by].cooked) >= 6 and state.last_cooks == []
        stats = state.stats()
        for key in ("turns", "winning_score", "score_spread", "chef_uses", "restocks", "recipes", "hype"):
            assert key in stats
        assert sum(stats["recipes"].values()) == sum(len(seat.cooked) for seat in state.seats)
        assert set(stats["recipes"]) == set(RECIPE_NEEDS) and set(stats["hype"]) == set(HYPE)
        winners = state.winners()
        assert state.returns() == [1 / len(winners) if seat in winners else 0 for seat in range(players)]


def test_a_cards_own_fields_are_values_its_layout_can_draw():
    from generator.app.loading import load_games
    from generator.i18n.texts import Texts
    from generator.layout.faces import Localised, component_values
    game = next(g for g in load_games(Project(ROOT)) if g.slug == GAME)
    loc = Localised(game, "standard", Texts.load(game, "ru"))
    recipe = next(c for c in game.components if c.id == "recipe-16")
    values = component_values(loc, recipe)
    assert values["points"] == "3" and values["tomato"] == "2" and values["carrot"] == "1"
    assert values["needs"] == "●●▼" and "mushroom" not in values
    assert values["name"] == "Гаспачо"
