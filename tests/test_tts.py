"""`pnp build --target tts`: the Tabletop Simulator folder, read back and checked against the
data: every card of every deck (how many, where its face is on its sheet, its back), the sheets'
pixel sizes, and the pixels of each face and back against the colour its layout fills it with."""
from __future__ import annotations

import io
import json
import math
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from conftest import replace_in
from generator.app.request import BuildRequest
from generator.app.tts import MAX_PX, TtsKit, saved_objects
from generator.cli.main import main
from generator.core.errors import EXIT_USAGE
from generator.i18n.texts import Texts
from generator.layout.faces import Localised
from generator.load.project import Project
from generator.write.incremental import whole_build_inputs


ROOT = Path(__file__).resolve().parent.parent
GAMES = ("the-game", "donkey-can")
LOCALE = "en"
DPI = 300


def run(*args):
    return CliRunner().invoke(main, ["-C", str(ROOT), *args], catch_exceptions=True)


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("tts")
    for game in GAMES:
        result = run("build", "--target", "tts", "--game", game, "--locale", LOCALE, "--out", str(folder))
        assert result.exit_code == 0, result.output + repr(result.exception)
    return folder


@pytest.fixture(scope="module")
def repo() -> Project:
    return Project(ROOT)


def loaded(project: Project, slug: str):
    game, problems = project.load_game(slug)
    assert not problems
    return game


def folder_of(out: Path, game, edition: str) -> Path:
    return out / game.slug / edition / LOCALE / "tts"


def save_of(out: Path, game, edition: str) -> dict:
    return json.loads((folder_of(out, game, edition) / f"{game.slug}-{edition}-{LOCALE}.json").read_text("utf-8"))


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


def test_every_card_of_every_deck_against_the_data(out, repo):
    checked = 0
    for slug in GAMES:
        game = loaded(repo, slug)
        for edition in game.editions:
            loc = Localised(game, edition, Texts.load(game, LOCALE))
            save = save_of(out, game, edition)
            folder = folder_of(out, game, edition)
            cards_in_data = game.in_edition(edition, "cards")
            decks = {}
            for obj in save["ObjectStates"]:
                if obj["Name"] in ("Deck", "Card"):
                    decks[obj["Nickname"] if obj["Name"] == "Deck" else None] = obj
            seen_ids: dict[str, str] = {}
            images: dict[str, Image.Image] = {}

            def image(name: str) -> Image.Image:
                assert "/" not in name and ":" not in name, f"{name}: not a file name in the folder"
                if name not in images:
                    images[name] = Image.open(folder / name)
                    images[name].load()
                return images[name]

            for deck_id, deck in game.decks.items():
                members = [c for c in cards_in_data if c.data["deck"] == deck_id]
                if not members:
                    continue
                total = sum(c.count(edition) for c in members)
                deck_name = loc.field(f"decks.{deck_id}", deck, "name")
                if total == 1:      # TTS's decks hold two cards or more: a lone card is a Card
                    card = next(o for o in save["ObjectStates"] if o["Name"] == "Card" and o["Memo"] == members[0].id)
                    cards, custom = [card], card["CustomDeck"]
                else:
                    obj = decks[deck_name]
                    cards, custom = obj["ContainedObjects"], obj["CustomDeck"]
                    assert obj["DeckIDs"] == [c["CardID"] for c in cards]
                    assert len(custom) == math.ceil(len(members) / 69)
                for key in custom:
                    assert seen_ids.setdefault(key, deck_id) == deck_id, f"DeckID {key} is in two decks"
                # the cards in data order, each as often as the edition has it
                assert [c["Memo"] for c in cards] == [m.id for m in members for _ in range(m.count(edition))]
                slots = {}
                for member in members:
                    mine = [c for c in cards if c["Memo"] == member.id]
                    ids = {c["CardID"] for c in mine}
                    assert len(ids) == 1, f"{member.id}: copies of one card on several slots"
                    card = mine[0]
                    assert card["Nickname"] == loc.field(member.keypath, member.data, "name")
                    assert card["Description"] == loc.field(member.keypath, member.data, "text")
                    sheet_id, index = divmod(card["CardID"], 100)
                    entry = custom[str(sheet_id)]
                    assert card["CustomDeck"] == {str(sheet_id): entry}
                    columns, rows = entry["NumWidth"], entry["NumHeight"]
                    assert columns <= 10 and rows <= 7
                    # TTS keeps the last slot of a sheet; a 1 x 1 sheet is a single card
                    assert index < max(1, columns * rows - 1)
                    assert slots.setdefault((sheet_id, index), member.id) == member.id, "two cards on one slot"
                    layout = game.layouts["faces"][member.data.get("layout", deck["layout"])]
                    w_mm, h_mm = layout["size_mm"]
                    faces = image(entry["FaceURL"])
                    assert faces.mode == "RGB"
                    assert faces.width <= MAX_PX and faces.height <= MAX_PX
                    assert faces.width % columns == 0 and faces.height % rows == 0
                    card_px = (faces.width // columns, faces.height // rows)
                    assert card_px == (round(w_mm / 25.4 * DPI), round(h_mm / 25.4 * DPI))
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
                    checked += member.count(edition)
    # every card of both games was looked at: The Game's 98 number and 4 pile cards, the Donkey's 90
    assert checked == 98 + 4 + 90


def test_a_face_is_drawn_not_only_filled(out, repo):
    game = loaded(repo, "the-game")
    save = save_of(out, game, "standard")
    deck = next(o for o in save["ObjectStates"] if o["Name"] == "Deck" and len(o["ContainedObjects"]) > 69)
    card = deck["ContainedObjects"][0]
    sheet_id, index = divmod(card["CardID"], 100)
    entry = deck["CustomDeck"][str(sheet_id)]
    faces = Image.open(folder_of(out, game, "standard") / entry["FaceURL"])
    w, h = faces.width // entry["NumWidth"], faces.height // entry["NumHeight"]
    column, row = index % entry["NumWidth"], index // entry["NumWidth"]
    cell = faces.crop((column * w, row * h, column * w + w, row * h + h))
    colours = cell.getcolors(maxcolors=1 << 16)
    assert colours is not None and len(colours) > 20         # text, circle, frame: anti-aliased edges
    white = sum(n for n, c in colours if c == (255, 255, 255))
    assert 0.1 < white / (w * h) < 0.6                       # the white disc and the number's frame
    # the empty slots of a sheet (the one TTS keeps among them) are left white
    last = faces.crop((faces.width - w, faces.height - h, faces.width, faces.height))
    assert last.getcolors() == [(w * h, (255, 255, 255))]


def test_folder_files_readme_and_manifest(out, repo):
    manifest = {e["path"]: e for e in json.loads((out / "manifest.json").read_text("utf-8"))["files"]}
    for slug in GAMES:
        game = loaded(repo, slug)
        for edition in game.editions:
            folder = folder_of(out, game, edition)
            on_disk = sorted(p.name for p in folder.iterdir())
            save = save_of(out, game, edition)
            text = json.dumps(save)
            guids = re.findall(r'"GUID": "([0-9a-f]{6})"', text)
            assert len(guids) == len(set(guids)) == text.count('"GUID"'), "GUIDs are not six distinct hex digits"
            named = set(re.findall(r'"([^"/]+\.png)"', text))
            assert sorted(named | {f"{slug}-{edition}-{LOCALE}.json", "README.txt"}) == on_disk
            readme = (folder / "README.txt").read_text("utf-8")
            assert "host" in readme and f"{slug}-{edition}-{LOCALE}.json" in readme and "Saved Objects" in readme
            for name in on_disk:
                path = f"{slug}/{edition}/{LOCALE}/tts/{name}"
                assert manifest[path]["bytes"] == (folder / name).stat().st_size
                if name.endswith(".png"):
                    assert (folder / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_same_input_same_bytes_and_nothing_redrawn(out, repo):
    game = loaded(repo, "the-game")
    kit = TtsKit(Localised(game, "standard", Texts.load(game, LOCALE)))
    folder = folder_of(out, game, "standard")
    again = kit.deck_files("piles") + kit.save_files()       # drawn here, not in the build's workers
    assert again and all((folder / a.path.rsplit("/", 1)[1]).read_bytes() == a.data for a in again)
    result = run("build", "--target", "tts", "--game", "donkey-can", "--locale", LOCALE, "--out", str(out))
    assert result.exit_code == 0 and "nothing changed" in result.output


def test_boards_and_tokens(repo):
    game = loaded(repo, "race-to-the-table")
    edition = "free"
    kit = TtsKit(Localised(game, edition, Texts.load(game, LOCALE)))
    boards = kit.board_files()
    design = game.files["boards"]["design"]
    assert len(boards) == len(game.in_edition(edition, "boards"))
    for board, component in zip(boards, game.in_edition(edition, "boards")):
        image = Image.open(io.BytesIO(board.data))
        w, h = design["size_mm"]
        assert image.mode == "RGB" and image.size == (round(w / 25.4 * DPI), round(h / 25.4 * DPI))
        # 10 mm from the left edge, 50 mm up: between the clock and the track, the board's own colour
        pixel = image.getpixel((round(10 / 25.4 * DPI), image.height - round(50 / 25.4 * DPI)))
        assert near(pixel, background(game.layouts["faces"][design["layout"]], component.data))
    tokens = {a.path.rsplit("/", 1)[1]: a for a in kit.token_files()}
    save = saved_objects(kit)
    tiles = [o for o in save["ObjectStates"] if o["Name"] == "Custom_Tile"]
    assert sorted(t["CustomImage"]["ImageURL"] for t in tiles) == sorted(b.path.rsplit("/", 1)[1] for b in boards)
    assert [t["Nickname"] for t in tiles] == [loc_name(kit, c) for c in game.in_edition(edition, "boards")]
    placed = {}
    for obj in save["ObjectStates"]:
        inside = obj["ContainedObjects"] if obj["Name"] == "Bag" else [obj]
        for token in inside:
            if token["Name"] == "Custom_Token":
                placed.setdefault(token["Nickname"], []).append(token)
                assert token["CustomImage"]["ImageURL"] in tokens
    for component in game.in_edition(edition, "tokens"):
        name = loc_name(kit, component)
        assert len(placed[name]) == component.count(edition)
        data = component.data
        if data["shape"] == "disc":
            image = Image.open(io.BytesIO(tokens[placed[name][0]["CustomImage"]["ImageURL"]].data))
            d = round(data["diameter_mm"] / 25.4 * DPI)
            assert image.mode == "RGBA" and image.size == (d, d)
            assert image.getpixel((0, 0))[3] == 0                 # TTS cuts the token along its outline
            inside_ring = image.getpixel((d // 2, round(0.8 / 25.4 * DPI)))     # between the edge and the ring
            assert inside_ring[3] == 255 and near(inside_ring, hex_rgb(data["colour"]))
        else:
            assert all(t["CustomImage"]["CustomToken"]["StandUp"] for t in placed[name])
            figure = Image.open(io.BytesIO(tokens[placed[name][0]["CustomImage"]["ImageURL"]].data))
            w, h = data["size_mm"]
            assert figure.size == (round(w / 25.4 * DPI), round(h / 25.4 * DPI))
            assert near(figure.getpixel((figure.width // 2, 8)), hex_rgb(data["colours"][0]))


def loc_name(kit, component) -> str:
    return kit.loc.field(component.keypath, component.data, "name")


def test_the_target_is_part_of_what_a_build_is(repo):
    assert whole_build_inputs(repo, BuildRequest(target="tts")) != whole_build_inputs(repo, BuildRequest())


@pytest.mark.parametrize("option", [("--profile", "all"), ("--paper", "a4"), ("--duplex", "short"),
                                    ("--kind", "cards"), ("--changed-since", "HEAD")])
def test_print_options_are_refused(tmp_path, option):
    result = run("build", "--target", "tts", "--game", "the-game", "--out", str(tmp_path), *option)
    assert result.exit_code == EXIT_USAGE, result.output
    assert "--target tts" in result.output
    assert not (tmp_path / "the-game").exists()


def test_a_changed_token_name_redraws_the_tokens_and_the_save_only(project):
    from generator.app.build import build
    out = project / "output"
    request = BuildRequest(game="race-to-the-table", edition="free", locale=LOCALE, out=out, target="tts", jobs=1)
    first = build(Project(project), request)
    assert len(first.rebuilt) == len(first.artifacts)
    replace_in(project / "components" / "race-to-the-table" / "locales" / f"{LOCALE}.po",
               'msgctxt "tokens.clock-marker.name"\nmsgid "Маркер"\nmsgstr "Marker"\n',
               'msgctxt "tokens.clock-marker.name"\nmsgid "Маркер"\nmsgstr "Timer"\n')
    second = build(Project(project), request)
    folder = "race-to-the-table/free/en/tts/"
    assert sorted(second.rebuilt) == sorted(a.path for a in second.artifacts
                                            if "-token-" in a.path or a.path.endswith((".json", "README.txt")))
    before = {a.path: a.data for a in first.artifacts}
    changed = sorted(a.path.removeprefix(folder) for a in second.artifacts if before[a.path] != a.data)
    assert changed == ["race-to-the-table-free-en-token-clock-marker.png", "race-to-the-table-free-en.json"]
    save = json.loads((out / folder / "race-to-the-table-free-en.json").read_text("utf-8"))
    assert "Timer" in [o["Nickname"] for o in save["ObjectStates"]]


@pytest.mark.parametrize("count, grid", [(1, (1, 1)), (2, (3, 1)), (9, (10, 1)), (10, (6, 2)), (29, (10, 3)),
                                         (68, (10, 7)), (69, (10, 7))])
def test_a_sheet_is_the_smallest_grid_with_its_last_slot_empty(count, grid):
    from generator.app.tts import grid_for
    assert grid_for(count) == grid
    with pytest.raises(ValueError):
        grid_for(70)


def test_the_manifest_ink_estimate_of_a_picture_is_its_full_size_average(out):
    """A PNG's ink estimate is made at about 20 dpi, as a PDF's pages are rendered for it (a
    tabletop sheet is 54 million pixels): within 3 % of the average over every pixel, for the
    smallest and the largest PNG. (Colours are averaged before the formula takes them to ink,
    so edges between colours count a little differently; measured 2 % on a back image.)
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
        whole = sum(count * _coverage(numpy.array([colour], dtype=numpy.float32) / 255)
                    for count, colour in colours) / pixels
        assert abs(entry[INK_KEY] - whole) <= 0.03 * whole, (entry["path"], entry[INK_KEY], whole)
