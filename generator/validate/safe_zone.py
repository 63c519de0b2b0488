"""Validate stage: a print profile's safe zone, checked on the laid-out faces before a shop's
files are drawn (part of validation when a build targets a profile)."""
from __future__ import annotations

from ..core.errors import Problem
from ..layout.faces import distinct_faces
from ..layout.placed import text_extents
from ..load.profiles import Profile


def check_safe_zone(loc, faces, profile: Profile) -> list[Problem]:
    """Every text and icon of every face stays `safe_mm` inside the trim this profile cuts,
    and every face has a size the profile prints. Problems name the card and the field."""
    cards = profile.cards
    if cards is None:
        return []
    problems = []
    where = f"[{profile.name} {loc.game.slug} {loc.edition} {loc.locale}]"
    for candidate in distinct_faces(faces):
        file, line, key = candidate.source
        face_mm = tuple(candidate.layout["size_mm"])
        size = cards.size_for(face_mm)
        if size is None:
            sizes = ", ".join(f"{s.name} {s.face_mm[0]:g} x {s.face_mm[1]:g}" for s in cards.sizes)
            problems.append(Problem(file, line, key, f"{where} profile {profile.name} takes no {face_mm[0]:g} x "
                                                     f"{face_mm[1]:g} mm card face (it takes {sizes} mm faces)"))
            continue
        # The face is cut at its own edge (the TrimBox): text is measured from there.
        worst: dict[str, float] = {}
        for field, (x0, y0, x1, y1) in text_extents(candidate.placed):
            gap = min(x0, y0, face_mm[0] - x1, face_mm[1] - y1)
            worst[field] = min(gap, worst.get(field, gap))
        for field, gap in worst.items():
            if gap < cards.safe_mm - 1e-6:
                problems.append(Problem(file, line, f"{key}.{field}",
                                        f"{where} text is {gap:.2f} mm from the trim; this shop needs "
                                        f"{cards.safe_mm:g} mm (safe zone)"))
    return problems

