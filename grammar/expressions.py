"""Expressions and effects: syntax -> IR nodes, with their names resolved and types checked.

An expression that has an error reports it and gets the type `any`, which every check
accepts, so one mistake gives one error rather than a cascade.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from grammar import language as lang
from grammar import syntax
from grammar.diagnostics import Diagnostic, Span, did_you_mean, known
from grammar.language import ANY, BOOL, INT, RATIO, Type

Scope = dict[str, Type]
HINTS = {
    "number": "arithmetic, amounts and `sum`/`max`/`min` work on numbers only",
    "int": "a count of squares or a list position is a whole number: no `/` or `%`",
    "bool": "a condition is a comparison, `yes`/`no`, or `and`/`or`/`not` of conditions",
}


@dataclass(frozen=True)
class Signature:
    """A formula as its callers see it: parameter types (`any` when unconstrained) and result."""

    params: tuple[Type, ...]
    result: Type


@dataclass
class Names:
    """What the edition defines that expressions and effects may name."""

    squares: dict[str, int]
    groups: dict[str, str]                     # id -> kind
    decks: set[str]
    settings: dict[str, dict[str, Type]]       # section -> key -> type
    formulas: dict[str, Signature]
    report: Callable[[Diagnostic], None]
    params: dict[str, Type] = field(default_factory=dict)  # of the formula being checked
    states: dict[str, Type] = field(default_factory=dict)  # per-player state: name -> type
    area_states: dict[str, Type] = field(default_factory=dict)  # per-area state: name -> type
    pots: set[str] = field(default_factory=set)
    areas: dict[str, int] = field(default_factory=dict)
    procedures: dict[str, int] = field(default_factory=dict)   # name -> number of parameters
    jail: bool = True                          # the edition has a `jail` section
    dice: int | None = None                    # `game.dice`, where the spec writes a number
    removed: dict[str, Span] = field(default_factory=dict)    # deck id -> where `remove deck` took it away
    facts: dict[str, int] = field(default_factory=dict)       # `section.key` -> the number its source prints
    absent: set[str] = field(default_factory=set)             # the sections of parts the game does not have
    formula_reads: dict[str, set[str]] = field(default_factory=dict)   # formula -> the number settings it reads


class Lowering:
    """Lowers expressions and statements against one edition's names."""

    def __init__(self, names: Names):
        self.names = names
        self.callable_procedures: set[str] | None = None   # inside a procedure: those written above it
        self.before = False       # lowering a step property's body: `old` may be used
        self.in_old = False       # lowering the operand of an `old`
        self.facts = False        # lowering an invariant or a step property: `fact` may be used
        # While an invariant, a step property or a formula is lowered: each number setting it
        # reads (through the formulas it calls too), with the number its source prints where
        # it reads `fact(...)` of it and the edition states one, else None (grammar/facts.py).
        self.reading: dict[str, int | None] | None = None

    def error(self, code: str, message: str, span: Span, hint: str | None = None) -> tuple[dict, Type]:
        self.names.report(Diagnostic.at(code, message, span, hint))
        return {"expr": "int", "value": 0}, ANY

    def expect(self, what: str, node: syntax.Expr, scope: Scope, wanted: str) -> dict:
        """Lower `node` and check it is a number, an int or a bool (`wanted`)."""
        ir, t = self.expr(node, scope)
        ok = {"number": lang.is_number(t), "int": t.name in ("int", "any"), "bool": t.name in ("bool", "any")}
        if not ok[wanted]:
            words = {"number": "a number", "int": "a whole number", "bool": "yes/no"}
            self.error("E301", f"{what} must be {words[wanted]}, found `{t}`", node.span, HINTS[wanted])
        return ir

    # ---- expressions ------------------------------------------------------------------

    def expr(self, node: syntax.Expr, scope: Scope) -> tuple[dict, Type]:
        return _EXPRESSIONS[type(node)](self, node, scope)

    def integer(self, node: syntax.Int, scope: Scope) -> tuple[dict, Type]:
        return {"expr": "int", "value": node.value}, INT

    def percent(self, node: syntax.Percent, scope: Scope) -> tuple[dict, Type]:
        return {"expr": "ratio", "num": node.value, "den": lang.PERCENT}, RATIO

    def boolean(self, node: syntax.Bool, scope: Scope) -> tuple[dict, Type]:
        return {"expr": "bool", "value": node.value}, BOOL

    def index(self, node: syntax.Index, scope: Scope) -> tuple[dict, Type]:
        of, t = self.expr(node.of, scope)
        at = self.expect("a list index", node.at, scope, "int")
        if t.name == "list":
            return {"expr": "index", "list": of, "position": at}, t.element or ANY
        if t.name != "any":
            self.error("E301", f"only a list can be indexed, found `{t}`", node.of.span,
                       "`printed` (in rent formulas) is a list: `printed[0]`")
        return {"expr": "index", "list": of, "position": at}, ANY

    def minus(self, node: syntax.Neg, scope: Scope) -> tuple[dict, Type]:
        if isinstance(node.operand, syntax.Int):
            return {"expr": "int", "value": -node.operand.value}, INT
        ir, t = self.expr(node.operand, scope)
        if not lang.is_number(t):
            return self.error("E301", f"`-` needs a number, found `{t}`", node.operand.span, HINTS["number"])
        return {"expr": "neg", "operand": ir}, t

    def negation(self, node: syntax.Not, scope: Scope) -> tuple[dict, Type]:
        return {"expr": "not", "operand": self.expect("the operand of `not`", node.operand, scope, "bool")}, BOOL

    def conditional(self, node: syntax.Conditional, scope: Scope) -> tuple[dict, Type]:
        cond = self.expect("an `if` condition", node.cond, scope, "bool")
        then, t1 = self.expr(node.then, scope)
        other, t2 = self.expr(node.otherwise, scope)
        joined = _join(t1, t2)
        if joined is None:
            return self.error("E301", f"the branches of `if` differ: `{t1}` and `{t2}`", node.span,
                              "both branches must give the same kind of value")
        return {"expr": "if", "cond": cond, "then": then, "otherwise": other}, joined

    def name(self, node: syntax.Name, scope: Scope) -> tuple[dict, Type]:
        if node.text == "bank" and scope.get("bank") == lang.PARTY:
            return {"expr": "bank"}, lang.PARTY
        if node.text in scope:
            return {"expr": "var", "name": node.text}, self.names.params.get(node.text, scope[node.text])
        if node.text in self.names.squares:
            return {"expr": "square", "key": node.text}, Type("square")
        if node.text in self.names.groups:
            return {"expr": "group", "key": node.text}, Type("group")
        if node.text in self.names.decks:
            return {"expr": "deck", "key": node.text}, Type("deck")
        if node.text in self.names.pots:
            return {"expr": "pot", "key": node.text}, lang.POT
        return self.unknown_name(node, scope)

    def unknown_name(self, node: syntax.Name, scope: Scope) -> tuple[dict, Type]:
        hint: str | None
        if node.text in lang.NAME_PLACES:
            hint = f"`{node.text}` can be used {lang.NAME_PLACES[node.text]} only"
        else:
            hint = did_you_mean(node.text, list(scope) + list(self.names.settings))
        return self.error("E209", f"unknown name `{node.text}`", node.span, hint)

    def attr(self, node: syntax.Attr, scope: Scope) -> tuple[dict, Type]:
        of = node.of
        # `bank.houses` is a setting: the section `bank` is not the party `bank`
        if (isinstance(of, syntax.Name) and of.text in self.names.settings
                and scope.get(of.text, lang.PARTY) == lang.PARTY):
            keys = self.names.settings[of.text]
            if node.name.text not in keys:
                return self.error("E207", f"unknown setting `{of.text}.{node.name.text}`", node.name.span,
                                  did_you_mean(node.name.text, keys))
            path = f"{of.text}.{node.name.text}"
            if self.reading is not None and keys[node.name.text] == INT and of.text not in self.names.absent:
                self.reading.setdefault(path, None)
            return {"expr": "setting", "path": path}, keys[node.name.text]
        if isinstance(of, syntax.Name) and of.text not in scope and of.text not in self.names.pots:
            return self.unknown_name(of, scope)
        ir, t = self.expr(of, scope)
        if t.name in ("player", "party", "any") and node.name.text in self.names.states:
            return {"expr": "attr", "subject": ir, "name": node.name.text}, self.names.states[node.name.text]
        if t.name in ("area", "any") and node.name.text in self.names.area_states:
            return {"expr": "attr", "subject": ir, "name": node.name.text}, self.names.area_states[node.name.text]
        attrs = lang.ATTRS.get(t.name)
        if t.name == "any":
            attrs = lang.PLAYER_ATTRS | lang.DEED_ATTRS | lang.AREA_ATTRS
        if attrs is None:
            return self.error("E301", f"`{t}` has no attribute `{node.name.text}`", node.name.span,
                              "only a player, the bank, a deed, a group and a deck have attributes")
        if node.name.text not in attrs:
            owner = "" if t.name == "any" else f" of a {t}"
            return self.error("E214", f"unknown attribute `{node.name.text}`{owner}", node.name.span,
                              did_you_mean(node.name.text, attrs) or "attributes are " + _listing(attrs))
        if t.name == "any" and isinstance(of, syntax.Name) and of.text in self.names.params:
            holder = lang.PLAYER if node.name.text in lang.PLAYER_ATTRS else \
                lang.AREA if node.name.text in lang.AREA_ATTRS else lang.DEED
            self.names.params[of.text] = holder
        return {"expr": "attr", "subject": ir, "name": node.name.text}, attrs[node.name.text]

    def binary(self, node: syntax.Binary, scope: Scope) -> tuple[dict, Type]:
        op = node.op
        if op in ("and", "or"):
            left = self.expect(f"the left of `{op}`", node.left, scope, "bool")
            right = self.expect(f"the right of `{op}`", node.right, scope, "bool")
            return {"expr": "bin", "operator": op, "left": left, "right": right}, BOOL
        if op in ("==", "!="):
            left, lt = self.operand(node.left, node.right, scope)
            right, rt = self.operand(node.right, node.left, scope)
            if not _fits(lt, rt):                  # a deed is its square: `d == me.square`
                return self.error("E301", f"cannot compare `{lt}` with `{rt}`", node.span,
                                  "compare numbers with numbers, an option with an option of the same rule")
            return {"expr": "bin", "operator": op, "left": left, "right": right}, BOOL
        left, lt = self.expr(node.left, scope)
        right, rt = self.expr(node.right, scope)
        if op == "in":
            if rt.name not in ("set", "any"):
                return self.error("E301", f"`in` needs a set on its right, found `{rt}`", node.right.span,
                                  "a set is `players`, `squares`, `p.deeds` or a player's declared state")
            if rt.element is not None and not _fits(lt, rt.element):
                return self.error("E301", f"a `{lt}` is never in a set of {rt.element}", node.left.span,
                                  "compare like with like: a square with a set of squares")
            return {"expr": "bin", "operator": op, "left": left, "right": right}, BOOL
        for side, t in ((node.left, lt), (node.right, rt)):
            if not lang.is_number(t):
                return self.error("E301", f"`{op}` needs numbers, found `{t}`", side.span, HINTS["number"])
        if op in ("<", "<=", ">", ">="):
            return {"expr": "bin", "operator": op, "left": left, "right": right}, BOOL
        exact = INT if lt == INT and rt == INT and op != "/" else (ANY if ANY in (lt, rt) else RATIO)
        return {"expr": "bin", "operator": op, "left": left, "right": right}, exact

    def operand(self, node: syntax.Expr, other: syntax.Expr, scope: Scope) -> tuple[dict, Type]:
        """One side of `==`/`!=`: a bare name beside a rule with options is one of its options."""
        if isinstance(node, syntax.Name) and node.text not in scope:
            _, other_type = self.peek(other, scope)
            if other_type.name == "enum":
                if node.text not in other_type.options:
                    return self.error("E210", f"unknown option `{node.text}`", node.span,
                                      did_you_mean(node.text, other_type.options) or
                                      "the options are " + ", ".join(f"`{o}`" for o in other_type.options))
                return {"expr": "enum", "value": node.text}, other_type
        return self.expr(node, scope)

    def peek(self, node: syntax.Expr, scope: Scope) -> tuple[dict, Type]:
        """The type of `node` without reporting its errors (they are reported where it is lowered)."""
        report, self.names.report = self.names.report, lambda d: None
        try:
            if isinstance(node, syntax.Name) and node.text not in scope:
                return {}, ANY
            return self.expr(node, scope)
        finally:
            self.names.report = report

    def call(self, node: syntax.Call, scope: Scope) -> tuple[dict, Type]:
        fn = node.fn.text
        if fn == "old" and fn not in self.names.formulas:
            return self.old(node, scope)
        if fn == "fact" and fn not in self.names.formulas:
            return self.fact(node, scope)
        if self.reading is not None:
            for path in self.names.formula_reads.get(fn, ()):
                self.reading.setdefault(path, None)
        if fn in lang.BUILTINS:
            params, result = lang.BUILTINS[fn]
        elif fn in self.names.formulas:
            params, result = self.names.formulas[fn].params, self.names.formulas[fn].result
        elif fn in lang.AGGREGATES:
            return self.error("E301", f"`{fn}` is an aggregate, not a function", node.span,
                              f"write `{fn}(x in SET: ...)`")
        else:
            return self.error("E208", f"unknown formula or builtin `{fn}`", node.fn.span,
                              did_you_mean(fn, list(lang.BUILTINS) + list(self.names.formulas)))
        if fn in lang.THROW_BUILTINS and "dice" not in scope:
            return self.error("E209", f"`{fn}` reads the current throw, and there is none here", node.fn.span,
                              f"`{fn}` can be used {lang.NAME_PLACES['dice']} only, as `dice`")
        if len(node.args) != len(params):
            return self.error("E305", f"`{fn}` takes {len(params)} argument{'s' * (len(params) != 1)}, "
                              f"given {len(node.args)}", node.span, "give one argument per parameter")
        args = []
        for arg, param in zip(node.args, params, strict=True):
            ir, t = self.expr(arg, scope)
            if _join(t, param) is None:
                self.error("E301", f"`{fn}` needs a `{param}` here, found `{t}`", arg.span,
                           "pass a value of the parameter's type")
            if param.name != "any" and isinstance(arg, syntax.Name) and self.names.params.get(arg.text) == ANY:
                self.names.params[arg.text] = param
            args.append(ir)
        if fn == "die":
            self.die_number(node.args[0])
        return {"expr": "call", "function": fn, "args": args}, result

    def old(self, node: syntax.Call, scope: Scope) -> tuple[dict, Type]:
        """`old(e)`: `e` in the state before the step, in a step property only (and not
        inside another `old`: the state before is one state)."""
        if not self.before:
            return self.error("E311", "`old` outside a step property", node.fn.span,
                              "`old(e)` reads the state before a step: write it in `step NAME \"...\" on KIND = ...`")
        if self.in_old:
            return self.error("E311", "`old` inside `old`", node.fn.span,
                              "the operand of `old` is read in the state before the step already")
        if len(node.args) != 1:
            return self.error("E305", f"`old` takes 1 argument, given {len(node.args)}", node.span,
                              "`old(e)`: one expression")
        self.in_old = True
        try:
            ir, t = self.expr(node.args[0], scope)
        finally:
            self.in_old = False
        return {"expr": "old", "operand": ir}, t

    def fact(self, node: syntax.Call, scope: Scope) -> tuple[dict, Type]:
        """`fact(SECTION.KEY)`: the number the edition's source prints for a number setting
        (a `fact` item or a line of its box), in an invariant or a step property only; the
        setting itself where the edition states none (grammar/facts.py)."""
        if not self.facts:
            return self.error("E209", "`fact` can be used in invariants and step properties only", node.fn.span,
                              "a rule plays by its setting (`bank.houses`); `fact(bank.houses)` is the number the "
                              "source prints, for an invariant to check the rules against")
        arg = node.args[0] if len(node.args) == 1 else None
        if not (isinstance(arg, syntax.Attr) and isinstance(arg.of, syntax.Name) and arg.of.text in self.names.settings
                and scope.get(arg.of.text, lang.PARTY) == lang.PARTY):
            return self.error("E305", "`fact` takes one setting", node.span,
                              "`fact(bank.houses)`: the number the source prints for that setting")
        ir, t = self.expr(arg, scope)
        if t != INT:
            return self.error("E301", f"`fact` needs a number setting, found `{t}`", arg.span,
                              "a fact is a number the source prints: `fact(bank.houses)`, `fact(jail.max_turns)`")
        path = ir["path"]
        if path not in self.names.facts:
            return ir, INT          # the source prints none: the setting itself (circular)
        if self.reading is not None and path in self.reading:
            self.reading[path] = self.names.facts[path]
        return {"expr": "int", "value": self.names.facts[path]}, INT

    def die_number(self, number: syntax.Expr) -> None:
        """`die(N)` with N written as a number names one of the game's dice (a computed N
        outside them stops the rule when it runs, E504)."""
        dice = self.names.dice
        if isinstance(number, syntax.Int) and dice is not None and not 1 <= number.value <= dice:
            self.error("E302", f"`die({number.value})` names a die the game does not have: it throws {dice}",
                       number.span,
                       f"the dice are counted from 1: `die(1)` to `die({dice})`")

    def aggregate(self, node: syntax.Aggregate, scope: Scope) -> tuple[dict, Type]:
        fn = node.fn.text
        if fn not in lang.AGGREGATES:
            return self.error("E208", f"unknown aggregate `{fn}`", node.fn.span,
                              did_you_mean(fn, lang.AGGREGATES) or "aggregates are " +
                              ", ".join(f"`{a}`" for a in lang.AGGREGATES))
        over, t = self.expr(node.over, scope)
        if t.name != "set" and t.name != "any":
            return self.error("E301", f"`{fn}` ranges over a set, found `{t}`", node.over.span,
                              "a set is `players`, `others` or `p.deeds`")
        inner = scope | {node.var.text: t.element or ANY}
        body_kind, result = lang.AGGREGATES[fn]
        body, body_type = self.expr(node.body, inner)
        if body_kind == "number" and not lang.is_number(body_type):
            self.error("E301", f"the body of `{fn}` must be a number, found `{body_type}`", node.body.span,
                       HINTS["number"])
        if body_kind == "bool" and body_type.name not in ("bool", "any"):
            self.error("E301", f"the body of `{fn}` must be yes/no, found `{body_type}`", node.body.span,
                       HINTS["bool"])
        return ({"expr": "agg", "function": fn, "var": node.var.text, "over": over, "body": body},
                result or (body_type if lang.is_number(body_type) else ANY))

    # ---- statements -------------------------------------------------------------------

    def block(self, body: tuple[syntax.Stmt, ...], scope: Scope, in_card: bool) -> list[dict]:
        return [self.stmt(stmt, scope, in_card) for stmt in body]

    def stmt(self, node: syntax.Stmt, scope: Scope, in_card: bool) -> dict:
        """A statement's IR (`in_card`: inside a card, where `keep` is allowed)."""
        return _STATEMENTS[type(node)](self, node, scope, in_card)

    def pay(self, node: syntax.Pay, scope: Scope, in_card: bool) -> dict:
        return {"stmt": "transfer", "amount": self.expect("the amount of `pay`", node.amount, scope, "number"),
                "payer": {"expr": "var", "name": "me"}, "payee": self.party(node.to, scope)}

    def collect(self, node: syntax.Collect, scope: Scope, in_card: bool) -> dict:
        amount = self.expect("the amount of `collect`", node.amount, scope, "number")
        return {"stmt": "transfer", "amount": amount, "payer": self.party(node.source, scope),
                "payee": {"expr": "var", "name": "me"}}

    def for_each(self, node: syntax.ForEach, scope: Scope, in_card: bool) -> dict:
        over, t = self.expr(node.over, scope)
        if t.name not in ("set", "any"):
            self.error("E301", f"`for` ranges over a set, found `{t}`", node.over.span,
                       "a set is `players`, `others` or `p.deeds`")
        body = self.block(node.body, scope | {node.var.text: t.element or ANY}, in_card)
        return {"stmt": "for", "var": node.var.text, "over": over, "body": body}

    def move_to(self, node: syntax.MoveTo, scope: Scope, in_card: bool) -> dict:
        index = self.names.squares.get(node.square.text)
        if index is None:
            self.error("E203", f"unknown square `{node.square.text}`", node.square.span,
                       known(node.square.text, self.names.squares, "squares"))
        return {"stmt": "move_to", "square": index or 0}

    def move_by(self, node: syntax.MoveBy, scope: Scope, in_card: bool) -> dict:
        return {"stmt": "move_by", "steps": self.expect("the steps of `move by`", node.steps, scope, "int")}

    def advance(self, node: syntax.Advance, scope: Scope, in_card: bool) -> dict:
        if node.group.text not in self.names.groups:
            self.error("E204", f"unknown group `{node.group.text}`", node.group.span,
                       known(node.group.text, self.names.groups, "groups"))
        rent = None
        if node.rent is not None:
            inner = scope | {name: t for name, t in lang.WITH_RENT_NAMES.items() if name not in scope}
            rent = self.expect("the rent of `advance`", node.rent, inner, "number")
        return {"stmt": "advance_to_nearest", "group": node.group.text, "rent": rent}

    def go_to_jail(self, node: syntax.GoToJail, scope: Scope, in_card: bool) -> dict:
        if not self.names.jail:
            self.error("E406", "`go to jail` in a game without a jail", node.span,
                       "give the edition a `jail { ... }` section, or remove the statement")
        return {"stmt": "go_to_jail"}

    def draw(self, node: syntax.Draw, scope: Scope, in_card: bool) -> dict:
        removed = self.names.removed.get(node.deck.text)
        if removed is not None:
            self.error("E205", f"deck `{node.deck.text}` is removed", node.deck.span,
                       f"`remove deck {node.deck.text}` at {removed.source.name}:{removed.line} takes it away: "
                       "take away or replace what draws it too (`remove on_land of SQUARE`)")
        elif node.deck.text not in self.names.decks:
            self.error("E205", f"unknown deck `{node.deck.text}`", node.deck.span,
                       did_you_mean(node.deck.text, self.names.decks))
        return {"stmt": "draw", "deck": node.deck.text}

    def keep(self, node: syntax.Keep, scope: Scope, in_card: bool) -> dict:
        if not in_card:
            self.error("E404", "`keep` outside a card", node.span,
                       "only a card can be kept; on a square, remove `keep`")
        return {"stmt": "keep"}

    def end_game(self, node: syntax.EndGame, scope: Scope, in_card: bool) -> dict:
        return {"stmt": "end_game"}

    def deal(self, node: syntax.Deal, scope: Scope, in_card: bool) -> dict:
        if "me" in scope:
            self.error("E405", "`deal` outside `setup`", node.span,
                       "deeds are dealt once, before play: put `deal` in a `setup { ... }` block")
        each = None if node.each is None else self.expect("the count of `deal`", node.each, scope, "int")
        kind = None if node.kind is None else node.kind.text
        if node.kind is not None and node.kind.text not in lang.DEED_KINDS:
            self.error("E210", f"`{node.kind.text}` is not a kind of deed", node.kind.span,
                       did_you_mean(node.kind.text, lang.DEED_KINDS) or "the kinds are " + _listing(lang.DEED_KINDS))
        return {"stmt": "deal", "each": each, "paying": node.paying, "deed_kind": kind}

    def jump(self, node: syntax.JumpTo | syntax.PlaceAt, scope: Scope, in_card: bool) -> dict:
        square, t = self.expr(node.square, scope)
        if _join(t, lang.SQUARE) is None and t.name != "deed":
            self.error("E301", f"a token goes to a square, not to a `{t}`", node.square.span,
                       "name a square, or a variable that holds one")
        return {"stmt": "jump_to" if isinstance(node, syntax.JumpTo) else "place_at", "target": square}

    def throw(self, node: syntax.Throw, scope: Scope, in_card: bool) -> dict:
        inner = scope | {name.text: INT for name in node.names}
        return {"stmt": "throw", "names": [name.text for name in node.names],
                "body": self.block(node.body, inner, in_card)}

    def choose(self, node: syntax.Choose, scope: Scope, in_card: bool) -> dict:
        return {"stmt": "choose", "options": [
            {"label": option.label.value, "body": self.block(option.body, scope, in_card)}
            for option in node.options]}

    def when(self, node: syntax.When, scope: Scope, in_card: bool) -> dict:
        return {"stmt": "if", "cond": self.expect("an `if` condition", node.cond, scope, "bool"),
                "then": self.block(node.then, scope, in_card),
                "otherwise": self.block(node.otherwise, scope, in_card)}

    def choose_in(self, node: syntax.ChooseIn, scope: Scope, in_card: bool) -> dict:
        over, t = self.expr(node.over, scope)
        if t.name not in ("set", "any"):
            self.error("E301", f"`choose` ranges over a set, found `{t}`", node.over.span,
                       "a set is `players`, `squares`, `p.deeds` or a player's declared state")
        element = t.element or ANY
        inner = scope | {node.var.text: element}
        where = None if node.where is None else self.expect("a `where` condition", node.where, inner, "bool")
        return {"stmt": "choose_in", "var": node.var.text, "over": over, "where": where, "skip": node.skip,
                "element": element.name, "body": self.block(node.body, inner, in_card)}

    def add(self, node: syntax.Add, scope: Scope, in_card: bool) -> dict:
        player = self.party(node.player, scope)
        state = self.names.states.get(node.state.text)
        item, t = self.expr(node.item, scope)
        if state is None:
            self.error("E215", f"unknown state `{node.state.text}`", node.state.span,
                       did_you_mean(node.state.text, self.names.states) or
                       f"declare it: `state player.{node.state.text} : set of square`")
        elif state.element is None:
            self.error("E301", f"`{node.state.text}` is declared `{state}`, not a set", node.item.span,
                       "`add` puts an element in a state declared `set of ...`")
        elif not _fits(t, state.element):
            self.error("E301", f"`{node.state.text}` holds {state.element}s, not `{t}`", node.item.span,
                       "add an element of the state's declared type")
        return {"stmt": "add", "item": item, "player": player, "state": node.state.text}

    def set_state(self, node: syntax.SetState, scope: Scope, in_card: bool) -> dict:
        of, t = self.expr(node.of, scope)
        name = node.state.text
        table = self.names.area_states if t.name == "area" else self.names.states if t.name in ("player", "party") \
            else self.names.area_states | self.names.states
        wanted = table.get(name)
        if wanted is None or wanted.name != "int":
            self.error("E215", f"no number `{name}` declared for a {t}", node.state.span,
                       did_you_mean(name, [n for n, ty in table.items() if ty.name == "int"]) or
                       f"declare it: `state {'area' if t.name == 'area' else 'player'}.{name} : int`")
        value = self.expect(f"the value of `{name}`", node.value, scope, "int")
        return {"stmt": "set", "subject": of, "state": name, "value": value}

    def do_procedure(self, node: syntax.DoProcedure, scope: Scope, in_card: bool) -> dict:
        name = node.name.text
        allowed = self.names.procedures if self.callable_procedures is None else \
            {n: k for n, k in self.names.procedures.items() if n in self.callable_procedures}
        if name not in allowed:
            hint = ("a procedure may run only procedures written above it" if name in self.names.procedures
                    else did_you_mean(name, self.names.procedures) or "declare it: `procedure NAME(...) { ... }`")
            self.error("E208", f"unknown procedure `{name}`", node.name.span, hint)
            return {"stmt": "call", "procedure": name, "args": []}
        if len(node.args) != allowed[name]:
            self.error("E305", f"`{name}` takes {allowed[name]} argument{'s' * (allowed[name] != 1)}, "
                       f"given {len(node.args)}", node.span, "give one argument per parameter")
        return {"stmt": "call", "procedure": name, "args": [self.expr(arg, scope)[0] for arg in node.args]}

    def party(self, node: syntax.Name, scope: Scope) -> dict:
        if node.text == "bank":
            return {"expr": "bank"}
        if node.text in self.names.pots and node.text not in scope:
            return {"expr": "pot", "key": node.text}
        if scope.get(node.text, ANY).name in ("player", "any") and node.text in scope:
            return {"expr": "var", "name": node.text}
        hint = "a party is `bank`, `me`, `owner` (in rent) or a loop variable over players"
        if node.text in scope:
            self.error("E301", f"`{node.text}` is a `{scope[node.text]}`, not a player", node.span, hint)
        else:
            self.error("E209", f"unknown party `{node.text}`", node.span,
                       did_you_mean(node.text, [n for n, t in scope.items() if t == lang.PLAYER] + ["bank"]) or hint)
        return {"expr": "bank"}


# Each kind of expression's and statement's lowering, by syntax class.
_EXPRESSIONS: dict[type, Callable[[Lowering, Any, Scope], tuple[dict, Type]]] = {
    syntax.Int: Lowering.integer, syntax.Percent: Lowering.percent, syntax.Bool: Lowering.boolean,
    syntax.Name: Lowering.name, syntax.Attr: Lowering.attr, syntax.Index: Lowering.index, syntax.Neg: Lowering.minus,
    syntax.Not: Lowering.negation, syntax.Binary: Lowering.binary, syntax.Conditional: Lowering.conditional,
    syntax.Call: Lowering.call, syntax.Aggregate: Lowering.aggregate,
}
_STATEMENTS: dict[type, Callable[[Lowering, Any, Scope, bool], dict]] = {
    syntax.Pay: Lowering.pay, syntax.Collect: Lowering.collect, syntax.ForEach: Lowering.for_each,
    syntax.MoveTo: Lowering.move_to, syntax.MoveBy: Lowering.move_by, syntax.Advance: Lowering.advance,
    syntax.GoToJail: Lowering.go_to_jail, syntax.Draw: Lowering.draw, syntax.Keep: Lowering.keep,
    syntax.ChooseIn: Lowering.choose_in, syntax.Add: Lowering.add, syntax.EndGame: Lowering.end_game,
    syntax.Deal: Lowering.deal, syntax.SetState: Lowering.set_state, syntax.DoProcedure: Lowering.do_procedure,
    syntax.JumpTo: Lowering.jump, syntax.PlaceAt: Lowering.jump, syntax.Throw: Lowering.throw,
    syntax.Choose: Lowering.choose, syntax.When: Lowering.when,
}


def _listing(words: Iterable[str]) -> str:
    quoted = [f"`{w}`" for w in words]
    return ", ".join(quoted[:-1]) + " or " + quoted[-1] if len(quoted) > 1 else quoted[0]


def _fits(item: Type, element: Type) -> bool:
    """Whether a value of type `item` can be an element of a set of `element` (a deed is its square)."""
    return _join(item, element) is not None or {item.name, element.name} == {"deed", "square"}


def _join(a: Type, b: Type) -> Type | None:
    """The type both `a` and `b` fit, or None: numbers join to ratio, `any` joins anything."""
    if a.name == "any":
        return b
    if b.name == "any" or a == b:
        return a
    if {a.name, b.name} == {"party", "player"}:
        return lang.PARTY
    if lang.is_number(a) and lang.is_number(b):
        return RATIO
    return None
