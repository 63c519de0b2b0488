"""`pnp preflight`: good files pass, and every check fails on a file made to break it — files we
built (the sample game as shops take it, conftest.shop_ready_sample) and then damaged, and files
made by other means."""
from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pikepdf
import pytest
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from conftest import pnp, shop_ready_sample


ROOT = Path(__file__).resolve().parent.parent
GAME, EDITION, LOCALE = "sample-game", "standard", "en"
MM = 72 / 25.4




def preflight(profile: str, *paths: Path) -> tuple[int, dict[str, dict[str, str]]]:
    """Exit code and {file name: {criterion: pass|fail|n/a}}."""
    result = pnp("preflight", "--profile", profile, "--json", *map(str, paths))
    assert result.exit_code in (0, 1), result.output
    report = json.loads(result.output)
    return result.exit_code, {Path(f["path"]).name: {c["criterion"]: c["result"] for c in f["checks"]}
                              for f in report["files"]}


def failed(results: dict[str, str]) -> set[str]:
    return {criterion for criterion, result in results.items() if result == "fail"}


@pytest.fixture(scope="module")
def built(shop_sample) -> Path:
    """The shop folder of the shop-ready sample built for every profile."""
    return shop_sample[1] / GAME / EDITION / LOCALE / "shop"


@pytest.fixture
def dtc(built, tmp_path) -> Path:
    """A fresh copy of the DriveThruCards file of the heroes deck to break."""
    path = tmp_path / "heroes.pdf"
    shutil.copy(built / "drivethrucards" / "heroes.pdf", path)
    return path


def edit(path: Path, change) -> Path:
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        change(pdf)
        pdf.save(path)
    return path


def paint(pdf, content: bytes, page: int = 0, resources: dict | None = None) -> None:
    target = pdf.pages[page]
    for kind, entries in (resources or {}).items():
        if kind not in target.obj.Resources:
            target.obj.Resources[kind] = pikepdf.Dictionary()
        for name, value in entries.items():
            target.obj.Resources[kind][name] = value
    target.contents_add(pikepdf.Stream(pdf, content), prepend=False)


# ---- good files ---------------------------------------------------------------------------------------

def test_our_files_pass_their_profiles_and_folders_are_searched(built):
    for profile in ("drivethrucards", "eu-3mm", "tgc"):
        code, results = preflight(profile, built / profile)
        assert code == 0 and results
        assert all(not failed(r) for r in results.values())
    code, results = preflight("drivethrucards", built / "drivethrucards" / "heroes.pdf")
    assert set(results["heroes.pdf"]) == {"boxes", "size", "pages", "fonts", "colour", "ink", "images", "pdfx",
                                          "safe-zone", "home-furniture", "resources", "render"}
    text = pnp("preflight", "--profile", "tgc", str(built / "tgc")).output
    assert "pass  png-size" in text and "file(s) passed preflight" in text


# ---- each PDF check failing -------------------------------------------------------------------------

def test_missing_trimbox_fails_boxes_and_size(dtc):
    edit(dtc, lambda pdf: pdf.pages[1].obj.__delitem__("/TrimBox"))
    code, results = preflight("drivethrucards", dtc)
    assert code == 1 and {"boxes", "size", "safe-zone"} <= failed(results["heroes.pdf"])


def test_a_trimbox_of_the_face_not_the_shops_trim_fails_size(dtc):
    """DriveThruCards cuts poker cards at 63.5 x 88.9 mm: a TrimBox round the 63 x 88 mm face
    (what the files had before) does not say where the shop cuts."""
    mm = 72 / 25.4
    with pikepdf.open(dtc) as pdf:
        box = [float(v) for v in pdf.pages[0].obj.TrimBox]
        assert ((box[2] - box[0]) / mm, (box[3] - box[1]) / mm) == pytest.approx((63.5, 88.9), abs=0.01)

    def face(pdf):
        for page in pdf.pages:
            x0, y0, x1, y1 = (float(v) for v in page.obj.TrimBox)
            dx, dy = (x1 - x0 - 63 * mm) / 2, (y1 - y0 - 88 * mm) / 2
            page.obj.TrimBox = pikepdf.Array([x0 + dx, y0 + dy, x1 - dx, y1 - dy])
    code, results = preflight("drivethrucards", edit(dtc, face))
    assert code == 1 and "size" in failed(results["heroes.pdf"])


def test_bleedbox_inside_the_trim_fails_boxes(dtc):
    def shrink(pdf):
        pdf.pages[0].obj.BleedBox = pikepdf.Array([20, 20, 100, 100])
    code, results = preflight("drivethrucards", edit(dtc, shrink))
    assert failed(results["heroes.pdf"]) == {"boxes"}


def test_too_little_bleed_fails_size(dtc):
    def crop(pdf):
        for page in pdf.pages:
            x0, y0, x1, y1 = (float(v) for v in page.obj.TrimBox)
            edge = 2 * MM
            page.obj.MediaBox = page.obj.BleedBox = pikepdf.Array([x0 - edge, y0 - edge, x1 + edge, y1 + edge])
    code, results = preflight("drivethrucards", edit(dtc, crop))
    assert failed(results["heroes.pdf"]) == {"size"}


def test_a_face_off_the_middle_of_the_shops_page_fails_size(dtc):
    """The 63 x 88 mm face sits in the middle of DriveThruCards' 2.75 x 3.75 in page; moved
    0.4 mm it would be cut off-centre."""
    def shift(pdf):
        for page in pdf.pages:
            x0, y0, x1, y1 = (float(v) for v in page.obj.TrimBox)
            page.obj.TrimBox = pikepdf.Array([x0 + 0.4 * MM, y0, x1 + 0.4 * MM, y1])
    code, results = preflight("drivethrucards", edit(dtc, shift))
    assert code == 1 and "size" in failed(results["heroes.pdf"]) and "boxes" not in failed(results["heroes.pdf"])


def test_a_card_of_another_shops_size_fails_size(built, tmp_path):
    path = tmp_path / "heroes.pdf"                       # an EU 63 x 88 mm file sent to DriveThruCards
    shutil.copy(built / "eu-3mm" / "heroes-fronts.pdf", path)
    code, results = preflight("drivethrucards", path)
    assert "size" in failed(results["heroes.pdf"])


def test_fronts_before_backs_fail_page_order(dtc):
    def front_first(pdf):
        first = pdf.pages[0]
        pdf.pages.append(first)
        del pdf.pages[0]
    code, results = preflight("drivethrucards", edit(dtc, front_first))
    assert failed(results["heroes.pdf"]) == {"pages"}


def test_a_missing_page_fails_page_count(dtc):
    code, results = preflight("drivethrucards", edit(dtc, lambda pdf: pdf.pages.__delitem__(-1)))
    assert failed(results["heroes.pdf"]) == {"pages"}


def test_fronts_and_backs_files_that_do_not_pair_fail(built, tmp_path):
    for side in ("fronts", "backs"):
        shutil.copy(built / "eu-3mm" / f"heroes-{side}.pdf", tmp_path)
    edit(tmp_path / "heroes-backs.pdf", lambda pdf: pdf.pages.__delitem__(-1))
    code, results = preflight("eu-3mm", tmp_path / "heroes-fronts.pdf")
    assert code == 1 and failed(results["heroes-fronts.pdf"]) == {"pages"}


def test_an_unembedded_font_fails_fonts(dtc):
    def unembed(pdf):
        form = next(iter(pdf.pages[1].obj.Resources.XObject.values()))
        font = next(iter(form.Resources.Font.values()))
        del font.FontDescriptor["/FontFile2"]
    code, results = preflight("drivethrucards", edit(dtc, unembed))
    assert failed(results["heroes.pdf"]) == {"fonts"}


def test_an_rgb_operator_fails_colour(dtc):
    code, results = preflight("drivethrucards", edit(dtc, lambda pdf: paint(pdf, b"q 1 0 0 rg 20 20 5 5 re f Q")))
    assert failed(results["heroes.pdf"]) == {"colour"}


def test_too_much_ink_fails_ink(dtc):
    code, results = preflight("drivethrucards", edit(dtc, lambda pdf: paint(pdf, b"q 1 1 0.5 0 k 20 20 5 5 re f Q")))
    assert failed(results["heroes.pdf"]) == {"ink"}


def _image(pdf, mode: str, size: tuple[int, int], value) -> pikepdf.Stream:
    image = Image.new(mode, size, value)
    space = {"L": pikepdf.Name.DeviceGray, "RGB": pikepdf.Name.DeviceRGB, "CMYK": pikepdf.Name.DeviceCMYK}[mode]
    return pikepdf.Stream(pdf, image.tobytes(), Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image,
                          Width=size[0], Height=size[1], ColorSpace=space, BitsPerComponent=8)


def test_a_low_resolution_image_fails_images(dtc):
    def add(pdf):   # 10 x 10 px over 36 pt (half an inch): 20 ppi
        paint(pdf, b"q 36 0 0 36 20 20 cm /Low Do Q", resources={"/XObject": {"/Low": _image(pdf, "L", (10, 10), 128)}})
    code, results = preflight("drivethrucards", edit(dtc, add))
    assert failed(results["heroes.pdf"]) == {"images"}


def test_images_count_for_colour_and_ink(dtc):
    def add(pdf):   # 300 px over an inch each: sharp enough, but RGB, and CMYK at 400 %
        paint(pdf, b"q 72 0 0 72 20 20 cm /Rgb Do Q q 72 0 0 72 20 100 cm /Dark Do Q",
              resources={"/XObject": {"/Rgb": _image(pdf, "RGB", (300, 300), (200, 10, 10)),
                                      "/Dark": _image(pdf, "CMYK", (300, 300), (255, 255, 255, 255))}})
    code, results = preflight("drivethrucards", edit(dtc, add))
    assert failed(results["heroes.pdf"]) == {"colour", "ink"}


def test_no_output_intent_fails_pdfx(dtc):
    code, results = preflight("drivethrucards", edit(dtc, lambda pdf: pdf.Root.__delitem__("/OutputIntents")))
    assert failed(results["heroes.pdf"]) == {"pdfx"}


def test_an_rgb_output_profile_or_wrong_version_fails_pdfx(built, tmp_path):
    path = tmp_path / "heroes-fronts.pdf"
    shutil.copy(built / "eu-3mm" / "heroes-fronts.pdf", path)

    def damage(pdf):
        pdf.Root.OutputIntents[0].DestOutputProfile.N = 3
        pdf.docinfo.GTS_PDFXVersion = "PDF/X-3:2002"
    code, results = preflight("eu-3mm", edit(path, damage))
    assert failed(results["heroes-fronts.pdf"]) == {"pdfx"}


def test_an_output_intent_for_another_press_fails_pdfx_and_the_report_names_the_press(built, tmp_path):
    path = tmp_path / "heroes-fronts.pdf"
    shutil.copy(built / "eu-3mm" / "heroes-fronts.pdf", path)
    text = pnp("preflight", "--profile", "eu-3mm", str(path)).output
    assert "OutputIntent FOGRA39" in text and "limit 300 % (separated for FOGRA39)" in text
    code, results = preflight("drivethrucards", path)
    assert "pdfx" in failed(results["heroes-fronts.pdf"])
    assert "OutputIntent names 'FOGRA39', the profile prints to 'CGATS TR 003'" in pnp(
        "preflight", "--profile", "drivethrucards", str(path)).output

    def swap(pdf):      # the right name over another press's profile
        from generator.core.icc import press
        pdf.Root.OutputIntents[0].DestOutputProfile.write(press("CGATS TR 003").profile_bytes())
    code, results = preflight("eu-3mm", edit(path, swap))
    assert failed(results["heroes-fronts.pdf"]) == {"pdfx"}


def test_transparency_fails_pdfx_1a(dtc):
    def add(pdf):
        state = pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, ca=0.5)
        paint(pdf, b"q /Half gs 0 0 0 0.5 k 20 20 5 5 re f Q", resources={"/ExtGState": {"/Half": state}})
    code, results = preflight("drivethrucards", edit(dtc, add))
    assert failed(results["heroes.pdf"]) == {"pdfx"}


def _card_with_text(path: Path, text: str, x_mm: float) -> Path:
    """A DriveThruCards card (back and front page) made with the tool's own renderer and PDF/X
    step, with `text` starting `x_mm` from the page edge (the trim is 3.175 mm in)."""
    from generator.core.colour import Palette
    from generator.render.pdf import Document
    from generator.render.pdfx import make_pdfx
    doc = Document((69.85, 95.25), "edge", trim_box_mm=(3.175, 3.175, 66.675, 92.075),
                   palette=Palette("cmyk", 240, press="CGATS TR 003"))
    for _ in ("back", "front"):
        doc.new_page()
        doc.canvas.setFillColor(doc.palette.colour("#000000"))
        doc.canvas.setFont("Sans", 8)
        doc.canvas.drawString(x_mm * MM, 40 * MM, text)
    data, _ = doc.finish()
    path.write_bytes(make_pdfx(data, "PDF/X-1a:2003", "1.4", "edge", press_name="CGATS TR 003"))
    return path


def test_text_near_the_trim_fails_safe_zone(tmp_path):
    code, results = preflight("drivethrucards", _card_with_text(tmp_path / "edge.pdf", "Edge", 4.2))
    assert failed(results["edge.pdf"]) == {"safe-zone"}


def test_characters_that_paint_nothing_do_not_count_for_the_safe_zone(tmp_path):
    """A zero-width space has an empty box (no width) where the word starts: 0.05 mm outside
    the 3.175 mm safe zone, while the first letter, after its side bearing, is inside."""
    code, results = preflight("drivethrucards", _card_with_text(tmp_path / "edge.pdf", "\u200bBack", 6.3))
    assert code == 0 and not failed(results["edge.pdf"])


# ---- booklets -------------------------------------------------------------------------------------------

def _booklet(path: Path, pages: int, bleed: float = 3.0) -> Path:
    """A booklet as eu-3mm wants it apart from what a test changes: CMYK for FOGRA39, PDF/X-4
    (booklets are checked for colour and PDF/X as card files are)."""
    from generator.core.colour import Palette
    from generator.render.pdf import Document
    from generator.render.pdfx import make_pdfx
    a5 = (148, 210)
    doc = Document((a5[0] + 2 * bleed, a5[1] + 2 * bleed), "rules",
                   trim_box_mm=(bleed, bleed, bleed + a5[0], bleed + a5[1]),
                   palette=Palette("cmyk", 300, None, "FOGRA39"))
    for number in range(pages):
        doc.new_page()
        doc.canvas.drawString(20 * MM, 20 * MM, f"Page {number + 1}")
    path.write_bytes(make_pdfx(doc.finish()[0], "PDF/X-4", "1.6", "rules", press_name="FOGRA39"))
    return path


def test_booklets_need_a_multiple_of_4_pages_and_their_bleed(tmp_path):
    code, results = preflight("eu-3mm", _booklet(tmp_path / "booklet.pdf", 8))
    assert code == 0 and results["booklet.pdf"]["pages"] == "pass"
    code, results = preflight("eu-3mm", _booklet(tmp_path / "booklet.pdf", 6))
    assert failed(results["booklet.pdf"]) == {"pages"}
    code, results = preflight("eu-3mm", _booklet(tmp_path / "booklet.pdf", 8, bleed=1))
    assert failed(results["booklet.pdf"]) == {"size"}

    def spread(pdf):        # page 3 turned into a two-page spread: not single pages any more
        x0, y0, x1, y1 = (float(v) for v in pdf.pages[2].obj.TrimBox)
        grow = x1 - x0
        pdf.pages[2].obj.TrimBox = pikepdf.Array([x0, y0, x1 + grow, y1])
        for key in ("/MediaBox", "/BleedBox"):
            m = [float(v) for v in pdf.pages[2].obj[key]]
            pdf.pages[2].obj[key] = pikepdf.Array([m[0], m[1], m[2] + grow, m[3]])
    code, results = preflight("eu-3mm", edit(_booklet(tmp_path / "booklet.pdf", 8), spread))
    assert failed(results["booklet.pdf"]) == {"size"}


# ---- PNG -------------------------------------------------------------------------------------------------

@pytest.fixture
def png(built, tmp_path) -> Path:
    path = tmp_path / "card.png"
    shutil.copy(built / "tgc" / "heroes" / "01-knight-x4-front.png", path)
    return path


def test_png_of_another_shops_size_fails_png_size(png):
    code, results = preflight("mpc", png)
    assert failed(results["card.png"]) == {"png-size"}
    Image.open(png).resize((824, 1125)).save(png, dpi=(300, 300))
    code, results = preflight("tgc", png)
    assert failed(results["card.png"]) == {"png-size"}


def test_png_without_300_dpi_fails_png_resolution(png):
    image = Image.open(png)
    image.save(png)                                   # no resolution recorded
    assert failed(preflight("tgc", png)[1]["card.png"]) == {"png-resolution"}
    image.save(png, dpi=(72, 72))
    assert failed(preflight("tgc", png)[1]["card.png"]) == {"png-resolution"}


def test_png_with_alpha_fails_png_colour(png):
    Image.open(png).convert("RGBA").save(png, dpi=(300, 300))
    assert failed(preflight("tgc", png)[1]["card.png"]) == {"png-colour"}


# ---- files made elsewhere, and the command line ---------------------------------------------------------------

def test_a_pdf_made_elsewhere_is_checked_not_crashed_on(tmp_path):
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(595, 842))      # plain A4, Helvetica, RGB, no boxes
    canvas.setFillColorRGB(0.8, 0.1, 0.1)
    canvas.drawString(100, 700, "Hello")
    canvas.save()
    path = tmp_path / "deck.pdf"
    path.write_bytes(buffer.getvalue())
    code, results = preflight("drivethrucards", path)
    assert code == 1
    assert {"boxes", "size", "fonts", "colour", "pdfx", "safe-zone"} <= failed(results["deck.pdf"])


def test_something_that_is_neither_pdf_nor_png_fails_format(tmp_path):
    path = tmp_path / "notes.pdf"
    path.write_text("not a pdf")
    code, results = preflight("drivethrucards", path)
    assert code == 1 and failed(results["notes.pdf"]) == {"format"}


def _damaged(profile: str, path: Path, *others: Path):
    """Preflight as a user runs it: a report with a fail line and exit 1, never a traceback."""
    result = pnp("preflight", "--profile", profile, str(path), *map(str, others))
    assert result.traceback == "", result.traceback
    assert result.exit_code == 1, result.output
    assert f"FAIL  {path}" in result.output
    return result.output


@pytest.mark.parametrize("keep", [0.5, 0.9, 2000])
def test_a_truncated_pdf_fails_format(built, tmp_path, keep):
    data = (built / "drivethrucards" / "heroes.pdf").read_bytes()
    path = tmp_path / "heroes.pdf"
    path.write_bytes(data[:int(len(data) * keep) if keep < 1 else keep])
    output = _damaged("drivethrucards", path)
    assert "  fail  format" in output and "BytesIO" not in output


@pytest.mark.parametrize("damage", ["truncated", "header"])
def test_a_damaged_png_fails_format(png, damage):
    data = png.read_bytes()
    png.write_bytes(data[:len(data) // 2] if damage == "truncated" else data[:8] + bytes(40) + data[48:])
    output = _damaged("tgc", png)
    assert "  fail  format" in output and "not a readable PNG" in output


def test_a_damaged_other_half_fails_the_pairing(built, tmp_path):
    for side in ("fronts", "backs"):
        shutil.copy(built / "eu-3mm" / f"heroes-{side}.pdf", tmp_path)
    backs = tmp_path / "heroes-backs.pdf"
    backs.write_bytes(backs.read_bytes()[:3000])
    output = _damaged("eu-3mm", tmp_path / "heroes-fronts.pdf")
    assert "  fail  pages" in output and "heroes-backs.pdf" in output
    output = _damaged("eu-3mm", backs, tmp_path / "heroes-fronts.pdf")       # both named: each has its report
    assert "0 of 2 file(s) passed" in output and "  fail  format" in output


def test_a_file_that_cannot_be_read_fails_format(tmp_path):
    from generator.load.profiles import load_profile
    from generator.load.project import Project
    from generator.write.preflight import preflight_paths
    missing = tmp_path / "gone.pdf"
    (report,) = preflight_paths([missing], load_profile(Project(ROOT), "drivethrucards"))
    assert [(c.criterion, c.ok) for c in report.checks] == [("format", False)]
    assert report.checks[0].detail.startswith("cannot read")


def test_unknown_profile_is_a_usage_error(built):
    result = pnp("preflight", "--profile", "nope", str(built))
    assert result.exit_code == 2 and "no print profile 'nope'" in result.output


def test_build_refuses_to_write_files_that_fail_their_own_preflight(tmp_path, monkeypatch):
    import generator.render.shop as shop
    monkeypatch.setattr(shop, "make_pdfx", lambda data, *args, **kwargs: data)     # a PDF/X step that does nothing
    out = tmp_path / "out"
    result = pnp("build", "--profile", "drivethrucards", "--out", str(out), project=shop_ready_sample(tmp_path))
    assert result.exit_code == 1
    assert "pdfx" in result.output and "no GTS_PDFX OutputIntent" in result.output
    assert not out.exists()
