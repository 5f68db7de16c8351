"""`boardrules verify` and the replay of trace files: the command-line side of verifier/."""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import click
from tqdm import tqdm

from grammar.lookup import concrete_editions
from interpreter import ReplayError
from verifier import atomic
from verifier import trace as traces
from verifier.steps import StepViolation
from verifier.verify import exploration, explored, proofs, render, target, to_json

from .editions import UsageError, load, variant_targets
from .logfile import _error
from .workers import workers


def run(specs: tuple[str, ...], as_json: bool, depth: int, examples: int | None, players: int, mutate: bool,
        trace_dir: Path, prove: bool, variants: tuple[str, ...] = (), only: str = "") -> int:
    """Verify each spec (when none is given: every bundled concrete edition, and every bundled
    variant laid over the first edition of its family), with the variants laid over it, and
    score its mutants (those described with `only`); the exit
    status: 1 when anything is violated or a worked example fails, else 0 (surviving mutants
    are a report, not a failure).
    Each spec's proofs and its exploration run side by side, one process per core."""
    began = time.perf_counter()
    if only and not mutate:
        raise UsageError("`--mutants` chooses among the mutants of `--mutate`", "add --mutate")
    targets = [(spec, variants) for spec in specs] if specs else \
        [(eid, variants) for eid in concrete_editions()] + \
        ([(eid, (variant,)) for eid, variant in variant_targets()] if not variants else [])
    jobs = []
    for spec, laid in targets:                  # spec errors are reported here, before any work
        ir = load(spec, laid).ir
        if mutate:
            from verifier.mutate import mutants
            if not any(only in m.description for m in mutants(ir)):
                raise UsageError(f"no mutant of `{spec}` is described with `{only}`",
                                 "see the mutants in `boardrules verify SPEC --mutate --json`")
        jobs.append((ir, spec, players, depth, examples, trace_dir, prove, mutate, only))
    # the proofs and the exploration of each spec are independent tasks: the long ones
    # (the proofs) first, so the short ones fill the cores at the end
    tasks = [(part, job) for part in ("prove", "explore", "mutate") for job in jobs if part != "mutate" or mutate]
    done: dict[int, object] = {}
    # in worker processes even on one core: Ctrl-C ends a worker inside a Z3 call at once
    try:
        with workers(min(len(tasks), os.cpu_count() or 1)) as pool, \
                tqdm(total=len(tasks), unit="part", file=sys.stderr, disable=None, leave=False) as bar:
            for i, result in pool.imap_unordered(_numbered, enumerate(tasks), chunksize=1):
                done[i] = result
                part, job = tasks[i]
                bar.set_postfix_str(f"{target(job[0])} {part} done", refresh=False)
                bar.update()
    finally:
        # a worker ended while writing a trace leaves its temporary file
        atomic.sweep(Path(trace_dir), "*.trace.json")
    parts = {(part, id(job)): done[i] for i, (part, job) in enumerate(tasks)}
    results = [_one(job, parts[("prove", id(job))], parts[("explore", id(job))], parts.get(("mutate", id(job))))
               for job in jobs]
    entries = [entry for _, entry, _ in results]
    seconds = time.perf_counter() - began
    if as_json:
        click.echo(json.dumps({"editions": entries, "summary": totals(entries, seconds)},
                              ensure_ascii=False, indent=1))
    else:
        for text, _, _ in results:
            click.echo(text)
            click.echo()
        click.echo(summary(entries, seconds))
    return 1 if any(violated for _, _, violated in results) else 0


def _numbered(task: tuple[int, tuple]) -> tuple[int, object]:
    """`_part` of a numbered task, with its number: the parts come back as they finish."""
    i, part = task
    return i, _part(part)


COLUMNS = ("proved", "bounded", "violated", "unknown")


def totals(entries: list[dict], seconds: float) -> dict:
    """The run's verdicts added up over its targets, and its wall time."""
    out: dict = {"targets": len(entries), "seconds": round(seconds, 1)}
    for column in COLUMNS:
        out[column] = sum(entry["summary"][column] for entry in entries)
    out["examples_failed"] = sum(sum(1 for x in entry["examples"] or () if not x["passed"]) for entry in entries)
    return out


def summary(entries: list[dict], seconds: float) -> str:
    """One row per target (its verdicts, its worked examples held of those played and, under
    variants, those left out, the games explored, its seconds), then the run in one line: what
    a reader looks for first. Without proofs the columns of proof verdicts are left out."""
    columns = COLUMNS if any(entry["proofs"] for entry in entries) else ("violated",)
    width = max(len(entry["edition"]) for entry in entries + [{"edition": "target"}])
    out = any(entry.get("examples_left_out") for entry in entries)      # under variants: examples left out
    lines = [f"{'target':<{width}}  " + "  ".join(f"{c:>8}" for c in columns)
             + f"  {'examples':>8}" + f"  {'left out':>8}" * out + f"  {'games':>5}  {'seconds':>7}"]
    for entry in entries:
        examples, explored = entry["examples"], entry["exploration"]
        held = "-" if examples is None else f"{sum(1 for x in examples if x['passed'])}/{len(examples)}"
        games = "-" if explored is None else str(explored["games"])
        lines.append(f"{entry['edition']:<{width}}  " + "  ".join(f"{entry['summary'][c]:>8,}" for c in columns)
                     + f"  {held:>8}" + f"  {len(entry.get('examples_left_out') or ()):>8}" * out
                     + f"  {games:>5}  {entry['seconds']:>7.1f}")
    t = totals(entries, seconds)
    n = t["examples_failed"]
    failed = f", {n} worked example{'s' * (n != 1)} fail{'s' * (n == 1)}" if n else ""
    verdicts = f"{t['violated']:,} violated" + (f", {t['proved']:,} proved, {t['bounded']:,} bounded, "
                                                f"{t['unknown']:,} unknown" if len(columns) > 1 else
                                                ", Z3 proofs skipped")
    lines.append(f"{t['targets']} target{'s' * (t['targets'] != 1)}: {verdicts}{failed} ({_duration(seconds)})")
    return "\n".join(lines)


def _duration(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest:02d} s" if minutes else f"{seconds:.1f} s"


def _part(task):
    """One part of one spec's verification (plain data, so a worker process can hand it
    back): its proofs (a report without exploration), its exploration, or its mutation score."""
    part, (ir, spec, players, depth, examples, trace_dir, prove, mutate, only) = task
    if part == "prove":
        return proofs(ir, spec, players, depth, trace_dir, prove)
    if part == "explore":
        return exploration(ir, spec, examples, trace_dir)
    from verifier.mutate import mutation_score
    return mutation_score(ir, players=players, only=only).to_json()


def _one(job, report, found, mutation: dict | None) -> tuple[str, dict, bool]:
    """One spec's verdicts as (the table, its JSON entry, violated)."""
    report = explored(report, found)
    entry = to_json(report)
    text = render(report)
    if mutation is not None:
        entry["mutation"] = mutation
        text += (f"\nmutation score {mutation['score']:.0%}: {mutation['killed']} killed, "
                 f"{mutation['survived']} survived"
                 + "".join(f"\n  survived: {survivor}" for survivor in mutation["survivors"]))
    return text, entry, report.violated or bool(report.failed)


def replay_trace(path: Path, doc: dict, as_json: bool) -> int:
    """Replay a trace file in the interpreter; exit status 1 when it reproduces its violation
    (the edition is broken, as the trace says), a ReplayError when it does not."""
    problem = traces.problem(doc)
    if problem is not None:
        raise _error("E903", problem, path, 1, 1, "write it again with `boardrules verify SPEC`")
    loaded = load(doc["spec"], tuple(doc.get("variants") or ()))
    if doc.get("kind") == "actions":
        return _replay_actions(loaded, doc, as_json)
    violation = traces.replay(loaded.edition, doc)
    result = {"edition": doc["edition"], "invariant": violation.invariant, "step": violation.index + 1,
              "event": violation.event, "text": violation.message, "reproduced": True}
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, sort_keys=True))
    else:
        what = "step property" if isinstance(violation, StepViolation) else "invariant"
        click.echo(f"reproduced: {what} `{violation.invariant}` ({violation.message}) is violated at step "
                   f"{violation.index + 1}, after {json.dumps(violation.event, ensure_ascii=False)}")
    return 1


def _replay_actions(loaded, doc: dict, as_json: bool) -> int:
    """A Z3 counterexample: its catalogue actions taken in the interpreter from the start."""
    from verifier.symbolic.actions import catalogue
    from verifier.symbolic.replay import confirm

    traces.same_rules(loaded.edition, doc)
    name = doc["violation"]["invariant"]
    inv = next((x for x in loaded.ir["invariants"] if x["name"] == name), None)
    if inv is None:
        raise ReplayError(f"edition `{doc['edition']}` has no invariant `{name}`")
    ok, why = confirm(loaded.edition, doc["steps"], doc["players"], inv, catalogue(loaded.ir, doc["players"]))
    if not ok:
        raise ReplayError(f"the trace does not reproduce `{name}`: {why}")
    if as_json:
        click.echo(json.dumps({"edition": doc["edition"], "invariant": name, "step": len(doc["steps"]),
                               "reproduced": True}, sort_keys=True))
    else:
        click.echo(f"reproduced: invariant `{name}` is violated after step {len(doc['steps'])} ({why})")
    return 1
