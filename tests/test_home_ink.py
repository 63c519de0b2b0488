"""`pnp build --ink saver`: the same card sheets on at most a third of the ink, measured on the
rendered pages; every drawn home file's lighter twin; the manifest's ink estimate of every file;
saver and normal files side by side; a saver build is never taken for a normal one by the
incremental build. On the sample game (tests/fixtures/sample), which has every component kind."""
from __future__ import annotations

import json
from pathlib import Path

import numpy
import pikepdf
import pypdfium2 as pdfium
import pytest

from conftest import SAMPLE, copy_of_build, first_sample_build, page_drawing, pnp

GAME = "sample-game"
KIT = f"{GAME}-standard-en"
# The kinds whose home files are drawn in the data's colours, as their files are named: each
# has a saver twin.
DRAWN = ("cards", "boards", "tokens", "dice", "pieces", "tuckbox")


def build(project: Path, out: Path, *args: str):
    result = pnp("build", "--paper", "a4", "--out", str(out), *args, project=project)
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


def rendered(result) -> int:
    """How many files the build's summary line says it rendered."""
    line = result.output.strip().splitlines()[-1]
    return 0 if "nothing changed" in line else int(line.split(": ")[-1].split(" rendered")[0])


class Built:
    """A copy of the sample built normally, then with --ink saver into the same output folder."""

    def __init__(self, tmp_path_factory):
        self.project, self.out = first_sample_build(tmp_path_factory, "--paper", "a4")
        self.saver = build(self.project, self.out, "--ink", "saver")
        self.folder = self.out / GAME / "standard" / "en"

    def file(self, kind: str, ink: str = "normal") -> Path:
        return self.folder / (f"{KIT}-{kind}-a4.pdf" if ink == "normal" else f"{KIT}-{kind}-{ink}-a4.pdf")


@pytest.fixture(scope="module")
def both(tmp_path_factory) -> Built:
    return Built(tmp_path_factory)


def test_saver_cards_use_at_most_a_third_of_the_ink(both):
    normal_ink, saver_ink = coverage(both.file("cards")), coverage(both.file("cards", "saver"))
    assert normal_ink > 30, "the normal sheets are the heavy ones this is about"
    assert saver_ink <= normal_ink / 3, (normal_ink, saver_ink)


def test_saver_cards_keep_the_layout_and_the_text(both):
    normal, saver = both.file("cards"), both.file("cards", "saver")
    assert text_of(saver) == text_of(normal)
    with pikepdf.open(normal) as a, pikepdf.open(saver) as b:
        assert len(a.pages) == len(b.pages)
        for page_a, page_b in zip(a.pages, b.pages):
            drawn_a, drawn_b = page_drawing(page_a), page_drawing(page_b)
            assert drawn_a["forms"] == drawn_b["forms"]
            assert drawn_a["lines"] == drawn_b["lines"]


def test_both_variants_coexist_and_the_manifest_gives_each_files_ink(both):
    out, normal, saver = both.out, both.file("cards"), both.file("cards", "saver")
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
    drawn files again (into files of their own); the same saver build again has nothing to do."""
    assert "nothing changed" not in both.saver.output and rendered(both.saver) >= len(DRAWN), both.saver.output
    project, out = copy_of_build((both.project, both.out), tmp_path)
    again = build(project, out, "--ink", "saver")
    assert "nothing changed" in again.output, again.output


def test_the_saver_variant_is_reproducible(both, tmp_path):
    saver = both.file("cards", "saver")
    build(SAMPLE, tmp_path, "--ink", "saver", "--no-cache", "--kind", "cards")
    assert (tmp_path / GAME / "standard" / "en" / saver.name).read_bytes() == saver.read_bytes()


def test_ink_is_a_home_option(tmp_path):
    result = pnp("build", "--profile", "eu-3mm", "--ink", "saver", "--out", str(tmp_path), project=SAMPLE)
    assert result.exit_code != 0 and "--ink" in result.output


def test_every_drawn_home_file_has_a_lighter_saver_twin(both):
    """Every kind drawn in the data's colours, not only cards: a saver build writes its own
    …-saver file of each, on less ink than the normal one (measured here); files drawn in line
    (the calibration sheet), the booklet and the contact sheets keep one name."""
    twins = sorted(path.name for path in both.folder.iterdir() if "-saver-" in path.name)
    assert twins == sorted(both.file(kind, "saver").name for kind in DRAWN)
    for kind in DRAWN:
        assert coverage(both.file(kind, "saver")) < coverage(both.file(kind)) * 0.6, kind
