"""What a built file is: its path inside the output folder, its bytes and what it is (an
`Artifact`, with the ink its pages take), and whether a name is one a file inside a folder can
have. Every stage that makes files makes these; the write stage writes them.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field


# The manifest's ink estimate renders every page at this resolution: cheap, and coverage
# averaged over a page hardly changes with it.
INK_DPI = 20
INK_KEY = "ink_coverage_percent"
# The longest file or folder name common file systems take, in bytes.
NAME_MAX = 255


@dataclass
class Artifact:
    """One built file, held in memory until every file of the build has rendered."""

    path: str                 # relative to the output folder, with forward slashes
    data: bytes
    game: str
    kind: str
    edition: str = ""
    locale: str = ""
    paper: str = ""
    pages: int = 0
    details: dict = field(default_factory=dict)
    # Where the file's name came from (file, line, key), for an error about the name.
    source: tuple[str, int, str] = ("", 0, "")

    def __post_init__(self):
        # Estimated once, where the file is made (a build's worker), and kept with its details:
        # an artifact read back from the cache or the manifest has it already.
        if INK_KEY not in self.details:
            estimate = ink_coverage(self.data)
            if estimate is not None:
                self.details = {**self.details, INK_KEY: estimate}

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    def entry(self) -> dict:
        entry = {"path": self.path, "game": self.game, "edition": self.edition, "locale": self.locale,
                 "kind": self.kind, "paper": self.paper, "pages": self.pages,
                 "bytes": len(self.data), "sha256": self.sha256}
        entry.update(self.details)
        return entry


def ink_coverage(data: bytes) -> float | None:
    """Average ink coverage per page of a PDF or PNG, in percent of the page (C + M + Y + K,
    0 to 400 %), or None for any other file.

    Each page is rendered at INK_DPI (pypdfium2, on white; a PNG is averaged down to about that,
    by its dpi or 300) and every pixel taken to CMYK by the
    naive formula K = 1 - max(R, G, B), C = (1 - R - K) / (1 - K) and so on: what a home printer
    with no colour management lays down, near enough to compare files (an ink-saving variant
    with its normal one); not a press separation, which generator/core/colour.py makes."""
    import numpy
    if data.startswith(b"%PDF"):
        import pypdfium2 as pdfium
        try:
            document = pdfium.PdfDocument(data)
        except pdfium.PdfiumError:
            return None
        try:
            pages = []
            for index in range(len(document)):
                page = document[index]
                bitmap = page.render(scale=INK_DPI / 72, fill_color=(255, 255, 255, 255), rev_byteorder=True)
                pages.append(_coverage(bitmap.to_numpy()[..., :3]))
                page.close()
        finally:
            document.close()
    elif data.startswith(b"\x89PNG"):
        import io

        from PIL import Image
        with Image.open(io.BytesIO(data)) as image:
            background = Image.new("RGBA", image.size, (255, 255, 255, 255))
            rgb = Image.alpha_composite(background, image.convert("RGBA")).convert("RGB")
            dpi = float((image.info.get("dpi") or (300, 300))[0]) or 300.0
        # averaged down to about INK_DPI, as a PDF's pages are rendered: a 7440 px wide sheet
        # of tabletop faces would otherwise take a gigabyte of floats to average
        factor = max(1, min(int(dpi / INK_DPI), min(rgb.size)))
        if factor > 1:
            rgb = rgb.reduce(factor)
        pages = [_coverage(numpy.asarray(rgb))]
    else:
        return None
    return round(sum(pages) / len(pages), 1) if pages else 0.0


def _coverage(rgb) -> float:
    """Mean C + M + Y + K (percent) of an RGB array of bytes (0..255), by the naive formula, from
    each pixel's brightest channel M and its channels' sum: K = 1 - M and C + M + Y =
    (3M - sum) / M, so a pixel takes 4 - M - sum / M, and black (M = 0) takes K alone, 1. The
    three channels are taken as three planes (numpy reduces a last axis of 3 slowly)."""
    import numpy
    red, green, blue = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    brightest = numpy.maximum(numpy.maximum(red, green), blue) / 255
    total = (red.astype(numpy.uint16) + green + blue) / 255
    lit = brightest > 0
    ink = numpy.where(lit, 4 - brightest - total / numpy.where(lit, brightest, 1), 1.0)
    return float(ink.mean() * 100)


def unsafe_name(relative: str) -> str:
    """Why `relative` (folders separated by /) is not a file name inside a folder, or ""."""
    if not relative:
        return "the name is empty"
    if "\\" in relative:
        return "it holds a backslash (folders are separated by /)"
    if any(ord(char) < 32 or char == "\x7f" for char in relative):
        return "it holds a control character"
    if relative.startswith("/"):
        return "it is an absolute path"
    for part in relative.split("/"):
        if part == "..":
            return "'..' would leave the output folder"
        if part in ("", "."):
            return "it has an empty or '.' folder name"
        if len(part.encode("utf-8")) > NAME_MAX:
            return f"a name in it is longer than {NAME_MAX} bytes"
    return ""
