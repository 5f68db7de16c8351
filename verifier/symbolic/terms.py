"""Smart constructors over values that are either concrete (int, bool, Fraction, str) or
Z3 terms. Every operation folds when its inputs are concrete, so the symbolic semantics
run on a concrete state computes plain Python values along the same code path (the
differential test relies on it), and on a symbolic state builds one Z3 term.
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import z3

Term = Any
"""A value of the symbolic semantics: a concrete int, bool, Fraction or str, or a Z3 term
(z3 ships no type information, so to mypy a Z3 term is Any, and so is this union)."""


def is_sym(x: Term) -> bool:
    return isinstance(x, z3.ExprRef)


def lift(x: Term) -> Term:
    """A value as a Z3 term."""
    if isinstance(x, z3.ExprRef):
        return x
    if isinstance(x, bool):
        return z3.BoolVal(x)
    if isinstance(x, int):
        # `z3.IntVal` without its context and sort look-ups (the same numeral)
        return z3.IntNumRef(z3.Z3_mk_numeral(_MAIN.ref(), str(x), _INT.as_ast()), _MAIN)
    if isinstance(x, Fraction):
        return z3.RealVal(x)
    raise TypeError(f"no symbolic value for {x!r}")


def same(a: Term, b: Term) -> bool:
    """Structurally the same value (cheap: identity first)."""
    if a is b:
        return True
    sa, sb = is_sym(a), is_sym(b)
    if sa and sb:
        return a.eq(b)
    if sa or sb:
        return False
    return type(a) is type(b) and a == b


def ite(cond: Term, a: Term, b: Term) -> Term:
    if not is_sym(cond):
        return a if cond else b
    if same(a, b):
        return a
    if a is True and b is False:
        return cond
    if a is False and b is True:
        return z3.Not(cond)
    x, y = lift(a), lift(b)
    kind = _kind(x)
    if kind in _SAME_SORT and kind == _kind(y):
        # the term `z3.If` makes, without its wrapper's coercions (built by the hundred thousand)
        return _SAME_SORT[kind](z3.Z3_mk_ite(cond.ctx.ref(), cond.as_ast(), x.as_ast(), y.as_ast()), cond.ctx)
    return z3.If(cond, x, y)


_SAME_SORT = {z3.Z3_BOOL_SORT: z3.BoolRef, z3.Z3_INT_SORT: z3.ArithRef, z3.Z3_REAL_SORT: z3.ArithRef}
_ARITH = (z3.Z3_INT_SORT, z3.Z3_REAL_SORT)
_MAIN = z3.main_ctx()
_INT = z3.IntSort(_MAIN)


def _kind(x: Term) -> int:
    """A term's sort kind by the C API (`sort_kind` wraps a sort object on every call);
    the wrapper's class tells a yes/no term and a whole number without asking."""
    if type(x) is z3.BoolRef:
        return z3.Z3_BOOL_SORT
    if type(x) is z3.IntNumRef:
        return z3.Z3_INT_SORT
    ref = x.ctx.ref()
    return z3.Z3_get_sort_kind(ref, z3.Z3_get_sort(ref, x.as_ast()))


def _binary(make: Any, x: Term, y: Term) -> Term:
    """`make(x, y)` over two Int (or two Real) terms: the term the operator makes, without
    its wrapper's coercions; None for other sorts (the operator then coerces)."""
    kind = _kind(x)
    if kind not in _ARITH or kind != _kind(y):
        return None
    ctx = x.ctx
    if make in _NARY:
        return z3.ArithRef(make(ctx.ref(), 2, (z3.z3.Ast * 2)(x.as_ast(), y.as_ast())), ctx)
    return z3.BoolRef(make(ctx.ref(), x.as_ast(), y.as_ast()), ctx)


_NARY = (z3.Z3_mk_add, z3.Z3_mk_sub)      # made from an array of arguments


def _junction(make: Any, out: list[Any]) -> Term:
    """`z3.And`/`z3.Or` of Bool terms by the C API (the Python wrapper's argument checks
    cost several times the term itself, and these are built by the hundred thousand)."""
    ctx = out[0].ctx
    args = (z3.z3.Ast * len(out))(*[x.as_ast() for x in out])
    return z3.BoolRef(make(ctx.ref(), len(out), args), ctx)


def and_(*xs: Term) -> Term:
    out = []
    for x in xs:
        if is_sym(x):
            out.append(x)
        elif not x:
            return False
    if not out:
        return True
    return out[0] if len(out) == 1 else _junction(z3.Z3_mk_and, out)


def or_(*xs: Term) -> Term:
    out = []
    for x in xs:
        if is_sym(x):
            out.append(x)
        elif x:
            return True
    if not out:
        return False
    return out[0] if len(out) == 1 else _junction(z3.Z3_mk_or, out)


def not_(x: Term) -> Term:
    return z3.BoolRef(z3.Z3_mk_not(x.ctx.ref(), x.as_ast()), x.ctx) if is_sym(x) else not x


def implies(a: Term, b: Term) -> Term:
    return or_(not_(a), b)


def add(a: Term, b: Term) -> Term:
    if is_sym(a) or is_sym(b):
        if not is_sym(a) and a == 0:
            return b
        if not is_sym(b) and b == 0:
            return a
        x, y = lift(a), lift(b)
        made = _binary(z3.Z3_mk_add, x, y)
        return x + y if made is None else made
    return a + b


def sub(a: Term, b: Term) -> Term:
    if is_sym(a) or is_sym(b):
        if not is_sym(b) and b == 0:
            return a
        x, y = lift(a), lift(b)
        made = _binary(z3.Z3_mk_sub, x, y)
        return x - y if made is None else made
    return a - b


def mul(a: Term, b: Term) -> Term:
    if is_sym(a) or is_sym(b):
        for x, y in ((a, b), (b, a)):
            if not is_sym(x):
                if x == 0:
                    return 0
                if x == 1:
                    return y
        return lift(a) * lift(b)
    return a * b


def neg(a: Term) -> Term:
    return -a if is_sym(a) else -a


def div(a: Term, b: Term) -> Term:
    """Exact division (the interpreter's `_divide`): an int when it divides evenly."""
    if is_sym(a) or is_sym(b):
        return z3.ToReal(lift(a)) / lift(b) if not _is_real(a) else lift(a) / lift(b)
    if type(a) is int and type(b) is int and b and not a % b:
        return a // b
    return Fraction(a) / b


def _is_real(x: Term) -> bool:
    return is_sym(x) and x.sort() == z3.RealSort()


def cmp(op: str, a: Term, b: Term) -> Term:
    if is_sym(a) or is_sym(b):
        x, y = lift(a), lift(b)
        if op != "!=":
            # Python asks a right operand of a subclass (a numeral) first, with the
            # reflected comparison: the same term as the operator makes
            flip = type(y) is not type(x) and isinstance(y, type(x))
            made = _binary(_COMPARE[_REFLECTED[op]], y, x) if flip else _binary(_COMPARE[op], x, y)
            if made is not None:
                return made
        return {"==": lambda: x == y, "!=": lambda: x != y, "<": lambda: x < y, "<=": lambda: x <= y,
                ">": lambda: x > y, ">=": lambda: x >= y}[op]()
    return {"==": lambda: a == b, "!=": lambda: a != b, "<": lambda: a < b, "<=": lambda: a <= b,
            ">": lambda: a > b, ">=": lambda: a >= b}[op]()


_COMPARE = {"==": z3.Z3_mk_eq, "<": z3.Z3_mk_lt, "<=": z3.Z3_mk_le, ">": z3.Z3_mk_gt, ">=": z3.Z3_mk_ge}
_REFLECTED = {"==": "==", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


def eq(a: Term, b: Term) -> Term:
    return cmp("==", a, b)


def lt(a: Term, b: Term) -> Term:
    return cmp("<", a, b)


def le(a: Term, b: Term) -> Term:
    return cmp("<=", a, b)


def mod(a: Term, n: int) -> Term:
    return a % n if not is_sym(a) else lift(a) % n


def idiv(a: Term, n: int) -> Term:
    """Floor division by a positive constant (Python's // and Z3's div agree for n > 0)."""
    return a // n if not is_sym(a) else lift(a) / n


def round_money(x: Term, up: bool) -> Term:
    """A ratio rounded to a whole amount, by `money.rounding` (`_round` in the interpreter)."""
    if not is_sym(x):
        if isinstance(x, int):
            return x
        return math.ceil(x) if up else math.floor(x)
    if x.sort() == z3.IntSort():
        return x
    return -z3.ToInt(-x) if up else z3.ToInt(x)


def pick(index: Term, table: list[Any], default: Term = None) -> Term:
    """`table[index]` for a symbolic index: an if-chain over the table's positions."""
    if not is_sym(index):
        return table[index]
    out = table[-1] if default is None else default
    for i in range(len(table) - 2 if default is None else len(table) - 1, -1, -1):
        out = ite(eq(index, i), table[i], out)
    return out


def concrete(x: Term) -> Term:
    """A folded value as a plain Python value (for the differential test and traces)."""
    if not is_sym(x):
        return x
    s = z3.simplify(x)
    if z3.is_true(s):
        return True
    if z3.is_false(s):
        return False
    if z3.is_int_value(s):
        return s.as_long()
    if z3.is_rational_value(s):
        return Fraction(s.numerator_as_long(), s.denominator_as_long())
    raise ValueError(f"not a concrete value: {x}")
