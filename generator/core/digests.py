"""Digests of content: bytes, files, folders, JSON-able values, a game's folder and rules module.

Pure hashing, reading only the files it is given: the build's records of what a file is made
from (generator/write/incremental.py), a validated game's memo and a report's simulation key are
all made of these.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path


GENERATOR = Path(__file__).resolve().parent.parent     # the generator's own files


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_sha(path: Path) -> str:
    """In chunks: memory stays bounded whatever a folder holds."""
    with path.open("rb") as stream:
        return hashlib.file_digest(stream, "sha256").hexdigest()


def digest(*parts) -> str:
    """One digest of JSON-able parts."""
    return sha(json.dumps(parts, ensure_ascii=False, sort_keys=True, default=str).encode("utf-8"))


def folder_digest(folder: Path, skip=lambda relative: False, by_size=lambda relative: False) -> str:
    """Every file under `folder` by relative name and content (those `by_size` picks, by name
    and size); compiled Python is skipped. A link is taken by where it points, never followed:
    nothing outside is read, and a build that refuses a link is not told the folder is
    unchanged when the link changes."""
    hasher = hashlib.sha256()
    if not folder.is_dir() or folder.is_symlink():
        return hasher.hexdigest()
    found = []
    _walk(os.fspath(folder), "", skip, by_size, found)
    for relative, content in sorted(found):
        hasher.update(relative.encode("utf-8", "surrogateescape") + b"\0" + content.encode("utf-8", "surrogateescape") + b"\0")
    return hasher.hexdigest()


def _walk(top: str, prefix: str, skip, by_size, found: list) -> None:
    """folder_digest's walk: one directory listing a folder, each entry's kind from it (no
    second look at the disk), the folders below taken in turn."""
    folders = []
    with os.scandir(top) as entries:
        for entry in entries:
            relative = prefix + entry.name
            if entry.name == "__pycache__" and entry.is_dir() or skip(relative):
                continue
            if entry.is_symlink():
                found.append((relative, "link:" + os.readlink(entry.path)))
            elif entry.is_dir(follow_symlinks=False):
                folders.append((entry.path, relative + "/"))
            elif entry.is_file(follow_symlinks=False):
                found.append((relative, f"size:{entry.stat(follow_symlinks=False).st_size}" if by_size(relative)
                              else file_sha(Path(entry.path))))
    for path, below in folders:
        _walk(path, below, skip, by_size, found)


def rules_folder(game) -> Path | None:
    """The files of a game's rules module (a package's folder, or the module file)."""
    module = getattr(game, "rules", None)
    file = getattr(module, "__file__", None)
    if not file:
        return None
    path = Path(file).resolve()
    return path.parent if path.name == "__init__.py" else path


def rules_digest(game) -> str:
    """The files of a game's rules module, a package's folder or a single module ('' without one)."""
    rules = rules_folder(game)
    if rules is None:
        return ""
    return folder_digest(rules) if rules.is_dir() else sha(rules.read_bytes())


def game_folder_digest(folder: Path) -> str:
    """Every file of a game's folder, catalogs included: what validating it reads."""
    return folder_digest(folder)
