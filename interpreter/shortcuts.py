"""The strategies' fast paths and their bookkeeping: speed, kept apart from the rules.

A game plays the same with every shortcut taken away (tests/interpreter/test_fast_paths.py
checks each answer against the one chosen from the full list of legal actions). The
protocol, between the engine (engine.py, rules.py) and a strategy (strategies/):

- A strategy may define `manage_fast(game, seat) -> action`: its manage-window answer
  without the list of legal actions (the engine checks the answer against the rules), and
  `raise_fast(game, seat, owed, creditor, refused) -> action | None`: its step in raising
  money, likewise (None: nothing to do).
- Each seat has a version, which moves when one of its deeds changes (hands, a mortgage,
  a hotel, a sale) and when a deed of a group it holds changes hands. A strategy may
  narrow the latter to the groups in `watching[seat]` (those its answers read), and the
  deeds it receives to those that leave it holding at least `receiving[seat][g]` deeds of
  their group `g` (a mortgaged deed received always moves it). A strategy caches its
  answers by version.
- A `manage_fast` strategy may give its word (`promise`) that it answers Done while its
  cash is below `least`, or below a higher mark until its version moves: the engine
  then spares the call, and the whole manage window while nothing is logged (`done_below`).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

INF = float("inf")


class Shortcuts:
    """One game's fast paths, per seat (see the module's docstring)."""
    __slots__ = ("manage_fast", "raise_fast", "versions", "done_below", "least", "watching", "receiving")

    def __init__(self, strategies: Sequence[object]) -> None:
        seats = range(len(strategies))
        # Any: as `Game.ask`'s answer
        self.manage_fast: list[Callable[[Any, int], Any] | None] = [
            getattr(s, "manage_fast", None) for s in strategies]
        self.raise_fast: list[Callable[[Any, int, int, int, set[int]], Any] | None] = [
            getattr(s, "raise_fast", None) for s in strategies]
        self.versions = [0 for _ in seats]
        # the seat's word: Done in its manage window while its cash is below this (no word:
        # below every amount), and below `least` whatever its version
        self.done_below: list[int | float] = [-INF for _ in seats]
        self.least: list[int | float] = [-INF for _ in seats]
        # the groups whose deeds changing hands move the seat's version besides its own
        # deeds (None: every group it holds a deed of)
        self.watching: list[Iterable[int] | None] = [None for _ in seats]
        # per group, how many deeds of it the seat must hold for an unmortgaged deed it
        # receives to move its version (None: any deed moves it)
        self.receiving: list[Sequence[int] | None] = [None for _ in seats]

    def promise(self, seat: int, cash: int | float, least: int | float) -> None:
        """The seat's word: Done while its cash is below `least`, or below `cash` while its
        version stands."""
        self.least[seat] = least
        self.done_below[seat] = cash if cash > least else least

    def withdraw(self, seat: int) -> None:
        """The seat's word taken back: the engine asks it at every manage window."""
        self.done_below[seat] = self.least[seat] = -INF

    def moved(self, seat: int) -> None:
        """One of the seat's deeds changed: its version moves, and its word keeps `least`."""
        self.versions[seat] += 1
        self.done_below[seat] = self.least[seat]

    def changed_hands(self, g: int, old: int, new: int, mortgaged: bool, holders: list[int],
                      counts: list[list[int]]) -> None:
        """A deed of group `g` passed from `old` to `new` (a seat, or the bank: negative):
        the old holder's version moves, and that of every holder of the group now
        (`holders`; `counts`: the deeds of each group each seat holds) watching it; the new
        holder's once it holds as many deeds of the group as it counts from (`receiving`),
        or at once for a mortgaged deed."""
        versions, done_below, least = self.versions, self.done_below, self.least
        if old >= 0:        # `moved(old)`, written out here and below: a call per holder costs more
            versions[old] += 1
            done_below[old] = least[old]
        watching, receiving = self.watching, self.receiving
        for q in holders:
            if q == new:
                counting = receiving[q]
                moves = counting is None or mortgaged or counts[q][g] >= counting[g]
            else:
                watched = watching[q]
                moves = watched is None or g in watched
            if moves:
                versions[q] += 1
                done_below[q] = least[q]
