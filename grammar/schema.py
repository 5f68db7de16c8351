"""The IR's JSON Schema and the validator the compiler checks every IR with.

The schema (`ir.schema.json`) follows the standard draft of 2020, so any JSON Schema tool can check
an IR file. The compiler checks with `jsonschema-rs`, a compiled validator: it gives the
standard verdict in well under a millisecond, where a pure-Python validator took close to
half of an edition's compile time. The test suite checks its verdicts against the
reference Python implementation (tests/grammar/test_schema.py).
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import jsonschema_rs

SCHEMA = Path(__file__).with_name("ir.schema.json")


def first_problem(ir: dict) -> jsonschema_rs.ValidationError | None:
    """The first place where `ir` breaks the schema, or None."""
    return next(_validator().iter_errors(ir), None)


@cache
def _validator() -> jsonschema_rs.Draft202012Validator:
    return jsonschema_rs.Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))
