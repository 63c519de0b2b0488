"""Cut-out pieces (a frame, a tool, a screen): art from a face layout, an outline to cut, fold
lines and glue areas; packed on the paper, or tiled across pages when larger than it."""
from __future__ import annotations

from ...core.errors import Problem
from ...core.yamlfile import locate
from ...layout.faces import Localised, face_problems, unknown_fields
from ...layout.kit import Kit
from ...layout.pieces import PieceFace, glue_label_problem, page_plan, sheet_count
from ...layout.placed import place_face
from ...render.pieces import draw_piece, piece_die_lines, render_pieces
from . import Kind, ShopItem, counted_rows


def piece_faces(loc: Localised) -> list[PieceFace]:
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
                                place_face(layout, values, game.folder), outline,
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
    plan = page_plan(pieces, kit.paper_mm, packing, tiles, kit.unprintable_mm)
    data, pages, _ = render_pieces(plan, kit.paper_mm, packing, tiles, labels, f"{kit.loc.title} — pieces",
                                   draft=kit.draft, scale_label=kit.scale_label, palette=kit.palette,
                                   unprintable_mm=kit.unprintable_mm)
    return [kit.artifact("pieces", data, pages, name=kit.ink_name("pieces"), details={"ink": kit.ink})]


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


def glue_problems(loc, piece: PieceFace, safe_mm: float = 0.0) -> list:
    """Each glue area's label fits inside it (and `safe_mm` inside the trim), located at the
    area in pieces.yaml."""
    game, component_id, problems = loc.game, piece.key.removeprefix("piece-"), []
    for index, area in enumerate(piece.glue):
        message = glue_label_problem(piece.glue_label, area, piece.size_mm, safe_mm)
        if message:
            file, line = locate(game.files["pieces"], ("pieces", component_id, "glue", index))
            problems.append(Problem(file, line, f"pieces.{component_id}.glue.{index}",
                                    f"[{game.slug} {loc.edition} {loc.locale}] {message}"))
    return problems


def check(kit: Kit) -> list:
    """Each piece's layout exists, its outline, folds and glue stay on it, its text and glue
    labels fit."""
    game, loc, problems = kit.game, kit.loc, []
    faces = game.layouts.get("faces", {})
    for component in game.in_edition(loc.edition, "pieces"):
        data = component.data
        layout = faces.get(data["layout"])
        if layout is None:
            file, line = locate(game.files["pieces"], ("pieces", component.id, "layout"))
            problems.append(Problem(file, line, f"{component.keypath}.layout",
                                    f"no face layout '{data['layout']}' in layouts.yaml (faces: {', '.join(sorted(faces)) or 'none'})"))
            continue
        w, h = layout["size_mm"]
        for key in ("outline", "folds", "glue"):
            outside = [p for p in _points(data, key) if not (-1e-6 <= p[0] <= w + 1e-6 and -1e-6 <= p[1] <= h + 1e-6)]
            if outside:
                file, line = locate(game.files["pieces"], ("pieces", component.id, key))
                problems.append(Problem(file, line, f"{component.keypath}.{key}",
                                        f"({outside[0][0]:g}, {outside[0][1]:g}) lies outside the {w:g} x {h:g} mm layout"))
    layout_of = {f"piece-{c.id}": faces.get(c.data["layout"]) for c in game.in_edition(loc.edition, "pieces")}
    pieces = piece_faces(loc)
    for piece in pieces:
        component_id = piece.key.removeprefix("piece-")
        file, line = locate(game.files["pieces"], ("pieces", component_id))
        problems += face_problems(loc, piece.face, file, line, f"pieces.{component_id}")
        problems += glue_problems(loc, piece)
    return problems + unknown_fields(game, [(layout_of[piece.key], piece.face.values) for piece in pieces], "piece")


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
                              lambda c, bleed, palette, safe, p=piece: draw_piece(c, p, palette, bleed, safe,
                                                                                  cut_lines=False),
                              (*locate(kit.game.files["pieces"], ("pieces", component_id)), f"pieces.{component_id}"),
                              piece_die_lines(piece), lambda safe, p=piece: glue_problems(kit.loc, p, safe)))
    return items


KIND = Kind("pieces", files, sheets, check, contents=contents, picture=picture, shop=shop)
