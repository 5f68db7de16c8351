"""The built-in invariants (RULES-MATRIX §6), checked in plain Python over a running game.

Each check takes the `interpreter.engine.Game` and returns None or a message. `check_all`
runs them all; `event_checker()` gives the hook `play(check_invariants=True)` installs,
which raises `InvariantViolation` naming the invariant and the event after which it broke.
"""
from __future__ import annotations

from interpreter.state import BANK, NO_DEED


class InvariantViolation(AssertionError):
    def __init__(self, invariant: str, message: str, event: dict | None = None, index: int | None = None):
        self.invariant = invariant
        self.event = event
        self.index = index
        where = f" after event {index} {event!r}" if event is not None else ""
        super().__init__(f"invariant `{invariant}` violated{where}: {message}")


def money_conservation(game) -> str | None:
    # INVARIANT (money conservation): player cash + the bank's ledger never changes (it starts at 0).
    st = game.st
    total = sum(p.cash for p in st.players) + st.bank_ledger
    if total != 0:
        return f"player cash {sum(p.cash for p in st.players)} + bank ledger {st.bank_ledger} = {total}, not 0"
    return None


def no_negative_cash(game) -> str | None:
    for p in game.st.players:
        if p.cash < 0:
            return f"seat {p.seat} has cash {p.cash}"
    return None


def building_stock(game) -> str | None:
    st, ed = game.st, game.ed
    houses, hotels = sum(st.houses), sum(st.hotels)
    if st.bank_houses < 0 or st.bank_hotels < 0 or min(st.houses, default=0) < 0 or min(st.hotels, default=0) < 0:
        return "a negative building count"
    if houses + st.bank_houses != ed.stock_houses:
        return f"{houses} houses on the board + {st.bank_houses} in the bank != {ed.stock_houses}"
    if hotels + st.bank_hotels != ed.stock_hotels:
        return f"{hotels} hotels on the board + {st.bank_hotels} in the bank != {ed.stock_hotels}"
    for sq in range(ed.n):
        if st.houses[sq] > ed.max_houses or st.hotels[sq] > ed.hotels_per_lot:
            return f"square {sq} holds {st.houses[sq]} houses and {st.hotels[sq]} hotels"
        if (st.houses[sq] or st.hotels[sq]) and ed.kind[sq] != 1:
            return f"buildings on square {sq}, which is not a lot"
    return None


def even_building(game) -> str | None:
    st, ed = game.st, game.ed
    if not ed.even:
        return None
    if not any(st.houses) and not any(st.hotels):
        return None
    for g, squares in enumerate(ed.group_squares):
        if g in st.uneven or not squares:
            continue
        levels = [game.even_level(s) for s in squares]
        if max(levels) - min(levels) > 1:
            return f"group {ed.groups[g]['id']} levels {levels}"
    return None


def mortgage_excludes_buildings(game) -> str | None:
    st, ed = game.st, game.ed
    if not any(st.mortgaged):
        return None
    for g, squares in enumerate(ed.group_squares):
        mortgaged = any(st.mortgaged[s] for s in squares)
        built = mortgaged and any(st.houses[s] or st.hotels[s] for s in squares)
        if built:
            return f"group {ed.groups[g]['id']} has a mortgaged deed and buildings"
    return None


def unique_ownership(game) -> str | None:
    st, ed = game.st, game.ed
    for sq in range(ed.n):
        o = st.owner[sq]
        if not ed.is_deed[sq]:
            if o != NO_DEED:
                return f"square {sq} has no deed but a holder {o}"
            continue
        if o != BANK and not 0 <= o < len(st.players):
            return f"deed {sq} held by {o}"
        if o == BANK and st.mortgaged[sq]:
            return f"deed {sq} is mortgaged while the bank holds it"
        if (st.houses[sq] or st.hotels[sq]) and o == BANK:
            return f"deed {sq} held by the bank has buildings"
    # the derived caches agree with the state
    counts = [[0] * len(ed.group_squares) for _ in st.players]
    for sq in ed.deeds:
        if st.owner[sq] >= 0:
            counts[st.owner[sq]][ed.group_of[sq]] += 1
    if counts != game.gcount:
        return "the group-holding cache is stale"
    return None


def card_conservation(game) -> str | None:
    st, ed = game.st, game.ed
    for d, cards in enumerate(ed.cards):
        seen = list(st.decks[d]) + [card for deck, card in st.in_play if deck == d]
        for p in st.players:
            seen.extend(card for deck, card in p.cards if deck == d)
        if sorted(seen) != list(range(len(cards))):
            return f"deck {ed.decks[d]['id']}: cards in deck or hands {sorted(seen)}"
    return None


def bankrupt_hold_nothing(game) -> str | None:
    st = game.st
    for p in st.players:
        if p.bankrupt:
            if p.cash or p.cards or any(o == p.seat for o in st.owner) or p.in_jail:
                return f"bankrupt seat {p.seat} still holds something"
    return None


INVARIANTS = {
    "money conservation": money_conservation,
    "no negative cash": no_negative_cash,
    "building stock": building_stock,
    "even building": even_building,
    "mortgage excludes buildings": mortgage_excludes_buildings,
    "unique ownership": unique_ownership,
    "card conservation": card_conservation,
    "bankrupt players hold nothing": bankrupt_hold_nothing,
}


def check_all(game, event: dict | None = None, index: int | None = None) -> None:
    for name, check in INVARIANTS.items():
        message = check(game)
        if message:
            raise InvariantViolation(name, message, event, index)


# Events that change nothing an invariant reads (a choice is logged before it is acted
# on; rolls, turns and moves touch no money, deed, building or card): the state after
# them was already checked after the event before, so they are not checked again.
UNCHANGING = frozenset({"choice", "roll", "roll_off", "turn", "move", "auction", "house_auction", "trade"})


def event_checker():
    """The hook for `play(check_invariants=True)`: checks every invariant after each event
    (money is mid-flight inside a transfer only, never between events)."""
    def hook(game, event):
        if not game.st.owner or event.get("type") in UNCHANGING:   # setup has not laid out the board yet
            return
        check_all(game, event, len(game.events) - 1)
    return hook
