"""A square's effects (IR statements) in words, for the squares the booklet describes.

Card texts are printed as written; only squares need this. A statement the table cannot
put in words says so (`effects/unsupported`) instead of being skipped.
"""
from __future__ import annotations

from rulebook.booklet import Booklet, escape

ME = {"k": "var", "name": "me"}
BANK = {"k": "bank"}


def amount(book: Booklet, expr: dict) -> str:
    if expr["k"] == "int":
        return book.money(expr["v"])
    if expr["k"] == "setting":
        return book.value(expr["path"], book.setting(expr["path"]))
    return book.words.text("effects/formula")


def describe(book: Booklet, stmts: list[dict]) -> str:
    """The statements as one phrase: `pay 4 000 kr to the bank`."""
    return book.words.join([statement(book, stmt) for stmt in stmts])


def statement(book: Booklet, stmt: dict) -> str:
    words = book.words
    match stmt:
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
