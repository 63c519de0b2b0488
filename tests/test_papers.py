"""Home papers are data: a paper added to templates/sheets/papers.yaml is built like A4."""
from __future__ import annotations

import shutil

import pikepdf

from conftest import MM, ROOT, SAMPLE, pnp

GAME = "sample-game"


def test_a_paper_added_as_data_is_built(tmp_path):
    project = tmp_path / "sample"
    shutil.copytree(SAMPLE, project)
    papers = project / "templates" / "sheets" / "papers.yaml"
    papers.parent.mkdir(parents=True)
    papers.write_text((ROOT / "templates" / "sheets" / "papers.yaml").read_text(encoding="utf-8")
                      + "  a3: {name: A3, size_mm: [297, 420]}\n", encoding="utf-8")
    out = tmp_path / "out"
    result = pnp("build", "--paper", "a3", "--out", str(out), project=project)
    assert result.exit_code == 0, result.output + result.traceback
    with pikepdf.open(out / GAME / "standard" / "en" / f"{GAME}-standard-en-cards-a3.pdf") as pdf:
        x0, y0, x1, y1 = (float(v) for v in pdf.pages[0].mediabox)
        assert (round((x1 - x0) / MM), round((y1 - y0) / MM)) == (297, 420)


def test_an_unknown_paper_is_a_usage_error(tmp_path):
    result = pnp("build", "--paper", "a3", "--out", str(tmp_path), project=SAMPLE)
    assert result.exit_code == 2
    assert "no paper 'a3' (papers: a4, letter, or all)" in result.stderr
    assert not any(tmp_path.iterdir())
