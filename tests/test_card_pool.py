"""The card pool a scenario's setup takes its lists from: a card the box lacks, or one listed
more often than the box holds it, is refused at the item that names it; the rest is every
copy no list took, in the box's order."""
from __future__ import annotations

import pytest

from generator.rules.fields import ScenarioError, one_name
from generator.rules.pool import CardPool


def pool(**given):
    return CardPool(["quick", "quick", "taxi", "swap"], noun="action card", source="edition 'free'",
                    listing="card ids", **given)


def test_the_cards_listed_are_taken_and_the_rest_keeps_the_box_order():
    cards = pool()
    assert cards.take(["taxi", "quick"], ("deck",)) == ["taxi", "quick"]
    assert cards.rest() == ["quick", "swap"]


@pytest.mark.parametrize("value,path,message", [
    ("taxi", ("deck",), "a list of card ids is expected"),
    (["taxi", "pizza"], ("deck", 1), "no action card 'pizza' in edition 'free' (quick, taxi, swap)"),
    (["taxi", "taxi"], ("deck", 1), "action card 'taxi' is listed twice"),
    (["quick"] * 3, ("deck", 2), "more 'quick' cards than the 2 of edition 'free'"),
    ([["taxi"]], ("deck", 0), "no action card ['taxi'] in edition 'free' (quick, taxi, swap)"),
])
def test_what_does_not_fit_is_refused_where_it_is_written(value, path, message):
    with pytest.raises(ScenarioError) as refused:
        pool().take(value, ("deck",))
    assert (refused.value.path, str(refused.value)) == (path, message)


def test_a_read_that_refuses_an_item_is_located_at_it():
    cards = pool(read=lambda item: one_name(item, (), "an action card", "quick"), known="")
    with pytest.raises(ScenarioError) as refused:
        cards.take(["quick", 7], ("players", 0, "hand"))
    assert refused.value.path == ("players", 0, "hand", 1)
    assert str(refused.value) == "an action card is one name, such as quick, not 7"
