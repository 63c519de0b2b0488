"""Every resource a PDF's content names is in the resources in scope (a form drawn when a piece
is tiled once lacked its transparency's ExtGState: readers painted the glue areas solid black),
checked by preflight on any file, over the sample game's home kit (every component kind, a piece
tiled with glue); and a glue label that does not fit its tab stops the build."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy
import pikepdf
import pypdfium2 as pdfium

from conftest import TRANSLATED_LOCALE, line_of, pnp, replace_in, translated_sample

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


def test_a_glue_label_too_long_for_its_tab_is_a_located_fit_error(tmp_path):
    """At 6 pt, across or turned, on one line or two, a label that does not fit its glue area
    (inside the shop's safe zone, for a shop) stops the build: the error names the file and line
    of the glue area, the component, the field and the locale, and no file is written. The
    translated sample's tray gets a glue tab 0.5 mm from its trim, and its boards and pieces
    run into the bleed so that the shop takes them."""
    project = translated_sample(tmp_path)
    game = project / "components" / "sample-game"
    catalog, pieces = game / "locales" / f"{TRANSLATED_LOCALE}.po", game / "pieces.yaml"
    replace_in(pieces, "glue: [[22, 2, 236, 8]]", "glue: [[22, 2, 236, 8], [268.5, 23.5, 11, 9]]")
    for face in ('[0, 0, 280, 200], fill: "{colour}"', '[0, 0, 30, 90], fill: "{colour}"',
                 '[0, 0, 260, 240], fill: "#FAF7F0"', '[0, 0, 180, 180], fill: "#FAF7F0"'):
        replace_in(game / "layouts.yaml", f"box: {face}}}", f"box: {face}, bleed: true}}")
    where = f"{pieces.relative_to(project)}:{line_of(pieces, '[268.5, 23.5, 11, 9]')}: pieces.tray.glue.1: " \
            f"[sample-game standard {TRANSLATED_LOCALE}] the glue label"
    # 8.6 mm at 6 pt: across the 10 mm the tab leaves at home, not the 8 mm inside a 3 mm safe zone
    replace_in(catalog, 'msgctxt "labels.glue"\nmsgid "glue"\nmsgstr "glue"',
               'msgctxt "labels.glue"\nmsgid "glue"\nmsgstr "lepidlem"')
    home = pnp("build", "--locale", TRANSLATED_LOCALE, "--kind", "pieces", "--paper", "a4", project=project)
    assert home.exit_code == 0, home.output + home.traceback
    shop = pnp("build", "--locale", TRANSLATED_LOCALE, "--profile", "large-format-3mm", project=project)
    assert shop.exit_code == 1 and not shop.traceback, shop.output
    assert f"{where} 'lepidlem' does not fit its 8.0 x 8.0 mm room" in shop.output
    assert "and 3 mm inside the trim) at 6 pt or more" in shop.output
    assert "1 problem(s) found." in shop.output, shop.output      # the label alone stops it
    assert not list((project / "output").rglob("shop/**/*.pdf"))
    # too long even at home
    replace_in(catalog, 'msgstr "lepidlem"', 'msgstr "naneste sem lepidlo"')
    home = pnp("build", "--locale", TRANSLATED_LOCALE, "--kind", "pieces", "--paper", "a4", project=project)
    assert home.exit_code == 1 and not home.traceback, home.output
    assert f"{where} 'naneste sem lepidlo' does not fit its 10.0 x 8.0 mm room" in home.output
