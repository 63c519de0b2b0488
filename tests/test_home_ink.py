"""`pnp build --ink saver`: the same card sheets on at most a third of the ink, measured on the
rendered pages; the manifest's ink estimate of every file; saver and normal files side by side;
a saver build is never taken for a normal one by the incremental build."""
from __future__ import annotations

import json
from pathlib import Path

import numpy
import pypdfium2 as pdfium
import pytest

from conftest import pnp

GAME = "the-game"


def build(out: Path, *args: str):
    result = pnp("build", "--game", GAME, "--edition", "standard", "--locale", "en", "--paper", "a4",
                 "--out", str(out), *args)
    assert result.exit_code == 0, result.output + result.traceback
    return result


def coverage(path: Path, dpi: int = 50) -> float:
    """Mean C+M+Y+K per page (percent) by the naive formula, measured here independently of
    the generator's estimate (another resolution)."""
    document = pdfium.PdfDocument(str(path))
    try:
        pages = []
        for page in document:
            rgb = numpy.asarray(page.render(scale=dpi / 72, rev_byteorder=True).to_numpy(), dtype=float)[..., :3] / 255
            k = 1 - rgb.max(axis=-1)
            cmy = (1 - rgb - k[..., None]) / numpy.where(k < 1, 1 - k, 1)[..., None]
            pages.append((cmy.sum(axis=-1) + k).mean() * 100)
        return sum(pages) / len(pages)
    finally:
        document.close()


def text_of(path: Path) -> list[str]:
    document = pdfium.PdfDocument(str(path))
    try:
        return [page.get_textpage().get_text_range() for page in document]
    finally:
        document.close()


def entries(out: Path) -> dict[str, dict]:
    return {e["path"]: e for e in json.loads((out / "manifest.json").read_text(encoding="utf-8"))["files"]}


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    """One output folder built normally, then with --ink saver."""
    out = tmp_path_factory.mktemp("ink")
    build(out)
    saver = build(out, "--ink", "saver")
    folder = out / GAME / "standard" / "en"
    return out, folder / f"{GAME}-standard-en-cards-a4.pdf", folder / f"{GAME}-standard-en-cards-saver-a4.pdf", saver


def test_saver_cards_use_at_most_a_third_of_the_ink(both):
    _, normal, saver, _ = both
    normal_ink, saver_ink = coverage(normal), coverage(saver)
    assert normal_ink > 30, "the normal sheets are the heavy ones this is about"
    assert saver_ink <= normal_ink / 3, (normal_ink, saver_ink)


def test_saver_cards_keep_the_layout_and_the_text(both):
    _, normal, saver, _ = both
    assert text_of(saver) == text_of(normal)
    import pikepdf

    from conftest import page_drawing
    with pikepdf.open(normal) as a, pikepdf.open(saver) as b:
        assert len(a.pages) == len(b.pages)
        for page_a, page_b in zip(a.pages, b.pages):
            drawn_a, drawn_b = page_drawing(page_a), page_drawing(page_b)
            assert drawn_a["forms"] == drawn_b["forms"]
            assert drawn_a["lines"] == drawn_b["lines"]


def test_both_variants_coexist_and_the_manifest_gives_each_files_ink(both):
    out, normal, saver, _ = both
    assert normal.exists() and saver.exists()
    listed = entries(out)
    rel = lambda p: p.relative_to(out).as_posix()
    assert listed[rel(normal)]["ink"] == "normal" and listed[rel(saver)]["ink"] == "saver"
    for path, entry in listed.items():
        if path.endswith((".pdf", ".png")):
            assert isinstance(entry["ink_coverage_percent"], float), path
            assert 0 <= entry["ink_coverage_percent"] <= 400
    # the estimate is the file's: within 30 % of a finer measurement here (at 20 dpi thin dark
    # lines and small text blur wider than they are, so a light page reads a little heavy)
    for path in (normal, saver):
        assert listed[rel(path)]["ink_coverage_percent"] == pytest.approx(coverage(path), rel=0.3, abs=1)
    assert listed[rel(saver)]["ink_coverage_percent"] <= listed[rel(normal)]["ink_coverage_percent"] / 3


def test_a_saver_build_is_not_taken_for_a_normal_one(both, tmp_path):
    """The incremental build keys on --ink: after a normal build, a saver build renders the
    card sheets again (into their own file); the same saver build again has nothing to do."""
    _, _, _, saver = both
    assert "nothing changed" not in saver.output
    out = tmp_path / "again"              # the card sheets only: the files the --ink key is about
    build(out, "--kind", "cards")
    first = build(out, "--ink", "saver", "--kind", "cards")
    assert "nothing changed" not in first.output and "rendered" in first.output
    assert (out / GAME / "standard" / "en" / f"{GAME}-standard-en-cards-saver-a4.pdf").exists()
    again = build(out, "--ink", "saver", "--kind", "cards")
    assert "nothing changed" in again.output


def test_the_saver_variant_is_reproducible(both, tmp_path):
    _, _, saver, _ = both
    build(tmp_path, "--ink", "saver", "--no-cache", "--kind", "cards")
    assert (tmp_path / GAME / "standard" / "en" / saver.name).read_bytes() == saver.read_bytes()


def test_ink_is_a_home_option(tmp_path):
    result = pnp("build", "--game", GAME, "--profile", "eu-3mm", "--ink", "saver", "--out", str(tmp_path))
    assert result.exit_code != 0 and "--ink" in result.output


def test_every_drawn_home_file_has_a_lighter_saver_twin(tmp_path):
    """Boards and tokens as well as cards: a saver build writes its own …-saver file of each,
    on less ink than the normal one (measured here); files drawn in line only keep one name."""
    game = "race-to-the-table"
    for ink in ("normal", "saver"):
        result = pnp("build", "--game", game, "--edition", "free", "--locale", "bg", "--paper", "a4",
                     "--out", str(tmp_path), "--ink", ink)
        assert result.exit_code == 0, result.output + result.traceback
    folder = tmp_path / game / "free" / "bg"
    for kind in ("cards", "boards", "tokens"):
        normal = folder / f"{game}-free-bg-{kind}-a4.pdf"
        saver = folder / f"{game}-free-bg-{kind}-saver-a4.pdf"
        assert coverage(saver) < coverage(normal) * 0.6, kind
    assert not (folder / f"{game}-free-bg-calibration-saver-a4.pdf").exists()
