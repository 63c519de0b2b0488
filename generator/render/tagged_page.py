"""A short document from the project's HTML templates made into a tagged PDF (PDF/UA-1), as the
designer's report and the print-first page are: WeasyPrint with the project's fetcher (nothing
outside the project, the shipped fonts and the tool's templates is read), the same font
subsetting as the booklet, the build's fixed date, and no text wider than its box."""
from __future__ import annotations

import logging

from weasyprint import HTML

from ..core.errors import BuildError
from ..core.fonts import FONT_DIR
from ..core.reproducible import fixed_clock
from ..load.project import TOOL_TEMPLATES, Project
from . import subset
from .booklet import PDF_VARIANT, ProjectFetcher, _Warnings, finish_tagged
from .overflow import check_fits


def tagged_pdf(project: Project, html: str, stylesheet, what: str) -> tuple[bytes, int]:
    """The PDF of `html` (its links read against `stylesheet`'s folder) and its number of pages.
    A file it may not read, a picture without its text (logged as an error when tagged) or a
    text that does not fit fails it, named with `what`."""
    subset.install()          # the same bytes as WeasyPrint's own subsetting, sooner
    fetcher = ProjectFetcher([project.root, FONT_DIR, TOOL_TEMPLATES])
    logger = logging.getLogger("weasyprint")
    problems = _Warnings(logging.ERROR)
    logger.addHandler(problems)
    try:
        document = HTML(string=html, base_url=stylesheet.parent.resolve().as_uri(), url_fetcher=fetcher).render()
        check_fits(document, what)
        # Font subsets stamped with the build's fixed date, whoever asks for the file.
        with fixed_clock():
            data = document.write_pdf(pdf_variant=PDF_VARIANT, finisher=finish_tagged)
    finally:
        logger.removeHandler(problems)
    found = [f"refused {url}" for url in fetcher.refused] + problems.messages
    if found:
        raise BuildError(f"{what}: " + "; ".join(dict.fromkeys(found)))
    return data, len(document.pages)
