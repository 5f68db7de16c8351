"""The "same and new" page: an edition against the one it extends, rule by rule.

The Wonders of the World booklet introduces itself this way: the standard rules apply,
except what follows. Here the list is computed from the two IRs, so it cannot go stale.
"""
from __future__ import annotations

from typing import Any

from rulebook.booklet import Booklet
from rulebook.mechanics import items


def verdict(book: Booklet, old: Any, new: Any) -> str:
    if old is None:
        return book.words.text("compare/new")
    return book.words.text("compare/same" if old == new else "compare/different")


def table(book: Booklet, head: str, rows: list[tuple[str, str, str, str]]) -> str:
    words = book.words
    parent = book.parent["edition"]
    top = [words.text(head), parent.get("title") or parent["key"], book.values["edition"], ""]
    lines = ["| " + " | ".join(top) + " |", "|---|---|---|---|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def shown(book: Booklet, path: str, value: Any) -> str:
    return book.words.text("compare/open") if value is None else book.value(path, value)


def settings_rows(book: Booklet) -> list[tuple[str, str, str, str]]:
    decided = {d["key"] for d in book.ir["decisions"]}
    rows = []
    for section, keys in book.settings.items():
        for key, value in keys.items():
            path = f"{section}.{key}"
            if path in decided:
                continue
            old = book.parent["settings"].get(section, {}).get(key)
            rows.append((book.words.text(f"settings/{path}"), shown(book, path, old), shown(book, path, value),
                         verdict(book, old, value)))
    return rows


def decision_rows(book: Booklet) -> list[tuple[str, str, str, str]]:
    parent = {d["key"]: d.get("choice") for d in book.parent["decisions"]}
    rows = []
    for decision in book.ir["decisions"]:
        key, choice, old = decision["key"], decision["choice"], parent.get(decision["key"])
        mark = book.words.text("compare/decided") if old is None else verdict(book, old, choice)
        rows.append((book.words.text(f"settings/{key}"), shown(book, key, old), shown(book, key, choice), mark))
    return rows


def square_label(book: Booklet, square: dict) -> str:
    name = book.name(square) if square.get("name") else book.words.text("compare/unnamed")
    return f"{name}, {book.money(square['deed']['price'])}" if square["deed"] and square["deed"].get("price") else name


def square_rows(book: Booklet) -> list[tuple[str, str, str, str]]:
    rows = []
    for old, new in zip(book.parent["squares"], book.ir["squares"], strict=True):
        before = (old.get("name"), old["deed"], old["on_land"], old["on_pass"])
        after = (new.get("name"), new["deed"], new["on_land"], new["on_pass"])
        mark = verdict(book, None if old.get("name") is None else before, after)
        rows.append((str(new["index"]), square_label(book, old), square_label(book, new), mark))
    return rows


def deck_rows(book: Booklet) -> list[tuple[str, str, str, str]]:
    parent = {d["key"]: d for d in book.parent["decks"]}
    rows = []
    for deck in book.ir["decks"]:
        old = parent.get(deck["key"], {"cards": []})
        counts = [book.words.text("compare/cards", n=len(d["cards"])) for d in (old, deck)]
        rows.append((book.name(deck), *counts, verdict(book, old["cards"] or None, deck["cards"])))
    return rows


def compare_page(book: Booklet) -> str:
    out = [f"# {book.say('pages/compare_title')}\n"]
    if book.parent is None:
        return "\n".join(out + [book.say("compare/no_parent") + "\n"])
    parent = book.parent["edition"]
    out.append(book.say("compare/intro", parent=parent.get("title") or parent["key"]) + f" (`{parent['key']}`)\n")
    for head, rows in (("compare/decisions", decision_rows(book)), ("compare/settings", settings_rows(book)),
                       ("compare/board", square_rows(book)), ("compare/decks", deck_rows(book))):
        out += [f"## {book.words.text(head)}\n", table(book, "compare/rule", rows)]
    return "\n".join(out + added(book))


def added(book: Booklet) -> list[str]:
    """The rules the edition adds with state, hooks, setup, pots and invariants (the parent's
    own are the same), as the WOTW booklet lists its new rules after "the standard rules apply"."""
    parent = [thing for _, _, _, thing in items(Booklet(book.parent, book.words))]
    new = [f"- {text}" for _, text, _, thing in items(book) if thing not in parent]
    return [f"## {book.words.text('compare/added')} {{#added}}\n", *new, ""] if new else []
