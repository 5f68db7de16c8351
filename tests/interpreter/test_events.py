"""The event log's vocabulary (interpreter/events.py): every event a game logs has a known
type and exactly that type's fields, in a game of each bundled edition and variant."""
from __future__ import annotations

import pytest

import grammar
import interpreter
import spec
from interpreter.events import FIELDS

EDITIONS = ("classic-se", "classic-nl", "classic-us", "wonders-se", "metropol-da")     # the playable ones
GAMES = [(name, (), "heuristic") for name in EDITIONS] \
    + [("classic-us", (), "random"), ("metropol-da", ("fewer-blocks",), "heuristic")] \
    + [("classic-se", (variant,), "heuristic") for variant in ("short", "timed", "jackpot", "deal-all")]


@pytest.mark.parametrize("name, variants, strategy", GAMES)
def test_every_event_has_a_known_type_and_exactly_its_fields(name: str, variants: tuple[str, ...],
                                                              strategy: str) -> None:
    paths = [spec.bundled_variants()[v] for v in variants]
    edition = interpreter.load(grammar.compile_file(spec.bundled()[name], paths))
    seen = set()
    for seed in (1, 2):
        for event in interpreter.play(edition, [strategy] * 4, seed=seed).events:
            kind = event["type"]
            assert kind in FIELDS, f"{name}: an event of unknown type {kind!r}: {event}"
            always, sometimes = FIELDS[kind]
            fields = set(event) - {"type"}
            assert always <= fields, f"{name}: a {kind} event without {sorted(always - fields)}: {event}"
            assert fields <= always | sometimes, f"{name}: a {kind} event with {sorted(fields - always - sometimes)}"
            seen.add(kind)
    assert {"start", "turn", "roll", "move", "transfer", "end"} <= seen


def test_the_vocabulary_names_no_type_the_engine_never_logs() -> None:
    """Each type in FIELDS is one the engine's source logs (a type dropped from the engine
    must leave the vocabulary too)."""
    from pathlib import Path
    sources = "".join(path.read_text(encoding="utf-8") for path in Path(interpreter.__file__).parent.glob("*.py"))
    for kind in FIELDS:
        assert f'"type": "{kind}"' in sources, kind
