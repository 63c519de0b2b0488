"""`pnp serve` through a real HTTP client: the preview page, its files, reloading after a
save, a data error on the page while the last good build stays."""
from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from urllib.parse import quote
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


def images(page: str) -> list[str]:
    return re.findall(r'<img src="([^"]+)"', page)


@pytest.fixture
def server(tmp_path):
    """A server on a copy of the sample project: (project, its process, its port). The test
    stops it; a test that failed first leaves it to be stopped here."""
    project = tmp_path / "sample"
    shutil.copytree(SAMPLE, project)
    process, port = start(project, tmp_path / "out")
    try:
        yield project, process, port
    finally:
        if process.returncode is None:
            stop(process)


def test_serve_shows_the_build_and_reloads_after_a_save_and_stops_on_ctrl_c(server):
    project, process, port = server
    base = f"http://127.0.0.1:{port}/"
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

    # Once built, Ctrl-C stops it and everything it started.
    assert_stopped(process, port, *stop(process, "SIGINT"))


# ---- what the server answers, and to whom ---------------------------------------------------

SECRET = "a file beside the project"


def _interruptible() -> None:
    """Ctrl-C as a terminal's process gets it: a suite run where SIGINT is ignored (a job started
    in the background by a shell without job control) would hand that on to the server."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(project: Path, out: Path) -> tuple[subprocess.Popen, int]:
    """`pnp serve` in a session of its own (as a terminal runs it): the process and its port."""
    process = subprocess.Popen([str(SCRIPT), "-C", str(project), "serve", "--game", "sample-game", "--locale", "en",
                                "--port", "0", "--out", str(out)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
                               preexec_fn=_interruptible)
    line = process.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not found:
        process.kill()
        pytest.fail(line + process.stdout.read())
    return process, int(found.group(1))


def stop(process: subprocess.Popen, how: str = "SIGINT") -> tuple[str, list[int]]:
    """Stop it as a terminal's Ctrl-C does (SIGINT to every process of the session) or as a
    service manager does (SIGTERM to the process): what it printed, and the processes of its
    session that were still running once it had exited (killed then, so the test ends)."""
    if how == "SIGINT":
        os.killpg(process.pid, signal.SIGINT)
    else:
        process.send_signal(signal.SIGTERM)
    try:
        process.wait(60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    left = processes_of_session(process.pid)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    printed = process.stdout.read()
    process.stdout.close()
    return printed, left


def request(port: int, path: str, host: str | None = None) -> tuple[int, bytes]:
    """GET `path` exactly as written, with this Host header (default: the server's own)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.putrequest("GET", path, skip_host=True)
        connection.putheader("Host", f"127.0.0.1:{port}" if host is None else host)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    """A server on a project whose data does not build, so output/ stays as planted: a
    manifest listing one good file and files beside the project, reached by `..`, an absolute
    path, a linked file and a linked folder. Its port and the secret's path; one server answers
    every request test of the module, as nothing they ask changes it."""
    tmp_path = tmp_path_factory.mktemp("planted")
    project = tmp_path / "sample"
    shutil.copytree(SAMPLE, project)
    cards = project / "components" / "sample-game" / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8") + "\n  broken: [\n", encoding="utf-8")
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET, encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "secret.png").write_text(SECRET, encoding="utf-8")
    out = tmp_path / "out"
    (out / "kit").mkdir(parents=True)
    (out / "kit" / "good.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"a file of the build")
    (out / "kit" / "linked.png").symlink_to(secret)
    (out / "linked").symlink_to(elsewhere, target_is_directory=True)
    paths = ["kit/good.png", "../secret.txt", "kit/../../secret.txt", str(secret), "kit/linked.png",
             "linked/secret.png"]
    entry = {"game": "sample-game", "edition": "standard", "locale": "en", "kind": "preview", "paper": "",
             "pages": 1, "bytes": 1, "sha256": "0" * 64}
    (out / "manifest.json").write_text(json.dumps({"files": [dict(entry, path=path) for path in paths]}),
                                       encoding="utf-8")
    process, port = start(project, out)
    try:
        wait_for(f"http://127.0.0.1:{port}/", lambda s: s["generation"] >= 1, "its first build")
        yield port, secret
    finally:
        # Once built (the build failing keeps the planted files), SIGTERM stops it and everything it started.
        assert_stopped(process, port, *stop(process, "SIGTERM"))


@pytest.mark.parametrize("path", ["/files/../secret.txt", "/files/..%2fsecret.txt", "/files/..%2Fsecret.txt",
                                  "/files/kit%2F..%2F..%2Fsecret.txt", "/files/kit/..%2F..%2Fsecret.txt",
                                  "/files/%2F..%2Fsecret.txt", "/files/%2e%2e/secret.txt",
                                  "/files/{secret}", "/files/{quoted}",
                                  "/files/kit/linked.png", "/files/linked/secret.png",
                                  "/pages/..%2fsecret.txt/1.png"])
def test_serve_answers_nothing_beside_the_output_folder(planted, path):
    port, secret = planted
    secret = str(secret)
    status, body = request(port, path.format(secret=secret, quoted=quote(secret, safe="")))
    assert status == 404 and SECRET.encode() not in body
    assert request(port, "/files/kit/good.png") == (200, b"\x89PNG\r\n\x1a\n" + b"a file of the build")


def test_serve_lists_no_file_beside_the_output_folder_on_its_page(planted):
    status, body = request(planted[0], "/")
    page = body.decode("utf-8")
    assert status == 200 and "kit/good.png" in page
    assert "secret" not in page and "linked" not in page, page


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1:{other}", "localhost:{other}",
                                  "localhost.evil.example:{port}", "127.0.0.1.nip.io:{port}", "", "[::1]:{port}"])
def test_serve_answers_only_requests_addressed_to_it(planted, host):
    port = planted[0]
    host = host.format(port=port, other=port + 1)
    for path in ("/", "/status", "/files/kit/good.png"):
        status, body = request(port, path, host)
        assert status == 421 and b"PNG" not in body and b"<html" not in body, (path, host)
    assert request(port, "/", f"localhost:{port}")[0] == 200
    assert request(port, "/files/kit/good.png", f"LOCALHOST:{port}")[0] == 200


# ---- stopping -------------------------------------------------------------------------------

def processes_of_session(session: int) -> list[int]:
    """Every process still running in the session `session` (Linux's /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[3]) == session and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def assert_stopped(process: subprocess.Popen, port: int, printed: str, left: list[int]) -> None:
    """It exited cleanly, said so, left no process of its session running and freed its port."""
    assert left == [], printed
    assert process.returncode == 0, printed
    assert printed.rstrip().endswith("stopped") and "Traceback" not in printed, printed
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=5).close()


# Stopping once built: the reload test (Ctrl-C) and the planted server (SIGTERM) end so.
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM"])
def test_serve_stops_while_building_and_leaves_nothing_running(tmp_path, how):
    project = tmp_path / "sample"
    shutil.copytree(SAMPLE, project)
    process, port = start(project, tmp_path / "out")
    assert request(port, "/status")[0] == 200
    assert_stopped(process, port, *stop(process, how))
