"""Rule booklets as a family prints them at home, read back from the real PDFs: the 50 mm bar
on the first page (A5, and the first home-print sheet on A4 at full size, on US Letter at the
scale the sheet's note states), short blocks kept on one page, and no blank or nearly empty
last pages."""
from __future__ import annotations

import io
import re

import pikepdf
import pypdfium2 as pdfium
import pytest

from conftest import ROOT, _apply, _mul, content_ops, pnp
from generator.app.loading import load_games
from generator.layout.booklet import booklet_words
from generator.load.project import Project
from generator.render.impose import impose


# One worker renders the booklets these tests share (tests/conftest.py `rendered_booklet`).

MM = 72 / 25.4
A5 = (148.0, 210.0)
# Home papers, stated here apart from templates/sheets/papers.yaml: landscape sheets in mm.
SHEETS = {"a4": (297.0, 210.0), "letter": (279.4, 215.9)}
PROJECT = Project(ROOT)
GAMES = {game.slug: game for game in load_games(PROJECT, texts=False)}
BOOKLETS = [(slug, locale, edition) for slug, game in sorted(GAMES.items()) if game.booklet.get("sections")
            for locale in game.locales for edition in game.editions]
FIRST_EDITIONS = [(slug, next(iter(game.editions))) for slug, game in sorted(GAMES.items())
                  if game.booklet.get("sections")]


# ---- reading the drawing ------------------------------------------------------------------

def filled_rects(owner, resources, ctm=(1, 0, 0, 1, 0, 0), depth=0) -> list[tuple[float, float, float, float]]:
    """Every filled rectangle (`re` ... `f`) drawn by a page or form, forms followed into, as
    (left, bottom, width, height) in mm on the page; only rectangles the CTM keeps upright."""
    found, path = [], []
    xobjects = resources.get("/XObject", {}) if resources is not None else {}
    for operands, op, ctm in content_ops(owner, ctm):
        if op == "re":
            x, y, w, h = (float(v) for v in operands)
            (ax, ay), (bx, by) = _apply(ctm, x, y), _apply(ctm, x + w, y + h)
            path.append((min(ax, bx) / MM, min(ay, by) / MM, abs(bx - ax) / MM, abs(by - ay) / MM))
        elif op in ("f", "f*", "F", "B", "B*", "b", "b*"):
            found += path
            path = []
        elif op in ("n", "S", "s"):
            path = []
        elif op == "Do" and depth < 4:
            form = xobjects[operands[0]]
            if form.get("/Subtype") == "/Form":
                matrix = [float(v) for v in form.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                found += filled_rects(form, form.get("/Resources"), _mul(matrix, ctm), depth + 1)
    return found


def scale_bars(rects) -> list[dict]:
    """The 50 mm bars among filled rectangles: a thin horizontal bar with at least six thin
    upright ticks standing on it; its length, and the span from the first tick to the last."""
    bars = []
    for x, y, w, h in rects:
        if h > 0.5 or w < 10:
            continue
        ticks = [(tx, tw) for tx, ty, tw, th in rects
                 if tw < 0.5 and 0.5 < th < 3 and x - 0.5 <= tx <= x + w + 0.5 and abs(ty - y) < 0.3]
        if len(ticks) >= 6:
            span = max(tx + tw for tx, tw in ticks) - min(tx for tx, _ in ticks)
            bars.append({"x": x, "y": y, "length": w, "ticks": len(ticks), "span": span})
    return bars


def bars_on(data: bytes, page_index: int = 0) -> list[dict]:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[page_index]
        return scale_bars(filled_rects(page, page.obj.get("/Resources")))


# ---- the 50 mm bar ------------------------------------------------------------------------

@pytest.mark.parametrize("slug, edition", FIRST_EDITIONS)
def test_the_first_page_has_a_50_mm_bar_in_its_margin(rendered_booklet, slug, edition):
    content, data = rendered_booklet(slug, edition, "en")
    [bar] = bars_on(data)
    assert bar["length"] == pytest.approx(50, abs=0.2) and bar["span"] == pytest.approx(50, abs=0.2)
    # in the bottom margin of the cover (11 mm), clear of its text, above A4's 5 mm band
    assert 5 < bar["y"] < 11 and bar["x"] > 0 and bar["x"] + bar["length"] < A5[0]
    pdf = pdfium.PdfDocument(data)
    try:
        page = pdf[0]
        words = page.get_textpage().get_text_bounded(0, 0, A5[0] * MM, 11 * MM)
        above = page.get_textpage().get_text_bounded(0, 11 * MM, A5[0] * MM, A5[1] * MM)
    finally:
        pdf.close()
    assert content.scale_label and " ".join(words.split()) == " ".join(content.scale_label.split())
    assert content.scale_label not in " ".join(above.split())
    assert not bars_on(data, 1)                      # the first page only


@pytest.mark.parametrize("slug, edition", FIRST_EDITIONS)
def test_the_first_home_print_sheet_shows_the_bar_full_size_on_a4_and_states_the_letter_scale(
        rendered_booklet, slug, edition):
    _content, data = rendered_booklet(slug, edition, "en")
    a4, _ = impose(data, SHEETS["a4"])
    [bar] = bars_on(a4)                              # sheet 1, front: last page | first page
    assert bar["length"] == pytest.approx(50, abs=0.2) and bar["span"] == pytest.approx(50, abs=0.2)
    assert bar["x"] > SHEETS["a4"][0] / 2            # on the right half, where page 1 is
    # US Letter: a half is 139.7 x 215.9 mm, so the A5 page is shrunk to the smaller ratio
    width, height = SHEETS["letter"]
    scale = min(width / 2 / A5[0], height / A5[1])
    notes = []
    letter, _ = impose(data, SHEETS["letter"], lambda s: notes.append(s) or f"NOTE {round(s * 100)} {50 * s:.1f}")
    [bar] = bars_on(letter)
    assert bar["length"] == pytest.approx(50 * scale, abs=0.2)
    assert notes and notes[0] == pytest.approx(scale, abs=1e-4)
    pdf = pdfium.PdfDocument(letter)
    try:
        for page in pdf:
            text = page.get_textpage().get_text_bounded(0, 0, width * MM, (height - A5[1] * scale) / 2 * MM)
            assert " ".join(text.split()) == f"NOTE 94 {50 * scale:.1f}"      # on every side, in the margin
    finally:
        pdf.close()
    # full size on A4: no note
    assert not notes[1:]
    a4_noted, _ = impose(data, SHEETS["a4"], lambda s: "NOTE")
    assert a4_noted == a4
    # the same bytes every time, the locale's note included
    from generator.layout.booklet import scale_note
    twice = [impose(data, SHEETS["letter"], scale_note(PROJECT, "en"))[0] for _ in range(2)]
    assert twice[0] == twice[1]


@pytest.mark.parametrize("locale", ["en", "bg", "cs", "ru", "uk"])
def test_the_letter_note_is_in_the_locale_with_the_measured_scale(locale):
    from generator.layout.booklet import scale_note
    sentence = scale_note(PROJECT, locale)(0.9439)
    assert re.search(r"\b94\b", sentence) and re.search(r"47[.,]2", sentence)
    if locale != "en":
        assert sentence != scale_note(PROJECT, "en")(0.9439)
        assert booklet_words(PROJECT, locale)["notes"] != booklet_words(PROJECT, "en")["notes"]


# ---- short blocks stay on one page ----------------------------------------------------------

HYPHEN = "\u2010"        # what WeasyPrint prints where it hyphenates a word


def page_texts(data: bytes) -> list[str]:
    """Each page's text, hyphenated line ends joined, every run of whitespace one space."""
    pdf = pdfium.PdfDocument(data)
    try:
        texts = [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    finally:
        pdf.close()
    return [normal(re.sub(f"{HYPHEN}\\s*\\n", "", text)) for text in texts]


def normal(text: str) -> str:
    return " ".join(text.replace("\u00ad", "").replace("\u2011", "-").split())


def pages_holding(texts: list[str], words: str) -> list[int]:
    return [index for index, text in enumerate(texts) if words in text]


def short_blocks(content):
    """(what, first words, last words) of every example and tip of the booklet."""
    for section in content.sections:
        for block in section.blocks:
            if block.kind == "example":
                last = normal(block.content["steps"][-1]).split()
                yield "example", normal(block.content["title"]), " ".join(last[-4:])
            elif block.kind == "tip":
                words = normal(block.content).split()
                yield "tip", " ".join(words[:4]), " ".join(words[-4:])


@pytest.mark.parametrize("slug, locale, edition", [b for b in BOOKLETS if b[1] == "en"])
def test_no_example_or_tip_is_split_across_pages(rendered_booklet, slug, locale, edition):
    content, data = rendered_booklet(slug, edition, locale)
    texts = page_texts(data)
    blocks = list(short_blocks(content))
    for kind, first, last in blocks:
        starts, ends = pages_holding(texts, first), pages_holding(texts, last)
        assert starts and ends, f"{kind} {first!r}…{last!r} not found in the booklet"
        assert any(page in ends for page in starts), \
            f"{slug} {edition} {locale}: the {kind} {first!r} starts on page {starts[0] + 1}, ends on {ends[0] + 1}"


# ---- whole sheets, no blank pages -----------------------------------------------------------

# The A5 page's text area (booklet.css: 14 mm top margin, 16 mm bottom, the page number below).
TOP_MM, BOTTOM_MM = 14.0, 16.0


def page_contents(data: bytes) -> list[tuple[str, float]]:
    """Each page's text, and how far down its text area something is drawn (0 nothing, 1 full):
    the lowest text, picture or line above the bottom margin."""
    pdf = pdfium.PdfDocument(data)
    found = []
    try:
        for page in pdf:
            height = page.get_height()
            top, bottom = height - TOP_MM * MM, BOTTOM_MM * MM
            lowest = top
            for obj in page.get_objects(max_depth=4):
                left, low, right, high = obj.get_bounds()
                if high > bottom and low < top and right - left > 0.1:
                    lowest = min(lowest, max(low, bottom))
            found.append((normal(page.get_textpage().get_text_range()), (top - lowest) / (top - bottom)))
    finally:
        pdf.close()
    return found


@pytest.fixture(scope="module")
def booklet_pdf(tmp_path_factory):
    """A game's home rule booklet in an edition and locale, the PDF as `pnp build --kind booklet`
    writes it (the session's build cache shares its rendering with the other readers of that
    booklet), without laying out its content a second time here: these tests read only pages."""
    out = tmp_path_factory.mktemp("booklet-pdfs")

    def pdf(slug: str, edition: str, locale: str) -> bytes:
        folder = out / f"{slug}-{edition}-{locale}"
        result = pnp("build", "--game", slug, "--edition", edition, "--locale", locale, "--kind", "booklet",
                     "--out", str(folder))
        assert result.exit_code == 0, result.output + result.traceback
        return (folder / slug / edition / locale / f"{slug}-{edition}-{locale}-rules.pdf").read_bytes()
    return pdf


@pytest.mark.parametrize("slug, locale, edition", BOOKLETS)
def test_booklets_fill_whole_sheets_without_blank_pages_or_unfilled_placeholders(booklet_pdf, slug, locale, edition):
    pages = page_contents(booklet_pdf(slug, edition, locale))
    notes = normal(booklet_words(PROJECT, locale)["notes"])
    assert len(pages) % 4 == 0
    unfilled = [(index + 1, found) for index, (text, _) in enumerate(pages)
                for found in re.findall(r"\{[a-z0-9_.@|-]+\}", text)]
    assert not unfilled, f"{slug} {edition} {locale}: placeholders left unfilled {unfilled[:5]}"
    blank = [index + 1 for index, (_, fill) in enumerate(pages) if fill == 0]     # nothing but a page number
    assert not blank, f"{slug} {edition} {locale}: blank pages {blank}"
    notes_pages = [index for index, (text, _) in enumerate(pages) if text == notes]
    # a notes page only ends the booklet, at most one of it
    assert notes_pages in ([], [len(pages) - 1]), f"{slug} {edition} {locale}: notes pages {notes_pages}"
    text, fill = pages[len(pages) - 1 - len(notes_pages)]
    assert fill > 0.25, f"{slug} {edition} {locale}: the last page of rules is {fill:.0%} full ({text[-80:]!r})"
