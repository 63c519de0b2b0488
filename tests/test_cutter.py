"""pnp build --cutter: sheets for a print-then-cut machine, through the CLI on the sample game.
Every cut outline in the SVG and the DXF beside a sheet lies on a piece the PDF places (±0.1
mm), one per card or piece; Silhouette's marks stand where templates/sheets/cutters.yaml puts
them, with nothing printed or cut in their white; Cricut's pieces keep inside its image area."""
from __future__ import annotations

import json
import math
import re
import shutil
from pathlib import Path

import ezdxf
import pikepdf
import pypdfium2
import pytest
import yaml

from conftest import MM, PAPERS, ROOT, SAMPLE, content_ops, flat, page_drawing, page_texts, pnp

CUTTERS = yaml.safe_load((ROOT / "templates" / "sheets" / "cutters.yaml").read_text(encoding="utf-8"))
PAPER_BANDS = {name: paper["unprintable_mm"] for name, paper in yaml.safe_load(
    (ROOT / "templates" / "sheets" / "papers.yaml").read_text(encoding="utf-8"))["papers"].items()}
PIECES = yaml.safe_load((SAMPLE / "components" / "sample-game" / "pieces.yaml").read_text(encoding="utf-8"))
TOL = 0.1
EPS = 0.001          # what a PDF's coordinates, written in points, round a millimetre figure by
MARKS_FORM = "/RegistrationMarks"


def _build(tmp_path_factory, machine: str, paper: str, *extra: str) -> Path:
    project = tmp_path_factory.mktemp(f"cutter-{machine}") / "project"
    shutil.copytree(SAMPLE, project)
    out = project.parent / "out"
    result = pnp("build", "--paper", paper, "--cutter", machine, "--out", str(out), *extra, project=project)
    assert result.exit_code == 0, result.output + result.traceback
    return out


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> dict[str, Path]:
    # the Silhouette's a whole kit (its print-first page tells what goes to the machine)
    return {"silhouette": _build(tmp_path_factory, "silhouette", "a4"),
            "cricut": _build(tmp_path_factory, "cricut", "letter", "--kind", "cards,tokens,pieces")}


def _entries(out: Path) -> list[dict]:
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))["files"]


def _sheet_pdf(entries: list[dict], cut: dict) -> dict:
    """The sheets' PDF a cut file belongs to: same kind and variant, a PDF."""
    return next(e for e in entries if e["kind"] == cut["kind"] and e["path"].endswith(".pdf")
                and e.get("cutter") == cut["cutter"])


def _svg_outlines(data: bytes, height: float) -> list[dict]:
    """Each outline of an SVG cut file: its points in the sheet's mm (y up), arcs' radii, or a circle."""
    text = data.decode("utf-8")
    outlines = []
    for name, cx, cy, r in re.findall(r'<circle id="([^"]+)" cx="([-\d.]+)" cy="([-\d.]+)" r="([-\d.]+)"', text):
        outlines.append({"name": name, "circle": (float(cx), height - float(cy), float(r))})
    for name, d in re.findall(r'<path id="([^"]+)" d="([^"]+)"', text):
        tokens, points, radii = d.split(), [], []
        at = 0
        while at < len(tokens):
            command = tokens[at]
            if command in ("M", "L"):
                points.append((float(tokens[at + 1]), height - float(tokens[at + 2])))
                at += 3
            elif command == "A":
                radii.append(float(tokens[at + 1]))
                points.append((float(tokens[at + 6]), height - float(tokens[at + 7])))
                at += 8
            elif command == "Z":
                at += 1
            else:
                raise AssertionError(f"unexpected path command {command!r} in {name}")
        outlines.append({"name": name, "points": points, "radii": radii})
    return outlines


def _dxf_outlines(path: Path) -> list[dict]:
    doc = ezdxf.readfile(str(path))
    outlines = []
    for entity in doc.modelspace():
        assert entity.dxf.layer == "CUT"
        if entity.dxftype() == "CIRCLE":
            centre = entity.dxf.center
            outlines.append({"circle": (centre.x, centre.y, entity.dxf.radius)})
        else:
            assert entity.dxftype() == "LWPOLYLINE" and entity.closed
            rows = list(entity.get_points("xyb"))
            outlines.append({"points": [(x, y) for x, y, _ in rows], "bulges": [b for _, _, b in rows]})
    return outlines


def _bounds(outline: dict) -> tuple[float, float, float, float]:
    if "circle" in outline:
        x, y, r = outline["circle"]
        return (x - r, y - r, x + r, y + r)
    xs, ys = zip(*outline["points"])
    return (min(xs), min(ys), max(xs), max(ys))


def _placed(pdf_path: Path, page: int, kind: str) -> list[tuple[float, float, float, float]]:
    """(x0, y0, x1, y1) mm of every piece the page places: its form's box, less the hair of room
    a token's or piece's form keeps round its outline."""
    with pikepdf.open(pdf_path) as pdf:
        forms = [f for f in page_drawing(pdf.pages[page - 1])["forms"] if f["name"] != MARKS_FORM]
    hair = 0.0 if kind == "cards" else 0.5
    return [(x + hair, y + hair, x + w - hair, y + h - hair) for (x, y, w, h) in (f["rect"] for f in forms)]


def _near(a, b) -> bool:
    return all(abs(p - q) <= TOL for p, q in zip(a, b))


def _cut_files(out: Path):
    entries = _entries(out)
    for cut in entries:
        if cut["path"].endswith(".svg"):
            yield entries, cut


@pytest.mark.parametrize("machine", ["silhouette", "cricut"])
def test_every_outline_lies_on_its_placed_piece(builds, machine):
    """Each cut page: the SVG's and the DXF's outlines are exactly the pieces the PDF places on
    that page, one each, matched within ±0.1 mm; cards with the machine's rounded corners, the
    sword with its own outline's corners."""
    out = builds[machine]
    cuts = list(_cut_files(out))
    assert {cut["kind"] for _, cut in cuts} == {"cards", "tokens", "pieces"}
    radius = CUTTERS["card_corner_mm"]
    sword = [tuple(p) for p in PIECES["pieces"]["sword"]["outline"]]
    for entries, cut in cuts:
        pdf = _sheet_pdf(entries, cut)
        height = PAPERS[cut["paper"]][1]
        placed = _placed(out / pdf["path"], cut["page"], cut["kind"])
        svg = _svg_outlines((out / cut["path"]).read_bytes(), height)
        dxf = _dxf_outlines(out / cut["path"].replace(".svg", ".dxf"))
        for outlines in (svg, dxf):
            assert len(outlines) == len(placed) == cut["outlines"], cut["path"]
            unmatched = list(placed)
            for outline in outlines:
                box = _bounds(outline)
                match = next((p for p in unmatched if _near(p, box)), None)
                assert match is not None, (cut["path"], box, unmatched)
                unmatched.remove(match)
                if cut["kind"] == "cards":
                    if "radii" in outline:
                        assert outline["radii"] == [radius] * 4
                    else:
                        assert [round(b, 6) for b in outline["bulges"]] == [0, round(math.tan(math.pi / 8), 6)] * 4
                if cut["kind"] == "pieces":
                    corners = [(round(x - box[0], 3), round(y - box[1], 3)) for x, y in outline["points"]]
                    assert corners == sword


def test_one_outline_per_card_on_a_card_sheet(builds):
    """Every card of the sample's decks is cut once: the front pages' outlines, counted, are the
    cards the sheets print; each front page has its cut file, each back page none."""
    out = builds["silhouette"]
    entries = _entries(out)
    cuts = [cut for _, cut in _cut_files(out) if cut["kind"] == "cards"]
    pdf = _sheet_pdf(entries, cuts[0])
    assert [cut["page"] for cut in cuts] == list(range(1, pdf["pages"] + 1, 2))
    cards = sum(len(_placed(out / pdf["path"], page, "cards")) for page in range(1, pdf["pages"] + 1, 2))
    # knights 4, archers 3; coins: 2 metals x 2 values and a thief, the deck twice
    assert cards == sum(cut["outlines"] for cut in cuts) == 4 + 3 + (2 * 2 + 1) * 2


def _marks_drawn(pdf_path: Path, page: int) -> list[tuple[float, float, float, float]]:
    """(x, y, w, h) mm of every filled rectangle the page's registration-marks form paints."""
    with pikepdf.open(pdf_path) as pdf:
        page_obj = pdf.pages[page - 1]
        forms = page_obj.obj.Resources.get("/XObject", {})
        if MARKS_FORM not in forms:
            return []
        rects = []
        for operands, op, ctm in content_ops(forms[MARKS_FORM]):
            if op == "re":
                rects.append(tuple(round(float(v) / MM, 3) for v in operands))
        return rects


def test_silhouette_marks_stand_where_the_machine_reads_them(builds):
    """Studio's Type 1 marks from cutters.yaml's figures: the square at the top-left, L's at the
    top-right and bottom-left, outer edges at the inset; on every cut page and no other; no
    outline (with a card's bleed) in a mark's white."""
    reg = CUTTERS["machines"]["silhouette"]["registration"]
    inset, thick, size, clear = reg["inset_mm"], reg["thickness_mm"], reg["square_mm"], reg["clear_mm"]
    w, h = PAPERS["a4"]
    out = builds["silhouette"]
    entries = _entries(out)
    for _, cut in _cut_files(out):
        pdf = out / _sheet_pdf(entries, cut)["path"]
        length = cut["mark_length_mm"]
        assert reg["min_length_mm"] <= length <= reg["max_length_mm"]
        expected = {(inset, h - inset - size, size, size),
                    (w - inset - length, h - inset - thick, length, thick), (w - inset - thick, h - inset - length, thick, length),
                    (inset, inset, length, thick), (inset, inset, thick, length)}
        drawn = _marks_drawn(pdf, cut["page"])
        assert len(drawn) == len(expected)
        assert all(any(_near(rect, want) for want in expected) for rect in drawn), drawn
        bleed = CUTTERS["gap_mm"] / 2 if cut["kind"] == "cards" else 0.0
        zones = [(inset, h - inset - size - clear, inset + size + clear, h - inset),
                 (w - inset - length - clear, h - inset - length - clear, w - inset, h - inset),
                 (inset, inset, inset + length + clear, inset + length + clear)]
        for x0, y0, x1, y1 in _placed(pdf, cut["page"], cut["kind"]):
            x0, y0, x1, y1 = x0 - bleed + EPS, y0 - bleed + EPS, x1 + bleed - EPS, y1 + bleed - EPS
            assert inset <= x0 and x1 <= w - inset and inset <= y0 and y1 <= h - inset
            for a0, b0, a1, b1 in zones:
                assert x1 <= a0 or a1 <= x0 or y1 <= b0 or b1 <= y0, (cut["path"], (x0, y0, x1, y1))
        # the settings to enter in Studio, in the border under the pieces, above the unprintable band
        band = PAPER_BANDS["a4"]
        with pypdfium2.PdfDocument(pdf) as document:
            textpage = document[cut["page"] - 1].get_textpage()
            words = " ".join(textpage.get_text_bounded(0, band * MM, w * MM, inset * MM).split())
        assert (f"registration marks Type 1: length {length:g} mm, thickness {thick:g} mm, inset {inset:g} mm"
                in words), words
    cards = next(e for e in entries if e["kind"] == "cards" and e["path"].endswith(".pdf"))
    assert _marks_drawn(out / cards["path"], 2) == []          # a page of backs is not cut


def test_cricut_pieces_keep_inside_its_image_area(builds):
    """Design Space prints its own marks round its Print Then Cut image: the sheet prints none,
    every piece stays inside the image area centred on the paper, and the PDF page and the SVG
    show that area."""
    aw, ah = CUTTERS["machines"]["cricut"]["image_area_mm"]
    w, h = PAPERS["letter"]
    area = ((w - aw) / 2, (h - ah) / 2, (w + aw) / 2, (h + ah) / 2)
    out = builds["cricut"]
    entries = _entries(out)
    cuts = list(_cut_files(out))
    assert cuts
    for _, cut in cuts:
        pdf = out / _sheet_pdf(entries, cut)["path"]
        assert _marks_drawn(pdf, cut["page"]) == []
        # what Design Space is given shows the image area only, in the sheet's coordinates
        with pikepdf.open(pdf) as document:
            crop = [float(v) / MM for v in document.pages[cut["page"] - 1].obj.CropBox]
        assert _near(crop, area)
        svg = (out / cut["path"]).read_text(encoding="utf-8")
        view = [float(v) for v in re.search(r'viewBox="([^"]+)"', svg).group(1).split()]
        assert _near(view, (area[0], h - area[3], aw, ah)) and f'width="{aw:g}mm" height="{ah:g}mm"' in svg
        bleed = CUTTERS["gap_mm"] / 2 if cut["kind"] == "cards" else 0.0
        for x0, y0, x1, y1 in _placed(pdf, cut["page"], cut["kind"]):
            x0, y0, x1, y1 = x0 - bleed + EPS, y0 - bleed + EPS, x1 + bleed - EPS, y1 + bleed - EPS
            assert area[0] <= x0 and x1 <= area[2] and area[1] <= y0 and y1 <= area[3], (cut["path"], (x0, y0, x1, y1))


def test_cut_files_are_the_same_bytes_every_time():
    """No time, GUID or other changing value in a cut file: written twice, a second apart in
    ezdxf's clock, the bytes are equal."""
    from generator.layout.cutter import CutSheet, Outline
    from generator.render.cutter import dxf_cut_file, svg_cut_file
    sheet = CutSheet(1, (210.0, 297.0), (Outline("card-a-1", box=(20, 20, 83, 108), radius=3),
                                          Outline("token-b-1", centre=(120, 50), radius=10),
                                          Outline("piece-c-1", points=((130, 130), (150, 130), (140, 150)))))
    first = dxf_cut_file(sheet), svg_cut_file(sheet)
    assert b"ezdxf" not in first[0] or b"@" not in first[0].split(b"ezdxf", 1)[1][:40]
    assert (dxf_cut_file(sheet), svg_cut_file(sheet)) == first


def test_a_cutter_the_sheet_does_not_list_or_a_folded_sheet_is_refused(tmp_path):
    shutil.copytree(SAMPLE, tmp_path / "sample")
    result = pnp("build", "--cutter", "plotter", "--out", str(tmp_path / "out"), project=tmp_path / "sample")
    assert result.exit_code != 0 and "no cutter 'plotter'" in result.output and "silhouette, cricut" in result.output
    result = pnp("build", "--cutter", "silhouette", "--duplex", "gutterfold", "--out", str(tmp_path / "out"),
                 project=tmp_path / "sample")
    assert result.exit_code != 0 and "gutterfold" in result.output
    assert not (tmp_path / "out").exists()


def test_the_print_first_page_sends_the_cut_files_to_the_machine_not_the_printer(builds):
    """A kit built for a cutting machine: its print-first page lists the sheets to print (PDFs of
    its paper, the machine's sheets told to go to the machine), never a cut file; the cut files
    of each sheets' file are one line under "Not for printing", naming the first and the last and
    the very pages they cut (another paper's: tests/test_print_first.py)."""
    out = builds["silhouette"]
    folder = out / "sample-game" / "standard" / "en"
    # a file name broken across lines at one of its hyphens: pdfium reads that hyphen as U+FFFE
    text = flat(" ".join(page_texts(folder / "sample-game-standard-en-print-first-a4.pdf")).replace("\ufffe", "-"))
    printed, _, rest = text.partition("Not for printing")
    rest = re.sub(r"(?<=-) (?=[a-z0-9])", "", rest)       # a name broken after a hyphen: joined again
    name = r"sample-game-standard-en-[a-z0-9-]+\.(?:pdf|png|svg|dxf)"
    listed = re.findall(name, printed)
    machine_sheets = sorted(p.name for p in folder.glob("*-silhouette-a4.pdf"))
    assert len(machine_sheets) == 3 and set(machine_sheets) <= set(listed)      # cards, tokens, pieces
    assert all(file.endswith("-a4.pdf") for file in listed), listed
    entries = _entries(out)
    for sheet in machine_sheets:
        row = printed.partition(sheet)[2].split(".pdf")[0]
        assert "to the cutting machine with the cut file of its page" in row, (sheet, row)
        stem = sheet[:-len("-a4.pdf")]
        cuts = sorted((e for e in entries if e["path"].rsplit("/", 1)[-1].startswith(f"{stem}-cut")
                       and e["paper"] == "a4"), key=lambda e: (e["page"], e["path"].endswith(".dxf")))
        assert cuts and {Path(e["path"]).suffix for e in cuts} == {".svg", ".dxf"}
        first, last = (Path(cuts[i]["path"]).name for i in (0, -1))
        pages = ", ".join(str(page) for page in dict.fromkeys(e["page"] for e in cuts))
        assert f"{first} … {last} — For the cutting machine, not the printer: the cut lines of each page of {sheet} " \
               f"that it cuts (pages {pages})" in rest, (sheet, rest)
