"""The determinism guardrail: the same seeds play the same games.

Run: python benchmarks/same_games.py [--seeds N] [--drop TYPE:STATE ...] > games.txt

Plays seeds 1..N (default 200) of every bundled concrete edition and of each bundled
variant laid over the first edition of its family (as `boardrules verify` takes them), four
heuristic players, as `boardrules play --json` does, and prints one line per game: the
edition, the variants, the seed, the `play --json` summary and a digest of the whole event
log. Run it with two installs (two venvs, two commits) and `diff` the outputs:
an empty diff is the guardrail kept. `--drop set:paid_laps` leaves out the events of that
type and state before the digest, for a change that adds events on purpose (name it).
"""
from __future__ import annotations

import argparse
import hashlib
import json

import grammar
import interpreter
from boardrules.editions import variant_targets
from grammar.lookup import concrete_editions
from interpreter import strategies
from spec import bundled, bundled_variants


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--drop", nargs="*", default=[], help="TYPE:STATE events left out of the digest")
    args = parser.parse_args()
    dropped = set(args.drop)
    games = [(eid, ()) for eid in concrete_editions()] + [(eid, (variant,)) for eid, variant in variant_targets()]
    for eid, variants in games:
        ir = grammar.compile_file(bundled()[eid], [bundled_variants()[v] for v in variants])
        edition = interpreter.load(ir)
        for seed in range(1, args.seeds + 1):
            seats = ["heuristic"] * 4
            players = [strategies.make(name, seed, seat) for seat, name in enumerate(seats)]
            result = interpreter.play(edition, seats, seed=seed, log=True, strategy_objects=players)
            events = [e for e in result.events if f"{e.get('type')}:{e.get('state')}" not in dropped]
            digest = hashlib.sha256(json.dumps(events, sort_keys=True).encode()).hexdigest()[:16]
            summary = json.dumps(result.summary(), ensure_ascii=False, sort_keys=True)
            print(eid, "+".join(variants) or "-", seed, summary, digest)


if __name__ == "__main__":
    main()
