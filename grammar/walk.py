"""The IR's rules as a stream of nodes, for a reader that asks what the rules do or read
(verifier/symbolic/state.py: does any rule say `end game`, read `turn`?) by looking at the
nodes, never by searching the IR's JSON text, where a name could match anything."""
from __future__ import annotations

from typing import Iterator


def rule_nodes(ir: dict) -> Iterator[dict]:
    """Every expression and statement node of the edition's rules (docs/ir.md), inner nodes
    included, in the IR's order. The worked examples are left out: they are not rules,
    and what an expectation reads must not change what the rules are taken to read."""
    for root in _roots(ir):
        yield from nodes_in(root)


def _roots(ir: dict) -> Iterator[dict | list | None]:
    """The places where the IR holds rules: the outermost expression or statement list of
    each. Maps keyed by the spec's own names (formulas, procedures) are entered by key, so a
    formula named `expr` is never taken for a node."""
    for section in ir.get("settings", {}).values():
        yield from (value for value in section.values() if isinstance(value, dict) and "expr" in value)
    yield from (formula["body"] for formula in ir.get("formulas", {}).values())
    yield from (procedure["body"] for procedure in ir.get("procedures", {}).values())
    yield from (item["body"] for key in ("invariants", "steps", "statistics") for item in ir.get(key, []))
    yield from ir.get("rent", {}).values()
    for square in ir.get("squares", []):
        yield square["on_land"]
        yield square["on_pass"]
    yield from (card["effect"] for deck in ir.get("decks", []) for card in deck["cards"])
    for hook in ir.get("hooks", []):
        yield hook["cond"]
        yield hook["body"]
    yield ir.get("setup", [])
    for action in ir.get("actions", []):
        yield from (action["over"], action["allowed"], action["required"], action["effect"])


def nodes_in(part: object) -> Iterator[dict]:
    """The nodes in `part` (a node, a list of statements, a `choose` option, or None): inside
    a node every key is the IR's own, so each dict below it is a node or an option."""
    if isinstance(part, list):
        for item in part:
            yield from nodes_in(item)
    elif isinstance(part, dict):
        if "expr" in part or "stmt" in part:
            yield part
        for value in part.values():
            if isinstance(value, (dict, list)):
                yield from nodes_in(value)
