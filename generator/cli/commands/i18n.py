"""`pnp i18n extract` and `pnp i18n status`: the translator's commands."""
from __future__ import annotations

import json

import click


def _games(project, game):
    """Games whose data and rules are sound; their translations may be incomplete."""
    from ...app.loading import load_games
    return load_games(project, game, texts=False)


def register(main):
    @main.group()
    def i18n():
        """Translation catalogs (gettext PO, one per game and locale)."""

    @i18n.command()
    @click.argument("game", required=False)
    @click.pass_obj
    def extract(obj, game):
        """Write each game's template and merge it into every locale's catalog."""
        from ...i18n.catalogs import extract_game, extract_tool, owns_tool_catalogs, template_path, write_extractions
        from ...layout.faces import translator_notes
        done = [(f"{loaded.slug}: {obj.project.display(template_path(loaded))}",
                 extract_game(loaded, translator_notes(loaded)))
                for loaded in _games(obj.project, game)]
        if game is None and owns_tool_catalogs(obj.project):
            done.append(("(tool): templates/locales/messages.pot", extract_tool(obj.project)))
        write_extractions([extraction for _, extraction in done], obj.project.root)
        for heading, extraction in done:
            click.echo(heading)
            for r in extraction.results:
                click.echo(f"  {r.locale}: {r.new} new, {r.changed} changed (fuzzy), {r.removed} removed")

    @i18n.command()
    @click.argument("game", required=False)
    @click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
    @click.pass_obj
    def status(obj, game, as_json):
        """Strings and words translated, fuzzy and untranslated, and failing checks."""
        from ...i18n.catalogs import catalog_status, glossary_warnings, tool_status
        rows = []
        for loaded in _games(obj.project, game):
            for locale in loaded.locales:
                st = catalog_status(loaded, locale)
                data = st.to_json()
                data["glossary"] = glossary_warnings(loaded, locale)
                rows.append(data)
        if game is None:
            for st in tool_status(obj.project):
                rows.append(dict(st.to_json(), glossary=[]))
        if as_json:
            click.echo(json.dumps({"catalogs": rows}, ensure_ascii=False, indent=2))
        else:
            _print_table(rows)
        if any(r["problems"] for r in rows):
            raise click.exceptions.Exit(1)

    def _print_table(rows):
        from rich.console import Console
        from rich.table import Table
        from rich.text import Text
        table = Table(show_header=True, header_style="bold")
        for column in ("game", "locale", "status", "strings", "translated", "fuzzy", "untranslated",
                       "words", "%", "problems"):
            table.add_column(column, justify="left" if column in ("game", "locale", "status") else "right")
        for r in rows:
            kind = "source" if r["source"] else ("released" if r["released"] else
                                                 "fallback" if r["game"] == "(tool)" else "draft")
            s = r["strings"]
            table.add_row(r["game"], r["locale"], kind, str(s["total"]), str(s["translated"]), str(s["fuzzy"]),
                          str(s["untranslated"]), f"{r['words']['translated']}/{r['words']['total']}",
                          f"{r['percent']:.1f}", str(len(r["problems"])))
        console = Console(width=120)
        console.print(table)
        # Text, not markup: a catalog's words in a message must not be read as rich's [tags].
        for r in rows:
            for problem in r["problems"]:
                console.print(Text(problem, style="red"), highlight=False, soft_wrap=True)
            for warning in r["glossary"]:
                console.print(Text(f"{r['game']} {r['locale']}: {warning}", style="yellow"), highlight=False,
                              soft_wrap=True)
