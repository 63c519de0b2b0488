"""Die lines in print-shop component files, checked on the real PDFs `pnp build --profile eu-3mm`
writes: the cut and fold lines of tokens, dice, pieces and tuck boxes are on an optional content
layer that does not print (off in the default configuration, print usage off), in the Separation spot
colours CutContour and Crease, overprinting; nothing is painted along them in the printed art;
and `pnp preflight` passes the files and fails one with a cut line in its art."""
from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy
import pikepdf
import pypdfium2 as pdfium
import pytest

from conftest import pnp, shop_ready_sample

MM = 72 / 25.4
GAME, LOCALE = "sample-game", "en"
DIE_LINE_KINDS = ("tokens", "dice", "pieces", "tuckboxes")


@pytest.fixture(scope="module")
def shop(tmp_path_factory) -> Path:
    """The shop-ready sample's files of the kinds with die lines (its hex token, d6, pieces and
    the heroes' tuck box), made and written as `pnp build --profile eu-3mm` makes them (generator.app.shop.shop_component_files, one unit per kind, each file
    preflighted); the profile's cards, booklet and boards, which have no die lines, left out."""
    from generator.app.shop import shop_component_files
    from generator.app.kinds import KINDS
    from generator.app.loading import load_games
    from generator.i18n.texts import Texts
    from generator.layout.faces import Localised
    from generator.layout.kit import Kit
    from generator.load.profiles import load_profile
    from generator.load.project import Project
    out = tmp_path_factory.mktemp("shop")
    project = Project(shop_ready_sample(out))
    game = load_games(project, GAME, texts=False)[0]
    kit = Kit(project, game, Localised(game, "standard", Texts.load(game, LOCALE)), "")
    profile = load_profile(project, "eu-3mm")
    for kind in KINDS:
        if kind.name in DIE_LINE_KINDS:
            made, problems = shop_component_files(kit, profile, kind)
            assert not problems, problems
            for artifact in made:
                (out / artifact.path).parent.mkdir(parents=True, exist_ok=True)
                (out / artifact.path).write_bytes(artifact.data)
    return out / GAME / "standard" / LOCALE / "shop" / "eu-3mm"


def _component_files(shop: Path) -> list[Path]:
    files = sorted((shop / "components").glob("*.pdf"))
    kinds = {path.name.split("-")[0] for path in files}
    assert set(DIE_LINE_KINDS) <= kinds, kinds
    return [path for path in files if path.name.split("-")[0] in DIE_LINE_KINDS]


def _die_strokes(pdf, page):
    """(inside an /OC sequence of the layer, spot name, overprint on, path points in mm) of
    every path stroked in a Separation colour on a page."""
    resources = page.obj.Resources
    strokes, marked, spot, overprint, points, stack = [], [], None, False, [], []
    for operands, operator in pikepdf.parse_content_stream(page):
        op = str(operator)
        if op == "BDC":
            group = resources.Properties[operands[1]] if operands[0] == pikepdf.Name.OC else None
            marked.append(group)
        elif op == "EMC":
            marked.pop()
        elif op == "q":
            stack.append((spot, overprint))
        elif op == "Q":
            spot, overprint = stack.pop()
        elif op == "CS":
            space = resources.ColorSpace.get(operands[0])
            spot = str(space[1]) if isinstance(space, pikepdf.Array) and space[0] == pikepdf.Name.Separation else None
        elif op == "K":
            spot = None
        elif op == "gs":
            state = resources.ExtGState[operands[0]]
            overprint = bool(state.get("/OP", overprint)) and bool(state.get("/op", False))
        elif op in ("m", "l"):
            points.append((float(operands[0]) / MM, float(operands[1]) / MM))
        elif op == "c":
            points.append((float(operands[4]) / MM, float(operands[5]) / MM))
        elif op in ("S", "s"):
            if spot:
                strokes.append((next((g for g in reversed(marked) if g is not None), None), spot, overprint, points))
            points = []
        elif op in ("f", "n", "B", "b"):
            points = []
    return strokes


def test_die_lines_are_on_a_layer_that_does_not_print(shop):
    for path in _component_files(shop):
        with pikepdf.open(path) as pdf:
            properties = pdf.Root.OCProperties
            (layer,) = list(properties.OCGs)
            assert layer.objgen in {g.objgen for g in properties.D.OFF}, path.name
            assert layer.Usage.Print.PrintState == pikepdf.Name.OFF, path.name
            for page in pdf.pages:
                strokes = _die_strokes(pdf, page)
                assert strokes, f"{path.name}: no die lines"
                for group, spot, overprint, _ in strokes:
                    assert group is not None and group.objgen == layer.objgen, f"{path.name}: {spot} off the layer"
                    assert spot in ("/CutContour", "/Crease") and overprint, (path.name, spot, overprint)
                spaces = {str(v[1]): v for v in page.obj.Resources.ColorSpace.values()
                          if isinstance(v, pikepdf.Array) and v[0] == pikepdf.Name.Separation}
                assert spaces["/CutContour"][2] == pikepdf.Name.DeviceCMYK
                assert any(spot == "/CutContour" for _, spot, _, _ in strokes), path.name


def test_nothing_prints_along_a_cut_line(shop):
    """Rendered as it prints (the layer off), the pixels on every cut line are the art's
    colours, not a black line: at the middle of each cut, the pixel on it is no darker than the
    art on both sides of it (0.6 mm off, past a stroke's width), whatever the art's colour (a
    tuck box's may be as dark as the old 100 % black stroke)."""
    scale = 20 / MM            # 20 pixels a millimetre
    for path in _component_files(shop):
        document = pdfium.PdfDocument(path)
        try:
            with pikepdf.open(path) as pdf:
                for index, page in enumerate(pdf.pages):
                    image = numpy.asarray(document[index].render(scale=scale).to_pil().convert("L")).astype(int)
                    height, width = image.shape

                    def pixel(x, y):
                        return image[min(height - 1, int(height - y * MM * scale)), min(width - 1, int(x * MM * scale))]

                    cuts = [points for _, spot, _, points in _die_strokes(pdf, page) if spot == "/CutContour"]
                    darker = []
                    for points in cuts:
                        for (x0, y0), (x1, y1) in zip(points, points[1:]):
                            length = math.hypot(x1 - x0, y1 - y0)
                            if length < 2:
                                continue
                            mx, my, nx, ny = (x0 + x1) / 2, (y0 + y1) / 2, (y0 - y1) / length, (x1 - x0) / length
                            beside = min(pixel(mx + 0.6 * nx, my + 0.6 * ny), pixel(mx - 0.6 * nx, my - 0.6 * ny))
                            darker.append(beside - pixel(mx, my))
                    assert darker and max(darker) < 30, f"{path.name}: a dark line on the cut ({max(darker)} darker)"
        finally:
            document.close()


def test_preflight_passes_them_and_fails_a_cut_line_in_the_art(shop, tmp_path):
    files = _component_files(shop)
    result = pnp("preflight", "--profile", "eu-3mm", "--json", *map(str, files))
    assert result.exit_code == 0, result.output
    reports = json.loads(result.stdout)["files"]
    for report in reports:
        check = next(c for c in report["checks"] if c["criterion"] == "die-lines")
        assert check["result"] == "pass" and "non-printing layer" in check["detail"], report
    # The token's cut line copied out of the layer into the printed art, in black.
    token = next(path for path in files if path.name.startswith("tokens-"))
    with pikepdf.open(token) as pdf:
        page = pdf.pages[0]
        layer_ops = page.obj.Contents[-1].read_bytes().decode()
        cut = re.search(r"/CutContour CS 1 SCN\n(.*?)\n", layer_ops).group(1)
        page.contents_add(pdf.make_stream(f"q 0 0 0 1 K 0.4 w {cut} Q\n".encode()), prepend=False)
        broken = tmp_path / "in-art" / "components" / token.name      # named as the profile names it
        broken.parent.mkdir(parents=True)
        pdf.save(broken)
    # And the layer made printing: CutContour then paints in the printed art.
    with pikepdf.open(token) as pdf:
        del pdf.Root.OCProperties.OCGs[0].Usage
        pdf.Root.OCProperties.D.OFF = pikepdf.Array()
        printing = tmp_path / "printing" / "components" / token.name
        printing.parent.mkdir(parents=True)
        pdf.save(printing)
    result = pnp("preflight", "--profile", "eu-3mm", "--json", str(broken), str(printing))
    assert result.exit_code == 1
    details = [next(c for c in report["checks"] if c["criterion"] == "die-lines") for report in json.loads(result.stdout)["files"]]
    assert details[0]["result"] == "fail" and "a printed" in details[0]["detail"], details[0]
    assert details[1]["result"] == "fail" and "CutContour painted in the printed art" in details[1]["detail"], details[1]
