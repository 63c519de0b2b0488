"""Pegs and Jokers (seed 002): the components against the rules, the board's geometry, the
deal for every table, the engine rule by rule on positions built the way scenarios build them,
broken states caught, and the heuristic player. What every game is checked for is in
test_every_game.py."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from conftest import ROOT
from generator.app.loading import load_games
from generator.load.project import Project
from generator.rules.engine import InvariantBroken, ScenarioError, SetupError, random_policy
from generator.rules.pegs_and_jokers import design
from generator.rules.pegs_and_jokers.design import PEGS
from generator.rules.pegs_and_jokers.state import FULL_CHECK_EVERY, START, Box
from generator.rules.simulate import play_out, policy_rng


SLUG = "pegs-and-jokers"
GAME = load_games(Project(ROOT), SLUG, texts=False)[0]
ENGINE = GAME.rules.ENGINE
BOX = ENGINE.box(GAME, "standard")
NAMES = ["Anna", "Bohdan", "Cyril", "Dana", "Eva", "Filip", "Gustav", "Hana"]


def position(players: int = 4, options=None, **seats):
    """A position of `players` named players; `seats` gives a player's pegs and hand."""
    listed = [{"name": name, **seats.get(name, {})} for name in NAMES[:players]]
    return ENGINE.from_setup({"players": listed, "options": options or {}}, seed=0, box=BOX)


def play(state, *actions):
    for action in actions:
        state.apply(action)
        state.check_invariants()
    return state


# ---- the components ------------------------------------------------------------------------

def test_the_box_holds_four_standard_decks_with_two_jokers_each():
    standard = tuple(sorted([0, 0] + [rank for rank in range(1, 14) for _ in range(4)]))
    assert BOX.decks == (standard,) * 4
    assert len(BOX.decks[0]) == 54 == design.CARDS_PER_DECK


@pytest.mark.parametrize("players,cards,jokers", [(4, 162, 6), (6, 162, 6), (8, 216, 8)])
def test_every_table_shuffles_its_decks_and_deals_five(players, cards, jokers):
    state = ENGINE.new_game(players, box=BOX, seed=3)
    assert len(state.pool) == cards and Counter(state.pool)[0] == jokers
    first = (state.dealer + 1) % players
    assert state.seat == first and state.turns == 1
    assert [len(hand) for hand in state.hands] == [6 if seat == first else 5 for seat in range(players)]
    assert len(state.deck) == cards - 5 * players - 1 and state.discard == []
    assert all(pegs == [START] * 5 for pegs in state.pegs)


def test_the_dealer_is_drawn_at_random():
    dealers = {ENGINE.new_game(4, box=BOX, seed=seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}


@pytest.mark.parametrize("players", [5, 7])
def test_only_4_6_or_8_players_sit_at_the_board(players):
    with pytest.raises(SetupError, match=f"is for 4, 6 or 8 players, not {players}"):
        ENGINE.new_game(players, box=BOX)


def test_a_box_short_of_decks_cannot_seat_eight():
    with pytest.raises(SetupError, match="8 players need 4 decks, edition 'standard' has 3"):
        ENGINE.new_game(8, box=Box("standard", BOX.decks[:3]))


def test_the_setup_of_every_table_takes_its_colours_and_markers():
    four, eight = design.setup(4, "standard").components, design.setup(8, "standard").components
    assert four["cards/standard"] == 162 and eight["cards/standard"] == 216
    assert [key for key in four if key.startswith("tokens/peg-")] == [
        "tokens/peg-red", "tokens/peg-blue", "tokens/peg-yellow", "tokens/peg-green"]
    assert eight["tokens/team-a"] == 4 and eight["tokens/team-d"] == 2
    assert "tokens/team-c" not in four


# ---- the board -----------------------------------------------------------------------------

@pytest.mark.parametrize("players", [4, 6, 8])
def test_every_side_has_its_come_out_hole_and_in_spot(players):
    state = position(players)
    assert state.track == 18 * players
    for seat in range(players):
        assert state.come_out(seat) + 1 == 18 * seat + 8
        assert state.in_spot(seat) + 1 == 18 * seat + 3


def test_teams_alternate_and_pairs_face_each_other():
    assert position(6).teams == [0, 1, 0, 1, 0, 1]
    assert position(6, {"pairs": True}).teams == [0, 1, 2, 0, 1, 2]
    assert position(8, {"pairs": True}).teams == [0, 1, 2, 3, 0, 1, 2, 3]
    assert position(4, {"pairs": True}).teams == [0, 1, 0, 1]


# ---- the rules -----------------------------------------------------------------------------

def test_a_peg_comes_round_the_board_and_home():
    """A peg just out (hole 8) has 67 holes to its in-spot on the 72-hole board: 6 tens and a
    seven bring it to its in-spot, then a 5 to the back of home."""
    state = position(Anna={"pegs": [8, "start", "start", "start", "start"]})
    for steps in (10, 10, 10, 10, 10, 10, 7):
        moves = state.plan_step(0, 0, steps)
        state._apply(moves)
    assert state.pegs[0][0] + 1 == 3
    state._apply(state.plan_step(0, 0, 5))
    assert state.pegs[0][0] == state.track + 4


def test_without_a_moving_card_only_discards_and_jokers_are_legal():
    state = position(Anna={"hand": ["joker", "2", "3", "4", "5", "6"]})
    kinds = Counter(action[0] for action in state.legal_actions())
    assert kinds["play"] == 0 and kinds["split"] == 0
    assert kinds["discard"] == 6 and kinds["joker"] == 0       # no other peg on the board yet


def test_with_a_moving_card_no_discard_is_legal():
    state = position(Anna={"pegs": [10, "start", "start", "start", "start"], "hand": ["joker", "2", "3", "4", "5", "6"]},
                     Bohdan={"pegs": [30, "start", "start", "start", "start"]})
    kinds = Counter(action[0] for action in state.legal_actions())
    # the joker takes the peg on the track or the first one in START onto Bohdan's
    assert kinds["discard"] == 0 and kinds["play"] == 5 and kinds["joker"] == 2


def test_a_split_seven_may_finish_a_peg_home_and_move_another():
    state = position(Anna={"pegs": [1, 20, "start", "start", "start"], "hand": ["7", "2", "3", "4", "5", "6"]})
    play(state, ("split", 0, 3, 1))
    assert state.pegs[0][:2] == [state.track + 0, 20 - 1 + 4]


def test_the_game_ends_when_the_last_peg_of_a_team_is_home():
    state = position(Anna={"pegs": ["home-1", "home-2", "home-3", "home-4", "home-5"], "hand": ["3", "2", "4", "5", "6", "9"]},
                     Cyril={"pegs": ["home-2", "home-3", "home-4", "home-5", 37]})
    play(state, ("play", 3, 4))
    assert state.is_terminal() and state.legal_actions() == []
    assert state.returns() == [0.5, 0.0, 0.5, 0.0]
    assert state.stats()["winner"] in ("1st player's team", "2nd player's team")


def test_a_scenario_cannot_put_two_pegs_in_one_hole_or_invent_cards():
    with pytest.raises(ScenarioError, match="hole 10 already holds a peg of Anna"):
        position(Anna={"pegs": [10, "start", "start", "start", "start"]},
                 Bohdan={"pegs": [10, "start", "start", "start", "start"]})
    with pytest.raises(ScenarioError, match="more 'joker' cards than the 6 of "):
        position(Anna={"hand": ["joker"] * 6}, Bohdan={"hand": ["joker"]})
    with pytest.raises(ScenarioError, match="a team already has every peg home"):
        position(Anna={"pegs": ["home-1", "home-2", "home-3", "home-4", "home-5"]},
                 Cyril={"pegs": ["home-1", "home-2", "home-3", "home-4", "home-5"]})



def _actions_as_planned(state):
    """The legal actions as the rules' plans say, one by one and in find_actions' order: per
    card (lowest first) the pegs it moves, a seven's splits (the second part planned on the
    board the first leaves), then the joker's jumps; with no card moving, the joker's jumps and
    the discards."""
    owner, track = state.owner(), state.track
    pegs = state.pegs[owner]
    hand = sorted(set(state.hands[state.seat]))
    out = [peg for peg, position in enumerate(pegs) if position != START]
    moves, jokers = [], []
    for card in hand:
        if card == design.JOKER:
            jokers = [("joker", peg, hole) for peg in range(PEGS) for hole in range(track)
                      if state.plan_joker(owner, peg, hole) is not None]
            continue
        moves += [("play", card, peg) for peg in range(PEGS) if state.plan_card(owner, peg, card) is not None]
        if card == design.SEVEN and len(out) > 1:
            for peg in out:
                for steps in range(1, design.SEVEN):
                    first = state.plan_step(owner, peg, steps)
                    if first is None:
                        continue
                    undo = state._apply(first)
                    moves += [("split", peg, steps, other) for other in out
                              if other != peg and state.plan_step(owner, other, design.SEVEN - steps) is not None]
                    state._undo(undo)
    if moves:
        return moves + jokers
    return jokers + [("discard", card) for card in hand]


@pytest.mark.parametrize("players,pairs", [(4, False), (6, False), (6, True), (8, False), (8, True)])
def test_the_legal_actions_are_the_plans_the_rules_allow(players, pairs):
    """find_actions judges each move from the pegs' reach without planning it: the same actions
    in the same order as planning every card, peg, split and jump, all through random games."""
    compared = Counter()
    for seed in range(3):
        state, rng = ENGINE.new_game(players, box=BOX, seed=seed, pairs=pairs), random.Random(seed)
        while not state.is_terminal():
            board, pegs = list(state.board), [list(positions) for positions in state.pegs]
            expected = _actions_as_planned(state)
            assert state.find_actions() == expected, f"seed {seed}, turn {state.turns}"
            assert state.board == board and state.pegs == pegs
            compared.update(action[0] for action in expected)
            state.apply(random_policy(state, rng))
    assert min(compared[kind] for kind in ("play", "split", "joker", "discard")) > 0


@pytest.mark.parametrize("players", [4, 8])
def test_the_heuristic_weighs_each_move_by_how_far_it_brings_the_pegs(players):
    """_score_moves, written out for speed, weighs a plan as peg_value says: what each moved peg
    gains (its team's) or loses (another team's), less the danger where the mover lands; for
    every plan of every action in heuristic games, sevens' second parts on the board the first
    leaves."""
    from generator.rules.pegs_and_jokers import policies

    def by_definition(state, moves):
        team = state.teams[state.seat]
        total = 0.0
        for seat, peg, where in moves:
            gain = policies.peg_value(state, seat, where) - policies.peg_value(state, seat, state.pegs[seat][peg])
            total += gain if state.teams[seat] == team else -gain
        seat, _, where = moves[0]
        if 0 <= where < state.track:
            total -= policies.DANGER * policies._danger(state, seat, where)
        return total

    weighed = Counter()
    for seed in range(2):
        state = ENGINE.new_game(players, box=BOX, seed=seed)
        while not state.is_terminal():
            owner = state.owner()
            for action in state.legal_actions():
                if action[0] == "split":
                    _, peg, steps, other = action
                    first = state.plan_step(owner, peg, steps)
                    undo = state._apply(first)
                    second = state.plan_step(owner, other, design.SEVEN - steps)
                    assert policies._score_moves(state, second) == by_definition(state, second)
                    state._undo(undo)
                    plans = [first]
                else:
                    plans = [policies._moves_of(state, action, owner)]
                for moves in filter(None, plans):
                    assert policies._score_moves(state, moves) == by_definition(state, moves), action
                    weighed[len(moves)] += 1
            state.apply(ENGINE.policies["heuristic"](state, None))
    assert weighed[1] and weighed[2]          # plain moves, and moves that send a peg away


# ---- broken states -------------------------------------------------------------------------

def test_broken_states_are_caught():
    state = position(Anna={"pegs": [10, "start", "start", "start", "start"]})
    state.pegs[1][0] = 9                      # Bohdan's peg into Anna's hole 10
    with pytest.raises(InvariantBroken, match="two pegs in hole 10"):
        state.check_rules()
    state = position()
    state.pegs[1][0] = 40                     # a peg the board does not show
    with pytest.raises(InvariantBroken, match="the board lost track of hole 41"):
        state.check_rules()
    state = position()
    state.hands[1].append(state.deck.pop())
    state.hands[1].append(state.deck.pop())
    with pytest.raises(InvariantBroken, match="holds 7 cards"):
        state.check_rules()
    state = position()
    state.deck.pop()
    with pytest.raises(InvariantBroken, match="cards lost"):
        state.check_rules()
    state = position()
    state.pegs[2] = state.pegs[2][:4]
    with pytest.raises(InvariantBroken, match="has 4 pegs"):
        state.check_rules()


def _after_a_move_off_a_hole(seed: int):
    """A game of 8 played at random until an action moves a peg off a track hole, on a turn
    checked only for what the action changed; the state, and that peg (seat, peg, hole left)."""
    state, rng = ENGINE.new_game(8, box=BOX, seed=seed), random.Random(seed)
    while True:
        state.apply(random_policy(state, rng))
        _, moved = state.changed
        left = [(seat, peg, before) for seat, peg, before in moved if 0 <= before < state.track]
        if left and state.winner is None and state.turns % FULL_CHECK_EVERY:
            return state, left[0]
        state.check_invariants()


def test_the_check_after_an_action_catches_a_peg_it_duplicated_or_lost():
    state, (seat, peg, before) = _after_a_move_off_a_hole(5)
    state.board[before] = seat * PEGS + peg            # the hole it left still shows it
    assert not state._changed_holds(*state.changed)
    with pytest.raises(InvariantBroken, match="hole"):
        state.check_invariants()
    state, (seat, peg, before) = _after_a_move_off_a_hole(6)
    if 0 <= state.pegs[seat][peg] < state.track:
        state.board[state.pegs[seat][peg]] = -1        # the hole it went to does not show it
    else:
        state.pegs[seat][peg] = state.pegs[seat][(peg + 1) % PEGS]   # two of its pegs in one place
    assert not state._changed_holds(*state.changed)
    with pytest.raises(InvariantBroken):
        state.check_invariants()


def test_the_full_check_at_the_end_of_a_game_catches_what_the_check_after_an_action_does_not():
    """A card changed into another (their number kept) is not what an action changed: the check
    after the action before the last passes it, the full check once the game ends does not."""
    seed, played = 3, []
    state = ENGINE.new_game(8, box=BOX, seed=seed)
    play_out(ENGINE, state, "random", policy_rng(seed), check=False, played=played)
    state = ENGINE.new_game(8, box=BOX, seed=seed)
    for action in played[:-2]:
        state.apply(action)
    state.apply(played[-2])
    assert state.turns % FULL_CHECK_EVERY, "the action before the last falls on a full check: take another seed"
    other = (state.seat + 1) % state.players
    state.hands[other][-1] = 1 if state.hands[other][-1] != 1 else 2
    state.check_invariants()
    state.apply(played[-1])
    assert state.winner is not None
    with pytest.raises(InvariantBroken, match="cards lost"):
        state.check_invariants()


# ---- the players ---------------------------------------------------------------------------

def test_the_figures_for_the_report():
    state = ENGINE.new_game(4, box=BOX, seed=1)
    while not state.is_terminal():
        state.apply(ENGINE.policies["heuristic"](state, None))
    stats = state.stats()
    assert stats["turns"] == state.turns and stats["turns"] > 50
    assert set(stats["plays"]) == {"A out", "A 1", "J Q K out", "J Q K 10", "2-6 9 10", "7", "7 split", "8 back",
                                   "joker", "discard"}
    # each of the winning team's 10 pegs left START at least once, by a card or a joker
    assert stats["plays"]["A out"] + stats["plays"]["J Q K out"] + stats["plays"]["joker"] >= 10
    assert sum(stats["plays"].values()) == state.turns
    assert 0 <= stats["stuck_share"] < 1
