"""The Game (seed 003): the components against the rules, the engine rule by rule on positions
built the way scenarios build them, the heuristic player, both minimum rules through `pnp
simulate`, and the kit. What every game is checked for is in test_every_game.py."""
from __future__ import annotations

import json
import re

import pypdfium2 as pdfium
import pytest

from conftest import ROOT, pnp, replace_in
from generator.app.loading import load_games, read_game
from generator.layout.faces import sheet_grid
from generator.load.project import Project
from generator.rules.engine import IllegalAction, InvariantBroken, OptionError, ScenarioError
from generator.rules.simulate import GameSource, Workers, simulate
from generator.rules.the_game.policies import heuristic_policy
from generator.rules.the_game.state import END


SLUG = "the-game"
GAME = load_games(Project(ROOT), SLUG, texts=False)[0]
ENGINE = GAME.rules.ENGINE
BOX = ENGINE.box(GAME, "standard")
SCENARIOS = ROOT / "components" / SLUG / "scenarios"
UP1, UP2, DOWN1, DOWN2 = range(4)
new_game = ENGINE.new_game


def position(*hands, piles=None, deck=None, rest="deck", **setup):
    """Players A, B, C, ... holding `hands`, in turn order."""
    players = [{"name": "ABCDE"[index], "hand": list(hand)} for index, hand in enumerate(hands)]
    data = {"players": players, "piles": piles or {}, "deck": deck or [], "rest": rest, **setup}
    return ENGINE.from_setup(data, seed=0, box=BOX)


def play(state, *actions):
    state.full_checks = True            # every invariant after every action, not only what it changed
    for action in actions:
        state.apply(action)
        state.check_invariants()
    return state


def card(number, pile):
    return ("play", number, pile)


# An end-game position (draw pile empty, every other card on the piles) that leaves the
# current player A few options: 40 goes on 50 backwards, then 31 fits nowhere.
STUCK_PILES = {"up-1": [50], "up-2": [61], "down-1": [22], "down-2": [23]}


# ---- the components ------------------------------------------------------------------------

def test_the_cards_come_from_the_yaml():
    assert BOX.numbers == tuple(range(2, 100))
    assert BOX.piles == (1, 1, 100, 100)
    assert dict(BOX.hand_sizes) == {1: 8, 2: 7, 3: 6, 4: 6, 5: 6}


def test_a_missing_number_card_fails_validation(project):
    replace_in(project / "components" / SLUG / "cards.yaml",
               'value: 42, colour: "#0C7C5B", count: {standard: 1}}', 'value: 42, colour: "#0C7C5B", count: {standard: 0}}')
    result = pnp("validate", SLUG, project=project)
    assert result.exit_code == 1
    assert "cards.n42.count.standard: rules need 1, data says 0" in result.stderr
    assert "total cards/numbers in edition 'standard': rules need 98, data says 97" in result.stderr


def test_a_card_showing_another_number_fails_validation(project):
    replace_in(project / "components" / SLUG / "cards.yaml", 'name: "42", value: 42', 'name: "24", value: 42')
    result = pnp("validate", SLUG, project=project)
    assert result.exit_code == 1
    assert "cards.n42.name: rules need 42, data says 24" in result.stderr


def test_a_wrong_hand_size_fails_validation(project):
    replace_in(project / "components" / SLUG / "game.yaml", '"2": 7', '"2": 9')
    result = pnp("validate", SLUG, project=project)
    assert result.exit_code == 1
    assert "hand_sizes.2: rules need 7, data says 9" in result.stderr


# ---- dealing -------------------------------------------------------------------------------

@pytest.mark.parametrize("players, hand", [(1, 8), (2, 7), (3, 6), (4, 6), (5, 6)])
def test_a_new_game_deals_the_hand_size_of_the_table(players, hand):
    state = new_game(players, box=BOX, seed=11)
    assert [len(h) for h in state.hands] == [hand] * players
    assert len(state.deck) == 98 - hand * players
    assert [p.top for p in state.piles] == [1, 1, 100, 100]
    assert state.current_player() == 0 and state.required == 2
    state.check_invariants()


# ---- playing cards -------------------------------------------------------------------------

def test_an_ascending_pile_takes_any_higher_card_only():
    state = position([20, 24, 26, 60, 70, 80, 90, 95], piles={"up-1": [25]})
    legal = state.legal_actions()
    assert card(26, UP1) in legal and card(95, UP1) in legal
    assert card(24, UP1) not in legal and card(20, UP1) not in legal
    with pytest.raises(IllegalAction, match="24 cannot go on up-1"):
        state.apply(card(24, UP1))
    play(state, card(26, UP1), card(90, UP1))
    assert state.piles[UP1].cards == [25, 26, 90]


def test_a_descending_pile_takes_any_lower_card_only():
    state = position([5, 42, 52, 60, 70, 80, 90, 95], piles={"down-1": [51]})
    legal = state.legal_actions()
    assert card(42, DOWN1) in legal and card(5, DOWN1) in legal
    assert card(52, DOWN1) not in legal and card(60, DOWN1) not in legal
    play(state, card(42, DOWN1), card(5, DOWN1))
    assert state.piles[DOWN1].top == 5


def test_backwards_by_exactly_ten_both_ways():
    state = position([30, 39, 41, 57, 66, 67, 88, 95], piles={"up-1": [77], "down-2": [31]})
    legal = state.legal_actions()
    assert card(67, UP1) in legal and card(41, DOWN2) in legal
    # The seed's example (66 on 77) is 11 backwards, 39 on 31 is 8: both refused.
    assert card(66, UP1) not in legal and card(39, DOWN2) not in legal
    play(state, card(67, UP1), card(41, DOWN2), card(57, UP1))
    assert state.piles[UP1].cards == [77, 67, 57] and state.piles[DOWN2].cards == [31, 41]
    assert state.backwards == 3


def test_a_card_not_in_hand_or_on_no_pile_is_refused():
    state = position([30, 39, 41, 57, 66, 67, 88, 95])
    with pytest.raises(IllegalAction, match="not in A's hand"):
        state.apply(card(31, UP1))
    with pytest.raises(IllegalAction, match="no pile"):
        state.apply(card(30, 4))


# ---- the minimum, refilling, turns -----------------------------------------------------------

def test_two_cards_at_least_then_refill_and_pass_on():
    state = position([10, 20, 30, 40, 50, 60, 70], [11, 21, 31, 41, 51, 61, 71], deck=[5, 95, 45])
    assert END not in state.legal_actions()
    play(state, card(10, UP1))
    assert END not in state.legal_actions()
    with pytest.raises(IllegalAction, match="must play 2"):
        state.apply(END)
    play(state, card(20, UP1))
    assert END in state.legal_actions()
    play(state, card(30, UP1), END)          # more than the minimum is allowed
    assert state.hands[0] == [5, 40, 45, 50, 60, 70, 95]
    assert state.current_player() == 1 and state.played == 0 and state.cards_left == 95


def test_the_whole_hand_may_be_played_and_is_refilled():
    state = position([10, 20, 30, 40, 50, 60, 70], [11, 21, 31, 41, 51, 61, 71])
    for number in (10, 20, 30, 40, 50, 60, 70):
        play(state, card(number, UP1))
    assert state.hands[0] == [] and state.legal_actions() == [END]
    play(state, END)
    assert len(state.hands[0]) == 7


def test_after_the_draw_pile_the_seed_keeps_two():
    state = position([40, 41, 42], [60], piles={"up-1": [39], "down-1": [43]}, rest="piles")
    assert state.deck == [] and state.required == 2
    play(state, card(40, UP1))
    assert END not in state.legal_actions()


def test_the_last_card_in_hand_is_the_whole_minimum():
    state = position([45], [46, 47], piles={"up-1": [44], "down-1": [48]}, rest="piles")
    assert state.required == 1
    play(state, card(45, UP1))
    assert END in state.legal_actions()
    play(state, END)
    assert state.current_player() == 1


def test_a_player_without_cards_is_passed_over():
    state = position([45, 48], [46], [53, 54], piles={"up-1": [44], "up-2": [52], "down-1": [55], "down-2": [60]},
                     rest="piles")
    play(state, card(45, UP1), card(48, UP1), END)
    play(state, card(46, DOWN1), END)
    play(state, card(54, DOWN2), card(53, DOWN2))
    assert state.status == "won"
    state = position([45, 47, 48], [46], [53, 54],
                     piles={"up-1": [44], "up-2": [52], "down-1": [55], "down-2": [60]}, rest="piles")
    play(state, card(45, UP1), card(47, UP1), END, card(46, DOWN1), END)
    assert state.current_player() == 2
    play(state, card(54, DOWN2), card(53, DOWN2), END)
    assert state.current_player() == 0            # B, out of cards, is passed over


def test_the_published_variant_lowers_the_minimum_once_the_draw_pile_is_empty():
    state = position([31, 40], [70], piles=STUCK_PILES, rest="piles", options={"min_after_empty": 1})
    assert state.required == 1
    play(state, card(40, UP1), END)
    assert state.status == "playing" and state.current_player() == 1
    # While cards are left to draw the variant changes nothing.
    state = position([10, 20, 30, 40, 50, 60, 70], [11, 21, 31, 41, 51, 61, 71],
                     options={"min_after_empty": 1})
    assert state.required == 2


def test_an_unknown_variant_value_is_refused():
    with pytest.raises(OptionError, match="min_after_empty"):
        new_game(2, box=BOX, min_after_empty=3)
    with pytest.raises(ScenarioError, match=r"min_after_empty is 2 \(the seed.*or 1 \(the published rules\), not 0"):
        position([31, 40], [70], piles=STUCK_PILES, rest="piles", options={"min_after_empty": 0})


# ---- the end and the score -----------------------------------------------------------------

def test_the_game_is_lost_when_the_second_card_cannot_be_played():
    state = position([31, 40], [70], piles=STUCK_PILES, rest="piles")
    play(state, card(40, UP1))
    assert state.is_terminal() and state.status == "lost"
    assert state.returns() == [0.0, 0.0]
    assert state.cards_left == 2 and state.stats()["result"] == "lost"
    assert state.to_json()["lost_by"] == "A" and state.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        state.apply(END)


def test_the_game_is_lost_when_a_turn_cannot_begin():
    state = position([31, 35], [70], piles=STUCK_PILES, rest="piles")
    assert state.status == "lost" and state.cards_left == 3


def test_the_game_is_won_when_every_card_is_played():
    state = position([45, 47, 48], [46], piles={"up-1": [44], "down-1": [49]}, rest="piles")
    play(state, card(45, UP1), card(47, UP1), card(48, UP1), END)
    assert not state.is_terminal()
    play(state, card(46, DOWN1))
    assert state.status == "won" and state.returns() == [1.0, 1.0]
    assert state.cards_left == 0 and state.stats()["cards_left"] == 0


def test_the_score_counts_the_draw_pile_and_every_hand():
    state = new_game(4, box=BOX, seed=3)
    assert state.cards_left == 98
    play(state, card(state.hands[0][0], UP1), card(state.hands[0][1], UP1))
    assert state.cards_left == 96


# ---- invariants ----------------------------------------------------------------------------

def test_invariants_catch_a_lost_or_doubled_card():
    state = new_game(3, box=BOX, seed=1)
    state.hands[1][0] = state.hands[0][0]
    with pytest.raises(InvariantBroken, match="exactly once"):
        state.check_invariants()


def test_invariants_catch_a_pile_out_of_order():
    state = new_game(3, box=BOX, seed=1)
    state.piles[UP1].cards = [state.deck.pop(), state.deck.pop(), state.deck.pop()]
    state.piles[UP1].cards.sort(reverse=True)
    with pytest.raises(InvariantBroken, match="up-1 has"):
        state.check_invariants()


def test_invariants_catch_a_hand_not_refilled():
    state = new_game(2, box=BOX, seed=1)
    state.deck.append(state.hands[1].pop())
    with pytest.raises(InvariantBroken, match="holds 6 cards"):
        state.check_invariants()


def test_the_check_after_an_action_catches_what_the_action_broke():
    state = new_game(3, box=BOX, seed=1)
    state.check_invariants()
    played = state.legal_actions()[0]
    state.apply(played)
    state.piles[played[2]].cards.append(state.deck.pop())      # a card played twice over
    with pytest.raises(InvariantBroken):
        state.check_invariants()


@pytest.mark.parametrize("full_checks", [False, True])
def test_the_full_check_catches_what_the_check_after_an_action_does_not(full_checks):
    """A hand the last action did not touch, broken: the check of what the action changed
    passes it (unless full_checks); the full check of every FULL_CHECK_EVERY-th action does not."""
    from generator.rules.the_game.state import FULL_CHECK_EVERY
    state = new_game(3, box=BOX, seed=1)
    state.full_checks = full_checks
    state.check_invariants()
    state.apply(state.legal_actions()[0])
    other = (state.seat + 1) % 3
    state.hands[other][0] = state.hands[state.seat][0]          # the same card in two hands
    if full_checks:
        with pytest.raises(InvariantBroken, match="exactly once"):
            state.check_invariants()
        return
    state.check_invariants()
    with pytest.raises(InvariantBroken, match="exactly once"):
        for _ in range(FULL_CHECK_EVERY):
            state.apply(state.legal_actions()[-1])
            state.check_invariants()


def test_the_heuristic_plays_backwards_moves_and_then_ends_the_turn():
    state = position([30, 39, 41, 57, 66, 67, 88, 95], piles={"up-1": [77], "down-2": [31]})
    assert heuristic_policy(state, None) in (card(67, UP1), card(41, DOWN2))
    play(state, card(67, UP1), card(41, DOWN2))
    # Past the minimum, another backwards move is still worth playing ...
    assert heuristic_policy(state, None) == card(57, UP1)
    play(state, card(57, UP1))
    # ... but nothing left skips no unplayed card, so the hand keeps its choice.
    assert heuristic_policy(state, None) == END


# ---- through pnp ---------------------------------------------------------------------------

def test_every_rule_has_a_scenario():
    names = {p.stem for p in SCENARIOS.glob("*.yaml")}
    assert {"rule-ascending", "rule-descending", "rule-backwards-ten", "rule-minimum-two", "rule-last-card",
            "variant-minimum-one", "end-lost", "start-lost"} <= names
    assert any(name.startswith("playthrough-") for name in names)


def test_a_scenario_with_an_illegal_move_fails_saying_why(tmp_path):
    text = (SCENARIOS / "rule-backwards-ten.yaml").read_text(encoding="utf-8")
    broken = tmp_path / "broken.yaml"
    broken.write_text(text.replace("- {player: Ana, play: 67, pile: up-1}", "- {player: Ana, play: 66, pile: up-1}"),
                      encoding="utf-8")
    result = pnp("play", SLUG, str(broken))
    assert result.exit_code == 1
    assert "illegal action: 66 cannot go on up-1, an ascending pile showing 77" in result.stderr


def test_simulate_runs_both_minimum_rules():
    runs = {}
    for value in ("2", "1"):
        result = pnp("simulate", SLUG, "--games", "20", "--policy", "heuristic", "--option",
                     f"min_after_empty={value}", "--json")
        assert result.exit_code == 0, result.output
        runs[value] = json.loads(result.stdout)["runs"]
    assert [run["players"] for run in runs["2"]] == [1, 2, 3, 4, 5]
    assert all(run["options"] == {"min_after_empty": 2} for run in runs["2"])
    assert all(run["options"] == {"min_after_empty": 1} for run in runs["1"])
    # Same seeds, so the variant's games are the same deals: it can only help.
    for seed_rule, variant in zip(runs["2"], runs["1"]):
        assert variant["numbers"]["cards_left"]["mean"] <= seed_rule["numbers"]["cards_left"]["mean"]
    result = pnp("simulate", SLUG, "--option", "min_after_empty=two")
    assert result.exit_code == 2


MM = 72 / 25.4


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    out = tmp_path_factory.mktemp("kit")
    # what these tests read: card sheets (every game's booklets are read in tests/test_booklet_print.py)
    result = pnp("build", "--game", SLUG, "--kind", "cards", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_cut_sheets_hold_every_card_once(kit, paper):
    project = Project(ROOT)
    papers = project.load_sheet("papers")["papers"]
    grid = sheet_grid(project.load_sheet("poker-3x3"), tuple(papers[paper]["size_mm"]))
    pdf = pdfium.PdfDocument(kit / SLUG / "standard" / "cs" / f"{SLUG}-standard-cs-cards-{paper}.pdf")
    assert len(pdf) == 2 * 12                 # 102 cards, 9 a sheet, each sheet with its backs
    centres = []
    for page in range(0, len(pdf), 2):
        text = pdf[page].get_textpage()
        for index in range(grid.per_page):
            slot = grid.slot(index)
            # The large number in the middle of the face (the rule text lies below this box).
            found = re.findall(r"\d+", text.get_text_bounded(*(v * MM for v in (
                slot.x + 12, slot.y + 31, slot.x + 51, slot.y + 60))))
            centres += [int(n) for n in found]
        backs = pdf[page + 1].get_textpage().get_text_range()
        assert not re.search(r"\d", backs)     # a back gives nothing away
    assert sorted(centres) == [1, 1] + list(range(2, 100)) + [100, 100]


def test_worker_processes_play_the_games_of_one_process():
    def run(jobs):
        with Workers(jobs, GameSource(read_game, (str(ROOT), SLUG))) as workers:
            return simulate(ENGINE, GAME, edition="standard", players=3, games=9, options={"min_after_empty": 1},
                            workers=workers).to_json()
    assert run(2) == run(1)
