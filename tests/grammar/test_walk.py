"""grammar/walk.py: the rules' expression and statement nodes, walked, tell what the IR's
JSON text told when verifier/symbolic/state.py searched it (`'"name": "over"' in text`,
`'"end_game"' in text`), on every bundled edition and every variant laid on each edition
it fits."""
from __future__ import annotations

import json
import re

import pytest

import grammar
from grammar.walk import rule_nodes
from spec import bundled, bundled_variants


def _bundled_irs():
    for edition, path in bundled().items():
        ir = grammar.compile_file(path)
        yield edition, ir
        if ir["edition"]["abstract"]:
            continue
        for variant, overlay in bundled_variants().items():
            try:
                yield f"{edition}+{variant}", grammar.compile_file(path, [overlay])
            except grammar.SpecError:
                continue        # a variant for another family


IRS = dict(_bundled_irs())


def _rules_text(ir: dict) -> str:
    """The old search's text: the IR without its worked examples."""
    return json.dumps({key: part for key, part in ir.items() if key != "examples"})


def _defined(ir: dict) -> set[str]:
    """The names the IR gives its definitions (states, invariants, step properties, statistics, squares,
    groups, decks, pots, areas), which the text search also matched."""
    things = [*ir.get("state", []), *ir.get("invariants", []), *ir.get("steps", []), *ir.get("statistics", []),
              *ir["squares"],
              *ir["groups"], *ir["decks"], *ir.get("pots", []), *ir.get("areas", [])]
    return {thing["name"] for thing in things if thing["name"] is not None}


@pytest.mark.parametrize("name", IRS)
def test_the_walk_finds_the_names_the_text_search_found(name):
    ir = IRS[name]
    text = _rules_text(ir)
    nodes = list(rule_nodes(ir))
    # every node of the rules, none twice: as many as the text has node tags
    assert len(nodes) == len({id(node) for node in nodes}) == text.count('{"expr": ') + text.count('{"stmt": ')
    read = {node["name"] for node in nodes if "name" in node}
    searched = {json.loads(f'"{found}"') for found in re.findall(r'"name": "((?:[^"\\]|\\.)*)"', text)}
    assert read <= searched and searched - read <= _defined(ir), searched - read - _defined(ir)
    for asked in ("turn", "doubles", "over"):          # what verifier/symbolic asks
        assert (asked in read) == (f'"name": "{asked}"' in text), asked
    assert any(node.get("stmt") == "end_game" for node in nodes) == ('"end_game"' in text)


def test_the_walk_leaves_out_the_examples():
    """What an expectation reads is not read by the rules (verifier/symbolic/state.py)."""
    ir = next(ir for ir in IRS.values() if ir.get("examples"))
    assert not any(node is expect["body"] for example in ir["examples"] for expect in example["expect"]
                   for node in rule_nodes(ir))
