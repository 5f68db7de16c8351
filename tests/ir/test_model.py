"""The typed IR (ir/, issue 23): it holds every IR the compiler writes, it says what the
JSON Schema says, and it refuses what it does not know with the path to the fault."""
from __future__ import annotations

import copy
import dataclasses
import json
import subprocess
import sys
import types
import typing
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Literal, get_args, get_origin, get_type_hints

import pytest

import grammar
import ir
import spec
from ir.json import FAMILIES
from ir.nodes import Bank, Expr, Int, Transfer, Var
from ir.ruleset import Note, Ruleset, SettingValue, Span

REPO = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((REPO / "grammar" / "ir.schema.json").read_text(encoding="utf-8"))
BROKEN = sorted((REPO / "tests" / "verifier" / "broken").glob("*.rules"))
SPECS = [*spec.bundled().values(), *BROKEN]


# ---- 1. every IR the compiler writes, there and back -------------------------------------

def _irs(path: Path) -> Iterator[tuple[str, dict]]:
    """The IR of a spec, then (for a concrete edition) with each bundled variant that fits it."""
    doc = grammar.compile_file(path)
    yield path.stem, doc
    if doc["edition"]["abstract"] or path in BROKEN:
        return
    for variant, variant_path in spec.bundled_variants().items():
        try:
            yield f"{path.stem} --variant {variant}", grammar.compile_file(path, [variant_path])
        except grammar.SpecError:
            continue        # a variant for another family


@pytest.mark.parametrize("path", SPECS, ids=lambda path: path.stem)
def test_dump_of_load_is_the_ir(path):
    """Every bundled edition and variant and every broken edition of the verifier's corpus:
    the typed form holds the whole IR, so writing it back gives the same JSON."""
    for name, doc in _irs(path):
        ruleset = ir.load(doc)
        assert isinstance(ruleset, Ruleset)
        assert ir.dump(ruleset) == doc, name


def test_the_typed_form_reads_in_the_games_words():
    """A square's rule is a tuple of statement objects with named fields, not dicts."""
    ruleset = ir.load(grammar.compile_file(spec.bundled()["classic-us"]))
    luxury_tax = next(square for square in ruleset.squares if square.key == "luxury_tax")
    transfer = luxury_tax.on_land[0]
    assert isinstance(transfer, Transfer)
    assert transfer.payer == Var("me") and transfer.payee == Bank()
    assert transfer.amount == Int(75)
    assert ruleset.settings.money["salary"] == 200


@pytest.mark.parametrize("edition", ["classic-us", "metropol-da"])
def test_sections_and_rents_come_in_the_irs_order(edition):
    """The rulebook lists settings and rent formulas in the IR's order: `Settings.sections`
    and `Rent.formulas` give them so, and leave out a rent the IR does not give (metropol
    has no utilities)."""
    doc = grammar.compile_file(spec.bundled()[edition])
    ruleset = ir.load(doc)
    sections = ruleset.settings.sections()
    assert list(sections) == list(doc["settings"])
    assert sections["jail"] is ruleset.settings.jail
    formulas = ruleset.rent.formulas()
    assert formulas == {kind: getattr(ruleset.rent, kind) for kind in doc["rent"]}
    assert list(formulas) == list(doc["rent"])


# ---- 2. the model and the JSON Schema agree ----------------------------------------------

def disagreements(schema: dict) -> list[str]:
    """Every place where a class's fields (or which are required) differ from the schema's
    object there, walking the model from `Ruleset` and the schema from its root in step."""
    found: list[str] = []
    if schema["properties"]["ir_version"]["const"] != ir.IR_VERSION:
        found.append(f"ir_version: the schema's {schema['properties']['ir_version']['const']}, "
                     f"the model's {ir.IR_VERSION}")
    _Walk(schema, found).object(Ruleset, schema, "the IR")
    return found


def _fields(cls: Any) -> tuple[set[str], set[str]]:
    """A class's fields, and those without a default (the required keys)."""
    fields = dataclasses.fields(cls)
    return ({field.name for field in fields},
            {field.name for field in fields if field.default is dataclasses.MISSING})


class _Walk:
    """The model and the schema side by side; each tagged family is checked once."""

    def __init__(self, schema: dict, found: list[str]) -> None:
        self.schema, self.found, self.seen = schema, found, set[str]()

    def resolve(self, node: dict) -> dict:
        while "$ref" in node:
            node = self.schema["$defs"][node["$ref"].rsplit("/", 1)[-1]]
        return node

    def value(self, kind: Any, node: dict, where: str) -> None:
        """Follow a field's type into the schema node that describes it."""
        origin = get_origin(kind)
        if origin in (typing.Union, types.UnionType):
            members = set(get_args(kind)) - {type(None)}
            for key, union, _ in FAMILIES:
                if members == set(get_args(union)):
                    return self.family(key, union, self.nonnull(node))
            if members == set(get_args(SettingValue)):
                return self.setting(self.nonnull(node), where)
            if len(members) == 1:
                return self.value(members.pop(), self.nonnull(node), where)
        if origin is tuple and get_args(kind)[1:] == (Ellipsis,):
            return self.value(get_args(kind)[0], node.get("items", {}), f"{where}[]")
        if origin is Mapping:
            return self.value(get_args(kind)[1], node.get("additionalProperties", {}), f"{where}{{}}")
        if dataclasses.is_dataclass(kind):
            return self.object(kind, node, where)
        if origin is Literal:
            enums = [node.get("enum"), *(option.get("enum") for option in node.get("anyOf", ()))]
            return self.compare(where, "the values", set(get_args(kind)), set(next(filter(None, enums), ())))
        if isinstance(kind, type) and issubclass(kind, tuple):      # a NamedTuple, a JSON list
            length = len(node.get("prefixItems", ())) or node.get("maxItems")
            if len(kind._fields) != length:
                self.found.append(f"{where}: {kind.__name__} has {len(kind._fields)} items, the schema {length}")

    def nonnull(self, node: dict) -> dict:
        """The schema of a value that is not null: the one non-null option of `oneOf`."""
        options = [option for option in node.get("oneOf", node.get("anyOf", ())) if option.get("type") != "null"]
        return options[0] if len(options) == 1 and "properties" not in node else node

    def object(self, cls: Any, node: dict, where: str) -> None:
        """A dataclass against an object schema: the same fields, the same required ones."""
        node = self.resolve(node)
        fields, required = _fields(cls)
        properties = set(node.get("properties", ()))
        self.compare(where, f"{cls.__name__}'s fields", fields, properties)
        self.compare(where, f"{cls.__name__}'s required fields", required, set(node.get("required", ())))
        hints = get_type_hints(cls)
        for name in sorted(fields & properties):
            self.value(hints[name], node["properties"][name], f"{where}.{name}")

    def family(self, key: str, union: Any, node: dict) -> None:
        """A tagged union against its schema: one class per tag, each tag's required keys a
        class's required fields, and the union of the classes' fields the schema's keys."""
        node = self.resolve(node)
        if key in self.seen:
            return
        self.seen.add(key)
        classes = {cls.TAG: cls for cls in get_args(union)}
        shared = set(node["properties"]) - {key}
        self.compare(key, "the tags", set(classes), set(node["properties"][key]["enum"]))
        branches = {branch["properties"][key]["const"]: set(branch["required"]) - {key}
                    for branch in node.get("anyOf", ())}
        everyone = set(node.get("required", ())) - {key}
        union_of_fields: set[str] = set()
        for tag, cls in classes.items():
            fields, required = _fields(cls)
            union_of_fields |= fields
            if branches:
                self.compare(f"{key} {tag!r}", f"{cls.__name__}'s required fields", required, branches.get(tag, set()))
            elif not everyone <= required:
                self.found.append(f"{key} {tag!r}: {cls.__name__} does not require {sorted(everyone - required)}")
            if fields - shared:
                self.found.append(f"{key} {tag!r}: {cls.__name__}'s fields {sorted(fields - shared)} "
                                  "are not in the schema")
            hints = get_type_hints(cls)
            for name in sorted(fields & shared):
                self.value(hints[name], node["properties"][name], f"{key} {tag!r}.{name}")
        if shared - union_of_fields:
            self.found.append(f"{key}: the schema's keys {sorted(shared - union_of_fields)} are in no class")

    def setting(self, node: dict, where: str) -> None:
        """A setting's value: each object shape the schema allows is one of the model's classes."""
        shapes = [option["items"] if option.get("type") == "array" else option
                  for option in node["anyOf"] if "properties" in option or "properties" in option.get("items", {})]
        classes = [Span, Note]
        for shape in shapes:
            match = [cls for cls in classes if _fields(cls)[0] == set(shape["properties"])]
            if not match:
                self.found.append(f"{where}: the schema's setting object {sorted(shape['properties'])} is no class")
            for cls in match:
                self.object(cls, shape, f"{where} {cls.__name__}")
                classes.remove(cls)
        for cls in classes:
            self.found.append(f"{where}: {cls.__name__} is no setting object of the schema")
        self.family("expr", Expr, {"$ref": "#/$defs/expr"})

    def compare(self, where: str, what: str, model: set[str], schema: set[str]) -> None:
        if model != schema:
            self.found.append(f"{where}: {what} differ: only in the model {sorted(model - schema)}, "
                              f"only in the schema {sorted(schema - model)}")


def test_the_model_and_the_schema_agree():
    """Every class has exactly the keys its schema object allows, and requires the ones it
    requires; every expression, statement and step tag is a class."""
    assert disagreements(SCHEMA) == []


def test_a_key_on_one_side_only_is_a_disagreement():
    """The check above can fail: a key the schema gains (in an object, in a statement), a key
    it drops, a step tag and an option of a closed set it gains are each reported."""
    schema = copy.deepcopy(SCHEMA)
    schema["properties"]["box"]["properties"]["meeples"] = {"type": "array"}
    schema["$defs"]["stmt"]["properties"]["speed"] = {"type": "integer"}
    del schema["properties"]["squares"]["items"]["properties"]["across"]
    steps = schema["properties"]["examples"]["items"]["properties"]["steps"]["items"]
    steps["properties"]["step"]["enum"].append("auction")
    schema["properties"]["groups"]["items"]["properties"]["kind"]["enum"].append("castle")
    found = "\n".join(disagreements(schema))
    assert "Box's fields differ: only in the model [], only in the schema ['meeples']" in found
    assert "the schema's keys ['speed'] are in no class" in found
    assert "Square's fields differ: only in the model ['across'], only in the schema []" in found
    assert "step: the tags differ: only in the model [], only in the schema ['auction']" in found
    assert "the IR.groups[].kind: the values differ: only in the model [], only in the schema ['castle']" in found


# ---- 3. what load refuses --------------------------------------------------------------

@pytest.fixture(scope="module")
def classic_us() -> dict:
    return grammar.compile_file(spec.bundled()["classic-us"])


def _square(doc: dict, key: str) -> int:
    return next(i for i, square in enumerate(doc["squares"]) if square["key"] == key)


def test_an_unknown_expression_is_refused_with_its_path(classic_us):
    doc = copy.deepcopy(classic_us)
    at = _square(doc, "luxury_tax")
    doc["squares"][at]["on_land"][0]["amount"] = {"expr": "foo"}
    with pytest.raises(ir.IRError) as refused:
        ir.load(doc)
    assert str(refused.value) == f"squares[{at}].on_land[0].amount: unknown expression 'foo'"


def test_an_unknown_statement_and_an_unknown_key_are_refused_with_their_paths(classic_us):
    doc = copy.deepcopy(classic_us)
    doc["decks"][0]["cards"][2]["effect"] = [{"stmt": "teleport"}]
    with pytest.raises(ir.IRError, match=r"^decks\[0\]\.cards\[2\]\.effect\[0\]: unknown statement 'teleport'$"):
        ir.load(doc)
    doc = copy.deepcopy(classic_us)
    doc["squares"][0]["on_pass"][0]["then"][0]["via"] = "bank"
    with pytest.raises(ir.IRError, match=r"^squares\[0\]\.on_pass\[0\]\.then\[0\]\.via: "
                                         r"unknown key 'via' of a 'transfer' statement$"):
        ir.load(doc)
    doc = copy.deepcopy(classic_us)
    doc["colour"] = "red"
    with pytest.raises(ir.IRError, match=r"^colour: unknown key 'colour' of a Ruleset$"):
        ir.load(doc)


def test_a_missing_key_and_a_wrong_type_are_refused_with_their_paths(classic_us):
    doc = copy.deepcopy(classic_us)
    del doc["groups"][1]["kind"]
    with pytest.raises(ir.IRError, match=r"^groups\[1\]: a Group lacks the key 'kind'$"):
        ir.load(doc)
    doc = copy.deepcopy(classic_us)
    doc["notes"]["jail.fine"] = 50
    with pytest.raises(ir.IRError, match=r"^notes\['jail\.fine'\]: expected a string, got 50$"):
        ir.load(doc)
    doc = copy.deepcopy(classic_us)
    doc["groups"][0]["kind"] = "castle"
    with pytest.raises(ir.IRError, match=r"^groups\[0\]\.kind: 'castle' is not one of lot, station, utility$"):
        ir.load(doc)
    with pytest.raises(ir.IRError, match=r"^ir_version: this model reads IR version \d+, not 1$"):
        ir.load({**classic_us, "ir_version": 1})


# ---- the layer ------------------------------------------------------------------------

def test_the_model_imports_no_layer_above_it():
    """ir/ sits between spec and grammar (issue 23): importing it loads none of the others."""
    above = ("grammar", "interpreter", "verifier", "rulebook", "boardrules")
    loaded = subprocess.run([sys.executable, "-c", "import sys, ir; print(' '.join(sorted(sys.modules)))"],
                            capture_output=True, text=True, check=True, cwd=REPO).stdout.split()
    assert [name for name in loaded if name.split(".")[0] in above] == []
