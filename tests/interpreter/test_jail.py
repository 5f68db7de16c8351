"""RULES-MATRIX §1/§2: jail."""
from __future__ import annotations

from interpreter import actions as A
from tests.interpreter.conftest import Script, decision, game, place, sq, turn


def jailed(ed, dice, **rules):
    g = game(ed, strategies=[Script(**rules), Script()], dice=dice)
    g.go_to_jail(0)
    return g


def test_just_visiting(ed):
    """§1 Jail (SE 001, NL 003, US 002): landing on the jail square by a normal move is
    "just visiting"."""
    g = game(ed, dice=[(2, 3)])
    place(g, 0, ed.jail_square - 5)
    turn(g, 0)
    assert g.players[0].position == ed.jail_square and not g.players[0].in_jail


def test_pay_fine(ed):
    """§2 Jail fine (SE 001, NL 003: pay, then play on next turn; US 002: paid before
    rolling, then roll and move), per `jail.fine_timing`."""
    g = jailed(ed, [(1, 2), (1, 2)], PayFine=True)
    before = g.players[0].cash
    turn(g, 0)
    assert not g.players[0].in_jail and g.players[0].cash == before - ed.jail_fine
    if decision(ed, "jail.fine_timing") == "before_roll":
        assert g.players[0].position == ed.jail_square + 3
    else:
        assert g.players[0].position == ed.jail_square
        turn(g, 0)
        assert g.players[0].position == ed.jail_square + 3


def test_double_leaves_jail_and_moves(ed):
    """§1/§2 Jail (SE 001, NL 003, US 002): a double within the tries frees the player, who
    moves by that roll; rolls again only under `jail.doubles_exit == move_and_roll_again`
    (US 002: "do not roll again")."""
    g = jailed(ed, [(2, 2), (1, 2)])
    turn(g, 0)
    assert not g.players[0].in_jail
    again = decision(ed, "jail.doubles_exit") == "move_and_roll_again"
    assert g.players[0].position == ed.jail_square + 4 + (3 if again else 0)
    assert len(g.dice_source.rolls) == (0 if again else 1)


def test_failed_tries_then_forced_exit(ed):
    """§1 Jail (SE 001, NL 003, US 002): after the last failed try (`jail.max_turns`) pay
    the fine and move by that roll."""
    tries = ed.jail_max_turns
    g = jailed(ed, [(1, 2)] * tries)
    before = g.players[0].cash
    for _ in range(tries - 1):
        turn(g, 0)
        assert g.players[0].in_jail and g.players[0].position == ed.jail_square
    turn(g, 0)
    assert not g.players[0].in_jail
    assert g.players[0].position == ed.jail_square + 3 and g.players[0].cash == before - ed.jail_fine


def test_use_card_to_leave(ed):
    """§1 Jail (SE 001, NL 003, US 002): a kept Get-Out-of-Jail-Free card frees the player."""
    g = jailed(ed, [(1, 2)], UseCard=True)
    d = 0
    card = g.state.decks[d].pop(0)
    g.players[0].cards.append([d, card])
    before = g.players[0].cash
    turn(g, 0)
    assert not g.players[0].in_jail and g.players[0].cash == before and g.state.decks[d][-1] == card


def test_jailed_player_may_build_and_trade(ed):
    """§1 Jail (SE 001, NL 003, US 002): a jailed player may trade and build: the manage
    window is offered before the jailed turn's choice."""
    script = Script()
    g = game(ed, strategies=[script, Script()], dice=[(1, 2)])
    for s in ("orange_1", "orange_2", "orange_3"):
        g.set_owner(sq(ed, s), 0)
    g.set_owner(sq(ed, "red_1"), 1)
    g.go_to_jail(0)
    turn(g, 0)
    manage = script.offered[0]
    assert any(type(a) is A.Build for a in manage) and any(type(a) is A.ProposeTrade for a in manage)
