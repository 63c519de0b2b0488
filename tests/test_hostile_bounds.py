"""Hostile inputs, each through the CLI as its own bounded process: a matrix deck of millions of
cards, profile and sheet numbers that would make huge or unrenderable pages, PDFs whose forms
draw each other or whose streams inflate to gigabytes, a PNG that declares 900 million pixels,
truncated pictures, an SVG whose <use> expansion a library cuts short, and scenario values of the
wrong type. Each ends in exit 1 with located messages (`file:line: key: message`, or for
preflight `file: check: message`), every problem in one run, no traceback, output/ unchanged,
within 60 s and 4 GiB of address space (more than the test's own process holds, from which it
is forked)."""
from __future__ import annotations

import hashlib
import io
import shutil
import struct
import zlib
from pathlib import Path

import pikepdf
import pytest

from conftest import ROOT, SAMPLE, Bounded, bounded_pnp, line_of, replace_in


SECONDS = 60
MEMORY = 4 * 2**30
GAME = "sample-game"
# Builds keep their cache in the project's output/, as a process of their own would: a refused
# build writes nothing there.
pytestmark = pytest.mark.own_cache


def run(project: Path, *args: str, preload: str = "") -> Bounded:
    """`pnp -C project ARGS` as its own process, with a time limit and 4 GiB of address space;
    `preload`: a module imported before the CLI starts (what it sets for the process holds)."""
    return bounded_pnp(project, *args, memory=MEMORY, seconds=SECONDS, preload=(preload,) if preload else ())


def refused(result: Bounded) -> str:
    assert result.returncode == 1, (result.returncode, result.stdout[-3000:], result.stderr[-3000:], result.traceback)
    assert not result.traceback, result.traceback
    for stream in (result.stdout, result.stderr):
        assert "Traceback" not in stream, stream[-3000:]
    return result.stderr


def tree(folder: Path) -> dict:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else ""
            for p in sorted(folder.rglob("*"))}


@pytest.fixture
def sample_project(tmp_path) -> Path:
    """The neutral sample game to change, beside an output/ from an earlier build."""
    project = tmp_path / "project"
    shutil.copytree(SAMPLE, project)
    (project / "output").mkdir()
    (project / "output" / "earlier-kit.pdf").write_bytes(b"%PDF-1.7 a good kit from an earlier build\n")
    return project


def unchanged(project: Path, command, *args) -> str:
    """Run the command; it must refuse, and change nothing in the project's folder."""
    before = tree(project)
    err = refused(run(project, *command, *args))
    assert tree(project) == before
    return err


# ---- data: sizes counted before anything is made, every number bounded --------------------------

def axis(count: int) -> str:
    return "".join(f"        e{i}: {{value: {i}}}\n" for i in range(count))


def test_a_matrix_deck_of_864000_cards_is_refused_at_its_line_before_it_is_expanded(sample_project):
    cards = sample_project / "components" / GAME / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    matrix = "    matrix:\n      a:\n" + axis(60) + "      b:\n" + axis(60) + "      c:\n" + axis(60)
    text = text[:text.index("    matrix:\n")] + matrix + text[text.index("    extra:"):]
    text = text.replace("    extra:\n      thief: {name: Thief, text: Takes a coin., colour: \"#1E1E1E\", ink: \"#FFFFFF\"}\n", "")
    text = text.replace("backs: [coin-back, coin-back-red]", "backs: [coin-back, coin-back-red, coin-back, coin-back-red]")
    # and a second deck past the limit, its extra card counted, in the same run
    tiles = ("  tiles:\n    name: Tiles\n    layout: coin\n    back: coin-back\n    count: {standard: 1}\n"
             "    matrix:\n      a:\n" + axis(50) + "      b:\n" + axis(41) + "    extra:\n      joker: {name: J}\n")
    cards.write_text(text.replace("\ncards:\n", "\n" + tiles + "cards:\n", 1), encoding="utf-8")
    err = unchanged(sample_project, ["validate", GAME])
    assert (f"components/{GAME}/cards.yaml:{line_of(cards, 'matrix:')}: decks.coins.matrix: the deck makes 864,000 cards "
            f"(60 a x 60 b x 60 c, times 4 backs), more than the 2,000 a deck may have") in err
    assert (f"components/{GAME}/cards.yaml:{line_of(cards, 'matrix:', start='tiles:')}: decks.tiles.matrix: the deck makes "
            f"2,051 cards (50 a x 41 b + 1 extra), more than the 2,000 a deck may have") in err
    # its cards are not there to count: no noise about the rules' counts
    assert "rules need" not in err
    build = unchanged(sample_project, ["build", "--game", GAME, "--paper", "a4"])
    assert "decks.coins.matrix: the deck makes 864,000 cards" in build


def test_profile_numbers_that_would_make_huge_pages_are_refused(sample_project):
    profiles = sample_project / "templates" / "profiles"
    profiles.mkdir(parents=True)
    mpc = (ROOT / "templates" / "profiles" / "mpc.yaml").read_text(encoding="utf-8")
    huge = profiles / "huge.yaml"
    huge.write_text(mpc.replace("  bleed_mm: 3\n", "  bleed_mm: 30000\n").replace("  dpi: 300", "  dpi: 0.001")
                    .replace("pixels: [822, 1122]", "pixels: [822, 1122000000]"), encoding="utf-8")
    eu = (ROOT / "templates" / "profiles" / "eu-3mm.yaml").read_text(encoding="utf-8")
    wide = profiles / "wide.yaml"
    wide.write_text(eu.replace("max_mm: [432, 302]", "max_mm: [4320000, 302]").replace("marks_mm: 6", "marks_mm: 6000")
                    .replace("max_cards: 110", "max_cards: 1100000"), encoding="utf-8")
    for name, path, wrong in (
            ("huge", huge, [("bleed_mm: 30000", "cards.bleed_mm", "30000 is too large (maximum 20)"),
                            ("dpi: 0.001", "cards.dpi", "0.001 is too small (minimum 72)"),
                            ("1122000000", "cards.sizes.poker.pixels.1", "1122000000 is too large (maximum 20000)")]),
            ("wide", wide, [("4320000", "components.max_mm.0", "4320000 is too large (maximum 5000)"),
                            ("marks_mm: 6000", "components.marks_mm", "6000 is too large (maximum 50)"),
                            ("1100000", "cards.product.max_cards", "1100000 is too large (maximum 10000)")])):
        err = unchanged(sample_project, ["build", "--game", GAME, "--profile", name])
        for needle, key, message in wrong:
            assert f"templates/profiles/{name}.yaml:{line_of(path, needle)}: {key}: {message}" in err


def test_dashes_too_fine_to_render_are_refused_in_layouts_and_sheets(sample_project):
    layouts = sample_project / "components" / GAME / "layouts.yaml"
    replace_in(layouts, "stroke_width: 0.4, arrow: end}", "stroke_width: 0.4, arrow: end, dash_mm: [0.000001, 0.000001]}")
    sheets = sample_project / "templates" / "sheets"
    sheets.mkdir(parents=True)
    for name, old, new in (("poker-gutterfold", "dash_mm: [3, 2]", "dash_mm: [0.000001, 0.000001]"),
                           ("dice", "fold_dash_mm: [1.5, 1.2]", "fold_dash_mm: [0.01, 1.2]")):
        shutil.copy(ROOT / "templates" / "sheets" / f"{name}.yaml", sheets)
        replace_in(sheets / f"{name}.yaml", old, new)
    err = unchanged(sample_project, ["validate", GAME])
    line = line_of(layouts, "dash_mm")
    for index in (0, 1):
        assert f"components/{GAME}/layouts.yaml:{line}: faces.hero.elements.2.dash_mm.{index}: 1e-06 is too small (minimum 0.25)" in err
    gutterfold = line_of(sheets / "poker-gutterfold.yaml", "dash_mm")
    assert f"templates/sheets/poker-gutterfold.yaml:{gutterfold}: fold_line.dash_mm.0: 1e-06 is too small (minimum 0.25)" in err
    dice = line_of(sheets / "dice.yaml", "fold_dash_mm")
    assert f"templates/sheets/dice.yaml:{dice}: fold_dash_mm.0: 0.01 is too small (minimum 0.25)" in err


# ---- preflight: bounded on any file, "too complex" a failed check of that file ------------------

A4 = (595.28, 841.89)


def pdf_page(pdf: pikepdf.Pdf, content: bytes, size=A4, resources=None) -> pikepdf.Page:
    page = pdf.add_blank_page(page_size=size)
    page.obj.Contents = pdf.make_stream(content)
    if resources is not None:
        page.obj.Resources = resources
    return page


def saved(pdf: pikepdf.Pdf, path: Path) -> Path:
    pdf.save(path, object_stream_mode=pikepdf.ObjectStreamMode.generate, compress_streams=False,
             stream_decode_level=pikepdf.StreamDecodeLevel.none)
    return path


def forms_drawing_each_other(path: Path, forms: int = 8, inherited: bool = False) -> Path:
    """`forms` forms, each drawing every one of them: bounded only by a reader's depth limit,
    forms ** depth paths (8 ** 12 with a depth of 12). `inherited`: the forms have no resources
    of their own and name each other through the page's."""
    pdf = pikepdf.new()
    streams = [pdf.make_stream(b"".join(b"/F%d Do " % i for i in range(forms)) + b"0 0 1 rg 0 0 1 1 re f",
                               Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form, BBox=[0, 0, 10, 10])
               for _ in range(forms)]
    names = pdf.make_indirect(pikepdf.Dictionary({f"/F{i}": stream for i, stream in enumerate(streams)}))
    for stream in streams if not inherited else ():
        stream.Resources = pikepdf.Dictionary(XObject=names)
    pdf_page(pdf, b"/F0 Do", resources=pikepdf.Dictionary(XObject=names))
    return saved(pdf, path)


def zeros_deflated(size: int) -> bytes:
    """A zlib stream of `size` zero bytes (a multiple of 16 MiB), made without compressing them
    all: after a full flush every 16 MiB of zeros compresses to the same block, and the
    checksum of the whole is worked out alone (the Adler-32 of n zero bytes is n mod 65521 in
    its high half, 1 in its low half)."""
    chunk = bytes(2**24)
    packer = zlib.compressobj(9)
    head = packer.compress(chunk) + packer.flush(zlib.Z_FULL_FLUSH)
    middle = packer.compress(chunk) + packer.flush(zlib.Z_FULL_FLUSH)
    end = packer.flush()[:-4]                   # the last block, without the checksum of two chunks
    check = (size % 65521) << 16 | 1
    return head + middle * (size // len(chunk) - 1) + end + struct.pack(">I", check)


def test_the_zeros_stream_is_what_it_says():
    assert zlib.decompress(zeros_deflated(2**26)) == bytes(2**26)


def inflating_stream(path: Path, gib: float = 2, as_image: bool = False, hex_first: bool = False) -> Path:
    """A page whose content (or an image of it) is a Flate stream of a few MB that inflates to
    `gib` GiB of zeros; `hex_first`: written in hex digits too (ASCIIHexDecode, then Flate)."""
    raw = zeros_deflated(int(gib * 2**30))
    filters = [pikepdf.Name.ASCIIHexDecode, pikepdf.Name.FlateDecode] if hex_first else pikepdf.Name.FlateDecode
    raw = raw.hex().encode() + b">" if hex_first else raw
    pdf = pikepdf.new()
    if as_image:
        image = pdf.make_stream(raw, Filter=filters, Type=pikepdf.Name.XObject,
                                Subtype=pikepdf.Name.Image, Width=65536, Height=int(gib * 2**12),
                                ColorSpace=pikepdf.Name.DeviceCMYK, BitsPerComponent=8)
        pdf_page(pdf, b"q 100 0 0 100 0 0 cm /Im0 Do Q", resources=pikepdf.Dictionary(XObject={"/Im0": image}))
    else:
        page = pdf_page(pdf, b"")
        page.obj.Contents = pikepdf.Stream(pdf, raw)
        page.obj.Contents.Filter = filters
    return saved(pdf, path)


def png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_declaring(path: Path, width: int, height: int) -> Path:
    """A PNG of a few hundred bytes whose header declares width x height RGB pixels."""
    rows = zlib.compress(bytes(1 + 3 * min(width, 100)) * 2)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + png_chunk(b"IDAT", rows) + png_chunk(b"IEND", b""))
    return path


def rgb_a4_page(path: Path, colour: bytes = b"0 0 0") -> Path:
    """What Ghostscript makes of an RGB document: an A4 page painted with rg, no TrimBox."""
    pdf = pikepdf.new()
    pdf_page(pdf, colour + b" rg 0 0 595.28 841.89 re f")
    return saved(pdf, path)


def preflight(folder: Path, *args: str) -> Bounded:
    return run(folder, "preflight", *args)


def test_forms_that_draw_each_other_are_too_complex_to_check_and_the_run_goes_on(tmp_path):
    files = tmp_path / "files"
    files.mkdir()
    first = forms_drawing_each_other(files / "a-forms.pdf")
    second = forms_drawing_each_other(files / "b-forms.pdf", forms=40)
    third = forms_drawing_each_other(files / "c-forms.pdf", inherited=True)
    plain = rgb_a4_page(files / "d-plain.pdf")
    assert first.stat().st_size < 4000                   # a few kB
    for profile in ("eu-3mm", "drivethrucards"):
        result = preflight(ROOT, "--profile", profile, str(files))
        err = refused(result)
        for path in (first, second, third):
            assert (f"{path}: complexity: too complex to check: more than 1,000,000 drawing operators (a form counts "
                    f"each time it is drawn), passed on page 1; checks stopped here") in err
        # the plain page is still checked, each of its failures on a line of its own
        assert f"{plain}: complexity" not in err and f"{plain}: colour: " in err
        assert "0 of 4 file(s) passed preflight" in result.stdout


def test_a_stream_that_inflates_to_gigabytes_is_too_complex_to_check(tmp_path):
    files = tmp_path / "files"
    files.mkdir()
    content = inflating_stream(files / "content.pdf", gib=2)
    image = inflating_stream(files / "image.pdf", gib=2, as_image=True)
    hexed = inflating_stream(files / "hex.pdf", gib=1, hex_first=True)
    assert content.stat().st_size < 4 * 2**20
    err = refused(preflight(ROOT, "--profile", "eu-3mm", str(content), str(image), str(hexed)))
    for path in (content, image, hexed):
        assert f"{path}: complexity: too complex to check: its streams decode to more than 536,870,912 bytes" in err


def test_a_png_declaring_900_million_pixels_fails_its_check_and_the_others_are_checked(tmp_path):
    files = tmp_path / "files"
    files.mkdir()
    bomb = png_declaring(files / "bomb.png", 30000, 30000)
    large = png_declaring(files / "large.png", 12000, 9000)          # under PIL's own limit, over ours
    wrong = png_declaring(files / "small.png", 822, 1000)
    result = preflight(ROOT, "--profile", "mpc", str(files))
    err = refused(result)
    assert "DecompressionBomb" not in result.stdout + err
    assert f"{bomb}: complexity: too complex to check: Image size (900000000 pixels) exceeds limit" in err
    assert (f"{large}: complexity: too complex to check: 12000 x 9000 px, more than the 100,000,000 pixels a card image "
            f"may have") in err
    assert f"{wrong}: format: not a readable PNG" in err or f"{wrong}: png-size: 822 x 1000 px" in err


# ---- pictures: decoded whole and checked before use, whatever a library set ---------------------

def picture_png(size=(64, 48)) -> bytes:
    from PIL import Image
    out = io.BytesIO()
    Image.new("RGB", size, (250, 200, 40)).save(out, "PNG")
    return out.getvalue()


def picture_jpeg(size=(64, 48)) -> bytes:
    from PIL import Image
    out = io.BytesIO()
    Image.new("RGB", size, (250, 200, 40)).save(out, "JPEG", quality=90)
    return out.getvalue()


def nested_uses(levels: int, fan: int) -> str:
    """An SVG whose <use> elements expand to fan ** levels copies of one circle."""
    defs = ['<circle id="u0" cx="5" cy="5" r="4" fill="#C62828"/>']
    for level in range(1, levels + 1):
        defs.append(f'<g id="u{level}">' + f'<use href="#u{level - 1}"/>' * fan + "</g>")
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10"><defs>'
            + "".join(defs) + f'</defs><use href="#u{levels}"/></svg>')


def test_truncated_and_cut_short_pictures_are_located_errors_even_with_weasyprint_loaded(sample_project):
    art = sample_project / "components" / GAME / "art"
    png, jpeg = picture_png(), picture_jpeg()
    (art / "cut.png").write_bytes(png[: len(png) * 2 // 3])
    (art / "ended.png").write_bytes(png[:-12])                              # its last chunk (IEND) missing
    (art / "cut.jpg").write_bytes(jpeg[: len(jpeg) // 2])
    (art / "uses.svg").write_text(nested_uses(5, 10), encoding="utf-8")     # 100,000 copies; svglib stops at 10,000
    (art / "loop.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><defs>'
                                  '<g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g></defs>'
                                  '<use href="#a"/></svg>', encoding="utf-8")
    (art / "whole.png").write_bytes(png)
    layouts = sample_project / "components" / GAME / "layouts.yaml"
    pictures = ("cut.png", "ended.png", "cut.jpg", "uses.svg", "loop.svg", "whole.png")
    replace_in(layouts, "      - {type: image, file: art/sun.svg, box: [11.5, 34, 40, 40]}\n",
               "".join(f"      - {{type: image, file: art/{name}, box: [11.5, 34, 40, 40]}}\n" for name in pictures))
    before = tree(sample_project)
    for command in (["validate", GAME], ["build", "--game", GAME, "--paper", "a4", "--kind", "cards"]):
        # WeasyPrint, loaded first, lets Pillow accept truncated files for the whole process
        err = refused(run(sample_project, *command, preload="weasyprint"))
        line = lambda name: line_of(layouts, f"art/{name}")
        index = lambda name: 1 + pictures.index(name)
        for name, message in (
                ("cut.png", "the file is cut short (image file is truncated"),
                ("ended.png", "the file is cut short (truncated PNG file)"),
                ("cut.jpg", "the file is cut short (Truncated File Read)"),
                ("uses.svg", "its <use> elements make more than 10,000 copies, the most svglib draws "
                             "(it would leave the rest out)"),
                ("loop.svg", "a <use> copies 'b', which holds that <use>: it would repeat forever")):
            assert (f"components/{GAME}/layouts.yaml:{line(name)}: faces.hero.elements.{index(name)}.file: "
                    f"[{GAME}] picture art/{name}: {message}") in err, err
        assert err.count("its missing part would print as black; export the picture again") == 3
        assert "whole.png" not in err
    assert tree(sample_project) == before


# ---- preflight on files the tool did not make ----------------------------------------------------

def separated_ink(rgb: tuple[int, int, int], icc: str) -> float:
    """Total ink (%) of an sRGB colour separated through a press profile (relative colorimetric,
    black-point compensation), worked out here with littleCMS directly."""
    from PIL import Image, ImageCms
    transform = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(str(ROOT / "generator" / "core" / "icc" / icc)),
                                        "RGB", "CMYK", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    return sum(transform.apply(Image.new("RGB", (1, 1), rgb)).getpixel((0, 0))) / 255 * 100


def ink_detail(stdout: str, path: Path) -> str:
    report = stdout.split(f"  {path}")[1]
    return next(line for line in report.splitlines() if line.strip().startswith(("pass  ink", "fail  ink")))


def test_an_rgb_page_from_another_tool_has_its_ink_measured_by_rendering_and_says_what_it_was_taken_for(sample_project):
    files = sample_project / "files"
    files.mkdir()
    black = rgb_a4_page(files / "black.pdf")
    red = rgb_a4_page(files / "red.pdf", b"1 0 0")
    result = preflight(sample_project, "--profile", "eu-3mm", str(files))
    refused(result)
    for path, rgb in ((black, (0, 0, 0)), (red, (255, 0, 0))):
        detail = ink_detail(result.stdout, path)
        expected = separated_ink(rgb, "pnp-FOGRA39-300.icc")
        measured = float(detail.split("highest total ink ")[1].split(" %")[0])
        assert abs(measured - expected) < 1.5, (detail, expected)
        assert "(page 1, rendered)" in detail and "nothing painted" not in detail
        assert "1 page(s) painted in other colours rendered and separated for FOGRA39" in detail
        # what it was taken for, and why
        assert (f"FAIL  {path}  (checked as a booklet, by its size: page 1 is 210.0 x 297.0 mm, larger than any card "
                f"the profile takes (--as cards or --as component checks it as one))") in result.stdout
    # a shop that takes less ink than the press profile gives: the black page is over it
    shutil.copytree(ROOT / "templates" / "profiles", sample_project / "templates" / "profiles")
    replace_in(sample_project / "templates" / "profiles" / "eu-3mm.yaml", "ink_limit: 300", "ink_limit: 250")
    err = refused(preflight(sample_project, "--profile", "eu-3mm", str(black)))
    assert f"{black}: ink: highest total ink" in err and "limit 250 %" in err


def test_preflight_as_cards_booklet_or_component_checks_a_file_as_that(sample_project):
    files = sample_project / "files"
    files.mkdir()
    page = rgb_a4_page(files / "page.pdf")
    as_cards = preflight(sample_project, "--profile", "eu-3mm", "--as", "cards", str(page))
    refused(as_cards)
    assert f"FAIL  {page}  (checked as a card file, as asked (--as cards))" in as_cards.stdout
    assert "saddle stitching" not in as_cards.stdout
    assert f"{page}: size: no TrimBox to measure" in as_cards.stderr
    as_component = preflight(sample_project, "--profile", "eu-3mm", "--as", "component", str(page))
    refused(as_component)
    assert f"FAIL  {page}  (checked as a component file, as asked (--as component))" in as_component.stdout
    assert f"{page}: bleed: " in as_component.stderr or f"{page}: size: " in as_component.stderr
    as_booklet = preflight(sample_project, "--profile", "eu-3mm", "--as", "booklet", str(page))
    assert "(checked as a booklet, as asked (--as booklet))" in as_booklet.stdout
    assert f"{page}: pages: 1 pages, not a multiple of 4 for saddle stitching" in as_booklet.stderr
    # a profile without that section has nothing to check it against
    missing = preflight(sample_project, "--profile", "drivethrucards", "--as", "component", str(page))
    assert missing.returncode == 2 and "profile drivethrucards has no components section" in missing.stderr
    assert "Traceback" not in missing.stderr and not missing.traceback


# ---- scenarios: a value of the wrong type is a located error in every game ----------------------

RAID = SAMPLE / "components" / "sample-game" / "scenarios" / "rule-raid.yaml"


@pytest.mark.parametrize("old, new, key, message", [
    ("{player: Ana, raid: true}", "{player: Ana, raid: [true]}", "steps.0.do.0.raid", "raiding is {raid: true}"),
    ("{player: Ana, raid: true}", "{player: [Ana], raid: true}", "steps.0.do.0.player", "no player '['Ana']'"),
    ("{name: Ana, heroes: [knight]}", "{name: Ana, heroes: [[knight]]}", "setup.players.0.heroes.0",
     "no hero ['knight'] in the box"),
    ("purse: [coins-gold-five-1]}", "purse: [{a: 1}]}", "setup.players.1.purse.0", "no coin {'a': 1} in the box"),
    ("pile: [coins-silver-one-1,", "pile: [[coins-silver-one-1],", "setup.pile.0",
     "no coin ['coins-silver-one-1'] in the box"),
    ("rolls: [4, 5, 3]", "rolls: [[4], 5, 3]", "setup.rolls.0", "the sun die shows 1, 2, 3, 4, 5, 6, not [4]"),
])
def test_a_list_or_mapping_where_one_name_is_expected_is_a_located_error(tmp_path, old, new, key, message):
    scenario = tmp_path / "raid.yaml"
    scenario.write_text(RAID.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    assert new in scenario.read_text(encoding="utf-8")
    err = refused(run(SAMPLE, "play", "sample-game", str(scenario)))
    assert f"{scenario}:{line_of(scenario, new.strip())}: {key}: {message}" in err


def test_a_scenario_seed_has_a_bound(tmp_path):
    scenario = tmp_path / "raid.yaml"
    scenario.write_text(RAID.read_text(encoding="utf-8").replace("\n  rolls:", "\n  seed: " + "9" * 40 + "\n  rolls:", 1),
                        encoding="utf-8")
    err = refused(run(SAMPLE, "play", "sample-game", str(scenario)))
    assert f"{scenario}:{line_of(scenario, 'seed:')}: setup.seed: the seed is a whole number from 0 to 4,294,967,295, not 9999" in err
