"""Expressions in words: hooks' guards, a chosen element's filter, the end of the game, and any
other expression a rule holds (a rent formula, an action's conditions, a procedure's values).

Each shape a booklet says well has one phrase (`cond/<shape>`); any other expression is read
part by part (`expr/...`: operators, aggregates, names), so no rule is left out or left vague.
A formula the glossary names (`terms/<formula>`) is said by that name and defined once on the
rules page; a formula with a constant body is said as its value; any other formula is read
through (its body, with the arguments bound).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator

from grammar.language import ATTRS, DEED_KINDS, STATE_OWNERS
from rulebook.booklet import MONEY_SETTINGS, Booklet, escape

Nouns = dict[str, str]   # a variable's name -> how the booklet names what it holds ("the square")

ME = {"expr": "var", "name": "me"}


def bind(expr: Any, names: dict[str, dict]) -> Any:
    """`expr` with the variables `names` replaced by expressions (a formula's arguments)."""
    if isinstance(expr, dict):
        if expr.get("expr") == "var" and expr["name"] in names:
            return names[expr["name"]]
        return {key: bind(value, names) for key, value in expr.items()}
    if isinstance(expr, list):
        return [bind(value, names) for value in expr]
    return expr


def term(book: Booklet, fn: str) -> str | None:
    """The glossary's name for a formula or procedure (`terms/<fn>`), if it has one."""
    return book.words.raw(f"terms/{fn}") if book.words.has(f"terms/{fn}") else None


def constant(book: Booklet, expr: dict) -> int | None:
    """The value of a call to a formula whose body is a number (`formula limit() = N`)."""
    if expr.get("expr") == "call" and expr["function"] in book.ir["formulas"]:
        body = book.ir["formulas"][expr["function"]]["body"]
        return body["value"] if body["expr"] == "int" else None
    return None


def expand(book: Booklet, expr: Any) -> Any:
    """Every formula call in `expr` replaced by its body (formulas are not recursive), except
    the formulas the glossary names and those that are a number."""
    if isinstance(expr, list):
        return [expand(book, value) for value in expr]
    if not isinstance(expr, dict):
        return expr
    if expr.get("expr") == "call" and expr["function"] in book.ir["formulas"] and not term(book, expr["function"]) \
            and constant(book, expr) is None:
        formula = book.ir["formulas"][expr["function"]]
        return expand(book, bind(formula["body"], dict(zip(formula["params"], expr["args"], strict=True))))
    return {key: expand(book, value) for key, value in expr.items()}


def parts(expr: dict, op: str) -> list[dict]:
    """`a and b and c` as [a, b, c]."""
    if expr.get("expr") == "bin" and expr["operator"] == op:
        return parts(expr["left"], op) + parts(expr["right"], op)
    return [expr]


def state_set(book: Booklet, owner: dict, state: str) -> str:
    """A player's state by name: `your passport`."""
    return book.noun(state, "your") if owner == ME else book.noun(state, "the")


def kind_filter(expr: dict, var: str) -> str | None:
    """The kind a condition asks of `var` (`var.kind == lot`), if that is all it asks."""
    match expr:
        case {"expr": "bin", "operator": "==",
              "left": {"expr": "attr", "name": "kind", "subject": {"expr": "var", "name": name}},
              "right": {"expr": "enum", "value": kind}} if name == var:
            return kind
    return None


def condition(book: Booklet, expr: dict, nouns: Nouns) -> str:
    """The condition in words, its variables named by `nouns`."""
    return say(book, expand(book, expr), nouns)


def say(book: Booklet, expr: dict, nouns: Nouns) -> str:
    words = book.words
    match expr:
        case {"expr": "bin", "operator": "and" | "or" as op}:
            return words.join([say(book, part, nouns) for part in parts(expr, op)], "and" if op == "and" else "or")
        case {"expr": "bin", "operator": "==" | "!=" as op,
              "left": {"expr": "attr", "name": "kind", "subject": {"expr": "var", "name": var}},
              "right": {"expr": "enum", "value": kind}} if var in nouns:
            key = "cond/kind_is" if op == "==" else "cond/kind_not"
            return words.text(key, what=nouns[var], kind=book.kind_noun(kind, "a"))
        case {"expr": "not", "operand": {"expr": "bin", "operator": "in", "left": {"expr": "var", "name": var},
                                         "right": {"expr": "attr", "subject": owner, "name": state}}} if var in nouns:
            return words.text("cond/not_in", what=nouns[var], set=state_set(book, owner, state))
        case {"expr": "bin", "operator": "in", "left": {"expr": "var", "name": var},
              "right": {"expr": "attr", "subject": owner, "name": state}} if var in nouns:
            return words.text("cond/in", what=nouns[var], set=state_set(book, owner, state))
        case {"expr": "bin", "operator": "==",
              "left": {"expr": "agg", "function": "count", "var": mine,
                       "over": {"expr": "attr", "subject": owner, "name": state}, "body": body},
              "right": {"expr": "agg", "function": "count", "var": every,
                        "over": {"expr": "var", "name": "squares"}, "body": every_body}} \
                if (kind := kind_filter(body, mine)) and kind == kind_filter(every_body, every):
            return words.text("cond/holds_all", set=state_set(book, owner, state), kinds=book.kind_noun(kind, "many"))
        case {"expr": "bin", "operator": ">=",
              "left": {"expr": "agg", "function": "count", "over": {"expr": "var", "name": "players"},
                       "body": {"expr": "attr", "name": "bankrupt"}},
              "right": {"expr": "int", "value": n}}:
            return words.text("cond/bankrupt_at_least", n=n)
        case {"expr": "bin", "operator": "<=",
              "left": {"expr": "agg", "function": "count", "over": {"expr": "var", "name": "players"},
                       "body": {"expr": "not", "operand": {"expr": "attr", "name": "bankrupt"}}},
              "right": {"expr": "int", "value": n}}:
            return words.text("cond/left_at_most", n=n)
        case {"expr": "bin", "operator": ">=", "left": {"expr": "var", "name": "rounds"},
              "right": {"expr": "int", "value": n}}:
            return words.text("cond/rounds", n=n)
    return phrase(book, expr, nouns)


# ---- any expression, part by part ---------------------------------------------------------

COMPARISONS = {"==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge", "in": "in"}
ARITHMETIC = {"+": "plus", "-": "minus", "*": "times", "/": "over"}
# The element kind of a set the language names, and of a set-valued attribute.
SETS = {"areas": "area", "squares": "square", "players": "player", "others": "player", "deeds": "deed",
        "groups": "group", "faces": "square"}


def holds_money(book: Booklet, expr: Any) -> bool:
    """Whether `expr` is an amount of money for certain: a printed rent, cash, a money setting."""
    match expr:
        case {"expr": "index", "list": {"expr": "var", "name": "printed"}} | {"expr": "attr", "name": "cash"}:
            return True
        case {"expr": "setting", "path": path}:
            return path in MONEY_SETTINGS
        case {"expr": "call", "function": fn} if fn in book.ir["formulas"]:
            return holds_money(book, book.ir["formulas"][fn]["body"])
        case {"expr": "bin", "operator": op, "left": left, "right": right} if op in ARITHMETIC:
            return holds_money(book, left) or holds_money(book, right)
        case {"expr": "if", "then": then, "otherwise": other}:
            return holds_money(book, then) or holds_money(book, other)
        case {"expr": "agg", "function": "sum" | "max" | "min", "body": body}:
            return holds_money(book, body)
    return False


def has_number(expr: Any) -> bool:
    """Whether a number is written in `expr`: in `dice * N`, the amount is the N."""
    if isinstance(expr, dict):
        return expr.get("expr") == "int" or any(has_number(value) for value in expr.values())
    return isinstance(expr, list) and any(has_number(value) for value in expr)


def money_parts(book: Booklet, expr: dict, money: bool) -> dict[str, bool]:
    """Which parts of `expr` are amounts of money when `expr` is (`money`): both terms of a sum;
    one factor of a product (the one holding money, else the one with a number: `dice * N`);
    both sides of a comparison with an amount; the branches of an `if`; a sum's body."""
    match expr:
        case {"expr": "bin", "operator": "*" | "/", "left": left, "right": right} if money:
            first = holds_money(book, left) or (not holds_money(book, right) and has_number(left))
            return {"left": first, "right": not first}
        case {"expr": "bin", "operator": "+" | "-"}:
            return {"left": money, "right": money}
        case {"expr": "bin", "operator": op, "left": left, "right": right} if op in COMPARISONS:
            both = holds_money(book, left) or holds_money(book, right)
            return {"left": both, "right": both}
        case {"expr": "if"}:
            return {"cond": False, "then": money, "otherwise": money}
        case {"expr": "agg", "function": "sum" | "max" | "min"}:
            return {"body": money}
    return {}


def money_calls(book: Booklet, expr: Any, money: bool) -> set[str]:
    """The formulas `expr` calls where an amount of money is meant (their terms are amounts)."""
    if isinstance(expr, list):
        return set().union(*[money_calls(book, value, money) for value in expr])
    if not isinstance(expr, dict):
        return set()
    found = set()
    if money and expr.get("expr") == "call" and expr["function"] in book.ir["formulas"]:
        found = {expr["function"]} | money_calls(book, book.ir["formulas"][expr["function"]]["body"], True)
    parts = money_parts(book, expr, money)
    amount = {"amount"} if expr.get("stmt") == "transfer" else set()
    for key, value in expr.items():
        found |= money_calls(book, value, parts.get(key, key in amount))
    return found


def element_of(over: dict) -> str:
    """The kind of the elements of a set: `areas` -> area, `s.areas` -> area."""
    match over:
        case {"expr": "var", "name": name} | {"expr": "attr", "name": name} if name in SETS:
            return SETS[name]
    return "square"


def bound(book: Booklet, kind: str, nouns: Nouns) -> str:
    """How a loop names its element: `the area`, or `the other area` inside a loop over areas."""
    noun = book.noun(kind, "the")
    return book.noun(kind, "other") if noun in nouns.values() else noun


def param_kind(book: Booklet, body: Any, param: str) -> str:
    """What a formula's or procedure's parameter holds, read from the attributes used on it."""
    used = {node["name"] for node in walk(body)
            if node.get("expr") == "attr" and node["subject"] == {"expr": "var", "name": param}}
    own = {owner: {state["name"] for state in book.ir["state"] if state["owner"] == owner} for owner in STATE_OWNERS}
    for kind in ("area", "square", "player", "deed"):
        if used <= set(ATTRS[kind]) | own.get(kind, set()):
            return kind
    return "square"


def walk(node: Any) -> Iterator[dict]:
    """Every dict inside an IR node."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


def phrase(book: Booklet, expr: dict, nouns: Nouns, money: bool = False) -> str:
    """Any expression in words (`money`: it is an amount, so its numbers are written as money)."""
    read = PHRASES.get(expr.get("expr"))
    text = read(Reading(book, expr, nouns, money, money_parts(book, expr, money))) if read else None
    return book.words.text("cond/formula") if text is None else text


@dataclass(frozen=True)
class Reading:
    """One expression being put in words: what each kind of expression's phrase needs."""

    book: Booklet
    expr: dict
    nouns: Nouns
    money: bool
    parts: dict[str, bool]   # which parts are amounts of money (money_parts)

    def part(self, key: str, scope: Nouns | None = None) -> str:
        """The part `key` in words, in brackets where it would read ambiguously."""
        inner, expr = self.expr[key], self.expr
        text = phrase(self.book, inner, self.nouns if scope is None else scope, self.parts.get(key, False))
        nested = inner.get("expr") in ("if", "agg") or (
            inner.get("expr") == "bin" and inner["operator"] in ("+", "-")
            and expr.get("expr") == "bin" and expr["operator"] in ("*", "/", "-"))
        return self.book.words.text("expr/group", e=text) if nested else text


def _number(read: Reading) -> str:
    value = read.expr["value"]
    return read.book.money(value) if read.money else str(value)


def _enum(read: Reading) -> str:
    value = read.expr["value"]
    return read.book.kind_noun(value, "a") if value in DEED_KINDS else escape(value)


def _setting(read: Reading) -> str:
    path = read.expr["path"]
    return read.book.value(path, read.book.setting(path))


def _thing(read: Reading) -> str:
    """A square, group, deck or pot by its name."""
    book = read.book
    return book.name(next(thing for key in ("squares", "groups", "decks", "pots") for thing in book.ir[key]
                          if thing["key"] == read.expr["key"]))


def _variable(read: Reading) -> str:
    name, words = read.expr["name"], read.book.words
    if read.nouns.get(name):
        return read.nouns[name]
    return words.text(f"expr/names/{name}") if words.has(f"expr/names/{name}") else escape(name)


def _attribute(read: Reading) -> str:
    name, words = read.expr["name"], read.book.words
    if words.has(f"expr/is/{name}"):   # a yes-or-no attribute
        return words.text(f"expr/is/{name}", of=read.part("subject"))
    if read.expr["subject"] == ME:
        return read.book.noun(name, "your")
    return words.text("expr/attr", name=read.book.noun(name, "the"), of=read.part("subject"))


def _printed(read: Reading) -> str | None:
    """`printed[N]`: the rent printed for N (a list index counts from 0)."""
    words = read.book.words
    match read.expr:
        case {"list": {"expr": "var", "name": "printed"}, "position": {"expr": "int", "value": value}}:
            return words.text("expr/printed", n=value + 1)
        case {"list": {"expr": "var", "name": "printed"},
              "position": {"expr": "bin", "operator": "-", "left": count, "right": {"expr": "int", "value": 1}}}:
            return words.text("expr/printed_for", n=phrase(read.book, count, read.nouns))
    return None


def _unary(read: Reading) -> str:
    operand = phrase(read.book, read.expr["operand"], read.nouns, read.money)
    return read.book.words.text(f"expr/{read.expr['expr']}", e=operand)


def _binary(read: Reading) -> str | None:
    operator, words = read.expr["operator"], read.book.words
    if operator in ("and", "or"):
        return say(read.book, read.expr, read.nouns)
    if operator in COMPARISONS:
        return words.text(f"expr/{COMPARISONS[operator]}", l=read.part("left"), r=read.part("right"))
    if operator in ARITHMETIC:
        return words.text(f"expr/{ARITHMETIC[operator]}", l=read.part("left"), r=read.part("right"))
    return None


def _choice(read: Reading) -> str:
    """`if C then A else B`."""
    condition_words = say(read.book, read.expr["cond"], read.nouns)
    return read.book.words.text("expr/if", c=condition_words, t=read.part("then"), e=read.part("otherwise"))


def _aggregate(read: Reading) -> str:
    """`count`, `sum`, `any`, ... over a set, its element named for the body."""
    book, expr, function = read.book, read.expr, read.expr["function"]
    scope = read.nouns | {expr["var"]: bound(book, element_of(expr["over"]), read.nouns)}
    body = say(book, expr["body"], scope) if function in ("count", "any", "all") else read.part("body", scope)
    return book.words.text(f"expr/agg/{function}", body=body, over=collection(book, expr["over"], read.nouns))


def _call(read: Reading) -> str | None:
    """`numbers(low, high)`, or a formula: by its value, its glossary name or its body."""
    book, expr, function = read.book, read.expr, read.expr["function"]
    match expr:
        case {"function": "numbers", "args": [low, high]}:
            return book.words.text("expr/numbers", low=phrase(book, low, read.nouns),
                                   high=phrase(book, high, read.nouns))
    if function not in book.ir["formulas"]:
        return None
    value = constant(book, expr)
    if value is not None:
        return book.money(value) if read.money else str(value)
    if term(book, function) is None:
        return phrase(book, expand(book, expr), read.nouns, read.money)
    return called(book, function, [phrase(book, arg, read.nouns) for arg in expr["args"]])


# Each kind of expression's phrase; None (or a kind not here) is said as `cond/formula`.
PHRASES: dict[str | None, Callable[[Reading], str | None]] = {
    "int": _number,
    "ratio": lambda read: read.book.percent(read.expr),
    "bool": lambda read: read.book.words.text("yes" if read.expr["value"] else "no"),
    "enum": _enum,
    "bank": lambda read: read.book.words.text("expr/bank"),
    "setting": _setting,
    "square": _thing, "group": _thing, "deck": _thing, "pot": _thing,
    "var": _variable,
    "attr": _attribute,
    "index": _printed,
    "neg": _unary, "not": _unary,
    "bin": _binary,
    "if": _choice,
    "agg": _aggregate,
    "call": _call,
}


def called(book: Booklet, fn: str, args: list[str]) -> str:
    """A formula or procedure by the glossary's name for it, its arguments in words."""
    name = term(book, fn)
    return escape(fn.replace("_", " ")) if name is None else name.format(*args)


def collection(book: Booklet, over: dict, nouns: Nouns) -> str:
    """A set in words: `areas` -> the areas; `s.areas` -> the areas of the street."""
    if over.get("expr") == "var" and over["name"] in SETS and over["name"] not in nouns:
        return words_for_set(book, over["name"])
    return phrase(book, over, nouns)


def words_for_set(book: Booklet, name: str) -> str:
    key = f"expr/names/{name}"
    return book.words.text(key) if book.words.has(key) else book.noun(SETS[name], "many")
