"""The `pnp` command line: options, then one call into the library. Errors are reported here,
once, with exit codes from generator.core.errors; a user never sees a traceback for bad data."""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import click

from ..core import errors
from ..load.project import Project


class Context:
    def __init__(self, root: Path):
        self.project = Project(root)


def report(exc: errors.PnpError) -> None:
    if isinstance(exc, errors.DataError):
        for problem in exc.problems:
            click.echo(str(problem), err=True)
        click.echo(f"{len(exc.errors)} problem(s) found.", err=True)
    else:
        click.echo(f"error: {exc}", err=True)


class Group(click.Group):
    """Maps the tool's exceptions to messages and exit codes in one place."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except errors.PnpError as exc:
            report(exc)
            ctx.exit(exc.exit_code)
        except OSError as exc:
            # A file the command had to read or write (a --record path, a catalog, ...).
            click.echo(f"error: {exc.filename or ''}: {exc.strerror or exc}", err=True)
            ctx.exit(errors.EXIT_DATA)
        except KeyboardInterrupt:
            click.echo("interrupted; output/ was left as it was before the run", err=True)
            ctx.exit(130)

    # The commands of generator/cli/commands load when asked for (click's lazily loaded subcommands).
    def list_commands(self, ctx):
        from .commands import COMMANDS
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx, name):
        from .commands import COMMANDS, register
        if name not in self.commands and name in COMMANDS:
            register(self, name)
        return super().get_command(ctx, name)


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-C", "directory", type=click.Path(file_okay=False, path_type=Path), default=".",
              help="Work on the project in DIR (default: the current directory).")
@click.pass_context
def main(ctx, directory: Path):
    """Turn board-game data into print-and-play kits, print-shop files and rule booklets."""
    if not directory.is_dir():
        raise click.BadParameter(f"'{directory}' is not a folder", param_hint="-C")
    ctx.obj = Context(directory.resolve())


@main.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.pass_obj
def list_command(obj: Context, as_json: bool):
    """Show games, editions, locales and every component with its count per edition."""
    from ..app.catalog import describe_games, print_games
    from ..app.loading import load_games
    games = load_games(obj.project)
    data = describe_games(games)
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        print_games(data)


@main.command()
@click.argument("game", required=False)
@click.option("--profile", "profiles", multiple=True, metavar="NAME",
              help="Also check what this print-shop profile asks of what it prints: every card's safe zone "
                   "and size, glue labels inside its safe zone (repeatable, or 'all').")
@click.pass_obj
def validate(obj: Context, game: str | None, profiles: tuple[str, ...]):
    """Check all data (or one GAME's) and report every problem with file, line and key."""
    from ..app.plan import load_for_build
    from ..validate.checks import no_rules_note
    games = load_for_build(obj.project, game)
    for note in (note for loaded in games for note in no_rules_note(loaded)):
        click.echo(str(note), err=True)
    if profiles:
        from ..app.shop import check_profiles     # the print-shop renderers load only when asked for
        check_profiles(obj.project, games, profiles)
    click.echo(f"ok: {', '.join(g.slug for g in games)}")


@main.command("build")
@click.option("--game", help="Only this game.")
@click.option("--edition", help="Only this edition.")
@click.option("--locale", help="Only this locale.")
@click.option("--paper", default="all", show_default=True, metavar="NAME",
              help="A paper of templates/sheets/papers.yaml (a4, letter, ...) or all.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Output folder (default: output/).")
@click.option("--profile", "profiles", multiple=True, metavar="NAME",
              help="Build print-shop files for this profile (repeatable, or 'all'; see `pnp profiles`) "
                   "instead of home kits; they must pass preflight.")
@click.option("--duplex", type=click.Choice(["long", "short", "gutterfold", "fronts"]), default="long", show_default=True,
              help="Home card sheets: long- or short-edge duplex, gutterfold (one sheet, folded), or fronts only.")
@click.option("--back-offset", "back_offset", default="0,0", metavar="DX,DY", show_default=True,
              help="Move back pages by DX,DY mm (read it off the calibration sheet).")
@click.option("--ink", type=click.Choice(["normal", "saver"]), default="normal", show_default=True,
              help="Home sheets of cards, boards, tokens, dice and pieces: as designed, or saver (light backgrounds, outlined shapes, the same "
                   "layout and text; written as ...-cards-saver-<paper>.pdf and so on, beside the normal ones).")
@click.option("--cutter", metavar="MACHINE", default=None,
              help="Card, token and piece sheets laid out for a print-then-cut machine of templates/sheets/cutters.yaml "
                   "(silhouette: Silhouette Studio's registration marks; cricut: Design Space's Print Then Cut area), "
                   "each with an SVG and a DXF cut file beside it; written as "
                   "...-cards-<cutter>-<paper>.pdf and so on, beside the normal ones.")
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=0, show_default=True, envvar="PNP_JOBS",
              show_envvar=True, help="Worker processes; 0 uses every core.")
@click.option("--no-cache", "no_cache", is_flag=True,
              help="Render every file again, ignoring what earlier builds made (the cache in OUT/.cache).")
@click.option("--kind", "kinds", multiple=True, metavar="KIND[,KIND...]",
              help="Only these kinds of file: a component kind (cards, boards, ...), booklet or report "
                   "(comma-separated or repeated); the other files and their manifest entries stay as they were.")
@click.option("--changed-since", "changed_since", metavar="REV",
              help="An errata kit instead: sheets of the cards changed or added since REV (a git revision or "
                   "another project folder) and a booklet listing the changes, in <locale>/errata/.")
@click.option("--target", type=click.Choice(["print", "tts"]), default="print", show_default=True,
              help="print: kits to print (or print-shop files); tts: a Tabletop Simulator folder per "
                   "game, edition and locale (OUT/GAME/EDITION/LOCALE/tts/).")
@click.option("--base-url", "base_url", default="", metavar="URL",
              help="--target tts: the images' addresses are URL followed by their file names.")
@click.option("--url-map", "url_maps", multiple=True, type=click.Path(dir_okay=False, exists=True, path_type=Path),
              metavar="FILE", help="--target tts: each image's own address, after its file name in FILE (the "
                                   "urls.txt an export writes, filled in; repeatable); before --base-url.")
@click.option("--timings", is_flag=True,
              help="After the build, print where its CPU time went: loading and checking, each kind of file "
                   "(with its worker processes' time), writing.")
@click.pass_obj
def build_command(obj: Context, game, edition, locale, paper, out, profiles, duplex, back_offset, ink, cutter, jobs,
                  no_cache, kinds, changed_since, target, base_url, url_maps, timings):
    """Validate, then build kits (or print-shop files) into the output folder. Only files
    whose data, texts, templates or options changed are rendered again."""
    offset = _offset(back_offset)
    if any(offset) and duplex not in ("long", "short"):
        raise click.BadParameter(f"backs are not printed separately with --duplex {duplex}", param_hint="--back-offset")
    machines = obj.project.read_sheet("cutters")["machines"] if cutter else {}
    if cutter and cutter not in machines:
        raise click.BadParameter(f"no cutter '{cutter}' (templates/sheets/cutters.yaml: {', '.join(machines)})",
                                 param_hint="--cutter")
    if cutter and duplex == "gutterfold":
        raise click.BadParameter("a gutterfold sheet is folded before it is cut: print cards for a cutter with "
                                 "--duplex long, short or fronts", param_hint="--cutter")
    if cutter and (profiles or target != "print" or changed_since):
        raise click.BadParameter("cutting machines take home kits: not with --profile, --target tts or "
                                 "--changed-since", param_hint="--cutter")
    from ..app.request import BuildRequest, unchanged_build
    url_map = ()
    if url_maps:
        from ..app.tts import read_url_maps
        url_map = read_url_maps(url_maps)
    request = BuildRequest(game=game, edition=edition, locale=locale, paper=paper, out=out,
                           profiles=tuple(profiles), duplex=duplex, back_offset=offset, ink=ink,
                           cutter=cutter or "", jobs=jobs,
                           cache=not no_cache, kinds=_kinds(kinds), changed_since=changed_since, target=target,
                           url_map=url_map, base_url=base_url)
    result = unchanged_build(obj.project, request)
    if result is None:
        from ..app.build import build
        from .progress import Progress
        with Progress("building") as progress:
            result = build(obj.project, request, progress=progress.step)
    if changed_since and not result.artifacts:
        click.echo(f"no card prints differently since {changed_since}: no errata to build")
    else:
        click.echo(summary(result, out or obj.project.root / "output"))
    for note in result.notes:
        click.echo(note)
    if timings:
        click.echo("\n".join(result.timings.lines()) if result.timings is not None
                   else "no CPU time to show: nothing changed, nothing was built")


def summary(result, out) -> str:
    pages = sum(a.pages for a in result.artifacts)
    if result.unchanged:
        return f"nothing changed: {len(result.artifacts)} files ({pages} pages) in {out} are up to date"
    fresh = len(result.rebuilt)
    kept = f", {len(result.artifacts) - fresh} unchanged" if fresh < len(result.artifacts) else ""
    return f"built {len(result.artifacts)} files ({pages} pages) into {out}: {fresh} rendered{kept}"


def _kinds(values: tuple[str, ...]) -> tuple[str, ...]:
    """--kind cards,boards --kind booklet: the names, each once, sorted (the order does not
    change what is built). Which names exist is the build's to say."""
    names = {name.strip() for value in values for name in value.split(",")}
    if "" in names:
        raise click.BadParameter("an empty kind name", param_hint="--kind")
    return tuple(sorted(names))


def _offset(value: str) -> tuple[float, float]:
    try:
        dx, dy = (float(part) for part in value.split(","))
    except ValueError:
        raise click.BadParameter(f"'{value}' is not DX,DY in millimetres (e.g. 1.5,-0.5)", param_hint="--back-offset")
    if not (math.isfinite(dx) and math.isfinite(dy)):
        raise click.BadParameter(f"'{value}' is not DX,DY in millimetres (e.g. 1.5,-0.5)", param_hint="--back-offset")
    if max(abs(dx), abs(dy)) > 20:
        raise click.BadParameter("more than 20 mm: check the calibration sheet again", param_hint="--back-offset")
    return (dx, dy)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
