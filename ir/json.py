"""Between the IR's JSON form and its typed form: `load` and `dump`.

Both walk the classes' type hints rather than a hand-written function per class, so a
field added to a class is read and written with no other change, and the JSON keys are
the field names by construction. `dump(load(doc)) == doc` for every IR the compiler
writes (tests/ir/test_model.py). `load` takes nothing it does not know: an unknown key,
tag or value type raises `IRError` naming where, e.g.
`squares[3].on_land[0].amount: unknown expression 'foo'`.
"""
from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Mapping
from typing import Any, Literal, get_args, get_origin, get_type_hints

from ir.examples import Step
from ir.nodes import Expr, Stmt
from ir.ruleset import Note, Ruleset, SettingValue, Span

IR_VERSION = 2
"""The version of the IR this model reads and writes (`ir_version`)."""

FAMILIES: tuple[tuple[str, Any, str], ...] = (
    ("expr", Expr, "expression"),
    ("stmt", Stmt, "statement"),
    ("step", Step, "example step"),
)
"""The tagged unions: the key holding the tag, the union, and what to call one in errors."""

_TAG_KEY: dict[type, str] = {cls: key for key, union, _ in FAMILIES for cls in get_args(union)}
_TAG: dict[type, str] = {cls: cls.TAG for _, union, _ in FAMILIES for cls in get_args(union)}


class IRError(ValueError):
    """A dict that is not an IR of this model; the message starts with the path to the fault."""


def load(doc: Mapping[str, Any]) -> Ruleset:
    """The typed form of an IR document (what `grammar.compile_file` returns)."""
    version = doc.get("ir_version") if isinstance(doc, Mapping) else None
    if version != IR_VERSION:
        raise IRError(f"ir_version: this model reads IR version {IR_VERSION}, not {version!r}")
    ruleset = _load(Ruleset, doc, "")
    assert isinstance(ruleset, Ruleset)
    return ruleset


def dump(ruleset: Ruleset) -> dict[str, Any]:
    """The JSON form of a ruleset: plain dicts, lists, strings, ints, bools and None."""
    doc = _dump(ruleset)
    assert isinstance(doc, dict)
    return doc


# ---- load ------------------------------------------------------------------------------

def _load(kind: Any, data: Any, path: str) -> Any:
    """`data` read as the type `kind` (a class, a union, a tuple, a mapping or a literal)."""
    origin = get_origin(kind)
    if kind in (int, str, bool):
        if type(data) is not kind:
            raise IRError(f"{_where(path)}: expected {_NAMES[kind]}, got {_describe(data)}")
        return data
    if origin is Literal:
        if not isinstance(data, str) or data not in get_args(kind):
            raise IRError(f"{_where(path)}: {_describe(data)} is not one of {', '.join(get_args(kind))}")
        return data
    if origin in (typing.Union, types.UnionType):
        return _union(frozenset(get_args(kind)), data, path)
    if isinstance(kind, type) and issubclass(kind, tuple):
        return _named(kind, data, path)
    if origin is tuple:
        return _tuple(kind, data, path)
    if origin is Mapping:
        if not isinstance(data, dict):
            raise IRError(f"{_where(path)}: expected an object, got {_describe(data)}")
        return {key: _load(get_args(kind)[1], value, _key(path, key)) for key, value in data.items()}
    if dataclasses.is_dataclass(kind):
        return _object(kind, data, path)
    raise TypeError(f"ir.json cannot read the type {kind!r} (at {_where(path)})")


def _union(members: frozenset[Any], data: Any, path: str) -> Any:
    """A value of a union: `X | None`, a tagged family or a setting's value."""
    if type(None) in members:
        if data is None:
            return None
        members -= {type(None)}
    if len(members) == 1:
        return _load(next(iter(members)), data, path)
    for key, union, noun in FAMILIES:
        if members == frozenset(get_args(union)):
            return _tagged(key, union, noun, data, path)
    if members == frozenset(get_args(SettingValue)):
        return _setting(data, path)
    raise TypeError(f"ir.json cannot read the union {members!r} (at {_where(path)})")


def _tagged(key: str, union: Any, noun: str, data: Any, path: str) -> Any:
    """A node of a tagged family, by the class its tag names."""
    if not isinstance(data, dict) or key not in data:
        raise IRError(f"{_where(path)}: expected {_a(noun)} (an object with {key!r}), got {_describe(data)}")
    cls = _classes(key, union).get(data[key])
    if cls is None:
        raise IRError(f"{_where(path)}: unknown {noun} {data[key]!r}")
    return _object(cls, data, path, key)


@functools.cache
def _classes(key: str, union: Any) -> dict[object, type]:
    """The classes of a tagged family by tag."""
    return {cls.TAG: cls for cls in get_args(union)}


def _setting(data: Any, path: str) -> Any:
    """A setting's value (`SettingValue`), told apart by its JSON shape."""
    if type(data) in (int, bool, str):
        return data
    if isinstance(data, list):
        if all(type(item) is int for item in data):
            return tuple(data)
        return _load(tuple[Note, ...], data, path)
    if isinstance(data, dict):
        if "expr" in data:
            return _load(Expr, data, path)
        if "min" in data:
            return _load(Span, data, path)
    raise IRError(f"{_where(path)}: {_describe(data)} is not a setting's value")


def _tuple(kind: Any, data: Any, path: str) -> tuple[Any, ...]:
    """A list of any length, as a tuple."""
    if not isinstance(data, list):
        raise IRError(f"{_where(path)}: expected a list, got {_describe(data)}")
    item = get_args(kind)[0]
    return tuple(_load(item, value, f"{path}[{i}]") for i, value in enumerate(data))


def _named(kind: Any, data: Any, path: str) -> tuple[Any, ...]:
    """A NamedTuple (a position, a source span) from its JSON list."""
    hints = _hints(kind)
    if not isinstance(data, list) or len(data) != len(kind._fields):
        raise IRError(f"{_where(path)}: expected a list of {len(kind._fields)} ({', '.join(kind._fields)}), "
                      f"got {_describe(data)}")
    fields = enumerate(zip(kind._fields, data, strict=True))
    values = (_load(hints[name], value, f"{path}[{i}]") for i, (name, value) in fields)
    return typing.cast(tuple[Any, ...], kind(*values))


def _object(cls: Any, data: Any, path: str, tag_key: str | None = None) -> Any:
    """A dataclass from a JSON object: every key a field, every field without a default given."""
    if not isinstance(data, dict):
        raise IRError(f"{_where(path)}: expected an object, got {_describe(data)}")
    hints = _hints(cls)
    fields = dataclasses.fields(cls)
    known = {field.name for field in fields}
    for key in data:
        if key != tag_key and key not in known:
            raise IRError(f"{_where(_key(path, key))}: unknown key {key!r} of {_noun(cls)}")
    values = {}
    for field in fields:
        if field.name in data:
            values[field.name] = _load(hints[field.name], data[field.name], _key(path, field.name))
        elif field.default is dataclasses.MISSING:
            raise IRError(f"{_where(path)}: {_noun(cls)} lacks the key {field.name!r}")
    return cls(**values)


@functools.cache
def _hints(cls: Any) -> dict[str, Any]:
    """A class's fields' types, the annotations resolved once."""
    return get_type_hints(cls)


_NAMES = {int: "an integer", str: "a string", bool: "true or false"}


def _noun(cls: type) -> str:
    """What to call an instance of `cls` in an error: `a transfer statement`, `a Square`."""
    tag = getattr(cls, "TAG", None)
    if tag is None:
        return f"a {cls.__name__}"
    noun = {key: noun for key, _, noun in FAMILIES}[_TAG_KEY[cls]]
    return _a(f"{tag!r} {noun}")


def _a(noun: str) -> str:
    """`noun` with its article: `an expression`, `a 'set' statement`."""
    return f"{'an' if noun.lstrip(chr(39))[0] in 'aeiou' else 'a'} {noun}"


def _describe(data: Any) -> str:
    """A short account of a JSON value for an error message."""
    if data is None:
        return "null"
    if isinstance(data, (dict, list)):
        return {dict: "an object", list: "a list"}[type(data)]
    return repr(data)


def _key(path: str, key: str) -> str:
    """The path one key further: `.name` for a plain name, `['jail.fine']` otherwise."""
    if key.isidentifier():
        return f"{path}.{key}" if path else key
    return f"{path}[{key!r}]"


def _where(path: str) -> str:
    return path or "the IR"


# ---- dump ------------------------------------------------------------------------------

def _dump(value: Any) -> Any:
    """The JSON form of a typed value; an optional field left `None` is left out."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        tag_key = _TAG_KEY.get(type(value))
        if tag_key is not None:
            out[tag_key] = _TAG[type(value)]
        for field in dataclasses.fields(value):
            item = getattr(value, field.name)
            if item is None and field.default is None:
                continue
            out[field.name] = _dump(item)
        return out
    if isinstance(value, tuple):
        return [_dump(item) for item in value]
    if isinstance(value, Mapping):
        return {key: _dump(item) for key, item in value.items()}
    return value
