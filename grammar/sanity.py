"""What a well-typed edition must still not do, so that every spec `check` passes plays
without a crash: move the token round for ever (E308), divide by what can be 0 (E309),
or state an amount no game has (E310). Run on the merged edition (for the places) and
its IR (for the values), after lowering.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Callable

from grammar import syntax
from grammar.bounds import (
    ANYTHING,
    LIMIT,
    NATURAL,
    QUIET,
    Bounds,
    Facts,
    Faults,
    Known,
    Reader,
    between,
    hull,
    narrowed,
    point,
    without,
)
from grammar.diagnostics import Diagnostic
from grammar.extend import MergedSpec
from grammar.moves import Moves

SHOWN = 6           # a longer round of moves is shown by its ends
MOST = f"{LIMIT:_}"  # as a spec writes it
# The bank's stock of buildings may be below 0: a game plays on with it, and the verifier's
# broken corpus (tests/verifier/broken/negative-*-stock.rules) breaks the stock invariants so.
STOCK = ("bank.houses", "bank.hotels")


def sanity(edition: MergedSpec, ir: dict) -> list[Diagnostic]:
    """Every E308, E309 and E310 of an edition that lowered without errors, in source order."""
    found: dict[tuple, Diagnostic] = {}

    def report(diagnostic: Diagnostic) -> None:
        found.setdefault((diagnostic.file, diagnostic.line, diagnostic.column), diagnostic)

    def divisor(node: syntax.Expr, bounds: Bounds) -> None:
        words = node.span.words()
        if bounds.value == 0:
            report(Diagnostic.at("E309", f"division by zero: `{words}` is always 0", node.span,
                                 "divide by a number other than 0"))
        else:
            x = words if isinstance(node, (syntax.Name, syntax.Attr)) else "n"      # a short name, or a letter
            counted = bounds.low is not None and bounds.low >= 0     # a count: one more is never 0
            report(Diagnostic.at("E309", f"division by `{words}`, which can be 0", node.span,
                                 f"guard it: `if {x} > 0 then ... / {x} else ...`"
                                 + (f", or divide by `{x} + 1`" if counted else "")
                                 + (", with `n` the divisor" if x == "n" else "")))

    def huge(node: syntax.Expr, value: int | Fraction) -> None:
        said = f"the amount {_number(value)} is" if isinstance(node, syntax.Int) else \
            f"`{node.span.words()}` comes to {_number(value)}, which is"
        report(Diagnostic.at("E310", f"{said} past {MOST}", node.span,
                             f"no amount or count of a game comes near {MOST}: check the number"))

    reader = Reader(_known(edition, ir), Faults(divisor, huge))
    _Walk(reader, ir).edition(edition)
    for diagnostic in _amounts(edition):
        report(diagnostic)
    moves = Moves(edition, ir, Reader(reader.known, QUIET))
    for cycle in moves.cycles():
        shown = [moves.name(node) for node in cycle.nodes] + [moves.name(cycle.nodes[0])]
        if len(shown) > SHOWN:
            shown = shown[:3] + ["..."] + shown[-2:]
        report(Diagnostic.at("E308", f"the moves {' -> '.join(shown)} never end: no throw of the dice comes between",
                             cycle.at.span, "a move on landing must not lead back to where it started: remove one, "
                             "put it under `if`, or send the token to a square that leaves it there"))
    own = edition.header.span.source.name
    return sorted(found.values(), key=lambda d: (d.file != own, d.file or "", d.line or 0, d.column or 0))


# ---- E309 and constants past the limit: every expression, read with its guards ------------------

# The expressions a statement reads itself (its blocks and guards aside).
READ = {syntax.Pay: ("amount",), syntax.Collect: ("amount",), syntax.MoveBy: ("steps",), syntax.Advance: ("rent",),
        syntax.JumpTo: ("square",), syntax.PlaceAt: ("square",), syntax.Add: ("item",), syntax.Deal: ("each",),
        syntax.SetState: ("value",)}


class _Walk:
    """Reads every expression of an edition where it stands: its variables and guards."""

    def __init__(self, reader: Reader, ir: dict):
        self.reader = reader
        game = ir["settings"].get("game", {})
        self.die = between(1, game["die_faces"]) if isinstance(game.get("die_faces"), int) and game["die_faces"] > 0 \
            else ANYTHING

    def edition(self, edition: MergedSpec) -> None:
        self.expressions(edition)
        self.effects(edition)

    def expressions(self, edition: MergedSpec) -> None:
        """The formulas, invariants, expectations, statistics and settings, each read once."""
        read = self.reader.value
        for formula in edition.formulas.values():
            read(formula.body, dict.fromkeys((p.text for p in formula.params), ANYTHING), {})
        for _, invariant in edition.invariants.values():
            read(invariant.body, {}, {})
        for _, example in edition.examples.values():
            for step in example.expects:
                if step.expr is not None:
                    read(step.expr, {}, {})
        for item in edition.statistics.values():
            read(item.body, {}, {})
        for _, setting in _settings(edition):
            if not _literal(setting.value) and not isinstance(setting.value, syntax.NOT_EXPRESSIONS):
                read(setting.value, {}, {})

    def effects(self, edition: MergedSpec) -> None:
        """Every block of statements: squares, cards, hooks (under their condition), setup,
        procedures and actions."""
        read = self.reader.value
        for square in edition.squares.values():
            for block in (square.on_land, square.on_pass):
                if block:
                    self.block(block.body, {}, {})
        for deck in edition.decks.values():
            for card in deck.cards:
                self.block(card.body, {}, {})
        for hook in edition.hooks:
            scope = {hook.var.text: ANYTHING}
            facts: Facts = {}
            if hook.cond is not None:
                read(hook.cond, scope, {})
                facts = narrowed(hook.cond, True, {}, self._quiet(scope))
            self.block(hook.body, scope, facts)
        if edition.setup:
            self.block(edition.setup.body, {}, {})
        for procedure in edition.procedures.values():
            self.block(procedure.body, dict.fromkeys((p.text for p in procedure.params), ANYTHING), {})
        for action in edition.actions.values():
            read(action.over, {}, {})
            scope = {action.var.text: ANYTHING}
            for setting in action.settings:
                if not isinstance(setting.value, syntax.NOT_EXPRESSIONS):    # lowering told of those
                    read(setting.value, scope, {})
            self.block(action.effect, scope, {})

    def block(self, body: tuple[syntax.Stmt, ...], scope: dict[str, Bounds], facts: Facts) -> None:
        read = self.reader.value
        for stmt in body:
            if type(stmt) in READ:
                for name in READ[type(stmt)]:
                    if getattr(stmt, name) is not None:
                        read(getattr(stmt, name), scope, facts)
            elif isinstance(stmt, syntax.DoProcedure):
                for arg in stmt.args:
                    read(arg, scope, facts)
            elif isinstance(stmt, syntax.When):
                read(stmt.cond, scope, facts)
                self.block(stmt.then, scope, narrowed(stmt.cond, True, facts, self._quiet(scope)))
                self.block(stmt.otherwise, scope, narrowed(stmt.cond, False, facts, self._quiet(scope)))
            elif isinstance(stmt, syntax.Choose):
                for option in stmt.options:
                    self.block(option.body, scope, facts)
            elif isinstance(stmt, (syntax.ForEach, syntax.ChooseIn)):
                read(stmt.over, scope, facts)
                inner, known = scope | {stmt.var.text: ANYTHING}, without(facts, stmt.var.text)
                if isinstance(stmt, syntax.ChooseIn) and stmt.where is not None:
                    read(stmt.where, inner, known)
                    known = narrowed(stmt.where, True, known, self._quiet(inner))
                self.block(stmt.body, inner, known)
            elif isinstance(stmt, syntax.Throw):
                names = [name.text for name in stmt.names]
                self.block(stmt.body, scope | dict.fromkeys(names, self.die), without(facts, *names))

    def _quiet(self, scope: dict[str, Bounds]) -> Callable[[syntax.Expr, Facts], Bounds]:
        quiet = Reader(self.reader.known, QUIET)
        return lambda node, facts: quiet.value(node, scope, facts)


# ---- E310: the amounts a spec states -------------------------------------------------------

def _amounts(edition: MergedSpec) -> list[Diagnostic]:
    """Every number a setting states is an amount of money or a count: 0 to LIMIT."""
    out = []
    for owner, setting in _settings(edition):
        least = None if f"{owner}.{setting.key.text}" in STOCK else 0
        for node, value in _numbers(setting.value):
            if not (least is None or least <= value) or value > LIMIT:
                out.append(Diagnostic.at(
                    "E310", f"`{owner}.{setting.key.text}` is {_number(value)}: "
                    + ("an amount or a count is 0 or more" if value < 0 else f"past {MOST}"), node.span,
                    f"an amount of money or a count is a whole number from 0 to {MOST}"))
                break
    return out


def _settings(edition: MergedSpec) -> list[tuple[str, syntax.Setting]]:
    """Every setting of an edition, with what it belongs to: a section, a group, a square, ..."""
    out = [(section, setting) for (section, _), (_, setting) in edition.settings.items()]
    for things in (edition.groups, edition.squares, edition.areas, edition.pots):
        out += [(owner, setting) for owner, thing in things.items() for setting in thing.settings]
    return out


def _numbers(value: syntax.Value) -> list[tuple[syntax.Value | syntax.Note, int]]:
    """The whole numbers a setting's value states, each with what to point at."""
    if isinstance(value, syntax.Int):
        return [(value, value.value)]
    if isinstance(value, syntax.Neg) and isinstance(value.operand, syntax.Int):
        return [(value, -value.operand.value)]
    if isinstance(value, syntax.Range):
        return [(value, value.low), (value, value.high)]
    if isinstance(value, syntax.Notes):
        return [(note, number) for note in value.notes for number in (note.count, note.value)]
    if isinstance(value, syntax.Numbers):
        return [(value, number) for number in value.values]
    return []


def _literal(value: syntax.Value) -> bool:
    return isinstance(value, syntax.Int) or isinstance(value, syntax.Neg) and isinstance(value.operand, syntax.Int)


def _number(value: Fraction | int) -> str:
    """A number as a spec writes it (`1_000_000`); a very long one by its size."""
    text = f"{int(value):_}" if Fraction(value).denominator == 1 else str(value)
    return text if len(text) <= 2 * len(MOST) else f"a number of {len(str(abs(int(value))))} digits"


# ---- what the IR says of the names' values ------------------------------------------------------

def _known(edition: MergedSpec, ir: dict) -> Known:
    settings, lists = {}, {}
    for section, keys in ir["settings"].items():
        for key, value in keys.items():
            if isinstance(value, bool):
                continue
            if isinstance(value, int):      # one past the limit is E310 already: unknown here
                settings[f"{section}.{key}"] = point(value) if abs(value) <= LIMIT else ANYTHING
            elif isinstance(value, dict) and "num" in value:
                settings[f"{section}.{key}"] = point(Fraction(value["num"], value["den"]))
            elif isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
                lists[f"{section}.{key}"] = hull(value)
    game = ir["settings"].get("game", {})
    dice, faces = game.get("dice"), game.get("die_faces")
    thrown = between(dice, dice * faces) if isinstance(dice, int) and isinstance(faces, int) and dice > 0 < faces \
        else ANYTHING
    deeds = [square["deed"] for square in ir["squares"] if square["deed"] is not None]

    def printed(key: str) -> Bounds:
        return hull([deed.get(key, 0) for deed in deeds] + [0])

    names = {"dice": thrown, "roll": thrown, "board_size": point(len(ir["squares"])), "turn": Bounds(1),
             **dict.fromkeys(("rounds", "houses_in_bank", "hotels_in_bank", "level", "owned", "mortgaged_in_group"),
                             NATURAL)}
    attributes = {"position": between(0, max(len(ir["squares"]) - 1, 0)),
                  "number": hull([square.get("number", 0) for square in ir["squares"]] + [0]),
                  **{key: printed(key) for key in ("price", "mortgage", "house_cost", "hotel_cost")},
                  **dict.fromkeys(("jail_turns", "cards", "size", "houses", "hotels", "level", "even_level"), NATURAL)}
    rents = hull([rent for deed in deeds for rent in deed.get("rent", [])])
    return Known(settings, lists, names, attributes, rents, edition.formulas)
