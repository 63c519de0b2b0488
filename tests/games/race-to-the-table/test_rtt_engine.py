"""Race to the Table's rules engine, rule by rule (seed 000), on positions built the way
scenarios build them, with the components loaded from the project's YAML."""
from __future__ import annotations

import random

import pytest

from conftest import ROOT, line_of, pnp, replace_in
from generator.app.loading import load_games
from generator.load.project import Project
from generator.rules import load_rules
from generator.rules.engine import IllegalAction, InvariantBroken, OptionError, ScenarioError
from generator.rules.race_to_the_table.state import box_from_game
from generator.rules.simulate import play_game
from generator.validate.checks import check_play


SLUG = "race-to-the-table"
GAME = load_games(Project(ROOT), SLUG, texts=False)[0]
ENGINE = GAME.rules.ENGINE
BOXES = {edition: box_from_game(GAME, edition) for edition in GAME.editions}
A, B, C, D = 0, 1, 2, 3
new_game = ENGINE.new_game


def position(*seats, edition="full", seed=0, **setup):
    """Seats as (position, extra keys) or a position; names A, B, C, ... in turn order."""
    players = []
    for index, seat in enumerate(seats):
        extra = {}
        if isinstance(seat, tuple):
            seat, extra = seat
        players.append({"name": "ABCDEF"[index], "position": seat, **extra})
    return ENGINE.from_setup({"players": players, **setup}, seed=seed, box=BOXES[edition])


def hand(*cards):
    return {"hand": list(cards)}


def play(state, *action):
    state.full_checks = True            # every invariant after every action, not only the counts
    state.apply(action)
    state.check_invariants()
    return state


def pos(state):
    return list(state.board.pos)


# ---- the components ---------------------------------------------------------------------------

def test_deck_and_roles_come_from_the_yaml():
    full, free = BOXES["full"], BOXES["free"]
    assert len(full.deck) == 54 and len(free.deck) == 27
    assert full.deck.count("quick") == 15 and free.deck.count("quick") == 10
    assert sorted(full.roles) == sorted(["boss", "intern", "gourmet", "table-guard", "accountant",
                                         "driver", "chef", "gossip"])
    assert free.roles == ()
    assert (full.hand_size, full.fields, full.table, full.clock_red, full.clock_middle) == (3, 15, 16, 15, 8)


def _load_unchecked(project_root):
    game, problems = Project(project_root).load_game(SLUG)
    assert not problems
    game.rules = load_rules(game.meta["rules"])
    return game


def test_changed_card_count_changes_the_deck(project):
    cards = project / "components" / SLUG / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("count: {full: 15, free: 10}",
                                                               "count: {full: 15, free: 7}"), encoding="utf-8")
    box = box_from_game(_load_unchecked(project), "free")
    assert box.deck.count("quick") == 7 and len(box.deck) == 24


def test_a_shortage_is_a_validation_problem_naming_it(project):
    cards = project / "components" / SLUG / "cards.yaml"
    text = cards.read_text(encoding="utf-8").replace("count: {full: 15, free: 10}", "count: {full: 15}")
    cards.write_text(text, encoding="utf-8")
    problems = check_play(_load_unchecked(project))
    # 17 action cards are left in the free edition: 6 hands of 3 need 18. The deck is short: the
    # problem is the cards mapping's.
    assert [(p.file, p.line, p.key, p.message) for p in problems] == [
        (f"components/{SLUG}/cards.yaml", line_of(cards, "cards:"), "cards",
         "a 6-player game of edition 'free' needs 18 action cards, the components have 17")]


def test_a_card_without_a_rule_is_a_validation_problem(project):
    cards = project / "components" / SLUG / "cards.yaml"
    text = cards.read_text(encoding="utf-8").replace("  taxi:\n    deck: action", "  cab:\n    deck: action")
    cards.write_text(text, encoding="utf-8")
    problems = check_play(_load_unchecked(project))
    (cab,) = [p for p in problems if p.key == "cards.cab"]
    assert (cab.file, cab.line) == (f"components/{SLUG}/cards.yaml", line_of(cards, "  cab:"))
    assert cab.message.startswith("edition 'full': action card 'cab' has no rule 'cab' in the engine (rules: quick, ")


def test_team_sizes_the_rules_do_not_allow_fail_validation(project):
    game_yaml = project / "components" / SLUG / "game.yaml"
    replace_in(game_yaml, "  team_size_max: 3\n", "  team_size_max: 4\n")
    result = pnp("validate", SLUG, project=project)
    assert result.exit_code == 1
    line = line_of(game_yaml, "team_size_max")
    assert f"components/{SLUG}/game.yaml:{line}: players.team_size_max: rules need 3, data says 4" in result.stderr


# ---- setup, turns, hands ------------------------------------------------------------------

@pytest.mark.parametrize("edition", ["free", "full"])
def test_a_new_game_deals_three_cards_and_a_role_each(edition):
    state = new_game(5, box=BOXES[edition], seed=3)
    assert [len(h) for h in state.hands] == [3] * 5
    assert len(state.deck) == len(BOXES[edition].deck) - 15
    assert (state.roles.count(None) == 0) == (edition == "full")
    assert len(set(r for r in state.roles if r)) == (5 if edition == "full" else 0)
    assert state.current == 0 and state.clock == 1 and pos(state) == [0] * 5


def test_a_turn_plays_one_card_and_draws_one():
    state = position((0, hand("quick", "taxi", "closed")), 0, deck=["friday", "quick"])
    play(state, "play", "quick", A)
    assert state.hands[A] == ["taxi", "closed", "friday"]
    assert state.discard[-1] == "quick" and state.current == B


def test_a_card_not_in_hand_is_refused_with_a_reason():
    state = position((0, hand("quick", "quick", "quick")), 0)
    with pytest.raises(IllegalAction, match="has no taxi in hand"):
        state.apply(("play", "taxi", A))
    with pytest.raises(IllegalAction, match="role is none"):
        state.apply(("role", "boss"))


# ---- the action cards ---------------------------------------------------------------------

def test_quick_moves_any_pawn_two_forward():
    state = position((3, hand("quick", "quick", "quick")), 5)
    play(state, "play", "quick", B)
    assert pos(state) == [3, 7]


def test_smells_good_moves_two_different_pawns_one_each():
    state = position((3, hand("smells-good", "quick", "quick")), 5, 1)
    assert ("play", "smells-good", A, A) not in state.legal_actions()
    play(state, "play", "smells-good", A, C)
    assert pos(state) == [4, 5, 2]


def test_long_queue_moves_back_two_but_never_behind_start():
    state = position((5, hand("long-queue", "long-queue", "quick")), (1, hand("long-queue", "quick", "quick")))
    play(state, "play", "long-queue", A)          # your own pawn too (FAQ)
    play(state, "play", "long-queue", B)
    assert pos(state) == [3, 0]


def test_closed_cancels_the_next_forward_move_then_goes():
    state = position((2, hand("closed", "quick", "quick")), (4, hand("quick", "taxi", "quick")))
    play(state, "play", "closed", B)
    assert state.board.closed == [0, 1]
    play(state, "play", "quick", B)               # cancelled, token removed
    assert pos(state) == [2, 4] and state.board.closed == [0, 0]
    play(state, "play", "quick", B)
    assert pos(state) == [2, 6]


def test_closed_at_most_one_token_per_pawn_and_played_without_target_when_all_have_one():
    state = position((2, {"closed": True, **hand("closed", "quick", "quick")}), (4, {"closed": True}))
    assert ("play", "closed") in state.legal_actions()
    assert not any(a[:2] == ("play", "closed") and len(a) == 3 for a in state.legal_actions())
    play(state, "play", "closed")                 # still a turn: discarded and replaced
    assert state.board.closed == [1, 1] and len(state.hands[A]) == 3 and state.discard[-1] == "closed"


def test_shortcut_takes_a_last_pawn_and_the_player_picks_among_ties():
    state = position((6, hand("shortcut", "quick", "quick")), 2, 2, 4)
    targets = [a[2] for a in state.legal_actions() if a[1] == "shortcut"]
    assert targets == [B, C]
    play(state, "play", "shortcut", C)
    assert pos(state) == [6, 2, 5, 4]


def test_swap_exchanges_pawns_at_most_three_apart():
    state = position((5, hand("swap", "quick", "quick")), 8, 9, 1)
    pairs = [a[2:] for a in state.legal_actions() if a[1] == "swap"]
    assert (A, B) in pairs and (B, C) in pairs and (A, C) not in pairs and (A, D) not in pairs
    play(state, "play", "swap", A, B)
    assert pos(state) == [8, 5, 9, 1]


def test_swap_without_a_pair_in_reach_is_played_without_target():
    state = position((0, hand("swap", "quick", "quick")), 10)
    assert ("play", "swap") in state.legal_actions()


def test_taxi_takes_a_pawn_that_is_not_first():
    state = position((5, hand("taxi", "quick", "quick")), 8, 8)
    assert [a[2] for a in state.legal_actions() if a[1] == "taxi"] == [A]
    play(state, "play", "taxi", A)
    assert pos(state) == [8, 8, 8]
    tied = position((4, hand("taxi", "quick", "quick")), 4)
    assert ("play", "taxi") in tied.legal_actions()        # every pawn is first: no target, still played
    play(tied, "play", "taxi")
    assert pos(tied) == [4, 4] and tied.current == B


def test_road_works_sends_a_first_pawn_back_three_chosen_among_ties():
    state = position((9, hand("road-works", "quick", "quick")), 9, 4)
    assert [a[2] for a in state.legal_actions() if a[1] == "road-works"] == [A, B]
    play(state, "play", "road-works", B)
    assert pos(state) == [9, 6, 4]


def test_friday_moves_every_pawn_and_a_closed_one_only_loses_its_token():
    state = position((3, hand("friday", "quick", "quick")), (5, {"closed": True}), 15)
    play(state, "play", "friday")
    assert state.is_terminal() and state.winner == C       # 15 + 1 is TABLE
    again = position((3, hand("friday", "quick", "quick")), (5, {"closed": True}), 7)
    play(again, "play", "friday")
    assert pos(again) == [4, 5, 8] and again.board.closed == [0, 0, 0]


def test_double_order_draws_then_plays_another_card_at_once():
    state = position((2, hand("double-order", "quick", "taxi")), 6, deck=["long-queue", "friday"])
    play(state, "play", "double-order")
    assert state.current == A and state.phase == "double-order"
    assert state.hands[A] == ["quick", "taxi", "long-queue"]
    assert all(a[0] == "play" for a in state.legal_actions())
    play(state, "play", "long-queue", B)
    assert state.current == B and state.hands[A] == ["quick", "taxi", "friday"] and pos(state) == [2, 4]


def test_sudden_rain_moves_every_first_pawn_back_one():
    state = position((9, hand("sudden-rain", "quick", "quick")), 9, 5)
    play(state, "play", "sudden-rain")
    assert pos(state) == [8, 8, 5]


# ---- the roles ----------------------------------------------------------------------------

def role(name, **extra):
    return {"role": name, "hand": ["quick", "quick", "quick"], **extra}


def test_a_role_replaces_the_card_no_draw_and_only_once():
    state = position((3, role("gourmet")), (4, hand("quick", "taxi", "quick")), deck=["friday"])
    play(state, "role", "gourmet")
    assert pos(state)[A] == 5 and state.hands[A] == ["quick", "quick", "quick"] and state.deck[-1] == "friday"
    play(state, "play", "quick", B)
    assert ("role", "gourmet") not in state.legal_actions()
    with pytest.raises(IllegalAction, match="already used"):
        state.apply(("role", "gourmet"))


def test_boss_moves_every_other_pawn_back_two():
    state = position((5, role("boss")), 1, 8)
    play(state, "role", "boss")
    assert pos(state) == [5, 0, 6]


def test_intern_moves_one_forward_then_plays_another_turn_in_the_same_round():
    state = position((5, role("intern")), 1, clock=3)
    play(state, "role", "intern")
    assert pos(state) == [6, 1] and state.current == A and state.clock == 3 and state.turns == 2
    play(state, "play", "quick", A)
    assert state.current == B and pos(state) == [8, 1]


def test_accountant_sends_the_first_pawn_back_four_but_not_its_own():
    state = position((3, role("accountant")), 12, 12, 6)
    play(state, "role", "accountant")
    assert pos(state) == [3, 8, 8, 6]         # decided: every pawn tied first goes back


def test_driver_swaps_with_the_nearest_pawn_ahead_chosen_among_ties():
    state = position((3, role("driver")), 6, 6, 10)
    assert [a for a in state.legal_actions() if a[0] == "role"] == [("role", "driver", B), ("role", "driver", C)]
    play(state, "role", "driver", C)
    assert pos(state) == [6, 6, 3, 10]
    first = position((9, role("driver")), 6)
    assert ("role", "driver") in first.legal_actions()      # nobody ahead: no effect, still a role turn


def test_chef_moves_two_and_protects_until_its_owners_next_turn():
    state = position((5, role("chef")), (8, hand("long-queue", "closed", "swap")), (6, role("boss")))
    play(state, "role", "chef")
    assert pos(state)[A] == 7 and state.board.protected == A
    legal = state.legal_actions()
    assert ("play", "long-queue", A) not in legal and ("play", "closed", A) not in legal
    assert ("play", "swap", A, C) not in legal            # decided: a swap may not move it back
    assert ("play", "swap", A, B) in legal                # ... forward is fine
    with pytest.raises(IllegalAction, match="protected by the Chef"):
        state.apply(("play", "long-queue", A))
    play(state, "play", "long-queue", C)
    play(state, "role", "boss")
    assert pos(state) == [7, 6, 4]                        # the Boss cannot move it back (FAQ)
    assert state.current == A and state.board.protected == -1


def test_sudden_rain_and_road_works_leave_the_protected_pawn():
    state = position((10, role("chef")), (12, hand("sudden-rain", "road-works", "quick")))
    play(state, "role", "chef")
    assert pos(state) == [12, 12]
    assert [a for a in state.legal_actions() if a[1] == "road-works"] == [("play", "road-works", B)]
    play(state, "play", "sudden-rain")
    assert pos(state) == [12, 11]


def test_table_guard_acts_by_itself_the_first_time_only():
    state = position((9, role("table-guard")), (5, hand("long-queue", "long-queue", "quick")))
    assert state.current == A and not any(a[0] == "role" for a in state.legal_actions())     # never played
    play(state, "play", "quick", A)
    assert state.to_json()["seats"]["A"]["role_used"] is False
    play(state, "play", "long-queue", A)
    assert pos(state)[A] == 10 and state.role_uses[A] == 1             # 11 - 1, not - 2
    # Spent: its card is face down, in the scenario's view and in the game's tally of roles.
    assert state.to_json()["seats"]["A"]["role_used"] is True
    assert state.stats()["roles"]["table-guard"] == 1
    assert state.current == A and not any(a[0] == "role" for a in state.legal_actions())   # nor an action now
    play(state, "play", "quick", B)
    play(state, "play", "long-queue", A)
    assert pos(state)[A] == 8                                          # the second time in full
    assert state.role_uses[A] == 1 and state.stats()["roles"]["table-guard"] == 1


def test_table_guard_cancels_a_closed_token_and_ignores_own_moves_and_one_field_moves():
    closing = position((4, role("table-guard")), (5, hand("closed", "quick", "quick")), current="B")
    play(closing, "play", "closed", A)
    assert closing.board.closed == [0, 0] and closing.role_uses[A] == 1
    own = position((4, {**role("table-guard"), "hand": ["long-queue", "quick", "quick"]}), 5)
    play(own, "play", "long-queue", A)
    assert pos(own)[A] == 2 and own.role_uses[A] == 0
    rain = position((6, role("table-guard")), (5, hand("sudden-rain", "quick", "quick")), current="B")
    play(rain, "play", "sudden-rain")
    assert pos(rain)[A] == 5 and rain.role_uses[A] == 0               # 1 field: nothing to guard


def test_gossip_plays_a_discard_at_once_and_returns_it():
    state = position((4, role("gossip")), 9, discard=["road-works", "quick"])
    play(state, "role", "gossip")
    assert state.phase == "gossip" and {a[1] for a in state.legal_actions()} == {"road-works", "quick"}
    play(state, "play", "road-works", B)
    assert pos(state) == [4, 6] and state.discard[-1] == "road-works" and len(state.discard) == 2
    assert state.hands[A] == ["quick", "quick", "quick"] and state.current == B


def test_gossip_with_double_order_plays_a_hand_card_and_refills():
    state = position((4, role("gossip")), 9, discard=["double-order"], deck=["taxi"])
    play(state, "role", "gossip")
    play(state, "play", "double-order")
    assert state.phase == "double-order" and state.discard[-1] == "double-order"
    play(state, "play", "quick", A)
    assert state.hands[A] == ["quick", "quick", "taxi"] and pos(state) == [6, 9]


def test_gossip_with_empty_discards_does_nothing():
    state = position((4, role("gossip")), 9)
    play(state, "role", "gossip")
    assert state.current == B and pos(state) == [4, 9]


# ---- the end ------------------------------------------------------------------------------

def test_reaching_table_ends_the_game_at_once_surplus_steps_do_not_matter():
    state = position((14, hand("taxi", "quick", "quick")), 15)
    play(state, "play", "taxi", A)
    assert state.is_terminal() and state.ended_by == "table" and state.winner == A
    assert pos(state) == [16, 15] and state.returns() == [1.0, 0.0] and state.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        state.apply(("play", "quick", A))


def test_two_pawns_at_table_together_go_to_rock_paper_scissors():
    winners = set()
    for seed in range(12):
        state = position((15, hand("friday", "quick", "quick")), 15, 3, seed=seed)
        play(state, "play", "friday")
        assert state.tied == [A, B]
        winners.add(state.winner)
    assert winners == {A, B}


def test_the_clock_moves_after_every_round_and_ends_the_game_at_red():
    state = position((3, hand("quick", "quick", "quick")), (5, hand("quick", "quick", "quick")), clock=13)
    play(state, "play", "quick", A)
    assert state.clock == 13
    play(state, "play", "quick", A)
    assert state.clock == 14 and not state.is_terminal()
    play(state, "play", "quick", B)
    play(state, "play", "quick", B)
    assert state.is_terminal() and state.ended_by == "clock" and state.clock == 15
    assert pos(state) == [7, 9] and state.winner == B


def test_a_clock_tie_goes_to_rock_paper_scissors():
    winners = set()
    quicks = hand("quick", "quick", "quick")
    for seed in range(12):
        state = position((5, quicks), (7, quicks), (7, quicks), clock=14, seed=seed)
        play(state, "play", "quick", A)
        play(state, "play", "quick", C)
        play(state, "play", "quick", B)
        assert state.ended_by == "clock" and pos(state) == [7, 9, 9] and state.tied == [B, C]
        winners.add(state.winner)
    assert winners == {B, C}


def test_the_quick_game_ends_at_the_clocks_middle():
    state = position((3, hand("quick", "quick", "quick")), (5, hand("quick", "quick", "quick")), clock=7,
                     options={"quick": True})
    assert state.clock_end == 8
    play(state, "play", "quick", A)
    play(state, "play", "quick", A)
    assert state.is_terminal() and state.ended_by == "clock"
    seeded = new_game(4, box=BOXES["full"], seed=5, quick=True)
    assert seeded.clock_end == 8


def test_an_empty_deck_reshuffles_the_discards():
    state = position((2, hand("quick", "quick", "quick")), 4, rest="discard")
    assert state.deck == [] and len(state.discard) == 54 - 6
    play(state, "play", "quick", A)
    assert state.reshuffles == 1 and len(state.hands[A]) == 3 and len(state.deck) == 54 - 6
    assert state.discard == []


# ---- players, teams, variants -------------------------------------------------------------

@pytest.mark.parametrize("players,team_size,members", [
    (6, 2, [1] * 6), (7, 2, [3, 2, 2]), (8, 2, [2, 2, 2, 2]), (9, 2, [3, 2, 2, 2]), (10, 2, [2] * 5),
    (7, 3, [3, 2, 2]), (9, 3, [3, 3, 3]), (10, 3, [3, 3, 2, 2]),
])
def test_teams_from_seven_players_share_a_pawn_a_hand_and_a_turn(players, team_size, members):
    state = new_game(players, box=BOXES["full"], seed=1, team_size=team_size)
    assert state.members == members and state.seats == len(members) and len(state.hands) == len(members)
    assert state.to_json()["players"] == players


def test_teams_of_a_size_the_rules_do_not_allow_are_refused():
    with pytest.raises(OptionError, match="teams are of 2 or 3"):
        new_game(8, box=BOXES["full"], team_size=4)


def test_a_scenario_asking_for_teams_the_rules_do_not_allow_is_refused():
    """Even when that many players play without teams."""
    with pytest.raises(ScenarioError, match="teams are of 2 or 3 players, not 4") as caught:
        ENGINE.from_setup({"players": 4, "options": {"team_size": 4}}, box=BOXES["full"])
    assert caught.value.path == ("options", "team_size")


def test_playing_without_roles():
    state = new_game(4, box=BOXES["full"], seed=2, roles=False)
    assert state.roles == [None] * 4 and not any(a[0] == "role" for a in state.legal_actions())
    final = play_game(ENGINE, {"box": BOXES["full"]}, players=4, edition="full", seed=2, options={"roles": False})
    assert sum(final.role_plays.values()) == 0


def test_the_free_edition_has_no_roles():
    with pytest.raises(ScenarioError, match="has no roles"):
        position((0, {"role": "boss"}), 0, edition="free")


# ---- invariants ---------------------------------------------------------------------------

def test_invariants_catch_a_lost_card_a_pawn_off_the_board_a_second_token_a_second_role():
    def fresh():
        return position((3, role("boss")), 5)
    broken = fresh()
    broken.hands[A].pop()
    with pytest.raises(InvariantBroken, match="cards created or lost: quick -1"):
        broken.check_invariants()
    broken = fresh()
    broken.board.pos[B] = -1
    with pytest.raises(InvariantBroken, match="behind START"):
        broken.check_invariants()
    broken = fresh()
    broken.board.pos[B] = 16
    with pytest.raises(InvariantBroken, match="past TABLE"):
        broken.check_invariants()
    broken = fresh()
    broken.board.closed[B] = 2
    with pytest.raises(InvariantBroken, match="2 Closed tokens"):
        broken.check_invariants()
    broken = fresh()
    broken.role_uses[A] = 2
    with pytest.raises(InvariantBroken, match="used the boss 2 times"):
        broken.check_invariants()


@pytest.mark.parametrize("full_checks", [False, True])
def test_the_check_after_an_action_counts_the_cards_and_the_full_check_knows_them(full_checks):
    """A card swapped for another after an action: the check after it counts the cards (unless
    full_checks); the full check of every FULL_CHECK_EVERY-th turn names the card."""
    from generator.rules.race_to_the_table.state import FULL_CHECK_EVERY
    state = ENGINE.new_game(4, box=ENGINE.box(GAME, "free"), seed=2)
    state.full_checks = full_checks
    state.check_invariants()
    state.apply(state.legal_actions()[0])
    held = state.hands[state.current]
    held[0] = next(card for card in state._all_cards if card != held[0])       # one kind more, one less
    if full_checks:
        with pytest.raises(InvariantBroken, match="cards created or lost"):
            state.check_invariants()
        return
    with pytest.raises(InvariantBroken, match="cards created or lost"):
        for _ in range(2 * FULL_CHECK_EVERY * 4):
            state.check_invariants()
            state.apply(state.legal_actions()[0])
    state = ENGINE.new_game(4, box=ENGINE.box(GAME, "free"), seed=2)
    state.check_invariants()
    state.apply(state.legal_actions()[0])
    state.hands[state.current].pop()
    with pytest.raises(InvariantBroken, match="cards created or lost"):     # counted at once, then named
        state.check_invariants()


def test_greedy_takes_a_winning_move():
    state = position((14, hand("long-queue", "quick", "smells-good")), 15)
    action = ENGINE.policies["greedy"](state, random.Random(0))
    assert action == ("play", "quick", A)
