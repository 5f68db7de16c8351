"""`boardrules check`'s warnings: told, located, and passing unless `--strict` (issue 18
item 6)."""
from __future__ import annotations

from pathlib import Path

from tests.test_cli import run

# A child that compiles, with one warning: US chance "Pay each player $50" paid to the bank (W103).
WARNED = ('edition warned extends classic-us\ndeck chance { card "You have been elected Chairman of the Board. '
          'Pay each player $50" { pay 50 to bank } }\n')


def _spec(tmp_path: Path, text: str, name: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_warnings_pass_unless_strict(tmp_path: Path):
    """Issue 18 item 6: a warning does not change the exit status; `--strict` makes it an error."""
    spec = _spec(tmp_path, WARNED, "warned.rules")
    plain = run("check", str(spec))
    assert plain.exit_code == 0, plain.stderr
    assert plain.stdout == f"ok: {spec} (1 warning)\n"
    assert "warning[W103]" in plain.stderr and f"{spec}:2:70" in plain.stderr and "hint" in plain.stderr
    strict = run("check", "--strict", str(spec))
    assert strict.exit_code == 2 and strict.stdout == ""
    assert "error[W103]" in strict.stderr
