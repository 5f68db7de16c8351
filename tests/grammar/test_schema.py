"""The compiler's schema validator (grammar/schema.py, the compiled `jsonschema-rs`) must give
the reference draft 2020-12 verdict (Python `jsonschema`) on every IR: the bundled editions, and
the same IRs corrupted at random places (a key dropped, a value replaced, a tag changed,
an unknown key added). And the schema names every key of the IR by a readable word."""
from __future__ import annotations

import copy
import json
import keyword
import random

import pytest
from jsonschema import Draft202012Validator

import grammar
from grammar.schema import SCHEMA, first_problem
from spec import bundled

STOCK = Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))
IRS = [grammar.compile_file(path) for path in bundled().values()]


def _places(node, path=()):
    if path:
        yield path
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in children:
        yield from _places(child, path + (key,))


def _corrupt(ir: dict, rng: random.Random) -> dict:
    ir = copy.deepcopy(ir)
    *parents, last = rng.choice(list(_places(ir)))
    holder = ir
    for key in parents:
        holder = holder[key]
    how = rng.randrange(4)
    if how == 0 and isinstance(holder, dict):
        del holder[last]
    elif how == 1:
        holder[last] = rng.choice([None, 5, "bin", True, [], {}, {"expr": "int"}, {"stmt": "set"}, {"expr": "nope"}])
    elif how == 2 and isinstance(holder[last], dict):
        holder[last]["unknown_key"] = 1
    elif isinstance(holder[last], str):
        holder[last] = rng.choice(["int", "var", "bin", "transfer", "move_to", "nope"])
    return ir


def test_bundled_editions_are_valid():
    assert all(first_problem(ir) is None and STOCK.is_valid(ir) for ir in IRS)


@pytest.mark.parametrize("seed", range(4))
def test_same_verdict_as_the_stock_validator_on_corrupted_irs(seed):
    rng = random.Random(seed)
    broken = 0
    for _ in range(150):
        ir = _corrupt(rng.choice(IRS), rng)
        assert (first_problem(ir) is None) == STOCK.is_valid(ir)
        broken += first_problem(ir) is not None
    assert broken > 50  # the corruptions really break IRs, so both verdicts are exercised


def property_names(schema) -> set[str]:
    """Every property name a JSON Schema declares: the keys of each `properties` object, at
    any depth (the top-level objects, `$defs/expr` and `$defs/stmt` and their kinds)."""
    names: set[str] = set()
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "properties" and isinstance(value, dict):
                names |= set(value)
            names |= property_names(value)
    elif isinstance(schema, list):
        for value in schema:
            names |= property_names(value)
    return names


def unreadable(names: set[str]) -> list[str]:
    """The names a typed IR could not give its fields: shorter than three letters, not an
    identifier, or a Python keyword (`if`, `else`, `from`)."""
    return sorted(name for name in names if len(name) < 3 or not name.isidentifier() or keyword.iskeyword(name))


def test_every_ir_key_is_a_readable_name():
    """docs/ir.md (issue 23): every key of the IR is a word of three letters or more, a Python
    identifier and not a Python keyword, so the typed IR's fields carry the keys' names."""
    names = property_names(json.loads(SCHEMA.read_text(encoding="utf-8")))
    assert {"expr", "stmt", "key", "written_at", "operand", "otherwise"} <= names
    assert unreadable(names) == []


def test_the_key_check_finds_one_letter_keys():
    """The check above fails on the version-1 keys (`k`, `v`, `else`, `from`, ...)."""
    old = {"properties": {"ir_version": {"const": 1}},
           "$defs": {"expr": {"properties": {"k": {}, "v": {}, "op": {}}},
                     "stmt": {"anyOf": [{"properties": {"do": {}, "else": {}, "from": {}, "on-land": {}}}]}}}
    assert unreadable(property_names(old)) == ["do", "else", "from", "k", "on-land", "op", "v"]
