"""The orchestrator: the only place that knows the order of the stages.

load -> validate -> lay out -> render -> write. Every file renders into memory first; the
output folder is touched only when the whole build succeeded.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Iterable

from .booklet import check_booklet, home_print, lay_out, render as render_booklet
from .errors import DataError, Problem, UsageError
from .i18n import check_placeholder_names, check_translations
from .impose import impose
from .layout import Localised, card_faces, check_faces, sheet_grid
from .output import Artifact, write_all
from .project import Game, Project
from .render.boards import BoardFace, render_boards
from .render.cards import render_calibration, render_card_sheets
from .render.faces import TextDoesNotFit
from .render.preview import render_contact_sheet
from .render.shop import booklet_with_bleed, decks_of, render_shop_cards
from .render.tokens import TokenFace, render_tokens, standee_outline
from .report import make_report
from .texts import Texts
from .validate import validate_game
from .yamlfile import locate

PAPERS = ("a4", "letter")


# ---- load + validate ----------------------------------------------------------------------

def load_games(project: Project, slug: str | None = None, locale: str | None = None) -> list[Game]:
    """Load and fully validate the selected games; raise DataError with every problem.
    With `locale`, translations and text fit are checked for that locale only: a designer
    rebuilding the source language is not held up by catalogs that have not caught up yet."""
    games, problems = [], []
    for name in project.select(slug):
        game, found = project.load_game(name)
        problems += found
        if not found:
            found = validate_game(game)
            problems += found
        if not found:
            locales = [locale] if locale in game.locales else None
            # Independent checks: a translation gap does not hide a text that overflows.
            problems += check_placeholder_names(game) + check_translations(game, locales) + check_booklet(game)
            problems += check_game_faces(game, locales)
        games.append(game)
    if problems:
        raise DataError(problems)
    return games


def check_game_faces(game: Game, locales: Iterable[str] | None = None) -> list[Problem]:
    problems = []
    for locale in locales or game.locales:
        texts = Texts.load(game, locale)
        for edition in game.editions:
            loc = Localised(game, edition, texts)
            try:
                faces = card_faces(loc)
            except KeyError as exc:
                problems.append(Problem(game.file_name("cards"), 0, "", f"unknown placeholder {exc} in a card text"))
                continue
            problems += check_faces(loc, faces)
            problems += check_pieces(project_free_kit(game, loc))
    return problems


def project_free_kit(game: Game, loc: Localised) -> "Kit":
    """A kit for dry runs of the board and token renderers (validation): no paper choice
    changes what fits, so A4 stands for all."""
    return Kit(Project(game.folder.parent.parent), game, loc, "a4")


def check_pieces(kit: "Kit") -> list[Problem]:
    """Boards and tokens drawn once, in memory, so text that does not fit is a located
    validation error rather than a failure in the middle of a build."""
    problems = []
    for maker in (boards_kit, tokens_kit):
        try:
            maker(kit)
        except TextDoesNotFit as exc:
            path = tuple(exc.field.split("."))
            # the file whose top level holds the key (cards:, design:, labels: ...)
            data = next((d for d in kit.game.files.values() if path[0] in d), kit.game.meta)
            file, line = locate(data, path)
            problems.append(Problem(file, line, exc.field,
                                    f"[{kit.game.slug} {kit.loc.edition} {kit.loc.locale}] text does not fit: {exc.reason}"))
    return problems


# ---- lay out + render ---------------------------------------------------------------------

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
        status = self.game.meta["locales"].get(self.loc.locale)
        return self.loc.label("draft") if status == "draft" else ""

    @property
    def scale_label(self) -> str:
        return self.loc.label("scale_check") if "scale_check" in self.game.meta["labels"] else ""

    def path(self, kind: str, extension: str = "pdf") -> str:
        g, e, l = self.game.slug, self.loc.edition, self.loc.locale
        return f"{g}/{e}/{l}/{g}-{e}-{l}-{kind}-{self.paper}.{extension}"

    def artifact(self, kind: str, data: bytes, pages: int) -> Artifact:
        return Artifact(self.path(kind), data, self.game.slug, kind, self.loc.edition,
                        self.loc.locale, self.paper, pages)


# The card sheet each duplex mode prints on (templates/sheets/).
CARD_SHEETS = {"long": "poker-3x3", "short": "poker-3x3", "fronts": "poker-3x3", "gutterfold": "poker-gutterfold"}


def cards_kit(kit: Kit) -> Artifact | None:
    faces = card_faces(kit.loc)
    if not faces:
        return None
    sheet = kit.project.load_sheet(CARD_SHEETS[kit.duplex])
    grid = sheet_grid(sheet, kit.paper_mm)
    fold = kit.loc.label("fold") if "fold" in kit.game.meta["labels"] else ""
    data, pages, _ = render_card_sheets(faces, grid, f"{kit.loc.title} — cards", draft=kit.draft,
                                        scale_label=kit.scale_label, duplex=kit.duplex,
                                        back_offset=kit.back_offset, fold_label=fold,
                                        fold_line=sheet.get("fold_line"))
    # The default (long-edge duplex) keeps the plain name; other modes sit beside it.
    artifact = kit.artifact("cards" if kit.duplex == "long" else f"cards-{kit.duplex}", data, pages)
    artifact.kind = "cards"
    artifact.details = {"duplex": kit.duplex, "back_offset_mm": list(kit.back_offset)}
    return artifact


def calibration_kit(kit: Kit) -> Artifact | None:
    """The duplex calibration sheet, beside every cards file printed double-sided."""
    if kit.duplex not in ("long", "short") or not kit.game.in_edition(kit.loc.edition, "cards"):
        return None
    data, pages = render_calibration(kit.paper_mm, kit.project.load_sheet("calibration"),
                                     scale_label=kit.scale_label, back_offset=kit.back_offset)
    artifact = kit.artifact("calibration", data, pages)
    artifact.details = {"duplex": kit.duplex, "back_offset_mm": list(kit.back_offset)}
    return artifact


def preview_kit(kit: Kit) -> list[Artifact]:
    """A contact sheet per deck (PNG), once per edition and locale whatever the paper."""
    g, e, l = kit.game.slug, kit.loc.edition, kit.loc.locale
    artifacts = []
    for deck, cards in decks_of(card_faces(kit.loc)).items():
        faces = [card.face for card in cards]
        title = f"{kit.loc.title} — {faces[0].values.get('deck_name', deck)}"
        data = render_contact_sheet(faces, title, kit.loc.label("back") if "back" in kit.game.meta["labels"] else "")
        artifacts.append(Artifact(f"{g}/{e}/{l}/{g}-{e}-{l}-preview-{deck}.png", data, g, "preview", e, l, "", 1,
                                  {"deck": deck}))
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



def booklet_files(kit: Kit) -> list[Artifact]:
    """The rule booklet of the kit's edition and locale (A5 pages in reading order) and its
    home-print version on each paper of the build (two pages a side, saddle-stitch order)."""
    game, loc = kit.game, kit.loc
    if not game.booklet.get("sections"):
        return []
    faces = card_faces(loc)
    home = home_print(kit.project, faces, board_faces(loc), token_faces(loc))
    booklet = render_booklet(kit.project, lay_out(loc, faces, home, draft=kit.draft))
    g, e, l = game.slug, loc.edition, loc.locale
    artifacts = [Artifact(f"{g}/{e}/{l}/{g}-{e}-{l}-rules.pdf", booklet.data, g, "rules", e, l, "",
                          booklet.pages, {"content_pages": booklet.content_pages})]
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


# ---- the build ----------------------------------------------------------------------------

@dataclass
class BuildRequest:
    game: str | None = None
    edition: str | None = None
    locale: str | None = None
    paper: str = "all"
    out: Path | None = None
    profiles: tuple[str, ...] = ()          # print-shop profiles: build these instead of home kits
    duplex: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)


def plan(games: list[Game], request: BuildRequest) -> list[tuple[Game, str, str, str]]:
    papers = PAPERS if request.paper == "all" else (request.paper,)
    jobs = []
    for game in games:
        editions = game.editions
        if request.edition:
            if request.edition not in editions:
                if request.game:
                    raise UsageError(f"{game.slug} has no edition '{request.edition}' (editions: {', '.join(editions)})")
                continue
            editions = [request.edition]
        locales = game.locales
        if request.locale:
            if request.locale not in locales:
                if request.game:
                    raise UsageError(f"{game.slug} has no locale '{request.locale}' (locales: {', '.join(locales)})")
                continue
            locales = [request.locale]
        for edition in editions:
            for locale in locales:
                for paper in papers:
                    jobs.append((game, edition, locale, paper))
    if not jobs:
        raise UsageError("nothing to build for that selection")
    return jobs


def build(project: Project, request: BuildRequest, progress=None) -> list[Artifact]:
    if request.profiles:
        return build_shop(project, request, progress)
    games = load_games(project, request.game, request.locale)
    jobs = plan(games, request)
    artifacts: list[Artifact] = []
    texts_cache: dict[tuple[str, str], Texts] = {}
    once: set[tuple[str, str, str]] = set()
    for game, edition, locale, paper in jobs:
        texts = texts_cache.setdefault((game.slug, locale), Texts.load(game, locale))
        papers = tuple(job[3] for job in jobs if job[0] is game and job[1:3] == (edition, locale))
        kit = Kit(project, game, Localised(game, edition, texts), paper, request.duplex, request.back_offset, papers)
        if (game.slug, edition, locale) not in once:
            once.add((game.slug, edition, locale))
            for kind, maker in LOCALE_MAKERS.items():
                artifacts += maker(kit)
        for kind, maker in KIT_MAKERS.items():
            artifact = maker(kit)
            if artifact is not None:
                artifacts.append(artifact)
            if progress:
                progress(f"{game.slug} {edition} {locale} {paper} {kind}")
    for game in games:
        for edition in sorted({job[1] for job in jobs if job[0] is game}, key=game.editions.index):
            for kind, maker in EDITION_MAKERS.items():
                artifact = maker(project, game, edition)
                if artifact is not None:
                    artifacts.append(artifact)
                if progress:
                    progress(f"{game.slug} {edition} {kind}")
    out = request.out or project.root / "output"
    write_all(out, artifacts)
    return artifacts


# ---- print-shop files ---------------------------------------------------------------------

def safe_zones(project: Project, jobs, profiles) -> tuple[list[Problem], list]:
    """Every card text and icon inside each profile's safe zone, for (game, edition, locale) jobs."""
    from .profiles import check_safe_zone
    problems, work = [], []
    for game, edition, locale in jobs:
        kit = Kit(project, game, Localised(game, edition, Texts.load(game, locale)), "")
        faces = card_faces(kit.loc)
        for profile in profiles:
            problems += check_safe_zone(kit.loc, faces, profile)
            work.append((kit, faces, profile))
    return problems, work


def check_profiles(project: Project, games: list[Game], names) -> None:
    """`pnp validate --profile`: the safe zones those shops ask for, in every released locale."""
    from .profiles import load_profiles
    profiles = load_profiles(project, names)
    jobs = [(g, e, l) for g in games for e in g.editions for l in g.locales if g.meta["locales"][l] != "draft"]
    problems, _ = safe_zones(project, jobs, profiles)
    if problems:
        raise DataError(problems)

def build_shop(project: Project, request: BuildRequest, progress=None) -> list[Artifact]:
    """Every requested profile's files for the selected games, editions and locales, checked
    (safe zone before rendering, preflight after) before anything is written. Only released
    locales are built: a draft translation does not go to a shop."""
    from .preflight import preflight_files
    from .profiles import load_profiles
    if request.duplex != "long" or any(request.back_offset):
        raise UsageError("--duplex and --back-offset are for home kits; a shop's profile decides its files")
    profiles = load_profiles(project, request.profiles)
    games = load_games(project, request.game, request.locale)
    jobs = [(g, e, l) for g, e, l, _ in plan(games, BuildRequest(request.game, request.edition, request.locale, "a4"))
            if g.meta["locales"].get(l) != "draft"]
    if not jobs:
        raise UsageError("nothing to build: print shops get released locales only, and the selection has none")
    problems, work = safe_zones(project, jobs, profiles)
    if problems:
        raise DataError(problems)
    artifacts: list[Artifact] = []
    for kit, faces, profile in work:
        g, e, l = kit.game.slug, kit.loc.edition, kit.loc.locale
        folder = f"{g}/{e}/{l}/shop/{profile.name}"
        made = []
        if profile.cards and faces:
            titles = {deck: f"{kit.loc.title} — {cards[0].face.values.get('deck_name', deck)}"
                      for deck, cards in decks_of(faces).items()}
            for shop_file in render_shop_cards(faces, profile, {"game": g, "edition": e, "locale": l}, titles):
                made.append(Artifact(f"{folder}/{shop_file.path}", shop_file.data, g, shop_file.kind, e, l, "",
                                     shop_file.pages, shop_file.details))
        if profile.booklet and kit.game.booklet.get("sections"):
            home = home_print(project, faces, board_faces(kit.loc), token_faces(kit.loc))
            booklet = render_booklet(project, lay_out(kit.loc, faces, home))
            made.append(Artifact(f"{folder}/{profile.booklet.name}", booklet_with_bleed(booklet.data, profile.booklet.bleed_mm),
                                 g, "shop-booklet", e, l, "", booklet.pages, {"profile": profile.name}))
        reports = preflight_files({a.path: a.data for a in made}, profile)
        for report in reports:
            for check in report.checks:
                if check.ok is False:
                    problems.append(Problem(report.path, 0, check.criterion, f"preflight ({profile.name}): {check.detail}"))
        artifacts += made
        if progress:
            progress(f"{g} {e} {l} {profile.name}")
    if problems:
        raise DataError(problems)
    write_all(request.out or project.root / "output", artifacts)
    return artifacts
