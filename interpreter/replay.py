"""Replaying a game log: the same seed and the recorded choices must give the same
events and the same final state; any difference or damage is a `ReplayError`."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import actions as A
from .actions import Action
from .engine import Game, NoAnswer


class ReplayError(Exception):
    """The log does not replay: corrupt, written for another edition, or it diverges."""


class Replayer:
    """Stands in for every seat's strategy, answering with the recorded choices (where the
    engine took the default for a player, it has no answer either: the engine takes the
    same default, and the replayed events show whether it is the logged one)."""
    name = "replay"

    def __init__(self, choices: list[tuple[int, Action, str | None]]) -> None:
        self.choices = choices
        self.next = 0

    def choose(self, game: Game, seat: int, actions: Sequence[Action]) -> Action:
        if self.next >= len(self.choices):
            raise ReplayError(f"the log has no more choices, but seat {seat} must choose (event log cut short?)")
        who, action, default = self.choices[self.next]
        self.next += 1
        if who != seat:
            raise ReplayError(f"choice {self.next}: the log has seat {who} choosing, the game asks seat {seat}")
        if default is not None:
            raise NoAnswer(default)
        if type(action) is not A.ProposeTrade and action not in actions:
            raise ReplayError(f"choice {self.next}: the logged action {A.to_json(action)} is not legal here")
        if type(action) is A.ProposeTrade and not game.valid_trade(seat, action):
            raise ReplayError(f"choice {self.next}: the logged trade offer {A.to_json(action)} is not legal here")
        return action


def recorded_choices(events: list) -> list[tuple[int, Action, str | None]]:
    """Each choice of a log: its seat, its action, and why the engine took it as the
    player's default (None: the player chose it)."""
    out: list[tuple[int, Action, str | None]] = []
    for i, event in enumerate(events):
        if not isinstance(event, dict):
            raise ReplayError(f"event {i} is not an object")
        if event.get("type") != "choice":
            continue
        seat = event.get("seat")
        if type(seat) is not int:
            raise ReplayError(f"event {i}: a choice without a seat")
        default = event.get("default")
        if default is not None and not isinstance(default, str):
            raise ReplayError(f"event {i}: a choice's `default` is the text of why it was taken")
        try:
            out.append((seat, A.from_json(event.get("action")), default))
        except ValueError as error:
            raise ReplayError(f"event {i}: {error}") from None
    return out


def first_difference(a: Any, b: Any, path: str = "final") -> str | None:
    """Where two JSON values first differ, as a readable path (or None)."""
    if type(a) is not type(b):
        return f"{path}: {a!r} != {b!r}"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key}: present in only one"
            d = first_difference(a[key], b[key], f"{path}.{key}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {a!r} != {b!r}"
