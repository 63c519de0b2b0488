"""A Tabletop Simulator card is as large as the printed card, on both axes: at scale 1 TTS's
card model is a poker card (63 x 88 mm; 88 x 63 for its sideways model), so a deck of another
size is scaled by its width over 63 and its height over 88, each axis on its own. The sizes are
read here from the sample game's layouts, not from the code under test."""
from __future__ import annotations

import json

import pytest
import yaml

from conftest import SAMPLE, pnp


GAME = "sample-game"
POKER = (63.0, 88.0)
DATA = SAMPLE / "components" / GAME


def layout_sizes() -> dict[str, tuple[float, float]]:
    """Card size (mm) of each deck of the sample game, by deck name, from its layout."""
    layouts = yaml.safe_load((DATA / "layouts.yaml").read_text(encoding="utf-8"))["faces"]
    decks = yaml.safe_load((DATA / "cards.yaml").read_text(encoding="utf-8"))["decks"]
    return {deck["name"]: tuple(layouts[deck["layout"]]["size_mm"]) for deck in decks.values()}


@pytest.fixture(scope="module")
def save(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("tts") / "out"
    result = pnp("build", "--target", "tts", "-j", "1", "--out", str(out), project=SAMPLE)
    assert result.exit_code == 0, result.output + result.traceback
    path = out / GAME / "standard" / "en" / "tts" / f"{GAME}-standard-en.json"
    return json.loads(path.read_text(encoding="utf-8"))


def test_every_deck_and_card_is_the_printed_size_on_both_axes(save):
    sizes = layout_sizes()
    decks = [o for o in save["ObjectStates"] if o["Name"] in ("Deck", "Card")]
    assert {o["Nickname"].rsplit(" ", 1)[0] if o["Nickname"] not in sizes else o["Nickname"] for o in decks} == set(sizes)
    checked = 0
    for deck in decks:
        name = deck["Nickname"] if deck["Nickname"] in sizes else deck["Nickname"].rsplit(" ", 1)[0]
        width, height = sizes[name]
        for thing in [deck] + deck.get("ContainedObjects", []):
            t = thing["Transform"]
            assert t["scaleX"] * POKER[0] == pytest.approx(width, abs=0.01), (name, t)
            assert t["scaleZ"] * POKER[1] == pytest.approx(height, abs=0.01), (name, t)
            assert t["scaleY"] == 1.0
            assert thing["SidewaysCard"] is (width > height)
            checked += 1
    assert checked > 10


def test_mini_cards_are_smaller_than_poker_cards_by_their_own_ratio_on_each_axis(save):
    by_name = {o["Nickname"]: o["Transform"] for o in save["ObjectStates"] if o["Name"] == "Deck"}
    poker, mini = by_name["Heroes"], by_name["Coins 1"]
    assert mini["scaleX"] / poker["scaleX"] == pytest.approx(44 / 63, abs=1e-3)
    assert mini["scaleZ"] / poker["scaleZ"] == pytest.approx(63 / 88, abs=1e-3)


@pytest.mark.parametrize("size, scale", [((63, 88), (1.0, 1.0)), ((44, 63), (44 / 63, 63 / 88)),
                                         ((70, 120), (70 / 63, 120 / 88)),
                                         # square: the upright model, as SidewaysCard (width > height) says
                                         ((70, 70), (70 / 63, 70 / 88)),
                                         # sideways: TTS's sideways model is 88 across, 63 deep
                                         ((88, 63), (1.0, 1.0)), ((120, 70), (120 / 88, 70 / 63))])
def test_a_card_size_scales_each_axis_by_its_own_side(size, scale):
    from generator.app.tts import _card_scale
    x, y, z = _card_scale(size)
    assert (x, y, z) == (pytest.approx(scale[0]), 1.0, pytest.approx(scale[1]))


def test_tokens_are_scaled_alike_on_both_axes(save):
    tokens = [t for bag in save["ObjectStates"] if bag["Name"] == "Bag" for t in bag["ContainedObjects"]]
    assert tokens
    for token in tokens:
        t = token["Transform"]
        assert t["scaleX"] == t["scaleZ"] > 0, token["Nickname"]
