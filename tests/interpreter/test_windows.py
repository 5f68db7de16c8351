"""Action windows (docs/language.md, "Actions and their windows"): an action is offered in
the windows it names: before each roll of its player's turn (the classic game's manage
window, RULES-MATRIX §1 "build, sell and mortgage before the roll"), at the end of the turn
(Metropol's BYGGERET, 004 p. 11), and while its player raises money for a debt (§1 "raising
money"; Metropol's forced auctions, 004 p. 12). The house rules below are test rules, a
child edition of classic-us, not rules of a source."""
from __future__ import annotations

import json

import pytest

import interpreter
from interpreter import actions as A
from tests.interpreter.conftest import Script, game, place, sq

grammar = pytest.importorskip("grammar")

HOUSE_RULES = """\
edition windows extends classic-us

# Before rolling, a player may tip another player $10.
action tip(p in others) "Tip" at before_roll {
  allowed = me.cash >= 10
  effect { pay 10 to p }
}

# While raising money, a debtor may ask another player for $100.
action beg(p in others) "Beg" at raising {
  allowed = p.cash >= 100
  effect { collect 100 from p }
}

# At the end of the turn and before the roll, a player may count their cash (nothing moves).
action count_cash(p in players) "Count" at before_roll, end_of_turn {
  allowed = p == me
  effect { }
}
"""


@pytest.fixture(scope="module")
def house() -> interpreter.Edition:
    return interpreter.load(grammar.compile_text(HOUSE_RULES, "windows.rules"))


def taking(name: str) -> Script:
    """A strategy that takes the spec's action `name` whenever it is offered (else as `Script`)."""
    def take(game, seat, actions):
        return next((a for a in actions if type(a) is A.Act and a.label.startswith(name + ":")), actions[0])
    return Script(Act=take)


def offered(strategy: Script, name: str) -> list[list[A.Action]]:
    """The lists the strategy was offered that hold an action of the spec named `name`."""
    return [acts for acts in strategy.offered
            if any(type(a) is A.Act and a.label.startswith(name + ":") for a in acts)]


def spec_labels(actions: list[A.Action]) -> set[str]:
    """The names (labels) of the spec's actions in one offered list."""
    return {a.label.split(":")[0] for a in actions if type(a) is A.Act}


def test_the_ir_states_each_actions_windows(house):
    windows = {a["key"]: a["windows"] for a in house.ir["actions"]}
    assert windows == {"tip": ["before_roll"], "beg": ["raising"], "count_cash": ["before_roll", "end_of_turn"]}


def test_an_action_without_at_is_offered_at_the_end_of_the_turn():
    ir = grammar.compile_text(HOUSE_RULES + 'action wave(p in others) "Wave" { allowed = yes effect { } }\n')
    assert [a["windows"] for a in ir["actions"] if a["key"] == "wave"] == [["end_of_turn"]]


def test_before_roll_actions_are_offered_before_each_roll(house):
    """Offered in the manage window before the roll, again before the roll a double gives,
    and taken one at a time until Done."""
    tips = iter([True, False, True, False])

    def tip_or_done(game, seat, actions):
        if next(tips):
            return next(a for a in actions if type(a) is A.Act and a.label.startswith("Tip"))
        return actions[0]
    me, other = Script(Act=tip_or_done), Script()
    g = game(house, strategies=[me, other], dice=[(2, 2), (1, 2)], cash=500)
    place(g, 0, "go")
    g.play_turn(0)
    before = [e for e in g.events if e["type"] in ("action", "roll")]
    assert [e["type"] for e in before] == ["action", "roll", "action", "roll"]
    assert g.players[1].cash == 500 + 20
    assert all(type(acts[0]) is A.Done for acts in offered(me, "Tip"))


def test_before_roll_actions_are_not_offered_at_the_end_of_the_turn(house):
    me = Script()
    g = game(house, strategies=[me, Script()], dice=[(1, 2)], cash=500)
    place(g, 0, "go")
    g.take_turn(0, interpreter.translate.Ctx())
    first, last = me.offered[0], me.offered[-1]     # the manage window before the roll; the turn's end
    assert type(first[0]) is A.Done and spec_labels(first) == {"Tip", "Count"}
    assert spec_labels(last) == {"Count"}


def test_raising_actions_are_offered_to_a_debtor_and_pay_the_debt(house):
    """A player short of the $200 income tax is offered `beg` among the ways to raise money
    (and no Done: raising goes on while the debt is not covered); one beg covers the tax."""
    me = taking("Beg")
    g = game(house, strategies=[me, Script()], dice=[(2, 1)], cash=150)
    place(g, 0, sq(house, "income_tax") - 3)
    g.play_turn(0)
    begs = offered(me, "Beg")
    assert begs and not any(type(a) is A.Done for a in begs[0])
    assert len(begs) == 1 and not g.players[0].bankrupt
    assert g.players[0].cash == 150 + 100 - 200 and g.players[1].cash == 150 - 100


def test_raising_actions_are_not_offered_outside_a_debt(house):
    me = Script()
    g = game(house, strategies=[me, Script()], dice=[(1, 2)], cash=500)
    place(g, 0, "go")
    g.play_turn(0)
    assert not offered(me, "Beg")


def test_raising_actions_are_bounded_when_they_raise_nothing():
    """An action offered while raising money that raises nothing is offered a bounded number
    of times (the board's size per action, as at the end of a turn); then the debtor is bankrupt."""
    spec = HOUSE_RULES.replace("collect 100 from p", "").replace("allowed = p.cash >= 100", "allowed = yes")
    house = interpreter.load(grammar.compile_text(spec, "windows.rules"))
    me = taking("Beg")
    g = game(house, strategies=[me, Script()], dice=[(2, 1)], cash=50)
    place(g, 0, sq(house, "income_tax") - 3)
    g.play_turn(0)
    assert len(offered(me, "Beg")) == house.n
    assert g.players[0].bankrupt


def test_a_required_action_before_the_roll_leaves_out_done():
    """`required` means in every window what it means at the end of the turn: while it holds
    and the action is offered, Done is not."""
    spec = HOUSE_RULES.replace('"Tip" at before_roll {\n  allowed = me.cash >= 10',
                               '"Tip" at before_roll {\n  allowed = me.cash >= 10\n  required = me.cash >= 400')
    house = interpreter.load(grammar.compile_text(spec, "windows.rules"))
    me = Script()        # Done when offered, else the first action: the spec's first
    g = game(house, strategies=[me, Script()], dice=[(1, 2)], cash=405)
    place(g, 0, "go")
    g.play_turn(0)
    first, second = me.offered[:2]
    assert not any(type(a) is A.Done for a in first) and type(first[0]) is A.Act
    assert type(second[0]) is A.Done        # 395: no longer required
    assert g.players[0].cash == 405 - 10 and g.players[1].cash == 405 + 10


def test_games_with_actions_in_every_window_keep_the_invariants(house):
    for seed in range(6):
        played = interpreter.play(house, ["heuristic", "random", "random"], seed=seed, check_invariants=True)
        assert played.state.over
        replayed = interpreter.replay(house, json.loads(json.dumps(played.log())))
        assert replayed.state.to_json() == played.state.to_json()
