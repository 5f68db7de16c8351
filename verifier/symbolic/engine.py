"""The symbolic machine: the state, forks (a branch on a symbolic condition runs both
ways and merges the states), choices (a decision, a die or a card: an action parameter,
a fresh Z3 constant, or a value given by the caller in concrete mode), and the turn-flow
pieces of `interpreter/engine.py` (jail, the roll). The mirror of `engine.Game`.

Choice keys name the path that reached them (the forks taken and the order of calls),
so a model of a symbolic step replays in concrete mode to the same choices.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3

from interpreter import Edition
from interpreter.state import BANK

from . import terms
from .effects import EffectsMixin
from .encode import _MISSING, CompileMixin, Ctx, Unsupported
from .machine import Provider
from .rules import RulesMixin
from .state import SymState, merge
from .terms import Term


class SymGame(CompileMixin, EffectsMixin, RulesMixin):
    MAX_DRAWS = 2           # cards obeyed inside one another (a card that moves you onto a draw)
    MAX_BANKRUPTCIES = 1    # a second bankruptcy inside one (a creditor who cannot pay the interest) is unsupported
    ABSTRACT_BANKRUPTCY = ("a payer's bankruptcy (not modelled symbolically in preservation proofs: "
                           "it walks every deed, with the creditor's lift-or-pay choice per mortgaged deed)")

    def __init__(self, edition: Edition, state: SymState, provider: Provider | None = None,
                 force: dict[str, Any] | None = None, cur: int = BANK, tag: str = "",
                 abstract_bankruptcy: bool = False) -> None:
        self.edition = edition
        self.squares = sorted(edition.ir["squares"], key=lambda square: square["index"])
        self.state = state
        self.provider = provider          # concrete mode: (key, kind, domain, seat) -> value
        self.force = dict(force or {})    # kind -> value: the action fixes this decision
        self.cur = cur                    # the seat whose turn it is
        self.tag = tag
        self.path: list[str] = []
        self.counter = [0]
        self.choices: dict[str, z3.ExprRef] = {}
        self.record: list[tuple] = []     # concrete mode: (kind, value, seat) in call order
        self.reasons: set[str] = set()
        self.draw_depth = 0
        self.bankrupt_depth = 0
        # terms of the state the step starts from, shared by every branch of its parameters
        # (a guard read before any effect: the same terms in each branch)
        self.memo: dict = {}
        self.calls: dict = {}             # formulas of the state alone, by state and arguments (`x_call`)
        # symbolic mode only: a bankruptcy marks its path unsupported instead of being
        # computed (the formula it builds is too large for an inductive query)
        self.abstract_bankruptcy = abstract_bankruptcy and provider is None

    # ---- paths -----------------------------------------------------------------------

    def _next(self) -> str:
        n = self.counter[-1]
        self.counter[-1] += 1
        return f"{n}"

    def key(self, kind: str) -> str:
        return f"{self.tag}{kind}@{'/'.join(self.path)}#{self._next()}"

    def fork(self, cond: Term, then: Callable[[], object] | None = None,
             other: Callable[[], object] | None = None) -> None:
        """Run `then` where `cond` holds and `other` elsewhere; merge the two states."""
        label = self._next()
        self._both(cond, lambda: then is not None and self._enter(label + "T", then),
                   lambda: other is not None and self._enter(label + "F", other))

    def _both(self, cond: Term, then: Callable[[], object], other: Callable[[], object]) -> None:
        """Run `then` and `other` on copies of the state and merge them by `cond` (only the
        one a concrete `cond` picks). No path label of its own: a caller labels the bodies."""
        if not terms.is_sym(cond):
            (then if cond else other)()
            return
        saved = self.state
        self.state = saved.copy()
        then()
        s_then = self.state
        self.state = saved.copy()
        other()
        self.state = merge(cond, s_then, self.state)

    def _enter(self, label: str, body: Callable[[], object]) -> Term:
        self.path.append(label)
        self.counter.append(0)
        try:
            body()
        finally:
            self.path.pop()
            self.counter.pop()

    def split_value(self, value: Term, domain: Any, fn: Callable[..., Term]) -> None:
        """`fn(v)` for the concrete value of `value`: one branch per possible value. The
        branch for `v` has the path label a concrete `value` of `v` gets (the chain of
        tests over the domain adds none), so a model's choices replay in concrete mode."""
        label = self._next()
        if not terms.is_sym(value):
            self._enter(f"{label}={value}", lambda: fn(value))
            return
        if domain is None:
            raise Unsupported("a symbolic amount where a number of steps is needed")
        options = list(domain)

        def chain(i):
            if i == len(options):
                self.assume(False)
                return
            v = options[i]
            self._both(terms.eq(value, v), lambda: self._enter(f"{label}={v}", lambda: fn(v)), lambda: chain(i + 1))
        chain(0)

    def split_party(self, value: Term, fn: Callable[..., Term]) -> None:
        self.split_value(value, range(BANK, self.state.players), fn)

    # ---- assumptions, unsupported paths, choices -------------------------------------

    def assume(self, cond: Term) -> None:
        self.state.ok = terms.and_(self.state.ok, cond)

    def flag(self, cond: Term, reason: str) -> None:
        if cond is False:
            return
        if cond is True and self.provider is not None:
            raise Unsupported(reason)
        self.reasons.add(reason)
        self.state.unsupported = terms.or_(self.state.unsupported, cond)

    def unsupported(self, reason: str) -> Unsupported:
        return Unsupported(reason)

    def choice(self, kind: str, domain: Any, seat: int | None = None) -> Term:
        """A decision, die or card: forced by the action, given by the caller (concrete),
        or a fresh constant constrained to its domain (symbolic)."""
        if kind in self.force:
            if self.provider is not None:
                self.record.append((kind, self.force[kind], seat))
            return self.force[kind]
        key = self.key(kind)
        if self.provider is not None:
            v = self.provider(key, kind, domain, seat)
            self.record.append((kind, v, seat))
            return v
        values = domain if not isinstance(domain, tuple) else None
        if values is not None and all(isinstance(v, bool) for v in values):
            x = z3.Bool(key)
            if len(values) == 1:
                self.assume(x == values[0])
        else:
            x = z3.Int(key)
            if values is not None:
                self.assume(terms.or_(*[x == v for v in values]))
            else:
                _, lo, hi = domain
                if lo is not None:
                    self.assume(x >= lo)
                if hi is not None:
                    self.assume(x <= hi)
        self.choices[key] = x
        return x

    # ---- turn flow (engine.py) --------------------------------------------------------

    def move(self, p: int, steps: Term) -> None:
        """The token moves by the dice: `on_pass` fires; the landing is its own action."""
        self.move_steps(Ctx(p, steps), p, steps, land=False)

    def double(self, total: Term) -> Term:
        """Whether the throw making `total` shows the same face on every die: a decision of
        the throw, possible only where some throw of that total is (or is not) a double."""
        edition = self.edition
        doubles = [edition.dice * f for f in range(1, edition.faces + 1)]
        if edition.dice < 2:
            return True
        if not terms.is_sym(total):
            options = ([False] if edition.dice < total < edition.dice * edition.faces else []) + \
                ([True] if total in doubles else [])
            return self.choice("double", options)
        double = self.choice("double", [False, True])
        self.assume(terms.ite(double, terms.or_(*[terms.eq(total, t) for t in doubles]),
                              terms.and_(terms.lt(edition.dice, total), terms.lt(total, edition.dice * edition.faces))))
        return double

    def rolled(self, ctx: Ctx, p: int, total: Term) -> None:
        """The first `roll` hook whose condition holds replaces the move by the dice (the
        interpreter's `rolled`); without one, the token moves (the landing is its own action)."""
        hooks = self.hooks("roll")

        def hook(i):
            if i == len(hooks):
                self.move_steps(ctx, p, total, land=False)
                return
            var = hooks[i]["var"]
            saved = ctx.vars.get(var, _MISSING)
            ctx.vars[var] = total
            cond = self.expr(hooks[i]["cond"], ctx) if hooks[i].get("cond") is not None else True
            self.fork(cond, lambda: self.block(hooks[i].get("body") or [], ctx), lambda: hook(i + 1))
            if saved is _MISSING:
                ctx.vars.pop(var, None)
            else:
                ctx.vars[var] = saved
        hook(0)

    def jail_pay_fine(self, p: int) -> None:
        self.pay(p, BANK, self.edition.jail_fine, "jail_fine")
        self.leave_jail(p, "fine")

    def jail_use_card(self, p: int, deck: int, i: int) -> None:
        self.return_card(p, deck, i)
        self.leave_jail(p, "card")

    def jail_double(self, p: int, total: Term) -> None:
        self.leave_jail(p, "double")
        self.move(p, total)

    def jail_fail(self, p: int, total: Term) -> None:
        edition, s = self.edition, self.state
        s.jail_turns[p] = terms.add(s.jail_turns[p], 1)

        def last_try():
            self.pay(p, BANK, edition.jail_fine, "jail_fine")
            self.fork(self.state.bankrupt[p], None, lambda: (self.leave_jail(p, "forced"), self.move(p, total)))
        self.fork(terms.le(edition.jail_max_turns, s.jail_turns[p]), last_try)


def holds(edition: Edition, inv: dict, state: SymState) -> Term:
    """The invariant's body on a state (a Z3 Bool, or a bool on a concrete state): what the
    proofs (verifier/prove.py) and the concrete replay of their traces (replay.py) ask."""
    return SymGame(edition, state).expr(inv["body"], Ctx())


def step_holds(edition: Edition, prop: dict, before: SymState, after: SymState, me: Term, here: Term) -> Term:
    """A step property's body over a step from `before` to `after`, of the player `me` (and
    the square `here`): `old(e)` is `e` on `before`, every other name reads `after`."""
    game = SymGame(edition, after)
    game.before = SymGame(edition, before)  # type: ignore[attr-defined]  # read by `x_old` only
    ctx = Ctx(me)
    ctx.here = here
    return game.expr(prop["body"], ctx)
