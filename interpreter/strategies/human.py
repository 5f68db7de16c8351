"""A human at the terminal: the state in brief, then the numbered legal actions; Enter on an
empty line takes the default one (`actions.default`), which the prompt names."""
from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from random import Random
from typing import TYPE_CHECKING

from .. import actions as A
from ..rules import AuctionInfo

if TYPE_CHECKING:
    from ..engine import Game


class InputEnded(SystemExit):
    """The terminal closed (EOF) while a human was to choose: the game stops cleanly."""

    def __init__(self, seat: int):
        self.message = f"error: input ended while seat {seat} was choosing; the game stops unfinished"
        super().__init__(2)


def describe(game: Game, action: A.Action) -> str:
    ed = game.edition
    names = ed.square_names
    kind = type(action)
    square = getattr(action, "square", None)
    if isinstance(square, int) and 0 <= square < ed.n:
        extra = f" {names[square]}"
        if kind is A.Buy:
            extra += f" for {ed.price[square]}"
        if isinstance(action, A.GiveDeed):
            extra += f" as {action.value}"
        return kind.__name__ + extra
    if isinstance(action, A.Bid):
        return f"Bid {action.amount}"
    if isinstance(action, A.Choose):
        return f"Choose: {action.label}"
    if isinstance(action, A.ProposeTrade):
        give = ", ".join(names[s] for s in action.give) or "-"
        get = ", ".join(names[s] for s in action.get) or "-"
        cards = list(action.get_cards) or ''
        return f"Offer seat {action.partner}: give [{give}] + cash {action.cash}, get [{get}] {cards}"
    return kind.__name__


class Human:
    name = "human"
    draws = False
    falls_back = True     # no legal answer: the engine takes the default (engine.Game.failed)

    def __init__(self, rng: Random | None = None, read: Callable[[str], str] = input,
                 write: Callable[[str], None] = print) -> None:
        self.read = read
        self.write = write

    def choose(self, game: Game, seat: int, actions: Sequence[A.Action]) -> A.Action:
        st, ed = game.state, game.edition
        me = st.players[seat]
        self.write(f"\n-- seat {seat}: cash {me.cash}, on {ed.square_names[me.position]}"
                   + (" (in jail)" if me.in_jail else "")
                   + f", deeds: {', '.join(ed.square_names[s] for s in game.deeds_of(seat)) or 'none'}")
        for other in st.players:
            if other.seat != seat:
                self.write(f"   seat {other.seat}: cash {other.cash}, on {ed.square_names[other.position]}"
                           + (" bankrupt" if other.bankrupt else ""))
        pending = game.pending
        if isinstance(pending, A.ProposeTrade):
            self.write("   offer: " + describe(game, pending))
        elif isinstance(pending, AuctionInfo):
            self.write(f"   auction: high bid {pending.high} by seat {pending.leader}")
        for i, action in enumerate(actions, start=1):
            self.write(f"  {i:>3}. {describe(game, action)}")
        default = A.default(actions)
        number = actions.index(default) + 1
        enter = f"Enter: {number}. {describe(game, default)}" + (", the only choice" if len(actions) == 1 else "")
        while True:
            try:
                text = self.read(f"choose a number ({enter}): ")
            except EOFError:
                self.write("")         # the prompt's line ends before the message
                print(InputEnded(seat).message, file=sys.stderr)
                raise InputEnded(seat) from None
            text = text.strip()
            if not text:
                return default
            if text.isdigit() and 1 <= int(text) <= len(actions):
                return actions[int(text) - 1]
            self.write(f"  type a number from 1 to {len(actions)}, or Enter for {number}")
