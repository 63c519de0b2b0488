"""Rule booklet build speed: every booklet of each game (every edition and locale), with its
home-print versions, timed from the laid-out data to the PDF bytes; booklets and A5 pages per second."""
from __future__ import annotations

import time

from ...i18n.texts import Texts
from ...layout.faces import Localised
from ..kits import Kit, booklet_files
from ..loading import load_games
from ..plan import paper_names


def run(project) -> list[str]:
    lines = []
    for game in load_games(project):
        if not game.booklet.get("sections"):
            continue
        booklets = pages = imposed = 0
        started, cpu = time.perf_counter(), time.process_time()
        for locale in game.locales:
            texts = Texts.load(game, locale)
            for edition in game.editions:
                papers = paper_names(project)
                kit = Kit(project, game, Localised(game, edition, texts), papers[0], papers=papers)
                for artifact in booklet_files(kit):
                    if artifact.kind == "rules":
                        booklets += 1
                        pages += artifact.pages
                    else:
                        imposed += 1
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
        # CPU time too: on a busy machine it says what the booklets cost, whatever else runs.
        lines.append(f"{game.slug}: {booklets} booklets ({pages} A5 pages) and {imposed} home-print files "
                     f"in {elapsed:.2f} s ({booklets / elapsed:.2f} booklets/s, {pages / elapsed:.1f} pages/s; "
                     f"{cpu:.2f} s CPU, {pages / cpu:.1f} pages per CPU second)")
    return lines
