"""The rule booklet's names checked before anything is laid out: the editions and decks its
sections and blocks name, the components its pictures draw, and the `ui` words its layout prints.
"""
from __future__ import annotations

from typing import Collection

from ..core.errors import Problem
from ..core.schema import did_you_mean
from ..core.yamlfile import locate
from ..layout.booklet import TABLE_WORDS
from ..load.project import categories


def check_booklet(game, pictured: Collection[str]) -> list[Problem]:
    """Names in booklet.yaml that must point at something: editions, the decks of card blocks and
    the components of picture blocks, of the kinds that draw pictures (`pictured`, their names)."""
    problems = []

    def add(path, key, message):
        file, line = locate(game.booklet, path)
        problems.append(Problem(file, line, key, message))

    for s, section in enumerate(game.booklet.get("sections", [])):
        root = f"booklet.sections.{section['id']}"
        nodes = [(("sections", s), root, section)]
        for b, block in enumerate(section.get("blocks", ())):
            nodes.append((("sections", s, "blocks", b), f"{root}.blocks.{b}", block))
            if "example" in block:
                nodes.append((("sections", s, "blocks", b, "example"), f"{root}.blocks.{b}.example", block["example"]))
        for path, key, node in nodes:
            for edition in node.get("editions", []):
                if edition not in game.editions:
                    add(path + ("editions",), f"{key}.editions", f"no edition '{edition}' in game.yaml"
                                                            + did_you_mean(edition, game.editions))
            if "cards" in node and node["cards"]["deck"] not in game.decks:
                add(path + ("cards", "deck"), f"{key}.cards.deck", f"no deck '{node['cards']['deck']}' in cards.yaml"
                                                                      + did_you_mean(node["cards"]["deck"], game.decks))
            if "picture" in node:
                reason = unknown_picture(game, node["picture"]["component"], pictured)
                if reason:
                    add(path + ("picture", "component"), f"{key}.picture.component", reason)
    check_decisions(game, add)
    for word in sorted(layout_words(game) - set(game.booklet.get("ui", {}))):
        file, line = locate(game.booklet, ("ui",)) if "ui" in game.booklet else (game.file_name("booklet"), 0)
        problems.append(Problem(file, line, f"booklet.ui.{word}", "the booklet layout prints this word; add it"))
    return problems


def check_decisions(game, add) -> None:
    """A decision must touch a section of the booklet, and a booklet with decisions must print
    them in one `decisions` section after every rule they touch."""
    sections = game.booklet.get("sections", [])
    ids = [section["id"] for section in sections]
    decisions = game.booklet.get("decisions", [])
    notes = [s for s, section in enumerate(sections) if "decisions" in section]
    for d, decision in enumerate(decisions):
        key = f"booklet.decisions.{decision['id']}"
        for edition in decision.get("editions", []):
            if edition not in game.editions:
                add(("decisions", d, "editions"), f"{key}.editions", f"no edition '{edition}' in game.yaml")
        if decision["rule"] not in ids or "decisions" in sections[ids.index(decision["rule"])]:
            add(("decisions", d, "rule"), f"{key}.rule",
                f"no section '{decision['rule']}' of rules in booklet.yaml (sections: {', '.join(ids)})")
        elif notes and ids.index(decision["rule"]) > notes[0]:
            add(("decisions", d, "rule"), f"{key}.rule",
                f"the section '{decision['rule']}' comes after the notes on this edition; they end the rules")
    if decisions and len(notes) != 1:
        add(("decisions",), "booklet.decisions",
            "print the decisions in one section `- {id: edition-notes, decisions: {}}` after the rules")
    if notes and not decisions:
        add(("sections", notes[0]), f"booklet.sections.{ids[notes[0]]}", "no `decisions` to print here")


def unknown_picture(game, reference: str, pictured: Collection[str]) -> str:
    """Why a picture block's `component` (kind.id, as `dice.sun`) names nothing drawable, or '':
    `pictured` names the kinds that draw pictures."""
    drawable = sorted(pictured)
    category, _, component_id = reference.partition(".")
    if category not in drawable:
        return (f"'{reference}': pictures are drawn of {', '.join(drawable)}{did_you_mean(category, drawable)} "
                f"(kind.id, as {drawable[0]}.<id>)")
    if not any(c.category == category and c.id == component_id for c in game.components):
        ids = sorted(c.id for c in game.components if c.category == category)
        return (f"no component '{component_id}' in {category}.yaml{did_you_mean(component_id, ids)} "
                f"({category}: {', '.join(ids) or 'none'})")
    return ""


def layout_words(game) -> set[str]:
    """The `ui` words the booklet's layout prints for this game's blocks and components."""
    if not game.booklet.get("sections"):
        return set()
    words = {"contents"}
    blocks = [block for section in game.booklet["sections"] for block in section.get("blocks", ())]
    if any(block.get("cards", {}).get("table") for block in blocks):
        words.update(TABLE_WORDS)
    if any("print" in block for block in blocks):
        for edition in game.editions:
            words.update(f"print_{kind}" for kind in categories() if game.in_edition(edition, kind))
    return words
