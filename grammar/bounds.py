"""What values a number expression can take, read off the spec without playing it.

An interval with exact (rational) ends, open where unknown, and whether 0 is among its
values: enough to tell a divisor that is never 0 (`d.price / 2`, `x + 1` with `x >= 0`,
a division under `if x > 0`) from one that can be (`p.cash`, `count(...)`). A guard's
comparison narrows the expression it names, written the same way, in its branch.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import Callable, Hashable, Iterable

from grammar import syntax
from grammar.diagnostics import Span
from grammar.language import PERCENT

Number = int | Fraction | None  # an end of an interval (an int when whole: ints are fast); None is unbounded


@dataclass(frozen=True)
class Bounds:
    """The values an expression can take: `low` .. `high` (None: no bound), and whether 0 is one."""

    low: Number = None
    high: Number = None
    zero: bool = True

    def __post_init__(self) -> None:
        # by the numerators' signs: a Fraction's comparison with 0 costs a dozen calls
        if (self.low is not None and self.low.numerator > 0) or (self.high is not None and self.high.numerator < 0):
            object.__setattr__(self, "zero", False)

    @property
    def value(self) -> int | Fraction | None:
        """The one value of a constant, else None."""
        return self.low if self.low is not None and self.low == self.high else None

    @property
    def positive(self) -> bool:
        return self.low is not None and self.low >= 0 and not self.zero

    @property
    def negative(self) -> bool:
        return self.high is not None and self.high <= 0 and not self.zero

    def meet(self, other: Bounds) -> Bounds:
        """What both say (a guard's narrowing of an expression)."""
        low = _pick(max, self.low, other.low)
        high = _pick(min, self.high, other.high)
        return Bounds(low, high, self.zero and other.zero)

    def join(self, other: Bounds) -> Bounds:
        """Either one's values (the two branches of an `if`)."""
        low = None if self.low is None or other.low is None else min(self.low, other.low)
        high = None if self.high is None or other.high is None else max(self.high, other.high)
        return Bounds(low, high, self.zero or other.zero)


ANYTHING = Bounds()
NATURAL = Bounds(0)                         # a count: 0 or more


@lru_cache(maxsize=4096)
def point(value: int | Fraction) -> Bounds:
    """A constant (kept: every number of a spec is read as one, and Fractions are slow to make)."""
    end = _whole(value)
    return Bounds(end, end)


def between(low: int | Fraction, high: int | Fraction) -> Bounds:
    return Bounds(_whole(low), _whole(high))


def _whole(value: int | Fraction) -> int | Fraction:
    """An end as an int when it is whole: the bounds of a spec's amounts are ints, and
    arithmetic on ints is many times faster than on Fractions (the answers are equal)."""
    return value if isinstance(value, int) or value.denominator != 1 else value.numerator


def hull(values: Iterable[int | Fraction]) -> Bounds:
    """The smallest interval holding every value (nothing known of an empty list)."""
    listed = list(values)
    return between(min(listed), max(listed)) if listed else ANYTHING


def _pick(choose: Callable[[int | Fraction, int | Fraction], int | Fraction], a: Number, b: Number) -> Number:
    return b if a is None else a if b is None else choose(a, b)


def negate(a: Bounds) -> Bounds:
    return Bounds(None if a.high is None else -a.high, None if a.low is None else -a.low, a.zero)


def add(a: Bounds, b: Bounds) -> Bounds:
    low = None if a.low is None or b.low is None else a.low + b.low
    high = None if a.high is None or b.high is None else a.high + b.high
    # INVARIANT (sign): a sum of terms of one sign, one of them never 0, is never 0
    never = (a.positive and b.low is not None and b.low >= 0) or (b.positive and a.low is not None and a.low >= 0) \
        or (a.negative and b.high is not None and b.high <= 0) or (b.negative and a.high is not None and a.high <= 0)
    return Bounds(low, high, not never)


def multiply(a: Bounds, b: Bounds) -> Bounds:
    ends = [_times(x, y) for x in (a.low, a.high) for y in (b.low, b.high)]
    known = [end for end in ends if end is not None]
    if len(known) < len(ends):
        low = high = None
        if (a.low is not None and a.low >= 0 and b.low is not None and b.low >= 0) or \
                (a.high is not None and a.high <= 0 and b.high is not None and b.high <= 0):
            low = 0
        if (a.low is not None and a.low >= 0 and b.high is not None and b.high <= 0) or \
                (a.high is not None and a.high <= 0 and b.low is not None and b.low >= 0):
            high = 0
        return Bounds(low, high, a.zero or b.zero)
    return Bounds(min(known), max(known), a.zero or b.zero)


def _times(x: Number, y: Number) -> Number:
    """A product of ends; an unbounded end times 0 is 0, else unbounded."""
    if x == 0 or y == 0:
        return 0
    return None if x is None or y is None else x * y


def divide(a: Bounds, b: Bounds) -> Bounds:
    """`a / b` for a `b` that is never 0."""
    if b.value is not None:
        return multiply(a, point(Fraction(1) / b.value))
    if b.positive or b.negative:
        sign = point(1) if b.positive else point(-1)
        signed = multiply(a, sign)
        return Bounds(0 if signed.low is not None and signed.low >= 0 else None,
                      0 if signed.high is not None and signed.high <= 0 else None, a.zero)
    return Bounds(zero=a.zero)


# ---- guards ------------------------------------------------------------------------------

Shape = Hashable     # a tuple of the node's kind and its fields' shapes, or a name's or number's value
# Shapes already made, by the node's id (the node is kept with its shape, so that its id
# is not reused while the table lives). A shape does not depend on the edition, and a
# parent's syntax is cached and read again by each child that extends it, so the table is
# the process's (SHAPES), emptied when it grows past MOST_SHAPES nodes.
Shapes = dict[int, tuple[Hashable, Shape]]
SHAPES: Shapes = {}
MOST_SHAPES = 200_000


def known_shapes() -> Shapes:
    """The process's table of shapes, emptied first if it has grown past its bound."""
    if len(SHAPES) > MOST_SHAPES:
        SHAPES.clear()
    return SHAPES


def shape(node: Hashable, shapes: Shapes | None = None) -> Shape:
    """An expression as written, without its place: two copies of `p.cash` are one shape.

    With `shapes`, each node's shape is made once: a guarded read asks for the shape of
    every node of an expression, and of each of its parts again."""
    if shapes is not None and id(node) in shapes:
        return shapes[id(node)][1]
    if isinstance(node, tuple):
        form: Shape = tuple(shape(n, shapes) for n in node)
    else:
        parts = _parts(type(node))
        if parts is None:
            return node
        form = (type(node).__name__,) + tuple(shape(getattr(node, name), shapes) for name in parts)
    if shapes is not None:
        shapes[id(node)] = (node, form)
    return form


@cache
def _parts(kind: type) -> tuple[str, ...] | None:
    """The fields of a syntax node that make its shape (all but its place); None for a leaf."""
    if not is_dataclass(kind) or kind is Span:
        return None
    return tuple(f.name for f in fields(kind) if f.name != "span")


def mentions(form: Shape, name: str) -> bool:
    """Whether a shape reads the variable `name` (a guard on it ends where it is bound again)."""
    if form == ("Name", name):
        return True
    return isinstance(form, tuple) and any(mentions(part, name) for part in form)


Facts = dict[Shape, Bounds]
FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
NEGATE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


def narrowed(cond: syntax.Expr, holds: bool, facts: Facts, value: Callable[[syntax.Expr, Facts], Bounds]) -> Facts:
    """The facts known where `cond` is `holds`: `x > 0`, `x != 0`, `not`, `and`, `or`."""
    if isinstance(cond, syntax.Not):
        return narrowed(cond.operand, not holds, facts, value)
    if isinstance(cond, syntax.Binary) and (cond.op, holds) in (("and", True), ("or", False)):
        return narrowed(cond.right, holds, narrowed(cond.left, holds, facts, value), value)
    if not isinstance(cond, syntax.Binary) or cond.op not in FLIP:
        return facts
    op = cond.op if holds else NEGATE[cond.op]
    out = dict(facts)
    for subject, other, sign in ((cond.left, cond.right, op), (cond.right, cond.left, FLIP[op])):
        limit = value(other, facts)
        fact = _compared(sign, limit)
        if fact is not None:
            key = shape(subject)
            out[key] = out[key].meet(fact) if key in out else fact
    return out


def _compared(op: str, limit: Bounds) -> Bounds | None:
    """What `x op limit` says of x."""
    if op in (">", ">=") and limit.low is not None:
        return Bounds(limit.low, None, not (op == ">" and limit.low >= 0 or limit.low > 0))
    if op in ("<", "<=") and limit.high is not None:
        return Bounds(None, limit.high, not (op == "<" and limit.high <= 0 or limit.high < 0))
    if op == "==" and limit.low is not None and limit.high is not None:
        return Bounds(limit.low, limit.high, limit.zero)
    if op == "!=" and limit.value == 0:
        return Bounds(zero=False)
    return None


# ---- reading an expression ------------------------------------------------------------------

@dataclass(frozen=True)
class Known:
    """What an edition's IR says of the numbers its names stand for."""

    settings: dict[str, Bounds]          # `section.key` -> its value
    lists: dict[str, Bounds]             # `section.key` of a list of numbers -> its values
    names: dict[str, Bounds]             # `dice`, `board_size`, `level`, ... (unbound names)
    attributes: dict[str, Bounds]        # `.price`, `.position`, ... of any player, deed or deck
    printed: Bounds                      # every printed rent of the board
    formulas: dict[str, syntax.Formula]
    # a formula's bounds for the bounds of its arguments, read once: a call reads the body
    # quietly and without facts, so the same arguments always give the same bounds
    calls: dict[tuple[str, tuple[Bounds, ...]], Bounds] = field(default_factory=dict)
    shapes: Shapes = field(default_factory=known_shapes)


@dataclass(frozen=True)
class Faults:
    """Where a reading reports what it finds: a divisor that can be 0, a constant past the limit."""

    divisor: Callable[[syntax.Expr, Bounds], None]
    huge: Callable[[syntax.Expr, int | Fraction], None]


ARITHMETIC = {"+": add, "-": lambda a, b: add(a, negate(b)), "*": multiply, "/": divide}
QUIET = Faults(lambda node, b: None, lambda node, v: None)
# No amount or count of a game comes near a million billion: past it a number is a typing
# error (and a float of it, as a strategy's ratios take, is still exact enough).
LIMIT = 1_000_000_000_000_000


class Reader:
    """Reads the bounds of expressions against one edition, reporting faults as it goes."""

    def __init__(self, known: Known, faults: Faults):
        self.known = known
        self.faults = faults

    def value(self, node: syntax.Expr, scope: dict[str, Bounds], facts: Facts) -> Bounds:
        """The bounds of `node` where the variables of `scope` are bound and `facts` hold."""
        found = self._value(node, scope, facts)
        fact = facts.get(shape(node, self.known.shapes)) if facts else None
        return found if fact is None else found.meet(fact)

    def _value(self, node: syntax.Expr, scope: dict[str, Bounds], facts: Facts) -> Bounds:
        read = _READERS.get(type(node))
        assert read is not None, f"an expression of no known kind: {type(node).__name__}"
        return read(self, node, scope, facts)

    def _int(self, node: syntax.Int, scope: dict[str, Bounds], facts: Facts) -> Bounds:
        return self._sized(node, point(node.value))

    def _percent(self, node: syntax.Percent, scope: dict[str, Bounds], facts: Facts) -> Bounds:
        return point(Fraction(node.value, PERCENT))

    def _bool(self, node: syntax.Bool, scope: dict[str, Bounds], facts: Facts) -> Bounds:
        return ANYTHING

    def _name(self, node: syntax.Name, scope: dict[str, Bounds], facts: Facts) -> Bounds:
        return scope[node.text] if node.text in scope else self.known.names.get(node.text, ANYTHING)

    def _neg(self, node: syntax.Neg, scope: dict[str, Bounds], facts: Facts) -> Bounds:
        return negate(self.value(node.operand, scope, facts))

    def _not(self, node: syntax.Not, scope: dict[str, Bounds], facts: Facts) -> Bounds:
        self.value(node.operand, scope, facts)
        return ANYTHING

    def _conditional(self, node: syntax.Conditional, scope: dict[str, Bounds], facts: Facts) -> Bounds:
        self.value(node.cond, scope, facts)
        then = self.value(node.then, scope, narrowed(node.cond, True, facts, self._reading(scope)))
        otherwise = self.value(node.otherwise, scope, narrowed(node.cond, False, facts, self._reading(scope)))
        return then.join(otherwise)

    def attr(self, node: syntax.Attr, scope: dict[str, Bounds], facts: Facts) -> Bounds:
        if isinstance(node.of, syntax.Name) and node.of.text not in scope:
            path = f"{node.of.text}.{node.name.text}"
            if path in self.known.settings:
                return self.known.settings[path]
        self.value(node.of, scope, facts)
        return self.known.attributes.get(node.name.text, ANYTHING)

    def index(self, node: syntax.Index, scope: dict[str, Bounds], facts: Facts) -> Bounds:
        self.value(node.at, scope, facts)
        if isinstance(node.of, syntax.Name) and node.of.text == "printed" and "printed" not in scope:
            return self.known.printed
        if (isinstance(node.of, syntax.Attr) and isinstance(node.of.of, syntax.Name)
                and node.of.of.text not in scope):
            return self.known.lists.get(f"{node.of.of.text}.{node.of.name.text}", ANYTHING)
        self.value(node.of, scope, facts)
        return ANYTHING

    def binary(self, node: syntax.Binary, scope: dict[str, Bounds], facts: Facts) -> Bounds:
        if node.op in ("and", "or"):       # the right side is read only when the left allows it
            self.value(node.left, scope, facts)
            self.value(node.right, scope, narrowed(node.left, node.op == "and", facts, self._reading(scope)))
            return ANYTHING
        if node.op not in ARITHMETIC:
            self.value(node.left, scope, facts)
            self.value(node.right, scope, facts)
            return ANYTHING
        # `a + b + c ...` nests to the left, one node per term: read it in a loop, not a recursion
        chain = []
        first: syntax.Expr = node
        while isinstance(first, syntax.Binary) and first.op in ARITHMETIC:
            chain.append(first)
            first = first.left
        found = self.value(first, scope, facts)
        shapes = self.known.shapes
        form = shape(first, shapes) if facts else None     # each link's shape from the last: no re-reading of the chain
        for link in reversed(chain):
            found = self.arithmetic(link, found, self.value(link.right, scope, facts))
            if facts:
                form = ("Binary", link.op, form, shape(link.right, shapes))     # shape(link), as `shape` spells it
                fact = facts.get(form)
                found = found if fact is None else found.meet(fact)
        return found

    def arithmetic(self, node: syntax.Binary, left: Bounds, right: Bounds) -> Bounds:
        if node.op == "/":
            if right.zero:
                self.faults.divisor(node.right, right)
                return ANYTHING
            return self._sized(node, divide(left, right))
        return self._sized(node, ARITHMETIC[node.op](left, right))

    def call(self, node: syntax.Call, scope: dict[str, Bounds], facts: Facts) -> Bounds:
        args = [self.value(arg, scope, facts) for arg in node.args]
        formula = self.known.formulas.get(node.fn.text)
        if formula is None:
            if node.fn.text == "die":            # a face of one die, as `dice` is a throw's total
                return Bounds(1, self.known.settings.get("game.die_faces", ANYTHING).high)
            return NATURAL if node.fn.text in ("houses", "hotels", "held") else ANYTHING
        # a formula is a macro: its body with these arguments (its own faults are reported once, at it)
        key = (node.fn.text, tuple(args))
        if key not in self.known.calls:
            quiet = Reader(self.known, QUIET)
            given = {param.text: arg for param, arg in zip(formula.params, args, strict=True)}
            self.known.calls[key] = quiet.value(formula.body, given, {})
        return self.known.calls[key]

    def aggregate(self, node: syntax.Aggregate, scope: dict[str, Bounds], facts: Facts) -> Bounds:
        self.value(node.over, scope, facts)
        var = node.var.text
        element = ANYTHING
        if isinstance(node.over, syntax.Call) and node.over.fn.text == "numbers" and len(node.over.args) == 2:
            low, high = (Reader(self.known, QUIET).value(a, scope, facts) for a in node.over.args)
            element = Bounds(low.low, high.high)
        body = self.value(node.body, scope | {var: element}, without(facts, var))
        fn = node.fn.text
        if fn == "count":
            return NATURAL
        if fn == "sum":
            return Bounds(0 if body.low is not None and body.low >= 0 else None,
                          0 if body.high is not None and body.high <= 0 else None)
        if fn in ("max", "min"):
            return body.join(point(0))            # an empty set gives 0
        return ANYTHING

    def _sized(self, node: syntax.Expr, found: Bounds) -> Bounds:
        """A constant past the limit is reported once, where it is made, and reads as unknown after."""
        value = found.value
        if value is not None and abs(value.numerator) > LIMIT * value.denominator:     # |value| > LIMIT, in integers
            self.faults.huge(node, value)
            return ANYTHING
        return found

    def _reading(self, scope: dict[str, Bounds]) -> Callable[[syntax.Expr, Facts], Bounds]:
        quiet = Reader(self.known, QUIET)
        return lambda node, facts: quiet.value(node, scope, facts)



# One reader per kind of expression, by its class: a lookup, not a chain of isinstance
# checks (the reader visits every node of an edition on every compile).
_READERS: dict[type, Callable[..., Bounds]] = {
    syntax.Int: Reader._int, syntax.Percent: Reader._percent, syntax.Bool: Reader._bool,
    syntax.Name: Reader._name, syntax.Attr: Reader.attr, syntax.Index: Reader.index, syntax.Neg: Reader._neg,
    syntax.Not: Reader._not, syntax.Conditional: Reader._conditional, syntax.Binary: Reader.binary,
    syntax.Call: Reader.call, syntax.Aggregate: Reader.aggregate,
}

def without(facts: Facts, *names: str) -> Facts:
    """The facts that still hold where the variables `names` are bound anew."""
    return {k: v for k, v in facts.items() if not any(mentions(k, n) for n in names)} if facts else facts
