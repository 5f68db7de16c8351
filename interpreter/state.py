"""The game state as plain data: every field is an int, a bool, a str or a list of them.

`GameState.to_json()` gives JSON-ready dicts; `GameState.from_json()` rebuilds an equal
state. The engine mutates these lists in place (no copies on the hot path).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

BANK = -1        # the bank as a party and as the holder of a deed
NO_DEED = -2     # owner entry of a square without a deed
POT0 = -3        # pot k of the edition is the party POT0 - k


@dataclass(slots=True)
class Player:
    seat: int
    strategy: str
    cash: int = 0
    position: int = 0
    progress: int = 0                                  # forward distance travelled (laps), back moves subtract
    in_jail: bool = False
    jail_turns: int = 0                                # failed tries at a double so far
    cards: list[list[int]] = field(default_factory=list)   # kept cards as [deck, card]
    bankrupt: bool = False
    # per declared `state player.*`: a set's elements (sorted), or a number
    marks: list = field(default_factory=list)

    def to_json(self) -> dict:
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_json(cls, data: dict) -> "Player":
        return cls(**{f.name: _plain(data[f.name]) for f in fields(cls)})


@dataclass(slots=True)
class GameState:
    edition: str
    seed: int
    players: list[Player]
    order: list[int] = field(default_factory=list)      # seats in turn order (after the roll-off)
    turn_index: int = 0                                 # index into `order` of the player to move
    turns: int = 0                                      # player turns played
    rounds: int = 0                                     # full rounds played
    owner: list[int] = field(default_factory=list)      # per square: seat, BANK or NO_DEED
    houses: list[int] = field(default_factory=list)     # per square
    hotels: list[int] = field(default_factory=list)     # per square
    mortgaged: list[bool] = field(default_factory=list)  # per square
    bank_houses: int = 0
    bank_hotels: int = 0
    decks: list[list[int]] = field(default_factory=list)  # per deck: card indices, top first
    in_play: list[list[int]] = field(default_factory=list)  # cards being obeyed now, as [deck, card]
    bank_ledger: int = 0                                # collected minus issued by the bank
    pots: list[int] = field(default_factory=list)       # per pot: the money it holds
    landings: list[int] = field(default_factory=list)   # per square
    uneven: list[int] = field(default_factory=list)     # groups left uneven by a hotel sale in a shortage
    areas: list[list[int]] = field(default_factory=list)  # per declared `state area.*` number: its value per area
    over: bool = False
    ended_by: str | None = None
    winner: int | None = None
    rng: list = field(default_factory=list)             # the game RNG state (random.getstate as JSON)

    def to_json(self) -> dict:
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "players":
                out[f.name] = [p.to_json() for p in value]
            else:
                out[f.name] = _plain(value)
        return out

    @classmethod
    def from_json(cls, data: dict) -> "GameState":
        kwargs: dict[str, Any] = {}
        for f in fields(cls):
            value = data[f.name]
            if f.name == "players":
                kwargs[f.name] = [Player.from_json(p) for p in value]
            else:
                kwargs[f.name] = _plain(value)
        return cls(**kwargs)


def _plain(value):
    """Lists all the way down (tuples from random.getstate become lists)."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def rng_state_to_json(state: tuple) -> list:
    version, internal, gauss = state
    return [version, list(internal), gauss]


def rng_state_from_json(data: list) -> tuple:
    version, internal, gauss = data
    return (version, tuple(internal), gauss)
