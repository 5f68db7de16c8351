"""The event log: plain dicts, each with a `type`. Built only when logging is on (or
invariants are checked), so a benchmark game allocates no event.

| type | fields |
|---|---|
| start | edition, seed, players |
| roll_off | seat, total |
| turn | seat, turn |
| roll | seat, dice[, purpose: jail, card or throw] |
| move | seat, from_square, to, steps |
| transfer | payer, payee (seat or -1 the bank), amount, reason |
| choice | seat, action (actions.to_json)[, default: why the engine took it] |
| action | seat, action, item (an end-of-turn action taken) |
| buy | seat, square, price |
| auction | square, winner (-1 none), price[, seller: a debtor's forced sale] |
| house_auction | winner, price |
| draw | seat, deck, card, text |
| keep | seat, deck, card |
| jail / leave_jail | seat, from_square, reason / seat, how |
| build / build_hotel / sell / downgrade | seat, square, ... |
| mortgage / unmortgage | seat, square |
| trade | seat, partner, accepted, offer |
| deed_for_debt | seat, creditor, square, value |
| bankrupt | seat, creditor |
| deal | seat, square (a deed dealt by `deal`) |
| mark | seat, state, item (an element added to a player's declared state) |
| set | state, value, and seat or area (a declared number set) |
| end | ended_by, winner, rounds, turns |
"""
from __future__ import annotations


def _fields(always: str, sometimes: str = "") -> tuple[frozenset[str], frozenset[str]]:
    return frozenset(always.split()), frozenset(sometimes.split())


# Every type of event the engine logs -> (the fields it always has besides `type`, the
# fields it has on some occasions). tests/interpreter/test_events.py holds every event of a
# game of each bundled edition and variant to it.
FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "start": _fields("edition seed players"),
    "roll_off": _fields("seat total"),
    "turn": _fields("seat turn"),
    "roll": _fields("seat dice", "purpose"),
    "move": _fields("seat from_square to steps"),
    "transfer": _fields("payer payee amount reason"),
    "choice": _fields("seat action", "default"),
    "action": _fields("seat action item"),
    "buy": _fields("seat square price"),
    "auction": _fields("square winner price", "seller"),
    "house_auction": _fields("winner price"),
    "draw": _fields("seat deck card text"),
    "keep": _fields("seat deck card"),
    "jail": _fields("seat from_square reason"),
    "leave_jail": _fields("seat how"),
    "build": _fields("seat square houses"),
    "build_hotel": _fields("seat square"),
    "sell": _fields("seat square houses hotels"),
    "downgrade": _fields("seat square"),
    "mortgage": _fields("seat square"),
    "unmortgage": _fields("seat square"),
    "trade": _fields("seat partner accepted offer"),
    "deed_for_debt": _fields("seat creditor square value"),
    "bankrupt": _fields("seat creditor"),
    "deal": _fields("seat square"),
    "mark": _fields("seat state item"),
    "set": _fields("state value", "seat area"),
    "end": _fields("ended_by winner rounds turns"),
}
