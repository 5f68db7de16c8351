"""The compiled engine (setup.py: the hot modules through Cython) is the same engine: it
plays the same games as its Python source, and a compiled module is never run in place of a
source it was not compiled from (interpreter/native.py)."""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import warnings
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, SourceFileLoader
from pathlib import Path

import pytest

from grammar.lookup import concrete_editions
from interpreter import native

ROOT = Path(__file__).resolve().parents[2]


def python(pure: bool, *args: str) -> str:
    """stdout of `python ARGS` in a new process, with or without the pure-Python switch."""
    env = {k: v for k, v in os.environ.items() if k != native.PURE_PYTHON} | {"PYTHONPATH": str(ROOT)}
    if pure:
        env[native.PURE_PYTHON] = "1"
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def simulate(edition: str, pure: bool) -> str:
    return python(pure, "-m", "boardrules", "simulate", edition, "--games", "25", "--seed", "7", "--json")


@pytest.mark.skipif(not native.compiled(), reason="the engine is not compiled here (no C compiler at install)")
@pytest.mark.parametrize("edition", concrete_editions())
def test_compiled_engine_plays_the_games_of_its_source(edition):
    """DESIGN principle 5 (one engine): 25 games of each edition, seed for seed, give the same
    turns, winners, standings and landings compiled and as plain Python."""
    assert simulate(edition, pure=False) == simulate(edition, pure=True)


@pytest.mark.skipif(not native.compiled(), reason="the engine is not compiled here (no C compiler at install)")
def test_the_pure_python_switch_reaches_the_engine():
    """The comparison above compares two engines, not one engine twice."""
    engine = "import boardrules.editions, interpreter.native as n; print(n.compiled())"
    assert python(True, "-c", engine).strip() == "[]"
    assert "interpreter.engine" in python(False, "-c", engine)


def find(tmp_path: Path, digest: str | None, compiled: tuple[str, ...] = ("fakepkg.mod",)):
    """What the guard finds for a module that is both source and (fake) compiled file, with
    `digest` written beside the compiled one as setup.py writes it ("source": the source's),
    `compiled` naming the modules setup.py compiles."""
    package = tmp_path / "fakepkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    source = package / "mod.py"
    source.write_text("ANSWER = 'source'\n")
    built = package / ("mod" + EXTENSION_SUFFIXES[0])
    built.write_bytes(b"not a real extension")
    if digest is not None:
        text = hashlib.sha256(source.read_bytes()).hexdigest() if digest == "source" else digest
        (package / (built.name + ".sha256")).write_text(text)
    return native._Sources("fakepkg", compiled).find_spec("fakepkg.mod", [str(package)])


@pytest.mark.parametrize("digest", [hashlib.sha256(b"ANSWER = 'old'\n").hexdigest(), None])
def test_a_module_not_compiled_from_its_source_runs_as_source_with_a_warning(tmp_path, monkeypatch, digest):
    """Its source was edited after it was compiled, or nothing says what it was compiled from."""
    monkeypatch.delenv(native.PURE_PYTHON, raising=False)
    with pytest.warns(UserWarning, match="is not the source"):
        spec_ = find(tmp_path, digest)
    assert isinstance(spec_.loader, SourceFileLoader) and spec_.origin.endswith("mod.py")


def test_a_module_compiled_from_its_source_is_left_to_python(tmp_path, monkeypatch):
    """Whatever the files' times: an install from a wheel writes them in any order."""
    monkeypatch.delenv(native.PURE_PYTHON, raising=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert find(tmp_path, "source") is None     # Python's own finder loads it


def test_pure_python_asked_for_loads_every_source(tmp_path, monkeypatch):
    monkeypatch.setenv(native.PURE_PYTHON, "1")
    spec_ = find(tmp_path, "source")
    assert isinstance(spec_.loader, SourceFileLoader)
    assert not isinstance(spec_.loader, ExtensionFileLoader)


def test_a_compiled_module_setup_no_longer_compiles_runs_as_source(tmp_path, monkeypatch):
    """A file left by an earlier install (setup.py compiled more modules then): the source
    runs, with no warning (installing again does not remove the file)."""
    monkeypatch.delenv(native.PURE_PYTHON, raising=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        spec_ = find(tmp_path, "source", compiled=())
    assert isinstance(spec_.loader, SourceFileLoader) and spec_.origin.endswith("mod.py")
