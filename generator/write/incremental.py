"""What a built file is made from, so a rebuild renders only what changed.

Every file of a build comes from one *unit* of work (a kind's files for one kit, a booklet, a
report). A unit is reused from the cache when everything it was made from is unchanged:

- the tool: the generator's own files, the templates, sheets, profiles and fonts, the rules
  module of the game, and the versions of the libraries that draw;
- the game's data with its translatable texts left out (counts, layouts, colours, pictures);
- every text the unit printed, as the catalogs give it now: each lookup (`Texts.get`,
  `Texts.plural`) is told to the observer the unit runs under (texts.observed) and recorded,
  and asked again before the unit is reused. So a translator's change to one card's name
  rebuilds the files that print that name, no others.

This module is light on purpose: the up-to-date check of a whole build runs before anything
that draws is imported. So the catalogs are not read here: the caller passes what needs them
(which texts are translatable, the texts as they are now).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ..core.artifacts import Artifact
from ..core.digests import GENERATOR, digest, folder_digest, rules_digest, sha
from ..load.project import TOOL_TEMPLATES
from ..load.spreadsheets import FORMATS as SPREADSHEETS
from .cache import FOLDER, Cache
from .output import MANIFEST


# The libraries whose output lands in the files, by distribution name.
DRAWING_LIBRARIES = ("reportlab", "weasyprint", "pydyf", "fonttools", "pikepdf", "pypdfium2", "pillow",
                     "matplotlib", "jinja2", "babel", "pyyaml", "tinycss2", "cssselect2", "uharfbuzz")
FORMAT = 1                      # of the records below; a record of another format is rebuilt
# The files of a game's folder that are not pictures: its data, read into `game.files`, and catalogs
NOT_PICTURES = (".yaml", ".po", ".pot", *SPREADSHEETS)


def _versions() -> dict[str, str]:
    # importlib.metadata is read when a build needs it, not by `pnp simulate`'s start
    from importlib import metadata
    found = {"python": sys.version}
    for name in DRAWING_LIBRARIES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = ""
    return found


_TOOL: dict[Path, str] = {}


def forget_digests() -> None:
    """At the start of each build: a long-running process (`pnp serve`, tests) sees edits."""
    _TOOL.clear()
    _CHECKS.clear()


def tool_digest(project) -> str:
    """The generator, the project's and the tool's templates, the project's own rules modules
    and the drawing libraries' versions: what every file of every game is made with."""
    root = Path(project.root).resolve()
    if root not in _TOOL:
        # By content, not by where: two copies of a project make the same files (a clone, a
        # moved folder, a copy to try an edit in) and can share a cache.
        _TOOL[root] = digest([folder_digest(f) for f in [GENERATOR, *_templates_and_rules(root)]], _versions())
    return _TOOL[root]


def _templates_and_rules(root: Path) -> list[Path]:
    """The tool's templates, the project's own and its rules modules."""
    return [TOOL_TEMPLATES, root / "templates", root / "rules"]


# The tool's files no data check reads the content of: glyphs and colour profiles.
DRAWING_ASSETS = (".ttf", ".otf", ".icc")
_CHECKS: dict[Path, str] = {}


def checks_digest(project) -> str:
    """What a game's data-only checks (the schemas, counts and rules, `texts=False`) are made
    with: tool_digest without the drawing libraries' versions and with its fonts and colour
    profiles by name and size, not content (a quarter of the bytes to hash), so `pnp simulate`
    and `pnp play` start sooner. A check that lays out text takes tool_digest."""
    root = Path(project.root).resolve()
    if root not in _CHECKS:
        code = folder_digest(GENERATOR, by_size=lambda relative: relative.lower().endswith(DRAWING_ASSETS))
        _CHECKS[root] = digest("checks", code, [folder_digest(f) for f in _templates_and_rules(root)])
    return _CHECKS[root]


# ---- the data without its texts -----------------------------------------------------------

def structure_digest(game, translatable: set[str]) -> str:
    """The game's data with every translatable text (its key paths, i18n.translatable_paths)
    replaced by its key, the game's other files (pictures) and its rules module. Texts are not
    in it: each unit records the texts it printed, so a changed text rebuilds only the files
    that show it."""
    return _data_digest(game, translatable)


def data_digest(game) -> str:
    """The game's data as written, texts included (catalogs not), its pictures and rules: what
    a file made from the data itself, not through the catalogs, is made of."""
    return _data_digest(game, set())


def _data_digest(game, blank: set) -> str:
    data = {name: _blanked(node, (name,), blank) for name, node in sorted(game.files.items())}
    # a spreadsheet's rows are in the data (cards.yaml's cards), its texts blanked like theirs
    pictures = folder_digest(game.folder, skip=lambda relative: relative.lower().endswith(NOT_PICTURES))
    return digest(data, pictures, rules_digest(game))


def _blanked(node, path: tuple, blank: set):
    if isinstance(node, dict):
        # as pairs, in the order written: the order of cards, boards or tokens is the order they
        # are printed in (a digest's JSON sorts a mapping's keys)
        return [[str(key), _blanked(value, path + (str(key),), blank)] for key, value in node.items()]
    if isinstance(node, list):
        return [_blanked(value, path + (str(index),), blank) for index, value in enumerate(node)]
    if ".".join(path) in blank:
        return {"text": ".".join(path)}
    return node if isinstance(node, (int, float, bool, type(None))) else str(node)


# ---- the texts a unit printed -------------------------------------------------------------------
# Observed while the unit runs (texts.collected), and asked again before it is reused: `now`
# answers a lookup with the data and catalogs as they are now (i18n.TextsNow).

def lookups_to_json(lookups: dict) -> list:
    return [[list(lookup), sha(text.encode("utf-8"))] for lookup, text in sorted(lookups.items(), key=repr)]


def texts_unchanged(recorded: list, now) -> bool:
    for lookup, text_sha in recorded:
        text = now.text(tuple(lookup))
        if text is None or sha(text.encode("utf-8")) != text_sha:
            return False
    return True


# ---- a whole build with nothing changed --------------------------------------------------------

def _installed_rules() -> list[str]:
    """Rules modules of installed packages (entry points): their versions stand for their files."""
    from importlib import metadata
    found = []
    for point in metadata.entry_points(group="pnp.rules"):
        dist = getattr(point, "dist", None)
        found.append(f"{point.name}={point.value}@{dist.version if dist else ''}")
    return sorted(found)


def selection(request) -> str:
    """What a build is asked for (games, editions, locales, papers, kinds, duplex, ink, cutter ...),
    whatever the data: the cache keeps what the latest build of each selection used."""
    chosen = [request.game, request.edition, request.locale, request.paper, list(request.profiles),
              request.duplex, list(request.back_offset), list(request.kinds), request.target, request.ink]
    if request.url_map or request.base_url:         # only then: other selections keep their digest
        chosen.append([request.base_url, list(map(list, request.url_map))])
    if getattr(request, "cutter", ""):              # likewise: a cutting machine's sheets are another selection
        chosen.append(["cutter", request.cutter])
    return digest("selection", *chosen)


def whole_build_inputs(project, request) -> str:
    """Everything a build with these options could read: the tool, every game's folder, the
    options. Equal inputs give equal files, so a build whose inputs match the last one's, with
    its files still in place, has nothing to do."""
    return digest("build", tool_digest(project), folder_digest(Path(project.root) / "components"),
                  _installed_rules(), selection(request))


def cache_usable(out: Path) -> bool:
    """The cache folder is inside the output folder (not a link out of it)."""
    folder = Path(out) / FOLDER
    if folder.is_symlink():
        return False
    return not folder.exists() or (folder.is_dir() and folder.resolve().is_relative_to(Path(out).resolve()))


def up_to_date(out: Path, inputs: str):
    """The last build's files (Artifacts read back from the output folder) when the output
    is exactly what a build with these inputs wrote; None otherwise."""
    if not cache_usable(out):
        return None
    record = Cache(out).record("builds", inputs)
    try:
        if record is None or (Path(out) / MANIFEST).stat().st_size > MANIFEST_MAX_BYTES:
            return None
        manifest_data = (Path(out) / MANIFEST).read_bytes()
        if record is None or record.get("format") != FORMAT or record.get("manifest") != sha(manifest_data):
            return None
        entries = {entry["path"]: entry for entry in json.loads(manifest_data.decode("utf-8"))["files"]}
        artifacts = []
        for path in record["paths"]:
            entry = entries[path]
            target = Path(out) / path
            if target.is_symlink() or not target.is_file() or target.stat().st_size != entry["bytes"]:
                return None
            data = target.read_bytes()
            if sha(data) != entry["sha256"]:
                return None
            details = {k: v for k, v in entry.items() if k not in _ENTRY_FIELDS}
            artifacts.append(Artifact(path, data, entry["game"], entry["kind"], entry["edition"], entry["locale"],
                                      entry["paper"], entry["pages"], details))
        return artifacts
    except (OSError, ValueError, KeyError, TypeError):
        return None


MANIFEST_MAX_BYTES = 64 * 1024 * 1024
_ENTRY_FIELDS = {"path", "game", "edition", "locale", "kind", "paper", "pages", "bytes", "sha256"}


def remember_build(cache, out: Path, inputs: str | None, artifacts) -> None:
    """Note, once a build has written its files, the inputs it was made from."""
    if inputs is None:
        return
    manifest = (Path(out) / MANIFEST).read_bytes()
    cache.put_record("builds", inputs, {"format": FORMAT, "manifest": sha(manifest),
                                        "paths": [a.path for a in artifacts]})
    cache.flush()
