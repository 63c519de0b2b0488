"""Decks declared as a matrix: every combination of the deck's axes (suit × rank) is a card
with the fields of its entries, jokers and other `extra` cards are added to each copy, and a
deck printed several times can give each copy its own back, so the copies sort apart again.

`decks.standard.matrix.rank.k.name` is the catalog key of a king's name, as it is the key path
of the text in cards.yaml; a generated card's id is `<deck>-<entry>-...[-<copy>]`.
"""
from __future__ import annotations

from itertools import product

from ..core.yamlfile import Located


# decided: a deck generates at most this many cards (its matrix's combinations and its extra
# cards, times its backs): a standard deck with jokers and four backs is 212; the schema's
# bounds alone allow 60 x 60 x 60 x 20, millions of cards expanded before any check.
MAX_DECK_CARDS = 2_000


def deck_size(deck: dict) -> tuple[int, str]:
    """How many cards a matrix deck generates, counted before any is made, and the product that
    says how ("4 suit x 13 rank + 1 extra, times 4 backs")."""
    axes = [(axis, len(values) if isinstance(values, dict) else 1) for axis, values in deck["matrix"].items()]
    size, how = 1, " x ".join(f"{n} {axis}" for axis, n in axes)
    for _, n in axes:
        size *= n
    extra = len(deck["extra"]) if isinstance(deck.get("extra"), dict) else 0
    if extra:
        size, how = size + extra, f"{how} + {extra} extra"
    backs = len(deck["backs"]) if isinstance(deck.get("backs"), list) else 0
    if backs:
        size, how = size * backs, f"{how}, times {backs} backs"
    return size, how


def _card(deck_id: str, suffix: str, fields: dict, roots: dict, source: Located, count: dict,
          back: str | None) -> tuple[str, Located, dict]:
    data = Located({**fields, "deck": deck_id, "count": count, **({"back": back} if back else {})})
    data.file, data.line = source.file, source.line
    data.key_lines = {key: source.line_of(key) for key in fields if key in source}
    return f"{deck_id}-{suffix}", data, roots


def matrix_cards(decks: dict) -> list[tuple[str, Located, dict]]:
    """(card id, card data, catalog key root of each text field) for every generated card."""
    cards = []
    for deck_id, deck in decks.items():
        matrix = deck.get("matrix")
        if not isinstance(matrix, dict) or not matrix or deck_size(deck)[0] > MAX_DECK_CARDS:
            continue            # a deck past the limit is an error of its own (validate.deck_problems)
        copies = {edition: int(n) for edition, n in deck.get("count", {}).items()}
        backs = list(deck.get("backs") or [])
        entries = []        # (suffix, fields, roots, source, per copy)
        for combination in product(*[[(axis, key, entry) for key, entry in values.items()]
                                     for axis, values in matrix.items()]):
            fields, roots, printed = {}, {}, {}
            for axis, key, entry in combination:
                printed[axis] = key                # the entry itself is a value too ({suit})
                for name, value in entry.items():
                    if name == "fields":           # each axis adds its own (later axes win)
                        printed.update(value)
                        continue
                    fields[name] = value
                    roots[name] = f"decks.{deck_id}.matrix.{axis}.{key}"
            fields["fields"] = printed
            entries.append(("-".join(key for _, key, _ in combination), fields, roots, combination[-1][2], 1))
        for extra_id, extra in (deck.get("extra") or {}).items():
            fields = {name: value for name, value in extra.items() if name != "copies"}
            roots = {name: f"decks.{deck_id}.extra.{extra_id}" for name in fields}
            entries.append((extra_id, fields, roots, extra, int(extra.get("copies", 1))))
        for suffix, fields, roots, source, per_copy in entries:
            if backs:
                # copy n has back n; an edition with fewer copies leaves the last backs out
                for n, back in enumerate(backs, 1):
                    count = {edition: per_copy if n <= total else 0 for edition, total in copies.items()}
                    cards.append(_card(deck_id, f"{suffix}-{n}", fields, roots, source, count, back))
            else:
                count = {edition: per_copy * total for edition, total in copies.items()}
                cards.append(_card(deck_id, suffix, fields, roots, source, count, None))
    return cards
