"""Find an edition's spec by id or path, for every tool (the CLI, the rulebook, the tests).

It lives in the compiler's package, not in `spec` beside the plain lookup of variants
(`spec.resolve_variant`), because telling a playable edition from an abstract base takes
compiling it; an unknown id or path is refused with `spec.NotFound`, whose hint names the
playable editions.
"""
from __future__ import annotations

from pathlib import Path

from grammar.compile import compile_file
from spec import NotFound, bundled


def resolve(spec: str) -> Path:
    """An edition id (`classic-se`) names a bundled spec; anything else is a path."""
    known = bundled()
    if spec in known:
        return known[spec]
    path = Path(spec)
    if path.suffix == ".rules" or path.exists() or "/" in spec:
        if not path.is_file():
            raise NotFound(f"no spec file `{spec}`", "give a bundled edition id or the path of a `.rules` file")
        return path
    raise NotFound(
        f"no edition `{spec}`",
        "bundled editions: " + ", ".join(sorted(concrete_editions())),
    )


def concrete_editions() -> list[str]:
    """The bundled editions that can be played (abstract bases are left out)."""
    return [eid for eid, path in bundled().items() if not compile_file(path)["edition"].get("abstract")]
