"""The dice of the current throw: `die(N)` (docs/language.md, "Names available").

The motivating case is issue 24's: the Mega Edition's speed die has a Bus face, "move by
either white die or by their sum", which a roll hook can say only if it reads each die.
Here the Bus stands on a throw whose first die shows 1, on a two-dice game (classic-us).
"""
from __future__ import annotations

import pytest

import grammar
import interpreter
from interpreter.errors import RuleError
from interpreter.translate import Compiler, Ctx
from tests.interpreter.conftest import Script, game, own, place, sq, turn

BUS = """edition bus extends classic-us

# issue 24: the Mega Edition speed die's Bus face, "move by either white die or their sum"
when roll(total) if die(1) == 1 {
  choose {
    "Bus: move by the first die" { move by die(1) }
    "Bus: move by the second die" { move by die(2) }
    "Bus: move by both" { move by total }
  }
}
rent { utility = die(2) * 10 }
"""


@pytest.fixture(scope="module")
def bus() -> interpreter.Edition:
    return interpreter.load(grammar.compile_text(BUS, "bus.rules"))


def picks(label):
    def pick(g, seat, actions):
        return next(a for a in actions if a.label == label)
    return pick


@pytest.mark.parametrize(("label", "square"), [("Bus: move by the first die", 1),
                                               ("Bus: move by the second die", 5),
                                               ("Bus: move by both", 6)])
def test_the_bus_moves_by_the_die_chosen(bus, label, square):
    """issue 24's Bus face: a throw of 1 and 5 offers each white die and their sum."""
    g = game(bus, strategies=[Script(Choose=picks(label)), Script()], dice=[(1, 5)])
    turn(g, 0)
    assert g.players[0].position == square
    assert not g.dice_source.rolls


def test_a_throw_without_the_bus_moves_by_the_dice(bus):
    """The hook's condition reads the first die: 2 and 3 is no Bus, the token moves 5."""
    g = game(bus, dice=[(2, 3)])
    turn(g, 0)
    assert g.players[0].position == 5


def test_a_rent_formula_reads_the_throw_that_landed_there(bus):
    """`die(N)` reads the throw wherever `dice` does: this utility's rent is ten times the
    second die of the throw that brought the lander (3 and 4 from square 5 to 12)."""
    g = game(bus, dice=[(3, 4)], cash=1500)
    own(g, 1, "utility_1")
    place(g, 0, 5)
    turn(g, 0)
    assert g.players[0].position == sq(bus, "utility_1")
    assert (g.players[0].cash, g.players[1].cash) == (1500 - 40, 1500 + 40)


def test_a_double_out_of_jail_moves_with_its_dice_in_scope(bus):
    """The double that frees a jailed player is the throw of its move: from jail (10) a 1
    and 1 reach the Electric Company, whose rent here reads the second die."""
    g = game(bus, dice=[(1, 1)], cash=1500)
    own(g, 1, "utility_1")
    g.go_to_jail(0, "test")
    turn(g, 0)
    assert not g.players[0].in_jail and g.players[0].position == sq(bus, "utility_1")
    assert g.players[0].cash == 1500 - 10


def test_outside_a_throw_a_die_reads_0_and_a_missing_die_stops_the_rule(bus):
    """An action or the setup has no throw: a die reads 0 there, as `dice` does. A die the
    game does not have (a computed `die(3)` in a two-dice game) stops the rule (E504)."""
    g = game(bus)
    first = Compiler(bus).fn({"expr": "call", "function": "die", "args": [{"expr": "int", "value": 1}]}, {})
    assert first(g, Ctx(0)) == 0
    assert first(g, Ctx().again(0, 7, thrown=(3, 4))) == 3
    one_more = {"expr": "bin", "operator": "+", "left": {"expr": "var", "name": "dice"},
                "right": {"expr": "int", "value": 1}}
    third = Compiler(bus).fn({"expr": "call", "function": "die", "args": [one_more]}, {})
    with pytest.raises(RuleError) as stopped:
        third(g, Ctx().again(0, 2, thrown=(1, 1)))
    assert stopped.value.code == "E504" and "die 3 of a game of 2 dice" in str(stopped.value)
