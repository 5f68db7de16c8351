"""The property mechanisms on the symbolic state: the mirror of `interpreter/rules.py`
(transfer and debts, buying, rent, auctions, building, mortgages, trades, bankruptcy),
method for method and name for name. Mixed into `SymGame`.

Loops over deeds whose body only sets a few fields are written field by field with
`ite` (no fork), so a bankruptcy costs one term per deed field, not one state per deed.
"""
from __future__ import annotations

from interpreter.state import BANK, POT0

from . import terms as T
from .encode import Ctx, Node, sum_terms
from .machine import Machine
from .terms import Term


class RulesMixin(Machine):
    # ---- money -------------------------------------------------------------------------

    def transfer(self, payer: int, payee: int, amount: Term, reason: str = "") -> None:
        # INVARIANT (money conservation): every amount leaves one party and reaches one.
        # A pot (party POT0 - k) is an account like a player's: what it holds is `s.pots[k]`.
        s = self.state
        if payer >= 0:
            s.cash[payer] = T.sub(s.cash[payer], amount)
        elif payer == BANK:
            s.bank_ledger = T.sub(s.bank_ledger, amount)
        else:
            s.pots[POT0 - payer] = T.sub(s.pots[POT0 - payer], amount)
        if payee >= 0:
            s.cash[payee] = T.add(s.cash[payee], amount)
        elif payee == BANK:
            s.bank_ledger = T.add(s.bank_ledger, amount)
        else:
            s.pots[POT0 - payee] = T.add(s.pots[POT0 - payee], amount)

    def pay(self, payer: int, payee: int, amount: Term, reason: str = "", _flipped: bool = False) -> None:
        """A debt: paid in full, or the payer goes bankrupt. Raising money first (selling,
        mortgaging, handing deeds over) is the actions `sell_building`, `downgrade`,
        `mortgage` and `give_deed`, which the interpreter's raise loop calls."""
        def nonpositive():
            if _flipped:
                self.assume(False)
                return
            self.fork(T.lt(amount, 0), lambda: self.pay(payee, payer, T.neg(amount), reason, True))
        self.fork(T.le(amount, 0), nonpositive, lambda: self._pay(payer, payee, amount, reason))

    def _pay(self, payer: int, payee: int, amount: Term, reason: str) -> Term:
        if payee == BANK and self.edition.redirect:            # a pot takes these receipts instead
            payee = self.edition.redirect.get(reason, BANK)
        if payer == payee:
            return
        if payer < 0:                                      # the bank or a pot pays in full
            self.transfer(payer, payee, amount, reason)
            return
        s = self.state
        gone = T.or_(s.bankrupt[payer], s.bankrupt[payee] if payee >= 0 else False)
        self.fork(gone, None, lambda: self.fork(
            T.lt(s.cash[payer], amount),
            lambda: self.bankrupt(payer, payee),
            lambda: self.transfer(payer, payee, amount, reason)))

    # ---- ownership ---------------------------------------------------------------------

    def set_owner(self, sq: int, new: Term) -> None:
        self.state.owner[sq] = new

    def group_built(self, g: int) -> Term:
        s = self.state
        return T.or_(*[T.or_(T.lt(0, s.houses[sq]), T.lt(0, s.hotels[sq])) for sq in self.edition.group_squares[g]])

    def group_counts(self, p: int, g: int) -> Term:
        return sum_terms([T.ite(T.eq(self.state.owner[sq], p), 1, 0) for sq in self.edition.group_squares[g]])

    def group_mortgages(self, g: int) -> Term:
        return sum_terms([T.ite(self.state.mortgaged[sq], 1, 0) for sq in self.edition.group_squares[g]])

    # ---- landing on a deed -------------------------------------------------------------

    def property_rule(self, c: Ctx, p: int, sq: int) -> None:
        self.after_landing()
        ed, s = self.edition, self.state
        rent_node = c.rent_fn
        c.rent_fn = None

        def bank_holds():
            if ed.auction_only:
                self.auction_deed(sq, p, lander=p)
            else:
                self.offer_deed(c, p, sq)

        def held(o):
            if o == p:
                return
            self.rent_names(c, sq, o)
            due = ed.ir["settings"].get("rent", {}).get("due")
            self.fork(True if due is None else self.expr(due, c), lambda: self.charge(c, p, sq, rent_node))

        self.split_party(s.owner[sq], lambda o: bank_holds() if o == BANK else held(o))

    def offer_deed(self, c: Ctx, p: int, sq: int) -> None:
        """A free deed with a price: bought where `buy.may` holds and the lander chooses to
        (paid as a debt), else auctioned where `auction.on_decline` holds."""
        settings = self.edition.ir["settings"]
        c.here = sq
        may = settings.get("buy", {}).get("may")

        def bought():
            self.pay(p, BANK, self.edition.price[sq], "buy")
            self.fork(self.state.bankrupt[p], None, lambda: (self.set_owner(sq, p), self.acquired(p, sq, "buy")))

        def offer():
            self.fork(self.choice("buy", [True, False], seat=p), bought, declined)

        def declined():
            self.fork(self.expr(settings["auction"]["on_decline"], c), lambda: self.auction_deed(sq, p, lander=p))
        self.fork(True if may is None else self.expr(may, c), offer, declined)

    def charge(self, c: Ctx, p: int, sq: int, rent_node: Node | None) -> Term:
        """The rent due from `p` to the deed's owner (`c.owner`), the rent names bound."""
        o = c.owner
        amount = self.rent_of(c, sq)
        if rent_node is not None:
            c.rent = amount
            amount = T.round_money(self.expr(rent_node, c), self.edition.rounding_up)
        self.pay(p, o, amount, "rent")
        hooks = self.hooks("rent")
        if hooks:
            self.fork(self.state.bankrupt[p], None, lambda: self.fire(hooks, c, sq))

    def rent_names(self, c: Ctx, sq: int, o: int) -> None:
        """Bind the rent names (docs/language.md) for the deed `sq` held by `o`: what
        `rent.due` and the rent formulas read."""
        ed, s = self.edition, self.state
        g = ed.group_of[sq]
        owned = self.group_counts(o, g)
        c.owner = o
        c.printed = ed.printed[sq]
        c.level = T.ite(T.lt(0, s.hotels[sq]), ed.hotel_level, s.houses[sq])
        c.owned = owned
        c.complete = T.eq(owned, ed.group_size[g])
        c.mortgaged_in_group = self.group_mortgages(g)
        c.here = sq

    def rent_of(self, c: Ctx, sq: int) -> Term:
        """The deed's rent formula, the rent names bound."""
        ed = self.edition
        kind = self.squares[sq]["kind"]
        node = ed.ir.get("rent", {}).get(kind)
        if node is None:
            raise self.unsupported(f"no rent formula for `{kind}`")
        return T.round_money(self.expr(node, c), ed.rounding_up)

    # ---- auctions ----------------------------------------------------------------------

    def auction_deed(self, sq: int, first: int, lander: int = -1) -> None:
        """The English auction as its outcome: a winner among the bidders (or nobody) and
        a price one of `auction.raises` can reach (at least the least raise; within the
        winner's cash when `auction.bid_within_cash`)."""
        ed, s = self.edition, self.state
        least = min(ed.raises)

        def may_win(q):
            if not ed.decliner_may_bid and lander >= 0 and q == lander:
                return False
            return T.and_(T.not_(s.bankrupt[q]), T.le(least, s.cash[q]) if ed.bid_within_cash else True)
        bidders = [q for q in range(s.players) if may_win(q) is not False]
        winner = self.choice("auction_winner", [-1] + bidders)

        def won(w):
            price = 0
            if w != BANK:
                self.assume(may_win(w))
                price = self.bid(w, least)
            if ed.preempt is not None and lander >= 0 and w != lander:
                self.preemption(sq, lander, w, price)
            else:
                self.settle(sq, w, price, ed.bid_within_cash and least > 0)
        self.split_value(winner, [-1] + bidders, won)

    def bid(self, w: int, least: int, first: int = 0) -> Term:
        """The price a winning bidder pays: one of `auction.raises` can reach it (at least
        `first` plus the least raise; within the bidder's cash when `auction.bid_within_cash`)."""
        ed, s = self.edition, self.state
        if T.is_sym(s.cash[w]) or not ed.bid_within_cash:
            price = self.choice("auction_price", ("range", first + least, None), seat=w)
        else:
            price = self.choice("auction_price", [first + r for r in ed.raises if first + r <= s.cash[w]], seat=w)
        if ed.bid_within_cash:
            self.assume(T.le(price, s.cash[w]))
        return price

    def settle(self, sq: int, w: int, price: Term, covered: bool, payee: int = BANK, reason: str = "auction",
               way: str = "auction") -> None:
        """The auction's winner pays and takes the deed (`covered`: a positive price within
        the winner's cash, which pay() moves exactly as a transfer)."""
        if w == BANK:
            return
        self.transfer(w, payee, price, reason) if covered else self.pay(w, payee, price, reason)
        def take() -> None:
            self.set_owner(sq, w)
            self.acquired(w, sq, way)
        self.fork(self.state.bankrupt[w], None, take)

    def forced_sale(self, p: int, sq: int) -> None:
        """`debt.auction_deeds`: a debtor's deed auctioned to the other players; the price goes
        to the debtor (nobody bidding leaves the deed where it is)."""
        ed, s = self.edition, self.state
        least = min(ed.raises)

        def may_win(q):
            return T.and_(T.not_(s.bankrupt[q]), T.le(least, s.cash[q]) if ed.bid_within_cash else True)
        bidders = [q for q in range(s.players) if q != p and may_win(q) is not False]
        winner = self.choice("auction_winner", [-1] + bidders)

        def won(w):
            if w == BANK:
                return
            self.assume(may_win(w))
            price = self.bid(w, least)
            self.settle(sq, w, price, ed.bid_within_cash and least > 0, p, "forced_sale", "debt")
        self.split_value(winner, [-1] + bidders, won)

    def preemption(self, sq: int, lander: int, w: int, price: Term) -> None:
        """`auction.preempt`: the player who landed may take the deed for the last bid plus
        the premium (the premium alone when nobody bid)."""
        ed, s = self.edition, self.state
        offer = T.add(price, ed.preempt)
        can = T.and_(T.not_(s.bankrupt[lander]), T.le(offer, s.cash[lander]))
        take = self.choice("preempt", [False, True] if can is not False else [False], seat=lander)
        self.assume(T.implies(take, can))
        covered = ed.bid_within_cash and min(ed.raises) > 0
        self.fork(take, lambda: self.settle(sq, lander, offer, ed.preempt > 0),
                  lambda: self.settle(sq, w, price, covered))

    # ---- building ----------------------------------------------------------------------

    def even_level(self, sq: int) -> Term:
        return T.ite(T.lt(0, self.field("hotels", sq)), self.edition.hotel_even_level, self.field("houses", sq))

    def may(self, section: str, p: int, sq: int, key: str = "may") -> Term:
        """A holder's rule of the spec (`building.may`, `mortgage.may`, `mortgage.may_lift`) for
        `p` and its deed `sq`, as the engine reads it (`Compiler.holder`); true where the spec
        has none."""
        rule = self.edition.ir["settings"].get(section, {}).get(key)
        if rule is None:
            return True
        c = Ctx(p)
        c.here = sq
        return self.expr(rule, c)

    def can_build(self, p: int, sq: int, paid: bool = True) -> Term:
        ed, s = self.edition, self.state
        g = ed.group_of[sq]
        cs = [T.eq(s.owner[sq], p), T.eq(s.hotels[sq], 0), T.lt(s.houses[sq], ed.max_houses),
              T.lt(0, s.bank_houses)]
        if paid:
            cs.append(T.le(ed.house_cost[sq], s.cash[p]))
        if ed.group_kind[g] != 1:      # lots only
            return False
        cs.append(self.may("building", p, sq))
        if ed.even:
            level = s.houses[sq]
            cs.append(T.implies(T.lt(0, level),
                                T.and_(*[T.le(level, self.even_level(o)) for o in ed.group_squares[g]])))
        return T.and_(*cs)

    def can_build_hotel(self, p: int, sq: int) -> Term:
        ed, s = self.edition, self.state
        g = ed.group_of[sq]
        cs = [T.eq(s.owner[sq], p), T.lt(s.hotels[sq], ed.hotels_per_lot), T.lt(0, s.bank_hotels),
              T.le(ed.houses_per_hotel, s.houses[sq]), T.le(ed.hotel_cost[sq], s.cash[p])]
        if ed.group_kind[g] != 1:      # lots only
            return False
        cs.append(self.may("building", p, sq))
        if ed.even:
            cs += [T.or_(T.lt(0, s.hotels[o]), T.le(ed.houses_per_hotel, s.houses[o])) for o in ed.group_squares[g]]
        return T.and_(*cs)

    def can_sell(self, p: int, sq: int) -> Term:
        ed, s = self.edition, self.state
        base = T.and_(T.eq(s.owner[sq], p), T.or_(T.lt(0, s.houses[sq]), T.lt(0, s.hotels[sq])))
        if not ed.even:
            return base
        g = ed.group_of[sq]
        level = self.even_level(sq)
        top = T.and_(*[T.le(self.even_level(o), level) for o in ed.group_squares[g]])
        rest = 0
        for o in ed.group_squares[g]:
            if o != sq:
                lv = self.even_level(o)
                rest = T.ite(T.lt(rest, lv), lv, rest)
        hotel_ok = T.or_(T.le(rest, 1), T.lt(s.bank_houses, ed.houses_per_hotel))
        return T.and_(base, top, T.implies(T.lt(0, s.hotels[sq]), hotel_ok))

    def can_downgrade(self, p: int, sq: int) -> Term:
        s = self.state
        return T.and_(T.eq(s.owner[sq], p), T.lt(0, s.hotels[sq]), T.le(self.edition.houses_per_hotel, s.bank_houses))

    def can_mortgage(self, p: int, sq: int) -> Term:
        s = self.state
        if not self.edition.mortgages:
            return False
        return T.and_(T.eq(s.owner[sq], p), T.not_(s.mortgaged[sq]), self.may("mortgage", p, sq))

    def can_unmortgage(self, p: int, sq: int) -> Term:
        s = self.state
        return T.and_(T.eq(s.owner[sq], p), s.mortgaged[sq], T.le(self.edition.unmortgage_cost[sq], s.cash[p]),
                      self.may("mortgage", p, sq, "may_lift"))

    def build(self, p: int, sq: int, price: Term = None) -> None:
        ed, s = self.edition, self.state
        if price is None:
            self.transfer(p, BANK, ed.house_cost[sq], "build")
        s.houses[sq] = T.add(s.houses[sq], 1)
        s.bank_houses = T.sub(s.bank_houses, 1)
        self.check_even(ed.group_of[sq])

    def build_hotel(self, p: int, sq: int) -> None:
        ed, s = self.edition, self.state
        self.transfer(p, BANK, ed.hotel_cost[sq], "build")
        s.bank_houses = T.add(s.bank_houses, s.houses[sq])
        s.houses[sq] = 0
        s.hotels[sq] = T.add(s.hotels[sq], 1)
        s.bank_hotels = T.sub(s.bank_hotels, 1)
        self.check_even(ed.group_of[sq])

    def sell_building(self, p: int, sq: int) -> None:
        ed, s = self.edition, self.state
        g = ed.group_of[sq]

        def hotel():
            s = self.state
            s.hotels[sq] = T.sub(s.hotels[sq], 1)
            s.bank_hotels = T.add(s.bank_hotels, 1)
            if ed.even:
                top = 0
                for o in ed.group_squares[g]:
                    lv = self.even_level(o)
                    top = T.ite(T.lt(top, lv), lv, top)
                s.uneven[g] = T.or_(s.uneven[g], T.lt(1, top))
            self.transfer(BANK, p, ed.hotel_sale_full[sq], "sell")

        def house():
            s = self.state
            s.houses[sq] = T.sub(s.houses[sq], 1)
            s.bank_houses = T.add(s.bank_houses, 1)
            self.transfer(BANK, p, ed.house_sale[sq], "sell")
        self.fork(T.lt(0, s.hotels[sq]), hotel, house)
        self.check_even(g)

    def downgrade(self, p: int, sq: int) -> None:
        ed, s = self.edition, self.state
        s.hotels[sq] = T.sub(s.hotels[sq], 1)
        s.bank_hotels = T.add(s.bank_hotels, 1)
        s.houses[sq] = ed.houses_per_hotel
        s.bank_houses = T.sub(s.bank_houses, ed.houses_per_hotel)
        self.transfer(BANK, p, ed.hotel_sale_only[sq], "sell")

    def check_even(self, g: int) -> None:
        """A group left uneven by a shortage hotel sale is even again once levels meet."""
        s = self.state
        levels = [self.even_level(o) for o in self.edition.group_squares[g]]
        if not levels:
            return
        hi, lo = levels[0], levels[0]
        for lv in levels[1:]:
            hi, lo = T.ite(T.lt(hi, lv), lv, hi), T.ite(T.lt(lv, lo), lv, lo)
        s.uneven[g] = T.and_(s.uneven[g], T.not_(T.le(T.sub(hi, lo), 1)))

    def sell_all_buildings(self, p: int) -> None:
        ed, s = self.edition, self.state
        for sq in ed.deeds:
            mine = T.eq(s.owner[sq], p)
            hotels, houses = T.ite(mine, s.hotels[sq], 0), T.ite(mine, s.houses[sq], 0)
            s.hotels[sq] = T.sub(s.hotels[sq], hotels)
            s.bank_hotels = T.add(s.bank_hotels, hotels)
            self.transfer(BANK, p, T.mul(ed.hotel_sale_full[sq], hotels), "sell")
            s.houses[sq] = T.sub(s.houses[sq], houses)
            s.bank_houses = T.add(s.bank_houses, houses)
            self.transfer(BANK, p, T.mul(ed.house_sale[sq], houses), "sell")
        for g in range(len(ed.groups)):
            self.check_even(g)

    # ---- mortgages ---------------------------------------------------------------------

    def mortgage(self, p: int, sq: int) -> None:
        self.state.mortgaged[sq] = True
        self.transfer(BANK, p, self.edition.mortgage_value[sq], "mortgage")

    def unmortgage(self, p: int, sq: int) -> None:
        self.transfer(p, BANK, self.edition.unmortgage_cost[sq], "unmortgage")
        self.state.mortgaged[sq] = False

    def received_mortgaged(self, q: int, sq: int) -> None:
        """A mortgaged deed changed hands: the new holder lifts it now (if the cash allows)
        or pays the transfer interest now and keeps the mortgage."""
        ed, s = self.edition, self.state
        can = T.and_(T.le(ed.unmortgage_cost[sq], s.cash[q]), self.may("mortgage", q, sq, "may_lift"))
        lift = self.choice("lift", [False, True] if can is not False else [False], seat=q)
        self.assume(T.implies(lift, can))
        self.fork(lift, lambda: self.unmortgage(q, sq),
                  lambda: self.pay(q, BANK, ed.transfer_cost[sq], "mortgage_interest"))

    # ---- trades ------------------------------------------------------------------------

    def tradeable(self, sq: int) -> Term:
        return True if self.edition.trade_built_groups else T.not_(self.group_built(self.edition.group_of[sq]))

    # ---- debts and bankruptcy ----------------------------------------------------------

    def deed_value(self, sq: int) -> Term:
        ed = self.edition
        return T.ite(self.state.mortgaged[sq], ed.price[sq] - ed.mortgage_value[sq], ed.price[sq])

    def may_give_deed(self, sq: int, owed: Term, creditor: int) -> Term:
        if not self.edition.pay_with_deeds or creditor < 0:
            return False
        v = self.deed_value(sq)
        return T.and_(self.tradeable(sq), T.lt(0, v), T.le(v, owed))

    def bankrupt(self, p: int, creditor: int) -> None:
        """Bankrupt to a player (everything of value to the creditor, buildings to the bank
        at sale value) or to the bank (which auctions the deeds, per the settings)."""
        if self.abstract_bankruptcy:
            self.flag(True, self.ABSTRACT_BANKRUPTCY)
            self.state.gone = p            # whatever else it did, the debtor is bankrupt after it
            return
        if self.bankrupt_depth >= self.MAX_BANKRUPTCIES:
            self.flag(True, f"{self.MAX_BANKRUPTCIES + 1} bankruptcies in one step")
            return
        self.bankrupt_depth += 1
        try:
            self._bankrupt(p, creditor)
        finally:
            self.bankrupt_depth -= 1

    def _bankrupt(self, p: int, creditor: int) -> Term:
        ed, s = self.edition, self.state
        if p == self.cur:
            s.halt = True
        self.sell_all_buildings(p)
        s = self.state
        was = {sq: T.eq(s.owner[sq], p) for sq in ed.deeds}
        cash = s.cash[p]
        self.transfer(p, creditor, T.ite(T.lt(0, cash), cash, 0), "bankruptcy")
        s.in_jail[p] = False
        s.jail_turns[p] = 0
        if creditor >= 0:
            for sq in ed.deeds:
                s.owner[sq] = T.ite(was[sq], creditor, s.owner[sq])
            for cards in s.loc:
                for i, x in enumerate(cards):
                    cards[i] = T.ite(T.eq(x, p), creditor, x)
            s.bankrupt[p] = True
            for sq in ed.deeds:
                st = self.state
                self.fork(T.and_(was[sq], st.mortgaged[sq], T.eq(st.owner[sq], creditor),
                                 T.not_(st.bankrupt[creditor])),
                          lambda sq=sq: self.received_mortgaged(creditor, sq))
            if any(not h.get("via") or "bankruptcy" in h["via"] for h in self.hooks("acquire")):
                for sq in ed.deeds:
                    self.fork(was[sq], lambda sq=sq: self.acquired(creditor, sq, "bankruptcy"))
        else:
            for sq in ed.deeds:
                s.owner[sq] = T.ite(was[sq], BANK, s.owner[sq])
                s.mortgaged[sq] = T.ite(was[sq], False, s.mortgaged[sq])
            for cards in s.loc:
                for i, x in enumerate(cards):
                    cards[i] = T.ite(T.eq(x, p), -1, x)
            s.bankrupt[p] = True
            if ed.bank_auctions_all:
                for sq in ed.deeds:
                    self.fork(T.and_(was[sq], T.eq(self.state.owner[sq], BANK), T.not_(self.state.over)),
                              lambda sq=sq: self.auction_deed(sq, p))
