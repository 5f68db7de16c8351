"""The property mechanisms: money transfers and debts, buying, rent, auctions, building,
mortgages, trades and bankruptcy. Legality lives here; choices are the strategies'.
Mixed into `engine.Game`."""
from __future__ import annotations

import bisect
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from . import actions as A
from .errors import GOES_WRONG, LARGEST_PAYMENT, RuleError
from .parts import GameParts
from .state import BANK, POT0, Player
from .translate import Ctx

NOBODY = Player(seat=BANK, strategy="bank")   # what a party's player attributes read for the bank

# What a debtor may do to raise money (besides handing deeds to the creditor).
RAISING = (A.SellBuilding, A.Downgrade, A.Mortgage)


class AuctionInfo:
    """What a bidder sees: the lot (`square`, or -1 for a house in a shortage), the
    highest bid so far and who holds it (-1: nobody)."""
    __slots__ = ("square", "high", "leader", "start")

    def __init__(self, square: int, high: int, leader: int, start: int) -> None:
        self.square, self.high, self.leader, self.start = square, high, leader, start


class RulesMixin(GameParts):
    __slots__ = ()

    # ---- money -------------------------------------------------------------------------

    def transfer(self, payer: int, payee: int, amount: int, reason: str) -> None:
        # INVARIANT (money conservation): every amount leaves one party and reaches one.
        # A pot (party POT0 - k) is an account like a player's: what it holds is in `st.pots`.
        if payer >= 0:
            self.players[payer].cash -= amount
        elif payer == BANK:
            self.state.bank_ledger -= amount
        else:
            self.state.pots[POT0 - payer] -= amount
        if payee >= 0:
            self.players[payee].cash += amount
        elif payee == BANK:
            self.state.bank_ledger += amount
        else:
            self.state.pots[POT0 - payee] += amount
        if self.log_on:
            self.ev({"type": "transfer", "payer": payer, "payee": payee, "amount": amount, "reason": reason})

    def pay(self, payer: int, payee: int, amount: int, reason: str) -> None:
        """A debt: paid in full, or after raising money, or the payer goes bankrupt."""
        if amount <= 0:
            if amount < 0:
                self.pay(payee, payer, -amount, reason)
            return
        if amount > LARGEST_PAYMENT:
            raise RuleError.payment(amount)
        if payee == BANK and self.edition.redirect:            # a pot takes these receipts instead
            payee = self.edition.redirect.get(reason, BANK)
        if payer == payee:
            return
        if payer < 0:                                      # the bank or a pot pays in full
            self.transfer(payer, payee, amount, reason)
            return
        players = self.players
        pl = players[payer]
        if pl.bankrupt or (payee >= 0 and players[payee].bankrupt):
            return
        if pl.cash < amount:
            amount -= self.raise_money(payer, amount, payee)
            if amount <= 0:
                return
            if pl.cash < amount:
                self.bankrupt(payer, payee)
                return
        self.transfer(payer, payee, amount, reason)

    # ---- ownership ---------------------------------------------------------------------

    def set_owner(self, sq: int, new: int) -> None:
        st = self.state
        g = self.edition.group_of[sq]
        old = st.owner[sq]
        if old >= 0:
            self.holdings[old].remove(sq)
            self.group_counts[old][g] -= 1
            if not self.group_counts[old][g]:
                self.holders[g].remove(old)
        if new >= 0:
            bisect.insort(self.holdings[new], sq)
            self.group_counts[new][g] += 1
            if self.group_counts[new][g] == 1:
                self.holders[g].append(new)
        st.owner[sq] = new
        self.shortcuts.changed_hands(g, old, new, st.mortgaged[sq], self.holders[g], self.group_counts)

    def set_mortgaged(self, sq: int, value: bool) -> None:
        if self.state.mortgaged[sq] != value:
            self.state.mortgaged[sq] = value
            self.group_mortgages[self.edition.group_of[sq]] += 1 if value else -1
            self.touch_deed(sq)

    def touch_deed(self, sq: int) -> None:
        """A mortgage, a hotel or a sale on deed `sq`: only its holder's version moves (the
        other holders of its group hold what they held; shortcuts.py)."""
        o = self.state.owner[sq]
        if o >= 0:
            self.shortcuts.moved(o)

    def party(self, q: int) -> Player:
        """A party's player record: the bank reads as a player holding nothing, never bankrupt."""
        return self.players[q] if q >= 0 else NOBODY

    def deeds_of(self, p: int) -> list[int]:
        """A party's deeds in square order (a new list: the caller may change holdings)."""
        if p >= 0:
            return self.holdings[p][:]
        owner = self.state.owner
        return [sq for sq in self.edition.deeds if owner[sq] == p]

    def buildings_of(self, p: int, table: str) -> int:
        values = self.state.houses if table == "houses" else self.state.hotels
        return sum([values[sq] for sq in self.deeds_of(p)])

    def group_built(self, g: int) -> bool:
        houses, hotels = self.state.houses, self.state.hotels
        for s in self.edition.group_squares[g]:
            if houses[s] or hotels[s]:
                return True
        return False

    # ---- landing on a deed -------------------------------------------------------------

    def property_rule(self, c: Ctx, p: int, sq: int) -> None:
        st = self.state
        o = st.owner[sq]
        rent_fn = c.rent_fn
        c.rent_fn = None
        if o == p:
            return
        ed = self.edition
        if o == BANK:
            if ed.auction_only:
                self.auction_deed(sq, p, lander=p)
            else:
                self.offer_deed(c, p, sq)
            return
        amount = self.rent(c, sq, o)
        if amount is None:
            return
        if rent_fn is not None:
            c.rent = amount
            amount = ed.money(rent_fn(self, c))
        self.pay(p, o, amount, "rent")
        if ed.rent_hooks and not self.players[p].bankrupt:
            self.fire(ed.rent_hooks, c, sq)

    def offer_deed(self, c: Ctx, p: int, sq: int) -> None:
        """A free deed with a price: the lander buys it at that price where `buy.may` lets
        them and they choose to (a buyer short of cash raises it as for any debt); a deed
        not bought is auctioned where `auction.on_decline` says so. Both read `here`."""
        ed = self.edition
        c.here = sq
        may = ed.buy_may
        if may is None or may(self, c):
            a = self.ask(p, ed.BUY_OR_DECLINE[sq])
            if type(a) is A.Buy:
                price = ed.price[sq]
                self.pay(p, BANK, price, "buy")
                if self.players[p].bankrupt:
                    return
                self.set_owner(sq, p)
                if self.log_on:
                    self.ev({"type": "buy", "seat": p, "square": sq, "price": price})
                self.acquired(p, sq, "buy")
                return
        if ed.auction_on_decline(self, c):
            self.auction_deed(sq, p, lander=p)

    def rent(self, c: Ctx, sq: int, o: int) -> int | None:
        """The rent of deed `sq` held by `o`, the rent names (docs/language.md) bound in `c`
        first: what `rent.due` and the rent formulas read. None where `rent.due` says no rent
        is due. (One method, not one per step: a landing on a held deed is the engine's
        commonest rule, and each call costs a frame.)"""
        ed, st = self.edition, self.state
        g = ed.group_of[sq]
        owned = self.group_counts[o][g]
        c.here = sq          # `Ctx.again` resets the rent names (and `rent`) when `here` is set
        c.owner = o
        c.printed = ed.printed[sq]
        c.level = ed.hotel_level if st.hotels[sq] else st.houses[sq]
        c.owned = owned
        c.complete = owned == ed.group_size[g]
        c.mortgaged_in_group = self.group_mortgages[g]
        due = ed.rent_due
        if due is not None and not due(self, c):
            return None
        f = ed.rent_fn[sq]
        try:
            amount = f(self, c)
        except GOES_WRONG as error:
            raise self.located(error, f) from None
        return amount if type(amount) is int else ed.money(amount)      # most rents are whole

    def rent_owed(self, p: int, sq: int, dice: int) -> int:
        """The rent `p` would owe landing on `sq` now (0 on a free or own deed, or where `rent.due` says none is)."""
        o = self.state.owner[sq]
        if o < 0 or o == p or self.players[o].bankrupt:
            return 0
        amount = self.rent(Ctx(p, dice), sq, o)
        return 0 if amount is None else amount

    def risk(self, p: int, sq: int, lands: bool) -> Fraction | int:
        """What standing on `sq` may cost `p` in rent: owed there (if the token lands) plus the
        expected rent of the next roll of the dice from there (a hint for strategies)."""
        n = self.edition.n
        ahead = sum(odds * self.rent_owed(p, (sq + total) % n, total) for total, odds in self.edition.roll_odds)
        return (self.rent_owed(p, sq, 0) if lands else 0) + ahead

    # ---- auctions ----------------------------------------------------------------------

    def run_auction(self, first: int, square: int, start: int = 0, include: list[int] | None = None) -> tuple[int, int]:
        """English auction: in turn from `first`, each active bidder raises by one of
        `auction.raises` or passes (and drops out). Returns (winner or -1, price)."""
        ed = self.edition
        order = self.state.order
        k = order.index(first) if first in order else 0
        active = [q for q in order[k:] + order[:k]
                  if not self.players[q].bankrupt and (include is None or q in include)]
        info = AuctionInfo(square, 0, -1, start)
        raises, offers = ed.raises, ed.offers
        i = 0
        while active:
            if info.leader >= 0 and len(active) == 1:
                break
            if i >= len(active):
                i = 0
            q = active[i]
            if q == info.leader:
                i += 1
                continue
            if info.leader < 0:
                base = start - raises[0] if start > 0 else 0
            else:
                base = info.high
            # the raises are sorted: the first `count` are the bids within cash
            count = bisect.bisect_right(raises, self.players[q].cash - base) if ed.bid_within_cash else len(raises)
            if not count:
                active.pop(i)
                continue
            offer = offers.get((base, count))
            if offer is None:
                offer = offers[base, count] = (A.PASS, *[A.Bid(base + r) for r in raises[:count]])
            self.pending = info
            a = self.ask(q, offer)
            self.pending = None
            if type(a) is A.Bid:
                info.high, info.leader = a.amount, q
                i += 1
            else:
                active.pop(i)
        return info.leader, info.high

    def auction_deed(self, sq: int, first: int, lander: int = -1) -> None:
        ed = self.edition
        include = None
        if not ed.decliner_may_bid and lander >= 0:
            include = [q for q in self.seats if q != lander]
        winner, price = self.run_auction(first, sq, 0, include)
        if ed.preempt is not None and lander >= 0 and winner != lander:
            winner, price = self.preemption(sq, lander, winner, price)
        if self.log_on:
            self.ev({"type": "auction", "square": sq, "winner": winner, "price": price})
        if winner >= 0:
            self.pay(winner, BANK, price, "auction")
            if not self.players[winner].bankrupt:
                self.set_owner(sq, winner)
                self.acquired(winner, sq, "auction")

    def preemption(self, sq: int, lander: int, winner: int, price: int) -> tuple[int, int]:
        """`auction.preempt`: the player who landed may take the deed for the last bid plus the
        premium (the premium alone when nobody bid). Returns the new (winner, price)."""
        offer = price + self.edition.preempt
        if self.players[lander].bankrupt or self.players[lander].cash < offer:
            return winner, price
        self.pending = AuctionInfo(sq, price, winner, 0)
        a = self.ask(lander, [A.Preempt(offer), A.PASS])
        self.pending = None
        return (lander, offer) if type(a) is A.Preempt else (winner, price)

    # ---- building ----------------------------------------------------------------------

    def even_level(self, sq: int) -> int:
        return self.edition.hotel_even_level if self.state.hotels[sq] else self.state.houses[sq]

    def level(self, sq: int) -> int:
        """The `level` of a lot: its houses, or `max_houses + 1` with a hotel."""
        return self.edition.hotel_level if self.state.hotels[sq] else self.state.houses[sq]

    def can_build(self, p: int, sq: int, paid: bool = True) -> bool:
        ed, st = self.edition, self.state
        houses, hotels = st.houses, st.hotels
        level = houses[sq]
        if ed.even and level:      # no lot is below level 0 (first: what stops most builds)
            hotel_level = ed.hotel_even_level
            for s in ed.group_squares[ed.group_of[sq]]:
                if (hotel_level if hotels[s] else houses[s]) < level:    # even_level(s)
                    return False
        if st.owner[sq] != p or hotels[sq] or level >= ed.max_houses or st.bank_houses <= 0:
            return False
        if paid and self.players[p].cash < ed.house_cost[sq]:
            return False
        # (the spec's rule last: it is what costs most to ask, and most builds stop before it)
        if ed.group_kind[ed.group_of[sq]] != 1:
            return False
        may = ed.build_may
        return may is None or may(self, p, sq)

    def can_build_hotel(self, p: int, sq: int) -> bool:
        ed, st = self.edition, self.state
        if st.owner[sq] != p or st.hotels[sq] >= ed.hotels_per_lot or st.bank_hotels <= 0:
            return False
        if st.houses[sq] < ed.houses_per_hotel or self.players[p].cash < ed.hotel_cost[sq]:
            return False
        g = ed.group_of[sq]
        if ed.group_kind[g] != 1:      # lots only
            return False
        if ed.even:
            for s in ed.group_squares[g]:
                if not st.hotels[s] and st.houses[s] < ed.houses_per_hotel:
                    return False
        return ed.build_may is None or ed.build_may(self, p, sq)

    def can_sell(self, p: int, sq: int) -> bool:
        ed, st = self.edition, self.state
        if st.owner[sq] != p or not (st.houses[sq] or st.hotels[sq]):
            return False
        if not ed.even:
            return True
        g = ed.group_of[sq]
        houses, hotels, hotel_level = st.houses, st.hotels, ed.hotel_even_level
        level = hotel_level if hotels[sq] else houses[sq]     # even_level(sq)
        for s in ed.group_squares[g]:
            if (hotel_level if hotels[s] else houses[s]) > level:    # even_level(s): not the top
                return False
        if st.hotels[sq]:
            # selling a hotel outright leaves the lot empty: even only if the rest is low,
            # or allowed when the bank lacks the houses to trade it back (then uneven)
            rest = max((self.even_level(s) for s in ed.group_squares[g] if s != sq), default=0)
            return rest <= 1 or st.bank_houses < ed.houses_per_hotel
        return True

    def can_downgrade(self, p: int, sq: int) -> bool:
        st = self.state
        return st.owner[sq] == p and st.hotels[sq] > 0 and st.bank_houses >= self.edition.houses_per_hotel

    def can_mortgage(self, p: int, sq: int) -> bool:
        st, ed = self.state, self.edition
        if not ed.mortgages or st.owner[sq] != p or st.mortgaged[sq]:
            return False
        may = ed.mortgage_may
        return may is None or may(self, p, sq)

    def can_unmortgage(self, p: int, sq: int) -> bool:
        st, ed = self.state, self.edition
        return st.owner[sq] == p and st.mortgaged[sq] and self.players[p].cash >= ed.unmortgage_cost[sq] \
            and (ed.lift_may is None or ed.lift_may(self, p, sq))

    def build(self, p: int, sq: int, price: int | None = None) -> None:
        ed, st = self.edition, self.state
        cost = ed.house_cost[sq] if price is None else price
        if price is None:
            self.transfer(p, BANK, cost, "build")
        st.houses[sq] += 1
        st.bank_houses -= 1
        if st.uneven:         # (a build is hot; most games never leave a group uneven)
            self.check_even(ed.group_of[sq])
        if self.log_on:
            self.ev({"type": "build", "seat": p, "square": sq, "houses": st.houses[sq]})

    def build_hotel(self, p: int, sq: int) -> None:
        ed, st = self.edition, self.state
        self.touch_deed(sq)
        self.transfer(p, BANK, ed.hotel_cost[sq], "build")
        st.bank_houses += st.houses[sq]
        st.houses[sq] = 0
        st.hotels[sq] += 1
        st.bank_hotels -= 1
        self.check_even(ed.group_of[sq])
        if self.log_on:
            self.ev({"type": "build_hotel", "seat": p, "square": sq})

    def sell_building(self, p: int, sq: int) -> None:
        ed, st = self.edition, self.state
        self.touch_deed(sq)
        if st.hotels[sq]:
            st.hotels[sq] -= 1
            st.bank_hotels += 1
            g = ed.group_of[sq]
            if ed.even and max((self.even_level(s) for s in ed.group_squares[g]), default=0) > 1 \
                    and g not in st.uneven:
                st.uneven.append(g)
            self.transfer(BANK, p, ed.hotel_sale_full[sq], "sell")
        else:
            st.houses[sq] -= 1
            st.bank_houses += 1
            self.transfer(BANK, p, ed.house_sale[sq], "sell")
        self.check_even(ed.group_of[sq])
        if self.log_on:
            self.ev({"type": "sell", "seat": p, "square": sq, "houses": st.houses[sq], "hotels": st.hotels[sq]})

    def downgrade(self, p: int, sq: int) -> None:
        ed, st = self.edition, self.state
        self.touch_deed(sq)
        st.hotels[sq] -= 1
        st.bank_hotels += 1
        st.houses[sq] = ed.houses_per_hotel
        st.bank_houses -= ed.houses_per_hotel
        self.transfer(BANK, p, ed.hotel_sale_only[sq], "sell")
        if self.log_on:
            self.ev({"type": "downgrade", "seat": p, "square": sq})

    def check_even(self, g: int) -> None:
        """A group left uneven by a shortage hotel sale is even again once levels meet."""
        st = self.state
        if st.uneven and g in st.uneven:
            levels = [self.even_level(s) for s in self.edition.group_squares[g]]
            if max(levels) - min(levels) <= 1:
                st.uneven.remove(g)

    def sell_all_buildings(self, p: int) -> None:
        ed, st = self.edition, self.state
        for sq in self.deeds_of(p):
            if st.hotels[sq] or st.houses[sq]:
                self.touch_deed(sq)
            while st.hotels[sq]:
                st.hotels[sq] -= 1
                st.bank_hotels += 1
                self.transfer(BANK, p, ed.hotel_sale_full[sq], "sell")
            if st.houses[sq]:
                count = st.houses[sq]
                st.houses[sq] = 0
                st.bank_houses += count
                self.transfer(BANK, p, ed.house_sale[sq] * count, "sell")
        for g in list(st.uneven):
            self.check_even(g)

    def builders(self) -> list[int]:
        """Players who could build a house now (for the housing-shortage auction)."""
        out = []
        for q in self.seats:
            if not self.players[q].bankrupt and any(self.can_build(q, sq) for sq in self.deeds_of(q)):
                out.append(q)
        return out

    def request_house(self, p: int, sq: int) -> None:
        """`Build(sq)`: with `building.shortage == auction`, when two or more players could
        build and the bank has fewer houses than they, the houses are auctioned one by one
        from the lowest house price of their groups; the winner places each."""
        ed, st = self.edition, self.state
        # fewer houses than players still in the game (counted only when fewer than seats)
        if ed.shortage_auction and st.bank_houses < len(self.players) \
                and st.bank_houses < sum(1 for q in self.players if not q.bankrupt):
            wanting = self.builders()
            if len(wanting) >= 2 and st.bank_houses < len(wanting):
                while st.bank_houses > 0:
                    wanting = self.builders()
                    if len(wanting) < 2 or st.bank_houses >= len(wanting):
                        break
                    start = min(ed.house_cost[s] for q in wanting for s in self.deeds_of(q) if self.can_build(q, s))
                    winner, price = self.run_auction(p, -1, start, wanting)
                    if self.log_on:
                        self.ev({"type": "house_auction", "winner": winner, "price": price})
                    if winner < 0:
                        break
                    spots = [ed.BUILD[s] for s in self.deeds_of(winner) if self.can_build(winner, s, paid=False)]
                    if not spots:
                        break
                    self.transfer(winner, BANK, price, "house_auction")
                    a = self.ask(winner, spots)
                    self.build(winner, a.square, price=price)
                return
        self.build(p, sq)

    # ---- mortgages ---------------------------------------------------------------------

    def mortgage(self, p: int, sq: int) -> None:
        self.set_mortgaged(sq, True)
        self.transfer(BANK, p, self.edition.mortgage_value[sq], "mortgage")
        if self.log_on:
            self.ev({"type": "mortgage", "seat": p, "square": sq})

    def unmortgage(self, p: int, sq: int) -> None:
        self.transfer(p, BANK, self.edition.unmortgage_cost[sq], "unmortgage")
        self.set_mortgaged(sq, False)
        if self.log_on:
            self.ev({"type": "unmortgage", "seat": p, "square": sq})

    def received_mortgaged(self, q: int, sq: int) -> None:
        """A mortgaged deed changed hands: the new holder lifts it now (where they may) or
        pays the transfer interest now and keeps the mortgage."""
        ed = self.edition
        acts: list[A.Action] = [ed.KEEP_MORTGAGE[sq]]
        if self.can_unmortgage(q, sq):
            acts.append(ed.UNMORTGAGE[sq])
        a = self.ask(q, acts)
        if type(a) is A.Unmortgage:
            self.unmortgage(q, sq)
        else:
            self.pay(q, BANK, ed.transfer_cost[sq], "mortgage_interest")

    # ---- trades ------------------------------------------------------------------------

    def tradeable(self, sq: int) -> bool:
        return self.edition.trade_built_groups or not self.group_built(self.edition.group_of[sq])

    def valid_trade(self, p: int, t: A.ProposeTrade) -> bool:
        ed, st = self.edition, self.state
        q = t.partner
        if type(t.partner) is not int or not 0 <= q < len(self.players) or q == p or self.players[q].bankrupt:
            return False
        if (t.give or t.get) and not ed.trade_deeds:
            return False
        if (t.give_cards or t.get_cards) and not ed.trade_cards:
            return False
        if t.cash and not ed.trade_cash:
            return False
        for sq in t.give:
            if not (type(sq) is int and 0 <= sq < ed.n and st.owner[sq] == p and self.tradeable(sq)):
                return False
        for sq in t.get:
            if not (type(sq) is int and 0 <= sq < ed.n and st.owner[sq] == q and self.tradeable(sq)):
                return False
        if len(set(t.give)) != len(t.give) or len(set(t.get)) != len(t.get):
            return False
        if not (self.holds_cards(p, t.give_cards) and self.holds_cards(q, t.get_cards)):
            return False
        if type(t.cash) is not int:
            return False
        if t.cash > 0 and self.players[p].cash < t.cash:
            return False
        if t.cash < 0 and self.players[q].cash < -t.cash:
            return False
        return bool(t.give or t.get or t.give_cards or t.get_cards)

    def holds_cards(self, holder: int, cards: tuple) -> bool:
        """Whether `holder` holds every one of `cards` (a card twice: two of them)."""
        if not cards:       # most trades are of deeds: no list to make
            return True
        held = [tuple(h) for h in self.players[holder].cards]
        for card in cards:
            if tuple(card) not in held:
                return False
            held.remove(tuple(card))
        return True

    def propose_trade(self, p: int, t: A.ProposeTrade) -> bool:
        if not self.valid_trade(p, t):
            return False
        q = t.partner
        self.pending = t
        self.proposer = p
        a = self.ask(q, [A.ACCEPT, A.REJECT])
        self.pending = None
        if self.log_on:
            self.ev({"type": "trade", "seat": p, "partner": q, "accepted": type(a) is A.Accept,
                     "offer": A.to_json(t)})
        if type(a) is not A.Accept:
            return False
        self.exchange(p, q, t)
        return True

    def exchange(self, p: int, q: int, t: A.ProposeTrade) -> None:
        """An accepted trade carried out: deeds, cards, cash; then the mortgaged deeds
        received, then the `acquire` hooks."""
        for sq in t.give:
            self.set_owner(sq, q)
        for sq in t.get:
            self.set_owner(sq, p)
        for card in t.give_cards:
            self.players[p].cards.remove(list(card))
            self.players[q].cards.append(list(card))
        for card in t.get_cards:
            self.players[q].cards.remove(list(card))
            self.players[p].cards.append(list(card))
        if t.cash > 0:
            self.transfer(p, q, t.cash, "trade")
        elif t.cash < 0:
            self.transfer(q, p, -t.cash, "trade")
        for sq in t.give:
            if self.state.mortgaged[sq]:
                self.received_mortgaged(q, sq)
        for sq in t.get:
            if self.state.mortgaged[sq]:
                self.received_mortgaged(p, sq)
        for sq in t.give:
            self.acquired(q, sq, "trade")
        for sq in t.get:
            self.acquired(p, sq, "trade")

    # ---- debts and bankruptcy ----------------------------------------------------------

    def deed_value(self, sq: int) -> int:
        """What a deed handed over for a debt counts for: its price, less the mortgage owed."""
        ed = self.edition
        return ed.price[sq] - (ed.mortgage_value[sq] if self.state.mortgaged[sq] else 0)

    def raise_actions(self, p: int, creditor: int, owed: int, refused: set[int]) -> list[A.Action]:
        ed = self.edition
        if ed.debt_auction:
            return [A.AuctionDeed(sq) for sq in self.deeds_of(p) if sq not in refused]
        acts: list[A.Action] = []
        for sq in self.deeds_of(p):
            if self.can_sell(p, sq):
                acts.append(ed.SELL[sq])
            if self.can_downgrade(p, sq):
                acts.append(ed.DOWNGRADE[sq])
            if self.can_mortgage(p, sq):
                acts.append(ed.MORTGAGE[sq])
            if self.may_give_deed(sq, owed, creditor, refused):
                acts.append(A.GiveDeed(sq, self.deed_value(sq)))
        return acts

    def may_give_deed(self, sq: int, owed: int, creditor: int, refused: set[int]) -> bool:
        if not self.edition.pay_with_deeds or creditor < 0 or sq in refused or not self.tradeable(sq):
            return False
        return 0 < self.deed_value(sq) <= owed

    def raise_legal(self, p: int, a: Any, owed: int, creditor: int, refused: set[int]) -> bool:
        """Whether `a` (an action, told by its kind as `ask`'s answer: no cast, a call each) is a
        legal step in raising money."""
        if self.edition.debt_auction:
            return a in self.raise_actions(p, creditor, owed, refused)
        if type(a) is A.GiveDeed:
            sq = a.square
            return type(sq) is int and 0 <= sq < self.edition.n and self.state.owner[sq] == p \
                and self.may_give_deed(sq, owed, creditor, refused) and a.value == self.deed_value(sq)
        if type(a) not in RAISING:
            return False
        sq = a.square
        return type(sq) is int and 0 <= sq < self.edition.n and SQUARE_ACTIONS[type(a)][0](self, p, sq)

    def raise_money(self, p: int, amount: int, creditor: int) -> int:
        """The debtor sells buildings, mortgages (and, where allowed, hands deeds to the
        creditor, or takes the spec's actions offered while raising money) until the cash
        covers `amount`. Returns the value paid in deeds. The spec's actions are in the list
        only (an edition with any asks from the list), at most as many as `end_of_turn` takes."""
        ed = self.edition
        pl = self.players[p]
        credited = 0
        refused: set[int] = set()
        fast = self.shortcuts.raise_fast[p] if not ed.raising else None
        spec_left = ed.n * len(ed.raising)
        while pl.cash < amount - credited:
            if fast is not None:
                a = self.raise_answer_fast(fast, p, amount - credited, creditor, refused)
            else:
                a = self.raise_answer(p, amount - credited, creditor, refused, spec_left > 0)
            if a is None:
                break
            kind = type(a)
            if kind in RAISING:
                SQUARE_ACTIONS[kind][1](self, p, a.square)
            elif kind is A.AuctionDeed:
                if not self.forced_sale(p, a.square):
                    refused.add(a.square)
            elif kind is A.GiveDeed:
                if self.give_deed(p, creditor, a):
                    credited += a.value
                else:
                    refused.add(a.square)
            elif kind is A.Act:
                spec_left -= 1
                self.take_action(p, a, Ctx(p, reason="action"))
                if pl.bankrupt or self.ending:
                    break
        return credited

    def raise_answer(self, p: int, owed: int, creditor: int, refused: set[int], spec: bool) -> Any:
        """The debtor's next step, asked from the list of legal ones (with `spec`, the spec's
        actions offered while raising money among them); None when there is none."""
        acts = self.raise_actions(p, creditor, owed, refused)
        if spec:
            acts += self.offered(p, self.edition.raising, Ctx(p, reason="action"))[0]
        if not acts:
            return None
        self.pending = (owed, creditor)
        a = self.ask(p, acts)
        self.pending = None
        return a

    def raise_answer_fast(self, fast: Callable[..., A.Action | None], p: int, owed: int, creditor: int,
                          refused: set[int]) -> Any:
        """The debtor's next step from its strategy's `raise_fast` (no list), checked here; the
        default step instead of an illegal or failed answer; None when there is none."""
        try:
            a = fast(self, p, owed, creditor, refused)
        except Exception as error:
            return self.raise_by_default(p, owed, creditor, refused, self.failed(p, error))
        if a is not None and not self.raise_legal(p, a, owed, creditor, refused):
            why = self.failed(p, self.strategy_error(p, a, ()))
            return self.raise_by_default(p, owed, creditor, refused, why)
        if a is not None and self.log_on:
            self.ev({"type": "choice", "seat": p, "action": A.to_json(a)})
        return a

    def give_deed(self, p: int, creditor: int, a: A.GiveDeed) -> bool:
        """Debtor `p` offers the creditor a deed for part of the debt: whether it was taken."""
        self.pending = a
        answer = self.ask(creditor, [A.ACCEPT, A.REJECT])
        self.pending = None
        if type(answer) is not A.Accept:
            return False
        self.set_owner(a.square, creditor)
        if self.log_on:
            self.ev({"type": "deed_for_debt", "seat": p, "creditor": creditor,
                     "square": a.square, "value": a.value})
        if self.state.mortgaged[a.square]:
            self.received_mortgaged(creditor, a.square)
        self.acquired(creditor, a.square, "debt")
        return True

    def raise_by_default(self, p: int, owed: int, creditor: int, refused: set[int], why: str) -> A.Action | None:
        """The default way to raise money (the first legal one), for a debtor whose strategy
        gave no legal answer; None (nothing to raise) when there is none."""
        acts = self.raise_actions(p, creditor, owed, refused)
        return self.by_default(p, acts, why) if acts else None

    def forced_sale(self, p: int, sq: int) -> bool:
        """A debtor's deed auctioned to the other players (the creditor may bid); the price goes
        to the debtor. False when nobody bid: the deed stays."""
        others = [q for q in self.seats if q != p and not self.players[q].bankrupt]
        winner, price = self.run_auction(p, sq, 0, others)     # bidding starts left of the debtor
        if self.log_on:
            self.ev({"type": "auction", "square": sq, "winner": winner, "price": price, "seller": p})
        if winner < 0:
            return False
        self.pay(winner, p, price, "forced_sale")
        if not self.players[winner].bankrupt:
            self.set_owner(sq, winner)
            self.acquired(winner, sq, "debt")
        return True

    def bankrupt(self, p: int, creditor: int) -> None:
        """Bankrupt to a player (everything of value to the creditor, buildings to the
        bank at sale value) or to the bank (which auctions the deeds, per the settings)."""
        ed, st = self.edition, self.state
        pl = self.players[p]
        if p == self.cur:
            self.halt = True
        self.sell_all_buildings(p)
        deeds = self.deeds_of(p)
        if pl.cash > 0:
            self.transfer(p, creditor, pl.cash, "bankruptcy")
        pl.in_jail = False
        pl.jail_turns = 0
        if creditor >= 0:
            for sq in deeds:
                self.set_owner(sq, creditor)
            cards, pl.cards = pl.cards, []
            self.players[creditor].cards.extend(cards)
            self._gone(p, creditor)
            for sq in deeds:
                if st.mortgaged[sq] and st.owner[sq] == creditor and not self.players[creditor].bankrupt:
                    self.received_mortgaged(creditor, sq)
            for sq in deeds:
                self.acquired(creditor, sq, "bankruptcy")
        else:
            for sq in deeds:
                self.set_owner(sq, BANK)
                self.set_mortgaged(sq, False)
            for card in list(pl.cards):
                self.return_card(p, card)
            self._gone(p, creditor)
            if ed.bank_auctions_all:
                first = self.cur if not self.players[self.cur].bankrupt else p
                for sq in deeds:
                    if self.ending:
                        break
                    if st.owner[sq] == BANK:
                        self.auction_deed(sq, first)

    def _gone(self, p: int, creditor: int) -> None:
        self.players[p].bankrupt = True
        self.bankruptcies += 1
        if self.log_on:
            self.ev({"type": "bankrupt", "seat": p, "creditor": creditor})


# Each action on one square, by kind: (its legality check, what it does), both
# `f(game, seat, square)` (one table for the manage window and for raising money).
SQUARE_ACTIONS = {A.Build: (RulesMixin.can_build, RulesMixin.request_house),
                  A.BuildHotel: (RulesMixin.can_build_hotel, RulesMixin.build_hotel),
                  A.SellBuilding: (RulesMixin.can_sell, RulesMixin.sell_building),
                  A.Downgrade: (RulesMixin.can_downgrade, RulesMixin.downgrade),
                  A.Mortgage: (RulesMixin.can_mortgage, RulesMixin.mortgage),
                  A.Unmortgage: (RulesMixin.can_unmortgage, RulesMixin.unmortgage)}
