"""Every file the command writes (`play --log`, `simulate --out`, the verifier's traces) is
written whole or not at all: an unwritable path is a located error with exit status 2 and
nothing written; a failed or killed write leaves no half file and no temporary file that
the next write does not clear; a replaced file keeps its mode and a symlink stays a link."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_cli import assert_usage_error, run
from verifier import trace

ROOT = Path(__file__).resolve().parent.parent
PLAY = ["play", "classic-us", "--players", "2", "--seed", "4", "--max-turns", "3", "--json"]


def everything(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def dead_pid() -> int:
    """The id of a process that has ended (and been reaped)."""
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_log_replaces_a_file_keeping_its_mode(tmp_path: Path):
    """Issue 19: a replaced log became mode 0600."""
    log = tmp_path / "game.json"
    log.write_text("old", encoding="utf-8")
    log.chmod(0o644)
    assert run(*PLAY, "--log", str(log)).exit_code == 0
    assert log.stat().st_mode & 0o7777 == 0o644
    assert json.loads(log.read_text(encoding="utf-8"))["header"]["seed"] == 4
    assert everything(tmp_path) == ["game.json"]


def test_new_log_gets_the_usual_mode(tmp_path: Path):
    """A new log is made as any new file is (0666 less the umask), not private (0600)."""
    mask = os.umask(0o022)
    try:
        assert run(*PLAY, "--log", str(tmp_path / "game.json")).exit_code == 0
    finally:
        os.umask(mask)
    assert (tmp_path / "game.json").stat().st_mode & 0o7777 == 0o644


def test_log_through_a_symlink_keeps_the_link(tmp_path: Path):
    """Issue 19: a symlinked log path became a regular file; the log goes to the link's target."""
    (tmp_path / "logs").mkdir()
    target = tmp_path / "logs" / "game.json"
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "game.json"
    link.symlink_to(target)
    assert run(*PLAY, "--log", str(link)).exit_code == 0
    assert link.is_symlink() and link.resolve() == target
    assert json.loads(target.read_text(encoding="utf-8"))["header"]["seed"] == 4
    assert everything(tmp_path / "logs") == ["game.json"]


@pytest.mark.parametrize("args, option", [(PLAY + ["--log"], "--log"),
                                          (["simulate", "classic-us", "--games", "2", "--out"], "--out")])
def test_unwritable_path_is_exit_2_and_writes_nothing(tmp_path: Path, args, option):
    """Issue 19: `play --log` into a folder it cannot write gave a PermissionError traceback.
    (Tests run as root, whom no permission stops: a path under a regular file cannot be written by anyone.)"""
    blocker = tmp_path / "notes.txt"
    blocker.write_text("a file, not a folder", encoding="utf-8")
    path = blocker / "sub" / "out.json"
    result = run(*args, str(path))
    assert_usage_error(result, f"cannot write {option} `{path}`", f"`{blocker}` is a file, not a folder", "hint")
    assert everything(tmp_path) == ["notes.txt"]


def test_unwritable_out_is_refused_before_the_games(tmp_path: Path):
    """A wrong --out path is found before the simulation runs, not after it."""
    result = run("simulate", "classic-us", "--games", "1000000", "--out", str(tmp_path / "no" / "such" / "stats.json"))
    assert_usage_error(result, "cannot write --out", "no folder", "hint")
    assert everything(tmp_path) == []


def test_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path, monkeypatch):
    """A write that fails (here the rename) is exit 2, keeps the old log and removes its temporary file."""
    log = tmp_path / "game.json"
    log.write_text("old", encoding="utf-8")

    def full_disk(*args):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", full_disk)
    assert_usage_error(run(*PLAY, "--log", str(log)), "cannot write --log", "no space left on device")
    assert log.read_text(encoding="utf-8") == "old"
    assert everything(tmp_path) == ["game.json"]


def test_interrupted_write_leaves_the_old_file_and_no_temporary(tmp_path: Path, monkeypatch):
    """Ctrl-C in the middle of the write: exit 130, the old log whole, no temporary file."""
    log = tmp_path / "game.json"
    log.write_text("old", encoding="utf-8")

    def ctrl_c(handle):
        raise KeyboardInterrupt
    monkeypatch.setattr(os, "fsync", ctrl_c)
    result = run(*PLAY, "--log", str(log))
    assert result.exit_code == 130 and "interrupted" in result.stderr
    assert log.read_text(encoding="utf-8") == "old"
    assert everything(tmp_path) == ["game.json"]


def test_write_killed_outright_is_cleared_by_the_next_write(tmp_path: Path):
    """Issue 19: a SIGKILL during the log's replace left a `.tmp` file behind. A kill runs no
    cleanup; the temporary file names its process, and the next write clears it."""
    log = tmp_path / "game.json"
    killed = subprocess.run([sys.executable, "-c", (
        "import os, signal; from pathlib import Path; from verifier import atomic\n"
        "os.fsync = lambda handle: os.kill(os.getpid(), signal.SIGKILL)\n"
        f"atomic.write(Path({str(log)!r}), 'half', '--log')")],
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert killed.returncode == -signal.SIGKILL
    left = everything(tmp_path)
    assert len(left) == 1 and left[0].startswith(".game.json.tmp-"), left
    assert run(*PLAY, "--log", str(log)).exit_code == 0
    assert everything(tmp_path) == ["game.json"]


def test_a_live_writers_temporary_file_is_left_alone(tmp_path: Path):
    """Only the temporary files of processes that are gone are cleared."""
    live, dead = tmp_path / ".game.json.tmp-1", tmp_path / f".game.json.tmp-{dead_pid()}"
    live.write_text("pid 1 is writing", encoding="utf-8")
    dead.write_text("half", encoding="utf-8")
    assert run(*PLAY, "--log", str(tmp_path / "game.json")).exit_code == 0
    assert everything(tmp_path) == [live.name, "game.json"]


def test_ctrl_c_during_simulate_out_writes_nothing(tmp_path: Path):
    """Ctrl-C before the statistics are done: no file, not even an empty one (as `> f` left)."""
    from tests.test_interrupt import has_workers, interrupt, settled, start, wait_for

    process = start(tmp_path, "simulate", "classic-us", "--games", "1000000", "--jobs", "2", "--json",
                    "--out", "stats.json")
    wait_for(settled(has_workers(process, 2), 1), process)
    interrupt(process, tmp_path, whole_group=True)
    assert everything(tmp_path) == ["err", "out"]


@pytest.mark.parametrize("as_json", [True, False], ids=["json", "table"])
def test_simulate_out_writes_what_it_would_print(tmp_path: Path, as_json: bool):
    """Issue 19: `simulate --json > f` killed midway left f empty; `--out f` writes f whole."""
    args = ["simulate", "classic-us", "--games", "3", "--seed", "7"] + (["--json"] if as_json else [])
    printed = run(*args)
    written = run(*args, "--out", str(tmp_path / "stats"))
    assert printed.exit_code == 0 and written.exit_code == 0, written.stderr
    assert written.output == ""
    assert (tmp_path / "stats").read_text(encoding="utf-8") == printed.output
    assert everything(tmp_path) == ["stats"]


def test_trace_is_written_atomically(tmp_path: Path):
    """A verifier trace goes through the same writer: a dead writer's leftover is cleared and
    the new trace is whole; a folder that cannot be made is named with --traces."""
    from verifier.atomic import Unwritable

    leftover = tmp_path / f".t.trace.json.tmp-{dead_pid()}"
    leftover.write_text("half", encoding="utf-8")
    path = trace.write_doc({"format": trace.FORMAT}, tmp_path, "t")
    assert everything(tmp_path) == ["t.trace.json"]
    assert json.loads(path.read_text(encoding="utf-8")) == {"format": trace.FORMAT}
    (tmp_path / "file").write_text("", encoding="utf-8")
    with pytest.raises(Unwritable, match=r"cannot write --traces .*is a file, not a folder"):
        trace.write_doc({}, tmp_path / "file" / "traces", "t")


def test_unwritable_comes_back_whole_from_a_worker():
    """A trace written in a worker process fails there; the error crosses back to the command intact."""
    import pickle

    from verifier import atomic

    error = atomic.unwritable("--traces", Path("/dev/null/x"), NotADirectoryError(20, "Not a directory"))
    again = pickle.loads(pickle.dumps(error))
    assert again.render() == error.render() and "--traces" in again.render()


def test_a_killed_docs_builds_staging_folder_is_cleared(tmp_path: Path, monkeypatch):
    """`docs` builds beside --out and swaps the site in; a build killed outright leaves its
    staging folder (`.site.tmp-PID`), which the next build clears before mkdocs runs."""
    from rulebook import build

    staged = tmp_path / f".site.tmp-{dead_pid()}"
    (staged / "css").mkdir(parents=True)
    (staged / "css" / "half.css").write_text("", encoding="utf-8")

    def stop(config):
        raise KeyboardInterrupt
    monkeypatch.setattr(build, "build", stop)
    with pytest.raises(KeyboardInterrupt):
        build.build_site(tmp_path / "site", ("classic-us",))
    assert everything(tmp_path) == ["site"]
