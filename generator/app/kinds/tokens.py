"""Tokens: discs, squares, hexes and fold-over standees, packed on the paper."""
from __future__ import annotations

from ...core import fonts
from ...core.errors import Problem
from ...core.yamlfile import locate
from ...layout.contrast import ink_on
from ...layout.faces import Localised
from ...layout.kit import Kit
from ...layout.packing import pack
from ...layout.tokens import (
    FLAT_SHAPES,
    TokenFace,
    flat_size,
    lay_out_token,
    standee_outline,
)
from ...render.tokens import draw_token, render_tokens, token_die_lines
from . import Kind, ShopItem


def token_faces(loc: Localised) -> list[TokenFace]:
    faces = []
    for component in loc.game.in_edition(loc.edition, "tokens"):
        data = component.data
        name = loc.field(component.keypath, data, "name")
        copies = component.count(loc.edition)
        shape = data["shape"]
        if shape in FLAT_SHAPES:
            size = data["diameter_mm"] if shape == "disc" else data["side_mm"]
            faces.append(TokenFace(f"token-{component.id}", shape, name, data["colour"], copies,
                                   flat_size(shape, size), icon=data.get("icon", ""),
                                   side_mm=0.0 if shape == "disc" else size, field=component.keypath,
                                   ink=data.get("text_colour") or ink_on(data["colour"]),
                                   ink_key="text_colour" if "text_colour" in data else "colour"))
        else:
            # One standee per copy, each in its own colour (cycling if there are more copies).
            colours = data["colours"]
            figure = tuple(data["size_mm"])
            for index in range(copies):
                faces.append(TokenFace(
                    f"token-{component.id}-{index + 1}", "standee", name, colours[index % len(colours)], 1,
                    standee_outline(figure, data["base_mm"]), write_label=loc.label("write_here"),
                    fold_label=loc.label("fold"), base_mm=data["base_mm"], figure_mm=figure,
                    field=component.keypath, ink=data.get("text_colour") or ink_on(colours[index % len(colours)]),
                    ink_key="text_colour" if "text_colour" in data else f"colours.{index % len(colours)}"))
    return [lay_out_token(face) for face in faces]


def files(kit: Kit) -> list:
    faces = token_faces(kit.loc)
    if not faces:
        return []
    sheet = kit.project.load_sheet("tokens")
    packed = pack(faces, kit.paper_mm, sheet["margin_mm"], sheet["gap_mm"])
    data, pages, _ = render_tokens(packed, kit.paper_mm, sheet, f"{kit.loc.title} — tokens", draft=kit.draft,
                                   scale_label=kit.scale_label, palette=kit.palette,
                                   unprintable_mm=kit.unprintable_mm)
    return [kit.artifact("tokens", data, pages, name=kit.ink_name("tokens"), details={"ink": kit.ink})]


def sheets(project, loc, paper_mm) -> int:
    faces = token_faces(loc)
    sheet = project.load_sheet("tokens")
    return len(pack(faces, paper_mm, sheet["margin_mm"], sheet["gap_mm"])) if faces else 0


def _glyph_problems(face: TokenFace) -> list[tuple[str, str]]:
    """(key, reason) of each of the token's texts with a character its font lacks, and of an
    icon no shipped symbol font has: drawn, they would be blank."""
    found = []
    for key, text, style in ((f"{face.field}.name", face.name, "bold"), ("labels.write_here", face.write_label, "italic")):
        missing = fonts.missing_glyphs(text, style)
        if missing:
            found.append((key, f"no glyph in the shipped font for {''.join(sorted(missing))!r}"))
    if face.icon and fonts.symbol_font_for(face.icon) is None:
        found.append((f"{face.field}.icon", f"no shipped font has the icon glyph {face.icon!r}"))
    return found


def check(kit: Kit) -> list:
    """Token texts that do not fit or have a character no font draws, and texts or marks that do
    not stand out from the token, each once (a standee's copies share their texts)."""
    game, loc = kit.game, kit.loc
    problems = []
    for key, reason in dict.fromkeys(p for face in token_faces(loc) for p in (*face.problems, *_glyph_problems(face))):
        path = tuple(int(step) if step.isdigit() else step for step in key.split("."))
        # the file whose top level holds the key (tokens:, labels:)
        data = next((d for d in game.files.values() if path[0] in d), game.meta)
        file, line = locate(data, path)
        problems.append(Problem(file, line, key, f"[{game.slug} {loc.edition} {loc.locale}] {reason}"))
    return problems


# The booklet phrase a token of this shape is counted with, before the general ones.
SHAPE_PHRASES = {"standee": "pawns"}


def contents(loc, phrase) -> list:
    rows = []
    for token in loc.game.in_edition(loc.edition, "tokens"):
        names = (SHAPE_PHRASES.get(token.data.get("shape"), "tokens"), "tokens", "copies")
        rows.append((phrase(loc, names, token.count(loc.edition)), loc.field(token.keypath, token.data, "name")))
    return rows


def shop(kit: Kit) -> list:
    """Each token design whole for a print shop: a flat token once with its copies, a
    standee once per copy (each copy has its own colour)."""
    game, items = kit.game, []
    for face in token_faces(kit.loc):
        component_id = face.field.split(".", 1)[1]
        items.append(ShopItem(component_id, face.name, face.size_mm, face.copies,
                              lambda c, bleed, palette, safe, t=face: draw_token(c, t, palette, bleed, cut_lines=False),
                              (*locate(game.files["tokens"], ("tokens", component_id)), face.field),
                              token_die_lines(face)))
    return items


KIND = Kind("tokens", files, sheets, check, contents=contents, shop=shop)
