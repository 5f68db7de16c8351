"""Independent facts (issue 18 item 3): an invariant's limit comes from a number the source
prints (a `fact` item quoting the rule book, or a line of the edition's `box`), not from the
setting it polices, so a wrong setting breaks it; where the source prints none, `verify`
names the invariant as circular for that edition."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import grammar
from boardrules.cli import main
from verifier import explore, prove
from verifier.verdicts import Proved, Violated
from verifier.verify import render, to_json, verify

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def child(tmp_path: Path, parent: str, body: str) -> tuple[Path, dict]:
    path = tmp_path / "wrong.rules"
    path.write_text(f"edition wrong extends {parent}\n{body}", encoding="utf-8")
    return path, grammar.compile_file(path)


def limits(ir: dict, name: str) -> dict:
    return next(x for x in ir["invariants"] + ir.get("steps", []) if x["name"] == name).get("limits", {})


def test_the_bundled_editions_read_the_printed_numbers():
    """001 "UTRUSTNING" prints "32 hus" and "12 hotell" (the box), "tre omgångar" in jail and
    the 4.000 salary; 002 prints the tries and the salary but no count of houses: classic-us's
    stock invariants are circular, and say so in their IR."""
    se, us = grammar.compile_file(ROOT / "spec/classic-se.rules"), grammar.compile_file(ROOT / "spec/classic-us.rules")
    assert limits(se, "house_stock") == {"bank.houses": 32} and limits(se, "hotel_stock") == {"bank.hotels": 12}
    assert limits(se, "jail_counters") == {"jail.max_turns": 3}
    assert limits(se, "go_pays_salary") == {"money.salary": 4000}
    assert limits(us, "house_stock") == {"bank.houses": None} and limits(us, "jail_counters") == {"jail.max_turns": 3}
    metropol = grammar.compile_file(ROOT / "spec/metropol-da.rules")     # no jail, no houses: nothing to read
    assert all("limits" not in x for x in metropol["invariants"])


def test_forty_houses_in_a_box_of_32_are_caught_through_the_fact(tmp_path, monkeypatch):
    """001 "32 hus": a child of classic-se with `bank.houses = 40` keeps the old invariant
    (the stock *is* the setting); against the box's 32 it is false from the start, in the
    Z3 start column and after the first event of every explored game, with a trace that
    replays."""
    monkeypatch.setattr(explore, "SHRINK_SECONDS", 1)
    path, ir = child(tmp_path, "classic-se", "bank { houses = 40 }\n")
    start = prove.prove_initial(ir, "house_stock", 2)
    assert isinstance(start, Violated) and "false in the start state" in start.reason
    report = verify(ir, str(path), examples=3, trace_dir=tmp_path, prove=False, searches=1)
    assert re.search(r"^    house_stock x explored: VIOLATED", render(report), re.MULTILINE), render(report)
    trace = next(t for t in report.exploration.violations if t.violation["invariant"] == "house_stock")
    result = CliRunner().invoke(main, ["replay", str(trace.path)])
    assert result.exit_code == 1 and "reproduced: invariant `house_stock`" in result.output, result.output
    # the same edition with the old, circular invariant keeps it
    circular = dict(next(x for x in ir["invariants"] if x["name"] == "house_stock"))
    circular["body"] = json.loads(json.dumps(circular["body"]).replace('{"expr": "int", "value": 32}',
                                                                      '{"expr": "setting", "path": "bank.houses"}'))
    assert isinstance(prove.prove_initial(ir, circular, 2), Proved)


def test_a_fourth_try_in_jail_is_caught_through_the_fact(tmp_path):
    """001 "När du har stått över tre omgångar måste du flytta ut ur fängelset": a child
    with `jail.max_turns = 4` breaks `jail_counters` in the start state, and so does one
    with 2 (the limit is the printed one, both ways)."""
    for tries in (4, 2):
        _, ir = child(tmp_path, "classic-se", f"jail {{ max_turns = {tries} }}\n")
        assert isinstance(prove.prove_initial(ir, "jail_counters", 2), Violated), tries
    _, right = child(tmp_path, "classic-se", "")
    assert isinstance(prove.prove_initial(right, "jail_counters", 2), Proved)


def test_a_wrong_salary_breaks_the_go_step_property(tmp_path, monkeypatch):
    """001 "erhåller du 4.000 från banken": with `money.salary = 3000` every pass of GO pays
    3 000, which `go_pays_salary` reads against the printed 4 000."""
    monkeypatch.setattr(explore, "SHRINK_SECONDS", 1)
    path, ir = child(tmp_path, "classic-se", "money { salary = 3000 }\n")
    report = verify(ir, str(path), examples=10, trace_dir=tmp_path, prove=False, searches=1)
    assert re.search(r"^    go_pays_salary x explored: VIOLATED", render(report), re.MULTILINE), render(report)


def test_where_the_source_prints_no_number_the_report_says_circular(tmp_path):
    """002 prints no count of the box's houses: a child of classic-us with 40 keeps
    `house_stock` (circular), and the report says so, in text and in `--json`."""
    path, ir = child(tmp_path, "classic-us", "bank { houses = 40 }\n")
    assert isinstance(prove.prove_initial(ir, "house_stock", 2), Proved)
    report = verify(ir, str(path), examples=1, trace_dir=tmp_path, prove=False, searches=1)
    text = render(report)
    assert "circular (the source prints no number for the setting, so a wrong one keeps them):" in text
    assert "house_stock (`bank.houses`), hotel_stock (`bank.hotels`)" in text
    doc = to_json(report)["facts"]
    assert doc["circular"] == {"house_stock": ["bank.houses"], "hotel_stock": ["bank.hotels"]}
    assert doc["checked"] == {"jail_counters": {"jail.max_turns": 3}, "go_pays_salary": {"money.salary": 200}}


def test_a_child_states_its_own_fact(tmp_path):
    """A child whose own source prints another number states it: its `fact` replaces its
    parent's (and the box's), and the invariant reads the child's."""
    _, ir = child(tmp_path, "classic-se", 'bank { houses = 40 }\nfact bank.houses = 40 "40 hus"\n')
    assert limits(ir, "house_stock") == {"bank.houses": 40}
    assert isinstance(prove.prove_initial(ir, "house_stock", 2), Proved)
