"""Play many games of one edition and gather the statistics rule designers read."""
from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

import grammar
import interpreter

from .workers import workers

# Games go to worker processes in batches this size: large enough that sending a
# batch costs little next to playing it, small enough for a smooth progress bar.
BATCH = 25


def game_seed(seed: int, game: int) -> int:
    """Game `game` of a run seeded `seed`: independent of how games are split over jobs."""
    return (seed << 32) | game


@dataclass
class Tally:
    """What `simulate` reports, accumulated one game summary at a time."""

    squares: list[str]
    games: int = 0
    turns: list[int] = field(default_factory=list)
    turns_by_ending: dict[str, list[int]] = field(default_factory=dict)
    capped: int = 0
    ended_by: Counter = field(default_factory=Counter)
    wins_by_seat: Counter = field(default_factory=Counter)
    wins_by_strategy: Counter = field(default_factory=Counter)
    landings: list[int] = field(default_factory=list)
    statistics: dict[str, list[int]] = field(default_factory=dict)   # the spec's `statistic`s, per game

    def add(self, summary: dict) -> None:
        self.games += 1
        self.turns.append(summary["turns"])
        self.ended_by[summary["ended_by"]] += 1
        self.turns_by_ending.setdefault(summary["ended_by"], []).append(summary["turns"])
        if summary["ended_by"] == "turn_cap":
            self.capped += 1
        winner = summary["winner"]
        if winner is not None:
            self.wins_by_seat[winner] += 1
            self.wins_by_strategy[summary["players"][winner]["strategy"]] += 1
        if not self.landings:
            self.landings = [0] * len(self.squares)
        for index, count in enumerate(summary["landings"]):
            self.landings[index] += count
        for name, value in summary.get("statistics", {}).items():
            self.statistics.setdefault(name, []).append(value)

    def report(self) -> dict:
        """The statistics as plain data (the `--json` output)."""
        total_landings = sum(self.landings) or 1
        return {
            "games": self.games,
            "turns": {
                "mean": round(statistics.fmean(self.turns), 2) if self.turns else 0,
                "median": statistics.median(self.turns) if self.turns else 0,
                "max": max(self.turns, default=0),
            },
            "ended_by": dict(sorted(self.ended_by.items())),
            # how long the games that ended each way took (an `end game` race against bankruptcy)
            "turns_by_ending": {
                why: {"games": len(turns), "share": round(len(turns) / self.games, 4),
                      "mean": round(statistics.fmean(turns), 2), "median": statistics.median(turns)}
                for why, turns in sorted(self.turns_by_ending.items())
            },
            "turn_cap_share": round(self.capped / self.games, 4) if self.games else 0,
            "wins_by_seat": {str(seat): n for seat, n in sorted(self.wins_by_seat.items())},
            "wins_by_strategy": dict(sorted(self.wins_by_strategy.items())),
            "landings": [
                {"index": i, "square": name, "count": n, "share": round(n / total_landings, 5)}
                for i, (name, n) in enumerate(zip(self.squares, self.landings, strict=True))
            ],
        } | ({"statistics": {name: {"mean": round(statistics.fmean(values), 3), "max": max(values)}
                             for name, values in self.statistics.items()}} if self.statistics else {})


# Worker processes compile the spec once, then play batches of games.
_worker_edition: interpreter.Edition | None = None


def _start_worker(path: str, variants: tuple[str, ...]) -> None:
    global _worker_edition
    _worker_edition = interpreter.load(grammar.compile_file(path, variants))


def _play_batch(args: tuple) -> list[dict]:
    players, seeds, max_turns, debug = args
    return [_play_one(_worker_edition, players, seed, max_turns, debug) for seed in seeds]


def _play_one(edition, players: list[str], seed: int, max_turns: int | None, debug: bool) -> dict:
    result = interpreter.play(edition, players, seed=seed, max_turns=max_turns, log=False, check_invariants=debug)
    return result.summary()


def run(
    path: Path,
    variants: tuple[Path, ...],
    edition: interpreter.Edition,
    players: list[str],
    games: int,
    seed: int,
    max_turns: int | None,
    debug: bool,
    jobs: int,
    progress: Callable[[int], None],
) -> Iterator[dict]:
    """Yield one summary per game, in game order, whatever the number of jobs."""
    seeds = [game_seed(seed, game) for game in range(games)]
    batches = [seeds[i : i + BATCH] for i in range(0, len(seeds), BATCH)]
    if jobs <= 1:
        for batch in batches:
            for game in batch:
                yield _play_one(edition, players, game, max_turns, debug)
            progress(len(batch))
        return
    with workers(jobs, _start_worker, (str(path), tuple(str(v) for v in variants))) as pool:
        for summaries in pool.imap(_play_batch, [(players, batch, max_turns, debug) for batch in batches]):
            yield from summaries
            progress(len(summaries))
