"""`boardrules verify --mutate`: the mutants of an edition and the score of the checks against
them, through the command line (the full classic-se run takes minutes: docs/verifier.md)."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

import grammar
import spec
from boardrules.cli import main
from verifier.mutate import default_check, mutants


def run(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output + result.stderr, result.output + result.stderr
    return result


def test_redirected_card_payments_scored_through_the_command(tmp_path: Path):
    """Swapping payer and payee of a card that pays the player lets the card bankrupt them:
    money conservation is no longer proved for it (killed). Swapped on a card the player
    pays, the player is paid instead and every invariant still holds, but the worked
    example of that card (spec/classic-se.rules, "the card: Betala fattigskatt 300 kr")
    fails: killed by the example."""
    result = run("verify", "classic-se", "--no-prove", "--examples", "1", "--traces", str(tmp_path),
                 "--mutate", "--mutants", "chance`: transfer redirected", "--json")
    assert result.exit_code == 0, result.output + result.stderr
    mutation = json.loads(result.output)["editions"][0]["mutation"]
    assert {"score", "killed", "survived", "survivors", "kills", "dropped"} <= set(mutation)
    assert (mutation["killed"], mutation["survived"], mutation["score"]) == (4, 0, 1.0)
    redirected = "of `chance`: transfer redirected (payer and payee swapped)"
    caught = {k["mutant"]: k["caught_by"] for k in mutation["kills"]}
    assert list(caught) == [f"card {i} {redirected}" for i in (6, 10, 11, 15)]
    assert all(caught[f"card {i} {redirected}"].startswith("money_conservation x card:chance:") for i in (6, 15))
    assert caught[f"card 10 {redirected}"].startswith("example card_repairs: expected `anna.cash == 30000 - 3 * 500`")
    assert caught[f"card 11 {redirected}"].startswith("example card_poor_tax: ")


def test_a_card_paying_other_than_its_text_says_is_caught():
    """The card says 1 000 kr: paying 1 001, or nothing, disagrees with its text."""
    ir = grammar.compile_file(str(spec.bundled()["classic-se"]))
    for m in mutants(ir):
        if m.description in ("card 6 of `chance`: amount 1000 -> 1001", "card 6 of `chance`: drop the transfer"):
            assert default_check(m.ir, m.touches).startswith("card text: card 6 of `chance`: "), m.description


def test_mutants_chosen_by_a_text_no_mutant_has_is_exit_2():
    result = run("verify", "classic-se", "--no-prove", "--mutate", "--mutants", "no such mutant")
    assert result.exit_code == 2 and "no mutant" in result.stderr, result.stderr
    result = run("verify", "classic-se", "--no-prove", "--mutants", "card")
    assert result.exit_code == 2 and "--mutate" in result.stderr, result.stderr


def test_mutants_are_distinct_and_change_the_ir():
    """No mutant is a no-op on the IR or a second copy of another (a transfer of 0 is the
    transfer dropped, so it is not generated)."""
    ir = grammar.compile_file(str(spec.bundled()["classic-se"]))
    ms = mutants(ir)
    texts = [json.dumps(m.ir, sort_keys=True) for m in ms]
    assert json.dumps(ir, sort_keys=True) not in texts
    assert len(set(texts)) == len(texts) == len({m.description for m in ms})
