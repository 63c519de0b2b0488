"""`pnp serve`: rebuild on every save and show the result on a local page.

Two processes. The build process waits for the file system to report a saved file (watchfiles:
no polling, idle between saves), rebuilds what changed through the same incremental build as
`pnp build`, and writes the outcome to a status file. The page process, started before any
build with the platform's own start method, answers HTTP on 127.0.0.1 only, and only requests
addressed to 127.0.0.1 or localhost on its port (a page of another site that a DNS name of its
own points here gets nothing): the preview page (contact sheets and booklet pages of the files
built), the files the manifest lists that lie inside the output folder, and the status the page
polls to reload itself after each rebuild. A data error is shown on the page and in the
terminal; the output, and so the page, keep the last good build. SIGINT (Ctrl-C) and SIGTERM
stop both processes.
"""
from __future__ import annotations

import html
import json
import multiprocessing
import signal
import sys
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

from watchfiles import DefaultFilter, watch

from ..core.artifacts import unsafe_name
from ..core.errors import BuildError
from ..core.files import outside_roots, read_bytes_inside, write_inside
from ..write.cache import FOLDER
from ..write.output import MANIFEST, manifest_entries


HOST = "127.0.0.1"
STATUS = "serve-status.json"
# Folders of the project whose files a build reads.
WATCHED = ("components", "templates", "rules")
PAGE_DPI = 60                     # booklet pages on the preview page
MAX_PAGE_IMAGES = 64              # rendered booklet pages kept in memory
# Far above any file a build makes (a press booklet is tens of MB), far below what would
# exhaust the page process's memory.
MAX_SERVED_BYTES = 512 * 1024 * 1024
# How long the watch waits in one go before it looks at signals (watchfiles' own default):
# its only wake-up while nothing is saved.
WATCH_TIMEOUT_MS = 5_000
PAGE_SERVER_START_S = 60          # a spawned page process imports the tool first


# ---- watching -----------------------------------------------------------------------------

def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Size and modification time of every file a build reads: what the first build saw, to
    compare once the watch has started."""
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


def watched(root: Path):
    """Whether a change reported by watchfiles is one of a file a build reads."""
    ignored = DefaultFilter()

    def keep(change, path: str) -> bool:
        try:
            parts = Path(path).relative_to(root).parts
        except ValueError:
            return False
        return bool(parts) and parts[0] in WATCHED and "__pycache__" not in parts and ignored(change, path)
    return keep


def write_status(out: Path, status: dict) -> None:
    write_inside([(out / FOLDER / STATUS, json.dumps(status, ensure_ascii=False).encode("utf-8"))], [out],
                 "the output folder")


def read_status(out: Path) -> dict:
    data, problems = read_bytes_inside(out / FOLDER / STATUS, [out], STATUS, within="the output folder")
    try:
        status = json.loads(data.decode("utf-8")) if not problems else None
    except ValueError:
        status = None
    return status if isinstance(status, dict) else {"generation": 0, "ok": True, "problems": [], "building": True}


# ---- the page process ---------------------------------------------------------------------

def _manifest(out: Path) -> list[dict]:
    """The manifest's entries that name a file inside the output folder: a name that climbs
    out (`..`, however it was escaped in the address) or is, or goes through, a link out of it
    is not listed, so not served."""
    data, problems = read_bytes_inside(out / MANIFEST, [out], MANIFEST, within="the output folder")
    return [entry for entry in manifest_entries(None if problems else data)
            if not unsafe_name(entry["path"]) and not outside_roots(out / entry["path"], [out])]


def _text(entry: dict, key: str) -> str:
    value = entry.get(key)
    return value if isinstance(value, str) else ""


def _page_count(entry: dict) -> int:
    count = entry.get("content_pages") or entry.get("pages") or 0
    return count if isinstance(count, int) else 0


def preview_page(out: Path, status: dict) -> str:
    """The preview: every contact sheet and every page of every booklet, grouped by kit."""
    entries = _manifest(out)
    groups: dict[tuple, list[str]] = {}
    for entry in entries:
        key = (_text(entry, "game"), _text(entry, "edition"), _text(entry, "locale"))
        version = quote(_text(entry, "sha256")[:16])
        url = html.escape("/files/" + quote(entry["path"]) + f"?v={version}")
        if entry["path"].endswith(".png"):
            groups.setdefault(key, []).append(f'<figure><img src="{url}" alt="{html.escape(entry["path"])}">'
                                              f'<figcaption>{html.escape(entry["path"].rsplit("/", 1)[-1])}</figcaption></figure>')
        elif _text(entry, "kind") == "rules":
            for page in range(1, _page_count(entry) + 1):
                src = html.escape("/pages/" + quote(entry["path"]) + f"/{page}.png?v={version}")
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
        if not self._addressed_here():
            return self._send(b"This server answers requests for 127.0.0.1 and localhost only.\n",
                              "text/plain; charset=utf-8", HTTPStatus.MISDIRECTED_REQUEST)
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

    def _addressed_here(self) -> bool:
        """The Host header names this server: 127.0.0.1 or localhost, on its port. A browser
        sends the name it looked up, so a page whose own name was made to point here (DNS
        rebinding) is told apart."""
        port = self.server.server_address[1]
        names = {f"{HOST}:{port}", f"localhost:{port}"} | ({HOST, "localhost"} if port == 80 else set())
        return (self.headers.get("Host") or "").lower() in names

    def _entry(self, relative: str) -> dict | None:
        """Only files the manifest lists are served: nothing else of the disk is reachable."""
        return next((e for e in _manifest(self.out) if e["path"] == relative), None)

    def _read(self, entry: dict) -> bytes | None:
        """The file's bytes, or None for one that, links resolved, lies outside the output folder."""
        data, problems = read_bytes_inside(self.out / entry["path"], [self.out], entry["path"], MAX_SERVED_BYTES,
                                           "the output folder")
        return None if problems else data

    def _page_image(self, entry: dict, page: int) -> bytes | None:
        key = (_text(entry, "sha256"), entry["path"], page)
        if key not in self.page_images:
            data = self._read(entry)
            if data is None:
                return None
            import io

            import pypdfium2 as pdfium
            try:
                document = pdfium.PdfDocument(data)
            except pdfium.PdfiumError:
                return None
            try:
                if page > len(document):
                    return None
                bitmap = document[page - 1].render(scale=PAGE_DPI / 72)
                buffer = io.BytesIO()
                bitmap.to_pil().save(buffer, format="PNG")
            finally:
                document.close()
            if len(self.page_images) >= MAX_PAGE_IMAGES:
                self.page_images.pop(next(iter(self.page_images)))
            self.page_images[key] = buffer.getvalue()
        return self.page_images[key]

    def _send(self, data: bytes, content_type: str, code: HTTPStatus = HTTPStatus.OK) -> None:
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)


class PageServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        """A browser that closed its connection early is no news; anything else is."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def page_process(out: Path, port: int, ready) -> None:
    """The page process: bind 127.0.0.1:port (0: any free port), say which port (or why not)
    through `ready`, then serve until the build process stops it. Ctrl-C reaches every
    process of the terminal: the build process stops this one, so it ignores SIGINT itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    handler = type("Handler", (PreviewHandler,), {"out": out, "page_images": {}})
    try:
        server = PageServer((HOST, port), handler)
    except OSError as exc:
        ready.send(("error", f"cannot serve on {HOST}:{port}: {exc.strerror or exc}"))
        return
    ready.send(("port", server.server_address[1]))
    ready.close()
    server.serve_forever()


def start_page_server(out: Path, port: int):
    """The page process, started with the platform's own method; returns (process, port)."""
    context = multiprocessing.get_context()
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=page_process, args=(out, port, sender), daemon=True)
    process.start()
    sender.close()
    try:
        if not receiver.poll(PAGE_SERVER_START_S):
            raise EOFError
        what, value = receiver.recv()
    except EOFError:
        what, value = "error", "the page server did not start"
    finally:
        receiver.close()
    if what != "port":
        _stop(process)
        raise BuildError(value)
    return process, value


def _stop(process) -> None:
    process.terminate()
    process.join(5)
    if process.is_alive():
        process.kill()
        process.join()


class Stopped(Exception):
    """SIGTERM asked the build process to stop."""


def _terminated(signum, frame):
    raise Stopped


# ---- the build loop -----------------------------------------------------------------------

def serve(project, request, port: int, echo) -> None:
    """Build, serve, and rebuild on every saved change until SIGINT or SIGTERM."""
    from ..core.errors import DataError, PnpError
    from .build import build  # after the page process started: it stays small
    root = Path(project.root)
    out = request.out_folder(project)
    status = {"generation": 0, "ok": True, "problems": [], "building": True}
    write_status(out, status)

    def rebuild(status: dict) -> dict:
        started = time.monotonic()
        try:
            result = build(project, request)
            status = {"generation": status["generation"] + 1, "ok": True, "problems": [], "rendered": result.rebuilt}
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
        return status

    process, bound = start_page_server(out, port)
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        echo(f"serving http://{HOST}:{bound}/ (Ctrl-C stops)")
        before = snapshot(root)
        status = rebuild(status)
        # The watch starts with the first wait: a file saved while the first build ran is
        # found by comparing with what that build saw, once.
        # A folder it may not read (someone's, in output/) is none of the build's: passed over.
        for changes in watch(root, watch_filter=watched(root), rust_timeout=WATCH_TIMEOUT_MS,
                             yield_on_timeout=True, raise_interrupt=True, ignore_permission_denied=True):
            if before is not None:
                changes = changes or snapshot(root) != before
                before = None
            if changes:
                status = rebuild(status)
    except (KeyboardInterrupt, Stopped):
        echo("stopped")
    finally:
        signal.signal(signal.SIGTERM, previous)
        _stop(process)
