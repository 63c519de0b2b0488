"""A picture from the game's own folder, fitted into a box: PNG or JPEG through Pillow, SVG
through svglib as vector drawing. Files outside the game's folder are refused unread, and an
SVG may not reach for anything outside itself (other files, URLs, entities).

The face's values may choose the picture and how often it is drawn: `{field}` in `file` is
filled from the face (`art/{kind}.svg`; an empty value draws nothing), and `repeat: field`
draws it as many times as that value says, each copy `step: [dx, dy]` mm from the one before
(a row of three icons for a count of 3).

Placing reads and decodes the picture whole (a damaged one is a problem of its face) and fits
each copy into its box; generator/render/elements/image.py draws it in the press's colours."""
from __future__ import annotations

import io
import logging
import re
import threading
import warnings
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from lxml import etree
from PIL import Image, ImageFile, UnidentifiedImageError
from reportlab.lib.units import mm

from ...core.files import read_bytes_inside
from ..contrast import Paint, in_box
from .base import ElementType, Placed


# Pictures are art for a card, not photographs for a poster.
MAX_IMAGE_BYTES = 8 * 1024 * 1024
MAX_PIXELS = 40_000_000
HREF_ATTRIBUTES = ("href", "{http://www.w3.org/1999/xlink}href", "src")
# `{field}` in a file name, and what a value put there may be: a plain name, never a path.
FILE_FIELD = re.compile(r"\{([a-z][a-z0-9_]*)\}")
PLAIN_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
MAX_REPEAT = 50


def _svg_outside_reference(data: bytes) -> str:
    """What in the SVG points outside it ('' when nothing does)."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    root = etree.fromstring(data, parser)
    if root.getroottree().docinfo.internalDTD is not None or b"<!ENTITY" in data:
        return "a DOCTYPE with entities"
    for node in root.iter():
        for attribute in HREF_ATTRIBUTES:
            target = node.get(attribute)
            if target is not None and not target.startswith("#"):
                return f"{attribute.split('}')[-1]}={target[:40]!r}"
        style = (node.get("style") or "") + (node.text or "" if str(node.tag).endswith("style") else "")
        if "url(" in style.replace("url(#", ""):
            return "a url() in its style"
    return ""


# Pillow reads whether to accept a truncated file from a module global, which WeasyPrint sets
# to True for the whole process when it is imported: a picture's missing rows would print black.
_DECODING = threading.Lock()


@contextmanager
def _whole_pictures_only():
    """Decode with truncated files refused, whatever another library set, and without PIL's
    size warning (MAX_PIXELS is checked first)."""
    with _DECODING, warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        accepted = ImageFile.LOAD_TRUNCATED_IMAGES
        ImageFile.LOAD_TRUNCATED_IMAGES = False
        try:
            yield
        finally:
            ImageFile.LOAD_TRUNCATED_IMAGES = accepted


class _SvgErrors(logging.Handler):
    """What svglib reports while it renders: a <use> expansion it stopped at its limit, a
    circular reference it skipped, an element it could not draw. Each leaves the drawing short."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def _local_name(node) -> str:
    return str(node.tag).rsplit("}", 1)[-1] if isinstance(node.tag, str) else ""


def _use_copies(root) -> int:
    """How many copies the SVG's <use> elements make once expanded, each inside what another
    copies counted again, counted without expanding them (at most one past svglib's limit);
    ValueError for a <use> that copies itself, however far round. svglib draws <defs> too (and
    counts the copies made there), so they are counted wherever they are."""
    from svglib.svglib import MAX_USE_EXPANSIONS
    by_id = {node.get("id"): node for node in root.iter() if isinstance(node.tag, str) and node.get("id")}
    made: dict[int, int] = {}
    open_targets: set[int] = set()

    def copies(node) -> int:
        total = 0
        for child in node:
            if _local_name(child) == "use":
                href = next((child.get(a) for a in HREF_ATTRIBUTES if child.get(a)), "")
                target = by_id.get(href[1:]) if href.startswith("#") else None
                total += 1 + (copied(target) if target is not None else 0)
            total += copies(child)
            if total > MAX_USE_EXPANSIONS:
                return total
        return total

    def copied(target) -> int:
        key = id(target)
        if key in open_targets:
            raise ValueError(f"a <use> copies {target.get('id')!r}, which holds that <use>: it would repeat forever")
        if key not in made:
            open_targets.add(key)
            made[key] = min(copies(target) + copied_use(target), MAX_USE_EXPANSIONS + 1)
            open_targets.discard(key)
        return made[key]

    def copied_use(target) -> int:
        """A <use> named directly by another copies what it names too."""
        if _local_name(target) != "use":
            return 0
        href = next((target.get(a) for a in HREF_ATTRIBUTES if target.get(a)), "")
        inner = by_id.get(href[1:]) if href.startswith("#") else None
        return 1 + copied(inner) if inner is not None else 0

    found = copies(root)
    if found > MAX_USE_EXPANSIONS:
        raise ValueError(f"its <use> elements make more than {MAX_USE_EXPANSIONS:,} copies, the most svglib draws "
                         f"(it would leave the rest out)")
    return found


def _svg_drawing(root):
    """svglib's drawing of the SVG, or ValueError when svglib would draw it incomplete: its
    <use> copies counted first, and whatever svglib reports as an error while drawing."""
    from svglib.svglib import SvgRenderer, logger
    _use_copies(root)
    errors = _SvgErrors()
    logger.addHandler(errors)
    try:
        drawing = SvgRenderer("").render(root)
    finally:
        logger.removeHandler(errors)
    if errors.messages:
        raise ValueError(f"the SVG cannot be drawn whole: {errors.messages[0][:120]}"
                         + (f" (and {len(errors.messages) - 1} more)" if len(errors.messages) > 1 else ""))
    return drawing


def _load(data: bytes, suffix: str):
    """('svg', svglib's Drawing) or ('raster', the decoded RGB or RGBA picture); raises
    ValueError with a reason. A picture is decoded whole before it is used: a truncated or damaged file, one too
    large, or an SVG svglib draws only in part is refused."""
    loaded = _decoded(data, suffix)
    if isinstance(loaded, str):
        raise ValueError(loaded)
    return loaded


@lru_cache(maxsize=64)
def _decoded(data: bytes, suffix: str):
    """What _load gives, or why not: a refusal is remembered too (a deck draws one picture on
    many faces)."""
    try:
        return _decode(data, suffix)
    except ValueError as exc:
        return str(exc)


def _decode(data: bytes, suffix: str):
    if suffix == ".svg":
        try:
            outside = _svg_outside_reference(data)
        except etree.XMLSyntaxError as exc:
            raise ValueError(f"not a readable SVG: {exc.msg}") from None
        if outside:
            raise ValueError(f"the SVG reaches outside itself ({outside}); embed everything it draws")
        root = etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True))
        drawing = _svg_drawing(root)
        if not drawing or not drawing.width or not drawing.height:
            raise ValueError("the SVG has no size (give it width and height or a viewBox)")
        # the drawing's starting font is a shipped one: else ReportLab names Helvetica in the file
        from ...core import fonts
        drawing.initialFontName = fonts.font_name("regular")
        return ("svg", drawing)
    try:
        with _whole_pictures_only(), Image.open(io.BytesIO(data)) as picture:
            if picture.width * picture.height > MAX_PIXELS:
                raise ValueError(f"{picture.width} × {picture.height} pixels is more than a face needs")
            picture.load()
            converted = picture.convert("RGBA" if "A" in picture.getbands() else "RGB")
        if data.startswith(b"\x89PNG"):
            with _whole_pictures_only(), Image.open(io.BytesIO(data)) as chunks:
                chunks.verify()         # every chunk's checksum, to the end of the file
    except Image.DecompressionBombError:
        raise ValueError(f"more pixels than a face needs (at most {MAX_PIXELS:,})") from None
    except (UnidentifiedImageError, OSError, SyntaxError) as exc:
        if "truncated" in str(exc).lower():
            raise ValueError(f"the file is cut short ({_plain(exc)}): its missing part would print as "
                             f"black; export the picture again") from None
        raise ValueError(f"not a readable PNG or JPEG picture ({exc.__class__.__name__})") from None
    return ("raster", converted)


def _plain(exc: Exception) -> str:
    """Pillow's message without the in-memory file it names."""
    return re.sub(r"\s*<_io\.BytesIO object at 0x[0-9a-f]+>", "", str(exc))[:120]


@dataclass(frozen=True)
class PlacedPicture:
    """A loaded picture and where its copies go: `kind` 'svg' with svglib's drawing as
    `picture`, or 'raster' with the decoded RGB or RGBA pixels; `boxes` (x, y, w, h) mm, one
    per copy, each fitted into the element's box as `fit` says."""

    kind: str
    picture: object
    boxes: tuple[tuple[float, float, float, float], ...]


def natural_size(loaded) -> tuple[float, float]:
    """What a loaded picture's proportions are read from: an SVG's size in mm, a raster's pixels."""
    if loaded[0] == "svg":
        return (loaded[1].width / mm, loaded[1].height / mm)
    return loaded[1].size


def copy_boxes(element: dict, natural: tuple[float, float],
               copies: int) -> tuple[tuple[float, float, float, float], ...]:
    """Where each copy of the picture goes: its box moved `step` from the last, the picture fitted in."""
    x0, y0, w0, h0 = element["box"]
    dx, dy = element.get("step", (0, 0))
    return tuple(fitted_box((x0 + copy * dx, y0 + copy * dy, w0, h0), natural, element.get("fit", "contain"))
                 for copy in range(copies))


def fitted_box(box, natural: tuple[float, float], how: str) -> tuple[float, float, float, float]:
    """Where the picture goes inside `box` (x, y, w, h): contained and centred, or stretched."""
    x, y, w, h = box
    if how == "stretch":
        return box
    scale = min(w / natural[0], h / natural[1])
    width, height = natural[0] * scale, natural[1] * scale
    return (x + (w - width) / 2, y + (h - height) / 2, width, height)


def chosen_file(element: dict, values: dict) -> tuple[str, str]:
    """(the picture's path with its `{field}`s filled, '') — or ('', '') when a field is empty,
    or ('', reason) when a value is not a plain name."""
    file = element["file"]
    for field in FILE_FIELD.findall(file):
        value = str(values.get(field, "")).strip()
        if not value:
            return "", ""
        if not PLAIN_NAME.match(value):
            return "", f"picture {file}: {field} is {value[:40]!r}, which is not a plain file name"
        file = file.replace(f"{{{field}}}", value)
    return file, ""


def copies_of(element: dict, values: dict) -> tuple[int, str]:
    """How many times the picture is drawn: 1, or the whole number its `repeat` field holds."""
    if "repeat" not in element:
        return 1, ""
    value = str(values.get(element["repeat"], "")).strip() or "0"
    if not value.isdigit() or int(value) > MAX_REPEAT:
        return 0, f"{element['repeat']} is {value[:20]!r}: a picture repeats 0 to {MAX_REPEAT} times"
    return int(value), ""


# The pictures read so far while `pictures_read_once` holds: path -> (bytes or None, problems).
_pictures_read: ContextVar[dict | None] = ContextVar("pictures_read", default=None)


@contextmanager
def pictures_read_once():
    """Within it, each picture file is read once: checking every face of a game places its
    few pictures on hundreds of faces, in every edition and locale."""
    token = _pictures_read.set({})
    try:
        yield
    finally:
        _pictures_read.reset(token)


def _read_picture(path: Path, folder: Path, file: str):
    read = _pictures_read.get()
    if read is None:
        return read_bytes_inside(path, [folder], file, MAX_IMAGE_BYTES, "the game's folder")
    key = (path, folder, file)
    if key not in read:
        read[key] = read_bytes_inside(path, [folder], file, MAX_IMAGE_BYTES, "the game's folder")
    return read[key]


def picture_in(folder: Path, file: str):
    """(the loaded picture, '') of a file in the game's folder, read within the same limits as
    an image element's, or (None, why not)."""
    path = folder / file
    data, problems = _read_picture(path, folder, file)
    if problems:
        return None, f"picture {file}: {problems[0].message}"
    try:
        return _load(data, path.suffix.lower()), ""
    except ValueError as exc:
        return None, f"picture {file}: {exc}"


class Picture(ElementType):
    name = "image"
    required = ("file", "box")
    properties = {
        "file": {"type": "string", "pattern": r"^(?![/\\])(?!.*\\)[^\x00]+\.(svg|png|jpe?g)$", "maxLength": 200},
        "box": {"$ref": "layouts#/$defs/box"},
        "fit": {"enum": ["contain", "stretch"]},
        # the face value that says how many copies to draw, each `step` mm from the last
        "repeat": {"$ref": "common#/$defs/name"},
        "step": {"$ref": "layouts#/$defs/point"},
    }
    extra_schema = {"dependentRequired": {"repeat": ["step"], "step": ["repeat"]}}

    def fields(self, element):
        return super().fields(element) | set(FILE_FIELD.findall(element["file"])) | (
            {element["repeat"]} if "repeat" in element else set())

    def place(self, element, values, folder: Path | None):
        copies, reason = copies_of(element, values)
        if reason:
            return Placed(element, None, ((element["repeat"], reason),))
        file, reason = chosen_file(element, values)
        if reason:
            return Placed(element, None, (("file", reason),))
        if not file or not copies:
            return Placed(element)          # nothing chosen: nothing drawn
        if folder is None:
            return Placed(element, None, (("file", "a picture needs the game's folder"),))
        loaded, reason = picture_in(folder, file)
        if reason:
            return Placed(element, None, (("file", reason),))
        boxes = copy_boxes(element, natural_size(loaded), copies)
        return Placed(element, PlacedPicture(loaded[0], loaded[1], boxes))

    def layers(self, placed, values):
        """A picture's colours are its own: ink over it is not judged."""
        if placed.fitted is None:
            return []
        x0, y0, w0, h0 = placed.spec["box"]
        dx, dy = placed.spec.get("step", (0, 0))
        return [Paint(None, in_box(x0 + copy * dx, y0 + copy * dy, w0, h0)) for copy in range(len(placed.fitted.boxes))]


ELEMENT = Picture()
