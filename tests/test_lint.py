"""The code's own checks (issue 23): ruff and mypy at zero findings with the settings in
pyproject.toml, every public function of the typed layers annotated whole, and the
escape hatches (`noqa`, `type: ignore`) few and each with its reason.

They run as tests so that the README's one test command is also the lint step, and CI
cannot pass with a finding. The pre-commit hook (.pre-commit-config.yaml) runs the same
commands before a commit.
"""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TYPED = ["ir", "grammar", "interpreter", "verifier", "rulebook"]      # the layers mypy checks
HATCHES = 20                                               # issue 23: at most 20 in all
# A `noqa` with its codes, or a `type: ignore` with its error codes; what follows is the reason.
HATCH = re.compile(r"#\s*(noqa(:\s*[A-Z]+[0-9]+(\s*,\s*[A-Z]+[0-9]+)*)?|type:\s*ignore(\[[\w, -]+\])?)(?P<reason>.*)")


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *command], cwd=REPO, capture_output=True, text=True)


def test_ruff_finds_nothing() -> None:
    run = _run("ruff", "check", "--no-cache", "--output-format", "concise", ".")
    assert run.returncode == 0, run.stdout + run.stderr


def test_mypy_finds_nothing() -> None:
    run = _run("mypy", "--no-incremental")
    assert run.returncode == 0, run.stdout + run.stderr


def _sources(folders: list[str]) -> list[Path]:
    return sorted(path for folder in folders if (REPO / folder).is_dir() for path in (REPO / folder).rglob("*.py"))


def _unannotated(tree: ast.Module) -> list[str]:
    """Public functions (and public methods of public classes) missing an annotation on a
    parameter or on the return: the typed contract a newcomer reads first."""
    missing: list[str] = []

    def visit(body: list[ast.stmt], owner: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                visit(node.body, f"{owner}{node.name}.")
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                    not node.name.startswith("_") or node.name == "__init__"):
                arguments = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs,
                             *filter(None, [node.args.vararg, node.args.kwarg])]
                bare = [a.arg for a in arguments if a.annotation is None and a.arg not in ("self", "cls")]
                if bare or (node.returns is None and node.name != "__init__"):
                    missing.append(f"{owner}{node.name} (line {node.lineno})")

    visit(tree.body, "")
    return missing


def test_every_public_function_is_typed() -> None:
    missing = [f"{path.relative_to(REPO)}: {name}" for path in _sources(TYPED)
               for name in _unannotated(ast.parse(path.read_text(encoding="utf-8")))]
    assert not missing, "public functions not annotated whole:\n" + "\n".join(missing)


def test_the_escape_hatches_are_few_and_give_reasons() -> None:
    folders = [*TYPED, "rulebook", "boardrules", "spec", "benchmarks", "tests"]
    found = [(path, number, match) for path in _sources(folders)
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if (match := HATCH.search(line)) and path != Path(__file__)]
    bare = [f"{path.relative_to(REPO)}:{number}" for path, number, match in found
            if not re.search(r"[A-Za-z]{3}", match["reason"])]
    assert len(found) <= HATCHES, f"{len(found)} noqa/type: ignore comments, at most {HATCHES}"
    assert not bare, "give the reason after each noqa/type: ignore: " + ", ".join(bare)


@pytest.mark.parametrize("line, reason", [
    ("x = f()  # noqa: B023 the loop variable is bound at call time", True),
    ("x = f()  # noqa: B023", False),
    ("x = f()  # type: ignore[attr-defined]", False),
    ("x = f()  # type: ignore[attr-defined]  # z3 has no stubs for this", True),
])
def test_the_hatch_check_reads_a_reason(line: str, reason: bool) -> None:
    match = HATCH.search(line)
    assert match and bool(re.search(r"[A-Za-z]{3}", match["reason"])) == reason


@pytest.mark.parametrize("source, missing", [
    ("def f(x: int) -> int: ...", []),
    ("def f(x) -> int: ...", ["f (line 1)"]),
    ("def f(x: int): ...", ["f (line 1)"]),
    ("def _f(x): ...", []),
    ("class C:\n    def m(self, x: int) -> None: ...\n    def __init__(self, y): ...", ["C.__init__ (line 3)"]),
    ("class _C:\n    def m(self, x): ...", []),
])
def test_the_annotation_check_reads_what_it_should(source: str, missing: list[str]) -> None:
    assert _unannotated(ast.parse(source)) == missing
