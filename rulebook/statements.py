"""Statements (IR effects) in words: squares' rules, hooks, setup.

Card texts are printed as written; only squares, hooks and setup need this. A statement the
table cannot put in words says so (`effects/unsupported`) instead of being skipped.
"""
from __future__ import annotations

from typing import Any, Callable

from ir.nodes import (
    Add,
    Attr,
    Bank,
    Binary,
    Choose,
    ChooseIn,
    Deal,
    DoProcedure,
    Draw,
    EndGame,
    Expr,
    ForEach,
    GoToJail,
    JumpTo,
    MoveBy,
    MoveTo,
    Not,
    Option,
    PlaceAt,
    PotRef,
    SetState,
    Setting,
    Stmt,
    Throw,
    Transfer,
    Var,
    When,
)
from rulebook.booklet import Booklet, escape
from rulebook.conditions import (
    ME,
    Nouns,
    called,
    condition,
    element_of,
    expand,
    kind_filter,
    parts,
    phrase,
    state_set,
    walk,
)


def amount(book: Booklet, expr: Expr, nouns: Nouns | None = None) -> str:
    return phrase(book, expand(book, expr), nouns or {}, money=True)


def describe(book: Booklet, stmts: tuple[Stmt, ...], nouns: Nouns | None = None) -> str:
    """The statements as one phrase: `pay 4 000 kr to the bank`; `nouns` name the variables in scope."""
    return book.words.join([statement(book, stmt, nouns or {}) for stmt in stmts])


def choose_in(book: Booklet, stmt: ChooseIn, nouns: Nouns) -> str:
    """`choose w in SET where ... or skip { ... }`: the kind asked for names the choice."""
    words, var = book.words, stmt.var
    match stmt.where:
        case Binary(operator="==", left=Var(name=name), right=one) if name == var:   # a single element
            body = describe(book, stmt.body, nouns | {var: phrase(book, one, nouns)})
            return words.text("effects/may" if stmt.skip else "effects/must", body=body)
    conditions = parts(stmt.where, "and") if stmt.where else []
    kind = kind_filter(conditions[0], var) if conditions else None
    if kind:
        conditions = conditions[1:]
    thing = book.kind_noun(kind or stmt.element, "a") if isinstance(stmt.over, Var) else \
        words.text("effects/one_of", among=phrase(book, stmt.over, nouns))
    scope = nouns | {var: book.kind_noun(kind or stmt.element, "the")}
    where = [condition(book, clause, scope) for clause in conditions]
    return words.text("effects/choose_in", thing=thing, body=describe(book, stmt.body, scope),
                      where=words.text("effects/choose_where", cond=words.join(where)) if where else "",
                      skip=words.text("effects/or_skip") if stmt.skip else "")


def procedure_call(book: Booklet, stmt: DoProcedure, nouns: Nouns) -> str:
    """`do NAME(args)`: the procedure by its name, linked to its paragraph."""
    args = [phrase(book, arg, nouns) for arg in stmt.args]
    return book.words.text("effects/call", name=called(book, stmt.procedure, args), id=stmt.procedure)


def set_state(book: Booklet, stmt: SetState, nouns: Nouns) -> str:
    """`set X.NAME = EXPR`; `X.NAME + N` is said as raising it by N."""
    target = Attr(subject=stmt.subject, name=stmt.state)
    what = phrase(book, target, nouns)
    match stmt.value:
        case Binary(operator="+", left=same, right=step) if same == target:
            return book.words.text("effects/raise", what=what, by=phrase(book, step, nouns))
    return book.words.text("effects/set", what=what, value=phrase(book, expand(book, stmt.value), nouns))


def throw(book: Booklet, stmt: Throw, nouns: Nouns) -> str:
    """`throw A, B { ... }`: one die per name, one at a time; the body reads them as die 1, die 2."""
    scope = nouns | {name: book.words.text("effects/die", n=n) for n, name in enumerate(stmt.names, 1)}
    return book.words.text("effects/throw", n=len(stmt.names), body=describe(book, stmt.body, scope))


def for_each(book: Booklet, stmt: ForEach, nouns: Nouns) -> str:
    """`for x in SET { if COND { ... } }` as "for the x where COND: ...", any other loop as "for each"."""
    kind = element_of(stmt.over)
    scope = nouns | {stmt.var: book.noun(kind, "the")}
    match stmt.body:
        case [When(cond=cond, then=then, otherwise=())]:
            return book.words.text("effects/for_where", thing=book.noun(kind, "the"), cond=condition(book, cond, scope),
                                   body=describe(book, then, scope))
    return book.words.text("effects/for_each", thing=book.noun(kind, "one"), things=book.noun(kind, "many"),
                           body=describe(book, stmt.body, scope))


def statement(book: Booklet, stmt: Stmt, nouns: Nouns) -> str:
    """One statement in words, or `effects/unsupported` when the table has no phrase for it."""
    say_it = STATEMENTS.get(type(stmt))
    text = say_it(book, stmt, nouns) if say_it else None
    return book.words.text("effects/unsupported") if text is None else text


def transfer(book: Booklet, stmt: Transfer, nouns: Nouns) -> str | None:
    """Money from a pot, from the bank or to the bank; between players it has no phrase."""
    words = book.words
    match stmt:
        case Transfer(payer=PotRef(key=pot), payee=Var(name="me")):
            return words.text("effects/take_pot", pot=book.name(book.pot(pot)))
        case Transfer(payer=Bank(), payee=Var(name="me")):
            return words.text("effects/collect", amount=amount(book, stmt.amount, nouns))
        case Transfer(payer=Var(name="me"), payee=Bank()):
            return words.text("effects/pay", amount=amount(book, stmt.amount, nouns))
    return None


def add(book: Booklet, stmt: Add, nouns: Nouns) -> str | None:
    """`add x to player.STATE` for a variable x."""
    match stmt:
        case Add(item=Var(name=var)):
            return book.words.text("effects/add", what=nouns.get(var, escape(var)),
                                   set=state_set(book, stmt.player, stmt.state))
    return None


def deal(book: Booklet, stmt: Deal, nouns: Nouns) -> str:
    """`deal`: every deed, or N to each player, paid for or free."""
    words = book.words
    paying = words.text("effects/deal_paying" if stmt.paying else "effects/deal_free")
    if stmt.each is None:
        return words.text("effects/deal_all", paying=paying)
    return words.text("effects/deal_each", paying=paying, n=phrase(book, stmt.each, nouns),
                      deeds=book.kind_noun(stmt.deed_kind or "deed", "all"))


def loop(book: Booklet, stmt: ForEach, nouns: Nouns) -> str:
    """A loop over the other players with one transfer is paying (or collecting from) each."""
    match stmt:
        case ForEach(over=Var(name="others"), body=[Transfer() as one]):
            key = "effects/pay_each" if one.payer == ME else "effects/collect_each"
            return book.words.text(key, amount=amount(book, one.amount, nouns))
    return for_each(book, stmt, nouns)


def decided(book: Booklet, cond: Expr) -> bool | None:
    """A condition the edition's own settings answer (`money.salary_limit == every_pass`):
    the booklet states only the rule that applies, as the engine runs only that one."""
    match cond:
        case Binary(operator="==" | "!=" as operator, left=Setting(path=path), right=Option(value=value)):
            return (book.setting(path) == value) == (operator == "==")
        case Not(operand=operand):
            known = decided(book, operand)
            return None if known is None else not known
        case Binary(operator="and" | "or" as operator, left=left, right=right):
            answers = (decided(book, left), decided(book, right))
            deciding = operator == "or"            # `or`: one true answers it; `and`: one false
            if deciding in answers:
                return deciding
            return None if None in answers else not deciding
    return None


def once_per_lap(stmt: When) -> tuple[str, tuple[Stmt, ...]] | None:
    """`if me.laps > me.S { set me.S = me.laps ... }`: the rest of the block, at most once per
    lap, counted in the player's number `S` (returned with the rest)."""
    match stmt:
        case When(cond=Binary(operator=">", left=Attr(subject=Var(name="me"), name="laps"),
                              right=Attr(subject=Var(name="me"), name=state)),
                  then=(SetState(subject=Var(name="me"), state=written,
                                 value=Attr(subject=Var(name="me"), name="laps")), *rest),
                  otherwise=()) if written == state:
            return state, tuple(rest)
    return None


def lap_counters(book: Booklet) -> set[str]:
    """The player numbers that only count laps for `once_per_lap` blocks: the booklet says
    "once per lap" and leaves the counter out."""
    ruleset = book.ruleset
    nodes = list(walk(tuple(ruleset.squares) + tuple(ruleset.decks) + tuple(ruleset.hooks or ())
                      + tuple(ruleset.setup or ()) + tuple((ruleset.procedures or {}).values())
                      + tuple(ruleset.formulas.values()) + tuple(ruleset.actions or ())
                      + tuple(ruleset.invariants) + (ruleset.rent,)))
    counted = [found[0] for node in nodes if isinstance(node, When) and (found := once_per_lap(node))]
    uses = [node.name for node in nodes if isinstance(node, Attr)] + \
        [node.state for node in nodes if isinstance(node, SetState)]
    return {state for state in counted if uses.count(state) == 2 * counted.count(state)}


def if_then(book: Booklet, stmt: When, nouns: Nouns) -> str:
    words = book.words
    known = decided(book, stmt.cond)
    if known is not None:
        return describe(book, stmt.then if known else stmt.otherwise, nouns)
    lap = once_per_lap(stmt)
    if lap is not None:
        return words.text("effects/once_per_lap", body=describe(book, lap[1], nouns))
    otherwise = words.text("effects/else", body=describe(book, stmt.otherwise, nouns)) \
        if stmt.otherwise else ""
    return words.text("effects/if", cond=condition(book, stmt.cond, nouns),
                      body=describe(book, stmt.then, nouns), otherwise=otherwise)


def draw(book: Booklet, stmt: Draw, nouns: Nouns) -> str:
    return book.words.text("effects/draw", deck=book.name(book.deck(stmt.deck)))


def choose(book: Booklet, stmt: Choose, nouns: Nouns) -> str:
    """`choose { "label" { ... } or ... }`: the options, joined by "or"."""
    words = book.words
    return words.text("effects/choose", options=words.join([
        words.text("effects/option", label=escape(option.label), body=describe(book, option.body, nouns))
        for option in stmt.options], "or"))


def jump(book: Booklet, stmt: JumpTo | PlaceAt, nouns: Nouns) -> str:
    """`jump_to` or `place_at` a square given by an expression."""
    return book.words.text(f"effects/{stmt.TAG}", square=phrase(book, stmt.target, nouns))


# Each kind of statement's phrase; None (or a kind not here, `advance_to_nearest`, `keep`) is
# said as `effects/unsupported`.
STATEMENTS: dict[type, Callable[[Booklet, Any, Nouns], str | None]] = {
    Transfer: transfer,
    Add: add,
    ChooseIn: choose_in,
    EndGame: lambda book, stmt, nouns: book.words.text("effects/end_game"),
    Deal: deal,
    ForEach: loop,
    When: if_then,
    SetState: set_state,
    DoProcedure: procedure_call,
    MoveBy: lambda book, stmt, nouns: book.words.text("effects/move_by", steps=phrase(book, stmt.steps, nouns)),
    JumpTo: jump, PlaceAt: jump,
    Throw: throw,
    Draw: draw,
    GoToJail: lambda book, stmt, nouns: book.words.text("effects/go_to_jail", jail=book.values["jail_square"]),
    MoveTo: lambda book, stmt, nouns: book.words.text("effects/move_to", square=book.name(book.square(stmt.square))),
    Choose: choose,
}
