"""Home-kit build speed: a full build of every game, and card faces rendered per second."""
from __future__ import annotations

import tempfile
import time
from pathlib import Path

from ..build import BuildRequest, build, load_games
from ..layout import Localised, card_faces
from ..render.faces import draw_face
from ..render.pdf import Document
from ..texts import Texts


def run(project) -> list[str]:
    lines = []
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        artifacts = build(project, BuildRequest(out=Path(out)))
        elapsed = time.perf_counter() - started
    pages = sum(a.pages for a in artifacts)
    lines.append(f"full build: {len(artifacts)} files, {pages} pages in {elapsed:.2f} s "
                 f"({pages / elapsed:.0f} pages/s)")
    # Faces drawn from scratch (no form reuse): the cost of one distinct face.
    game = load_games(project)[0]
    loc = Localised(game, game.editions[-1], Texts.load(game, game.source_locale))
    faces = card_faces(loc)
    rounds = 20
    started = time.perf_counter()
    doc = Document((63, 88), "bench")
    for _ in range(rounds):
        for face in faces:
            doc.new_page()
            draw_face(doc.canvas, face.layout, face.values)
    doc.finish()
    elapsed = time.perf_counter() - started
    drawn = rounds * len(faces)
    lines.append(f"card faces: {drawn} drawn in {elapsed:.2f} s ({drawn / elapsed:.0f} faces/s, {game.slug})")
    return lines
