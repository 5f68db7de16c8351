"""Issue #19: every spec that passes `check` plays without a crash.

Specs come from three sources (tests/fuzz/fuzzspecs.py, docs/fuzzing.md): the bundled
editions and variants mutated, overlays built from the language's parts, and sentences
of the grammar itself. Each goes through the command line as a user meets it:
`boardrules check` ends in ok or a located error, and a spec that passes plays one game
(`play SPEC --players N --seed S --json`) to its end or to a located error, within
TIME_LIMIT seconds. Each case runs in a child process forked from the test, so a case
that kills its process (a C stack overflow in the compiled engine) or hangs fails the
test instead of ending or stalling the run.

CI runs about 500 cases, derandomized; `python -m pytest tests/fuzz -m long` runs 10 000
with a fresh seed (a failure prints its `@reproduce_failure` line).
"""
from __future__ import annotations

import json
import os
import re
import resource
import select
import shlex
import shutil
import signal
import traceback
from dataclasses import dataclass
from pathlib import Path

import fuzzspecs
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

from boardrules.cli import main

TIME_LIMIT = 30          # seconds per command: a command still running then is a hang
MEMORY_LIMIT = 4 << 30   # bytes per case: a spec asking for 10^40 players fails, not the machine
LOCATED = re.compile(r"--> .+:\d+:\d+$", re.M)
CARET = re.compile(r"^\s*\|\s*\^+$", re.M)
STRATEGIES = ["heuristic", "random"]


def ci(examples: int) -> settings:
    """CI's run: the same cases every time, no example database."""
    return settings(max_examples=examples, derandomize=True, database=None, deadline=None,
                    suppress_health_check=list(HealthCheck), print_blob=False)


def long(examples: int) -> settings:
    """The long run: a fresh seed each time; a failure prints the line that replays it."""
    return settings(max_examples=examples, derandomize=False, database=None, deadline=None,
                    suppress_health_check=list(HealthCheck), print_blob=True)


@dataclass(frozen=True)
class Game:
    """One game of a spec: its seed, the seats' strategies, and how many players above the
    spec's minimum (kept within its maximum)."""

    seed: int
    strategies: tuple[str, ...]
    extra: int


GAMES = st.builds(Game, st.integers(0, 2**16), st.lists(st.sampled_from(STRATEGIES), min_size=1, max_size=4).map(tuple),
                  st.integers(0, 3))


# ---- the child process --------------------------------------------------------------------

class Hang(BaseException):
    """Raised by the alarm in a command that ran past TIME_LIMIT (a BaseException, so that
    neither the CLI nor click's runner takes it for the command's own failure)."""


def _alarm(signum, frame):
    raise Hang(f"still running after {TIME_LIMIT} s")


def _invoke(args: list[str]) -> dict:
    """One command, in process, bounded by the alarm: what a user would see, and any exception."""
    signal.setitimer(signal.ITIMER_REAL, TIME_LIMIT)
    try:
        result = CliRunner().invoke(main, args)
    except Hang:
        return {"args": args, "hang": traceback.format_exc()}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    error = result.exception
    return {
        "args": args, "exit": result.exit_code, "output": result.stdout, "stderr": result.stderr,
        "exception": None if error is None or isinstance(error, SystemExit) else repr(error),
        "trace": "".join(traceback.format_exception(*result.exc_info))
        if error is not None and not isinstance(error, SystemExit) else "",
    }


def players_for(ir_json: str, extra: int) -> int:
    limits = json.loads(ir_json)["settings"]["game"]["players"]
    low, high = limits["min"], limits["max"]
    return max(1, low + max(0, min(extra, high - low)))


def commands(folder: Path, case: fuzzspecs.Case, game: Game | None, report) -> None:
    """The case's commands, each reported as it starts and as it ends: `check`, then, when
    the spec passes, one game of it."""
    spec = str(folder / case.spec) if case.spec.endswith(".rules") else case.spec
    variants = [a for v in case.variants for a in ("--variant", str(folder / v))]
    check = ["check", spec, *variants, "--ir"]
    report({"start": check})
    checked = _invoke(check)
    report(checked)
    if game is None or checked.get("exit") != 0 or checked.get("exception"):
        return
    players = players_for(checked["output"], game.extra)
    play = ["play", spec, *variants, "--players", str(players), "--seed", str(game.seed), "--json"]
    play += [a for s in game.strategies[:players] for a in ("--strategy", s)]
    report({"start": play})
    report(_invoke(play))


def warm_up() -> None:
    """Build the parser and compile the bundled specs once, in the parent, so that each
    forked child inherits them instead of building them again."""
    if not _warm:
        CliRunner().invoke(main, ["check", *fuzzspecs.PLAYABLE])
        _warm.append(True)


_warm: list[bool] = []


def run_case(folder: Path, case: fuzzspecs.Case, game: Game | None) -> list[dict]:
    """Run the case's commands in a forked child; what each did, and what became of the child."""
    warm_up()
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:                                    # the child: run, report, and never return to pytest
        os.close(reader)
        try:
            resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
            signal.signal(signal.SIGALRM, _alarm)
            with os.fdopen(writer, "w", encoding="utf-8") as out:
                def report(line: dict) -> None:
                    out.write(json.dumps(line) + "\n")
                    out.flush()
                try:
                    commands(folder, case, game, report)
                except BaseException:               # the harness's own mistake: say so, never pass
                    report({"args": ["(fuzz harness)"], "harness": traceback.format_exc()})
        finally:
            os._exit(0)
    os.close(writer)
    buffer, killed = b"", False
    while True:
        ready, _, _ = select.select([reader], [], [], TIME_LIMIT + 15)
        if not ready:                               # the alarm did not stop it: stuck outside Python
            os.kill(pid, signal.SIGKILL)
            killed = True
            break
        chunk = os.read(reader, 1 << 16)
        if not chunk:
            break
        buffer += chunk
    os.close(reader)
    _, status = os.waitpid(pid, 0)
    lines = [json.loads(line) for line in buffer.decode("utf-8").splitlines() if line.strip()]
    ran = []
    for line in lines:
        if "start" in line:
            ran.append({"args": line["start"]})
        elif "harness" in line:
            ran.append(line)
        else:
            ran[-1] = line
    if ran and not {"exit", "hang", "harness"} & set(ran[-1]):
        if killed:
            ran[-1]["hang"] = f"still running after {TIME_LIMIT + 15} s; the alarm could not stop it"
        else:
            signum = -os.waitstatus_to_exitcode(status)
            ran[-1]["died"] = f"the process died by {signal.Signals(signum).name}" if signum > 0 \
                else "the process ended"
    return ran


# ---- the contract -------------------------------------------------------------------------

def tail(trace: str, lines: int = 30) -> str:
    """The innermost frames of a traceback: where it went wrong, without click's frames."""
    return "\n".join(trace.splitlines()[-lines:])


def broken(ran: dict) -> list[str]:
    """What a command did against the contract: exit 0, or exit 2 with a located error (file,
    line, column and a caret), never a traceback, a crash, a hang or an internal error."""
    if "harness" in ran:
        return [f"the fuzz test itself failed: {tail(ran['harness'])}"]
    if "hang" in ran:
        return [f"hang: {tail(ran['hang'])}"]
    if "died" in ran:
        return [f"crash: {ran['died']}"]
    problems = []
    shown = ran["output"] + ran["stderr"]
    if ran["exception"]:
        problems.append(f"crash: {ran['exception']}\n{tail(ran['trace'])}")
    elif "Traceback" in shown:
        problems.append("a traceback reached the user")
    if ran["exit"] == 0:
        if ran["args"][0] == "play":
            try:
                json.loads(ran["output"])
            except ValueError:
                problems.append("exit 0 without a JSON result")
    elif ran["exit"] == 2:
        if "error[E900]" in ran["stderr"]:
            problems.append("an internal compiler error (E900)")
        elif not (LOCATED.search(ran["stderr"]) and CARET.search(ran["stderr"])):
            problems.append("an error without ` --> FILE:LINE:COL` and a caret")
    elif not ran["exception"]:
        problems.append(f"exit status {ran['exit']}")
    return problems


def keeps_the_contract(tmp_path_factory, case: fuzzspecs.Case, game: Game | None) -> None:
    folder = tmp_path_factory.mktemp("case")
    for name, data in case.files:
        (folder / name).write_bytes(data)
    ran = run_case(folder, case, game)
    for r in ran:       # the tally `--hypothesis-show-statistics` prints (docs/fuzzing.md's figures)
        verdict = "ok" if r.get("exit") == 0 else "a located error" if r.get("exit") == 2 else "broken"
        event(f"{r['args'][0]}: {verdict}")
    failures = [(r, problem) for r in ran for problem in broken(r)]
    if failures:
        told = [f"$ boardrules {shlex.join(r['args'])}\n{problem}\n{r.get('stderr', '')[-2000:]}"
                for r, problem in failures]
        pytest.fail(f"{case.shown()}\n\nin {folder}:\n" + "\n".join(told), pytrace=False)
    shutil.rmtree(folder)


# ---- the tests ------------------------------------------------------------------------------

SENTENCES = from_lark(Lark((fuzzspecs.SPEC_DIR.parent / "grammar" / "rules.lark").read_text(encoding="utf-8"),
                           parser="lalr", lexer="contextual"))


def sentences() -> st.SearchStrategy[fuzzspecs.Case]:
    """Texts of the grammar (few compile: they test the parser and the checks behind it)."""
    return SENTENCES.map(lambda text: fuzzspecs.Case((("sentence.rules", text.encode("utf-8")),), "sentence.rules", (),
                                                     ("a sentence of grammar/rules.lark",)))


def contract(cases: st.SearchStrategy[fuzzspecs.Case], budget: settings, play: bool = True):
    """A test that every case of `cases` keeps the contract, run `budget`'s number of times."""
    @budget
    @given(case=cases, game=GAMES if play else st.none())
    def test(tmp_path_factory, case, game) -> None:
        keeps_the_contract(tmp_path_factory, case, game)
    return test


test_mutated_specs_keep_the_contract = contract(fuzzspecs.mutated(), ci(300))
test_built_specs_keep_the_contract = contract(fuzzspecs.built(), ci(150))
test_grammar_sentences_keep_the_contract = contract(sentences(), ci(50), play=False)

test_mutated_specs_keep_the_contract_long = pytest.mark.long(contract(fuzzspecs.mutated(), long(6000)))
test_built_specs_keep_the_contract_long = pytest.mark.long(contract(fuzzspecs.built(), long(3000)))
test_grammar_sentences_keep_the_contract_long = pytest.mark.long(contract(sentences(), long(1000), play=False))
