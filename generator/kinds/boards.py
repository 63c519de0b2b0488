"""Boards: each at real size, tiled across the paper with glue strips, alignment marks and
tile labels."""
from __future__ import annotations

from ..kit import Kit
from ..layout import Localised
from ..render.boards import BoardFace, plan_tiles, render_boards
from . import Kind
from ._dry_run import overflows_of


def board_faces(loc: Localised) -> list[BoardFace]:
    game = loc.game
    boards_file = game.files.get("boards") or {}
    design = boards_file.get("design")
    if not design:
        return []
    track, clock = design["track"], design["clock"]
    text = loc.text
    faces = []
    for component in game.in_edition(loc.edition, "boards"):
        data = component.data
        faces.append(BoardFace(
            key=f"board-{component.id}", name=loc.field(component.keypath, data, "name"),
            colour=data["colour"], accent=data["accent"], size_mm=tuple(design["size_mm"]),
            start=text("design.track.start", track["start"]), finish=text("design.track.finish", track["finish"]),
            fields=track["fields"], row_length=track["row_length"],
            clock_label=text("design.clock.label", clock["label"]), clock_fields=clock["fields"],
            clock_red=clock["red"], clock_middle=clock["middle"],
            middle_label=loc.field("design.clock", clock, "middle_label"),
            red_label=loc.field("design.clock", clock, "red_label"), game_title=loc.title))
    return faces


def files(kit: Kit) -> list:
    faces = board_faces(kit.loc)
    if not faces:
        return []
    labels = {"glue": kit.loc.label("glue"), "tile": kit.loc.label("tile")}
    data, pages, _ = render_boards(faces, kit.paper_mm, kit.project.load_sheet("tiles"), labels,
                                   draft=kit.draft, scale_label=kit.scale_label)
    return [kit.artifact("boards", data, pages)]


def sheets(project, loc, paper_mm) -> int:
    tiles = project.load_sheet("tiles")
    return sum(len(plan_tiles(board.size_mm, paper_mm, tiles["margin_mm"], tiles["overlap_mm"])[1])
               for board in board_faces(loc))


def check(kit: Kit) -> list:
    return overflows_of(kit, files)


def contents(loc, phrase) -> list:
    """One row: how many boards, and their names."""
    boards = loc.game.in_edition(loc.edition, "boards")
    if not boards:
        return []
    return [(phrase(loc, "boards", sum(b.count(loc.edition) for b in boards)),
             ", ".join(loc.field(b.keypath, b.data, "name") for b in boards))]


KIND = Kind("boards", 20, files, sheets, check, contents=contents)
