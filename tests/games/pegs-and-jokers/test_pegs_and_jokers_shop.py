"""Pegs and Jokers as a print shop gets it: its pegs' discs carry their colour's name, its
longest words in Bulgarian, Russian and Ukrainian. (The mechanism, on the sample:
tests/test_shop_components.py.)"""
from __future__ import annotations

import yaml

from conftest import ROOT, component_data, glyphs_outside_the_round_safe_zone, make_component_files

SLUG = "pegs-and-jokers"


def test_every_letter_of_every_peg_keeps_the_safe_zone_inside_its_round_cut_in_every_locale():
    """In every locale a shop gets, each disc token's file passes the shop's checks and
    preflight and every glyph lies the profile's safe zone inside the round cut."""
    safe = yaml.safe_load((ROOT / "templates" / "profiles" / "eu-3mm.yaml").read_text(encoding="utf-8"))[
        "components"]["safe_mm"]
    discs = {token_id for token_id, token in component_data(ROOT, SLUG, "tokens")["tokens"].items()
             if token["shape"] == "disc"}
    by_locale, checked = make_component_files(ROOT, SLUG, "standard", None, "eu-3mm", only_kind="tokens"), set()
    assert len(by_locale) == 5
    for locale, (made, problems) in by_locale.items():
        assert not problems, problems
        for artifact in made:
            if artifact.details.get("component") not in discs:
                continue
            checked.add((locale, artifact.details["component"]))
            printed, outside = glyphs_outside_the_round_safe_zone(artifact.data, safe)
            assert printed and not outside, (artifact.path, outside)
    assert len(checked) == len(discs) * len(by_locale)
