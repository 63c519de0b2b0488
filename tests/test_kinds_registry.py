"""The component kinds: the load stage reads their names, their order and which make print-shop
files from their schemas (generator/schemas/<kind>.yaml, `x-kind-order`, `x-shop-files`), and the
registry of generator/app/kinds holds exactly one module for each, in that order, drawing shop
files exactly for those."""
from __future__ import annotations

from dataclasses import replace

import pytest

from generator.app.kinds import KINDS, in_schema_order, makes_shop_files, shop_files_as_declared
from generator.load.project import categories, shop_kinds


def test_the_kind_modules_come_in_the_order_their_schemas_give():
    assert [kind.name for kind in KINDS] == list(categories())
    # the order every kit's files and the booklet's rows take
    assert categories() == ("cards", "boards", "tokens", "dice", "pieces", "tuckboxes")


def test_a_kind_without_a_module_or_a_module_without_a_schema_stops_the_registry():
    modules = {kind.name: kind for kind in KINDS}
    with pytest.raises(RuntimeError, match=r"generator/app/kinds \(boards, cards, dice, pieces, tokens, tuckboxes\) are not the kinds "
                                           r"whose schema .* \(boards, cards, dice, meeples, pieces, tokens, tuckboxes\)"):
        in_schema_order(modules, (*categories(), "meeples"))
    with pytest.raises(RuntimeError, match=r"\(boards, cards, dice, meeples, pieces, tokens, tuckboxes\) are not"):
        in_schema_order({**modules, "meeples": replace(modules["pieces"], name="meeples")}, categories())


def test_a_module_declaring_another_kind_stops_the_registry():
    modules = {kind.name: kind for kind in KINDS}
    modules["dice"] = modules["pieces"]
    with pytest.raises(RuntimeError, match="generator/app/kinds/dice.py declares the kind 'pieces', not 'dice'"):
        in_schema_order(modules, categories())


def test_the_kinds_that_make_shop_files_are_those_their_schemas_name():
    assert shop_kinds() == ("boards", "tokens", "dice", "pieces", "tuckboxes")
    assert [kind.name for kind in KINDS if makes_shop_files(kind)] == list(shop_kinds())


def test_a_module_and_its_schema_disagreeing_on_shop_files_stops_the_registry():
    with pytest.raises(RuntimeError, match=r"generator/app/kinds/dice.py draws shop files, but generator/schemas/"
                                           r"dice.yaml does not say it makes them \(x-shop-files: true\)"):
        shop_files_as_declared(KINDS, tuple(kind for kind in shop_kinds() if kind != "dice"))
    with pytest.raises(RuntimeError, match=r"generator/schemas/cards.yaml says the kind makes shop files "
                                           r"\(x-shop-files\), but generator/app/kinds/cards.py draws none"):
        shop_files_as_declared(KINDS, (*shop_kinds(), "cards"))
