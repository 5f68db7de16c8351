"""Trace files: a violation as a game anyone can replay (docs/verifier.md, "Trace files").

A trace holds what the interpreter needs to play the game again (players, seed, round cap,
every deck's order, every throw of the dice, every choice) and, for people, the numbered
steps up to the violation: each event with only the state fields it changed. `replay`
plays the inputs in the interpreter with every invariant checked and confirms that the
same invariant breaks at the same step.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import interpreter
from interpreter.invariants import InvariantViolation, event_checker
from interpreter.replay import Replayer, ReplayError, recorded_choices

from . import atomic
from . import steps as step_properties

FORMAT = "boardrules-trace"
VERSION = 1


@dataclass
class Inputs:
    """Everything the interpreter leaves open, as it was chosen."""

    players: int
    seed: int
    rounds: int
    decks: list[list[int]]          # per deck of the IR: card indices, top first
    dice: list[list[int]]           # every throw, in order (the roll-off included)
    choices: list[dict] = field(default_factory=list)   # {"seat", "action"} in order


@dataclass
class Trace:
    edition: str
    spec: str
    ir_hash: str
    inputs: Inputs
    steps: list[dict]
    violation: dict                 # invariant, text, origin, step
    skip: list[str] = field(default_factory=list)   # invariants not checked (found broken before)
    variants: list[str] = field(default_factory=list)   # bundled variants laid over the spec
    path: Path | None = None

    def to_json(self) -> dict:
        return {"format": FORMAT, "version": VERSION, "edition": self.edition, "spec": self.spec,
                "variants": self.variants, "ir_hash": self.ir_hash, **asdict(self.inputs), "skip": self.skip,
                "violation": self.violation, "steps": self.steps}


def start(edition: interpreter.Edition, inputs: Inputs, dice: Callable, seats: list,
          hook: Callable, skip: frozenset = frozenset()) -> interpreter.Game:
    """A game set up from `inputs` (the decks laid in their order), not yet played, its step
    properties watched (but those in `skip`)."""
    game = interpreter.Game(step_properties.watched(edition), seats, ["explorer"] * inputs.players, inputs.seed,
                            inputs.rounds, True, hook, dice)
    step_properties.watch(game, skip)
    if [sorted(d) for d in inputs.decks] != [list(range(len(cards))) for cards in edition.cards]:
        raise ReplayError("the trace's deck orders are not orders of the edition's decks")
    game.state.decks = [list(d) for d in inputs.decks]
    return game


def _flat(value: object, path: str, out: dict) -> dict:
    if isinstance(value, dict):
        for key, item in value.items():
            _flat(item, f"{path}.{key}" if path else key, out)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _flat(item, f"{path}[{i}]", out)
    else:
        out[path] = value
    return out


def _state(game: interpreter.Game) -> dict:
    data = game.state.to_json()
    for noise in ("rng", "landings"):
        data.pop(noise, None)
    return _flat(data, "", {})


def play(edition: interpreter.Edition, inputs: Inputs, skip: frozenset = frozenset(),
         steps: list | None = None) -> InvariantViolation | None:
    """Play `inputs` in the interpreter with every invariant checked; with `steps`, also
    record each event and the state fields it changed. Returns the violation or None."""
    throws = iter(inputs.dice)

    def dice(game: interpreter.Game) -> tuple[int, ...]:
        throw = next(throws, None)
        if throw is None:
            raise ReplayError("the trace has no more dice throws (cut short?)")
        return tuple(throw)

    check = event_checker(skip)
    before: dict = {}

    def hook(game: interpreter.Game, event: dict) -> None:
        if steps is not None:
            now = _state(game)
            changed = {k: [before.get(k), v] for k, v in now.items() if before.get(k) != v}
            changed.update({k: [v, None] for k, v in before.items() if k not in now})
            steps.append({"step": len(steps) + 1, "event": event, "changed": changed})
            before.clear()
            before.update(now)
        check(game, event)

    try:
        replayer = Replayer(recorded_choices([{"type": "choice", **choice} for choice in inputs.choices]))
        game = start(edition, inputs, dice, [replayer] * inputs.players, hook, skip)
        game.run()
    except InvariantViolation as violation:
        return violation
    except ReplayError:
        raise
    except (interpreter.StrategyError, KeyError, IndexError, TypeError, ValueError) as error:
        raise ReplayError(f"the trace does not replay: {error}") from None
    return None


def from_run(ir: dict, edition: interpreter.Edition, spec: str | None, inputs: Inputs, violation: InvariantViolation,
             skip: frozenset, trace_dir: Path | None) -> Trace:
    """The trace of an explored game that broke an invariant (written to `trace_dir`)."""
    steps: list[dict] = []
    again = play(edition, inputs, skip, steps)
    assert again is not None and again.invariant == violation.invariant, "an explored game replays the same"
    inv = next(x for x in [*ir["invariants"], *ir.get("steps", [])] if x["name"] == again.invariant)
    trace = Trace(edition.id, spec or edition.id, edition.hash, inputs, steps,
                  {"invariant": again.invariant, "text": inv["text"], "origin": inv["origin"], "step": len(steps)}
                  | ({"kind": inv["kind"]} if "kind" in inv else {}),
                  sorted(skip), list(ir["edition"].get("variants") or ()))
    if trace_dir is not None:
        trace.path = write(trace, Path(trace_dir))
    return trace


def write(trace: Trace, directory: Path) -> Path:
    laid = "".join(f"+{v}" for v in trace.variants)       # a variant's trace does not overwrite the edition's
    return write_doc(trace.to_json(), directory, f"{trace.edition}{laid}-{trace.violation['invariant']}")


def write_doc(doc: dict, directory: Path, name: str) -> Path:
    """Write a trace document as `<directory>/<name>.trace.json`, whole or not at all
    (the folder given by `verify --traces` is made if missing)."""
    path = directory / (re.sub(r"[^a-z0-9_-]+", "-", name) + ".trace.json")
    atomic.write(path, json.dumps(doc, ensure_ascii=False, indent=1) + "\n", "--traces", folders=True)
    return path


# ---- reading and replaying ----------------------------------------------------------------

# The keys a trace needs and their JSON types (the rest is for people).
REQUIRED = {"format": str, "edition": str, "spec": str, "players": int, "seed": int, "rounds": int,
            "decks": list, "dice": list, "choices": list, "violation": dict}


def is_trace(doc: object) -> bool:
    return isinstance(doc, dict) and doc.get("format") == FORMAT


# A trace of Z3 catalogue actions (`"kind": "actions"`) holds steps instead of game inputs.
REQUIRED_ACTIONS = {"format": str, "edition": str, "spec": str, "players": int, "steps": list, "violation": dict}


def problem(doc: dict) -> str | None:
    """What is wrong with a trace document's shape, or None."""
    for key, kind in (REQUIRED_ACTIONS if doc.get("kind") == "actions" else REQUIRED).items():
        if type(doc.get(key)) is not kind:
            return f"trace has no `{key}` {kind.__name__}"
    if doc.get("version") != VERSION:
        return f"trace format version {doc.get('version')!r}; this boardrules reads version {VERSION}"
    if not isinstance(doc["violation"].get("invariant"), str) or type(doc["violation"].get("step")) is not int:
        return "trace `violation` needs the `invariant` name and its `step`"
    return None


def same_rules(edition: interpreter.Edition, doc: dict) -> None:
    """A trace (of a game or of Z3's actions) replays only against the rules it was found in:
    `ReplayError` when its IR hash names others."""
    if doc.get("ir_hash") not in (None, edition.hash):
        raise ReplayError(f"the trace was written for another version of edition `{doc['edition']}` (IR hash differs)")


def replay(edition: interpreter.Edition, doc: dict) -> InvariantViolation:
    """Replay a trace document; the same invariant must break at the same step, else
    `ReplayError` says what happened instead."""
    same_rules(edition, doc)
    inputs = Inputs(doc["players"], doc["seed"], doc["rounds"], doc["decks"], doc["dice"], doc["choices"])
    steps: list[dict] = []
    violation = play(edition, inputs, frozenset(doc.get("skip", [])), steps)
    want = doc["violation"]
    if violation is None:
        raise ReplayError(f"the game replays to its end with every invariant kept; the trace says "
                          f"`{want['invariant']}` breaks at step {want['step']}")
    if violation.invariant != want["invariant"] or len(steps) != want["step"]:
        raise ReplayError(f"the replay breaks `{violation.invariant}` at step {len(steps)}; the trace says "
                          f"`{want['invariant']}` at step {want['step']}")
    return violation
