"""`boardrules verify`: per edition, a verdict for every invariant x action, from Z3
(verifier.prove: the start state, each action's preservation, bounded checking where
induction fails) and from exploration (verifier.explore: Hypothesis plays the interpreter);
rendered as a terminal table or as JSON (docs/verifier.md, "Reading the table"). Printed
texts (cards, squares, the box) are read against the rules too (verifier.texts), the
edition's worked examples are played (verifier.examples), and what they exercise is
measured (verifier.coverage).

An exploration violation overrides the proof cells of its invariant: a concrete game that
breaks it outranks any symbolic verdict. Unknown never counts as a pass.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import grammar
from grammar.diagnostics import shown
from grammar.lookup import resolve

from . import trace as traces
from .coverage import CATEGORIES, TITLES, Coverage, measure
from .examples import LeftOut, Outcome, run_all, run_laid, spec_file
from .explore import Exploration, explore
from .texts import disagreements
from .verdicts import Bounded, Proved, Unknown, Verdict, Violated

if TYPE_CHECKING:
    from .symbolic.actions import Action
    from .vacuity import Vacuity

START = "start"          # the column of the initial state
EXPLORED = "explored"    # the column of exploration


@dataclass
class Report:
    """One edition's verdicts."""

    edition: str
    spec: str
    players: int
    depth: int
    invariants: list[dict]                      # name, text, origin; a step property's `on` its kind of step
    actions: list[str]                          # the columns, START first
    cells: dict[tuple[str, str], Verdict] = field(default_factory=dict)   # (invariant, action) -> verdict
    exploration: Exploration | None = None
    texts: list[str] = field(default_factory=list)   # printed texts that disagree with the rules (verifier.texts)
    dead: list[str] = field(default_factory=list)    # actions that can happen in no state the invariants allow
    examples: list[Outcome] | None = None            # the worked examples played (None: not yet)
    left_out: list[LeftOut] = field(default_factory=list)   # the edition's, which the variants laid over it change
    coverage: Coverage | None = None                 # what the examples that hold exercise (verifier.coverage)
    limits: dict[str, dict[str, int | None]] = field(default_factory=dict)   # row -> setting -> its fact (None: none)
    vacuity: dict[str, Vacuity] | None = None        # row -> whether its formula can fail (with proofs)
    seconds: float = 0.0

    @property
    def violated(self) -> bool:
        return any(isinstance(v, Violated) for v in self.cells.values())

    @property
    def failed(self) -> list[Outcome]:
        """The worked examples that do not hold."""
        return [x for x in self.examples or () if not x.passed]

    def tally(self) -> dict[str, int]:
        out = {"proved": 0, "bounded": 0, "violated": 0, "unknown": 0}
        for v in self.cells.values():
            out[_word(v)] += 1
        return out


def _word(verdict: Verdict) -> str:
    return {Proved: "proved", Bounded: "bounded", Violated: "violated", Unknown: "unknown"}[type(verdict)]


def verify(ir: dict, spec: str, players: int = 2, depth: int = 2, examples: int | None = None,
           trace_dir: Path = Path("traces"), prove: bool = True, searches: int | None = None) -> Report:
    """Every verdict for one edition; violation traces are written to `trace_dir`. Exploration
    searches again after each violation, at most `searches` times (default: until clean)."""
    report = proofs(ir, spec, players, depth, trace_dir, prove)
    return explored(report, exploration(ir, spec, examples, trace_dir, searches))


def proofs(ir: dict, spec: str, players: int = 2, depth: int = 2, trace_dir: Path = Path("traces"),
           prove: bool = True) -> Report:
    """The report without exploration: the Z3 cells (with `prove`) and the card texts. The
    two halves of `verify` are independent, so `boardrules verify` runs them side by side."""
    began = time.perf_counter()
    invs = [{"name": x["name"], "text": x["text"], "origin": x["origin"]} for x in ir["invariants"]] + \
        [{"name": x["name"], "text": x["text"], "origin": x["origin"], "kind": x["kind"]} for x in ir.get("steps", [])]
    examples, left_out = run_laid(grammar.compile_file(resolve(spec)), ir) if ir["edition"].get("variants") \
        else (run_all(ir), [])
    held = {(x.name, x.origin) for x in examples if x.passed}
    report = Report(target(ir), spec, players, depth, invs, [START] if prove else [],
                    texts=disagreements(ir), examples=examples, left_out=left_out,
                    coverage=measure(ir, [x for x in ir.get("examples") or () if (x["name"], x["origin"]) in held]),
                    limits={x["name"]: x["limits"] for x in ir["invariants"] + ir.get("steps", []) if "limits" in x})
    if prove:
        _prove(ir, report, trace_dir)
    report.seconds = time.perf_counter() - began
    return report


def target(ir: dict) -> str:
    """What a report is of: the edition, and each variant laid over it (`classic-se+short`)."""
    return ir["edition"]["key"] + "".join(f"+{v}" for v in ir["edition"].get("variants") or ())


def exploration(ir: dict, spec: str, examples: int | None = None, trace_dir: Path = Path("traces"),
                searches: int | None = None) -> tuple[Exploration, float]:
    """The exploration half of `verify`, with the seconds it took."""
    began = time.perf_counter()
    kwargs = {} if examples is None else {"examples": examples}
    found = explore(ir, spec=spec, trace_dir=trace_dir, searches=searches, **kwargs)
    return found, time.perf_counter() - began


def explored(report: Report, found: tuple[Exploration, float]) -> Report:
    """The report with its exploration (`exploration`'s result): a game that breaks an
    invariant is its `explored` cell; a game that passes is a test, not a verdict: no cell."""
    report.exploration, seconds = found
    report.actions.append(EXPLORED)
    broken = {t.violation["invariant"]: t for t in report.exploration.violations}
    for name, trace in broken.items():
        report.cells[(name, EXPLORED)] = Violated(trace.steps, f"a game breaks it at step {trace.violation['step']}",
                                                  trace.path)
    report.seconds += seconds
    return report


def _prove(ir: dict, report: Report, trace_dir: Path) -> None:
    """The Z3 cells: start, then each catalogue action; where an action is not shown to
    preserve an invariant, bounded model checking from the start state decides between
    `bounded` (no violation within the depth) and `violated` (with a trace)."""
    # Imported here, not at the top: prove and z3 add about 0.35 s to the 1.2 s the verifier
    # takes to import (python -X importtime), which `verify --no-prove` and `boardrules replay`
    # never need. (The same in the functions below.)
    from . import prove
    from .steps import actions_of
    from .symbolic.actions import catalogue

    acts = catalogue(ir, report.players)
    report.actions += [a.name for a in acts]
    for inv in _rows(report, steps=False):
        name = inv["name"]
        report.cells[(name, START)] = _traced(prove.prove_initial(ir, name, report.players),
                                              ir, report, name, trace_dir)
        for act in acts:
            report.cells[(name, act.name)] = prove.prove_preserves(ir, name, act, report.players)
    _bound_open(ir, report, trace_dir, acts)
    for prop in _rows(report, steps=True):
        for act in [a for a in acts if a.name in actions_of(prop["kind"], [a.name])]:
            report.cells[(prop["name"], act.name)] = prove.prove_step(ir, prop["name"], act, report.players)
    prove.step_lemmas(ir, report.cells)
    report.dead = [a.name for a in acts if prove.can_happen(ir, a, report.players) is False]
    from .vacuity import vacuity
    report.vacuity = vacuity(ir, report.players)


def _bound_open(ir: dict, report: Report, trace_dir: Path, acts: list[Action]) -> None:
    """Joint induction, then for each row with open cells one bounded check from the start
    state, whose verdict its open cells take."""
    from . import prove  # lazily: see `_prove`
    prove.joint(ir, report.cells)
    for inv in _rows(report, steps=False):
        name = inv["name"]
        open_cells = [a.name for a in acts if isinstance(report.cells[(name, a.name)], Unknown)]
        if not open_cells:
            continue
        checked = _traced(prove.bounded(ir, name, report.players, report.depth), ir, report, name, trace_dir)
        for action in open_cells:
            why = report.cells[(name, action)].reason
            if isinstance(checked, Bounded):
                report.cells[(name, action)] = Bounded(checked.bound, checked.players, f"{why}; {checked.reason}")
            elif isinstance(checked, Violated):
                report.cells[(name, action)] = checked
            else:                               # still unknown: say why the bounded check did not decide
                report.cells[(name, action)] = Unknown(f"{why}; bounded check: {checked.reason}")


def _rows(report: Report, steps: bool) -> list[dict]:
    """The report's step properties (`steps`), or its invariants."""
    return [inv for inv in report.invariants if ("kind" in inv) == steps]


def _traced(verdict: Verdict, ir: dict, report: Report, invariant: str, trace_dir: Path) -> Verdict:
    """A symbolic violation written as a trace file of catalogue actions (its `path`); the
    variants laid over the spec are named and the IR's hash kept, so `replay` plays the
    same rules or says they changed."""
    if isinstance(verdict, Violated):
        from .prove import playable  # lazily: see `_prove`
        doc = {"format": traces.FORMAT, "version": traces.VERSION, "kind": "actions", "edition": report.edition,
               "spec": report.spec, "variants": list(ir["edition"].get("variants") or ()),
               "ir_hash": playable(ir).hash, "players": report.players,
               "violation": {"invariant": invariant, "step": sum(step.get("action") != START for step in verdict.trace),
                             "reason": verdict.reason},
               "steps": [step for step in verdict.trace if step.get("action") != START]}   # the start state: no step
        verdict.path = traces.write_doc(doc, Path(trace_dir), f"{report.edition}-{invariant}-z3")
    return verdict


# ---- output ------------------------------------------------------------------------------

SHORT = {"proved": "ok", "bounded": "b", "violated": "VIOLATED", "unknown": "?"}


def render(report: Report) -> str:
    """The terminal table: one row per invariant, one cell per column; then the details of
    every cell that is not a plain proof, the counters and the summary line. Without proofs
    the only column is exploration's, so the invariants are listed instead, each with its
    violation where a game broke it."""
    cols = report.actions
    width = max(len(inv["name"]) for inv in report.invariants)
    if START not in cols:
        lines = [f"{report.edition} ({report.spec}): {len(report.invariants)} invariants, checked after every "
                 f"event of the explored games (Z3 proofs skipped)"]
        for inv in report.invariants:
            v = report.cells.get((inv["name"], EXPLORED))
            lines.append(f"  {inv['name']:<{width}}  {inv['text']}")
            if v is not None:
                lines.append("    " + _detail(inv["name"], EXPLORED, v))
    else:
        lines = _table(report, width)
    if report.exploration is not None:
        ex = report.exploration
        lines.append(f"explored {ex.counters.games} games of up to {ex.rounds} rounds: {ex.counters.events:,} events, "
                     f"{len(ex.violations)} violations (testing, not proof)")
        lines += _wrapped("events: ", _counts(ex))
        if ex.shortfalls:
            lines.append("under their minimum: "
                         + ", ".join(f"{k} {n}/{least}" for k, (n, least) in ex.shortfalls.items()))
    if report.dead:
        lines.append("dead rules (can happen in no state the invariants allow): " + ", ".join(report.dead))
    lines += _facts(report) + _vacuity(report)
    if report.texts:
        lines.append("printed texts that disagree with the rules:" + "".join(f"\n  {t}" for t in report.texts))
    else:
        lines.append("printed texts: every amount on a card or square is one its effect moves, the way its words say "
                     "(or the salary, where it moves the token); the box's counts and the deeds' rents are the rules'")
    if report.examples or report.left_out:
        lines.append(f"worked examples: {len(report.examples or ()) - len(report.failed)} of "
                     f"{len(report.examples or ())} hold" + _left_out(report) +
                     "".join(f"\n  example `{x.name}` FAILS at "
                             f"{shown(spec_file(x.origin, report.spec))}:{x.line}: {x.why}"
                             for x in report.failed))
    if report.coverage is not None:
        lines += _covered(report.coverage)
    t = report.tally()
    if START in cols:
        lines.append(f"{verdict(report)}: {t['proved']} proved, {t['bounded']} bounded, {t['violated']} violated, "
                     f"{t['unknown']} unknown (unknown is not a pass) in {report.seconds:.1f} s")
    elif report.violated:
        lines.append(f"VIOLATED: {t['violated']} invariant{'s' * (t['violated'] != 1)} broken{_in_games(report)} "
                     f"(Z3 proofs skipped) in {report.seconds:.1f} s")
    else:
        lines.append(f"{verdict(report)} in {report.seconds:.1f} s")
    return "\n".join(lines)


def _facts(report: Report) -> list[str]:
    """Which rows check a setting they read against the number the source prints, and which
    are circular here: they read a setting the source of this edition prints no number for,
    so a wrong number there keeps them (docs/verifier.md, "Independent facts")."""
    checked = [f"{name} ({', '.join(f'{path} = {fact}' for path, fact in limits.items() if fact is not None)})"
               for name, limits in report.limits.items() if any(v is not None for v in limits.values())]
    circular = [f"{name} ({', '.join(f'`{path}`' for path, fact in limits.items() if fact is None)})"
                for name, limits in report.limits.items() if any(v is None for v in limits.values())]
    lines = _wrapped("facts: read against what the source prints: ", checked) if checked else []
    if circular:
        lines += _wrapped("circular (the source prints no number for the setting, so a wrong one keeps them): ",
                          circular)
    return lines


def _vacuous_mark(report: Report, name: str) -> str:
    found = (report.vacuity or {}).get(name)
    return "VACUOUS: " if found is not None and found.vacuous else ""


def _vacuity(report: Report) -> list[str]:
    """Non-vacuity: how many rows' formulas Z3 shows a state breaking (the witnesses are in
    `--json`), then each row no state breaks (vacuous) and each it could not tell."""
    if report.vacuity is None:
        return []
    found = report.vacuity
    can_fail = [name for name, v in found.items() if v.fails]
    lines = [f"non-vacuity: {len(can_fail)} of {len(found)} formulas fail in some state (Z3; each witness in --json)"]
    lines += [f"  {name}: VACUOUS: {v.reason}" for name, v in found.items() if v.vacuous]
    lines += [f"  {name}: can it fail? unknown: {v.reason}" for name, v in found.items() if v.fails is None]
    lines += [f"  {name}: can never hold" for name, v in found.items() if v.holds is False]
    return lines


def _facts_json(report: Report) -> dict[str, dict]:
    """`checked`: each row's settings with the number the source prints; `circular`: each
    row's settings it prints none for."""
    checked = {name: {path: fact for path, fact in limits.items() if fact is not None}
               for name, limits in report.limits.items()}
    circular = {name: [path for path, fact in limits.items() if fact is None] for name, limits in report.limits.items()}
    return {"checked": {name: found for name, found in checked.items() if found},
            "circular": {name: found for name, found in circular.items() if found}}


def _left_out(report: Report) -> str:
    """Under variants: how many of the edition's examples they leave out, and why each."""
    if not report.left_out:
        return ""
    n = len(report.left_out)
    return (f"; {n} of the edition's left out, as the variants change {'their' if n != 1 else 'its'} play" +
            "".join(f"\n  example `{x.name}` left out ({shown(spec_file(x.origin, report.spec))}:{x.line}): {x.why}"
                    for x in report.left_out))


def _covered(coverage: Coverage) -> list[str]:
    """What the worked examples exercise, per category (docs/verifier.md, "Example
    coverage"), and each item none does."""
    shares = ", ".join(f"{TITLES[c]} {len(coverage.by[c])}/{len(coverage.items[c])}" for c in CATEGORIES
                       if coverage.items[c])
    lines = [f"example coverage ({coverage.examples} examples that hold): {shares or 'nothing to cover'}"]
    for category in CATEGORIES:
        missed = coverage.uncovered(category)
        if missed:
            lines += _wrapped(f"not exercised, {TITLES[category]}: ",
                              [_named(category, key, coverage.items[category][key]) for key in missed])
    return lines


def _named(category: str, key: str, what: str) -> str:
    """An uncovered item as the report lists it: a card with the start of its text."""
    if category != "cards":
        return key
    return f"{key} \"{what[:40]}{'...' if len(what) > 40 else ''}\""


def _wrapped(head: str, items: list[str], width: int = 100) -> list[str]:
    """`items` after `head`, comma-separated, in indented lines of at most `width`
    characters where the items allow, never breaking one."""
    lines, line = [], "  " + head.rstrip()
    for i, item in enumerate(items):
        text = item + ("," if i < len(items) - 1 else "")
        if len(line) + 1 + len(text) > width:
            lines.append(line)
            line = "   "
        line += " " + text
    return lines + [line]


def verdict(report: Report) -> str:
    """The report in a few words: VIOLATED, EXAMPLES FAIL, ok, or what falls short of ok."""
    if report.violated:
        return "VIOLATED"
    if report.failed:
        return "EXAMPLES FAIL"
    if START not in report.actions:
        return f"no violation found{_in_games(report)}, nothing proved (Z3 proofs skipped)"
    return "not everything proved" if report.tally()["unknown"] else "ok"


def _in_games(report: Report) -> str:
    return f" in {report.exploration.counters.games} games" if report.exploration else ""


def _table(report: Report, width: int) -> list[str]:
    """The grid of verdicts, one column per action, and the details of every cell that is
    not a plain proof."""
    cols = report.actions
    lines = [f"{report.edition} ({report.spec}): {len(report.invariants)} invariants x {len(cols)} columns, "
             f"{report.players} players, bounded depth {report.depth}"]
    index = {column: i + 1 for i, column in enumerate(cols)}
    lines.append("columns: " + ", ".join(f"{index[column]}={column}" for column in cols))
    lines.append(" " * width + "  " + " ".join(f"{index[column]:>2}" for column in cols))
    for inv in report.invariants:
        marks = []
        for column in cols:
            v = report.cells.get((inv["name"], column))
            marks.append(" -" if v is None else {"proved": " .", "bounded": " b", "violated": " X",
                                                 "unknown": " ?"}[_word(v)])
        lines.append(f"{inv['name']:<{width}}  " + " ".join(marks) + f"   {_vacuous_mark(report, inv['name'])}"
                     f"{inv['text']}")
    lines.append("(. proved, b bounded, X violated, ? unknown, - no verdict; VACUOUS: no state breaks its formula)")
    for inv in report.invariants:
        for column in cols:
            v = report.cells.get((inv["name"], column))
            if v is None or isinstance(v, Proved):
                continue
            lines.append("  " + _detail(inv["name"], column, v))
    return lines


def _detail(invariant: str, column: str, v: Verdict) -> str:
    word = _word(v)
    if isinstance(v, Bounded):
        return f"{invariant} x {column}: bounded (k={v.bound}, {v.players} players): {v.reason}"
    if isinstance(v, Violated):
        where = v.path
        return f"{invariant} x {column}: VIOLATED: {v.reason}" + (f"; trace {where} (boardrules replay {where})"
                                                                   if where else "")
    return f"{invariant} x {column}: {word}: {v.reason}"


def _counts(ex: Exploration) -> list[str]:
    """How often each kind of event happened, then how many distinct cards were drawn."""
    counts = ex.counters.counts
    keys = [k for k in counts if not k.startswith(("card:", "rule:"))]
    cards = sum(1 for k in counts if k.startswith("card:"))
    return [f"{k} {counts[k]}" for k in sorted(keys)] + [f"{cards} distinct cards drawn"]


def to_json(report: Report) -> dict:
    cells = []
    for inv in report.invariants:
        for column in report.actions:
            v = report.cells.get((inv["name"], column))
            if v is None:
                continue
            cell: dict[str, object] = {"invariant": inv["name"], "action": column, "verdict": _word(v)}
            if isinstance(v, Bounded):
                cell |= {"bound": v.bound, "players": v.players, "reason": v.reason}
            elif isinstance(v, Unknown):
                cell["reason"] = v.reason
            elif isinstance(v, Violated):
                cell |= {"trace": str(v.path or ""), "reason": v.reason}
            elif v.reason:
                cell["reason"] = v.reason
            cells.append(cell)
    ex = report.exploration
    return {"edition": report.edition, "spec": report.spec, "players": report.players, "depth": report.depth,
            "proofs": START in report.actions,
            "invariants": report.invariants, "cells": cells, "summary": report.tally(), "printed_texts": report.texts,
            "dead_actions": report.dead if START in report.actions else None,
            "facts": _facts_json(report),
            "vacuity": None if report.vacuity is None else {name: v.to_json() for name, v in report.vacuity.items()},
            "examples": None if report.examples is None else
            [x.to_json() | {"file": shown(spec_file(x.origin, report.spec))} for x in report.examples],
            "examples_left_out": [x.to_json() | {"file": shown(spec_file(x.origin, report.spec))}
                                  for x in report.left_out],
            "coverage": None if report.coverage is None else report.coverage.to_json(),
            "exploration": ex.counters.to_json() | {"examples": ex.examples, "rounds": ex.rounds,
                                                    "under_minimum": {k: {"count": n, "minimum": least}
                                                                      for k, (n, least) in ex.shortfalls.items()}}
            if ex else None,
            "seconds": round(report.seconds, 2)}
