"""`pnp new SLUG`: a new game that validates and builds at once.

It writes components/SLUG/ (game.yaml with the counts it needs, a deck, its layouts, a rule
booklet and the source locale's catalog template): a game of YAML alone. With `--rules`, the
game names a rules module instead, written in the project's own rules/ folder, and has a
scenario that plays it. The files come from generator/scaffold/ (Jinja2 templates, rendered
in the sandbox with the game's slug, module name, title and whether it has rules). The new
game is then validated as `pnp validate` would; a game that does not pass leaves nothing behind.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import click

from ...core.errors import PnpError
from ...core.files import TOOL_FOLDER


SCAFFOLD = TOOL_FOLDER / "scaffold"
TEMPLATE_SUFFIX = ".j2"
# A game's folder name, and with `_` for `-` the name of its rules module.
SLUG = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
SLUG_MAX = 64


def module_name(slug: str) -> str:
    return slug.replace("-", "_")


def title_of(slug: str) -> str:
    """"my-game" -> "My Game": a first title, for the designer to change."""
    return " ".join(part.capitalize() for part in slug.split("-"))


def check_slug(slug: str) -> None:
    if len(slug) > SLUG_MAX or not SLUG.match(slug):
        raise PnpError(f"'{slug}' is not a game name: lower-case letters and digits, words joined by single "
                       f"hyphens, starting with a letter, at most {SLUG_MAX} characters (e.g. my-game)")


def scaffold_files(slug: str, rules: bool = False) -> dict[str, str]:
    """Each file of the new game, by its path in the project, with its text: with `rules`, its
    rules module and a scenario besides."""
    from jinja2 import StrictUndefined
    from jinja2.sandbox import SandboxedEnvironment
    env = SandboxedEnvironment(undefined=StrictUndefined, keep_trailing_newline=True, autoescape=False)
    values = {"slug": slug, "module": module_name(slug), "title": title_of(slug), "rules": rules}
    places = {"game": f"components/{slug}"}
    if rules:
        places.update({"scenarios": f"components/{slug}/scenarios", "rules": f"rules/{module_name(slug)}"})
    files = {}
    for part, target in places.items():
        for template in sorted((SCAFFOLD / part).rglob(f"*{TEMPLATE_SUFFIX}")):
            relative = template.relative_to(SCAFFOLD / part).as_posix()[:-len(TEMPLATE_SUFFIX)]
            files[f"{target}/{relative}"] = env.from_string(template.read_text(encoding="utf-8")).render(values)
    return files


def _taken(path: Path) -> bool:
    return path.exists() or path.is_symlink()


def new_game(project, slug: str, rules: bool = False) -> list[str]:
    """Write the new game (with `rules`, and its rules module) into the project, validate it
    and write its catalog template; the paths written, relative to the project. Refuses a bad
    name, or a game folder or rules module that is already there."""
    from ...app.loading import load_games
    from ...core.files import outside_roots, relative_to, write_inside
    from ...i18n.catalogs import extract_game, template_path, write_extractions
    from ...layout.faces import translator_notes
    from ...rules import PROJECT_FOLDER
    check_slug(slug)
    root = Path(project.root)
    module = module_name(slug)
    game_folder = root / "components" / slug
    rules_folder = root / PROJECT_FOLDER / module
    parents = [root / "components", root / PROJECT_FOLDER] if rules else [root / "components"]
    for folder in parents:
        if _taken(folder) and (outside_roots(folder, [root]) or not folder.is_dir()):
            raise PnpError(f"{folder.relative_to(root).as_posix()} is not a folder of the project "
                           f"(a file, or a link to a place outside it): `pnp new` writes nothing there")
    wanted = [game_folder, rules_folder, rules_folder.with_suffix(".py")] if rules else [game_folder]
    for taken in wanted:
        if _taken(taken):
            raise PnpError(f"{taken.relative_to(root).as_posix()} already exists: `pnp new` writes a new game "
                           f"and changes nothing that is there; choose another name")
    files = scaffold_files(slug, rules)
    made = [folder for folder in parents if not _taken(folder)]
    made += [game_folder, rules_folder] if rules else [game_folder]
    try:
        write_inside([(root / relative, text.encode("utf-8")) for relative, text in files.items()], [root],
                     shown=relative_to(root))
        game = load_games(project, slug)[0]
        extraction = extract_game(game, translator_notes(game))
        write_extractions([extraction], root)
    except BaseException:               # a game that does not validate, a full disk, Ctrl-C
        for folder in reversed(made):
            shutil.rmtree(folder, ignore_errors=True)
        raise
    return sorted(files) + [template_path(game).relative_to(root).as_posix()]


def register(main):
    @main.command("new")
    @click.argument("slug")
    @click.option("--rules", "rules", is_flag=True,
                  help="Also write a rules module, rules/SLUG_MODULE/ (the slug with _ for -), that checks "
                       "the counts and plays the game, and a scenario for `pnp play`.")
    @click.pass_obj
    def new(obj, slug, rules):
        """Start a new game that validates and builds at once: components/SLUG/, all YAML, its
        counts under `needs:` in game.yaml (with --rules, a rules module instead). Refuses a
        game or rules module that is already there, and writes nothing then."""
        written = new_game(obj.project, slug, rules)
        click.echo(f"new game {slug}:")
        for path in written:
            click.echo(f"  {path}")
        scenario = next((path for path in written if "/scenarios/" in path), None)
        click.echo(f"next: pnp validate {slug}; pnp build --game {slug}"
                   + (f"; pnp play {slug} {scenario}" if scenario else ""))
