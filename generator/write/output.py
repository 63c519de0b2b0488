"""Write stage: atomic files and the manifest of everything in the output folder.

Nothing is written until every path of the build is known to land inside the output folder:
a name that climbs out, or a folder inside output/ that is a link to somewhere else, is a
located error and the output folder stays as it was.
"""
from __future__ import annotations

import json
from pathlib import Path

from ..core.artifacts import Artifact, unsafe_name
from ..core.errors import BuildError, DataError, Problem
from ..core.files import read_bytes_inside, write_inside


MANIFEST = "manifest.json"


def escape(out: Path, relative: str) -> Problem | None:
    """What in `out` would take the file `relative` (a safe name) elsewhere, as a problem at
    that place: a folder on the way that is a link out of `out`, a file where a folder should
    be, a folder where the file should be. A link as the file itself is fine: the rename
    replaces the link and writes nothing where it points."""
    real_out = out.resolve()
    folder = out
    for part in relative.split("/")[:-1]:
        folder = folder / part
        if not (folder.is_symlink() or folder.exists()):
            return None
        try:
            target = folder.resolve()
        except RuntimeError:          # a loop of links
            return Problem(str(folder), 0, "", "a link that leads nowhere: the build writes nothing through it")
        if not target.is_relative_to(real_out):
            return Problem(str(folder), 0, "", f"a link to {target}, outside the output folder: "
                                               "the build writes nothing through it")
        if not target.is_dir():
            return Problem(str(folder), 0, "", "not a folder, but the build writes files into it")
    target = out / relative
    if target.is_dir() and not target.is_symlink():
        return Problem(str(target), 0, "", "a folder where the build writes a file")
    return None


def path_problems(out: Path, artifacts: list[Artifact]) -> list[Problem]:
    """Every reason a path of the build would be written anywhere but inside `out`: bad names
    once per place they came from, with the first of them."""
    problems, named = [], {}
    for artifact in artifacts:
        reason = unsafe_name(artifact.path)
        if reason:
            source = artifact.source if artifact.source[0] else (str(out), 0, "")
            named.setdefault((source, reason), []).append(artifact.path)
        else:
            problem = escape(out, artifact.path)
            problems += [problem] if problem else []
    for ((file, line, key), reason), paths in named.items():
        more = f" and {len(paths) - 1} more" if len(paths) > 1 else ""
        problems.append(Problem(file, line, key, f"refused to write {paths[0]!r}{more}: {reason}"))
    return problems


def write_all(out: Path, artifacts: list[Artifact]) -> Path:
    """Write every artifact, then the manifest merged with entries of earlier builds; nothing
    at all when any path would land outside `out`."""
    try:
        return _write_all(out, artifacts)
    except OSError as exc:
        where = exc.filename or out
        raise BuildError(f"cannot write {where}: {exc.strerror or exc}") from None


def _write_all(out: Path, artifacts: list[Artifact]) -> Path:
    manifest_path = out / MANIFEST
    earlier, found = read_manifest(out)
    problems = path_problems(out, artifacts) + found
    if problems:
        raise DataError(problems)
    entries = {entry["path"]: entry for entry in earlier
               if not unsafe_name(entry["path"]) and not escape(out, entry["path"]) and (out / entry["path"]).exists()}
    made = [artifact.entry() for artifact in artifacts]
    # A file of a group this build made (a deck's contact sheet among its edition's and
    # locale's) that it did not make again is a removed component's: it leaves with its entry.
    groups = {_group(entry) for entry in made}
    stale = [path for path, entry in entries.items() if _group(entry) in groups]
    for path in stale:
        del entries[path]
    for entry in made:
        entries[entry["path"]] = entry
    stale = [path for path in stale if path not in entries]
    manifest = {"files": [entries[p] for p in sorted(entries)]}
    files = [(out / a.path, a.data) for a in artifacts]
    files.append((manifest_path, (json.dumps(manifest, ensure_ascii=False, indent=2) + "\n").encode("utf-8")))
    # A file already holding exactly these bytes is left alone (a rebuild touches what changed).
    files = [(path, data) for path, data in files if not _holds(path, data)]
    write_inside(files, [out], "the output folder")
    for path in stale:
        (out / path).unlink(missing_ok=True)
    return manifest_path


# The details that make a file another variant of the same files (long-edge or gutterfold
# cards, normal or ink-saving sheets, sheets for a cutting machine, another shop profile): a build that makes one variant
# leaves the others alone.
VARIANT_KEYS = ("duplex", "back_offset_mm", "ink", "profile", "sides", "cutter")


def _group(entry: dict) -> str:
    """The files an entry is one of: a build that makes any of them makes all there are."""
    return json.dumps([entry.get(key) for key in ("game", "edition", "locale", "kind", "paper")]
                      + [[key, entry[key]] for key in VARIANT_KEYS if key in entry], sort_keys=True)


def _holds(path: Path, data: bytes) -> bool:
    try:
        return not path.is_symlink() and path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False


def read_manifest(out: Path) -> tuple[list[dict], list[Problem]]:
    """The entries of the manifest an earlier build left in `out` (none when there is none, or
    one this tool did not write), and why it could not be read: it is read like any file inside
    the output folder (no link out of it, bounded size)."""
    manifest_path = out / MANIFEST
    if not manifest_path.exists():
        return [], []
    data, problems = read_bytes_inside(manifest_path, [out], str(manifest_path))
    return manifest_entries(data), problems


def earlier_entries(out: Path) -> dict[str, dict]:
    """The entries of the manifest an earlier build left in `out`, by path, as the write stage
    reads them (none from one it would refuse)."""
    entries, problems = read_manifest(out)
    return {} if problems else {entry["path"]: entry for entry in entries}


def manifest_entries(data: bytes | None) -> list[dict]:
    """The file entries of an earlier manifest; none from a file this tool did not write."""
    try:
        entries = json.loads(data.decode("utf-8"))["files"] if data else []
        if isinstance(entries, list) and all(isinstance(e, dict) and isinstance(e["path"], str) for e in entries):
            return entries
    except (ValueError, KeyError, TypeError):
        pass
    return []
