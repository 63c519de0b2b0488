"""Boards: spaces and paths generated from declared shapes over the board's face, each board at
real size, tiled across the paper with glue strips, alignment marks and tile labels."""
from __future__ import annotations

from ..boards.layout import lay_out_board
from ..errors import Problem
from ..kit import Kit
from ..layout import Localised
from ..render.boards import BoardFace, render_boards, tiles_for
from ..yamlfile import locate
from . import Kind


def board_faces(loc: Localised) -> list[BoardFace]:
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
        plan = lay_out_board(design, component.id, data, game.layouts.get("faces", {}), values, text, game.folder)
        faces.append(BoardFace(f"board-{component.id}", values["name"], plan))
    return faces


def files(kit: Kit) -> list:
    faces = board_faces(kit.loc)
    if not faces:
        return []
    labels = {"glue": kit.loc.label("glue"), "tile": kit.loc.label("tile")}
    data, pages, _ = render_boards(faces, kit.paper_mm, kit.project.load_sheet("tiles"), labels, kit.loc.title,
                                   draft=kit.draft, scale_label=kit.scale_label, palette=kit.palette)
    return [kit.artifact("boards", data, pages, name=kit.ink_name("boards"), details={"ink": kit.ink})]


def sheets(project, loc, paper_mm) -> int:
    tiles = project.load_sheet("tiles")
    return sum(len(tiles_for(board.size_mm, paper_mm, tiles)[1]) for board in board_faces(loc))


def parts(project, loc, paper_mm) -> list:
    """Each board's tiles, when the boards are of several groups: a table prints only the board
    its setup asks for."""
    boards = loc.game.in_edition(loc.edition, "boards")
    if len({board.group for board in boards}) < 2:
        return []
    tiles = project.load_sheet("tiles")
    return [(board.name, len(tiles_for(board.size_mm, paper_mm, tiles)[1])) for board in board_faces(loc)]


def check(kit: Kit) -> list:
    """What laying the boards out found: text that does not fit, a shape larger than its board."""
    loc = kit.loc
    boards_file = loc.game.files.get("boards")
    problems = []
    for board in board_faces(loc):
        for path, message in board.plan.problems:
            file, line = locate(boards_file, path)
            problems.append(Problem(file, line, ".".join(map(str, path)),
                                    f"[{loc.game.slug} {loc.edition} {loc.locale}] {message}"))
    return problems


def contents(loc, phrase) -> list:
    """One row: how many boards, and their names."""
    boards = loc.game.in_edition(loc.edition, "boards")
    if not boards:
        return []
    return [(phrase(loc, "boards", sum(b.count(loc.edition) for b in boards)),
             ", ".join(loc.field(b.keypath, b.data, "name") for b in boards))]


KIND = Kind("boards", 20, files, sheets, check, contents=contents, parts=parts)
