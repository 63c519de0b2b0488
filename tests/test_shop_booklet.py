"""The rule booklet a CMYK print shop gets (eu-3mm), checked on the real PDF of the sample game as
shops take it (conftest.shop_ready_sample): the home booklet's pages with bleed, PDF/X-4 with
the FOGRA39 OutputIntent, every colour and picture in press CMYK within the ink limit (the
stylesheet's colours as the profile's palette separates them), no links; preflight through the
CLI passes it and fails it once broken."""
from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path

import numpy
import pikepdf
import pypdfium2 as pdfium
import pytest

from conftest import painted_operators, pnp


ROOT = Path(__file__).resolve().parent.parent
MM = 72 / 25.4
GAME, EDITION, LOCALE = "sample-game", "standard", "en"


@pytest.fixture(scope="module")
def booklets(shop_sample, tmp_path_factory):
    """(the shop booklet on disk, the home booklet's bytes) of the shop-ready sample: the one its
    build for every profile wrote for eu-3mm, the other as `pnp build --kind booklet` writes it."""
    project, out = shop_sample
    home = tmp_path_factory.mktemp("home-booklet")
    result = pnp("build", "--kind", "booklet", "--out", str(home), project=project)
    assert result.exit_code == 0, result.output + result.traceback
    return (out / GAME / EDITION / LOCALE / "shop" / "eu-3mm" / "booklet.pdf",
            (home / GAME / EDITION / LOCALE / f"{GAME}-{EDITION}-{LOCALE}-rules.pdf").read_bytes())


def _colour_spaces(pdf) -> list[str]:
    """Every colour-space name and array family reachable from the document (streams' dictionaries
    included, their data not), e.g. '/DeviceRGB', '/Lab', '/ICCBased N=3'."""
    found, seen = [], set()

    def visit(value):
        if isinstance(value, pikepdf.Object) and value.is_indirect:
            if value.objgen in seen:
                return
            seen.add(value.objgen)
        if isinstance(value, pikepdf.Name):
            if str(value) in ("/DeviceRGB", "/DeviceCMYK", "/DeviceGray", "/CalRGB", "/Lab"):
                found.append(str(value))
        elif isinstance(value, pikepdf.Array):
            if len(value) == 2 and value[0] == pikepdf.Name.ICCBased:
                found.append(f"/ICCBased N={int(value[1].get('/N', 0))}")
                return
            for item in value:
                visit(item)
        elif isinstance(value, (pikepdf.Dictionary, pikepdf.Stream)):
            for key, item in value.items():
                if key not in ("/Parent", "/DestOutputProfile"):
                    visit(item)

    for page in pdf.pages:
        visit(page.obj)
    return found


COLOUR_OPERATORS = ("k", "K", "sc", "scn", "SC", "SCN", "g", "G", "rg", "RG")


def _operators(pdf):
    """(operator, its numbers for a colour operator, else none) of everything painted."""
    return [(op, [float(v) for v in operands if not isinstance(v, pikepdf.Name)] if op in COLOUR_OPERATORS else [])
            for op, operands in painted_operators(pdf)]


def _images(pdf):
    return [obj for obj in pdf.objects if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image"]


def test_booklet_is_the_home_booklets_pages_with_bleed(booklets):
    path, home = booklets
    with pikepdf.open(path) as pdf, pikepdf.open(io.BytesIO(home)) as home_pdf:
        assert len(pdf.pages) == len(home_pdf.pages) and len(pdf.pages) % 4 == 0
        for page in pdf.pages:
            tx0, ty0, tx1, ty1 = (float(v) / MM for v in page.obj.TrimBox)
            mx0, my0, mx1, my1 = (float(v) / MM for v in page.obj.MediaBox)
            assert (tx1 - tx0, ty1 - ty0) == pytest.approx((148, 210), abs=0.05)
            assert (tx0 - mx0, ty0 - my0, mx1 - tx1, my1 - ty1) == pytest.approx((3,) * 4, abs=0.05)
    shop_text, home_text = [], []
    for source, texts in ((str(path), shop_text), (home, home_text)):
        document = pdfium.PdfDocument(source)
        try:
            texts += [page.get_textpage().get_text_range() for page in document]
        finally:
            document.close()
    assert shop_text[1:] == home_text[1:]            # the same words on the same pages
    # the cover less the home print's scale bar and its words ("50 mm – check ... 100%")
    shop_cover, home_cover = Counter(shop_text[0].split()), Counter(home_text[0].split())
    assert not shop_cover - home_cover and "100%" in home_cover - shop_cover


def test_booklet_is_pdfx4_with_the_fogra39_output_intent(booklets):
    from generator.core.icc import press
    path, _ = booklets
    assert path.read_bytes().startswith(b"%PDF-1.6")
    with pikepdf.open(path) as pdf:
        assert str(pdf.docinfo.GTS_PDFXVersion) == "PDF/X-4"
        assert str(pdf.open_metadata().get("pdfxid:GTS_PDFXVersion")) == "PDF/X-4"
        (intent,) = pdf.Root.OutputIntents
        assert intent.S == "/GTS_PDFX" and str(intent.OutputConditionIdentifier) == "FOGRA39"
        assert intent.DestOutputProfile.read_bytes() == press("FOGRA39").profile_bytes()
        assert not [a for page in pdf.pages for a in page.obj.get("/Annots", []) if a.get("/Subtype") == "/Link"]


def test_every_colour_and_picture_is_press_cmyk_within_the_ink_limit(booklets):
    from generator.core.colour import Palette
    path, _ = booklets
    palette = Palette("cmyk", 300, (40, 30, 30, 100), "FOGRA39")
    with pikepdf.open(path) as pdf:
        ops = _operators(pdf)
        assert not [op for op, _ in ops if op in ("rg", "RG")]
        spaces = set(_colour_spaces(pdf))
        assert "/DeviceCMYK" in spaces and not spaces & {"/DeviceRGB", "/CalRGB", "/Lab", "/ICCBased N=3"}, spaces
        images = _images(pdf)
        assert images
        worst = 0.0
        for image in images:
            assert image.get("/ColorSpace") == "/DeviceCMYK" or image.get("/ImageMask")
            pixels = pikepdf.PdfImage(image).as_pil_image()
            if pixels.mode == "CMYK":
                worst = max(worst, numpy.asarray(pixels, dtype=numpy.uint16).sum(axis=2).max() / 255 * 100)
        assert 100 < worst <= 300 + 0.05
        inks = [sum(values) * 100 for op, values in ops if op in ("k", "K", "scn", "sc") and len(values) == 4]
        assert inks and max(inks) <= 300 + 0.05
        painted = {tuple(round(v, 3) for v in values) for op, values in ops if op in ("scn", "SCN", "sc") and len(values) == 4}
    # the stylesheet's heading red and body text grey, as the palette separates them (text on K alone)
    for colour in ("#A4161A", "#1E1E1E"):
        wanted = tuple(round(v, 3) for v in palette.cmyk(colour))
        assert any(max(abs(a - b) for a, b in zip(wanted, found)) <= 0.0015 for found in painted), (colour, wanted)
    assert palette.cmyk("#1E1E1E")[:3] == (0, 0, 0)


def _preflight(*paths) -> tuple[int, dict]:
    result = pnp("preflight", "--profile", "eu-3mm", "--json", *map(str, paths))
    assert result.exit_code in (0, 1), result.output
    report = json.loads(result.output)
    return result.exit_code, {Path(f["path"]).parent.name: {c["criterion"]: c["result"] for c in f["checks"]}
                              for f in report["files"]}


@pytest.fixture(scope="module")
def preflight_of_the_booklet(booklets) -> tuple[int, dict]:
    """pnp preflight's exit code and checks of the shop booklet, run once for the tests that read them."""
    path, _ = booklets
    code, results = _preflight(path)
    return code, results[path.parent.name]


def test_preflight_passes_the_booklet_and_fails_it_broken(booklets, preflight_of_the_booklet, tmp_path):
    path, _ = booklets
    code, checks = preflight_of_the_booklet
    assert code == 0, checks
    for criterion in ("boxes", "size", "pages", "fonts", "colour", "ink", "images", "pdfx", "links"):
        assert checks[criterion] == "pass", criterion

    def link(pdf):
        page = pdf.pages[0]
        page.obj.Annots = pdf.make_indirect(pikepdf.Array([pikepdf.Dictionary(
            Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Link, Rect=[0, 0, 10, 10],
            A=pikepdf.Dictionary(S=pikepdf.Name.URI, URI=pikepdf.String("https://example.org")))]))

    def rgb(pdf):
        pdf.pages[1].contents_add(pdf.make_stream(b"q 0 0 1 rg 0 0 10 10 re f Q"), prepend=False)

    def no_intent(pdf):
        del pdf.Root["/OutputIntents"]

    broken = {"link": (link, "links"), "rgb": (rgb, "colour"), "intent": (no_intent, "pdfx")}
    for name, (edit, _criterion) in broken.items():
        folder = tmp_path / name
        folder.mkdir()
        with pikepdf.open(path) as pdf:
            edit(pdf)
            pdf.save(folder / "booklet.pdf")
    # one run over the broken copies: each fails, so the run does; each copy's checks say why
    code, results = _preflight(*(tmp_path / name / "booklet.pdf" for name in broken))
    assert code == 1 and set(results) == set(broken), results
    for name, (_edit, criterion) in broken.items():
        assert results[name][criterion] == "fail", (name, results[name])


def test_the_shop_booklet_has_no_scale_bar_and_preflight_fails_one_that_has(booklets, preflight_of_the_booklet,
                                                                              tmp_path):
    """The home booklet's 50 mm bar sits in the cover's margin, 5.4-10 mm inside the trim: in a
    shop's file it would print on every copy. Preflight finds it on the home booklet."""
    _path, home = booklets
    _code, checks = preflight_of_the_booklet
    assert checks["home-furniture"] == "pass"
    folder = tmp_path / "home"
    folder.mkdir()
    (folder / "booklet.pdf").write_bytes(home)
    code, results = _preflight(folder / "booklet.pdf")
    assert code == 1 and results["home"]["home-furniture"] == "fail", results["home"]
