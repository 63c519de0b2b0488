"""Validate stage: what a print profile asks of the components it prints, checked on the laid-out
components before a shop's files are drawn. A profile's checks are a list of the same shape as
CHECKS (generator/validate/placed.py), run by the same `check_placed` over the kinds' placed
components: each looks only at the kinds the profile prints that way."""
from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from ..core.errors import Problem
from ..layout.component import PlacedComponent, PlacedKind
from ..layout.faces import Localised
from ..layout.placed import text_extents
from ..load.profiles import CardSpec, ComponentSpec, Profile
from .placed import Check, each, glue_labels

CARDS = "cards"         # the kind a profile's `cards:` prints; its `components:` names the others


def profile_kinds(profile: Profile) -> tuple[str, ...]:
    """The kinds whose components the profile prints."""
    return ((CARDS,) if profile.cards else ()) + (profile.components.kinds if profile.components else ())


def of_kinds(kinds: Iterable[str], check: Check) -> Check:
    """The check, run over the named kinds' components only."""
    names = tuple(kinds)

    def on_kinds(loc: Localised, placed: PlacedKind) -> list[Problem]:
        return check(loc, placed) if placed.kind in names else []
    return on_kinds


def card_safe_zone(name: str, cards: CardSpec) -> Check:
    """Every text and icon of every card face stays the profile's `safe_mm` inside the trim it
    cuts, and every face has a size the profile prints. Problems name the card and the field."""
    @each
    def in_safe_zone(loc: Localised, component: PlacedComponent) -> list[Problem]:
        where = f"[{name} {loc.game.slug} {loc.edition} {loc.locale}]"
        file, line, key = component.source
        face_mm = component.size_mm
        if cards.size_for(face_mm) is None:
            sizes = ", ".join(f"{s.name} {s.face_mm[0]:g} x {s.face_mm[1]:g}" for s in cards.sizes)
            return [Problem(file, line, key, f"{where} profile {name} takes no {face_mm[0]:g} x "
                                             f"{face_mm[1]:g} mm card face (it takes {sizes} mm faces)")]
        # The face is cut at its own edge (the TrimBox): text is measured from there.
        worst: dict[str, float] = {}
        for laid in component.faces:
            for field, (x0, y0, x1, y1) in text_extents(laid.face):
                gap = min(x0, y0, face_mm[0] - x1, face_mm[1] - y1)
                worst[field] = min(gap, worst.get(field, gap))
        return [Problem(file, line, f"{key}.{field}", f"{where} text is {gap:.2f} mm from the trim; this shop "
                                                      f"needs {cards.safe_mm:g} mm (safe zone)")
                for field, gap in worst.items() if gap < cards.safe_mm - 1e-6]
    return in_safe_zone


def printed_only(spec: ComponentSpec, check: Check) -> Check:
    """The check, run over the components the shop's size limits take (a larger one is left
    out of its files, and named in a note beside them)."""
    def on_printed(loc: Localised, placed: PlacedKind) -> list[Problem]:
        return check(loc, replace(placed, components=tuple(c for c in placed.components if spec.fits(c.size_mm))))
    return on_printed


def profile_checks(profile: Profile) -> list[Check]:
    """The profile's checks: its cards' safe zone and sizes; the glue labels of the components
    it prints, inside its components' safe zone."""
    checks = []
    if profile.cards:
        checks.append(of_kinds((CARDS,), card_safe_zone(profile.name, profile.cards)))
    if profile.components:
        spec = profile.components
        checks.append(of_kinds(spec.kinds, printed_only(spec, glue_labels(spec.safe_mm or 0.0))))
    return checks
