"""Proofs with Z3, from the IR of whatever spec is given (no edition facts here):

    prove_initial(ir, inv, players)            the start state satisfies the invariant
    prove_preserves(ir, inv, action, players)  Inv(s) and guard(s) imply Inv(step(s))
    bounded(ir, inv, players, depth)           no violation within `depth` actions of the start
    can_happen(ir, action, players)            the guard holds in some state the invariants allow
    table(ir, players)                         every invariant x action, strengthening made sound

Solver effort is bounded by Z3's resource limit (`rlimit`), not the clock, so a verdict
does not depend on the machine: `RLIMIT` units per query and `CELL` units per preservation
cell; a query past either is `Unknown("resource limit ...")`. Every cell (and every row's
bounded check) asks in a Z3 context of its own (`Own`), so its verdict depends on that
cell alone, not on the cells asked before it. Neither preservation proofs nor bounded checks compute
a payer's bankruptcy (it walks every deed and makes the query intractable): in a proof
that path is unsupported, so such a cell is unknown with that reason (and bounded checking
then decides it); a bounded check stops at the step before the first one where a
bankruptcy is reachable. Each action instance is built once
and shared by every invariant. A counterexample to induction is never a violation: it
is `Unknown("not inductive")` unless bounded checking reaches it from the start.
"""
from __future__ import annotations

import copy
import functools
import itertools
import json
from collections.abc import Callable, Iterator
from typing import ParamSpec, TypeAlias, TypeVar

import z3

import interpreter

from .symbolic import terms
from .symbolic.actions import Action, catalogue
from .symbolic.encode import Unsupported
from .symbolic.engine import SymGame, holds, step_holds
from .symbolic.lemmas import facts
from .symbolic.replay import confirm
from .symbolic.state import SymState, domain, fresh, initial
from .verdicts import Bounded, Proved, Unknown, Verdict, Violated

Term: TypeAlias = "z3.ExprRef | int | bool"   # a symbolic value: a Z3 term, or a constant folded in Python
Result = TypeVar("Result")
Params = ParamSpec("Params")

RLIMIT = 2_000_000           # per query; Z3's deterministic resource units
BOUNDED = 20_000_000         # per query of a bounded check
CELL = 100 * RLIMIT          # per preservation cell: every query of the cell draws on it

_EDITIONS: dict = {}
_STEPS: dict = {}            # (edition key, players, action) -> [(args, game)]
_CHAINS: dict = {}           # (edition key, players, actions) -> bounded-checking steps
_BEFORE: dict = {}           # (edition key, players, invariant) -> its term on the fresh state


class Effort:
    """A total of Z3 resource units, one cell's: every query of the cell spends what Z3
    reports it used."""

    def __init__(self, units: int) -> None:
        self.units = units
        self.spent = 0

    @property
    def left(self) -> int:
        return self.units - self.spent


def _rcount(solver: z3.Solver) -> int:
    stats = solver.statistics()
    return int(stats.get_key_value("rlimit count")) if "rlimit count" in stats.keys() else 0


def _check(solver: z3.Solver, *assumptions: z3.BoolRef, effort: Effort | None = None, limit: int = RLIMIT
           ) -> tuple[z3.CheckSatResult, str]:
    """`solver.check(*assumptions)` within the per-query `limit` and, given an `effort`, the
    units the cell has left: (result, reason)."""
    if effort is not None:
        if effort.left <= 0:
            return z3.unknown, f"resource limit: the cell's budget of {effort.units} rlimit units is spent"
        limit = min(limit, effort.left)
    solver.set("rlimit", limit)
    before = _rcount(solver)
    result = solver.check(*assumptions)
    if effort is not None:
        effort.spent += max(0, _rcount(solver) - before)
    if result == z3.unknown:
        why = solver.reason_unknown()
        if why in ("canceled", "max. resource limit exceeded", "resource limits reached"):
            why = f"resource limit ({limit} rlimit units per query)"
        return result, why
    return result, ""


def playable(ir: dict) -> interpreter.Edition:
    """The interpreter's edition of `ir`, compiled once per process (proofs, replays and
    mutants ask for the same IR many times)."""
    key = json.dumps(ir, sort_keys=True)
    if key not in _EDITIONS:
        _EDITIONS[key] = interpreter.load(ir)
    return _EDITIONS[key]


def _invariant(ir: dict, inv: str | dict) -> dict:
    if isinstance(inv, dict):
        return inv
    for x in ir["invariants"]:
        if x["name"] == inv:
            return x
    raise KeyError(f"no invariant `{inv}`")


def _action(ir: dict, action: str | Action, players: int) -> Action:
    if isinstance(action, Action):
        return action
    for a in catalogue(ir, players, playable(ir)):
        if a.name == action:
            return a
    raise KeyError(f"no action `{action}`")


def _fresh(edition: interpreter.Edition, players: int) -> SymState:
    """`fresh(edition, players)`, made once per edition and player count (every step copies the
    state it starts from, so the one object serves every proof)."""
    key = (id(edition), players, "fresh")
    if key not in _BEFORE:
        _BEFORE[key] = fresh(edition, players)
    return _BEFORE[key]


def _domain(edition: interpreter.Edition, players: int, s0: SymState) -> Term:
    """`domain` of the fresh pre-state, built once per edition and player count."""
    key = (id(edition), players, "domain")
    if key not in _BEFORE:
        _BEFORE[key] = domain(edition, s0)
    return _BEFORE[key]


def _before(edition: interpreter.Edition, inv: dict, players: int, s0: SymState) -> Term:
    """The invariant on the fresh pre-state `fresh(edition, players)` (the same constants every
    time): built once per edition, player count and invariant, shared by every action."""
    key = _inv_key(edition, inv, players)
    if key not in _BEFORE:
        _BEFORE[key] = holds(edition, inv, s0)
    return _BEFORE[key]


def _inv_key(edition: interpreter.Edition, inv: dict, players: int) -> tuple:
    """What an invariant's terms on the fresh state depend on (its name and its body)."""
    return id(edition), players, inv["name"], json.dumps(inv["body"], sort_keys=True)


FRAME = "frame: the action writes none of the state the invariant reads"
EVERY_STATE = "true in every state of this edition (it reads nothing here, e.g. pots it has none of)"


def _reads(edition: interpreter.Edition, inv: dict, players: int, s0: SymState) -> frozenset[str]:
    """The state the invariant reads: the fields of the fresh state whose constants occur
    in its term there (a field that is no constant in the fresh state counts as read).
    Where the step leaves all of them the same terms, the invariant's term after the step
    is its term before: preserved with no query (the frame condition)."""
    key = _inv_key(edition, inv, players) + ("reads",)
    if key not in _BEFORE:
        names, seen, todo = set(), set(), [_before(edition, inv, players, s0)]
        while todo:
            t = todo.pop()
            if not isinstance(t, z3.ExprRef) or t.get_id() in seen:      # (terms.is_sym)
                continue
            seen.add(t.get_id())
            if _variable(t):
                names.add(t.decl().name())
            todo.extend(t.children())
        _BEFORE[key] = frozenset(names | {n for n, v in s0.values().items() if not _variable(v)})
    return _BEFORE[key]


def _variable(t: z3.ExprRef) -> bool:
    return z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED


def _writes(edition: interpreter.Edition, act: Action, players: int, s0: SymState) -> frozenset[str]:
    """The state the action (every parameter symbolic) may change: the fields whose term
    after the step is not the fresh state's."""
    key = (id(edition), players, act.name, "writes")
    if key not in _STEPS:
        whole = _sym_step(edition, act, players, s0)
        assert whole is not None, "asked only where the step is built"
        before, after = s0.values(), whole.state.values()
        _STEPS[key] = frozenset(n for n in before if not terms.same(before[n], after[n]))
    return _STEPS[key]


def _solver(ctx: z3.Context, simplified: bool = False) -> z3.Solver:
    """A solver in `ctx` with the per-query limit. A `simplified` one first simplifies,
    propagates the values the query fixes and solves its equations away (most of a step's
    state is `x' = term`), then runs the plain solver: a preservation query asked once and
    thrown away decides sooner that way, many of them within the limit where the plain
    solver runs out. A solver checked again and again (push and pop) stays plain: the
    preprocessing would run again over all it holds at every check."""
    solver = z3.Then("simplify", "propagate-values", "solve-eqs", "smt", ctx=ctx).solver() if simplified \
        else z3.Solver(ctx=ctx)
    solver.set("rlimit", RLIMIT)
    return solver


class Own:
    """A Z3 context of one cell's own (or one row's, or one action's): every term its
    queries need is translated into it, in the order the cell asks. How Z3 decides a query
    near its limit depends on the order in which the context made its terms (its rewriting
    orders arguments by term id), so in a context of its own a verdict depends on the cell
    alone: never on the cells asked before it, in this process or another."""

    def __init__(self) -> None:
        self.ctx = z3.Context()

    def term(self, term: Term) -> z3.BoolRef:
        """`term` (of the main context, or a constant) in this context."""
        return terms.lift(term).translate(self.ctx)

    def solver(self, *known: Term) -> z3.Solver:
        """A plain solver in this context holding `known` (main-context terms; a constant
        true is left out)."""
        solver = _solver(self.ctx)
        solver.add(*[self.term(term) for term in known if term is not True])
        return solver

    def query(self, *assertions: z3.BoolRef, effort: Effort | None = None
              ) -> tuple[z3.CheckSatResult, str, z3.ModelRef | None]:
        """One query (terms of this context) in a solver of its own, thrown away after:
        (result, why unknown, model in the main context or None)."""
        solver = _solver(self.ctx, simplified=True)
        solver.add(*assertions)
        result, why = _check(solver, effort=effort)
        return result, why, solver.model().translate(z3.main_ctx()) if result == z3.sat else None


def _sym_step(edition: interpreter.Edition, act: Action, players: int, s0: SymState) -> SymGame | None:
    """The action with every parameter symbolic (bankruptcy abstracted), built once; None
    where that is not supported."""
    key = (id(edition), players, act.name, "symbolic")
    if key not in _STEPS:
        try:
            _STEPS[key] = act.step(edition, s0, abstract_bankruptcy=True)
        except Unsupported:
            _STEPS[key] = None
    return _STEPS[key]


def _steps(ir: dict, edition: interpreter.Edition, act: Action, players: int, s0: SymState) -> _Instances:
    """Every instance of the action run on `s0` (bankruptcy abstracted), each built once,
    the first time a caller reaches it (a cell stops at its first instance that fails)."""
    key = (id(edition), players, act.name)         # `_Instances` keeps the edition alive: the id is stable
    if key not in _STEPS:
        _STEPS[key] = _Instances(edition, act, s0)
    return _STEPS[key]


class _Instances:
    """An action's instances as (args, game, or the `Unsupported` raised), built lazily in
    the order of `instances` and kept."""

    def __init__(self, edition: interpreter.Edition, act: Action, s0: SymState) -> None:
        self.edition, self.act, self.s0 = edition, act, s0
        self.todo = instances(act)
        self.built: list = []

    def __iter__(self) -> Iterator[tuple[dict, SymGame | Unsupported]]:
        i = 0
        while True:
            if i == len(self.built):
                args = next(self.todo, None)
                if args is None:
                    return
                try:
                    game = self.act.step(self.edition, self.s0, args=args, abstract_bankruptcy=True)
                    self.built.append((args, game))
                except Unsupported as error:
                    self.built.append((args, error))
            yield self.built[i]
            i += 1


def prove_initial(ir: dict, invariant: str | dict, players: int) -> Verdict:
    edition = playable(ir)
    inv = _invariant(ir, invariant)
    try:
        value = holds(edition, inv, initial(edition, players))
    except Unsupported as error:
        return Unknown(f"unsupported: {error}")
    value = terms.concrete(value)
    if value is True:
        return Proved("the start state")
    return Violated([{"step": 0, "action": "start", "state": "the start state"}],
                    f"`{inv['name']}` is false in the start state")


def instances(act: Action) -> Iterator[dict]:
    """Every assignment of the action's enumerable parameters (seat, deed, card, square)."""
    names = list(act.params)
    for values in itertools.product(*[act.params[n] for n in names]):
        yield dict(zip(names, values, strict=True))


def unsupported_is_unknown(check: Callable[Params, Result]) -> Callable[Params, Result | Unknown]:
    """A construct the symbolic semantics does not model (e.g. per-player state) makes the
    verdict unknown with the reason: never a crash, never a pass."""
    @functools.wraps(check)
    def honest(*args: Params.args, **kwargs: Params.kwargs) -> Result | Unknown:
        try:
            return check(*args, **kwargs)
        except Unsupported as error:
            return Unknown(f"unsupported: {error}")
    return honest


@unsupported_is_unknown
def prove_preserves(ir: dict, invariant: str | dict, action: str | Action, players: int,
                    strengthen: bool = True, units: int = CELL) -> Verdict:
    """Inv(s) and guard(s) imply Inv(step(s)), for every instance of the action (seat,
    deed, ...); each instance is one query. With `strengthen`, an instance that is not
    inductive alone is tried again assuming every other built-in invariant too. The cell's
    queries are asked in a context of its own (`Own`) and spend at most `units` rlimit
    units together, so its verdict depends on this cell alone."""
    edition = playable(ir)
    inv = _invariant(ir, invariant)
    act = _action(ir, action, players)
    s0 = _fresh(edition, players)
    pre = _before(edition, inv, players, s0)
    if pre is True:             # whatever path the action takes, unmodelled ones included
        return Proved(EVERY_STATE)
    cell = _Cell(ir, edition, inv, act, players, s0, pre, strengthen, Effort(units))
    # first all instances at once (the parameters symbolic): one query, often enough
    whole = _sym_step(edition, act, players, s0)
    if whole is not None and (verdict := cell.whole(whole)) is not None:
        return verdict
    # otherwise instance by instance: which seat, deed or card, and why
    for args, game in _steps(ir, edition, act, players, s0):
        if (verdict := cell.instance(args, game)) is not None:
            return verdict
    if cell.used_strength:
        return Proved(cell.strengthened())
    return Proved("inductive")


def _built_in(inv: dict) -> bool:
    """A built-in invariant: the prelude's or the verifier's, not an edition's own."""
    return inv.get("origin", "prelude") in ("prelude", "verifier")


class _Cell:
    """One (invariant, action) cell's queries, in the order `prove_preserves` asks them: the
    pre-state's terms (`base`) and, once a query needs them, the other built-in invariants'
    (`strong`); `used_strength` once an instance was proved only with them."""

    def __init__(self, ir: dict, edition: interpreter.Edition, inv: dict, act: Action, players: int, s0: SymState,
                 pre: Term, strengthen: bool, effort: Effort) -> None:
        self.ir, self.edition, self.inv, self.act, self.players, self.s0 = ir, edition, inv, act, players, s0
        self.others = [x for x in facts(ir) if x["name"] != inv["name"] and _built_in(x)]
        self.strengthen = strengthen and bool(self.others)
        self.own, self.effort = Own(), effort
        self.base = [self.own.term(term) for term in (_domain(edition, players, s0), pre) if term is not True]
        self._strong: list | None = None
        self.used_strength = False

    def strong(self) -> list:
        """The other built-in invariants on the pre-state, made when first asked for."""
        if self._strong is None:
            known = [_before(self.edition, x, self.players, self.s0) for x in self.others]
            self._strong = [self.own.term(term) for term in known if term is not True]
        return self._strong

    def ask(self, goal: Term, strong: bool = False) -> tuple[z3.CheckSatResult, str, z3.ModelRef | None]:
        """Can `goal` hold in a pre-state where the invariant holds (and, `strong`, every other
        built-in invariant too)? One query in the cell's context, on the cell's budget."""
        return self.own.query(*self.base, *(self.strong() if strong else ()), self.own.term(goal),
                              effort=self.effort)

    def strengthened(self) -> str:
        return STRENGTHENED + ", ".join(x["name"] for x in self.others)

    def whole(self, whole: SymGame) -> Verdict | None:
        """The verdict of every instance at once (the parameters symbolic), or None where
        that query does not decide the cell."""
        edition, inv, act, players, s0 = self.edition, self.inv, self.act, self.players, self.s0
        if whole.state.unsupported is False and not (
                _writes(edition, act, players, s0) & _reads(edition, inv, players, s0)):
            return Proved(FRAME)
        if _built_in(inv) and (why := _unmodelled_path(self.ir, edition, act, players, s0)):
            return Unknown(why)
        post = holds(edition, inv, whole.state) if whole.state.ok is not False else True
        goal = terms.and_(whole.state.ok, terms.or_(terms.not_(post), whole.state.unsupported))
        if goal is False:
            return Proved("inductive")
        result, _, model = self.ask(goal)
        if result == z3.unsat:
            return Proved("inductive")
        # a model on an unmodelled path (a bankruptcy) does not decide the cell: Z3 may as
        # well have picked one that is merely not inductive alone, and the strengthened
        # query rules out both; only its model (or, unstrengthened, this one) names the path
        if result == z3.sat and self.strengthen:
            result, _, model = self.ask(goal, strong=True)
            if result == z3.unsat:
                return Proved(self.strengthened())
        if result == z3.sat and (why := _unmodelled(model, whole, act)):
            return Unknown(why)
        return None

    def instance(self, args: dict, game: SymGame | Unsupported) -> Verdict | None:
        """The verdict that one instance (`game`, its step, or why it is not modelled) gives
        the cell, or None where it preserves the invariant."""
        act = self.act
        try:
            if isinstance(game, Unsupported):
                raise game
            post = holds(self.edition, self.inv, game.state)
        except Unsupported as error:
            return Unknown(f"unsupported: {error} ({_show(act, args)})")
        if game.state.ok is False:
            return None
        goal = terms.and_(game.state.ok, terms.or_(terms.not_(post), game.state.unsupported))
        if goal is False:
            return None
        if self.used_strength and game.state.unsupported is False:
            return self._strong_first(args, game, goal)
        result, why, model = self.ask(goal)
        if result == z3.unsat:
            return None
        if result == z3.unknown:
            return Unknown(f"solver: {why} ({_show(act, args)})", gave_up=True)
        if self.strengthen:       # whatever path the model took (as in `whole`)
            result, why, model = self.ask(goal, strong=True)
            if result == z3.unsat:
                self.used_strength = True
                return None
            if result == z3.unknown:
                return Unknown(f"solver: {why} ({_show(act, args)})", gave_up=True)
        assert model is not None, "the last query was satisfiable"
        if z3.is_true(model.eval(terms.lift(game.state.unsupported), model_completion=True)):
            return Unknown("unsupported: " + "; ".join(sorted(game.reasons)) + f" ({_show(act, args)})")
        return Unknown(f"not inductive ({_show(act, args)})", _model_summary(model, self.s0, game.state))

    def _strong_first(self, args: dict, game: SymGame, goal: Term) -> Verdict | None:
        """The cell leans on the other invariants already and this instance has no
        unmodelled path: ask with them first, the plain query only where that one does not
        finish (the verdict the plain-first order gives, without its query)."""
        result, why, model = self.ask(goal, strong=True)
        if result == z3.unsat:
            return None
        if result == z3.sat:
            return Unknown(f"not inductive ({_show(self.act, args)})", _model_summary(model, self.s0, game.state))
        result, plain, _ = self.ask(goal)
        if result == z3.unsat:
            return None
        return Unknown(f"solver: {plain if result == z3.unknown else why} ({_show(self.act, args)})", gave_up=True)


def _unmodelled_path(ir: dict, edition: interpreter.Edition, act: Action, players: int, s0: SymState) -> str:
    """Why the action can take a path the symbolic semantics does not model (a payer's
    bankruptcy) from a state where every built-in invariant holds; "" when it cannot or
    the solver does not say. One query per action: such a path makes every built-in
    invariant's cell unknown (its own query would find the same path), so each need not
    ask again."""
    key = (id(edition), players, act.name, "unmodelled")
    if key not in _STEPS:
        whole = _sym_step(edition, act, players, s0)
        assert whole is not None, "asked only where the step is built"
        _STEPS[key] = ""
        if whole.state.unsupported is not False and whole.state.ok is not False:
            own = Own()       # the action's own: every built-in invariant's cell reads its answer
            known = [_before(edition, x, players, s0) for x in facts(ir) if _built_in(x)]
            solver = own.solver(_domain(edition, players, s0), *known)
            solver.push()
            solver.add(own.term(whole.state.ok), own.term(whole.state.unsupported))
            result, _ = _check(solver)
            if result == z3.sat:
                _STEPS[key] = _unmodelled(solver.model().translate(z3.main_ctx()), whole, act)
            solver.pop()
            if result == z3.unknown:      # all parameters at once is too much: one by one
                for args, game in _steps(ir, edition, act, players, s0):
                    if isinstance(game, Unsupported) or game.state.unsupported is False or game.state.ok is False:
                        continue
                    solver.push()
                    solver.add(own.term(game.state.ok), own.term(game.state.unsupported))
                    result, _ = _check(solver)
                    solver.pop()
                    if result == z3.sat:
                        _STEPS[key] = "unsupported: " + "; ".join(sorted(game.reasons)) + f" (e.g. {_show(act, args)})"
                        break
    return _STEPS[key]


def _unmodelled(model: z3.ModelRef, whole: SymGame, act: Action) -> str:
    """The reason, when the model takes a path the symbolic semantics does not model, with
    the action's parameters as the model chose them; "" otherwise."""
    if not z3.is_true(model.eval(terms.lift(whole.state.unsupported), model_completion=True)):
        return ""
    args = {n: model.eval(v, model_completion=True) for n, v in whole.choices.items() if n.startswith(act.name + ".")}
    shown = act.name + "(" + ", ".join(f"{n.split('.', 1)[1]}={v}" for n, v in args.items()) + ")"
    return "unsupported: " + "; ".join(sorted(whole.reasons)) + f" (e.g. {shown})"


ASSUMING = "holds after every such step from a state where the invariants hold: "
ANY_STATE = "holds after every such step, from any state"


def _step(ir: dict, prop: str | dict) -> dict:
    if isinstance(prop, dict):
        return prop
    for x in ir.get("steps", []):
        if x["name"] == prop:
            return x
    raise KeyError(f"no step property `{prop}`")


@unsupported_is_unknown
def prove_step(ir: dict, prop: str | dict, action: str | Action, players: int, units: int = CELL) -> Verdict:
    """A step property over one catalogue action of its kind: from a state where the
    edition's invariants hold (the reachable-state lemmas: no induction, a step property
    is of one step), can the action's step make it false? Asked first with every parameter
    symbolic, then instance by instance where that does not finish; each time from any
    state, then assuming the invariants on the state before (a proof that stands only where
    they hold in every reachable state: `step_lemmas`). The cell's queries are asked in a
    context of its own (`Own`) on its own budget of `units`, as an invariant's cell."""
    edition = playable(ir)
    cell = _StepCell(ir, edition, _step(ir, prop), _action(ir, action, players), players, Effort(units))
    whole = _sym_step(edition, cell.act, players, cell.s0)
    if whole is not None:
        verdict = cell.ask(whole, whole.choices.get(f"{cell.act.name}.me", 0), whole.choices.get(f"{cell.act.name}.sq"))
        if not (isinstance(verdict, Unknown) and verdict.gave_up):
            return verdict
    weakest: Verdict = Proved(ANY_STATE)
    for args, game in _steps(ir, edition, cell.act, players, cell.s0):
        if isinstance(game, Unsupported):
            return Unknown(f"unsupported: {game} ({_show(cell.act, args)})")
        verdict = cell.ask(game, args["me"], args.get("sq"), _show(cell.act, args))
        if not isinstance(verdict, Proved):
            return verdict
        if verdict.reason != ANY_STATE:
            weakest = verdict
    return weakest


class _StepCell:
    """One (step property, action) cell's queries."""

    def __init__(self, ir: dict, edition: interpreter.Edition, step: dict, act: Action, players: int,
                 effort: Effort) -> None:
        self.ir, self.edition, self.step, self.act, self.players, self.effort = ir, edition, step, act, players, effort
        self.s0 = _fresh(edition, players)
        self.own = Own()
        self._known: list | None = None

    def known(self) -> list:
        """The invariants on the state before, in the cell's context (made when first asked)."""
        if self._known is None:
            terms_ = (_before(self.edition, x, self.players, self.s0) for x in self.ir["invariants"])
            self._known = [self.own.term(t) for t in terms_ if t is not True]
        return self._known

    def ask(self, game: SymGame, me: Term, sq: Term | None, shown: str = "") -> Verdict:
        """The verdict of one step (every parameter symbolic, or one instance): a path the
        symbolic semantics does not model (a payer's bankruptcy) breaks the property unless
        it holds in every state after it where the debtor is bankrupt."""
        edition, state, s0 = self.edition, game.state, self.s0
        shown = shown or self.act.name
        if state.ok is False:
            return Proved(ANY_STATE)
        here = sq if sq is not None else edition.square_index.get(self.act.name.partition(":")[2], -1)
        post = step_holds(edition, self.step, s0, state, me, here)
        broken = terms.and_(terms.not_(state.unsupported), terms.not_(post))
        if state.unsupported is not False:
            after = fresh(edition, self.players, prefix="after.")
            anyhow = step_holds(edition, self.step, s0, after, me, here)
            bankrupt = terms.or_(terms.lt(state.gone, 0), terms.pick(state.gone, after.bankrupt, False))
            broken = terms.or_(broken, terms.and_(state.unsupported, bankrupt, terms.not_(anyhow)))
        goal = terms.and_(state.ok, broken)
        if goal is False:
            return Proved(ANY_STATE)
        base = [self.own.term(t) for t in (_domain(edition, self.players, s0), goal) if t is not True]
        result, why, model = self.own.query(*base, effort=self.effort)
        if result == z3.unsat:
            return Proved(ANY_STATE)
        result, why, model = self.own.query(*base, *self.known(), effort=self.effort)
        if result == z3.unsat:
            return Proved(ASSUMING + ", ".join(x["name"] for x in self.ir["invariants"]))
        if result == z3.unknown:
            return Unknown(f"solver: {why} ({shown})", gave_up=True)
        assert model is not None, "the query was satisfiable"
        if game.reasons and z3.is_true(model.eval(terms.lift(state.unsupported), model_completion=True)):
            # a model on the unmodelled path says little: one on a modelled path, where there is one, says more
            modelled = self.own.term(terms.and_(state.ok, terms.not_(state.unsupported), terms.not_(post)))
            result, _, model = self.own.query(self.own.term(_domain(edition, self.players, s0)), modelled,
                                              *self.known(), effort=self.effort)
            if result != z3.sat:
                return Unknown("unsupported: " + "; ".join(sorted(game.reasons)) + f" ({shown})")
        return Unknown(f"a state where the invariants hold from which the step breaks it ({shown}); not shown "
                       "reachable", _model_summary(model, s0, state))


def step_lemmas(ir: dict, cells: dict[tuple[str, str], Verdict]) -> None:
    """A step property's proof that assumed the invariants (`ASSUMING`) stands as a proof
    where each of them is proved in every column; where they are bounded, the property
    holds for every step from a state they were checked in: bounded at the least of their
    bounds; otherwise it is unknown."""
    invariants = {x["name"] for x in ir["invariants"]}
    rows: dict[str, list[Verdict]] = {}
    for (name, _), v in cells.items():
        if name in invariants:
            rows.setdefault(name, []).append(v)
    if not all(rows.get(name) for name in invariants):
        weakest: Verdict = Unknown("an invariant it assumes has no verdict here")
    elif all(isinstance(v, Proved) for vs in rows.values() for v in vs):
        return
    elif all(isinstance(v, (Proved, Bounded)) for vs in rows.values() for v in vs):
        bounds = [v for vs in rows.values() for v in vs if isinstance(v, Bounded)]
        least = min(bounds, key=lambda v: v.bound)
        weakest = Bounded(least.bound, least.players, f"the invariants it assumes are bounded at k={least.bound}")
    else:
        weakest = Unknown("an invariant it assumes is neither proved nor bounded")
    for key, v in cells.items():
        if isinstance(v, Proved) and v.reason.startswith(ASSUMING):
            cells[key] = Bounded(weakest.bound, weakest.players, f"{v.reason}; {weakest.reason}") \
                if isinstance(weakest, Bounded) else Unknown(f"{v.reason}; {weakest.reason}")


def can_happen(ir: dict, action: str | Action, players: int) -> bool | None:
    """Z3: is there a state where every invariant and lemma holds and the action's guard
    (with the assumptions along some path) holds too? False is a rule that can never fire
    (a dead rule); None is unknown. One query in a context of its own (`Own`)."""
    edition = playable(ir)
    act = _action(ir, action, players)
    s0 = _fresh(edition, players)
    try:
        whole = _sym_step(edition, act, players, s0)
        if whole is None:
            return None
        known = [_before(edition, x, players, s0) for x in facts(ir)] + [_domain(edition, players, s0)]
    except Unsupported:
        return None
    own = Own()
    solver = own.solver(*known)
    solver.push()       # the incremental solver: it decides these queries where the other does not
    solver.add(own.term(whole.state.ok))
    result = _check(solver)[0]
    return True if result == z3.sat else False if result == z3.unsat else None


def same_step(ir: dict, other: dict, action: str | Action, players: int) -> bool | None:
    """Z3: from every state where `ir`'s invariants and lemmas hold, does the action (every
    parameter symbolic, bankruptcy abstracted) have the same guard and the same outcome in
    `other`, an edition of the same board? None is unknown."""
    edition, other_edition = playable(ir), playable(other)
    act = _action(ir, action, players)
    s0 = _fresh(edition, players)
    try:
        mine, theirs = _sym_step(edition, act, players, s0), _sym_step(other_edition, act, players, s0)
        if mine is None or theirs is None:
            return None
        known = [holds(edition, x, s0) for x in facts(ir)] + [domain(edition, s0)]
    except Unsupported:
        return None
    a, b = mine.state.values(), theirs.state.values()
    differs = [terms.lift(a[name]) != terms.lift(b[name]) for name in a]
    mine_ok, theirs_ok = terms.lift(mine.state.ok), terms.lift(theirs.state.ok)
    own = Own()
    solver = own.solver(*known)
    solver.add(own.term(z3.Or(mine_ok != theirs_ok, z3.And(mine_ok, z3.Or(*differs)))))
    result = _check(solver)[0]
    return True if result == z3.unsat else False if result == z3.sat else None


def _show(act: Action, args: dict) -> str:
    return act.name + "(" + ", ".join(f"{k}={v}" for k, v in args.items()) + ")"


def _model_summary(model: z3.ModelRef, before: SymState, after: SymState) -> dict:
    out = {}
    b, a = before.values(), after.values()
    for name in b:
        x = model.eval(terms.lift(b[name]), model_completion=True)
        y = model.eval(terms.lift(a[name]), model_completion=True)
        if not x.eq(y):
            out[name] = [str(x), str(y)]
    return out


def table(ir: dict, players: int, actions: list[Action] | None = None) -> dict:
    """Every (invariant, action) verdict, strengthening made sound (`joint`)."""
    edition = playable(ir)
    acts = actions if actions is not None else catalogue(ir, players, edition)
    invs = facts(ir)
    cells = {}
    for inv in invs:
        cells[(inv["name"], "start")] = prove_initial(ir, inv, players)
        for act in acts:
            cells[(inv["name"], act.name)] = prove_preserves(ir, inv, act, players)
    joint(ir, cells)
    return cells


STRENGTHENED = "inductive with the other built-in invariants: "


def joint(ir: dict, cells: dict[tuple[str, str], Verdict]) -> None:
    """A proof strengthened by the other built-in invariants (and the lemmas) stands only
    if each of them is itself proved in every column (joint induction); otherwise it is
    downgraded to unknown, until a fixpoint. An invariant without cells here (a lemma the
    caller did not check) is not proved."""
    names = [x["name"] for x in facts(ir) if _built_in(x)]
    changed = True
    while changed:
        changed = False
        rows = {n for n, _ in cells}
        sound = {n for n in rows if all(v.passed and not isinstance(v, Bounded)
                                        for (m, _), v in cells.items() if m == n)}
        for key, v in cells.items():
            if isinstance(v, Proved) and v.reason.startswith(STRENGTHENED):
                missing = sorted(set(names) - {key[0]} - sound)
                if missing:
                    cells[key] = Unknown("inductive only with invariants not proved everywhere: " + ", ".join(missing))
                    changed = True


# ---- bounded model checking ---------------------------------------------------------------

def _step_all(edition: interpreter.Edition, acts: list[Action], state: SymState, k: int,
              built: list | None = None) -> tuple:
    """The disjunctive transition at step k: (selector, next state vars, constraints, games,
    stuck). A bankruptcy is not computed: `stuck` is the condition that the step takes such
    a path, which the constraints leave out (the caller must ask whether it is reachable and
    stop there). With `built` (each action's step on `fresh(edition, players)`, as
    `_sym_step` builds it), `state` must be a fresh state too: the steps are renamed onto
    it, not built again (the same terms)."""
    nxt = fresh(edition, state.players, prefix=f"s{k + 1}.")
    sel = z3.Int(f"sel{k}")
    rename = None if built is None else \
        [(x, y) for x, y in zip(_fresh(edition, state.players).flat(), state.flat(), strict=True) if terms.is_sym(x)]
    options, games, stuck = [], [], []
    for j, act in enumerate(acts):
        tag = f"s{k}.{j}."
        game = act.step(edition, state, tag=tag, abstract_bankruptcy=True) if built is None else built[j]
        a, b = game.state.values(), nxt.values()
        eqs = [terms.lift(terms.eq(a[n], b[n])) for n in a]
        bankrupt = z3.And(sel == j, terms.lift(game.state.ok), terms.lift(game.state.unsupported)) \
            if game.reasons else None
        option = z3.And(sel == j, terms.lift(game.state.ok), terms.lift(terms.not_(game.state.unsupported)), *eqs)
        if built is not None:
            game, option, bankrupt = _renamed(game, tag, rename or [], option, bankrupt)
        if bankrupt is not None:
            stuck.append(bankrupt)
        options.append(option)
        games.append(game)
    return sel, nxt, z3.Or(*options), games, (z3.Or(*stuck) if stuck else z3.BoolVal(False))


def _renamed(game: SymGame, tag: str, rename: list, *exprs: z3.ExprRef | None) -> tuple:
    """A step built on the fresh state, moved onto another fresh state (`rename`: pairs of
    their constants) with its decisions tagged: the game holding the renamed decisions (the
    counterexample's replay reads them; its state is not renamed), then each of `exprs`
    renamed (None stays None)."""
    choices = {tag + key: z3.Const(tag + key, x.sort()) for key, x in game.choices.items()}
    pairs = rename + [(x, choices[tag + key]) for key, x in game.choices.items()]
    other = copy.copy(game)
    other.choices, other.tag = choices, tag
    other.state = None  # type: ignore[assignment]  # not renamed: it must never be read
    return (other, *[None if t is None else z3.substitute(t, *pairs) for t in exprs])


def _chain_step(edition: interpreter.Edition, acts: list[Action], state: SymState, k: int) -> tuple:
    """`_step_all` from the start state, built once per edition, players and actions: after
    the first step, from a fresh state, each action's step is `_sym_step`'s renamed."""
    key = (id(edition), state.players, tuple(a.name for a in acts), k)
    if key not in _CHAINS:
        built = [_sym_step(edition, act, state.players, _fresh(edition, state.players)) for act in acts] if k else None
        if built is not None and None in built:
            built = None                  # a step not supported: built again, to say why
        _CHAINS[key] = _step_all(edition, acts, state, k, built=built)
    return _CHAINS[key]


@unsupported_is_unknown
def bounded(ir: dict, invariant: str | dict, players: int, depth: int, actions: list[Action] | None = None) -> Verdict:
    """No violation within `depth` actions of the start. Each step's check assumes the
    invariant in the states before (it was just checked there). Where a check runs out of
    its resource limit it is asked again, first without those assumptions from that step
    on, then with them in a solver and context of its own from the start (which finishes
    depends on the query), and the deepest bound stands. The row's checks are asked in
    contexts of the row's own, and where a bankruptcy is reachable is asked in one of the
    actions' own (`_Bankruptcies`): the verdict depends on the row alone."""
    edition = playable(ir)
    inv = _invariant(ir, invariant)
    acts = actions if actions is not None else catalogue(ir, players, edition)
    state = initial(edition, players)
    if terms.concrete(holds(edition, inv, state)) is not True:
        return prove_initial(ir, inv, players)
    chain, broke = _Transition(edition, acts, players), _bankruptcies(edition, acts, players)
    verdict = _bmc(edition, inv, acts, chain, broke, players, depth, _Assuming(chain.rows))
    verdict = _deeper(verdict, depth,
                      lambda reached: _bmc(edition, inv, acts, chain, broke, players, depth, chain, start=reached))
    return _deeper(verdict, depth,
                   lambda reached: _bmc(edition, inv, acts, chain, broke, players, depth, _Alone(chain)))


def _deeper(verdict: Verdict, depth: int, again: Callable[[int], Verdict]) -> Verdict:
    """Where `verdict` is a check that ran out of its resource limit at step `reached`
    (before `depth`), `again(reached)` where that goes deeper or finds a violation."""
    if not verdict.reason.startswith("solver") or isinstance(verdict, Bounded) and verdict.bound >= depth:
        return verdict
    reached = verdict.bound if isinstance(verdict, Bounded) else 0
    other = again(reached)
    if isinstance(other, Violated) or \
            isinstance(other, Bounded) and (isinstance(verdict, Unknown) or other.bound > reached):
        return other
    return verdict


class _Transition:
    """The bounded checks' transition from the start state (`_chain_step`, per depth), each
    step's relation translated once into a Z3 context of its own, and the checks asked on
    it without assumptions (`check`): one solver per depth holding the steps up to it (none
    of the earlier ones going bankrupt), each check pushed onto it and popped. It also
    holds the solver of the checks with assumptions (`rows`, a `_Guarded`). One per row
    (and one for the bankruptcy queries), so what a check spends depends on that row's
    checks alone, never on what the process did before."""

    def __init__(self, edition: interpreter.Edition, acts: list[Action], players: int) -> None:
        self.edition, self.acts, self.ctx = edition, acts, z3.Context()
        self.states = [initial(edition, players)]
        self.steps: list = []        # _chain_step's (sel, next state, trans, games, stuck), per depth
        self.taken: list = []        # step k in this context: [no bankruptcy at step k-1 (k > 0), its relation]
        self.solvers: list = []      # depth k: the solver holding steps 0..k
        self.rows = _Guarded(self)

    def step(self, k: int) -> tuple:
        """Step k (raises `Unsupported` where a step is not modelled)."""
        while len(self.steps) <= k:
            step = _chain_step(self.edition, self.acts, self.states[-1], len(self.steps))
            self.steps.append(step)
            self.states.append(step[1])
        return self.steps[k]

    def taken_in(self, k: int) -> list:
        """Step k in this context: no bankruptcy at step k-1 (k > 0) and its relation."""
        while len(self.taken) <= k:
            j = len(self.taken)
            self.taken.append(([z3.Not(self.step(j - 1)[4]).translate(self.ctx)] if j else [])
                              + [self.step(j)[2].translate(self.ctx)])
        return self.taken[k]

    def solver(self, k: int) -> z3.Solver:
        """The solver of steps 0..k."""
        while len(self.solvers) <= k:
            solver = z3.Solver(ctx=self.ctx)
            solver.add(*[x for j in range(len(self.solvers) + 1) for x in self.taken_in(j)])
            self.solvers.append(solver)
        return self.solvers[k]

    def check(self, k: int, goal: z3.BoolRef) -> tuple:
        """Step k's check without assumptions."""
        return _pushed(self.solver(k), goal)

    def passed(self, k: int, after: Term) -> None:
        """Step k's check found nothing: nothing to add, the next solver has the steps."""


class _Bankruptcies:
    """Whether a path of steps 0..k-1 (none going bankrupt) reaches a bankruptcy at step k,
    which no step's relation models: (result, why unknown) per depth, asked once per
    edition, players and actions (whatever the invariant, every row reads the same
    answer), depth after depth, in a transition of its own that nothing else asks on. One
    query per action that can go bankrupt: all of them at once runs out of the limit where
    each alone is decided at once."""

    def __init__(self, edition: interpreter.Edition, acts: list[Action], players: int) -> None:
        self.chain = _Transition(edition, acts, players)
        self.found: list = []

    def at(self, k: int) -> tuple:
        chain = self.chain
        while len(self.found) <= k:
            j = len(self.found)
            stuck = chain.step(j)[4]
            solver = chain.solver(j - 1) if j else z3.Solver(ctx=chain.ctx)
            solver.push()
            found = (z3.unsat, "")
            try:
                # translated here, not taken from `taken_in(j)`: that would translate step
                # j's relation first, and the order a context makes its terms in moves
                # checks near the limit (31 bounds of classic-se fell from 2 to 1 that way)
                solver.add(*[z3.Not(chain.step(j - 1)[4]).translate(chain.ctx)] if j else [])
                for path in stuck.children() if z3.is_or(stuck) else [stuck]:
                    solver.push()
                    solver.add(path.translate(chain.ctx))
                    result, why = _check(solver, limit=BOUNDED)
                    solver.pop()
                    if result == z3.sat:
                        found = (result, why)
                        break
                    if result == z3.unknown:
                        found = (result, why)
            finally:
                solver.pop()
            self.found.append(found)
        return self.found[k]


def _bankruptcies(edition: interpreter.Edition, acts: list[Action], players: int) -> _Bankruptcies:
    """The edition's `_Bankruptcies` for these players and actions, made once per process."""
    key = (id(edition), players, tuple(a.name for a in acts), "bankruptcies")
    if key not in _CHAINS:
        _CHAINS[key] = _Bankruptcies(edition, acts, players)
    return _CHAINS[key]


class _Guarded:
    """The solver of a row's checks that assume things, in the chain's context, each thing
    behind a literal: step 0 holds, step k (k > 0, with no bankruptcy at step k-1) where its
    literal is assumed, and every assumption or goal a check adds where its own is. A check
    assumes just its literals: the steps up to its own, the row's assumptions before it and
    its goal, so an earlier check's goal never counts."""

    def __init__(self, chain: _Transition):
        self.chain = chain
        self.solver = z3.Solver(ctx=chain.ctx)
        self.go: list | None = None  # step k's literal (k >= 1); None until step 0 is taken in
        self.literals = 0

    def steps(self, k: int) -> list:
        """The literals that take steps 1..k."""
        if self.go is None:
            self.solver.add(*self.chain.taken_in(0))
            self.go = []
        while len(self.go) < k:
            go = z3.Bool(f"step.{len(self.go) + 1}", self.chain.ctx)
            self.solver.add(z3.Implies(go, z3.And(*self.chain.taken_in(len(self.go) + 1))))
            self.go.append(go)
        return self.go[:k]

    def literal(self, term: z3.BoolRef) -> z3.BoolRef:
        """A new literal implying `term` (of the main context)."""
        self.literals += 1
        lit = z3.Bool(f"row.{self.literals}", self.chain.ctx)
        self.solver.add(z3.Implies(lit, term.translate(self.chain.ctx)))
        return lit


class _Assuming:
    """One row's checks that assume its invariant in the states before each step, in the
    rows' shared solver."""

    def __init__(self, rows: _Guarded):
        self.rows = rows
        self.assumed: list = []      # literals: the invariant after each step passed

    def check(self, k: int, goal: z3.BoolRef) -> tuple:
        steps = self.rows.steps(k)
        result, why = _check(self.rows.solver, *steps, *self.assumed, self.rows.literal(goal), limit=BOUNDED)
        return result, why, self.rows.solver.model().translate(z3.main_ctx()) if result == z3.sat else None

    def passed(self, k: int, after: Term) -> None:
        self.assumed.append(self.rows.literal(terms.lift(after)))


class _Alone:
    """One row's checks that assume its invariant, in a solver and a Z3 context of the row's
    own, asked where the shared solvers do not finish: the assumptions are taken in
    together with the next step's transition, one term at a time (Z3 finishes some checks
    that way that the shared solvers do not), at the price of taking every step in again."""

    def __init__(self, chain: _Transition):
        self.chain, self.ctx = chain, z3.Context()
        self.own = z3.Solver(ctx=self.ctx)

    def check(self, k: int, goal: z3.BoolRef) -> tuple:
        """Step k's check (asked from the first step on: every step's check takes it in)."""
        self.own.add(self.chain.step(k)[2].translate(self.ctx))
        return _pushed(self.own, goal)

    def passed(self, k: int, after: Term) -> None:
        # one at a time: taking a term in may make terms of the context, and which terms a
        # translation makes then decides how the next check goes
        self.own.add(z3.Not(self.chain.step(k)[4]).translate(self.ctx))
        self.own.add(terms.lift(after).translate(self.ctx))


def _pushed(solver: z3.Solver, goal: z3.BoolRef) -> tuple:
    """`goal` (a term of the main context) checked on `solver` in a scope of its own, popped
    after: (result, why unknown, model in the main context or None)."""
    solver.push()
    try:
        solver.add(goal.translate(solver.ctx))
        result, why = _check(solver, limit=BOUNDED)
        return result, why, solver.model().translate(z3.main_ctx()) if result == z3.sat else None
    finally:
        solver.pop()


def _bmc(edition: interpreter.Edition, inv: dict, acts: list[Action], chain: _Transition, broke: _Bankruptcies,
         players: int, depth: int, checks: _Transition | _Assuming | _Alone, start: int = 0) -> Verdict:
    """Bounded model checking from the start state, the check of each step from `start` on
    asked by `checks` (the chain itself, a row's `_Assuming` or its `_Alone`), after
    `broke` has said whether a bankruptcy is reachable at that step."""
    for k in range(depth):
        try:
            sel, nxt, trans, gs, stuck = chain.step(k)
        except Unsupported as error:
            return Unknown(f"unsupported: {error}")
        after = holds(edition, inv, nxt)
        if k < start:
            checks.passed(k, after)
            continue
        try:
            # a step that goes bankrupt (not computed here) ends the bound at k: an
            # unsupported path, or a violation hidden behind it
            bankrupt, why = broke.at(k)
            if bankrupt != z3.unsat:
                reason = (f"a bankruptcy is reachable at step {k + 1}, and a bounded check does not play "
                          "one out (it walks every deed)" if bankrupt == z3.sat else
                          f"whether a bankruptcy is reachable at step {k + 1} is unknown ({why})") + \
                    "; bounded model checking from the start state"
                return Bounded(k, players, reason) if k else Unknown(reason)
            # the goal keeps `stuck`, false beside the step's relation (which has no bankrupt
            # path): the same formula asked without it leaves some checks near the limit
            # unfinished that finish with it (tests/verifier/broken: the deeds the bank keeps)
            result, why, model = checks.check(k, z3.Or(terms.lift(terms.not_(after)), stuck))
        except Unsupported as error:
            return Unknown(f"unsupported: {error}")
        if result == z3.sat:
            return _trace(edition, acts, model, chain.states[:k + 2], [x[0] for x in chain.steps[:k + 1]],
                          [x[3] for x in chain.steps[:k + 1]], inv)
        if result == z3.unknown:
            reason = f"solver at depth {k + 1}: {why}"
            return Bounded(k, players, f"{reason}; bounded model checking from the start state") if k \
                else Unknown(reason)
        checks.passed(k, after)
    return Bounded(depth, players, "bounded model checking from the start state (no bankruptcy reachable)")


def _trace(edition: interpreter.Edition, acts: list[Action], model: z3.ModelRef, states: list[SymState],
           sels: list[z3.ArithRef], games: list[list[SymGame]], inv: dict) -> Verdict:
    """Replay the model's steps in concrete mode; a violation stands only if the concrete
    run reaches it (the symbolic choices over-approximate amounts such as bids)."""
    steps = []
    state = states[0]
    for k, sel in enumerate(sels):
        j = model.eval(sel, model_completion=True).as_long()
        act = acts[j]
        game = games[k][j]
        args = {}
        for name in act.params:
            key = f"s{k}.{j}.{act.name}.{name}"
            if key in game.choices:
                args[name] = model.eval(game.choices[key], model_completion=True).as_long()

        def provider(key, kind, dom, seat, k=k, j=j, game=game):
            var = game.choices.get(f"s{k}.{j}." + key) if not key.startswith(f"s{k}.{j}.") else game.choices.get(key)
            if var is None:
                return dom[0] if isinstance(dom, list) else dom[1]
            v = model.eval(var, model_completion=True)
            return bool(z3.is_true(v)) if z3.is_bool(v) else v.as_long()
        played = act.step(edition, state, args=args, provider=provider, tag=f"s{k}.{j}.")
        if played.state.ok is not True:
            return Unknown("a violation in the model that the concrete semantics does not reach (step %d)" % (k + 1))
        before = state.values()
        state = played.state
        after = state.values()
        steps.append({"step": k + 1, "action": act.name, "args": args,
                      "choices": [[kind, v, seat] for kind, v, seat in played.record],
                      "changed": {n: after[n] for n in after if not terms.same(before[n], after[n])}})
    if terms.concrete(holds(edition, inv, state)) is not False:
        return Unknown("a violation in the model that the concrete semantics does not reach")
    ok, why = confirm(edition, steps, states[0].players, inv, acts)
    if not ok:
        return Unknown(f"a violation the interpreter does not confirm: {why}")
    return Violated(steps, f"`{inv['name']}` is false after step {len(steps)}")
