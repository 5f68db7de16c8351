"""Layers one way (issue 23): spec <- ir <- grammar <- interpreter <- verifier <- (rulebook,
analysis) <- boardrules, the CLI. A package imports only the packages below it, and no two
modules of a package import each other in a circle; the contracts are in `.importlinter` and
import-linter reads every import, those inside functions too. Each contract is also run on
a copy of the packages with one import that breaks it, and must name that import."""
from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONTRACTS = ROOT / ".importlinter"
OUTSIDE = {"tests", "benchmarks"}     # outside the layers: they may import anything


def root_packages() -> list[str]:
    config = configparser.ConfigParser()
    config.read(CONTRACTS, encoding="utf-8")
    return config["importlinter"]["root_packages"].split()


def lint(root: Path) -> subprocess.CompletedProcess:
    """import-linter with the repo's contracts over the packages found under `root`."""
    command = "from importlinter.cli import lint_imports_command; lint_imports_command()"
    return subprocess.run([sys.executable, "-c", command, str(CONTRACTS), "--no-cache", "--no-logo"],
                          cwd=root, env={**os.environ, "PYTHONPATH": str(root), "COLUMNS": "200"},
                          capture_output=True, text=True, timeout=120)


def test_every_package_is_in_a_layer():
    """A top-level package left out of `root_packages` would have its imports unchecked (and
    imports of it counted as outside ones): `ir/` and `analysis/` must be named when they land."""
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")} - OUTSIDE
    assert packages <= set(root_packages()), \
        f"add to root_packages in .importlinter: {sorted(packages - set(root_packages()))}"


def test_the_layers_hold():
    found = lint(ROOT)
    assert found.returncode == 0, found.stdout + found.stderr
    assert "2 kept, 0 broken" in found.stdout


@pytest.mark.parametrize("module, added, said", [
    # the leak issue 23 found: the engine asking the verifier for its invariant checker
    ("interpreter/__init__.py", "from verifier import trace", ["interpreter is not allowed to import verifier",
                                                              "interpreter -> verifier.trace"]),
    # hidden inside a function, as the rulebook's import of the CLI's edition lookup once was
    ("rulebook/site.py", "def lookup():\n    from boardrules.editions import load",
     ["rulebook is not allowed to import boardrules", "rulebook.site -> boardrules.editions"]),
    # a circle inside a package, as verifier.prove and verifier.symbolic.replay once were
    ("verifier/symbolic/engine.py", "from verifier import prove", ["No cycles are allowed in verifier",
                                                                   ".symbolic -> .prove"]),
])
def test_a_broken_layer_is_named(tmp_path: Path, module: str, added: str, said: list[str]):
    for package in root_packages():
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.sha256", "*.c"))
    with open(tmp_path / module, "a", encoding="utf-8") as source:
        source.write(f"\n{added}\n")
    found = lint(tmp_path)
    assert found.returncode == 1, found.stdout + found.stderr
    for text in said:
        assert text in found.stdout, found.stdout
