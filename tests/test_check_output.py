"""`boardrules check` for editors and CI (issue 24, tools item 2): `--json` and `--format
sarif` carry every error and warning with its code, severity, file, line, column, end,
message and hint; `--strict` fails on warnings (issue 18 item 6). Exit statuses are those
of the text output: 2 on any error, 0 otherwise."""
from __future__ import annotations

import json
from pathlib import Path

from tests.test_cli import EDITIONS, run

# A child of the US edition with one error (an unknown square, E203) and nothing else.
BROKEN = 'edition broken extends classic-us\ndeck chance "Chance" { card "Go" { move to go_to_jial } }\n'
# A child that compiles, with one warning: US chance "Pay each player $50" paid to the bank (W103).
WARNED = ('edition warned extends classic-us\ndeck chance { card "You have been elected Chairman of the Board. '
          'Pay each player $50" { pay 50 to bank } }\n')
KEYS = {"code", "severity", "file", "line", "column", "end_line", "end_column", "message", "hint", "note"}


def _spec(tmp_path: Path, text: str, name: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_json_of_a_broken_spec_locates_each_error(tmp_path: Path):
    """An error comes with its code, its place from start to end, its message and hint; exit 2."""
    spec = _spec(tmp_path, BROKEN, "broken.rules")
    result = run("check", "--json", str(spec))
    assert result.exit_code == 2, result.stderr
    report = json.loads(result.stdout)
    assert (report["ok"], report["errors"], report["warnings"]) == (False, 1, 0)
    [checked] = report["specs"]
    assert (checked["spec"], checked["ok"]) == (str(spec), False)
    [error] = checked["diagnostics"]
    assert set(error) == KEYS
    assert error["file"].endswith("broken.rules")
    assert (error["code"], error["severity"], error["line"], error["column"]) == ("E203", "error", 2, 44)
    assert (error["end_line"], error["end_column"]) == (2, 54)        # `go_to_jial`: ten characters
    assert error["message"] == "unknown square `go_to_jial`" and error["hint"] == "did you mean `go_to_jail`?"


def test_json_of_clean_specs_is_ok_and_empty():
    """The bundled editions: ok, no diagnostics, exit 0; nothing but the JSON on standard output."""
    result = run("check", "--json", *EDITIONS)
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert (report["ok"], report["errors"], report["warnings"]) == (True, 0, 0)
    assert [(c["spec"], c["ok"], c["diagnostics"]) for c in report["specs"]] == [(e, True, []) for e in EDITIONS]


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
    report = json.loads(run("check", "--json", str(spec)).stdout)
    [warning] = report["specs"][0]["diagnostics"]
    assert (report["ok"], warning["code"], warning["severity"], warning["line"], warning["column"],
            warning["end_column"]) == (True, "W103", "warning", 2, 70, 81)     # under `each player`
    strict_json = run("check", "--json", "--strict", str(spec))
    assert strict_json.exit_code == 2
    assert json.loads(strict_json.stdout)["specs"][0]["diagnostics"][0]["severity"] == "error"


def test_sarif_carries_each_diagnostic(tmp_path: Path):
    """`--format sarif`: SARIF 2.1.0, one rule per code, one result per diagnostic, located."""
    broken, warned = _spec(tmp_path, BROKEN, "broken.rules"), _spec(tmp_path, WARNED, "warned.rules")
    result = run("check", "--format", "sarif", str(broken), str(warned))
    assert result.exit_code == 2
    sarif = json.loads(result.stdout)
    assert sarif["version"] == "2.1.0"
    [sarif_run] = sarif["runs"]
    assert [rule["id"] for rule in sarif_run["tool"]["driver"]["rules"]] == ["E203", "W103"]
    found = [(r["ruleId"], r["level"], r["locations"][0]["physicalLocation"]["region"]) for r in sarif_run["results"]]
    assert found == [("E203", "error", {"startLine": 2, "startColumn": 44, "endLine": 2, "endColumn": 54}),
                     ("W103", "warning", {"startLine": 2, "startColumn": 70, "endLine": 2, "endColumn": 81})]
    assert "hint: did you mean `go_to_jail`?" in sarif_run["results"][0]["message"]["text"]


def test_two_formats_at_once_are_refused():
    for args in (["--json", "--format", "sarif"], ["--ir", "--json"]):
        result = run("check", *args, "classic-us")
        assert result.exit_code == 2 and "give one of them" in result.stderr, result.stderr
