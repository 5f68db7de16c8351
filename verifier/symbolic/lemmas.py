"""The verifier's lemmas: facts of the engine's mechanics (not of an edition) that the
preservation proofs assume beside an edition's invariants, each proved in a row of its own
(so a proof never rests on something unproved: `prove.joint`).

They are written in the language's expression syntax and read here by a small reader
(no typing, no names beyond the language's own and the settings' sections): they are the
verifier's, not an edition's, so the spec compiler never sees them.
"""
from __future__ import annotations

import re
from typing import Any

# Facts the verifier proves alongside the library, to strengthen it (each gets its own row
# in the table, so a strengthening never rests on something unproved).
LEMMAS = [
    ("building_levels", "a lot holds 0..max_houses houses or one hotel and no houses; other deeds none",
     "all(d in deeds: 0 <= d.houses and d.houses <= building.max_houses and 0 <= d.hotels "
     "and d.hotels <= building.hotels_per_lot and (d.hotels == 0 or d.houses == 0))"),
    ("bank_holds_unbuilt", "a deed the bank holds is unbuilt and unmortgaged",
     "all(d in deeds: not (d.owner == bank) or (d.houses == 0 and d.hotels == 0 and not d.mortgaged))"),
]


def lemmas(ir: dict) -> list[dict]:
    sections = set(ir.get("settings", {}))
    return [{"name": name, "text": text, "body": parse(source, sections), "origin": "verifier"}
            for name, text, source in LEMMAS]


def facts(ir: dict) -> list[dict]:
    """What a proof may assume before a step: the edition's invariants (the built-in library
    and its own, in its IR) and the lemmas."""
    return ir["invariants"] + lemmas(ir)


Node = dict[str, Any]
"""An IR expression in its JSON form (docs/ir.md), as the encoder reads it."""


def _number(value: int) -> Node:
    return {"expr": "int", "value": value}


def _setting(path: str) -> Node:
    """A `section.key` setting; every playable edition has the building section's keys
    (grammar/language.py requires them)."""
    return {"expr": "setting", "path": path}


def _the_bank() -> Node:
    return {"expr": "bank"}


def _deeds_(name: str) -> Node:
    """`d.name`: an attribute of the deed the lemma ranges over."""
    return {"expr": "attr", "subject": {"expr": "var", "name": "d"}, "name": name}


def _compare(left: Node, operator: str, right: Node) -> Node:
    return {"expr": "bin", "operator": operator, "left": left, "right": right}


def _both(first: Node, *more: Node) -> Node:
    """`first and ... and last`, grouped from the left as the language groups it."""
    for condition in more:
        first = _compare(first, "and", condition)
    return first


def _either(first: Node, *more: Node) -> Node:
    """`first or ... or last`, grouped from the left."""
    for condition in more:
        first = _compare(first, "or", condition)
    return first


def _not(condition: Node) -> Node:
    return {"expr": "not", "operand": condition}


def _every_deed(condition: Node) -> Node:
    """`all(d in deeds: condition)`."""
    return {"expr": "agg", "function": "all", "var": "d", "over": {"expr": "var", "name": "deeds"},
            "body": condition}


# all(d in deeds: 0 <= d.houses and d.houses <= building.max_houses and 0 <= d.hotels
#     and d.hotels <= building.hotels_per_lot and (d.hotels == 0 or d.houses == 0))
BUILDING_LEVELS = _every_deed(_both(
    _compare(_number(0), "<=", _deeds_("houses")),
    _compare(_deeds_("houses"), "<=", _setting("building.max_houses")),
    _compare(_number(0), "<=", _deeds_("hotels")),
    _compare(_deeds_("hotels"), "<=", _setting("building.hotels_per_lot")),
    _either(_compare(_deeds_("hotels"), "==", _number(0)), _compare(_deeds_("houses"), "==", _number(0)))))

# all(d in deeds: not (d.owner == bank) or (d.houses == 0 and d.hotels == 0 and not d.mortgaged))
BANK_HOLDS_UNBUILT = _every_deed(_either(
    _not(_compare(_deeds_("owner"), "==", _the_bank())),
    _both(_compare(_deeds_("houses"), "==", _number(0)), _compare(_deeds_("hotels"), "==", _number(0)),
          _not(_deeds_("mortgaged")))))

BODIES = {"building_levels": BUILDING_LEVELS, "bank_holds_unbuilt": BANK_HOLDS_UNBUILT}


_TOKEN = re.compile(r"\s*(?:(\d+%?)|([A-Za-z_][A-Za-z0-9_]*)|(==|!=|<=|>=|[-+*/<>().,:\[\]]))")
AGGS = {"sum", "count", "max", "min", "any", "all"}


def parse(text: str, sections: set) -> dict:
    tokens, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            if text[pos:].strip() == "":
                break
            raise ValueError(f"cannot read `{text[pos:]}`")
        tokens.append(m.group(1) or m.group(2) or m.group(3))
        pos = m.end()
    return _Reader(tokens, sections).top()


class _Reader:
    def __init__(self, tokens, sections):
        self.t, self.i, self.sections = tokens, 0, sections

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else None

    def take(self, want=None):
        tok = self.peek()
        if want is not None and tok != want:
            raise ValueError(f"expected `{want}`, got `{tok}`")
        self.i += 1
        return tok

    def top(self):
        e = self.expr()
        if self.peek() is not None:
            raise ValueError(f"unexpected `{self.peek()}`")
        return e

    def expr(self):
        if self.peek() == "if":
            self.take()
            c = self.expr()
            self.take("then")
            t = self.expr()
            self.take("else")
            return {"expr": "if", "cond": c, "then": t, "otherwise": self.expr()}
        return self.binary(0)

    LEVELS = [("or",), ("and",), ("==", "!=", "<", "<=", ">", ">="), ("+", "-"), ("*", "/")]

    def binary(self, level):
        if level == len(self.LEVELS):
            return self.unary()
        if level == 2:
            left = self.binary(level + 1)
            if self.peek() in self.LEVELS[2]:
                op = self.take()
                left = {"expr": "bin", "operator": op, "left": left, "right": self.binary(level + 1)}
            return left
        left = self.binary(level + 1) if level != 1 else self.notted()
        while self.peek() in self.LEVELS[level]:
            op = self.take()
            right = self.binary(level + 1) if level != 1 else self.notted()
            left = {"expr": "bin", "operator": op, "left": left, "right": right}
        return left

    def notted(self):
        if self.peek() == "not":
            self.take()
            return {"expr": "not", "operand": self.notted()}
        return self.binary(2)

    def unary(self):
        if self.peek() == "-":
            self.take()
            return {"expr": "neg", "operand": self.unary()}
        e = self.atom()
        while self.peek() in (".", "["):
            if self.take() == ".":
                e = {"expr": "attr", "subject": e, "name": self.take()}
            else:
                e = {"expr": "index", "list": e, "position": self.expr()}
                self.take("]")
        return e

    def atom(self):
        tok = self.take()
        if tok == "(":
            e = self.expr()
            self.take(")")
            return e
        if tok[0].isdigit():
            if tok.endswith("%"):
                return {"expr": "ratio", "num": int(tok[:-1]), "den": 100}
            return {"expr": "int", "value": int(tok)}
        if tok in ("yes", "no"):
            return {"expr": "bool", "value": tok == "yes"}
        if tok in AGGS and self.peek() == "(":
            self.take("(")
            var = self.take()
            self.take("in")
            over = self.expr()
            self.take(":")
            body = self.expr()
            self.take(")")
            return {"expr": "agg", "function": tok, "var": var, "over": over, "body": body}
        if self.peek() == "(":
            self.take()
            args = []
            while self.peek() != ")":
                args.append(self.expr())
                if self.peek() == ",":
                    self.take()
            self.take(")")
            return {"expr": "call", "function": tok, "args": args}
        if tok in self.sections and self.peek() == ".":
            self.take(".")
            return {"expr": "setting", "path": f"{tok}.{self.take()}"}
        if tok == "bank":
            return {"expr": "bank"}
        return {"expr": "var", "name": tok}
