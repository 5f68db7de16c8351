"""Lints: what compiles and plays but is most likely a designer's mistake (the verifier issue's lints).
Each is a warning with a `W` code (docs/errors.md), located like an error; `check` reports
them without failing, `check --strict` fails on them (exit status 2). Run on the merged
edition (for the places) and its IR (for the printed texts), after a compile without errors.

- W101: a transfer whose payer and payee are the same player;
- W102: a loop variable its block never reads;
- W103: a card's or square's printed text that its effect contradicts (grammar/printed.py);
- W104: an invariant whose description promises both directions that its formula checks one way;
- W105: an invariant or a step property whose only source for a limit is the setting it
  polices (`houses_in_bank <= bank.houses`), with no `fact(...)` of it (grammar/facts.py).
"""
from __future__ import annotations

import re
from dataclasses import fields, is_dataclass
from typing import Iterator

from grammar import language as lang
from grammar import printed, syntax
from grammar.diagnostics import Diagnostic, Span
from grammar.extend import MergedSpec

# Words of a description that promise both directions: the described condition holds when,
# and only when, the other does ("exactly": no more and no less). A bare "only if" promises
# one direction ("A only if B" is A -> B), so it is not among them.
BOTH_WAYS = re.compile(r"\b(if,? and only if|iff|when,? and only when|then and only then|"
                       r"(?:exactly|precisely|just) (?:when|if)|exactly|precisely)\b", re.IGNORECASE)


def lints(edition: MergedSpec, ir: dict) -> list[Diagnostic]:
    """Every warning of an edition that compiled, the edition's own file first, in source order."""
    found = [*_same_party(edition), *_unused_loop_variables(edition), *_printed_texts(edition, ir),
             *_one_way_invariants(edition), *_circular_limits(edition)]
    own = edition.header.span.source.name
    unique = {(d.file, d.line, d.column, d.code): d for d in found}
    return sorted(unique.values(), key=lambda d: (d.file != own, d.file or "", d.line or 0, d.column or 0, d.code))


def _warn(code: str, message: str, span: Span, hint: str) -> Diagnostic:
    return Diagnostic.at(code, message, span, hint, severity="warning")


# ---- the blocks of statements, walked -----------------------------------------------------------

def _blocks(edition: MergedSpec) -> Iterator[tuple[syntax.Stmt, ...]]:
    """Every top-level block of statements: squares, cards, hooks, setup, procedures, actions."""
    for square in edition.squares.values():
        yield from (block.body for block in (square.on_land, square.on_pass) if block)
    for deck in edition.decks.values():
        yield from (card.body for card in deck.cards)
    yield from (hook.body for hook in edition.hooks)
    if edition.setup:
        yield edition.setup.body
    yield from (procedure.body for procedure in edition.procedures.values())
    yield from (action.effect for action in edition.actions.values())


def _inner(stmt: syntax.Stmt) -> Iterator[tuple[syntax.Stmt, ...]]:
    """The blocks a statement holds."""
    if isinstance(stmt, syntax.When):
        yield from (stmt.then, stmt.otherwise)
    elif isinstance(stmt, syntax.Choose):
        yield from (option.body for option in stmt.options)
    elif isinstance(stmt, (syntax.ForEach, syntax.ChooseIn, syntax.Throw)):
        yield stmt.body


def _statements(body: tuple[syntax.Stmt, ...]) -> Iterator[syntax.Stmt]:
    """Every statement of a block, those of its inner blocks too."""
    for stmt in body:
        yield stmt
        for block in _inner(stmt):
            yield from _statements(block)


# ---- W101: a transfer from a player to the same player ------------------------------------------

def _same_party(edition: MergedSpec) -> Iterator[Diagnostic]:
    """`pay X to me`, `collect X from me`, a loop over `players` paying its own variable
    (the turn's player is one of them), and `do P(me)` where P pays its parameter."""
    for body in _blocks(edition):
        yield from _same_in(body, frozenset(), edition)


def _same_in(body: tuple[syntax.Stmt, ...], everyone: frozenset[str], edition: MergedSpec) -> Iterator[Diagnostic]:
    """`everyone`: the variables of the enclosing loops over all the players."""
    for stmt in body:
        party = stmt.to if isinstance(stmt, syntax.Pay) else stmt.source if isinstance(stmt, syntax.Collect) else None
        if party is not None and party.text == "me":
            verb = "pays" if isinstance(stmt, syntax.Pay) else "collects from"
            yield _warn("W101", f"`{stmt.span.words()}`: `me` {verb} `me`", stmt.span,
                        "a transfer moves money between two parties: name the other one (`bank`, `owner`, a player)")
        elif party is not None and party.text in everyone:
            yield _warn("W101", f"`{stmt.span.words()}` in a loop over `players` moves money from `me` to `me` "
                        "once", stmt.span, "loop over `others` to leave the turn's player out")
        elif isinstance(stmt, syntax.DoProcedure) and stmt.name.text in edition.procedures:
            yield from _same_by_call(stmt, edition.procedures[stmt.name.text])
        inner = everyone - {stmt.var.text} if isinstance(stmt, (syntax.ForEach, syntax.ChooseIn)) else everyone
        if isinstance(stmt, syntax.ForEach) and isinstance(stmt.over, syntax.Name) and stmt.over.text == "players":
            inner = everyone | {stmt.var.text}
        for block in _inner(stmt):
            yield from _same_in(block, inner, edition)


def _same_by_call(call: syntax.DoProcedure, procedure: syntax.Procedure) -> Iterator[Diagnostic]:
    """`do P(me)` where P pays or collects from that parameter directly (not under a loop
    that rebinds its name)."""
    for arg, param in zip(call.args, procedure.params, strict=False):
        if isinstance(arg, syntax.Name) and arg.text == "me" and any(
                isinstance(stmt, (syntax.Pay, syntax.Collect)) and
                (stmt.to if isinstance(stmt, syntax.Pay) else stmt.source).text == param.text
                for stmt in _statements(procedure.body)):
            yield _warn("W101", f"`{call.name.text}` moves money between `{param.text}` and `me`, "
                        f"and `{param.text}` is `me` here", arg.span,
                        f"pass another player, or let `{call.name.text}` leave `me` out")


# ---- W102: a loop variable its block does not read ----------------------------------------------

def _unused_loop_variables(edition: MergedSpec) -> Iterator[Diagnostic]:
    for body in _blocks(edition):
        for stmt in _statements(body):
            if isinstance(stmt, (syntax.ForEach, syntax.ChooseIn)) and stmt.var.text not in _names(stmt.body):
                loop = "for" if isinstance(stmt, syntax.ForEach) else "choose"
                var = stmt.var.text
                hint = (f"use `{var}` in the block, or write the block once without the loop (to pay per element, "
                        "multiply by a `count(...)`)" if loop == "for"
                        else f"use `{var}` in the block, or drop the `choose`")
                yield _warn("W102", f"`{var}` is never used in the block of its `{loop}`", stmt.var.span, hint)


# Fields that name something other than a variable: an attribute, a function, a binding.
NOT_READ = {"name", "fn", "var", "names", "key", "label", "deck", "group", "state"}


def _names(node: object) -> set[str]:
    """The names read in a syntax tree (attribute and function names, bindings aside)."""
    if isinstance(node, syntax.Name):
        return {node.text}
    if isinstance(node, tuple):
        return set().union(*(_names(item) for item in node))
    if not is_dataclass(node):
        return set()
    out: set[str] = set()
    for field in fields(node):
        if field.name not in NOT_READ and field.name != "span":
            out |= _names(getattr(node, field.name))
    return out


# ---- W103: a printed text its effect contradicts -----------------------------------------------

def _printed_texts(edition: MergedSpec, ir: dict) -> Iterator[Diagnostic]:
    """Each disagreement grammar/printed.py reads, under the words at fault in the text."""
    for found in printed.disagreements(ir):
        text = _printed_text(edition, found.place)
        if text is not None:
            yield _warn("W103", f"{found.where}: {found.message}", _inside(text, found.start, found.end), found.hint)


def _printed_text(edition: MergedSpec, place: tuple[str, ...]) -> syntax.Text | None:
    if place[0] == "card":
        deck = edition.decks.get(place[1])
        return deck.cards[int(place[2])].text if deck and int(place[2]) < len(deck.cards) else None
    square = edition.squares.get(place[1])
    value = next((s.value for s in square.settings if s.key.text == "text"), None) if square else None
    return value if isinstance(value, syntax.Text) else None


def _inside(text: syntax.Text, start: int, end: int) -> Span:
    """The span of characters `start` to `end` of a quoted text's value; the whole text when
    the source does not hold the value as written (an escape, a line break)."""
    span = text.span
    raw = span.source.line(span.line)[span.column:span.end_column - 2] if span.line == span.end_line else None
    if raw != text.value:
        return span
    return Span(span.source, span.line, span.column + 1 + start, span.line, span.column + 1 + max(end, start + 1))


# ---- W104: a description promising both directions, a formula checking one ---------------------

def _one_way_invariants(edition: MergedSpec) -> Iterator[Diagnostic]:
    for _, invariant in edition.invariants.values():
        promise = BOTH_WAYS.search(invariant.text.value)
        if promise is not None and not _both_ways(invariant.body, edition.formulas, set()):
            yield _warn("W104", f"`{invariant.name.text}` says \"{promise.group(0)}\", its formula checks one "
                        "direction only", invariant.body.span,
                        "check the other direction too (`a == b` for yes/no values, or both `not a or b` and "
                        "`not b or a`), or say only what the formula checks")


def _both_ways(expr: syntax.Expr, formulas: dict[str, syntax.Formula], seen: set[str]) -> bool:
    """Whether a yes/no formula checks an equivalence: one of its conjuncts is an `==` or
    `!=`, or two of them are implications each other's converse (`not a or b`, `not b or a`).
    What an implication's own sides compare does not count: `not full(p) or over` checks
    one direction whatever `full` compares."""
    parts = list(_conjuncts(expr, formulas, seen))
    if any(isinstance(part, syntax.Binary) and part.op in ("==", "!=") for part in parts):
        return True
    implications = {found for part in parts if (found := _implication(part)) is not None}
    return any((b, a) in implications for a, b in implications)


def _implication(expr: syntax.Expr) -> tuple[object, object] | None:
    """`not a or b` (either way round) as the shapes of `a` and `b`: a implies b."""
    if isinstance(expr, syntax.Binary) and expr.op == "or":
        if isinstance(expr.left, syntax.Not):
            return _shape(expr.left.operand), _shape(expr.right)
        if isinstance(expr.right, syntax.Not):
            return _shape(expr.right.operand), _shape(expr.left)
    return None


def _conjuncts(expr: syntax.Expr, formulas: dict[str, syntax.Formula], seen: set[str]) -> Iterator[syntax.Expr]:
    """The conditions a formula checks side by side: through `and`, `all`, `any` and the
    edition's formulas it calls (each once)."""
    if isinstance(expr, syntax.Binary) and expr.op == "and":
        yield from _conjuncts(expr.left, formulas, seen)
        yield from _conjuncts(expr.right, formulas, seen)
    elif isinstance(expr, syntax.Aggregate) and expr.fn.text in ("all", "any"):
        yield from _conjuncts(expr.body, formulas, seen)
    elif isinstance(expr, syntax.Call) and expr.fn.text in formulas and expr.fn.text not in seen:
        seen.add(expr.fn.text)
        yield from _conjuncts(formulas[expr.fn.text].body, formulas, seen)
    else:
        yield expr


def _shape(node: object) -> object:
    """A syntax tree without its places, to compare two expressions as written."""
    if isinstance(node, tuple):
        return tuple(_shape(item) for item in node)
    if not is_dataclass(node):
        return node
    return (type(node).__name__, *(_shape(getattr(node, f.name)) for f in fields(node) if f.name != "span"))



# ---- W105: a limit taken only from the setting it polices -------------------------------------

def _circular_limits(edition: MergedSpec) -> Iterator[Diagnostic]:
    """Each number setting an invariant or a step property reads (through the formulas it
    calls too) with no `fact(...)` of the same setting in it: the rules deal from that
    setting, so a wrong number there is a wrong number here too, and the property keeps it."""
    items: list[syntax.Invariant | syntax.StepProperty] = [item for _, item in edition.invariants.values()]
    items += [item for _, item in edition.steps.values()]
    for item in items:
        bare: dict[str, syntax.Attr] = {}
        checked: set[str] = set()
        _settings_read(item.body, edition.formulas, frozenset(), set(), bare, checked)
        for path, read in bare.items():
            if path not in checked:
                yield _warn("W105", f"`{item.name.text}` reads `{path}`, a setting the rules it checks "
                            "read too, and no fact of it: a wrong number there keeps it", read.span,
                            f"compare with the number the source prints, `fact({path})`, stated by "
                            f"`fact {path} = N \"the source's words\"` (or the edition's `box`)")


def _settings_read(node: object, formulas: dict[str, syntax.Formula], bound: frozenset[str], seen: set[str],
                   bare: dict[str, syntax.Attr], checked: set[str]) -> None:
    """The number settings `node` reads bare (`bare`, the first read of each) and in
    `fact(...)` (`checked`), through the formulas it calls (each once)."""
    if isinstance(node, syntax.Attr) and isinstance(node.of, syntax.Name) and node.of.text not in bound:
        key = lang.SECTIONS.get(node.of.text, {}).get(node.name.text)
        if key is not None and key.kind == "int" and node.of.text not in lang.PRINTED_SECTIONS:
            bare.setdefault(f"{node.of.text}.{node.name.text}", node)
            return
    if isinstance(node, syntax.Call) and node.fn.text == "fact" and node.fn.text not in formulas:
        for arg in node.args:
            if isinstance(arg, syntax.Attr) and isinstance(arg.of, syntax.Name):
                checked.add(f"{arg.of.text}.{arg.name.text}")
        return
    if isinstance(node, syntax.Call) and node.fn.text in formulas and node.fn.text not in seen:
        seen.add(node.fn.text)
        _settings_read(formulas[node.fn.text].body, formulas, frozenset(), seen, bare, checked)
    if isinstance(node, syntax.Aggregate):
        bound = bound | {node.var.text}
    if isinstance(node, tuple):
        for item in node:
            _settings_read(item, formulas, bound, seen, bare, checked)
    elif is_dataclass(node):
        for f in fields(node):
            if f.name != "span":
                _settings_read(getattr(node, f.name), formulas, bound, seen, bare, checked)
