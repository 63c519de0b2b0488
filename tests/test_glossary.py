"""A game's glossary (components/<game>/glossary.yaml): `pnp i18n status` and `pnp validate` name
a text that says for a concept what the glossary says to avoid, in the source YAML or a
catalog, at its line; the shipped games keep theirs."""
from __future__ import annotations

from conftest import SAMPLE, TRANSLATED_LOCALE, line_of, pnp, project_copy, replace_in

GAME = "sample-game"
GLOSSARY = """glossary:
  thief:
    about: the card that steals
    term: {en: thief, ru: thief}
    avoid: {en: [robber], ru: [burglar]}
"""


def test_a_source_text_that_avoids_the_glossary_s_term_is_named_at_its_line(tmp_path):
    project = project_copy(SAMPLE, tmp_path)
    folder = project / "components" / GAME
    (folder / "glossary.yaml").write_text(GLOSSARY, encoding="utf-8")
    assert pnp("i18n", "status", GAME, project=project).exit_code == 0
    replace_in(folder / "cards.yaml", "text: Takes a coin.", "text: Robbers take a coin.")
    result = pnp("validate", GAME, project=project)
    line = line_of(folder / "cards.yaml", "Robbers take a coin.")
    expected = (f"components/{GAME}/cards.yaml:{line}: decks.coins.extra.thief.text: [en] glossary: 'Robbers' for thief, "
                "the glossary's term is 'thief' (avoid 'robber')")
    assert result.exit_code == 1 and expected in result.output, result.output


def test_a_translation_that_avoids_the_glossary_s_term_is_named_at_its_catalog_line(translated_project):
    folder = translated_project / "components" / GAME
    (folder / "glossary.yaml").write_text(GLOSSARY, encoding="utf-8")
    catalog = folder / "locales" / f"{TRANSLATED_LOCALE}.po"
    replace_in(catalog, 'msgstr "Takes a coin."', 'msgstr "Burglary: a coin."')
    status = pnp("i18n", "status", GAME, project=translated_project)
    line = line_of(catalog, 'msgid "Takes a coin."')
    expected = (f"components/{GAME}/locales/{TRANSLATED_LOCALE}.po:{line}: decks.coins.extra.thief.text: [{TRANSLATED_LOCALE}] "
                "glossary: 'Burglary' for thief")
    assert status.exit_code == 1 and expected in status.output, status.output


def test_a_glossary_is_checked_against_its_schema(tmp_path):
    project = project_copy(SAMPLE, tmp_path)
    (project / "components" / GAME / "glossary.yaml").write_text(
        "glossary:\n  thief: {avoid: {en: [robber]}}\n", encoding="utf-8")
    result = pnp("validate", GAME, project=project)
    assert result.exit_code == 1 and f"components/{GAME}/glossary.yaml:2: glossary.thief" in result.output, result.output
