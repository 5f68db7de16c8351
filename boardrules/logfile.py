"""Read a saved game log, turning every way it can be broken into a located error."""
from __future__ import annotations

import json
import re
from pathlib import Path

from grammar import Diagnostic, SpecError
from grammar.diagnostics import bad_byte
from interpreter import strategies

from .editions import UsageError

# The keys `replay` needs; the interpreter checks the rest as it replays.
REQUIRED = {"header": dict, "events": list, "final": dict}


def _error(code: str, message: str, path: Path, line: int, column: int, hint: str) -> SpecError:
    return SpecError([Diagnostic(code=code, message=message, file=str(path), line=line, column=column, hint=hint)])


def read_json(path: Path) -> object:
    """The JSON in a game log or a trace file; a located error if it cannot be read."""
    if not path.is_file():
        raise UsageError(f"no game log `{path}`", "write one with `boardrules play SPEC --log FILE`")
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line, column, _ = bad_byte(data, error)
        raise _error("E901", "game log is not UTF-8 text", path, line, column,
                     "is this the file `play --log` wrote?") from error
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise _error("E902", f"game log is not valid JSON: {error.msg.lower()}", path, error.lineno, error.colno,
                     "the file was cut short or edited by hand; "
                     "write it again with `boardrules play SPEC --log FILE`") from error


def read_log(path: Path, log: object = None) -> dict:
    """Parse a log file written by `play --log` (or check `log`, already read from it);
    raise a located error if it is not one."""
    if log is None:
        log = read_json(path)
    if not isinstance(log, dict):
        raise _error("E903", "game log must be a JSON object", path, 1, 1, "expected keys: " + ", ".join(REQUIRED))
    for key, kind in REQUIRED.items():
        if not isinstance(log.get(key), kind):
            raise _error("E903", f"game log has no `{key}` {kind.__name__}", path, 1, 1,
                         "expected keys: " + ", ".join(REQUIRED)
                         + "; write it again with `boardrules play SPEC --log FILE`")
    if not isinstance(log["header"].get("spec"), str):
        raise _error("E903", "game log header names no spec", path, 1, 1,
                     "the header needs `spec`: the edition id or path played")
    _check_header(path, log["header"])
    return log


AGAIN = "write the log again with `boardrules play SPEC --log FILE`"


def _check_header(path: Path, header: dict) -> None:
    """Refuse, before any replay, a header that no `play --log` writes: each value of the
    wrong type or out of range is pointed at in the file."""
    players, seed, max_turns, variants = (header.get(key) for key in ("players", "seed", "max_turns", "variants"))
    if not isinstance(players, list):
        raise _at(path, ("header", "players"), "game log header: `players` must be a list of strategy names", AGAIN)
    for seat, name in enumerate(players):
        if name not in strategies.NAMES:
            raise _at(path, ("header", "players", seat), f"game log header: unknown strategy `{name}` in seat {seat}",
                      "strategies: " + ", ".join(strategies.NAMES))
    if type(seed) is not int:
        raise _at(path, ("header", "seed"), "game log header: `seed` must be a whole number", AGAIN)
    if seed < 0:
        raise _at(path, ("header", "seed"), f"game log header: negative seed {seed}",
                  "`play` takes seeds from 0; " + AGAIN)
    if max_turns is not None and (type(max_turns) is not int or max_turns < 1):
        raise _at(path, ("header", "max_turns"), "game log header: `max_turns` must be a whole number from 1, or null",
                  AGAIN)
    if variants is not None and not (isinstance(variants, list) and all(isinstance(v, str) for v in variants)):
        raise _at(path, ("header", "variants"), "game log header: `variants` must be a list of variant paths", AGAIN)


def check_seats(path: Path, log: dict, ir: dict) -> None:
    """Refuse a log that seats more or fewer players than its edition allows."""
    limits, seats = ir["settings"]["game"]["players"], len(log["header"]["players"])
    if not limits["min"] <= seats <= limits["max"]:
        raise _at(path, ("header", "players"),
                  f"game log header seats {seats} player{'s' * (seats != 1)}; `{ir['edition']['key']}` is for "
                  f"{limits['min']} to {limits['max']}", AGAIN)


def _at(path: Path, keys: tuple, message: str, hint: str) -> SpecError:
    """An E903 error at the value that `keys` (object keys, list indices) lead to in the file."""
    text = path.read_text(encoding="utf-8")
    at = _BLANK.match(text).end()
    for key in keys:
        at = _member(text, at, key)
    return _error("E903", message, path, text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at), hint)


_DECODER = json.JSONDecoder()
_BLANK = re.compile(r"[ \t\n\r]*")


def _member(text: str, at: int, key: str | int) -> int:
    """Where member `key` of the JSON object (or item `key` of the list) starting at `at`
    begins: of repeated keys the last, the one `json.loads` keeps."""
    found, index, is_object = at, 0, text[at] == "{"
    at = _BLANK.match(text, at + 1).end()
    while text[at] not in "}]":
        name: str | int = index
        if is_object:
            name, at = _DECODER.raw_decode(text, at)
            at = _BLANK.match(text, _BLANK.match(text, at).end() + 1).end()     # past the colon
        if name == key:
            found = at
        at = _BLANK.match(text, _DECODER.raw_decode(text, at)[1]).end()
        if text[at] == ",":
            at = _BLANK.match(text, at + 1).end()
        index += 1
    return found
