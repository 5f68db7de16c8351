"""Facts: the numbers an edition's source prints for its settings, independent of the
settings themselves (docs/language.md "Facts", docs/verifier.md, on independent facts).

An invariant that takes its limit from the setting it polices (`houses_in_bank <=
bank.houses`) keeps any number written there, a wrong one too. A fact is the source's
own number: a `fact SECTION.KEY = N "quote"` item, or a line of the edition's `box` (the
rule book's list of contents: a line `houses = "..."` is a fact about `bank.houses`). An
invariant reads it as `fact(bank.houses)`, which is the source's number where the edition
states one and the setting itself where it does not (the invariant is then circular for
that edition, which `verify` reports).

    stated(edition) -> {"bank.houses": N, "jail.max_turns": M, ...}
"""
from __future__ import annotations

import re

from grammar import syntax
from grammar.extend import MergedSpec

# The box's counts that state a setting (the others, the deeds and the decks' cards, are
# counts of the board and the decks, read against them by verifier/texts.py).
BOX_SETTINGS = {"houses": "bank.houses", "hotels": "bank.hotels", "tokens": "game.tokens", "dice": "game.dice"}


def printed_count(lines: list[str] | tuple[str, ...]) -> int | None:
    """What the box's lines of one count say: the first number of each line, summed (None
    where a line prints none)."""
    found = [re.search(r"\d+", line) for line in lines]
    numbers = [int(m.group(0)) for m in found if m is not None]
    return sum(numbers) if len(numbers) == len(found) else None


def stated(edition: MergedSpec) -> dict[str, int]:
    """Every setting's number as the source prints it: the edition's `fact` items (a child's
    replacing its parent's), then its box's counts for the settings no `fact` states."""
    out = {path: item.value.value for path, (_, item) in edition.facts.items()}
    for key, path in BOX_SETTINGS.items():
        found = edition.settings.get(("box", key))
        if path in out or found is None:
            continue
        value = found[1].value
        lines = value.values if isinstance(value, syntax.Texts) else (value.value,) \
            if isinstance(value, syntax.Text) else ()
        count = printed_count(lines) if lines else None
        if count is not None:
            out[path] = count
    return out
