"""`make bench`'s cold-build line counts the pages the build made as its summary line does."""
import re
import shutil

from generator.app.benchmarks.kits import pages_built

from conftest import SAMPLE, pnp


def test_pages_built_are_the_pages_the_build_says_it_made(tmp_path):
    project = tmp_path / "sample"
    shutil.copytree(SAMPLE, project)
    out = tmp_path / "out"
    result = pnp("build", "--out", str(out), "--paper", "a4", project=project)
    assert result.exit_code == 0, result.output + result.traceback
    said = int(re.search(r"built \d+ files \((\d+) pages\)", result.stdout).group(1))
    assert said > 1
    assert pages_built(out) == said
