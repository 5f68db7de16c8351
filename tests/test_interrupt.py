"""Ctrl-C as a terminal sends it: a real SIGINT to a running `boardrules`, to its whole
process group (as the terminal does) or to the command alone. Every command stops within
2 s with "interrupted" and exit status 130, no traceback (from a worker either), no process
left behind and nothing half-written."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 2.0   # seconds from Ctrl-C to the last process gone


def start(tmp_path: Path, *args: str, env: dict | None = None) -> subprocess.Popen:
    """`boardrules ARGS` in its own session (its own process group, as a terminal's job),
    its output in files, its input an open pipe (a terminal no one types at)."""
    return subprocess.Popen([sys.executable, "-m", "boardrules", *args], cwd=tmp_path,
                            stdin=subprocess.PIPE, stdout=open(tmp_path / "out", "w"),
                            stderr=open(tmp_path / "err", "w"),
                            start_new_session=True, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})


def group(pgid: int) -> set[int]:
    """The live processes of a process group (zombies waiting to be reaped are dead)."""
    alive = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z" and int(fields[2]) == pgid:
            alive.add(int(entry.name))
    return alive


def wait_for(condition: Callable[[], bool], process: subprocess.Popen, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert process.poll() is None, f"ended before the interruption: {process.returncode}"
        assert time.monotonic() < deadline, "the command never got to the point to interrupt"
        time.sleep(0.05)


def interrupt(process: subprocess.Popen, tmp_path: Path, whole_group: bool) -> str:
    """Send Ctrl-C; assert the command and every process it started are gone within LIMIT,
    with exit status 130 and a one-line message; return its stderr."""
    pgid = process.pid
    began = time.monotonic()
    if whole_group:
        os.killpg(pgid, signal.SIGINT)
    else:
        os.kill(process.pid, signal.SIGINT)
    try:
        status = process.wait(timeout=LIMIT)
    except subprocess.TimeoutExpired:
        os.killpg(pgid, signal.SIGKILL)
        process.wait()
        pytest.fail(f"still running {LIMIT} s after Ctrl-C; stderr: {(tmp_path / 'err').read_text()[-2000:]}")
    while group(pgid) and time.monotonic() - began < LIMIT:
        time.sleep(0.05)
    left = group(pgid)
    if left:
        os.killpg(pgid, signal.SIGKILL)
    stderr = (tmp_path / "err").read_text()
    assert not left, f"processes left running after Ctrl-C: {left}"
    assert status == 130, (status, stderr[-2000:])
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr[-3000:]
    assert stderr.rstrip().endswith("interrupted"), stderr[-2000:]
    return stderr


def has_workers(process: subprocess.Popen, workers: int = min(2, os.cpu_count() or 1)) -> Callable[[], bool]:
    """The command and its worker processes are up (verify starts one per core, at most
    one per part)."""
    return lambda: len(group(process.pid)) >= 1 + workers


def settled(condition: Callable[[], bool], seconds: float) -> Callable[[], bool]:
    """`condition`, then `seconds` more: the workers busy in their tasks."""
    since: list[float] = []

    def check() -> bool:
        if not since and condition():
            since.append(time.monotonic())
        return bool(since) and time.monotonic() - since[0] >= seconds
    return check


def temporary_files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if ".tmp" in p.name]


@pytest.mark.parametrize("whole_group", [True, False], ids=["terminal", "command-alone"])
def test_ctrl_c_stops_verify_with_its_proofs(tmp_path: Path, whole_group: bool):
    """Issue 19: Ctrl-C during the full `verify` stopped nothing (parent and a worker in Z3 ran on)."""
    process = start(tmp_path, "verify", "classic-us")
    wait_for(settled(has_workers(process), 4), process)
    interrupt(process, tmp_path, whole_group)
    assert temporary_files(tmp_path) == []


@pytest.mark.parametrize("whole_group", [True, False], ids=["terminal", "command-alone"])
def test_ctrl_c_stops_verify_without_proofs(tmp_path: Path, whole_group: bool):
    """Issue 19: Ctrl-C during `verify --no-prove` printed a worker's KeyboardInterrupt traceback."""
    process = start(tmp_path, "verify", "classic-us", "--no-prove", "--examples", "100000")
    wait_for(settled(has_workers(process), 5), process)    # one worker done (texts, examples) and idle
    interrupt(process, tmp_path, whole_group)
    assert temporary_files(tmp_path) == []


@pytest.mark.parametrize("whole_group", [True, False], ids=["terminal", "command-alone"])
def test_ctrl_c_stops_simulate_with_two_jobs(tmp_path: Path, whole_group: bool):
    """Issue 19: `simulate --jobs 2` stops on Ctrl-C with its workers."""
    process = start(tmp_path, "simulate", "classic-us", "--games", "1000000", "--jobs", "2")
    wait_for(settled(has_workers(process, 2), 1), process)
    interrupt(process, tmp_path, whole_group)


def test_ctrl_c_at_a_human_prompt_stops_play_and_writes_no_log(tmp_path: Path):
    """Issue 19: Ctrl-C while a human player is to choose ends `play`; the log is not written."""
    process = start(tmp_path, "play", "classic-us", "--players", "2", "--strategy", "human", "--log", "game.json")
    wait_for(lambda: "choose a number" in (tmp_path / "out").read_text(), process)
    interrupt(process, tmp_path, whole_group=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["err", "out"]


def test_ctrl_c_stops_docs_and_keeps_the_old_site(tmp_path: Path):
    """Issue 19: Ctrl-C while the rulebooks are built ends `docs`; the site built before is
    left whole (not emptied, not half rebuilt) and no staging folder is left."""
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text("the last build", encoding="utf-8")
    process = start(tmp_path, "docs", "--out", "site")
    def building() -> bool:
        return sum(1 for p in tmp_path.rglob("*") if p.is_file()) > 10     # pages being written

    wait_for(building, process)
    interrupt(process, tmp_path, whole_group=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["err", "out", "site"]
    assert [p.name for p in (tmp_path / "site").iterdir()] == ["index.html"]
    assert (tmp_path / "site" / "index.html").read_text(encoding="utf-8") == "the last build"


def test_ctrl_c_stops_docs_serve(tmp_path: Path):
    """`docs --serve` runs until Ctrl-C (mkdocs swallows it and returns): that stop is an
    interruption like any other, exit 130, not a silent success."""
    import socket

    def serving() -> bool:
        with socket.socket() as probe:
            return probe.connect_ex(("127.0.0.1", 8000)) == 0
    if serving():
        pytest.skip("port 8000 is taken")
    process = start(tmp_path, "docs", "--serve")
    wait_for(serving, process, timeout=300)
    interrupt(process, tmp_path, whole_group=True)
