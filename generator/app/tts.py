"""Tabletop Simulator export (`pnp build --target tts`): per game, edition and locale, a folder
<game>/<edition>/<locale>/tts/ a player loads in Tabletop Simulator (TTS).

- every deck as face sheets of at most 10 x 7 cards and MAX_PX pixels a side, the last slot of
  a sheet left empty as TTS wants it (a deck of one distinct card is a 1 x 1 sheet); more cards
  take more sheets. The back is one image when every card of a sheet has the same back, else a
  back sheet laid out like the faces (TTS's "unique backs"). RGB PNG.
- every board as a custom tile image (RGB PNG), every token as a custom token image (PNG with
  transparency outside its outline: TTS cuts a token along it; a standee is its figure).
- every six-sided die as a TTS custom d6 (`Custom_Dice`): one image of its faces in the cells
  TTS's d6 template gives them (D6_CELLS).
- a saved-object JSON (`ObjectStates`) whose decks name their sheets in `CustomDeck` entries,
  each card's `CardID` being its sheet's DeckID x 100 + its index on the sheet, and the names
  and texts of cards, decks, boards, tokens and dice in the locale; an image's address is its
  file name in the folder, or what --base-url and --url-map give it; urls.txt beside the save
  lists every image with its address, for the player to fill in (README.txt says how).

Faces are drawn by the renderer every other file uses (generator/render/faces.py) into a PDF
whose page is the sheet in pixels, then rasterised with pdfium: one drawing, no second renderer.
Nothing here knows a game: the data decides.
"""
from __future__ import annotations

import hashlib
import io
import json
import math
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import pypdfium2 as pdfium
from reportlab.lib.units import mm

from ..core.artifacts import Artifact
from ..core.errors import UsageError
from ..i18n.catalogs import translatable_paths
from ..i18n.texts import Texts
from ..layout.faces import Face, Localised, card_faces, deck_faces, localised
from ..layout.inline_icons import has_icons
from ..layout.kit import validation_kit
from ..load.icons import ICON_MARK, declared_icons
from ..render.boards import draw_board
from ..render.faces import draw_placed
from ..render.pdf import Document
from ..render.tokens import draw_token
from ..write.incremental import structure_digest, tool_digest
from .kinds import lay_out_every_kind
from .kinds.boards import board_faces
from .kinds.dice import die_nets
from .kinds.tokens import token_faces
from .plan import load_for_build, plan
from .request import BuildRequest
from .units import Unit, Work


# TTS's limits: a deck sheet has at most 10 columns and 7 rows, and TTS keeps the last slot of
# a sheet (the 70th of a full one) for itself.
MAX_COLUMNS, MAX_ROWS = 10, 7
# Pixels: 300 dpi; a deck takes as many sheets as keep each within MAX_PX, and a card (or a
# board) larger than MAX_PX on its own is drawn smaller. TTS's knowledge base (Asset Resolution)
# asks for images under 4096 x 4096.
DPI = 300
MAX_PX = 4096
# TTS's card model at scale 1 is a poker card (2.5 x 3.5 in, near enough); other sizes are scaled from it.
POKER_MM = (63.0, 88.0)
# Boards and tokens: scale 1 is taken as 2 inches across (TTS has no physical units; players
# resize with + and -). Only the sizes relative to each other and to the cards are meant.
TILE_MM_AT_SCALE_1 = 50.8
FOLDER = "tts"
URL_MAP = "urls.txt"

# TTS's custom d6 (`CustomDice` Type 1; Types 0-5 are d4, d6, d8, d10, d12, d20). Its template
# (Tabletop Simulator/Modding/Dice Templates, shown in TTS's knowledge base, Custom Dice) is a
# square of 3 x 3 cells, the top row unused: faces 2, 4, 5 in the middle row, 1, 3, 6 in the
# bottom one, 1 and 6 upside down. Face value -> (column, row, drawn upside down).
D6_TYPE = 1
D6_CELLS = {1: (0, 2, True), 2: (0, 1, False), 3: (1, 2, False), 4: (1, 1, False), 5: (2, 1, False),
            6: (2, 2, True)}
# The die's rotation on the table with each face up, as TTS saves a d6's RotationValues.
D6_ROTATIONS = {1: (-90.0, 0.0, 0.0), 2: (0.0, 0.0, 0.0), 3: (0.0, 0.0, -90.0), 4: (0.0, 0.0, 90.0),
                5: (0.0, 0.0, -180.0), 6: (90.0, 0.0, 0.0)}
# The TTS face each face of the data's net takes (top, left, front, right, back, bottom): the
# opposite faces stay opposite (1-6, 3-4, 2-5) and the die is not mirrored (around the corner of
# 1, 2 and 4 TTS goes 2, 1, 4 clockwise, as the net's top, right and front do).
D6_OF_NET = (1, 3, 2, 4, 5, 6)
# Each face's pixels: a die is looked at close up, larger than it is printed.
DIE_FACE_PX = 512
# A die at scale 1 is taken as an inch across, like the table's grid squares.
DIE_MM_AT_SCALE_1 = 25.4


# ---- plan: which card goes where (from the data alone, before anything is drawn) ----------

@dataclass(frozen=True)
class Sheet:
    """One TTS CustomDeck entry: up to columns x rows - 1 distinct faces of one deck."""

    faces: tuple[Face, ...]
    columns: int
    rows: int
    face_file: str
    back_file: str
    unique_back: bool           # the back file is a sheet laid out like the faces


@dataclass(frozen=True)
class TtsDeck:
    deck: str                   # the data's deck id
    name: str                   # the deck's name in the locale
    size_mm: tuple[float, float]
    sheets: tuple[Sheet, ...]
    copy: str = ""              # the deck, or one copy of it with its own back (`<deck>-<back>`)

    @property
    def card_px(self) -> tuple[int, int]:
        """Each card's pixels on every sheet of the deck: 300 dpi unless the largest sheet
        would pass MAX_PX."""
        w, h = self.size_mm
        columns = max(s.columns for s in self.sheets)
        rows = max(s.rows for s in self.sheets)
        per_mm = min(DPI / 25.4, MAX_PX / (columns * w), MAX_PX / (rows * h))
        return (min(round(w * per_mm), MAX_PX // columns), min(round(h * per_mm), MAX_PX // rows))


def grid_for(count: int, max_columns: int = MAX_COLUMNS, max_rows: int = MAX_ROWS) -> tuple[int, int]:
    """(columns, rows) of the smallest sheet of at most `max_columns` x `max_rows` for `count`
    distinct faces with its last slot empty; one face is a 1 x 1 sheet (TTS's single custom card)."""
    if count == 1:
        return (1, 1)
    rows = min(max_rows, math.ceil((count + 1) / max_columns))
    columns = min(max_columns, math.ceil((count + 1) / rows))
    if columns * rows - 1 < count:
        raise ValueError(f"{count} faces do not fit one sheet")
    return columns, rows


def largest_grid(size_mm: tuple[float, float]) -> tuple[int, int]:
    """(columns, rows) of the largest sheet of cards of `size_mm` at 300 dpi within MAX_PX a
    side and TTS's 10 x 7; at least 1 x 1 (a card larger than MAX_PX is drawn smaller)."""
    w_px, h_px = (round(side * DPI / 25.4) for side in size_mm)
    return max(1, min(MAX_COLUMNS, MAX_PX // w_px)), max(1, min(MAX_ROWS, MAX_PX // h_px))


def per_sheet(size_mm: tuple[float, float]) -> int:
    """How many distinct faces of `size_mm` a sheet holds: its largest grid but the slot TTS
    keeps, or one card (a 1 x 1 sheet) when that grid has no other slot."""
    columns, rows = largest_grid(size_mm)
    return max(1, columns * rows - 1)


def plan_decks(faces: list[Face], stem: str) -> list[TtsDeck]:
    """The TTS decks of the cards `faces` (in data order): one per deck and card size, each
    cut into sheets of at most 69 faces, fewer where a sheet would pass MAX_PX; a deck printed
    in several copies, each with its own back, is a TTS deck per copy (`<deck>-<back>`), as the
    table sorts them apart. `stem` starts every file name; a deck's files are named
    `<stem>-cards-<deck>-...`, apart from any board's (`-board-`), token's (`-token-`) or
    die's (`-die-`)."""
    groups: dict[tuple, list[Face]] = {}
    for face in faces:
        groups.setdefault((face.deck_copy or face.values["deck"], tuple(face.layout["size_mm"])), []).append(face)
    sizes_of: dict[str, int] = {}
    copies_of: dict[str, list[str]] = {}        # a deck's copies, in data order
    for (copy, _size), members in groups.items():
        sizes_of[copy] = sizes_of.get(copy, 0) + 1
        copies = copies_of.setdefault(members[0].values["deck"], [])
        if copy not in copies:
            copies.append(copy)
    decks = []
    for (copy, size), members in groups.items():
        deck = members[0].values["deck"]
        name = "cards-" + (copy if sizes_of[copy] == 1 else f"{copy}-{size[0]:g}x{size[1]:g}")
        most = per_sheet(size)
        chunks = [members[i:i + most] for i in range(0, len(members), most)]
        one_back = len({face.back.key for face in members}) == 1
        sheets = []
        for number, chunk in enumerate(chunks, 1):
            columns, rows = grid_for(len(chunk), *largest_grid(size))
            backs = {face.back.key for face in chunk}
            if one_back:
                back_file = f"{stem}-{name}-back.png"
            elif len(backs) == 1:
                back_file = f"{stem}-{name}-{number}-back.png"
            else:
                back_file = f"{stem}-{name}-{number}-backs.png"
            sheets.append(Sheet(tuple(chunk), columns, rows, f"{stem}-{name}-{number}.png", back_file,
                                len(backs) > 1))
        title = members[0].values.get("deck_name", deck)
        if len(copies_of[deck]) > 1:        # the copies told apart by number, as their backs are
            title = f"{title} {copies_of[deck].index(copy) + 1}"
        decks.append(TtsDeck(deck, title, size, tuple(sheets), copy))
    return decks


# ---- drawing -------------------------------------------------------------------------------

def _png(image) -> bytes:
    """PNG bytes with no chunk but the image's: the same pixels give the same bytes."""
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def rasterise(data: bytes, size_px: tuple[int, int], alpha: bool = False):
    """The first page of PDF `data` (drawn one point per pixel) as a PIL image of exactly
    `size_px`; transparent where nothing is drawn when `alpha`."""
    pdf = pdfium.PdfDocument(data)
    try:
        fill = (255, 255, 255, 0) if alpha else (255, 255, 255, 255)
        image = pdf[0].render(scale=1, fill_color=fill).to_pil()
    finally:
        pdf.close()
    mode = "RGBA" if alpha else "RGB"
    if image.mode != mode:
        image = image.convert(mode)
    if image.size != tuple(size_px):
        image = image.resize(size_px)
    return image


def _pixel_document(size_px: tuple[int, int], title: str):
    """A one-page Document whose page measures one point per pixel of `size_px`."""
    doc = Document((size_px[0] * 25.4 / 72, size_px[1] * 25.4 / 72), title, "tabletop simulator")
    doc.new_page()
    return doc


def render_grid(cells: list[Face | None], columns: int, rows: int, card_px: tuple[int, int], title: str) -> bytes:
    """A sheet of `columns` x `rows` cards, each exactly `card_px`, read left to right and top
    to bottom; None leaves a slot white. RGB PNG."""
    w_px, h_px = card_px
    size = (columns * w_px, rows * h_px)
    doc = _pixel_document(size, title)
    c = doc.canvas
    for index, face in enumerate(cells):
        if face is None:
            continue
        w, h = face.layout["size_mm"]
        name = doc.form(face.key, lambda cv, f=face: draw_placed(cv, f.placed), (0, 0, w, h))
        column, row = index % columns, index // columns
        c.saveState()
        c.translate(column * w_px, (rows - 1 - row) * h_px)
        c.scale(w_px / (w * mm), h_px / (h * mm))
        c.doForm(name)
        c.restoreState()
    data, _ = doc.finish()
    return _png(rasterise(data, size))


def render_die(faces: list, title: str) -> bytes:
    """A d6's image as TTS's template lays it out: `faces` are the PlacedFaces of TTS's faces
    1 to 6, each drawn DIE_FACE_PX square in its cell; the unused top row is white. RGB PNG."""
    side = 3 * DIE_FACE_PX
    doc = _pixel_document((side, side), title)
    c = doc.canvas
    for value, face in enumerate(faces, 1):
        column, row, upside_down = D6_CELLS[value]
        w, h = face.size_mm
        name = doc.form(f"die-face-{value}", lambda cv, f=face: draw_placed(cv, f), (0, 0, w, h))
        c.saveState()
        c.translate(column * DIE_FACE_PX, (2 - row) * DIE_FACE_PX)
        if upside_down:
            c.translate(DIE_FACE_PX, DIE_FACE_PX)
            c.rotate(180)
        c.scale(DIE_FACE_PX / (w * mm), DIE_FACE_PX / (h * mm))
        c.doForm(name)
        c.restoreState()
    data, _ = doc.finish()
    return _png(rasterise(data, (side, side)))


def render_picture(draw, size_mm: tuple[float, float], title: str, *, alpha: bool = False,
                   origin_mm: tuple[float, float] = (0.0, 0.0)) -> tuple[bytes, tuple[int, int]]:
    """`draw(canvas)` (mm from its bottom-left, the window `size_mm` from `origin_mm` kept) as a
    PNG at 300 dpi, or less to stay within MAX_PX; and its pixel size."""
    w, h = size_mm
    per_mm = min(DPI / 25.4, MAX_PX / w, MAX_PX / h)
    size = (max(1, round(w * per_mm)), max(1, round(h * per_mm)))
    doc = _pixel_document(size, title)
    c = doc.canvas
    c.scale(size[0] / (w * mm), size[1] / (h * mm))
    c.translate(-origin_mm[0] * mm, -origin_mm[1] * mm)
    draw(c)
    data, _ = doc.finish()
    return _png(rasterise(data, size, alpha)), size


# ---- the kit's files -----------------------------------------------------------------------

@dataclass(frozen=True)
class TtsDie:
    component: str              # the die's id in the data
    name: str                   # in the locale
    copies: int
    edge_mm: float
    values: tuple[str, ...]     # what each of TTS's faces 1 to 6 shows, as the data names it
    faces: tuple                # the PlacedFaces of TTS's faces 1 to 6


def tts_dice(project, loc: Localised) -> list[TtsDie]:
    """The edition's dice as TTS custom d6s, in data order (the schema gives every die six
    faces, a cube's net: `pnp validate` refuses any other number)."""
    nets = {net.key: net for net in die_nets(project, loc)}
    dice = []
    for component in loc.game.in_edition(loc.edition, "dice"):
        net = nets.get(f"die-{component.id}")
        if net is None:                 # no face layout of its size: validation names it
            continue
        faces = component.data["faces"]
        by_value = sorted(range(len(faces)), key=lambda index: D6_OF_NET[index])
        dice.append(TtsDie(component.id, net.name, net.copies, component.data["edge_mm"],
                           tuple(str(faces[index].get("name", D6_OF_NET[index])) for index in by_value),
                           tuple(net.faces[index] for index in by_value)))
    return dice


def read_url_map(path) -> tuple[tuple[str, str], ...]:
    """(file name, address) of every filled line of a URL map (a urls.txt the export wrote,
    its addresses filled in): `<file name><tab or spaces><address>`; a line of a file name
    alone has no address yet, `#` starts a comment. A usage error names the line of anything else."""
    path = Path(path)
    pairs = []
    for number, line in enumerate(path.read_text(encoding="utf-8-sig").splitlines(), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        parts = text.split(None, 1)
        if len(parts) == 1:
            continue
        name, address = parts[0], parts[1].strip()
        if "/" in name or not name.endswith(".png"):
            raise UsageError(f"{path}:{number}: {name}: not an image file name of the export")
        if "://" not in address or any(ch.isspace() for ch in address):
            raise UsageError(f"{path}:{number}: {name}: {address!r} is not an address (https://..., file:///...)")
        pairs.append((name, address))
    return tuple(pairs)


def read_url_maps(paths) -> tuple[tuple[str, str], ...]:
    """The (file name, address) pairs of every URL map, sorted by name (a name given two
    different addresses is a usage error naming both files)."""
    found: dict[str, tuple[str, Path]] = {}
    for path in paths:
        for name, address in read_url_map(path):
            if name in found and found[name][0] != address:
                raise UsageError(f"{name}: two addresses, in {found[name][1]} and {path}")
            found[name] = (address, Path(path))
    return tuple(sorted((name, address) for name, (address, _) in found.items()))


class TtsKit:
    """One game, edition and locale exported for TTS. `addresses` gives an image file its
    address (--url-map); `base_url` the others' (--base-url); an image neither names is
    addressed by its file name."""

    def __init__(self, loc: Localised, project, addresses: tuple[tuple[str, str], ...] = (), base_url: str = ""):
        self.loc = loc
        self.project = project
        self.addresses = dict(addresses)
        self.base_url = base_url
        g, e, l = loc.game.slug, loc.edition, loc.locale
        self.folder = f"{g}/{e}/{l}/{FOLDER}"
        self.stem = f"{g}-{e}-{l}"

    def address(self, name: str) -> str:
        """Where TTS loads the image file `name` from."""
        return self.addresses.get(name) or self.base_url + name

    def dice(self) -> list[TtsDie]:
        return tts_dice(self.project, self.loc)

    def artifact(self, name: str, data: bytes, kind: str, pages: int, details: dict | None = None) -> Artifact:
        loc = self.loc
        return Artifact(f"{self.folder}/{name}", data, loc.game.slug, kind, loc.edition, loc.locale, "", pages,
                        details or {}, source=(loc.game.display, 0, ""))

    @property
    def save_name(self) -> str:
        return f"{self.stem}.json"

    # -- parts a build makes apart, known from the data
    def decks(self) -> list[str]:
        return list(dict.fromkeys(c.data["deck"] for c in self.loc.game.in_edition(self.loc.edition, "cards")))

    def deck_files(self, deck: str) -> list[Artifact]:
        """A deck's face sheets and its back image(s)."""
        made = []
        title = f"{self.loc.title} — {deck}"
        for tts_deck in plan_decks(deck_faces(self.loc, deck), self.stem):
            px = tts_deck.card_px
            backs_done = set()
            for sheet in tts_deck.sheets:
                cells = list(sheet.faces)
                made.append(self.artifact(sheet.face_file, render_grid(cells, sheet.columns, sheet.rows, px, title),
                                          "tts-cards", 1, _sheet_details(tts_deck, sheet, px, "faces")))
                if sheet.back_file in backs_done:
                    continue
                backs_done.add(sheet.back_file)
                if sheet.unique_back:
                    data = render_grid([face.back for face in cells], sheet.columns, sheet.rows, px, title)
                    details = _sheet_details(tts_deck, sheet, px, "backs")
                else:
                    data = render_grid([cells[0].back], 1, 1, px, title)
                    details = {"deck": tts_deck.deck, "card_px": list(px), "side": "back"}
                made.append(self.artifact(sheet.back_file, data, "tts-cards", 1, details))
        return made

    def board_files(self) -> list[Artifact]:
        made = []
        for board in board_faces(self.loc):
            data, size = render_picture(lambda c, b=board: draw_board(c, b), board.size_mm, board.name)
            made.append(self.artifact(f"{self.stem}-{board.key}.png", data, "tts-board", 1, {"px": list(size)}))
        return made

    def token_files(self) -> list[Artifact]:
        made = []
        for token in token_faces(self.loc):
            window, origin = _token_window(token)
            data, size = render_picture(lambda c, t=token: draw_token(c, t), window, token.name, alpha=True,
                                        origin_mm=origin)
            made.append(self.artifact(f"{self.stem}-{token.key}.png", data, "tts-token", 1, {"px": list(size)}))
        return made

    def dice_files(self) -> list[Artifact]:
        made = []
        for die in self.dice():
            data = render_die(list(die.faces), die.name)
            made.append(self.artifact(self.die_file(die), data, "tts-die", 1,
                                      {"px": [3 * DIE_FACE_PX] * 2, "faces": list(die.values)}))
        return made

    def die_file(self, die: TtsDie) -> str:
        return f"{self.stem}-die-{die.component}.png"

    def save_files(self) -> list[Artifact]:
        """The saved-object JSON, the folder's README.txt and its URL map."""
        save = saved_objects(self)
        data = (json.dumps(save, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
        readme = readme_text(self).encode("utf-8")
        return [self.artifact(self.save_name, data, "tts-save", 0),
                self.artifact("README.txt", readme, "tts-readme", 0),
                self.artifact(URL_MAP, url_map_text(self).encode("utf-8"), "tts-urls", 0)]


def _sheet_details(deck: TtsDeck, sheet: Sheet, px, side: str) -> dict:
    return {"deck": deck.deck, "side": side, "columns": sheet.columns, "rows": sheet.rows, "card_px": list(px),
            "cards": [face.key for face in sheet.faces]}


def _token_window(token) -> tuple[tuple[float, float], tuple[float, float]]:
    """(size, origin) in mm of what TTS shows of a token: a flat token whole, a standee's
    figure (the front, above its base tab), which TTS stands up."""
    if token.shape == "standee":
        return tuple(token.figure_mm), (0.0, token.base_mm)
    return tuple(token.size_mm), (0.0, 0.0)


# ---- the saved object ----------------------------------------------------------------------

def _guid(*parts) -> str:
    return hashlib.sha256("|".join(map(str, parts)).encode("utf-8")).hexdigest()[:6]


def _unique_guids(objects: list[dict]) -> None:
    """Give the rare object whose GUID an earlier one took another (TTS wants them distinct)."""
    taken: set[str] = set()

    def walk(items):
        for item in items:
            guid, bump = item["GUID"], 0
            while guid in taken:
                bump += 1
                guid = _guid(item["GUID"], bump)
            item["GUID"] = guid
            taken.add(guid)
            walk(item.get("ContainedObjects", []))
    walk(objects)


def _transform(x: float, z: float, scale=(1.0, 1.0, 1.0), y: float = 1.0, face_down: bool = False) -> dict:
    return {"posX": round(x, 3), "posY": y, "posZ": round(z, 3), "rotX": 0, "rotY": 180, "rotZ": 180 if face_down else 0,
            "scaleX": round(scale[0], 4), "scaleY": round(scale[1], 4), "scaleZ": round(scale[2], 4)}


def _card_scale(size_mm) -> tuple[float, float, float]:
    w, h = size_mm
    if w > h:    # a sideways card: its long side across
        return (w / POKER_MM[1], 1.0, h / POKER_MM[0])
    return (w / POKER_MM[0], 1.0, h / POKER_MM[1])


def custom_deck_entries(decks: list[TtsDeck], address=str) -> list[tuple[int, TtsDeck, Sheet, dict]]:
    """(DeckID, deck, sheet, CustomDeck entry) of every sheet, DeckIDs numbered 1, 2, ... over
    the whole save so that no two sheets share one; `address` gives each file its URL."""
    entries, number = [], 0
    for deck in decks:
        for sheet in deck.sheets:
            number += 1
            entries.append((number, deck, sheet, {
                "FaceURL": address(sheet.face_file), "BackURL": address(sheet.back_file),
                "NumWidth": sheet.columns, "NumHeight": sheet.rows,
                "BackIsHidden": True, "UniqueBack": sheet.unique_back, "Type": 0}))
    return entries


def saved_objects(kit: TtsKit) -> dict:
    loc = kit.loc
    decks = plan_decks(card_faces(loc), kit.stem)
    entries = custom_deck_entries(decks, kit.address)
    objects = []
    for position, deck in enumerate(decks):
        mine = [(deck_id, sheet, entry) for deck_id, d, sheet, entry in entries if d is deck]
        cards = []
        for deck_id, sheet, entry in mine:
            for index, face in enumerate(sheet.faces):
                for copy in range(face.copies):
                    cards.append(_card(kit, deck, face, deck_id * 100 + index, {str(deck_id): entry}, copy))
        x = -12 + 3.5 * position
        custom = {str(deck_id): entry for deck_id, _, entry in mine}
        if len(cards) == 1:
            card = cards[0]
            card["Transform"] = _transform(x, 8, _card_scale(deck.size_mm), face_down=True)
            objects.append(card)
            continue
        objects.append({
            "GUID": _guid(kit.folder, "deck", deck.copy or deck.deck, deck.size_mm),
            "Name": "Deck", "Transform": _transform(x, 8, _card_scale(deck.size_mm), face_down=True),
            "Nickname": deck.name, "Description": loc.title,
            "Locked": False, "Grid": True, "Snap": True, "Autoraise": True, "Sticky": True, "Tooltip": True,
            "SidewaysCard": deck.size_mm[0] > deck.size_mm[1], "HideWhenFaceDown": True,
            "DeckIDs": [card["CardID"] for card in cards], "CustomDeck": custom, "ContainedObjects": cards})
    objects += _board_objects(kit)
    objects += _token_objects(kit)
    objects += _die_objects(kit)
    _unique_guids(objects)
    title = f"{loc.title} — {loc.edition_name()}"
    if loc.game.is_draft(loc.locale):
        title += f" ({loc.label('draft')})"
    return {"SaveName": title, "GameMode": loc.title, "Date": "", "VersionNumber": "", "Gravity": 0.5,
            "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "",
            "LuaScriptState": "", "ObjectStates": objects, "TabStates": {}}


def _card(kit: TtsKit, deck: TtsDeck, face: Face, card_id: int, custom: dict, copy: int) -> dict:
    return {"GUID": _guid(kit.folder, face.key, copy), "Name": "Card",
            "Transform": _transform(0, 0, _card_scale(deck.size_mm), face_down=True),
            "Nickname": _shown(kit.loc, face.values.get("name", "")), "Description": _shown(kit.loc, face.values.get("text", "")),
            "Memo": face.key.removeprefix("card-"),      # the card's id in the data, for scripts and tests
            "CardID": card_id, "CustomDeck": custom, "SidewaysCard": deck.size_mm[0] > deck.size_mm[1],
            "Hands": True, "HideWhenFaceDown": True}


def _shown(loc, text: str) -> str:
    """A text as Tabletop Simulator shows it (a name, a tooltip): each of the game's icons by its
    alternative text in the locale, as a screen reader says it."""
    if not has_icons(text):
        return text
    icons = declared_icons(loc.game.meta)
    return ICON_MARK.sub(lambda found: loc.text(icons[found.group(1)].alt_key, icons[found.group(1)].alt)
                         if found.group(1) in icons else found.group(0), text)


def _tile_scale(size_mm) -> tuple[float, float, float]:
    """A tile or token is as wide as the image is (its height follows the image's shape)."""
    s = size_mm[0] / TILE_MM_AT_SCALE_1
    return (s, 1.0, s)


def _board_objects(kit: TtsKit) -> list[dict]:
    objects, x = [], 0.0
    for board in board_faces(kit.loc):
        scale = _tile_scale(board.size_mm)
        objects.append({
            "GUID": _guid(kit.folder, board.key), "Name": "Custom_Tile", "Transform": _transform(x, -2, scale),
            "Nickname": _shown(kit.loc, board.name), "Description": kit.loc.title, "Locked": False, "Grid": True, "Snap": True,
            "CustomImage": {"ImageURL": kit.address(f"{kit.stem}-{board.key}.png"), "ImageSecondaryURL": "",
                            "ImageScalar": 1.0, "WidthScale": 0.0,
                            "CustomTile": {"Type": 0, "Thickness": 0.1, "Stackable": False, "Stretch": True}}})
        x += board.size_mm[0] / 25.4 + 1
    return objects


def _token_object(kit: TtsKit, token, copy: int, x: float, z: float) -> dict:
    window, _ = _token_window(token)
    return {"GUID": _guid(kit.folder, token.key, copy), "Name": "Custom_Token",
            "Transform": _transform(x, z, _tile_scale(window)), "Nickname": _shown(kit.loc, token.name), "Description": "",
            "Locked": False, "Grid": True, "Snap": True,
            "CustomImage": {"ImageURL": kit.address(f"{kit.stem}-{token.key}.png"), "ImageSecondaryURL": "",
                            "ImageScalar": 1.0, "WidthScale": 0.0,
                            "CustomToken": {"Thickness": 0.2, "MergeDistancePixels": 15.0,
                                            "StandUp": token.shape == "standee", "Stackable": token.shape != "standee"}}}


def _token_objects(kit: TtsKit) -> list[dict]:
    """A token of one copy lies on the table; the copies of a token come in a bag named after it."""
    objects = []
    for position, token in enumerate(token_faces(kit.loc)):
        x, z = -12 + 2.5 * position, -12
        if token.copies == 1:
            objects.append(_token_object(kit, token, 0, x, z))
            continue
        objects.append({"GUID": _guid(kit.folder, token.key, "bag"), "Name": "Bag", "Transform": _transform(x, z),
                        "Nickname": _shown(kit.loc, token.name), "Description": f"×{token.copies}", "Locked": False,
                        "ContainedObjects": [_token_object(kit, token, copy, x, z) for copy in range(token.copies)]})
    return objects


def _die_object(kit: TtsKit, die: TtsDie, copy: int, x: float, z: float) -> dict:
    scale = die.edge_mm / DIE_MM_AT_SCALE_1
    return {"GUID": _guid(kit.folder, "die", die.component, copy), "Name": "Custom_Dice",
            "Transform": _transform(x, z, (scale, scale, scale)), "Nickname": _shown(kit.loc, die.name), "Description": "",
            "Locked": False, "Grid": True, "Snap": True,
            "CustomImage": {"ImageURL": kit.address(kit.die_file(die)), "ImageSecondaryURL": "", "ImageScalar": 1.0,
                            "WidthScale": 0.0, "CustomDice": {"Type": D6_TYPE}},
            # what TTS says a roll shows: the data's face names (an icon by its alternative text)
            "RotationValues": [{"Value": _shown(kit.loc, value), "Rotation": dict(zip("xyz", D6_ROTATIONS[number]))}
                               for number, value in enumerate(die.values, 1)]}


def _die_objects(kit: TtsKit) -> list[dict]:
    """A die of one copy lies on the table; the copies of a die come in a bag named after it."""
    objects = []
    for position, die in enumerate(kit.dice()):
        x, z = -12 + 2.5 * position, -16
        if die.copies == 1:
            objects.append(_die_object(kit, die, 0, x, z))
            continue
        objects.append({"GUID": _guid(kit.folder, "die", die.component, "bag"), "Name": "Bag",
                        "Transform": _transform(x, z), "Nickname": _shown(kit.loc, die.name), "Description": f"×{die.copies}",
                        "Locked": False,
                        "ContainedObjects": [_die_object(kit, die, copy, x, z) for copy in range(die.copies)]})
    return objects


def url_map_text(kit: TtsKit) -> str:
    """urls.txt: every image of the folder on a line, followed by its address when it has
    one other than its name; the player fills in the rest and builds again with --url-map."""
    lines = [f"# {kit.loc.title} — {kit.loc.edition_name()} ({kit.loc.locale}) for Tabletop Simulator: after each",
             "# image's file name, its address once uploaded (e.g. its Steam Cloud link); then build again with",
             f"# pnp build --target tts --url-map path/to/this/folder/{URL_MAP} (see README.txt)."]
    for name in dict.fromkeys(image_files(kit)):
        address = kit.address(name)
        lines.append(name if address == name else f"{name}\t{address}")
    return "\n".join(lines) + "\n"


def image_files(kit: TtsKit) -> list[str]:
    """The file names of every image the kit's save names: sheets, boards, tokens, dice."""
    decks = plan_decks(card_faces(kit.loc), kit.stem)
    files = [name for deck in decks for sheet in deck.sheets for name in (sheet.face_file, sheet.back_file)]
    files += [f"{kit.stem}-{board.key}.png" for board in board_faces(kit.loc)]
    files += [f"{kit.stem}-{token.key}.png" for token in token_faces(kit.loc)]
    files += [kit.die_file(die) for die in kit.dice()]
    return files


def readme_text(kit: TtsKit) -> str:
    loc = kit.loc
    return "\n".join([
        f"{loc.title} — {loc.edition_name()} ({loc.locale}) for Tabletop Simulator",
        "",
        f"{kit.save_name} is a saved object; the PNG files beside it are its cards, boards, tokens and dice.",
        "To host them: Tabletop Simulator loads images from web addresses. Upload the PNG files (in the game: "
        "Modding > Cloud Manager, which gives each file its own address, or to any web host), then build "
        "again with their addresses:",
        f"  - each file its own address: write it after the file's name in {URL_MAP} (this folder's list of "
        f"the images) and build with  pnp build --target tts --url-map path/to/this/folder/{URL_MAP}",
        "  - all files in one place, e.g. https://example.org/kit/: build with"
        "  pnp build --target tts --base-url https://example.org/kit/",
        "(for play on this computer only, file:///full/path/to/the/folder/ works as a base URL). Then copy the "
        "JSON into Tabletop Simulator's Saves/Saved Objects folder and spawn it from Objects > Saved Objects.",
        ""])


# ---- the build -----------------------------------------------------------------------------

def check_request(request) -> None:
    """A usage error for an option of printed files asked for with --target tts."""
    if request.profiles:
        raise UsageError("--profile builds print-shop files; --target tts builds the Tabletop Simulator export")
    if request.changed_since:
        raise UsageError("--changed-since builds an errata kit to print, not --target tts")
    if request.kinds:
        raise UsageError("--kind selects the files of a printed kit, not of --target tts")
    if request.duplex != "long" or any(request.back_offset) or request.paper != "all" or request.ink != "normal":
        raise UsageError("--paper, --duplex, --back-offset and --ink are for printed kits, not --target tts")


def check_addresses(request) -> None:
    """A usage error for --base-url or --url-map asked for without --target tts."""
    if request.target != "tts" and (request.base_url or request.url_map):
        raise UsageError("--base-url and --url-map give the images of --target tts their addresses")
    if request.base_url and "://" not in request.base_url:
        raise UsageError(f"--base-url {request.base_url}: not an address (https://..., file:///...)")


def tts_work(project, request, cache) -> Work:
    """The TTS folders of the selected games, editions and locales, one unit of work per deck,
    one for the boards, the tokens, the dice and the saved object each: a change redraws only
    what shows it (the images' addresses show in the saved object only)."""
    games = load_for_build(project, request.game, request.locale, cache)
    jobs = plan(games, BuildRequest(request.game, request.edition, request.locale), (FOLDER,))
    tool = tool_digest(project)
    structures = {game.slug: structure_digest(game, translatable_paths(game)) for game in games}
    units = []
    for game, edition, locale, _ in jobs:
        loc = localised(game, edition, Texts.load(game, locale))
        kit = TtsKit(loc, project, request.url_map, request.base_url)
        lay_out = partial(lay_out_every_kind, validation_kit(project, game, loc))
        inputs = {"tool": tool, "structure": structures[game.slug]}
        where = f"tts|{game.slug}|{edition}|{locale}"
        label = f"{game.slug} {edition} {locale} tts"
        for deck in kit.decks():
            units.append(Unit(f"{where}|deck|{deck}", label, _work(kit.deck_files, deck), inputs, lay_out))
        units.append(Unit(f"{where}|boards", label, _work(kit.board_files), inputs, lay_out))
        units.append(Unit(f"{where}|tokens", label, _work(kit.token_files), inputs, lay_out))
        units.append(Unit(f"{where}|dice", label, _work(kit.dice_files), inputs, lay_out))
        addressed = {**inputs, "addresses": [request.base_url, list(map(list, request.url_map))]}
        units.append(Unit(f"{where}|save", label, _work(kit.save_files), addressed, lay_out))
    return Work(games, units)


def _work(make, *args):
    """A unit's work, which pickles: it runs in a worker process."""
    return partial(_made, make, *args)


def _made(make, *args):
    return make(*args), []
