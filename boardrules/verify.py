"""`boardrules verify` and the replay of trace files: the command-line side of verifier/."""
from __future__ import annotations

import json
import os
from pathlib import Path

import click

from grammar.lookup import concrete_editions
from interpreter import ReplayError
from verifier import atomic
from verifier import trace as traces
from verifier.verify import exploration, explored, proofs, render, to_json

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
    # in worker processes even on one core: Ctrl-C ends a worker inside a Z3 call at once
    try:
        with workers(min(len(tasks), os.cpu_count() or 1)) as pool:
            done = pool.map(_part, tasks, chunksize=1)
    finally:
        # a worker ended while writing a trace leaves its temporary file
        atomic.sweep(Path(trace_dir), "*.trace.json")
    parts = {(part, id(job)): result for (part, job), result in zip(tasks, done, strict=True)}
    results = [_one(job, parts[("prove", id(job))], parts[("explore", id(job))], parts.get(("mutate", id(job))))
               for job in jobs]
    for text, _, _ in results:
        if not as_json:
            click.echo(text)
            click.echo()
    if as_json:
        click.echo(json.dumps({"editions": [entry for _, entry, _ in results]}, ensure_ascii=False, indent=1))
    return 1 if any(violated for _, _, violated in results) else 0


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
        click.echo(f"reproduced: invariant `{violation.invariant}` ({violation.message}) is violated at step "
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
