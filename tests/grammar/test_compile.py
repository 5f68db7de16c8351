"""The compiler's happy path: bundled editions compile to an IR that keeps its contract."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

import grammar
from grammar import SpecError
from spec import bundled

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "grammar" / "ir.schema.json").read_text(encoding="utf-8"))
EDITIONS = sorted(bundled())
CONCRETE = [e for e in EDITIONS if e != "classic"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_bundled_edition_compiles_and_validates(edition: str):
    """docs/ir.md: every bundled edition compiles to an IR that validates against ir.schema.json."""
    ir = grammar.compile_file(bundled()[edition])
    Draft202012Validator(SCHEMA).validate(ir)
    assert ir["edition"]["key"] == edition
    assert ir["edition"]["abstract"] == (edition == "classic")


@pytest.mark.parametrize("edition", EDITIONS)
def test_ir_round_trips_through_json(edition: str):
    """DESIGN principle 6: the IR is plain data, unchanged by json.dumps/json.loads."""
    ir = grammar.compile_file(bundled()[edition])
    assert json.loads(json.dumps(ir)) == ir


def test_classic_us_ir_has_the_documented_shape():
    """docs/ir.md: the US edition's IR, item by item as the reference shows it."""
    ir = grammar.compile_file(bundled()["classic-us"])
    assert ir["ir_version"] == 2
    assert ir["edition"] == {"key": "classic-us", "lineage": ["classic", "classic-us"], "title": "Monopoly",
                             "language": "en", "source": "002_9d8c6ed21a1697aa.txt", "source_language": "da",
                             "abstract": False}
    game = ir["settings"]["game"]
    assert game["players"] == {"min": 2, "max": 8} and game["start"] == "go"
    assert ir["settings"]["money"]["notes"][0] == {"count": 2, "value": 500}
    house_cost = {"expr": "attr", "subject": {"expr": "var", "name": "here"}, "name": "house_cost"}
    assert ir["settings"]["building"]["sell_house"] == {"expr": "bin", "operator": "*", "left": house_cost,
                                                        "right": {"expr": "ratio", "num": 50, "den": 100}}
    assert ir["settings"]["jail"]["fine_timing"] == "before_roll"  # a decision is also a setting
    assert ir["settings"]["end"]["score"] == "wealth"
    assert ir["decisions"][1] == {
        "key": "jail.fine_timing", "choice": "before_roll", "options": ["before_roll", "next_turn"],
        "note": '002: "Betaler 50 dollars i bøde før rulning"', "declared_note": '§2 "jail fine"'}
    assert ir["notes"]["game.tokens"] == "assumed: 002 is silent; one token per player at most"
    assert ir["formulas"]["wealth"]["params"] == ["p"]
    assert set(ir["rent"]) == {"lot", "station", "utility"}
    assert ir["rent"]["station"] == {"expr": "index", "list": {"expr": "var", "name": "printed"},
                                     "position": {"expr": "bin", "operator": "-",
                                                  "left": {"expr": "var", "name": "owned"},
                                                  "right": {"expr": "int", "value": 1}}}
    assert ir["groups"][0] == {"key": "brown", "name": "Brown", "kind": "lot", "color": "#8b4513",
                               "house_cost": 50, "hotel_cost": 50, "squares": [1, 3]}
    assert ir["squares"][1] == {
        "index": 1, "key": "brown_1", "name": "Mediterranean Avenue", "kind": "lot",
        "deed": {"group": "brown", "price": 60, "mortgage": 30, "rent": [2, 10, 30, 90, 160, 250],
                 "house_cost": 50, "hotel_cost": 50},
        "on_land": [], "on_pass": []}
    salary = {"stmt": "transfer", "amount": {"expr": "setting", "path": "money.salary"},
              "payer": {"expr": "bank"}, "payee": {"expr": "var", "name": "me"}}
    laps = {"expr": "attr", "subject": {"expr": "var", "name": "me"}, "name": "laps"}
    counted = {"expr": "attr", "subject": {"expr": "var", "name": "me"}, "name": "salary_laps"}
    assert ir["squares"][0]["on_pass"] == [{
        "stmt": "if",
        "cond": {"expr": "bin", "operator": "==", "left": {"expr": "setting", "path": "money.salary_limit"},
                 "right": {"expr": "enum", "value": "every_pass"}},
        "then": [salary],
        "otherwise": [{"stmt": "if", "cond": {"expr": "bin", "operator": ">", "left": laps, "right": counted},
                       "then": [{"stmt": "set", "subject": {"expr": "var", "name": "me"}, "state": "salary_laps",
                                 "value": laps}, salary],
                       "otherwise": []}]}]
    chance = ir["decks"][0]
    assert chance["key"] == "chance" and chance["cards"][1]["effect"] == [{"stmt": "move_to", "square": 24}]
    assert chance["cards"][8]["effect"] == [{"stmt": "move_by", "steps": {"expr": "int", "value": -3}}]


def test_abstract_base_compiles_without_required_settings():
    """docs/language.md: an abstract edition may leave settings unset and rules undecided."""
    ir = grammar.compile_file(bundled()["classic"])
    assert ir["edition"]["abstract"] is True
    assert all(d["choice"] is None for d in ir["decisions"])
    assert "start" not in ir["settings"]["money"]
    assert ir["squares"][1]["deed"] == {"group": "brown"}


def test_child_overriding_one_price_changes_only_that():
    """docs/language.md, extending: a child setting replaces the parent's, the rest is kept."""
    parent = grammar.compile_file(bundled()["classic-us"])
    child = grammar.compile_text('edition cheap extends classic-us\n'
                                 'board { lot dark_blue_2 { price = 390 } }\n')
    assert child["squares"][39]["deed"]["price"] == 390
    assert child["squares"][39]["name"] == parent["squares"][39]["name"]
    child["squares"][39]["deed"]["price"] = parent["squares"][39]["deed"]["price"]
    assert {k: v for k, v in child.items() if k != "edition"} == {k: v for k, v in parent.items() if k != "edition"}
    assert child["edition"]["lineage"] == ["classic", "classic-us", "cheap"]


NEW_CHEST = ('edition x extends classic-us\n'
             'decide jail.fine_timing = next_turn   # assumed: as SE 001\n'
             'deck chest { card "Collect 10" { collect 10 from bank } }\n')


def test_child_may_change_a_decision_and_a_deck():
    """docs/language.md: `decide` may be given again; a deck with cards replaces the parent's
    cards, and the parent's examples that set its cards on top are not inherited."""
    ir = grammar.compile_text(NEW_CHEST)
    parent = {x["name"] for x in grammar.compile_file(bundled()["classic-us"])["examples"]}
    assert parent - {x["name"] for x in ir["examples"]} == {"chest_squares", "card_get_out_of_jail", "card_bank_pays",
                                                            "card_every_player_and_repairs", "card_advance",
                                                            "card_go_to_jail"}
    assert ir["settings"]["jail"]["fine_timing"] == "next_turn"
    assert ir["decisions"][1]["note"] == "assumed: as SE 001"
    assert [d for d in ir["decks"] if d["key"] == "chest"][0]["cards"] == [
        {"text": "Collect 10", "effect": [{"stmt": "transfer", "amount": {"expr": "int", "value": 10},
                                           "payer": {"expr": "bank"}, "payee": {"expr": "var", "name": "me"}}]}]


def test_parent_is_found_beside_the_child_first(tmp_path: Path):
    """docs/language.md: the parent is `<id>.rules` beside the child, before the bundled one."""
    us = bundled()["classic-us"].read_text(encoding="utf-8")
    (tmp_path / "classic-us.rules").write_text(us.replace('title = "Monopoly"', 'title = "Local"'), encoding="utf-8")
    (tmp_path / "child.rules").write_text("edition child extends classic-us\n", encoding="utf-8")
    assert grammar.compile_file(tmp_path / "child.rules")["edition"]["title"] == "Local"


def test_concrete_edition_missing_a_decision_is_rejected():
    """DESIGN principle 7: an undecided contested rule is rejected, pointing at the `edition` line."""
    text = "\n".join(line for line in bundled()["classic-us"].read_text(encoding="utf-8").splitlines()
                     if not line.startswith("decide jail.fine_timing"))
    with pytest.raises(SpecError) as caught:
        grammar.compile_text(text, "my.rules")
    [diagnostic] = caught.value.diagnostics
    assert diagnostic.code == "E401" and diagnostic.line == 5
    assert "decide jail.fine_timing = before_roll" in diagnostic.hint


def test_grammar_holds_no_edition_facts():
    """DESIGN principle 1: the compiler holds mechanisms only, no edition names or amounts."""
    names = set()
    for path in bundled().values():
        names |= set(re.findall(r'"([A-Z][^"]{3,})"', path.read_text(encoding="utf-8")))
        names |= set(re.findall(r"^\s*(?:lot|station|utility|square)\s+([a-z_0-9]+)", path.read_text(encoding="utf-8"),
                                re.M))
    names -= {"go", "jail", "go_to_jail"}  # also words of the language: `go to jail`, its IR statement
    for path in [*(ROOT / "grammar").glob("*.py"), *(ROOT / "grammar").glob("*.lark")]:
        text = path.read_text(encoding="utf-8")
        for number in ("32", "12", "1500", "200", "30000", "4000", "1000"):
            assert not re.search(rf"(?<![\w.]){number}(?![\w.])", text), (path.name, number)
        for name in names:
            assert not re.search(rf"\b{re.escape(name)}\b", text), (path.name, name)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('edition xtends classic-us{}[]()="#.,:|+-*/<>!%0123456789 \n'
                                            'abcdjlmnoprwyçÅ\t\\')), max_size=120))
def test_no_input_text_gives_a_traceback(text: str):
    """DESIGN principle 8: whatever the text, the compiler returns an IR or raises SpecError."""
    try:
        grammar.compile_text(text)
    except SpecError as error:
        assert all(d.code != "E900" for d in error.diagnostics), error.render()


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_no_mutation_of_a_real_spec_gives_a_traceback(data):
    """DESIGN principle 8: a real spec with a slice deleted or duplicated fails cleanly."""
    text = bundled()["classic-us"].read_text(encoding="utf-8")
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, min(len(text), start + 40)))
    mutated = data.draw(st.sampled_from([text[:start] + text[end:], text[:end] + text[start:]]))
    try:
        grammar.compile_text(mutated)
    except SpecError as error:
        assert all(d.code != "E900" for d in error.diagnostics), error.render()
