"""Press colour in the CMYK files `pnp build --profile eu-3mm` writes: design colours are
littleCMS separations with the shipped FOGRA39 profile, the OutputIntent names FOGRA39 and
embeds that profile, every colour is within the ink limit and black text is on K alone.
The cards of the shop-ready sample game are made, its colours set to the ones checked."""
from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import numpy
import pikepdf
import pytest
from PIL import Image, ImageCms

from conftest import SAMPLE, content_streams, pnp, replace_in, shop_ready_sample


ROOT = Path(__file__).resolve().parent.parent
GAME, EDITION, LOCALE = "sample-game", "standard", "en"
PROFILES = ROOT / "generator" / "core" / "icc"
FOGRA39 = PROFILES / "pnp-FOGRA39-300.icc"
TR003 = PROFILES / "pnp-CGATS-TR003-240.icc"
# the red and orange of the two heroes, their back's navy: filled in the layouts and data,
# each separated through the press profile
REFERENCE = {"#D7263D": "red", "#2D3142": "navy", "#AF630A": "orange"}
DARK_GREY_TEXT = "#1E1E1E"      # the body text: a neutral, so K alone
LIGHT_GREY_TEXT = "#BFC0C0"     # the title on a back: a step off neutral, so K alone too


def littlecms(profile: Path, value: str, intent=ImageCms.Intent.RELATIVE_COLORIMETRIC) -> tuple[float, ...]:
    """What littleCMS makes of an sRGB colour with this profile, 0..1 per channel."""
    transform = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(str(profile)),
                                        "RGB", "CMYK", renderingIntent=intent,
                                        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    rgb = tuple(int(value[i:i + 2], 16) for i in (1, 3, 5))
    return tuple(v / 255 for v in transform.apply(Image.new("RGB", (1, 1), rgb)).getpixel((0, 0)))


def lightness(cmyk, profile: Path = FOGRA39) -> float:
    """L* (relative to the paper) that the press prints a CMYK colour at, by the profile."""
    transform = ImageCms.buildTransform(ImageCms.getOpenProfile(str(profile)), ImageCms.createProfile("LAB", 5000),
                                        "CMYK", "LAB", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
    pixel = Image.new("CMYK", (1, 1), tuple(round(v * 255) for v in cmyk))
    return transform.apply(pixel).getpixel((0, 0))[0] * 100 / 255


def painted(pdf) -> list[tuple[str, tuple[float, ...], bool]]:
    """(operator, CMYK, inside a text object) for every k/K, pages and forms, and
    ('text', current fill, True) for every string shown."""
    found = []
    for owner, _ in content_streams(pdf):
        fill, stack, in_text = None, [], False
        for operands, operator in pikepdf.parse_content_stream(owner):
            op = str(operator)
            if op == "q":
                stack.append(fill)
            elif op == "Q":
                fill = stack.pop() if stack else fill
            elif op == "BT":
                in_text = True
            elif op == "ET":
                in_text = False
            elif op in ("k", "K"):
                values = tuple(float(v) for v in operands)
                found.append((op, values, in_text))
                if op == "k":
                    fill = values
            elif op in ("Tj", "TJ", "'", '"'):
                found.append(("text", fill, True))
    return found


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> list[Path]:
    """The profile's card files, made and preflighted as `pnp build --profile eu-3mm` makes them
    (generator.app.shop.shop_files), written to a folder; its booklet and components, which
    these tests do not read, left out."""
    from dataclasses import replace

    from generator.app.loading import load_games
    from generator.app.shop import shop_files
    from generator.i18n.texts import Texts
    from generator.layout.faces import Localised
    from generator.layout.kit import Kit
    from generator.load.profiles import load_profile
    from generator.load.project import Project
    out = tmp_path_factory.mktemp("press")
    root = shop_ready_sample(tmp_path_factory.mktemp("press-sample"))
    game_folder = root / "components" / GAME
    replace_in(game_folder / "cards.yaml", 'colour: "#3A61C4"', 'colour: "#D7263D"')        # knight red
    replace_in(game_folder / "cards.yaml", 'colour: "#087F2A"', 'colour: "#AF630A"')        # archer orange
    replace_in(game_folder / "layouts.yaml", 'fill: "#1E2233"', 'fill: "#2D3142"')          # hero back navy
    replace_in(game_folder / "layouts.yaml", 'field: game_title, box: [6, 38, 51, 12], font: bold, size: 14, '
               'min_size: 8, colour: "#FFFFFF"', 'field: game_title, box: [6, 38, 51, 12], font: bold, size: 14, '
               f'min_size: 8, colour: "{LIGHT_GREY_TEXT}"')
    assert DARK_GREY_TEXT in (game_folder / "cards.yaml").read_text(encoding="utf-8")      # the ogre's text
    project = Project(root)
    game = load_games(project, GAME, texts=False)[0]
    kit = Kit(project, game, Localised(game, EDITION, Texts.load(game, LOCALE)), "")
    made, problems = shop_files(kit, replace(load_profile(project, "eu-3mm"), booklet=None))
    assert not problems, problems
    for artifact in made:
        (out / artifact.path).parent.mkdir(parents=True, exist_ok=True)
        (out / artifact.path).write_bytes(artifact.data)
    paths = sorted((out / GAME / EDITION / LOCALE / "shop" / "eu-3mm").glob("*.pdf"))
    assert paths
    return paths


@pytest.fixture(scope="module")
def colours(files) -> list[tuple[str, tuple[float, ...], bool]]:
    found = []
    for path in files:
        with pikepdf.open(path) as pdf:
            found += painted(pdf)
    return found


@pytest.mark.parametrize("value", REFERENCE)
def test_design_colours_are_littlecms_separations_with_the_shipped_profile(colours, value):
    expected = littlecms(FOGRA39, value)
    used = {values for op, values, _ in colours if op in ("k", "K")}
    close = [v for v in used if all(abs(a - b) <= 0.02 for a, b in zip(v, expected))]
    nearest = min(used, key=lambda v: max(abs(a - b) for a, b in zip(v, expected)))
    assert close, (f"{REFERENCE[value]} {value}: littleCMS gives "
                   f"{[round(v * 100, 1) for v in expected]}, nearest in the files {[round(v * 100, 1) for v in nearest]}")


def test_the_red_and_navy_are_press_separations_not_the_naive_formula(colours):
    """The issue's figures: the red with little K and heavy M and Y, the navy a four-colour
    dark rather than K with a little C and M."""
    used = {values for op, values, _ in colours if op in ("k", "K")}
    red = littlecms(FOGRA39, "#D7263D")
    navy = littlecms(FOGRA39, "#2D3142")
    assert red[0] < 0.1 and red[1] > 0.85 and red[2] > 0.55 and red[3] < 0.12, red
    assert navy[0] > 0.6 and navy[1] > 0.5 and navy[2] > 0.25 and navy[3] < 0.7, navy
    naive = {"red": (0.0, 0.823, 0.716, 0.156), "navy": (0.318, 0.254, 0.0, 0.741)}
    for name, old in naive.items():
        assert not [v for v in used if all(abs(a - b) <= 0.02 for a, b in zip(v, old))], name


def test_output_intent_names_fogra39_and_embeds_the_shipped_profile(files):
    shipped = FOGRA39.read_bytes()
    for path in files:
        with pikepdf.open(path) as pdf:
            (intent,) = pdf.Root.OutputIntents
            assert str(intent.S) == "/GTS_PDFX"
            assert str(intent.OutputConditionIdentifier) == "FOGRA39"
            assert str(intent.RegistryName) == "http://www.color.org"
            assert "FOGRA39" in str(intent.Info)
            assert intent.DestOutputProfile.read_bytes() == shipped
            embedded = ImageCms.getOpenProfile(io.BytesIO(intent.DestOutputProfile.read_bytes()))
            assert (embedded.profile.xcolor_space, embedded.profile.device_class) == ("CMYK", "prtr")


def test_total_ink_of_every_colour_is_within_the_profile_limit(colours):
    inks = [sum(values) * 100 for op, values, _ in colours if op in ("k", "K")]
    assert inks and max(inks) <= 300 + 1e-6


def test_black_text_is_on_the_black_plate_alone(colours):
    text = [fill for op, fill, _ in colours if op == "text"]
    assert text and None not in text
    dark = [fill for fill in text if fill[3] >= 0.5 and abs(fill[0] - fill[1]) < 0.05]
    assert dark, "the body text is dark grey"
    assert all(fill[:3] == (0.0, 0.0, 0.0) for fill in dark), sorted(set(dark))
    # as dark as the grey reads: its sRGB L* scaled between the paper and solid K (black-point
    # compensation on the K plate), measured through the profile, within 1.5
    linear = (int(DARK_GREY_TEXT[1:3], 16) / 255 + 0.055) / 1.055
    grey_l = 116 * (linear ** 2.4) ** (1 / 3) - 16
    solid_k = lightness((0, 0, 0, 1))
    wanted = solid_k + grey_l * (100 - solid_k) / 100
    assert max(abs(lightness(fill) - wanted) for fill in set(dark)) <= 1.5, (wanted, sorted(set(dark)))
    # the light grey deck name (#BFC0C0, one step off neutral) is K alone as light as it reads
    mean = sum(int(LIGHT_GREY_TEXT[i:i + 2], 16) for i in (1, 3, 5)) / 3 / 255
    grey_l = 116 * ((((mean + 0.055) / 1.055) ** 2.4) ** (1 / 3)) - 16
    wanted = solid_k + grey_l * (100 - solid_k) / 100
    light = {fill for fill in text if fill[:3] == (0.0, 0.0, 0.0) and abs(lightness(fill) - wanted) <= 1.5}
    assert light, (wanted, sorted(set(text)))
    assert not [fill for fill in text if fill != (0.0, 0.0, 0.0, fill[3]) and max(fill[:3]) - min(fill[:3]) < 0.05
                and fill[3] > 0.05], "no grey text is left on four plates"


# ---- the palette and the shipped profiles, without a build -----------------------------------------

@pytest.mark.parametrize("value", ["#D7263D", "#2D3142", "#C8C8C8", "#4D4D4D"])
@pytest.mark.parametrize("press, profile, limit", [("FOGRA39", FOGRA39, 300), ("CGATS TR 003", TR003, 240)])
def test_palette_areas_match_littlecms_for_each_press(value, press, profile, limit):
    from generator.core.colour import Palette
    palette = Palette("cmyk", limit, (40, 30, 30, 100), press)
    got = palette.cmyk(value, area=True)
    assert all(abs(a - b) <= 0.02 for a, b in zip(got, littlecms(profile, value))), (value, got)
    assert sum(got) * 100 <= limit + 1e-6


def test_palette_rich_black_for_areas_and_k_only_for_text():
    from generator.core.colour import Palette
    palette = Palette("cmyk", 300, (40, 30, 30, 100), "FOGRA39")
    assert palette.cmyk("#000000", area=True) == (0.4, 0.3, 0.3, 1.0)
    assert palette.cmyk("#000000") == (0.0, 0.0, 0.0, 1.0)
    light, dark = palette.cmyk("#C8C8C8"), palette.cmyk("#4D4D4D")
    assert light[:3] == dark[:3] == (0.0, 0.0, 0.0) and 0 < light[3] < dark[3] < 1
    # a grey picked by eye, a step or three off neutral, is still K alone, as dark as its mean;
    # a tinted grey is a colour and is separated as one
    assert palette.cmyk("#4D4E4F") == palette.cmyk("#4E4E4E")
    assert palette.cmyk("#4D4D51")[:3] != (0.0, 0.0, 0.0)
    assert palette.cmyk("#FFFFFF") == (0.0, 0.0, 0.0, 0.0)


@pytest.mark.parametrize("profile, limit", [(FOGRA39, 300), (TR003, 240)])
def test_shipped_profiles_separate_within_their_ink_limit(profile, limit):
    """Every sRGB colour on a 9-step grid separates within the profile's total ink (a point or
    so over where the B2A table interpolates; the palette clips that)."""
    steps = [round(i * 255 / 8) for i in range(9)]
    grid = Image.new("RGB", (9 ** 3, 1))
    grid.putdata([(r, g, b) for r in steps for g in steps for b in steps])
    for intent in (ImageCms.Intent.RELATIVE_COLORIMETRIC, ImageCms.Intent.PERCEPTUAL):
        transform = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(str(profile)),
                                            "RGB", "CMYK", renderingIntent=intent)
        inks = numpy.asarray(transform.apply(grid), dtype=float).sum(axis=-1) / 255 * 100
        assert inks.max() <= limit + 3


def test_a_cmyk_profile_must_name_a_shipped_characterisation(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(SAMPLE, project)
    (project / "templates" / "profiles").mkdir(parents=True)
    text = (ROOT / "templates" / "profiles" / "eu-3mm.yaml").read_text(encoding="utf-8")
    (project / "templates" / "profiles" / "eu-3mm.yaml").write_text(
        text.replace("characterisation: FOGRA39", "characterisation: FOGRA51"), encoding="utf-8")
    result = pnp("profiles", project=project)
    assert result.exit_code != 0
    assert "cards.colour.characterisation: no press profile for 'FOGRA51' in generator/core/icc" in result.stderr


@pytest.mark.parametrize("press, profile, limit", [("FOGRA39", FOGRA39, 300), ("CGATS TR 003", TR003, 240)])
def test_pictures_are_separated_perceptually_within_the_ink_limit(press, profile, limit):
    from generator.core.colour import Palette
    steps = [round(i * 255 / 8) for i in range(9)]
    picture = Image.new("RGB", (9 ** 3, 1))
    picture.putdata([(r, g, b) for r in steps for g in steps for b in steps])
    got = Palette("cmyk", limit, None, press).picture(picture.convert("RGBA"))
    assert got.mode == "CMYK" and got.size == picture.size
    transform = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(str(profile)),
                                        "RGB", "CMYK", renderingIntent=ImageCms.Intent.PERCEPTUAL)
    want = numpy.asarray(transform.apply(picture), dtype=float)
    pixels = numpy.asarray(got, dtype=float)
    assert pixels.sum(axis=-1).max() <= limit / 100 * 255
    inside = want.sum(axis=-1) <= limit / 100 * 255
    assert inside.mean() > 0.9 and numpy.abs(pixels[inside] - want[inside]).max() == 0
    assert (pixels[..., 3] == want[..., 3]).all(), "the ink limit takes C, M and Y down and keeps K"


SPOT_PX = 160


def test_a_raster_picture_on_a_card_goes_to_the_press_in_its_cmyk_with_its_transparency(tmp_path):
    """A PNG with transparency on a face: in the eu-3mm files it is a DeviceCMYK image whose
    pixels are the perceptual separation of the picture's, with the picture's alpha as its soft
    mask, and the files pass their preflight; the home sheet keeps the sRGB picture. On the
    shop-ready sample game's hero cards, the home sheet its cards alone."""
    project = shop_ready_sample(tmp_path)
    game = project / "components" / "sample-game"
    y, x = numpy.mgrid[0:SPOT_PX, 0:SPOT_PX]           # 160 px over 12 mm: 339 ppi
    inside = (x - 80) ** 2 + (y - 80) ** 2 < 70 ** 2
    rgba = numpy.stack([40 + x, 200 - y, numpy.full_like(x, 90), numpy.where(x < 100, 255, 128)], axis=-1)
    picture = Image.fromarray((rgba * inside[..., None]).astype(numpy.uint8), "RGBA")
    picture.save(game / "art" / "spot.png")
    anchor = "      - {type: image, file: art/sun.svg, box: [11.5, 34, 40, 40]}\n"
    replace_in(game / "layouts.yaml", anchor, anchor + "      - {type: image, file: art/spot.png, box: [45, 62, 12, 12]}\n")
    out = tmp_path / "out"
    result = pnp("build", "--paper", "a4", "--profile", "eu-3mm", "--out", str(out), project=project)
    assert result.exit_code == 0, result.output      # the build's preflight passed too
    fronts = out / "sample-game" / "standard" / "en" / "shop" / "eu-3mm" / "heroes-fronts.pdf"
    code = pnp("preflight", "--profile", "eu-3mm", str(fronts.parent), project=project).exit_code
    assert code == 0
    transform = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(str(FOGRA39)),
                                        "RGB", "CMYK", renderingIntent=ImageCms.Intent.PERCEPTUAL)
    want = numpy.asarray(transform.apply(picture.convert("RGB")), dtype=float)
    alpha = numpy.asarray(picture.getchannel("A"), dtype=float)
    with pikepdf.open(fronts) as pdf:
        images = [obj for obj in pdf.objects if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image"
                  and obj.get("/Width") == SPOT_PX and obj.get("/ColorSpace") != "/DeviceGray"]   # not the masks
        assert images, "the picture is in the fronts file"
        for image in images:
            assert image.ColorSpace == "/DeviceCMYK"
            pixels = numpy.frombuffer(image.read_bytes(), numpy.uint8).reshape(SPOT_PX, SPOT_PX, 4).astype(float)
            inside = want.sum(axis=-1) <= 300 / 100 * 255
            assert inside.mean() > 0.5 and numpy.abs(pixels[inside] - want[inside]).max() <= 0.02 * 255
            mask = numpy.frombuffer(image.SMask.read_bytes(), numpy.uint8).reshape(SPOT_PX, SPOT_PX)
            assert (mask == alpha).all()
        # the preflight measures the ink of a picture with a soft mask: at 400 % it fails
        images[0].write(bytes([255]) * (SPOT_PX * SPOT_PX * 4))
        pdf.save(tmp_path / "over-ink-fronts.pdf")
    report = pnp("preflight", "--profile", "eu-3mm", "--json", str(tmp_path / "over-ink-fronts.pdf"), project=project)
    (checked,) = json.loads(report.output)["files"]
    ink = next(c for c in checked["checks"] if c["criterion"] == "ink")
    assert ink["result"] == "fail" and "400.0 %" in ink["detail"] and "CMYK image" in ink["detail"], ink
    result = pnp("build", "--paper", "a4", "--kind", "cards", "--out", str(out), project=project)
    assert result.exit_code == 0, result.output
    home = out / "sample-game" / "standard" / "en" / "sample-game-standard-en-cards-a4.pdf"
    with pikepdf.open(home) as pdf:
        spaces = {str(obj.ColorSpace) for obj in pdf.objects if isinstance(obj, pikepdf.Stream)
                  and obj.get("/Subtype") == "/Image" and obj.get("/Width") == SPOT_PX
                  and obj.get("/ColorSpace") != "/DeviceGray"}
    assert spaces == {"/DeviceRGB"}
