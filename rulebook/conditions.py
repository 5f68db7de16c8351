"""Expressions in words: hooks' guards, a chosen element's filter, the end of the game, and any
other expression a rule holds (a rent formula, an action's conditions, a procedure's values).

Each shape a booklet says well has one phrase (`cond/<shape>`); any other expression is read
part by part (`expr/...`: operators, aggregates, names), so no rule is left out or left vague.
A formula the glossary names (`terms/<formula>`) is said by that name and defined once on the
rules page; a formula with a constant body is said as its value; any other formula is read
through (its body, with the arguments bound).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from grammar.language import ATTRS, DEED_KINDS, STATE_OWNERS
from ir.nodes import (
    Aggregate,
    Attr,
    Bank,
    Binary,
    Bool,
    Call,
    Conditional,
    DeckRef,
    Expr,
    GroupRef,
    Index,
    Int,
    Neg,
    Not,
    Old,
    Option,
    PotRef,
    Ratio,
    Setting,
    SquareRef,
    Transfer,
    Var,
)
from rulebook.booklet import MONEY_SETTINGS, Booklet, Named, escape

Nouns = dict[str, str]   # a variable's name -> how the booklet names what it holds ("the square")

ME = Var("me")


def rebuild(node: Any, change: Callable[[Any], Any | None]) -> Any:
    """`node` with every node inside it (itself first) that `change` returns a replacement for
    replaced, the rest rebuilt around them (IR nodes are immutable)."""
    if isinstance(node, tuple) and not hasattr(node, "_fields"):   # a list of nodes, not a position
        return tuple(rebuild(item, change) for item in node)
    if not dataclasses.is_dataclass(node) or isinstance(node, type):
        return node
    replaced = change(node)
    if replaced is not None:
        return replaced
    return dataclasses.replace(node, **{field.name: rebuild(getattr(node, field.name), change)
                                        for field in dataclasses.fields(node)})


def plain(expr: Any) -> Any:
    """An expression without the places it was written at (for comparing with a pattern)."""
    if isinstance(expr, tuple):
        return tuple(plain(item) for item in expr)
    if not dataclasses.is_dataclass(expr) or isinstance(expr, type):
        return expr
    fields = {field.name: None if field.name == "written_at" else plain(getattr(expr, field.name))
              for field in dataclasses.fields(expr)}
    return dataclasses.replace(expr, **fields)


def bind(expr: Expr, names: dict[str, Expr]) -> Expr:
    """`expr` with the variables `names` replaced by expressions (a formula's arguments)."""
    return rebuild(expr, lambda node: names.get(node.name) if isinstance(node, Var) else None)


def term(book: Booklet, function: str) -> str | None:
    """The glossary's name for a formula or procedure (`terms/<function>`), if it has one."""
    return book.words.raw(f"terms/{function}") if book.words.has(f"terms/{function}") else None


def constant(book: Booklet, expr: Expr) -> int | None:
    """The value of a call to a formula whose body is a number (`formula limit() = N`)."""
    if isinstance(expr, Call) and expr.function in book.ruleset.formulas:
        body = book.ruleset.formulas[expr.function].body
        return body.value if isinstance(body, Int) else None
    return None


def expand(book: Booklet, expr: Expr) -> Expr:
    """Every formula call in `expr` replaced by its body (formulas are not recursive), except
    the formulas the glossary names and those that are a number."""
    def inline(node: Any) -> Expr | None:
        if isinstance(node, Call) and node.function in book.ruleset.formulas and not term(book, node.function) \
                and constant(book, node) is None:
            formula = book.ruleset.formulas[node.function]
            return expand(book, bind(formula.body, dict(zip(formula.params, node.args, strict=True))))
        return None
    return rebuild(expr, inline)


def parts(expr: Expr, operator: str) -> list[Expr]:
    """`a and b and c` as [a, b, c]."""
    if isinstance(expr, Binary) and expr.operator == operator:
        return parts(expr.left, operator) + parts(expr.right, operator)
    return [expr]


def state_set(book: Booklet, owner: Expr, state: str) -> str:
    """A player's state by name: `your passport`."""
    return book.noun(state, "your") if owner == ME else book.noun(state, "the")


def kind_filter(expr: Expr, var: str) -> str | None:
    """The kind a condition asks of `var` (`var.kind == lot`), if that is all it asks."""
    match expr:
        case Binary(operator="==", left=Attr(name="kind", subject=Var(name=name)), right=Option(value=kind)) \
                if name == var:
            return kind
    return None


def condition(book: Booklet, expr: Expr, nouns: Nouns) -> str:
    """The condition in words, its variables named by `nouns`."""
    return say(book, expand(book, expr), nouns)


def say(book: Booklet, expr: Expr, nouns: Nouns) -> str:
    words = book.words
    match expr:
        case Binary(operator="and" | "or" as operator):
            return words.join([say(book, part, nouns) for part in parts(expr, operator)],
                              "and" if operator == "and" else "or")
        case Binary(operator="==" | "!=" as operator, left=Attr(name="kind", subject=Var(name=var)),
                    right=Option(value=kind)) if var in nouns:
            key = "cond/kind_is" if operator == "==" else "cond/kind_not"
            return words.text(key, what=nouns[var], kind=book.kind_noun(kind, "a"))
        case Not(operand=Binary(operator="in", left=Var(name=var), right=Attr(subject=owner, name=state))) \
                if var in nouns:
            return words.text("cond/not_in", what=nouns[var], set=state_set(book, owner, state))
        case Binary(operator="in", left=Var(name=var), right=Attr(subject=owner, name=state)) if var in nouns:
            return words.text("cond/in", what=nouns[var], set=state_set(book, owner, state))
        case Binary(operator="==",
                    left=Aggregate(function="count", var=mine, over=Attr(subject=owner, name=state), body=body),
                    right=Aggregate(function="count", var=every, over=Var(name="squares"), body=every_body)) \
                if (asked := kind_filter(body, mine)) and asked == kind_filter(every_body, every):
            return words.text("cond/holds_all", set=state_set(book, owner, state), kinds=book.kind_noun(asked, "many"))
        case Binary(operator=">=", left=Aggregate(function="count", over=Var(name="players"),
                                                  body=Attr(name="bankrupt")),
                    right=Int(value=count)):
            return words.text("cond/bankrupt_at_least", n=count)
        case Binary(operator="<=", left=Aggregate(function="count", over=Var(name="players"),
                                                  body=Not(operand=Attr(name="bankrupt"))),
                    right=Int(value=count)):
            return words.text("cond/left_at_most", n=count)
        case Binary(operator=">=", left=Var(name="rounds"), right=Int(value=count)):
            return words.text("cond/rounds", n=count)
    shape = group_shape(expr)
    if shape is not None and shape[1] in nouns:
        return words.text(f"cond/{shape[0]}", what=nouns[shape[1]])
    return phrase(book, expr, nouns)


def group_shape(expr: Expr) -> tuple[str, str] | None:
    """A condition on every deed of a deed's group that the classic rules ask (§1), as
    (its phrase, the deed's variable): `group_whole` (`me` holds them all), `group_unmortgaged`
    (none is mortgaged), `group_unbuilt` (none has buildings); None for any other."""
    match expr:
        case Aggregate(function="all", var=v, over=Attr(name="deeds", subject=Attr(name="group", subject=Var(name=of))),
                       body=Binary(operator="==", left=Attr(name="owner", subject=Var(name=d)), right=Var(name="me"))) \
                if d == v:
            return "group_whole", of
        case Not(operand=Aggregate(function="any", var=v, body=Attr(name="mortgaged", subject=Var(name=d)),
                                   over=Attr(name="deeds", subject=Attr(name="group", subject=Var(name=of))))) \
                if d == v:
            return "group_unmortgaged", of
        case Aggregate(function="all", var=v, over=Attr(name="deeds", subject=Attr(name="group", subject=Var(name=of))),
                       body=Binary(operator="==", left=Attr(name="level", subject=Var(name=d)), right=Int(value=0))) \
                if d == v:
            return "group_unbuilt", of
    return None


# ---- any expression, part by part ---------------------------------------------------------

COMPARISONS = {"==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge", "in": "in"}
ARITHMETIC = {"+": "plus", "-": "minus", "*": "times", "/": "over"}
# The element kind of a set the language names, and of a set-valued attribute.
SETS = {"areas": "area", "squares": "square", "players": "player", "others": "player", "deeds": "deed",
        "groups": "group", "faces": "square"}


def holds_money(book: Booklet, expr: Expr) -> bool:
    """Whether `expr` is an amount of money for certain: a printed rent or deed amount, cash, a money setting."""
    match expr:
        case Index(list=Var(name="printed")) | Attr(name="cash" | "price" | "mortgage" | "house_cost" | "hotel_cost"):
            return True
        case Setting(path=path):
            return path in MONEY_SETTINGS
        case Call(function=function) if function in book.ruleset.formulas:
            return holds_money(book, book.ruleset.formulas[function].body)
        case Binary(operator=operator, left=left, right=right) if operator in ARITHMETIC:
            return holds_money(book, left) or holds_money(book, right)
        case Conditional(then=then, otherwise=otherwise):
            return holds_money(book, then) or holds_money(book, otherwise)
        case Aggregate(function="sum" | "max" | "min", body=body):
            return holds_money(book, body)
    return False


def has_number(expr: Expr) -> bool:
    """Whether a number is written in `expr`: in `dice * N`, the amount is the N."""
    return any(isinstance(node, Int) for node in walk(expr))


def money_parts(book: Booklet, expr: Any, money: bool) -> dict[str, bool]:
    """Which parts (fields) of `expr` are amounts of money when `expr` is (`money`): both terms
    of a sum; one factor of a product (the one holding money, else the one with a number:
    `dice * N`); both sides of a comparison with an amount; the branches of an `if`; a sum's body."""
    match expr:
        case Binary(operator="*" | "/", left=left, right=right) if money:
            first = holds_money(book, left) or (not holds_money(book, right) and has_number(left))
            return {"left": first, "right": not first}
        case Binary(operator="+" | "-"):
            return {"left": money, "right": money}
        case Binary(operator=operator, left=left, right=right) if operator in COMPARISONS:
            both = holds_money(book, left) or holds_money(book, right)
            return {"left": both, "right": both}
        case Conditional():
            return {"cond": False, "then": money, "otherwise": money}
        case Aggregate(function="sum" | "max" | "min"):
            return {"body": money}
    return {}


def money_calls(book: Booklet, thing: Any, money: bool) -> set[str]:
    """The formulas `thing` (an expression, a statement, a square, or a list or mapping of them)
    calls where an amount of money is meant (their terms are amounts)."""
    if isinstance(thing, Mapping):
        thing = tuple(thing.values())
    if isinstance(thing, tuple):
        return set().union(*[money_calls(book, item, money) for item in thing])
    if not dataclasses.is_dataclass(thing) or isinstance(thing, type):
        return set()
    found = set()
    if money and isinstance(thing, Call) and thing.function in book.ruleset.formulas:
        found = {thing.function} | money_calls(book, book.ruleset.formulas[thing.function].body, True)
    parts = money_parts(book, thing, money)
    amount = {"amount"} if isinstance(thing, Transfer) else set()
    for field in dataclasses.fields(thing):
        found |= money_calls(book, getattr(thing, field.name), parts.get(field.name, field.name in amount))
    return found


def element_of(over: Expr) -> str:
    """The kind of the elements of a set: `areas` -> area, `s.areas` -> area."""
    match over:
        case Var(name=name) | Attr(name=name) if name in SETS:
            return SETS[name]
    return "square"


def bound(book: Booklet, kind: str, nouns: Nouns) -> str:
    """How a loop names its element: `the area`, or `the other area` inside a loop over areas."""
    noun = book.noun(kind, "the")
    return book.noun(kind, "other") if noun in nouns.values() else noun


def param_kind(book: Booklet, body: Expr | tuple[Any, ...], param: str) -> str:
    """What a formula's or procedure's parameter holds, read from the attributes used on it."""
    used = {node.name for node in walk(body) if isinstance(node, Attr) and node.subject == Var(param)}
    own = {owner: {state.name for state in book.ruleset.state or () if state.owner == owner}
           for owner in STATE_OWNERS}
    for kind in ("area", "square", "player", "deed"):
        if used <= set(ATTRS[kind]) | own.get(kind, set()):
            return kind
    return "square"


def walk(node: Any) -> Iterator[Any]:
    """Every node inside an IR node (itself first), or inside a tuple of them."""
    if isinstance(node, tuple):
        for item in node:
            yield from walk(item)
    elif dataclasses.is_dataclass(node) and not isinstance(node, type):
        yield node
        for field in dataclasses.fields(node):
            yield from walk(getattr(node, field.name))


def phrase(book: Booklet, expr: Expr, nouns: Nouns, money: bool = False) -> str:
    """Any expression in words (`money`: it is an amount, so its numbers are written as money)."""
    read = PHRASES.get(type(expr))
    text = read(Reading(book, expr, nouns, money, money_parts(book, expr, money)), expr) if read else None
    return book.words.text("cond/formula") if text is None else text


@dataclass(frozen=True)
class Reading:
    """One expression being put in words: what each kind of expression's phrase needs."""

    book: Booklet
    expr: Expr
    nouns: Nouns
    money: bool
    parts: dict[str, bool]   # which parts (fields) are amounts of money (money_parts)

    def part(self, field: str, scope: Nouns | None = None) -> str:
        """The part in the field `field` in words, in brackets where it would read ambiguously."""
        inner, expr = getattr(self.expr, field), self.expr
        text = phrase(self.book, inner, self.nouns if scope is None else scope, self.parts.get(field, False))
        nested = isinstance(inner, (Conditional, Aggregate)) or (
            isinstance(inner, Binary) and inner.operator in ("+", "-")
            and isinstance(expr, Binary) and expr.operator in ("*", "/", "-"))
        return self.book.words.text("expr/group", e=text) if nested else text


def _number(read: Reading, expr: Int) -> str:
    value = expr.value
    return read.book.money(value) if read.money else str(value)


def _enum(read: Reading, expr: Option) -> str:
    value = expr.value
    return read.book.kind_noun(value, "a") if value in DEED_KINDS else escape(value)


def _setting(read: Reading, expr: Setting) -> str:
    path = expr.path
    return read.book.value(path, read.book.setting(path))


def _thing(read: Reading, expr: SquareRef | GroupRef | DeckRef | PotRef) -> str:
    """A square, group, deck or pot by its name."""
    book = read.book
    finders: dict[type, Callable[[str], Named]] = {SquareRef: book.square_named, GroupRef: book.group,
                                                   DeckRef: book.deck, PotRef: book.pot}
    return book.name(finders[type(expr)](expr.key))


def _variable(read: Reading, expr: Var) -> str:
    name, words = expr.name, read.book.words
    if read.nouns.get(name):
        return read.nouns[name]
    return words.text(f"expr/names/{name}") if words.has(f"expr/names/{name}") else escape(name)


def _attribute(read: Reading, expr: Attr) -> str:
    return _yes_or_no(read, expr, "is") or _other_attribute(read, expr)


def _yes_or_no(read: Reading, expr: Attr, table: str) -> str | None:
    """A yes-or-no attribute (`in_jail`) said as it holds (`table` "is") or not ("isnt"), of
    the reader ("you are") by the phrases of `you_<table>`; None for any other attribute."""
    name, words = expr.name, read.book.words
    if expr.subject == ME and words.has(f"expr/you_{table}/{name}"):
        return words.text(f"expr/you_{table}/{name}")
    if words.has(f"expr/{table}/{name}"):
        return words.text(f"expr/{table}/{name}", of=read.part("subject"))
    return None


def _other_attribute(read: Reading, expr: Attr) -> str:
    name, words = expr.name, read.book.words
    if expr.subject == ME:
        return read.book.noun(name, "your")
    return words.text("expr/attr", name=read.book.noun(name, "the"), of=read.part("subject"))


def _printed(read: Reading, expr: Index) -> str | None:
    """`printed[N]`: the rent printed for N (a list index counts from 0)."""
    words = read.book.words
    match expr:
        case Index(list=Var(name="printed"), position=Int(value=value)):
            return words.text("expr/printed", n=value + 1)
        case Index(list=Var(name="printed"), position=Binary(operator="-", left=count, right=Int(value=1))):
            return words.text("expr/printed_for", n=phrase(read.book, count, read.nouns))
    return None


def _unary(read: Reading, expr: Neg | Not) -> str:
    if isinstance(expr, Not) and isinstance(expr.operand, Attr):
        inner = Reading(read.book, expr.operand, read.nouns, read.money,
                        money_parts(read.book, expr.operand, read.money))
        said = _yes_or_no(inner, expr.operand, "isnt")
        if said is not None:
            return said
    operand = phrase(read.book, expr.operand, read.nouns, read.money)
    return read.book.words.text(f"expr/{expr.TAG}", e=operand)


def _binary(read: Reading, expr: Binary) -> str | None:
    operator, words = expr.operator, read.book.words
    if operator in ("and", "or"):
        return say(read.book, expr, read.nouns)
    if operator in COMPARISONS:
        return words.text(f"expr/{COMPARISONS[operator]}", l=read.part("left"), r=read.part("right"))
    if operator in ARITHMETIC:
        return words.text(f"expr/{ARITHMETIC[operator]}", l=read.part("left"), r=read.part("right"))
    return None


def _choice(read: Reading, expr: Conditional) -> str:
    """`if C then A else B`."""
    condition_words = say(read.book, expr.cond, read.nouns)
    return read.book.words.text("expr/if", c=condition_words, t=read.part("then"), e=read.part("otherwise"))


def _aggregate(read: Reading, expr: Aggregate) -> str:
    """`count`, `sum`, `any`, ... over a set, its element named for the body."""
    book = read.book
    scope = read.nouns | {expr.var: bound(book, element_of(expr.over), read.nouns)}
    body = say(book, expr.body, scope) if expr.function in ("count", "any", "all") else read.part("body", scope)
    return book.words.text(f"expr/agg/{expr.function}", body=body, over=collection(book, expr.over, read.nouns))


def _call(read: Reading, expr: Call) -> str | None:
    """`numbers(low, high)`, `die(n)`, or a formula: by its value, its glossary name or its body."""
    book = read.book
    match expr:
        case Call(function="numbers", args=(low, high)):
            return book.words.text("expr/numbers", low=phrase(book, low, read.nouns),
                                   high=phrase(book, high, read.nouns))
        case Call(function="die", args=(number,)):
            return book.words.text("expr/die", n=phrase(book, number, read.nouns))
    if expr.function not in book.ruleset.formulas:
        return None
    value = constant(book, expr)
    if value is not None:
        return book.money(value) if read.money else str(value)
    if term(book, expr.function) is None:
        return phrase(book, expand(book, expr), read.nouns, read.money)
    return called(book, expr.function, [phrase(book, arg, read.nouns) for arg in expr.args])


# Each kind of expression's phrase; None (or a kind not here) is said as `cond/formula`.
PHRASES: dict[type, Callable[[Reading, Any], str | None]] = {
    Int: _number,
    Ratio: lambda read, expr: read.book.percent(expr),
    Bool: lambda read, expr: read.book.words.text("yes" if expr.value else "no"),
    Option: _enum,
    Bank: lambda read, expr: read.book.words.text("expr/bank"),
    Setting: _setting,
    SquareRef: _thing, GroupRef: _thing, DeckRef: _thing, PotRef: _thing,
    Var: _variable,
    Attr: _attribute,
    Index: _printed,
    Neg: _unary, Not: _unary,
    Binary: _binary,
    Conditional: _choice,
    Aggregate: _aggregate,
    Call: _call,
    Old: lambda read, expr: None,     # a step property's only: the rulebook prints none of them
}


def called(book: Booklet, function: str, args: list[str]) -> str:
    """A formula or procedure by the glossary's name for it, its arguments in words."""
    name = term(book, function)
    return escape(function.replace("_", " ")) if name is None else name.format(*args)


def collection(book: Booklet, over: Expr, nouns: Nouns) -> str:
    """A set in words: `areas` -> the areas; `s.areas` -> the areas of the street."""
    if isinstance(over, Var) and over.name in SETS and over.name not in nouns:
        return words_for_set(book, over.name)
    return phrase(book, over, nouns)


def words_for_set(book: Booklet, name: str) -> str:
    key = f"expr/names/{name}"
    return book.words.text(key) if book.words.has(key) else book.noun(SETS[name], "many")
