"""`pnp profiles` and `pnp preflight`: the print shops the tool knows, and checking files for one."""
from __future__ import annotations

import json
from pathlib import Path

import click


def _describe(profile) -> dict:
    entry = {"name": profile.name, "title": profile.title, "file": profile.file}
    cards = profile.cards
    if cards:
        entry["cards"] = {
            "format": cards.format,
            "sizes": {s.name: {"face_mm": list(s.face_mm), "trim_mm": list(s.trim_mm),
                               **({"pixels": list(s.pixels)} if s.pixels else {}),
                               **({"bleed_mm": s.bleed_mm} if s.bleed_mm is not None else {})}
                      for s in cards.sizes},
            "any_size": cards.any_size,
            "dpi": cards.dpi, "bleed_mm": cards.bleed_mm, "safe_mm": cards.safe_mm,
            "colour": cards.palette.space,
            "ink_limit": cards.palette.ink_limit if cards.palette.space == "cmyk" else None,
            "characterisation": cards.palette.press,
            "rich_black": list(cards.palette.rich_black) if cards.palette.rich_black else None,
            "pdfx": profile.pdfx_version,
            "files": [{"name": f.name, "per": f.per, "sides": list(f.sides)} for f in cards.files],
            "max_cards": cards.max_cards,
        }
    components = profile.components
    if components:
        entry["components"] = {
            "kinds": list(components.kinds), "bleed_mm": components.bleed_mm, "marks_mm": components.marks_mm,
            "max_mm": list(components.max_mm), "name": components.name, "safe_mm": components.safe_mm,
            "colour": components.palette.space,
            "characterisation": components.palette.press,
            "ink_limit": components.palette.ink_limit if components.palette.space == "cmyk" else None,
            "pdfx": components.pdfx_standard[0] if components.pdfx_standard else None}
    if profile.booklet:
        entry["booklet"] = {"name": profile.booklet.name, "bleed_mm": profile.booklet.bleed_mm,
                            "page_multiple": profile.booklet.page_multiple}
    return entry


def register(main):
    @main.command("profiles")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
    @click.pass_obj
    def profiles_command(obj, as_json):
        """List the print-shop profiles (templates/profiles/*.yaml) and what each asks for."""
        from ...load.profiles import load_profiles, profile_names
        profiles = load_profiles(obj.project, profile_names(obj.project))
        data = [_describe(p) for p in profiles]
        if as_json:
            click.echo(json.dumps(data, ensure_ascii=False, indent=2))
            return
        for entry in data:
            click.echo(f"{entry['name']:16} {entry['title']}")
            cards = entry.get("cards")
            if cards:
                colour = (cards["colour"].upper() + (f" ({cards['characterisation']})" if cards["characterisation"] else "")
                          + (f" ≤ {cards['ink_limit']:g} % ink" if cards["ink_limit"] else ""))
                click.echo(f"{'':16} cards: {cards['format'].upper()}, bleed {cards['bleed_mm']:g} mm, "
                           f"safe {cards['safe_mm']:g} mm, {colour}" + (f", {cards['pdfx']}" if cards["pdfx"] else ""))
                if cards["any_size"]:
                    click.echo(f"{'':16}   any card size, cut at the face's edge: "
                               + ", ".join(f"{n} {s['face_mm'][0]:g} x {s['face_mm'][1]:g} mm"
                                           for n, s in cards["sizes"].items()))
                else:
                    for size_name, s in cards["sizes"].items():
                        click.echo(f"{'':16}   {size_name:7} {s['face_mm'][0]:g} x {s['face_mm'][1]:g} mm faces"
                                   + (f", cut at {s['trim_mm'][0]:g} x {s['trim_mm'][1]:g} mm"
                                      if s["trim_mm"] != s["face_mm"] else "")
                                   + (f", {s['pixels'][0]} x {s['pixels'][1]} px" if "pixels" in s else "")
                                   + (f", bleed {s['bleed_mm']:g} mm" if "bleed_mm" in s else ""))
                for spec in cards["files"]:
                    click.echo(f"{'':16}   {spec['name']}  (one per {spec['per']}: {' + '.join(spec['sides'])})"
                               + (f", at most {cards['max_cards']} cards a product" if spec["per"] == "product"
                                  and cards["max_cards"] else ""))
            if "components" in entry:
                c = entry["components"]
                click.echo(f"{'':16} components: {', '.join(c['kinds'])}, a PDF each up to {c['max_mm'][0]:g} x "
                           f"{c['max_mm'][1]:g} mm, bleed {c['bleed_mm']:g} mm, marks {c['marks_mm']:g} mm, "
                           + (f"safe {c['safe_mm']:g} mm, " if c["safe_mm"] is not None else "") +
                           f"{c['colour'].upper()}" + (f" ({c['characterisation']})" if c["characterisation"] else "")
                           + (f", {c['pdfx']}" if c["pdfx"] else ""))
                click.echo(f"{'':16}   {c['name']}")
            if "booklet" in entry:
                b = entry["booklet"]
                click.echo(f"{'':16} booklet: {b['name']}, bleed {b['bleed_mm']:g} mm, pages a multiple of {b['page_multiple']}")

    @main.command("preflight")
    @click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
    @click.option("--profile", "profile_name", required=True, metavar="NAME", help="The shop profile to check against.")
    @click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
    @click.option("--as", "taken_as", type=click.Choice(["cards", "booklet", "component"]),
                  help="Check every file as this, instead of telling by its name and page size.")
    @click.pass_obj
    def preflight_command(obj, files, profile_name, as_json, taken_as):
        """Check print files (PDF or PNG, any maker; folders are searched) against a profile:
        pass/fail per file and criterion, and what each file was taken to be; exit 1 if
        anything fails (each failure also on stderr as `file: check: message`)."""
        from ...load.profiles import load_profile
        from ...write.preflight import failures, format_report, preflight_paths
        profile = load_profile(obj.project, profile_name)
        section = {"cards": profile.cards, "booklet": profile.booklet, "component": profile.components}
        if taken_as and section[taken_as] is None:
            raise click.UsageError(f"profile {profile.name} has no {taken_as if taken_as != 'component' else 'components'} "
                                   f"section to check files against")
        reports = preflight_paths(list(files), profile, taken_as)
        if not reports:
            raise click.UsageError("no PDF or PNG files found")
        if as_json:
            click.echo(json.dumps({"profile": profile.name, "files": [r.to_json() for r in reports]},
                                  ensure_ascii=False, indent=2))
        else:
            click.echo(format_report(reports))
            for line in failures(reports):
                click.echo(line, err=True)
        if not all(r.ok for r in reports):
            raise SystemExit(1)
