"""Non-vacuity (issue 18 item 7): for each invariant and step property, `verify` shows a
state in which its formula is false, so a property that nothing could break is reported
as vacuous instead of being counted as a check."""
from __future__ import annotations

from pathlib import Path

import pytest

import grammar
from verifier import vacuity as vacuity_module
from verifier.symbolic import actions
from verifier.vacuity import vacuity
from verifier.verify import proofs, render, to_json

ROOT = Path(__file__).resolve().parents[2]
WEAK = """edition weak extends classic-se
invariant solvent "no player still in the game is in debt" = all(p in players: p.cash >= 0 or p.cash < 0)
step buy_costs "buying a deed costs the buyer its price" on buy = old(me.cash) - here.price == old(me.cash) - here.price
"""


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


@pytest.fixture(scope="module")
def weak() -> dict:
    return grammar.compile_text(WEAK, "weak.rules")


def test_a_formula_nothing_breaks_is_vacuous(weak):
    """The descriptions promise a check ("no player ... is in debt", "costs the buyer its
    price"); the formulas are true in every state, so no rule, right or wrong, breaks them."""
    found = vacuity(weak, 2)
    assert found["solvent"].vacuous and found["solvent"].holds
    assert found["buy_costs"].vacuous and found["buy_costs"].holds


def test_a_real_property_has_a_witness_that_breaks_it(weak):
    """`no_negative_cash` (the prelude) fails where a player still in the game has less than
    nothing: the witness is such a state. `buy_pays_price` (spec/classic.rules, §1 buying)
    fails over a step where the buyer's cash does not drop by the price."""
    found = vacuity(weak, 2)
    witness = found["no_negative_cash"].witness
    assert found["no_negative_cash"].fails and found["no_negative_cash"].holds
    assert any(int(witness[f"cash[{q}]"]) < 0 and witness[f"bankrupt[{q}]"] == "False" for q in range(2)), witness
    assert found["buy_pays_price"].fails and found["buy_pays_price"].witness


def test_an_edition_without_pots_keeps_the_pot_invariant_vacuously(weak):
    """`no_negative_pot` reads every pot; classic-se has none, so its formula is `all` over
    nothing, true in every state of the edition (docs/verifier.md, the built-in library)."""
    found = vacuity(weak, 2)["no_negative_pot"]
    assert found.vacuous and found.reason == "true in every state of this edition"


def test_the_report_names_the_vacuous_rows(weak, monkeypatch, tmp_path):
    """The table marks each vacuous row, the lines under it name them with the reason, and
    `--json` carries every row's answer and witness (a catalogue of no actions keeps the
    proofs to the start column)."""
    monkeypatch.setattr(actions, "catalogue", lambda ir, players, edition=None: [])
    report = proofs(weak, "weak.rules", trace_dir=tmp_path)
    text = render(report)
    assert any(line.startswith("solvent ") and "VACUOUS: no player still in the game is in debt" in line
               for line in text.splitlines()), text
    assert "  buy_costs: VACUOUS: true in every state the representation allows" in text
    doc = to_json(report)["vacuity"]
    assert doc["solvent"]["can_fail"] is False and doc["no_negative_cash"]["can_fail"] is True
    assert doc["no_negative_cash"]["witness"]


def test_vacuity_costs_little_beside_the_proofs(weak, monkeypatch):
    """One or two queries per row, each within the per-query limit (`prove.RLIMIT`): a row
    the solver cannot decide is unknown, never vacuous (not a pass either way)."""
    calls = []
    real = vacuity_module._ask
    monkeypatch.setattr(vacuity_module, "_ask", lambda term, known: calls.append(1) or real(term, known))
    found = vacuity(weak, 2)
    assert len(calls) == len(found) == len(weak["invariants"]) + len(weak["steps"])
    assert all(v.fails is not None or v.reason.startswith(("solver:", "unsupported:")) for v in found.values())
