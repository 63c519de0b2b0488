"""The Donkey Can! ("Ішак зможе!", seed 001): the box of 90 cards and what each player needs,
checked by `pnp validate`; every rule of a round through the engine and its scenarios; seeded
games keeping the invariants; and the printed kit with double-sided contract and cargo cards."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from conftest import ROOT, cell_texts, line_of, pnp, replace_in
from generator.app.loading import read_game
from generator.load.project import Project
from generator.rules.donkey_can import ENGINE, SPEC
from generator.rules.donkey_can.design import (
    ADVANTAGE_ON,
    ADVANTAGE_SHIFT,
    CAPACITY_PER_PLAYER,
    MAX_ADVANTAGES,
    ROUNDS,
    design_problems,
)
from generator.rules.donkey_can.state import box_from_game
from generator.rules.engine import IllegalAction, InvariantBroken, random_policy
from generator.rules.simulate import GameSource, Workers, play_out, policy_rng, simulate


GAME = "donkey-can"
SCENARIOS = sorted((ROOT / "components" / GAME / "scenarios").glob("*.yaml"))
ON = {kind: value for value, kind in ADVANTAGE_ON.items()}
new_game = ENGINE.new_game


def adv(colour: str, kind: str) -> str:
    """The card of a colour that carries the driver advantage `kind` on its back."""
    return f"cargo-{colour}-{ON[kind]}"


@pytest.fixture(scope="module")
def box():
    game, problems = Project(ROOT).load_game(GAME)
    assert not problems
    return box_from_game(game)


def play(state, policy="random", seed=0, check=True):
    """Play on to the end as the simulator's players of that seed would."""
    return play_out(ENGINE, state, policy, policy_rng(seed), check=check)


def plain_round(state, cargo: dict[int, int], contracts: dict[int, str]):
    """Play one round: each seat's card by value, no advantages, the given contracts."""
    while state.phase == "cargo":
        seat = state.current_player()
        card = next(c for c in state.hands[seat] if state.cards[c].value == cargo[seat])
        state.apply(("cargo", seat, card))
    while state.phase == "advantage":
        state.apply(("pass", state.current_player()))
    while state.phase == "contract":
        seat = state.current_player()
        state.apply((contracts[seat], seat))
    state.check_invariants()
    return state.history[-1]


# ---- the box ------------------------------------------------------------------------------

def test_the_box_holds_exactly_90_cards_as_decided():
    game, problems = Project(ROOT).load_game(GAME)
    assert not problems
    by_deck = Counter()
    for component in game.in_edition("standard", "cards"):
        by_deck[component.group] += component.count("standard")
    assert sum(by_deck.values()) == 90
    assert by_deck == {"donkeys": 20, "contracts": 5, "cargo": 55, "reference": 5, "first-player": 1, "capacity": 4}
    assert SPEC.totals["standard"]["cards"] == 90 and not design_problems()


def test_every_colour_holds_8_rounds_plus_2_advantages(box):
    assert len(box.colours) == SPEC.max_players
    for colour in box.colours:
        assert len(colour.cargo) >= ROUNDS + MAX_ADVANTAGES
        assert sum(1 for card in colour.cargo if card.advantage) >= MAX_ADVANTAGES
        assert sorted(card.value for card in colour.cargo) == list(range(11))
    assert len(box.donkeys) == 20 and sum(d.change for d in box.donkeys) == 0
    for players in range(SPEC.min_players, SPEC.max_players + 1):
        need = SPEC.setup(players, "standard").components
        assert need["cards/cargo"] == players * (ROUNDS + MAX_ADVANTAGES)
        assert need["cards/donkeys"] == ROUNDS


def test_a_changed_card_count_fails_validation_with_file_and_line(project):
    cards = project / "components" / GAME / "cards.yaml"
    old = 'cargo-red-0: {deck: cargo, name: "0", value: 0, colour: "#C62828", count: {standard: 1}}'
    replace_in(cards, old, old.replace("standard: 1", "standard: 2"))
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1
    line = line_of(cards, "cargo-red-0:")
    assert f"components/{GAME}/cards.yaml:{line}: cards.cargo-red-0.count.standard: rules need 1, data says 2" \
        in result.stderr
    where = f"components/{GAME}/cards.yaml:{line_of(cards, 'cards:')}: cards"
    assert f"{where}: total cards in edition 'standard': rules need 90, data says 91\n" in result.stderr
    assert f"{where}: total cards/cargo in edition 'standard': rules need 55, data says 56\n" in result.stderr
    assert result.stderr.endswith("3 problem(s) found.\n") and not result.traceback


def test_a_colour_short_of_cargo_fails_the_per_player_need(project):
    """Two red cargo cards printed blue: the counts and the total of 90 still hold, but red
    cannot seat a player who plays 8 rounds and 2 advantages."""
    cards = project / "components" / GAME / "cards.yaml"
    for value in (5, 6):
        old = f'cargo-red-{value}: {{deck: cargo, name: "{value}", value: {value}, colour: "#C62828",'
        replace_in(cards, old, old.replace("#C62828", "#1E5AA8"))
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1
    assert "colour #C62828 has 9 cargo cards; a player needs 8 rounds + 2 advantages = 10" in result.stderr
    assert f"components/{GAME}/cards.yaml:{line_of(cards, 'cards:')}: cards:" in result.stderr
    assert "total cards" not in result.stderr and not result.traceback


def test_a_cargo_value_or_advantage_that_differs_from_the_rules_is_named(project):
    cards = project / "components" / GAME / "cards.yaml"
    replace_in(cards, 'cargo-blue-7: {deck: cargo, name: "7", value: 7,', 'cargo-blue-7: {deck: cargo, name: "7", value: 8,')
    text = cards.read_text(encoding="utf-8")
    start = text.index("  cargo-yellow-4:")
    cards.write_text(text[:start] + text[start:].replace("effect: swap", "effect: fly", 1), encoding="utf-8")
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1
    assert f"cards.yaml:{line_of(cards, 'cargo-blue-7:')}: cards.cargo-blue-7.value: rules need 7, data says 8" \
        in result.stderr
    line = line_of(cards, "effect: fly", start="cargo-yellow-4:")
    assert f"cards.yaml:{line}: cards.cargo-yellow-4.effect: rules need swap, data says fly" in result.stderr


# ---- the rules ----------------------------------------------------------------------------

@pytest.mark.parametrize("players", range(2, 6))
def test_setup_deals_a_colour_each_and_8_of_the_20_donkeys(box, players):
    state = new_game(players, seed=players, box=box)
    assert [len(hand) for hand in state.hands] == [11] * players
    assert len(state.donkeys) == ROUNDS and len(state.set_aside) == 12
    assert len({colour.colour for colour in state.colours}) == players
    assert state.phase == "cargo" and state.current_player() == state.first
    assert state.capacity() == CAPACITY_PER_PLAYER * players + state.donkey.change


def test_capacity_is_five_per_player_changed_by_the_donkey(box):
    for players in range(2, 6):
        state = ENGINE.from_setup({"players": [f"p{i}" for i in range(players)], "donkeys": ["donkey-sirko"]},
                                  box=box)
        assert state.capacity() == 5 * players
    state = ENGINE.from_setup({"players": ["a", "b", "c"], "donkeys": ["donkey-ledar"]}, box=box)
    assert state.capacity() == 15 - 6


def test_not_overloaded_gives_acceptors_their_own_card_and_equal_is_not_overloaded(box):
    state = ENGINE.from_setup({"players": ["a", "b", "c"], "donkeys": ["donkey-sirko"]}, box=box)
    outcome = plain_round(state, {0: 10, 1: 5, 2: 0}, {0: "accept", 1: "refuse", 2: "accept"})
    assert (outcome.load, outcome.capacity, outcome.overloaded) == (15, 15, False)
    assert state.won == [["cargo-red-10"], [], ["cargo-green-0"]]
    assert state.discard == ["cargo-blue-5"]


def test_overloaded_deals_refusers_random_cards_from_the_shuffled_cargo(box):
    drawn = Counter()
    for seed in range(60):
        state = ENGINE.from_setup({"players": ["a", "b", "c"], "donkeys": ["donkey-sirko"]}, seed=seed, box=box)
        outcome = plain_round(state, {0: 10, 1: 9, 2: 8}, {0: "refuse", 1: "refuse", 2: "accept"})
        assert outcome.overloaded and set(outcome.taken) == {0, 1}
        assert state.won[2] == [] and len(state.discard) == 1
        drawn.update(state.won[0])
    assert set(drawn) == {"cargo-red-10", "cargo-blue-9", "cargo-green-8"}    # any card may come


def test_advantage_cards_do_not_count_and_carrot_and_sack_move_the_capacity(box):
    state = ENGINE.from_setup({"players": ["a", "b"], "donkeys": ["donkey-sirko"]}, box=box)
    state.apply(("cargo", 0, "cargo-red-9"))
    state.apply(("cargo", 1, "cargo-blue-5"))
    state.apply(("advantage", 0, adv("red", "carrot"), None))
    assert state.capacity() == 10 + ADVANTAGE_SHIFT
    state.apply(("advantage", 1, adv("blue", "sack"), None))
    assert state.capacity() == 10
    state.apply(("accept", 0))
    state.apply(("refuse", 1))
    outcome = state.history[-1]
    assert outcome.load == 14 and outcome.overloaded          # the advantage cards weigh nothing
    assert {adv("red", "carrot"), adv("blue", "sack")} <= set(state.discard)


def test_peek_shows_one_card_and_a_later_swap_hides_it_again(box):
    state = ENGINE.from_setup({"players": ["a", "b"], "donkeys": ["donkey-sirko"]}, box=box)
    state.apply(("cargo", 0, "cargo-red-9"))
    state.apply(("cargo", 1, "cargo-blue-6"))
    assert len(state.possible_cards(0, 1)) > 1
    state.apply(("advantage", 0, adv("red", "peek"), 1))
    assert state.possible_cards(0, 1) == ["cargo-blue-6"]
    state.apply(("advantage", 1, adv("blue", "swap"), "cargo-blue-10"))
    assert state.table[1] == "cargo-blue-10" and "cargo-blue-6" in state.hands[1]
    assert "cargo-blue-6" in state.possible_cards(0, 1) and len(state.possible_cards(0, 1)) > 1
    state.check_invariants()


def test_at_most_two_advantages_a_game_and_one_a_round(box):
    state = ENGINE.from_setup({"players": ["a", "b"], "donkeys": ["donkey-sirko", "donkey-vukhan", "donkey-myshko"]},
                              box=box)

    def cargo_down():
        for seat in (state.first, 1 - state.first):
            state.apply(("cargo", seat, next(c for c in state.hands[seat] if not state.cards[c].advantage)))

    def finish_round():
        while state.phase != "cargo":
            seat = state.current_player()
            state.apply(("pass", seat) if state.phase == "advantage" else ("accept", seat))
        state.check_invariants()

    cargo_down()
    state.apply(("advantage", 0, adv("red", "carrot"), None))
    with pytest.raises(IllegalAction, match="turn"):          # a second one in the same round
        state.apply(("advantage", 0, adv("red", "sack"), None))
    finish_round()
    cargo_down()                                               # b holds the first-player card now
    state.apply(("pass", 1))
    state.apply(("advantage", 0, adv("red", "sack"), None))
    finish_round()
    cargo_down()
    assert state.used[0] == [adv("red", "carrot"), adv("red", "sack")] and not state.usable_advantages(0)
    assert adv("red", "peek") in state.hands[0] and state.queue == [1]    # a is not asked again
    assert ("advantage", 0, adv("red", "peek"), 1) not in state.legal_actions()


def test_a_player_with_two_advantages_used_is_not_asked_again(box):
    used = [ON["carrot"], ON["sack"]]
    state = ENGINE.from_setup({"players": [{"name": "a", "advantages_used": used,
                                            "hand": [v for v in range(11) if v not in used + [9]]},
                                           {"name": "b", "hand": list(range(10))}],
                               "donkeys": ["donkey-sirko", "donkey-vukhan"], "round": 2}, box=box)
    state.apply(("cargo", 0, "cargo-red-0"))
    state.apply(("cargo", 1, "cargo-blue-0"))
    assert state.phase == "advantage" and state.current_player() == 1
    assert not state.usable_advantages(0) and adv("red", "peek") in state.hands[0]
    with pytest.raises(IllegalAction, match="turn"):
        state.apply(("advantage", 0, adv("red", "peek"), 1))


def test_the_first_player_card_goes_round_clockwise(box):
    state = play(new_game(4, seed=11, box=box))
    firsts = [r.first for r in state.history]
    assert len(firsts) == ROUNDS
    assert all(b == (a + 1) % 4 for a, b in zip(firsts, firsts[1:]))


def test_broken_states_are_caught(box):
    state = new_game(3, seed=1, box=box)
    state.hands[0].pop()
    with pytest.raises(InvariantBroken, match="lost"):
        state.check_invariants()
    state = new_game(3, seed=1, box=box)
    state.used[1] += [adv("blue", kind) for kind in ("peek", "swap", "sack")]
    with pytest.raises(InvariantBroken):
        state.check_invariants()


def test_every_rule_has_its_scenario():
    """The parametrized test below runs whatever the folder holds: an empty folder must fail here."""
    assert {path.stem for path in SCENARIOS} >= {
        "round-not-overloaded", "round-overloaded", "advantages", "advantage-limits", "donkey-effects",
        "end-most-cards", "end-shared-win", "playthrough-2p", "playthrough-4p"}


# ---- seeded games -------------------------------------------------------------------------

@pytest.mark.parametrize("policy,games", [("random", 60), ("heuristic", 10)])
def test_seeded_games_stay_within_the_advantage_limits(policy, games):
    """Through `pnp simulate`: at most two advantages each, and some rounds overloaded, some not."""
    result = pnp("simulate", GAME, "--games", str(games), "--policy", policy, "--json")
    assert result.exit_code == 0, result.output + result.traceback
    runs = json.loads(result.stdout)["runs"]
    assert [run["players"] for run in runs] == [2, 3, 4, 5]
    for run in runs:
        numbers = run["numbers"]
        assert run["games"] == games
        assert numbers["advantages_per_player"]["max"] <= MAX_ADVANTAGES
        assert 0 < numbers["overloaded_rounds"]["mean"] < ROUNDS
        assert sum(run["win_rate"]) == pytest.approx(1, abs=1e-3)


# ---- the kit ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("out")
    # what these tests read: card sheets (every game's booklets are read in tests/test_booklet_print.py)
    result = pnp("build", "--game", GAME, "--kind", "cards", "--out", str(out))
    assert result.exit_code == 0, result.output + result.traceback
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_contract_and_advantage_cards_have_their_own_backs(built, paper):
    pdf = pdfium.PdfDocument(built / GAME / "standard" / "uk" / f"{GAME}-standard-uk-cards-{paper}.pdf")
    contracts = advantages = plain = 0
    for index in range(0, len(pdf), 2):
        fronts, backs = cell_texts(pdf[index], paper), cell_texts(pdf[index + 1], paper)
        for (column, row), front in fronts.items():
            back = backs[(2 - column, row)]          # long-edge duplex mirrors the columns
            if "Контракт" in front:
                assert "Відмова" in back and "Контракт" not in back
                contracts += 1
            elif any(word.isdigit() for word in front.split()) and not any(ch.isalpha() for ch in front):
                if any(word in back for word in ("Підглянути", "Заміна", "Морква", "Важкий мішок")):
                    advantages += 1
                else:
                    assert back == "♞ Ішак зможе!"        # the colour's plain back
                    plain += 1
    assert (contracts, advantages, plain) == (5, 20, 35)


def _played_until(seed: int, box, stop):
    """A game of 5 played at random, each action checked, until `stop(state)` holds right after
    an action inside a round (checked only for what it changed); the state and its rng."""
    state, rng = new_game(5, seed=seed, box=box), policy_rng(seed)
    state.check_invariants()
    while True:
        state.apply(random_policy(state, rng))
        if state.round == state.changed[1] and stop(state):
            return state, rng
        state.check_invariants()


def test_the_check_after_an_action_catches_a_card_it_doubled(box):
    state, _ = _played_until(2, box, lambda s: s.phase == "cargo" and s.step == 2)
    seat = state.changed[0]
    state.hands[seat].append(state.table[seat])        # the card played stays in hand too
    assert not state._changed_holds(seat, "cargo")
    with pytest.raises(InvariantBroken, match="doubled"):
        state.check_invariants()


def test_the_full_check_at_the_end_of_a_round_catches_what_the_check_after_an_action_does_not(box):
    """Two other seats' cards changed places is not what a contract changed: the check after
    it passes, the full check once the round is over does not (and full_checks catches it at once)."""
    for full in (False, True):
        state, rng = _played_until(2, box, lambda s: s.phase == "contract" and len(s.queue) >= 3)
        state.full_checks = full
        b, c = [seat for seat in state.queue if seat != state.changed[0]][:2]
        state.hands[b][0], state.hands[c][0] = state.hands[c][0], state.hands[b][0]
        if full:
            with pytest.raises(InvariantBroken, match="another colour"):
                state.check_invariants()
            continue
        state.check_invariants()
        round_now = state.round
        while state.round == round_now:
            state.apply(random_policy(state, rng))
        with pytest.raises(InvariantBroken, match="another colour"):
            state.check_invariants()


def test_worker_processes_play_the_games_of_one_process():
    game = read_game(str(ROOT), GAME)

    def run(jobs):
        with Workers(jobs, GameSource(read_game, (str(ROOT), GAME))) as workers:
            return simulate(ENGINE, game, edition=game.editions[0], players=4, games=9, policy="heuristic",
                            workers=workers).to_json()
    assert run(2) == run(1)
