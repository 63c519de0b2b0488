"""A kit: one game, edition, locale and paper, with what every kit file needs to know."""
from __future__ import annotations

from dataclasses import dataclass

from ..core.artifacts import Artifact
from ..core.colour import RGB, InkSaving, Palette
from ..i18n.catalogs import tool_text
from ..load.project import Game, Project
from .faces import Localised, unprintable_band


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
    ink: str = "normal"                  # or "saver": light backgrounds, outlined shapes
    cutter: str = ""                     # a print-then-cut machine (templates/sheets/cutters.yaml), or none

    @property
    def palette(self):
        """The colours home files are drawn in: as designed, or the ink-saving transform of
        templates/sheets/ink.yaml."""
        if self.ink == "normal":
            return RGB
        return Palette(saving=InkSaving.from_sheet(self.project.load_sheet("ink")))

    @property
    def paper_mm(self) -> tuple[float, float]:
        papers = self.project.read_sheet("papers")["papers"]
        return tuple(papers[self.paper]["size_mm"])

    @property
    def unprintable_mm(self) -> float:
        """The band along the paper's edges a home printer cannot print."""
        return unprintable_band(self.project, self.paper_mm)

    def ink_name(self, name: str) -> str:
        """The kind's part of a file name: an ink-saving file is named apart from the normal one
        (…-cards-saver-a4.pdf beside …-cards-a4.pdf), so both can sit in one folder."""
        return name if self.ink == "normal" else f"{name}-{self.ink}"

    def cut_name(self, name: str) -> str:
        """A card, token or piece sheet's part of a file name: one laid out for a cutting machine
        is named apart (…-cards-silhouette-a4.pdf), beside the sheets cut by hand."""
        return self.ink_name(name) + (f"-{self.cutter}" if self.cutter else "")

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


def validation_kit(project: Project, game: Game, loc: Localised) -> Kit:
    """A kit for validation's dry runs: no paper choice changes what fits, so the first paper
    stands for all."""
    return Kit(project, game, loc, next(iter(project.read_sheet("papers")["papers"])))


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
