"""Boards, tokens, dice and cut-out pieces for print shops, checked on the real PDFs: one file per
component in the profiles that take its kind, the trim the component's size with bleed and crop
marks outside it, press CMYK within the ink limit, PDF/X-4 with its OutputIntent, and preflight
through the CLI (passing, and failing on a broken file)."""
from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy
import pikepdf
import pypdfium2 as pdfium
import pytest
import yaml

from conftest import painted_operators, pnp


ROOT = Path(__file__).resolve().parent.parent
MM = 72 / 25.4
SELECTION = (("diced-veggies", "standard", "en"), ("race-to-the-table", "full", "bg"))
PROFILES = ("eu-3mm", "large-format-3mm")


def _data(game: str, name: str) -> dict:
    path = ROOT / "components" / game / f"{name}.yaml"
    return yaml.safe_load(path.read_text(encoding="utf-8")) if path.is_file() else {}


def expected_trims(game: str, edition: str) -> dict[tuple[str, str], tuple[float, float]]:
    """(kind, component) -> trim in mm, straight from the YAML (and the dice sheet's tab)."""
    layouts = _data(game, "layouts").get("faces", {})
    tab = yaml.safe_load((ROOT / "templates" / "sheets" / "dice.yaml").read_text(encoding="utf-8"))["tab_mm"]
    trims = {}
    boards = _data(game, "boards")
    for board_id, board in (boards.get("boards") or {}).items():
        if board.get("count", {}).get(edition):
            trims["boards", board_id] = tuple(board.get("size_mm", boards["design"]["size_mm"]))
    for token_id, token in (_data(game, "tokens").get("tokens") or {}).items():
        if token.get("count", {}).get(edition):
            if token["shape"] == "disc":
                trims["tokens", token_id] = (token["diameter_mm"],) * 2
            elif token["shape"] == "standee":
                w, h = token["size_mm"]
                trims["tokens", token_id] = (w, 2 * h + 2 * token["base_mm"])
    for die_id, die in (_data(game, "dice").get("dice") or {}).items():
        if die.get("count", {}).get(edition):
            edge = die["edge_mm"]
            trims["dice", die_id] = (4 * edge + min(tab, edge / 3), 3 * edge)
    for piece_id, piece in (_data(game, "pieces").get("pieces") or {}).items():
        if piece.get("count", {}).get(edition):
            trims["pieces", piece_id] = tuple(layouts[piece["layout"]]["size_mm"])
    return trims


def _kit(game_slug: str, edition: str, locale: str, root: Path = ROOT):
    from generator.app.loading import load_games
    from generator.i18n.texts import Texts
    from generator.layout.faces import Localised
    from generator.layout.kit import Kit
    from generator.load.project import Project
    project = Project(root)
    game = load_games(project, game_slug, locale)[0]
    return project, Kit(project, game, Localised(game, edition, Texts.load(game, locale)), "")


def make_files(game_slug: str, edition: str, locale: str, profile_name: str, only_kind: str | None = None,
               root: Path = ROOT):
    """The component files one profile gets for one kit, made as `pnp build --profile` makes
    them (generator.app.shop.shop_component_files, one unit per kind), and their problems."""
    from generator.app.shop import shop_component_files
    from generator.app.kinds import KINDS
    from generator.load.profiles import load_profile
    project, kit = _kit(game_slug, edition, locale, root)
    profile = load_profile(project, profile_name)
    made, problems = [], []
    for kind in KINDS:
        if kind.name in profile.components.kinds and only_kind in (None, kind.name):
            artifacts, found = shop_component_files(kit, profile, kind)
            made += artifacts
            problems += found
    return made, problems


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """{profile: {(game, kind, component): path}} and the notes, written to a folder."""
    out = tmp_path_factory.mktemp("components")
    files, notes = {}, {}
    for game, edition, locale in SELECTION:
        for profile in PROFILES:
            made, problems = make_files(game, edition, locale, profile)
            assert not problems, problems
            for artifact in made:
                path = out / artifact.path
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(artifact.data)
                if artifact.kind == "shop-component":
                    key = (game, artifact.details["component_kind"], artifact.details["component"])
                    files.setdefault(profile, {})[key] = path
                else:
                    notes.setdefault(profile, {})[(game, artifact.details["component_kind"])] = path
    return out, files, notes


def box_mm(page, key) -> tuple[float, ...]:
    return tuple(float(v) / MM for v in page.obj[key])


def painted(pdf) -> list[tuple[str, list]]:
    """Every operator of every page and form, with its operands."""
    return painted_operators(pdf)


# ---- which files -----------------------------------------------------------------------------------

def test_each_profile_gets_a_file_for_every_component_of_its_kinds_that_fits_it(built):
    _, files, notes = built
    for profile in PROFILES:
        data = json.loads(pnp("profiles", "--json").output)
        spec = next(p for p in data if p["name"] == profile)["components"]
        big, small = max(spec["max_mm"]), min(spec["max_mm"])
        wanted, too_large = set(), set()
        for game, edition, _ in SELECTION:
            for (kind, component), (w, h) in expected_trims(game, edition).items():
                if kind in spec["kinds"]:
                    (wanted if max(w, h) <= big and min(w, h) <= small else too_large).add((game, kind, component))
        assert set(files[profile]) == wanted
        for game, kind, component in too_large:
            note = notes[profile][game, kind].read_text(encoding="utf-8")
            assert f"{kind} {component} " in note and "larger than" in note
        assert set(notes.get(profile, {})) == {(g, k) for g, k, _ in too_large}
    # every kind is somewhere: boards and tokens (Race to the Table), dice and pieces (Diced Veggies)
    assert {kind for _, kind, _ in files["eu-3mm"]} == {"boards", "tokens", "dice", "pieces"}
    assert {kind for _, kind, _ in files["large-format-3mm"]} == {"boards", "pieces"}
    # the 460 mm frame does not fit the eu-3mm sheet but does fit the roll
    assert ("diced-veggies", "pieces", "frame") in files["large-format-3mm"]
    assert ("diced-veggies", "pieces", "frame") not in files["eu-3mm"]


# ---- boxes, colour, PDF/X ------------------------------------------------------------------------

def test_every_page_is_the_trim_with_bleed_and_a_margin_for_marks(built):
    _, files, _ = built
    for profile, found in files.items():
        for (game, kind, component), path in found.items():
            edition = next(e for g, e, _ in SELECTION if g == game)
            w, h = expected_trims(game, edition)[kind, component]
            with pikepdf.open(path) as pdf:
                for page in pdf.pages:
                    assert "/TrimBox" in page.obj and "/BleedBox" in page.obj
                    tx0, ty0, tx1, ty1 = box_mm(page, "/TrimBox")
                    bx0, by0, bx1, by1 = box_mm(page, "/BleedBox")
                    mx0, my0, mx1, my1 = box_mm(page, "/MediaBox")
                    assert (tx1 - tx0, ty1 - ty0) == pytest.approx((w, h), abs=0.05), path
                    assert (tx0 - bx0, ty0 - by0, bx1 - tx1, by1 - ty1) == pytest.approx((3,) * 4, abs=0.05)
                    assert (bx0 - mx0, by0 - my0, mx1 - bx1, my1 - by1) == pytest.approx((6,) * 4, abs=0.05)


def test_files_are_pdfx4_in_press_cmyk_within_the_ink_limit(built):
    from generator.core.icc import press
    fogra = press("FOGRA39")
    _, files, _ = built
    for found in files.values():
        for path in found.values():
            data = path.read_bytes()
            assert data.startswith(b"%PDF-1.6")
            with pikepdf.open(path) as pdf:
                assert str(pdf.docinfo.GTS_PDFXVersion) == "PDF/X-4"
                (intent,) = pdf.Root.OutputIntents
                assert intent.S == "/GTS_PDFX" and str(intent.OutputConditionIdentifier) == "FOGRA39"
                assert int(intent.DestOutputProfile.N) == 4
                assert intent.DestOutputProfile.read_bytes() == fogra.profile_bytes()
                ops = painted(pdf)
                assert not [op for op, _ in ops if op in ("rg", "RG")], path
                assert b"/DeviceRGB" not in b"".join(
                    obj.read_raw_bytes() if isinstance(obj, pikepdf.Stream) else b"" for obj in pdf.objects)
                inks = [sum(float(v) for v in operands) * 100 for op, operands in ops
                        if op in ("k", "K") or (op in ("scn", "sc", "SCN", "SC") and len(operands) == 4)]
                assert inks and max(inks) <= 300 + 0.05, path
                # text and marks in grey go on K alone: the crop marks' stroke is 0 0 0 1 K
                assert any(op == "K" and [float(v) for v in operands] == [0, 0, 0, 1] for op, operands in ops)


def _render(path: Path, dpi: float = 60):
    document = pdfium.PdfDocument(str(path))
    try:
        page = document[0]
        image = numpy.asarray(page.render(scale=dpi / 72).to_pil().convert("RGB"), dtype=numpy.int16)
    finally:
        document.close()
    return image


def test_marks_lie_outside_the_bleed_in_line_with_the_trim_and_the_art_runs_into_the_bleed(built):
    _, files, _ = built
    dpi = 60
    px = dpi / 25.4
    checked = 0
    for (game, kind, component), path in files["eu-3mm"].items():
        with pikepdf.open(path) as pdf:
            page = pdf.pages[0]
            tx0, ty0, tx1, ty1 = box_mm(page, "/TrimBox")
            bx0, by0, bx1, by1 = box_mm(page, "/BleedBox")
            _, _, mw, mh = box_mm(page, "/MediaBox")
        image = _render(path, dpi)
        height = image.shape[0]
        dark = image.sum(axis=2) < 3 * 128
        ys, xs = numpy.nonzero(dark)
        x_mm, y_mm = xs / px, (height - ys) / px            # pdf coordinates, from the bottom
        outside = (x_mm < bx0 - 0.5) | (x_mm > bx1 + 0.5) | (y_mm < by0 - 0.5) | (y_mm > by1 + 0.5)
        assert outside.sum() > 0, f"{path.name}: no crop marks"
        near_edge = ((numpy.abs(x_mm - tx0) < 0.6) | (numpy.abs(x_mm - tx1) < 0.6)
                     | (numpy.abs(y_mm - ty0) < 0.6) | (numpy.abs(y_mm - ty1) < 0.6))
        assert near_edge[outside].all(), f"{path.name}: something dark outside the bleed off the trim lines"
        # marks stay out of the corners' diagonal: never across the component
        beside = (x_mm < tx0 - 1) | (x_mm > tx1 + 1)
        above_below = (y_mm < ty0 - 1) | (y_mm > ty1 + 1)
        assert not (outside & beside & above_below).any()
        if kind == "boards":
            # 1.5 mm outside the trim, halfway along each edge: the board's colour as 1.5 mm inside
            cx, cy = (tx0 + tx1) / 2, (ty0 + ty1) / 2
            for (x, y), (ix, iy) in ((((tx0 - 1.5), cy), (tx0 + 1.5, cy)), ((tx1 + 1.5, cy), (tx1 - 1.5, cy)),
                                     ((cx, ty0 - 1.5), (cx, ty0 + 1.5)), ((cx, ty1 + 1.5), (cx, ty1 - 1.5))):
                pixel = image[int(height - y * px), int(x * px)]
                inside = image[int(height - iy * px), int(ix * px)]
                assert pixel.min() < 245, f"{path.name}: white bleed at ({x:.1f}, {y:.1f}) mm"
                assert numpy.abs(pixel - inside).max() < 40, f"{path.name}: the bleed is not the board's colour"
            checked += 1
        if kind == "dice":
            # the cross's left arm: its face colour runs 1.5 mm past the cut
            edge = (ty1 - ty0) / 3
            pixel = image[int(height - (ty0 + 1.5 * edge) * px), int((tx0 - 1.5) * px)]
            assert pixel.min() < 245, f"{path.name}: white bleed left of the cross"
            checked += 1
    assert checked >= 2


def test_the_same_input_gives_the_same_bytes(built):
    _, files, _ = built
    made, _ = make_files("race-to-the-table", "full", "bg", "eu-3mm", only_kind="tokens")
    for artifact in made:
        key = ("race-to-the-table", "tokens", artifact.details["component"])
        assert artifact.data == files["eu-3mm"][key].read_bytes()


# ---- preflight through the CLI -------------------------------------------------------------------------

def _preflight(profile: str, *paths, project: Path = ROOT) -> tuple[int, dict]:
    result = pnp("preflight", "--profile", profile, "--json", *map(str, paths), project=project)
    assert result.exit_code in (0, 1), result.output
    report = json.loads(result.output)
    return result.exit_code, {Path(f["path"]).name: {c["criterion"]: c["result"] for c in f["checks"]}
                              for f in report["files"]}


def test_preflight_passes_every_component_file(built):
    out, files, _ = built
    for profile, found in files.items():
        folders = sorted({path.parent for path in found.values()})
        code, results = _preflight(profile, *folders)
        assert code == 0, {n: r for n, r in results.items() if "fail" in r.values()}
        assert len(results) == len(found)
        for checks in results.values():
            for criterion in ("boxes", "size", "pages", "fonts", "colour", "ink", "pdfx", "bleed", "safe-zone"):
                assert checks[criterion] == "pass"


def _broken(source: Path, target: Path, edit) -> Path:
    with pikepdf.open(source) as pdf:
        edit(pdf)
        pdf.save(target)
    return target


def test_preflight_fails_a_broken_component_file(built, tmp_path):
    _, files, _ = built
    board = files["eu-3mm"]["race-to-the-table", "boards", "lunch-break"]
    (tmp_path / "components").mkdir()

    def no_trim(pdf):
        del pdf.pages[0].obj["/TrimBox"]

    def rgb(pdf):
        page = pdf.pages[0]
        page.contents_add(pdf.make_stream(b"q 1 0 0 rg 0 0 10 10 re f Q"), prepend=False)

    def bleed_1mm(pdf):
        x0, y0, x1, y1 = (float(v) for v in pdf.pages[0].obj.TrimBox)
        pdf.pages[0].obj.BleedBox = pikepdf.Array([x0 - MM, y0 - MM, x1 + MM, y1 + MM])

    def no_intent(pdf):
        del pdf.Root["/OutputIntents"]

    def over_ink(pdf):
        pdf.pages[0].contents_add(pdf.make_stream(b"q 1 1 1 1 k 0 0 10 10 re f Q"), prepend=False)

    def bare_bleed(pdf):          # paper white over the left bleed, as if the background stopped at the cut
        x0, y0, _, y1 = (float(v) for v in pdf.pages[0].obj.TrimBox)
        pdf.pages[0].contents_add(pdf.make_stream(
            f"q 0 0 0 0 k {x0 - 3 * MM:.3f} {y0:.3f} {3 * MM:.3f} {y1 - y0:.3f} re f Q".encode()), prepend=False)

    cases = {"no-trim": (no_trim, "boxes"), "rgb": (rgb, "colour"), "bleed": (bleed_1mm, "size"),
             "no-intent": (no_intent, "pdfx"), "ink": (over_ink, "ink"), "bare": (bare_bleed, "bleed")}
    for name, (edit, criterion) in cases.items():
        path = _broken(board, tmp_path / "components" / f"boards-{name}.pdf", edit)
        code, results = _preflight("eu-3mm", path)
        assert code == 1, name
        assert results[path.name][criterion] == "fail", (name, results[path.name])
    # a token whose drawing is moved 2 mm down: its name comes closer than 3 mm to the cut
    token = files["eu-3mm"]["race-to-the-table", "tokens", "clock-marker"]
    code, results = _preflight("eu-3mm", token)
    assert code == 0 and results[token.name]["safe-zone"] == "pass"

    def text_near_the_cut(pdf):
        pdf.pages[0].contents_add(pdf.make_stream(b"q 1 0 0 1 0 -5.67 cm"), prepend=True)
        pdf.pages[0].contents_add(pdf.make_stream(b"Q"), prepend=False)
    moved = _broken(token, tmp_path / "components" / "tokens-moved.pdf", text_near_the_cut)
    code, results = _preflight("eu-3mm", moved)
    assert code == 1 and results[moved.name]["safe-zone"] == "fail", results[moved.name]
    # and one too large for the sheet (the large-format file of the frame, 460 mm long)
    frame = files["large-format-3mm"]["diced-veggies", "pieces", "frame"]
    code, results = _preflight("eu-3mm", frame)
    assert code == 1 and results[frame.name]["pages"] == "fail"


def test_every_letter_of_a_disc_token_keeps_the_safe_zone_inside_its_round_cut():
    """Pegs and Jokers' pegs carry their colour's name, its longest words in Bulgarian, Russian
    and Ukrainian: in every locale a shop gets, each token file passes preflight and every
    glyph (pdfium's tight box) lies the profile's safe zone inside the round cut, not only
    inside the square trim round it."""
    from generator.app.loading import load_games
    from generator.load.project import Project
    game = load_games(Project(ROOT), "pegs-and-jokers", texts=False)[0]
    safe = yaml.safe_load((ROOT / "templates" / "profiles" / "eu-3mm.yaml").read_text(encoding="utf-8"))[
        "components"]["safe_mm"]
    discs = {token_id for token_id, token in _data("pegs-and-jokers", "tokens")["tokens"].items()
             if token["shape"] == "disc"}
    locales, checked = [locale for locale in game.locales if not game.is_draft(locale)], set()
    for locale in locales:
        made, problems = make_files("pegs-and-jokers", "standard", locale, "eu-3mm", only_kind="tokens")
        assert not problems, problems
        for artifact in made:
            if artifact.details.get("component") not in discs:
                continue
            checked.add((locale, artifact.details["component"]))
            document = pdfium.PdfDocument(artifact.data)
            page = document[0]
            x0, y0, x1, y1 = page.get_trimbox()
            cx, cy, room = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2 - safe * MM
            text = page.get_textpage()
            glyphs = [(text.get_text_range(i, 1), text.get_charbox(i)) for i in range(text.count_chars())]
            glyphs = [(glyph, box) for glyph, box in glyphs if glyph.strip() and box[2] > box[0]]
            assert glyphs, (locale, artifact.path)
            for glyph, (left, bottom, right, top) in glyphs:
                farthest = max(math.hypot(x - cx, y - cy) for x in (left, right) for y in (bottom, top))
                assert farthest <= room + 0.01 * MM, (
                    f"{artifact.path}: {glyph!r} {(x1 - x0) / 2 / MM - farthest / MM:.2f} mm inside the cut")
            document.close()
    assert len(checked) == len(discs) * len(locales)


def test_a_large_disc_runs_into_its_bleed_and_fails_preflight_without_it(project, tmp_path):
    """A round cut's bleed ring narrows towards where the circle meets the trim box, the more
    the larger the disc: a 60 mm token passes the bleed check, and fails it with its bleed gone."""
    tokens = project / "components" / "diced-veggies" / "tokens.yaml"
    tokens.write_text(re.sub(r"diameter_mm: [\d.]+", "diameter_mm: 60", tokens.read_text(encoding="utf-8")),
                      encoding="utf-8")
    made, problems = make_files("diced-veggies", "standard", "en", "eu-3mm", only_kind="tokens", root=project)
    assert not problems, problems
    (token,) = [artifact for artifact in made if artifact.kind == "shop-component"]
    (tmp_path / "components").mkdir()
    path = tmp_path / "components" / "tokens-chef.pdf"
    path.write_bytes(token.data)
    code, results = _preflight("eu-3mm", path)
    assert code == 0 and results[path.name]["bleed"] == "pass", results

    def bare_left_bleed(pdf):
        x0, y0, _, y1 = (float(v) for v in pdf.pages[0].obj.TrimBox)
        pdf.pages[0].contents_add(pdf.make_stream(
            f"q 0 0 0 0 k {x0 - 3 * MM:.3f} {y0:.3f} {3 * MM:.3f} {y1 - y0:.3f} re f Q".encode()), prepend=False)
    bare = _broken(path, tmp_path / "components" / "tokens-bare.pdf", bare_left_bleed)
    code, results = _preflight("eu-3mm", bare)
    assert code == 1 and results[bare.name]["bleed"] == "fail", results


# ---- card files by product ----------------------------------------------------------------------------

def _cards_by_deck(game: str, edition: str) -> dict[str, int]:
    cards = _data(game, "cards")["cards"]
    counts: dict[str, int] = {}
    for card in cards.values():
        counts[card["deck"]] = counts.get(card["deck"], 0) + card.get("count", {}).get(edition, 0)
    return counts


def test_decks_that_share_their_backs_go_to_the_shop_as_one_product(project, tmp_path):
    """Two decks of one size with one back design (in the data: the same `back`) are one
    product, one file; a profile's max_cards splits a product into parts."""
    decks = yaml.safe_load((ROOT / "components" / "the-game" / "cards.yaml").read_text(encoding="utf-8"))["decks"]
    shared = [deck for deck, data in decks.items() if data["back"] == "card-back"]
    assert len(shared) == 2
    counts = _cards_by_deck("the-game", "standard")
    total = sum(counts[deck] for deck in shared)
    out = tmp_path / "out"
    result = pnp("build", "--game", "the-game", "--locale", "cs", "--profile", "drivethrucards", "--out", str(out))
    assert result.exit_code == 0, result.output
    (path,) = (out / "the-game" / "standard" / "cs" / "shop" / "drivethrucards").glob("*.pdf")
    order = list(dict.fromkeys(c["deck"] for c in _data("the-game", "cards")["cards"].values()))
    assert path.name == "+".join(d for d in order if d in shared) + ".pdf"
    with pikepdf.open(path) as pdf:
        assert len(pdf.pages) == 2 * total                 # back then front for every card
    entry = next(e for e in json.loads((out / "manifest.json").read_text())["files"] if e["path"].endswith(path.name))
    assert sorted(entry["decks"]) == sorted(shared) and entry["cards"] == total
    # a profile whose product holds at most 40 cards gets parts of 40, 40 and the rest, paired
    profile = project / "templates" / "profiles" / "small-boxes.yaml"
    eu = (project / "templates" / "profiles" / "eu-3mm.yaml").read_text(encoding="utf-8")
    profile.write_text(eu.split("\n# Boards, tokens")[0].replace("max_cards: 110", "max_cards: 40") + "\n",
                       encoding="utf-8")
    out = tmp_path / "parts"
    result = pnp("build", "--game", "the-game", "--locale", "cs", "--profile", "small-boxes", "--out", str(out),
                 project=project)
    assert result.exit_code == 0, result.output
    folder = out / "the-game" / "standard" / "cs" / "shop" / "small-boxes"
    name = "+".join(d for d in order if d in shared)
    parts = -(-total // 40)
    assert sorted(p.name for p in folder.glob("*.pdf")) == sorted(
        f"{name}-{n}-{side}.pdf" for n in range(1, parts + 1) for side in ("fronts", "backs"))
    for n in range(1, parts + 1):
        for side in ("fronts", "backs"):
            with pikepdf.open(folder / f"{name}-{n}-{side}.pdf") as pdf:
                assert len(pdf.pages) == (40 if n < parts else total - 40 * (parts - 1))
    code, results = _preflight("small-boxes", folder, project=project)
    assert code == 0, results


def test_decks_on_different_stocks_are_different_products(project, tmp_path):
    """The same two decks, one of them printed on another stock (the deck's `stock`): two
    products, each file's manifest entry naming its stock."""
    cards = project / "components" / "the-game" / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text.replace("    layout: pile\n", "    layout: pile\n    stock: linen-350\n", 1),
                     encoding="utf-8")
    counts = _cards_by_deck("the-game", "standard")
    out = tmp_path / "out"
    result = pnp("build", "--game", "the-game", "--locale", "cs", "--profile", "drivethrucards", "--out", str(out),
                 project=project)
    assert result.exit_code == 0, result.output
    folder = out / "the-game" / "standard" / "cs" / "shop" / "drivethrucards"
    assert sorted(p.name for p in folder.glob("*.pdf")) == ["numbers.pdf", "piles.pdf"]
    entries = {Path(e["path"]).name: e for e in json.loads((out / "manifest.json").read_text())["files"]
               if "/shop/" in e["path"]}
    assert entries["piles.pdf"]["stock"] == "linen-350" and "stock" not in entries["numbers.pdf"]
    for deck in ("numbers", "piles"):
        assert entries[f"{deck}.pdf"]["cards"] == counts[deck]
        with pikepdf.open(folder / f"{deck}.pdf") as pdf:
            assert len(pdf.pages) == 2 * counts[deck]
    # a stock that is not a plain name is a located error of the data
    cards.write_text(text.replace("    layout: pile\n", "    layout: pile\n    stock: Linen 350!\n", 1),
                     encoding="utf-8")
    result = pnp("validate", "the-game", project=project)
    assert result.exit_code == 1 and "components/the-game/cards.yaml:" in result.output \
        and "decks.piles.stock" in result.output, result.output


@pytest.mark.parametrize("old, new, message", [
    ("kinds: [boards, pieces]", "kinds: [boards, cards]",
     "components.kinds.1: no component kind 'cards' makes shop files"),
    ('name: "components/{kind}-{component}.pdf"', 'name: "components/{kind}.pdf"',
     "components.name: a file per component needs {component} in its name"),
    ('name: "components/{kind}-{component}.pdf"', 'name: "components/{deck}-{component}.pdf"',
     "components.name: unknown field {deck}"),
    ("  pdfx: x-4\n", "", None),          # no PDF/X asked: still valid
    ("  colour: {space: cmyk, characterisation: FOGRA39, ink_limit: 300, rich_black: [40, 30, 30, 100]}\n", "",
     "components: no colour"),
])
def test_a_profiles_components_section_is_checked_at_its_line(project, old, new, message):
    from conftest import replace_in
    path = project / "templates" / "profiles" / "large-format-3mm.yaml"
    replace_in(path, old, new)
    result = pnp("profiles", project=project)
    if message is None:
        assert result.exit_code == 0, result.output
        return
    assert result.exit_code != 0 and message in result.output, result.output
    assert "large-format-3mm.yaml:" in result.output
