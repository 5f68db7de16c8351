"""RULES-MATRIX §1/§2: dice, turn order, doubles, GO salary and its limit."""
from __future__ import annotations

from tests.interpreter.conftest import (
    Dice,
    ctx,
    decision,
    deck_with_top,
    game,
    give,
    place,
    sq,
    squares_drawing,
    turn,
)


def salary(ed):
    return ed.settings["money"]["salary"]


def test_two_dice_move_clockwise(ed):
    """§1 Dice (SE 001, NL 003, US 002): the number of dice comes from settings; the
    token moves clockwise by their total; several tokens may share a square."""
    assert ed.dice == decision(ed, "game.dice")
    g = game(ed, dice=[(3, 4), (3, 4)])
    place(g, 0, "jail")
    place(g, 1, "jail")
    turn(g, 0)
    turn(g, 1)
    assert g.players[0].position == sq(ed, "jail") + 7 == g.players[1].position


def test_roll_off_highest_starts_then_clockwise(ed):
    """§1 Turn order (SE 001, NL 003, US 002): all roll, the highest starts, play passes
    clockwise; ties among the highest roll again."""
    g = game(ed, players=3)
    g.dice_source = Dice([(2, 3), (6, 6), (6, 6), (1, 2), (4, 5)])   # seats 1 and 2 tie, then 2 wins
    assert g.roll_off() == [2, 0, 1]


def test_double_acts_then_rolls_again(ed):
    """§1 Doubles (SE 001, NL 003, US 002): after a double the player acts on the square,
    then rolls again and moves."""
    g = game(ed, dice=[(3, 3), (1, 2)])
    place(g, 0, "jail")
    turn(g, 0)
    assert g.players[0].position == sq(ed, "jail") + 9
    assert [e["type"] for e in g.events].count("roll") == 2


def test_third_double_goes_to_jail(ed):
    """§1 Jail (SE 001, NL 003, US 002): the `game.doubles_to_jail`-th double in a row sends
    the player straight to jail, without moving, and the turn is over."""
    n = ed.doubles_to_jail
    g = game(ed, dice=[(1, 1), (2, 2), (3, 3), (4, 4)][:n])
    place(g, 0, "free_parking")
    for p in g.players:
        give(g, p.seat, 10_000)
    turn(g, 0)
    assert g.players[0].in_jail and g.players[0].position == ed.jail_square
    assert not g.dice_source.rolls


def test_go_salary_when_passing(ed):
    """§1 GO (SE 001, NL 003, US 002): salary when passing GO moving forward (the GO
    square's `on_pass`)."""
    g = game(ed, dice=[(1, 2)])
    place(g, 0, "dark_blue_1")
    before = g.players[0].cash
    turn(g, 0)
    assert g.players[0].position == (sq(ed, "dark_blue_1") + 3) % ed.n
    assert g.players[0].cash == before + salary(ed)


def test_go_salary_when_landing(ed):
    """§1 GO (SE 001 "hamnar på eller passerar", US 002): landing exactly on GO pays too."""
    g = game(ed, dice=[(1, 2)])
    place(g, 0, ed.n - 3)
    before = g.players[0].cash
    turn(g, 0)
    assert g.players[0].position == 0 and g.players[0].cash == before + salary(ed)


def test_advance_to_go_after_passing_pays_twice(ed):
    """§1 GO (SE 001, US 002): an "Advance to GO" card right after passing GO pays the
    salary twice in one turn (also under US `once_per_lap`: the card starts a new lap)."""
    chance = [s for s in squares_drawing(ed, "chance") if s < 10][0]
    g = game(ed, dice=[(4, 5)])
    start = (chance - 9) % ed.n
    assert start > chance
    place(g, 0, start)
    deck_with_top(g, "chance", lambda eff: eff and eff[0].get("stmt") == "move_to" and eff[0]["square"] in ("go", 0))
    before = g.players[0].cash
    turn(g, 0)
    assert g.players[0].position == 0
    assert g.players[0].cash == before + 2 * salary(ed)


def test_salary_limit(ed):
    """§2 GO salary limit (SE 001 every pass; US 002 "only once per trip round the
    board"): after going back over GO, passing it again pays under `every_pass`, not under
    `once_per_lap`."""
    g = game(ed)
    place(g, 0, ed.n - 1)
    before = g.players[0].cash
    g.move_steps(ctx(0), 0, 2)                 # passes GO: paid
    assert g.players[0].cash == before + salary(ed)
    g.move_by(ctx(0), -2)                      # back over GO: nothing
    assert g.players[0].cash == before + salary(ed)
    g.move_steps(ctx(0), 0, 2)                 # over GO again
    again = salary(ed) if decision(ed, "money.salary_limit") == "every_pass" else 0
    assert g.players[0].cash == before + salary(ed) + again


def test_backward_move_passes_nothing(ed):
    """§1 / language: a backward move (card "go back three spaces") runs no `on_pass`."""
    g = game(ed)
    place(g, 0, 1)
    before = g.players[0].cash
    g.move_by(ctx(0), -2)
    assert g.players[0].position == ed.n - 1 and g.players[0].cash == before


def test_go_to_jail_passes_nothing(ed):
    """§1 (SE 001, NL 003, US 002): "go to jail" never passes GO, no salary; the turn ends."""
    g = game(ed, dice=[(2, 3)])
    place(g, 0, sq(ed, "go_to_jail") - 5)
    before = g.players[0].cash
    turn(g, 0)
    assert g.players[0].in_jail and g.players[0].position == ed.jail_square and g.players[0].cash == before


def test_free_parking_does_nothing(ed):
    """§1 Free Parking (SE 001, NL 003, US 002): nothing happens."""
    g = game(ed, dice=[(2, 3)])
    place(g, 0, sq(ed, "free_parking") - 5)
    before = [p.cash for p in g.players]
    turn(g, 0)
    assert [p.cash for p in g.players] == before and g.players[0].position == sq(ed, "free_parking")
