"""Print-shop files, checked on output built through `pnp build --profile` (the sample game as
shops take it, conftest.shop_ready_sample): per profile file counts, names, pixel and page sizes,
boxes and bleed, page order, CMYK with rich black and the ink limit, PDF/X OutputIntent and
metadata, the safe zone, and reproducible bytes."""
from __future__ import annotations

import hashlib
import io
import json
import re
import shutil
from pathlib import Path

import numpy
import pikepdf
import pypdfium2 as pdfium
import pytest
import yaml
from PIL import Image, ImageCms

from conftest import SAMPLE, line_of, painted_operators, pnp, replace_in, shop_card_files, shop_ready_sample


ROOT = Path(__file__).resolve().parent.parent
GAME, EDITION, LOCALE = "sample-game", "standard", "en"
MM = 72 / 25.4


def build_shop(out: Path, project: Path, *profiles: str, no_cache: bool = False):
    args = ["build", "--out", str(out), *(["--no-cache"] if no_cache else [])]
    for profile in profiles:
        args += ["--profile", profile]
    return pnp(*args, project=project)


def shop(out: Path, profile: str) -> Path:
    return out / GAME / EDITION / LOCALE / "shop" / profile


def card_pdfs(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.pdf") if p.name != "booklet.pdf")


def game_data(project: Path, name: str) -> dict:
    return yaml.safe_load((project / "components" / GAME / f"{name}.yaml").read_text(encoding="utf-8"))


def cards_in(project: Path) -> dict[str, list[tuple[str, int]]]:
    """deck -> [(card id, copies)] in data order, straight from the YAML."""
    decks: dict[str, list] = {}
    for card_id, card in game_data(project, "cards")["cards"].items():
        copies = card.get("count", {}).get(EDITION, 0)
        if copies:
            decks.setdefault(card["deck"], []).append((card_id, copies))
    return decks


@pytest.fixture(scope="module")
def built(shop_sample) -> Path:
    """The output folder of the shop-ready sample built for every profile."""
    return shop_sample[1]


@pytest.fixture(scope="module")
def sample_project(shop_sample) -> Path:
    return shop_sample[0]


# ---- reading PDFs independently of the preflight code ---------------------------------------------

def operators(pdf) -> list[tuple[str, list]]:
    """Every operator painted, pages and forms, for colour checks."""
    return [(op, [_number(v) for v in operands]) for op, operands in painted_operators(pdf)]


def _number(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return value


def box_mm(page, key):
    x0, y0, x1, y1 = (float(v) / MM for v in page.obj[key])
    return x0, y0, x1, y1


# ---- the profiles command ----------------------------------------------------------------------------

def test_profiles_lists_every_shop():
    result = pnp("profiles", "--json")
    assert result.exit_code == 0, result.output
    profiles = {p["name"]: p for p in json.loads(result.output)}
    assert {"tgc", "mpc", "drivethrucards", "eu-3mm"} <= set(profiles)
    assert profiles["tgc"]["cards"]["sizes"]["poker"]["pixels"] == [825, 1125]
    assert profiles["drivethrucards"]["cards"]["pdfx"] == "PDF/X-1a:2003"
    assert "eu-3mm" in pnp("profiles").output


def test_a_profile_with_bad_data_is_reported_with_file_and_line(tmp_path):
    project = tmp_path / "project"
    (project / "templates" / "profiles").mkdir(parents=True)
    (project / "components").mkdir()
    (project / "templates" / "profiles" / "broken.yaml").write_text(
        "name: Broken\ncards:\n  sizes:\n    poker: {trim_mm: [63, 88]}\n  bleed_mm: 3\n  safe_mm: 3\n"
        "  format: png\n  colour: {space: rgb}\n  files:\n    - {name: '{deck}.png', per: deck, sides: [front]}\n")
    result = pnp("profiles", project=project)
    assert result.exit_code == 1
    path = project / "templates" / "profiles" / "broken.yaml"
    where = "templates/profiles/broken.yaml"
    assert result.stderr.splitlines() == [
        f"{where}:{line_of(path, 'cards:')}: cards: a png profile needs dpi",
        f"{where}:{line_of(path, 'poker:')}: cards.sizes.poker: a png profile gives the pixel size of each card size",
        f"{where}:{line_of(path, '- {name:')}: cards.files.0: a png file holds one side of one card (per: card, one side)",
        "3 problem(s) found."]


GOOD_PROFILE = ("name: Checked\ncards:\n  sizes:\n    poker: {trim_mm: [63, 88]}\n  bleed_mm: 3\n  safe_mm: 3\n"
                "  format: pdf\n  colour: {space: rgb}\n  files:\n    - {name: '{deck}.pdf', per: deck, sides: [front]}\n"
                "booklet: {bleed_mm: 3, page_multiple: 4, name: booklet.pdf}\n")


PER_DECK = "a file per deck holds every card of the deck, but {} names one card"
TRIM = ("poker faces are 63 x 88 mm: a shop's trim for them is that, up to 0.2 mm smaller or up to 1.5 mm larger "
        "(faces are never scaled), not {} mm")
MULTIPLE = ("the rule booklet is a multiple of 4 pages, which a shop asking for a multiple of {} does not get "
            "(page_multiple: 1, 2 or 4)")


@pytest.mark.parametrize("old, new, message", [
    (None, None, None),
    ("{name: '{deck}.pdf', per: deck", "{name: '{deck}-{card}.pdf', per: deck",
     ("- {name:", "cards.files.0.name: " + PER_DECK.format("{card}"))),
    ("{name: '{deck}.pdf', per: deck", "{name: '{deck}-{number}.pdf', per: deck",
     ("- {name:", "cards.files.0.name: " + PER_DECK.format("{number}"))),
    ("{name: '{deck}.pdf', per: deck", "{name: '{deck}-x{copies}.pdf', per: deck",
     ("- {name:", "cards.files.0.name: " + PER_DECK.format("{copies}"))),
    ("page_multiple: 4", "page_multiple: 8", ("booklet:", "booklet.page_multiple: " + MULTIPLE.format(8))),
    ("page_multiple: 4", "page_multiple: 3", ("booklet:", "booklet.page_multiple: " + MULTIPLE.format(3))),
    ("poker: {trim_mm: [63, 88]}", "poker: {trim_mm: [63.5, 88.9]}", None),
    ("poker: {trim_mm: [63, 88]}", "poker: {trim_mm: [62, 88]}",
     ("poker:", "cards.sizes.poker.trim_mm: " + TRIM.format("62 x 88"))),
    ("poker: {trim_mm: [63, 88]}", "poker: {trim_mm: [63, 90]}",
     ("poker:", "cards.sizes.poker.trim_mm: " + TRIM.format("63 x 90"))),
    ("poker: {trim_mm: [63, 88]}", "pokr: {trim_mm: [63, 88]}",
     ("pokr:", "cards.sizes.pokr: no card size 'pokr' in templates/sheets/card-sizes.yaml (sizes: poker, bridge, "
               "mini, tarot, square)")),
])
def test_profile_checks(tmp_path, old, new, message):
    project = tmp_path / "project"
    (project / "templates" / "profiles").mkdir(parents=True)
    (project / "components").mkdir()
    path = project / "templates" / "profiles" / "checked.yaml"
    path.write_text(GOOD_PROFILE if old is None else GOOD_PROFILE.replace(old, new, 1), encoding="utf-8")
    result = pnp("profiles", project=project)
    if message is None:                                   # the profile as written is fine
        assert result.exit_code == 0, result.output
        return
    assert result.exit_code == 1 and result.traceback == "", result.output
    needle, problem = message
    assert result.stderr.splitlines() == [f"templates/profiles/checked.yaml:{line_of(path, needle)}: {problem}",
                                          "1 problem(s) found."]


def test_a_png_profile_cannot_ask_for_cmyk(tmp_path):
    project = tmp_path / "project"
    (project / "templates" / "profiles").mkdir(parents=True)
    (project / "components").mkdir()
    text = (ROOT / "templates" / "profiles" / "tgc.yaml").read_text(encoding="utf-8")
    replace = "colour: {space: rgb}"
    assert replace in text
    (project / "templates" / "profiles" / "tgc.yaml").write_text(text.replace(replace, "colour: {space: cmyk}"))
    result = pnp("profiles", project=project)
    assert result.exit_code == 1, result.output
    line = line_of(project / "templates" / "profiles" / "tgc.yaml", "colour: {space: cmyk}")
    assert result.stderr.splitlines() == [f"templates/profiles/tgc.yaml:{line}: cards.colour.space: PNG card images "
                                          "are RGB: use rgb", "1 problem(s) found."]


# ---- PNG shops -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("profile, pixels", [("tgc", (825, 1125)), ("mpc", (822, 1122))])
def test_png_profiles_make_one_exact_png_per_face_that_pair_by_name(built, sample_project, profile, pixels):
    folder = shop(built, profile)
    decks = cards_in(sample_project)
    assert len(decks) == 2
    files = sorted(folder.rglob("*.png"))
    assert len(files) == 2 * sum(len(cards) for cards in decks.values())
    for deck, cards in decks.items():
        for number, (card_id, copies) in enumerate(cards, 1):
            stem = folder / deck / f"{number:02d}-{card_id}-x{copies}"
            for side in ("front", "back"):
                image = Image.open(f"{stem}-{side}.png")
                assert image.size == pixels
                assert image.mode == "RGB"
                assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)


def test_png_backgrounds_run_into_the_bleed(built):
    image = Image.open(shop(built, "tgc") / "heroes" / "01-knight-x4-front.png")
    assert image.getpixel((0, 0)) == image.getpixel((60, 60)) != (255, 255, 255)


# ---- DriveThruCards ----------------------------------------------------------------------------------------

def test_drivethrucards_one_pdf_per_deck_back_then_front(built, sample_project):
    """Decks with backs of their own are products of their own: a file each."""
    folder = shop(built, "drivethrucards")
    decks = cards_in(sample_project)
    assert len(decks) == 2
    assert sorted(p.name for p in folder.glob("*.pdf")) == sorted(f"{d}.pdf" for d in decks)
    for deck, cards in decks.items():
        with pikepdf.open(folder / f"{deck}.pdf") as pdf:
            assert len(pdf.pages) == 2 * sum(copies for _, copies in cards)
            expected = [name for card_id, copies in cards for _ in range(copies)
                        for name in ("/FormXob.back-", f"/FormXob.card-{card_id}")]
            assert len(expected) == len(pdf.pages)
            for page, name in zip(pdf.pages, expected):
                (drawn,) = page.obj.Resources.XObject.keys()
                assert drawn.startswith(name)


def face_size(project: Path, layout: str = "hero") -> tuple[float, float]:
    return tuple(game_data(project, "layouts")["faces"][layout]["size_mm"])


def shop_trim(profile: str) -> tuple[tuple[float, float], float]:
    """The trim a shop cuts poker cards at and its bleed, from its profile as `pnp profiles` reads
    it (eu-3mm takes any size, at the face)."""
    cards = next(p for p in json.loads(pnp("profiles", "--json").output) if p["name"] == profile)["cards"]
    return tuple(cards["sizes"]["poker"]["trim_mm"]), cards["bleed_mm"]


@pytest.mark.parametrize("profile", ["drivethrucards", "eu-3mm"])
def test_every_page_is_the_shops_trim_plus_bleed_with_the_shops_trim_as_its_trimbox(built, sample_project, profile):
    face = face_size(sample_project)
    trim, bleed = shop_trim(profile)
    page_mm = (trim[0] + 2 * bleed, trim[1] + 2 * bleed)        # DriveThruCards: 2.75 x 3.75 in
    paths = card_pdfs(shop(built, profile))
    assert paths
    for path in paths:
        with pikepdf.open(path) as pdf:
            assert len(pdf.pages)
            for page in pdf.pages:
                assert "/TrimBox" in page.obj and "/BleedBox" in page.obj
                tx0, ty0, tx1, ty1 = box_mm(page, "/TrimBox")
                bx0, by0, bx1, by1 = box_mm(page, "/BleedBox")
                mx0, my0, mx1, my1 = box_mm(page, "/MediaBox")
                # the TrimBox is where the shop truly cuts (DriveThruCards: 63.5 x 88.9 mm), not the face
                assert (tx1 - tx0, ty1 - ty0) == pytest.approx(trim, abs=0.01)
                assert trim[0] >= face[0] and trim[1] >= face[1]
                assert (mx1 - mx0, my1 - my0) == pytest.approx(page_mm, abs=0.01)
                # the trim centred: the bleed is the same all round
                assert (tx0 - mx0, ty0 - my0) == pytest.approx((mx1 - tx1, my1 - ty1), abs=0.01)
                assert min(tx0 - mx0, ty0 - my0) >= bleed - 0.01
                assert mx0 <= bx0 <= tx0 and tx1 <= bx1 <= mx1


# ---- home and shop draw a face alike --------------------------------------------------------------

def sun_in_layout(project: Path) -> tuple[float, float, float, float, float, float]:
    """Where the hero face's picture of the sun reaches, its rays' butt ends (left, right, bottom
    and top, mm from the face's left and foot), from the layout's box for the picture and the
    SVG's own lines; and the picture's middle (x, y), which the rays cross."""
    image = next(e for e in game_data(project, "layouts")["faces"]["hero"]["elements"] if e["type"] == "image")
    svg = (project / "components" / GAME / image["file"]).read_text(encoding="utf-8")
    view = float(re.search(r'viewBox="0 0 ([\d.]+) ', svg).group(1))
    ends = [float(v) for v in re.findall(r'[xy][12]="([\d.]+)"', svg)]
    x, y, w, h = image["box"]
    return (x + w * min(ends) / view, x + w * max(ends) / view, y + h * (1 - max(ends) / view),
            y + h * (1 - min(ends) / view), x + w / 2, y + h / 2)


def sun_edges(image, px_per_mm: float, face_left_mm: float, face_top_mm: float, face: tuple[float, float],
              middle: tuple[float, float]) -> tuple[float, float, float, float]:
    """The sun's left, right, bottom and top edges (mm from the face's left and foot) measured on
    a rendered page, in its orange (red high, blue low, which neither the knight's blue nor the
    white text is): along the row through its `middle` and up its middle column."""
    w, h = face
    left, top = round(face_left_mm * px_per_mm), round(face_top_mm * px_per_mm)
    pixels = numpy.asarray(image.convert("RGB").crop((left, top, left + round(w * px_per_mm),
                                                      top + round(h * px_per_mm)))).astype(int)
    sun = (pixels[:, :, 0] > 150) & (pixels[:, :, 2] < 125)
    across = numpy.nonzero(sun[round((face_top_mm + h - middle[1]) * px_per_mm) - top])[0]
    up = numpy.nonzero(sun[:, round((face_left_mm + middle[0]) * px_per_mm) - left])[0]
    return ((left + across.min()) / px_per_mm - face_left_mm, (left + across.max() + 1) / px_per_mm - face_left_mm,
            face_top_mm + h - (top + up.max() + 1) / px_per_mm, face_top_mm + h - (top + up.min()) / px_per_mm)


def test_a_shop_draws_the_face_at_its_own_size_as_the_home_sheet_does(built, sample_project, tmp_path):
    """DriveThruCards and The Game Crafter cut poker cards at 63.5 x 88.9 mm: the 63 x 88 mm face
    is not scaled up to it. The knight's sun measures as the layout says, from the face centred
    in the TrimBox in the shop PDFs, from the face's place on the PNG, and from the card's place on the home sheet."""
    *expected, middle_x, middle_y = sun_in_layout(sample_project)
    w, h = face = face_size(sample_project)
    sun = (face, (middle_x, middle_y))
    px = 20
    measured = {}
    for profile, path in (("drivethrucards", "heroes.pdf"), ("eu-3mm", "heroes-fronts.pdf")):
        document = pdfium.PdfDocument(str(shop(built, profile) / path))
        with pikepdf.open(shop(built, profile) / path) as pdf:
            index = 1 if profile == "drivethrucards" else 0          # DriveThruCards: the back first
            tx0, ty0, tx1, ty1 = box_mm(pdf.pages[index], "/TrimBox")
            mx0, my0, mx1, my1 = box_mm(pdf.pages[index], "/MediaBox")
        try:
            image = document[index].render(scale=px / MM).to_pil()
        finally:
            document.close()
        # the face centred on the shop's trim
        measured[profile] = sun_edges(image, px, tx0 - mx0 + (tx1 - tx0 - w) / 2, my1 - ty1 + (ty1 - ty0 - h) / 2, *sun)
    image = Image.open(shop(built, "tgc") / "heroes" / "01-knight-x4-front.png")
    dpi = image.info["dpi"][0]
    png_px = dpi / 25.4
    page = (image.width / png_px, image.height / png_px)
    measured["tgc"] = sun_edges(image, png_px, (page[0] - w) / 2, (page[1] - h) / 2, *sun)
    home = tmp_path / "home"
    result = pnp("build", "--paper", "a4", "--kind", "cards", "--out", str(home), project=sample_project)
    assert result.exit_code == 0, result.output
    document = pdfium.PdfDocument(str(home / GAME / EDITION / LOCALE / f"{GAME}-{EDITION}-{LOCALE}-cards-a4.pdf"))
    try:
        image = document[0].render(scale=px / MM).to_pil()
    finally:
        document.close()
    # the first card of the 3 x 3 poker sheet, top left of the grid centred on A4
    measured["home"] = sun_edges(image, px, (210 - 3 * w) / 2, (297 - 3 * h) / 2, *sun)
    for where, edges in measured.items():
        tolerance = 1.5 / (png_px if where == "tgc" else px)        # a pixel and a half
        assert edges == pytest.approx(tuple(expected), abs=tolerance), where


@pytest.mark.parametrize("profile, limit, version, pdf_version",
                         [("drivethrucards", 240, "PDF/X-1a:2003", "1.4"), ("eu-3mm", 300, "PDF/X-4", "1.6")])
def test_cmyk_profiles_use_cmyk_only_within_the_ink_limit_with_a_pdfx_output_intent(built, profile, limit, version,
                                                                                    pdf_version):
    paths = card_pdfs(shop(built, profile))
    assert paths
    for path in paths:
        assert path.read_bytes().startswith(f"%PDF-{pdf_version}".encode())
        with pikepdf.open(path) as pdf:
            ops = operators(pdf)
            assert not [op for op, _ in ops if op in ("rg", "RG", "sc", "scn", "SC", "SCN", "cs", "CS")]
            inks = [sum(values) * 100 for op, values in ops if op in ("k", "K")]
            assert inks and max(inks) <= limit + 1e-6
            (intent,) = pdf.Root.OutputIntents
            assert intent.S == "/GTS_PDFX" and int(intent.DestOutputProfile.N) == 4
            profile_bytes = intent.DestOutputProfile.read_bytes()
            assert ImageCms.getOpenProfile(io.BytesIO(profile_bytes)).profile.xcolor_space == "CMYK"
            assert str(pdf.docinfo.GTS_PDFXVersion) == version
            assert pdf.open_metadata()["pdfxid:GTS_PDFXVersion"] == version
            assert "/ModDate" not in pdf.docinfo or str(pdf.docinfo.ModDate).startswith("D:2000")


def test_fonts_are_embedded_in_every_shop_pdf(built):
    for profile in ("drivethrucards", "eu-3mm"):
        paths = card_pdfs(shop(built, profile))
        assert paths
        for path in paths:
            with pikepdf.open(path) as pdf:
                fonts = {f.objgen: f for _, page_fonts in _fonts(pdf) for f in page_fonts}
                assert fonts
                for font in fonts.values():
                    assert any(k in font.FontDescriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))


def _fonts(pdf):
    for page in pdf.pages:
        for xobject in page.obj.Resources.get("/XObject", {}).values():
            yield page, list((xobject.get("/Resources") or {}).get("/Font", {}).values())


# ---- EU shops ---------------------------------------------------------------------------------------------

def test_eu_fronts_and_backs_pair_page_for_page_with_text_4_mm_inside_the_trim(built, sample_project):
    folder = shop(built, "eu-3mm")
    decks = cards_in(sample_project)
    assert len(decks) == 2
    for deck, cards in decks.items():
        copies = sum(c for _, c in cards)
        for side in ("fronts", "backs"):
            path = folder / f"{deck}-{side}.pdf"
            document = pdfium.PdfDocument(str(path))
            try:
                assert len(document) == copies
                with pikepdf.open(path) as pdf:
                    trims = [box_mm(p, "/TrimBox") for p in pdf.pages]
                for page, (tx0, ty0, tx1, ty1) in zip(document, trims):
                    text = page.get_textpage()
                    assert text.count_chars(), "every page has text to measure"
                    for index in range(text.count_chars()):
                        if not text.get_text_range(index, 1).strip():
                            continue
                        x0, y0, x1, y1 = (v / MM for v in text.get_charbox(index))
                        assert min(x0 - tx0, y0 - ty0, tx1 - x1, ty1 - y1) >= 4 - 0.01
            finally:
                document.close()


def test_shop_booklet_is_single_pages_in_reading_order_with_bleed_and_trimbox(built):
    path = shop(built, "eu-3mm") / "booklet.pdf"
    with pikepdf.open(path) as pdf:
        pages = list(pdf.pages)
        assert pages and len(pages) % 4 == 0
        for page in pages:
            assert "/TrimBox" in page.obj
            tx0, ty0, tx1, ty1 = box_mm(page, "/TrimBox")
            mx0, my0, mx1, my1 = box_mm(page, "/MediaBox")
            assert (tx1 - tx0, ty1 - ty0) == pytest.approx((148, 210), abs=0.05)     # A5, one page a page
            assert (tx0 - mx0, ty0 - my0, mx1 - tx1, my1 - ty1) == pytest.approx((3, 3, 3, 3), abs=0.05)
    document = pdfium.PdfDocument(str(path))
    try:
        first = document[0].get_textpage().get_text_range()
    finally:
        document.close()
    assert "Sample Game" in first                   # the cover comes first


# ---- validation and data-driven colour -------------------------------------------------------------------

def all_cards(project: Path) -> list[str]:
    return [card_id for cards_of_deck in cards_in(project).values() for card_id, _ in cards_of_deck]


def test_text_too_close_to_the_trim_is_an_error_naming_card_and_field(tmp_path):
    project = shop_ready_sample(tmp_path)
    # the rule text right-aligned to 3.6 mm from the right trim
    rule_text = 'field: text, box: [6, 6, 51, 20], font: regular, size: 10, min_size: 7, colour: "{ink}", align: center}'
    replace_in(project / "components" / GAME / "layouts.yaml", rule_text,
               rule_text.replace("51, 20]", "53.4, 20]").replace("center}", "right}"))
    # eu-3mm's cards alone (its booklet and components, which the check is not about, left out)
    eu = (ROOT / "templates" / "profiles" / "eu-3mm.yaml").read_text(encoding="utf-8")
    (project / "templates" / "profiles").mkdir(parents=True)
    (project / "templates" / "profiles" / "eu-cards.yaml").write_text(eu.split("\n# Boards, tokens")[0] + "\n",
                                                                       encoding="utf-8")
    out = tmp_path / "out"
    result = build_shop(out, project, "eu-cards")
    assert result.exit_code == 1
    # Every card has that text; a face's problems name the card's line.
    cards = project / "components" / GAME / "cards.yaml"
    every = all_cards(project)
    assert len(every) == 3
    assert result.stderr.splitlines() == [
        f"components/{GAME}/cards.yaml:{line_of(cards, f'  {card_id}:')}: cards.{card_id}.text: "
        f"[eu-cards {GAME} {EDITION} {LOCALE}] text is 3.60 mm from the trim; this shop needs 4 mm (safe zone)"
        for card_id in every] + [f"{len(every)} problem(s) found."]
    assert not out.exists()


def test_a_card_of_a_size_the_profile_does_not_take_is_an_error_naming_card_size_and_profile(tmp_path):
    """The sample as it is: its coins are mini cards, which a profile for minis takes; its heroes
    are poker cards, which it does not."""
    project = tmp_path / "sample"
    shutil.copytree(SAMPLE, project)
    (project / "templates" / "profiles").mkdir(parents=True)
    (project / "templates" / "profiles" / "minis.yaml").write_text(
        "name: Mini cards only\ncards:\n  sizes:\n    mini: {trim_mm: [44, 63]}\n  bleed_mm: 2\n  safe_mm: 2\n"
        "  format: pdf\n  colour: {space: rgb}\n  files:\n    - {name: '{deck}.pdf', per: deck, sides: [front]}\n")
    out = tmp_path / "out"
    result = build_shop(out, project, "minis")
    assert result.exit_code == 1 and not result.traceback
    cards = project / "components" / GAME / "cards.yaml"
    heroes = cards_in(project)["heroes"]
    w, h = face_size(project)
    # every hero's face, and the deck's back at the first card that has it
    faces = [(card_id, f"cards.{card_id}") for card_id, _ in heroes]
    faces.insert(1, (heroes[0][0], f"cards.{heroes[0][0]}.back"))
    assert result.stderr.splitlines() == [
        f"components/{GAME}/cards.yaml:{line_of(cards, f'  {card_id}:')}: {key}: [minis {GAME} {EDITION} {LOCALE}] "
        f"profile minis takes no {w:g} x {h:g} mm card face (it takes mini 44 x 63 mm faces)"
        for card_id, key in faces] + [f"{len(faces)} problem(s) found."]
    assert not out.exists()


def test_rich_black_per_profile_and_ink_limit_on_dark_colours(tmp_path):
    project = shop_ready_sample(tmp_path)
    layouts = project / "components" / GAME / "layouts.yaml"
    replace_in(layouts, 'fill: "#1E2233", bleed: true', 'fill: "#000000", bleed: true')        # the heroes' back
    replace_in(project / "components" / GAME / "cards.yaml", 'colour: "#3A61C4"', 'colour: "#000040"')   # a deep blue
    # the ogre's dark grey text (#1E1E1E) on its light face
    assert 'ink: "#1E1E1E"' in (project / "components" / GAME / "cards.yaml").read_text(encoding="utf-8")
    from generator.core.colour import Palette
    for profile, rich, limit, press in (("drivethrucards", [0.6, 0.4, 0.4, 1.0], 240, "CGATS TR 003"),
                                        ("eu-3mm", [0.4, 0.3, 0.3, 1.0], 300, "FOGRA39")):
        fills = []
        pdfs = [data for path, data in shop_card_files(project, profile) if path.endswith(".pdf")]
        assert pdfs, profile
        for data in pdfs:
            with pikepdf.open(io.BytesIO(data)) as pdf:
                fills += [values for op, values in operators(pdf) if op == "k"]
        assert rich in fills, f"{profile}: large black areas use the profile's rich black"
        text_k = Palette("cmyk", limit, None, press).cmyk("#1E1E1E")
        assert text_k[:3] == (0, 0, 0) and text_k[3] > 0.85
        assert list(text_k) in fills, "dark grey text (#1E1E1E) stays on the black plate alone"
        assert max(sum(v) * 100 for v in fills) <= limit + 1e-6


def test_a_new_shop_is_data_only(tmp_path):
    """A profile the code has never seen: one RGB PDF per card, fronts then backs."""
    project = shop_ready_sample(tmp_path)
    (project / "templates" / "profiles").mkdir(parents=True)
    (project / "templates" / "profiles" / "proofs.yaml").write_text(
        "name: Proof cards\ncards:\n  sizes:\n    poker: {trim_mm: [63, 88]}\n  bleed_mm: 2\n  safe_mm: 2\n"
        "  format: pdf\n  colour: {space: rgb}\n"
        "  files:\n    - {name: '{game}-{card}.pdf', per: card, sides: [front, back]}\n")
    out = tmp_path / "out"
    result = build_shop(out, project, "proofs")
    assert result.exit_code == 0, result.output
    files = sorted(shop(out, "proofs").glob("*.pdf"))
    assert [f.name for f in files] == sorted(f"{GAME}-{card_id}.pdf" for card_id in all_cards(project))
    for path in files:
        with pikepdf.open(path) as pdf:
            assert len(pdf.pages) == 2
            assert box_mm(pdf.pages[0], "/MediaBox")[2:] == pytest.approx((67, 92), abs=0.01)


def test_draft_locales_do_not_go_to_a_shop(tmp_path):
    project = tmp_path / "sample"
    shutil.copytree(SAMPLE, project)
    replace_in(project / "components" / GAME / "game.yaml", "  en: released\n", "  en: draft\n")
    result = pnp("build", "--game", GAME, "--locale", "en", "--profile", "tgc", "--out", "/nonexistent/never",
                 project=project)
    assert result.exit_code == 2
    assert "released locales only" in result.output


def test_home_options_are_refused_for_shop_files():
    result = pnp("build", "--game", GAME, "--profile", "tgc", "--duplex", "gutterfold", "--out", "/nonexistent/never",
                 project=SAMPLE)
    assert result.exit_code == 2 and "for home kits" in result.output


# ---- manifest and reproducibility ----------------------------------------------------------------------------

def test_manifest_lists_every_shop_file_with_kind_and_profile(built):
    manifest = json.loads((built / "manifest.json").read_text())["files"]
    on_disk = {str(p.relative_to(built)) for p in built.rglob("*") if p.is_file() and p.name != "manifest.json"
               and ".cache" not in p.relative_to(built).parts}
    assert {e["path"] for e in manifest} == on_disk
    kinds = {(e["profile"], e["kind"]) for e in manifest}
    assert kinds == {("tgc", "shop-card-png"), ("mpc", "shop-card-png"),
                     ("drivethrucards", "shop-cards"), ("eu-3mm", "shop-cards"), ("eu-3mm", "shop-booklet"),
                     ("eu-3mm", "shop-component"), ("eu-3mm", "shop-note"), ("large-format-3mm", "shop-component")}


def test_shop_files_are_byte_identical_between_builds(tmp_path):
    """Two builds made from nothing (no cache) write the same bytes."""
    project = shop_ready_sample(tmp_path)
    digests = []
    for run in ("one", "two"):
        result = build_shop(tmp_path / run, project, "drivethrucards", "tgc", no_cache=True)
        assert result.exit_code == 0, result.output
        digests.append({str(p.relative_to(tmp_path / run)): hashlib.sha256(p.read_bytes()).hexdigest()
                        for p in (tmp_path / run).rglob("*")
                        if p.is_file() and ".cache" not in p.relative_to(tmp_path / run).parts})
    assert digests[0] == digests[1]


def test_every_profile_separates_for_a_shipped_press_profile_with_its_licence():
    from generator.core.icc import FOLDER, PRESSES
    licence = (FOLDER / "LICENSE.md").read_text(encoding="utf-8")
    assert "zlib/libpng License" in licence
    for press in PRESSES.values():
        profile = ImageCms.getOpenProfile(str(press.path)).profile
        assert (profile.xcolor_space, profile.device_class, profile.connection_space) == ("CMYK", "prtr", "Lab ")
        assert press.name in press.description and press.file in licence and press.data.split()[0] in licence
    wanted = {"eu-3mm": "FOGRA39", "drivethrucards": "CGATS TR 003"}
    for name, data in ((p["name"], p) for p in json.loads(pnp("profiles", "--json").output)):
        if name in wanted:
            assert data["cards"]["characterisation"] == wanted[name]
