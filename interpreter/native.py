"""Which of the engine's modules run compiled, and the guard that keeps a compiled module
from running in place of a source it was not compiled from.

setup.py compiles the hot modules with Cython and writes beside each the SHA-256 of its
source. Python would import a compiled module even after its `.py` was edited (an editable
install builds them next to the sources); the finder here loads the source instead, with a
warning, when the digest does not match, until the package is installed again.
`BOARDRULES_PURE_PYTHON=1` loads every module from its source: for a debugger, and for the
test that both play the same games. A compiled file of a module setup.py no longer compiles
(`COMPILED`) is left alone: its source runs.
"""
from __future__ import annotations

import hashlib
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ExtensionFileLoader, ModuleSpec, PathFinder
from importlib.util import spec_from_file_location
from pathlib import Path

PURE_PYTHON = "BOARDRULES_PURE_PYTHON"

# The modules setup.py compiles (it reads this list): those that run faster compiled
# (docs/speed.md, "The compiled engine"). A compiled file of any other module is left from
# an install that compiled it: never loaded in place of its source.
COMPILED = ("interpreter.engine", "interpreter.shortcuts", "interpreter.strategies.heuristic")


class _Sources:
    """A meta path finder for one package's modules: their source, where a compiled module
    is not one of `compiled` (setup.py's), was not compiled from it, or pure Python is asked
    for; otherwise Python's own choice."""

    def __init__(self, package: str, compiled: Sequence[str] = COMPILED):
        self.prefix = package + "."
        self.compiled = compiled

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: object = None) -> ModuleSpec | None:
        if not name.startswith(self.prefix):
            return None
        spec = PathFinder.find_spec(name, path)
        if spec is None or not isinstance(spec.loader, ExtensionFileLoader) or spec.origin is None:
            return None
        built = Path(spec.origin)
        source = built.with_name(name.rpartition(".")[2] + ".py")
        if not source.exists():
            return None
        if name in self.compiled and os.environ.get(PURE_PYTHON) != "1":
            if compiled_from(built) == hashlib.sha256(source.read_bytes()).hexdigest():
                return None
            warnings.warn(f"{source} is not the source {built.name} was compiled from: it runs as "
                          f"plain Python (slower) until the package is installed again (pip install -e .)",
                          stacklevel=2)
        return spec_from_file_location(name, source)


def compiled_from(built: Path) -> str | None:
    """The digest setup.py wrote beside a compiled module; None if it wrote none."""
    try:
        return built.with_name(built.name + ".sha256").read_text(encoding="ascii").strip()
    except OSError:
        return None


def guard(package: str) -> None:
    """Put the finder in front of Python's own, once."""
    if not any(isinstance(f, _Sources) for f in sys.meta_path):
        sys.meta_path.insert(0, _Sources(package))


def compiled() -> list[str]:
    """The engine's modules that run compiled in this process."""
    return sorted(name for name, module in list(sys.modules.items())
                  if name.startswith("interpreter.")
                  and isinstance(getattr(getattr(module, "__spec__", None), "loader", None), ExtensionFileLoader))
