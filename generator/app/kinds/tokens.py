"""Tokens: discs, squares, hexes and fold-over standees, packed on the paper."""
from __future__ import annotations

from ...core.yamlfile import locate
from ...load.icons import declared_icons
from ...layout.component import PlacedComponent, PlacedKind, located
from ...layout.contrast import ink_on
from ...layout.cutter import pack_for, packed_cut_sheets, token_outline
from ...layout.faces import Localised
from ...layout.kit import Kit
from ...layout.packing import pack
from ...layout.placed import icon_table
from ...layout.tokens import (
    FLAT_SHAPES,
    TokenFace,
    flat_size,
    lay_out_token,
    standee_outline,
)
from ...render.tokens import draw_token, render_tokens, token_die_lines
from ..cutting import cut_artifacts, cutter_of
from . import Kind, ShopItem, own_phrases


def token_faces(loc: Localised) -> list[TokenFace]:
    """Every token of the edition laid out (a standee once per copy), once per Localised."""
    return list(loc.laid_out("tokens", lambda: _lay_out_tokens(loc)))


def _lay_out_tokens(loc: Localised) -> list[TokenFace]:
    faces = []
    for component in loc.game.in_edition(loc.edition, "tokens"):
        data = component.data
        name = loc.field(component.keypath, data, "name")
        label = loc.field(component.keypath, data, "label") if "label" in data else ""
        copies = component.count(loc.edition)
        shape = data["shape"]
        if shape in FLAT_SHAPES:
            size = data["diameter_mm"] if shape == "disc" else data["side_mm"]
            faces.append(TokenFace(f"token-{component.id}", shape, name, data["colour"], copies,
                                   flat_size(shape, size), icon=data.get("icon", ""),
                                   side_mm=0.0 if shape == "disc" else size, field=component.keypath,
                                   ink=data.get("text_colour") or ink_on(data["colour"]),
                                   ink_key="text_colour" if "text_colour" in data else "colour", label=label))
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
                    ink_key="text_colour" if "text_colour" in data else f"colours.{index % len(colours)}", label=label))
    declared = declared_icons(loc.game.meta)
    icons = icon_table(declared, loc.game.folder) if declared else None
    return [lay_out_token(face, icons) for face in faces]


def files(kit: Kit) -> list:
    faces = token_faces(kit.loc)
    if not faces:
        return []
    sheet = kit.project.load_sheet("tokens")
    if kit.cutter:
        return _cutter_sheets(kit, faces, sheet)
    packed = pack(faces, kit.paper_mm, sheet["margin_mm"], sheet["gap_mm"])
    data, pages, _ = render_tokens(packed, kit.paper_mm, sheet, f"{kit.loc.title} — tokens", draft=kit.draft,
                                   scale_label=kit.scale_label, palette=kit.palette,
                                   unprintable_mm=kit.unprintable_mm)
    return [kit.artifact("tokens", data, pages, name=kit.ink_name("tokens"), details={"ink": kit.ink, **_variant(faces)})]


def _variant(faces: list[TokenFace]) -> dict:
    """What the print-first page says of the sheets: standees are folded as well as cut."""
    return {"variant": "standees"} if any(face.shape == "standee" for face in faces) else {}


def _cutter_sheets(kit: Kit, faces: list, sheet: dict) -> list:
    """The tokens packed in the kit's cutting machine's area, with its marks and their cut files."""
    cutter = cutter_of(kit)
    packed = pack_for(cutter, faces, kit.paper_mm, sheet["gap_mm"])
    data, pages, _ = render_tokens(packed, kit.paper_mm, sheet, f"{kit.loc.title} — tokens", draft=kit.draft,
                                   palette=kit.palette, unprintable_mm=kit.unprintable_mm)
    sheets = packed_cut_sheets(cutter, packed, kit.paper_mm, token_outline)
    return cut_artifacts(kit, "tokens", data, pages, sheets, {"ink": kit.ink, **_variant(faces)})


def sheets(project, loc, paper_mm) -> int:
    faces = token_faces(loc)
    sheet = project.load_sheet("tokens")
    return len(pack(faces, paper_mm, sheet["margin_mm"], sheet["gap_mm"])) if faces else 0


def placed(kit: Kit) -> PlacedKind:
    """Each token (a standee's every copy) with the texts and icon it fits itself, and what
    fitting them found: a text that does not fit, a text or mark that does not stand out."""
    game, components = kit.game, []
    for face in token_faces(kit.loc):
        component_id = face.field.split(".", 1)[1]
        found = tuple((*located(game, key), key, reason) for key, reason in face.problems)
        components.append(PlacedComponent(
            "tokens", component_id, (*locate(game.files["tokens"], ("tokens", component_id)), face.field),
            face.size_mm, face, found=found,
            texts=((face.printed_key, face.printed, "bold"),
                   *((("labels.write_here", face.write_label, "italic"),) if face.write_label else ())),
            icons=((f"{face.field}.icon", face.icon),) if face.icon else ()))
    return PlacedKind("tokens", "token", tuple(components))


# The booklet phrase a token of this shape is counted with, before the general ones.
SHAPE_PHRASES = {"standee": "pawns"}


def contents(loc, phrase) -> list:
    rows = []
    for token in loc.game.in_edition(loc.edition, "tokens"):
        names = own_phrases(token, SHAPE_PHRASES.get(token.data.get("shape"), "tokens"), "tokens", "copies")
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


KIND = Kind("tokens", files, sheets, placed=placed, contents=contents, shop=shop)
