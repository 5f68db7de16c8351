"""A sensible player. Its knobs are ratios (fractions) of amounts read from the edition, so
it holds no edition fact, and it reckons in whole money (a spec may write any amount: no
float to overflow or round): it keeps a cash reserve worth the dearest house of the board,
buys when the reserve survives, bids up to a value, completes groups by fair offers,
builds evenly when cash allows, mortgages and sells before going bankrupt, and lifts
mortgages when rich.

Every decision is O(1) or O(group) in the common case; `manage_fast` answers the
manage window without the engine listing every legal action.
"""
from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass, fields
from fractions import Fraction
from random import Random
from typing import TYPE_CHECKING, Any

from ..actions import (
    DONE,
    Accept,
    Act,
    Action,
    AuctionDeed,
    Build,
    BuildHotel,
    Buy,
    Choose,
    Done,
    Downgrade,
    GiveDeed,
    KeepMortgage,
    Mortgage,
    Pass,
    PayFine,
    Preempt,
    ProposeTrade,
    Roll,
    SellBuilding,
    Unmortgage,
    UseCard,
)
from ..state import BANK

if TYPE_CHECKING:
    from ..edition import Edition
    from ..engine import Game
    from ..rules import AuctionInfo
    from ..translate import Ctx, Option

Offered = Sequence[Any]
"""The legal actions of one decision. Their kinds are set by the decision and by place (a
Pass, then the Bids; a Buy, then a Decline), which the handlers read by position and
`type(a) is ...` kept in a name (fast): a `Sequence[Action]` cannot say it."""

INF = float("inf")      # compared with money only (a comparison of an int and a float is exact)
BARGAIN = Fraction(9, 10)      # bid up to this share of the price for a deed of no special use
COMPLETING = Fraction(5, 4)    # ... and up to this share when it completes one of my groups
OFFER = Fraction(7, 4)         # offer this share of the price for the deed that completes my group
GIVING_UP = Fraction(1, 2)     # what handing over a group-completing deed costs me, as a share of its price
RICH = 3                       # reserves in hand before lifting a mortgage
HOUSE_BID = Fraction(3, 2)     # bid up to this share of the house price in a shortage auction
RESERVE = Fraction(1, 10)      # keep at least this share of the starting money back (when houses cost less)
# a deed without a printed price (sold only by auction) is worth this share of the starting money
UNPRICED = Fraction(1, 10)


def share(amount: int, ratio: Fraction) -> int:
    """`amount * ratio` in whole money, rounded down (an amount compared with it is whole:
    `bid > share(worth, BARGAIN)` exactly when `bid > worth * BARGAIN`)."""
    return amount * ratio.numerator // ratio.denominator


@dataclass(slots=True)
class Plan:
    """What my manage window looks at, by seat and version (see `Heuristic._plan`)."""
    version: int
    floor: int | float  # less cash than this: Done (INF: nothing to do at any cash)
    lift: list[int]     # my groups where I have a mortgaged deed (in no particular order)
    build: list[int]    # the lots of my complete unmortgaged groups with room to build, dearest house first
    near: list[int]     # lot groups I lack one deed of


@dataclass(frozen=True, slots=True)
class Amounts:
    """What the heuristic reads from an edition, worked out once per edition (every game
    makes new players); `Heuristic._setup` copies the fields onto the player."""
    reserve: int              # cash kept back: the dearest house, the jail fine or a share of the start money
    rich: int                 # cash in hand before lifting a mortgage
    retry: int                # turns before asking for the same deed again
    lot_groups: list[int]
    lot: list[bool]           # per group: a lot group (one to build on)
    house_floor: list[int]    # per group: the reserve plus its cheapest house (a floor `_plan` gives)
    value: list[int]          # per square: what the deed is worth to me (its price, if it has one)
    offer: list[int]          # per square: what I offer for it when it completes my group
    offer_floor: list[int]    # per square: the reserve plus my offer (a floor `_plan` gives)
    build_rank: list[int]     # per square: its place in build order, the dearer house first (ties: the higher square)
    least: int                # no floor `_plan` gives is lower: with less cash, Done
    # per group: a deed received changes my plan once I hold this many (a lot group I lack
    # at most one deed of)
    receiving: list[int]
    bargain: list[int]        # per square: the most I bid for the deed at an auction (a share of its worth)
    completing: list[int]     # per square: ... when it completes one of my groups
    kept_at_auction: int      # cash I keep at an auction for a deed: the reserve less what giving one up costs


_AMOUNTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_LAST: list = [lambda: None, None]     # the edition asked for last (a weak reference) and its amounts


def _amounts(edition: Edition) -> dict[str, Any]:
    """The edition's `Amounts` as a dict of attributes (a player copies it in one go)."""
    if _LAST[0]() is edition:          # every player of every game of a run asks for the same edition
        return _LAST[1]
    if edition not in _AMOUNTS:
        reserve = max(edition.house_cost + [edition.jail_fine, share(edition.start_money, RESERVE)])
        rich = reserve * RICH
        groups = range(len(edition.groups))
        lot_groups = [g for g in groups if edition.group_kind[g] == 1 and edition.group_size[g]]
        group_house = [min((edition.house_cost[square] for square in edition.group_squares[g]), default=0)
                       for g in groups]
        house_floor = [reserve + house for house in group_house]
        unpriced = share(edition.start_money, UNPRICED)
        value = [edition.price[square] or unpriced * edition.is_deed[square] for square in range(edition.n)]
        offer = [share(worth, OFFER) for worth in value]
        offer_floor = [reserve + o for o in offer]
        least = min([rich] + [house_floor[g] for g in lot_groups]
                    + [offer_floor[square] for g in lot_groups for square in edition.group_squares[g]])
        dearest_first = sorted(range(edition.n), key=lambda square: (edition.house_cost[square], square), reverse=True)
        build_rank = [0] * edition.n
        for rank, square in enumerate(dearest_first):
            build_rank[square] = rank
        # other groups matter to a plan only by their mortgages (a mortgaged deed received always counts)
        receiving = [edition.group_size[g] - 1 if g in lot_groups else edition.group_size[g] + 1 for g in groups]
        amounts = Amounts(reserve, rich, edition.n, lot_groups, [g in lot_groups for g in groups], house_floor,
                          value, offer, offer_floor, build_rank, least, receiving,
                          [share(worth, BARGAIN) for worth in value], [share(worth, COMPLETING) for worth in value],
                          reserve - share(reserve, GIVING_UP))
        _AMOUNTS[edition] = {f.name: getattr(amounts, f.name) for f in fields(Amounts)}
    _LAST[:] = [weakref.ref(edition), _AMOUNTS[edition]]
    return _LAST[1]


class Heuristic:
    name = "heuristic"
    draws = False
    falls_back = True     # no legal answer: the engine takes the default (engine.Game.failed)

    # what `_setup` copies from the edition's `Amounts` (and the edition itself)
    edition: Edition
    reserve: int
    rich: int
    retry: int
    lot_groups: list[int]
    lot: list[bool]
    house_floor: list[int]
    value: list[int]
    offer: list[int]
    offer_floor: list[int]
    build_rank: list[int]
    least: int
    receiving: list[int]
    bargain: list[int]
    completing: list[int]
    kept_at_auction: int

    def __init__(self, rng: Random | None = None) -> None:
        self.game: Game | None = None
        # first in the dict, as every attribute a player reads (CPython's attribute cache)
        self.edition = None  # type: ignore[assignment]  # none until the first game: `_setup`
        self.tried: dict[int, int] = {}
        self.proposed_on = -1
        self.plans: dict[int, Plan] = {}
        self.bidding: tuple = (None, -1, 0)    # the auction I bid in last, my seat, my limit there

    def _setup(self, game: Game) -> None:
        """A new game: plans are by its versions; a new edition: its amounts (none yet: no edition)."""
        self.game = game
        self.plans = {}
        if game.edition is self.edition:
            return
        self.edition = game.edition
        vars(self).update(_amounts(game.edition))

    def choose(self, game: Game, seat: int, actions: Offered) -> Action:
        if game is not self.game:
            self._setup(game)
        handler = DISPATCH.get(type(actions[0]))
        if handler is None:
            return self.raise_money(game, seat, actions)
        return handler(self, game, seat, actions)

    # ---- buying and bidding ----------------------------------------------------------

    def completes(self, game: Game, seat: int, square: int) -> bool:
        g = self.edition.group_of[square]
        return game.group_counts[seat][g] + 1 == self.edition.group_size[g]

    def buy(self, game: Game, seat: int, actions: Offered) -> Action:
        square = actions[0].square
        cash = game.players[seat].cash
        price = self.edition.price[square]
        if cash - price >= self.reserve or self.completes(game, seat, square):
            return actions[0]
        return actions[1]

    def limit(self, game: Game, seat: int) -> int:
        """The most I pay at the auction being held (`game.pending`): a share of the deed's
        worth (the edition's `Amounts`), keeping a reserve."""
        info: AuctionInfo = game.pending  # type: ignore[assignment]  # (not `cast`: a call each)
        cash = game.players[seat].cash
        square = info.square
        if square >= 0:
            limit = (self.completing if self.completes(game, seat, square) else self.bargain)[square]
            keep = cash - self.kept_at_auction      # cash - reserve * GIVING_UP, rounded down
        else:
            limit, keep = share(info.start, HOUSE_BID), cash - self.reserve
        return limit if limit <= keep else keep        # min(limit, keep)

    def bid(self, game: Game, seat: int, actions: Offered) -> Action:
        """The highest bid within my limit (the bids come lowest first, after Pass). The limit
        holds for the whole auction: nobody's cash or deeds move until it ends."""
        info, last, limit = self.bidding
        if info is not game.pending or last != seat:
            limit = self.limit(game, seat)     # once per auction
            self.bidding = (game.pending, seat, limit)
        best = actions[0]
        for i in range(1, len(actions)):
            if actions[i].amount > limit:
                break
            best = actions[i]
        return best

    def preempt(self, game: Game, seat: int, actions: Offered) -> Action:
        """Take an auctioned deed for the last bid plus the premium when that is within my limit."""
        return actions[0] if actions[0].amount <= self.limit(game, seat) else actions[1]

    # ---- jail and choices ------------------------------------------------------------

    def jail(self, game: Game, seat: int, actions: Offered) -> Action:
        if len(actions) == 1:
            return actions[0]
        unowned = game.state.owner.count(BANK)     # deeds the bank holds (other squares are NO_DEED)
        early = unowned * 2 >= len(self.edition.deeds)
        for a in actions:
            if type(a) is UseCard and early:
                return a
        for a in actions:
            if type(a) is PayFine and early and game.players[seat].cash - self.edition.jail_fine >= self.reserve:
                return a
        return actions[0]

    def pick(self, game: Game, seat: int, actions: Offered) -> Action:
        pending: tuple[Ctx, list[Option]] = game.pending  # type: ignore[assignment]  # (not `cast`: a call each)
        ctx, options = pending
        costs = [options[a.option][2](game, ctx) for a in actions]
        return actions[costs.index(min(costs))]

    # ---- the manage window -----------------------------------------------------------

    def manage_fast(self, game: Game, seat: int) -> Action:
        """The manage-window choice without the list of legal actions: the same answer
        `manage` gives from the full list (unmortgage, else the dearest even build, else
        one offer for the deed that completes a group, else Done)."""
        if game is not self.game:
            self._setup(game)
        cash = game.players[seat].cash
        shortcuts = game.shortcuts
        version = shortcuts.versions[seat]
        least = self.least
        if cash < least:
            shortcuts.promise(seat, least, least)
            return DONE
        plan = self.plans.get(seat)
        if plan is None or plan.version != version:
            plan = self.plans[seat] = self._plan(game, seat, version)
            shortcuts.promise(seat, plan.floor, least)
        if cash < plan.floor:
            return DONE
        edition = self.edition
        if plan.lift and cash > self.rich:
            unmortgage = self._lift(game, seat, plan, cash)
            if unmortgage is not None:
                return edition.UNMORTGAGE[unmortgage]
        build = plan.build
        if build:       # the dearest first: the first I can build on is the pick
            houses, most, hotel_after = game.state.houses, edition.max_houses, edition.houses_per_hotel
            reserve, house_cost, hotel_cost = self.reserve, edition.house_cost, edition.hotel_cost
            for square in build:
                # (the lot's houses rule out cheaply what the rules would refuse; they decide the rest)
                if houses[square] < most and cash - house_cost[square] >= reserve and game.can_build(seat, square):
                    return edition.BUILD[square]
                if houses[square] >= hotel_after and cash - hotel_cost[square] >= reserve \
                        and game.can_build_hotel(seat, square):
                    return edition.BUILD_HOTEL[square]
        near = plan.near
        if near and edition.trade_cash and self.proposed_on != game.state.turns:
            for g in near:
                proposal = self._proposal(game, seat, g)
                if proposal is not None:
                    return proposal
        return DONE

    def _lift(self, game: Game, seat: int, plan: Plan, cash: int) -> int | None:
        """The mortgage `manage_fast` lifts: in my groups with one, the lowest square whose
        lifting leaves me `rich`; None if none does."""
        edition = self.edition
        owner, mortgaged = game.state.owner, game.state.mortgaged
        unmortgage = None
        for g in plan.lift:
            for square in edition.group_squares[g]:
                if owner[square] == seat and mortgaged[square] and cash - edition.unmortgage_cost[square] > self.rich \
                        and game.can_unmortgage(seat, square):
                    if unmortgage is None or square < unmortgage:
                        unmortgage = square
                    break
        return unmortgage

    def _plan(self, game: Game, seat: int, version: int) -> Plan:
        """Which of my groups the manage window looks at, and the least cash with which
        `manage_fast` could answer anything but Done, for the board as it stands (kept
        until my version moves (shortcuts.py): one of my deeds changed hands, or its mortgage,
        hotel or buildings sold, or a deed of a group I lack one deed of changed hands,
        or I received a deed that leaves me lacking at most one of its lot group, or a
        mortgaged one; a house built does not move it)."""
        edition = self.edition
        group_mortgages = game.group_mortgages
        owner, hotels = game.state.owner, game.state.hotels
        group_squares, group_size = edition.group_squares, edition.group_size
        lot, house_floor, offer_floor, full = self.lot, self.house_floor, self.offer_floor, edition.hotels_per_lot
        build: list[int] = []
        near: list[int] = []
        lift, floor = self._mortgaged(game, seat)
        for g, have in enumerate(game.group_counts[seat]):
            if not have:
                continue
            squares = group_squares[g]
            if not lot[g]:
                continue
            size = group_size[g]
            if have == size:
                if not group_mortgages[g]:
                    for square in squares:
                        if hotels[square] < full:       # room for a building
                            build.append(square)
                if house_floor[g] < floor:
                    for square in squares:
                        if not hotels[square]:       # a lot without a hotel: more to build
                            floor = house_floor[g]
                            break
            elif have + 1 == size:
                near.append(g)
                for square in squares:
                    if offer_floor[square] < floor and owner[square] != seat and owner[square] >= 0:
                        floor = offer_floor[square]
        if build:
            build.sort(key=self.build_rank.__getitem__)
        shortcuts = game.shortcuts
        shortcuts.watching[seat] = near        # of others' deeds, only who holds these matters here
        shortcuts.receiving[seat] = self.receiving
        return Plan(version, floor, lift, build, near)

    def _mortgaged(self, game: Game, seat: int) -> tuple[list[int], float]:
        """The groups I hold a mortgaged deed of, and the least cash with which I would lift
        one (my cheapest mortgage, `manage_fast` picks by square in any group order, plus the
        `rich` left over after paying); INF with none."""
        lift: list[int] = []
        if not any(game.group_mortgages):      # no deed is mortgaged (most plans): none of mine
            return lift, INF
        edition = self.edition
        mortgaged, group_of, unmortgage_cost = game.state.mortgaged, edition.group_of, edition.unmortgage_cost
        cheapest = INF
        for square in game.holdings[seat]:
            if mortgaged[square]:
                if unmortgage_cost[square] < cheapest:
                    cheapest = unmortgage_cost[square]
                if group_of[square] not in lift:
                    lift.append(group_of[square])
        return lift, INF if cheapest is INF else self.rich + cheapest

    def _proposal(self, game: Game, seat: int, g: int) -> ProposeTrade | None:
        """My offer for the deed that would complete group g, if another player holds it, I
        have not asked for it lately, and the rules allow the offer (a deed for cash; a
        negative price asks cash of the holder); remembered as asked."""
        owner = game.state.owner
        for square in self.edition.group_squares[g]:
            o = owner[square]
            if o != seat:
                if o < 0 or not game.tradeable(square):
                    return None
                last = self.tried.get(square)
                if last is not None and game.state.turns - last < self.retry:
                    return None
                offer = self.offer[square]
                if game.players[seat].cash - offer < self.reserve:
                    return None
                proposal = ProposeTrade(o, (), (square,), offer)
                if not game.valid_trade(seat, proposal):
                    return None
                self.tried[square] = self.proposed_on = game.state.turns
                return proposal
        return None

    def manage(self, game: Game, seat: int, actions: Offered) -> Action:
        edition = self.edition
        cash = game.players[seat].cash
        builds = []
        for a in actions:
            kind = type(a)
            if kind is Unmortgage and cash - edition.unmortgage_cost[a.square] > self.rich:
                return a
            if kind is Build and cash - edition.house_cost[a.square] >= self.reserve:
                builds.append(a)
            elif kind is BuildHotel and cash - edition.hotel_cost[a.square] >= self.reserve:
                builds.append(a)
        if builds:
            # the dearest group first: its rents grow fastest
            return max(builds, key=lambda a: (edition.house_cost[a.square], a.square))
        if self.proposed_on != game.state.turns and any(type(a) is ProposeTrade for a in actions):
            counts = game.group_counts[seat]
            for g in self.lot_groups:
                if counts[g] + 1 == edition.group_size[g] and counts[g]:
                    proposal = self._proposal(game, seat, g)
                    if proposal is not None:
                        return proposal
        return actions[0]

    # ---- answering offers ------------------------------------------------------------

    def answer(self, game: Game, seat: int, actions: Offered) -> Action:
        offer = game.pending
        edition = self.edition
        if isinstance(offer, GiveDeed):
            return actions[0]
        if not isinstance(offer, ProposeTrade):
            return actions[1]
        proposer = game.proposer
        got = sum(self.value[square] for square in offer.give) + max(offer.cash, 0) \
            + edition.jail_fine * len(offer.give_cards)
        given = max(-offer.cash, 0) + edition.jail_fine * len(offer.get_cards)
        completing = 0          # the worth of the deeds given that complete a group of the proposer's
        counts = game.group_counts[seat]
        for square in offer.get:
            g = edition.group_of[square]
            if counts[g] == edition.group_size[g] and edition.group_size[g] > 1:
                return actions[1]          # never break a group I hold whole
            given += self.value[square]
            if game.group_counts[proposer][g] + 1 == edition.group_size[g]:
                completing += self.value[square]
        # got >= given + completing * GIVING_UP, in whole numbers
        fair = (got - given) * GIVING_UP.denominator >= completing * GIVING_UP.numerator
        return actions[0] if fair else actions[1]

    def keep_mortgage(self, game: Game, seat: int, actions: Offered) -> Action:
        for a in actions:
            if type(a) is Unmortgage \
                    and game.players[seat].cash - self.edition.unmortgage_cost[a.square] >= self.reserve * 2:
                return a
        return actions[0]

    def act(self, game: Game, seat: int, actions: Offered) -> Action:
        """An end-of-turn action (a block in an area): where the squares it faces are more mine
        than others'; when Done is offered, only then and with cash above twice my reserve."""
        owner = game.state.owner
        faces = self.edition.area_faces

        def gain(a):
            if type(a) is not Act:
                return -len(self.edition.deeds)          # Done: below every action when one must be taken
            if self.edition.action_elements[a.index] != "area":
                return 0
            return sum(1 if owner[square] == seat else -1 if owner[square] >= 0 else 0 for square in faces[a.item])
        best = max(actions, key=gain)
        done = actions[-1] if type(actions[-1]) is Done else None
        if done is not None and (gain(best) <= 0 or game.players[seat].cash < 2 * self.reserve):
            return done
        return best

    def place(self, game: Game, seat: int, actions: Offered) -> Action:
        return max(actions, key=lambda a: (self.edition.house_cost[a.square], a.square))

    # ---- raising money -----------------------------------------------------------------

    def raise_money(self, game: Game, seat: int, actions: Offered) -> Action:
        edition = self.edition
        counts = game.group_counts[seat]
        houses, hotels = game.state.houses, game.state.hotels

        def rank(a):
            if type(a) is AuctionDeed:        # the deed that breaks no group of mine first
                g = edition.group_of[a.square]
                return (counts[g] == edition.group_size[g], self.value[a.square], a.square)
            kind = type(a)
            if kind is Mortgage:
                if houses[a.square] or hotels[a.square]:    # a built lot (where the rules allow it): last
                    return (2.5, edition.mortgage_value[a.square])
                g = edition.group_of[a.square]
                whole = counts[g] == edition.group_size[g]
                return (0 if not whole else 2, edition.mortgage_value[a.square])
            if kind is SellBuilding or kind is Downgrade:
                return (1, 0)
            if kind is GiveDeed:
                return (3, a.value)
            return (4, 0)
        return min(actions, key=rank)

    def raise_fast(self, game: Game, seat: int, owed: int, creditor: int, refused: set[int]) -> Action | None:
        """`raise_money` without the list: the same pick (None when nothing is legal), rank
        by rank: the cheapest mortgage outside my whole groups, else a building sold (the
        lowest square first), else the cheapest mortgage in a whole group, else the cheapest
        mortgage of a built lot (where the rules allow one), else the cheapest deed handed
        over. Ties go to the lowest square, as in `raise_money`. Only the deeds of a rank that
        could win are asked whether the rules allow their mortgage (`can_mortgage`)."""
        if game is not self.game:
            self._setup(game)
        edition = self.edition
        if edition.debt_auction:           # deeds are only auctioned: few choices, pick from the list
            actions = game.raise_actions(seat, creditor, owed, refused)
            return self.raise_money(game, seat, actions) if actions else None
        state = game.state
        houses, hotels = state.houses, state.hotels
        mine = game.holdings[seat]
        cheapest, whole = self._cheapest_mortgages(game, seat) if edition.mortgages else (None, None)
        if cheapest is not None:
            return edition.MORTGAGE[cheapest]
        for square in mine:
            if houses[square] or hotels[square]:
                if game.can_sell(seat, square):
                    return edition.SELL[square]
                if game.can_downgrade(seat, square):
                    return edition.DOWNGRADE[square]
        if whole is not None:
            return edition.MORTGAGE[whole]
        built = None
        value = edition.mortgage_value
        for square in mine if edition.mortgages else ():
            if (houses[square] or hotels[square]) and (built is None or value[square] < value[built]) \
                    and game.can_mortgage(seat, square):
                built = square
        if built is not None:
            return edition.MORTGAGE[built]
        if edition.pay_with_deeds and creditor >= 0:
            return self._cheapest_deed(game, seat, owed, creditor, refused)
        return None

    def _cheapest_mortgages(self, game: Game, seat: int) -> tuple[int | None, int | None]:
        """My cheapest unbuilt deed the rules let me mortgage outside my whole groups, and
        inside them (None: none); the lowest square on a tie."""
        state, edition = game.state, self.edition
        houses, hotels, mortgaged = state.houses, state.hotels, state.mortgaged
        counts, group_of, group_size = game.group_counts[seat], edition.group_of, edition.group_size
        value = edition.mortgage_value
        cheapest = whole = None
        for square in game.holdings[seat]:
            if mortgaged[square] or houses[square] or hotels[square]:     # a built lot: the last resort
                continue
            g = group_of[square]
            if counts[g] != group_size[g]:
                if (cheapest is None or value[square] < value[cheapest]) and game.can_mortgage(seat, square):
                    cheapest = square
            elif (whole is None or value[square] < value[whole]) and game.can_mortgage(seat, square):
                whole = square
        return cheapest, whole

    def _cheapest_deed(self, game: Game, seat: int, owed: int, creditor: int, refused: set[int]) -> GiveDeed | None:
        """My deed worth least that the creditor may take for the debt (the lowest square on a tie)."""
        best = None
        for square in game.holdings[seat]:
            if game.may_give_deed(square, owed, creditor, refused):
                worth = game.deed_value(square)
                if best is None or worth < best.value:
                    best = GiveDeed(square, worth)
        return best


# The heuristic's answer to each decision, by the kind of its first action (raising money
# has no entry: its first action varies).
DISPATCH = {
    Buy: Heuristic.buy, Pass: Heuristic.bid, Roll: Heuristic.jail, Choose: Heuristic.pick,
    Done: Heuristic.manage, Accept: Heuristic.answer, KeepMortgage: Heuristic.keep_mortgage,
    Build: Heuristic.place, Preempt: Heuristic.preempt, Act: Heuristic.act,
}
