"""A home kit's print-first page, drawn up from the files the build made for the kit's folder:
the files to print on the kit's paper in the order to print them (the calibration sheet first,
the rule booklet last), each with its printer settings, its paper and its weight
(templates/sheets/papers.yaml), how many sheets it takes (its pages, two to a sheet when it
prints on both sides), what to do with it after and, where each table prints only some of it,
which sheets; then the files not for printing and the other papers' files. Its words are the
tool's (templates/sheets/print-first.yaml, in the kit's locale); generator/render/printfirst.py
makes the page.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..i18n.catalogs import tool_plural
from .kit import Kit, localised_sheet


WORDS = "print-first"
# Files printed on both sides, and the edge they flip on; a cards or calibration file says its
# own (its `duplex`), and one of neither prints on one side.
BOTH_SIDES = {"rules-imposed": "short"}
DOUBLE_SIDED = ("long", "short")
# Printed before the rest (the printer's offset is set from it) and after it (on other paper).
FIRST, LAST = ("calibration",), ("rules-imposed",)
# Printed on plain paper; every other file on card stock.
PLAIN_PAPER = ("rules-imposed",)


@dataclass(frozen=True)
class KitFile:
    """A file of the kit's folder, as the build made it."""

    name: str            # the file's name in the folder
    kind: str            # what it is: cards, calibration, boards-one-sheet, rules-imposed, preview, report ...
    paper: str           # the paper it prints on ('' for a file made once per edition and locale)
    pages: int
    duplex: str = ""     # a cards or calibration file's: long, short, gutterfold or fronts
    variant: str = ""    # what else its words depend on: "standees" for tokens that include some
    cutter: str = ""     # the cutting machine its sheets are laid out for (pnp build --cutter)
    cut_page: int = 0    # a cut file's: the page of its sheets' file it cuts (0: a file to print)

    @property
    def words_kind(self) -> str:
        """The kind its words are under: a cards file not printed long-edge duplex has its own,
        and so has a file of a variant ("tokens-standees")."""
        if self.kind == "cards":
            return self.kind if self.duplex in ("", "long") else f"cards-{self.duplex}"
        return f"{self.kind}-{self.variant}" if self.variant else self.kind

    @property
    def flip(self) -> str:
        """The edge it flips on when printed on both sides, or '' for one side."""
        if self.kind in BOTH_SIDES:
            return BOTH_SIDES[self.kind]
        return self.duplex if self.duplex in DOUBLE_SIDED else ""

    @property
    def sheets(self) -> int:
        return (self.pages + 1) // 2 if self.flip else self.pages


@dataclass(frozen=True)
class PrintStep:
    number: int
    file: str
    sheets: str
    paper: str
    settings: str
    then: str
    some: tuple[str, ...] = ()       # the lines under it: which sheets each table prints


@dataclass
class PrintFirstPage:
    lang: str
    page_mm: tuple[float, float]
    title: str
    subtitle: str
    intro: str
    headers: dict[str, str]
    steps: list[PrintStep]
    only_some: str
    not_for_printing: str
    skipped: list[tuple[str, str]] = field(default_factory=list)     # (file, why it is not printed)
    other_papers: list[str] = field(default_factory=list)


def lay_out_print_first(kit: Kit, files: list[KitFile], some: dict[str, list[str]]) -> PrintFirstPage:
    """The page of the kit's folder holding `files`; `some` gives, by file kind, the lines that
    say which sheets each table prints (the kinds' `tables` and `parts`, in words)."""
    text = localised_sheet(kit, WORDS)["text"]
    phrases = kit.project.read_sheet(WORDS)["text"]["phrases"]
    papers_sheet = kit.project.read_sheet("papers")
    papers = papers_sheet["papers"]
    locale = kit.loc.locale

    def sheets(n: int) -> str:
        return tool_plural(kit.project, locale, f"sheets.{WORDS}.text.phrases.sheets", phrases["sheets"], n)

    def paper_of(file: KitFile) -> str:
        plain = file.kind in PLAIN_PAPER
        gsm = papers_sheet.get("plain_paper_gsm" if plain else "card_stock_gsm")
        return (text["plain_paper"] if plain else text["card_stock"]).format(gsm=gsm if gsm is not None else "?")

    def settings_of(file: KitFile) -> str:
        return {"long": text["long_edge"], "short": text["short_edge"]}.get(file.flip, text["one_sided"])

    def then_of(file: KitFile) -> str:
        if file.cutter:
            return text["then_cutter"].get(file.words_kind, text["then_cutter_other"])
        return text["then"].get(file.words_kind, text["then_other"])

    on_paper = [file for file in files if file.paper == kit.paper]
    printed = [file for file in on_paper if not file.cut_page]
    printed.sort(key=lambda file: 0 if file.kind in FIRST else 2 if file.kind in LAST else 1)
    steps = [PrintStep(index, file.name, sheets(file.sheets), paper_of(file), settings_of(file), then_of(file),
                       tuple(some.get(file.words_kind, ())))
             for index, file in enumerate(printed, 1)]
    skipped = [(file.name, text["skip"].get(file.kind, text["skip_other"])) for file in files if not file.paper]
    for sheet, cuts in cut_files(printed, [file for file in on_paper if file.cut_page]):
        pages = ", ".join(str(page) for page in dict.fromkeys(cut.cut_page for cut in cuts))
        skipped.append((f"{cuts[0].name} … {cuts[-1].name}", text["cut_files"].format(file=sheet.name, pages=pages)))
    others = [text["other_paper"].format(ending=f"-{paper}.pdf", paper=papers[paper]["name"])
              for paper in dict.fromkeys(file.paper for file in files) if paper and paper != kit.paper]
    return PrintFirstPage(
        lang=locale, page_mm=kit.paper_mm, title=text["title"],
        subtitle=text["subtitle"].format(game=kit.loc.title, edition=kit.loc.edition_name(),
                                         paper=papers[kit.paper]["name"]),
        intro=text["intro"],
        headers={key: text[key] for key in ("order", "file", "sheets", "paper", "settings", "then_heading")},
        steps=steps, only_some=text["only_some"], not_for_printing=text["not_for_printing"],
        skipped=skipped, other_papers=others)


def cut_files(printed: list[KitFile], cuts: list[KitFile]) -> list[tuple[KitFile, list[KitFile]]]:
    """Each printed file laid out for a cutting machine, with its cut files in the order of the
    pages they cut (a file the machine cuts none of has none)."""
    def same_sheets(sheet: KitFile, cut: KitFile) -> bool:
        return (sheet.kind, sheet.variant, sheet.duplex, sheet.cutter) == (cut.kind, cut.variant, cut.duplex, cut.cutter)
    found = [(sheet, sorted((cut for cut in cuts if same_sheets(sheet, cut)), key=lambda cut: cut.cut_page))
             for sheet in printed if sheet.cutter]
    return [(sheet, made) for sheet, made in found if made]


def part_lines(kit: Kit, parts: list[tuple[str, int]]) -> list[str]:
    """A line per component a table may print alone, with its sheets ("Square Board: 7 sheets")."""
    text = localised_sheet(kit, WORDS)["text"]
    phrases = kit.project.read_sheet(WORDS)["text"]["phrases"]
    return [text["part_sheets"].format(
        name=name, sheets=tool_plural(kit.project, kit.loc.locale, f"sheets.{WORDS}.text.phrases.sheets",
                                      phrases["sheets"], n)) for name, n in parts]
