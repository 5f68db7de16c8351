"""The broken-editions corpus (issue 3, item 6): each spec in broken/ names, in a comment,
the invariant (or step property, issue 18: the `step-*` specs) it must be caught breaking;
the verifier's exploration must name it in its verdict text, and the trace it writes must
replay in the interpreter to the same violation.
A spec that also names a column must be caught there by bounded model checking from the
start state, with a trace of catalogue actions that replays the same way."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import grammar
from boardrules.cli import main
from verifier import explore, prove
from verifier.symbolic.actions import catalogue
from verifier.verify import START, Report, _bound_open, render, verify

BROKEN = sorted(Path(__file__).with_name("broken").glob("*.rules"))
EXAMPLES = 60


def bounded_column(path: Path) -> tuple[str, int] | None:
    """The column and step where bounded model checking must find the violation, if named."""
    found = re.search(r"^# Bounded model checking catches it in column `([\w:]+)`, after step (\d+)",
                      path.read_text(encoding="utf-8"), re.MULTILINE)
    return (found.group(1), int(found.group(2))) if found else None


def expected(path: Path) -> str:
    found = re.search(r"^# Must be caught breaking: (\w+)", path.read_text(encoding="utf-8"), re.MULTILINE)
    assert found, f"{path.name} names no invariant it must be caught breaking"
    return found.group(1)


def test_the_corpus_covers_every_family():
    """Issue 3 item 6: at least 12 broken editions; every built-in invariant that a spec can
    break has one (the rest are explained in docs/verifier.md and replaced by declared ones)."""
    names = {expected(path) for path in BROKEN}
    assert len(BROKEN) >= 12 and len(names) == len(BROKEN)
    assert {"house_stock", "hotel_stock", "even_building", "mortgage_excludes_buildings", "jail_counters",
            "no_negative_pot"} <= names


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.stem)
def test_broken_edition_is_caught_and_its_trace_replays(path, tmp_path, monkeypatch):
    """Each invariant named in a broken edition's comment: exploration finds a game that
    breaks it, the verdict table names it as VIOLATED, and `boardrules replay TRACE`
    reproduces the same violation (exit status 1)."""
    monkeypatch.setattr(explore, "SHRINK_SECONDS", 1)
    name = expected(path)
    ir = grammar.compile_file(path)
    report = verify(ir, str(path), examples=EXAMPLES, trace_dir=tmp_path, prove=False, searches=1)
    text = render(report)
    assert re.search(rf"^    {name} x explored: VIOLATED", text, re.MULTILINE), text
    trace = report.exploration.violations[0]
    assert trace.violation["invariant"] == name and trace.path is not None
    result = CliRunner().invoke(main, ["replay", str(trace.path)])
    assert result.exit_code == 1, result.output
    what = "step property" if "kind" in trace.violation else "invariant"
    assert f"reproduced: {what} `{name}`" in result.output
    assert f"at step {trace.violation['step']}," in result.output


def test_the_corpus_has_a_deep_bounded_violation():
    """Issue 3: a violation bounded model checking finds only after more than one action."""
    assert any(found[1] >= 2 for found in map(bounded_column, BROKEN) if found)


@pytest.mark.parametrize("path", [p for p in BROKEN if bounded_column(p)], ids=lambda p: p.stem)
def test_bounded_violation_is_confirmed_and_its_trace_replays(path, tmp_path):
    """Issue 3: violated, with a trace that the interpreter replays and confirms. The named
    column is not preserved, so the row's bounded check from the start state decides: the
    verdict text names the cell as VIOLATED with its trace, the choices the model made
    (dice, decisions) are the ones the interpreter replays, and `boardrules replay TRACE`
    reproduces the violation (exit status 1)."""
    name, (column, step) = expected(path), bounded_column(path)
    ir = grammar.compile_file(path)
    act = next(a for a in catalogue(ir, 2) if a.name == column)
    inv = next({"name": x["name"], "text": x["text"], "origin": x["origin"]}
               for x in ir["invariants"] if x["name"] == name)
    report = Report(ir["edition"]["key"], str(path), 2, 2, [inv], [START, column])
    report.cells[(name, START)] = prove.prove_initial(ir, name, 2)
    report.cells[(name, column)] = prove.prove_preserves(ir, name, act, 2)
    _bound_open(ir, report, tmp_path, [act])
    text = render(report)
    assert re.search(rf"^  {name} x {column}: VIOLATED: `{name}` is false after step {step}; trace ",
                     text, re.MULTILINE), text
    result = CliRunner().invoke(main, ["replay", str(report.cells[(name, column)].path)])
    assert result.exit_code == 1, result.output
    assert f"reproduced: invariant `{name}` is violated after step {step}" in result.output
    # the trace names the rules it was found in: the same steps against other rules are refused
    doc = json.loads(report.cells[(name, column)].path.read_text(encoding="utf-8"))
    assert doc["ir_hash"] == prove.playable(ir).hash
    doc["ir_hash"] = "0" * len(doc["ir_hash"])
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(doc), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(edited)])
    assert result.exit_code == 2 and "another version of edition" in result.output, result.output
