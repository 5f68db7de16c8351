"""Exploration and trace files (issue 3, items 2 and 7): Hypothesis reaches every counted
corner of a bundled edition within the CI budget, invariants come from the IR, and a trace
file that is damaged gets a located error, never a traceback."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import grammar
import interpreter
from boardrules.cli import main
from grammar.lookup import concrete_editions
from interpreter.invariants import InvariantViolation, check_all
from spec import bundled
from verifier import explore

EXAMPLES = 60
# Games per edition where 60 is not enough: in Metropol the rents ruin players long before
# the bank's small charges can, so a bankruptcy to the bank takes a longer search.
LONGER = {"metropol-da": 120}


@pytest.mark.parametrize("edition", concrete_editions())
def test_exploration_meets_the_counter_minimums(edition):
    """Issue 3 item 2: every choice kind, phase, jail exit, both bankruptcies, the housing
    shortage and every card of each bundled edition is exercised at least its minimum in CI,
    as far as the edition's rules have them (`explore.minimums`)."""
    found = explore.explore(grammar.compile_file(bundled()[edition]), examples=LONGER.get(edition, EXAMPLES))
    assert found.violations == []
    assert found.shortfalls == {}, found.shortfalls


def test_invariants_are_the_irs():
    """Contract (invariants.md): the engine checks exactly the IR's invariants, prelude first."""
    ir = grammar.compile_file(bundled()["classic-se"])
    ed = interpreter.load(ir)
    assert [name for name, _, _ in ed.invariants] == [x["name"] for x in ir["invariants"]]
    assert ir["invariants"][0]["origin"] == "prelude"


def test_an_edition_invariant_is_checked_after_every_event(tmp_path):
    """An edition's own invariant (`invariant NAME "text" = EXPR`) is checked in play."""
    spec = tmp_path / "mine.rules"
    spec.write_text('edition mine extends classic-se\n'
                    'invariant nobody_moves "tokens stay on the start square" = all(p in players: p.position == 0)\n')
    ed = interpreter.load(grammar.compile_file(spec))
    with pytest.raises(InvariantViolation) as info:
        interpreter.play(ed, ["random", "random"], seed=1, check_invariants=True)
    assert info.value.invariant == "nobody_moves" and info.value.event["type"] == "move"


def test_bank_owner_reads_as_a_party():
    """unique_ownership: `d.owner.bankrupt` is false for a deed the bank holds."""
    ed = interpreter.load(grammar.compile_file(bundled()["classic-us"]))
    check_all(interpreter.new_game(ed, ["random", "random"], seed=1, log=False))


@pytest.mark.parametrize("damage", ["not_json", "no_dice", "wrong_step", "wrong_version"])
def test_a_damaged_trace_is_a_located_error(damage, tmp_path, monkeypatch):
    """DESIGN principle 8: a corrupt trace is one message with exit status 2 (as a log);
    one that replays differently says where."""
    monkeypatch.setattr(explore, "SHRINK_SECONDS", 1)
    spec = tmp_path / "mine.rules"
    spec.write_text('edition mine extends classic-se\n'
                    'invariant still "nobody moves" = all(p in players: p.position == 0)\n')
    found = explore.explore(grammar.compile_file(spec), examples=5, spec=str(spec), trace_dir=tmp_path, searches=1)
    path = found.violations[0].path
    doc = json.loads(path.read_text())
    if damage == "not_json":
        path.write_text(path.read_text()[:40])
    else:
        if damage == "no_dice":
            del doc["dice"]
        elif damage == "wrong_step":
            doc["violation"]["step"] += 1
        else:
            doc["version"] = 99
        path.write_text(json.dumps(doc))
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "error" in result.output


def test_verify_json_and_z3_cells(tmp_path, monkeypatch):
    """Issue 3 item 7: `verify --json` gives per edition a list of cells (invariant, action,
    verdict, bound/reason/trace as the verdict needs) and the exploration counters; a start
    state that breaks house_stock is `violated` with a trace file that replays. (Two
    catalogue actions only: the full catalogue is the symbolic half's timing.)"""
    from verifier.symbolic import actions

    full = actions.catalogue
    monkeypatch.setattr(actions, "catalogue", lambda ir, players, ed=None: full(ir, players, ed)[:2])
    monkeypatch.setattr(explore, "SHRINK_SECONDS", 1)
    spec = "tests/verifier/broken/negative-house-stock.rules"
    result = CliRunner().invoke(main, ["verify", spec, "--json", "--examples", "3", "--traces", str(tmp_path)])
    assert result.exit_code == 1, result.output
    edition = json.loads(result.output)["editions"][0]
    cells = {(c["invariant"], c["action"]): c for c in edition["cells"]}
    start = cells[("house_stock", "start")]
    assert start["verdict"] == "violated" and start["trace"]
    assert {c["verdict"] for c in cells.values()} <= {"proved", "bounded", "violated", "unknown"}
    assert all("bound" in c for c in cells.values() if c["verdict"] == "bounded")
    assert all(c.get("reason") for c in cells.values() if c["verdict"] == "unknown")
    assert edition["exploration"]["counts"] and "under_minimum" in edition["exploration"]
    replayed = CliRunner().invoke(main, ["replay", start["trace"]])
    assert replayed.exit_code == 1 and "reproduced: invariant `house_stock`" in replayed.output, replayed.output


def test_a_pick_is_the_strategys_draw():
    """`explore._integers` (the dice and the seats' choices) makes the same test case as
    `draw(st.integers(lo, hi))`: the same choices with the same constraints, in the same spans,
    so Hypothesis generates, mutates and shrinks the same games."""
    from hypothesis import strategies as st
    from hypothesis.internal.conjecture.data import ConjectureData

    bounds = [(1, 6), (0, 3), (1, 6), (0, 0), (0, 200), (0, 127)]

    def case(fast: bool):
        data = ConjectureData.for_choices([3, 0, 5, 0, 150, 100])
        pick = explore._integers(data)
        drawn = [pick(lo, hi) if fast else data.draw(st.integers(lo, hi)) for lo, hi in bounds]
        data.freeze()
        return (drawn, [(n.type, n.value, n.constraints) for n in data.nodes],
                [(s.label, s.start, s.end, s.depth) for s in data.spans])

    assert case(True) == case(False)
