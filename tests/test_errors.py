"""Bad input of every kind is a message with its place and exit 1, never a traceback."""
from __future__ import annotations

import json
import shutil

from conftest import ROOT, SAMPLE, TRANSLATED_LOCALE, line_of, pnp, replace_in, translated_sample

SAMPLE_GAME = "sample-game"


def sample_copy(tmp_path):
    project = tmp_path / "sample"
    shutil.copytree(SAMPLE, project)
    return project


def failed_cleanly(result) -> str:
    assert result.exit_code == 1, result.output + result.traceback
    assert not result.traceback and "Traceback" not in result.output
    return result.stderr


def test_a_list_used_as_a_key(tmp_path):
    project = sample_copy(tmp_path)
    (project / "components" / SAMPLE_GAME / "tokens.yaml").write_text("? [a, b]\n: 1\n", encoding="utf-8")
    err = failed_cleanly(pnp("validate", SAMPLE_GAME, project=project))
    assert f"components/{SAMPLE_GAME}/tokens.yaml:1: YAML syntax error: a list or mapping cannot be a key" in err


def test_an_unknown_placeholder_on_a_board(tmp_path):
    project = sample_copy(tmp_path)
    boards = project / "components" / SAMPLE_GAME / "boards.yaml"
    replace_in(boards, "note: out,", 'note: "out {nope}",')
    err = failed_cleanly(pnp("validate", SAMPLE_GAME, project=project))
    line = line_of(boards, 'note: "out {nope}"')
    where = f"components/{SAMPLE_GAME}/boards.yaml:{line}: design.shapes.ring.marks.way_out.note"
    assert f"{where}: unknown placeholder 'nope' (edition standard)\n" in err, err


def test_a_catalog_that_is_not_utf8(tmp_path):
    project = translated_sample(tmp_path)
    po = project / "components" / SAMPLE_GAME / "locales" / f"{TRANSLATED_LOCALE}.po"
    data = po.read_bytes()
    po.write_bytes(data + b"\xff\xfe\n")
    err = failed_cleanly(pnp("validate", SAMPLE_GAME, project=project))
    line = data.count(b"\n") + 1
    assert f"components/{SAMPLE_GAME}/locales/{TRANSLATED_LOCALE}.po:{line}: byte 0xff is not valid utf-8" in err


def test_a_word_the_booklet_layout_prints_is_missing(tmp_path):
    project = sample_copy(tmp_path)
    booklet = project / "components" / SAMPLE_GAME / "booklet.yaml"
    replace_in(booklet, "  contents: Contents\n", "")
    err = failed_cleanly(pnp("validate", SAMPLE_GAME, project=project))
    line = line_of(booklet, "ui:")                      # the mapping the word is missing from
    assert err.splitlines() == [f"components/{SAMPLE_GAME}/booklet.yaml:{line}: booklet.ui.contents: the booklet layout "
                                "prints this word; add it", "1 problem(s) found."]


def test_a_recording_that_cannot_be_written(tmp_path):
    (tmp_path / "file").write_text("x", encoding="utf-8")
    scenario = SAMPLE / "components" / SAMPLE_GAME / "scenarios" / "rule-raid.yaml"
    result = pnp("play", SAMPLE_GAME, str(scenario), "--record", str(tmp_path / "file" / "x.yaml"), project=SAMPLE)
    assert "error:" in failed_cleanly(result)


def test_a_foreign_manifest_is_replaced(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "manifest.json").write_text("[1, 2]", encoding="utf-8")
    result = pnp("build", "--paper", "a4", "--kind", "tokens", "--out", str(out), project=sample_copy(tmp_path))
    assert result.exit_code == 0, result.output + result.traceback
    assert json.loads((out / "manifest.json").read_text(encoding="utf-8"))["files"]


def test_a_project_with_its_own_templates_keeps_the_tools_translations(tmp_path):
    """A designer's templates/ overriding only the booklet CSS still gets a translated
    calibration sheet, and `i18n extract` leaves the tool's catalogs alone."""
    import pypdfium2 as pdfium
    from babel.messages.pofile import read_po
    project = translated_sample(tmp_path)
    (project / "templates" / "booklet").mkdir(parents=True)
    shutil.copy(ROOT / "templates" / "booklet" / "booklet.css", project / "templates" / "booklet" / "booklet.css")
    tool_catalogs = {p: p.read_bytes() for p in (ROOT / "templates" / "locales").iterdir() if p.is_file()}
    assert pnp("i18n", "extract", project=project).exit_code == 0
    assert {p: p.read_bytes() for p in (ROOT / "templates" / "locales").iterdir() if p.is_file()} == tool_catalogs
    assert not (project / "templates" / "locales").exists()
    result = pnp("build", "--game", SAMPLE_GAME, "--locale", TRANSLATED_LOCALE, "--paper", "a4", "--kind", "cards",
                 project=project)                                   # the calibration sheet comes with the cards
    assert result.exit_code == 0, result.output + result.traceback
    with (ROOT / "templates" / "locales" / f"{TRANSLATED_LOCALE}.po").open("rb") as handle:
        title = read_po(handle, locale=TRANSLATED_LOCALE).get("Duplex calibration", context="sheets.calibration.text.title")
    assert title.string and title.string != title.id
    pdf = pdfium.PdfDocument(project / "output" / SAMPLE_GAME / "standard" / TRANSLATED_LOCALE /
                             f"{SAMPLE_GAME}-standard-{TRANSLATED_LOCALE}-calibration-a4.pdf")
    assert title.string in pdf[0].get_textpage().get_text_range()
