"""The same input gives the same bytes whichever font subsetter WeasyPrint uses, whatever the
clock and the caller's SOURCE_DATE_EPOCH say."""
from __future__ import annotations

import io
import logging
import os
import time

import pikepdf
import pytest
import weasyprint.pdf.fonts
import weasyprint.text.ffi
from fontTools.misc.timeTools import timestampSinceEpoch
from fontTools.ttLib import TTFont

from conftest import SAMPLE, pnp
from generator.core.reproducible import BUILD_DATE


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


@pytest.fixture(params=["fonttools", "harfbuzz"])
def subsetter(request, monkeypatch, caplog):
    if request.param == "fonttools":
        # What a machine without libharfbuzz-subset has: WeasyPrint falls back to fontTools.
        monkeypatch.setattr(weasyprint.pdf.fonts, "harfbuzz_subset", None)
    elif weasyprint.text.ffi.harfbuzz_subset is None:
        pytest.skip("libharfbuzz-subset0 is not installed here; the fontTools path is tested alone")
    caplog.set_level(logging.WARNING, logger="weasyprint")
    # Subsets are shared within a process: start without any, so this subsetter makes them.
    from generator.render import subset
    subset.clear()
    return request.param


def _booklet(files: dict) -> bytes:
    return next(data for name, data in files.items() if name.name.endswith("rules.pdf"))


def test_builds_are_identical_with_the_clock_moved(subsetter, tmp_path, monkeypatch, caplog):
    """Two builds a year apart, the second with the caller's SOURCE_DATE_EPOCH set to its clock:
    the same bytes, the subset fonts of both dated BUILD_DATE (fontTools) rather than the clock."""
    first = _build(tmp_path / "now")
    real_time = time.time
    monkeypatch.setattr(time, "time", lambda: real_time() + A_YEAR)
    callers_epoch = str(int(real_time()) + A_YEAR)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", callers_epoch)
    second = _build(tmp_path / "next-year")
    assert first.keys() == second.keys()
    assert [name for name in first if first[name] != second[name]] == []
    used_fonttools = any("Using fontTools" in record.getMessage() for record in caplog.records)
    assert used_fonttools == (subsetter == "fonttools")
    assert os.environ["SOURCE_DATE_EPOCH"] == callers_epoch        # the caller's value is back
    for files in (first, second):
        dates = _embedded_font_dates(_booklet(files))
        assert dates, "the booklet embeds no TrueType font"
        if subsetter == "fonttools":
            assert dates == {timestampSinceEpoch(BUILD_DATE.timestamp())}
