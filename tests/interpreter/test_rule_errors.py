"""A spec that passes `check` still plays without a crash (issue #19): a rule that goes wrong
at run time (a token sent round and round within a turn, a division by zero) stops the game
with a located run-time error, exit status 2, never a traceback or a crash; on the compiled
engine and on plain Python, in `play`, `simulate --jobs 2` and `replay`.

The specs here get past the static checks (a move under a condition, a loop through a deck,
a divisor the IR is given after the checks): the engine must hold for any IR it is given.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import grammar
import interpreter
from interpreter import native

ROOT = Path(__file__).resolve().parents[2]
ENGINES = [pytest.param(False, id="compiled"), pytest.param(True, id="pure")]

# `python -c DRIVER SWAPS ARGS...`: the command line, with the IR edited after the checks:
# each integer literal whose value is a key of SWAPS (JSON) becomes the node given.
DRIVER = """
import json, sys
import grammar
from boardrules.cli import main

checked, swaps = grammar.compile_file, json.loads(sys.argv[1])

def swapped(node):
    if isinstance(node, dict):
        if node.get("expr") == "int" and str(node.get("value")) in swaps:
            return swaps[str(node["value"])]
        return {key: swapped(value) for key, value in node.items()}
    if isinstance(node, list):
        return [swapped(value) for value in node]
    return node

grammar.compile_file = lambda *args: swapped(checked(*args))
sys.argv = ["boardrules", *sys.argv[2:]]
main()
"""

ZERO = {"expr": "int", "value": 0}
NOBODY_BANKRUPT = {"expr": "agg", "function": "count", "var": "p", "over": {"expr": "var", "name": "players"},
                   "body": {"expr": "attr", "subject": {"expr": "var", "name": "p"}, "name": "bankrupt"}}


def boardrules(pure: bool, *args: str, swaps: dict | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """`boardrules ARGS` in a new process (plain Python with `pure`), the IR edited by `swaps`."""
    env = {k: v for k, v in os.environ.items() if k != native.PURE_PYTHON} | {"PYTHONPATH": str(ROOT)}
    if pure:
        env[native.PURE_PYTHON] = "1"
    return subprocess.run([sys.executable, "-c", DRIVER, json.dumps(swaps or {}), *args], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=300)


def spec(tmp_path: Path, body: str) -> Path:
    """A child of the US edition with `body` added, as `loopy.rules`."""
    path = tmp_path / "loopy.rules"
    path.write_text("edition loopy extends classic-us\n\n" + body, encoding="utf-8")
    return path


def assert_located(done: subprocess.CompletedProcess, code: str, path: Path, line: int, *needles: str) -> None:
    """Exit 2 and the error framed as a spec error: code, file:line:col, the line, a caret, a hint."""
    assert done.returncode == 2, (done.returncode, done.stderr[-3000:])
    assert "Traceback" not in done.stderr and "BrokenProcessPool" not in done.stderr, done.stderr[-3000:]
    err = done.stderr
    assert f"error[{code}]: " in err, err
    assert f"{path.name}:{line}:" in err, err
    text = path.read_text(encoding="utf-8").splitlines()[line - 1]
    assert f"{line} | {text.rstrip()}" in err, err
    caret = err.splitlines()[err.splitlines().index(f"{line} | {text.rstrip()}") + 1]
    assert caret.strip(" |").startswith("^"), err
    assert "= hint: " in err, err
    for needle in needles:
        assert needle in err, err


SELF = 'board {\n  square free_parking { on_land { if me.cash >= 0 { move to free_parking } } }\n}\n'
LOOPS = {
    # line of the rule in the loop, the squares the message names
    "move_to_itself": (SELF, [4], ["Free Parking"]),
    "move_by_zero": ('board {\n  square free_parking { on_land { if me.cash >= 0 { move by 0 } } }\n}\n', [4],
                     ["Free Parking"]),
    "two_squares": ('board {\n  square free_parking { on_land { if me.cash >= 0 { move to go_to_jail } } }\n'
                    '  square go_to_jail { on_land { if me.cash >= 0 { move to free_parking } } }\n}\n', [4, 5],
                    ["Free Parking", "Go to Jail"]),
    # each card drawn sends the token back to the square that draws it: the deck runs out
    # only after 200 draws, nested one in another (any card's line may be the one running);
    # the move is under a condition, as E308 refuses a deck whose every card surely moves back
    "deck": ('board {\n  square free_parking { on_land { draw chance } }\n}\n\ndeck chance "Chance" {\n'
             + '  card "Back to Free Parking" { if me.cash >= 0 { move to free_parking } }\n' * 200 + '}\n',
             list(range(4, 208)),
             ["Free Parking", "`chance`"]),
}


@pytest.mark.parametrize("pure", ENGINES)
@pytest.mark.parametrize("case", LOOPS, ids=list(LOOPS))
def test_a_token_sent_round_within_a_turn_is_a_located_error(case, pure, tmp_path):
    """Issue #19: a rule that keeps moving the token within one turn (onto itself, by 0, between
    two squares, through a deck) stops at the turn's limit: E501 names the turn, the seat and
    the squares of the loop, at the rule that moved it; no segfault, no RecursionError."""
    body, lines, names = LOOPS[case]
    path = spec(tmp_path, body)
    done = boardrules(pure, "play", str(path), "--seed", "1", cwd=tmp_path)
    assert done.returncode == 2, (done.returncode, done.stderr[-3000:])
    located = next(n for n in lines if f"loopy.rules:{n}:" in done.stderr)
    assert_located(done, "E501", path, located, "turn ", "seat ", *names)


@pytest.mark.parametrize("pure", ENGINES)
def test_simulate_with_two_jobs_reports_the_same_located_error(pure, tmp_path):
    """Issue #19: a worker's run-time error reaches `simulate --jobs 2` as the same located error
    (not BrokenProcessPool, not a worker's traceback)."""
    path = spec(tmp_path, SELF)
    done = boardrules(pure, "simulate", str(path), "--games", "4", "--jobs", "2", cwd=tmp_path)
    assert_located(done, "E501", path, 4, "Free Parking")
    alone = boardrules(pure, "simulate", str(path), "--games", "4", cwd=tmp_path)
    assert alone.stderr.splitlines()[-6:] == done.stderr.splitlines()[-6:]


def test_replaying_a_log_stops_at_the_same_located_error(tmp_path):
    """Issue #19: a log replayed under a spec whose rule now loops stops with the same error as play."""
    path = spec(tmp_path, SELF.replace(">= 0", "< 0"))          # never taken: the game plays
    log = tmp_path / "game.json"
    played = boardrules(False, "play", str(path), "--seed", "1", "--log", str(log), "--json", cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    doc = json.loads(log.read_text(encoding="utf-8"))
    doc["header"]["ir_hash"] = None                                 # a log that names no IR version
    log.write_text(json.dumps(doc), encoding="utf-8")
    path.write_text(path.read_text(encoding="utf-8").replace("< 0", ">= 0"), encoding="utf-8")
    replayed = boardrules(False, "replay", str(log), cwd=tmp_path)
    assert_located(replayed, "E501", path, 4, "Free Parking")
    played = boardrules(False, "play", str(path), "--seed", "1", cwd=tmp_path)
    assert replayed.stderr == played.stderr


TAX = 'board {\n  square free_parking { on_land { draw chance } }\n}\n\ndeck chance "Chance" {\n' \
      '  card "Pay a share" { pay 100 / 7777 to bank }\n}\n'
RENT = 'rent {\n  station = printed[owned - 1] / 7777\n}\n'
DIVISIONS = {
    # the spec, the divisor the IR gets after the checks, the line of the rule
    "card": (TAX, ZERO, 8),
    "rent": (RENT, ZERO, 4),
    "empty_count": (RENT, NOBODY_BANKRUPT, 4),
}


@pytest.mark.parametrize("pure", ENGINES)
@pytest.mark.parametrize("case", DIVISIONS, ids=list(DIVISIONS))
def test_division_by_zero_is_a_located_error(case, pure, tmp_path):
    """Issue #19: a division by zero in a card, in a rent formula, by an empty count(...) is E502
    at the rule, naming the turn and the seat; never a ZeroDivisionError traceback."""
    body, divisor, line = DIVISIONS[case]
    path = spec(tmp_path, body)
    done = boardrules(pure, "play", str(path), "--seed", "1", swaps={"7777": divisor}, cwd=tmp_path)
    assert_located(done, "E502", path, line, "division by zero", "turn ", "seat ")


def test_the_engine_raises_a_rule_error_with_the_place_and_the_event(tmp_path):
    """Issue #19: the engine's own error (for any caller, not only the command line) carries the
    code, the place of the rule in the spec and the event that reached it."""
    path = spec(tmp_path, TAX)
    ir = grammar.compile_file(path)
    for deck in ir["decks"]:
        for card in deck["cards"]:
            if card["text"] == "Pay a share":
                card["effect"][0]["amount"]["right"] = ZERO
    with pytest.raises(interpreter.RuleError) as caught:
        interpreter.play(interpreter.load(ir), ["heuristic"] * 4, seed=1)
    error = caught.value
    assert error.code == "E502"
    assert (Path(error.file).name, error.line) == ("loopy.rules", 8)
    assert error.seat in range(4) and error.turn >= 0
    assert "card `Pay a share`" in str(error)


@pytest.mark.parametrize("pure", ENGINES)
def test_a_payment_out_of_range_is_a_located_error(pure, tmp_path):
    """Issue #19: money that grows without bound (the salary squared at each pass) stops at the
    first payment past the engine's range with E503 at the rule, instead of running on with
    ever longer numbers (or overflowing a strategy's arithmetic)."""
    path = spec(tmp_path, 'board {\n  square go { on_pass { collect me.cash * 7777 from bank } }\n}\n')
    cash = {"expr": "attr", "subject": {"expr": "var", "name": "me"}, "name": "cash"}
    done = boardrules(pure, "play", str(path), "--seed", "1", swaps={"7777": cash}, cwd=tmp_path)
    assert_located(done, "E503", path, 4, "out of range", "turn ", "seat ")


# a rent that reads past the printed rents (`printed[level + 6]`: a lot's list has 6), and one
# that reads before the first (`printed[0 - 1]`: Python would quietly read the last, the hotel)
INDICES = {
    "past_the_end": ({"expr": "bin", "operator": "+", "left": {"expr": "var", "name": "level"},
                      "right": {"expr": "int", "value": 6}}, "6"),
    "before_the_start": ({"expr": "neg", "operand": {"expr": "int", "value": 1}}, "-1"),
}


@pytest.mark.parametrize("pure", ENGINES)
@pytest.mark.parametrize("case", INDICES, ids=list(INDICES))
def test_an_index_outside_its_list_is_a_located_error(case, pure, tmp_path):
    """Issue #19 (found by the fuzz test): a rent formula reading a printed rent that is not
    there is E504 at the rule, naming the index; never an IndexError traceback, and never a
    negative index quietly reading from the end of the list."""
    index, shown = INDICES[case]
    path = spec(tmp_path, 'rent {\n  lot = printed[7777]\n}\n')
    done = boardrules(pure, "play", str(path), "--seed", "1", swaps={"7777": index}, cwd=tmp_path)
    assert_located(done, "E504", path, 4, f"index {shown}", "turn ", "seat ")
