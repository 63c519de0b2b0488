"""`pnp serve` through a real HTTP client: the preview page, its files, reloading after a
save, a data error on the page while the last good build stays."""
from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import SAMPLE, replace_in

SCRIPT = Path(sys.executable).with_name("pnp")
WAIT = 180


def get(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.headers["Content-Type"], response.read()


def status(base: str) -> dict:
    return json.loads(get(base + "status")[2])


def wait_for(base: str, test, what: str) -> dict:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        now = status(base)
        if test(now):
            return now
        time.sleep(0.2)
    pytest.fail(f"the server never reported {what}: {status(base)}")


@pytest.fixture
def server(tmp_path):
    project = tmp_path / "sample"
    shutil.copytree(SAMPLE, project)
    out = tmp_path / "out"
    process = subprocess.Popen([str(SCRIPT), "-C", str(project), "serve", "--port", "0", "--out", str(out)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, line
        yield project, out, f"http://127.0.0.1:{found.group(1)}/"
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
        process.stdout.close()


def images(page: str) -> list[str]:
    return re.findall(r'<img src="([^"]+)"', page)


def test_serve_shows_the_build_and_reloads_after_a_save(server):
    project, out, base = server
    first = wait_for(base, lambda s: s["generation"] >= 1 and s["ok"], "a first build")
    code, kind, body = get(base)
    page = body.decode("utf-8")
    assert code == 200 and kind.startswith("text/html")
    sheets = [src for src in images(page) if src.startswith("/files/") and "preview-" in src]
    pages = [src for src in images(page) if src.startswith("/pages/")]
    assert sheets and pages, page
    sheet_before = get(base + sheets[0].lstrip("/"))
    assert sheet_before[1] == "image/png" and sheet_before[2].startswith(b"\x89PNG")
    booklet_page = get(base + pages[0].lstrip("/"))
    assert booklet_page[2].startswith(b"\x89PNG")
    # Nothing but the build's files is served.
    with pytest.raises(urllib.error.HTTPError):
        get(base + "files/../../sample/components/sample-game/cards.yaml")

    # A saved change: the page's status moves on, its pictures are the new build's.
    cards = project / "components" / "sample-game" / "cards.yaml"
    name = cards.read_text(encoding="utf-8").split("name: ", 1)[1].split("\n", 1)[0]
    replace_in(cards, f"name: {name}", f"name: {name} Changed")
    changed = wait_for(base, lambda s: s["generation"] > first["generation"], "a rebuild")
    assert changed["ok"] and changed["rendered"], changed
    after = images(get(base)[2].decode("utf-8"))
    new_sheets = [src for src in after if src.startswith("/files/") and "preview-" in src]
    assert set(new_sheets) != set(sheets)
    assert any(get(base + src.lstrip("/"))[2] != sheet_before[2] for src in new_sheets)

    # Broken data: the error is on the page, and the last good files are still served.
    good = get(base + new_sheets[0].lstrip("/"))[2]
    cards.write_text(cards.read_text(encoding="utf-8") + "\n  broken: [\n", encoding="utf-8")
    broken = wait_for(base, lambda s: not s["ok"], "the error")
    assert any("cards.yaml" in problem for problem in broken["problems"]), broken
    page = get(base)[2].decode("utf-8")
    assert 'id="problems"' in page and "cards.yaml" in page
    assert get(base + new_sheets[0].lstrip("/"))[2] == good
