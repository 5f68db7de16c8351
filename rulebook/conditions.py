"""Conditions (IR expressions that say yes or no) in words: hooks' guards, a chosen element's
filter, the end of the game.

Each shape a booklet can say has one phrase (`cond/<shape>`), filled from the IR; formulas
are read through (their bodies, with the arguments bound). A shape the table cannot say is
`cond/formula`, never left out.
"""
from __future__ import annotations

from rulebook.booklet import Booklet

Nouns = dict[str, str]   # a variable's name -> how the booklet names what it holds ("the square")

ME = {"k": "var", "name": "me"}


def bind(expr, names: dict[str, dict]):
    """`expr` with the variables `names` replaced by expressions (a formula's arguments)."""
    if isinstance(expr, dict):
        if expr.get("k") == "var" and expr["name"] in names:
            return names[expr["name"]]
        return {key: bind(value, names) for key, value in expr.items()}
    if isinstance(expr, list):
        return [bind(value, names) for value in expr]
    return expr


def expand(book: Booklet, expr):
    """Every formula call in `expr` replaced by its body (formulas are not recursive)."""
    if isinstance(expr, list):
        return [expand(book, value) for value in expr]
    if not isinstance(expr, dict):
        return expr
    if expr.get("k") == "call" and expr["fn"] in book.ir["formulas"]:
        formula = book.ir["formulas"][expr["fn"]]
        return expand(book, bind(formula["body"], dict(zip(formula["params"], expr["args"]))))
    return {key: expand(book, value) for key, value in expr.items()}


def parts(expr: dict, op: str) -> list[dict]:
    """`a and b and c` as [a, b, c]."""
    if expr.get("k") == "bin" and expr["op"] == op:
        return parts(expr["l"], op) + parts(expr["r"], op)
    return [expr]


def state_set(book: Booklet, owner: dict, state: str) -> str:
    """A player's state by name: `your passport`."""
    return book.noun(state, "your") if owner == ME else book.noun(state, "the")


def kind_filter(expr: dict, var: str) -> str | None:
    """The kind a condition asks of `var` (`var.kind == lot`), if that is all it asks."""
    match expr:
        case {"k": "bin", "op": "==", "l": {"k": "attr", "name": "kind", "of": {"k": "var", "name": name}},
              "r": {"k": "enum", "v": kind}} if name == var:
            return kind
    return None


def condition(book: Booklet, expr: dict, nouns: Nouns) -> str:
    """The condition in words, its variables named by `nouns`."""
    return say(book, expand(book, expr), nouns)


def say(book: Booklet, expr: dict, nouns: Nouns) -> str:
    words = book.words
    match expr:
        case {"k": "bin", "op": "and" | "or" as op}:
            return words.join([say(book, part, nouns) for part in parts(expr, op)], "and" if op == "and" else "or")
        case {"k": "bin", "op": "==" | "!=" as op, "l": {"k": "attr", "name": "kind", "of": {"k": "var", "name": var}},
              "r": {"k": "enum", "v": kind}} if var in nouns:
            key = "cond/kind_is" if op == "==" else "cond/kind_not"
            return words.text(key, what=nouns[var], kind=book.kind_noun(kind, "a"))
        case {"k": "not", "e": {"k": "bin", "op": "in", "l": {"k": "var", "name": var}, "r": {"k": "attr", "of": owner, "name": state}}} if var in nouns:
            return words.text("cond/not_in", what=nouns[var], set=state_set(book, owner, state))
        case {"k": "bin", "op": "in", "l": {"k": "var", "name": var}, "r": {"k": "attr", "of": owner, "name": state}} if var in nouns:
            return words.text("cond/in", what=nouns[var], set=state_set(book, owner, state))
        case {"k": "bin", "op": "==", "l": {"k": "agg", "fn": "count", "var": mine, "over": {"k": "attr", "of": owner, "name": state}, "body": body},
              "r": {"k": "agg", "fn": "count", "var": every, "over": {"k": "var", "name": "squares"}, "body": every_body}} \
                if (kind := kind_filter(body, mine)) and kind == kind_filter(every_body, every):
            return words.text("cond/holds_all", set=state_set(book, owner, state), kinds=book.kind_noun(kind, "many"))
        case {"k": "bin", "op": ">=", "l": {"k": "agg", "fn": "count", "over": {"k": "var", "name": "players"},
                                            "body": {"k": "attr", "name": "bankrupt"}}, "r": {"k": "int", "v": n}}:
            return words.text("cond/bankrupt_at_least", n=n)
        case {"k": "bin", "op": "<=", "l": {"k": "agg", "fn": "count", "over": {"k": "var", "name": "players"},
                                            "body": {"k": "not", "e": {"k": "attr", "name": "bankrupt"}}}, "r": {"k": "int", "v": n}}:
            return words.text("cond/left_at_most", n=n)
        case {"k": "bin", "op": ">=", "l": {"k": "var", "name": "rounds"}, "r": {"k": "int", "v": n}}:
            return words.text("cond/rounds", n=n)
    return words.text("cond/formula")
