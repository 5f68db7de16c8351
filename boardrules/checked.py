"""What `boardrules check` found: each spec's errors and warnings, as text for people
(docs/command-line.md)."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from grammar import Diagnostic, SpecError


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


def text(checked: Checked) -> tuple[str, str]:
    """What `check` prints of one spec: (standard output, standard error)."""
    errors = [d for d in checked.diagnostics if d.severity == "error"]
    warnings = [d for d in checked.diagnostics if d.severity == "warning"]
    said = "\n\n".join(([SpecError(errors).render()] if errors else []) + [w.render() for w in warnings])
    if errors:
        return "", said
    counted = f" ({len(warnings)} warning{'s' * (len(warnings) != 1)})" if warnings else ""
    return f"ok: {checked.spec}" + "".join(f" --variant {v}" for v in checked.variants) + counted, said
