"""What `pnp list` shows: games, editions, locales and components with counts."""
from __future__ import annotations

from rich.console import Console
from rich.table import Table

from ..load.project import Game


def describe_games(games: list[Game]) -> dict:
    result = {"games": []}
    for game in games:
        editions = {}
        for edition in game.editions:
            components = [{"category": c.category, "kind": c.group, "id": c.id, "count": c.count(edition)}
                          for c in game.in_edition(edition)]
            totals: dict[str, int] = {}
            for c in components:
                totals[c["category"]] = totals.get(c["category"], 0) + c["count"]
                key = f"{c['category']}/{c['kind']}"
                totals[key] = totals.get(key, 0) + c["count"]
            editions[edition] = {"name": game.meta["editions"][edition]["name"],
                                 "components": components, "totals": dict(sorted(totals.items()))}
        players = game.meta["players"]
        result["games"].append({
            "id": game.slug, "title": game.meta["title"], "source_locale": game.source_locale,
            "locales": dict(game.meta["locales"]),
            "players": {"min": players["min"], "max": players["max"]},
            "editions": editions})
    return result


def print_games(data: dict) -> None:
    console = Console()
    for game in data["games"]:
        locales = ", ".join(f"{code} ({status})" for code, status in game["locales"].items())
        console.print(f"[bold]{game['id']}[/bold] — {game['title']}  "
                      f"players {game['players']['min']}–{game['players']['max']}; locales: {locales}")
        editions = list(game["editions"])
        table = Table(show_header=True, header_style="bold")
        for column in ("category", "kind", "id", *editions):
            table.add_column(column, justify="right" if column in editions else "left")
        seen = {}
        for edition in editions:
            for c in game["editions"][edition]["components"]:
                seen.setdefault((c["category"], c["kind"], c["id"]), {})[edition] = c["count"]
        for (category, kind, cid), counts in seen.items():
            table.add_row(category, kind, cid, *(str(counts.get(e, "–")) for e in editions))
        totals = sorted({k for e in editions for k in game["editions"][e]["totals"]})
        for key in totals:
            table.add_row("[bold]total[/bold]", key, "",
                          *(str(game["editions"][e]["totals"].get(key, "–")) for e in editions))
        console.print(table)
