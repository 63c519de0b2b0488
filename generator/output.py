"""Write stage: atomic files and the manifest of everything in the output folder."""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .errors import BuildError

MANIFEST = "manifest.json"


@dataclass
class Artifact:
    """One built file, held in memory until every file of the build has rendered."""

    path: str                 # relative to the output folder, with forward slashes
    data: bytes
    game: str
    kind: str
    edition: str = ""
    locale: str = ""
    paper: str = ""
    pages: int = 0
    details: dict = field(default_factory=dict)

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    def entry(self) -> dict:
        entry = {"path": self.path, "game": self.game, "edition": self.edition, "locale": self.locale,
                 "kind": self.kind, "paper": self.paper, "pages": self.pages,
                 "bytes": len(self.data), "sha256": self.sha256}
        entry.update(self.details)
        return entry


def write_atomic(path: Path, data: bytes) -> None:
    """Write to a temporary file beside the target, then rename: never a half-written file."""
    temporary = _staged(path, data)
    try:
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _staged(path: Path, data: bytes) -> Path:
    """A temporary file beside `path` holding `data`, on disk."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, 0o644)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return Path(temporary)


def write_all(out: Path, artifacts: list[Artifact]) -> Path:
    """Write every artifact, then the manifest merged with entries of earlier builds."""
    try:
        return _write_all(out, artifacts)
    except OSError as exc:
        where = exc.filename or out
        raise BuildError(f"cannot write {where}: {exc.strerror or exc}") from None


def _write_all(out: Path, artifacts: list[Artifact]) -> Path:
    manifest_path = out / MANIFEST
    entries: dict[str, dict] = {}
    if manifest_path.exists():
        try:
            for entry in json.loads(manifest_path.read_text(encoding="utf-8")).get("files", []):
                if (out / entry["path"]).exists():
                    entries[entry["path"]] = entry
        except (ValueError, KeyError, TypeError, AttributeError):   # not a manifest this tool wrote
            entries = {}
    for artifact in artifacts:
        entries[artifact.path] = artifact.entry()
    manifest = {"files": [entries[p] for p in sorted(entries)]}
    files = [(out / a.path, a.data) for a in artifacts]
    files.append((manifest_path, (json.dumps(manifest, ensure_ascii=False, indent=2) + "\n").encode("utf-8")))
    # Every file goes to disk before any is renamed into place: a full disk leaves the earlier build whole.
    staged: list[tuple[Path, Path]] = []
    try:
        for path, data in files:
            staged.append((_staged(path, data), path))
        while staged:
            os.replace(*staged[0])
            staged.pop(0)
    finally:
        for temporary, _ in staged:
            temporary.unlink(missing_ok=True)
    return manifest_path
