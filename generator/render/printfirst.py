"""A home kit's print-first page as a tagged PDF (PDF/UA-1), made as the designer's report is:
HTML from templates/printfirst/ in the booklet's Jinja2 sandbox, WeasyPrint with the project's
fetcher and the shipped Noto Sans (Cyrillic file notes render), its table heading its columns
and rows. WeasyPrint wraps every line into its cell, so a longer translation makes the page
longer, and a word wider than its cell is an error, never clipped (render/tagged_page.py); no
date and no identifier are written, so the same page gives the same bytes.
"""
from __future__ import annotations

from dataclasses import asdict

from ..core.fonts import FONT_DIR
from ..layout.printfirst import PrintFirstPage
from ..load.project import Project
from .booklet_templates import PRINT_FIRST_TEMPLATE, render_html
from .tagged_page import tagged_pdf


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
    return tagged_pdf(project, html, stylesheet, f"print-first page {page.subtitle} ({page.lang})")
