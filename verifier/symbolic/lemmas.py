"""The verifier's lemmas: facts of the engine's mechanics (not of an edition) that the
preservation proofs assume beside an edition's invariants, each proved in a row of its own
(so a proof never rests on something unproved: `prove.joint`).

Their bodies are built here from IR expression nodes (docs/ir.md), the form the encoder
reads; each lemma's text says it in words and a comment above its body in the language.
They are the verifier's, not an edition's, so the spec compiler never sees them.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

Node = dict[str, Any]
"""An IR expression in its JSON form (docs/ir.md), as the encoder reads it."""


def _number(value: int) -> Node:
    return {"expr": "int", "value": value}


def _setting(path: str) -> Node:
    """A `section.key` setting; every playable edition has the building section's keys
    (grammar/language.py requires them)."""
    return {"expr": "setting", "path": path}


def _bank() -> Node:
    return {"expr": "bank"}


def _deed(attribute: str) -> Node:
    """`d.attribute`: of the deed `d` the lemma ranges over (`_every_deed`)."""
    return {"expr": "attr", "subject": {"expr": "var", "name": "d"}, "name": attribute}


def _binary(left: Node, operator: str, right: Node) -> Node:
    """A comparison, or `and`/`or` of two conditions."""
    return {"expr": "bin", "operator": operator, "left": left, "right": right}


def _both(first: Node, *more: Node) -> Node:
    """`first and ... and last`, grouped from the left as the language groups it."""
    for condition in more:
        first = _binary(first, "and", condition)
    return first


def _either(first: Node, *more: Node) -> Node:
    """`first or ... or last`, grouped from the left."""
    for condition in more:
        first = _binary(first, "or", condition)
    return first


def _not(condition: Node) -> Node:
    return {"expr": "not", "operand": condition}


def _every_deed(condition: Node) -> Node:
    """`all(d in deeds: condition)`."""
    return {"expr": "agg", "function": "all", "var": "d", "over": {"expr": "var", "name": "deeds"},
            "body": condition}


def _building_levels() -> Node:
    """all(d in deeds: 0 <= d.houses and d.houses <= building.max_houses and 0 <= d.hotels
    and d.hotels <= building.hotels_per_lot and (d.hotels == 0 or d.houses == 0))"""
    return _every_deed(_both(
        _binary(_number(0), "<=", _deed("houses")),
        _binary(_deed("houses"), "<=", _setting("building.max_houses")),
        _binary(_number(0), "<=", _deed("hotels")),
        _binary(_deed("hotels"), "<=", _setting("building.hotels_per_lot")),
        _either(_binary(_deed("hotels"), "==", _number(0)), _binary(_deed("houses"), "==", _number(0)))))


def _bank_holds_unbuilt() -> Node:
    """all(d in deeds: not (d.owner == bank) or (d.houses == 0 and d.hotels == 0 and not d.mortgaged))"""
    return _every_deed(_either(
        _not(_binary(_deed("owner"), "==", _bank())),
        _both(_binary(_deed("houses"), "==", _number(0)), _binary(_deed("hotels"), "==", _number(0)),
              _not(_deed("mortgaged")))))


# Facts the verifier proves alongside the library, to strengthen it (each gets its own row
# in the table, so a strengthening never rests on something unproved): name, text, body.
LEMMAS: list[tuple[str, str, Callable[[], Node]]] = [
    ("building_levels", "a lot holds 0..max_houses houses or one hotel and no houses; other deeds none",
     _building_levels),
    ("bank_holds_unbuilt", "a deed the bank holds is unbuilt and unmortgaged", _bank_holds_unbuilt),
]


def lemmas() -> list[dict[str, Any]]:
    """The lemmas as invariants of the IR (`origin` verifier), their bodies built afresh."""
    return [{"name": name, "text": text, "body": body(), "origin": "verifier"} for name, text, body in LEMMAS]


def facts(ir: dict[str, Any]) -> list[dict[str, Any]]:
    """What a proof may assume before a step: the edition's invariants (the built-in library
    and its own, in its IR) and the lemmas."""
    return ir["invariants"] + lemmas()
