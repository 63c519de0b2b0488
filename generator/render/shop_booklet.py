"""The rule booklet for a print shop that prints CMYK: the same pages as the home booklet, every
colour separated for the profile's press and the file made PDF/X.

The booklet's HTML and stylesheets are the home booklet's; only what WeasyPrint reads is
changed on the way in: each CSS colour becomes `device-cmyk()` with the numbers the profile's
palette gives (generator/core/colour.py: text and lines in neutral grey on K alone,
backgrounds with rich black, all within the ink limit), and each raster picture is separated
through the same press profile (perceptual) into a CMYK JPEG. Links are dropped (a printed
page has none). The PDF then gets bleed round each page (render/shop.py) and its OutputIntent
and PDF/X keys (render/pdfx.py), as card files do.

decided: WeasyPrint's own `pdf/x-4` variant is not used: it writes today's date into the
document info and XMP, so the same input would not give the same bytes; make_pdfx writes the
same keys with the build's fixed date and the press-named OutputIntent the card files carry.
"""
from __future__ import annotations

import base64
import io
import logging
import re
from dataclasses import replace
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ..core.colour import Palette


HEX = re.compile(r"#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b")
FUNCTION = re.compile(r"rgba?\(\s*([^)]*)\)")
NAMED = {"white": "#FFFFFF", "black": "#000000"}
NAMED_RE = re.compile(r"(?<![\w-])(white|black)(?![\w-])", re.IGNORECASE)
DECLARATION = re.compile(r"([a-zA-Z-]+)(\s*:\s*)([^;{}]+)")
# What the browser's own stylesheet would paint in RGB: a link's blue.
PRESS_CSS = "\na, a:link, a:visited { color: inherit; text-decoration-color: currentColor; }\n"
JPEG_QUALITY = 95
# Pictures for a shop's booklet are drawn at this resolution: a picture the booklet prints at
# real size stays above the 300 ppi presses ask for, and the cover's card (a 63 mm card shown
# 48 mm wide, booklet.css) well above it; each step up costs the square in pixels to separate.
PRESS_PICTURE_DPI = 320
# JPEG moves each channel by a few levels, so pictures are held this far (percent of total ink)
# under the profile's limit; preflight measures the decoded pixels against the limit itself.
JPEG_INK_MARGIN = 8


def _cmyk(palette: Palette, value: str, area: bool, alpha: float | None = None) -> str:
    c, m, y, k = palette.cmyk(value, area)
    numbers = " ".join(f"{v:.3f}".rstrip("0").rstrip(".") or "0" for v in (c, m, y, k))
    return f"device-cmyk({numbers}{'' if alpha is None else f' / {alpha:g}'})"


def _hex6(value: str) -> str:
    value = value.lstrip("#")
    if len(value) == 3:
        value = "".join(ch * 2 for ch in value)
    return "#" + value.upper()


def _function(palette: Palette, match: re.Match, area: bool) -> str:
    parts = [p for p in re.split(r"[\s,/]+", match.group(1).strip()) if p]
    channels = []
    for part in parts[:3]:
        channels.append(round(float(part[:-1]) * 2.55) if part.endswith("%") else round(float(part)))
    alpha = None
    if len(parts) > 3:
        alpha = float(parts[3][:-1]) / 100 if parts[3].endswith("%") else float(parts[3])
    value = "#" + "".join(f"{max(0, min(255, v)):02X}" for v in channels)
    return _cmyk(palette, value, area, alpha)


def press_css(css: str, palette: Palette) -> str:
    """Every hex, rgb() / rgba() and black / white colour of a stylesheet as device-cmyk():
    in a background (an area) with rich black, elsewhere (text, borders, lines) grey on K."""
    def declaration(match: re.Match) -> str:
        prop, colon, value = match.groups()
        if prop.lower() in ("src", "font-family", "content"):
            return match.group(0)
        area = prop.lower().startswith("background")
        value = FUNCTION.sub(lambda m: _function(palette, m, area), value)
        value = HEX.sub(lambda m: _cmyk(palette, _hex6(m.group(0)), area), value)
        value = NAMED_RE.sub(lambda m: _cmyk(palette, NAMED[m.group(1).lower()], area), value)
        return prop + colon + value
    return DECLARATION.sub(declaration, css) + PRESS_CSS


# An SVG's colours: its painting attributes and its style attributes (an icon in the text).
SVG_PAINT = re.compile(r'((?:fill|stroke|stop-color|flood-color|color)\s*=\s*["\'])([^"\']*)(["\'])')
SVG_STYLE = re.compile(r'(style\s*=\s*["\'])([^"\']*)(["\'])')


def press_svg(svg: str, palette: Palette) -> str:
    """An SVG (an icon in the booklet's text) with every colour it paints as device-cmyk(), as
    the text's are: grey on K alone."""
    def paint(match: re.Match) -> str:
        value = FUNCTION.sub(lambda m: _function(palette, m, False), match.group(2))
        value = HEX.sub(lambda m: _cmyk(palette, _hex6(m.group(0)), False), value)
        value = NAMED_RE.sub(lambda m: _cmyk(palette, NAMED[m.group(1).lower()], False), value)
        return match.group(1) + value + match.group(3)
    svg = SVG_PAINT.sub(paint, svg)
    # what paints without a colour of its own paints black: black on K alone, as text is
    svg = re.sub(r"<svg\b(?![^>]*\sfill\s*=)", f'<svg fill="{_cmyk(palette, "#000000", False)}"', svg, count=1)
    return SVG_STYLE.sub(lambda m: m.group(1) + press_css(m.group(2), palette).replace(PRESS_CSS, "") + m.group(3),
                         svg)


def press_picture(data: bytes, palette: Palette) -> bytes:
    """A raster picture (PNG, JPEG ...) as a CMYK JPEG separated for the palette's press,
    transparency flattened onto white paper; the resolution is kept."""
    from PIL import Image
    image = Image.open(io.BytesIO(data))
    dpi = image.info.get("dpi")
    if image.mode in ("RGBA", "LA", "P", "PA"):
        image = image.convert("RGBA")
        paper = Image.new("RGB", image.size, (255, 255, 255))
        paper.paste(image, mask=image.getchannel("A"))
        image = paper
    held = replace(palette, ink_limit=palette.ink_limit - JPEG_INK_MARGIN)
    cmyk = held.picture(image if image.mode == "CMYK" else image.convert("RGB"))
    out = io.BytesIO()
    options = {"dpi": tuple(float(v) for v in dpi)} if dpi else {}
    cmyk.save(out, "JPEG", quality=JPEG_QUALITY, subsampling=0, **options)
    return out.getvalue()


def press_fetcher(base, palette: Palette):
    """A fetcher like `base` (a ProjectFetcher: the same files allowed and refused) that hands
    WeasyPrint stylesheets and pictures in the press's colours."""
    from weasyprint.urls import URLFetcherResponse

    class PressFetcher(type(base)):
        def fetch(self, url, headers=None):
            if not self.allows(url):
                self.refused.append(url)
                raise ValueError(f"refused {url}: the booklet may use only the project's own files")
            parts = urlsplit(url)
            if parts.scheme == "data":
                head, _, payload = url.partition(",")
                mime = head[5:].split(";")[0].lower()
                if mime in ("image/png", "image/jpeg", "image/gif", "image/webp") and ";base64" in head:
                    return URLFetcherResponse(url, press_picture(base64.b64decode(payload), palette),
                                              {"Content-Type": "image/jpeg"})
                if mime == "image/svg+xml":
                    text = base64.b64decode(payload).decode("utf-8") if ";base64" in head else unquote(payload)
                    return URLFetcherResponse(url, press_svg(text, palette).encode("utf-8"),
                                              {"Content-Type": "image/svg+xml"})
                if mime == "text/css":
                    text = base64.b64decode(payload).decode("utf-8") if ";base64" in head else unquote(payload)
                    return URLFetcherResponse(url, press_css(text, palette).encode("utf-8"),
                                              {"Content-Type": "text/css; charset=utf-8"})
                return super().fetch(url, headers)
            path = Path(unquote(parts.path))
            suffix = path.suffix.lower()
            if suffix == ".css":
                return URLFetcherResponse(url, press_css(path.read_text(encoding="utf-8"), palette).encode("utf-8"),
                                          {"Content-Type": "text/css; charset=utf-8"})
            if suffix == ".svg":
                return URLFetcherResponse(url, press_svg(path.read_text(encoding="utf-8"), palette).encode("utf-8"),
                                          {"Content-Type": "image/svg+xml"})
            if suffix in (".png", ".jpg", ".jpeg", ".gif", ".webp"):
                return URLFetcherResponse(url, press_picture(path.read_bytes(), palette), {"Content-Type": "image/jpeg"})
            return super().fetch(url, headers)

    fetcher = PressFetcher.__new__(PressFetcher)
    fetcher.__dict__.update(base.__dict__)
    return fetcher


def without_links(data: bytes) -> bytes:
    """The PDF with its link annotations removed, and the Lab colour spaces WeasyPrint declares
    on every page (and paints nothing with here) dropped, so the file names CMYK alone."""
    import pikepdf

    def unused_lab(owner, resources):
        spaces = resources.get("/ColorSpace") if resources is not None else None
        if spaces is None:
            return
        used = {str(operands[0]) for operands, operator in pikepdf.parse_content_stream(owner)
                if str(operator) in ("cs", "CS") and operands}
        for name in list(spaces.keys()):
            space = spaces[name]
            if name not in used and isinstance(space, pikepdf.Array) and len(space) and space[0] == pikepdf.Name.Lab:
                del spaces[name]

    with pikepdf.open(io.BytesIO(data)) as pdf:
        seen = set()
        for page in pdf.pages:
            annots = page.obj.get("/Annots")
            if annots is not None:
                kept = [a for a in annots if a.get("/Subtype") != "/Link"]
                if kept:
                    page.obj.Annots = pikepdf.Array(kept)
                else:
                    del page.obj["/Annots"]
            resources = page.obj.get("/Resources")
            unused_lab(page, resources)
            for xobject in (resources or {}).get("/XObject", {}).values():
                if xobject.get("/Subtype") == "/Form" and xobject.objgen not in seen:
                    seen.add(xobject.objgen)
                    unused_lab(xobject, xobject.get("/Resources"))
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True)
        return out.getvalue()


def render_press_booklet(project, content, spec, title: str) -> tuple[bytes, int]:
    """The booklet (generator.layout.booklet.BookletContent) for a shop: padded to whole sheets as at
    home, in the press's CMYK, bleed round each page, PDF/X. Returns the PDF and its pages."""
    from weasyprint import HTML

    from ..core import fonts
    from ..core.errors import BuildError
    from . import booklet as home
    from . import subset
    from .pdfx import make_pdfx
    from .shop import booklet_with_bleed
    subset.install()
    content = replace(content, scale_bar=False)      # no home furniture in a shop's file
    fetcher = press_fetcher(home.ProjectFetcher([project.root, fonts.FONT_DIR, home.TOOL_TEMPLATES]), spec.palette)

    html, base_url = home.booklet_html(project, content)
    # Colours written in the page itself (style attributes, <style>) go through the same rules.
    html = re.sub(r"(<style[^>]*>)(.*?)(</style>)", lambda m: m.group(1) + press_css(m.group(2), spec.palette)
                  + m.group(3), html, flags=re.S)
    html = re.sub(r'style="([^"]*)"', lambda m: 'style="' + press_css(m.group(1), spec.palette)
                  .replace(PRESS_CSS, "") + '"', html)
    parsed = HTML(string=html, base_url=base_url, url_fetcher=fetcher)

    def laid_out(fit: str):
        document = home.with_fit(parsed, fit).render()
        return document, len(document.pages) - home.PAD_PAGES

    warnings = home._Warnings()
    logger = logging.getLogger("weasyprint")
    logger.addHandler(warnings)
    try:
        # the spacing the home booklet is laid out in, so its pages are the same
        document, content_pages, _ = home.fitted(laid_out)
    finally:
        logger.removeHandler(warnings)
    problems = [f"refused {url}" for url in fetcher.refused] + warnings.messages
    if problems:
        raise BuildError(f"booklet {content.title} ({content.lang}): " + "; ".join(dict.fromkeys(problems)))
    keep = content_pages + (-content_pages % home.PAGE_MULTIPLE)
    data = without_links(document.copy(document.pages[:keep]).write_pdf())
    data = booklet_with_bleed(data, spec.bleed_mm)
    if spec.pdfx_standard:
        data = make_pdfx(data, *spec.pdfx_standard, title, press_name=spec.palette.press)
    return data, keep
