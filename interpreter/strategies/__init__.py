"""Strategies: one `choose(game, seat, actions) -> action` interface (DESIGN principle 5).

`game` is the running `engine.Game` (its `.state` is the plain-data state, its `.edition` the
edition, its `.pending` what the current decision is about: an `AuctionInfo`, the
`ProposeTrade` or `GiveDeed` to answer, `(ctx, options)` for a `choose`, `(owed, creditor)`
while raising money, or the window's name, `"before_roll"` (the manage window) or
`"end_of_turn"`).
A strategy may also offer fast paths (`manage_fast`, `raise_fast`: answers without the list
of legal actions) and give its word to be spared a call: the protocol is in
interpreter/shortcuts.py, which holds them per seat in `game.shortcuts`.

A strategy with no legal answer raises `engine.NoAnswer(why)`; one that sets `falls_back`
(the players here) may also fail otherwise (an illegal answer, an exception): either way
the engine takes the default action (`actions.default`) and notes why in that choice of
the log. A strategy without `falls_back` (a test's script) is obeyed: its failure stops
the game.
"""
from __future__ import annotations

import random as _random

from .heuristic import Heuristic
from .human import Human
from .random import RandomStrategy

REGISTRY: dict[str, type[Heuristic] | type[RandomStrategy] | type[Human]] = {
    "heuristic": Heuristic, "random": RandomStrategy, "human": Human}
NAMES = list(REGISTRY)


def make(name: str, seed: int, seat: int) -> Heuristic | RandomStrategy | Human:
    """A strategy for one seat, with its own RNG derived from the game seed when it draws
    random numbers (`draws`; seeding one costs as much as a dozen turns)."""
    if name not in REGISTRY:
        raise ValueError(f"unknown strategy `{name}` (known: {', '.join(NAMES)})")
    kind = REGISTRY[name]
    return kind(_random.Random(f"{seed}:{seat}:{name}") if kind.draws else None)
