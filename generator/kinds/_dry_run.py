"""Validation dry runs of the renderers that still fit their own text (boards, tokens)."""
from __future__ import annotations

from ..errors import Problem
from ..render.faces import collecting_overflows
from ..yamlfile import locate


def overflows_of(kit, maker) -> list[Problem]:
    """`maker(kit)` drawn once in memory, every text that does not fit as a located problem."""
    problems = []
    with collecting_overflows() as overflows:
        maker(kit)
    for exc in overflows:
        path = tuple(exc.field.split("."))
        # the file whose top level holds the key (cards:, design:, labels: ...)
        data = next((d for d in kit.game.files.values() if path[0] in d), kit.game.meta)
        file, line = locate(data, path)
        problems.append(Problem(file, line, exc.field,
                                f"[{kit.game.slug} {kit.loc.edition} {kit.loc.locale}] text does not fit: {exc.reason}"))
    return problems
