"""The build cache: `<output>/.cache/`, beside the files it lets a rebuild skip.

Records are small JSON files naming what a unit of work was made from and the files it made;
file contents are blobs named by their SHA-256. What a build would add is held until the build
has written its files: a failed build leaves the output folder, cache included, as it was.
Each entry is written atomically (a temporary file, then a rename), so a build killed at any
moment leaves only whole entries. Nothing read from here is trusted: a record that does not
parse, is of another format, or names another unit, and a blob whose content does not hash to
its name, count as absent and are rebuilt; nothing is read or written through a link.
"""
from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

from ..core.errors import DataError
from ..core.files import write_inside


FOLDER = ".cache"
RECORD_MAX_BYTES = 8 * 1024 * 1024
# decided: the cache keeps what the last builds used, up to this many times the size of what
# the latest build made (at least KEEP_MIN_BYTES); the least recently used go first. What the
# latest build of each selection (its options: games, kinds, papers, duplex ...) used is never
# dropped, so a small build between two whole ones does not make the next whole one redraw.
KEEP_FACTOR = 3
KEEP_MIN_BYTES = 64 * 1024 * 1024
SELECTIONS = "selections"           # record kind: the entries each selection's latest build used


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Cache:
    def __init__(self, out: Path):
        self.root = Path(out) / FOLDER
        # Entries read or written since are this build's: pruning keeps them (worker processes
        # mark what they use on the entry itself, its time).
        self.started = time.time() - 1
        # A cache that cannot be written (a full disk, a folder that is not one) only makes
        # builds slower: the build goes on and says why it could not write its files, if so.
        self.writable = True
        self._pending_blobs: dict[Path, bytes] = {}
        self._pending_records: dict[Path, bytes] = {}

    def __getstate__(self) -> dict:
        """A worker's copy: the same folder, nothing held; what the worker adds goes back to the
        build (units.py), which writes it."""
        return dict(self.__dict__, _pending_blobs={}, _pending_records={})

    # ---- blobs ----

    def _blob_path(self, sha: str) -> Path:
        return self.root / "blobs" / sha[:2] / sha

    def put_blob(self, data: bytes) -> str:
        sha = _sha(data)
        path = self._blob_path(sha)
        if path.exists():
            _touch(path)
        else:
            self._pending_blobs[path] = data
        return sha

    def blob(self, sha: str) -> bytes | None:
        if not (isinstance(sha, str) and len(sha) == 64 and all(c in "0123456789abcdef" for c in sha)):
            return None
        path = self._blob_path(sha)
        if path in self._pending_blobs:
            return self._pending_blobs[path]
        if path.is_symlink() or not self._inside(path.parent):
            return None
        try:
            data = path.read_bytes()
        except OSError:
            return None
        if _sha(data) != sha:
            return None
        _touch(path)
        return data

    # ---- records ----

    def _record_path(self, kind: str, name: str) -> Path:
        return self.root / kind / f"{_sha(name.encode('utf-8'))}.json"

    def record(self, kind: str, name: str) -> dict | None:
        """The record `name` of `kind`, or None when there is none or it cannot be trusted."""
        path = self._record_path(kind, name)
        if path in self._pending_records:         # added by this build, not yet written
            return json.loads(self._pending_records[path].decode("utf-8"))
        if path.is_symlink() or not self._inside(path.parent):
            return None
        try:
            if path.stat().st_size > RECORD_MAX_BYTES:
                return None
            record = json.loads(path.read_bytes().decode("utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(record, dict) or record.get("name") != name:
            return None
        _touch(path)
        return record

    def put_record(self, kind: str, name: str, record: dict) -> None:
        path = self._record_path(kind, name)
        self._pending_records[path] = json.dumps(dict(record, name=name), ensure_ascii=False).encode("utf-8")

    def _write(self, path: Path, data: bytes) -> None:
        if self.writable and not self._inside(path.parent):
            self.writable = False          # a link planted in the cache: nothing goes through it
        if self.writable:
            try:
                write_inside([(path, data)], [self.root.parent], "the output folder", durable=False)
            except (OSError, DataError):
                self.writable = False

    def _inside(self, folder: Path) -> bool:
        """Every folder from the cache's root down to `folder` is a real folder (or not there
        yet) inside the output folder: no link leads a write elsewhere."""
        out = self.root.parent.resolve()
        current = self.root
        for part in (None,) + folder.relative_to(self.root).parts:
            if part is not None:
                current = current / part
            if current.is_symlink() or (current.exists() and not current.is_dir()):
                return False
            if current.exists() and not current.resolve().is_relative_to(out):
                return False
        return True

    def pending(self) -> tuple[dict, dict]:
        """What is held to be written (a worker process hands it to the build's cache)."""
        return dict(self._pending_blobs), dict(self._pending_records)

    def hold(self, pending: tuple[dict, dict]) -> None:
        blobs, records = pending
        self._pending_blobs.update(blobs)
        self._pending_records.update(records)

    def flush(self) -> None:
        """Write what the build added, once it has written its files: blobs before the records
        that name them."""
        for path, data in list(self._pending_blobs.items()) + list(self._pending_records.items()):
            self._write(path, data)
        self._pending_blobs.clear()
        self._pending_records.clear()

    # ---- keeping it bounded ----

    def _entries(self) -> list[tuple[float, int, Path]]:
        """(time last used, size, path) of every blob and record."""
        entries = []
        for path in self.root.rglob("*") if self.root.is_dir() else ():
            try:
                if path.is_file() and not path.is_symlink() and path.parent != self.root \
                        and self._inside(path.parent):
                    stat = path.stat()
                    entries.append((stat.st_mtime, stat.st_size, path))
            except OSError:
                continue
        return entries

    def keep_for(self, selection: str) -> None:
        """Note, once the build has written its files, every entry it used (read or wrote: their
        time is this build's) as what the latest build of `selection` needs."""
        used = sorted(path.relative_to(self.root).as_posix() for mtime, _, path in self._entries()
                      if mtime >= self.started and path.parent.name != SELECTIONS)
        self.put_record(SELECTIONS, selection, {"entries": used})
        self.flush()

    def _kept(self) -> set[Path]:
        """Every entry the latest build of some selection used, and the notes that say so."""
        kept = set()
        folder = self.root / SELECTIONS
        for note in folder.glob("*.json") if folder.is_dir() and self._inside(folder) else ():
            kept.add(note)
            try:
                if note.is_symlink() or note.stat().st_size > RECORD_MAX_BYTES:
                    continue
                entries = json.loads(note.read_bytes().decode("utf-8")).get("entries", [])
            except (OSError, ValueError, AttributeError):
                continue
            kept.update(self.root / entry for entry in entries if isinstance(entry, str))
        return kept

    def prune(self, made_bytes: int) -> None:
        """Drop the least recently used entries beyond the size the cache may keep; what this
        build read or wrote stays, and so does what the latest build of every selection used."""
        limit = max(KEEP_MIN_BYTES, KEEP_FACTOR * made_bytes)
        entries = self._entries()
        kept = self._kept()
        total = sum(size for _, size, _ in entries)
        for mtime, size, path in sorted(entries, key=lambda entry: entry[0]):
            if total <= limit or mtime >= self.started:
                break
            if path in kept:
                continue
            try:
                path.unlink()
                total -= size
            except OSError:
                pass


def _touch(path: Path) -> None:
    try:
        os.utime(path)
    except OSError:
        pass
