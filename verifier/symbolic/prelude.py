"""The built-in invariants (the shared contract, /tmp/contract/invariants.md), as IR.

The compiler adds them to every edition's IR as `ir["invariants"]` (origin "prelude").
Until an IR carries them, `invariants(ir)` parses the contract's texts here with a small
expression reader (the language's expression syntax, no typing): a stopgap, not a second
compiler; once `ir["invariants"]` exists it is used as is.
"""
from __future__ import annotations

import re

PRELUDE = [
    ("money_conservation", "player cash plus the bank's ledger is constant",
     "sum(p in players: p.cash) + bank_ledger == 0"),
    ("house_stock", "houses on the board and in the bank make the bank's stock",
     "sum(d in deeds: d.houses) + houses_in_bank == bank.houses and houses_in_bank >= 0"),
    ("hotel_stock", "hotels on the board and in the bank make the bank's stock",
     "sum(d in deeds: d.hotels) + hotels_in_bank == bank.hotels and hotels_in_bank >= 0"),
    ("even_building", "levels within a group differ by at most one",
     "all(g in groups: g.uneven or max(d in g.deeds: d.even_level) - min(d in g.deeds: d.even_level) <= 1)"),
    ("mortgage_excludes_buildings", "no buildings in a group with a mortgaged deed",
     "all(d in deeds: not d.mortgaged or all(e in d.group.deeds: e.level == 0))"),
    ("unique_ownership", "every deed is held by the bank or a player still in the game",
     "all(d in deeds: d.owner == bank or not d.owner.bankrupt)"),
    ("card_conservation", "every card is in its deck or held by one player",
     "all(k in decks: k.size + sum(p in players: held(p, k)) == k.cards)"),
    ("bankrupt_hold_nothing", "a bankrupt player holds nothing",
     "all(p in players: not p.bankrupt or (p.cash == 0 and count(d in p.deeds: yes) == 0 and p.cards == 0))"),
    ("positions", "every token is on the board",
     "all(p in players: 0 <= p.position and p.position < board_size)"),
    ("jail_counters", "jail counters stay in range",
     "all(p in players: 0 <= p.jail_turns and p.jail_turns <= jail.max_turns)"),
    ("no_negative_cash", "no player still in the game has negative cash",
     "all(p in players: p.bankrupt or p.cash >= 0)"),
]


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


def invariants(ir: dict) -> list[dict]:
    if ir.get("invariants"):
        return ir["invariants"]
    sections = set(ir.get("settings", {}))
    return [{"name": name, "text": text, "body": parse(source, sections), "origin": "prelude"}
            for name, text, source in PRELUDE]


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
            return {"k": "if", "c": c, "t": t, "e": self.expr()}
        return self.binary(0)

    LEVELS = [("or",), ("and",), ("==", "!=", "<", "<=", ">", ">="), ("+", "-"), ("*", "/")]

    def binary(self, level):
        if level == len(self.LEVELS):
            return self.unary()
        if level == 2:
            left = self.binary(level + 1)
            if self.peek() in self.LEVELS[2]:
                op = self.take()
                left = {"k": "bin", "op": op, "l": left, "r": self.binary(level + 1)}
            return left
        left = self.binary(level + 1) if level != 1 else self.notted()
        while self.peek() in self.LEVELS[level]:
            op = self.take()
            right = self.binary(level + 1) if level != 1 else self.notted()
            left = {"k": "bin", "op": op, "l": left, "r": right}
        return left

    def notted(self):
        if self.peek() == "not":
            self.take()
            return {"k": "not", "e": self.notted()}
        return self.binary(2)

    def unary(self):
        if self.peek() == "-":
            self.take()
            return {"k": "neg", "e": self.unary()}
        e = self.atom()
        while self.peek() in (".", "["):
            if self.take() == ".":
                e = {"k": "attr", "of": e, "name": self.take()}
            else:
                e = {"k": "index", "of": e, "at": self.expr()}
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
                return {"k": "ratio", "num": int(tok[:-1]), "den": 100}
            return {"k": "int", "v": int(tok)}
        if tok in ("yes", "no"):
            return {"k": "bool", "v": tok == "yes"}
        if tok in AGGS and self.peek() == "(":
            self.take("(")
            var = self.take()
            self.take("in")
            over = self.expr()
            self.take(":")
            body = self.expr()
            self.take(")")
            return {"k": "agg", "fn": tok, "var": var, "over": over, "body": body}
        if self.peek() == "(":
            self.take()
            args = []
            while self.peek() != ")":
                args.append(self.expr())
                if self.peek() == ",":
                    self.take()
            self.take(")")
            return {"k": "call", "fn": tok, "args": args}
        if tok in self.sections and self.peek() == ".":
            self.take(".")
            return {"k": "setting", "path": f"{tok}.{self.take()}"}
        if tok == "bank":
            return {"k": "bank"}
        return {"k": "var", "name": tok}
