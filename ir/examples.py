"""Worked examples in the IR: the players, the set-up and the turns, then what to expect.

`boardrules verify` replays each example (verifier/examples.py). Each kind of step
(`"step": TAG` in the JSON) is its own class naming its tag in `TAG`, with the fields that
kind of line gives; lists are tuples.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from ir.nodes import Expr, Position


@dataclass(frozen=True, slots=True)
class Give:
    """`give DEEDS to PLAYER`: the bank's deeds go to the player."""

    TAG: ClassVar[str] = "give"
    written_at: Position
    player: str
    squares: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Houses:
    """`houses N on LOTS`: each lot gets N houses."""

    TAG: ClassVar[str] = "houses"
    written_at: Position
    squares: tuple[str, ...]
    number: int


@dataclass(frozen=True, slots=True)
class Hotel:
    """`hotel on LOTS`: each lot gets a hotel."""

    TAG: ClassVar[str] = "hotel"
    written_at: Position
    squares: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Mortgage:
    """`mortgage DEEDS`: the deeds are mortgaged."""

    TAG: ClassVar[str] = "mortgage"
    written_at: Position
    squares: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Cash:
    """`cash PLAYER = N`: the player holds N."""

    TAG: ClassVar[str] = "cash"
    written_at: Position
    player: str
    number: int


@dataclass(frozen=True, slots=True)
class Put:
    """`put PLAYER on SQUARE`: the token stands there (`squares` holds the one square)."""

    TAG: ClassVar[str] = "put"
    written_at: Position
    player: str
    squares: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Jail:
    """`jail PLAYER [after N tries]`: the player is in jail, with N failed tries so far."""

    TAG: ClassVar[str] = "jail"
    written_at: Position
    player: str
    number: int | None = None


@dataclass(frozen=True, slots=True)
class CardOnTop:
    """`card "TEXT" on top of DECK`: that card is drawn next (`card` is its printed index)."""

    TAG: ClassVar[str] = "card"
    written_at: Position
    deck: str
    card: int


@dataclass(frozen=True, slots=True)
class SetArea:
    """`set AREA.STATE = N`: an area's declared number."""

    TAG: ClassVar[str] = "set"
    written_at: Position
    area: str
    state: str
    number: int


@dataclass(frozen=True, slots=True)
class SetPlayer:
    """`set PLAYER.STATE = N`: a player's declared number."""

    TAG: ClassVar[str] = "set_player"
    written_at: Position
    player: str
    state: str
    number: int


@dataclass(frozen=True, slots=True)
class Mark:
    """`mark SQUARES in PLAYER.STATE`: the squares join a player's declared set."""

    TAG: ClassVar[str] = "mark"
    written_at: Position
    player: str
    state: str
    squares: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Sale:
    """`sells DEEDS to BUYER for PRICE` during a turn."""

    deeds: tuple[str, ...]
    buyer: str
    price: int


@dataclass(frozen=True, slots=True)
class Bid:
    """`PLAYER bids up to LIMIT` in an auction during a turn."""

    player: str
    limit: int


TurnChoice = Literal["buy", "pay_fine", "use_card", "build_hotel", "build_houses", "mortgage", "lift",
                     "sell_buildings", "trade_hotels"]


@dataclass(frozen=True, slots=True)
class Turn:
    """`turn PLAYER rolls ... and ...`: a turn played with the given throws and choices."""

    TAG: ClassVar[str] = "turn"
    written_at: Position
    player: str
    throws: tuple[tuple[int, ...], ...]
    choices: tuple[TurnChoice, ...]
    labels: tuple[str, ...] | None = None
    sales: tuple[Sale, ...] | None = None
    bids: tuple[Bid, ...] | None = None


Step = Give | Houses | Hotel | Mortgage | Cash | Put | Jail | CardOnTop | SetArea | SetPlayer | Mark | Turn


@dataclass(frozen=True, slots=True)
class Expectation:
    """`expect EXPR`: a yes/no over the game after the turns, the players' names bound."""

    body: Expr
    text: str
    written_at: Position


@dataclass(frozen=True, slots=True)
class Example:
    """A worked example from the rule book; `origin` is the edition whose file holds it."""

    name: str
    text: str
    origin: str
    written_at: Position
    players: tuple[str, ...]
    steps: tuple[Step, ...]
    expect: tuple[Expectation, ...]
