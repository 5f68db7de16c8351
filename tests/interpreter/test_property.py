"""RULES-MATRIX §1/§2: buying, auctions, rent by kind, cards."""
from __future__ import annotations

from interpreter import actions as A
from interpreter.state import BANK
from tests.interpreter.conftest import (
    Script,
    decision,
    deck_with_top,
    game,
    give,
    own,
    place,
    sq,
    squares_drawing,
    turn,
)


def put(g, square_id, houses=0, hotels=0):
    i = sq(g.edition, square_id)
    g.state.houses[i] += houses
    g.state.bank_houses -= houses
    g.state.hotels[i] += hotels
    g.state.bank_hotels -= hotels


def test_buy_at_printed_price(ed):
    """§1 Unowned property (SE 001, NL 003, US 002): the lander may buy at the printed price."""
    g = game(ed, strategies=[Script(Buy=True), Script()], dice=[(1, 2)])
    place(g, 0, "jail")
    before = g.players[0].cash
    turn(g, 0)
    lot = sq(ed, "jail") + 3
    assert g.state.owner[lot] == 0 and g.players[0].cash == before - ed.price[lot]


def test_declined_property_is_auctioned_to_all(ed):
    """§1 Auction (SE 001, NL 003, US 002): a declined property is auctioned at once; the
    decliner may bid too; bids rise by `auction.raises`, never above the bidder's cash
    (`auction.bid_within_cash`); the highest bidder pays the bank."""
    lot = sq(ed, "jail") + 3

    def bid_low(game, seat, actions):
        bids = [a for a in actions if type(a) is A.Bid]
        return bids[0] if game.pending.high < 3 * ed.raises[0] else actions[0]

    decliner = Script(Bid=bid_low)
    other = Script(Bid=bid_low)
    g = game(ed, strategies=[decliner, other], dice=[(1, 2)])
    place(g, 0, "jail")
    turn(g, 0)
    offered = [a for acts in decliner.offered + other.offered for a in acts if type(a) is A.Bid]
    assert offered and all(a.amount <= g.players[0].cash + 10 ** 9 for a in offered)
    assert any(type(a) is A.Bid for acts in decliner.offered for a in acts)   # the decliner may bid
    assert g.state.owner[lot] in (0, 1)
    winner = g.state.owner[lot]
    auction = [e for e in g.events if e["type"] == "auction"][0]
    assert auction["winner"] == winner and auction["price"] >= ed.raises[0]


def test_bids_within_cash(ed):
    """§1 Auction, assumed `auction.bid_within_cash` (sources silent): no bid offered
    exceeds the bidder's cash."""
    g = game(ed, strategies=[Script(), Script(Bid=lambda game, seat, acts: acts[-1])], dice=[(1, 2)])
    give(g, 1, -(g.players[1].cash - 3 * ed.raises[-1] - 1))
    place(g, 0, "jail")
    turn(g, 0)
    bids = [a for acts in g.strategies[1].offered for a in acts if type(a) is A.Bid]
    assert bids and max(b.amount for b in bids) <= 3 * ed.raises[-1] + 1


def test_no_bid_bank_keeps(ed):
    """§1 Auction: when nobody bids the bank keeps the deed."""
    g = game(ed, dice=[(1, 2)])
    place(g, 0, "jail")
    turn(g, 0)
    assert g.state.owner[sq(ed, "jail") + 3] == BANK


def rent_paid(g):
    return sum(e["amount"] for e in g.events if e["type"] == "transfer" and e["reason"] == "rent")


def land_on(ed, square_id, setup, dice=(1, 2)):
    g = game(ed, dice=[dice])
    setup(g)
    place(g, 0, (sq(ed, square_id) - sum(dice)) % ed.n)
    turn(g, 0)
    return g


def test_rent_by_buildings(ed):
    """§1 Rent (SE 001, NL 003, US 002): the deed's rent by the number of buildings."""
    def setup(g):
        own(g, 1, "orange_1", "orange_2", "orange_3")
        put(g, "orange_1", houses=2)
        put(g, "orange_2", houses=2)
        put(g, "orange_3", houses=1)
    g = land_on(ed, "orange_1", setup)
    assert rent_paid(g) == ed.printed[sq(ed, "orange_1")][2]


def test_hotel_rent(ed):
    """§1 Rent: a hotel takes the last printed rent."""
    def setup(g):
        own(g, 1, "orange_1", "orange_2", "orange_3")
        for s in ("orange_1", "orange_2", "orange_3"):
            put(g, s, hotels=1)
    g = land_on(ed, "orange_2", setup)
    assert rent_paid(g) == ed.printed[sq(ed, "orange_2")][-1]


def test_complete_group_doubles_unbuilt_rent(ed):
    """§1 (SE 001, NL 003, US 002): a complete colour group doubles rent on its unbuilt lots."""
    g = land_on(ed, "orange_1", lambda g: own(g, 1, "orange_1", "orange_2", "orange_3"))
    assert rent_paid(g) == 2 * ed.printed[sq(ed, "orange_1")][0]
    g = land_on(ed, "orange_1", lambda g: own(g, 1, "orange_1", "orange_2"))
    assert rent_paid(g) == ed.printed[sq(ed, "orange_1")][0]


def test_mortgaged_lot_in_complete_group(ed):
    """§2 Double rent with a mortgaged lot (SE 001, NL 003: no doubling at all; US 002:
    double rent on the unmortgaged unbuilt lots), per `rent.mortgaged_group`."""
    def setup(g):
        own(g, 1, "orange_1", "orange_2", "orange_3")
        g.set_mortgaged(sq(ed, "orange_3"), True)
    g = land_on(ed, "orange_1", setup)
    base = ed.printed[sq(ed, "orange_1")][0]
    expected = 2 * base if decision(ed, "rent.mortgaged_group") == "double_unmortgaged" else base
    assert rent_paid(g) == expected


def test_no_rent_on_mortgaged(ed):
    """§1 (SE 001, NL 003, US 002): no rent on a mortgaged property."""
    def setup(g):
        own(g, 1, "orange_1")
        g.set_mortgaged(sq(ed, "orange_1"), True)
    assert rent_paid(land_on(ed, "orange_1", setup)) == 0


def test_station_rent_by_count(ed):
    """§1 Stations (SE 001, NL 003, US 002): rent by how many stations the owner has."""
    for count in range(1, 5):
        names = ["station_1", "station_2", "station_3", "station_4"][:count]
        g = land_on(ed, "station_1", lambda g, names=names: own(g, 1, *names))
        assert rent_paid(g) == ed.printed[sq(ed, "station_1")][count - 1]


def test_utility_rent_is_dice_times_multiplier(ed):
    """§1/§2 Utilities (SE 001 80x/200x... NL, US 4x/10x): multiplier x the dice, the
    multiplier by how many utilities the owner has."""
    g = land_on(ed, "utility_1", lambda g: own(g, 1, "utility_1"), dice=(1, 2))
    assert rent_paid(g) == 3 * ed.printed[sq(ed, "utility_1")][0]
    g = land_on(ed, "utility_1", lambda g: own(g, 1, "utility_1", "utility_2"), dice=(1, 2))
    assert rent_paid(g) == 3 * ed.printed[sq(ed, "utility_1")][1]


def test_jailed_owner_collects_rent(ed):
    """§1 Jail (SE 001, NL 003, US 002): a jailed player still collects rent
    (`rent.due` does not read the owner's jail)."""
    def setup(g):
        own(g, 1, "orange_1")
        g.go_to_jail(1)
    assert rent_paid(land_on(ed, "orange_1", setup)) == ed.printed[sq(ed, "orange_1")][0]


def _card(effect_kind, **match):
    def pred(effect):
        return bool(effect) and effect[0].get("stmt") == effect_kind \
            and all(effect[0].get(k) == v for k, v in match.items())
    return pred


def test_card_nearest_utility_rolls_for_rent(ed):
    """§1 Cards (SE 001, NL 003, US 002): sent to a utility by a card, roll the dice for
    the amount (`advance to nearest ... with rent = roll * N`)."""
    chance = squares_drawing(ed, "chance")[0]
    g = game(ed, dice=[(2, 3)])
    own(g, 1, "utility_1")
    place(g, 0, chance - 5)
    deck_with_top(g, "chance", _card("advance_to_nearest", group="utilities"))
    card = [c for c in ed.ir["decks"][ed.deck_index["chance"]]["cards"]
            if c["effect"][0].get("group") == "utilities"][0]
    factor = card["effect"][0]["rent"]["right"]["value"]
    g.dice_source.rolls.append((6, 5))
    turn(g, 0)
    assert g.players[0].position == sq(ed, "utility_1")
    assert rent_paid(g) == 11 * factor


def test_card_nearest_station_pays_twice(ed):
    """§1 Cards (US 002 and the decks that copy it): "advance to the nearest railroad and
    pay twice the rental"."""
    chance = squares_drawing(ed, "chance")[0]
    g = game(ed, dice=[(2, 3)])
    own(g, 1, "station_1", "station_2")
    place(g, 0, chance - 5)
    deck_with_top(g, "chance", _card("advance_to_nearest", group="stations"))
    turn(g, 0)
    target = g.players[0].position
    assert ed.group_of[target] == ed.group_index["stations"]
    assert rent_paid(g) == 2 * ed.printed[target][1]


def test_cards_top_to_bottom(ed):
    """§1 Cards (SE 001, NL 003, US 002): take the top card, obey it, put it at the bottom."""
    chest = squares_drawing(ed, "chest")[0]
    g = game(ed, dice=[(1, 2)])
    place(g, 0, chest - 3)
    d = ed.deck_index["chest"]
    top = deck_with_top(g, "chest", _card("transfer"))
    order = list(g.state.decks[d])
    turn(g, 0)
    assert g.state.decks[d] == order[1:] + [top]


def test_kept_card_is_held_then_returned(ed):
    """§1 Get-Out-of-Jail-Free (SE 001, NL 003, US 002): kept until used to leave jail,
    then back to the bottom of its deck."""
    chest = squares_drawing(ed, "chest")[0]
    g = game(ed, strategies=[Script(UseCard=True), Script()], dice=[(1, 2), (1, 2)])
    place(g, 0, chest - 3)
    d = ed.deck_index["chest"]
    card = deck_with_top(g, "chest", _card("keep"))
    turn(g, 0)
    assert g.players[0].cards == [[d, card]] and card not in g.state.decks[d]
    g.go_to_jail(0)
    turn(g, 0)
    assert not g.players[0].in_jail and g.players[0].cards == [] and g.state.decks[d][-1] == card


def test_tax_square(ed):
    """§1/§2 Tax (SE 001, NL 003: pay the printed amount; US 002: choose the fixed amount or
    10% of total worth, chosen before counting): the `choose` options are offered, each
    costs what its statements say, rounded per `money.rounding` (a worth ending in 5 makes
    10% of it a half: the exact share is rounded, not a share of a rounded worth)."""
    tax = sq(ed, "income_tax")
    effects = ed.ir["squares"][tax]["on_land"]
    pick_last = Script(Choose=lambda game, seat, acts: acts[-1])
    g = game(ed, strategies=[pick_last, Script()], dice=[(1, 3)])
    own(g, 0, "orange_1")
    g.transfer(BANK, 0, 5, "test")
    place(g, 0, tax - 4)
    worth = g.players[0].cash + ed.price[sq(ed, "orange_1")]
    before = g.players[0].cash
    turn(g, 0)
    paid = before - g.players[0].cash
    if effects and effects[0]["stmt"] == "choose":
        assert len(pick_last.offered[-1]) == len(effects[0]["options"])
        import math
        assert paid == math.ceil(worth * 10 / 100) if ed.rounding_up else paid == worth * 10 // 100
    else:
        assert paid > 0
