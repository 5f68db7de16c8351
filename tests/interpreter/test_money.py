"""RULES-MATRIX §1/§2: mortgages, trades, debts, bankruptcy, the end."""
from __future__ import annotations

from fractions import Fraction

import interpreter
from interpreter import actions as A
from interpreter.state import BANK
from tests.interpreter.conftest import Script, decision, game, give, own, sq


def test_mortgage_and_lift(ed):
    """§1 Mortgage (SE 001, NL 003, US 002): only an unbuilt property; the bank pays the
    mortgage value; lifting costs the value plus 10 % interest; the owner keeps the deed."""
    g = game(ed)
    own(g, 0, "orange_1", "orange_2", "orange_3")
    s = sq(ed, "orange_1")
    g.build(0, sq(ed, "orange_2"))
    assert not g.can_mortgage(0, s)              # the group has a building
    g.sell_building(0, sq(ed, "orange_2"))
    cash = g.players[0].cash
    g.mortgage(0, s)
    assert g.players[0].cash == cash + ed.mortgage_value[s] and g.state.owner[s] == 0
    g.unmortgage(0, s)
    assert g.players[0].cash == cash - ed.money(ed.mortgage_value[s] * Fraction(10, 100))


def trade_game(ed, accept=True, **rules):
    partner = Script(Accept=True) if accept else Script()
    return game(ed, strategies=[Script(**rules), partner])


def test_trade_deeds_cash_and_cards(ed):
    """§1 Trading (SE 001, NL 003, US 002): unbuilt deeds, cash and Get-Out-of-Jail-Free
    cards change hands at an agreed price."""
    g = trade_game(ed)
    own(g, 1, "orange_1")
    g.players[1].cards.append([0, g.state.decks[0].pop(0)])
    card = tuple(g.players[1].cards[0])
    price = ed.price[sq(ed, "orange_1")]
    assert g.propose_trade(0, A.ProposeTrade(1, (), (sq(ed, "orange_1"),), price, (), (card,)))
    assert g.state.owner[sq(ed, "orange_1")] == 0 and g.players[0].cards == [list(card)]


def test_no_trade_of_built_group_nor_loans(ed):
    """§1 Trading (SE 001, NL 003, US 002): no lot of a group with buildings; buildings are
    never traded; no loans (cash beyond what the payer holds)."""
    g = trade_game(ed)
    own(g, 1, "orange_1", "orange_2", "orange_3")
    g.build(1, sq(ed, "orange_1"))
    assert not g.valid_trade(0, A.ProposeTrade(1, (), (sq(ed, "orange_2"),), 1))
    own(g, 1, "red_1")
    assert not g.valid_trade(0, A.ProposeTrade(1, (), (sq(ed, "red_1"),), g.players[0].cash + 1))
    assert g.valid_trade(0, A.ProposeTrade(1, (), (sq(ed, "red_1"),), g.players[0].cash))


def test_mortgaged_deed_changing_hands(ed):
    """§1 Mortgage (SE 001, NL 003, US 002): a mortgaged deed sold to another player: the
    new holder lifts it at once (value + interest) or pays `mortgage.transfer` now
    and keeps the mortgage."""
    s = sq(ed, "orange_1")
    g = trade_game(ed)                           # partner accepts, proposer keeps the mortgage
    own(g, 1, "orange_1")
    g.mortgage(1, s)
    cash = g.players[0].cash
    assert g.propose_trade(0, A.ProposeTrade(1, (), (s,), 0 + 1))
    assert g.state.mortgaged[s] and g.players[0].cash == cash - 1 - ed.transfer_cost[s]
    g2 = trade_game(ed, Unmortgage=True)
    own(g2, 1, "orange_1")
    g2.mortgage(1, s)
    cash = g2.players[0].cash
    assert g2.propose_trade(0, A.ProposeTrade(1, (), (s,), 1))
    assert not g2.state.mortgaged[s] and g2.players[0].cash == cash - 1 - ed.unmortgage_cost[s]


def test_raise_money_before_bankruptcy(ed):
    """§1 Debts (SE 001, NL 003, US 002): a debtor short of cash sells buildings and
    mortgages (the strategy chooses) before going bankrupt."""
    g = game(ed, strategies=[Script(), Script()])
    own(g, 0, "orange_1", "green_1")
    give(g, 0, -g.players[0].cash)
    debt = ed.mortgage_value[sq(ed, "orange_1")]
    g.pay(0, BANK, debt, "test")
    assert not g.players[0].bankrupt and any(g.state.mortgaged[sq(ed, s)] for s in ("orange_1", "green_1"))


def test_pay_with_deeds(ed):
    """§2 Paying a debt with property (SE 001: part in cash, part in unbuilt lots at a value
    the creditor accepts; NL/US silent), per `debt.pay_with_deeds`."""
    g = game(ed, strategies=[Script(GiveDeed=True), Script(Accept=True)])
    own(g, 0, "dark_blue_2")
    give(g, 0, -g.players[0].cash)
    s = sq(ed, "dark_blue_2")
    g.pay(0, 1, ed.price[s], "rent")
    if decision(ed, "debt.pay_with_deeds") == "allowed":
        assert g.state.owner[s] == 1 and not g.players[0].bankrupt
    else:
        assert g.state.owner[s] != 0 or g.state.mortgaged[s]


def test_bankrupt_to_player(ed):
    """§1 Bankruptcy to a player (SE 001, NL 003, US 002): buildings back to the bank at
    half price, cash, deeds and Get-Out-of-Jail-Free cards to the creditor."""
    g = game(ed)
    own(g, 0, *("orange_1", "orange_2", "orange_3"), "station_1")
    for s in ("orange_1", "orange_2", "orange_3"):
        g.build(0, sq(ed, s))
    g.players[0].cards.append([0, g.state.decks[0].pop(0)])
    cash = g.players[0].cash + 3 * g.edition.house_sale[sq(ed, "orange_1")]
    creditor_cash = g.players[1].cash
    g.bankrupt(0, 1)
    assert g.players[0].bankrupt and g.players[1].cash == creditor_cash + cash
    assert all(g.state.owner[sq(ed, s)] == 1 for s in ("orange_1", "orange_2", "orange_3", "station_1"))
    assert len(g.players[1].cards) == 1 and sum(g.state.houses) == 0


def test_bankrupt_to_bank_auctions_everything(ed):
    """§1/§2 Bankruptcy to the bank (SE 001, US 002: the bank auctions every property; NL
    silent), per `bankruptcy.to_bank`; jail cards go back under their decks."""
    g = game(ed, players=3, strategies=[Script(), Script(Bid=True), Script()])
    own(g, 0, "orange_1", "station_1")
    g.mortgage(0, sq(ed, "station_1"))
    d = 0
    card = g.state.decks[d].pop(0)
    g.players[0].cards.append([d, card])
    g.cur = 1
    g.bankrupt(0, BANK)
    assert g.state.decks[d][-1] == card
    if decision(ed, "bankruptcy.to_bank") == "auction_all":
        assert g.state.owner[sq(ed, "orange_1")] == 1 and g.state.owner[sq(ed, "station_1")] == 1
        assert not g.state.mortgaged[sq(ed, "station_1")]


def test_last_player_wins(ed):
    """§1 Winner (SE 001, NL 003, US 002): the last player who is not bankrupt
    (`end.over`)."""
    g = game(ed, players=3, dice=[(1, 2)] * 10)
    g.bankrupt(1, 0)
    g.bankrupt(2, 0)
    g.run()
    assert g.state.over and g.state.ended_by == "last_player" and g.state.winner == 0


def test_turn_cap_ranks_by_score(ed):
    """Engine safeguard (`game.turn_cap`, spec comment): a game still running after the
    cap ends; players rank by the `end.score` formula."""
    result = interpreter.play(ed, ["heuristic", "heuristic"], seed=3, max_turns=2)
    summary = result.summary()
    assert summary["ended_by"] == "turn_cap" and summary["rounds"] == 2
    scores = [row["score"] for row in summary["standings"]]
    assert scores == sorted(scores, reverse=True) and summary["winner"] == summary["standings"][0]["seat"]


def test_bank_never_runs_out(ed):
    """§1 The bank never goes bankrupt (SE 001, NL 003, US 002): it pays whatever it owes;
    its ledger keeps money conserved."""
    g = game(ed)
    g.transfer(BANK, 0, 10 ** 9, "test")
    assert g.state.bank_ledger + sum(p.cash for p in g.players) == 0
