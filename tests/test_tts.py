"""`pnp build --target tts`: the Tabletop Simulator folder, read back and checked against the
data: every card of every deck (how many, where its face is on its sheet, its back), the sheets'
pixel sizes, and the pixels of each face and back against the colour its layout fills it with.
The export is a copy of the sample game with what the sample lacks added (TABLETOP_ADDITIONS):
a deck of more cards than a sheet holds, a sheet of mixed backs, a deck whose sheets would pass
MAX_PX at 10 x 7, a lone card, a disc, a lone die whose faces each have their own colour and a
corner mark, and a catalog its names and texts come from (its standee and its dice of several
copies are the sample's own). Every shipped game's saved object is planned from its data too,
without drawing."""
from __future__ import annotations

import json
import math
import re
import shutil
from pathlib import Path

import pytest
import yaml
from PIL import Image

from conftest import ROOT, SAMPLE, pnp, replace_in
from generator.app.request import BuildRequest
from generator.app.tts import TtsKit, saved_objects
from generator.core.errors import EXIT_USAGE
from generator.i18n.texts import Texts
from generator.layout.faces import Localised
from generator.load.project import Project
from generator.write.incremental import whole_build_inputs


GAME = "sample-game"
EDITION = "standard"
LOCALE = "cs"               # a translation: the names and texts on the table come from its catalog
DPI = 300
MAX_PX = 4096               # no image over 4096 px a side: TTS's knowledge base, Asset Resolution
STEM = f"{GAME}-{EDITION}-{LOCALE}"


# ---- the copy of the sample game --------------------------------------------------------

def mark_colour(number: int) -> str:
    """A light background of its own for each mark card: no two within 12 of each other on red
    or green, so a face in another card's slot shows."""
    return f"#{150 + 12 * (number % 9):02X}{150 + 12 * (number // 9):02X}E6"


MARKS = 75                  # one sheet holds 69: the marks take two
MARKED_DARK = (5, 40)       # these marks' back differs: the first sheet has a sheet of backs
BANNERS = 25                # 100 x 15 mm: three across and seven down stay within MAX_PX, so two sheets
# The compass die's faces in net order (top, left, front, right, back, bottom), each its own colour.
COMPASS = (("N", "#F4A6B0"), ("W", "#A8E6A1"), ("F", "#9FC5F8"), ("E", "#FFD199"), ("B", "#D7B8F3"),
           ("S", "#A6F0F0"))

TABLETOP_ADDITIONS = {
    "layouts": {
        "faces": {
            "mark": {"size_mm": [15, 20], "elements": [
                {"type": "rect", "box": [0, 0, 15, 20], "fill": "{colour}", "bleed": True},
                {"type": "text", "field": "name", "box": [0.5, 8, 14, 4], "font": "bold", "size": 6, "min_size": 6,
                 "colour": "#1E1E1E", "align": "center"}]},
            # a dark square in the face's top left corner: it shows which way up the face is drawn
            "pointer-die-face": {"size_mm": [16, 16], "elements": [
                {"type": "rect", "box": [0, 0, 16, 16], "fill": "{colour}"},
                {"type": "rect", "box": [0, 11, 5, 5], "fill": "#141414"},
                {"type": "text", "field": "name", "box": [5, 2, 9, 9], "font": "bold", "size": 14, "min_size": 6,
                 "colour": "#000000", "align": "center"}]},
            "banner": {"size_mm": [100, 15], "elements": [
                {"type": "rect", "box": [0, 0, 100, 15], "fill": "{colour}", "bleed": True},
                {"type": "text", "field": "name", "box": [10, 4, 80, 7], "font": "bold", "size": 12, "min_size": 6,
                 "colour": "#1E1E1E", "align": "center"}]}},
        "backs": {
            "mark-back": {"size_mm": [15, 20], "elements": [
                {"type": "rect", "box": [0, 0, 15, 20], "fill": "#2B4C7E", "bleed": True}]},
            "mark-back-dark": {"size_mm": [15, 20], "elements": [
                {"type": "rect", "box": [0, 0, 15, 20], "fill": "#5C1F3A", "bleed": True}]},
            "banner-back": {"size_mm": [100, 15], "elements": [
                {"type": "rect", "box": [0, 0, 100, 15], "fill": "#3D5A3D", "bleed": True}]}}},
    "cards": {
        "decks": {"marks": {"name": "Marks", "layout": "mark", "back": "mark-back"},
                  "banners": {"name": "Banners", "layout": "banner", "back": "banner-back"},
                  "seal": {"name": "Seal", "layout": "mark", "back": "mark-back"}},
        "cards": {
            # every tenth mark twice
            **{f"mark-{n:02}": {"deck": "marks", "name": f"Mark {n}", "colour": mark_colour(n),
                                "count": {EDITION: 2 if n % 10 == 0 else 1},
                                **({"back": "mark-back-dark"} if n in MARKED_DARK else {})} for n in range(MARKS)},
            **{f"banner-{n}": {"deck": "banners", "name": f"Banner {n}", "text": f"Flown by side {n}.",
                               "colour": f"#{40 + 8 * n:02X}D0A0", "count": {EDITION: 1}}
               for n in range(1, BANNERS + 1)},
            "seal": {"deck": "seal", "name": "Seal", "text": "Kept by the first player.", "colour": "#E0C080",
                     "count": {EDITION: 1}}}},
    "tokens": {"tokens": {
        "marker": {"shape": "disc", "name": "Marker", "count": {EDITION: 2}, "diameter_mm": 21,
                   "colour": "#7A1F3D", "icon": "⏲"}}},
    "dice": {"dice": {
        "compass": {"name": "Compass die", "count": {EDITION: 1}, "edge_mm": 16, "layout": "pointer-die-face",
                    "faces": [{"name": name, "colour": colour} for name, colour in COMPASS]}}},
}

# The catalog of the copy's draft locale: what it translates (the rest falls back to the data).
CATALOG = {
    "title": ("Sample Game", "Ukázková hra"),
    "decks.heroes.name": ("Heroes", "Hrdinové"),
    "decks.coins.name": ("Coins", "Mince"),
    "decks.coins.matrix.value.one.name": ("One", "Jednička"),
    "decks.coins.extra.thief.text": ("Takes a coin.", "Vezme minci."),
    "decks.marks.name": ("Marks", "Značky"),
    "cards.knight.name": ("Knight", "Rytíř"),
    "cards.knight.text": ("Moves two spaces.", "Jde o dvě pole."),
    "cards.archer.name": ("Archer", "Lučištník"),
    **{f"cards.mark-{n:02}.name": (f"Mark {n}", f"Značka {n}") for n in range(MARKS)},
    "cards.banner-3.text": ("Flown by side 3.", "Vlaje straně 3."),
    "cards.seal.name": ("Seal", "Pečeť"),
    "boards.square.name": ("Square ring", "Čtvercový okruh"),
    "tokens.supply.name": ("Supply", "Zásoba"),
    "tokens.marker.name": ("Marker", "Ukazatel"),
    "tokens.pawn.name": ("Pawn", "Figurka"),
    "dice.sun.name": ("Sun die", "Sluneční kostka"),
}


def po_text(catalog: dict[str, tuple[str, str]]) -> str:
    header = ('msgid ""\nmsgstr ""\n"Language: cs\\n"\n"MIME-Version: 1.0\\n"\n'
              '"Content-Type: text/plain; charset=UTF-8\\n"\n"Content-Transfer-Encoding: 8bit\\n"\n'
              '"Plural-Forms: nplurals=3; plural=(n == 1 ? 0 : n >= 2 && n <= 4 ? 1 : 2);\\n"\n')
    return header + "".join(f'\nmsgctxt "{key}"\nmsgid "{source}"\nmsgstr "{text}"\n'
                            for key, (source, text) in catalog.items())


# Card sizes of the project's own (templates/sheets/ of the copy): small sheets to draw.
CARD_SIZES = {"chit": ([15, 20], 10, 12), "strip": ([100, 15], 1, 15)}


def add_card_sizes(project: Path) -> None:
    """The tool's card sizes and CARD_SIZES, each printed on a sheet of its own: the copy's templates."""
    sheets = project / "templates" / "sheets"
    sheets.mkdir(parents=True)
    sizes = (ROOT / "templates" / "sheets" / "card-sizes.yaml").read_text(encoding="utf-8")
    grid = (ROOT / "templates" / "sheets" / "mini-4x4.yaml").read_text(encoding="utf-8")
    assert all(line in grid for line in ("name: Mini 4 × 4", "card_mm: [44, 63]", "columns: 4\nrows: 4"))
    for name, (size, columns, rows) in CARD_SIZES.items():
        sheet = f"{name}-{columns}x{rows}"
        sizes += f"  {name}: {{size_mm: {size}, sheets: {{long: {sheet}, short: {sheet}, fronts: {sheet}}}}}\n"
        text = grid.replace("name: Mini 4 × 4", f"name: {sheet}").replace("card_mm: [44, 63]", f"card_mm: {size}")
        text = text.replace("columns: 4\nrows: 4", f"columns: {columns}\nrows: {rows}")
        (sheets / f"{sheet}.yaml").write_text(text, encoding="utf-8")
    (sheets / "card-sizes.yaml").write_text(sizes, encoding="utf-8")


def tabletop_copy(folder: Path) -> Path:
    """A copy of the sample project with TABLETOP_ADDITIONS, its rules counting them, the card
    sizes they take, and a draft locale LOCALE with CATALOG."""
    project = folder / "sample"
    shutil.copytree(SAMPLE, project)
    add_card_sizes(project)
    data = project / "components" / GAME
    for name, added in TABLETOP_ADDITIONS.items():
        path = data / f"{name}.yaml"
        content = yaml.safe_load(path.read_text(encoding="utf-8"))
        for section, entries in added.items():
            content[section].update(entries)
        path.write_text(yaml.safe_dump(content, allow_unicode=True, sort_keys=False), encoding="utf-8")
    cards = TABLETOP_ADDITIONS["cards"]["cards"]
    tokens = TABLETOP_ADDITIONS["tokens"]["tokens"]
    dice = TABLETOP_ADDITIONS["dice"]["dice"]
    rules = project / "rules" / "sample_game" / "__init__.py"
    card_counts = {key: card["count"][EDITION] for key, card in cards.items()}
    token_counts = {key: token["count"][EDITION] for key, token in tokens.items()}
    replace_in(rules, "**{coin: 1 for coin in COINS}},", f"**{{coin: 1 for coin in COINS}}, **{card_counts!r}}},")
    replace_in(rules, '"camp": 3', f'"camp": 3, **{token_counts!r}')
    die_counts = ", ".join(f'"{key}": {die["count"][EDITION]}' for key, die in dice.items())
    replace_in(rules, '"moon": 2', f'"moon": 2, {die_counts}')
    replace_in(data / "game.yaml", "  en: released", f"  en: released\n  {LOCALE}: draft")
    (data / "locales").mkdir()
    (data / "locales" / f"{LOCALE}.po").write_text(po_text(CATALOG), encoding="utf-8")
    return project


@pytest.fixture(scope="module")
def tabletop(tmp_path_factory) -> tuple[Path, Path]:
    """(the copy's project, the output folder of its Tabletop export)."""
    project = tabletop_copy(tmp_path_factory.mktemp("tts"))
    out = project.parent / "out"
    result = pnp("build", "--target", "tts", "--locale", LOCALE, "--out", str(out), project=project)
    assert result.exit_code == 0, result.output + result.traceback
    return project, out


@pytest.fixture(scope="module")
def out(tabletop) -> Path:
    return tabletop[1]


@pytest.fixture(scope="module")
def game(tabletop):
    game, problems = Project(tabletop[0]).load_game(GAME)
    assert not problems
    return game


def folder_of(out: Path) -> Path:
    return out / GAME / EDITION / LOCALE / "tts"


def save_of(out: Path) -> dict:
    return json.loads((folder_of(out) / f"{STEM}.json").read_text("utf-8"))


def hex_rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4))


def background(layout: dict, data: dict) -> tuple[int, int, int]:
    """The colour a layout fills its whole face with (its first element), read from the data."""
    first = layout["elements"][0]
    assert first["type"] == "rect" and list(first["box"]) == [0, 0, *layout["size_mm"]], "not a full background"
    fill = first["fill"]
    values = {**layout.get("defaults", {}), **{k: v for k, v in data.items() if isinstance(v, str)}}
    return hex_rgb(re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], fill))


def near(pixel, colour, tolerance=3) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], colour))


def probe(image: Image.Image, cell: int, columns: int, card_px) -> tuple:
    """A pixel 0.5 mm inside the left edge of slot `cell`, half-way down: the background."""
    w, h = card_px
    column, row = cell % columns, cell // columns
    return image.getpixel((column * w + round(0.5 / 25.4 * DPI), row * h + h // 2))


def px_at_300_dpi(size_mm) -> tuple[int, int]:
    return tuple(round(side / 25.4 * DPI) for side in size_mm)


def per_sheet_at_300_dpi(size_mm) -> int:
    """Distinct cards of `size_mm` a sheet holds: as many columns (at most 10) and rows (at most
    7) as stay within MAX_PX at 300 dpi, less the slot TTS keeps."""
    w, h = px_at_300_dpi(size_mm)
    return min(10, MAX_PX // w) * min(7, MAX_PX // h) - 1


def cards_against_the_data(save: dict, game, edition: str, loc: Localised) -> list[tuple]:
    """Every deck of the save checked against the data: its cards in data order, each as often
    as the edition has it, each distinct card on a slot of its own, named and described in the
    locale, on sheets of at most 10 x 7 with the last slot free, no sheet in two decks. A deck
    printed in copies, each with its own back, is a TTS deck per copy, named with its number.
    (card in the data, its card in the save, its sheet's CustomDeck entry, the deck's entries)
    of every distinct card."""
    cards_in_data = game.in_edition(edition, "cards")
    objects = {obj["Nickname"]: obj for obj in save["ObjectStates"] if obj["Name"] == "Deck"}
    seen_ids: dict[str, str] = {}
    found = []
    for deck_id, deck in game.decks.items():
        deck_name = loc.field(f"decks.{deck_id}", deck, "name")
        copies = deck.get("backs") or [None]
        for number, back in enumerate(copies, 1):
            members = [c for c in cards_in_data if c.data["deck"] == deck_id and back in (None, c.data.get("back"))]
            if not members:
                continue
            total = sum(c.count(edition) for c in members)
            if total == 1:      # TTS's decks hold two cards or more: a lone card is a Card
                card = next(o for o in save["ObjectStates"] if o["Name"] == "Card" and o["Memo"] == members[0].id)
                cards, custom = [card], card["CustomDeck"]
            else:
                obj = objects.pop(deck_name if back is None else f"{deck_name} {number}")
                cards, custom = obj["ContainedObjects"], obj["CustomDeck"]
                assert obj["DeckIDs"] == [c["CardID"] for c in cards]
                size = game.layouts["faces"][members[0].data.get("layout", deck["layout"])]["size_mm"]
                assert len(custom) == math.ceil(len(members) / per_sheet_at_300_dpi(size))
            for key in custom:
                assert seen_ids.setdefault(key, deck_id) == deck_id, f"DeckID {key} is in two decks"
            # the cards in data order, each as often as the edition has it
            assert [c["Memo"] for c in cards] == [m.id for m in members for _ in range(m.count(edition))]
            slots = {}
            for member in members:
                mine = [c for c in cards if c["Memo"] == member.id]
                assert len({c["CardID"] for c in mine}) == 1, f"{member.id}: copies of one card on several slots"
                card = mine[0]
                assert card["Nickname"] == loc.field(member.text_root("name"), member.data, "name")
                # an icon of the text by its alternative text, as TTS shows words only
                text = loc.field(member.text_root("text"), member.data, "text")
                alts = {name: loc.text(f"icons.{name}.alt", icon["alt"])
                        for name, icon in (game.meta.get("icons") or {}).items()}
                assert card["Description"] == re.sub(r":([a-z][a-z0-9_-]*):", lambda m: alts[m.group(1)], text)
                sheet_id, index = divmod(card["CardID"], 100)
                entry = custom[str(sheet_id)]
                assert card["CustomDeck"] == {str(sheet_id): entry}
                columns, rows = entry["NumWidth"], entry["NumHeight"]
                assert columns <= 10 and rows <= 7
                # TTS keeps the last slot of a sheet; a 1 x 1 sheet is a single card
                assert index < max(1, columns * rows - 1)
                assert slots.setdefault((sheet_id, index), member.id) == member.id, "two cards on one slot"
                found.append((member, card, entry, deck, custom))
    assert not objects, f"decks of no deck of the data: {sorted(objects)}"
    return found


def test_every_card_of_every_deck_against_the_data(out, game):
    loc = Localised(game, EDITION, Texts.load(game, LOCALE))
    folder = folder_of(out)
    images: dict[str, Image.Image] = {}

    def image(name: str) -> Image.Image:
        assert "/" not in name and ":" not in name, f"{name}: not a file name in the folder"
        if name not in images:
            images[name] = Image.open(folder / name)
            images[name].load()
        return images[name]

    checked, translated, back_files = 0, 0, {}
    for member, card, entry, deck, custom in cards_against_the_data(save_of(out), game, EDITION, loc):
        columns, rows = entry["NumWidth"], entry["NumHeight"]
        index = card["CardID"] % 100
        layout = game.layouts["faces"][member.data.get("layout", deck["layout"])]
        faces = image(entry["FaceURL"])
        assert faces.mode == "RGB"
        assert faces.width <= MAX_PX and faces.height <= MAX_PX
        assert faces.width % columns == 0 and faces.height % rows == 0
        card_px = (faces.width // columns, faces.height // rows)
        assert card_px == px_at_300_dpi(layout["size_mm"])      # 300 dpi: more sheets, not smaller cards
        assert near(probe(faces, index, columns, card_px), background(layout, member.data)), \
            f"{member.id}: the face in slot {index} of {entry['FaceURL']} is not this card's"
        back_layout = game.layouts["backs"][member.data.get("back", deck["back"])]
        backs = image(entry["BackURL"])
        assert backs.mode == "RGB"
        if entry["UniqueBack"]:
            assert backs.size == faces.size
            pixel = probe(backs, index, columns, card_px)
        else:
            assert backs.size == card_px
            pixel = probe(backs, 0, 1, card_px)
        assert near(pixel, background(back_layout, member.data)), f"{member.id}: wrong back"
        back_files.setdefault(member.data["deck"], set()).add((entry["BackURL"], entry["UniqueBack"]))
        key = f"{member.text_root('name')}.name"
        if key in CATALOG:          # the catalog's words, spaced as the locale's typography spaces them
            assert card["Nickname"].replace("\xa0", " ") == CATALOG[key][1]
            translated += 1
        checked += member.count(EDITION)
    # every card was looked at: 7 heroes, 2 x 5 coins, 75 marks (every tenth twice), the banners, the seal
    assert checked == 7 + 10 + MARKS + 8 + BANNERS + 1
    # named in the locale: the knight, the archer, both copies of both coins of one, the marks, the seal
    assert translated == 2 + 4 + MARKS + 1
    # ten banners across would be 11810 px: three across and seven down, the 21st slot TTS's, then the rest
    banners = next(o for o in save_of(out)["ObjectStates"] if o.get("Nickname") == "Banners")
    assert [(e["NumWidth"], e["NumHeight"]) for e in banners["CustomDeck"].values()] == [(3, 7), (3, 2)]
    # one back for a deck; a sheet of backs where a sheet's cards differ, one back for a sheet where not
    assert back_files["heroes"] == {(f"{STEM}-cards-heroes-back.png", False)}
    assert back_files["marks"] == {(f"{STEM}-cards-marks-1-backs.png", True), (f"{STEM}-cards-marks-2-back.png", False)}


def test_every_shipped_game_plans_every_card_of_its_data():
    """Each shipped game's saved object, planned from its data in English (nothing drawn)."""
    project = Project(ROOT)
    for slug in sorted(p.name for p in (ROOT / "components").iterdir() if (p / "game.yaml").is_file()):
        game, problems = project.load_game(slug)
        assert not problems
        for edition in game.editions:
            loc = Localised(game, edition, Texts.load(game, "en"))
            found = cards_against_the_data(saved_objects(TtsKit(loc, project)), game, edition, loc)
            assert sum(member.count(edition) for member, *_ in found) == \
                sum(c.count(edition) for c in game.in_edition(edition, "cards")) > 0, (slug, edition)


def test_a_face_is_drawn_not_only_filled(out, game):
    save = save_of(out)
    heroes = next(o for o in save["ObjectStates"] if o["Name"] == "Deck" and o["Nickname"] == "Hrdinové")
    card = heroes["ContainedObjects"][0]
    sheet_id, index = divmod(card["CardID"], 100)
    entry = heroes["CustomDeck"][str(sheet_id)]
    faces = Image.open(folder_of(out) / entry["FaceURL"])
    w, h = faces.width // entry["NumWidth"], faces.height // entry["NumHeight"]
    column, row = index % entry["NumWidth"], index // entry["NumWidth"]
    cell = faces.crop((column * w, row * h, column * w + w, row * h + h))
    colours = cell.getcolors(maxcolors=1 << 16)
    assert colours is not None and len(colours) > 20         # picture, arrow, text: anti-aliased edges
    knight = next(c for c in game.in_edition(EDITION, "cards") if c.id == card["Memo"])
    fill = background(game.layouts["faces"]["hero"], knight.data)
    drawn = sum(n for n, c in colours if not near(c, fill, 8))
    assert 0.05 < drawn / (w * h) < 0.3                      # the sun, the arrow, the name and the text
    # the empty slots of a sheet (the one TTS keeps among them) are left white: a full sheet's
    # last, and a short sheet's
    marks = next(o for o in save["ObjectStates"] if o["Name"] == "Deck" and o["Nickname"] == "Značky")
    for entry in marks["CustomDeck"].values():
        sheet = Image.open(folder_of(out) / entry["FaceURL"])
        w, h = sheet.width // entry["NumWidth"], sheet.height // entry["NumHeight"]
        last = sheet.crop((sheet.width - w, sheet.height - h, sheet.width, sheet.height))
        assert last.getcolors() == [(w * h, (255, 255, 255))]


def test_folder_files_readme_and_manifest(out):
    manifest = {e["path"]: e for e in json.loads((out / "manifest.json").read_text("utf-8"))["files"]}
    folder = folder_of(out)
    on_disk = sorted(p.name for p in folder.iterdir())
    text = json.dumps(save_of(out))
    guids = re.findall(r'"GUID": "([0-9a-f]{6})"', text)
    assert len(guids) == len(set(guids)) == text.count('"GUID"'), "GUIDs are not six distinct hex digits"
    named = set(re.findall(r'"([^"/]+\.png)"', text))
    assert sorted(named | {f"{STEM}.json", "README.txt", "urls.txt"}) == on_disk
    readme = (folder / "README.txt").read_text("utf-8")
    assert "host" in readme and f"{STEM}.json" in readme and "Saved Objects" in readme and "--url-map" in readme
    # the list for the player to fill in: every image once, no address yet
    listed = [line for line in (folder / "urls.txt").read_text("utf-8").splitlines() if not line.startswith("#")]
    assert sorted(listed) == sorted(named) and len(listed) == len(named)
    for name in on_disk:
        path = f"{GAME}/{EDITION}/{LOCALE}/tts/{name}"
        assert manifest[path]["bytes"] == (folder / name).stat().st_size
        if name.endswith(".png"):
            assert (folder / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
            with Image.open(folder / name) as image:
                assert max(image.size) <= MAX_PX, (name, image.size)
    assert sorted(manifest) == sorted(f"{GAME}/{EDITION}/{LOCALE}/tts/{name}" for name in on_disk)


def test_same_input_same_bytes_and_nothing_redrawn(tabletop, game):
    project, out = tabletop
    kit = TtsKit(Localised(game, EDITION, Texts.load(game, LOCALE)), Project(project))
    folder = folder_of(out)
    again = kit.deck_files("heroes") + kit.save_files()       # drawn here, not in the build
    assert again and all((folder / a.path.rsplit("/", 1)[1]).read_bytes() == a.data for a in again)
    result = pnp("build", "--target", "tts", "--locale", LOCALE, "--out", str(out), project=project)
    assert result.exit_code == 0 and "nothing changed" in result.output


def test_boards_and_tokens(out, game):
    loc = Localised(game, EDITION, Texts.load(game, LOCALE))
    save = save_of(out)
    folder = folder_of(out)
    design = game.files["boards"]["design"]
    boards = game.in_edition(EDITION, "boards")
    tiles = [o for o in save["ObjectStates"] if o["Name"] == "Custom_Tile"]
    assert [t["Nickname"] for t in tiles] == [loc.field(c.keypath, c.data, "name") for c in boards]
    assert len(tiles) == 2
    for tile, component in zip(tiles, boards):
        image = Image.open(folder / tile["CustomImage"]["ImageURL"])
        assert image.mode == "RGB" and image.size == px_at_300_dpi(component.data["size_mm"])
        # 3 mm in from the bottom left corner, outside the ring: the board's own colour
        pixel = image.getpixel((round(3 / 25.4 * DPI), image.height - round(3 / 25.4 * DPI)))
        layout = game.layouts["faces"][component.data.get("layout", design["layout"])]
        assert near(pixel, background(layout, component.data))
    placed = {}
    for token in tokens_of(save):
        placed.setdefault(token["Nickname"], []).append(token)
    shapes = set()
    for component in game.in_edition(EDITION, "tokens"):
        data = component.data
        shapes.add(data["shape"])
        tokens = placed.pop(loc.field(component.keypath, component.data, "name"))
        assert len(tokens) == component.count(EDITION)
        if data["shape"] == "standee":           # a pawn of each colour, standing up
            assert all(t["CustomImage"]["CustomToken"]["StandUp"] for t in tokens)
            for pawn, colour in zip(tokens, data["colours"], strict=True):
                figure = Image.open(folder / pawn["CustomImage"]["ImageURL"])
                assert figure.size == px_at_300_dpi(data["size_mm"])
                assert near(figure.getpixel((figure.width // 2, 8)), hex_rgb(colour))
            continue
        assert not any(t["CustomImage"]["CustomToken"]["StandUp"] for t in tokens)
        assert len({t["CustomImage"]["ImageURL"] for t in tokens}) == 1
        image = Image.open(folder / tokens[0]["CustomImage"]["ImageURL"])
        assert image.mode == "RGBA"
        if data["shape"] == "disc":
            d = round(data["diameter_mm"] / 25.4 * DPI)
            assert image.size == (d, d)
            inside = image.getpixel((d // 2, round(0.8 / 25.4 * DPI)))      # between the edge and the ring
            assert inside[3] == 255 and near(inside, hex_rgb(data["colour"]))
        # TTS cuts a token along its outline: a disc's and a hexagon's corner is not of it, a square's is
        assert image.getpixel((0, 0))[3] == (255 if data["shape"] == "square" else 0), component.id
    assert not placed and shapes == {"square", "hex", "disc", "standee"}


def tokens_of(save: dict) -> list[dict]:
    """Every token of the save, those in bags too."""
    return [token for obj in save["ObjectStates"]
            for token in (obj["ContainedObjects"] if obj["Name"] == "Bag" else [obj]) if token["Name"] == "Custom_Token"]


def test_the_target_is_part_of_what_a_build_is():
    sample = Project(SAMPLE)
    assert whole_build_inputs(sample, BuildRequest(target="tts")) != whole_build_inputs(sample, BuildRequest())


@pytest.mark.parametrize("option", [("--profile", "all"), ("--paper", "a4"), ("--duplex", "short"),
                                    ("--kind", "cards"), ("--changed-since", "HEAD")])
def test_print_options_are_refused(tmp_path, option):
    result = pnp("build", "--target", "tts", "--game", GAME, "--out", str(tmp_path), *option, project=SAMPLE)
    assert result.exit_code == EXIT_USAGE, result.output
    assert "--target tts" in result.output
    assert not (tmp_path / GAME).exists()


def test_a_changed_token_name_redraws_the_tokens_and_the_save_only(tabletop, tmp_path):
    """The copy's first build is the module's own (the session's cache hands it over); a
    changed translation of a token's name redraws what shows it."""
    from generator.app.build import build
    project = tmp_path / "sample"
    shutil.copytree(tabletop[0], project)
    out = tmp_path / "out"
    request = BuildRequest(game=GAME, edition=EDITION, locale=LOCALE, out=out, target="tts", jobs=1)
    first = build(Project(project), request)
    replace_in(project / "components" / GAME / "locales" / f"{LOCALE}.po",
               'msgctxt "tokens.supply.name"\nmsgid "Supply"\nmsgstr "Zásoba"\n',
               'msgctxt "tokens.supply.name"\nmsgid "Supply"\nmsgstr "Zásoby"\n')
    second = build(Project(project), request)
    folder = f"{GAME}/{EDITION}/{LOCALE}/tts/"
    shown = (".json", "README.txt", "urls.txt")
    assert sorted(second.rebuilt) == sorted(a.path for a in second.artifacts
                                            if "-token-" in a.path or a.path.endswith(shown))
    before = {a.path: a.data for a in first.artifacts}
    changed = sorted(a.path.removeprefix(folder) for a in second.artifacts if before[a.path] != a.data)
    assert changed == [f"{STEM}-token-supply.png", f"{STEM}.json"]
    save = json.loads((out / folder / f"{STEM}.json").read_text("utf-8"))
    assert "Zásoby" in [o["Nickname"] for o in save["ObjectStates"]]


@pytest.mark.parametrize("count, grid", [(1, (1, 1)), (2, (3, 1)), (9, (10, 1)), (10, (6, 2)), (29, (10, 3)),
                                         (68, (10, 7)), (69, (10, 7))])
def test_a_sheet_is_the_smallest_grid_with_its_last_slot_empty(count, grid):
    from generator.app.tts import grid_for
    assert grid_for(count) == grid
    with pytest.raises(ValueError):
        grid_for(70)


def test_the_manifest_ink_estimate_of_a_picture_is_its_full_size_average(out):
    """A PNG's ink estimate is made at about 20 dpi, as a PDF's pages are rendered for it (a
    tabletop sheet may be 54 million pixels): within 3 % of the average over every pixel, for
    the smallest and the largest PNG. (Colours are averaged before the formula takes them to
    ink, so edges between colours count a little differently; measured 2 % on a back image.)
    The average over every pixel is taken colour by colour: each distinct colour's ink times
    the pixels of that colour (a sheet has some thousands of colours, not millions)."""
    import numpy

    from generator.core.artifacts import INK_KEY, _coverage
    entries = [e for e in json.loads((out / "manifest.json").read_text("utf-8"))["files"] if e["path"].endswith(".png")]
    entries.sort(key=lambda e: e["bytes"])
    for entry in (entries[0], entries[-1]):
        with Image.open(out / entry["path"]) as image:
            if image.mode != "RGB":         # an opaque picture on white is itself
                white = Image.new("RGBA", image.size, (255, 255, 255, 255))
                image = Image.alpha_composite(white, image.convert("RGBA")).convert("RGB")
            pixels = image.width * image.height
            colours = image.getcolors(maxcolors=pixels)
        whole = sum(count * _coverage(numpy.array([colour], dtype=numpy.uint8))
                    for count, colour in colours) / pixels
        assert abs(entry[INK_KEY] - whole) <= 0.03 * whole, (entry["path"], entry[INK_KEY], whole)


# ---- dice -----------------------------------------------------------------------------------

# TTS's custom d6 (CustomDice Type 1), as its template (Modding/Dice Templates, shown in TTS's
# knowledge base, Custom Dice) lays it out: 3 x 3 cells, the top row unused, 2 4 5 in the middle
# row and 1 3 6 below, 1 and 6 upside down. Face value -> (column, row, upside down).
TEMPLATE_D6 = {1: (0, 2, True), 2: (0, 1, False), 3: (1, 2, False), 4: (1, 1, False), 5: (2, 1, False),
               6: (2, 2, True)}
# The rotation TTS saves for each face up (a d6's RotationValues).
D6_ROTATIONS = [(-90, 0, 0), (0, 0, 0), (0, 0, -90), (0, 0, 90), (0, 0, -180), (90, 0, 0)]
# Which face of the data's net (top, left, front, right, back, bottom) is TTS's 1 to 6: the net's
# opposite faces (top-bottom, left-right, front-back) on TTS's (1-6, 3-4, 2-5), and not mirrored.
NET_FACE = {1: 0, 2: 2, 3: 1, 4: 3, 5: 4, 6: 5}


def dice_of(save: dict) -> list[dict]:
    """Every die of the save, those in bags too."""
    return [die for obj in save["ObjectStates"]
            for die in (obj["ContainedObjects"] if obj["Name"] == "Bag" else [obj]) if die["Name"] == "Custom_Dice"]


def test_every_die_is_a_custom_d6_with_its_faces_where_the_template_has_them(out, game):
    loc = Localised(game, EDITION, Texts.load(game, LOCALE))
    save, folder = save_of(out), folder_of(out)
    placed: dict[str, list[dict]] = {}
    for die in dice_of(save):
        placed.setdefault(die["Nickname"], []).append(die)
    lone = {obj["Nickname"] for obj in save["ObjectStates"] if obj["Name"] == "Custom_Dice"}
    scale_per_mm = set()
    for component in game.in_edition(EDITION, "dice"):
        data, faces = component.data, component.data["faces"]
        dice = placed.pop(loc.field(component.keypath, data, "name"))
        assert len(dice) == component.count(EDITION)
        assert (dice[0]["Nickname"] in lone) is (len(dice) == 1)         # copies come in a bag
        assert {json.dumps(d["CustomImage"], sort_keys=True) for d in dice} == {json.dumps(dice[0]["CustomImage"],
                                                                                          sort_keys=True)}
        assert dice[0]["CustomImage"]["CustomDice"] == {"Type": 1}
        rotations = dice[0]["RotationValues"]
        assert [r["Value"] for r in rotations] == [faces[NET_FACE[value]]["name"] for value in range(1, 7)]
        assert [tuple(r["Rotation"][axis] for axis in "xyz") for r in rotations] == D6_ROTATIONS
        t = dice[0]["Transform"]
        assert t["scaleX"] == t["scaleY"] == t["scaleZ"]
        scale_per_mm.add(round(t["scaleX"] / data["edge_mm"], 4))
        image = Image.open(folder / dice[0]["CustomImage"]["ImageURL"])
        assert image.mode == "RGB" and image.width == image.height <= MAX_PX and image.width % 3 == 0
        cell = image.width // 3
        top = image.crop((0, 0, image.width, cell))
        assert top.getcolors() == [(image.width * cell, (255, 255, 255))], "the template's unused row"
        layout = game.layouts["faces"][data["layout"]]
        for value, (column, row, upside_down) in TEMPLATE_D6.items():
            face = faces[NET_FACE[value]]
            x, y = column * cell, row * cell
            # a tenth of the face in from its left (or, turned, right) edge, half-way down
            assert near(image.getpixel((x + cell // 10, y + cell // 2)), background(layout, {**data, **face})), \
                (component.id, value)
            if data["layout"] == "pointer-die-face":      # its dark corner: top left, or bottom right turned
                corner = (x + cell // 10, y + cell // 10) if not upside_down else (x + cell - cell // 10,
                                                                                  y + cell - cell // 10)
                assert near(image.getpixel(corner), (0x14, 0x14, 0x14)), (component.id, value)
    assert not placed and len(lone) == 1
    assert len(scale_per_mm) == 1            # sized to each other as printed


def test_a_die_of_another_number_of_faces_is_refused_naming_its_line(tmp_path):
    project = tmp_path / "sample"
    shutil.copytree(SAMPLE, project)
    dice = project / "components" / GAME / "dice.yaml"
    replace_in(dice, '{name: "D"}, {name: "E"}, {name: "F"}]', '{name: "D"}, {name: "E"}]')
    result = pnp("build", "--target", "tts", "--game", GAME, "--out", str(tmp_path / "out"), project=project)
    assert result.exit_code != 0
    line = next(n for n, text in enumerate(dice.read_text("utf-8").splitlines(), 1) if '{name: "E"}]' in text)
    assert f"dice.yaml:{line}" in result.output and "dice.moon.faces" in result.output, result.output
    assert not (tmp_path / "out" / GAME).exists()


# ---- sheets within MAX_PX -----------------------------------------------------------------------

def test_a_card_larger_than_max_px_alone_is_drawn_smaller_one_column_of_seven():
    from generator.app.tts import Sheet, TtsDeck, largest_grid, per_sheet
    size = (400.0, 40.0)                        # 4724 x 472 px at 300 dpi
    assert largest_grid(size) == (1, 7) and per_sheet(size) == 6
    w, h = TtsDeck("poster", "Poster", size, (Sheet((), 1, 7, "f.png", "b.png", False),)).card_px
    assert w <= MAX_PX and 7 * h <= MAX_PX and w / h == pytest.approx(400 / 40, rel=0.01)
    assert w > MAX_PX - 8                       # no smaller than it must be


# ---- addresses ------------------------------------------------------------------------------

def image_addresses(save: dict) -> list[str]:
    text = json.dumps(save)
    return re.findall(r'"(?:FaceURL|BackURL|ImageURL)": "([^"]+)"', text)


@pytest.fixture
def copied_out(tabletop, tmp_path) -> tuple[Path, Path]:
    """(the copy's project, a copy of its export with the cache): a build there redraws nothing."""
    out = tmp_path / "out"
    shutil.copytree(tabletop[1], out)
    return tabletop[0], out


def test_a_base_url_and_a_url_map_give_the_images_their_addresses(copied_out, out):
    project, again = copied_out
    base = "https://example.org/kit/"
    build = ("build", "--target", "tts", "--locale", LOCALE, "--out", str(again))
    result = pnp(*build, "--base-url", base, project=project)
    assert result.exit_code == 0, result.output + result.traceback
    folder = folder_of(again)
    names = [address.removeprefix(base) for address in image_addresses(save_of(again))]
    assert all(address.startswith(base) for address in image_addresses(save_of(again)))
    assert all((folder / name).is_file() for name in names)
    pngs = sorted(p.name for p in folder.glob("*.png"))
    assert all((folder / n).read_bytes() == (folder_of(out) / n).read_bytes() for n in pngs), "images redrawn"
    # each file its own address (as Steam Cloud gives them), the rest at the base URL
    steam = {name: f"https://steamusercontent-a.akamaihd.net/ugc/{n}/{n:040X}/" for n, name in enumerate(pngs[:3])}
    listed = (folder_of(out) / "urls.txt").read_text("utf-8")
    filled = "".join(f"{line}\t{steam[line]}\n" if line in steam else line + "\n" for line in listed.splitlines())
    (again.parent / "filled.txt").write_text(filled, encoding="utf-8")
    result = pnp(*build, "--base-url", base, "--url-map", str(again.parent / "filled.txt"), project=project)
    assert result.exit_code == 0, result.output + result.traceback
    save = save_of(again)
    addresses = image_addresses(save)
    assert {a for a in addresses if not a.startswith(base)} == set(steam.values())
    for name, address in steam.items():
        assert f'"{address}"' in json.dumps(save) and f'"{base}{name}"' not in json.dumps(save)
    # the urls.txt it writes, passed back alone, gives the same save
    written = (folder / "urls.txt").read_text("utf-8")
    assert all(f"{name}\t{address}" in written for name, address in steam.items())
    (again.parent / "written.txt").write_text(written, encoding="utf-8")
    result = pnp(*build, "--url-map", str(again.parent / "written.txt"), project=project)
    assert result.exit_code == 0 and save_of(again) == save


@pytest.mark.parametrize("line, message", [("x.png\tnot-an-address", "'not-an-address' is not an address"),
                                           ("dir/x.png\thttps://example.org/x.png", "not an image file name")])
def test_a_url_map_line_that_is_not_a_file_name_and_an_address_is_refused_naming_it(tmp_path, line, message):
    (tmp_path / "urls.txt").write_text(f"# the list\n\n{line}\n", encoding="utf-8")
    result = pnp("build", "--target", "tts", "--game", GAME, "--out", str(tmp_path / "out"),
                 "--url-map", str(tmp_path / "urls.txt"), project=SAMPLE)
    assert result.exit_code == EXIT_USAGE, result.output
    assert f"{tmp_path / 'urls.txt'}:3:" in result.output and message in result.output
    assert not (tmp_path / "out").exists()


def test_addresses_are_refused_for_printed_kits(tmp_path):
    result = pnp("build", "--game", GAME, "--out", str(tmp_path), "--base-url", "https://example.org/", project=SAMPLE)
    assert result.exit_code == EXIT_USAGE and "--target tts" in result.output, result.output
    assert not (tmp_path / GAME).exists()


def test_two_maps_giving_a_file_two_addresses_are_refused_naming_both(tmp_path):
    name = f"{GAME}-{EDITION}-en-die-sun.png"
    maps = []
    for host in ("one", "two"):
        maps.append(tmp_path / f"{host}.txt")
        maps[-1].write_text(f"{name}\thttps://{host}.example.org/{name}\n", encoding="utf-8")
    result = pnp("build", "--target", "tts", "--game", GAME, "--out", str(tmp_path / "out"),
                 "--url-map", str(maps[0]), "--url-map", str(maps[1]), project=SAMPLE)
    assert result.exit_code == EXIT_USAGE, result.output
    assert f"{name}: two addresses, in {maps[0]} and {maps[1]}" in result.output
    assert not (tmp_path / "out").exists()
