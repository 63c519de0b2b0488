"""The same input gives the same bytes whatever the clock, the caller's SOURCE_DATE_EPOCH and the
machine's font subsetting library say."""
from __future__ import annotations

import io
import logging
import os
import time

import pikepdf
import pytest
import weasyprint.pdf.fonts
from fontTools.ttLib import TTFont

from conftest import SAMPLE, pnp
from generator.core.fonts import FONT_DIR


# The sample game, every kind of file, its booklet embedding subset fonts.
SELECTION = ("--paper", "a4")
A_YEAR = 366 * 24 * 3600


def _build(out):
    # One process: the subsetter's log, and the patch choosing it, are this process's. Each
    # build keeps its cache in its own folder, so the second renders every file again.
    result = pnp("build", *SELECTION, "--out", str(out), "--jobs", "1", project=SAMPLE)
    assert result.exit_code == 0, result.output + result.traceback
    files = {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()
             and ".cache" not in p.relative_to(out).parts}
    assert any(name.name.endswith("rules.pdf") for name in files)
    return files


def _embedded_font_dates(pdf_bytes: bytes) -> set[int]:
    dates = set()
    with pikepdf.open(io.BytesIO(pdf_bytes)) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/FontDescriptor" and "/FontFile2" in obj:
                dates.add(TTFont(io.BytesIO(obj.FontFile2.read_bytes()))["head"].modified)
    return dates


@pytest.fixture
def weasyprint_without_harfbuzz_subset(monkeypatch, caplog):
    """WeasyPrint as on a machine without libharfbuzz-subset, where it would fall back to
    fontTools and date each subset font by the clock: the tool's own subsetter must not care."""
    monkeypatch.setattr(weasyprint.pdf.fonts, "harfbuzz_subset", None)
    caplog.set_level(logging.WARNING, logger="weasyprint")
    # Subsets are shared within a process: start without any, so these builds make them.
    from generator.render import subset
    subset.clear()


def _booklet(files: dict) -> bytes:
    return next(data for name, data in files.items() if name.name.endswith("rules.pdf"))


def _shipped_font_dates() -> set[int]:
    return {TTFont(path)["head"].modified for path in FONT_DIR.glob("*.ttf")}


def test_builds_are_identical_with_the_clock_moved(weasyprint_without_harfbuzz_subset, tmp_path, monkeypatch,
                                                   caplog):
    """Two builds a year apart, the second with the caller's SOURCE_DATE_EPOCH set to its clock:
    the same bytes; the booklet's fonts subset by the tool's HarfBuzz (never WeasyPrint's fontTools
    fallback), each keeping its shipped font's date rather than the clock's."""
    first = _build(tmp_path / "now")
    real_time = time.time
    monkeypatch.setattr(time, "time", lambda: real_time() + A_YEAR)
    callers_epoch = str(int(real_time()) + A_YEAR)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", callers_epoch)
    second = _build(tmp_path / "next-year")
    assert first.keys() == second.keys()
    assert [name for name in first if first[name] != second[name]] == []
    assert not any("fontTools" in record.getMessage() for record in caplog.records)
    assert os.environ["SOURCE_DATE_EPOCH"] == callers_epoch        # the caller's value is back
    for files in (first, second):
        dates = _embedded_font_dates(_booklet(files))
        assert dates, "the booklet embeds no TrueType font"
        assert dates <= _shipped_font_dates()
