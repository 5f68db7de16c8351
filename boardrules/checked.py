"""What `boardrules check` found, for people, for editors and CI: each spec's errors and
warnings as text, as JSON (`--json`) or as SARIF 2.1.0 (`--format sarif`, which code-scanning
services and editors read). docs/command-line.md shows each."""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace

from grammar import Diagnostic, SpecError

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


@dataclass
class Checked:
    """One spec (with the variants laid over it) and what checking it found."""

    spec: str
    variants: tuple[str, ...]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    ir: dict | None = None           # None when it did not compile

    @property
    def failed(self) -> bool:
        return any(d.severity == "error" for d in self.diagnostics)

    def count(self, severity: str) -> int:
        return sum(d.severity == severity for d in self.diagnostics)

    def strict(self) -> Checked:
        """The same findings with every warning an error (`check --strict`)."""
        return replace(self, diagnostics=[replace(d, severity="error") for d in self.diagnostics])

    def as_json(self) -> dict:
        return {"spec": self.spec, "variants": list(self.variants), "ok": not self.failed,
                "errors": self.count("error"), "warnings": self.count("warning"),
                "diagnostics": [d.as_json() for d in self.diagnostics]}


def text(checked: Checked) -> tuple[str, str]:
    """What `check` prints of one spec: (standard output, standard error)."""
    errors = [d for d in checked.diagnostics if d.severity == "error"]
    warnings = [d for d in checked.diagnostics if d.severity == "warning"]
    said = "\n\n".join(([SpecError(errors).render()] if errors else []) + [w.render() for w in warnings])
    if errors:
        return "", said
    counted = f" ({len(warnings)} warning{'s' * (len(warnings) != 1)})" if warnings else ""
    return f"ok: {checked.spec}" + "".join(f" --variant {v}" for v in checked.variants) + counted, said


def as_json(results: list[Checked], strict: bool) -> str:
    """Every spec's findings: `ok`, the counts and each diagnostic's code, severity, place
    (file, line, column, end line, end column), message, hint and note."""
    return json.dumps({"ok": not any(r.failed for r in results), "strict": strict,
                       "errors": sum(r.count("error") for r in results),
                       "warnings": sum(r.count("warning") for r in results),
                       "specs": [r.as_json() for r in results]}, ensure_ascii=False, indent=2)


def as_sarif(results: list[Checked]) -> str:
    """The findings as one SARIF 2.1.0 run: a rule per code met, a result per diagnostic."""
    found = [d for r in results for d in r.diagnostics]
    codes = sorted({d.code for d in found})
    rules = [{"id": code, "helpUri": f"docs/errors.md#{code.lower()}"} for code in codes]
    return json.dumps({"version": "2.1.0", "$schema": SARIF_SCHEMA, "runs": [{
        "tool": {"driver": {"name": "boardrules", "rules": rules}},
        "results": [_sarif_result(d, codes.index(d.code)) for d in found]}]}, ensure_ascii=False, indent=2)


def _sarif_result(diagnostic: Diagnostic, rule: int) -> dict:
    data = diagnostic.as_json()
    message = data["message"] + (f" (hint: {data['hint']})" if data["hint"] else "")
    result: dict = {"ruleId": diagnostic.code, "ruleIndex": rule, "level": diagnostic.severity,
                    "message": {"text": message}}
    if data["file"]:
        region = {key: data[name] for key, name in (("startLine", "line"), ("startColumn", "column"),
                                                    ("endLine", "end_line"), ("endColumn", "end_column"))
                  if data[name] is not None}
        location: dict = {"artifactLocation": {"uri": data["file"].replace("\\", "/")}}
        if region:
            location["region"] = region
        result["locations"] = [{"physicalLocation": location}]
    return result
