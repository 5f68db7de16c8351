"""The IR's JSON Schema and the validator the compiler checks every IR with.

The schema (`ir.schema.json`) follows the standard draft of 2020, so any JSON Schema tool can check
an IR file. The expression and statement nodes are tagged unions written the standard way,
as an `anyOf` whose branches each pin the tag with a `const` (`{"properties": {"k":
{"const": "bin"}}, "required": [...]}`). A stock validator tries the branches in turn and
builds an error for every branch that fails, which was most of an edition's compile time.
Our validator reads such an `anyOf` as the tagged union it is: it checks only the branch
whose tag the node carries. A node whose tag matches no branch fails every branch, so the
verdict is the stock one; only the work differs. Likewise a `$ref` to one of the
schema's own `$defs` is looked up once, not resolved anew at every node.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from jsonschema import Draft202012Validator, ValidationError, validators

SCHEMA = Path(__file__).with_name("ir.schema.json")
_any_of, _ref = Draft202012Validator.VALIDATORS["anyOf"], Draft202012Validator.VALIDATORS["$ref"]


def first_problem(ir: dict) -> ValidationError | None:
    """The first place where `ir` breaks the schema, or None."""
    return next(iter(_validator().iter_errors(ir)), None)


@cache
def _validator():
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    definitions = {f"#/$defs/{name}": rule for name, rule in schema.get("$defs", {}).items()}

    def local_ref(validator, ref: str, instance, here):
        rule = definitions.get(ref)
        if rule is None:
            yield from _ref(validator, ref, instance, here)
        else:
            yield from validator.descend(instance, rule)

    tagged = validators.extend(Draft202012Validator, {"anyOf": _tagged_any_of, "$ref": local_ref})
    return tagged(schema)


def _tagged_any_of(validator, branches: list, instance, schema):
    union = _union(id(branches), branches)
    if union is None or not isinstance(instance, dict):
        yield from _any_of(validator, branches, instance, schema)
        return
    tag, by_value = union
    index = by_value.get(instance.get(tag)) if isinstance(instance.get(tag), str) else None
    if index is None:
        yield ValidationError(f"{instance!r} is not valid under any of the given schemas")
        return
    errors = list(validator.descend(instance, branches[index], schema_path=index))
    if errors:
        yield ValidationError(f"{instance!r} is not valid under any of the given schemas", context=errors)


_UNIONS: dict[int, tuple[str, dict[str, int]] | None] = {}


def _union(key: int, branches: list) -> tuple[str, dict[str, int]] | None:
    """(tag, {tag value: branch index}) when every branch pins one and the same property
    to a distinct string `const`; None for any other `anyOf`. Keyed by the list's identity:
    the schema is loaded once and never changes."""
    if key not in _UNIONS:
        _UNIONS[key] = _read_union(branches)
    return _UNIONS[key]


def _read_union(branches: list) -> tuple[str, dict[str, int]] | None:
    tags, by_value = set(), {}
    for index, branch in enumerate(branches):
        pinned = [(name, rule["const"]) for name, rule in branch.get("properties", {}).items()
                  if isinstance(rule, dict) and isinstance(rule.get("const"), str)]
        if len(pinned) != 1 or pinned[0][0] not in branch.get("required", ()):
            return None
        tag, value = pinned[0]
        if value in by_value:
            return None
        tags.add(tag)
        by_value[value] = index
    return (tags.pop(), by_value) if len(tags) == 1 else None
