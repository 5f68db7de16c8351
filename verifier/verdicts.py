"""The verifier's verdicts: exactly one of proved, holds up to a bound, violated (with a
concrete trace) or unknown (with the reason). Unknown never counts as a pass."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Proved:
    reason: str = ""            # how: "inductive", or the invariants it was strengthened with
    passed = True

    def to_json(self) -> dict:
        out = {"verdict": "proved"}
        if self.reason:
            out["reason"] = self.reason
        return out


@dataclass
class Bounded:
    bound: int
    players: int
    reason: str = ""            # why not unbounded
    passed = True

    def to_json(self) -> dict:
        return {"verdict": "bounded", "bound": self.bound, "players": self.players, "reason": self.reason}


@dataclass
class Violated:
    trace: list                 # steps: {"action", "args", "choices", "changed"}
    reason: str = ""
    path: Path | None = field(default=None, compare=False, repr=False)   # its trace file, once written
    passed = False

    def to_json(self) -> dict:
        return {"verdict": "violated", "trace": self.trace, "reason": self.reason}


@dataclass
class Unknown:
    reason: str
    model: dict = field(default_factory=dict)   # a counterexample to induction, when there is one
    gave_up: bool = False       # the solver stopped at its resource limit: nothing was found either way
    passed = False

    def to_json(self) -> dict:
        out: dict[str, str | dict] = {"verdict": "unknown", "reason": self.reason}
        if self.model:
            out["model"] = self.model
        return out


Verdict = Proved | Bounded | Violated | Unknown
