"""What makes rendering faster gives the same files: fonts subset by HarfBuzz (uharfbuzz) and
shared between documents, drawn exactly as WeasyPrint's own subsetting draws them; templates
compiled once, text fitted once; ReportLab's C accelerators."""
from __future__ import annotations

import logging
import shutil

import pytest

from conftest import ROOT, SAMPLE, replace_in
from generator.core import fonts
from generator.core.colour import RGB
from generator.core.reproducible import fixed_clock
from generator.layout.elements.text import fit_lines
from generator.load.project import Project
from generator.render import booklet, booklet_templates, subset


class FontFile:
    """What WeasyPrint's subsetting reads of a font: its bytes, index, missing glyphs, family."""

    def __init__(self, file: str, missing: dict | None = None):
        self.file_content = (fonts.FONT_DIR / file).read_bytes()
        self.index = 0
        self.missing = missing or {}
        self.family = file


# Glyph ids a booklet page of Latin and Cyrillic text uses, WeasyPrint's mapping of gid -> text.
GLYPHS = {gid: chr(0x41 + gid % 60) for gid in [*range(3, 120), *range(700, 760)]}


@pytest.mark.parametrize("file,missing", [("NotoSerif-Regular.ttf", {}), ("NotoSans-Bold.ttf", {0x10FFFD: 9000})])
@pytest.mark.parametrize("hinting", [False, True])
def test_harfbuzz_keeps_the_glyphs_used_at_their_ids(file, missing, hinting):
    """As WeasyPrint's HarfBuzz subsetting: every glyph used keeps its id and its outline, the
    glyphs between are empty, and after the last one used come only the glyphs composite ones
    are made of; the layout tables are gone, the hinting unless it is asked for, and the outline
    of .notdef unless a character lacks a glyph."""
    import io

    from fontTools.ttLib import TTFont
    font = FontFile(file, missing)
    subset.harfbuzz_subset(font, GLYPHS, hinting)
    whole, part = TTFont(fonts.FONT_DIR / file), TTFont(io.BytesIO(font.file_content))
    assert not {"GSUB", "GPOS", "DSIG"} & set(part.keys()) and {"GSUB", "GPOS"} <= set(whole.keys())
    whole_glyf, part_glyf = whole["glyf"], part["glyf"]
    whole_order, part_order = whole.getGlyphOrder(), part.getGlyphOrder()
    # the glyphs used, and the glyphs their composite glyphs are made of
    needed, stack = set(), sorted(GLYPHS)
    while stack:
        gid = stack.pop()
        if gid not in needed:
            needed.add(gid)
            glyph = whole_glyf[whole_order[gid]]
            stack += [whole.getGlyphID(c.glyphName) for c in glyph.components] if glyph.isComposite() else []
    last = max(GLYPHS)
    beyond = {gid for gid in needed if gid > last}     # kept, after the last used (renumbered)
    assert len(part_order) == last + 1 + len(beyond) < len(whole_order)
    for gid in range(last + 1):
        before, after = whole_glyf[whole_order[gid]], part_glyf[part_order[gid]]
        if gid in needed:
            assert after.numberOfContours == before.numberOfContours, gid
            if before.numberOfContours:               # drawn alike, composites resolved
                assert list(after.getCoordinates(part_glyf)[0]) == list(before.getCoordinates(whole_glyf)[0]), gid
        elif gid:
            assert after.numberOfContours == 0, gid
    # .notdef keeps its outline where a character had no glyph (WeasyPrint draws it for those)
    assert (part_glyf[part_order[0]].numberOfContours > 0) == bool(missing)
    programs = [glyph.program for glyph in (part_glyf[name] for name in part_order)
                if glyph.numberOfContours > 0 and hasattr(glyph, "program") and glyph.program.getBytecode()]
    assert bool(programs) == hinting and ("fpgm" in part) == hinting


def test_a_font_harfbuzz_cannot_subset_goes_in_whole_with_weasyprints_warning(caplog):
    font = FontFile("NotoSans-Regular.ttf")
    font.file_content = b"not a font at all"
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        subset.harfbuzz_subset(font, GLYPHS, False)
    assert font.file_content == b"not a font at all"
    assert 'Unable to subset "NotoSans-Regular.ttf" with HarfBuzz' in caplog.text


def test_the_same_font_and_glyphs_are_subset_once(monkeypatch):
    made = []

    def fake_subset(font, to_unicode, hinting):
        made.append(sorted(to_unicode))
        font.file_content = b"subset of " + bytes(sorted(to_unicode))

    monkeypatch.setattr(subset, "harfbuzz_subset", fake_subset)
    subset.clear()
    first, second, other = FontFile("NotoSans-Regular.ttf"), FontFile("NotoSans-Regular.ttf"), FontFile("NotoSans-Regular.ttf")
    subset.shared_subset(first, {3: "a", 5: "b"}, False)
    subset.shared_subset(second, {5: "b", 3: "a"}, False)
    assert made == [[3, 5]] and second.file_content == first.file_content == b"subset of \x03\x05"
    subset.shared_subset(other, {3: "a", 6: "c"}, False)             # other glyphs: subset again
    subset.shared_subset(FontFile("NotoSans-Regular.ttf"), {3: "a", 5: "b"}, True)   # hinted: again
    bold = FontFile("NotoSans-Bold.ttf")
    subset.shared_subset(bold, {3: "a", 5: "b"}, False)              # another font: again
    assert len(made) == 4 and subset.stats == {"made": 4, "shared": 1}
    subset.clear()


@pytest.fixture(scope="module")
def game_booklet():
    """The sample game's booklet content (every component kind, so every kind of picture and
    table a booklet has) in its source locale, laid out once."""
    from generator.app.booklet import rule_booklet_content
    from generator.app.loading import load_games
    from generator.i18n.texts import Texts
    from generator.layout.faces import Localised
    from generator.layout.kit import Kit
    project = Project(SAMPLE)
    game = load_games(project, "sample-game")[0]
    loc = Localised(game, game.editions[0], Texts.load(game, game.source_locale))
    return project, rule_booklet_content(Kit(project, game, loc, ""))


def test_a_booklet_with_harfbuzz_subsets_is_drawn_as_weasyprint_draws_it(game_booklet, monkeypatch):
    """Through WeasyPrint: the booklet as WeasyPrint subsets its fonts alone (fontTools where the
    system has no libharfbuzz-subset) and with this module's HarfBuzz subsets: every page the same
    pixels and the same text; a second booklet takes the shared subsets and gives the same
    bytes. (Where the system's HarfBuzz subsets for WeasyPrint the bytes may even be equal.)"""
    import io

    import numpy
    import pypdfium2
    from pypdf import PdfReader
    project, content = game_booklet
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    try:
        with fixed_clock():
            subset.uninstall()
            monkeypatch.setattr(subset, "install", lambda: None)
            plain = booklet.render(project, content).data
            monkeypatch.undo()
            subset.install()
            subset.clear()
            first = booklet.render(project, content).data
            assert subset.stats["made"] > 0 and subset.stats["shared"] == 0
            again = booklet.render(project, content).data
            assert subset.stats["shared"] == subset.stats["made"]
    finally:
        logging.getLogger("weasyprint").setLevel(logging.NOTSET)
        subset.install()
    assert first == again
    ours, theirs = pypdfium2.PdfDocument(first), pypdfium2.PdfDocument(plain)
    assert len(ours) == len(theirs) > 1
    for index in range(len(ours)):
        drawn = [document[index].render(scale=150 / 72).to_numpy() for document in (ours, theirs)]
        assert numpy.array_equal(*drawn), f"page {index + 1}"
    texts = [[page.extract_text() for page in PdfReader(io.BytesIO(data)).pages] for data in (first, plain)]
    assert texts[0] == texts[1] and any(texts[0])


def test_a_template_is_compiled_once_and_again_when_it_changes(project, monkeypatch):
    shutil.copytree(ROOT / "templates", project / "templates", dirs_exist_ok=True)
    compiled = []
    original = booklet_templates.TemplateSandbox.compile

    def counting(self, source, *args, **kwargs):
        compiled.append(1)
        return original(self, source, *args, **kwargs)

    monkeypatch.setattr(booklet_templates.TemplateSandbox, "compile", counting)
    monkeypatch.setattr(booklet_templates, "COMPILED_TEMPLATES", booklet_templates.CompiledTemplates())
    values = {"booklet": "x", "fonts": [], "stylesheet": "", "pad_pages": 3}
    name = "booklet/booklet.html.j2"
    template = project / "templates" / name
    template.write_text("<p>{{ booklet }} one</p>", encoding="utf-8")
    p = Project(project)
    assert booklet_templates.render_html(p, values) == "<p>x one</p>"
    assert booklet_templates.render_html(p, values) == "<p>x one</p>"
    assert len(compiled) == 1
    replace_in(template, "one", "two")
    assert booklet_templates.render_html(p, values) == "<p>x two</p>"
    assert len(compiled) == 2


def test_fitting_is_remembered_exactly():
    fit_lines.cache_clear()
    first = fit_lines("A long line of card text that wraps", "regular", 9, 6, 30, 12)
    assert fit_lines("A long line of card text that wraps", "regular", 9, 6, 30, 12) is first
    assert fit_lines.cache_info().hits == 1
    # an int size and a float one are separate entries: each gives what it always gave
    fit_lines("A long line of card text that wraps", "regular", 9.0, 6, 30, 12)
    assert fit_lines.cache_info().misses == 2


def test_a_colour_is_the_same_colour_every_time():
    from reportlab.lib.colors import HexColor
    assert RGB.colour("#12AB34") is RGB.colour("#12AB34")
    assert RGB.colour("#12AB34") == HexColor("#12AB34")



def test_the_nearest_space_is_found_as_measuring_every_pair_finds_it():
    import math
    import random

    from generator.layout.boards import nearest_distances
    rng = random.Random(7)
    for count in (0, 1, 2, 3, 40, 300):
        grid = [(rng.randrange(12) * 7.5, rng.randrange(12) * 7.5) for _ in range(count)]       # ties, repeats
        loose = [(rng.uniform(-50, 400), rng.uniform(-50, 400)) for _ in range(count)]
        line = [(rng.uniform(0, 1) * 1e-3, float(i)) for i in range(count)]                     # one column
        for centres in (grid, loose, line, grid + loose):
            every_pair = [min((math.dist(c, o) for o in centres if o != c), default=0.0) for c in centres]
            assert nearest_distances(centres) == every_pair


def test_reportlab_accelerators_are_installed_and_write_what_its_python_writes():
    """ReportLab formats every coordinate of a sheet with fp_str: its C accelerator (the
    `accel` extra) must be there, and give the very strings its Python fallback gives."""
    import subprocess
    import sys
    compare = (
        "import random, reportlab\n"
        "reportlab._rl_testing = True\n"          # keep the Python functions beside the C ones
        "from reportlab.lib import rl_accel as accel\n"
        "assert 'fp_str' in accel._c_funcs and 'asciiBase85Encode' in accel._c_funcs, 'no _rl_accel'\n"
        "py, c = accel._py_funcs, accel._c_funcs\n"
        "rng = random.Random(7)\n"
        "for _ in range(20000):\n"
        "    x = rng.uniform(-2000, 2000) * 10 ** rng.randint(-8, 3)\n"
        "    x = round(x, rng.randint(0, 6)) if rng.random() < 0.3 else x\n"
        "    assert py['fp_str'](x) == c['fp_str'](x), x\n"
        "    assert py['fp_str'](x, -x, 0.5) == c['fp_str'](x, -x, 0.5), x\n"
        "for _ in range(300):\n"
        "    data = bytes(rng.randrange(256) for _ in range(rng.randint(0, 200)))\n"
        "    assert py['asciiBase85Encode'](data) == c['asciiBase85Encode'](data), data\n"
        "print('same')\n")
    done = subprocess.run([sys.executable, "-c", compare], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "same"
