"""Non-vacuity (issue 18 item 7): a witness that each invariant's and step property's formula
can fail, so a property nothing could break is reported rather than counted as a check.

A row's formula is read over the symbolic state every proof starts from (`prove._fresh`,
within `domain`: the types, not the invariants), and Z3 is asked for a state where it is
false: for an invariant one state, for a step property two (the state before and after a
step, with `me` a seat and `here` a square). Where there is none, the formula is true in
every state: it is vacuous, since no rule, right or wrong, can break it (an edition
without pots keeps `no_negative_pot` so). Where there is one, its values of the constants
the formula reads are the witness. Z3 is asked too for a state where the formula holds;
where there is none, it can never hold (the start column then says violated as well).

One or two queries per row, in a context of the row's own (`prove.Own`) at the per-query
limit: the rows' terms are those the proofs build anyway.

    vacuity(ir, players) -> {row name: Vacuity}
"""
from __future__ import annotations

from dataclasses import dataclass, field

import z3

from . import prove
from .symbolic import terms
from .symbolic.encode import Unsupported
from .symbolic.engine import step_holds
from .symbolic.state import domain, fresh

MOST_SHOWN = 8        # the witness's values shown in the terminal (`--json` has them all)


@dataclass
class Vacuity:
    """Whether a row's formula can fail (`fails`) and can hold (`holds`) in some state of the
    edition: yes, no, or None (the solver gave up, or the formula reads a construct the
    symbolic semantics does not model: `reason`); `witness` is a state where it fails."""

    fails: bool | None
    holds: bool | None
    witness: dict[str, str] = field(default_factory=dict)
    reason: str = ""

    @property
    def vacuous(self) -> bool:
        return self.fails is False

    def to_json(self) -> dict:
        out: dict[str, object] = {"can_fail": self.fails, "can_hold": self.holds, "witness": self.witness}
        if self.reason:
            out["reason"] = self.reason
        return out


def vacuity(ir: dict, players: int) -> dict[str, Vacuity]:
    """Every invariant's and step property's witness (or its absence), by row name."""
    edition = prove.playable(ir)
    s0 = prove._fresh(edition, players)
    known = prove._domain(edition, players, s0)
    out = {}
    for inv in ir["invariants"]:
        try:
            term = prove._before(edition, inv, players, s0)
        except Unsupported as error:
            out[inv["name"]] = Vacuity(None, None, reason=f"unsupported: {error}")
            continue
        out[inv["name"]] = _ask(term, [known])
    after = fresh(edition, players, prefix="after.")
    me, here = z3.Int("step.me"), z3.Int("step.here")
    ranges = [known, domain(edition, after), z3.And(me >= 0, me < players), z3.And(here >= 0, here < edition.n)]
    for step in ir.get("steps", []):
        try:
            term = step_holds(edition, step, s0, after, me, here)
        except Unsupported as error:
            out[step["name"]] = Vacuity(None, None, reason=f"unsupported: {error}")
            continue
        out[step["name"]] = _ask(term, ranges)
    return out


def _ask(term: prove.Term, known: list) -> Vacuity:
    """Can `term` be false, and can it be true, where `known` holds?"""
    if term is True or term is False:
        return Vacuity(fails=term is False, holds=term is True,
                       reason="true in every state of this edition" if term is True else "false in every state")
    own = prove.Own()
    base = [own.term(t) for t in known if t is not True]
    result, why, model = own.query(*base, own.term(terms.not_(term)))
    if result == z3.unknown:
        return Vacuity(None, None, reason=f"solver: {why}")
    fails = result == z3.sat
    witness = _witness(model, term) if model is not None else {}
    held, why, _ = own.query(*base, own.term(term))
    holds = None if held == z3.unknown else held == z3.sat
    reason = "" if fails else ("true in every state the representation allows (a token on a square, a holder the "
                               "bank or a seat, a card in its deck or a hand): no rule can break it")
    if holds is None:
        reason = f"whether it can hold: solver: {why}"
    return Vacuity(fails, holds, witness, reason)


def _witness(model: z3.ModelRef, term: prove.Term) -> dict[str, str]:
    """The model's value of each constant the formula reads, by its name in the state."""
    names, seen, todo = {}, set(), [terms.lift(term)]
    while todo:
        t = todo.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            names[t.decl().name()] = t
        todo.extend(t.children())
    return {name: str(model.eval(names[name], model_completion=True)) for name in sorted(names)}


def shown(witness: dict[str, str]) -> str:
    """A witness in one line: its first values, and how many more."""
    items = [f"{name} = {value}" for name, value in witness.items()]
    more = len(items) - MOST_SHOWN
    return ", ".join(items[:MOST_SHOWN]) + (f" (and {more} more)" if more > 0 else "")
