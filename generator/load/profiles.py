"""Print-shop profiles: what one shop calls print-ready, as data (templates/profiles/*.yaml).

A profile says which files a shop wants (one per card face or one per deck, pages in which
order), their size (trim and bleed, or pixels at a resolution), the colour space with its ink
limit, rich black and the press characterisation CMYK is separated for (generator/core/icc), the
PDF/X variant and the safe zone. Generic code renders and checks them; nothing here or in the
renderers knows a shop by name.
"""
from __future__ import annotations

import re
import string
from dataclasses import dataclass

from ..core.artifacts import unsafe_name
from ..core.colour import Palette
from ..core.errors import DataError, Problem, UsageError
from ..core.icc import PRESSES
from ..core.schema import schema_problems
from ..core.yamlfile import Located, load_yaml, locate
from .card_sizes import card_sizes
from .project import Project, shop_kinds


MM_PER_INCH = 25.4
# Saddle stitching folds sheets of four pages: the rule booklet (generator/layout/booklet) is
# padded to a multiple of this, and a profile's booklet page_multiple has to divide it.
PAGE_MULTIPLE = 4
# decided: a profile's card sizes are named by the game's card sizes (templates/sheets/
# card-sizes.yaml) and give the trim the shop truly cuts that size at (DriveThruCards' poker:
# 2.5 x 3.5 in, 63.5 x 88.9 mm), and the TrimBox is that trim. The face is drawn at its own size,
# exactly as on the home sheet, centred on the shop's trim, and its bleed backgrounds run out
# to the page edge, so the extra 0.25 and 0.45 mm a side is the face's background. Scaling the
# face to the trim would make the shop's cards differ from the home ones (a 63 x 88 face grown
# 0.8 % across and 1 % down, not even in proportion, so either distorted or cropped), and it
# would do so silently; text keeps the safe zone measured from the face's own edge, inside the
# trim. The trim may exceed the face by at most this much, and cut into it by no more than
# TRIM_UNDER_FACE_MM.
TRIM_OVER_FACE_MM = 1.5
# decided: shops that work in inches cut some sizes a hair inside the metric face (tarot
# 2.75 in = 69.85 mm across a 70 mm face, bridge 3.5 in = 88.9 mm down an 89 mm one). Up to
# this much smaller in all (0.1 mm a side, a tenth of what a cut drifts) is taken: the face is
# still drawn whole and unscaled, its background runs on into the bleed, and the safe zone is
# measured from the trim where the trim is inside the face.
TRIM_UNDER_FACE_MM = 0.2
# A profile whose `sizes` is this takes every card size of templates/sheets/card-sizes.yaml,
# cut at the face's own edge with the profile's bleed (a printer that cuts any size it is sent).
ANY_SIZE = "any"
SIDES = ("front", "back")
PDFX_VERSIONS = {  # variant -> (GTS_PDFXVersion, the PDF version it is based on)
    "x-1a": ("PDF/X-1a:2003", "1.4"),
    "x-4": ("PDF/X-4", "1.6"),
}
NAME_FIELDS = {"deck", "product", "number", "card", "copies", "game", "edition", "locale"}
COMPONENT_FIELDS = {"kind", "component", "game", "edition", "locale"}     # name a component's file
CARD_FIELDS = {"number", "card", "copies"}      # name one card: not in the name of a file per deck

# Every number has a maximum (docs/data-files.md): far above what a shop asks, low enough that
# no page, bitmap or file list a profile describes costs more than seconds to make.
_pair = {"type": "array", "items": {"type": "number", "exclusiveMinimum": 0, "maximum": 1200}, "minItems": 2, "maxItems": 2}
_int_pair = {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 20000}, "minItems": 2, "maxItems": 2}
_bleed = {"type": "number", "minimum": 0, "maximum": 20}
_margin = {"type": "number", "minimum": 0, "maximum": 50}
_ppi = {"type": "number", "minimum": 1, "maximum": 2400}
_name = {"type": "string", "minLength": 1, "maxLength": 200}
_colour = {
    "type": "object", "additionalProperties": False, "required": ["space"],
    "properties": {
        "space": {"enum": ["rgb", "cmyk"]},
        "characterisation": {"type": "string", "minLength": 1, "maxLength": 200},
        "ink_limit": {"type": "number", "minimum": 100, "maximum": 400},
        "rich_black": {"type": "array", "items": {"type": "number", "minimum": 0, "maximum": 100},
                       "minItems": 4, "maxItems": 4},
    }}
SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["name"],
    "properties": {
        "name": {"type": "string", "maxLength": 200},
        "cards": {
            "type": "object",
            "additionalProperties": False,
            "required": ["sizes", "bleed_mm", "safe_mm", "format", "colour", "files"],
            "properties": {
                # `any`, or each size the shop prints by its name in card-sizes.yaml
                "sizes": {"if": {"type": "string"}, "then": {"enum": [ANY_SIZE]}, "else": {
                    "type": "object", "minProperties": 1, "maxProperties": 20, "additionalProperties": {
                        "type": "object", "additionalProperties": False, "required": ["trim_mm"],
                        # bleed_mm: this size's own bleed where the shop's template gives it
                        # another than the profile's
                        "properties": {"trim_mm": _pair, "pixels": _int_pair, "bleed_mm": _bleed}}}},
                "bleed_mm": _bleed,
                "safe_mm": _margin,
                "format": {"enum": ["pdf", "png"]},
                "dpi": {"type": "number", "minimum": 72, "maximum": 1200},
                "min_image_ppi": _ppi,
                "colour": _colour,
                "pdfx": {"enum": list(PDFX_VERSIONS)},
                # A product is what the shop sells as one item: the decks of one card size
                # that share their backs, split into parts of at most max_cards cards.
                "product": {"type": "object", "additionalProperties": False, "required": ["max_cards"],
                            "properties": {"max_cards": {"type": "integer", "minimum": 1, "maximum": 10000}}},
                "files": {"type": "array", "minItems": 1, "maxItems": 20, "items": {
                    "type": "object", "additionalProperties": False, "required": ["name", "per", "sides"],
                    "properties": {
                        "name": _name,
                        "per": {"enum": ["card", "deck", "product"]},
                        "sides": {"type": "array", "minItems": 1, "maxItems": 4, "items": {"enum": list(SIDES)}},
                    }}},
            },
        },
        # Boards, tokens, dice and cut-out pieces: one PDF per component, drawn whole at real
        # size, with bleed and crop marks in a margin outside it. Colour and PDF/X are the
        # cards' unless given here.
        "components": {
            "type": "object", "additionalProperties": False,
            "required": ["kinds", "bleed_mm", "marks_mm", "max_mm", "name"],
            "properties": {
                "kinds": {"type": "array", "minItems": 1, "maxItems": 20, "uniqueItems": True,
                          "items": {"type": "string", "maxLength": 64}},
                "bleed_mm": _bleed,
                "marks_mm": _margin,
                # a roll printer's trims run longer than any sheet
                "max_mm": {**_pair, "items": {"type": "number", "exclusiveMinimum": 0, "maximum": 5000}},
                "name": _name,
                # text at least this far inside the trim (preflight); no check when not given
                "safe_mm": _margin,
                "min_image_ppi": _ppi,
                "colour": _colour,
                "pdfx": {"enum": list(PDFX_VERSIONS)},
            }},
        "booklet": {
            "type": "object", "additionalProperties": False, "required": ["bleed_mm", "page_multiple", "name"],
            "properties": {
                "bleed_mm": _bleed,
                "page_multiple": {"type": "integer", "minimum": 1, "maximum": 64},
                "name": _name,
                # CMYK and PDF/X for the booklet; the cards' unless given here
                "colour": _colour,
                "pdfx": {"enum": list(PDFX_VERSIONS)},
            }},
    },
}


@dataclass(frozen=True)
class FileSpec:
    name: str                 # template with {deck} {number} {card} {copies} {game} {edition} {locale}
    per: str                  # card: one file per distinct card; deck: one per deck, a page per copy;
    #                           product: one per product (decks of one size sharing their backs)
    sides: tuple[str, ...]    # the pages of one card, in order
    source: tuple[str, int, str] = ("", 0, "")     # file, line and key of `name`, for errors

    def pattern(self) -> re.Pattern:
        """Matches the end of a path this spec names; each field is a named group (for preflight)."""
        parts = re.split(r"\{([a-z]+)\}", self.name)
        pattern, seen = "", set()
        for index, part in enumerate(parts):
            if index % 2:
                pattern += f"(?P<{part}>[^/]+)" if part not in seen else "[^/]+"
                seen.add(part)
            else:
                pattern += re.escape(part)
        return re.compile(r"(^|/)" + pattern + "$")


@dataclass(frozen=True)
class CardSize:
    name: str                      # a card size of templates/sheets/card-sizes.yaml
    trim_mm: tuple[float, float]   # where the shop cuts it: the page is this and the bleed
    pixels: tuple[int, int] | None
    face_mm: tuple[float, float]   # the card size's face, drawn unscaled
    bleed_mm: float | None = None  # this size's own bleed; None: the profile's

    @property
    def inset_mm(self) -> tuple[float, float]:
        """How far the trim lies inside the face's edge on each side (0 where it is outside)."""
        return tuple(max(0.0, (f - t) / 2) for f, t in zip(self.face_mm, self.trim_mm))


@dataclass(frozen=True)
class Geometry:
    """Where a card sits on one print-file page, in mm from the page's bottom-left corner: the
    face at its own size, centred on the page (the shop's trim is centred on it too)."""

    page_mm: tuple[float, float]
    face_mm: tuple[float, float]
    trim_mm: tuple[float, float] | None = None      # where the shop cuts; None: at the face


    @property
    def face_origin(self) -> tuple[float, float]:
        return ((self.page_mm[0] - self.face_mm[0]) / 2, (self.page_mm[1] - self.face_mm[1]) / 2)

    @property
    def trim_box(self) -> tuple[float, float, float, float]:
        """The shop's trim centred on the page (the face centred on it too)."""
        w, h = self.trim_mm or self.face_mm
        x, y = (self.page_mm[0] - w) / 2, (self.page_mm[1] - h) / 2
        return (x, y, x + w, y + h)

    @property
    def bleed(self) -> float:
        """How far the face's backgrounds reach out to cover the page to its edge."""
        return max(self.face_origin) + 0.05


@dataclass(frozen=True)
class CardSpec:
    sizes: tuple[CardSize, ...]
    bleed_mm: float
    safe_mm: float
    format: str
    dpi: float | None
    min_image_ppi: float
    palette: Palette
    pdfx: str | None
    files: tuple[FileSpec, ...]
    max_cards: int | None = None      # the most cards one product holds; larger ones are split
    any_size: bool = False            # every card size, cut at its face (sizes: any)

    def size_for(self, face_mm) -> CardSize | None:
        """The profile's size for a face of exactly its card size, or None."""
        return next((size for size in self.sizes if all(abs(a - b) < 0.01 for a, b in zip(size.face_mm, face_mm))),
                    None)

    @property
    def pdfx_standard(self) -> tuple[str, str] | None:
        """(GTS_PDFXVersion, the PDF version it is based on), or None for no PDF/X."""
        return PDFX_VERSIONS[self.pdfx] if self.pdfx else None

    def bleed_for(self, size: CardSize) -> float:
        return self.bleed_mm if size.bleed_mm is None else size.bleed_mm

    def geometry(self, size: CardSize) -> Geometry:
        if self.format == "png":
            page = tuple(p / self.dpi * MM_PER_INCH for p in size.pixels)
        else:
            page = tuple(t + 2 * self.bleed_for(size) for t in size.trim_mm)
        return Geometry(page, size.face_mm, size.trim_mm)


@dataclass(frozen=True)
class ComponentSpec:
    """Files for a profile's component kinds (boards, tokens, ...): one PDF per component, its
    page the component's trim (the box round its cut outline), the bleed and a margin of
    `marks_mm` holding crop marks; the trim at most `max_mm` either way round."""

    kinds: tuple[str, ...]
    bleed_mm: float
    marks_mm: float
    max_mm: tuple[float, float]
    name: str                 # template with {kind} {component} {game} {edition} {locale}
    palette: Palette
    pdfx: str | None
    min_image_ppi: float = 300.0
    source: tuple[str, int, str] = ("", 0, "")
    safe_mm: float | None = None

    @property
    def pdfx_standard(self) -> tuple[str, str] | None:
        return PDFX_VERSIONS[self.pdfx] if self.pdfx else None

    def fits(self, size_mm) -> bool:
        """Whether a trim of this size is one the shop prints (either way round)."""
        w, h = size_mm
        big, small = max(self.max_mm), min(self.max_mm)
        return max(w, h) <= big + 1e-6 and min(w, h) <= small + 1e-6

    def pattern(self) -> re.Pattern:
        return FileSpec(self.name, "component", ()).pattern()


@dataclass(frozen=True)
class BookletSpec:
    bleed_mm: float
    page_multiple: int
    name: str
    source: tuple[str, int, str] = ("", 0, "")     # file, line and key of `name`, for errors
    # CMYK booklets are separated through this palette and made PDF/X; RGB ones are not
    palette: Palette = Palette()
    pdfx: str | None = None
    min_image_ppi: float = 300.0

    @property
    def pdfx_standard(self) -> tuple[str, str] | None:
        return PDFX_VERSIONS[self.pdfx] if self.pdfx else None


@dataclass(frozen=True)
class Profile:
    name: str
    title: str
    file: str
    cards: CardSpec | None
    booklet: BookletSpec | None
    components: ComponentSpec | None = None

    @property
    def pdfx_version(self) -> str | None:
        standard = self.cards.pdfx_standard if self.cards else None
        return standard[0] if standard else None


def profile_names(project: Project) -> list[str]:
    names = set()
    for folder in project.template_dirs:
        if (folder / "profiles").is_dir():
            names |= {p.stem for p in (folder / "profiles").glob("*.yaml")}
    return sorted(names)


def load_profile(project: Project, name: str) -> Profile:
    if name not in profile_names(project):
        raise UsageError(f"no print profile '{name}' (profiles: {', '.join(profile_names(project)) or 'none'})")
    path = project.template(f"profiles/{name}.yaml")
    display = project.display(path)
    if unsafe_name(name):       # the profile's name is its folder in the output
        raise DataError([Problem(display, 0, "", f"cannot name a folder {name!r}: {unsafe_name(name)}")])
    data, problems = load_yaml(path, display)
    if not problems and not isinstance(data, Located):
        problems = [Problem(display, 1, "", "expected a mapping at the top level")]
    if problems:
        raise DataError(problems)
    faces = {size.name: size.size_mm for size in card_sizes(project)}
    problems = _check(data, display, faces)
    if problems:
        raise DataError(problems)
    return _build(name, data, display, faces)


def load_profiles(project: Project, names) -> list[Profile]:
    """Profiles by name; 'all' means every profile the project has."""
    names = list(names)
    if "all" in names:
        names = profile_names(project)
    return [load_profile(project, n) for n in dict.fromkeys(names)]


def _check(data: Located, display: str, faces: dict[str, tuple[float, float]]) -> list[Problem]:
    problems = []

    def add(path, message):
        file, line = locate(data, tuple(path))
        problems.append(Problem(file or display, line, ".".join(map(str, path)), message))

    problems += schema_problems(SCHEMA, data, display)
    if problems:
        return problems
    cards = data.get("cards")
    if cards and cards["sizes"] == ANY_SIZE:
        if cards["format"] == "png":
            add(("cards", "sizes"), f"a png profile lists its card sizes with their pixels, not '{ANY_SIZE}'")
        cards = {**cards, "sizes": {}}
    if cards:
        for size_name, size in cards["sizes"].items():
            if size_name not in faces:
                add(("cards", "sizes", size_name), f"no card size '{size_name}' in templates/sheets/card-sizes.yaml "
                                                   f"(sizes: {', '.join(faces)})")
                continue
            face, trim = faces[size_name], size["trim_mm"]
            if any(t < f - TRIM_UNDER_FACE_MM - 0.01 or t > f + TRIM_OVER_FACE_MM + 0.01 for t, f in zip(trim, face)):
                add(("cards", "sizes", size_name, "trim_mm"),
                    f"{size_name} faces are {face[0]:g} x {face[1]:g} mm: a shop's trim for them is that, up to "
                    f"{TRIM_UNDER_FACE_MM:g} mm smaller or up to {TRIM_OVER_FACE_MM:g} mm larger (faces are never "
                    f"scaled), not {trim[0]:g} x {trim[1]:g} mm")
        if cards["format"] == "png":
            if "dpi" not in cards:
                add(("cards",), "a png profile needs dpi")
            for size_name, size in cards["sizes"].items():
                if "pixels" not in size:
                    add(("cards", "sizes", size_name), "a png profile gives the pixel size of each card size")
                elif "dpi" in cards:
                    page = [p / cards["dpi"] * MM_PER_INCH for p in size["pixels"]]
                    bleed = size.get("bleed_mm", cards["bleed_mm"])
                    for axis, (p, t) in enumerate(zip(page, size["trim_mm"])):
                        if p < t + 2 * bleed - 0.01:
                            add(("cards", "sizes", size_name, "pixels", axis),
                                f"{size['pixels'][axis]} px at {cards['dpi']:g} dpi is {p:.2f} mm, less than the trim "
                                f"{t:g} mm plus twice the {bleed:g} mm bleed")
            for index, spec in enumerate(cards["files"]):
                if spec["per"] != "card" or len(spec["sides"]) != 1:
                    add(("cards", "files", index), "a png file holds one side of one card (per: card, one side)")
            if cards.get("pdfx"):
                add(("cards", "pdfx"), "PDF/X applies to PDF files, this profile makes PNG")
            if cards["colour"]["space"] != "rgb":
                add(("cards", "colour", "space"), "PNG card images are RGB: use rgb")
        colour = cards["colour"]
        if colour["space"] == "cmyk" and "characterisation" not in colour and cards["format"] == "pdf":
            add(("cards", "colour"), f"a CMYK profile names the press characterisation its shop prints to "
                                     f"(characterisation: one of {', '.join(PRESSES)})")
        elif "characterisation" in colour and colour["characterisation"] not in PRESSES:
            add(("cards", "colour", "characterisation"),
                f"no press profile for '{colour['characterisation']}' in generator/core/icc (shipped: {', '.join(PRESSES)})")
        elif colour["space"] == "rgb" and "characterisation" in colour:
            add(("cards", "colour", "characterisation"), "an RGB profile is not separated for a press: drop it")
        if cards["colour"]["space"] == "rgb" and cards["format"] == "pdf" and cards.get("pdfx") == "x-1a":
            add(("cards", "colour", "space"), "PDF/X-1a allows no RGB: use cmyk")
        for index, spec in enumerate(cards["files"]):
            used, wrong = name_fields(spec["name"])
            if wrong:
                add(("cards", "files", index, "name"), wrong)
                continue
            needed = {"card": {"card"}, "deck": {"deck"}, "product": {"product"}}[spec["per"]]
            if not needed <= used:
                add(("cards", "files", index, "name"), f"a file per {spec['per']} needs {{{needed.pop()}}} in its name")
            if spec["per"] in ("deck", "product") and used & CARD_FIELDS:
                add(("cards", "files", index, "name"),
                    f"a file per {spec['per']} holds every card of the {spec['per']}, but "
                    f"{{{sorted(used & CARD_FIELDS)[0]}}} names one card")
            if spec["per"] == "product" and "deck" in used:
                add(("cards", "files", index, "name"), "a product may hold several decks: name it by {product}")
            if spec["per"] != "product" and "product" in used:
                add(("cards", "files", index, "name"), f"{{product}} names a file per product, not per {spec['per']}")
        names = [spec["name"] for spec in cards["files"]]
        for index, name in enumerate(names):
            if names.index(name) != index:
                add(("cards", "files", index, "name"), f"two files named '{name}'")
    components = data.get("components")
    if components:
        for index, kind in enumerate(components["kinds"]):
            if kind not in shop_kinds():
                add(("components", "kinds", index), f"no component kind '{kind}' makes shop files "
                                                     f"(kinds: {', '.join(shop_kinds())}; cards go under cards:)")
        used, wrong = name_fields(components["name"], COMPONENT_FIELDS)
        if wrong:
            add(("components", "name"), wrong)
        elif "component" not in used:
            add(("components", "name"), "a file per component needs {component} in its name")
        problems += _colour_problems(data, ("components",), components.get("colour") or (cards or {}).get("colour"),
                                     components.get("pdfx", (cards or {}).get("pdfx")), add)
    booklet = data.get("booklet")
    if booklet and ("colour" in booklet or "pdfx" in booklet):
        _colour_problems(data, ("booklet",), booklet.get("colour") or (cards or {}).get("colour"),
                         booklet.get("pdfx", (cards or {}).get("pdfx")), add)
    if booklet and unsafe_name(booklet["name"]):
        add(("booklet", "name"), f"cannot name a file {booklet['name']!r}: {unsafe_name(booklet['name'])}")
    if booklet and PAGE_MULTIPLE % booklet["page_multiple"]:
        add(("booklet", "page_multiple"),
            f"the rule booklet is a multiple of {PAGE_MULTIPLE} pages, which a shop asking for a multiple of "
            f"{booklet['page_multiple']} does not get (page_multiple: 1, 2 or {PAGE_MULTIPLE})")
    if not cards and not booklet and not components:
        add((), "a profile needs cards, components or booklet")
    return problems


def _colour_problems(data, where: tuple, colour, pdfx, add) -> list:
    """What is wrong with the colour a section of the profile prints in (its own or the cards')."""
    if colour is None:
        add(where, "no colour: give colour (space, characterisation, ink_limit) here or under cards")
        return []
    if colour["space"] == "cmyk" and "characterisation" not in colour:
        add((*where, "colour"), f"a CMYK profile names the press characterisation its shop prints to "
                                f"(characterisation: one of {', '.join(PRESSES)})")
    elif "characterisation" in colour and colour["characterisation"] not in PRESSES:
        add((*where, "colour", "characterisation"),
            f"no press profile for '{colour['characterisation']}' in generator/core/icc (shipped: {', '.join(PRESSES)})")
    if colour["space"] == "rgb" and pdfx == "x-1a":
        add((*where, "pdfx"), "PDF/X-1a allows no RGB: use cmyk")
    return []


def name_fields(name: str, fields: set[str] = NAME_FIELDS) -> tuple[set[str], str]:
    """The fields a file-name pattern uses, and what is wrong with it ("" when nothing is):
    a pattern is plain text with {field}s, naming a file inside the profile's folder."""
    try:
        parts = list(string.Formatter().parse(name))
    except ValueError as exc:
        return set(), f"not a file-name pattern: {exc}"
    used, sample = set(), ""
    for literal, name_field, spec, conversion in parts:
        if "{" in literal or "}" in literal:        # written {{ or }}
            return used, "a { or } that is not around a field"
        sample += literal
        if name_field is None:
            continue
        if name_field not in fields or spec or conversion:
            written = name_field + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "")
            return used, f"unknown field {{{written}}} (fields: {', '.join(sorted(fields))})"
        used.add(name_field)
        sample += "x"           # every field's value is one plain name (ids and numbers)
    if unsafe_name(sample):
        return used, f"cannot name a file {name!r}: {unsafe_name(sample)}"
    return used, ""


def _build(name: str, data: Located, display: str, faces: dict[str, tuple[float, float]]) -> Profile:
    cards = data.get("cards")
    card_spec = None
    if cards:
        colour = cards["colour"]
        palette = Palette(colour["space"], float(colour.get("ink_limit", 400)),
                          tuple(colour["rich_black"]) if "rich_black" in colour else None,
                          colour.get("characterisation"))
        any_size = cards["sizes"] == ANY_SIZE
        sizes = {n: {"trim_mm": face} for n, face in faces.items()} if any_size else cards["sizes"]
        card_spec = CardSpec(
            sizes=tuple(CardSize(n, tuple(s["trim_mm"]), tuple(s["pixels"]) if "pixels" in s else None, faces[n],
                                 float(s["bleed_mm"]) if "bleed_mm" in s else None)
                        for n, s in sizes.items()),
            bleed_mm=float(cards["bleed_mm"]), safe_mm=float(cards["safe_mm"]), format=cards["format"],
            dpi=cards.get("dpi"), min_image_ppi=float(cards.get("min_image_ppi", 300)), palette=palette,
            pdfx=cards.get("pdfx"),
            files=tuple(FileSpec(f["name"], f["per"], tuple(f["sides"]), _source(data, ("cards", "files", i, "name")))
                        for i, f in enumerate(cards["files"])),
            max_cards=cards.get("product", {}).get("max_cards"), any_size=any_size)
    components = data.get("components")
    component_spec = None
    if components:
        component_spec = ComponentSpec(
            tuple(components["kinds"]), float(components["bleed_mm"]), float(components["marks_mm"]),
            tuple(float(v) for v in components["max_mm"]), components["name"],
            _palette(components.get("colour") or cards["colour"]), components.get("pdfx", (cards or {}).get("pdfx")),
            float(components.get("min_image_ppi", (cards or {}).get("min_image_ppi", 300))),
            _source(data, ("components", "name")),
            float(components["safe_mm"]) if "safe_mm" in components else None)
    booklet = data.get("booklet")
    booklet_spec = None
    if booklet:
        colour = booklet.get("colour") or (cards or {}).get("colour")
        booklet_spec = BookletSpec(float(booklet["bleed_mm"]), int(booklet["page_multiple"]), booklet["name"],
                                   _source(data, ("booklet", "name")),
                                   _palette(colour) if colour else Palette(),
                                   booklet.get("pdfx", (cards or {}).get("pdfx")) if colour else None,
                                   float((cards or {}).get("min_image_ppi", 300)))
    return Profile(name, data["name"], display, card_spec, booklet_spec, component_spec)


def _palette(colour: dict) -> Palette:
    return Palette(colour["space"], float(colour.get("ink_limit", 400)),
                   tuple(colour["rich_black"]) if "rich_black" in colour else None, colour.get("characterisation"))


def _source(data: Located, path: tuple) -> tuple[str, int, str]:
    return (*locate(data, path), ".".join(map(str, path)))
