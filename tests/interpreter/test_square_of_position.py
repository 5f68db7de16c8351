"""The square a token stands on: `p.square` (docs/language.md, "Names available").

Issue 24: writing Matador, a rule about the deed a player stands on needed a `number` on
every deed (`d.number == me.position`), since nothing turned a position into a square.
`p.square` is that square, and a deed compares with it (a deed is its square).
"""
from __future__ import annotations

import pytest

import grammar
import interpreter
from interpreter import actions as A
from tests.interpreter.conftest import game, own, place, sq

TIP = """edition tip extends classic-us

# issue 24: a house rule about the deed a player stands on, with no `number` on the deeds
action tip(p in others) "Tip the owner" at end_of_turn {
  allowed = me.square.owner == p and count(d in p.deeds: d == me.square) == 1
  effect { pay 10 to p }
}
"""


@pytest.fixture(scope="module")
def tip() -> interpreter.Edition:
    return interpreter.load(grammar.compile_text(TIP, "tip.rules"))


def tips(g, seat=0) -> list:
    acts, _required = g.offered(seat, g.edition.end_of_turn, interpreter.translate.Ctx(seat, reason="action"))
    return [a.item for a in acts if type(a) is A.Act]


def test_the_square_is_where_the_token_stands(tip):
    """On a deed of seat 1 the tip goes to seat 1; on the next square (the bank's) to nobody."""
    g = game(tip, players=3)
    own(g, 1, "brown_1")
    place(g, 0, "brown_1")
    assert tips(g) == [1]
    place(g, 0, sq(tip, "brown_1") + 1)
    assert tips(g) == []


def test_a_deed_compares_with_a_square():
    """`d == me.square` and `brown_1 == d` type-check: a deed is its square (as in `in`);
    a player is still no square."""
    grammar.compile_text("edition x extends classic-us\n"
                         'invariant t "t" = all(d in deeds: d == brown_1 or d.owner == bank)\n', "x.rules")
    with pytest.raises(grammar.SpecError) as refused:
        grammar.compile_text("edition x extends classic-us\n"
                             'invariant t "t" = all(p in players: p.square != p)\n', "x.rules")
    assert refused.value.diagnostics[0].code == "E301"
