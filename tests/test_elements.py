"""Element types through a real build: pictures (SVG and PNG from the game's folder), shapes,
turned elements, and the pictures a layout may not use."""
from __future__ import annotations

import shutil

import pypdfium2
import pytest
from PIL import Image

from conftest import CARD, MM, PAPERS, SAMPLE, line_of, pnp, replace_in

GAME = "sample-game"
SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="20mm" viewBox="0 0 20 20">'
       '<circle cx="10" cy="10" r="10" fill="#DD0000"/></svg>')
# the hero back's last element: what is added after it is drawn over the title, not under it
# (a title on a shape added under it would not stand out, and validation says so)
TITLE = ('      - {type: text, field: game_title, box: [6, 38, 51, 12], font: bold, size: 14, min_size: 8, '
         'colour: "#FFFFFF", align: center}\n')

# the heroes' face's last element
HERO_TEXT = ('      - {type: text, field: text, box: [6, 6, 51, 20], font: regular, size: 10, min_size: 7, '
             'colour: "{ink}", align: center}\n')


@pytest.fixture
def project(tmp_path):
    """A copy of the sample project that a test may change."""
    copy = tmp_path / "sample"
    shutil.copytree(SAMPLE, copy)
    return copy


def _add_to_back(project, *elements: str) -> None:
    layouts = project / "components" / GAME / "layouts.yaml"
    replace_in(layouts, TITLE, TITLE + "".join(f"      - {e}\n" for e in elements))


def _back_cell(project):
    """The first back on the first backs page, as an RGB image at 4 px/mm, bottom-left first."""
    pdf = project / "output" / GAME / "standard" / "en" / f"{GAME}-standard-en-cards-a4.pdf"
    page = pypdfium2.PdfDocument(pdf)[1]
    scale = 4 / MM                                   # 4 pixels a millimetre
    image = page.render(scale=scale).to_pil().convert("RGB")
    width, height = PAPERS["a4"]
    left, bottom = (width - 3 * CARD[0]) / 2, (height - 3 * CARD[1]) / 2
    return lambda x, y: image.getpixel((round((left + x) * 4), round((height - bottom - 2 * CARD[1] - y) * 4)))


def _build(project):
    """The card sheets, where the backs the tests change are drawn."""
    return pnp("build", "--game", GAME, "--paper", "a4", "--kind", "cards", project=project)


def test_pictures_shapes_and_turned_elements_are_drawn(project):
    art = project / "components" / GAME / "art"
    (art / "disc.svg").write_text(SVG, encoding="utf-8")
    Image.new("RGB", (32, 32), (0, 0, 220)).save(art / "sea.png")
    _add_to_back(project,
                 "{type: image, file: art/disc.svg, box: [4, 66, 18, 18]}",
                 "{type: image, file: art/sea.png, box: [41, 66, 18, 18]}",
                 '{type: shape, points: [[4, 4], [24, 4], [14, 24]], closed: true, fill: "#00AA00", stroke: none}',
                 # a bar 30 x 4 mm turned a quarter about its centre (46, 14): 4 wide, 30 tall
                 '{type: rect, box: [31, 12, 30, 4], fill: "#FFDD00", rotate: 90}')
    result = _build(project)
    assert result.exit_code == 0, result.output + result.traceback
    pixel = _back_cell(project)
    red, green, blue = pixel(13, 75)
    assert red > 200 and green < 60 and blue < 60                    # the SVG's disc
    assert pixel(50, 75) == (0, 0, 220) or abs(pixel(50, 75)[2] - 220) < 8   # the PNG
    assert pixel(14, 9)[1] > 150 and pixel(14, 9)[0] < 60              # inside the triangle
    assert pixel(22, 20) == pixel(40, 50) or pixel(22, 20) != pixel(14, 9)   # outside it: not green
    yellow = lambda p: p[0] > 200 and p[1] > 180 and p[2] < 80
    assert yellow(pixel(46, 27)) and yellow(pixel(46, 1.5))            # the bar now runs up and down
    assert not yellow(pixel(34, 14)) and not yellow(pixel(58, 14))     # and no longer across


@pytest.mark.parametrize("file, content, reason", [
    ("../game.yaml.png", None, "picture ../game.yaml.png: refused: the path leads outside the game's folder"),
    ("art/missing.png", None, "picture art/missing.png: cannot read file: No such file or directory"),
    ("art/not-a-picture.png", b"not a png", "picture art/not-a-picture.png: not a readable PNG or JPEG picture (UnidentifiedImageError)"),
    ("art/reach.svg", SVG.replace("<circle", '<image href="file:///etc/passwd" width="1" height="1"/><circle'),
     "picture art/reach.svg: the SVG reaches outside itself (href='file:///etc/passwd'); embed everything it draws"),
    ("art/entity.svg", '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>' + SVG,
     "picture art/entity.svg: the SVG reaches outside itself (a DOCTYPE with entities); embed everything it draws"),
])
def test_a_picture_the_layout_may_not_use_is_a_located_error(project, file, content, reason):
    if content is not None:
        (project / "components" / GAME / file).write_bytes(content if isinstance(content, bytes) else content.encode())
    # on the heroes' face, which only the cards draw (their box draws their back too)
    layouts = project / "components" / GAME / "layouts.yaml"
    replace_in(layouts, HERO_TEXT, HERO_TEXT + f"      - {{type: image, file: {file}, box: [4, 66, 18, 18]}}\n")
    before = sorted((project).rglob("*"))
    line = line_of(layouts, f"file: {file},")
    for command in (("validate", GAME), ("build", "--game", GAME, "--paper", "a4")):
        result = pnp(*command, project=project)
        assert result.exit_code == 1 and not result.traceback, result.output + result.traceback
        # located at the layout's line that names the picture
        assert result.stderr.splitlines()[:-1] == [
            f"components/{GAME}/layouts.yaml:{line}: faces.hero.elements.5.file: [{GAME}] {reason}"], result.stderr
    assert not (project / "output").exists()
    assert sorted(project.rglob("*")) == before


def test_an_absolute_picture_path_is_refused_by_the_schema(project):
    _add_to_back(project, "{type: image, file: /etc/hostname.png, box: [4, 66, 18, 18]}")
    line = line_of(project / "components" / GAME / "layouts.yaml", "file: /etc/hostname.png", start="backs:")
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1 and not result.traceback
    assert f"components/{GAME}/layouts.yaml:{line}: backs.hero-back.elements.2.file: expected a picture in the game's folder, .svg, .png, .jpg or .jpeg, its folders joined by /, like art/sun.svg, got '/etc/hostname.png'" in result.stderr


def test_an_unknown_element_type_names_the_types_there_are(project):
    _add_to_back(project, "{type: hexagon, centre: [4, 66]}")
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1 and not result.traceback
    assert "backs.hero-back.elements.2.type: 'hexagon' is not one of circle, icon, image, rect, shape, text" in result.stderr


def test_every_element_type_placed_has_its_drawing():
    from generator.layout.elements import ELEMENTS
    from generator.render.elements import DRAWINGS

    assert sorted(DRAWINGS) == sorted(ELEMENTS)


def test_a_placed_face_is_drawn_without_measuring_its_text_again(monkeypatch):
    """Text is fitted and every line, piece of another font and upside-down mark placed when
    the face is laid out; drawing it only draws."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from generator.layout.elements import icon, text
    from generator.layout.placed import place_face
    from generator.render.faces import draw_placed

    layout = {"size_mm": [63, 88], "elements": [
        {"type": "rect", "box": [0, 0, 63, 88], "fill": "#FFFFFF"},
        {"type": "text", "field": "rule", "box": [5, 50, 53, 30], "font": "regular", "size": 14, "min_size": 8,
         "align": "center"},
        {"type": "text", "field": "value", "box": [5, 5, 20, 12], "font": "bold", "size": 20,
         "upside_down_mark": "dot"},
        {"type": "icon", "glyph": "★", "centre": [50, 10], "size": 12},
    ]}
    face = place_face(layout, {"rule": "Lose −3 points when the last card of the pile is played", "value": "6"})
    assert not face.problems
    rule, value = face.elements[1].fitted, face.elements[2].fitted
    assert len(rule.placed_lines) > 1 and any(line.pieces for line in rule.placed_lines)
    assert value.placed_lines[0].mark == "dot"

    def measured(*args, **kwargs):
        raise AssertionError("drawing measured text again")

    for module, name in ((text, "stringWidth"), (text, "line_width"), (text, "fit_lines"), (text, "wrap"),
                         (icon, "stringWidth"), (icon, "placed_glyph")):
        monkeypatch.setattr(module, name, measured)
    canvas = Canvas(io.BytesIO())
    draw_placed(canvas, face)
    canvas.save()
