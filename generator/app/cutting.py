"""A kit's card, token and piece sheets for a print-then-cut machine (pnp build --cutter): the
machine's marks stamped on the pages it cuts, and beside the sheets' PDF an SVG and a DXF cut
file per cut page, named …-<kind>-<machine>-cut<page>-<paper>.svg / .dxf."""
from __future__ import annotations

from ..core.artifacts import Artifact
from ..i18n.catalogs import tool_text_place
from ..layout.cutter import CutSheet, Machine, machine, setup_note, where_in_sheet
from ..layout.kit import Kit, localised_sheet
from ..render.cutter import dxf_cut_file, svg_cut_file, with_marks


# The detail that makes a file a cut file: the page of its sheets' file it cuts.
CUT_PAGE = "page"


def cutter_of(kit: Kit) -> Machine:
    return machine(kit.project.read_sheet("cutters"), kit.cutter)


def cut_artifacts(kit: Kit, kind: str, data: bytes, pages: int, sheets: list[CutSheet],
                  details: dict) -> list[Artifact]:
    """The sheets' PDF with the machine's marks on its cut pages, and each cut page's outlines as
    an SVG and a DXF file beside it."""
    cutter = cutter_of(kit)
    marked = [(sheet, None) for sheet in sheets]
    if any(sheet.marks is not None for sheet in sheets):
        # the settings line, in the kit's language (read only where it prints: a text a file reads
        # is one its rebuild waits on)
        source = kit.project.read_sheet("cutters")
        words = localised_sheet(kit, "cutters")["text"]["setup"]
        where = tool_text_place(kit.project, kit.loc.locale, "sheets.cutters.text.setup", source["text"]["setup"],
                                where_in_sheet(source, "text.setup"))
        marked = [(sheet, None if sheet.marks is None else
                   setup_note(cutter, sheet.paper_mm, sheet.marks.length_mm, words, kit.unprintable_mm, where))
                  for sheet in sheets]
    name = kit.cut_name(kind if kind != "cards" or kit.duplex == "long" else f"cards-{kit.duplex}")
    details = {**details, "cutter": kit.cutter}
    made = [kit.artifact(kind, with_marks(data, marked), pages, name=name, details=details)]
    for sheet in sheets:
        about = {**details, CUT_PAGE: sheet.page, "outlines": len(sheet.outlines)}
        if sheet.marks is not None:
            about["mark_length_mm"] = sheet.marks.length_mm
        for extension, write in (("svg", svg_cut_file), ("dxf", dxf_cut_file)):
            made.append(kit.artifact(kind, write(sheet), 0, name=f"{name}-cut{sheet.page}", extension=extension,
                                     details=about))
    return made
