"""Reading the project's own files, and nothing else, within a bounded size.

Every data file, catalog and template the tool reads from a project goes through here, so a
link that leads out of the project is refused before a byte of it is read, and a file too big
to be real data is refused before it is loaded into memory.
"""
from __future__ import annotations

from pathlib import Path

from .errors import Problem

# Far above any real game's file (the largest shipped catalog is under 100 KB), far below
# what would take seconds or hundreds of MB to parse.
MAX_FILE_BYTES = 4 * 1024 * 1024


def outside_roots(path: Path, roots: list[Path]) -> bool:
    """True when `path`, with every link resolved, lies in none of `roots`."""
    real = path.resolve()
    return not any(real.is_relative_to(root.resolve()) for root in roots)


def read_bytes_inside(path: Path, roots: list[Path], display: str, limit: int = MAX_FILE_BYTES,
                      within: str = "the project") -> tuple[bytes | None, list[Problem]]:
    """The file's bytes, or None and a located problem: a path that leaves `roots` (through a
    link or `..`) is refused unread, and so is a file over `limit` bytes."""
    if outside_roots(path, roots):
        return None, [Problem(display, 0, "", f"refused: the path leads outside {within}")]
    try:
        size = path.stat().st_size
        if size > limit:
            return None, [Problem(display, 0, "", f"refused: {size:,} bytes, more than the {limit:,} a data file may have")]
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        return None, [Problem(display, 0, "", f"cannot read file: {exc.strerror or exc}")]
    if len(data) > limit:       # grew while we looked
        return None, [Problem(display, 0, "", f"refused: more than the {limit:,} bytes a data file may have")]
    return data, []
