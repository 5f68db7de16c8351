"""The actions a strategy may choose: small frozen dataclasses, JSON round-trippable.

Square-bound actions are interned per square by the engine (`Edition` builds them once),
so offering a list of legal actions costs no allocation on the hot path.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields


@dataclass(frozen=True, slots=True)
class Buy:
    square: int


@dataclass(frozen=True, slots=True)
class Decline:
    square: int


@dataclass(frozen=True, slots=True)
class Bid:
    amount: int


@dataclass(frozen=True, slots=True)
class Pass:
    pass


@dataclass(frozen=True, slots=True)
class PayFine:
    pass


@dataclass(frozen=True, slots=True)
class UseCard:
    pass


@dataclass(frozen=True, slots=True)
class Roll:
    pass


@dataclass(frozen=True, slots=True)
class Build:
    """Add one house to a lot."""
    square: int


@dataclass(frozen=True, slots=True)
class BuildHotel:
    """Replace the lot's houses by a hotel (the houses go back to the bank)."""
    square: int


@dataclass(frozen=True, slots=True)
class SellBuilding:
    """Sell a house, or a hotel outright (per `building.hotel_sale`), to the bank."""
    square: int


@dataclass(frozen=True, slots=True)
class Downgrade:
    """Sell a hotel back for houses (needs the houses in the bank)."""
    square: int


@dataclass(frozen=True, slots=True)
class Mortgage:
    square: int


@dataclass(frozen=True, slots=True)
class Unmortgage:
    square: int


@dataclass(frozen=True, slots=True)
class KeepMortgage:
    """A mortgaged deed received: pay the transfer interest now and keep the mortgage."""
    square: int


@dataclass(frozen=True, slots=True)
class ProposeTrade:
    """Offer `partner` a swap: `give` deeds and `give_cards` for `get` deeds and `get_cards`,
    and `cash` from the proposer to the partner (negative: from the partner)."""
    partner: int
    give: tuple = ()
    get: tuple = ()
    cash: int = 0
    give_cards: tuple = ()
    get_cards: tuple = ()


@dataclass(frozen=True, slots=True)
class GiveDeed:
    """Pay part of a debt with an unbuilt deed, at `value`, if the creditor accepts."""
    square: int
    value: int


@dataclass(frozen=True, slots=True)
class Preempt:
    """The player who landed takes the auctioned deed for `amount` (the last bid + `auction.preempt`)."""
    amount: int


@dataclass(frozen=True, slots=True)
class AuctionDeed:
    """Raise money by auctioning a deed to the other players (`debt.auction_deeds`)."""
    square: int


@dataclass(frozen=True, slots=True)
class Act:
    """Take the spec's end-of-turn action number `index` on `item` (an element of its set)."""
    index: int
    item: int
    label: str = ""


@dataclass(frozen=True, slots=True)
class Accept:
    pass


@dataclass(frozen=True, slots=True)
class Reject:
    pass


@dataclass(frozen=True, slots=True)
class Choose:
    option: int
    label: str = ""


@dataclass(frozen=True, slots=True)
class Done:
    pass


KINDS = {cls.__name__: cls for cls in (
    Buy, Decline, Bid, Pass, PayFine, UseCard, Roll, Build, BuildHotel, SellBuilding, Downgrade,
    Mortgage, Unmortgage, KeepMortgage, ProposeTrade, GiveDeed, Accept, Reject, Choose, Done,
    Preempt, AuctionDeed, Act)}

PASS, PAY_FINE, USE_CARD, ROLL, ACCEPT, REJECT, DONE = Pass(), PayFine(), UseCard(), Roll(), Accept(), Reject(), Done()

Action = (Buy | Decline | Bid | Pass | PayFine | UseCard | Roll | Build | BuildHotel | SellBuilding | Downgrade
          | Mortgage | Unmortgage | KeepMortgage | ProposeTrade | GiveDeed | Accept | Reject | Choose | Done
          | Preempt | AuctionDeed | Act)
"""Any action (the kinds in `KINDS`)."""

OnSquare = Build | BuildHotel | SellBuilding | Downgrade | Mortgage | Unmortgage
"""A step on one of my deeds (the manage window's and raising money's: `rules.SQUARE_ACTIONS`)."""

# The answers that leave things as they are: one of them is the default where offered.
PASSIVE = (Done, Pass, Decline, Reject, Roll, KeepMortgage)


def default(actions: Sequence[Action]) -> Action:
    """The action taken for a player who gives no legal answer (the engine's, and Enter at
    the human prompt): the one that does nothing where the rules offer it (Done, Pass,
    Decline, Reject, Roll, KeepMortgage), else the first offered (a `choose` option, a
    house to place, a way to raise money, an end-of-turn action that is required)."""
    for a in actions:
        if type(a) in PASSIVE:
            return a
    return actions[0]


def _plain(value):
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _tuple(value):
    if isinstance(value, list):
        return tuple(_tuple(v) for v in value)
    return value


def to_json(action: Action) -> dict:
    out = {"action": type(action).__name__}
    for f in fields(action):
        out[f.name] = _plain(getattr(action, f.name))
    return out


def from_json(data: object) -> Action:
    """Rebuild an action; raises ValueError on anything that is not one."""
    if not isinstance(data, dict) or data.get("action") not in KINDS:
        raise ValueError(f"not an action: {data!r}")
    cls = KINDS[data["action"]]
    kwargs = {}
    for f in fields(cls):
        if f.name in data:
            kwargs[f.name] = _tuple(data[f.name])
    try:
        return cls(**kwargs)
    except TypeError as error:
        raise ValueError(f"bad action {data!r}: {error}") from None
