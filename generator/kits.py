"""What a kit is made of: the files a home kit has (cards, calibration sheet, boards, tokens),
the files made once per edition and locale (previews, rule booklets) and per edition (the
designer's report), and the glue that hands each renderer the faces it draws. The order of the
stages, and what gets written, is build.py's.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from .booklet import home_print, lay_out, render as render_booklet
from .errors import Problem
from .i18n import tool_text
from .impose import impose
from .layout import Localised, card_faces, sheet_grid
from .output import Artifact
from .project import Game, Project
from .render.boards import BoardFace, render_boards
from .render.cards import render_calibration, render_card_sheets
from .render.faces import collecting_overflows
from .render.preview import render_contact_sheet
from .render.shop import decks_of
from .render.tokens import TokenFace, render_tokens, standee_outline
from .report import make_report
from .yamlfile import locate


@dataclass
class Kit:
    """Everything one kit file needs to know."""

    project: Project
    game: Game
    loc: Localised
    paper: str
    duplex: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    # Every paper the build prints on, for files made once per edition and locale.
    papers: tuple[str, ...] = ()

    @property
    def paper_mm(self) -> tuple[float, float]:
        papers = self.project.load_sheet("papers")["papers"]
        return tuple(papers[self.paper]["size_mm"])

    @property
    def draft(self) -> str:
        return self.loc.label("draft") if self.game.is_draft(self.loc.locale) else ""

    @property
    def scale_label(self) -> str:
        return self.loc.label("scale_check")

    @property
    def duplex_details(self) -> dict:
        """How a double-sided file was laid out, for the manifest."""
        return {"duplex": self.duplex, "back_offset_mm": list(self.back_offset)}

    def path(self, kind: str, extension: str = "pdf", per_paper: bool = True) -> str:
        """output/<game>/<edition>/<locale>/<game>-<edition>-<locale>-<kind>[-<paper>].<ext>"""
        g, e, l = self.game.slug, self.loc.edition, self.loc.locale
        paper = f"-{self.paper}" if per_paper else ""
        return f"{g}/{e}/{l}/{g}-{e}-{l}-{kind}{paper}.{extension}"

    def artifact(self, kind: str, data: bytes, pages: int, *, name: str = "", extension: str = "pdf",
                 per_paper: bool = True, details: dict | None = None) -> Artifact:
        """A file of this kit; `name` is the kind's part of the file name when it differs."""
        return Artifact(self.path(name or kind, extension, per_paper), data, self.game.slug, kind,
                        self.loc.edition, self.loc.locale, self.paper if per_paper else "", pages,
                        details or {}, source=(self.game.display, 0, ""))


# The card sheet each duplex mode prints on (templates/sheets/).
CARD_SHEETS = {"long": "poker-3x3", "short": "poker-3x3", "fronts": "poker-3x3", "gutterfold": "poker-gutterfold"}


def cards_kit(kit: Kit) -> Artifact | None:
    faces = card_faces(kit.loc)
    if not faces:
        return None
    sheet = kit.project.load_sheet(CARD_SHEETS[kit.duplex])
    grid = sheet_grid(sheet, kit.paper_mm)
    fold = kit.loc.label("fold")
    data, pages, _ = render_card_sheets(faces, grid, f"{kit.loc.title} — cards", draft=kit.draft,
                                        scale_label=kit.scale_label, duplex=kit.duplex,
                                        back_offset=kit.back_offset, fold_label=fold,
                                        fold_line=sheet.get("fold_line"))
    # The default (long-edge duplex) keeps the plain name; other modes sit beside it.
    return kit.artifact("cards", data, pages, name="cards" if kit.duplex == "long" else f"cards-{kit.duplex}",
                        details=kit.duplex_details)


def calibration_kit(kit: Kit) -> Artifact | None:
    """The duplex calibration sheet, beside every cards file printed double-sided."""
    if kit.duplex not in ("long", "short") or not kit.game.in_edition(kit.loc.edition, "cards"):
        return None
    data, pages = render_calibration(kit.paper_mm, localised_sheet(kit, "calibration"),
                                     scale_label=kit.scale_label, back_offset=kit.back_offset)
    return kit.artifact("calibration", data, pages, details=kit.duplex_details)


def localised_sheet(kit: Kit, name: str) -> dict:
    """A sheet template with its `text` in the kit's locale (the tool's catalogs)."""
    sheet = dict(kit.project.load_sheet(name))

    def translate(node, path):
        if isinstance(node, str):
            return tool_text(kit.project, kit.loc.locale, ".".join(map(str, path)), node)
        if isinstance(node, list):
            return [translate(item, path + (index,)) for index, item in enumerate(node)]
        return {key: translate(value, path + (key,)) for key, value in node.items()}
    if "text" in sheet:
        sheet["text"] = translate(sheet["text"], ("sheets", name, "text"))
    return sheet


def deck_title(loc: Localised, deck: str, face) -> str:
    """"Game — Deck" as a file or a contact sheet names a deck."""
    return f"{loc.title} — {face.values.get('deck_name', deck)}"


def preview_kit(kit: Kit) -> list[Artifact]:
    """A contact sheet per deck (PNG), once per edition and locale whatever the paper."""
    artifacts = []
    for deck, cards in decks_of(card_faces(kit.loc)).items():
        faces = [card.face for card in cards]
        data = render_contact_sheet(faces, deck_title(kit.loc, deck, faces[0]), kit.loc.label("back"))
        artifacts.append(kit.artifact("preview", data, 1, name=f"preview-{deck}", extension="png",
                                      per_paper=False, details={"deck": deck}))
    return artifacts


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


def boards_kit(kit: Kit) -> Artifact | None:
    faces = board_faces(kit.loc)
    if not faces:
        return None
    labels = {"glue": kit.loc.label("glue"), "tile": kit.loc.label("tile")}
    data, pages, _ = render_boards(faces, kit.paper_mm, kit.project.load_sheet("tiles"), labels,
                                   draft=kit.draft, scale_label=kit.scale_label)
    return kit.artifact("boards", data, pages)


def token_faces(loc: Localised) -> list[TokenFace]:
    faces = []
    for component in loc.game.in_edition(loc.edition, "tokens"):
        data = component.data
        name = loc.field(component.keypath, data, "name")
        copies = component.count(loc.edition)
        if data["shape"] == "disc":
            d = data["diameter_mm"]
            faces.append(TokenFace(f"token-{component.id}", "disc", name, data["colour"], copies,
                                   (d, d), icon=data.get("icon", ""), field=component.keypath))
        else:
            # One standee per copy, each in its own colour (cycling if there are more copies).
            colours = data["colours"]
            figure = tuple(data["size_mm"])
            for index in range(copies):
                faces.append(TokenFace(
                    f"token-{component.id}-{index + 1}", "standee", name, colours[index % len(colours)], 1,
                    standee_outline(figure, data["base_mm"]), write_label=loc.label("write_here"),
                    fold_label=loc.label("fold"), base_mm=data["base_mm"], figure_mm=figure,
                    field=component.keypath))
    return faces


def tokens_kit(kit: Kit) -> Artifact | None:
    faces = token_faces(kit.loc)
    if not faces:
        return None
    data, pages, _ = render_tokens(faces, kit.paper_mm, kit.project.load_sheet("tokens"),
                                   f"{kit.loc.title} — tokens", draft=kit.draft, scale_label=kit.scale_label)
    return kit.artifact("tokens", data, pages)


# Which files a home kit has; each maker returns None when the game has no such components.
KIT_MAKERS: dict[str, Callable[[Kit], Artifact | None]] = {
    "cards": cards_kit,
    "calibration": calibration_kit,
    "boards": boards_kit,
    "tokens": tokens_kit,
}


def booklet_of(kit: Kit):
    """The rule booklet of the kit's edition and locale, A5 pages in reading order (a
    RenderedBooklet), or None for a game without one."""
    loc = kit.loc
    if not kit.game.booklet.get("sections"):
        return None
    faces = card_faces(loc)
    home = home_print(kit.project, faces, board_faces(loc), token_faces(loc))
    return render_booklet(kit.project, lay_out(loc, faces, home, draft=kit.draft))


def booklet_files(kit: Kit) -> list[Artifact]:
    """The rule booklet and its home-print version on each paper of the build (two pages a
    side, saddle-stitch order)."""
    booklet = booklet_of(kit)
    if booklet is None:
        return []
    artifacts = [kit.artifact("rules", booklet.data, booklet.pages, per_paper=False,
                              details={"content_pages": booklet.content_pages})]
    for paper in kit.papers or (kit.paper,):
        on_paper = replace(kit, paper=paper)
        data, sides = impose(booklet.data, on_paper.paper_mm)
        artifacts.append(on_paper.artifact("rules-imposed", data, sides))
    return artifacts


# Files made once per edition and locale whatever the paper: maker(kit) -> list of Artifacts.
LOCALE_MAKERS: dict[str, Callable[[Kit], list[Artifact]]] = {
    "preview": preview_kit,
    "rules": booklet_files,
}


# Files made once per edition rather than per locale and paper (e.g. the designer's report):
# maker(project, game, edition) -> Artifact or None.
EDITION_MAKERS: dict[str, Callable[[Project, Game, str], Artifact | None]] = {
    "report": make_report,        # the designer's report, from simulation (games with an engine)
}


# ---- dry runs for validation --------------------------------------------------------------

def validation_kit(project: Project, game: Game, loc: Localised) -> Kit:
    """A kit for dry runs of the board and token renderers (validation): no paper choice
    changes what fits, so the first paper stands for all."""
    return Kit(project, game, loc, next(iter(project.load_sheet("papers")["papers"])))


def check_pieces(kit: Kit) -> list[Problem]:
    """Boards and tokens drawn once, in memory, so text that does not fit is a located
    validation error (every one of them) rather than a failure in the middle of a build."""
    problems = []
    with collecting_overflows() as overflows:
        for maker in (boards_kit, tokens_kit):
            maker(kit)
    for exc in overflows:
        path = tuple(exc.field.split("."))
        # the file whose top level holds the key (cards:, design:, labels: ...)
        data = next((d for d in kit.game.files.values() if path[0] in d), kit.game.meta)
        file, line = locate(data, path)
        problems.append(Problem(file, line, exc.field,
                                f"[{kit.game.slug} {kit.loc.edition} {kit.loc.locale}] text does not fit: {exc.reason}"))
    return problems
