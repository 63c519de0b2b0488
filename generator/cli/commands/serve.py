"""`pnp serve`: rebuild what changed on every save, with a preview page on 127.0.0.1."""
from __future__ import annotations

from pathlib import Path

import click


def register(main):
    @main.command("serve")
    @click.option("--game", help="Only this game.")
    @click.option("--edition", help="Only this edition.")
    @click.option("--locale", help="Only this locale.")
    @click.option("--paper", default="a4", show_default=True, metavar="NAME", help="A paper, or all.")
    @click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Output folder (default: output/).")
    @click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
                  help="Port on 127.0.0.1 (0: any free one).")
    @click.option("--jobs", "-j", type=click.IntRange(min=0), default=0, show_default=True, envvar="PNP_JOBS",
                  show_envvar=True, help="Worker processes; 0 uses every core.")
    @click.pass_obj
    def serve_command(obj, game, edition, locale, paper, out, port, jobs):
        """Build, then rebuild what changed whenever a file of the project is saved, and show
        contact sheets and booklet pages on http://127.0.0.1:PORT/, which reloads after each
        rebuild. A data error shows there and here; the last good build stays."""
        from ...app.preview_server import serve
        from ...app.request import BuildRequest
        request = BuildRequest(game=game, edition=edition, locale=locale, paper=paper, out=out, jobs=jobs)
        serve(obj.project, request, port, lambda line: click.echo(line, err=False))
