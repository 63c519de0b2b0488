"""The rule booklet rendered: its card and component pictures drawn, its content
(generator/layout/booklet.py) through the templates (templates/booklet/, render/booklet_templates.py)
to HTML, WeasyPrint to PDF, padded to a multiple of 4.
The PDF is tagged for screen readers and reflow (PDF/UA-1): its language and title, headings,
lists and tables in reading order, every picture with a text in the booklet's locale.
"""
from __future__ import annotations

import base64
import copy
import io
import logging
import re
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import unquote, urlsplit

import cssselect2
import pydyf
import pypdfium2
from weasyprint import HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher

from ..core import fonts
from ..core.errors import BuildError
from ..i18n import typography
from ..layout.booklet import BookletContent, booklet_words
from ..layout.faces import Face
from ..load.profiles import PAGE_MULTIPLE
from ..load.project import TOOL_TEMPLATES, Project
from . import subset
from .booklet_templates import render_html
from .faces import draw_placed
from .overflow import check_fits
from .pdf import Document


# Card pictures: 200 dpi at the card's own size, so at the 15-48 mm the booklet prints them
# they are well above print resolution.
CARD_DPI = 200
# Blank pages rendered after the content; the ones a multiple of 4 does not need are dropped.
PAD_PAGES = 3
# Spacing a booklet is laid out in again, in this order, when as designed it would end on a
# nearly empty page or need more than one page of notes to fill its last sheet (the classes of
# booklet.css: tighter spacing and leading a step at a time, then looser).
TIGHTER = ("tight-1", "tight-2", "tight-3")
LOOSER = ("loose-1", "loose-2", "loose-3", "loose-4")
FITS = TIGHTER + LOOSER
# The last page of rules is at least this full (of its text area), else it is laid out again.
LAST_PAGE_FULL = 0.27
# Times a booklet is laid out again to keep hyphenated words off page breaks.
MAX_REFLOWS = 4
# Tagged PDF: WeasyPrint's PDF/UA-1 variant writes the structure tree (headings, lists, tables
# with their headers, figures with their alternative text), /Lang, the title shown as the
# window's title, and the PDF/UA identification in XMP (no dates, no random IDs).
PDF_VARIANT = "pdf/ua-1"
# Line breaks and runs of spaces in a link's HTML text (a no-break space is kept).
BREAKS = re.compile(r"[ \t\r\n\f]+")
DATA_URI = re.compile(r"(data:[\w/+.-]*(?:;[\w=-]+)*,)[^\s\"']{24,}")
# The fonts the booklet uses, as @font-face rules: (family, weight, style, file).
FONT_FACES = (
    ("Booklet Serif", 400, "normal", "NotoSerif-Regular.ttf"),
    ("Booklet Serif", 700, "normal", "NotoSerif-Bold.ttf"),
    ("Booklet Serif", 400, "italic", "NotoSerif-Italic.ttf"),
    ("Booklet Sans", 400, "normal", "NotoSans-Regular.ttf"),
    ("Booklet Sans", 700, "normal", "NotoSans-Bold.ttf"),
    ("Booklet Sans", 400, "italic", "NotoSans-Italic.ttf"),
    ("Booklet Sans", 700, "italic", "NotoSans-BoldItalic.ttf"),
    # What the text fonts lack (fonts.FALLBACK: the minus sign); booklet.css names it after them.
    ("Booklet Math", 400, "normal", "NotoSansMath-Regular.ttf"),
)


# ---- pictures -----------------------------------------------------------------------------

def card_pictures(faces: list[Face], dpi: int = CARD_DPI) -> dict[str, str]:
    """Each face drawn by the card renderer into a one-page-per-face PDF, rasterised to PNG."""
    if not faces:
        return {}
    doc = Document(tuple(faces[0].layout["size_mm"]), "cards")
    for face in faces:
        doc.new_page()
        w, h = face.layout["size_mm"]
        doc.canvas.setPageSize((w * 72 / 25.4, h * 72 / 25.4))
        draw_placed(doc.canvas, face.placed)
    data, _ = doc.finish()
    pictures = {}
    pdf = pypdfium2.PdfDocument(data)
    try:
        for face, page in zip(faces, pdf):
            image = page.render(scale=dpi / 72).to_pil()
            buffer = io.BytesIO()
            # Light compression: WeasyPrint decodes and re-compresses it into the PDF anyway.
            image.save(buffer, format="PNG", dpi=(dpi, dpi), compress_level=1)
            pictures[face.key] = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
            page.close()
    finally:
        pdf.close()
    return pictures


def component_picture(drawing, dpi: int = CARD_DPI) -> tuple[str, float, list[str]]:
    """(data: URI of a PNG, width in mm, the names of the parts its numbered marks point at) of
    one component as its kind draws it for the booklet (`Kind.picture`: its size, its drawing,
    and for a board the names of the parts its marks number)."""
    (w, h), draw, *named = drawing
    pad = 1.0                                   # room for the cut line's stroke
    doc = Document((w + 2 * pad, h + 2 * pad), "picture")
    doc.new_page()
    doc.canvas.translate(pad * 72 / 25.4, pad * 72 / 25.4)
    draw(doc.canvas)
    data, _ = doc.finish()
    pdf = pypdfium2.PdfDocument(data)
    try:
        page = pdf[0]
        image = page.render(scale=dpi / 72).to_pil()
        page.close()
    finally:
        pdf.close()
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", dpi=(dpi, dpi), compress_level=1)
    image_uri = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
    return image_uri, w + 2 * pad, (named[0] if named else [])


# ---- render -------------------------------------------------------------------------------

class ProjectFetcher(URLFetcher):
    """Lets WeasyPrint read only the project's own files, the tool's templates and fonts, and
    data: URIs; anything else (http, ftp, files elsewhere) is refused and remembered."""

    def __init__(self, roots: list[Path]):
        super().__init__(allowed_protocols={"file", "data"})
        self.roots = [root.resolve() for root in roots]
        self.refused: list[str] = []

    def allows(self, url: str) -> bool:
        parts = urlsplit(url)
        if parts.scheme == "data":
            return True
        if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
            return False
        path = Path(unquote(parts.path)).resolve()
        return path.is_file() and any(path.is_relative_to(root) for root in self.roots)

    def fetch(self, url, headers=None):
        if not self.allows(url):
            self.refused.append(url)
            raise ValueError(f"refused {url}: the booklet may use only the project's own files")
        return super().fetch(url, headers)


class _Warnings(logging.Handler):
    def __init__(self, level: int = logging.WARNING):
        super().__init__(level)
        self.messages: list[str] = []

    def emit(self, record):
        # A picture is a data: URI: its bytes would drown the message.
        self.messages.append(DATA_URI.sub(r"\1…", record.getMessage()))


@dataclass
class RenderedBooklet:
    data: bytes
    pages: int               # after padding: a multiple of 4
    content_pages: int
    fit: str = ""            # the spacing it was laid out in: '' as designed, or one of FITS


def font_faces() -> list[dict]:
    return [{"family": family, "weight": weight, "style": style, "url": (fonts.FONT_DIR / file).resolve().as_uri()}
            for family, weight, style, file in FONT_FACES]


def booklet_html(project: Project, content: BookletContent, *, notes: str | None = None) -> tuple[str, str]:
    """The booklet's HTML from the templates, and the base URL its links are read against;
    `notes` is the notes pages' heading. The spacing it is laid out in is set on the parsed
    page (`with_fit`)."""
    stylesheet = project.template("booklet/booklet.css")
    if notes is None:
        notes = content.notes or booklet_words(project, content.lang)["notes"]
    # Plain words for `ui`: the template gets the values, not the layout's bookkeeping.
    html = render_html(project, {"booklet": replace(content, ui=dict(content.ui), notes=notes),
                                 "fonts": font_faces(), "stylesheet": stylesheet.resolve().as_uri(),
                                 "pad_pages": PAD_PAGES})
    return html, stylesheet.parent.resolve().as_uri()


def page_fill(page) -> float:
    """How far down its text area a laid-out page is filled (0 empty, 1 full): the lowest
    line or picture of the page's content, not its margins (the page number)."""
    from weasyprint.formatting_structure import boxes
    box = page._page_box
    top, height = box.content_box_y(), box.height
    lowest = top
    for child in box.children:
        if isinstance(child, boxes.MarginBox):
            continue
        for inner in child.descendants():
            if isinstance(inner, (boxes.LineBox, boxes.ReplacedBox)) or (
                    isinstance(inner, boxes.BlockBox) and not inner.children and inner.height):
                lowest = max(lowest, inner.position_y + inner.margin_height())
    return min(1.0, (lowest - top) / height) if height else 1.0


def fits(document, content_pages: int) -> bool:
    """A layout fills whole sheets: its rules end on the last page of a sheet, or one page
    before it (the notes page), and that last page of rules is not nearly empty."""
    return -content_pages % PAGE_MULTIPLE <= 1 and page_fill(document.pages[content_pages - 1]) >= LAST_PAGE_FULL


def can_fit_between(fewest: int, most: int) -> bool:
    """Whether a page count from `fewest` to `most` content pages can end a sheet (or a page
    short of one, for the notes page)."""
    return any(-pages % PAGE_MULTIPLE <= 1 for pages in range(fewest, most + 1))


def fitted(laid_out):
    """The layout that fills whole sheets: as designed if it does, else the first of FITS that
    does, else as designed. `laid_out(fit)` gives (document, content pages) in that spacing;
    returns (document, content pages, fit).
    A booklet two pages into a sheet must lose two pages to be tightened: the tightest spacing
    is tried first, and when no page count between its and the design's can end a sheet, the
    steps between are not tried either (a tighter spacing never takes more pages)."""
    document, content_pages = laid_out("")
    if fits(document, content_pages):
        return document, content_pages, ""
    known, order = {}, FITS
    if -content_pages % PAGE_MULTIPLE == 2:
        known[TIGHTER[-1]] = laid_out(TIGHTER[-1])
        if not can_fit_between(known[TIGHTER[-1]][1], content_pages):
            order = LOOSER
    for fit in order:
        candidate, pages = known.pop(fit, None) or laid_out(fit)
        if fits(candidate, pages):
            return candidate, pages, fit
    return document, content_pages, ""


HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


def stranded_headings(document) -> list[tuple[int, object, bool]]:
    """(page number, element, alone) of each heading that is the last thing on a page of
    content (its lowest line or picture is the heading's; a page's margin boxes, the page
    number, aside); `alone` when nothing of the page stands above it either."""
    from weasyprint.formatting_structure import boxes
    found = []
    for number, page in enumerate(document.pages, start=1):
        placed = [(box.position_y, box.position_y + box.margin_height(), element)
                  for child in page._page_box.children if not isinstance(child, boxes.MarginBox)
                  for box, element in _content_boxes(child, None)]
        if not placed:
            continue
        last = max(placed, key=lambda p: p[1])[2]
        if last is not None and last.tag in HEADINGS and all(last is not e for _, e, _ in found):
            alone = all(element is last for _, _, element in placed)
            found.append((number, last, alone))
    return found


def _content_boxes(box, heading):
    """(line or picture box, the heading it belongs to or the box's own element) under `box`."""
    from weasyprint.formatting_structure import boxes
    element = getattr(box, "element", None)
    if element is not None and getattr(element, "tag", None) in HEADINGS:
        heading = element
    if isinstance(box, (boxes.LineBox, boxes.ReplacedBox)):
        yield box, heading if heading is not None else element
        return
    for child in getattr(box, "children", ()):
        yield from _content_boxes(child, heading)


def heading_text(element) -> str:
    return BREAKS.sub(" ", "".join(element.itertext())).strip()


def add_style(element, declaration: str) -> None:
    element.set("style", "; ".join(filter(None, [element.get("style"), declaration])))


def keep_with_heading(root, heading, alone: bool) -> None:
    """Keep a heading stranded at a page's foot with what it heads: the block after it is kept
    whole (break-inside: avoid) and did not fit under it. With text above it on its page, the
    heading starts the next page; alone on its page (the block fits only on a page of its
    own), the block is let break inside, so that it starts under the heading."""
    if not alone:
        add_style(heading, "break-before: page")
        return
    for parent in root.iter():
        children = list(parent)
        if heading in children:
            position = children.index(heading)
            if position + 1 < len(children):
                add_style(children[position + 1], "break-inside: auto")
            return


def describe_links(document, pdf) -> None:
    """Each link's description (/Contents, what a screen reader says of it) is its text in the
    booklet's words; WeasyPrint writes the id of its target there."""
    for page in document.pages:
        for _kind, _target, _rectangle, box in page.links:
            annotation = getattr(box, "link_annotation", None)
            words = BREAKS.sub(" ", "".join(box.element.itertext())).strip() if box.element is not None else ""
            if annotation is not None and words:
                annotation["Contents"] = pydyf.String(words)


# What a header cell heads, as the PDF's structure says it (/Scope), by its HTML scope.
SCOPES = {"col": "/Column", "colgroup": "/Column", "row": "/Row", "rowgroup": "/Row"}


def scope_headers(document, pdf) -> None:
    """Each header cell (/TH) says what it heads (/Scope), as its HTML `scope` does; one without
    heads its column in the table's head and its row elsewhere. WeasyPrint links data cells
    to their headers (/Headers and /IDs) but writes no /Scope, and a reader that goes by it
    then cannot tell a column's header from a row's."""
    from weasyprint.formatting_structure import boxes
    for page in document.pages:
        for box in page._page_box.descendants():
            mark = getattr(box, "mark", None)
            if not isinstance(box, boxes.TableCellBox) or mark is None or box.element_tag != "th":
                continue
            scope = SCOPES.get(box.element.get("scope", ""))
            if scope is None:
                scope = "/Column" if box.element.getparent().getparent().tag == "thead" else "/Row"
            mark["A"]["Scope"] = scope


def finish_tagged(document, pdf) -> None:
    """What the booklet's tags need beyond WeasyPrint's: links described, header cells scoped."""
    describe_links(document, pdf)
    scope_headers(document, pdf)


def mark_hyphenation(root, locale: str) -> None:
    """The parsed booklet hyphenated as the locale's typography says: its body set in the
    patterns' language where that is not the locale's own (the document keeps its language
    tag), and each word the locale lists set apart in a span of its own, with soft hyphens
    where it may break (none where it may not)."""
    patterns = typography.hyphenation_patterns(locale)
    body = root.find("body")
    if body is None:
        return
    if patterns != locale:
        body.set("lang", patterns)
    # The body's text only: the head's title is the document's name, set in no line.
    for element in list(body.iter()):
        if element.tag not in ("style", "script"):
            _set_listed_words_apart(element, locale)


# Only soft hyphens break a word in such a span. Set apart, its soft hyphens stay out of the
# paragraph's other text: WeasyPrint turns the patterns off for the whole of a text that holds
# one, which would leave every other word of the paragraph unhyphenated.
LISTED_WORD = "hyphens: manual"


def _set_listed_words_apart(element, locale: str) -> None:
    """Each listed word of the element's own text, and of the text after each of its children,
    moved into a span of its own (LISTED_WORD), with soft hyphens where it may break."""
    def split(text: str | None):
        spans = typography.listed_words(text, locale) if text else []
        if not spans:
            return text, []
        cuts = [0, *(at for span in spans for at in span), len(text)]
        parts = [text[a:b] for a, b in zip(cuts, cuts[1:])]
        words = []
        for word, after in zip(parts[1::2], parts[2::2]):
            span = element.makeelement("span", {"style": LISTED_WORD})
            span.text, span.tail = typography.with_soft_hyphens(word, locale), after or None
            words.append(span)
        return parts[0], words

    for child in list(element):               # the children as they are: a span made here is done
        child.tail, words = split(child.tail)
        at = list(element).index(child) + 1
        for index, span in enumerate(words):
            element.insert(at + index, span)
    element.text, words = split(element.text)
    for index, span in enumerate(words):
        element.insert(index, span)


def with_fit(parsed: HTML, fit: str) -> HTML:
    """A copy of the parsed booklet to lay out (and change) in the spacing `fit`, the class of
    its root element: the page is parsed once, however many spacings are tried."""
    source = copy.copy(parsed)
    root = copy.deepcopy(parsed.etree_element)
    if fit:
        root.set("class", fit)
    source.wrapper_element = cssselect2.ElementWrapper.from_html_root(root, content_language=None)
    source.etree_element = source.wrapper_element.etree_element
    return source


def render(project: Project, content: BookletContent) -> RenderedBooklet:
    """HTML from the templates, PDF from WeasyPrint, filled to a multiple of 4 pages: laid out
    again a step tighter or looser when that ends the rules on a whole sheet (or one page short
    of it, for the notes page), and padded with the template's notes pages."""
    subset.install()          # the same bytes as WeasyPrint's own subsetting, sooner
    # The project's templates/ is in the project: a link there to elsewhere gives no access.
    fetcher = ProjectFetcher([project.root, fonts.FONT_DIR, TOOL_TEMPLATES])
    warnings = _Warnings()
    logger = logging.getLogger("weasyprint")
    notes = booklet_words(project, content.lang)["notes"]

    html, base_url = booklet_html(project, content, notes=notes)
    parsed = HTML(string=html, base_url=base_url, url_fetcher=fetcher)
    mark_hyphenation(parsed.etree_element, content.lang)

    # One font configuration and one image cache for every layout tried: the booklet's fonts
    # are loaded and its pictures decoded once, not once a layout.
    font_config, images = FontConfiguration(), {}

    def laid_out(fit: str):
        source = with_fit(parsed, fit)
        document = source.render(font_config=font_config, cache=images)
        # No word is hyphenated across a page break: a paragraph whose last line on a page ends
        # hyphenated is laid out again without hyphenation (which may move a break further on).
        # No heading ends a page: what it heads is let break (see keep_with_heading).
        for _ in range(MAX_REFLOWS):
            split = typography.hyphenated_page_ends(document)
            stranded = stranded_headings(document)
            if not split and not stranded:
                break
            for element in split:
                add_style(element, "hyphens: manual")
            for _page, heading, alone in stranded:
                keep_with_heading(source.etree_element, heading, alone)
            document = source.render(font_config=font_config, cache=images)
        stranded = stranded_headings(document)
        if stranded:
            raise BuildError(f"booklet {content.title} ({content.lang}): " + "; ".join(
                f"page {page} ends with the heading '{heading_text(heading)}'" for page, heading, _ in stranded))
        pads = [i for i, page in enumerate(document.pages) if any(a.startswith("pad-") for a in page.anchors)]
        content_pages = len(document.pages) - PAD_PAGES
        if pads != list(range(content_pages, len(document.pages))):
            raise BuildError(f"the booklet template must end with {PAD_PAGES} pages to fill the last sheet "
                             f"(ids pad-1...)")
        return document, content_pages

    logger.addHandler(warnings)
    try:
        document, content_pages, fit = fitted(laid_out)
    finally:
        logger.removeHandler(warnings)
    problems = [f"refused {url}" for url in fetcher.refused] + warnings.messages
    if problems:
        raise BuildError(f"booklet {content.title} ({content.lang}): " + "; ".join(dict.fromkeys(problems)))
    # A word wider than its table cell would run over the next column or off the page.
    check_fits(document, f"booklet {content.title} ({content.lang})")
    keep = content_pages + (-content_pages % PAGE_MULTIPLE)
    padded = document.copy(document.pages[:keep])
    # No pdf_identifier and no dates in the metadata: the same input gives the same bytes.
    # Tagging logs an error for a picture without alternative text: that fails the build too.
    # (Only errors: a font HarfBuzz cannot subset is a warning, and goes in whole.)
    tagging = _Warnings(logging.ERROR)
    logger.addHandler(tagging)
    try:
        data = padded.write_pdf(pdf_variant=PDF_VARIANT, finisher=finish_tagged)
    finally:
        logger.removeHandler(tagging)
    if tagging.messages:
        raise BuildError(f"booklet {content.title} ({content.lang}), tagged for screen readers (every <img> needs "
                         f"an alt text): " + "; ".join(dict.fromkeys(tagging.messages)))
    return RenderedBooklet(data, keep, content_pages, fit)
