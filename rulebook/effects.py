"""Statements (IR effects) in words: squares' rules, hooks, setup.

Card texts are printed as written; only squares, hooks and setup need this. A statement the
table cannot put in words says so (`effects/unsupported`) instead of being skipped.
"""
from __future__ import annotations

from rulebook.booklet import Booklet, escape
from rulebook.conditions import ME, Nouns, condition, kind_filter, parts, state_set


def amount(book: Booklet, expr: dict) -> str:
    if expr["k"] == "int":
        return book.money(expr["v"])
    if expr["k"] == "setting":
        return book.value(expr["path"], book.setting(expr["path"]))
    return book.words.text("effects/formula")


def describe(book: Booklet, stmts: list[dict], nouns: Nouns | None = None) -> str:
    """The statements as one phrase: `pay 4 000 kr to the bank`; `nouns` name the variables in scope."""
    return book.words.join([statement(book, stmt, nouns or {}) for stmt in stmts])


def choose_in(book: Booklet, stmt: dict, nouns: Nouns) -> str:
    """`choose w in SET where ... or skip { ... }`: the kind asked for names the choice."""
    conditions = parts(stmt["where"], "and") if stmt["where"] else []
    kind = kind_filter(conditions[0], stmt["var"]) if conditions else None
    if kind:
        conditions = conditions[1:]
    thing = book.kind_noun(kind or stmt["element"], "a")
    scope = nouns | {stmt["var"]: book.kind_noun(kind or stmt["element"], "the")}
    where = [condition(book, c, scope) for c in conditions]
    return book.words.text("effects/choose_in", thing=thing, body=describe(book, stmt["body"], scope),
                           where=book.words.text("effects/choose_where", cond=book.words.join(where)) if where else "",
                           skip=book.words.text("effects/or_skip") if stmt["skip"] else "")


def statement(book: Booklet, stmt: dict, nouns: Nouns) -> str:
    words = book.words
    match stmt:
        case {"do": "transfer", "from": {"k": "pot", "id": pot}, "to": {"k": "var", "name": "me"}}:
            return words.text("effects/take_pot", pot=book.name(next(k for k in book.ir["pots"] if k["id"] == pot)))
        case {"do": "add", "item": {"k": "var", "name": var}}:
            return words.text("effects/add", what=nouns.get(var, escape(var)), set=state_set(book, stmt["to"], stmt["state"]))
        case {"do": "choose_in"}:
            return choose_in(book, stmt, nouns)
        case {"do": "end_game"}:
            return words.text("effects/end_game")
        case {"do": "deal"}:
            paying = words.text("effects/deal_paying" if stmt["paying"] else "effects/deal_free")
            if stmt["each"] is None:
                return words.text("effects/deal_all", paying=paying)
            each = stmt["each"]
            return words.text("effects/deal_each", paying=paying,
                              n=each["v"] if each["k"] == "int" else words.text("effects/formula"))
        case {"do": "transfer", "from": {"k": "bank"}, "to": {"k": "var", "name": "me"}}:
            return words.text("effects/collect", amount=amount(book, stmt["amount"]))
        case {"do": "transfer", "from": {"k": "var", "name": "me"}, "to": {"k": "bank"}}:
            return words.text("effects/pay", amount=amount(book, stmt["amount"]))
        case {"do": "for", "over": {"k": "var", "name": "others"}, "body": [transfer]} if transfer["do"] == "transfer":
            key = "effects/pay_each" if transfer["from"] == ME else "effects/collect_each"
            return words.text(key, amount=amount(book, transfer["amount"]))
        case {"do": "draw"}:
            deck = next(d for d in book.ir["decks"] if d["id"] == stmt["deck"])
            return words.text("effects/draw", deck=book.name(deck))
        case {"do": "go_to_jail"}:
            return words.text("effects/go_to_jail", jail=book.values["jail_square"])
        case {"do": "move_to"}:
            return words.text("effects/move_to", square=book.name(book.square(stmt["square"])))
        case {"do": "choose"}:
            return words.text("effects/choose", options=words.join([f"“{escape(o['label'])}”" for o in stmt["options"]], "or"))
    return words.text("effects/unsupported")
