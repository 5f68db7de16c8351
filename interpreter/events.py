"""The event log: plain dicts, each with a `type`. Built only when logging is on (or
invariants are checked), so a benchmark game allocates no event.

| type | fields |
|---|---|
| start | edition, seed, players |
| roll_off | seat, total |
| turn | seat, turn |
| roll | seat, dice[, purpose: jail or card] |
| move | seat, from_square, to, steps |
| transfer | payer, payee (seat or -1 the bank), amount, reason |
| choice | seat, action (actions.to_json) |
| buy | seat, square, price |
| auction | square, winner (-1 none), price |
| house_auction | winner, price |
| draw / keep | seat, deck, card[, text] |
| jail / leave_jail | seat, reason / how |
| build / build_hotel / sell / downgrade | seat, square, ... |
| mortgage / unmortgage | seat, square |
| trade | seat, partner, accepted, offer |
| deed_for_debt | seat, creditor, square, value |
| bankrupt | seat, creditor |
| deal | seat, square (a deed dealt by `deal`) |
| mark | seat, state, item (an element added to a player's declared state) |
| end | ended_by, winner, rounds, turns |
"""
from __future__ import annotations

TYPES = ("start", "roll_off", "turn", "roll", "move", "transfer", "choice", "buy", "auction",
         "house_auction", "draw", "keep", "jail", "leave_jail", "build", "build_hotel", "sell",
         "downgrade", "mortgage", "unmortgage", "trade", "deed_for_debt", "bankrupt", "deal", "mark", "end")
