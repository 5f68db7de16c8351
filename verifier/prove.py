"""Proofs with Z3, from the IR of whatever spec is given (no edition facts here):

    prove_initial(ir, inv, players)            the start state satisfies the invariant
    prove_preserves(ir, inv, action, players)  Inv(s) and guard(s) imply Inv(step(s))
    bounded(ir, inv, players, depth)           no violation within `depth` actions of the start
    witness(ir, inv_or_action, players)        a reachable state where a guard / premise holds
    table(ir, players)                         every invariant x action, strengthening made sound

Solver effort is bounded by Z3's resource limit (`rlimit`), not the clock, so a verdict
does not depend on the machine. A counterexample to induction is never a violation: it
is `Unknown("not inductive")` unless bounded checking reaches it from the start.
"""
from __future__ import annotations

import json

import z3

import interpreter

from .symbolic import terms as T
from .symbolic.actions import Action, catalogue
from .symbolic.compile import Ctx, Unsupported
from .symbolic.engine import SymGame
from .symbolic.prelude import invariants, lemmas
from .symbolic.state import domain, fresh, initial, merge
from .verdicts import Bounded, Proved, Unknown, Violated, Witness

RLIMIT = 20_000_000          # per query; Z3's deterministic resource units

_EDITIONS: dict = {}


def edition(ir: dict):
    key = json.dumps(ir, sort_keys=True)
    if key not in _EDITIONS:
        _EDITIONS[key] = interpreter.load(ir)
    return _EDITIONS[key]


def _invariant(ir: dict, inv) -> dict:
    if isinstance(inv, dict):
        return inv
    for x in invariants(ir):
        if x["name"] == inv:
            return x
    raise KeyError(f"no invariant `{inv}`")


def _action(ir: dict, action, players: int) -> Action:
    if isinstance(action, Action):
        return action
    for a in catalogue(ir, players, edition(ir)):
        if a.name == action:
            return a
    raise KeyError(f"no action `{action}`")


def holds(ed, inv: dict, state):
    """The invariant's body on a state (a Z3 Bool, or a bool on a concrete state)."""
    g = SymGame(ed, state)
    return g.expr(inv["body"], Ctx())


def _solver():
    s = z3.Solver()
    s.set("rlimit", RLIMIT)
    return s


def prove_initial(ir: dict, invariant, players: int):
    ed = edition(ir)
    inv = _invariant(ir, invariant)
    try:
        value = holds(ed, inv, initial(ed, players))
    except Unsupported as error:
        return Unknown(f"unsupported: {error}")
    value = T.concrete(value)
    if value is True:
        return Proved("the start state")
    return Violated([{"step": 0, "action": "start", "state": "the start state"}],
                    f"`{inv['name']}` is false in the start state")


def instances(act: Action):
    """Every assignment of the action's enumerable parameters (seat, deed, card, square)."""
    import itertools
    names = list(act.params)
    for values in itertools.product(*[act.params[n] for n in names]):
        yield dict(zip(names, values))


def prove_preserves(ir: dict, invariant, action, players: int, strengthen: bool = True):
    """Inv(s) and guard(s) imply Inv(step(s)), for every instance of the action (seat,
    deed, ...); each instance is one query. With `strengthen`, an instance that is not
    inductive alone is tried again assuming every other built-in invariant too."""
    ed = edition(ir)
    inv = _invariant(ir, invariant)
    act = _action(ir, action, players)
    s0 = fresh(ed, players)
    pre = holds(ed, inv, s0)
    others = [x for x in invariants(ir) + lemmas(ir)
              if x["name"] != inv["name"] and x.get("origin", "prelude") in ("prelude", "verifier")]
    base = [T.lift(c) for c in (domain(ed, s0), pre) if c is not True]
    strong = None
    used_strength = False
    for args in instances(act):
        try:
            g = act.step(ed, s0, args=args)
            post = holds(ed, inv, g.s)
        except Unsupported as error:
            return Unknown(f"unsupported: {error} ({_show(act, args)})")
        if g.s.ok is False:
            continue
        goal = T.and_(g.s.ok, T.or_(T.not_(post), g.s.unsupported))
        if goal is False:
            continue
        solver = _solver()       # the resource limit counts per solver: one per query
        solver.add(*base)
        solver.add(T.lift(goal))
        result = solver.check()
        model = solver.model() if result == z3.sat else None
        if result == z3.unsat:
            continue
        if result == z3.unknown:
            return Unknown(f"solver: {solver.reason_unknown()} ({_show(act, args)})")
        if strengthen and others:
            if strong is None:
                strong = [T.lift(c) for c in [holds(ed, x, s0) for x in others] if c is not True]
            solver = _solver()
            solver.add(*base, *strong)
            solver.add(T.lift(goal))
            result = solver.check()
            model = solver.model() if result == z3.sat else None
            if result == z3.unsat:
                used_strength = True
                continue
            if result == z3.unknown:
                return Unknown(f"solver: {solver.reason_unknown()} ({_show(act, args)})")
        if z3.is_true(model.eval(T.lift(g.s.unsupported), model_completion=True)):
            return Unknown("unsupported: " + "; ".join(sorted(g.reasons)) + f" ({_show(act, args)})")
        return Unknown(f"not inductive ({_show(act, args)})", _model_summary(model, s0, g.s))
    if used_strength:
        return Proved("inductive with the other built-in invariants: " + ", ".join(x["name"] for x in others))
    return Proved("inductive")


def _show(act, args) -> str:
    return act.name + "(" + ", ".join(f"{k}={v}" for k, v in args.items()) + ")"


def _model_summary(model, before, after) -> dict:
    out = {}
    b, a = before.values(), after.values()
    for name in b:
        x = model.eval(T.lift(b[name]), model_completion=True)
        y = model.eval(T.lift(a[name]), model_completion=True)
        if not x.eq(y):
            out[name] = [str(x), str(y)]
    return out


def table(ir: dict, players: int, actions: list | None = None) -> dict:
    """Every (invariant, action) verdict. A proof strengthened by the other built-in
    invariants stands only if each of them is itself proved everywhere (joint induction);
    otherwise it is downgraded to unknown, until a fixpoint."""
    ed = edition(ir)
    acts = actions if actions is not None else catalogue(ir, players, ed)
    invs = invariants(ir) + lemmas(ir)
    cells = {}
    for inv in invs:
        cells[(inv["name"], "start")] = prove_initial(ir, inv, players)
        for act in acts:
            cells[(inv["name"], act.name)] = prove_preserves(ir, inv, act, players)
    changed = True
    while changed:
        changed = False
        sound = {inv["name"] for inv in invs
                 if all(v.passed and not isinstance(v, Bounded) for (n, _), v in cells.items() if n == inv["name"])}
        for key, v in cells.items():
            if isinstance(v, Proved) and v.reason.startswith("inductive with") and not sound >= \
                    {x["name"] for x in invs if x["name"] != key[0]}:
                cells[key] = Unknown("inductive only with invariants not proved everywhere: "
                                     + ", ".join(sorted({x["name"] for x in invs if x["name"] != key[0]} - sound)))
                changed = True
    return cells


# ---- bounded model checking ---------------------------------------------------------------

def _step_all(ed, acts, s, k: int):
    """The disjunctive transition at step k: (selector, next state vars, constraints)."""
    nxt = fresh(ed, s.players, prefix=f"s{k + 1}.")
    sel = z3.Int(f"sel{k}")
    options, games = [], []
    for j, act in enumerate(acts):
        g = act.step(ed, s, tag=f"s{k}.{j}.")
        games.append(g)
        a, b = g.s.values(), nxt.values()
        eqs = [T.lift(T.eq(a[n], b[n])) for n in a]
        options.append(z3.And(sel == j, T.lift(g.s.ok), T.lift(T.not_(g.s.unsupported)), *eqs))
    return sel, nxt, z3.Or(*options), games


def bounded(ir: dict, invariant, players: int, depth: int, actions: list | None = None):
    ed = edition(ir)
    inv = _invariant(ir, invariant)
    acts = actions if actions is not None else catalogue(ir, players, ed)
    s = initial(ed, players)
    if T.concrete(holds(ed, inv, s)) is not True:
        return prove_initial(ir, inv, players)
    solver = _solver()
    states, sels, games = [s], [], []
    for k in range(depth):
        try:
            sel, nxt, trans, gs = _step_all(ed, acts, states[-1], k)
        except Unsupported as error:
            return Unknown(f"unsupported: {error}")
        solver.add(trans)
        states.append(nxt)
        sels.append(sel)
        games.append(gs)
        solver.push()
        solver.add(T.lift(T.not_(holds(ed, inv, nxt))))
        result = solver.check()
        if result == z3.sat:
            trace = _trace(ed, acts, solver.model(), states, sels, games, inv)
            return trace
        solver.pop()
        if result == z3.unknown:
            return Unknown(f"solver at depth {k + 1}: {solver.reason_unknown()}")
    return Bounded(depth, players, "bounded model checking from the start state")


def _trace(ed, acts, model, states, sels, games, inv):
    """Replay the model's steps in concrete mode; a violation stands only if the concrete
    run reaches it (the symbolic choices over-approximate amounts such as bids)."""
    from .symbolic.replay import confirm
    steps = []
    s = states[0]
    for k, sel in enumerate(sels):
        j = model.eval(sel, model_completion=True).as_long()
        act = acts[j]
        g = games[k][j]
        args = {}
        for name in act.params:
            key = f"s{k}.{j}.{act.name}.{name}"
            if key in g.choices:
                args[name] = model.eval(g.choices[key], model_completion=True).as_long()

        def provider(key, kind, dom, seat, k=k, j=j):
            var = g.choices.get(f"s{k}.{j}." + key) if not key.startswith(f"s{k}.{j}.") else g.choices.get(key)
            if var is None:
                return dom[0] if isinstance(dom, list) else dom[1]
            v = model.eval(var, model_completion=True)
            return bool(z3.is_true(v)) if z3.is_bool(v) else v.as_long()
        c = act.step(ed, s, args=args, provider=provider, tag=f"s{k}.{j}.")
        if c.s.ok is not True:
            return Unknown("a violation in the model that the concrete semantics does not reach (step %d)" % (k + 1))
        before = s.values()
        s = c.s
        after = s.values()
        steps.append({"step": k + 1, "action": act.name, "args": args,
                      "choices": [[kind, v, seat] for kind, v, seat in c.record],
                      "changed": {n: after[n] for n in after if not T.same(before[n], after[n])}})
    if T.concrete(holds(ed, inv, s)) is not False:
        return Unknown("a violation in the model that the concrete semantics does not reach")
    ok, why = confirm(ed, steps, states[0].players, inv, acts)
    if not ok:
        return Unknown(f"a violation the interpreter does not confirm: {why}")
    return Violated(steps, f"`{inv['name']}` is false after step {len(steps)}")


def witness(ir: dict, target, players: int, depth: int = 3, actions: list | None = None) -> Witness:
    """A reachability witness from the start state, within `depth` actions: for an action,
    a state where its guard holds; for an invariant, a state where its premise holds (the
    left side of its top-level implication `not A or B` / `A => B`, else the whole
    invariant's non-trivial part: a state where its body is not vacuously true)."""
    ed = edition(ir)
    acts = actions if actions is not None else catalogue(ir, players, ed)
    s = initial(ed, players)
    if isinstance(target, Action) or (isinstance(target, str) and any(a.name == target for a in acts)):
        act = _action(ir, target, players)

        def goal(state):
            return act.step(ed, state, tag="w.").s.ok
        name = act.name
    else:
        inv = _invariant(ir, target)
        premise = premise_of(inv["body"])

        def goal(state):
            return holds(ed, {"body": premise}, state)
        name = inv["name"]
    solver = _solver()
    states = [s]
    if T.concrete(goal(s)) is True:
        return Witness(name, True, [], "at the start")
    for k in range(depth):
        sel, nxt, trans, _ = _step_all(ed, acts, states[-1], k)
        solver.add(trans)
        states.append(nxt)
        solver.push()
        solver.add(T.lift(goal(nxt)))
        result = solver.check()
        if result == z3.sat:
            m = solver.model()
            trace = [acts[m.eval(z3.Int(f"sel{i}"), model_completion=True).as_long()].name for i in range(k + 1)]
            return Witness(name, True, trace, f"reached in {k + 1} steps")
        solver.pop()
        if result == z3.unknown:
            return Witness(name, False, [], f"solver: {solver.reason_unknown()}")
    return Witness(name, False, [], f"not reached within {depth} actions of the start")


def premise_of(body: dict) -> dict:
    """The condition under which an invariant says something: for `all(x in S: not A or B)`
    it is `any(x in S: A)`; for `all(x in S: A or B)` it is `any(x in S: not A)`."""
    if body.get("k") == "agg" and body.get("fn") == "all":
        inner = premise_of(body["body"])
        return {"k": "agg", "fn": "any", "var": body["var"], "over": body["over"], "body": inner}
    if body.get("k") == "bin" and body.get("op") == "or":
        left = body["l"]
        if left.get("k") == "not":
            return left["e"]
        return {"k": "not", "e": left}
    if body.get("k") == "bin" and body.get("op") == "and":
        return premise_of(body["l"])
    return {"k": "bool", "v": True}
