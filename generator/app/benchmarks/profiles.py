"""Print-shop build speed: every profile for every game, edition and released locale, with
the files and pages each makes (preflight included, as `pnp build --profile` runs it)."""
from __future__ import annotations

import tempfile
import time
from pathlib import Path

from ...core.errors import PnpError
from ...load.profiles import profile_names
from ..build import BuildRequest, build


def run(project) -> list[str]:
    lines = []
    total = 0.0
    for game in project.game_slugs():
        for name in profile_names(project):
            with tempfile.TemporaryDirectory() as out:
                started = time.perf_counter()
                try:
                    artifacts = build(project, BuildRequest(game=game, out=Path(out), profiles=(name,)))
                except PnpError as exc:
                    lines.append(f"{game} {name}: not built ({exc})")
                    continue
                elapsed = time.perf_counter() - started
            total += elapsed
            pages = sum(a.pages for a in artifacts)
            size = sum(len(a.data) for a in artifacts)
            lines.append(f"{game} {name}: {len(artifacts)} files, {pages} pages, {size / 1e6:.1f} MB "
                         f"in {elapsed:.2f} s")
    lines.append(f"every profile, every game: {total:.2f} s")
    return lines
