"""Example coverage (docs/verifier.md, "Example coverage"): what the worked examples exercise
of each bundled edition and variant, measured by playing them on a watched edition, and
the minimums CI holds each target to."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import grammar
import interpreter
import spec
from boardrules.cli import main
from boardrules.editions import load, variant_targets
from grammar.lookup import concrete_editions
from verifier.coverage import CATEGORIES, READ_INTO, _Watch, _Watched, items, measure
from verifier.examples import _played
from verifier.verify import proofs

# The least each target's examples exercise, per category: ALL for every item (cards,
# decided rules and actions, where the example language reaches them), else a count
# measured when the examples were written (docs/verifier.md, "Example coverage").
# Not reached, and why: `end.sits_out` (only the game loop
# asks it; an example plays its turns itself); under `jackpot` the edition's examples
# that pay the bank are left out, and the variant has too few of its own.
ALL = "all"
MINIMUMS: dict[str, dict[str, int | str]] = {
    "classic-nl": {"settings": 15, "decided": 6, "squares": ALL, "cards": ALL, "actions": ALL, "ends": ALL},
    "classic-se": {"settings": 28, "decided": ALL, "squares": ALL, "cards": ALL, "actions": ALL, "ends": ALL},
    "classic-us": {"settings": 20, "decided": 6, "squares": ALL, "cards": ALL, "actions": ALL, "ends": ALL},
    "metropol-da": {"settings": 13, "decided": ALL, "squares": ALL, "cards": ALL, "actions": ALL, "ends": 1},
    "wonders-se": {"settings": 28, "decided": ALL, "squares": ALL, "cards": ALL, "actions": ALL, "ends": ALL},
    "classic-nl+deal-all": {"settings": 15, "decided": 6, "squares": ALL, "cards": ALL, "actions": ALL, "ends": ALL},
    "metropol-da+fewer-blocks": {"settings": 13, "decided": ALL, "squares": ALL, "cards": ALL, "actions": ALL,
                                 "ends": 1},
    "classic-nl+jackpot": {"settings": 14, "decided": 3, "squares": 7, "cards": 11, "actions": ALL, "ends": ALL},
    "classic-nl+short": {"settings": 15, "decided": 6, "squares": ALL, "cards": ALL, "actions": ALL, "ends": ALL},
    "classic-nl+timed": {"settings": 15, "decided": 6, "squares": ALL, "cards": ALL, "actions": ALL, "ends": ALL},
}
TARGETS = [(eid, ()) for eid in concrete_editions()] + [(eid, (v,)) for eid, v in variant_targets()]


def compiled(eid: str) -> dict:
    return grammar.compile_file(spec.bundled()[eid])


def examples_named(ir: dict, *names: str) -> list[dict]:
    return [x for x in ir["examples"] if x["name"] in names]


@pytest.mark.parametrize(("eid", "laid"), TARGETS, ids=["+".join((e, *v)) for e, v in TARGETS])
def test_each_target_meets_its_minimums(eid, laid):
    """CI's bar: every bundled edition and variant reaches its minimum in each category (the
    examples that hold, under variants those the variants leave valid, as `verify` counts)."""
    report = proofs(load(eid, laid).ir, eid, prove=False)
    coverage = report.coverage
    assert coverage is not None and not report.failed
    minimums = MINIMUMS[report.edition]
    for category in CATEGORIES:
        least = len(coverage.items[category]) if minimums[category] == ALL else minimums[category]
        assert len(coverage.by[category]) >= least, \
            f"{report.edition}: {category} {len(coverage.by[category])} < {least}; uncovered: " \
            f"{coverage.uncovered(category)}"


def test_every_target_has_minimums():
    """A new bundled edition or variant gets its minimums written here."""
    assert sorted(MINIMUMS) == sorted("+".join((e, *v)) for e, v in TARGETS)


def test_a_card_is_exercised_when_drawn():
    """001 (Att hamna på Chans eller på Allmänning): a card is exercised by the example that
    draws it, and only that card of the deck."""
    ir = compiled("classic-se")
    coverage = measure(ir, examples_named(ir, "card_poor_tax"))
    assert list(coverage.by["cards"]) == ["chance:11"]
    assert ir["decks"][0]["cards"][11]["text"] == "Betala fattigskatt 300 kr"
    assert coverage.by["squares"] == {"chance_1: on_land": "card_poor_tax"}
    assert len(coverage.uncovered("cards")) == 31


def test_a_setting_is_exercised_when_the_play_reads_it():
    """001 (Fängelse): paying the fine reads `jail.fine` (an attribute the engine reads),
    and the rent example reads no jail setting; `money.start` is read by every example's
    start money."""
    ir = compiled("classic-se")
    fine = measure(ir, examples_named(ir, "jail_fine"))
    rent = measure(ir, examples_named(ir, "rent"))
    assert "jail.fine" in fine.by["settings"] and "jail.fine" not in rent.by["settings"]
    assert "trade.jail_cards" not in rent.by["settings"]       # the manage window's menu is not the play
    assert "money.start" in fine.by["settings"] and "money.start" in rent.by["settings"]
    assert "jail.fine_timing" in fine.by["decided"] and "jail.fine_timing" not in rent.by["decided"]


def test_a_guard_of_the_menu_is_exercised_by_an_example_that_asks_for_its_step():
    """001 (Hus, Inteckningar): the manage window's menu is not the play, but a player who
    asks to build (`builds houses`) sees only the houses `building.may` allows, refused or
    not; an example that asks for nothing, or for another step, does not exercise it."""
    ir = compiled("classic-se")
    refused = measure(ir, examples_named(ir, "no_houses_on_half_a_group"))
    mortgaged = measure(ir, examples_named(ir, "mortgage_a_deed"))
    rent = measure(ir, examples_named(ir, "rent"))
    assert "building.may" in refused.by["settings"] and "mortgage.may" not in refused.by["settings"]
    assert "mortgage.may" in mortgaged.by["settings"] and "building.may" not in mortgaged.by["settings"]
    assert "building.may" not in rent.by["settings"] and "mortgage.may" not in rent.by["settings"]


def test_a_decided_rule_named_in_a_compiled_rule_is_exercised_when_it_runs():
    """001 (Att hamna på egendom ...; Att passera GÅ): the lot rent formula names
    `rent.mortgaged_group`, GO's `on_pass` names `money.salary_limit` and `money.salary`;
    each is exercised by the example that runs the rule, not by one that does not."""
    ir = compiled("classic-se")
    rent = measure(ir, examples_named(ir, "double_rent"))
    salary = measure(ir, examples_named(ir, "salary"))
    assert "rent.mortgaged_group" in rent.by["decided"] and "rent.mortgaged_group" not in salary.by["decided"]
    assert "money.salary_limit" in salary.by["decided"] and "money.salary" in salary.by["settings"]
    assert "money.salary" not in rent.by["settings"]
    assert salary.by["squares"] == {"go: on_pass": "salary"}


def test_an_end_condition_is_exercised_when_it_holds():
    """001 (Att vinna spelet): `end.over` is asked after every turn, and exercised only by
    the example in which it holds."""
    ir = compiled("classic-se")
    assert measure(ir, examples_named(ir, "last_player_left")).by["ends"] == {"end.over": "last_player_left"}
    assert measure(ir, examples_named(ir, "rent")).by["ends"] == {}


def test_a_spec_action_is_exercised_when_taken():
    """004 p. 11 (BYGGERET): metropol-da's `build_block` action is exercised by the example in
    which a player builds at the end of the turn, not by one that only lands."""
    ir = compiled("metropol-da")
    assert measure(ir, examples_named(ir, "two_blocks_at_turn_end")).by["actions"] == \
        {"build_block": "two_blocks_at_turn_end"}
    assert measure(ir, examples_named(ir, "court")).by["actions"] == {}


@pytest.mark.parametrize("eid", ["classic-se", "metropol-da"])
def test_the_watched_edition_plays_as_the_plain_one(eid):
    """Watching changes nothing of the play: every example makes the same events, ends in
    the same state and holds as it does on a plain edition."""
    ir = compiled(eid)
    plain, watched = interpreter.load(ir), _Watched(ir, _Watch(), {})
    for example in ir["examples"]:
        (was, old, end), (now, new, later) = _played(plain, example), _played(watched, example)
        assert (was.passed, was.why) == (now.passed, now.why) and old == new and end == later, example["name"]


def test_the_items_are_the_editions():
    """Each category lists what the edition has: classic-se's 8 decided rules, 10 squares
    with effects (GO's `on_pass`, the decks' and taxes' `on_land`), its 32 cards, no spec
    action, `end.over`; display-only settings (the currency, the notes) are not items."""
    found = items(compiled("classic-se"))
    assert len(found["decided"]) == 8 and len(found["squares"]) == 10 and len(found["cards"]) == 32
    assert found["actions"] == {} and list(found["ends"]) == ["end.over"]
    assert "money.currency" not in found["settings"] and "money.notes" not in found["settings"]
    assert "jail.fine" in found["settings"] and "rent.due" in found["settings"]


def test_read_into_names_real_attributes():
    """Every attribute of `READ_INTO` is one the interpreter's Edition has."""
    assert set(READ_INTO) <= set(interpreter.Edition.__slots__)


def test_verify_json_carries_the_lists(tmp_path):
    """`verify --json` gives per category the total, the count covered, each item exercised
    (with the first example that does) and each item not exercised."""
    result = CliRunner().invoke(main, ["verify", "classic-se", "--no-prove", "--examples", "1", "--json",
                                       "--traces", str(tmp_path)])
    assert result.exit_code == 0, result.output
    coverage = json.loads(result.output)["editions"][0]["coverage"]
    assert coverage["cards"]["total"] == 32 and coverage["cards"]["covered"] == 32
    assert {"item": "chance:11", "example": "card_poor_tax"} in coverage["cards"]["exercised"]
    assert {"item": "trade.jail_cards", "what": "trade.jail_cards"} in coverage["settings"]["uncovered"]
    assert coverage["decided"]["uncovered"] == [] and coverage["examples"] == 53


def test_verify_lists_what_is_not_exercised(tmp_path):
    """The terminal report's coverage line, and the uncovered items named under it."""
    result = CliRunner().invoke(main, ["verify", "classic-se", "--no-prove", "--examples", "1",
                                       "--traces", str(tmp_path)])
    assert "example coverage (53 examples that hold): settings 28/35, decided rules 8/8, squares with effects " \
           "10/10, cards 32/32, end conditions 1/1" in result.output
    assert "not exercised, settings: game.start," in result.output and "trade.jail_cards" in result.output
    assert "not exercised, decided rules" not in result.output
