"""Validate stage: what a print profile asks of the components it prints, checked on the laid-out
components before a shop's files are drawn. A profile's checks are a list of the same shape as
CHECKS (generator/validate/placed.py), run by the same `check_placed` over the kinds' placed
components: each looks only at the kinds the profile prints that way."""
from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from ..core.colour import rgb_from_hex
from ..core.errors import Problem
from ..core.yamlfile import key_path
from ..layout.component import PlacedComponent, PlacedKind
from ..layout.elements.base import resolve_colour
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
        size = cards.size_for(face_mm)
        if size is None:
            sizes = ", ".join(f"{s.name} {s.face_mm[0]:g} x {s.face_mm[1]:g}" for s in cards.sizes)
            return [Problem(file, line, key, f"{where} profile {name} takes no {face_mm[0]:g} x "
                                             f"{face_mm[1]:g} mm card face (it takes {sizes} mm faces)")]
        # Text is measured from the face's own edge, or from the trim where the shop cuts a
        # hair inside the face (generator/load/profiles.py, TRIM_UNDER_FACE_MM).
        inset_x, inset_y = size.inset_mm
        worst: dict[str, float] = {}
        for laid in component.faces:
            for field, (x0, y0, x1, y1) in text_extents(laid.face):
                gap = min(x0 - inset_x, y0 - inset_y, face_mm[0] - x1 - inset_x, face_mm[1] - y1 - inset_y)
                worst[field] = min(gap, worst.get(field, gap))
        return [Problem(file, line, f"{key}.{field}", f"{where} text is {gap:.2f} mm from the trim; this shop "
                                                      f"needs {cards.safe_mm:g} mm (safe zone)")
                for field, gap in worst.items() if gap < cards.safe_mm - 1e-6]
    return in_safe_zone


# A colour this light in every channel prints as bare paper: a trim edge left that colour needs
# no bleed (the press check, generator/write/preflight.py, reads the same as paper).
PAPER_LIGHT = 250 / 255
SIDES = ("left", "bottom", "right", "top")


def _edges_touched(box, size_mm) -> dict[str, tuple[float, float]]:
    """side -> the stretch of that trim edge a box touches (from, to in mm along the edge)."""
    x, y, w, h = box
    width, height = size_mm
    across = {"left": x <= 1e-6, "bottom": y <= 1e-6, "right": x + w >= width - 1e-6, "top": y + h >= height - 1e-6}
    along = {"left": (y, y + h), "right": (y, y + h), "bottom": (x, x + w), "top": (x, x + w)}
    size = {"left": height, "right": height, "bottom": width, "top": width}
    return {side: (max(0.0, along[side][0]), min(size[side], along[side][1])) for side in SIDES
            if across[side] and min(size[side], along[side][1]) - max(0.0, along[side][0]) > 1e-6}


def _covered(stretch: tuple[float, float], covers: list[tuple[float, float]]) -> bool:
    start, end = stretch
    for low, high in sorted(covers):
        if low > start + 1e-6:
            return False
        start = max(start, high)
        if start >= end - 1e-6:
            return True
    return start >= end - 1e-6


def art_into_bleed(name: str, bleed_mm: float) -> Check:
    """A background that reaches the trim in a colour that is not paper runs on into the bleed
    (`bleed: true`), or a stretch of the cut would show a white edge: found here, at the layout's
    element, before a shop's preflight finds it in the drawn file. A lighter background over a
    bled one, or one that bleeds below it, is covered."""
    @each
    def backgrounds_bleed(loc: Localised, component: PlacedComponent) -> list[Problem]:
        problems = []
        for laid in component.faces:
            face = laid.face
            bled: dict[str, list[tuple[float, float]]] = {side: [] for side in SIDES}
            for placed in face.elements:
                spec = placed.spec
                if spec.get("type") != "rect":
                    continue
                touched = _edges_touched(spec["box"], face.size_mm)
                if spec.get("bleed"):
                    for side, stretch in touched.items():
                        bled[side].append(stretch)
                    continue
                fill = resolve_colour(spec.get("fill"), face.values)
                if not fill or min(rgb_from_hex(fill)) >= PAPER_LIGHT:
                    continue
                bare = [side for side, stretch in touched.items() if not _covered(stretch, bled[side])]
                if bare:
                    path = ".".join(map(str, key_path(loc.game.layouts, spec)))
                    problems.append(Problem(getattr(spec, "file", "") or laid.source[0],
                                            getattr(spec, "line", 0) or laid.source[1], path or laid.source[2],
                                            f"[{name} {loc.game.slug}] this background ({spec['fill']}) reaches the trim "
                                            f"({', '.join(bare)} edge{'s' if len(bare) > 1 else ''}) and stops there: "
                                            f"profile {name} prints with a {bleed_mm:g} mm bleed, so the cut would "
                                            "show paper; add `bleed: true` to run it on past the trim"))
        return problems
    return backgrounds_bleed


def printed_only(spec: ComponentSpec, check: Check) -> Check:
    """The check, run over the components the shop's size limits take (a larger one is left
    out of its files, and named in a note beside them)."""
    def on_printed(loc: Localised, placed: PlacedKind) -> list[Problem]:
        return check(loc, replace(placed, components=tuple(c for c in placed.components if spec.fits(c.size_mm))))
    return on_printed


def profile_checks(profile: Profile) -> list[Check]:
    """The profile's checks: its cards' safe zone and sizes; the glue labels of the components
    it prints, inside its components' safe zone; backgrounds that reach the trim run into the
    bleed."""
    checks = []
    if profile.cards:
        checks.append(of_kinds((CARDS,), card_safe_zone(profile.name, profile.cards)))
        if profile.cards.bleed_mm:
            checks.append(of_kinds((CARDS,), art_into_bleed(profile.name, profile.cards.bleed_mm)))
    if profile.components:
        spec = profile.components
        checks.append(of_kinds(spec.kinds, printed_only(spec, glue_labels(spec.safe_mm or 0.0))))
        if spec.bleed_mm:
            checks.append(of_kinds(spec.kinds, printed_only(spec, art_into_bleed(profile.name, spec.bleed_mm))))
    return checks
