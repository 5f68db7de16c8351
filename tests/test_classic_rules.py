"""The classic rules written in the language (issue #17): a rule of the family is the spec's
own definition, so a house rule is a small child edition with no Python change, its worked
example passes on the child and fails on the parent, and the booklet says what the
definition says."""
from __future__ import annotations

from pathlib import Path

import grammar
import interpreter
from rulebook.site import editions, pages
from verifier.examples import run_all

# A famous house rule (not in the sources): landing exactly on GO pays the salary twice.
# `on_pass` runs on landing too (SE 001 "hamnar på eller passerar"), so a landing's own
# `on_land` adds the second salary.
DOUBLE_ON_GO = """
board {
  square go { on_land { collect money.salary from bank } }
}
"""

# 001 "Att passera GÅ": landing on GO pays 4 000; under the house rule it pays 8 000.
LANDING_ON_GO = """
example landing_on_go "Landing exactly on GO pays the salary twice (a house rule)" {
  players anna, bo
  put anna on dark_blue_1
  turn anna rolls 1 2                   # dark_blue_1 (37) + 3: GO
  expect anna.cash == 30000 + 2 * 4000
}
"""


def edition(tmp_path: Path, name: str, parent: str, text: str) -> dict:
    path = tmp_path / f"{name}.rules"
    path.write_text(f"edition {name} extends {parent}\n{text}", encoding="utf-8")
    return grammar.compile_file(path)


def failed(ir: dict) -> list[str]:
    return [outcome.name for outcome in run_all(ir) if not outcome.passed]


def rules_page(tmp_path: Path, parent: str, text: str | None = None, lang: str = "en") -> str:
    """The booklet's rules page of `parent`, or of a child of it that adds `text`."""
    spec_id = parent
    if text is not None:
        path = tmp_path / "child.rules"
        path.write_text(f"edition child extends {parent}\n{text}", encoding="utf-8")
        spec_id = str(path)
    [built] = editions([spec_id], {})
    return pages(built)[f"{built.id}/{lang}/index.md"]


def test_a_house_rule_on_go_needs_no_python(tmp_path):
    """§1 GO (SE 001): the salary is paid by GO's own `on_pass`; a child that adds an
    `on_land` doubles it on landing, and its example fails on the parent. The parent's
    `card_to_go`, whose cards send the token exactly onto GO, fails on the child: the house
    rule pays it twice."""
    assert failed(edition(tmp_path, "double_go", "classic-se", DOUBLE_ON_GO + LANDING_ON_GO)) == ["card_to_go"]
    assert failed(edition(tmp_path, "plain_go", "classic-se", LANDING_ON_GO)) == ["landing_on_go"]


def test_the_salary_limit_is_the_specs_own_rule(tmp_path):
    """§2 GO salary limit (US 002 "kun modtage $200 for hver gang rundt om brættet"): the
    limit is written in spec/classic.rules with `me.laps` and a player number, so a child
    that decides `every_pass` is paid again on coming back round to a lap already paid for."""
    lap = """
example paid_again "Passing GO twice in one lap pays twice" {
  players anna, bo
  put anna on dark_blue_2
  set anna.salary_laps = 1              # as if paid for this lap, then gone back over GO
  turn anna rolls 1 3                   # past GO to Baltic Avenue (3)
  expect anna.cash == 1500 + 200
}
"""
    # the US example of the limit, inherited, fails once the child decides it away
    assert failed(edition(tmp_path, "every", "classic-us", "decide money.salary_limit = every_pass\n" + lap)) \
        == ["salary_once_per_lap"]
    assert failed(edition(tmp_path, "once", "classic-us", lap)) == ["paid_again"]


def test_the_booklet_says_what_the_go_rule_says(tmp_path):
    """Issue #17 item 4: the booklet's sentence for GO comes from its definition: the US
    once-per-lap rule says so, the Swedish every-pass rule does not, and a child's doubled
    salary on landing is printed as the child's rule."""
    def go_line(parent: str, lang: str, text: str | None = None) -> str:
        page = rules_page(tmp_path, parent, text, lang)
        return next(line for line in page.splitlines() if line.startswith(("**Go**", "**Gå**")))
    assert "once for each trip round the board" in go_line("classic-us", "en")
    assert "varv" not in go_line("classic-se", "sv")
    doubled = go_line("classic-se", "sv", DOUBLE_ON_GO)
    assert doubled.count("4 000 kr") == 2, doubled


# A house rule of the Done-when list of #17: rent on a mortgaged lot is half its printed
# rent instead of nothing. `rent.due` lets a mortgaged lot (not a station or utility) pay,
# and the lot formula halves it.
HALF_RENT = """
rent {
  due = not here.mortgaged or here.kind == lot
  lot =
    if here.mortgaged then printed[0] / 2
    else if level > 0 then printed[level]
    else if complete and mortgaged_in_group == 0 then printed[0] * 2
    else printed[0]
}
"""

# 001 "Hyra": Hornsgatan's printed rent is 80; mortgaged, the house rule takes half.
MORTGAGED_LOT = """
example half_rent "A mortgaged lot pays half its printed rent (a house rule)" {
  players anna, bo
  give brown_2 to anna
  mortgage brown_2
  turn bo rolls 1 2                     # GO + 3: Hornsgatan, mortgaged
  expect bo.cash == 30000 - 40 and anna.cash == 30000 + 40
}
"""


def test_rent_on_a_mortgaged_lot_is_a_house_rule(tmp_path):
    """§1 (SE 001 "Intecknad egendom ger ingen hyra"): no rent on a mortgaged deed is the
    spec's `rent.due`; a child that makes a mortgaged lot pay half needs no Python, and its
    example fails on the parent, where a mortgaged lot pays nothing (and the parent's own
    example of that rule fails on the child)."""
    assert failed(edition(tmp_path, "half", "classic-se", HALF_RENT + MORTGAGED_LOT)) == ["no_rent_when_mortgaged"]
    assert failed(edition(tmp_path, "none", "classic-se", MORTGAGED_LOT)) == ["half_rent"]


def test_the_booklet_says_when_rent_is_due(tmp_path):
    """Issue #17 item 4: the booklet's sentences on rent due come from `rent.due`: the
    classic rule (§1: none on a mortgaged deed, a jailed owner still collects), a house rule
    that stops rent while the owner is in jail, and any other condition, said in words."""
    def page(text: str | None) -> str:
        return rules_page(tmp_path, "classic-se", text)
    classic = page(None)
    assert "A mortgaged property pays no rent." in classic
    assert "In jail you still collect rent" in classic
    jailed = page("rent { due = not here.mortgaged and not owner.in_jail }\n")
    assert "nor does any property while its owner is in jail" in jailed
    assert "In jail you collect no rent." in jailed and "still collect rent" not in jailed
    half = page(HALF_RENT)
    assert "Rent is due only when" in half and "A mortgaged property pays no rent." not in half
    assert "In jail you still collect rent" in half


# A house rule of the Done-when list of #17: no buying property until you have passed GO
# once. `buy.may` adds the lap to the classic cash condition, and `auction.on_decline` keeps
# the deed with the bank on the first lap, so nobody else buys it at auction either.
FIRST_LAP = """
buy {
  may = me.cash >= here.price and me.laps >= 1
}
auction {
  on_decline = me.laps >= 1
}
"""

# 002 "Køb af ejendom": Baltic Avenue costs $60; under the house rule, before passing Go,
# anna may not buy it and nobody bids for it.
NOT_BEFORE_GO = """
example not_before_go "No property is bought before its lander has passed Go once (a house rule)" {
  players anna, bo
  turn anna rolls 1 2 and buys          # Baltic Avenue (3), on anna's first lap
  expect count(d in deeds: d.owner != bank) == 0 and anna.cash == 1500
}
"""


def test_no_buying_before_passing_go_is_a_house_rule(tmp_path):
    """§1 buying (US 002 "Køb af ejendom"): when the lander may buy is the spec's `buy.may`,
    and when a deed not bought is auctioned is `auction.on_decline`; a child that allows
    neither before the lander's first pass of Go needs no Python, and its example fails on
    the parent, where anna buys Baltic Avenue for $60."""
    assert failed(edition(tmp_path, "first_lap", "classic-us", FIRST_LAP + NOT_BEFORE_GO)) == []
    assert failed(edition(tmp_path, "plain", "classic-us", NOT_BEFORE_GO)) == ["not_before_go"]


def test_the_booklet_says_when_a_deed_may_be_bought(tmp_path):
    """Issue #17 item 4: the booklet's buying sentences come from `buy.may` and
    `auction.on_decline`: the classic cash rule by its own sentence, and a house rule's
    conditions in words."""
    def page(text: str | None) -> str:
        return rules_page(tmp_path, "classic-us", text)
    classic = page(None)
    assert "You may buy it only if you have that much cash" in classic
    assert "the banker auctions it at once to the highest bidder. Bidding" in classic
    first_lap = page(FIRST_LAP)
    assert "You may buy it only when" in first_lap and "only if you have that much cash" not in first_lap
    assert "auctions it at once to the highest bidder, but only when" in first_lap
    assert "auctions it" not in page("auction { on_decline = no }\n")


# A house rule: lifting a mortgage costs 20 % interest, and the new holder of a mortgaged
# deed pays 5 % of its value to keep the mortgage.
DEARER_MORTGAGES = """
mortgage {
  lift = here.mortgage + here.mortgage * 20%
  transfer = here.mortgage * 5%
}
"""

# 001 "Inteckningar": bo buys anna's mortgaged station (mortgage value 2 000) and keeps the
# mortgage: 10 % (200) under the rule book, 5 % (100) under the house rule.
KEEPS_FOR_5 = """
example keeps_for_5 "A mortgaged deed changes hands for 5% of its value (a house rule)" {
  players anna, bo
  give station_1 to anna
  mortgage station_1
  turn anna sells station_1 to bo for 1000 and rolls 1 2
  expect bo.cash == 30000 - 1000 - 100
}
"""


def test_what_a_mortgage_costs_is_the_specs(tmp_path):
    """§1 mortgages (SE 001 "Inteckningar": lifting costs the mortgage value plus 10 %
    interest; the new holder of a mortgaged deed lifts it or pays 10 % now): the amounts are
    `mortgage.lift` and `mortgage.transfer`. A child charging 20 % and 5 % needs no Python:
    the game charges them (the parent's example of a sale fails on it, the child's passes
    and fails on the parent), and the booklet says them; an amount of another form is said
    in words."""
    ir = edition(tmp_path, "dearer", "classic-se", DEARER_MORTGAGES + KEEPS_FOR_5)
    station = interpreter.load(ir).square_index["station_1"]
    assert interpreter.load(ir).unmortgage_cost[station] == 2000 + 400
    assert failed(ir) == ["sell_mortgaged_deed", "lift_mortgage", "keep_then_lift"]
    assert failed(edition(tmp_path, "plain", "classic-se", KEEPS_FOR_5)) == ["keeps_for_5"]
    page = rules_page(tmp_path, "classic-se", DEARER_MORTGAGES)
    assert "pay the bank the mortgage value plus 20% interest." in page
    assert "paying the mortgage value plus 20%, or pays 5% of it now" in page
    worded = rules_page(tmp_path, "classic-se", "mortgage { lift = here.mortgage * 120% + 500 }\n")
    assert "To lift the mortgage, pay the bank the mortgage value of the property × 120% plus 500 kr." in worded


def test_what_the_bank_pays_for_buildings_is_the_specs(tmp_path):
    """§1 selling buildings (SE 001 "Att sälja egendom": back to the bank "för halva det
    värde som står angivet på lagfartsbeviset"): the amounts are `building.sell_house`,
    `sell_hotel` and `trade_hotel`. A child whose houses sell back at 40 % gets the new
    share in the booklet, and its hotel, still at half, is said in words (§2's sentences name
    one share for both); the game pays the child's amount."""
    text = "building { sell_house = here.house_cost * 40% }\n"
    page = rules_page(tmp_path, "classic-se", text)
    assert "at 40% of what they cost" in page and "at 50% of what they cost" not in page
    assert "For a hotel sold back whole the bank pays (the hotel price of the lot plus 4 × the house price of " \
           "the lot) × 50%." in page
    parent = rules_page(tmp_path, "classic-se")
    assert "For a hotel the bank pays 50% of the hotel price plus 50% of the price of the 4 houses" in parent
    ir = edition(tmp_path, "cheaper", "classic-se", text)
    assert failed(ir) == ["sell_houses"]


# A house rule: a player in jail may not build, nor lift a mortgage.
NO_BUILDING_IN_JAIL = """
building {
  may = all(d in here.group.deeds: d.owner == me) and not any(d in here.group.deeds: d.mortgaged) and not me.in_jail
}
mortgage {
  may_lift = not me.in_jail
}
"""

# 001 "Fängelse": a jailed player may still build ("bygga på de egendomar du äger", of the
# visitor; the rule books let a prisoner trade and build); under the house rule anna may not.
JAILED_BUILDER = """
example jailed_builder "A player in jail may not build (a house rule)" {
  players anna, bo
  give brown_1, brown_2 to anna
  jail anna
  turn anna builds houses and rolls 1 2   # a failed try at a double: still in jail
  expect houses(anna) == 0 and anna.in_jail
}

example jailed_lifter "A player in jail may not lift a mortgage (a house rule)" {
  players anna, bo
  give station_1 to anna
  mortgage station_1
  jail anna
  turn anna rolls 1 2 and lifts           # a failed try at a double: still in jail
  expect count(d in anna.deeds: d.mortgaged) == 1 and anna.cash == 30000
}
"""


def test_who_may_build_is_the_specs(tmp_path):
    """§1 houses (SE 001 "Hus": "När du väl äger alla egendomarna i en färggrupp kan du köpa
    hus", "Du får inte bygga några hus om någon av tomterna i samma färggrupp är intecknad"):
    when a player may build is `building.may`, and when they may lift a mortgage
    `mortgage.may_lift` (001 "Inteckningar": whenever they pay it back). A child where a
    player in jail may do neither needs no Python: its examples pass on it and fail on the
    parent, where anna builds, and lifts, before her try at a double; the booklet says the
    classic parts by their sentences, the new parts in words, and no longer that a prisoner
    may build."""
    ir = edition(tmp_path, "jailed", "classic-se", NO_BUILDING_IN_JAIL + JAILED_BUILDER)
    assert failed(ir) == []
    assert failed(edition(tmp_path, "plain", "classic-se", JAILED_BUILDER)) == ["jailed_builder", "jailed_lifter"]
    page = rules_page(tmp_path, "classic-se", NO_BUILDING_IN_JAIL)
    assert "When you own every lot of a colour group, you may buy houses" in page
    assert "You cannot build while any lot of the group is mortgaged." in page
    assert "You may build on a lot only when you are not in jail." in page
    assert "In jail you still collect rent, and you may trade." in page
    assert "You may lift a mortgage only when you are not in jail." in page
    parent = rules_page(tmp_path, "classic-se")
    assert "You may build on a lot only when" not in parent and "You may lift a mortgage only" not in parent
    assert "In jail you still collect rent, and you may trade and build." in parent


def test_the_booklet_says_who_may_build_and_mortgage(tmp_path):
    """Issue #17 item 4: the building and mortgage sentences come from `building.may` and
    `mortgage.may`, each part matched by its shape, whatever its variable is called: a
    child without the mortgage part drops that sentence, one that lets a player build on any
    lot says so, and one that mortgages anything says that."""
    renamed = "building { may = all(x in here.group.deeds: x.owner == me) }\n"
    page = rules_page(tmp_path, "classic-se", renamed)
    assert "When you own every lot of a colour group" in page
    assert "You cannot build while any lot of the group is mortgaged." not in page
    anywhere = rules_page(tmp_path, "classic-se", "building { may = yes }\nmortgage { may = yes }\n")
    assert "You may buy houses from the bank for any lot you own" in anywhere
    assert "You may mortgage any property you own, built or not." in anywhere
    unbuilt_lot = rules_page(tmp_path, "classic-se", "mortgage { may = here.level == 0 }\n")
    assert "You may mortgage a property you own when" in unbuilt_lot
    assert "You may mortgage a property that has no buildings" not in unbuilt_lot


def test_which_deeds_may_be_mortgaged_is_the_specs(tmp_path):
    """§1 mortgages (SE 001 "Inteckningar": "måste du först sälja av alla byggnader"): which
    deeds may be mortgaged is `mortgage.may`. A child that lets a built lot be mortgaged
    needs no Python: the parent's example of a refused mortgage fails on it."""
    ir = edition(tmp_path, "anything", "classic-se", "mortgage { may = yes }\n")
    assert failed(ir) == ["no_mortgage_on_a_built_lot"]
