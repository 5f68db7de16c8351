"""Compile a spec once per process for the commands, and the CLI's own refusals.

Finding a spec by id or path is the library's (`grammar.lookup.resolve`,
`spec.resolve_variant`), so the rulebook and the tests find editions without the CLI."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import grammar
import interpreter
from grammar.extend import read
from grammar.lookup import concrete_editions, resolve
from grammar.parse import parse
from spec import Refusal, bundled, bundled_variants, resolve_variant


class UsageError(Refusal):
    """A command-line mistake: one line for the user, then a hint."""


def variant_targets() -> list[tuple[str, str]]:
    """Each bundled variant with the first bundled edition (by id) it lays over: what
    `verify` checks of the variants when given no spec."""
    editions = {eid: grammar.compile_file(bundled()[eid])["edition"]["lineage"] for eid in concrete_editions()}
    out = []
    for vid, path in bundled_variants().items():
        family = parse(read(path)).header.parent.text
        out += [(next(eid for eid, lineage in editions.items() if family in lineage), vid)]
    return out


@dataclass(frozen=True)
class Loaded:
    """A compiled spec: its IR (for tools) and its playable edition (for the engine)."""

    path: Path
    ir: dict
    edition: "interpreter.Edition"
    variants: tuple[Path, ...] = ()


def load(spec: str, variants: tuple[str, ...] = ()) -> Loaded:
    """Compile a spec (with the variants laid over it, in order) and prepare it for play;
    a spec that cannot be played is a usage error."""
    path = resolve(spec)
    overlays = tuple(resolve_variant(v) for v in variants)
    ir = grammar.compile_file(path, overlays)
    if ir["edition"].get("abstract"):
        raise UsageError(
            f"edition `{ir['edition']['key']}` is abstract and cannot be played",
            "play one of the editions that extend it: " + ", ".join(sorted(concrete_editions())),
        )
    return Loaded(path, ir, interpreter.load(ir), overlays)
