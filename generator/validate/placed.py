"""Validate stage: the checks every laid-out component must pass, whatever its kind.

Each check in CHECKS takes a Localised (the game, edition and locale) and one kind's placed
components (generator/layout/component.py) and returns located problems. Most look at one
component at a time (`each`). `check_placed` runs every check over every kind of a kit. A new
check is a function added to CHECKS; a new kind describes its components as PlacedComponents
and gets every check. What a print shop asks besides is a list of the same shape
(generator/validate/profile.py), run by `check_placed` too.
"""
from __future__ import annotations

from functools import wraps
from typing import Callable, Sequence

from ..core import fonts
from ..core.errors import Problem
from ..core.schema import did_you_mean
from ..core.yamlfile import key_path
from ..layout.component import PlacedComponent, PlacedKind, located
from ..layout.elements.icon import icon_glyph_problem
from ..layout.faces import Localised, colour_problems, problem_label, text_place, unknown_fields
from ..layout.pieces import glue_label_problem

Check = Callable[[Localised, PlacedKind], list[Problem]]


def each(check: Callable[[Localised, PlacedComponent], list[Problem]]) -> Check:
    """A check of one component at a time, run over every component of a kind."""
    @wraps(check)
    def over_kind(loc: Localised, placed: PlacedKind) -> list[Problem]:
        return [problem for component in placed.components for problem in check(loc, component)]
    return over_kind


def _where(loc: Localised) -> str:
    return f"[{loc.game.slug} {loc.edition} {loc.locale}]"


@each
def layout_exists(loc: Localised, component: PlacedComponent) -> list[Problem]:
    """The face layout a component names is in layouts.yaml."""
    if not component.layout_name or component.layout is not None:
        return []
    known = ", ".join(sorted(loc.game.layouts.get("faces", {}))) or "none"
    return [Problem(*component.layout_at,
                    f"no face layout '{component.layout_name}' in layouts.yaml"
                    f"{did_you_mean(component.layout_name, loc.game.layouts.get('faces', {}))} (faces: {known})")]


@each
def layout_size(loc: Localised, component: PlacedComponent) -> list[Problem]:
    """The face layout is the size the component prints its faces at (a die's edge)."""
    layout, size = component.layout, component.face_mm
    if layout is None or size is None or tuple(layout["size_mm"]) == tuple(size):
        return []
    return [Problem(layout.file, layout.line_of("size_mm"), f"faces.{component.layout_name}.size_mm",
                    f"the layout is {layout['size_mm'][0]:g} x {layout['size_mm'][1]:g} mm, but "
                    f"{component.source[2]} has {size[0]:g}{'' if size[0] == size[1] else f' x {size[1]:g}'} mm faces")]


@each
def on_layout(loc: Localised, component: PlacedComponent) -> list[Problem]:
    """An outline, fold lines and glue areas lie on the layout they are drawn over."""
    if component.layout is None or not component.on_layout:
        return []
    w, h = component.layout["size_mm"]
    problems = []
    for (file, line, key), points in component.on_layout:
        outside = [p for p in points if not (-1e-6 <= p[0] <= w + 1e-6 and -1e-6 <= p[1] <= h + 1e-6)]
        if outside:
            problems.append(Problem(file, line, key,
                                    f"({outside[0][0]:g}, {outside[0][1]:g}) lies outside the {w:g} x {h:g} mm layout"))
    return problems


@each
def face_fit(loc: Localised, component: PlacedComponent) -> list[Problem]:
    """What placing each face found: text that does not fit its box, a character with no glyph
    in its font, a picture that does not load."""
    problems = []
    for laid in component.faces:
        file, line, key = laid.source
        for placed in laid.face.elements:
            for field, message in placed.problems:
                if laid.names_catalog and field in placed.spec:
                    # A key of the layout itself (a picture's file): the layout is to mend, in
                    # every locale alike.
                    path = key_path(loc.game.layouts, placed.spec) + (field,)
                    problems.append(Problem(placed.spec.file, placed.spec.line_of(field), ".".join(map(str, path)),
                                            f"[{loc.game.slug}] {message}"))
                    continue
                at = text_place(loc, file, line, f"{key}.{field}") if laid.names_catalog else (file, line)
                problems.append(Problem(*at, f"{key}.{field}",
                                        f"{problem_label(loc, placed, laid.face.values, (field, message))} {message}"))
    return problems


@each
def face_contrast(loc: Localised, component: PlacedComponent) -> list[Problem]:
    """Every text and mark of each face stands out from what is under it."""
    return [problem for laid in component.faces for problem in colour_problems(loc, laid.face, laid.source)]


@each
def found_in_layout(loc: Localised, component: PlacedComponent) -> list[Problem]:
    """What the kind's own layout found: a text it fits that does not fit or stand out, a shape
    larger than its board."""
    return [Problem(file, line, key, f"{_where(loc)} {reason}") for file, line, key, reason in component.found]


@each
def glyphs(loc: Localised, component: PlacedComponent) -> list[Problem]:
    """Texts and icons the kind sets itself have a glyph in a shipped font: drawn, they would be
    blank."""
    problems = []
    for key, text, style in component.texts:
        missing = fonts.missing_glyphs(text, style)
        if missing:
            problems.append(_at_text(loc, key, f"no glyph in the shipped font for {''.join(sorted(missing))!r}"))
    for key, glyph in component.icons:
        problem = icon_glyph_problem(glyph)
        if problem:
            problems.append(_at_text(loc, key, problem))
    return problems


def _at_text(loc: Localised, key: str, reason: str) -> Problem:
    return Problem(*located(loc.game, key), key, f"{_where(loc)} {reason}")


def glue_labels(safe_mm: float = 0.0) -> Check:
    """Each glue area's label fits inside it, and `safe_mm` inside the trim (a shop's safe
    zone; none in a home kit)."""
    @each
    def glue_labels_fit(loc: Localised, component: PlacedComponent) -> list[Problem]:
        problems = []
        for (file, line, key), area in component.glue:
            message = glue_label_problem(component.glue_label, area, component.size_mm, safe_mm)
            if message:
                problems.append(Problem(file, line, key, f"{_where(loc)} {message}"))
        return problems
    return glue_labels_fit


def fields_known(loc: Localised, placed: PlacedKind) -> list[Problem]:
    """Every value a face layout reads is one some face printed with it has."""
    return unknown_fields(loc.game, placed.uses, placed.what)


CHECKS: list[Check] = [layout_exists, layout_size, on_layout, face_fit, face_contrast, found_in_layout, glyphs,
                       glue_labels(), fields_known]


def check_placed(loc: Localised, kinds: Sequence[PlacedKind], checks: Sequence[Check] | None = None) -> list[Problem]:
    """Every check (CHECKS unless given: a print profile's, generator/validate/profile.py) over
    every kind's placed components, kind by kind in the kinds' order."""
    # a layout's fault that several components printed with it share is named once
    return list(dict.fromkeys(problem for placed in kinds for check in (CHECKS if checks is None else checks)
                              for problem in check(loc, placed)))
