"""Preflight: check print files against a profile's acceptance criteria, file by file.

Works on any PDF or PNG, not only ours: boxes and sizes, page count and order, embedded fonts,
colour operators and images, total ink, image resolution, PDF/X OutputIntent and metadata,
text inside the safe zone, and for PNG the pixel size, resolution and colour mode.

Ink is measured on the vector colours actually painted (k/K, sc/scn in DeviceCMYK, g/G as
black ink) and on the pixels of CMYK images, found by walking every content stream and form.
That is exact for files without transparency, which PDF/X-1a forbids anyway, and needs no
rasteriser with a CMYK output (pdfium renders RGB only). A page that paints anything else (RGB,
Lab, an RGB image) is rendered and separated through the profile's press ICC, as a shop's RIP
would separate it, and its ink measured on those pixels.

The work is bounded for any file, however made: every stream's decoded size is measured before
anything is read (MAX_INFLATED_BYTES in all), the operators a page draws are counted before it is
walked, a form as often as it is drawn (MAX_OPERATORS), and nothing is rendered before both hold.
A file past a bound fails the check `complexity` ("too complex to check"); the other files are
still checked.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import io
import math
import re
import warnings
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
from pikepdf import Name

from ..core.colour import separation
from ..core.icc import REGISTRY, press
from ..load.profiles import MM_PER_INCH, FileSpec, Profile


PT_PER_MM = 72 / MM_PER_INCH
BOX_TOLERANCE_MM = 0.05
DPI_TOLERANCE = 0.5
# What reading a damaged file can raise in pikepdf, pdfium or PIL, including a recovered PDF
# whose objects are missing or of the wrong type: that file fails, the others are still checked.
DAMAGED = (pikepdf.PikepdfError, pdfium.PdfiumError, OSError, ValueError, TypeError, KeyError, IndexError,
           AttributeError)


# decided: the bounds of one file's check, far above what print files need: Race to the Table's
# 8-page shop booklet (its pictures CMYK JPEGs) decodes to 18 MB and draws 2,849 operators, its
# 54-page DriveThruCards file 0.3 MB and 4,257.
MAX_INFLATED_BYTES = 512 * 2**20     # every stream of the file decoded, in all
MAX_OPERATORS = 1_000_000            # content operators visited, a form counted each time it is drawn
# one page's or form's content, parsed whole: 4 MiB of "q Q" is two million operators to hold
MAX_CONTENT_BYTES = 4 * 2**20
MAX_PNG_PIXELS = 100_000_000         # a PNG larger than this is not a card image (20000 x 5000)
INK_RENDER_DPI = 72                  # a page painted in other colours is rendered this fine for its ink
INK_RENDER_PIXELS = 4_000_000        # and no finer than this many pixels
# What one byte of a filter's input can become at most, where the bytes cannot be decoded here
# (behind a filter that is not): ASCII85's "z" is four zero bytes, a RunLength run 128, an LZW
# code (12 bits) at most the 4,096-byte string its table holds, deflate 258 bytes in 2 bits.
FILTER_GROWTH = {"/ASCIIHexDecode": 1, "/AHx": 1, "/ASCII85Decode": 4, "/A85": 4, "/RunLengthDecode": 128,
                 "/RL": 128, "/LZWDecode": 2731, "/LZW": 2731, "/FlateDecode": 1032, "/Fl": 1032}
IMAGE_CODECS = ("/DCTDecode", "/DCT", "/JPXDecode", "/CCITTFaxDecode", "/CCF", "/JBIG2Decode")
ROLE_WORDS = {"cards": "a card file", "booklet": "a booklet", "components": "a component file"}


class TooComplex(Exception):
    """A file whose check would pass one of the bounds above; the message says which."""


@dataclass
class Check:
    criterion: str
    ok: bool | None           # None: does not apply to this file or profile
    detail: str


@dataclass
class FileReport:
    path: str
    checks: list[Check] = field(default_factory=list)
    taken_as: str = ""        # what the file was checked as, and why (its name, its size, --as)

    @property
    def ok(self) -> bool:
        return all(c.ok is not False for c in self.checks)

    def add(self, criterion: str, ok: bool | None, detail: str) -> None:
        self.checks.append(Check(criterion, ok, detail))

    def to_json(self) -> dict:
        return {"path": self.path, "ok": self.ok, "taken_as": self.taken_as,
                "checks": [{"criterion": c.criterion, "result": _word(c.ok), "detail": c.detail} for c in self.checks]}


def _word(ok: bool | None) -> str:
    return {True: "pass", False: "fail", None: "n/a"}[ok]


# ---- entry points -------------------------------------------------------------------------------

def preflight_files(files: dict[str, bytes], profile: Profile, read_sibling=None,
                    taken_as: str | None = None) -> list[FileReport]:
    """Check every file. `files` maps a name (a path; its tail tells the file's role) to bytes;
    `read_sibling(name)` returns bytes of a file not in `files` (a deck's other half), or None;
    `taken_as` ('cards', 'booklet' or 'component', `pnp preflight --as`) checks every file as
    that instead of by its name and size."""
    def sibling(name: str) -> bytes | None:
        if name in files:
            return files[name]
        return read_sibling(name) if read_sibling else None

    return [preflight(name, data, profile, sibling, taken_as) for name, data in files.items()]


def preflight_paths(paths: list[Path], profile: Profile, taken_as: str | None = None) -> list[FileReport]:
    """Files and folders on disk (folders: every PDF and PNG inside them)."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(p for p in path.rglob("*") if p.suffix.lower() in (".pdf", ".png") and p.is_file())
        else:
            found.append(path)
    files, unreadable = {}, {}
    for path in found:
        try:
            files[str(path)] = path.read_bytes()
        except OSError as exc:
            unreadable[str(path)] = FileReport(str(path), [Check("format", False, f"cannot read: {exc.strerror or exc}")])

    def read_sibling(name):
        path = Path(name)
        return path.read_bytes() if path.is_file() else None

    checked = {report.path: report for report in preflight_files(files, profile, read_sibling, taken_as)}
    return [checked.get(name) or unreadable[name] for name in dict.fromkeys(map(str, found))]


def preflight(name: str, data: bytes, profile: Profile, sibling=lambda name: None,
              taken_as: str | None = None) -> FileReport:
    report = FileReport(name)
    try:
        if data.startswith(b"\x89PNG"):
            _png(report, data, profile, taken_as)
        elif data[:1024].lstrip().startswith(b"%PDF") or b"%PDF-" in data[:1024]:
            _pdf(report, name, data, profile, sibling, taken_as)
        else:
            report.add("format", False, "neither a PDF nor a PNG file")
    except TooComplex as exc:
        report.add("complexity", False, f"too complex to check: {exc}; checks stopped here")
    except DAMAGED as exc:
        report.add("format", False, f"damaged, checks stopped here: {_reason(exc)}")
    return report


def _reason(exc: Exception) -> str:
    """The library's message without the in-memory stream it names; for what a damaged object
    tree trips up in Python itself, what that means."""
    if not isinstance(exc, (pikepdf.PikepdfError, pdfium.PdfiumError, OSError)):
        return f"an object the file refers to is missing or of the wrong kind ({type(exc).__name__}: {exc})"
    return re.sub(r"(stream )?<_io\.BytesIO object at 0x[0-9a-f]+>:?\s*", "", str(exc)).strip() or type(exc).__name__


# ---- PNG ------------------------------------------------------------------------------------------

def _png(report: FileReport, data: bytes, profile: Profile, taken_as: str | None) -> None:
    from PIL import Image
    with warnings.catch_warnings():
        # the size is checked against MAX_PNG_PIXELS here: PIL's warning would only repeat it
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        _png_checks(report, data, profile, taken_as)


def _png_checks(report: FileReport, data: bytes, profile: Profile, taken_as: str | None) -> None:
    from PIL import Image
    cards = profile.cards
    if cards is None or cards.format != "png":
        report.add("format", False, f"profile {profile.name} takes no PNG files")
        return
    if taken_as not in (None, "cards"):
        report.add("format", False, f"a PNG file is a card image, not a {taken_as} file")
        return
    report.taken_as = "a card image (a PNG)"
    try:
        # the size the file declares, before any pixel is decoded (PIL's own bomb check raises
        # DecompressionBombError only past twice its limit, and warns below that)
        with Image.open(io.BytesIO(data)) as declared:
            width, height = declared.size
    except Image.DecompressionBombError as exc:
        raise TooComplex(str(exc).split(", could")[0]) from None
    except (OSError, SyntaxError, ValueError) as exc:
        report.add("format", False, f"not a readable PNG: {_reason(exc)}")
        return
    if width * height > MAX_PNG_PIXELS:
        raise TooComplex(f"{width} x {height} px, more than the {MAX_PNG_PIXELS:,} pixels a card image may have")
    try:
        # Every chunk and its checksum to the end: a truncated or corrupt file fails here
        # (whatever ImageFile.LOAD_TRUNCATED_IMAGES another library has set). verify() leaves
        # the image unusable, so it is opened again to be measured.
        Image.open(io.BytesIO(data)).verify()
        image = Image.open(io.BytesIO(data))
    except (OSError, SyntaxError, ValueError) as exc:
        report.add("format", False, f"not a readable PNG: {_reason(exc)}")
        return
    sizes = [s.pixels for s in cards.sizes]
    report.add("png-size", image.size in sizes,
               f"{image.size[0]} x {image.size[1]} px; the profile wants "
               + " or ".join(f"{w} x {h}" for w, h in sizes))
    dpi = image.info.get("dpi")
    if dpi is None:
        report.add("png-resolution", False, f"no resolution recorded; the profile wants {cards.dpi:g} dpi")
    else:
        ok = all(abs(float(d) - cards.dpi) <= DPI_TOLERANCE for d in dpi) and min(map(float, dpi)) >= cards.min_image_ppi - DPI_TOLERANCE
        report.add("png-resolution", ok, f"{float(dpi[0]):.1f} x {float(dpi[1]):.1f} dpi; the profile wants {cards.dpi:g}")
    wanted = "RGB" if cards.palette.space == "rgb" else "CMYK"
    report.add("png-colour", image.mode == wanted,
               f"mode {image.mode}; the profile wants {wanted}" + (" without alpha" if wanted == "RGB" else ""))


# ---- PDF ------------------------------------------------------------------------------------------

def _pdf(report: FileReport, name: str, data: bytes, profile: Profile, sibling, taken_as: str | None) -> None:
    try:
        pdf = pikepdf.open(io.BytesIO(data))
    except pikepdf.PikepdfError as exc:
        report.add("format", False, f"not a readable PDF: {_reason(exc)}")
        return
    with pdf:
        _bounded_streams(pdf)
        # One walk, bounded (TooComplex), before anything else reads the pages or renders them.
        walk = _Walk(pdf)
        role, spec, fields, why = _role(name, profile, pdf, taken_as)
        if role is None:
            report.add("format", False, f"profile {profile.name} takes no PDF files")
            return
        report.taken_as = f"{ROLE_WORDS[role]}, {why}"
        _home_furniture(report, pdf)
        _resources(report, pdf, data)
        if role == "components":
            _component_file(report, pdf, data, profile.components, walk)
            return
        if role == "booklet":
            bleed, trims = profile.booklet.bleed_mm, None
        else:
            bleed, trims = profile.cards.bleed_mm, card_trims(profile)
        _boxes(report, pdf, bleed, trims)
        if role == "booklet":
            count = len(pdf.pages)
            multiple = profile.booklet.page_multiple
            ok = count > 0 and count % multiple == 0
            report.add("pages", ok, f"{count} pages, " + ("" if ok else "not ") + f"a multiple of {multiple} for saddle stitching")
        else:
            _card_pages(report, pdf, name, spec, fields, profile, sibling)
        _fonts(report, pdf)
        if role == "booklet":
            # As strictly as card files: colour, ink, images and PDF/X by the booklet's own
            # settings (the cards' unless it has its own), and no links on a printed page.
            _colour(report, walk, profile.booklet, data)
            _images(report, walk, profile.booklet.min_image_ppi)
            _pdfx(report, pdf, data, profile.booklet, walk)
            _links(report, pdf)
        if role == "cards":
            _colour(report, walk, profile.cards, data)
            _images(report, walk, profile.cards.min_image_ppi)
            _pdfx(report, pdf, data, profile.cards, walk)
            _safe_zone(report, data, pdf, profile.cards.safe_mm)


def _bounded_streams(pdf) -> None:
    """Every stream's decoded size, measured before any is read whole: TooComplex when they
    come to more than MAX_INFLATED_BYTES in all (a small file can hold a stream that inflates to
    gigabytes)."""
    total = 0
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Stream):
            total += _decoded_size(obj, MAX_INFLATED_BYTES - total)
            if total > MAX_INFLATED_BYTES:
                raise TooComplex(f"its streams decode to more than {MAX_INFLATED_BYTES:,} bytes "
                                 f"(object {obj.objgen[0]} passes it)")


def _decoded_size(stream, room: int) -> int:
    """How many bytes the stream decodes to, measured filter by filter and never holding more
    than `room` + 1 of them; past `room`, a number past it. An image codec's output is its
    pixels (width x height x 4 at most); a filter we do not decode here is bounded by the most
    it can make of each byte (FILTER_GROWTH)."""
    filters = stream.get("/Filter")
    filters = [str(f) for f in filters] if isinstance(filters, pikepdf.Array) else [str(filters)] if filters else []
    data = stream.read_raw_bytes()
    size = len(data)
    for index, name in enumerate(filters):
        if name in IMAGE_CODECS:
            width, height = int(stream.get("/Width", 0)), int(stream.get("/Height", 0))
            return max(size, width * height * 4)
        if data is not None and name in ("/FlateDecode", "/Fl"):
            size, data = _inflated(data, room, keep=index + 1 < len(filters))
        elif data is not None and name in ("/ASCIIHexDecode", "/AHx"):
            data = _ascii_decoded(binascii.unhexlify, data.split(b">")[0], even=True)
            size = len(data) if data is not None else size
        elif data is not None and name in ("/ASCII85Decode", "/A85") and size * 4 <= room:
            data = _ascii_decoded(lambda d: base64.a85decode(d, adobe=False, ignorechars=b" \t\n\r\x0c"),
                                  data.split(b"~>")[0].removeprefix(b"<~"))
            size = len(data) if data is not None else size * 4
        else:
            size, data = size * FILTER_GROWTH.get(name, 1), None
        if size > room:
            return size
    return size


def _inflated(data: bytes, room: int, keep: bool) -> tuple[int, bytes | None]:
    """(size, the bytes when `keep`) of a Flate stream, inflating at most `room` + 1 bytes."""
    inflater, size, kept = zlib.decompressobj(), 0, []
    chunk = data
    try:
        while chunk and size <= room:
            out = inflater.decompress(chunk, min(room + 1 - size, 16 * 2**20) or 1)
            size += len(out)
            if keep:
                kept.append(out)
            chunk = inflater.unconsumed_tail
            if not out and not chunk:
                break
    except zlib.error:
        pass                # what decodes of a damaged stream is all a reader gets of it
    return size, b"".join(kept) if keep else None


def _ascii_decoded(decode, data: bytes, even: bool = False) -> bytes | None:
    try:
        data = data.translate(None, b" \t\n\r\x0c") if even else data
        return decode(data + b"0" if even and len(data) % 2 else data)
    except (ValueError, binascii.Error):
        return None


# ---- named resources ------------------------------------------------------------------------------

# The operators that name a resource, and the resource dictionary the name is looked up in.
# A colour space or pattern named by a device family is no resource; scn/SCN name a pattern
# by their last operand, BDC/DP a property list by their second (when it is a name, not inline).
_NAMES = {"Tf": "/Font", "Do": "/XObject", "gs": "/ExtGState", "cs": "/ColorSpace", "CS": "/ColorSpace",
          "sh": "/Shading", "scn": "/Pattern", "SCN": "/Pattern", "BDC": "/Properties", "DP": "/Properties"}
_DEVICE_SPACES = {"/DeviceGray", "/DeviceRGB", "/DeviceCMYK", "/Pattern", "/G", "/RGB", "/CMYK", "/I", "/Indexed"}
RENDER_CHECK_SCALE = 0.25            # a quarter of 72 dpi: every operator is run, few pixels filled


def named_resource_problems(pdf) -> tuple[list[str], int, int]:
    """(problems, content streams walked, names looked up): every content stream of `pdf`, its
    pages, the form XObjects, tiling patterns, Type 3 glyphs and annotation appearances they
    reach (recursively, each once), each operator that names a resource looked up in the
    resources in scope for that stream. A form or pattern with no /Resources of its own uses
    those of the stream that draws it, as readers do; one with its own uses only those."""
    problems, seen, counts = [], set(), [0, 0]

    def resource(resources, category, name):
        group = resources.get(category) if isinstance(resources, pikepdf.Dictionary) else None
        return group.get(name) if isinstance(group, pikepdf.Dictionary) else None

    def visit(stream, resources, where, depth):
        key = stream.objgen if stream.is_indirect else id(stream)
        if key in seen or depth > 32:
            return
        seen.add(key)
        own = stream.get("/Resources") if isinstance(stream, pikepdf.Stream) else None
        scope = own if own is not None else resources
        counts[0] += 1
        for operands, operator in pikepdf.parse_content_stream(stream):
            op = str(operator)
            category = _NAMES.get(op)
            if op == "INLINE IMAGE":
                space = operands[0].obj.get("/ColorSpace", operands[0].obj.get("/CS"))
                name, category = (space, "/ColorSpace") if isinstance(space, pikepdf.Name) else (None, None)
            elif category is None or not operands:
                continue
            else:
                name = operands[1] if op in ("BDC", "DP") and len(operands) > 1 else operands[-1 if op in ("scn", "SCN") else 0]
            if category is None or not isinstance(name, pikepdf.Name) or (category == "/ColorSpace"
                                                                          and str(name) in _DEVICE_SPACES):
                continue
            counts[1] += 1
            found = resource(scope, category, name)
            if found is None:
                problems.append(f"{where}: {op} names {category[1:]} {name}, which is not in its resources")
                continue
            inner = f"{where} > {category[1:]} {name}"
            if category == "/XObject" and found.get("/Subtype") == "/Form":
                visit(found, scope, inner, depth + 1)
            elif category == "/Pattern" and int(found.get("/PatternType", 0)) == 1:
                visit(found, scope, inner, depth + 1)
            elif category == "/Font" and found.get("/Subtype") == "/Type3":
                for glyph, procedure in (found.get("/CharProcs") or {}).items():
                    visit(procedure, found.get("/Resources", scope), f"{inner} glyph {glyph}", depth + 1)

    for number, page in enumerate(pdf.pages, 1):
        resources, node = None, page.obj
        for _ in range(64):                   # /Resources may be inherited from the page tree
            if node is None or "/Resources" in node:
                resources = node.get("/Resources") if node is not None else None
                break
            node = node.get("/Parent")
        if "/Contents" in page.obj:
            contents = page.obj.Contents
            for part in contents if isinstance(contents, pikepdf.Array) else [contents]:
                visit(part, resources, f"page {number}", 0)
        for annot in page.obj.get("/Annots", []):
            appearance = annot.get("/AP")
            normal = appearance.get("/N") if isinstance(appearance, pikepdf.Dictionary) else None
            states = [normal] if isinstance(normal, pikepdf.Stream) else list(normal.values()) \
                if isinstance(normal, pikepdf.Dictionary) else []
            for state in states:
                visit(state, resources, f"page {number} annotation appearance", 0)
    return list(dict.fromkeys(problems)), counts[0], counts[1]


def render_problems(data: bytes) -> tuple[list[str], int]:
    """(problems, pages rendered): every page drawn by pdfium at a small scale."""
    problems, rendered = [], 0
    document = pdfium.PdfDocument(data)
    try:
        for index in range(len(document)):
            try:
                document[index].render(scale=RENDER_CHECK_SCALE)
                rendered += 1
            except pdfium.PdfiumError as exc:
                problems.append(f"page {index + 1}: {_reason(exc)}")
    finally:
        document.close()
    return problems, rendered


def _resources(report: FileReport, pdf, data: bytes) -> None:
    """Every resource a content stream names is there (a reader that misses one prints the
    shape without its transparency, font or picture), and every page renders. Called after
    the bounded walk (TooComplex), so nothing here walks or renders past its limits."""
    missing, streams, names = named_resource_problems(pdf)
    report.add("resources", not missing,
               (f"{len(missing)} missing: " + "; ".join(missing[:3]) +
                ("; ..." if len(missing) > 3 else "")) if missing
               else f"{names} named resource(s) in {streams} content stream(s), all found")
    failed, rendered = render_problems(data)
    report.add("render", not failed, "; ".join(failed[:3]) if failed else f"all {rendered} page(s) render")


def _links(report: FileReport, pdf) -> None:
    links = [number for number, page in enumerate(pdf.pages, 1)
             for annot in page.obj.get("/Annots", []) if annot.get("/Subtype") == "/Link"]
    report.add("links", not links, f"{len(links)} link annotation(s), first on page {links[0]}; a printed page has none"
               if links else "no link annotations")


def _component_file(report: FileReport, pdf, data: bytes, spec, walk: _Walk) -> None:
    """A board's, token's, die's or piece's file: boxes with the bleed and the marks' margin
    round it, a trim the shop prints, fonts, colour, ink, images and PDF/X as for cards."""
    _boxes(report, pdf, spec.bleed_mm, None, slug_mm=spec.marks_mm)
    large = []
    for number, page in enumerate(pdf.pages, 1):
        trim = _box(page, "/TrimBox")
        if trim is not None:
            size = (_mm(trim[2] - trim[0]), _mm(trim[3] - trim[1]))
            if not spec.fits(size):
                large.append(f"page {number}: trim {size[0]:.1f} x {size[1]:.1f} mm")
    count = len(pdf.pages)
    report.add("pages", count > 0 and not large,
               "; ".join(large[:2]) + f" is larger than the {spec.max_mm[0]:g} x {spec.max_mm[1]:g} mm the shop prints"
               if large else f"{count} page(s), each one design of the component, within "
                             f"{spec.max_mm[0]:g} x {spec.max_mm[1]:g} mm")
    _fonts(report, pdf)
    _colour(report, walk, spec, data)
    _images(report, walk, spec.min_image_ppi)
    _pdfx(report, pdf, data, spec, walk)
    _bleed_covered(report, data, pdf, spec.bleed_mm)
    _die_lines(report, pdf)
    if spec.safe_mm is not None:
        _safe_zone(report, data, pdf, spec.safe_mm)


BLEED_PX_PER_MM = 4          # rendering for the bleed check: a quarter millimetre a pixel
PAPER = 250                  # a pixel this light in every channel is bare paper
# Along a stretch of the trim the art touches, the ends are let off this far (mm): a round or
# slanted cut meets the box only near its middle, and its bleed ring is narrower there
# (0.5 mm past the trim) and narrower still at the bleed's full depth. A cut slanted 30° to
# the trim (a pointy-topped hex's lower edges) draws back 1.73 mm between the measuring line
# 0.5 mm inside the trim and 0.5 mm past it: 2 mm lets off that and a pixel.
BLEED_ENDS_MM = (2.0, 6.0)


def bleed_ends_mm(half_run_mm: float, depth_mm: float, bleed_mm: float, fixed_mm: float) -> float:
    """How far from each end of a stretch of art (`half_run_mm` its half length, half a millimetre
    inside the trim) its bleed may stop short `depth_mm` past the trim: at least `fixed_mm`, for a
    slanted cut. A round cut's bleed ring is cut shorter by lines parallel to the trim the farther
    out they lie, by a share of the stretch that grows with the circle towards this limit, so a
    disc of any size passes (and a quarter of a millimetre more for the pixels measured)."""
    share = 1 - math.sqrt((bleed_mm - depth_mm) / (bleed_mm + 0.5))
    return max(fixed_mm, share * half_run_mm + 0.25)


def _bleed_covered(report: FileReport, data: bytes, pdf, bleed_mm: float) -> None:
    """Where the art reaches the trim's edge (the pixel half a millimetre inside it is not
    paper), it runs on into the bleed: half a millimetre past the trim, and to half a millimetre
    short of the bleed's edge, measured by rendering along all four edges of every page."""
    import numpy
    if bleed_mm < 1:
        report.add("bleed", None, f"a {bleed_mm:g} mm bleed is too narrow to measure")
        return
    scale = BLEED_PX_PER_MM / PT_PER_MM
    bare, touching = [], 0
    document = pdfium.PdfDocument(data)
    try:
        for index, page in enumerate(pdf.pages):
            if "/TrimBox" not in page.obj:
                continue
            media = [float(v) for v in page.mediabox]
            x0, y0, x1, y1 = (v - o for v, o in zip(_box(page, "/TrimBox"), (media[0], media[1]) * 2))
            image = numpy.asarray(document[index].render(scale=scale).to_pil().convert("RGB"))
            paper = image.min(axis=2) >= PAPER
            height, width = paper.shape

            def at(x_pt, y_pt):
                col = min(max(int(x_pt * scale), 0), width - 1)
                row = min(max(int(height - y_pt * scale), 0), height - 1)
                return paper[row, col]

            step = 1 / scale
            depths = (0.5, bleed_mm - 0.5)
            along_y = numpy.arange(y0 + step / 2, y1, step)
            along_x = numpy.arange(x0 + step / 2, x1, step)
            edges = ((along_y, lambda t, d: (x0 + d, t), -1), (along_y, lambda t, d: (x1 - d, t), -1),
                     (along_x, lambda t, d: (t, y0 + d), -1), (along_x, lambda t, d: (t, y1 - d), -1))
            for positions, point, outward in edges:
                inside = [not at(*point(t, 0.5 * PT_PER_MM)) for t in positions]
                touching += sum(inside)
                run_start = None
                for i, flag in enumerate(inside + [False]):
                    if flag and run_start is None:
                        run_start = i
                    elif not flag and run_start is not None:
                        half_run = (i - run_start) * step / PT_PER_MM / 2
                        spared = [bleed_ends_mm(half_run, depth, bleed_mm, fixed)
                                  for depth, fixed in zip(depths, BLEED_ENDS_MM)]
                        for j in range(run_start, i):
                            from_end = min(j - run_start + 1, i - j) * step / PT_PER_MM
                            for depth, spare in zip(depths, spared):
                                if from_end > spare and at(*point(positions[j], outward * depth * PT_PER_MM)):
                                    bare.append((index + 1, _mm(point(positions[j], 0)[0]),
                                                 _mm(point(positions[j], 0)[1])))
                                    break
                        run_start = None
    finally:
        document.close()
    ok = len(bare) <= 2            # a pixel or two where a hairline meets the cut
    report.add("bleed", ok, (f"{len(bare)} of {touching} places where the art reaches the trim have bare paper in "
                             f"the bleed, first on page {bare[0][0]} at ({bare[0][1]:.1f}, {bare[0][2]:.1f}) mm "
                             "from the page corner") if not ok
               else f"the art runs into the {bleed_mm:g} mm bleed wherever it reaches the trim "
                    f"({touching} places measured)")


def _role(name: str, profile: Profile, pdf, taken_as: str | None = None
          ) -> tuple[str | None, FileSpec | None, dict, str]:
    """What the profile says this file is: 'cards' (with its file spec when the name tells
    which), 'booklet' (by its name, or pages far larger than any card), 'components', or None
    when the profile takes no PDF; and why, in words for the report. `taken_as` (--as) decides
    instead of the name and size."""
    tail = name.replace("\\", "/")
    if taken_as == "booklet":
        return "booklet", None, {}, "as asked (--as booklet)"
    if taken_as == "component":
        match = profile.components.pattern().search(tail)
        return "components", None, match.groupdict() if match else {}, "as asked (--as component)"
    if taken_as == "cards":
        cards = profile.cards
        for spec in cards.files:
            match = spec.pattern().search(tail)
            if match:
                return "cards", spec, match.groupdict(), f"as asked (--as cards), its name that of {spec.name}"
        return ("cards", cards.files[0] if len(cards.files) == 1 else None, {},
                "as asked (--as cards)")
    if profile.booklet and re.search(r"(^|/)" + re.escape(profile.booklet.name) + "$", tail):
        return "booklet", None, {}, f"by its name, the profile's booklet {profile.booklet.name}"
    if profile.components:
        match = profile.components.pattern().search(tail)
        if match:
            return "components", None, match.groupdict(), f"by its name, as {profile.components.name}"
        if not profile.cards and not profile.booklet:
            return "components", None, {}, "the profile takes only component files"
    if profile.booklet and profile.cards and len(pdf.pages):
        page = pdf.pages[0]
        trim = [float(v) for v in (page.obj.TrimBox if "/TrimBox" in page.obj else page.mediabox)]
        size = (_mm(trim[2] - trim[0]), _mm(trim[3] - trim[1]))
        if all(max(size[0] - s.trim_mm[0], size[1] - s.trim_mm[1]) > 10 for s in profile.cards.sizes):
            return "booklet", None, {}, (f"by its size: page 1 is {size[0]:.1f} x {size[1]:.1f} mm, larger than any "
                                         f"card the profile takes (--as cards or --as component checks it as one)")
    cards = profile.cards
    if cards and cards.format == "pdf":
        for spec in cards.files:
            match = spec.pattern().search(tail)
            if match:
                return "cards", spec, match.groupdict(), f"by its name, as {spec.name}"
        return ("cards", (cards.files[0] if len(cards.files) == 1 else None), {},
                "its name is none of the profile's, its pages the size of a card")
    if profile.booklet:
        return "booklet", None, {}, "the profile's only PDF files are booklets"
    return None, None, {}, ""


def _mm(points) -> float:
    return float(points) / PT_PER_MM


def _box(page, key):
    value = page.obj.get(key)
    return None if value is None else [float(v) for v in value]


def card_trims(profile: Profile) -> dict[tuple[float, float], tuple[float, float]]:
    """The TrimBox sizes a card file may have, each with the page it needs: the trim the shop
    truly cuts (a face of another size is centred on it unscaled, its background running on),
    on a page of that trim plus twice the bleed."""
    cards = profile.cards
    return {size.trim_mm: cards.geometry(size).page_mm for size in cards.sizes}


def _boxes(report: FileReport, pdf, bleed_mm: float, trims, slug_mm: float = 0.0) -> None:
    """TrimBox and BleedBox on every page (tested with `in`: reading .trimbox falls back to the
    MediaBox), TrimBox within BleedBox within MediaBox, and the MediaBox trim + 2 x bleed around
    it; on card files the trim is one of `trims` and the MediaBox the page that trim needs, the
    trim centred on it. `slug_mm`: a margin for marks round the bleed, so the BleedBox is trim +
    2 x bleed and the MediaBox that + 2 x slug."""
    missing, nested, media_wrong, trim_wrong, seen_sizes = [], [], [], [], []
    tol = BOX_TOLERANCE_MM * PT_PER_MM
    for number, page in enumerate(pdf.pages, 1):
        absent = [k for k in ("/TrimBox", "/BleedBox") if k not in page.obj]
        if absent:
            missing.append(f"page {number} has no {' or '.join(a[1:] for a in absent)}")
            continue
        media, trim, bleed = [float(v) for v in page.mediabox], _box(page, "/TrimBox"), _box(page, "/BleedBox")
        if not (_inside(trim, bleed, tol) and _inside(bleed, media, tol)):
            nested.append(number)
        size = (_mm(trim[2] - trim[0]), _mm(trim[3] - trim[1]))
        page_mm = next((page for t, page in (trims or {}).items()
                        if all(abs(a - b) <= BOX_TOLERANCE_MM for a, b in zip(size, t))), None)
        margins = (trim[0] - media[0], trim[1] - media[1], media[2] - trim[2], media[3] - trim[3])
        expected = [(bleed_mm + slug_mm) * PT_PER_MM] * 4
        if slug_mm:
            bleed_margins = (trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3])
            if any(abs(m - bleed_mm * PT_PER_MM) > tol for m in bleed_margins):
                media_wrong.append(f"page {number}: BleedBox {', '.join(f'{_mm(m):.2f}' for m in bleed_margins)} mm "
                                   f"round the trim, the profile's bleed is {bleed_mm:g} mm")
        if page_mm is not None:
            expected = [(page_mm[0] - size[0]) / 2 * PT_PER_MM, (page_mm[1] - size[1]) / 2 * PT_PER_MM] * 2
        if any(abs(m - e) > tol for m, e in zip(margins, expected)):
            wanted = (f"the profile's page for it is {page_mm[0]:.2f} x {page_mm[1]:.2f} mm, the trim centred"
                      if page_mm is not None else f"the profile's bleed is {bleed_mm:g} mm"
                      + (f" and its marks' margin {slug_mm:g} mm" if slug_mm else ""))
            media_wrong.append(f"page {number}: trim sits {', '.join(f'{_mm(m):.2f}' for m in margins)} mm inside the "
                               f"MediaBox, {wanted}")
        if not trims and seen_sizes and any(abs(a - b) > BOX_TOLERANCE_MM for a, b in zip(size, seen_sizes[0])):
            trim_wrong.append(f"page {number}: trim {size[0]:.2f} x {size[1]:.2f} mm, page 1 "
                              f"{seen_sizes[0][0]:.2f} x {seen_sizes[0][1]:.2f} mm (one page size in a file)")
        seen_sizes.append(size)
        if trims and not any(all(abs(a - b) <= BOX_TOLERANCE_MM for a, b in zip(size, t)) for t in trims):
            trim_wrong.append(f"page {number}: trim {size[0]:.2f} x {size[1]:.2f} mm")
    pages = len(pdf.pages)
    report.add("boxes", not missing and not nested,
               "; ".join(missing[:3] + [f"pages {nested[:5]}: TrimBox not inside BleedBox inside MediaBox"] * bool(nested))
               or f"TrimBox and BleedBox on all {pages} pages, TrimBox ⊆ BleedBox ⊆ MediaBox")
    if missing:
        report.add("size", False, "no TrimBox to measure")
        return
    sizes = " or ".join(f"{w:g} x {h:g} mm" for w, h in trims) if trims else ""
    problems = media_wrong[:2] + [f"{w}; the profile takes {sizes}" if trims else w for w in trim_wrong[:2]]
    found = f"{seen_sizes[0][0]:.1f} x {seen_sizes[0][1]:.1f} mm" if seen_sizes else "none"
    if trims and seen_sizes:
        page = next((p for t, p in trims.items() if all(abs(a - b) <= BOX_TOLERANCE_MM for a, b in zip(seen_sizes[0], t))),
                    None)
        summary = (f"trim {found}, MediaBox {page[0]:.2f} x {page[1]:.2f} mm (the shop's trim + 2 x {bleed_mm:g} mm) "
                   "on every page") if page else ""
    elif slug_mm:
        summary = (f"trim {found}, BleedBox = trim + 2 x {bleed_mm:g} mm, MediaBox = that + 2 x {slug_mm:g} mm "
                   "(marks) on every page")
    else:
        summary = f"trim {found}, MediaBox = trim + 2 x {bleed_mm:g} mm on every page"
    report.add("size", not media_wrong and not trim_wrong, "; ".join(problems) or summary)


def _inside(inner, outer, tol) -> bool:
    return (inner[0] >= outer[0] - tol and inner[1] >= outer[1] - tol
            and inner[2] <= outer[2] + tol and inner[3] <= outer[3] + tol)


def _card_pages(report, pdf, name, spec: FileSpec | None, fields, profile, sibling) -> None:
    count = len(pdf.pages)
    if spec is None:
        report.add("pages", count > 0, f"{count} pages (name matches none of the profile's files: order not checked)")
        return
    sides = spec.sides
    problems = []
    if count == 0 or count % len(sides):
        problems.append(f"{count} pages is not a whole number of cards of {len(sides)} page(s) ({', '.join(sides)})")
    elif len(sides) > 1:
        designs = {side: set() for side in sides}
        digests: dict = {}
        for index, page in enumerate(pdf.pages):
            designs[sides[index % len(sides)]].add(_fingerprint(page, digests))
        if "back" in designs and "front" in designs and len(designs["back"]) > len(designs["front"]):
            problems.append(f"pages in back positions show {len(designs['back'])} designs and pages in front positions "
                            f"{len(designs['front'])}: fronts and backs look swapped (the shop wants {', '.join(sides)})")
    if spec.per == "card" and count != len(sides):
        problems.append(f"{count} pages; one card's file has {len(sides)}")
    paired = ""
    for other in profile.cards.files:
        if other is spec or other.per != spec.per or not fields:
            continue
        try:
            other_name = name[: len(name) - len(_tail(name, spec))] + other.name.format(**fields)
        except KeyError:
            continue
        try:
            data = sibling(other_name)
            if data is None:
                continue
            with pikepdf.open(io.BytesIO(data)) as other_pdf:
                other_count = len(other_pdf.pages)
        except DAMAGED as exc:
            problems.append(f"{Path(other_name).name} cannot be read ({_reason(exc)}): fronts and backs cannot be paired")
            continue
        if other_count * len(sides) != count * len(other.sides):
            problems.append(f"{count} pages here, {other_count} in {Path(other_name).name}: fronts and backs do not pair")
        else:
            paired = f", pairs with {Path(other_name).name}"
    report.add("pages", not problems, "; ".join(problems) or f"{count} pages, {' then '.join(sides)} per card{paired}")


def _tail(name: str, spec: FileSpec) -> str:
    match = spec.pattern().search(name.replace("\\", "/"))
    return match.group(0).lstrip("/")


def _fingerprint(page, digests: dict) -> str:
    """A page's design: its content and the data of what it draws, not object numbers, so
    identical backs stored as separate objects still match. `digests` keeps each XObject's
    digest, so forms that draw each other are hashed once each, not once per path."""
    digest = hashlib.sha256()
    contents = page.obj.get("/Contents")
    for stream in (contents if isinstance(contents, pikepdf.Array) else [contents] if contents is not None else []):
        digest.update(stream.read_bytes())
    _hash_xobjects(page.obj.get("/Resources"), digest, 0, digests)
    return digest.hexdigest()


def _hash_xobjects(resources, digest, depth, digests: dict) -> None:
    if resources is None or depth > 4 or "/XObject" not in resources:
        return
    for key in sorted(resources.XObject.keys()):
        xobject = resources.XObject[key]
        digest.update(key.encode())
        known = digests.get(xobject.objgen) if xobject.is_indirect else None
        if known is None:
            own = hashlib.sha256(xobject.read_raw_bytes())
            _hash_xobjects(xobject.get("/Resources"), own, depth + 1, digests)
            known = own.digest()
            if xobject.is_indirect:
                digests[xobject.objgen] = known
        digest.update(known)


def _fonts(report: FileReport, pdf) -> None:
    fonts: dict[str, bool] = {}
    seen = set()

    def visit(resources, depth=0):
        if resources is None or depth > 8:
            return
        for name, font in (resources.get("/Font") or {}).items():
            key = font.objgen if font.is_indirect else (id(font), name)
            if key in seen:
                continue
            seen.add(key)
            fonts[str(font.get("/BaseFont", name))] = _embedded(font)
            visit(font.get("/Resources"), depth + 1)
        for xobject in (resources.get("/XObject") or {}).values():
            if xobject.get("/Subtype") == "/Form" and xobject.objgen not in seen:
                seen.add(xobject.objgen)
                visit(xobject.get("/Resources"), depth + 1)

    for page in pdf.pages:
        visit(page.obj.get("/Resources"))
        for annot in page.obj.get("/Annots", []):
            appearance = annot.get("/AP")
            if appearance is not None and "/N" in appearance and hasattr(appearance.N, "get"):
                visit(appearance.N.get("/Resources"))
    missing = sorted(n.lstrip("/") for n, ok in fonts.items() if not ok)
    report.add("fonts", not missing,
               f"not embedded: {', '.join(missing)}" if missing else f"{len(fonts)} font(s), all embedded")


def _embedded(font) -> bool:
    if font.get("/Subtype") == "/Type3":
        return True          # glyphs are drawn by content streams in the file
    if font.get("/Subtype") == "/Type0":
        descendants = font.get("/DescendantFonts")
        return bool(descendants) and all(_embedded(d) for d in descendants)
    descriptor = font.get("/FontDescriptor")
    return descriptor is not None and any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))


class _Walk:
    """Everything painted in a PDF: colours by family with their ink, and images with the size
    they are placed at. Forms are followed with their own resources and matrices. Before a page
    (an annotation's appearance, a tiling pattern's cell, a Type 3 font's glyphs: a renderer
    draws them too) is walked, the operators it draws are counted, each form's as often as it is
    drawn, from each form's own count: TooComplex past MAX_OPERATORS, before the walk."""

    def __init__(self, pdf):
        self.rgb: list[str] = []           # where RGB was used
        self.other: list[str] = []         # Lab, Separation, ... (not CMYK, not RGB)
        self.max_ink = 0.0
        self.ink_where = ""
        self.images: list[dict] = []
        self.transparency: list[str] = []
        self.foreign_pages: set[int] = set()       # pages (0-based) painting in RGB or other spaces
        self.operators = 0
        self._parsed: dict[tuple, list] = {}       # a form's operators, parsed once however often drawn
        self._counted: set[tuple] = set()          # patterns and Type 3 fonts, drawn once each
        self._drawn: dict[tuple, int] = {}         # operators a form draws, by form and depth
        self.hidden_layers = non_printing_layers(pdf)      # what they hold never reaches paper
        for number, page in enumerate(pdf.pages, 1):
            self._page, self._where = number - 1, f"page {number}"
            self._count(page, page.obj.get("/Resources"), 0)
            self._content(page, page.obj.get("/Resources"), (1, 0, 0, 1, 0, 0), f"page {number}", 0)
            for annot in page.obj.get("/Annots") or []:
                appearance = annot.get("/AP") if isinstance(annot, pikepdf.Dictionary) else None
                normal = appearance.get("/N") if isinstance(appearance, pikepdf.Dictionary) else None
                for form in ([normal] if isinstance(normal, pikepdf.Stream) else
                             list(normal.values()) if isinstance(normal, pikepdf.Dictionary) else []):
                    if isinstance(form, pikepdf.Stream):
                        self._count(form, form.get("/Resources"), 1)
                        self._content(form, form.get("/Resources"), (1, 0, 0, 1, 0, 0), f"page {number} annotation", 1)

    def _operators(self, owner) -> list:
        """The operators of a page or form, parsed once (a page is counted, then walked)."""
        if isinstance(owner, pikepdf.Page):
            key = ("page", *owner.obj.objgen) if owner.obj.is_indirect else None
        else:
            key = owner.objgen if owner.is_indirect else None
        if key is not None and key in self._parsed:
            parsed = self._parsed[key]
        else:
            contents = owner.obj.get("/Contents") if isinstance(owner, pikepdf.Page) else owner
            streams = contents if isinstance(contents, pikepdf.Array) else [contents]
            size = sum(_decoded_size(stream, MAX_CONTENT_BYTES) for stream in streams if isinstance(stream, pikepdf.Stream))
            if size > MAX_CONTENT_BYTES:
                raise TooComplex(f"a content stream of more than {MAX_CONTENT_BYTES:,} bytes on {self._where}")
            parsed = pikepdf.parse_content_stream(owner)
            if key is not None:
                self._parsed[key] = parsed
        return parsed

    def _count(self, owner, resources, depth) -> None:
        self.operators += self._operators_drawn(owner, resources, depth, (self._where, depth))
        if self.operators > MAX_OPERATORS:
            raise TooComplex(f"more than {MAX_OPERATORS:,} drawing operators (a form counts each time it is "
                             f"drawn), passed on {self._where}")

    def _operators_drawn(self, owner, resources, depth, resources_key) -> int:
        """The operators drawing `owner` visits, its forms' as often as each is drawn (as deep as
        the walk goes); each form's count is made once for each depth it is drawn at and the
        resources it names its forms by (`resources_key`: its own, or those it inherits)."""
        if depth > 12:
            return 0
        key = (owner.objgen, depth, resources_key) if isinstance(owner, pikepdf.Stream) and owner.is_indirect else None
        if key in self._drawn:
            return self._drawn[key]
        total = 0
        for operands, operator in self._operators(owner):
            total += 1
            if str(operator) == "Do" and resources is not None and "/XObject" in resources:
                form = resources.XObject.get(operands[0])
                if isinstance(form, pikepdf.Stream) and form.get("/Subtype") == "/Form":
                    inherits = "/Resources" not in form
                    total += self._operators_drawn(form, resources if inherits else form.Resources, depth + 1,
                                                   resources_key if inherits else form.objgen)
                    if total > MAX_OPERATORS:
                        break
        if key is not None:
            self._drawn[key] = total
        return total

    def _drawn_once(self, obj, resources, where, depth) -> None:
        """A tiling pattern's cell or a Type 3 font's glyphs: a renderer draws each once and
        reuses it, so its operators are counted once."""
        if not isinstance(obj, pikepdf.Stream) or obj.objgen in self._counted:
            return
        self._counted.add(obj.objgen)
        self._count(obj, obj.get("/Resources", resources), depth + 1)
        self._content(obj, obj.get("/Resources", resources), (1, 0, 0, 1, 0, 0), where, depth + 1)

    def _foreign(self, found: list, where: str) -> None:
        found.append(where)
        self.foreign_pages.add(self._page)

    def _space(self, resources, name) -> tuple[str, object]:
        """('rgb' | 'cmyk' | 'gray' | 'other', object) for a colour space name or array."""
        space = name
        if isinstance(name, pikepdf.Name) and str(name) not in ("/DeviceRGB", "/DeviceCMYK", "/DeviceGray", "/Pattern"):
            spaces = resources.get("/ColorSpace") if resources is not None else None
            if spaces is not None and name in spaces:
                space = spaces[name]
        if isinstance(space, pikepdf.Array):
            family = str(space[0])
            if family == "/ICCBased":
                n = int(space[1].get("/N", 0))
                return {1: "gray", 3: "rgb", 4: "cmyk"}.get(n, "other"), space
            if family in ("/CalRGB",):
                return "rgb", space
            if family == "/CalGray":
                return "gray", space
            if family == "/Indexed":
                return self._space(resources, space[1])[0], space
            return "other", space
        return {"/DeviceRGB": "rgb", "/RGB": "rgb", "/DeviceCMYK": "cmyk", "/CMYK": "cmyk",
                "/DeviceGray": "gray", "/G": "gray", "/Pattern": "pattern"}.get(str(space), "other"), space

    def _ink(self, values, where) -> None:
        total = sum(float(v) for v in values) * 100
        if total > self.max_ink:
            self.max_ink, self.ink_where = total, where

    def _content(self, owner, resources, ctm, where, depth) -> None:
        if depth > 12:
            return
        stack = []
        spaces = {"fill": "gray", "stroke": "gray"}
        marked: list[bool] = []        # per open marked-content sequence: on a non-printing layer
        for operands, operator in self._operators(owner):
            op = str(operator)
            if op in ("BMC", "BDC", "EMC"):
                if op == "EMC":
                    marked = marked[:-1]
                else:
                    marked = marked + [_on_layer(operands, resources, self.hidden_layers)]
                continue
            if any(marked):
                continue
            if op == "q":
                stack.append((ctm, dict(spaces)))
            elif op == "Q" and stack:
                ctm, spaces = stack.pop()
            elif op == "cm":
                ctm = _multiply([float(v) for v in operands], ctm)
            elif op in ("rg", "RG"):
                self._foreign(self.rgb, f"{where}: {op} operator")
            elif op in ("k", "K"):
                self._ink(operands, where)
            elif op in ("g", "G"):
                self._ink([1 - float(operands[0])], where)
            elif op in ("cs", "CS"):
                family, _ = self._space(resources, operands[0])
                spaces["fill" if op == "cs" else "stroke"] = family
                if family == "rgb":
                    self._foreign(self.rgb, f"{where}: {op} {operands[0]}")
                elif family == "other":
                    self._foreign(self.other, f"{where}: {op} {operands[0]}")
            elif op in ("sc", "scn", "SC", "SCN"):
                family = spaces["fill" if op in ("sc", "scn") else "stroke"]
                numbers = [v for v in operands if not isinstance(v, pikepdf.Name)]
                if family == "cmyk" and len(numbers) == 4:
                    self._ink(numbers, where)
                elif family == "gray" and len(numbers) == 1:
                    self._ink([1 - float(numbers[0])], where)
                elif family == "pattern" and operands and isinstance(operands[-1], pikepdf.Name) \
                        and resources is not None and "/Pattern" in resources:
                    self._drawn_once(resources.Pattern.get(operands[-1]), resources, f"{where}: pattern", depth)
            elif op == "Tf" and operands and resources is not None and "/Font" in resources:
                font = resources.Font.get(operands[0])
                if font is not None and font.get("/Subtype") == "/Type3":
                    for glyph in (font.get("/CharProcs") or {}).values():
                        self._drawn_once(glyph, font.get("/Resources", resources), f"{where}: Type 3 glyph", depth)
            elif op == "gs" and resources is not None and "/ExtGState" in resources:
                state = resources.ExtGState.get(operands[0])
                if state is not None:
                    if float(state.get("/ca", 1)) < 1 or float(state.get("/CA", 1)) < 1:
                        self.transparency.append(f"{where}: constant alpha in {operands[0]}")
                    if "/SMask" in state and state.SMask != pikepdf.Name.None_:
                        self.transparency.append(f"{where}: soft mask in {operands[0]}")
            elif op == "Do" and resources is not None and "/XObject" in resources:
                xobject = resources.XObject.get(operands[0])
                if xobject is None:
                    continue
                if xobject.get("/Subtype") == "/Image":
                    self._image(xobject, resources, ctm, where)
                elif xobject.get("/Subtype") == "/Form":
                    matrix = [float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                    self._content(xobject, xobject.get("/Resources", resources), _multiply(matrix, ctm),
                                  where, depth + 1)
            elif op == "INLINE IMAGE":
                image = operands[0]
                self._image(image.obj, resources, ctm, where, inline=True)
            elif op == "sh" and resources is not None and "/Shading" in resources:
                shading = resources.Shading.get(operands[0])
                if shading is not None:
                    self._note_space(resources, shading.get("/ColorSpace"), f"{where}: shading {operands[0]}")

    def _note_space(self, resources, space, where) -> str:
        if space is None:
            return "other"
        family, _ = self._space(resources, space)
        if family == "rgb":
            self._foreign(self.rgb, where)
        elif family == "other":
            self._foreign(self.other, where)
        return family

    def _image(self, image, resources, ctm, where, inline=False) -> None:
        width = int(image.get("/Width", image.get("/W", 0)))
        height = int(image.get("/Height", image.get("/H", 0)))
        placed_w = (ctm[0] ** 2 + ctm[1] ** 2) ** 0.5 / 72
        placed_h = (ctm[2] ** 2 + ctm[3] ** 2) ** 0.5 / 72
        ppi = min(width / placed_w if placed_w else 0, height / placed_h if placed_h else 0)
        mask = bool(image.get("/ImageMask", image.get("/IM", False)))
        family = "mask" if mask else self._note_space(resources, image.get("/ColorSpace", image.get("/CS")),
                                                       f"{where}: image {width} x {height}")
        if "/SMask" in image:
            self.transparency.append(f"{where}: image with a soft mask (alpha)")
        self.images.append({"where": where, "ppi": ppi, "pixels": (width, height), "family": family})
        if family == "cmyk" and not inline:
            self._image_ink(image, where)

    def _image_ink(self, image, where) -> None:
        import numpy
        filters = image.get("/Filter")
        filters = [str(f) for f in filters] if isinstance(filters, pikepdf.Array) else [str(filters)] if filters else []
        try:
            if int(image.get("/BitsPerComponent", 8)) == 8 and "/Decode" not in image \
                    and not {"/DCTDecode", "/JPXDecode"} & set(filters):
                # the samples as stored: pikepdf would turn a CMYK image with a soft mask into RGBA
                data = numpy.frombuffer(image.read_bytes(), dtype=numpy.uint8)
                pixels = data[: data.size // 4 * 4].reshape(-1, 4).astype(numpy.uint16)
            else:
                pil = pikepdf.PdfImage(image).as_pil_image()
                if pil.mode != "CMYK":
                    return
                pixels = numpy.asarray(pil, dtype=numpy.uint16).reshape(-1, 4)
        except Exception:           # an image pikepdf cannot decode: its ink stays unmeasured
            return
        if pixels.size:
            self._ink([pixels.sum(axis=1).max() / 255], f"{where}: CMYK image")


def _multiply(m, n):
    """PDF matrices [a b c d e f]: m applied first, then n."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2,
            e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def _colour(report: FileReport, walk: _Walk, spec, data: bytes) -> None:
    """`spec`: the profile's section the file belongs to (cards, components, booklet)."""
    palette = spec.palette
    if palette.space != "cmyk":
        report.add("colour", None, "the profile takes RGB")
        report.add("ink", None, "no ink limit for an RGB profile")
        return
    bad = walk.rgb + walk.other
    report.add("colour", not bad,
               f"{len(bad)} non-CMYK use(s): {'; '.join(bad[:3])}" if bad else "only CMYK (and grey) colours and images")
    ink, where = walk.max_ink, walk.ink_where
    rendered = _rendered_ink(data, sorted(walk.foreign_pages), palette.press)
    if rendered[0] > ink:
        ink, where = rendered
    how = (f"; {len(walk.foreign_pages)} page(s) painted in other colours rendered and separated for {palette.press}"
           if walk.foreign_pages else "")
    report.add("ink", ink <= palette.ink_limit + 0.05,
               f"highest total ink {ink:.1f} % ({where or 'nothing painted'}); "
               f"limit {palette.ink_limit:g} % (separated for {palette.press}){how}")


def _rendered_ink(data: bytes, pages: list[int], press_name: str) -> tuple[float, str]:
    """The highest total ink (%) on these pages as a RIP would print them: rendered (pdfium
    renders RGB, taken as sRGB) and separated through the press's ICC profile, relative
    colorimetric with black-point compensation as layout colours are (render.colour)."""
    import numpy
    best, where = 0.0, ""
    if not pages:
        return best, where
    transform = separation(press_name)
    document = pdfium.PdfDocument(data)
    try:
        for index in pages:
            page = document[index]
            width, height = page.get_size()
            scale = min(INK_RENDER_DPI / 72, (INK_RENDER_PIXELS / max(width * height, 1)) ** 0.5)
            rgb = page.render(scale=scale).to_pil().convert("RGB")
            cmyk = numpy.asarray(transform.apply(rgb), dtype=numpy.uint16)
            total = float(cmyk.sum(axis=2).max()) / 255 * 100
            if total > best:
                best, where = total, f"page {index + 1}, rendered"
    finally:
        document.close()
    return best, where


def _images(report: FileReport, walk: _Walk, min_ppi: float) -> None:
    if not walk.images:
        report.add("images", True, "no images (all vector)")
        return
    low = [i for i in walk.images if i["family"] != "mask" and i["ppi"] < min_ppi - DPI_TOLERANCE]
    worst = min(walk.images, key=lambda i: i["ppi"])
    report.add("images", not low,
               f"{len(low)} image(s) below {min_ppi:g} ppi, lowest {worst['ppi']:.0f} ppi ({worst['where']})" if low
               else f"{len(walk.images)} image(s), lowest {worst['ppi']:.0f} ppi")


def _pdfx(report: FileReport, pdf, data: bytes, spec, walk: _Walk) -> None:
    if not spec.pdfx_standard:
        report.add("pdfx", None, "the profile asks for no PDF/X")
        return
    version, base = spec.pdfx_standard
    problems = []
    intents = pdf.Root.get("/OutputIntents")
    intent = next((i for i in (intents or []) if i.get("/S") == "/GTS_PDFX"), None)
    if intent is None:
        problems.append("no GTS_PDFX OutputIntent")
    else:
        dest = intent.get("/DestOutputProfile")
        if dest is None:
            problems.append("OutputIntent has no DestOutputProfile")
        elif int(dest.get("/N", 0)) != 4:
            problems.append(f"OutputIntent profile has N={int(dest.get('/N', 0))}, a CMYK profile has N=4")
        named = str(intent.get("/OutputConditionIdentifier", ""))
        wanted = press(spec.palette.press) if spec.palette.press else None
        if not named:
            problems.append("OutputIntent has no OutputConditionIdentifier")
        elif wanted and named != wanted.name:
            problems.append(f"OutputIntent names {named!r}, the profile prints to {wanted.name!r}")
        elif wanted and dest is not None and dest.read_bytes() != wanted.profile_bytes():
            problems.append(f"OutputIntent profile is not the {wanted.name} profile (generator/core/icc/{wanted.file})")
        if wanted and str(intent.get("/RegistryName", "")) != REGISTRY:
            problems.append(f"OutputIntent RegistryName is not {REGISTRY}")
    info = pdf.docinfo
    if str(info.get("/GTS_PDFXVersion", "")) != version:
        problems.append(f"document info GTS_PDFXVersion is {str(info.get('/GTS_PDFXVersion', 'missing'))!r}, expected {version!r}")
    if str(info.get("/Trapped", "")) not in ("/True", "/False"):
        problems.append("document info Trapped is not True or False")
    if "/Title" not in info:
        problems.append("no Title")
    xmp = pdf.open_metadata()
    if str(xmp.get("pdfxid:GTS_PDFXVersion", "")) != version:
        problems.append(f"XMP pdfxid:GTS_PDFXVersion is {xmp.get('pdfxid:GTS_PDFXVersion', 'missing')!r}")
    header = re.match(rb"%PDF-(\d\.\d)", data)
    if header is None or float(header.group(1)) > float(base):
        problems.append(f"PDF version {header.group(1).decode() if header else '?'}; {version} is based on PDF {base}")
    if spec.pdfx == "x-1a" and walk.transparency:
        problems.append("transparency (PDF/X-1a allows none): " + "; ".join(walk.transparency[:2]))
    condition = str(intent.get("/OutputConditionIdentifier", "")) if intent is not None else ""
    report.add("pdfx", not problems, "; ".join(problems)
               or f"{version}, GTS_PDFX OutputIntent {condition} with its N=4 ICC profile")


def _safe_zone(report: FileReport, data: bytes, pdf, safe_mm: float) -> None:
    """Every character's glyph box (pdfium, tight) at least `safe_mm` inside the TrimBox."""
    if any("/TrimBox" not in page.obj for page in pdf.pages):
        report.add("safe-zone", False, "no TrimBox to measure from")
        return
    margin = safe_mm * PT_PER_MM
    offenders, checked = [], 0
    document = pdfium.PdfDocument(data)
    try:
        for index, page in enumerate(pdf.pages):
            trim = _box(page, "/TrimBox")
            left, bottom, right, top = trim[0] + margin, trim[1] + margin, trim[2] - margin, trim[3] - margin
            text_page = document[index].get_textpage()
            worst = None
            for char in range(text_page.count_chars()):
                glyph = text_page.get_text_range(char, 1)
                if not glyph.strip():
                    continue
                x0, y0, x1, y1 = text_page.get_charbox(char)
                if x1 - x0 <= 0 or y1 - y0 <= 0:
                    continue            # an empty box (a zero-width space): nothing is painted
                checked += 1
                gap = min(x0 - left, y0 - bottom, right - x1, top - y1)
                if gap < -0.01 * PT_PER_MM and (worst is None or gap < worst[0]):
                    worst = (gap, glyph)
            if worst:
                offenders.append(f"page {index + 1}: '{worst[1]}' {safe_mm + _mm(worst[0]):.2f} mm from the trim")
    finally:
        document.close()
    report.add("safe-zone", not offenders,
               (f"text closer than {safe_mm:g} mm to the trim on {len(offenders)} page(s): " + "; ".join(offenders[:3]))
               if offenders else f"{checked} characters, all at least {safe_mm:g} mm inside the trim")


# ---- die lines and home furniture -----------------------------------------------------------------

# Spot colours a cutter or a die maker reads: they belong on a non-printing layer only.
DIE_SPOTS = ("/CutContour", "/Crease")
ON_LINE_MM = 0.15          # a stroke this close to a die line (or the trim) runs on it
MIN_RUN_MM = 2.0           # for this long: a dot or a corner touching the trim is not a line
SCALE_BAR_MM = 50


def non_printing_layers(pdf) -> set:
    """The optional content groups that do not print: off in the default configuration, or
    marked off for printing (/Usage /Print /PrintState /OFF)."""
    properties = pdf.Root.get("/OCProperties")
    if properties is None:
        return set()
    default = properties.get("/D") or {}
    hidden = {group.objgen for group in default.get("/OFF", [])}
    for group in properties.get("/OCGs", []):
        usage = group.get("/Usage") or {}
        if str((usage.get("/Print") or {}).get("/PrintState", "")) == "/OFF":
            hidden.add(group.objgen)
    return hidden


def _on_layer(operands, resources, layers: set) -> bool:
    """Whether a BDC opens content of one of `layers` (/OC /name, the name in /Properties)."""
    if len(operands) < 2 or operands[0] != Name.OC:
        return False
    group = operands[1]
    if isinstance(group, pikepdf.Name):
        properties = resources.get("/Properties") if resources is not None else None
        group = properties.get(group) if properties is not None else None
    return group is not None and group.objgen in layers


@dataclass
class _Path:
    """One painted path in page space (mm): its subpaths as point lists, how it was painted,
    whether it lies on a non-printing layer, and its stroke colour space's spot name."""
    subpaths: list
    stroked: bool
    filled: bool
    hidden: bool
    spots: tuple
    overprint: bool


def _bezier(p0, p1, p2, p3, steps=8):
    return [tuple((1 - t) ** 3 * a + 3 * (1 - t) ** 2 * t * b + 3 * (1 - t) * t ** 2 * c + t ** 3 * d
                  for a, b, c, d in zip(p0, p1, p2, p3)) for t in (i / steps for i in range(1, steps + 1))]


def painted_paths(pdf, page) -> list[_Path]:
    """Every path painted on a page, forms followed, in mm from the page's origin."""
    layers = non_printing_layers(pdf)
    found: list[_Path] = []

    def point(ctm, x, y):
        a, b, c, d, e, f = ctm
        return ((a * x + c * y + e) / PT_PER_MM, (b * x + d * y + f) / PT_PER_MM)

    def walk(owner, resources, ctm, hidden, depth):
        if depth > 12:
            return
        stack, marked, subpaths, current = [], [], [], None
        state = {"stroke_spot": (), "fill_spot": (), "overprint": False}
        for operands, operator in pikepdf.parse_content_stream(owner):
            op = str(operator)
            if op in ("BMC", "BDC"):
                marked.append(_on_layer(operands, resources, layers) if op == "BDC" else False)
            elif op == "EMC":
                marked = marked[:-1]
            elif op == "q":
                stack.append((ctm, dict(state)))
            elif op == "Q" and stack:
                ctm, state = stack.pop()
            elif op == "cm":
                ctm = _multiply([float(v) for v in operands], ctm)
            elif op in ("CS", "cs"):
                spaces = resources.get("/ColorSpace") if resources is not None else None
                space = spaces.get(operands[0]) if spaces is not None and operands[0] in spaces else None
                spot = (str(space[1]),) if isinstance(space, pikepdf.Array) and space[0] == Name.Separation else ()
                state["stroke_spot" if op == "CS" else "fill_spot"] = spot
            elif op in ("K", "k", "G", "g", "RG", "rg"):
                state["stroke_spot" if op.isupper() else "fill_spot"] = ()
            elif op == "gs" and resources is not None and "/ExtGState" in resources:
                extgstate = resources.ExtGState.get(operands[0])
                if extgstate is not None and "/OP" in extgstate:
                    state["overprint"] = bool(extgstate.OP)
            elif op == "m":
                current = [point(ctm, *map(float, operands))]
                subpaths.append(current)
            elif op == "l" and current is not None:
                current.append(point(ctm, *map(float, operands)))
            elif op in ("c", "v", "y") and current is not None:
                numbers = [float(v) for v in operands]
                start = current[-1]
                pts = [point(ctm, numbers[i], numbers[i + 1]) for i in range(0, len(numbers), 2)]
                if op == "v":
                    pts = [start] + pts
                elif op == "y":
                    pts = pts + [pts[-1]]
                current += _bezier(start, *pts)
            elif op == "h" and current:
                current.append(current[0])
            elif op == "re":
                x, y, w, h = map(float, operands)
                current = [point(ctm, x, y), point(ctm, x + w, y), point(ctm, x + w, y + h), point(ctm, x, y + h),
                           point(ctm, x, y)]
                subpaths.append(current)
            elif op in ("S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n"):
                if op in ("s", "b", "b*") and current:
                    current.append(current[0])
                if op != "n" and subpaths:
                    stroked = op in ("S", "s", "B", "B*", "b", "b*")
                    filled = op not in ("S", "s")
                    found.append(_Path(subpaths, stroked, filled, hidden or any(marked),
                                       state["stroke_spot"] + state["fill_spot"], state["overprint"]))
                subpaths, current = [], None
            elif op == "Do" and resources is not None and "/XObject" in resources:
                xobject = resources.XObject.get(operands[0])
                if xobject is not None and xobject.get("/Subtype") == "/Form":
                    matrix = [float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                    form_hidden = hidden or any(marked) or (xobject.get("/OC") is not None
                                                            and xobject.OC.objgen in layers)
                    walk(xobject, xobject.get("/Resources", resources), _multiply(matrix, ctm), form_hidden, depth + 1)

    walk(page, page.obj.get("/Resources"), (1, 0, 0, 1, 0, 0), False, 0)
    return found


def _samples(points, step=0.5):
    """Points along a polyline at most `step` mm apart."""
    import numpy
    out = [points[0]]
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        n = max(1, int(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 / step))
        out += [(x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n) for i in range(1, n + 1)]
    return numpy.array(out)


def _distance(samples, segments):
    """Each sample point's distance (mm) to the nearest of `segments` (an n x 4 array)."""
    import numpy
    if not len(segments):
        return numpy.full(len(samples), numpy.inf)
    a, b = segments[:, None, 0:2], segments[:, None, 2:4]
    d = b - a
    length = (d ** 2).sum(axis=2)
    t = numpy.clip(((samples[None] - a) * d).sum(axis=2) / numpy.where(length == 0, 1, length), 0, 1)
    nearest = a + t[..., None] * d
    return numpy.sqrt(((samples[None] - nearest) ** 2).sum(axis=2)).min(axis=0)


def _segments(subpaths):
    import numpy
    return numpy.array([(*p, *q) for points in subpaths for p, q in zip(points, points[1:])]).reshape(-1, 4)


def _longest_run(samples, on) -> tuple[float, tuple]:
    """(length in mm, start) of the longest stretch of a polyline's samples that are all `on`."""
    best, start, length = (0.0, (0.0, 0.0)), None, 0.0
    for i, flag in enumerate(on):
        if not flag:
            start, length = None, 0.0
            continue
        if start is None:
            start, length = i, 0.0
        else:
            length += float(((samples[i] - samples[i - 1]) ** 2).sum() ** 0.5)
        if length > best[0]:
            best = (length, tuple(samples[start]))
    return best


def _die_lines(report: FileReport, pdf) -> None:
    """No cut or fold line in the printed artwork: die lines (the spot colours CutContour and
    Crease) only on a non-printing layer and overprinting, and no printed stroke running along a
    die line or along the trim, where a die drifting half a millimetre shows it."""
    import numpy
    problems, layered = [], 0
    for number, page in enumerate(pdf.pages, 1):
        paths = painted_paths(pdf, page)
        die = [p for p in paths if p.hidden and p.stroked]
        layered += len(die)
        if any(not p.overprint for p in die):
            problems.append(f"page {number}: a die line on the layer does not overprint")
        for path in paths:
            if not path.hidden and set(path.spots) & set(DIE_SPOTS):
                problems.append(f"page {number}: {'/'.join(path.spots).lstrip('/')} painted in the printed art")
        trim = _box(page, "/TrimBox")
        edges = []
        if trim is not None:
            x0, y0, x1, y1 = (_mm(v) for v in trim)
            edges = [[(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]]
        references = (("on the trim", _segments(edges)), ("on a die line", _segments(
            [s for p in die for s in p.subpaths])))
        for path in paths:
            if path.hidden or not path.stroked:
                continue
            for points in path.subpaths:
                if len(points) < 2:
                    continue
                samples = _samples(points)
                xs, ys = samples[:, 0], samples[:, 1]
                if trim is not None and numpy.allclose(points[0], points[-1]) and numpy.allclose(
                        (xs.min(), ys.min(), xs.max(), ys.max()), [_mm(v) for v in trim], atol=ON_LINE_MM):
                    problems.append(f"page {number}: a printed outline round the whole trim (the cut outline)")
                    continue
                for where, segments in references:
                    run = _longest_run(samples, _distance(samples, segments) <= ON_LINE_MM)
                    if run[0] >= MIN_RUN_MM:
                        x, y = run[1]
                        problems.append(f"page {number}: a printed stroke {where} at ({x:.1f}, {y:.1f}) mm")
                        break
    detail = "; ".join(dict.fromkeys(problems[:3])) if problems else (
        f"{layered} die line(s) on a non-printing layer in {', '.join(s.lstrip('/') for s in DIE_SPOTS)}, "
        "none in the printed art" if layered else "no die lines; no printed stroke on the trim")
    report.add("die-lines", not problems, detail)


def _home_furniture(report: FileReport, pdf) -> None:
    """No home-print furniture: a 50 mm scale bar (a thin bar 50 mm long with ticks every
    10 mm), which would print on every copy a shop makes."""
    found = []
    for number, page in enumerate(pdf.pages, 1):
        bars = []          # (axis, along from, along to, across): thin axis-aligned marks
        for path in painted_paths(pdf, page):
            if path.hidden:
                continue
            for points in path.subpaths:
                xs, ys = [p[0] for p in points], [p[1] for p in points]
                w, h = max(xs) - min(xs), max(ys) - min(ys)
                if h <= 0.6 and w > h:
                    bars.append(("x", min(xs), max(xs), (min(ys) + max(ys)) / 2))
                elif w <= 0.6 and h > w:
                    bars.append(("y", min(ys), max(ys), (min(xs) + max(xs)) / 2))
        for axis, start, end, across in bars:
            if abs(end - start - SCALE_BAR_MM) > 0.3:
                continue
            ticks = {round((t_across - start) / 10) for t_axis, t0, t1, t_across in bars
                     if t_axis != axis and 0.4 <= t1 - t0 <= 2.5 and min(abs(t0 - across), abs(t1 - across)) <= 0.6
                     and abs((t_across - start) / 10 - round((t_across - start) / 10)) * 10 <= 0.4}
            if len(ticks & set(range(6))) >= 5:
                found.append(f"page {number}: a {SCALE_BAR_MM} mm scale bar at {across:.1f} mm")
                break
    report.add("home-furniture", not found,
               "; ".join(found[:3]) + " (home-print furniture: it would print on every copy)" if found
               else "no scale bar or other home-print furniture")


# ---- report -------------------------------------------------------------------------------------

def format_report(reports: list[FileReport]) -> str:
    lines = []
    for report in reports:
        lines.append(f"{'PASS' if report.ok else 'FAIL'}  {report.path}"
                     + (f"  (checked as {report.taken_as})" if report.taken_as else ""))
        for check in report.checks:
            lines.append(f"  {_word(check.ok):4}  {check.criterion:15} {check.detail}")
    failed = sum(not r.ok for r in reports)
    lines.append(f"{len(reports) - failed} of {len(reports)} file(s) passed preflight" + (f", {failed} failed" if failed else ""))
    return "\n".join(lines)


def failures(reports: list[FileReport]) -> list[str]:
    """Every failed check as `file: check: message`, the form every error of the tool takes."""
    return [f"{report.path}: {check.criterion}: {check.detail}"
            for report in reports for check in report.checks if check.ok is False]
