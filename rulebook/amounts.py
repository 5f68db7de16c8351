"""What the rules charge, said the way the rule book says it (issue #17): the mortgage
amounts (`mortgage.lift`, `mortgage.transfer`) and what the bank pays for buildings sold
back (`building.sell_house`, `sell_hotel`, `trade_hotel`).

Each is an expression over `here`, the deed. One of the rule book's own form (a share of a
printed number: "the mortgage value plus its interest", "half the hotel price") keeps the
rule book's sentence; any other is said in words. A branch on a decided rule is read as the
edition decides it, as the engine runs it.
"""
from __future__ import annotations

from typing import Any

from ir.nodes import Attr, Binary, Conditional, Expr, Ratio, Setting, Var
from rulebook.booklet import Booklet
from rulebook.conditions import phrase, plain, rebuild
from rulebook.statements import decided

HERE = Var("here")
MORTGAGE_VALUE, HOUSE_COST, HOTEL_COST = Attr(HERE, "mortgage"), Attr(HERE, "house_cost"), Attr(HERE, "hotel_cost")
HOTEL_AS_HOUSES = Binary("+", HOTEL_COST, Binary("*", Setting("building.houses_per_hotel"), HOUSE_COST))

# Each amount, and the rule (the phrase entry) whose sentences say it and name its `here`.
SENTENCE = {"mortgage.lift": "mortgage.lift", "mortgage.transfer": "mortgage.transfer",
            "building.sell_house": "building.sale_value", "building.sell_hotel": "building.hotel_sale",
            "building.trade_hotel": "building.trade_hotel"}
# The rules whose sentences use the amounts' placeholders (`amount_words`).
AMOUNT_RULES = frozenset(SENTENCE.values()) | {"bankruptcy.to_player"}


def amount(book: Booklet, path: str) -> Expr | None:
    """The edition's amount, as `resolved`; None where the edition has no such amount."""
    expr = book.setting(path)
    return resolved(book, expr) if isinstance(expr, Expr) else None


def resolved(book: Booklet, expr: Expr) -> Expr:
    """An amount without the places it was written at and with every branch on a decided
    rule resolved (`if building.hotel_sale == half_hotel ...`)."""
    def resolve(node: Any) -> Expr | None:
        if isinstance(node, Conditional) and (taken := decided(book, node.cond)) is not None:
            return rebuild(node.then if taken else node.otherwise, resolve)
        return None
    return plain(rebuild(expr, resolve))


def share(expr: Expr | None, of: Expr) -> Ratio | None:
    """P of `of * P`; None for any other expression."""
    if isinstance(expr, Binary) and expr.operator == "*" and expr.left == of and isinstance(expr.right, Ratio):
        return expr.right
    return None


def interest(expr: Expr | None) -> Ratio | None:
    """P of `here.mortgage + here.mortgage * P`: the value paid back with P interest."""
    if isinstance(expr, Binary) and expr.operator == "+" and expr.left == MORTGAGE_VALUE:
        return share(expr.right, MORTGAGE_VALUE)
    return None


def mortgage_lift(book: Booklet) -> str | None:
    """`interest` (the value plus a share of it, §1's rule), `written`, or None without mortgages."""
    lift = amount(book, "mortgage.lift")
    return None if lift is None else "interest" if interest(lift) else "written"


def mortgage_transfer(book: Booklet) -> str | None:
    """`interest` (a share of the value, where lifting is the value plus a share), or `written`."""
    transfer = amount(book, "mortgage.transfer")
    if transfer is None:
        return None
    return "interest" if mortgage_lift(book) == "interest" and share(transfer, MORTGAGE_VALUE) else "written"


def sale_value(book: Booklet) -> str | None:
    """`share` (a house sells back for a share of its price, §1's rule), or `written`."""
    house = amount(book, "building.sell_house")
    return None if house is None else "share" if share(house, HOUSE_COST) else "written"


def hotel_sale(book: Booklet) -> str | None:
    """A hotel sold back whole, by §2's two readings at the houses' share: the hotel and the
    houses it replaced (`half_hotel_and_houses`), the hotel alone (`half_hotel`); else `written`."""
    hotel, house = amount(book, "building.sell_hotel"), share(amount(book, "building.sell_house"), HOUSE_COST)
    if hotel is None:
        return None
    if house is not None and share(hotel, HOTEL_AS_HOUSES) == house:
        return "half_hotel_and_houses"
    return "half_hotel" if house is not None and share(hotel, HOTEL_COST) == house else "written"


def hotel_trade(book: Booklet) -> str | None:
    """A hotel traded back for houses: `share` (a share of the hotel price), or `written`."""
    trade = amount(book, "building.trade_hotel")
    return None if trade is None else "share" if share(trade, HOTEL_COST) else "written"


def words(book: Booklet, path: str, expr: Expr) -> str:
    """An amount (`path`'s, as `resolved`) in words, with the noun its rule's sentences call
    `here` by: the sentences' placeholders, and the compare page's cells."""
    key = f"rules/{SENTENCE[path]}/here"
    nouns = {"here": book.words.text(key)} if book.words.has(key) else {}
    return phrase(book, resolved(book, expr), nouns, money=True)


def amount_words(book: Booklet) -> dict[str, str]:
    """The placeholders of the sentences that say the amounts: each amount in words (`{lift}`,
    `{transfer}`, `{sell_house}`, `{sell_hotel}`, `{trade_hotel}`), and the share the rule
    book's sentences name, where the amount has the rule book's form (else the amount in
    words): `{mortgage_interest}`, `{mortgage_transfer_interest}`, `{building_sale_value}`,
    `{building_trade_value}`."""
    out = {path.split(".")[1]: words(book, path, expr) for path in SENTENCE
           if isinstance(expr := book.setting(path), Expr)}
    shares = {"mortgage_interest": ("lift", interest(amount(book, "mortgage.lift"))),
              "mortgage_transfer_interest": ("transfer", share(amount(book, "mortgage.transfer"), MORTGAGE_VALUE)),
              "building_sale_value": ("sell_house", share(amount(book, "building.sell_house"), HOUSE_COST)),
              "building_trade_value": ("trade_hotel", share(amount(book, "building.trade_hotel"), HOTEL_COST))}
    for placeholder, (said, part) in shares.items():
        if said in out:
            out[placeholder] = book.percent(part) if part is not None else out[said]
    return out


READINGS = {"rules.mortgage_lift": mortgage_lift, "rules.mortgage_transfer": mortgage_transfer,
            "rules.sale_value": sale_value, "rules.hotel_sale": hotel_sale, "rules.hotel_trade": hotel_trade}
