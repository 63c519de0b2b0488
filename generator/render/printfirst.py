"""A home kit's print-first page as a tagged PDF (PDF/UA-1), made as the designer's report is:
HTML from templates/printfirst/ in the booklet's Jinja2 sandbox, WeasyPrint with the project's
fetcher and the shipped Noto Sans (Cyrillic file notes render), its table heading its columns
and rows. WeasyPrint wraps every line into its cell, so a longer translation makes the page
longer, never clipped; no date and no identifier are written, so the same page gives the same
bytes.
"""
from __future__ import annotations

import logging
from dataclasses import asdict

from weasyprint import HTML

from ..core.errors import BuildError
from ..core.fonts import FONT_DIR
from ..core.reproducible import fixed_clock
from ..layout.printfirst import PrintFirstPage
from ..load.project import TOOL_TEMPLATES, Project
from . import subset
from .booklet import PDF_VARIANT, ProjectFetcher, _Warnings, finish_tagged
from .booklet_templates import PRINT_FIRST_TEMPLATE, render_html


STYLESHEET = "printfirst/printfirst.css"
# Two faces only: each one the page uses is subset into it, which is most of its making.
FONT_FACES = (
    ("Noto Sans", 400, "normal", "NotoSans-Regular.ttf"),
    ("Noto Sans", 700, "normal", "NotoSans-Bold.ttf"),
)


def render_print_first(project: Project, page: PrintFirstPage) -> tuple[bytes, int]:
    """The page's PDF and its number of pages."""
    stylesheet = project.template(STYLESHEET)
    fonts = [{"family": family, "weight": weight, "style": style, "url": (FONT_DIR / file).resolve().as_uri()}
             for family, weight, style, file in FONT_FACES]
    html = render_html(project, {"page": asdict(page), "fonts": fonts, "stylesheet": stylesheet.resolve().as_uri()},
                       PRINT_FIRST_TEMPLATE)
    subset.install()          # the same bytes as WeasyPrint's own subsetting, sooner
    fetcher = ProjectFetcher([project.root, FONT_DIR, TOOL_TEMPLATES])
    logger = logging.getLogger("weasyprint")
    problems = _Warnings(logging.ERROR)
    logger.addHandler(problems)
    try:
        document = HTML(string=html, base_url=stylesheet.parent.resolve().as_uri(), url_fetcher=fetcher).render()
        with fixed_clock():
            data = document.write_pdf(pdf_variant=PDF_VARIANT, finisher=finish_tagged)
    finally:
        logger.removeHandler(problems)
    found = [f"refused {url}" for url in fetcher.refused] + problems.messages
    if found:
        raise BuildError(f"print-first page {page.subtitle} ({page.lang}): " + "; ".join(dict.fromkeys(found)))
    return data, len(document.pages)
