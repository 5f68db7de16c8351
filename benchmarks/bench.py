"""Speed figures quoted in docs/speed.md: spec compile time, games and player turns per second.

Run: python benchmarks/bench.py [--games N] [--edition ID] [--verify explore|prove|no]
One process, 4 heuristic players, no event log and no invariant checks: the
configuration `simulate` uses. It says whether the engine runs compiled (setup.py);
BOARDRULES_PURE_PYTHON=1 measures it as plain Python.
"""
from __future__ import annotations

import argparse
import platform
import statistics
import tempfile
import time
from pathlib import Path

import grammar
import interpreter
from interpreter import native
from spec import bundled


def compile_times(repeats: int) -> dict[str, float]:
    """Median milliseconds to compile each bundled edition (parser already built)."""
    grammar.compile_file(bundled()["classic-us"])  # builds the parser once
    figures = {}
    for eid, path in bundled().items():
        runs = []
        for _ in range(repeats):
            start = time.perf_counter()
            grammar.compile_file(path)
            runs.append(time.perf_counter() - start)
        figures[eid] = statistics.median(runs) * 1000
    return figures


def play_speed(edition_id: str, games: int) -> tuple[float, float, int]:
    """Games per second and player turns per second over `games` games."""
    edition = interpreter.load(grammar.compile_file(bundled()[edition_id]))
    players = ["heuristic"] * 4
    turns = 0
    start = time.perf_counter()
    for seed in range(games):
        turns += interpreter.play(edition, players, seed=seed, log=False).summary()["turns"]
    elapsed = time.perf_counter() - start
    return games / elapsed, turns / elapsed, turns


def verify_time(prove: bool) -> tuple[float, float]:
    """Seconds and CPU seconds (this process and its workers) for `boardrules verify` over
    every bundled edition and variant (exploration at its default budget; Z3 proofs only
    with `prove`), run as the command runs it (each spec's proofs and exploration side by
    side, one process per core): the figure docs/speed.md quotes."""
    import contextlib
    import io
    import resource

    from boardrules.verify import run

    def cpu() -> float:
        return sum(r.ru_utime + r.ru_stime for r in (resource.getrusage(resource.RUSAGE_SELF),
                                                    resource.getrusage(resource.RUSAGE_CHILDREN)))
    start, used = time.perf_counter(), cpu()
    with contextlib.redirect_stdout(io.StringIO()):
        run((), True, 2, None, 2, False, Path(tempfile.mkdtemp()), prove)
    return time.perf_counter() - start, cpu() - used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--edition", default="classic-us")
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--verify", choices=("explore", "prove", "no"), default="explore",
                        help="time `boardrules verify` over every bundled edition (explore: --no-prove)")
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
          f"{platform.processor() or 'cpu n/a'}")
    compiled = native.compiled()
    print(f"engine: {len(compiled)} modules compiled (setup.py)" if compiled else
          f"engine: plain Python ({native.PURE_PYTHON}=1, or no C compiler at install)")
    for eid, ms in compile_times(args.repeats).items():
        print(f"compile {eid:<12} {ms:7.1f} ms (median of {args.repeats})")
    games_per_s, turns_per_s, turns = play_speed(args.edition, args.games)
    print(f"play {args.edition}: {args.games} games, {turns} player turns, 4 heuristic players, one process")
    print(f"  {games_per_s:,.1f} games/s")
    print(f"  {turns_per_s:,.0f} player turns/s")
    if args.verify != "no":
        seconds, cpu = verify_time(args.verify == "prove")
        how = "Z3 proofs and exploration" if args.verify == "prove" else "exploration only (--no-prove)"
        print(f"verify every bundled edition and variant, {how}: {seconds:.1f} s ({cpu:.0f} s of CPU)")


if __name__ == "__main__":
    main()
