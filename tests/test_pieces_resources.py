"""Every resource a PDF's content names is in the resources in scope (a form drawn when a piece
is tiled once lacked its transparency's ExtGState: readers painted the glue areas solid black),
checked by preflight on any file, over the sample game's home kit (every component kind, a piece
tiled with glue); glue labels fit their tabs; and every game's shop components, as the profiles
that take components get them, fit those shops in the game's longest locale."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy
import pikepdf
import pypdfium2 as pdfium
import pytest

from conftest import ROOT, line_of, pnp, replace_in
from generator.app.kinds import KINDS as COMPONENT_KINDS
from generator.app.loading import load_games
from generator.app.shop import profile_problems
from generator.i18n.catalogs import every_text
from generator.i18n.texts import Texts
from generator.layout.faces import Localised
from generator.layout.kit import Kit
from generator.load.profiles import load_profiles
from generator.load.project import Project


GAMES = {game.slug: game for game in load_games(Project(ROOT), texts=False)}
KINDS = "pieces,boards,tokens,dice,cards"


def _preflight(*paths: Path, profile: str = "eu-3mm") -> dict[str, dict[str, dict]]:
    """path -> criterion -> {result, detail}, from `pnp preflight --json`."""
    result = pnp("preflight", "--profile", profile, "--json", *map(str, paths))
    assert not result.traceback, result.traceback
    reports = json.loads(result.stdout)["files"]
    return {report["path"]: {check["criterion"]: check for check in report["checks"]} for report in reports}


def test_every_file_of_a_home_kit_names_only_resources_it_has(sample):
    """The sample game has every component kind and a piece tiled across pages with glue areas
    (art with transparency in a form: test_art_drawn_with_transparency_in_a_form_keeps_it)."""
    pdfs = sorted(sample.glob("*.pdf"))
    kinds = {kind for path in pdfs for kind in KINDS.split(",") if f"-{kind}-" in path.name}
    assert kinds == set(KINDS.split(",")), f"a file of every kind is checked, got {[p.name for p in pdfs]}"
    reports = _preflight(*pdfs)
    assert len(reports) == len(pdfs)
    for path, checks in reports.items():
        # the profile's other checks (bleed, CMYK) are for a shop's files, not a home kit's
        assert checks["resources"]["result"] == "pass", f"{path}: {checks['resources']['detail']}"
        assert checks["render"]["result"] == "pass", f"{path}: {checks['render']['detail']}"
        assert "all found" in checks["resources"]["detail"]


def _bad_pdf(path: Path) -> None:
    """A page that draws a form whose content sets a graphics state its own resources lack
    (the page's resources have it, which a form with resources of its own does not inherit)."""
    pdf = pikepdf.new()
    state = pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, ca=0.12)
    form = pikepdf.Stream(pdf, b"q /GS0 gs 0 g 10 10 80 80 re f Q")
    form.Type, form.Subtype = pikepdf.Name.XObject, pikepdf.Name.Form
    form.BBox = [0, 0, 100, 100]
    form.Resources = pikepdf.Dictionary(ProcSet=pikepdf.Array([pikepdf.Name.PDF]))
    page = pikepdf.Dictionary(
        Type=pikepdf.Name.Page, MediaBox=[0, 0, 200, 200],
        Contents=pdf.make_stream(b"q 1 0 0 1 50 50 cm /Glue Do Q"),
        Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(Glue=pdf.make_indirect(form)),
                                     ExtGState=pikepdf.Dictionary(GS0=state)))
    pdf.pages.append(pikepdf.Page(page))
    pdf.save(path)


def test_preflight_names_the_file_page_and_resource_a_form_lacks(tmp_path):
    bad = tmp_path / "glue-form.pdf"
    _bad_pdf(bad)
    result = pnp("preflight", "--profile", "eu-3mm", str(bad))
    assert result.exit_code == 1 and not result.traceback
    assert f"FAIL  {bad}" in result.stdout
    line = next(line for line in result.stdout.splitlines() if line.split()[:2] == ["fail", "resources"])
    assert "page 1 > XObject /Glue: gs names ExtGState /GS0, which is not in its resources" in line
    # the same file with the state in the form's own resources passes
    with pikepdf.open(bad, allow_overwriting_input=True) as pdf:
        form = pdf.pages[0].obj.Resources.XObject.Glue
        form.Resources.ExtGState = pdf.pages[0].obj.Resources.ExtGState
        pdf.save(bad)
    checks = _preflight(bad)[str(bad)]
    assert checks["resources"]["result"] == "pass", checks["resources"]["detail"]
    assert checks["render"]["result"] == "pass"


SAMPLE = Path(__file__).resolve().parent / "fixtures" / "sample"


def test_art_drawn_with_transparency_in_a_form_keeps_it(tmp_path):
    """Cards are drawn once as forms and placed; art at half opacity inside one prints at half
    opacity (the form carries its graphics state), and preflight finds every resource."""
    project = tmp_path / "project"
    shutil.copytree(SAMPLE, project)
    replace_in(project / "components" / "sample-game" / "art" / "sun.svg",
               '<circle cx="20" cy="20" r="12" fill="#F2A541"/>',
               '<circle cx="20" cy="20" r="12" fill="#F2A541" fill-opacity="0.5"/>')
    result = pnp("build", "--kind", "cards", "--paper", "a4", project=project)
    assert result.exit_code == 0, result.output + result.traceback
    sheet = project / "output" / "sample-game" / "standard" / "en" / "sample-game-standard-en-cards-a4.pdf"
    checks = _preflight(sheet)[str(sheet)]
    assert checks["resources"]["result"] == "pass", checks["resources"]["detail"]
    with pikepdf.open(sheet) as pdf:
        alphas = {float(state.get("/ca", 1)) for form in pdf.pages[0].obj.Resources.XObject.values()
                  for state in form.get("/Resources", {}).get("/ExtGState", {}).values()}
    assert 0.5 in alphas, "the form's own resources hold the half-opacity state"
    page = pdfium.PdfDocument(sheet)[0]
    pixels = numpy.asarray(page.render(scale=2).to_pil().convert("RGB")).astype(int)
    sun = numpy.array([0xF2, 0xA5, 0x41])
    knight = numpy.array([0x3A, 0x61, 0xC4])          # the knight's card (sample cards.yaml)
    half = (sun + knight) / 2
    assert (numpy.abs(pixels - half).max(axis=2) <= 6).sum() > 1000, "the sun shows the knight's blue through it"


def _longest_locale(game) -> str:
    """The released locale whose printed texts are longest in all (the hardest to fit)."""
    entries = [entry for entry in every_text(game) if isinstance(entry.source, str)]
    released = [locale for locale in game.locales if not game.is_draft(locale)]
    texts = {locale: Texts.load(game, locale) for locale in released}
    return max(released, key=lambda locale: (sum(len(texts[locale].get(e.key, e.source)) for e in entries), locale))


# The shops whose files are components only (boards, pieces): what the tool lays out near a
# component's cut, the glue labels among it, must stay in their safe zones there. A profile
# with cards and a booklet too (eu-3mm) costs a minute a game; test_shop_components.py builds
# it for two games, and `pnp validate --profile` checks every card's safe zone.
COMPONENT_PROFILES = sorted(profile.name for profile in load_profiles(Project(ROOT), ["all"])
                            if profile.components and not profile.cards and not profile.booklet)


PROFILE_KINDS = {kind for profile in load_profiles(Project(ROOT), COMPONENT_PROFILES)
                 for kind in profile.components.kinds}
# the games with components those shops print (the others make no file there)
SHOP_GAMES = sorted(slug for slug, game in GAMES.items() if PROFILE_KINDS & set(game.files))


def test_a_components_only_profile_takes_pieces_and_the_games_with_them_are_built():
    assert "pieces" in PROFILE_KINDS
    assert "diced-veggies" in SHOP_GAMES


@pytest.mark.parametrize("slug", SHOP_GAMES)
def test_every_games_shop_components_fit_in_its_longest_locale(slug):
    """What a shop build checks of the data before drawing (generator.app.shop.shop_component_files):
    each component of the kinds the components-only profiles take, that the shop prints, lays
    out its text (the glue labels) inside the shop's safe zone in the game's longest locale.
    Drawing and preflighting such files is checked by test_shop_components.py."""
    project, game = Project(ROOT), GAMES[slug]
    locale = _longest_locale(game)
    printed = []
    for edition, profile in ((e, p) for e in game.editions for p in load_profiles(project, COMPONENT_PROFILES)):
        kit = Kit(project, game, Localised(game, edition, Texts.load(game, locale)), "")
        for kind in COMPONENT_KINDS:
            if kind.name in profile.components.kinds:
                problems = profile_problems(kit, profile, (kind.name,))
                assert not problems, f"{slug} {edition} {locale} {profile.name}: {problems}"
                printed += [item for item in kind.shop(kit) if profile.components.fits(item.size_mm)]
    assert printed, f"{slug} {locale}: the shops print some of its components"


def test_a_glue_label_too_long_for_its_tab_is_a_located_fit_error(project):
    """At 6 pt, across or turned, on one line or two, a label that does not fit its glue area
    (inside the shop's safe zone, for a shop) stops the build: the error names the file and line
    of the glue area, the component, the field and the locale, and no file is written."""
    catalog = project / "components" / "diced-veggies" / "locales" / "cs.po"
    pieces = project / "components" / "diced-veggies" / "pieces.yaml"
    where = f"{pieces.relative_to(project)}:{line_of(pieces, '[448.5, 3.5, 11, 9]')}: pieces.frame.glue.0: " \
            "[diced-veggies standard cs] the glue label"
    # 8.6 mm at 6 pt: across the 10 mm the tab leaves at home, not the 8 mm inside a 3 mm safe zone
    replace_in(catalog, 'msgstr "sem přilepte"', 'msgstr "lepidlem"')
    home = pnp("build", "--game", "diced-veggies", "--locale", "cs", "--kind", "pieces", "--paper", "a4",
               project=project)
    assert home.exit_code == 0, home.output + home.traceback
    shop = pnp("build", "--game", "diced-veggies", "--locale", "cs", "--profile", "large-format-3mm", project=project)
    assert shop.exit_code == 1 and not shop.traceback, shop.output
    assert f"{where} 'lepidlem' does not fit its 8.0 x 8.0 mm room" in shop.output
    assert "and 3 mm inside the trim) at 6 pt or more" in shop.output
    assert not list((project / "output").rglob("shop/**/*.pdf"))
    # too long even at home
    replace_in(catalog, 'msgstr "lepidlem"', 'msgstr "naneste sem lepidlo"')
    home = pnp("build", "--game", "diced-veggies", "--locale", "cs", "--kind", "pieces", "--paper", "a4",
               project=project)
    assert home.exit_code == 1 and not home.traceback, home.output
    assert f"{where} 'naneste sem lepidlo' does not fit its 10.0 x 8.0 mm room" in home.output
