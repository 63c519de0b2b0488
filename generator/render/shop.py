"""Print-shop card files from a profile: one file per card face or one per deck, every page the
trim plus its bleed with TrimBox and BleedBox, backgrounds running into the bleed, colours in
the profile's space, PNG at the profile's exact pixel size. Nothing here knows a shop by name:
the profile (generator/load/profiles.py) decides and this code draws."""
from __future__ import annotations

import io
from dataclasses import dataclass, field

import pikepdf
import pypdfium2 as pdfium
from pikepdf import Name

from ..layout.faces import Face
from ..load.profiles import CardSpec, FileSpec, Geometry, Profile
from .faces import draw_placed
from .pdf import DieLines, Document
from .pdfx import make_pdfx


@dataclass
class ShopFile:
    path: str                 # relative to the profile's folder
    data: bytes
    kind: str                 # shop-cards (PDF) or shop-card-png
    pages: int
    details: dict = field(default_factory=dict)
    source: tuple[str, int, str] = ("", 0, "")     # where the name came from: the profile's file, line, key


@dataclass(frozen=True)
class Card:
    """One distinct card of a deck with its place in the deck (1-based)."""

    deck: str
    number: int
    face: Face

    @property
    def id(self) -> str:
        return self.face.key.removeprefix("card-")

    def side(self, side: str) -> Face:
        return self.face if side == "front" else self.face.back


def decks_of(faces: list[Face]) -> dict[str, list[Card]]:
    decks: dict[str, list[Card]] = {}
    for face in faces:
        deck = face.values["deck"]
        decks.setdefault(deck, []).append(Card(deck, len(decks.get(deck, [])) + 1, face))
    return decks


def products_of(decks: dict[str, list[Card]], max_cards: int | None) -> dict[str, list[tuple[Card, int]]]:
    """What a shop sells as one item: the decks of one card size and stock whose cards have the
    same backs (two decks sharing one back design: one product), in the order of their first deck, named
    by their decks joined with '+'. A deck printed in several copies, each with its own back, is
    a deck per copy (`<deck>-<back>`): a product holds whole copies. A product of more than
    `max_cards` cards is split into parts of at most that many ('-1', '-2' ...), a card's copies
    across two parts if need be. Each entry is (card, copies in this part)."""
    by_copy: dict[str, list[Card]] = {}
    for members in decks.values():
        for card in members:
            by_copy.setdefault(card.face.deck_copy or card.deck, []).append(card)
    groups: dict[tuple, list[str]] = {}
    for copy, members in by_copy.items():
        size = tuple(members[0].face.layout["size_mm"])
        backs = frozenset(card.face.back.key for card in members if card.face.back is not None)
        sizes = {tuple(card.face.layout["size_mm"]) for card in members}
        key = (size, backs, _stock(members[0].deck, decks)) if len(sizes) == 1 else (copy,)
        groups.setdefault(key, []).append(copy)
    products: dict[str, list[tuple[Card, int]]] = {}
    for group in groups.values():
        cards = [(card, card.face.copies) for copy in group for card in by_copy[copy]]
        name = "+".join(group)
        total = sum(copies for _, copies in cards)
        if max_cards is None or total <= max_cards:
            products[name] = cards
            continue
        parts, part, room = [], [], max_cards
        for card, copies in cards:
            while copies:
                taken = min(copies, room)
                part.append((card, taken))
                copies, room = copies - taken, room - taken
                if room == 0:
                    parts.append(part)
                    part, room = [], max_cards
        if part:
            parts.append(part)
        for number, part in enumerate(parts, 1):
            products[f"{name}-{number}"] = part
    return products


def file_name(spec: FileSpec, names: dict, card: Card | None, deck: str) -> str:
    values = dict(names, deck=deck, product=deck)
    if card is not None:
        values.update(card=card.id, number=f"{card.number:02d}", copies=card.face.copies)
    return spec.name.format(**values)


def geometry_for(cards: CardSpec, face: Face) -> Geometry:
    size = cards.size_for(tuple(face.layout["size_mm"]))
    if size is None:   # validation reports this with the card's file and line first
        raise ValueError(f"no card size in the profile for {face.key}")
    return cards.geometry(size)


def render_pages(faces: list[Face], cards: CardSpec, title: str) -> tuple[bytes, int]:
    """One page per face: the face at its own size (never scaled) centred on the page, its
    backgrounds running to the page edge."""
    geometry = geometry_for(cards, faces[0])
    doc = Document(geometry.page_mm, title, "print file", trim_box_mm=geometry.trim_box, palette=cards.palette)
    for face in faces:
        if geometry_for(cards, face) != geometry:
            raise ValueError(f"{face.key} has another size than {faces[0].key}; one file holds one card size")
        doc.new_page()
        w, h = face.layout["size_mm"]
        x, y = geometry.face_origin
        bleed = geometry.bleed
        name = doc.form(face.key, lambda c, f=face, b=bleed: draw_placed(c, f.placed, b, cards.palette),
                        (-bleed, -bleed, w + bleed, h + bleed))
        doc.place(name, x, y)
    return doc.finish()


def render_pngs(faces: list[Face], cards: CardSpec) -> list[bytes]:
    """Each face as a PNG of exactly the profile's pixel size, with its resolution recorded."""
    data, _ = render_pages(faces, cards, "png faces")
    pdf = pdfium.PdfDocument(data)
    images = []
    try:
        for index, face in enumerate(faces):
            size = cards.size_for(tuple(face.layout["size_mm"]))
            page = pdf[index]
            # pdfium rounds the bitmap size up: aim a hair under the exact pixel count.
            scale = min((size.pixels[0] - 1e-3) / page.get_width(), (size.pixels[1] - 1e-3) / page.get_height())
            bitmap = page.render(scale=scale)
            image = bitmap.to_pil().convert("RGB")
            if image.size != size.pixels:
                # The page is pixels / dpi inches, so only a rounding slip can get here.
                raise ValueError(f"rendered {image.size}, the profile needs {size.pixels}")
            out = io.BytesIO()
            image.save(out, "PNG", dpi=(cards.dpi, cards.dpi))
            images.append(out.getvalue())
    finally:
        pdf.close()
    return images


def render_shop_cards(faces: list[Face], profile: Profile, names: dict, deck_titles: dict[str, str]) -> list[ShopFile]:
    """Every card file the profile asks for. `names` fills {game} {edition} {locale};
    `deck_titles` gives each deck's printed title for the PDF metadata."""
    cards = profile.cards
    decks = decks_of(faces)
    files: list[ShopFile] = []
    for spec in cards.files:
        if spec.per == "card":
            for deck, members in decks.items():
                jobs = [(card, card.side(side)) for card in members for side in spec.sides]
                if cards.format == "png":
                    images = render_pngs([face for _, face in jobs], cards)
                    for (card, face), image in zip(jobs, images):
                        files.append(ShopFile(file_name(spec, names, card, deck), image, "shop-card-png", 1,
                                              _details(profile, deck, spec, card, decks), spec.source))
                    continue
                for card in members:
                    pages = [card.side(side) for side in spec.sides]
                    files.append(_pdf(profile, pages, deck_titles[deck], file_name(spec, names, card, deck),
                                      _details(profile, deck, spec, card, decks), spec.source))
        elif spec.per == "product":
            for product, members in products_of(decks, cards.max_cards).items():
                pages = [card.side(side) for card, copies in members for _ in range(copies) for side in spec.sides]
                details = {"profile": profile.name, "product": product,
                           "decks": list(dict.fromkeys(card.deck for card, _ in members)), "sides": list(spec.sides),
                           "cards": sum(copies for _, copies in members)}
                _add_stock(details, details["decks"][0], decks)
                title = " + ".join(deck_titles[deck] for deck in details["decks"])
                files.append(_pdf(profile, pages, title, file_name(spec, names, None, product), details, spec.source))
        else:
            for deck, members in decks.items():
                pages = [card.side(side) for card in members for _ in range(card.face.copies) for side in spec.sides]
                details = _details(profile, deck, spec, None, decks)
                details["cards"] = sum(card.face.copies for card in members)
                files.append(_pdf(profile, pages, deck_titles[deck], file_name(spec, names, None, deck), details,
                                  spec.source))
    return files


def _stock(deck: str, decks: dict[str, list[Card]]) -> str | None:
    """The stock a deck is printed on, when its data names one."""
    return decks[deck][0].face.values.get("stock")


def _add_stock(details: dict, deck: str, decks: dict[str, list[Card]]) -> None:
    """A file's manifest details name the stock its deck is printed on, when the data says."""
    if _stock(deck, decks):
        details["stock"] = _stock(deck, decks)


def _details(profile: Profile, deck: str, spec: FileSpec, card: Card | None, decks: dict[str, list[Card]]) -> dict:
    details = {"profile": profile.name, "deck": deck, "sides": list(spec.sides)}
    _add_stock(details, deck, decks)
    if card is not None:
        details.update(card=card.id, copies=card.face.copies)
    return details


def _pdf(profile: Profile, pages: list[Face], title: str, path: str, details: dict,
         source: tuple[str, int, str]) -> ShopFile:
    data, count = render_pages(pages, profile.cards, title)
    if profile.cards.pdfx_standard:
        data = make_pdfx(data, *profile.cards.pdfx_standard, title, press_name=profile.cards.palette.press)
    return ShopFile(path, data, "shop-cards", count, details, source)


def booklet_with_bleed(data: bytes, bleed_mm: float) -> bytes:
    """A booklet for a shop: the same pages in reading order, each page's MediaBox grown by the
    bleed around its trim (the page as laid out), TrimBox and BleedBox written. The rule
    booklet's pages are white to the edge, so the bleed is white too."""
    grow = bleed_mm * 72 / 25.4
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            trim = [float(v) for v in (page.obj.TrimBox if "/TrimBox" in page.obj else page.mediabox)]
            media = pikepdf.Array([trim[0] - grow, trim[1] - grow, trim[2] + grow, trim[3] + grow])
            page.obj.MediaBox = media
            page.obj.BleedBox = media
            page.obj.TrimBox = pikepdf.Array(trim)
            for key in ("/CropBox", "/ArtBox"):
                if key in page.obj:
                    del page.obj[key]
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True)
        return out.getvalue()


# ---- boards, tokens, dice and pieces ---------------------------------------------------------

MARK_GAP_MM = 1.0        # crop marks start this far outside the bleed
MARK_PT = 0.5            # crop-mark line width: thick enough to print

# decided: die lines (where the shop cuts and creases a token, a die's net, a piece) are not art:
# drawn in black on the trim they would print, and a die drifting 0.5-1 mm shows them. They go
# on an optional content layer that does not print (off in the document's default state and
# marked off for printing), in the spot colours print shops and cutting software read,
# overprinting so they knock nothing out: CutContour for cuts, and a spot of its own for
# creases, so a cutter reading CutContour does not cut through a fold. ReportLab writes no
# optional content and turns a spot colour into process CMYK in a CMYK document, so the layer
# is added to the finished PDF with pikepdf.
DIE_LAYER = "DieLines"                # the layer's name in each page's /Properties
DIE_LAYER_TITLE = "Die lines (cut, crease): not printed"
CUT_SPOT = ("CutContour", (0, 1, 0, 0))        # spot name, its look on screen (CMYK)
CREASE_SPOT = ("Crease", (1, 0, 0, 0))
DIE_LINE_PT = 0.25
KAPPA = 0.5523                        # a quarter circle as one Bézier curve


def die_line_content(trim, lines: DieLines) -> bytes:
    """PDF operators drawing `lines` (mm from the trim's corner at `trim`, mm from the page's)
    on the die-line layer, cuts in CutContour and creases in Crease, overprinting."""
    pt = 72 / 25.4

    def xy(x, y):
        return f"{(trim[0] + x) * pt:.4f} {(trim[1] + y) * pt:.4f}"

    ops = [f"q /OC /{DIE_LAYER} BDC /DieLineOverprint gs {DIE_LINE_PT} w [] 0 d 0 J 0 j /CutContour CS 1 SCN"]
    for points in lines.cuts:
        closed = len(points) > 2 and points[0] == points[-1]
        drawn = points[:-1] if closed else points
        ops.append(f"{xy(*drawn[0])} m " + " ".join(f"{xy(*p)} l" for p in drawn[1:]) + (" s" if closed else " S"))
    for cx, cy, r in lines.circles:
        k = r * KAPPA
        ops.append(f"{xy(cx + r, cy)} m {xy(cx + r, cy + k)} {xy(cx + k, cy + r)} {xy(cx, cy + r)} c "
                   f"{xy(cx - k, cy + r)} {xy(cx - r, cy + k)} {xy(cx - r, cy)} c "
                   f"{xy(cx - r, cy - k)} {xy(cx - k, cy - r)} {xy(cx, cy - r)} c "
                   f"{xy(cx + k, cy - r)} {xy(cx + r, cy - k)} {xy(cx + r, cy)} c s")
    if lines.folds:
        ops.append("/Crease CS 1 SCN")
        ops += [f"{xy(*a)} m {xy(*b)} l S" for a, b in lines.folds]
    ops.append("EMC Q")
    return ("\n".join(ops) + "\n").encode("ascii")


def with_die_lines(data: bytes, pages: list) -> bytes:
    """The PDF with each page's die lines (`pages`: (trim in mm, DieLines or None) per page) on
    the die-line layer: an optional content group off in the default configuration and marked
    not to print, in Separation colours overprinting."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        layer = pdf.make_indirect(pikepdf.Dictionary(
            Type=Name.OCG, Name=pikepdf.String(DIE_LAYER_TITLE),
            Usage=pikepdf.Dictionary(Print=pikepdf.Dictionary(PrintState=Name.OFF),
                                     View=pikepdf.Dictionary(ViewState=Name.OFF))))
        spots = {}
        for name, look in (CUT_SPOT, CREASE_SPOT):
            tint = pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[0, 0, 0, 0], C1=list(look), N=1)
            spots[name] = pdf.make_indirect(pikepdf.Array([Name.Separation, Name("/" + name), Name.DeviceCMYK, tint]))
        overprint = pdf.make_indirect(pikepdf.Dictionary(Type=Name.ExtGState, OP=True, op=True, OPM=1))
        for page, (trim, lines) in zip(pdf.pages, pages):
            if lines is None:
                continue
            resources = page.obj.Resources
            for key in ("/Properties", "/ColorSpace", "/ExtGState"):
                if key not in resources:
                    resources[key] = pikepdf.Dictionary()
            resources.Properties[f"/{DIE_LAYER}"] = layer
            for name, space in spots.items():
                resources.ColorSpace[f"/{name}"] = space
            resources.ExtGState["/DieLineOverprint"] = overprint
            page.contents_add(pdf.make_stream(die_line_content(trim, lines)), prepend=False)
        pdf.Root.OCProperties = pikepdf.Dictionary(
            OCGs=pikepdf.Array([layer]),
            D=pikepdf.Dictionary(Name=pikepdf.String("Print"), Order=pikepdf.Array([layer]),
                                 ON=pikepdf.Array(), OFF=pikepdf.Array([layer])))
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True, min_version="1.5")      # optional content is PDF 1.5
        return out.getvalue()


def component_page(size_mm, spec) -> tuple[tuple[float, float], tuple[float, float, float, float],
                                           tuple[float, float, float, float]]:
    """(page, TrimBox, BleedBox) in mm for a component of trim `size_mm`: the bleed all round
    the trim and the marks' margin round that."""
    out = spec.bleed_mm + spec.marks_mm
    w, h = size_mm
    page = (w + 2 * out, h + 2 * out)
    trim = (out, out, out + w, out + h)
    b = spec.bleed_mm
    return page, trim, (out - b, out - b, out + w + b, out + h + b)


def crop_marks(canvas, trim, bleed_mm: float, page_mm, palette) -> None:
    """Crop marks in line with the trim's edges, in the margin outside the bleed: never on the
    component, never in its bleed."""
    from reportlab.lib.units import mm
    x0, y0, x1, y1 = trim
    start = bleed_mm + MARK_GAP_MM
    canvas.saveState()
    canvas.setStrokeColor(palette.colour("#000000"))
    canvas.setLineWidth(MARK_PT)
    for x, outward_x in ((x0, -1), (x1, 1)):
        for y, outward_y in ((y0, -1), (y1, 1)):
            edge_x = 0 if outward_x < 0 else page_mm[0]
            edge_y = 0 if outward_y < 0 else page_mm[1]
            if abs(edge_x - x) > start:     # along the horizontal edge, out to the side
                canvas.line((x + outward_x * start) * mm, y * mm, edge_x * mm, y * mm)
            if abs(edge_y - y) > start:
                canvas.line(x * mm, (y + outward_y * start) * mm, x * mm, edge_y * mm)
    canvas.restoreState()


def render_component_pdf(items: list, spec, title: str) -> tuple[bytes, int]:
    """One page per item (a component's designs: one for most, one per copy of a standee in its
    own colour), each the item's trim with bleed and crop marks, TrimBox and BleedBox written,
    and its die lines on their layer."""
    from reportlab.lib.units import mm
    page, trim, bleed = component_page(items[0].size_mm, spec)
    doc = Document(page, title, "print file", trim_box_mm=trim, palette=spec.palette)
    die_lines = []
    for item in items:
        page, trim, bleed = component_page(item.size_mm, spec)
        doc.new_page()
        canvas = doc.canvas
        canvas.setPageSize((page[0] * mm, page[1] * mm))
        canvas.setTrimBox(tuple(v * mm for v in trim))
        canvas.setBleedBox(tuple(v * mm for v in bleed))
        canvas.saveState()
        clip = canvas.beginPath()          # nothing of the component reaches past its bleed
        clip.rect(bleed[0] * mm, bleed[1] * mm, (bleed[2] - bleed[0]) * mm, (bleed[3] - bleed[1]) * mm)
        canvas.clipPath(clip, stroke=0, fill=0)
        canvas.translate(trim[0] * mm, trim[1] * mm)
        item.draw(canvas, spec.bleed_mm, spec.palette, spec.safe_mm or 0.0)
        canvas.restoreState()
        if spec.marks_mm:
            crop_marks(canvas, trim, spec.bleed_mm, page, spec.palette)
        die_lines.append((trim, item.die_lines))
    data, pages = doc.finish()
    if any(lines is not None for _, lines in die_lines):
        data = with_die_lines(data, die_lines)
    return data, pages


def render_shop_components(kind: str, items: list, profile: Profile, names: dict) -> list[ShopFile]:
    """A PDF per component of one kind, in the profile's colours (PDF/X when it asks)."""
    spec = profile.components
    by_component: dict[str, list] = {}
    for item in items:
        by_component.setdefault(item.component, []).append(item)
    files = []
    for component, members in by_component.items():
        title = members[0].name
        data, pages = render_component_pdf(members, spec, title)
        if spec.pdfx_standard and spec.palette.press:
            data = make_pdfx(data, *spec.pdfx_standard, title, press_name=spec.palette.press)
        w, h = members[0].size_mm
        details = {"profile": profile.name, "component_kind": kind, "component": component,
                   "copies": [m.copies for m in members], "trim_mm": [round(w, 3), round(h, 3)]}
        files.append(ShopFile(spec.name.format(**names, kind=kind, component=component), data, "shop-component",
                              pages, details, spec.source))
    return files
