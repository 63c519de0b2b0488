"""`pnp diff` of The Donkey Can! with one plain donkey made stronger: the seeded games its engine
plays move, and the figures the diff names as moved are among those it reports. (The diff of
components, catalogs, checks and errata is checked on the translated sample in tests/test_diff.py;
the sample has no engine to play.)"""
from __future__ import annotations

import json
import shutil

from conftest import ROOT, pnp, replace_in


GAME = "donkey-can"
STRONGER = '''"""The tool's donkey_can rules, with donkey-bublyk worth 3."""
import copy
import dataclasses

from generator.rules import donkey_can as tool

facts = dict(tool.SPEC.facts)
facts["cards.yaml:cards.donkey-bublyk.value"] = 3
SPEC = dataclasses.replace(tool.SPEC, facts=facts)
ENGINE = copy.copy(tool.ENGINE)
ENGINE.spec = SPEC
'''


def _figures(runs: dict) -> set[str]:
    names = set()
    for figures in runs.values():
        names |= {f"{name} mean" for name in figures["numbers"]}
        names |= {f"{name} {value}" for name, shares in figures["shares"].items() for value in shares}
        names |= {f"win rate seat {seat}" for seat in range(1, len(figures["win_rate"]) + 1)}
        names |= {f"{name} {item} per game" for name, table in figures["counts"].items() for item in table}
    return names


def test_a_stronger_donkey_moves_the_seeded_games(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(ROOT / "components" / GAME, project / "components" / GAME)
    (project / "rules" / "donkey_can").mkdir(parents=True)
    (project / "rules" / "donkey_can" / "__init__.py").write_text(STRONGER, encoding="utf-8")
    old = tmp_path / "old"
    shutil.copytree(project, old)
    cards = project / "components" / GAME / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    start = text.index("  donkey-bublyk:")
    replace_in(cards, text[start:text.index("\n  donkey-", start + 1)],
               text[start:text.index("\n  donkey-", start + 1)].replace("value: 0", "value: 3"))
    result = pnp("diff", str(old), "--json", project=project)
    assert result.exit_code == 0, result.output + result.traceback
    [entry] = json.loads(result.stdout)["games"]
    assert [c["id"] for c in entry["components"]["changed"]] == ["donkey-bublyk"]
    # the project's rules expect the stronger donkey: the old box fails them
    assert entry["checks"]["moved"] and entry["checks"]["new"] == 0 and entry["checks"]["old"] > 0
    simulation = entry["simulation"]
    assert simulation["moved"], "a stronger donkey changes the seeded games"
    assert {m["figure"] for m in simulation["moved"]} <= _figures(simulation["new"])
