"""Step properties (issue 18 item 1): `step NAME "..." on KIND = EXPR`, where `old(e)` is `e`
in the state before the step, checked by exploration after every step of its kind and
proved by Z3 per catalogue action from a state where the invariants hold. The wrong
editions of tests/verifier/broken/step-*.rules are caught by exploration with a replayable
trace (test_broken.py); here: what a step is, what Z3 says of the bundled properties and
of the wrong editions, and the report's rows."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import grammar
import interpreter
from boardrules.cli import main
from spec import bundled
from verifier import explore, prove, steps
from verifier.symbolic.actions import catalogue
from verifier.verdicts import Bounded, Proved, Unknown
from verifier.verify import render, to_json, verify

BROKEN = Path(__file__).with_name("broken")
SE = grammar.compile_file(bundled()["classic-se"])


def cells(ir: dict, name: str) -> dict[str, object]:
    """Z3's verdict of the step property `name` on each catalogue action of its kind."""
    prop = next(x for x in ir["steps"] if x["name"] == name)
    acts = catalogue(ir, 2)
    return {a.name: prove.prove_step(ir, name, a, 2) for a in acts
            if a.name in steps.actions_of(prop["kind"], [a.name])}


def test_a_kind_of_step_is_its_catalogue_actions():
    """A step of a kind is the catalogue action(s) the engine runs as that piece."""
    names = [a.name for a in catalogue(SE, 2)]
    assert steps.actions_of("buy", names) == ["buy"]
    assert steps.actions_of("rent", names) == ["rent:lot", "rent:station", "rent:utility"]
    assert steps.actions_of("land:income_tax", names) == ["square:income_tax"]
    assert steps.actions_of("pass:go", names) == ["pass:go"]
    assert len(steps.actions_of("card:chance", names)) == len(next(d for d in SE["decks"] if d["key"] == "chance")
                                                               ["cards"])


def test_the_family_properties_are_proved_on_classic_se():
    """Issue 18 item 2: buying costs the price, paid to the bank; the taxes go from the lander
    to the bank; passing GO pays the salary from the bank: each proved for its action."""
    for name in ("buy_pays_price", "income_tax_to_bank", "income_tax_amount", "luxury_tax_amount",
                 "go_pays_salary", "mortgage_pays_value"):
        found = cells(SE, name)
        assert found and all(isinstance(v, Proved) for v in found.values()), (name, found)


@pytest.mark.parametrize("spec, name", [("step-buy-costs-more", "buy_pays_price"),
                                        ("step-tax-to-a-player", "income_tax_to_bank"),
                                        ("step-double-salary", "go_pays_salary"),
                                        ("step-luxury-tax-amount", "luxury_tax_amount")])
def test_z3_does_not_prove_a_wrong_edition(spec, name):
    """A wrong edition's property is never proved: its cell is unknown with the reason (a
    state where the invariants hold from which the step breaks it, or the unmodelled
    bankruptcy the wrong rule reaches), which is not a pass."""
    found = cells(grammar.compile_file(BROKEN / f"{spec}.rules"), name)
    assert found and any(isinstance(v, Unknown) and v.reason for v in found.values()), found


def test_old_is_the_state_before_the_step(tmp_path, monkeypatch):
    """`old(e)` reads the state the step began in: a property that says the lander's cash
    does not change on buying breaks at the buy, and its trace replays to the same step."""
    monkeypatch.setattr(explore, "SHRINK_SECONDS", 1)
    spec = tmp_path / "free.rules"
    spec.write_text('edition free extends classic-se\n'
                    'step free_deeds "buying costs nothing" on buy = me.cash == old(me.cash)\n', encoding="utf-8")
    found = explore.explore(grammar.compile_file(spec), examples=5, spec=str(spec), trace_dir=tmp_path, searches=1)
    trace = found.violations[0]
    assert trace.violation["invariant"] == "free_deeds" and trace.violation["kind"] == "buy"
    assert trace.steps[-1]["event"]["type"] == "buy" and trace.steps[-2]["event"]["reason"] == "buy"
    result = CliRunner().invoke(main, ["replay", str(trace.path)])
    assert result.exit_code == 1 and "reproduced: step property `free_deeds`" in result.output, result.output


def test_an_unwatched_game_plays_the_same():
    """The checks live in the verifier: a game of an edition with step properties, played
    without them watched, is the game the engine plays (the same events)."""
    edition = interpreter.load(SE)
    plain = interpreter.play(edition, ["random", "random"], seed=3).events
    watched = interpreter.play(steps.watched(edition), ["random", "random"], seed=3).events
    assert plain == watched


def test_the_report_has_a_row_per_step_property(tmp_path, monkeypatch):
    """Issue 18: the step rows appear in the table and in `--json` like invariants, with a
    cell for each catalogue action of their kind only. (Three catalogue actions: the full
    catalogue is the symbolic half's timing.)"""
    from verifier.symbolic import actions

    full = actions.catalogue
    keep = ("buy", "pass:go", "roll")
    monkeypatch.setattr(actions, "catalogue", lambda ir, players, ed=None: [a for a in full(ir, players, ed)
                                                                             if a.name in keep])
    monkeypatch.setattr(explore, "SHRINK_SECONDS", 1)
    report = verify(SE, "classic-se", examples=3, trace_dir=tmp_path, searches=1)
    rows = {inv["name"]: inv for inv in report.invariants}
    assert rows["buy_pays_price"]["kind"] == "buy" and "kind" not in rows["money_conservation"]
    assert isinstance(report.cells[("buy_pays_price", "buy")], Proved)
    assert ("buy_pays_price", "pass:go") not in report.cells and ("buy_pays_price", "start") not in report.cells
    assert isinstance(report.cells[("go_pays_salary", "pass:go")], Proved)
    assert "buy_pays_price" in render(report)
    doc = json.loads(json.dumps(to_json(report)))
    assert {"invariant": "go_pays_salary", "action": "pass:go", "verdict": "proved",
            "reason": prove.ANY_STATE} in doc["cells"]


def test_a_proof_that_assumes_the_invariants_is_as_strong_as_they_are():
    """A step proved only from states where the invariants hold stands as proved where they
    are proved everywhere, bounded at their least bound where they are bounded."""
    ir = {"invariants": [{"name": "a"}, {"name": "b"}]}
    assumed = Proved(prove.ASSUMING + "a, b")
    cells_ = {("a", "x"): Proved("inductive"), ("b", "x"): Bounded(2, 2, "r"), ("b", "y"): Bounded(1, 2, "r"),
              ("s", "x"): assumed, ("t", "x"): Proved(prove.ANY_STATE)}
    prove.step_lemmas(ir, cells_)
    assert isinstance(cells_[("s", "x")], Bounded) and cells_[("s", "x")].bound == 1
    assert cells_[("t", "x")] == Proved(prove.ANY_STATE)
    proved = {("a", "x"): Proved("inductive"), ("b", "x"): Proved("frame"), ("s", "x"): assumed}
    prove.step_lemmas(ir, proved)
    assert proved[("s", "x")] == assumed
