"""Find a spec by edition id or path, and compile it once per process."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import grammar
import interpreter
from grammar.extend import read
from grammar.parse import parse
from spec import bundled, bundled_variants


class UsageError(Exception):
    """A command-line mistake: one line for the user, then a hint."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def render(self) -> str:
        text = f"error: {self.message}"
        return f"{text}\n  = hint: {self.hint}" if self.hint else text


def resolve(spec: str) -> Path:
    """An edition id (`classic-se`) names a bundled spec; anything else is a path."""
    known = bundled()
    if spec in known:
        return known[spec]
    path = Path(spec)
    if path.suffix == ".rules" or path.exists() or "/" in spec:
        if not path.is_file():
            raise UsageError(f"no spec file `{spec}`", "give a bundled edition id or the path of a `.rules` file")
        return path
    raise UsageError(
        f"no edition `{spec}`",
        "bundled editions: " + ", ".join(sorted(concrete_editions())),
    )


def resolve_variant(variant: str) -> Path:
    """A variant id (`short`) names a bundled overlay in `spec/variants/`; anything else is a path."""
    known = bundled_variants()
    if variant in known:
        return known[variant]
    path = Path(variant)
    if path.suffix == ".rules" and path.is_file():
        return path
    raise UsageError(f"no variant `{variant}`", "bundled variants: " + ", ".join(sorted(known)))


def variant_targets() -> list[tuple[str, str]]:
    """Each bundled variant with the first bundled edition (by id) it lays over: what
    `verify` checks of the variants when given no spec."""
    editions = {eid: grammar.compile_file(bundled()[eid])["edition"]["lineage"] for eid in concrete_editions()}
    out = []
    for vid, path in bundled_variants().items():
        family = parse(read(path)).header.parent.text
        out += [(next(eid for eid, lineage in editions.items() if family in lineage), vid)]
    return out


def concrete_editions() -> list[str]:
    """The bundled editions that can be played (abstract bases are left out)."""
    return [eid for eid, path in bundled().items() if not grammar.compile_file(path)["edition"].get("abstract")]


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
            f"edition `{ir['edition']['id']}` is abstract and cannot be played",
            "play one of the editions that extend it: " + ", ".join(sorted(concrete_editions())),
        )
    return Loaded(path, ir, interpreter.load(ir), overlays)
