"""Lints (issue 18 item 6): specs that compile and play but hold a likely mistake get a
warning with a `W` code, located like an error (file:line:column, caret, hint), rendered
against a snapshot in snapshots/<case>.txt (UPDATE_SNAPSHOTS=1 refreshes them). A warning
does not stop the compile; `check --strict` makes it an error (tests/test_cli.py)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

import grammar
from spec import bundled, bundled_variants
from tests.grammar.test_errors import check_snapshot

ROOT = Path(__file__).resolve().parents[2]
US = "edition x extends classic-us\n"
SE = "edition x extends classic-se\n"


@dataclass(frozen=True)
class Case:
    name: str
    rule: str        # the issue item or source rule the case checks
    text: str
    code: str
    line: int
    column: int


CASES = [
    # ---- W101: payer and payee the same
    Case("lint_pay_to_me", "issue 18 item 6: a transfer whose payer and payee are the same",
         US + "board { square luxury_tax { on_land { pay 75 to me } } }\n", "W101", 2, 39),
    Case("lint_collect_from_me", "issue 18 item 6: `collect X from me` moves nothing",
         US + 'deck chest { card "You Inherit $100" { collect 100 from me } }\n', "W101", 2, 40),
    Case("lint_pay_each_of_players", "issue 18 item 6: a loop over `players` pays `me` too (US chance "
         "\"Pay each player $50\" is a loop over `others`)",
         US + 'deck chance { card "Pay each player $50" { for p in players { pay 50 to p } } }\n', "W101", 2, 63),
    Case("lint_procedure_paid_me", "issue 18 item 6: a procedure paying its parameter, given `me`",
         US + "procedure fee(p) { pay 10 to p }\nboard { square free_parking { on_land { do fee(me) } } }\n",
         "W101", 3, 48),
    # ---- W102: a loop variable never used
    Case("lint_unused_for_variable", "issue 18 item 6: a loop variable never used in the loop's body",
         US + 'deck chance { card "Pay $50 for every other player" { for p in others { pay 50 to bank } } }\n',
         "W102", 2, 59),
    Case("lint_unused_choose_variable", "issue 18 item 6: a chosen element never used in the block",
         US + "board { square free_parking { on_land { choose s in squares where s.owner == bank or skip "
         "{ pay 10 to bank } } } }\n", "W102", 2, 48),
    # ---- W103: a printed text against its effect (US chance and chest, reference data)
    Case("lint_text_payee_disagrees", "issue 18 item 6: the payee of \"Pay each player $50\" is each player",
         US + 'deck chance { card "You have been elected Chairman of the Board. Pay each player $50" '
         "{ pay 50 to bank } }\n", "W103", 2, 70),
    Case("lint_text_payer_disagrees", "issue 18 item 6: the payer of \"Collect $50 from every player\"",
         US + 'deck chest { card "Grand Opera Opening, Collect $50 from every player for opening night seats" '
         "{ collect 50 from bank } }\n", "W103", 2, 58),
    Case("lint_text_bank_disagrees", "issue 18 item 6: \"Bank pays you\" is paid by the bank",
         US + 'deck chance { card "Bank pays you dividend of $50" { for p in others { collect 50 from p } } }\n',
         "W103", 2, 21),
    Case("lint_text_negation_disagrees", "issue 18 item 6: \"do not collect $200\" collects nothing",
         US + 'deck chest { card "GO TO JAIL -- go directly to jail DO NOT PASS GO DO NOT COLLECT $200" '
         "{ go to jail  collect 200 from bank } }\n", "W103", 2, 69),
    Case("lint_text_negation_swedish", "issue 18 item 6: \"du erhåller inte 4 000 kr\" (classic-se wording)",
         SE + 'deck chance { card "Gå direkt i fängelse. Passera inte GÅ, du erhåller inte 4 000 kr" '
         "{ go to jail  collect 4000 from bank } }\n", "W103", 2, 63),
    Case("lint_text_amount_disagrees", "the amount the text names is the amount moved (verifier/texts.py)",
         US + 'deck chest { card "Pay Hospital $100" { pay 10 to bank } }\n', "W103", 2, 20),
    # ---- W104: a description promising both directions
    Case("lint_invariant_one_way", "issue 18 item 6: \"if and only if\" checked one way",
         US + 'invariant broke "a player is broke if and only if their cash is 0" =\n'
         "  all(p in players: not (p.cash == 0) or p.bankrupt)\n", "W104", 3, 3),
    Case("lint_invariant_exactly_bounded", "issue 18 item 6: \"exactly\" checked as a bound",
         US + 'invariant stock "the bank holds exactly its houses when none is built" =\n'
         "  sum(d in deeds: d.houses) > 0 or houses_in_bank <= bank.houses\n", "W104", 3, 3),
    # ---- W105: a limit from the setting it polices
    Case("lint_limit_from_its_setting", "issue 18 item 3: the house stock limit read from `bank.houses`, "
         "the setting the bank deals houses from (002 prints no count of them: classic-us states no fact)",
         US + 'invariant stock "the bank never holds more houses than its stock" =\n'
         "  houses_in_bank <= bank.houses\n", "W105", 3, 21),
    Case("lint_limit_from_its_setting_in_a_formula", "issue 18 item 3: a step property's amount read from "
         "`money.salary` through a formula",
         US + "formula pay() = money.salary\n"
         'step paid "GO pays the salary" on pass(go) = me.cash <= old(me.cash) + pay()\n', "W105", 2, 17),
]


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def warnings_of(text: str) -> list[grammar.Diagnostic]:
    return grammar.check_text(text, "lint.rules")[1]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_lint(case: Case):
    """A lint is a located warning with its code, caret and hint; the spec still compiles."""
    found = warnings_of(case.text)
    assert found, case.rule
    first = found[0]
    rendered = "\n\n".join(d.render() for d in found)
    assert (first.code, first.line, first.column) == (case.code, case.line, case.column), (case.rule, rendered)
    assert first.severity == "warning" and first.hint and rendered.startswith(f"warning[{case.code}]")
    check_snapshot(case.name, rendered)


@pytest.mark.parametrize("text", [
    US + 'deck chance { card "Pay each player $50" { for p in others { pay 50 to p } } }\n',
    US + "board { square free_parking { on_land { for p in players { if p.cash > 100 { pay 10 to bank } } } } }\n",
    US + 'invariant same "over if and only if nobody is left" = over == (count(p in players: not p.bankrupt) <= 1)\n',
    US + 'invariant both "over exactly when nobody is left" =\n'
    "  (not over or count(p in players: not p.bankrupt) <= 1) and (not (count(p in players: not p.bankrupt) <= 1) "
    "or over)\n",
    US + 'invariant one "a bankrupt player has no cash only if out" =\n'
    '  all(p in players: not p.bankrupt or p.cash == 0)\n',
    US + 'invariant counted "count(d in deeds: yes) reads no element" = count(d in deeds: yes) >= 0\n',
    US + 'deck chest { card "GO TO JAIL -- DO NOT COLLECT $200" { go to jail } }\n',
    US + 'invariant stock "the bank never holds more houses than the rule book\'s" =\n'
    "  houses_in_bank <= bank.houses and bank.houses <= fact(bank.houses)\n",
    SE + 'invariant fine "the fine is the printed one" = jail.fine == fact(jail.fine)\nfact jail.fine = 1000 "1.000"\n',
], ids=["loop_over_others", "loop_variable_in_a_condition", "equivalence", "two_implications", "only_if_one_way",
        "aggregate_counts", "negated_amount_not_moved",
        "limit_checked_against_its_fact", "setting_against_a_stated_fact"])
def test_what_is_right_is_not_warned(text: str):
    """What reads right gets no warning: `others` (US chance), a variable read in a condition,
    `==` and a pair of converse implications for "if and only if", a bare "only if" (one
    direction: A only if B is A -> B), `count(x in S: yes)`, a negated amount left unpaid, a
    setting read beside its `fact` (issue 18 item 3)."""
    assert warnings_of(text) == [], [d.render() for d in warnings_of(text)]


def test_no_bundled_edition_or_variant_is_warned():
    """Issue 18 item 6: the lints find nothing in the bundled editions and variants (wonders-se's
    "exactly when" was one: its invariant now promises the one direction it checks)."""
    for eid, path in bundled().items():
        assert grammar.check_file(path)[1] == [], eid
    for vid, path in bundled_variants().items():
        base = bundled()["metropol-da" if vid == "fewer-blocks" else "classic-us"]
        assert grammar.check_file(base, [path])[1] == [], vid


def test_compile_does_not_lint():
    """Only `check` lints: `compile_text` (play, verify) gives the IR alone, the same as `check_text`'s."""
    text = CASES[0].text
    assert grammar.compile_text(text, "lint.rules") == grammar.check_text(text, "lint.rules")[0]
    assert grammar.check_text(text, "lint.rules", lint=False)[1] == []


def test_every_warning_code_is_tested_and_documented():
    """STYLE: every warning code is produced by a case here, and docs/errors.md explains it."""
    codes = set()
    for path in list((ROOT / "grammar").glob("*.py")):
        codes |= set(re.findall(r'"(W\d{3})"', path.read_text(encoding="utf-8")))
    assert codes == {c.code for c in CASES}
    documented = set(re.findall(r"^## (W\d{3})", (ROOT / "docs" / "errors.md").read_text(encoding="utf-8"), re.M))
    assert codes == documented, codes ^ documented
