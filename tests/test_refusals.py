"""Bad input refused up front, located, with exit status 2: a game log whose header cannot be
a game of its edition, and `boardrules docs` on an install without mkdocs."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_cli import assert_usage_error, run

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def log(tmp_path_factory) -> dict:
    """A real two-player game log of classic-us (2 to 8 players)."""
    path = tmp_path_factory.mktemp("log") / "game.json"
    assert run("play", "classic-us", "--players", "2", "--seed", "5", "--max-turns", "2", "--json",
               "--log", str(path)).exit_code == 0
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("key, value, needle", [
    ("players", ["heuristic"] * 99, "seats 99 players"),
    ("players", ["heuristic"] * 9, "seats 9 players; `classic-us` is for 2 to 8"),
    ("players", ["heuristic"], "seats 1 player; `classic-us` is for 2 to 8"),
    ("players", ["heuristic", "genius"], "unknown strategy `genius`"),
    ("players", "heuristic", "`players` must be a list of strategy names"),
    ("seed", -3, "negative seed -3"),
    ("seed", "3", "`seed` must be a whole number"),
    ("seed", 2.5, "`seed` must be a whole number"),
    ("max_turns", 0, "`max_turns` must be a whole number from 1, or null"),
    ("max_turns", "ten", "`max_turns` must be a whole number from 1, or null"),
    ("variants", 5, "`variants` must be a list of variant paths"),
])
def test_implausible_header_is_refused_up_front(tmp_path: Path, log: dict, key, value, needle):
    """Issue 19: a log whose header claims 99 players (or more than the edition allows, a
    negative seed, an unknown strategy, a value of the wrong type) is refused before any
    replay, with the place in the log file (the value, or the strategy name), a caret and a hint."""
    log = json.loads(json.dumps(log))
    log["header"][key] = value
    path = tmp_path / "game.json"
    text = json.dumps(log, indent=1)
    path.write_text(text, encoding="utf-8")
    after = text.index(f'"{key}": ', text.index('"header"')) + len(f'"{key}": ')
    at = text.index('"genius"', after) if "genius" in needle else after
    line, column = text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)
    result = run("replay", str(path))
    assert_usage_error(result, "error[E903]", needle, f"{path}:{line}:{column}", "^", "hint")


def test_negative_seed_is_refused_by_play_too():
    """A negative seed plays the game of its absolute value (Python's Random): `play` refuses
    it, so no log holds one and `replay` may refuse it as damage."""
    assert_usage_error(run("play", "classic-us", "--seed", "-3"), "--seed")
    assert_usage_error(run("simulate", "classic-us", "--seed", "-3"), "--seed")


def test_docs_without_mkdocs_says_how_to_install_it(tmp_path: Path):
    """Issue 19 (the tutorial's step 6): `boardrules docs` where mkdocs is not installed gave a
    ModuleNotFoundError traceback; it is one line saying what to install, exit 2, nothing built."""
    shadow = tmp_path / "shadow" / "mkdocs"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'mkdocs'\", name='mkdocs')\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "boardrules", "docs", "--out", "site"], cwd=tmp_path,
                            capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": f"{shadow.parent}{os.pathsep}{ROOT}"})
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("error: mkdocs is not installed: pip install 'boardrules[docs]'\n"), result.stderr
    assert not (tmp_path / "site").exists()
