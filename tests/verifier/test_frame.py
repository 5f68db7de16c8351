"""The frame of the invariant checks (interpreter/invariants.py): evaluating after an event only
the invariants that read a part of the state the event changed must find exactly what
evaluating all of them finds (issue 3: every invariant checked after every step). Explored
games check both ways after every event and must agree on every bundled edition and variant,
and on every broken edition, which must still be caught breaking its invariant."""
from __future__ import annotations

import pytest
from test_broken import BROKEN, EXAMPLES, expected

import grammar
import interpreter
from boardrules.editions import load, variant_targets
from grammar.lookup import concrete_editions
from interpreter import invariants
from interpreter.invariants import InvariantViolation, reads
from spec import bundled
from verifier import explore


def both(skip: frozenset = frozenset()):
    """A hook that checks framed and in full after every event, and fails on any difference."""
    framed, full = invariants.event_checker(skip), invariants.event_checker(skip, framed=False)

    def hook(game, event):
        found = []
        for check in (framed, full):
            try:
                check(game, event)
                found.append(None)
            except InvariantViolation as violation:
                found.append(violation)
        said = [None if v is None else (v.invariant, v.index) for v in found]
        assert said[0] == said[1], f"framed {said[0]}, in full {said[1]}, after event {event}"
        if found[0] is not None:
            raise found[0]
    return hook


TARGETS = [(edition, ()) for edition in concrete_editions()] + [(e, (v,)) for e, v in variant_targets()]


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: "+".join([t[0], *t[1]]))
def test_framed_checks_agree_on_the_bundled_editions(target, monkeypatch):
    """Every event of 6 explored games of each bundled edition and variant."""
    monkeypatch.setattr(explore, "event_checker", both)
    found = explore.explore(load(*target).ir, examples=6)
    assert found.violations == []


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.stem)
def test_framed_checks_catch_the_broken_editions(path, monkeypatch, tmp_path):
    """tests/verifier/broken: the same verdict after every event, the expected invariant caught."""
    monkeypatch.setattr(explore, "event_checker", both)
    monkeypatch.setattr(explore, "SHRINK_SECONDS", 1)
    found = explore.explore(grammar.compile_file(path), examples=EXAMPLES, trace_dir=tmp_path, searches=1)
    assert [t.violation["invariant"] for t in found.violations] == [expected(path)]


def test_reads_are_the_parts_an_invariant_names():
    """What the frame compares: the prelude's money conservation reads cash, the bank's ledger
    and the pots (and the seats); one that calls a method with an effect (`roll`) is unframed."""
    ed = interpreter.load(grammar.compile_file(bundled()["classic-se"]))
    names = [name for name, _, _ in ed.invariants]
    assert reads(ed.invariant_sources[names.index("money_conservation")]) == {
        ("players", "cash"), ("state", "bank_ledger"), ("state", "pots"), ("game", "seats")}
    assert reads("g.ctx_roll(c) > 1") is None and reads("g.state.houses.pop() > 1") is None
