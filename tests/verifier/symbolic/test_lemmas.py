"""The verifier's lemmas, built from IR nodes, are the bodies the old expression reader
read from their texts (temporary: pins the change of construction)."""
from __future__ import annotations

import pytest

import grammar
import spec
from verifier.symbolic.lemmas import BODIES, LEMMAS, parse


@pytest.mark.parametrize("edition", sorted(spec.bundled()))
def test_bodies_are_what_the_reader_read(edition):
    ir = grammar.compile_file(str(spec.bundled()[edition]))
    sections = set(ir.get("settings", {}))
    for name, _, source in LEMMAS:
        assert BODIES[name] == parse(source, sections), name
