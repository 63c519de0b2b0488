"""What changed in a project's game data between two versions: `pnp diff REV`.

The other version is a git revision of the project (its `components/` taken out of the
repository with `git archive` into a temporary folder) or another project folder. Only its
YAML and catalogs are read, with this tool's loader; nothing of it is run: both versions are
checked and played by the rules modules and read with the templates of the project as it is
now, so what moves is what the data's change moved.

Per game: components added and removed, fields changed (a text field in each locale that
prints it differently, through that version's catalogs), copies per edition, other changed
parts of the data (decks, layouts, the booklet, game.yaml), whether the rules engine's checks
give other problems, and whether the figures of a few seeded games moved.
"""
from __future__ import annotations

import contextlib
import io
import json
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import Problem, UsageError
from ..i18n.catalogs import translatable_keys
from ..i18n.texts import Texts
from ..load.card_sizes import check_card_sizes
from ..load.project import Component, Game, Project, categories, game_files
from ..rules import RulesName
from ..rules.engine import InvariantBroken, OptionError, SetupError
from ..rules.simulate import simulate
from ..validate.checks import validate_game


# Seeded games per edition and player count whose figures are compared: few, so a diff is
# quick; the same seed for both versions, so only the data's change can move them.
DIFF_GAMES = 20
DIFF_SEED = 0


# ---- the other version ----------------------------------------------------------------------

@dataclass
class OtherVersion(Project):
    """Another version's game data (`root/components/`), read with the current project's
    templates and checked by its rules modules: nothing of the other version is run."""

    current: Project | None = None

    @property
    def template_dirs(self) -> list[Path]:
        return self.current.template_dirs

    def _name_rules(self, game: Game) -> None:
        meta = game.files.get("game")
        if meta is not None and isinstance(meta.get("rules"), str):
            meta["rules"] = RulesName(str(meta["rules"]), self.current.root)


def _git(root: Path, *args: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=False)
    except FileNotFoundError:
        raise UsageError("git is not installed: name another project folder instead of a revision") from None


def _message(result: subprocess.CompletedProcess) -> str:
    """git's last line of complaint."""
    lines = result.stderr.decode("utf-8", "replace").strip().splitlines()
    return lines[-1] if lines else f"git exited with {result.returncode}"


@contextlib.contextmanager
def other_version(project: Project, rev: str):
    """(OtherVersion, its label): REV as a folder with components/, else as a git revision of
    the project's repository, whose components/ is extracted into a temporary folder."""
    folder = Path(rev).expanduser()
    if folder.is_dir():
        if not (folder / "components").is_dir():
            raise UsageError(f"{rev}: no components/ folder there (name a project folder or a git revision)")
        yield OtherVersion(folder.resolve(), current=project), str(folder)
        return
    inside = _git(project.root, "rev-parse", "--show-prefix")
    if inside.returncode != 0:
        raise UsageError(f"'{rev}' is not a folder, and {project.root} is not in a git repository")
    prefix = inside.stdout.decode("utf-8").strip()
    resolved = _git(project.root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}")
    if resolved.returncode != 0:
        raise UsageError(f"'{rev}' is neither a folder nor a revision of the repository at {project.root}")
    commit = resolved.stdout.decode("ascii").strip()
    archive = _git(project.root, "archive", "--format=tar", commit, "--", f"{prefix}components")
    if archive.returncode != 0:
        raise UsageError(f"revision {rev} has no {prefix}components/ folder: {_message(archive)}")
    with tempfile.TemporaryDirectory(prefix="pnp-diff-") as temporary:
        try:
            with tarfile.open(fileobj=io.BytesIO(archive.stdout), mode="r:") as tar:
                tar.extractall(temporary, filter="data")      # no links out, no devices, no absolute names
        except tarfile.TarError as exc:
            raise UsageError(f"revision {rev}: its components/ cannot be read safely ({exc})") from None
        yield OtherVersion(Path(temporary, prefix).resolve(), current=project), f"{rev} ({commit[:10]})"


# ---- loading and checking -------------------------------------------------------------------

@dataclass
class Loaded:
    game: Game | None                 # None: no such game in this version
    problems: list[Problem] = field(default_factory=list)
    unread: bool = False              # a file did not load: its components are not compared


def load_version(project: Project, slug: str) -> Loaded:
    """The game as its files say, and the problems of reading them."""
    if not (project.components_dir / slug).is_dir():
        return Loaded(None)
    game, problems = project.load_game(slug)
    return Loaded(game, problems, bool(problems))


def check_version(project: Project, loaded: Loaded) -> Loaded:
    """With the problems the rules engine's checks find (schema, references, counts the rules
    need, setups, seeded games): validate's data checks."""
    loaded.problems += validate_game(loaded.game)
    loaded.problems += check_card_sizes(project, loaded.game) if not loaded.problems else []
    return loaded


def _problem_text(problem: Problem) -> str:
    """A problem without its line, which moves whenever a line above it does."""
    key = f"{problem.key}: " if problem.key else ""
    return f"{problem.file}: {key}{problem.message}"


# ---- comparing --------------------------------------------------------------------------------

def _plain(node):
    return json.loads(json.dumps(node, default=str, ensure_ascii=False))


def _locales(*games: Game | None) -> list[str]:
    """Every locale of either version, the new version's order first."""
    found: list[str] = []
    for game in games:
        if game is not None and isinstance(game.meta.get("locales"), dict):
            found += [locale for locale in game.locales if locale not in found]
    return found


class Catalogs:
    """Each locale's texts of one version of a game, read once."""

    def __init__(self, game: Game):
        self.game = game
        self._texts: dict = {}

    def text(self, locale: str, key: str, source: str) -> str | None:
        """What `source` (key path `key`) prints in `locale`; None when the version lacks the locale."""
        if locale not in self.game.locales:
            return None
        if locale not in self._texts:
            self._texts[locale] = Texts.load(self.game, locale)
        return self._texts[locale].get(key, source)


def component_changes(old: Component, new: Component, old_texts: Catalogs, new_texts: Catalogs,
                      locales: list[str]) -> list[dict]:
    """Each changed field of a component kept between the versions: a text in the locales that
    print it differently, any other value in every locale."""
    changes = []
    old_data, new_data = _plain(old.data), _plain(new.data)
    texts = translatable_keys()
    for name in sorted((set(old_data) | set(new_data)) - {"count"}):
        before, after = old_data.get(name), new_data.get(name)
        if name in texts and isinstance(before, str) and isinstance(after, str):
            printed = {}
            for locale in locales:
                was = old_texts.text(locale, f"{old.text_root(name)}.{name}", before)
                now = new_texts.text(locale, f"{new.text_root(name)}.{name}", after)
                if was is not None and now is not None and was != now:
                    printed[locale] = {"old": was, "new": now}
            if printed:
                changes.append({"field": name, "locales": printed})
        elif before != after:
            changes.append({"field": name, "old": before, "new": after})
    return changes


def _counts(component: Component, editions: list[str]) -> dict[str, int]:
    return {edition: component.count(edition) for edition in editions if component.count(edition)}


def compare_components(old: Game, new: Game) -> dict:
    """Added, removed and changed components, and changed counts, of every kind."""
    editions = list(dict.fromkeys(new.editions + old.editions))
    locales = _locales(new, old)
    old_texts, new_texts = Catalogs(old), Catalogs(new)
    before = {c.keypath: c for c in old.components}
    after = {c.keypath: c for c in new.components}
    found = {"added": [], "removed": [], "changed": [], "counts": []}
    for keypath, component in after.items():
        if keypath not in before:
            found["added"].append({"category": component.category, "id": component.id,
                                   "counts": _counts(component, editions)})
            continue
        was = before[keypath]
        fields = component_changes(was, component, old_texts, new_texts, locales)
        if fields:
            found["changed"].append({"category": component.category, "id": component.id, "fields": fields})
        counts = {edition: {"old": was.count(edition), "new": component.count(edition)} for edition in editions
                  if was.count(edition) != component.count(edition)}
        if counts:
            found["counts"].append({"category": component.category, "id": component.id, "editions": counts})
    for keypath, component in before.items():
        if keypath not in after:
            found["removed"].append({"category": component.category, "id": component.id,
                                     "counts": _counts(component, editions)})
    return found


def other_changes(old: Game, new: Game) -> list[str]:
    """Key paths (file: key or key.subkey) of what changed outside the components: decks,
    layouts, the booklet, game.yaml."""
    components = set(categories())
    changed = []
    for name in game_files():
        before = _plain(old.files.get(name) or {})
        after = _plain(new.files.get(name) or {})
        if name in components:
            before.pop(name, None)
            after.pop(name, None)
        for key in sorted(set(before) | set(after), key=str):
            a, b = before.get(key), after.get(key)
            if a == b:
                continue
            if isinstance(a, dict) and isinstance(b, dict):
                changed += [f"{name}.yaml: {key}.{sub}" for sub in sorted(set(a) | set(b), key=str)
                            if a.get(sub) != b.get(sub)]
            else:
                changed.append(f"{name}.yaml: {key}")
    for locale in _locales(new, old):
        if locale != new.source_locale and _catalog_bytes(old, locale) != _catalog_bytes(new, locale):
            changed.append(f"locales/{locale}.po")
    return changed


def _catalog_bytes(game: Game, locale: str) -> bytes | None:
    path = game.folder / "locales" / f"{locale}.po"
    try:
        return path.read_bytes() if path.is_file() and not path.is_symlink() else None
    except OSError:
        return None


def compare_checks(old: Loaded, new: Loaded) -> dict:
    before = list(dict.fromkeys(_problem_text(p) for p in old.problems))
    after = list(dict.fromkeys(_problem_text(p) for p in new.problems))
    return {"old": len(before), "new": len(after), "moved": before != after,
            "fixed": [p for p in before if p not in after], "found": [p for p in after if p not in before]}


def _simulations(game: Game, editions: list[str]) -> dict[str, dict]:
    """"edition|players" -> the figures of DIFF_GAMES seeded games with the engine's first
    policy, or {"error": why} when they cannot be played."""
    engine = getattr(game.rules, "ENGINE", None)
    figures = {}
    for edition in editions:
        for players in engine.spec.tables:
            try:
                run = simulate(engine, game, edition=edition, players=players, games=DIFF_GAMES, seed=DIFF_SEED,
                               policy=next(iter(engine.policies)), check=False)
            except (InvariantBroken, OptionError, SetupError) as exc:
                figures[f"{edition}|{players}"] = {"error": str(exc)}
            except Exception as exc:        # data the rules were not written for (an older version's)
                figures[f"{edition}|{players}"] = {"error": f"{type(exc).__name__}: {exc}"}
                continue
            data = run.to_json()
            figures[f"{edition}|{players}"] = {key: data[key] for key in ("numbers", "shares", "win_rate", "counts")}
    return figures


def compare_simulation(old: Loaded, new: Loaded) -> dict | None:
    """The figures of the same seeded games with both versions' data, and which moved; None
    when the game has no engine (or its rules do not load) in one of them."""
    engines = [getattr(v.game.rules, "ENGINE", None) for v in (old, new)]
    if None in engines:
        return None
    spec = engines[1].spec
    editions = [e for e in new.game.editions if e in old.game.editions and e in spec.counts]
    before, after = _simulations(old.game, editions), _simulations(new.game, editions)
    moved = []
    for key in after:
        edition, players = key.split("|")
        for name in _moved(before.get(key, {}), after[key]):
            moved.append({"edition": edition, "players": int(players), "figure": name,
                          "old": _figure(before.get(key, {}), name), "new": _figure(after[key], name)})
    return {"games": DIFF_GAMES, "seed": DIFF_SEED, "policy": next(iter(engines[1].policies)),
            "moved": moved, "old": before, "new": after}


def _flat(figures: dict) -> dict[str, object]:
    """The figures one by one: `score.mean`, `ending=deck-out`, `win_rate.1`, `cards.sirko`."""
    if "error" in figures:
        return {"error": figures["error"]}
    flat: dict[str, object] = {}
    for name, values in figures["numbers"].items():
        flat[f"{name} mean"] = values["mean"]
    for name, shares in figures["shares"].items():
        for value, share in shares.items():
            flat[f"{name} {value}"] = share
    for seat, rate in enumerate(figures["win_rate"], 1):
        flat[f"win rate seat {seat}"] = rate
    for name, table in figures["counts"].items():
        for item, values in table.items():
            flat[f"{name} {item} per game"] = values["per_game"]
    return flat


def _moved(before: dict, after: dict) -> list[str]:
    a, b = _flat(before) if before else {}, _flat(after)
    return [name for name in sorted(set(a) | set(b)) if a.get(name) != b.get(name)]


def _figure(figures: dict, name: str):
    return _flat(figures).get(name) if figures else None


# ---- the whole diff -----------------------------------------------------------------------

def same_data(old: Game, new: Game) -> bool:
    """Byte for byte the same game folder (YAML, catalogs, pictures)."""
    def files(game: Game) -> dict[str, bytes]:
        found = {}
        for path in sorted(game.folder.rglob("*")):
            if path.is_file() and not path.is_symlink():
                found[path.relative_to(game.folder).as_posix()] = path.read_bytes()
        return found
    return files(old) == files(new)


def diff_game(old_project: Project, new_project: Project, slug: str, simulate: bool = True) -> dict:
    old, new = load_version(old_project, slug), load_version(new_project, slug)
    if old.game is None or new.game is None:
        status = "added" if old.game is None else "removed"
        return {"game": slug, "status": status}
    if same_data(old.game, new.game):
        return {"game": slug, "status": "unchanged"}      # the same data passes the same checks
    entry: dict = {"game": slug, "status": "changed"}
    if not (old.unread or new.unread) and _plain(old.game.files) == _plain(new.game.files):
        # Only catalogs or pictures differ: the checks and the games read the YAML alone.
        entry["components"] = compare_components(old.game, new.game)
        entry["other"] = other_changes(old.game, new.game)
        entry["checks"] = {"old": None, "new": None, "moved": False, "fixed": [], "found": [], "same_yaml": True}
        entry["simulation"] = {"games": DIFF_GAMES, "seed": DIFF_SEED, "policy": None, "moved": [], "old": {},
                               "new": {}, "same_yaml": True} if simulate else None
        return entry
    check_version(old_project, old)
    check_version(new_project, new)
    if old.unread or new.unread:
        entry["unread"] = [v for v, loaded in (("old", old), ("new", new)) if loaded.unread]
        entry["components"] = {"added": [], "removed": [], "changed": [], "counts": []}
        entry["other"] = []
    else:
        entry["components"] = compare_components(old.game, new.game)
        entry["other"] = other_changes(old.game, new.game)
    entry["checks"] = compare_checks(old, new)
    entry["simulation"] = compare_simulation(old, new) if simulate and not (old.unread or new.unread) else None
    return entry


def diff_projects(old: Project, new: Project, slug: str | None = None, simulate: bool = True) -> list[dict]:
    """Every game of either version (or the one named), compared."""
    if slug is not None:
        slugs = [slug]
        if not (old.components_dir / slug).is_dir() and not (new.components_dir / slug).is_dir():
            raise UsageError(f"no game '{slug}' in either version")
    else:
        slugs = sorted(set(new.game_slugs()) | set(old.game_slugs()))
    return [diff_game(old, new, s, simulate) for s in slugs]


def diff(project: Project, rev: str, slug: str | None = None, simulate: bool = True) -> dict:
    with other_version(project, rev) as (old, label):
        games = diff_projects(old, project, slug, simulate)
    return {"against": label, "games": games}


# ---- as text ------------------------------------------------------------------------------

def _shown(value) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else f'"{value}"'
    return text if len(text) <= 80 else text[:79] + "…"


def _counts_text(counts: dict) -> str:
    return ", ".join(f"{edition} ×{n}" for edition, n in counts.items()) or "in no edition"


def describe(data: dict) -> list[str]:
    """The diff as lines of text, a game at a time."""
    lines = [f"changes since {data['against']}:"]
    for entry in data["games"]:
        slug, status = entry["game"], entry["status"]
        if status != "changed":
            lines.append(f"{slug}: {'no changes' if status == 'unchanged' else 'game ' + status}")
            continue
        lines.append(f"{slug}:")
        if entry.get("unread"):
            lines.append(f"  files that do not load in the {' and '.join(entry['unread'])} version: components not compared")
        components = entry["components"]
        for item in components["added"]:
            lines.append(f"  added {item['category']}.{item['id']} ({_counts_text(item['counts'])})")
        for item in components["removed"]:
            lines.append(f"  removed {item['category']}.{item['id']} ({_counts_text(item['counts'])})")
        for item in components["changed"]:
            lines.append(f"  changed {item['category']}.{item['id']}:")
            for change in item["fields"]:
                if "locales" in change:
                    for locale, texts in change["locales"].items():
                        lines.append(f"    {change['field']} [{locale}]: {_shown(texts['old'])} → {_shown(texts['new'])}")
                else:
                    lines.append(f"    {change['field']}: {_shown(change['old'])} → {_shown(change['new'])}")
        for item in components["counts"]:
            counts = ", ".join(f"{edition} {c['old']} → {c['new']}" for edition, c in item["editions"].items())
            lines.append(f"  copies of {item['category']}.{item['id']}: {counts}")
        for other in entry["other"]:
            lines.append(f"  changed {other}")
        checks = entry["checks"]
        if checks.get("same_yaml"):
            lines.append("  rules checks and simulation figures: unchanged (the YAML is the same, which is all they read)")
            continue
        if not checks["moved"]:
            state = "pass" if not checks["new"] else f"the same {checks['new']} problem(s)"
            lines.append(f"  rules checks: unchanged ({state})")
        else:
            lines.append(f"  rules checks moved: {checks['old'] or 'no'} problem(s) before, {checks['new'] or 'none'} now")
            lines += [f"    fixed: {p}" for p in checks["fixed"]] + [f"    new: {p}" for p in checks["found"]]
        simulation = entry["simulation"]
        if simulation is not None:
            where = f"{simulation['games']} seeded games per table, seed {simulation['seed']}, policy {simulation['policy']}"
            if not simulation["moved"]:
                lines.append(f"  simulation figures: unchanged ({where})")
            else:
                lines.append(f"  simulation figures moved ({where}):")
                for moved in simulation["moved"]:
                    lines.append(f"    {moved['edition']}, {moved['players']} players: {moved['figure']} "
                                 f"{_shown(moved['old'])} → {_shown(moved['new'])}")
    return lines
