"""Read a saved game log, turning every way it can be broken into a located error."""
from __future__ import annotations

import json
from pathlib import Path

from grammar import Diagnostic, SpecError

from .editions import UsageError

# The keys `replay` needs; the interpreter checks the rest as it replays.
REQUIRED = {"header": dict, "events": list, "final": dict}


def _error(code: str, message: str, path: Path, line: int, column: int, hint: str) -> SpecError:
    return SpecError([Diagnostic(code=code, message=message, file=str(path), line=line, column=column, hint=hint)])


def read_json(path: Path) -> object:
    """The JSON in a game log or a trace file; a located error if it cannot be read."""
    if not path.is_file():
        raise UsageError(f"no game log `{path}`", "write one with `boardrules play SPEC --log FILE`")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise _error("E901", "game log is not UTF-8 text", path, 1, error.start + 1, "is this the file `play --log` wrote?")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise _error("E902", f"game log is not valid JSON: {error.msg.lower()}", path, error.lineno, error.colno,
                     "the file was cut short or edited by hand; write it again with `boardrules play SPEC --log FILE`")


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
                         "expected keys: " + ", ".join(REQUIRED) + "; write it again with `boardrules play SPEC --log FILE`")
    if not isinstance(log["header"].get("spec"), str):
        raise _error("E903", "game log header names no spec", path, 1, 1, "the header needs `spec`: the edition id or path played")
    return log
