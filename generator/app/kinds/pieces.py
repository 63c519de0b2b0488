"""Cut-out pieces (a frame, a tool, a screen): art from a face layout, an outline to cut, fold
lines and glue areas; packed on the paper, or tiled across pages when larger than it."""
from __future__ import annotations

from ...core.yamlfile import locate
from ...layout.component import ComponentFace, PlacedComponent, PlacedKind
from ...layout.faces import Localised
from ...layout.kit import Kit
from ...layout.cutter import packed_cut_sheets, piece_outline, piece_pages
from ...layout.pieces import PieceFace, page_plan, place_glue_labels, sheet_count
from ...layout.placed import place_face
from ...load.icons import declared_icons
from ...render.pieces import draw_piece, piece_die_lines, render_pieces
from ..cutting import cut_artifacts, cutter_of
from . import Kind, ShopItem, counted_rows


def piece_faces(loc: Localised) -> list[PieceFace]:
    """Every piece of the edition whose face layout exists, laid out once per Localised."""
    return list(loc.laid_out("pieces", lambda: _lay_out_pieces(loc)))


def _lay_out_pieces(loc: Localised) -> list[PieceFace]:
    game, pieces = loc.game, []
    glue = loc.label("glue")
    for component in game.in_edition(loc.edition, "pieces"):
        data = component.data
        layout = game.layouts.get("faces", {}).get(data["layout"])
        if layout is None:
            continue
        values = {key: value for key, value in data.items() if isinstance(value, str)}
        values.update(name=loc.field(component.keypath, data, "name"), game_title=loc.title)
        w, h = layout["size_mm"]
        outline = tuple(tuple(p) for p in data.get("outline", [(0, 0), (w, 0), (w, h), (0, h)]))
        pieces.append(PieceFace(f"piece-{component.id}", values["name"], (w, h), component.count(loc.edition),
                                place_face(layout, values, game.folder, declared_icons(game.meta) or None), outline,
                                tuple((tuple(a), tuple(b)) for a, b in data.get("folds", [])),
                                tuple(tuple(area) for area in data.get("glue", [])), glue))
    return pieces


def _settings(project):
    return project.load_sheet("tokens"), project.load_sheet("tiles")


def files(kit: Kit) -> list:
    pieces = piece_faces(kit.loc)
    if not pieces:
        return []
    packing, tiles = _settings(kit.project)
    labels = {"glue": kit.loc.label("glue"), "tile": kit.loc.label("tile")}
    if kit.cutter:
        return _cutter_sheets(kit, pieces, packing, tiles, labels)
    plan = page_plan(pieces, kit.paper_mm, packing, tiles, kit.unprintable_mm)
    data, pages, _ = render_pieces(plan, kit.paper_mm, packing, tiles, labels, f"{kit.loc.title} — pieces",
                                   draft=kit.draft, scale_label=kit.scale_label, palette=kit.palette,
                                   unprintable_mm=kit.unprintable_mm)
    return [kit.artifact("pieces", data, pages, name=kit.ink_name("pieces"), details={"ink": kit.ink})]


def _cutter_sheets(kit: Kit, pieces: list, packing: dict, tiles: dict, labels: dict) -> list:
    """The pieces that fit the kit's cutting machine packed in its area, with its marks and their
    cut files; larger pieces tiled after them, to cut by hand."""
    cutter = cutter_of(kit)
    plan = piece_pages(cutter, pieces, kit.paper_mm, packing["gap_mm"], tiles, kit.unprintable_mm)
    data, pages, _ = render_pieces(plan, kit.paper_mm, packing, tiles, labels, f"{kit.loc.title} — pieces",
                                   draft=kit.draft, palette=kit.palette, unprintable_mm=kit.unprintable_mm)
    sheets = packed_cut_sheets(cutter, plan.packed, kit.paper_mm, piece_outline)
    return cut_artifacts(kit, "pieces", data, pages, sheets, {"ink": kit.ink})


def sheets(project, loc, paper_mm) -> int:
    pieces = piece_faces(loc)
    if not pieces:
        return 0
    return sheet_count(pieces, paper_mm, *_settings(project))


def _points(data, key: str) -> list:
    """The points of a piece's outline, fold lines or glue areas (their corners)."""
    if key == "outline":
        return data.get("outline", [])
    if key == "folds":
        return [point for line in data.get("folds", []) for point in line]
    return [corner for x, y, w, h in data.get("glue", []) for corner in ((x, y), (x + w, y + h))]


def placed(kit: Kit) -> PlacedKind:
    """Each piece with the face layout it names, its outline, folds and glue areas, which must
    lie on that layout, and, when it could be laid out, its face and labelled glue areas."""
    game, loc = kit.game, kit.loc
    layouts, pieces_file = game.layouts.get("faces", {}), game.files.get("pieces")
    laid = {piece.key: piece for piece in piece_faces(loc)}
    components, uses = [], []
    for component in game.in_edition(loc.edition, "pieces"):
        data, piece = component.data, laid.get(f"piece-{component.id}")
        layout = layouts.get(data["layout"])
        source = (*locate(pieces_file, ("pieces", component.id)), component.keypath)
        on_layout = tuple(((*locate(pieces_file, ("pieces", component.id, key)), f"{component.keypath}.{key}"),
                           tuple(_points(data, key))) for key in ("outline", "folds", "glue") if key in data)
        if piece is None:
            components.append(PlacedComponent("pieces", component.id, source, (0.0, 0.0), None, (), data["layout"],
                                              (*locate(pieces_file, ("pieces", component.id, "layout")),
                                               f"{component.keypath}.layout"), None, on_layout=on_layout))
            continue
        uses.append((layout, piece.face.values))
        glue = tuple(((*locate(pieces_file, ("pieces", component.id, "glue", index)),
                       f"pieces.{component.id}.glue.{index}"), area) for index, area in enumerate(piece.glue))
        components.append(PlacedComponent(
            "pieces", component.id, source, piece.size_mm, piece, (ComponentFace(piece.face, source),),
            data["layout"], ("", 0, ""), layout, on_layout=on_layout, glue=glue, glue_label=piece.glue_label))
    return PlacedKind("pieces", "piece", tuple(components), tuple(uses))


def contents(loc, phrase) -> list:
    return counted_rows(loc, phrase, "pieces", "pieces")


def picture(project, loc, component_id: str):
    """A piece as it prints, whole: its art, cut outline, folds and glue areas."""
    for piece in piece_faces(loc):
        if piece.key == f"piece-{component_id}":
            return piece.size_mm, lambda canvas: draw_piece(canvas, piece)
    return None


def shop(kit: Kit) -> list:
    """Each piece whole for a print shop, however large (the shop's die follows its outline)."""
    items = []
    for piece in piece_faces(kit.loc):
        component_id = piece.key.removeprefix("piece-")
        items.append(ShopItem(component_id, piece.name, piece.size_mm, piece.copies,
                              lambda c, bleed, palette, safe, p=piece: draw_piece(
                                  c, p, palette, bleed, place_glue_labels(p, safe), cut_lines=False),
                              (*locate(kit.game.files["pieces"], ("pieces", component_id)), f"pieces.{component_id}"),
                              piece_die_lines(piece)))
    return items


KIND = Kind("pieces", files, sheets, placed=placed, contents=contents, picture=picture, shop=shop)
