"""Boards: spaces and paths generated from declared shapes over the board's face, each board at
real size, tiled across the paper with glue strips, alignment marks and tile labels; and, for the
boards and editions that declare `one_sheet`, each board again on one sheet of the paper, scaled
to its printable area with the scale printed beside it."""
from __future__ import annotations

import math
from dataclasses import replace

from babel.numbers import format_percent
from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm

from ...core.errors import DataError, Problem
from ...core.schema import did_you_mean
from ...core.yamlfile import locate
from ...i18n.catalogs import tool_text_place
from ...layout.assembly import AssemblyMap, lay_out_assembly_map
from ...layout.boards import BoardFace, board_shapes, lay_out_board
from ...layout.component import PlacedComponent, PlacedKind
from ...layout.faces import Localised
from ...layout.kit import Kit, localised_sheet
from ...layout.tiles import cut_into_tiles, one_sheet_pages, tiles_for
from ...load.icons import declared_icons
from ...render.boards import render_boards, render_one_sheet
from ...render.faces import draw_placed
from . import Kind, ShopItem


def board_faces(loc: Localised) -> list[BoardFace]:
    """Every board of the edition laid out, once per Localised."""
    return list(loc.laid_out("boards", lambda: _lay_out_boards(loc)))


def _lay_out_boards(loc: Localised) -> list[BoardFace]:
    game = loc.game
    boards_file = game.files.get("boards")
    if not boards_file:
        return []
    design = boards_file.get("design") or {}
    faces = []

    def text(path: tuple, source: str) -> str:
        return loc.text(".".join(map(str, path)), source)

    for component in game.in_edition(loc.edition, "boards"):
        data = component.data
        values = {key: value for key, value in data.items() if isinstance(value, str)}
        values.update(name=loc.field(component.keypath, data, "name"), game_title=loc.title)
        plan = lay_out_board(design, component.id, data, game.layouts.get("faces", {}), values, text, game.folder,
                             declared_icons(game.meta))
        faces.append(BoardFace(f"board-{component.id}", values["name"], plan))
    return faces


# The words a one-sheet board prints (game.yaml `labels:`): the scale beside each board, and
# what the booklet's component list and print table call those sheets.
ONE_SHEET_LABELS = ("scale", "one_sheet")


# The booklet's text column (A5, templates/booklet/booklet.css): a board's picture is drawn at
# most this wide, and its callout marks are sized to read at that width.
PICTURE_MM = 120.0
MARK_RADIUS_MM, MARK_PT = 2.3, 7.5


def picture(project, loc, component_id: str):
    """A board as it prints, scaled to the booklet's column, each part its data names for the
    booklet (`callout:`) marked with its number; returns (size, draw, the callouts' texts)."""
    for face in board_faces(loc):
        if face.key == f"board-{component_id}":
            scale = min(1.0, PICTURE_MM / max(face.size_mm))
            size = (face.size_mm[0] * scale, face.size_mm[1] * scale)
            return size, lambda canvas: draw_callouts(canvas, face, scale), [c.text for c in face.plan.callouts]
    return None


def draw_callouts(canvas, face: BoardFace, scale: float) -> None:
    """The board at `scale`, then a numbered mark on (or, for a single marked space, beside)
    each callout's space; the path's mark has an arrow beside it the way play runs."""
    canvas.saveState()
    canvas.scale(scale, scale)
    draw_placed(canvas, face.plan.face)
    canvas.restoreState()
    r = MARK_RADIUS_MM
    for number, callout in enumerate(face.plan.callouts, start=1):
        space = callout.space
        (x, y), (ox, oy) = (space.centre[0] * scale, space.centre[1] * scale), space.outward
        if callout.beside:
            reach = callout.size_mm * scale / 2 + r + 0.4
            x, y = x + ox * reach, y + oy * reach
        elif callout.following is not None:
            _direction_arrow(canvas, (x, y), callout.following, scale, (ox, oy), callout.size_mm * scale / 2 + r)
        canvas.saveState()
        canvas.setFillColor(HexColor("#1E1E1E"))
        canvas.setStrokeColor(HexColor("#FFFFFF"))
        canvas.setLineWidth(0.8)
        canvas.circle(x * mm, y * mm, r * mm, stroke=1, fill=1)
        canvas.setFillColor(HexColor("#FFFFFF"))
        canvas.setFont("Sans-Bold", MARK_PT)
        canvas.drawCentredString(x * mm, y * mm - MARK_PT * 0.35, str(number))
        canvas.restoreState()


def _direction_arrow(canvas, start, towards, scale: float, outward, offset: float) -> None:
    """An arrow from beside `start` to beside the next space, `offset` mm out from the path."""
    (x0, y0), (x1, y1) = start, (towards.centre[0] * scale, towards.centre[1] * scale)
    dx, dy = outward[0] * offset, outward[1] * offset
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    tip = (x1 + dx, y1 + dy)
    head = 1.6
    canvas.saveState()
    canvas.setStrokeColor(HexColor("#1E1E1E"))
    canvas.setFillColor(HexColor("#1E1E1E"))
    canvas.setLineWidth(0.9)
    canvas.line((x0 + dx + ux * MARK_RADIUS_MM) * mm, (y0 + dy + uy * MARK_RADIUS_MM) * mm,
                (tip[0] - ux * head) * mm, (tip[1] - uy * head) * mm)
    path = canvas.beginPath()
    path.moveTo(tip[0] * mm, tip[1] * mm)
    path.lineTo((tip[0] - ux * head - uy * head * 0.6) * mm, (tip[1] - uy * head + ux * head * 0.6) * mm)
    path.lineTo((tip[0] - ux * head + uy * head * 0.6) * mm, (tip[1] - uy * head - ux * head * 0.6) * mm)
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()


def one_sheet(game, component, edition: str) -> bool:
    """Whether the board also prints on one sheet in this edition: its own `one_sheet`, or the
    design's; `true` for every edition, or a list of editions."""
    design = (game.files.get("boards") or {}).get("design") or {}
    value = component.data.get("one_sheet", design.get("one_sheet", False))
    return edition in value if isinstance(value, list) else bool(value)


def one_sheet_ids(loc: Localised) -> set[str]:
    return {c.id for c in loc.game.in_edition(loc.edition, "boards") if one_sheet(loc.game, c, loc.edition)}


def files(kit: Kit) -> list:
    faces = board_faces(kit.loc)
    if not faces:
        return []
    tiles, labels, tiled, maps = _tiled(kit, faces)
    problems = [problem for board_map in maps.values() for problem in _map_problems(kit, board_map)]
    if problems:
        raise DataError(problems)
    data, pages, _ = render_boards(tiled, maps, kit.paper_mm, tiles, labels, kit.loc.title,
                                   draft=kit.draft, scale_label=kit.scale_label, palette=kit.palette,
                                   unprintable_mm=kit.unprintable_mm)
    made = [kit.artifact("boards", data, pages, name=kit.ink_name("boards"), details={"ink": kit.ink})]
    ids = one_sheet_ids(kit.loc)
    single = [face for face in faces if face.key.removeprefix("board-") in ids]
    if single:
        locale = kit.loc.locale
        scaled = one_sheet_pages(single, kit.paper_mm, tiles, kit.unprintable_mm)
        data, pages, _ = render_one_sheet(scaled, kit.paper_mm, tiles, {"scale": kit.loc.label("scale")},
                                          kit.loc.title, lambda scale: format_percent(scale, locale=locale),
                                          draft=kit.draft, scale_label=kit.scale_label, palette=kit.palette,
                                          unprintable_mm=kit.unprintable_mm)
        made.append(kit.artifact("boards-one-sheet", data, pages, name=kit.ink_name("boards-one-sheet"),
                                 details={"ink": kit.ink}))
    return made


def _tiled(kit: Kit, faces: list[BoardFace]) -> tuple[dict, dict, list, dict]:
    """tiles.yaml, the words the tiles print, each board cut into tiles on the kit's paper, and
    the assembly map of each board of several tiles (by its key)."""
    tiles = kit.project.load_sheet("tiles")          # located: its errors name the file and line
    labels = {"glue": kit.loc.label("glue"), "tile": kit.loc.label("tile"),
              **localised_sheet(kit, "tiles").get("text", {})}
    tiled = [cut_into_tiles(face, kit.paper_mm, tiles, kit.unprintable_mm) for face in faces]
    maps = {board.item.key: lay_out_assembly_map(board.item, list(board.tiles), kit.paper_mm, tiles["margin_mm"],
                                                 tiles["assembly_map"], labels)
            for board in tiled if tiles.get("assembly_map") and len(board.tiles) > 1}
    return tiles, labels, tiled, maps


def _map_problems(kit: Kit, board_map: AssemblyMap) -> list[Problem]:
    """Words of an assembly map too long for their room, at the words: the tool's catalog entry
    in the kit's locale, or tiles.yaml's English source."""
    source = kit.project.load_sheet("tiles")
    problems = []
    for key, reason in board_map.problems:
        file, line = locate(source, ("text", key))
        where = tool_text_place(kit.project, kit.loc.locale, f"sheets.tiles.text.{key}", str(source["text"][key]),
                                (file, line, f"text.{key}"))
        problems.append(Problem(*where, f"[{kit.game.slug} {kit.loc.edition} {kit.loc.locale}] on {kit.paper} paper, "
                                        f"{reason}"))
    return problems


def board_sheets(size_mm, paper_mm, tiles: dict) -> int:
    """Pages a board prints on: its tiles, and its assembly map before them when it has several."""
    count = len(tiles_for(size_mm, paper_mm, tiles)[1])
    return count + (1 if count > 1 and tiles.get("assembly_map") else 0)


def sheets(project, loc, paper_mm) -> int:
    tiles = project.load_sheet("tiles")
    return sum(board_sheets(board.size_mm, paper_mm, tiles) for board in board_faces(loc))


def parts(project, loc, paper_mm) -> list:
    """Each board's tiles, when the boards are of several groups: a table prints only the board
    its setup asks for; and the sheets of the one-sheet boards, which a table prints instead of
    the tiled ones."""
    boards = loc.game.in_edition(loc.edition, "boards")
    rows = []
    if len({board.group for board in boards}) >= 2:
        tiles = project.load_sheet("tiles")
        rows = [(board.name, board_sheets(board.size_mm, paper_mm, tiles)) for board in board_faces(loc)]
    single = one_sheet_ids(loc)
    if single:
        rows.append((loc.label("one_sheet"), len(single)))
    return rows


def placed(kit: Kit) -> PlacedKind:
    """Each board with what laying it out found (text that does not fit or stand out, a shape
    larger than its board), located in boards.yaml."""
    loc = kit.loc
    boards_file = loc.game.files.get("boards")
    components, uses = [], []
    design, faces = (boards_file or {}).get("design") or {}, loc.game.layouts.get("faces", {})
    for component, board in zip(loc.game.in_edition(loc.edition, "boards"), board_faces(loc)):
        found = tuple((*locate(boards_file, path), ".".join(map(str, path)), message)
                      for path, message in board.plan.problems)
        spec, _ = board_shapes(design, component.id, component.data)
        uses.append((faces.get(spec.get("layout", "")), board.plan.face.values))
        components.append(PlacedComponent("boards", component.id,
                                          (*locate(boards_file, ("boards", component.id)), component.keypath),
                                          board.size_mm, board, found=found))
    return PlacedKind("boards", "board", tuple(components), tuple(uses))


def check(kit: Kit) -> list:
    """The data of boards printed on one sheet, and the words of every assembly map on every
    paper, laid out before anything is drawn."""
    problems = one_sheet_problems(kit.game)
    faces = board_faces(kit.loc)
    maps = []
    for paper in kit.project.read_sheet("papers")["papers"] if faces else ():
        on_paper = replace(kit, paper=paper)
        try:
            maps += [(on_paper, board_map) for board_map in _tiled(on_paper, faces)[3].values()]
        except DataError:
            # tiles.yaml leaves no room on this paper: the build of that paper names it, and
            # the maps' words are judged once the sheet itself is mended
            return problems
    return problems + [problem for on_paper, board_map in maps for problem in _map_problems(on_paper, board_map)]


def one_sheet_problems(game) -> list:
    """A `one_sheet` naming an edition the game does not have, and the labels a one-sheet board
    prints that game.yaml lacks."""
    boards_file = game.files.get("boards") or {}
    declared = [(("design",), boards_file.get("design") or {})]
    declared += [(("boards", board_id), data) for board_id, data in (boards_file.get("boards") or {}).items()]
    problems = []
    for path, node in declared:
        value = node.get("one_sheet") if isinstance(node, dict) else None
        for edition in value if isinstance(value, list) else []:
            if edition not in game.editions:
                file, line = locate(boards_file, path + ("one_sheet",))
                problems.append(Problem(file, line, ".".join(map(str, path + ("one_sheet",))),
                                        f"no edition '{edition}' in game.yaml{did_you_mean(edition, game.editions)}"))
    if any(one_sheet(game, c, e) for e in game.editions for c in game.in_edition(e, "boards")):
        labels = game.meta.get("labels") or {}
        for label in ONE_SHEET_LABELS:
            if label not in labels:
                file, line = locate(game.meta, ("labels",)) if "labels" in game.meta else (game.file_name("game"), 0)
                problems.append(Problem(file, line, f"labels.{label}",
                                        "a board printed on one sheet prints this label; add it"))
    return problems


def contents(loc, phrase) -> list:
    """One row: how many boards, and their names; and one for the boards also printed on one
    sheet."""
    boards = loc.game.in_edition(loc.edition, "boards")
    if not boards:
        return []
    rows = [(phrase(loc, "boards", sum(b.count(loc.edition) for b in boards)),
             ", ".join(loc.field(b.keypath, b.data, "name") for b in boards))]
    single = [b for b in boards if one_sheet(loc.game, b, loc.edition)]
    if single:
        rows.append((phrase(loc, "boards", sum(b.count(loc.edition) for b in single)), loc.label("one_sheet")))
    return rows


def shop(kit: Kit) -> list:
    """Each board whole, at real size, for a print shop."""
    loc = kit.loc
    boards = loc.game.in_edition(loc.edition, "boards")
    items = []
    for component, board in zip(boards, board_faces(loc)):
        items.append(ShopItem(component.id, board.name, board.size_mm, component.count(loc.edition),
                              lambda c, bleed, palette, safe, b=board: draw_placed(c, b.plan.face, bleed, palette),
                              (*locate(loc.game.files["boards"], ("boards", component.id)), component.keypath)))
    return items


KIND = Kind("boards", files, sheets, placed=placed, check=check, contents=contents, parts=parts, picture=picture, shop=shop,
            file_kinds=("boards", "boards-one-sheet"))
