"""Wonders of the World (RULES-MATRIX §4, 000 pages 2-3) and the shorter games (§3, SE 000
p. 11 / 001, NL 003, US variations), each rule by name, played by the engine from the specs."""
from __future__ import annotations

import pytest

import grammar
import interpreter
import spec
from interpreter import actions as A
from interpreter.state import BANK
from interpreter.translate import Ctx
from tests.interpreter.conftest import Script, edition, game, own, place, sq, turn

_CACHE: dict[tuple, interpreter.Edition] = {}


def played(name: str, *variants: str) -> interpreter.Edition:
    """A bundled edition with bundled variants laid over it, compiled once."""
    key = (name, variants)
    if key not in _CACHE:
        paths = [spec.bundled_variants()[v] for v in variants]
        _CACHE[key] = interpreter.load(grammar.compile_file(spec.bundled()[name], paths))
    return _CACHE[key]


def passport(g, seat) -> list[int]:
    return g.players[seat].marks[g.edition.state_index["passport"]]


def wonders(ed) -> list[int]:
    return [i for i, kind in enumerate(ed.kind_names) if kind == "lot"]


def flies_to(target):
    """A strategy answer: fly to the square named `target` when offered the choice."""
    def pick(game, seat, actions):
        return next(a for a in actions if a.label == game.edition.square_names[game.edition.square_index[target]])
    return pick


# ---- §4 Wonders of the World ------------------------------------------------------------

def test_wotw_standard_rules_apply():
    """§4 "Standard SE rules apply except as below" (000 p. 2 "Standardreglerna är som vanligt"):
    every setting but the title, tokens and players is classic-se's, and so are prices and rents."""
    w, se = played("wonders-se"), edition("classic-se")
    for section, values in se.settings.items():
        for key, value in values.items():
            if (section, key) not in {("game", "tokens"), ("game", "players"), ("end", "score")}:
                assert w.settings[section][key] == value, (section, key)
    assert w.price == se.price and w.printed == se.printed


def test_wotw_tokens_passports_hostels():
    """§4 contents (000 p. 3): 8 tokens, 6 passports (so at most 6 players), 32 hostels
    ("vandrarhem", the houses) and 12 hotels, 28 deeds, 16 + 16 cards, 2 dice."""
    w = played("wonders-se")
    assert w.settings["game"]["tokens"] == 8 and w.settings["game"]["players"]["max"] == 6
    assert (w.stock_houses, w.stock_hotels, len(w.deeds), w.dice) == (32, 12, 28, 2)
    assert [len(d["cards"]) for d in w.decks] == [16, 16]
    assert len(wonders(w)) == 22


def test_wotw_passport_marks_every_square_landed_on():
    """§4 Passport (000 p. 2 "Markera varje plats som du besöker"): the square a token lands
    on is marked, a wonder as well as a plain square."""
    g = game(played("wonders-se"), dice=[(1, 2)])
    place(g, 0, "go")
    turn(g, 0)
    assert sq(g.edition, "brown_2") in passport(g, 0)


def test_wotw_airports_and_utilities_are_not_marked():
    """§4 Passport (000 p. 2 "dock inte flygplatser och anläggningar"): landing on an airport or
    a utility marks nothing there."""
    g = game(played("wonders-se"), strategies=[Script(), Script()], dice=[(1, 1), (3, 4)])
    place(g, 0, "chance_1")
    own(g, 1, "station_2", "utility_1")
    passport(g, 0).clear()
    g.dice_source.rolls = [(2, 3)]
    place(g, 0, "utility_1")
    g.move_steps(Ctx(0, 3), 0, 3)      # utility_1 -> station_2 (3 squares on)
    assert sq(g.edition, "station_2") not in passport(g, 0)
    g.land(Ctx(0, 5), 0, sq(g.edition, "utility_1"))
    assert sq(g.edition, "utility_1") not in passport(g, 0)


def test_wotw_auction_purchases_are_marked():
    """§4 Passport (000 p. 2 "markera de egendomar som du köper i auktioner"): a deed won at
    auction is marked in the winner's passport, wherever the winner stands."""
    g = game(played("wonders-se"), strategies=[Script(), Script(Bid=True)])
    g.auction_deed(sq(g.edition, "dark_blue_2"), 0)
    assert g.state.owner[sq(g.edition, "dark_blue_2")] == 1
    assert sq(g.edition, "dark_blue_2") in passport(g, 1)


def test_wotw_deeds_dealt_in_the_short_game_are_marked():
    """§4 Passport (000 p. 2 "och de som tilldelas dig när du spelar kortversionen"): with the
    short game, the two dealt deeds are marked."""
    g = interpreter.new_game(played("wonders-se", "short"), ["random"] * 3, seed=5, check_invariants=True)
    for p in g.players:
        dealt = g.deeds_of(p.seat)
        assert len(dealt) == 2 and all(d in passport(g, p.seat) for d in dealt)


def test_wotw_airport_flight_marks_an_unvisited_wonder_without_moving():
    """§4 Airports (000 p. 2 "kan du flyga gratis till något av underverken. Din spelpjäs står
    kvar på flygplatsen"): landing on an airport, owned or not, the player may mark one unvisited
    wonder; the token stays, nothing is bought or paid for the wonder."""
    w = played("wonders-se")
    g = game(w, strategies=[Script(Choose=flies_to("dark_blue_2")), Script()], dice=[(2, 3)])
    own(g, 1, "station_1")
    place(g, 0, "go")
    before = g.players[0].cash
    turn(g, 0)
    assert g.players[0].position == sq(w, "station_1")
    assert sq(w, "dark_blue_2") in passport(g, 0)
    assert g.state.owner[sq(w, "dark_blue_2")] == BANK
    rent = w.printed[sq(w, "station_1")][0]
    assert g.players[0].cash == before - rent          # the airport's rent only, as for a station
    offered = [a for offer in g.strategies[0].offered for a in offer if type(a) is A.Choose]
    assert offered[-1].label == "skip"            # "kan": the flight is optional


def test_wotw_airports_rented_like_stations():
    """§4 Airports (000 p. 2 "ta ut hyra på samma sätt som med stationerna"): airports are
    the station group with the station rent formula."""
    w, se = played("wonders-se"), edition("classic-se")
    for i in w.deeds:
        if w.kind_names[i] == "station":
            assert w.printed[i] == se.printed[i] and w.price[i] == se.price[i]
    assert w.ir["rent"]["station"] == se.ir["rent"]["station"]


def test_wotw_all_wonders_end_the_game_with_a_bonus():
    """§4 End (000 p. 2 "När en spelare har besökt alla 22 underverk är spelet slut och
    spelaren får 30 000 kr i bonus"): the 22nd wonder pays the bonus and ends the game at once."""
    w = played("wonders-se")
    g = game(w, dice=[(1, 2)])
    last = sq(w, "brown_2")
    passport(g, 0)[:] = sorted(s for s in wonders(w) if s != last)
    place(g, 0, "go")
    cash = g.players[0].cash
    g.move_steps(Ctx(0, 3), 0, 3)
    assert g.ending and g.players[0].cash == cash + 30000
    g.run()
    assert g.state.over and g.state.ended_by == "end_game"


def test_wotw_most_money_wins_counted_as_cash():
    """§4 End (000 p. 2 "Den spelare som har mest pengar när spelet är slut vinner"; assumed:
    money is cash): the score is a player's cash, deeds not counted."""
    g = game(played("wonders-se"))
    own(g, 1, "dark_blue_1", "dark_blue_2")
    assert g.score(0) == g.players[0].cash and g.score(1) == g.players[1].cash


# ---- §3 the shorter games -----------------------------------------------------------

@pytest.mark.parametrize("name", ["classic-se", "classic-nl", "classic-us"])
def test_short_two_deeds_dealt_and_paid(name):
    """§3 Short game (1) (SE 001 "delar ... ut två lagfartsbevis (ett åt gången) ... måste
    omedelbart betala det angivna priset"): each player holds two deeds and paid their prices."""
    ed = played(name, "short")
    g = interpreter.new_game(ed, ["random"] * 4, seed=3, check_invariants=True)
    for p in g.players:
        dealt = g.deeds_of(p.seat)
        assert len(dealt) == 2
        assert p.cash == ed.start_money - sum(ed.price[d] for d in dealt)


def test_short_hotel_after_three_houses():
    """§3 Short game (2) (SE 001 "behöver du bara bygga tre hus (istället för fyra)"): a hotel
    may be built on three houses per lot; its rent is the printed hotel rent."""
    ed = played("classic-se", "short")
    g = game(ed, cash=200000)
    own(g, 0, "brown_1", "brown_2")
    for s in ("brown_1", "brown_2"):
        g.state.houses[sq(ed, s)] = 3
    g.state.bank_houses -= 6
    assert g.can_build_hotel(0, sq(ed, "brown_1"))
    g.build_hotel(0, sq(ed, "brown_1"))
    c, square = Ctx(1), sq(ed, "brown_1")
    assert g.rent(c, square, 0) == ed.printed[square][-1]


def test_short_hotel_sells_for_one_house_less():
    """§3 Short game (2) (SE 001 "värdet fortfarande hälften av köppriset, vilket i den här
    versionen är ett hus mindre"): a hotel sells for half of its price plus three houses."""
    se, short = edition("classic-se"), played("classic-se", "short")
    i = sq(se, "brown_1")
    assert se.hotel_sale_full[i] - short.hotel_sale_full[i] == se.house_cost[i] // 2


def test_short_second_bankruptcy_ends_the_game():
    """§3 Short game (3) (SE 001 "så snart som ytterligare en spelare blir bankrutt tar spelet
    slut"): one bankruptcy plays on; the second ends the game, ranked by wealth."""
    g = game(played("classic-se", "short"), players=4, dice=[(1, 2)] * 8)
    g.bankrupt(1, BANK)
    assert not g.edition.end_over(g, Ctx())
    g.bankrupt(2, BANK)
    assert g.edition.end_over(g, Ctx())


def test_short_wealth_each_edition_keeps_its_hotel_value():
    """§3 Short game (3) and NL wealth (SE 001 "hotell, värderade till köpesumman inklusive
    värdet av de tre hus"; NL 003 "the price of four houses"): a hotel counts as the hotel price
    plus `houses_per_hotel` houses, in the edition's own figures."""
    for name in ("classic-se", "classic-nl"):
        ed = played(name, "short")
        g = game(ed)
        own(g, 0, "brown_1")
        before = g.score(0)
        g.state.hotels[sq(ed, "brown_1")] = 1
        g.state.bank_hotels -= 1
        i = sq(ed, "brown_1")
        assert g.score(0) - before == ed.hotel_cost[i] + 3 * ed.house_cost[i]


def test_timed_game_ends_at_the_agreed_round_richest_wins():
    """§3 Time-limited game (SE 001 "kommer ni överens om en tid ... Den spelare som vid den
    tidpunkten är rikast"; two deeds dealt and paid first): the game ends after the agreed
    rounds (30 for 60 minutes, assumed) and ranks by wealth."""
    ed = played("classic-se", "timed")
    result = interpreter.play(ed, ["heuristic"] * 4, seed=2, check_invariants=True)
    s = result.summary()
    assert s["ended_by"] in ("end_condition", "last_player")
    if s["ended_by"] == "end_condition":
        assert s["rounds"] == 30
    g = interpreter.new_game(ed, ["random"] * 4, seed=3)
    assert all(len(g.deeds_of(p.seat)) == 2 for p in g.players)


def test_jackpot_taxes_fines_and_cards_go_to_the_pot():
    """§3 US Free Parking jackpot (taxes, fines and card payments go to the middle; the player
    landing on Free Parking takes it): the pot is an account, and money is conserved."""
    ed = played("classic-us", "jackpot")
    g = game(ed, dice=[(1, 3), (3, 3)], cash=1500)
    place(g, 0, "go")
    turn(g, 0)                                      # lands on Income Tax: pays into the pot
    paid = g.state.pots[0]
    assert paid > 0 and g.state.bank_ledger == -3000
    g.pay(0, BANK, ed.jail_fine, "jail_fine")
    assert g.state.pots[0] == paid + ed.jail_fine
    place(g, 1, "chance_2")                         # 20 - 22 + ... : straight onto Free Parking
    g.dice_source.rolls = [(1, 1)]
    place(g, 1, sq(ed, "free_parking") - 2)
    before = g.players[1].cash
    g.move_steps(Ctx(1, 2), 1, 2)
    assert g.players[1].cash == before + paid + ed.jail_fine and g.state.pots[0] == 0


def test_deal_all_deals_every_deed():
    """§3 US "all deeds dealt out at the start" (assumed: one at a time round the table, free):
    the bank holds no deed when play starts."""
    ed = played("classic-us", "deal-all")
    g = interpreter.new_game(ed, ["random"] * 3, seed=1, check_invariants=True)
    assert all(g.state.owner[d] >= 0 for d in ed.deeds)
    assert sorted(len(g.deeds_of(p.seat)) for p in g.players) == [9, 9, 10]
    assert all(p.cash == ed.start_money for p in g.players)


def test_variants_combine_where_it_makes_sense():
    """§3 combinations: the jackpot combines with every other variant; two variants that both
    give the setup or the end (short, timed, deal-all) are refused with E218."""
    for other in ("short", "timed", "deal-all"):
        played("classic-se", other, "jackpot")
    with pytest.raises(grammar.SpecError) as caught:
        played("classic-se", "short", "deal-all")
    assert caught.value.diagnostics[0].code == "E218"
