"""`pnp diff REV`: what changed in the game data since a git revision or in another project folder."""
from __future__ import annotations

import json

import click


def register(main) -> None:
    @main.command("diff")
    @click.argument("rev")
    @click.option("--game", help="Only this game.")
    @click.option("--no-simulation", "no_simulation", is_flag=True,
                  help="Do not play the seeded games that compare the simulation figures.")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON (the same for the same two versions).")
    @click.pass_obj
    def diff_command(obj, rev: str, game, no_simulation: bool, as_json: bool):
        """List what changed in each game's data since REV (a git revision of the project, or
        another project's folder): components added, removed and changed (each field, each
        locale), copies per edition, the rules checks' problems and the figures of a few seeded
        games. The other version is only read, never run; both are checked by this project's
        rules."""
        from ...app.diff import describe, diff
        data = diff(obj.project, rev, game, simulate=not no_simulation)
        if as_json:
            click.echo(json.dumps(data, ensure_ascii=False, indent=2))
        else:
            click.echo("\n".join(describe(data)))
