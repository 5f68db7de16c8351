"""Malformed specs: each gives its stable code at the right place, rendered for people.

DESIGN principle 8 (errors are for people): every case asserts the code, the line and
column of the first error, and the whole rendered text against a snapshot in
snapshots/<case>.txt. Refresh the snapshots with UPDATE_SNAPSHOTS=1 and review the
diff by eye.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

import grammar
from grammar import SpecError
from spec import bundled, bundled_variants

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOTS = Path(__file__).with_name("snapshots")
US = bundled()["classic-us"].read_text(encoding="utf-8")
# A concrete child of the complete US edition: a case adds one broken item to it.
CHILD = "edition x extends classic-us\n"


@dataclass(frozen=True)
class Case:
    name: str
    rule: str        # the rule of the language (or DESIGN principle) the case checks
    text: str
    code: str
    line: int
    column: int
    variants: tuple[str, ...] = ()   # bundled variants laid over the text


def without(line: str) -> str:
    """The US edition with one line taken out (to break completeness)."""
    assert US.count(line) == 1, line
    return US.replace(line, "")


CASES = [
    # ---- E1xx: reading and syntax
    Case("syntax_missing_equals", "a setting is `KEY = value`",
         CHILD + "jail { fine 50 }\n", "E103", 2, 13),
    Case("syntax_upper_case", "names are lower-case", CHILD + "jail { Fine = 50 }\n", "E102", 2, 8),
    Case("syntax_end_of_file", "every `{` is closed", CHILD + "jail { fine = 50\n", "E104", 2, 17),
    Case("syntax_no_header", "a file starts with `edition ID`", "jail { fine = 50 }\n", "E103", 1, 1),
    Case("syntax_pay_without_party", "`pay EXPR to PARTY` names the payee",
         CHILD + 'deck chance { card "Tax" { pay 50 } }\n', "E103", 2, 35),
    Case("syntax_single_quotes", "texts are in double quotes",
         CHILD + "about { title = 'Monopoly' }\n", "E102", 2, 17),
    Case("long_line", "a long line is cut around the caret, the caret under its place (issue #19)",
         CHILD + "end { over = " + "1 + " * 300 + "@ }\n", "E102", 2, 1214),
    Case("unclosed_brace", "every `{` is closed: told at the brace, not at the next section (issue #19)",
         CHILD + "jail {\n  fine = 50\nmoney {\n  start = 1500\n}\n", "E106", 2, 6),
    Case("unclosed_brace_in_board", "every `{` is closed: the one whose indentation the next line matches",
         CHILD + 'board {\n  lot brown_1 { price = 60\n  lot brown_2 { price = 60 }\n}\n', "E106", 3, 15),
    Case("unclosed_brace_no_brace_after", "every `{` is closed: told at the brace with no brace after the error",
         CHILD + "jail {\n  fine = 50\nmoney start\n", "E106", 2, 6),
    Case("decimal_amount", "amounts are whole numbers (issue #19)",
         CHILD + "money { start = 1200.50 }\n", "E103", 2, 17),
    Case("keyword_misspelt", "a misspelt keyword is named (issue #19)",
         CHILD + "decid jail.fine_timing = next_turn\n", "E103", 2, 1),
    Case("block_keyword_misspelt", "a misspelt block keyword is named (issue #19)",
         CHILD + "board { square go { on_lands { pay 1 to bank } } }\n", "E103", 2, 21),
    Case("syntax_too_deep", "deep nesting is told where it gets too deep (issue #19)",
         CHILD + "auction { on_decline = " + "not " * 3000 + "yes }\n", "E105", 2, 412),
    Case("blocks_too_deep", "deep nesting is told where it gets too deep (issue #19)",
         CHILD + "when land(s) {\n" + "if yes {\n" * 300 + "}\n" * 301, "E105", 51, 4),
    # ---- E2xx: names
    Case("step_unknown_kind", "a step property names a kind of step the engine runs (E219, issue 18 item 1)",
         CHILD + 'step fee "buying costs the price" on bye = me.cash <= old(me.cash)\n', "E219", 2, 38),
    Case("step_square_without_rules", "a `land` step names a square with `on_land` rules (E219, issue 18)",
         CHILD + 'step go_land "landing on GO" on land(go) = yes\n', "E219", 2, 38),
    Case("step_unknown_deck", "a `card` step names a deck of the edition (E219, issue 18)",
         CHILD + 'step cards "cards" on card(chanse) = yes\n', "E219", 2, 28),
    Case("step_without_its_square", "a `pass` step names its square (E219, issue 18)",
         CHILD + 'step salary "salary" on pass = yes\n', "E219", 2, 25),
    Case("old_outside_a_step", "`old(e)` is read in a step property only (E311, issue 18 item 1)",
         CHILD + 'invariant rich "richer than before" = all(p in players: p.cash >= old(p.cash))\n', "E311", 2, 67),
    Case("old_inside_old", "the operand of `old` is in the state before already (E311, issue 18)",
         CHILD + 'step pay "pays" on buy = old(me.cash - old(me.cash)) == 0\n', "E311", 2, 40),
    Case("step_name_taken", "a step property's name is not an invariant's (E211, issue 18)",
         CHILD + 'step positions "mine" on buy = yes\n', "E211", 2, 6),
    Case("child_adds_square", "a child cannot add squares (E201)",
         CHILD + 'board { lot brown_3 "Extra" { group = brown } }\n', "E201", 2, 13),
    Case("child_adds_group", "a child cannot add groups (E201)",
         CHILD + 'group purple { kind = lot }\n', "E201", 2, 7),
    Case("remove_unknown_deck", "a child removes only what its parent has (E201, issue 24)",
         CHILD + "remove deck chst\n", "E201", 2, 13),
    Case("removed_deck_still_drawn", "a removed deck is drawn nowhere: told at the draw, naming the `remove`",
         CHILD + "remove deck chest\nboard {\n  square chest_1 { on_land { draw chance } }\n"
         "  square chest_2 { on_land { draw chest } }\n  square chest_3 { on_land { draw chance } }\n}\n",
         "E205", 5, 35),
    Case("unknown_parent", "the parent is `<id>.rules` beside the file or bundled",
         "edition x extends clasic-us\n", "E202", 1, 19),
    Case("unknown_square_in_card", "`move to` names a square of the board",
         CHILD + 'deck chance "Chance" { card "Go" { move to go_to_jial } }\n', "E203", 2, 44),
    Case("unknown_square_in_setting", "`game.start` names a square",
         CHILD + "game { start = goo }\n", "E203", 2, 16),
    Case("unknown_square_unlike_any", "with no name close, the hint lists the board's first squares (issue #19)",
         CHILD + "game { start = zzzzq }\n", "E203", 2, 16),
    Case("unknown_group_unlike_any", "with no name close, the hint lists the groups of the deed's kind (issue #19)",
         CHILD + 'board { lot brown_1 { group = qqqq } }\n', "E204", 2, 31),
    Case("unknown_group_in_advance", "`advance to nearest` names a group",
         CHILD + 'deck chance "Chance" { card "Ride" { advance to nearest station } }\n', "E204", 2, 57),
    Case("unknown_group_of_deed", "a deed's `group` names a group",
         CHILD + 'board { lot brown_1 { group = browm } }\n', "E204", 2, 31),
    Case("unknown_deck", "`draw` names a deck",
         CHILD + 'board { square chest_1 { on_land { draw chests } } }\n', "E205", 2, 41),
    Case("unknown_section", "sections are the language's",
         CHILD + "monye { start = 1500 }\n", "E206", 2, 1),
    Case("unknown_setting", "setting keys are the language's",
         CHILD + "jail { fien = 50 }\n", "E207", 2, 8),
    Case("contested_rule_as_setting", "DESIGN principle 7: a contested rule is decided with `decide`",
         CHILD + "jail { fine_timing = next_turn }\n", "E207", 2, 8),
    Case("unknown_setting_in_expression", "`SECTION.KEY` in an expression names a setting",
         CHILD + 'board { square luxury_tax { on_land { pay jail.fien to bank } } }\n', "E207", 2, 48),
    Case("unknown_formula", "a call names a formula or builtin",
         CHILD + 'board { square luxury_tax { on_land { pay welth(me) to bank } } }\n', "E208", 2, 43),
    Case("unknown_aggregate", "aggregates are sum count max min any all",
         CHILD + "end { over = cnt(p in players: not p.bankrupt) <= 1 }\n", "E208", 2, 14),
    Case("name_out_of_place", "rent names are available in rent formulas only",
         CHILD + 'board { square luxury_tax { on_land { pay level * 10 to bank } } }\n', "E209", 2, 43),
    Case("die_outside_a_throw", "`die(N)` reads the current throw: where `dice` is (issue 24)",
         CHILD + 'invariant first_die "a die" = die(1) >= 0\n', "E209", 2, 31),
    Case("unknown_party", "a party is bank, me, owner or a loop variable",
         CHILD + 'board { square luxury_tax { on_land { pay 75 to banker } } }\n', "E209", 2, 49),
    Case("unknown_enum_option", "an enum setting takes one of its options",
         CHILD + "money { rounding = upp }\n", "E210", 2, 20),
    Case("decide_unknown_option", "DESIGN principle 7: a decision picks one of the contested options",
         CHILD + "decide jail.fine_timing = before_rol\n", "E210", 2, 27),
    Case("compare_unknown_option", "an option compared with a decision must be one of its options",
         CHILD + "end { over = rent.mortgaged_group == no_doubl }\n", "E210", 2, 38),
    Case("duplicate_setting", "a file gives each setting once",
         CHILD + "jail { fine = 50 fine = 60 }\n", "E211", 2, 18),
    Case("duplicate_formula", "a file gives each formula once",
         CHILD + "formula tax(p) = p.cash\nformula tax(p) = p.cash\n", "E211", 3, 9),
    Case("duplicate_invariant", "an invariant's name is new: the prelude's are taken",
         CHILD + 'invariant positions "mine" = yes\n', "E211", 2, 11),
    Case("invariant_unknown_name", "an invariant reads the state's names (docs/language.md)",
         CHILD + 'invariant stock "houses add up" = houses_in_bnak >= 0\n', "E209", 2, 35),
    Case("fact_in_a_rule", "issue 18 item 3: a rule plays by its setting; `fact` is for invariants and step "
         "properties", CHILD + "board { square luxury_tax { on_land { pay fact(jail.fine) to bank } } }\n",
         "E209", 2, 43),
    Case("fact_of_no_setting", "issue 18 item 3: `fact` takes a setting",
         CHILD + 'invariant cash "cash" = all(p in players: p.cash <= fact(p.cash))\n', "E305", 2, 53),
    Case("fact_of_a_yes_no_setting", "issue 18 item 3: a fact is a number the source prints",
         CHILD + 'invariant even "even" = fact(building.even)\n', "E301", 2, 30),
    Case("fact_of_an_unknown_setting", "issue 18 item 3: a `fact` states a setting's number",
         CHILD + 'fact bank.house = 32 "32 hus"\n', "E207", 2, 11),
    Case("fact_of_an_amount", "issue 18 item 3: a fact is a whole number",
         CHILD + 'fact mortgage.lift = 110 "inteckningssumman plus 10% ränta"\n', "E301", 2, 22),
    Case("mortgage_lift_reads_the_owner", "§1: lifting costs the mortgage value plus interest, one amount a deed",
         CHILD + "mortgage { lift = here.mortgage + here.owner.cash }\n", "E214", 2, 40),
    Case("mortgage_lift_calls_a_formula", "§1: what lifting costs is printed on the deed, not read from the game",
         CHILD + "formula fee() = count(p in players: p.in_jail)\nmortgage { lift = here.mortgage + fee() }\n",
         "E301", 3, 19),
    Case("invariant_not_a_bool", "an invariant is a yes/no expression",
         CHILD + 'invariant cash "total cash" = sum(p in players: p.cash)\n', "E301", 2, 31),
    Case("invariant_unknown_attribute", "a group's attributes are deeds and uneven",
         CHILD + 'invariant built "groups are built" = all(g in groups: g.level > 0)\n', "E214", 2, 57),
    Case("decide_unknown_rule", "DESIGN principle 7: only a contested rule is decided",
         CHILD + "decide jail.fine_timin = before_roll\n", "E213", 2, 8),
    Case("unknown_attribute", "player attributes are cash deeds bankrupt in_jail position",
         CHILD + "formula rich(p) = p.cassh > 1000\n", "E214", 2, 21),
    # ---- E3xx: types and values
    Case("pay_a_bool", "`pay` moves an amount of money", CHILD +
         'board { square luxury_tax { on_land { pay yes to bank } } }\n', "E301", 2, 43),
    Case("player_plus_int", "arithmetic works on numbers", CHILD +
         'board { square luxury_tax { on_land { pay me + 1 to bank } } }\n', "E301", 2, 43),
    Case("enum_compared_with_int", "an option is compared with options only", CHILD +
         "end { over = rent.mortgaged_group == 3 }\n", "E301", 2, 14),
    Case("sum_over_a_number", "aggregates range over a finite set", CHILD +
         "formula total(p) = sum(d in p.cash: d)\n", "E301", 2, 29),
    Case("if_branches_differ", "both branches of `if` give the same kind of value", CHILD +
         "formula odd(p) = if p.in_jail then p.cash else p.bankrupt\n", "E301", 2, 18),
    Case("setting_wrong_kind", "a setting takes a value of its key's kind",
         CHILD + 'money { start = "1500" }\n', "E302", 2, 17),
    # Found by the fuzz test (tests/fuzz): a raise of 0 never ends an auction, and a die of
    # 10^40 faces never finishes the engine's table of throws; both passed `check` and hung `play`.
    Case("auction_raise_of_nothing", "every raise of an auction raises the bid",
         CHILD + "auction { raises = [0, 5] }\n", "E302", 2, 20),
    Case("die_with_too_many_faces", "a die has at most `MOST_DIE_FACES` faces (docs/language.md)",
         CHILD + "game { die_faces = 10000000000000000000000000000000000000000 }\n", "E302", 2, 20),
    Case("formula_named_as_a_builtin", "a formula cannot take a builtin's name, as `die` (issue 24)",
         CHILD + "formula die(n) = n\n", "E211", 2, 9),
    Case("die_the_game_lacks", "`die(N)` names one of the game's `game.dice` dice, from 1 (issue 24)",
         CHILD + 'when roll(total) if die(3) == 1 { move by 1 }\n', "E302", 2, 25),
    Case("no_dice", "a game throws at least one die",
         CHILD + "game { dice = 0 }\n", "E302", 2, 15),
    # Found by tests/grammar/test_compile.py's mutations of classic-us (`2 x00`): a note of 0
    # passed the compiler and broke the IR's schema (E900).
    Case("note_of_nothing", "a note counts and is worth at least 1",
         CHILD + "money { notes = [2 x 500, 2 x 0] }\n", "E302", 2, 27),
    Case("about_word_not_a_name", "`about.house` names a glossary word, not a text",
         CHILD + 'about { house = "vandrarhem" }\n', "E302", 2, 17),
    Case("about_unknown_word", "`about.station` names a word the rulebook's glossary knows (issue 24)",
         CHILD + "about { station = rederi }\n", "E210", 2, 19),
    Case("wording_not_texts", "`wording` words are quoted texts (docs/language.md, \"Printed parts\")",
         CHILD + "wording { pay = [pay, assessed] }\n", "E302", 2, 17),
    Case("square_text_not_a_text", "a square's printed `text` is a quoted text",
         CHILD + "board { square luxury_tax { text = 75 } }\n", "E302", 2, 36),
    Case("box_unknown_count", "`box` lines stand under a count the rules have",
         CHILD + 'box { blocks = "80 blocks" }\n', "E207", 2, 7),
    Case("lot_rent_length", "a lot has `building.max_houses + 2` rents",
         CHILD + "board { lot brown_1 { rent = [2, 10, 30] } }\n", "E303", 2, 30),
    Case("station_rent_length", "a station has one rent per station of its group",
         CHILD + "board { station station_1 { rent = [25, 50] } }\n", "E303", 2, 36),
    Case("notes_do_not_sum", "INVARIANT (money): the notes add up to `money.start`",
         CHILD + "money { notes = [2 x 500, 4 x 100] }\n", "E304", 2, 17),
    Case("formula_arity", "a call gives a formula as many arguments as it has parameters", CHILD +
         'board { square luxury_tax { on_land { pay worth(me, me) * 10% to bank } } }\n', "E305", 2, 43),
    Case("recursive_formula", "DESIGN principle 3: no recursion, every program terminates",
         CHILD + "formula loop(p) = loop(p) + 1\n", "E306", 2, 9),
    Case("mutually_recursive_formulas", "DESIGN principle 3: no recursion through other formulas",
         CHILD + "formula ping(p) = pong(p)\nformula pong(p) = ping(p)\n", "E306", 2, 9),
    Case("child_changes_kind", "a child keeps each square's kind",
         CHILD + "board { station brown_1 }\n", "E307", 2, 17),
    Case("lot_in_station_group", "a deed belongs to a group of its own kind",
         CHILD + "board { lot brown_1 { group = stations } }\n", "E307", 2, 31),
    # ---- E4xx: structure and completeness
    Case("undecided_contested_rule", "DESIGN principle 7: an undecided contested rule is rejected",
         without("decide jail.fine_timing = before_roll              "
                 "# 002: \"Betaler 50 dollars i bøde før rulning\"\n"),
         "E401", 5, 1),
    Case("missing_required_setting", "a concrete edition sets every required setting",
         without("jail {\n  fine = 50\n}\n"), "E402", 5, 1),
    Case("missing_square_name", "a concrete edition names every square",
         US.replace('square  chance_1     "Chance"', "square  chance_1"), "E402", 90, 11),
    Case("empty_group", "a group has at least one square",
         'abstract edition tiny\ngroup brown { kind = lot }\nboard { square go }\n', "E403", 2, 7),
    # ---- per-player state, hooks, variants
    Case("unknown_event", "hooks name an event: land, acquire or add",
         CHILD + "when lands(s) { }\n", "E215", 2, 6),
    Case("add_to_undeclared_state", "`add` names a declared state",
         CHILD + "when land(s) { add s to me.pasport }\n", "E215", 2, 28),
    Case("add_to_a_number_state", "`add` puts an element in a state declared `set of ...`",
         CHILD + "state player.visits : int\nwhen land(s) { add s to me.visits }\n", "E301", 3, 20),
    Case("add_hook_on_a_number_state", "`when add(...) to STATE` names a declared set",
         CHILD + "state player.visits : int\nwhen add(x) to visits { }\n", "E215", 3, 16),
    Case("action_condition_as_text", "an action's `allowed` is a condition",
         'edition x extends metropol-da\naction y(a in areas) "Y" {\n  allowed = "yes"\n  effect { end game }\n}\n',
         "E302", 3, 13),
    Case("state_of_unsupported_type", "the engine keeps `state player.NAME : set of square`",
         CHILD + "state player.visits : list of square\n", "E216", 2, 23),
    Case("variant_as_edition", "a variant is laid on an edition, not compiled alone",
         "variant v for classic\n", "E217", 1, 1),
    Case("variant_for_another_family", "a variant fits only editions of its family",
         "edition x extends classic-us\n", "E217", 1, 15, ("jackpot", "x")),
    Case("variants_clash", "two variants may not give the same setting or setup",
         CHILD, "E218", 13, 1, ("short", "timed")),
    Case("deal_outside_setup", "deeds are dealt once, in `setup`",
         CHILD + "when land(s) { deal 2 each }\n", "E405", 2, 16),
    Case("keep_on_a_square", "only a card can be kept",
         CHILD + 'board { square free_parking { on_land { keep } } }\n', "E404", 2, 41),
    # ---- the city, actions and procedures (Metropol's mechanisms)
    Case("procedure_runs_itself", "a procedure runs only procedures written above it (no recursion)",
         CHILD + "procedure again() { do again() }\n", "E208", 2, 24),
    Case("set_undeclared_number", "`set` changes a declared number",
         CHILD + "state area.height : int\nwhen land(s) { set me.hight = 1 }\n", "E215", 3, 23),
    Case("action_without_allowed", "an action says when it may be taken",
         CHILD + "action build(s in squares) { effect { } }\n", "E402", 2, 8),
    Case("action_unknown_window", "an action is offered in the windows the language has",
         CHILD + "action sell(d in me.deeds) at raisng { allowed = yes effect { } }\n", "E210", 2, 31),
    Case("action_window_twice", "an action names each of its windows once",
         CHILD + "action sell(d in me.deeds) at raising, raising { allowed = yes effect { } }\n", "E211", 2, 40),
    Case("area_faces_unknown_square", "an area faces squares of the board",
         CHILD + "area a1 { quarter = q  faces = [brown_9] }\n", "E203", 2, 33),
    Case("jump_to_a_number", "a token jumps to a square",
         CHILD + "when land(s) { jump to 3 }\n", "E301", 2, 24),
    # ---- worked examples (docs/language.md, "Examples")
    *(Case(name, rule, CHILD + text, code, 2, text.index(at) + 1) for name, rule, text, code, at in (
        ("example_unknown_square", "an example's set-up names squares of the board",
         'example x "q" { players anna, bo  give brown_3 to anna  expect anna.cash > 0 }\n', "E203", "brown_3"),
        ("example_give_unknown_deed", "with no name close, the hint lists the deeds (issue #19)",
         'example x "q" { players anna, bo  give qqqq to anna  expect anna.cash > 0 }\n', "E203", "qqqq"),
        ("example_unknown_player", "an example's lines name its players",
         'example x "q" { players anna, bo  turn ann rolls 1 2  expect anna.cash > 0 }\n', "E209", "ann "),
        ("example_houses_on_a_station", "houses stand on lots",
         'example x "q" { players anna, bo  houses 2 on station_1  expect anna.cash > 0 }\n', "E307", "station_1"),
        ("example_without_players", "an example starts by naming its players",
         'example x "q" { turn anna rolls 1 2  expect anna.cash > 0 }\n', "E103", "turn"),
        ("example_set_up_after_a_turn", "the set-up comes before the turns",
         'example x "q" { players anna, bo  turn anna rolls 1 2  put bo on go  expect yes }\n', "E103", "put"),
        ("example_player_named_bank", "a player's name is a new name",
         'example x "q" { players bank, bo  expect bo.cash > 0 }\n', "E211", "bank"),
        ("example_three_dice", "a throw shows one face per die of the game",
         'example x "q" { players anna, bo  turn anna rolls 1 2 3  expect anna.cash > 0 }\n', "E302", "turn"),
        ("example_unknown_card", "a card on top of a deck is quoted as the deck prints it",
         'example x "q" { players anna, bo  card "Advance to Go" on top of chance  expect anna.cash > 0 }\n',
         "E210", '"Advance'),
        ("example_card_on_top_twice", "each card is set on top once (a card printed twice, twice)",
         'example x "q" { players anna, bo  card "Advance to Go (Collect $200)" on top of chance  '
         'card "Advance to Go (Collect $200)" on top of chance  expect yes }\n', "E210",
         '"Advance to Go (Collect $200)" on top of chance  expect'),
        ("example_sale_to_oneself", "a sale is to another player",
         'example x "q" { players anna, bo  give brown_1 to anna  '
         'turn anna sells brown_1 to anna for 10 and rolls 1 2  expect yes }\n',
         "E302", "anna for"),
        ("example_two_sales_in_a_turn", "a turn makes one sale (the engine takes one offer a manage window)",
         'example x "q" { players anna, bo  give brown_1, brown_2 to anna  '
         'turn anna sells brown_1 to bo for 10 and sells brown_2 to bo for 10 and rolls 1 2  expect yes }\n',
         "E302", "sells brown_2"),
        ("example_bid_by_an_unknown_player", "a bidder is one of the example's players",
         'example x "q" { players anna, bo  turn anna rolls 1 2 and ben bids up to 100  expect yes }\n',
         "E209", "ben "),
        ("example_two_bids_by_one_player", "a bidder has one limit a turn",
         'example x "q" { players anna, bo  turn anna rolls 1 2 and bo bids up to 100 and bo bids up to 200  '
         'expect yes }\n', "E302", "bo bids up to 200"),
        ("example_bid_up_to_nothing", "a limit is at least the smallest raise",
         'example x "q" { players anna, bo  turn anna rolls 1 2 and bo bids up to 0  expect yes }\n',
         "E302", "bo bids"),
        ("example_sale_of_a_square_not_a_deed", "only deeds are sold",
         'example x "q" { players anna, bo  turn anna sells go to bo for 10 and rolls 1 2  expect yes }\n',
         "E307", "go to"),
        ("example_mark_in_an_undeclared_set", "`mark` stamps squares in a player's declared set of squares",
         'example x "q" { players anna, bo  mark brown_1 in anna.passport  expect yes }\n', "E214", "passport"),
        ("example_expectation_not_yes_no", "an expectation is yes or no",
         'example x "q" { players anna, bo  expect anna.cash }\n', "E301", "anna.cash }"),
        ("example_turn_after_expect", "the expectations come last",
         'example x "q" { players anna, bo  expect anna.cash > 0  turn anna rolls 1 2 }\n', "E103", "turn"),
    )),
    # ---- every spec that passes `check` plays without a crash (issue #19)
    *(Case(name, rule, CHILD + text, code, 2, text.index(at) + 1) for name, rule, text, code, at in (
        ("move_to_itself", "a landing that moves the token back onto its square never ends",
         "board { square free_parking { on_land { move to free_parking } } }\n", "E308", "move"),
        ("move_by_zero", "`move by 0` lands the token where it stands, again and again",
         "board { square free_parking { on_land { move by 0 } } }\n", "E308", "move"),
        ("squares_send_to_each_other", "two squares that send the token to each other never stop",
         "board { square free_parking { on_land { move to luxury_tax } }  "
         "square luxury_tax { on_land { move to free_parking } } }\n", "E308", "move"),
        ("every_card_moves_back", "a deck whose every card moves the token back onto its square never stops",
         'deck chance { card "Again" { move to chance_1 }  card "Back" { move by 0 } }\n'
         "board { square chance_2 { on_land { move to chance_1 } } }\n", "E308", "move"),
        ("division_by_zero", "a division by 0 has no value",
         "board { square luxury_tax { on_land { pay 100 / 0 to bank } } }\n", "E309", "0 to"),
        ("division_by_a_constant_zero", "a constant divisor that comes to 0 has no value",
         "board { square luxury_tax { on_land { pay 100 / (2 - 2) to bank } } }\n", "E309", "2 - 2"),
        ("division_by_a_count", "a count can be 0 (an empty set)",
         "rent { utility = dice * 100 / count(d in owner.deeds: d.kind == utility) }\n", "E309", "count"),
        ("division_by_cash", "a player's cash can be 0",
         "formula share(p) = 1000 / p.cash\n", "E309", "p.cash"),
        ("negative_price", "a price is an amount of money: 0 or more",
         "board { lot brown_1 { price = -60 } }\n", "E310", "-60"),
        ("huge_price", "an amount past 10^15 is a typing error (and overflows a float)",
         "board { lot brown_1 { price = 1" + "0" * 400 + " } }\n", "E310", "1000"),
        ("huge_mortgage", "a mortgage is an amount of money",
         "board { lot brown_1 { mortgage = 1" + "0" * 400 + " } }\n", "E310", "1000"),
        ("negative_fine", "a fine is an amount of money: 0 or more",
         "jail { fine = -50 }\n", "E310", "-50"),
        ("negative_house_cost", "a house costs an amount of money: 0 or more",
         "group brown { house_cost = -50 }\n", "E310", "-50"),
        ("huge_amount_in_a_card", "an amount past 10^15 is a typing error",
         'deck chance { card "Tax" { pay 10000000000000000 to bank } }\n', "E310", "1000"),
        ("huge_constant_amount", "a constant amount past 10^15 is a typing error",
         'deck chance { card "Tax" { pay 1000000000 * 1000000000 to bank } }\n', "E310", "1000"),
    )),
    Case("jail_in_a_game_without_one", "`go to jail` needs a `jail` section (Metropol has none)",
         "edition x extends metropol-da\nwhen land(s) { go to jail }\n", "E406", 2, 16),
]


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    """Errors show paths relative to the working directory: run from the repo root."""
    monkeypatch.chdir(ROOT)


def check_snapshot(name: str, rendered: str) -> None:
    path = SNAPSHOTS / f"{name}.txt"
    if os.environ.get("UPDATE_SNAPSHOTS") == "1" or not path.exists():
        path.write_text(rendered + "\n", encoding="utf-8")
    assert rendered + "\n" == path.read_text(encoding="utf-8")


def first_error(text: str, filename: str = "bad.rules", variants: tuple[str, ...] = ()) -> SpecError:
    paths = [bundled_variants().get(v) or ROOT / "tests" / "grammar" / "variants" / f"{v}.rules" for v in variants]
    with pytest.raises(SpecError) as caught:
        grammar.compile_text(text, filename, paths)
    return caught.value


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_malformed_spec(case: Case):
    """DESIGN principle 8: a malformed spec gets its stable code, place, caret and hint."""
    error = first_error(case.text, variants=case.variants)
    first = error.diagnostics[0]
    assert first.code == case.code, (case.rule, error.render())
    if case.line:
        assert (first.line, first.column) == (case.line, case.column), (case.rule, error.render())
    assert "Traceback" not in error.render()
    check_snapshot(case.name, error.render())


def test_every_error_is_one_line_lower_case_with_backticked_names():
    """STYLE (cedar): messages are lower-case, one line, names in backticks, fix on a hint line."""
    for case in CASES:
        for diagnostic in first_error(case.text, variants=case.variants).diagnostics:
            assert diagnostic.message[0].islower() or diagnostic.message[0] == "`", diagnostic.message
            assert "\n" not in diagnostic.message
            assert re.match(r"^error\[E\d{3}\]: ", diagnostic.render())


def test_every_unknown_square_or_group_has_a_hint():
    """Issue #19: an unknown square or group names the closest, or lists what there is."""
    for case in CASES:
        for diagnostic in first_error(case.text, variants=case.variants).diagnostics:
            if diagnostic.code in ("E203", "E204"):
                assert diagnostic.hint, (case.name, diagnostic.render())


def test_a_deed_outside_its_group_has_no_knock_on_errors():
    """Issue #19: a station whose group is unknown leaves `stations` one short; the other
    stations' rents (one per station of the group) are not then told as too many."""
    error = first_error(CHILD + "board { station station_1 { group = qqqq } }\n")
    assert [d.code for d in error.diagnostics] == ["E204"], error.render()


def test_all_errors_are_collected():
    """DESIGN principle 8: one run reports every independent error, in source order."""
    error = first_error(CHILD + "jail { fien = 50 }\nmoney { rounding = upp }\n"
                        'deck chance "Chance" { card "Go" { move to goo } }\n')
    assert [(d.code, d.line) for d in error.diagnostics] == [("E207", 2), ("E210", 3), ("E203", 4)]


def test_edition_of_an_abstract_base_tells_its_root_cause_first():
    """Issue #19: the README's `edition my2 extends classic` gave 154 errors, 140 of them
    into spec/classic.rules. Its own errors come first; the inherited items that lack the
    same thing are told once, with how many more."""
    error = first_error("edition my2 extends classic\n", "my2.rules")
    files = [d.file for d in error.diagnostics]
    assert files.index("my2.rules") == 0 and len(error.diagnostics) <= 20, error.render()
    assert files.count(str(ROOT / "spec" / "classic.rules")) <= 6, error.render()
    check_snapshot("edition_of_an_abstract_base", error.render())


def test_many_errors_are_cut_short():
    """Issue #19: at most 20 errors are shown, then how many more there are."""
    error = first_error(CHILD + "".join(f"formula f{i}(p) = p.cassh\n" for i in range(25)))
    assert len(error.diagnostics) == 25
    rendered = error.render()
    assert rendered.count("error[E214]") == 20, rendered
    assert rendered.endswith("\n\n... and 5 more errors; fix the ones above first"), rendered[-200:]


@pytest.mark.parametrize("op, term", [("+", "1"), ("and", "yes"), ("or", "no")])
def test_long_flat_chain_compiles(op: str, term: str):
    """Issue #19: a long flat `1 + 1 + ...` is no nesting; it compiles, to the same sum."""
    count = 20_000
    over = f" {op} ".join([term] * count)
    ir = grammar.compile_text(CHILD + f"end {{ over = {over} {'> 0' if op == '+' else ''} }}\n", "long.rules")
    over_ir = ir["settings"]["end"]["over"]
    leaves, depth, stack = 0, 0, [(over_ir["left"] if op == "+" else over_ir, 1)]
    while stack:
        node, level = stack.pop()
        depth = max(depth, level)
        if node.get("operator") == op:
            stack += [(node["left"], level + 1), (node["right"], level + 1)]
        else:
            leaves += 1
    assert leaves == count and depth < 40


@pytest.mark.parametrize("text", [
    "board { square free_parking { on_land { if dice > 6 { move to free_parking } } } }\n",
    "board { square free_parking { on_land { move to luxury_tax } } }\n",
    'deck chance { card "Again" { move to chance_1 }  card "Stay" { collect 10 from bank } }\n',
    "board { square free_parking { on_land { pay 10 to bank  move to free_parking } } }\n",
])
def test_moves_that_may_end_pass(text: str):
    """Issue #19: a conditional move, a move to a square that stays, a deck with a card that
    stays, a payment that may bankrupt: not refused (the engine bounds a turn's moves)."""
    grammar.compile_text(CHILD + text, "ok.rules")


def test_a_round_through_on_pass_is_an_error():
    """Issue #19: `on_pass` runs on every forward move past its square (SE 001: salary on
    every pass), so one that moves the token a whole lap runs again, for ever."""
    error = first_error("edition x extends classic-se\nboard { square go { on_pass { move by 40 } } }\n")
    assert [(d.code, d.line, d.column) for d in error.diagnostics] == [("E308", 2, 31)]


def test_a_moving_land_hook_is_one_error():
    """Issue #19, one error per cause: a land hook that always moves is one round, not one per square."""
    error = first_error(CHILD + "when land(s) { move by 0 }\n")
    assert [(d.code, d.line) for d in error.diagnostics] == [("E308", 2)]


@pytest.mark.parametrize("text", [
    "formula share(p) = if p.cash > 0 then 1000 / p.cash else 0\n",
    "formula share(p) = 1000 / (count(d in p.deeds: d.mortgaged) + 1)\n",
    "formula half(p) = sum(d in p.deeds: d.price / 2) / game.dice\n",
    "formula few(p) = count(d in p.deeds: d.mortgaged) != 0 and 100 / count(d in p.deeds: d.mortgaged) > 2\n",
    "board { square luxury_tax { on_land { if me.cash != 0 { pay 100 / me.cash to bank } } } }\n",
])
def test_divisions_that_cannot_fail_pass(text: str):
    """Issue #19: a divisor that is never 0, or guarded where it is read, is not refused."""
    grammar.compile_text(CHILD + text, "ok.rules")


def test_a_formula_that_divides_is_one_error():
    """Issue #19, one error per cause: a formula dividing by a count is one error, however
    often it is called."""
    error = first_error(CHILD + "formula share(p) = 1000 / count(d in p.deeds: d.mortgaged)\n"
                        "board { square luxury_tax { on_land { pay share(me) + share(me) to bank } } }\n")
    assert [(d.code, d.line) for d in error.diagnostics] == [("E309", 2)]


def test_a_huge_setting_is_one_error():
    """Issue #19, one error per cause: a setting past the limit is one error, not one more
    for each expression that reads it."""
    error = first_error(CHILD + "jail { fine = 100000000000000000000 }\n"
                        "board { square luxury_tax { on_land { pay jail.fine * 2 to bank } } }\n")
    assert [(d.code, d.line) for d in error.diagnostics] == [("E310", 2)]


def test_a_negative_building_stock_passes():
    """The bank's stock may be written below 0 (E310 refuses other negative amounts): a
    game plays with it, and the verifier's broken corpus (tests/verifier/broken/
    negative-house-stock.rules) breaks the stock invariants that way."""
    grammar.compile_text(CHILD + "bank { houses = -1  hotels = -1 }\n", "ok.rules")


def test_a_long_sum_is_read_without_deep_recursion():
    """DESIGN principle 8, no traceback: the check after lowering reads a flat chain of
    `+` (left-nested, one node per term) in a loop, so it refuses no sum that lowering
    accepts for its length (E105 is the parser's and the lowering's to give)."""
    from grammar import syntax as s
    from grammar.bounds import ANYTHING, QUIET, Known, Reader
    from grammar.diagnostics import Source, Span
    at = Span(Source("long.rules", "1"), 1, 1, 1, 2)
    chain: s.Expr = s.Int(at, 1)
    for _ in range(5000):
        chain = s.Binary(at, "+", chain, s.Int(at, 1))
    reader = Reader(Known({}, {}, {}, {}, ANYTHING, {}), QUIET)
    assert reader.value(chain, {}, {}).value == 5001


def test_missing_file(tmp_path: Path):
    """DESIGN principle 8: a missing spec file is its own error, naming the path."""
    with pytest.raises(SpecError) as caught:
        grammar.compile_file(tmp_path / "nowhere.rules")
    assert caught.value.diagnostics[0].code == "E100"
    assert "nowhere.rules" in caught.value.render()


def test_file_that_is_not_utf8(tmp_path: Path):
    """DESIGN principle 8: bad UTF-8 is a diagnostic, not a UnicodeDecodeError."""
    path = tmp_path / "latin1.rules"
    path.write_bytes("edition x extends classic-us\nabout { title = \"Monopól\" }\n".encode("latin-1"))
    with pytest.raises(SpecError) as caught:
        grammar.compile_file(path)
    first = caught.value.diagnostics[0]
    assert (first.code, first.line, first.column) == ("E101", 2, 23), caught.value.render()
    check_snapshot("not_utf8", caught.value.render().replace(str(path), "latin1.rules"))


def test_unreadable_file_has_a_hint(tmp_path: Path):
    """Issue #19: every error has a hint, a spec path that is a folder too."""
    with pytest.raises(SpecError) as caught:
        grammar.compile_file(tmp_path)
    first = caught.value.diagnostics[0]
    assert first.code == "E100" and first.hint, caught.value.render()


def test_extends_cycle(tmp_path: Path):
    """`extends` resolves to a chain: an edition that extends itself, even through another, is rejected."""
    (tmp_path / "a.rules").write_text("abstract edition a extends b\n", encoding="utf-8")
    (tmp_path / "b.rules").write_text("abstract edition b extends a\n", encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        grammar.compile_file(tmp_path / "a.rules")
    first = caught.value.diagnostics[0]
    assert first.code == "E212" and (first.line, first.column) == (1, 28)
    check_snapshot("extends_cycle", caught.value.render().replace(str(tmp_path) + os.sep, ""))


def test_error_in_inherited_item_points_at_its_file(tmp_path: Path):
    """Errors about an inherited item point at the file where it is written."""
    (tmp_path / "base.rules").write_text(
        'abstract edition base\ngroup brown { kind = lot }\ngroup red { kind = lot }\n'
        'board { lot brown_1 { group = brown } }\n', encoding="utf-8")
    (tmp_path / "child.rules").write_text("abstract edition child extends base\n", encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        grammar.compile_file(tmp_path / "child.rules")
    first = caught.value.diagnostics[0]
    assert (first.code, Path(first.file).name, first.line) == ("E403", "base.rules", 3)


def test_internal_error_is_a_diagnostic(monkeypatch):
    """DESIGN principle 8: even a compiler bug reads as an error (E900), never a traceback."""
    def broken(edition):
        raise KeyError("boom")
    monkeypatch.setattr("grammar.compile.lower", broken)
    error = first_error(CHILD)
    assert error.diagnostics[0].code == "E900"
    assert "Traceback" not in error.render()


def test_an_ir_that_breaks_its_schema_is_a_diagnostic(monkeypatch):
    """docs/errors.md E900: a lowering bug that breaks ir.schema.json is named with its place."""
    from grammar.lower import lower

    def broken(edition):
        ir = lower(edition)
        ir["edition"]["abstract"] = "lots"
        return ir
    monkeypatch.setattr("grammar.compile.lower", broken)
    error = first_error(CHILD)
    assert error.diagnostics[0].code == "E900"
    assert "breaks its schema at `edition/abstract`" in error.render()


def test_every_error_code_is_tested_and_documented():
    """STYLE: every error code is produced by at least one bad spec, and docs/errors.md explains it."""
    codes = set()
    for path in (ROOT / "grammar").glob("*.py"):
        codes |= set(re.findall(r'"(E\d{3})"', path.read_text(encoding="utf-8")))
    tested = {c.code for c in CASES} | {"E100", "E101", "E212", "E900"}
    assert codes == tested, codes ^ tested
    # the run-time errors (E5xx): raised by the engine, tested by tests/interpreter/test_rule_errors.py
    played = set()
    for path in (ROOT / "interpreter").glob("*.py"):
        played |= set(re.findall(r'"(E5\d\d)"', path.read_text(encoding="utf-8")))
    run_tests = (ROOT / "tests" / "interpreter" / "test_rule_errors.py").read_text(encoding="utf-8")
    assert played and played == set(re.findall(r'"(E5\d\d)"', run_tests)), played
    documented = set(re.findall(r"^## (E\d{3})", (ROOT / "docs" / "errors.md").read_text(encoding="utf-8"), re.M))
    assert codes | played == documented, (codes | played) ^ documented


@pytest.mark.parametrize("line, at", [("end { over = " + "1 + " * 250_000 + "@ }", "@"),
                                      ('jail { fine "' + "a" * 1_000_000 + '" }', '"')],
                         ids=["error_at_the_end", "long_token"])
def test_error_in_a_megabyte_line_shows_a_short_frame(line: str, at: str):
    """Issue #19: a 1 MB line is not echoed; the frame shows ~100 characters around the caret."""
    error = first_error(CHILD + line + "\n")
    lines = error.render().splitlines()
    assert len(error.render()) < 1000, error.render()[:300]
    source, caret = lines[3], lines[4]
    assert "…" in source and caret.index("^") == source.index(at)


def test_diagnostic_made_from_fields_renders_its_frame(tmp_path: Path):
    """DESIGN principle 8: a diagnostic other tools build from file, line and column renders the same frame."""
    path = tmp_path / "game.json"
    path.write_text('{\n  "seed": x\n}\n', encoding="utf-8")
    diagnostic = grammar.Diagnostic(code="E100", message="bad seed", file=str(path), line=2, column=11,
                                    hint="a seed is a number")
    lines = diagnostic.render().replace(str(path), "game.json").splitlines()
    assert lines == ["error[E100]: bad seed", " --> game.json:2:11", "  |", '2 |   "seed": x',
                     "  |           ^", "  = hint: a seed is a number"]
