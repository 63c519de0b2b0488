"""Boards, tokens, dice, cut-out pieces and tuck boxes for print shops, checked on the real PDFs
(the sample game as shops take it, conftest.shop_ready_sample; each shipped game's in
tests/games/): one file per component in the profiles that take its kind, the trim the component's size with bleed and
crop marks outside it, press CMYK within the ink limit, PDF/X-4 with its OutputIntent, and
preflight through the CLI (passing, and failing on a broken file)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy
import pikepdf
import pypdfium2 as pdfium
import pytest
import yaml

from conftest import (component_data, expected_trims, glyphs_outside_the_round_safe_zone, make_component_files, painted_operators, pnp, replace_in,
                      shop_ready_sample)


ROOT = Path(__file__).resolve().parent.parent
MM = 72 / 25.4
GAME, EDITION, LOCALE = "sample-game", "standard", "en"
PROFILES = ("eu-3mm", "large-format-3mm")


@pytest.fixture(scope="module")
def built(shop_sample):
    """(the shop-ready sample project, {profile: {(kind, component): path}}, {profile: {kind: note's
    path}}) of the sample built for every profile, read from its manifest."""
    project, out = shop_sample
    files, notes = {}, {}
    for entry in json.loads((out / "manifest.json").read_text(encoding="utf-8"))["files"]:
        if entry["kind"] == "shop-component":
            files.setdefault(entry["profile"], {})[entry["component_kind"], entry["component"]] = out / entry["path"]
        elif entry["kind"] == "shop-note":
            notes.setdefault(entry["profile"], {})[entry["component_kind"]] = out / entry["path"]
    return project, files, notes


def box_mm(page, key) -> tuple[float, ...]:
    return tuple(float(v) / MM for v in page.obj[key])


def painted(pdf) -> list[tuple[str, list]]:
    """Every operator of every page and form, with its operands."""
    return painted_operators(pdf)


# ---- which files -----------------------------------------------------------------------------------

def test_each_profile_gets_a_file_for_every_component_of_its_kinds_that_fits_it(built):
    project, files, notes = built
    data = json.loads(pnp("profiles", "--json").output)
    for profile in PROFILES:
        spec = next(p for p in data if p["name"] == profile)["components"]
        big, small = max(spec["max_mm"]), min(spec["max_mm"])
        wanted, too_large = set(), set()
        for (kind, component), (w, h) in expected_trims(project, GAME, EDITION).items():
            if kind in spec["kinds"]:
                (wanted if max(w, h) <= big and min(w, h) <= small else too_large).add((kind, component))
        assert set(files[profile]) == wanted
        for kind, component in too_large:
            note = notes[profile][kind].read_text(encoding="utf-8")
            assert f"{kind} {component} " in note and "larger than" in note
        assert set(notes.get(profile, {})) == {k for k, _ in too_large}
    # every kind is somewhere, every token (square, hex and standee)
    assert {kind for kind, _ in files["eu-3mm"]} == {"boards", "tokens", "dice", "pieces", "tuckboxes"}
    assert {kind for kind, _ in files["large-format-3mm"]} == {"boards", "pieces"}
    assert {component for kind, component in files["eu-3mm"] if kind == "tokens"} == set(_tokens(project))
    # the 460 mm banner does not fit the eu-3mm sheet but does fit the roll
    assert ("pieces", "banner") in files["large-format-3mm"]
    assert ("pieces", "banner") not in files["eu-3mm"]


# ---- boxes, colour, PDF/X ------------------------------------------------------------------------

def test_every_page_is_the_trim_with_bleed_and_a_margin_for_marks(built):
    project, files, _ = built
    trims = expected_trims(project, GAME, EDITION)
    for profile, found in files.items():
        for (kind, component), path in found.items():
            w, h = trims[kind, component]
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
    for (kind, component), path in files["eu-3mm"].items():
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


def _tokens(project: Path) -> dict:
    return yaml.safe_load((project / "components" / GAME / "tokens.yaml").read_text(encoding="utf-8"))["tokens"]


def test_the_same_input_gives_the_same_bytes(built):
    """The tokens made again, under the build's fixed clock, are the bytes the build wrote."""
    from generator.core.reproducible import fixed_clock
    project, files, _ = built
    with fixed_clock():
        made, _ = make_component_files(project, GAME, EDITION, [LOCALE], "eu-3mm", only_kind="tokens")[LOCALE]
    assert len(made) == len(_tokens(project))
    for artifact in made:
        assert artifact.data == files["eu-3mm"]["tokens", artifact.details["component"]].read_bytes()


# ---- preflight through the CLI -------------------------------------------------------------------------

def _preflight(profile: str, *paths, project: Path = ROOT) -> tuple[int, dict]:
    result = pnp("preflight", "--profile", profile, "--json", *map(str, paths), project=project)
    assert result.exit_code in (0, 1), result.output
    report = json.loads(result.output)
    return result.exit_code, {Path(f["path"]).name: {c["criterion"]: c["result"] for c in f["checks"]}
                              for f in report["files"]}


def test_preflight_passes_every_component_file(built):
    _, files, _ = built
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
    """Each damage done to a small file, the square token: the check that finds it fails."""
    _, files, _ = built
    token = files["eu-3mm"]["tokens", "supply"]
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
        path = _broken(token, tmp_path / "components" / f"tokens-{name}.pdf", edit)
        code, results = _preflight("eu-3mm", path)
        assert code == 1, name
        assert results[path.name][criterion] == "fail", (name, results[path.name])
    # the token's drawing moved 2 mm down: its name comes closer than 3 mm to the cut
    code, results = _preflight("eu-3mm", token)
    assert code == 0 and results[token.name]["safe-zone"] == "pass"

    def text_near_the_cut(pdf):
        pdf.pages[0].contents_add(pdf.make_stream(b"q 1 0 0 1 0 -5.67 cm"), prepend=True)
        pdf.pages[0].contents_add(pdf.make_stream(b"Q"), prepend=False)
    moved = _broken(token, tmp_path / "components" / "tokens-moved.pdf", text_near_the_cut)
    code, results = _preflight("eu-3mm", moved)
    assert code == 1 and results[moved.name]["safe-zone"] == "fail", results[moved.name]
    # and one too large for the sheet (the large-format file of the banner, 460 mm long)
    banner = files["large-format-3mm"]["pieces", "banner"]
    code, results = _preflight("eu-3mm", banner)
    assert code == 1 and results[banner.name]["pages"] == "fail"


def test_every_letter_of_a_disc_token_keeps_the_safe_zone_inside_its_round_cut(tmp_path):
    """A disc's long name goes where the round cut leaves it room: each token file passes the
    shop's checks and preflight, and every glyph lies the profile's safe zone inside the round
    cut, not only inside the square trim round it. (Every shipped game's discs in every locale:
    tests/games/pegs-and-jokers/.)"""
    safe = yaml.safe_load((ROOT / "templates" / "profiles" / "eu-3mm.yaml").read_text(encoding="utf-8"))[
        "components"]["safe_mm"]
    project = shop_ready_sample(tmp_path)
    tokens = project / "components" / GAME / "tokens.yaml"
    replace_in(tokens, "    shape: hex\n", "    shape: disc\n")
    replace_in(tokens, "    side_mm: 12\n", "    diameter_mm: 20\n")
    replace_in(tokens, "    name: Camp\n", "    name: Campfire\n")
    made, problems = make_component_files(project, GAME, EDITION, [LOCALE], "eu-3mm", only_kind="tokens")[LOCALE]
    assert not problems, problems
    (camp,) = [artifact for artifact in made if artifact.details.get("component") == "camp"]
    printed, outside = glyphs_outside_the_round_safe_zone(camp.data, safe)
    assert printed >= len("Campfire") and not outside, outside


def test_a_large_disc_runs_into_its_bleed_and_fails_preflight_without_it(tmp_path):
    """A round cut's bleed ring narrows towards where the circle meets the trim box, the more
    the larger the disc: a 60 mm token passes the bleed check, and fails it with its bleed gone."""
    project = shop_ready_sample(tmp_path)
    tokens = project / "components" / GAME / "tokens.yaml"
    replace_in(tokens, "    shape: hex\n", "    shape: disc\n")
    replace_in(tokens, "    side_mm: 12\n", "    diameter_mm: 60\n")
    made, problems = make_component_files(project, GAME, EDITION, [LOCALE], "eu-3mm", only_kind="tokens")[LOCALE]
    assert not problems, problems
    (token,) = [artifact for artifact in made if artifact.details.get("component") == "camp"]
    (tmp_path / "components").mkdir()
    path = tmp_path / "components" / "tokens-camp.pdf"
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

def _cards_by_deck(project: Path) -> dict[str, int]:
    counts: dict[str, int] = {}
    for card in component_data(project, GAME, "cards")["cards"].values():
        counts[card["deck"]] = counts.get(card["deck"], 0) + card.get("count", {}).get(EDITION, 0)
    return counts


def _villains_behind_the_heroes_back(tmp_path: Path, stock: str = "") -> Path:
    """The shop-ready sample with its villains printed with the heroes' back (and on `stock`)."""
    project = shop_ready_sample(tmp_path)
    replace_in(project / "components" / GAME / "cards.yaml", "    back: villain-back\n",
               "    back: hero-back\n" + (f"    stock: {stock}\n" if stock else ""))
    return project


def test_decks_that_share_their_backs_go_to_the_shop_as_one_product(tmp_path):
    """Two decks of one size with one back design (in the data: the same `back`) are one
    product, one file; a profile's max_cards splits a product into parts."""
    project = _villains_behind_the_heroes_back(tmp_path)
    decks = component_data(project, GAME, "cards")["decks"]
    shared = [deck for deck, data in decks.items() if data["back"] == "hero-back"]
    assert len(shared) == 2
    counts = _cards_by_deck(project)
    total = sum(counts[deck] for deck in shared)
    out = tmp_path / "out"
    result = pnp("build", "--profile", "drivethrucards", "--out", str(out), project=project)
    assert result.exit_code == 0, result.output
    (path,) = (out / GAME / EDITION / LOCALE / "shop" / "drivethrucards").glob("*.pdf")
    order = list(dict.fromkeys(c["deck"] for c in component_data(project, GAME, "cards")["cards"].values()))
    assert path.name == "+".join(d for d in order if d in shared) + ".pdf"
    with pikepdf.open(path) as pdf:
        assert len(pdf.pages) == 2 * total                 # back then front for every card
    entry = next(e for e in json.loads((out / "manifest.json").read_text())["files"] if e["path"].endswith(path.name))
    assert sorted(entry["decks"]) == sorted(shared) and entry["cards"] == total
    # a profile whose product holds at most 4 cards gets parts of 4, 4 and the rest, paired
    (project / "templates" / "profiles").mkdir(parents=True)
    profile = project / "templates" / "profiles" / "small-boxes.yaml"
    eu = (ROOT / "templates" / "profiles" / "eu-3mm.yaml").read_text(encoding="utf-8")
    profile.write_text(eu.split("\n# Boards, tokens")[0].replace("max_cards: 110", "max_cards: 4") + "\n",
                       encoding="utf-8")
    out = tmp_path / "parts"
    result = pnp("build", "--profile", "small-boxes", "--out", str(out), project=project)
    assert result.exit_code == 0, result.output
    folder = out / GAME / EDITION / LOCALE / "shop" / "small-boxes"
    name = "+".join(d for d in order if d in shared)
    parts = -(-total // 4)
    assert parts == 3
    assert sorted(p.name for p in folder.glob("*.pdf")) == sorted(
        f"{name}-{n}-{side}.pdf" for n in range(1, parts + 1) for side in ("fronts", "backs"))
    for n in range(1, parts + 1):
        for side in ("fronts", "backs"):
            with pikepdf.open(folder / f"{name}-{n}-{side}.pdf") as pdf:
                assert len(pdf.pages) == (4 if n < parts else total - 4 * (parts - 1))
    code, results = _preflight("small-boxes", folder, project=project)
    assert code == 0, results


def test_decks_on_different_stocks_are_different_products(tmp_path):
    """The same two decks, one of them printed on another stock (the deck's `stock`): two
    products, each file's manifest entry naming its stock."""
    project = _villains_behind_the_heroes_back(tmp_path, stock="linen-350")
    counts = _cards_by_deck(project)
    out = tmp_path / "out"
    result = pnp("build", "--profile", "drivethrucards", "--out", str(out), project=project)
    assert result.exit_code == 0, result.output
    folder = out / GAME / EDITION / LOCALE / "shop" / "drivethrucards"
    assert sorted(p.name for p in folder.glob("*.pdf")) == ["heroes.pdf", "villains.pdf"]
    entries = {Path(e["path"]).name: e for e in json.loads((out / "manifest.json").read_text())["files"]
               if "/shop/" in e["path"]}
    assert entries["villains.pdf"]["stock"] == "linen-350" and "stock" not in entries["heroes.pdf"]
    for deck in ("heroes", "villains"):
        assert entries[f"{deck}.pdf"]["cards"] == counts[deck]
        with pikepdf.open(folder / f"{deck}.pdf") as pdf:
            assert len(pdf.pages) == 2 * counts[deck]
    # a stock that is not a plain name is a located error of the data
    replace_in(project / "components" / GAME / "cards.yaml", "stock: linen-350", "stock: Linen 350!")
    result = pnp("validate", project=project)
    assert result.exit_code == 1 and f"components/{GAME}/cards.yaml:" in result.output \
        and "decks.villains.stock" in result.output, result.output


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
def test_a_profiles_components_section_is_checked_at_its_line(tmp_path, old, new, message):
    project = tmp_path / "project"
    (project / "templates" / "profiles").mkdir(parents=True)
    (project / "components").mkdir()
    path = project / "templates" / "profiles" / "large-format-3mm.yaml"
    shutil.copy(ROOT / "templates" / "profiles" / "large-format-3mm.yaml", path)
    replace_in(path, old, new)
    result = pnp("profiles", project=project)
    if message is None:
        assert result.exit_code == 0, result.output
        return
    assert result.exit_code != 0 and message in result.output, result.output
    assert "large-format-3mm.yaml:" in result.output
