"""RULES-MATRIX §1/§2: houses, hotels, selling, housing shortage."""
from __future__ import annotations

from fractions import Fraction

import pytest

from interpreter import actions as A
from tests.interpreter.conftest import Script, decision, game, give, own, sq

ORANGE = ("orange_1", "orange_2", "orange_3")
HALF = Fraction(1, 2)      # §1: "halva det värde som står angivet på lagfartsbeviset" (SE 001)


def rich(ed, strategies=None):
    g = game(ed, strategies=strategies)
    for p in g.players:
        give(g, p.seat, ed.price[sq(ed, "dark_blue_2")] * 100)
    return g


def lots(ed):
    return [sq(ed, s) for s in ORANGE]


def test_building_needs_complete_group(ed):
    """§1 Houses (SE 001, NL 003, US 002): only with a complete colour group."""
    g = rich(ed)
    own(g, 0, "orange_1", "orange_2")
    assert not any(g.can_build(0, s) for s in lots(ed))
    own(g, 0, "orange_3")
    assert all(g.can_build(0, s) for s in lots(ed))


def test_build_evenly_and_max_houses(ed):
    """§1 Houses (SE 001, NL 003, US 002): build evenly (no second house before every lot
    has one), at most `building.max_houses` houses."""
    g = rich(ed)
    own(g, 0, *ORANGE)
    a, b, c = lots(ed)
    g.build(0, a)
    assert not g.can_build(0, a) and g.can_build(0, b)
    for _ in range(ed.max_houses):
        for s in (a, b, c):
            if g.can_build(0, s):
                g.build(0, s)
    assert [g.state.houses[s] for s in (a, b, c)] == [ed.max_houses] * 3
    assert not any(g.can_build(0, s) for s in (a, b, c))


def test_no_building_with_mortgage_in_group(ed):
    """§1 Houses (SE 001, NL 003, US 002): no building while any lot of the group is mortgaged."""
    g = rich(ed)
    own(g, 0, *ORANGE)
    g.mortgage(0, lots(ed)[2])
    assert not any(g.can_build(0, s) for s in lots(ed))


def fill(g, seat, squares, level):
    for _ in range(level):
        for s in squares:
            g.build(seat, s)


def test_hotel_needs_houses_on_every_lot_and_returns_them(ed):
    """§1 Hotels (SE 001, NL 003, US 002): a hotel needs `building.houses_per_hotel` houses on
    every lot of the group; the houses go back to the bank; one hotel per lot."""
    g = rich(ed)
    own(g, 0, *ORANGE)
    a, b, c = lots(ed)
    fill(g, 0, (a, b, c), ed.houses_per_hotel - 1)
    fill(g, 0, (a, b), 1)
    assert not g.can_build_hotel(0, a)
    g.build(0, c)
    stock = g.state.bank_houses
    cash = g.players[0].cash
    assert g.can_build_hotel(0, a)
    g.build_hotel(0, a)
    assert g.state.hotels[a] == 1 and g.state.houses[a] == 0 and g.state.bank_houses == stock + ed.houses_per_hotel
    assert g.players[0].cash == cash - ed.hotel_cost[a]
    assert not g.can_build_hotel(0, a)


def test_sell_evenly_at_half_price(ed):
    """§1 Buildings (SE 001, NL 003, US 002): sold only to the bank, at half their price
    (`building.sell_house`), evenly."""
    g = rich(ed)
    own(g, 0, *ORANGE)
    a, b, c = lots(ed)
    fill(g, 0, (a, b, c), 1)
    g.build(0, a)
    assert g.can_sell(0, a) and not g.can_sell(0, b)
    cash = g.players[0].cash
    g.sell_building(0, a)
    assert g.players[0].cash == cash + ed.house_cost[a] * HALF
    assert g.state.houses[a] == 1


def test_hotel_sale(ed):
    """§2 Selling a hotel (SE 001: half the hotel plus half of the houses given up for it;
    or back for houses if the bank has them; US 002: 1 hotel = 5 houses), per
    `building.hotel_sale`, at half price (`building.sell_hotel`, `trade_hotel`); downgrading
    needs the houses in the bank."""
    g = rich(ed)
    own(g, 0, *ORANGE)
    a, b, c = lots(ed)
    fill(g, 0, (a, b, c), ed.houses_per_hotel)
    for s in (a, b, c):
        g.build_hotel(0, s)
    cash = g.players[0].cash
    assert g.can_downgrade(0, a)
    g.downgrade(0, a)
    assert g.state.houses[a] == ed.houses_per_hotel and g.players[0].cash == cash + ed.hotel_cost[a] * HALF
    # with too few houses in the bank, no downgrade; the hotel sells outright
    g.state.bank_houses, spare = ed.houses_per_hotel - 1, g.state.bank_houses - (ed.houses_per_hotel - 1)
    g.checker = None                               # the stock is shrunk by hand below
    g.state.houses[sq(ed, "red_1")] += spare
    assert not g.can_downgrade(0, b) and g.can_sell(0, b)
    cash = g.players[0].cash
    g.sell_building(0, b)
    full = ed.hotel_cost[b] + (ed.houses_per_hotel * ed.house_cost[b]
                               if decision(ed, "building.hotel_sale") == "half_hotel_and_houses" else 0)
    assert g.players[0].cash == cash + full * HALF


def test_no_houses_in_bank_no_building(ed):
    """§1 Housing shortage (SE 001, NL 003, US 002): with no houses in the bank, no building."""
    g = rich(ed)
    own(g, 0, *ORANGE)
    g.checker = None                               # the stock is emptied by hand
    g.state.bank_houses = 0
    assert not any(g.can_build(0, s) for s in lots(ed))


def test_shortage_auction(ed):
    """§1 Housing shortage (SE 001; US/NL silent, the specs assume the same): when two or
    more players want more houses than the bank has, they are auctioned one by one,
    starting at the lowest house price (`building.shortage == auction`)."""
    if decision(ed, "building.shortage") != "auction":
        pytest.skip("this edition serves the first come")

    def bid_once(game, seat, actions):
        bids = [x for x in actions if type(x) is A.Bid]
        return bids[0] if game.pending.leader != seat and game.pending.high == 0 else actions[0]
    s0 = Script(Bid=bid_once, Build=True)
    s1 = Script(Bid=bid_once, Build=True)
    g = rich(ed, strategies=[s0, s1])
    own(g, 0, *ORANGE)
    own(g, 1, "red_1", "red_2", "red_3")
    g.checker = None                                 # the stock is shrunk by hand
    g.state.bank_houses = 1
    g.request_house(0, lots(ed)[0])
    auctions = [e for e in g.events if e["type"] == "house_auction"]
    assert auctions and auctions[0]["price"] == min(ed.house_cost[s] for s in lots(ed))
    assert g.state.bank_houses == 0
