"""Runs an edition's invariants over a running game: the ones its IR declares (the prelude's
built-in library, grammar/prelude.rules, and the edition's own), compiled once per edition by
the interpreter's expression compiler (`Edition.invariants`). No invariant is written here.

`check_all` checks them all now; `event_checker()` gives the hook `play(check_invariants=True)`
installs, which raises `InvariantViolation` naming the invariant and the event after which
it broke.
"""
from __future__ import annotations

from interpreter.compile import Ctx


class InvariantViolation(AssertionError):
    def __init__(self, invariant: str, message: str, event: dict | None = None, index: int | None = None):
        self.invariant = invariant
        self.message = message
        self.event = event
        self.index = index
        where = f" after event {index} {event!r}" if event is not None else ""
        super().__init__(f"invariant `{invariant}` violated{where}: {message}")


def check_all(game, event: dict | None = None, index: int | None = None, skip: frozenset = frozenset()) -> None:
    """Raise `InvariantViolation` for the first invariant (in IR order) that is false now;
    invariants named in `skip` are not checked (the explorer skips those already violated)."""
    ctx = Ctx()
    for name, text, holds in game.ed.invariants:
        if name not in skip and not holds(game, ctx):
            raise InvariantViolation(name, text, event, index)


def event_checker(skip: frozenset = frozenset()):
    """The hook for `play(check_invariants=True)`: checks every invariant after each event
    (money is mid-flight inside a transfer only, never between events)."""
    def hook(game, event):
        if not game.st.owner:          # setup has not laid out the board yet
            return
        check_all(game, event, len(game.events) - 1, skip)
    return hook
