"""Reading and writing the project's own files, and nothing else.

Every data file, catalog and template the tool reads from a project goes through here, so a
link that leads out of the project is refused before a byte of it is read, and a file too big
to be real data is refused before it is loaded into memory. Every file any command writes
(a build's output and cache, catalogs, a new game, the preview's status) goes through
`write_inside`: a path whose folder, links resolved, lies outside the project or the output
folder is refused before anything is written, and each file is written whole or not at all.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Callable, Iterable

from .errors import DataError, Problem


# The tool's own folder: its fonts, schemas and scaffold ship inside it.
TOOL_FOLDER = Path(__file__).resolve().parent.parent

# Far above any real game's file (the largest shipped catalog is under 100 KB), far below
# what would take seconds or hundreds of MB to parse.
MAX_FILE_BYTES = 4 * 1024 * 1024


def outside_roots(path: Path, roots: list[Path]) -> bool:
    """True when `path`, with every link resolved, lies in none of `roots` (or its links loop)."""
    try:
        real = path.resolve()
    except (OSError, RuntimeError):
        return True
    return not any(real.is_relative_to(root.resolve()) for root in roots)


def read_bytes_inside(path: Path, roots: list[Path], display: str, limit: int = MAX_FILE_BYTES,
                      within: str = "the project") -> tuple[bytes | None, list[Problem]]:
    """The file's bytes, or None and a problem at the file's first line: a path that leaves
    `roots` (through a link or `..`) is refused unread, and so is a file over `limit` bytes."""
    if outside_roots(path, roots):
        return None, [Problem(display, 1, "", f"refused: the path leads outside {within}")]
    try:
        size = path.stat().st_size
        if size > limit:
            return None, [Problem(display, 1, "", f"refused: {size:,} bytes, more than the {limit:,} a data file may have")]
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        return None, [Problem(display, 1, "", f"cannot read file: {exc.strerror or exc}")]
    if len(data) > limit:       # grew while we looked
        return None, [Problem(display, 1, "", f"refused: more than the {limit:,} bytes a data file may have")]
    return data, []


def write_refusal(path: Path, roots: list[Path], display: str, within: str = "the project") -> Problem | None:
    """Why writing `path` would put bytes outside `roots`, as a problem at `display`, or None.
    Its folder counts with every link on the way resolved; the file itself may be a link, as
    the rename replaces the link and writes nothing where it points."""
    if path.name in ("", ".", ".."):
        return Problem(display, 0, "", "refused to write: not a file name")
    try:
        folder = path.parent.resolve()
    except (OSError, RuntimeError):         # a loop of links
        return Problem(display, 0, "", "refused to write: a link on the way leads nowhere")
    if not any(folder.is_relative_to(root.resolve()) for root in roots):
        return Problem(display, 0, "", f"refused to write: the path leads outside {within} (to {folder})")
    return None


def write_inside(files: Iterable[tuple[Path, bytes]], roots: list[Path], within: str = "the project",
                 shown: Callable[[Path], str] = str, durable: bool = True) -> None:
    """Write every file, or none: a DataError naming each path that would land outside `roots`
    (links resolved) before anything is written; then every file goes to disk beside its
    target before any is renamed into place, so a full disk leaves the earlier files whole.
    `durable=False` skips the flush to the disk (fsync) for files whose content is checked
    when read back, such as the cache's: a power cut may lose them, never pass them off."""
    files = list(files)
    problems = [problem for path, _ in files
                if (problem := write_refusal(path, roots, shown(path), within)) is not None]
    if problems:
        raise DataError(problems)
    staged: list[tuple[Path, Path]] = []
    try:
        for path, data in files:
            staged.append((_staged(path, data, durable), path))
        while staged:
            os.replace(*staged[0])
            staged.pop(0)
    finally:
        for temporary, _ in staged:
            temporary.unlink(missing_ok=True)


def relative_to(root: Path) -> Callable[[Path], str]:
    """How a message shows a path: relative to `root` as written, links not followed."""
    def shown(path: Path) -> str:
        try:
            return path.relative_to(root).as_posix()
        except ValueError:
            return str(path)
    return shown


def _staged(path: Path, data: bytes, durable: bool = True) -> Path:
    """A temporary file beside `path` holding `data` (on disk, when `durable`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            if durable:
                stream.flush()
                os.fsync(stream.fileno())
        os.chmod(temporary, 0o644)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return Path(temporary)
