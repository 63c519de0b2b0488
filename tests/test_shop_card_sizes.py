"""Card sizes per print shop: `pnp profiles` lists each shop's sizes with its trim, pixels and
bleed; a tarot deck (the shop-ready sample with its poker faces made tarot) makes files at The
Game Crafter's, MakePlayingCards' and the EU printers' tarot sizes; a size a shop does not print
stops the build with an error at each card naming the sizes the shop takes; the checks a
profile's sizes get (a trim a hair inside the face, a size's own bleed, `sizes: any`)."""
from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from conftest import pnp, replace_in, shop_card_files, shop_ready_sample

GAME = "sample-game"
MM = 72 / 25.4
HERO_BLUE = (0x3A, 0x61, 0xC4)      # the knight's colour: the face's background, run on to the edge


@pytest.fixture(scope="module")
def tarot_project(tmp_path_factory) -> Path:
    """The shop-ready sample with its poker faces and backs made tarot (70 x 120 mm)."""
    project = shop_ready_sample(tmp_path_factory.mktemp("tarot"))
    layouts = project / "components" / GAME / "layouts.yaml"
    text = layouts.read_text(encoding="utf-8")
    assert text.count("size_mm: [63, 88]") == 3         # the heroes' face and back, the villains' back
    layouts.write_text(text.replace("size_mm: [63, 88]", "size_mm: [70, 120]")
                       .replace("box: [0, 0, 63, 88]", "box: [0, 0, 70, 120]"), encoding="utf-8")
    return project


def box_mm(page, key) -> tuple[float, ...]:
    return tuple(float(v) / MM for v in page.obj[key])


def profiles_json() -> dict:
    result = pnp("profiles", "--json")
    assert result.exit_code == 0, result.output
    return {p["name"]: p for p in json.loads(result.output)}


def test_profiles_list_each_shops_card_sizes():
    profiles = profiles_json()
    tgc, mpc = profiles["tgc"]["cards"]["sizes"], profiles["mpc"]["cards"]["sizes"]
    assert set(tgc) == {"poker", "bridge", "mini", "tarot", "square"}
    assert set(mpc) == {"poker", "bridge", "tarot"}
    # The Game Crafter's TarotDeck, 2.75 x 4.75 in at 900 x 1500 px; MakePlayingCards' 897 x 1497 px
    assert tgc["tarot"] == {"face_mm": [70, 120], "trim_mm": [69.85, 120.65], "pixels": [900, 1500]}
    assert mpc["tarot"]["pixels"] == [897, 1497]
    assert tgc["square"]["bleed_mm"] == 3.1 and "bleed_mm" not in tgc["tarot"]
    # every card size at its own face on the EU printers
    eu = profiles["eu-3mm"]["cards"]
    assert eu["any_size"] and all(s["trim_mm"] == s["face_mm"] for s in eu["sizes"].values())
    assert set(eu["sizes"]) == {"poker", "bridge", "mini", "tarot", "square"}
    table = pnp("profiles").output
    tgc_block = table[table.index("The Game Crafter"):]
    assert "tarot   70 x 120 mm faces, cut at 69.85 x 120.65 mm, 900 x 1500 px" in tgc_block
    assert "square  70 x 70 mm faces, 900 x 900 px, bleed 3.1 mm" in tgc_block
    assert "tarot   70 x 120 mm faces, cut at 69.85 x 120.65 mm, 897 x 1497 px" in table[table.index("MakePlayingCards"):]


@pytest.mark.parametrize("profile, pixels", [("tgc", (900, 1500)), ("mpc", (897, 1497))])
def test_a_tarot_deck_makes_the_shops_tarot_images(tarot_project, profile, pixels):
    files = [(path, data) for path, data in shop_card_files(tarot_project, profile) if path.endswith(".png")]
    assert files
    for path, data in files:
        with Image.open(io.BytesIO(data)) as image:
            assert image.size == pixels, path
            assert tuple(round(d) for d in image.info["dpi"]) == (300, 300), path
            if "knight" in path and path.endswith("-front.png"):
                rgb = image.convert("RGB")
                w, h = image.size
                # the face's background runs on to every edge of the shop's bleed
                for corner in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)):
                    assert rgb.getpixel(corner) == HERO_BLUE, (path, corner)


def test_a_tarot_deck_makes_eu_pdfs_cut_at_the_face_with_3_mm_bleed(tarot_project):
    pdfs = [(path, data) for path, data in shop_card_files(tarot_project, "eu-3mm") if path.endswith(".pdf")]
    assert pdfs
    for path, data in pdfs:
        with pikepdf.open(io.BytesIO(data)) as pdf:
            for page in pdf.pages:
                tx0, ty0, tx1, ty1 = box_mm(page, "/TrimBox")
                bx0, by0, bx1, by1 = box_mm(page, "/BleedBox")
                mx0, my0, mx1, my1 = box_mm(page, "/MediaBox")
                assert (tx1 - tx0, ty1 - ty0) == pytest.approx((70, 120), abs=0.01), path
                assert (mx1 - mx0, my1 - my0) == pytest.approx((76, 126), abs=0.01), path
                assert (tx0 - mx0, ty0 - my0, mx1 - tx1, my1 - ty1) == pytest.approx((3, 3, 3, 3), abs=0.01), path
                assert mx0 <= bx0 <= tx0 and tx1 <= bx1 <= mx1 and my0 <= by0 <= ty0 and ty1 <= by1 <= my1


def test_a_size_the_shop_does_not_print_stops_the_build_naming_the_sizes_it_takes(tarot_project, tmp_path):
    out = tmp_path / "out"
    result = pnp("build", "--profile", "drivethrucards", "--out", str(out), project=tarot_project)
    assert result.exit_code == 1 and not result.traceback, result.output
    lines = result.stderr.splitlines()
    assert lines[-1] == f"{len(lines) - 1} problem(s) found." and len(lines) > 1
    for line in lines[:-1]:
        assert re.fullmatch(rf"components/{GAME}/cards\.yaml:\d+: cards\.\w+(\.back)?: \[drivethrucards {GAME} "
                            r"standard en\] profile drivethrucards takes no 70 x 120 mm card face "
                            r"\(it takes poker 63 x 88 mm faces\)", line), line
    assert not out.exists()


def test_text_is_measured_from_a_trim_inside_the_face(tarot_project, tmp_path):
    """The Game Crafter cuts tarot 0.075 mm inside each long edge of a 70 mm face: text 3.2 mm from
    the face's edge is 3.125 mm from the cut, inside the shop's 1/8 in (3.175 mm)."""
    project = tmp_path / "sample"
    shutil.copytree(tarot_project, project)
    rule_text = 'field: text, box: [6, 6, 51, 20], font: regular, size: 10, min_size: 7, colour: "{ink}", align: center}'
    replace_in(project / "components" / GAME / "layouts.yaml", rule_text,
               rule_text.replace("[6, 6, 51, 20]", "[3.2, 6, 40, 20]").replace("center}", "left}"))
    result = pnp("build", "--profile", "tgc", "--out", str(tmp_path / "out"), project=project)
    assert result.exit_code == 1 and not result.traceback, result.output
    problems = [line for line in result.stderr.splitlines() if "safe zone" in line]
    assert problems and all("text is 3.12 mm from the trim; this shop needs 3.175 mm (safe zone)" in line
                            for line in problems), result.stderr


@pytest.mark.parametrize("sizes, format_lines, message", [
    # The Game Crafter's 70 mm square: 900 px leaves 3.1 mm a side, less than the profile's 1/8 in
    ("square: {trim_mm: [70, 70], pixels: [900, 900]}", "  format: png\n  dpi: 300\n",
     ("square:", *(f"cards.sizes.square.pixels.{axis}: 900 px at 300 dpi is 76.20 mm, less than the trim 70 mm "
                   "plus twice the 3.175 mm bleed" for axis in (0, 1)))),
    ("square: {trim_mm: [70, 70], pixels: [900, 900], bleed_mm: 3.1}", "  format: png\n  dpi: 300\n", None),
    # a tarot trim at 2.75 in is taken, 0.15 mm inside the face; 0.3 mm inside is cut into it
    ("tarot: {trim_mm: [69.85, 120.65], pixels: [900, 1500]}", "  format: png\n  dpi: 300\n", None),
    ("tarot: {trim_mm: [69.7, 120.65], pixels: [900, 1500]}", "  format: png\n  dpi: 300\n",
     ("tarot:", "cards.sizes.tarot.trim_mm: tarot faces are 70 x 120 mm: a shop's trim for them is that, up to "
                "0.2 mm smaller or up to 1.5 mm larger (faces are never scaled), not 69.7 x 120.65 mm")),
    ("any", "  format: pdf\n", None),
    ("any", "  format: png\n  dpi: 300\n",
     ("sizes:", "cards.sizes: a png profile lists its card sizes with their pixels, not 'any'")),
])
def test_profile_size_checks(tmp_path, sizes, format_lines, message):
    project = tmp_path / "project"
    (project / "templates" / "profiles").mkdir(parents=True)
    (project / "components").mkdir()
    path = project / "templates" / "profiles" / "sizes.yaml"
    written = sizes if sizes == "any" else f"\n    {sizes}"
    name = "{deck}/{card}.png" if "png" in format_lines else "{deck}.pdf"
    per = "card" if "png" in format_lines else "deck"
    path.write_text(f"name: Sizes\ncards:\n  sizes: {written}\n  bleed_mm: 3.175\n  safe_mm: 3\n{format_lines}"
                    f"  colour: {{space: rgb}}\n  files:\n    - {{name: '{name}', per: {per}, sides: [front]}}\n",
                    encoding="utf-8")
    result = pnp("profiles", project=project)
    if message is None:
        assert result.exit_code == 0, result.output
        return
    assert result.exit_code == 1 and not result.traceback, result.output
    needle, *problems = message
    line = next(number for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in text)
    assert result.stderr.splitlines() == ([f"templates/profiles/sizes.yaml:{line}: {problem}" for problem in problems]
                                          + [f"{len(problems)} problem(s) found."])
