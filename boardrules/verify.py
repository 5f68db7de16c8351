"""`boardrules verify` and the replay of trace files: the command-line side of verifier/."""
from __future__ import annotations

import json
from pathlib import Path

import click

from interpreter import ReplayError
from verifier import trace as traces
from verifier.verify import render, to_json, verify

from .editions import UsageError, concrete_editions, load
from .logfile import _error


def run(specs: tuple[str, ...], as_json: bool, depth: int, examples: int | None, players: int, mutate: bool,
        trace_dir: Path, prove: bool, variants: tuple[str, ...] = (), only: str = "") -> int:
    """Verify each spec (every bundled concrete edition when none is given), with the
    variants laid over it, and score its mutants (those described with `only`); the exit
    status: 1 when anything is violated, else 0 (surviving mutants are a report, not a failure)."""
    if only and not mutate:
        raise UsageError("`--mutants` chooses among the mutants of `--mutate`", "add --mutate")
    reports, out = [], []
    for spec in specs or tuple(concrete_editions()):
        loaded = load(spec, variants)
        if mutate:
            from verifier.mutate import mutants
            if not any(only in m.description for m in mutants(loaded.ir)):
                raise UsageError(f"no mutant of `{spec}` is described with `{only}`",
                                 "see the mutants in `boardrules verify SPEC --mutate --json`")
        report = verify(loaded.ir, spec, players, depth, examples, trace_dir, prove)
        reports.append(report)
        entry = to_json(report)
        if mutate:
            from verifier.mutate import mutation_score
            entry["mutation"] = mutation_score(loaded.ir, players=players, only=only).to_json()
        out.append(entry)
        if not as_json:
            click.echo(render(report))
            if mutate:
                m = entry["mutation"]
                click.echo(f"mutation score {m['score']:.0%}: {m['killed']} killed, {m['survived']} survived"
                           + "".join(f"\n  survived: {s}" for s in m["survivors"]))
            click.echo()
    if as_json:
        click.echo(json.dumps({"editions": out}, ensure_ascii=False, indent=1))
    return 1 if any(r.violated for r in reports) else 0


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
