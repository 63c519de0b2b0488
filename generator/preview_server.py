"""`pnp serve`: rebuild on every save and show the result on a local page.

Two processes. The build process watches the project's files (a poll of their sizes and
times: no extra library, and it sees edits on any file system), rebuilds what changed through
the same incremental build as `pnp build`, and writes the outcome to a status file. The page
process, forked before any build, answers HTTP on 127.0.0.1 only: the preview page (contact
sheets and booklet pages of the files built), the files themselves, and the status the page
polls to reload itself after each rebuild. A data error is shown on the page and in the
terminal; the output, and so the page, keep the last good build.
"""
from __future__ import annotations

import html
import json
import multiprocessing
import os
import tempfile
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

from .cache import FOLDER
from .output import MANIFEST

HOST = "127.0.0.1"
STATUS = "serve-status.json"
# Folders of the project whose files a build reads.
WATCHED = ("components", "templates", "rules")
PAGE_DPI = 60                     # booklet pages on the preview page
MAX_PAGE_IMAGES = 64              # rendered booklet pages kept in memory


# ---- watching -----------------------------------------------------------------------------

def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Size and modification time of every file a build reads."""
    found = {}
    for name in WATCHED:
        for path in sorted((root / name).rglob("*")) if (root / name).is_dir() else ():
            try:
                stat = path.stat()
            except OSError:
                continue
            if path.is_file() and "__pycache__" not in path.parts:
                found[path.relative_to(root).as_posix()] = (stat.st_size, stat.st_mtime_ns)
    return found


def write_status(out: Path, status: dict) -> None:
    folder = out / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".status.", dir=folder)
    with os.fdopen(handle, "w", encoding="utf-8") as stream:
        json.dump(status, stream, ensure_ascii=False)
    os.replace(temporary, folder / STATUS)


def read_status(out: Path) -> dict:
    try:
        return json.loads((out / FOLDER / STATUS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"generation": 0, "ok": True, "problems": [], "building": True}


# ---- the page process ---------------------------------------------------------------------

def _manifest(out: Path) -> list[dict]:
    try:
        return json.loads((out / MANIFEST).read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError):
        return []


def _page_count(entry: dict) -> int:
    return int(entry.get("content_pages") or entry.get("pages") or 0)


def preview_page(out: Path, status: dict) -> str:
    """The preview: every contact sheet and every page of every booklet, grouped by kit."""
    entries = _manifest(out)
    groups: dict[tuple, list[str]] = {}
    for entry in entries:
        key = (entry["game"], entry["edition"], entry["locale"])
        version = entry["sha256"][:16]
        url = "/files/" + quote(entry["path"]) + f"?v={version}"
        if entry["path"].endswith(".png"):
            groups.setdefault(key, []).append(f'<figure><img src="{url}" alt="{html.escape(entry["path"])}">'
                                              f'<figcaption>{html.escape(entry["path"].rsplit("/", 1)[-1])}</figcaption></figure>')
        elif entry["kind"] == "rules":
            for page in range(1, _page_count(entry) + 1):
                src = "/pages/" + quote(entry["path"]) + f"/{page}.png?v={version}"
                groups.setdefault(key, []).append(f'<figure class="page"><img src="{src}" alt="page {page}">'
                                                  f'<figcaption>{page}</figcaption></figure>')
    banner = ""
    if not status.get("ok", True):
        lines = "".join(f"<li>{html.escape(p)}</li>" for p in status.get("problems", []))
        banner = (f'<section id="problems"><h2>The last change did not build; the page shows the last good '
                  f'build.</h2><ul>{lines}</ul></section>')
    sections = "".join(
        f"<section><h2>{html.escape(' · '.join(part for part in key if part))}</h2>{''.join(items)}</section>"
        for key, items in sorted(groups.items()))
    generation = int(status.get("generation", 0))
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>pnp preview</title>
<style>
body {{ font-family: sans-serif; margin: 1em; background: #f4f4f4; }}
figure {{ display: inline-block; margin: .4em; vertical-align: top; text-align: center; }}
figure img {{ max-width: 46em; background: white; box-shadow: 0 0 .3em #999; }}
figure.page img {{ max-width: 18em; }}
#problems {{ background: #fde8e8; border: 2px solid #c62828; padding: .5em 1em; }}
#problems li {{ font-family: monospace; }}
</style></head>
<body data-generation="{generation}">
{banner}{sections or "<p>Nothing built yet.</p>"}
<script>
const shown = {generation};
setInterval(async () => {{
  try {{
    const status = await (await fetch("/status", {{cache: "no-store"}})).json();
    if (status.generation !== shown) location.reload();
  }} catch (error) {{}}
}}, 500);
</script>
</body></html>
"""


class PreviewHandler(BaseHTTPRequestHandler):
    out: Path = Path("output")
    page_images: dict = {}

    def log_message(self, *args):          # the terminal shows builds, not requests
        pass

    def do_GET(self):
        path = unquote(urlsplit(self.path).path)
        if path == "/":
            return self._send(preview_page(self.out, read_status(self.out)).encode("utf-8"), "text/html; charset=utf-8")
        if path == "/status":
            return self._send(json.dumps(read_status(self.out)).encode("utf-8"), "application/json")
        if path.startswith("/files/"):
            entry = self._entry(path[len("/files/"):])
            if entry is not None:
                data = self._read(entry)
                if data is not None:
                    kind = "image/png" if entry["path"].endswith(".png") else "application/pdf"
                    return self._send(data, kind)
        if path.startswith("/pages/") and path.endswith(".png"):
            file, _, page = path[len("/pages/"):-len(".png")].rpartition("/")
            entry = self._entry(file)
            if entry is not None and page.isdigit() and 1 <= int(page) <= _page_count(entry):
                image = self._page_image(entry, int(page))
                if image is not None:
                    return self._send(image, "image/png")
        self.send_error(HTTPStatus.NOT_FOUND)

    def _entry(self, relative: str) -> dict | None:
        """Only files the manifest lists are served: nothing else of the disk is reachable."""
        return next((e for e in _manifest(self.out) if e["path"] == relative), None)

    def _read(self, entry: dict) -> bytes | None:
        try:
            return (self.out / entry["path"]).read_bytes()
        except OSError:
            return None

    def _page_image(self, entry: dict, page: int) -> bytes | None:
        key = (entry["sha256"], page)
        if key not in self.page_images:
            data = self._read(entry)
            if data is None:
                return None
            import io

            import pypdfium2 as pdfium
            document = pdfium.PdfDocument(data)
            try:
                bitmap = document[page - 1].render(scale=PAGE_DPI / 72)
                buffer = io.BytesIO()
                bitmap.to_pil().save(buffer, format="PNG")
            finally:
                document.close()
            if len(self.page_images) >= MAX_PAGE_IMAGES:
                self.page_images.pop(next(iter(self.page_images)))
            self.page_images[key] = buffer.getvalue()
        return self.page_images[key]

    def _send(self, data: bytes, content_type: str) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)


def start_page_server(out: Path, port: int):
    """Bind 127.0.0.1:port (0: any free port) here, then serve from a forked process; returns
    (process, port)."""
    handler = type("Handler", (PreviewHandler,), {"out": out, "page_images": {}})
    server = ThreadingHTTPServer((HOST, port), handler)
    bound = server.server_address[1]
    process = multiprocessing.get_context("fork").Process(target=server.serve_forever, daemon=True)
    process.start()
    server.socket.close()                  # the page process has its own copy
    return process, bound


# ---- the build loop -----------------------------------------------------------------------

def serve(project, request, port: int, echo, interval: float = 0.25, once_built=None) -> None:
    """Build, serve, and rebuild on every change until interrupted."""
    from .errors import DataError, PnpError
    out = request.out_folder(project)
    out.mkdir(parents=True, exist_ok=True)
    status = {"generation": 0, "ok": True, "problems": [], "building": True}
    write_status(out, status)
    process, bound = start_page_server(out, port)
    echo(f"serving http://{HOST}:{bound}/ (Ctrl-C stops)")
    from .build import build                # after the fork: the page process stays small
    seen = None
    try:
        while True:
            now = snapshot(Path(project.root))
            if now != seen:
                seen = now
                started = time.monotonic()
                try:
                    result = build(project, request)
                    status = {"generation": status["generation"] + 1, "ok": True, "problems": [],
                              "rendered": result.rebuilt}
                    echo(f"built in {time.monotonic() - started:.1f} s: "
                         + (f"{len(result.rebuilt)} files rendered" if result.rebuilt else "nothing changed"))
                except DataError as exc:
                    status = {"generation": status["generation"] + 1, "ok": False,
                              "problems": [str(p) for p in exc.problems]}
                    for problem in exc.problems:
                        echo(str(problem))
                    echo(f"{len(exc.problems)} problem(s) found; the preview keeps the last good build")
                except PnpError as exc:
                    status = {"generation": status["generation"] + 1, "ok": False, "problems": [str(exc)]}
                    echo(f"error: {exc}")
                write_status(out, status)
            time.sleep(interval)
    except KeyboardInterrupt:
        echo("stopped")
    finally:
        process.terminate()
        process.join(5)
