"""The "same and new" page: an edition against the one it extends, rule by rule.

The Wonders of the World booklet introduces itself this way: the standard rules apply,
except what follows. Here the list is computed from the two IRs, so it cannot go stale.
"""
from __future__ import annotations

from ir.ruleset import Ruleset, SettingValue, Square
from rulebook.booklet import Booklet
from rulebook.mechanics import items
from rulebook.rules_page import setting_words

Row = tuple[str, str, str, str]


def verdict(book: Booklet, old: object, new: object) -> str:
    if old is None:
        return book.words.text("compare/new")
    return book.words.text("compare/same" if old == new else "compare/different")


def table(book: Booklet, parent: Ruleset, head: str, rows: list[Row]) -> str:
    words = book.words
    top = [words.text(head), parent.edition.title or parent.edition.key, book.values["edition"], ""]
    lines = ["| " + " | ".join(top) + " |", "|---|---|---|---|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def shown(book: Booklet, path: str, value: SettingValue | None) -> str:
    return book.words.text("compare/open") if value is None else setting_words(book, path, value)


def settings_rows(book: Booklet, parent: Ruleset) -> list[Row]:
    decided = {decision.key for decision in book.ruleset.decisions}
    before = parent.settings.sections()
    rows = []
    for section, keys in book.sections.items():
        for key, value in keys.items():
            path = f"{section}.{key}"
            if path in decided:
                continue
            old = before.get(section, {}).get(key)
            rows.append((book.words.text(f"settings/{path}"), shown(book, path, old), shown(book, path, value),
                         verdict(book, old, value)))
    return rows


def decision_rows(book: Booklet, parent: Ruleset) -> list[Row]:
    before = {decision.key: decision.choice for decision in parent.decisions}
    rows = []
    for decision in book.ruleset.decisions:
        key, choice, old = decision.key, decision.choice, before.get(decision.key)
        mark = book.words.text("compare/decided") if old is None else verdict(book, old, choice)
        rows.append((book.words.text(f"settings/{key}"), shown(book, key, old), shown(book, key, choice), mark))
    return rows


def square_label(book: Booklet, square: Square) -> str:
    name = book.name(square) if square.name else book.words.text("compare/unnamed")
    return f"{name}, {book.money(square.deed.price)}" if square.deed and square.deed.price else name


def square_rows(book: Booklet, parent: Ruleset) -> list[Row]:
    rows = []
    for old, new in zip(parent.squares, book.ruleset.squares, strict=True):
        before = (old.name, old.deed, old.on_land, old.on_pass)
        after = (new.name, new.deed, new.on_land, new.on_pass)
        mark = verdict(book, None if old.name is None else before, after)
        rows.append((str(new.index), square_label(book, old), square_label(book, new), mark))
    return rows


def deck_rows(book: Booklet, parent: Ruleset) -> list[Row]:
    """Each deck of the edition against the parent's, then each deck of the parent's the
    edition removes (`remove deck ID`: it has none, where the rest of the booklet is silent)."""
    before = {deck.key: deck.cards for deck in parent.decks}
    words = book.words
    rows = []
    for deck in book.ruleset.decks:
        old = before.get(deck.key, ())
        first, second = (words.text("compare/cards", n=len(cards)) for cards in (old, deck.cards))
        rows.append((book.name(deck), first, second, verdict(book, old or None, deck.cards)))
    kept = {deck.key for deck in book.ruleset.decks}
    for deck in parent.decks:
        if deck.key not in kept:
            rows.append((book.name(deck), words.text("compare/cards", n=len(deck.cards)),
                         words.text("compare/none"), words.text("compare/removed")))
    return rows


def compare_page(book: Booklet) -> str:
    out = [f"# {book.say('pages/compare_title')}\n"]
    parent = book.parent
    if parent is None:
        return "\n".join(out + [book.say("compare/no_parent") + "\n"])
    about = parent.edition
    out.append(book.say("compare/intro", parent=about.title or about.key) + f" (`{about.key}`)\n")
    for head, rows in (("compare/decisions", decision_rows(book, parent)),
                       ("compare/settings", settings_rows(book, parent)),
                       ("compare/board", square_rows(book, parent)), ("compare/decks", deck_rows(book, parent))):
        out += [f"## {book.words.text(head)}\n", table(book, parent, "compare/rule", rows)]
    return "\n".join(out + added(book, parent))


def added(book: Booklet, parent: Ruleset) -> list[str]:
    """The rules the edition adds with state, hooks, setup, pots and invariants (the parent's
    own are the same), as the WOTW booklet lists its new rules after "the standard rules apply"."""
    inherited = [rule for _, _, _, rule in items(Booklet(parent, book.words))]
    new = [f"- {text}" for _, text, _, rule in items(book) if rule not in inherited]
    return [f"## {book.words.text('compare/added')} {{#added}}\n", *new, ""] if new else []
