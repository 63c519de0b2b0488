"""The card sizes of templates/sheets/card-sizes.yaml, and the check that every card's face and
back is one of them. Kept apart from the layout stage so that commands which only check data
(`pnp simulate`, `pnp i18n`) do not load the drawing libraries."""
from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import Problem
from .project import Game, Project


@dataclass(frozen=True)
class CardSize:
    """A card size of templates/sheets/card-sizes.yaml and the home sheet of each duplex mode."""

    name: str
    size_mm: tuple[float, float]
    sheets: dict


def card_sizes(project: Project) -> list[CardSize]:
    data = project.read_sheet("card-sizes")["sizes"]
    return [CardSize(name, tuple(size["size_mm"]), dict(size["sheets"])) for name, size in data.items()]


def size_of(face_mm, sizes: list[CardSize]) -> CardSize | None:
    return next((size for size in sizes if all(abs(a - b) < 0.01 for a, b in zip(size.size_mm, face_mm))), None)



def check_card_sizes(project: Project, game: Game) -> list[Problem]:
    """Every card's face and back have one of the card sizes, the same one: a home sheet has
    a slot of that size, and nothing is ever scaled to fit."""
    sizes = card_sizes(project)
    known = ", ".join(f"{s.name} {s.size_mm[0]:g} x {s.size_mm[1]:g}" for s in sizes)
    layouts, problems = game.layouts, []
    used = {}
    for component in game.components:
        if component.category != "cards" or component.data.get("deck") not in game.decks:
            continue
        deck = game.decks[component.data["deck"]]
        front = ("faces", component.data.get("layout", deck["layout"]))
        back = ("backs", component.data.get("back", deck["back"]))
        used.setdefault(front, set()).add(back)
    for front, backs in used.items():
        for group, name in (front, *backs):
            layout = layouts.get(group, {}).get(name)
            if layout is not None and size_of(layout["size_mm"], sizes) is None:
                w, h = layout["size_mm"]
                problems.append(Problem(layout.file, layout.line_of("size_mm"), f"{group}.{name}.size_mm",
                                        f"{w:g} x {h:g} mm is no card size (sizes: {known})"))
        face = layouts.get(front[0], {}).get(front[1])
        for group, name in backs:
            back = layouts.get(group, {}).get(name)
            if face is not None and back is not None and tuple(back["size_mm"]) != tuple(face["size_mm"]):
                problems.append(Problem(back.file, back.line_of("size_mm"), f"{group}.{name}.size_mm",
                                        f"the back is {back['size_mm'][0]:g} x {back['size_mm'][1]:g} mm, its face "
                                        f"{front[1]} is {face['size_mm'][0]:g} x {face['size_mm'][1]:g} mm"))
    return list(dict.fromkeys(problems))
