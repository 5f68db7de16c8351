"""`boardrules verify --mutate`: the mutants of an edition and the score of the checks against
them, through the command line (the full classic-se run takes minutes: docs/verifier.md)."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

import grammar
import spec
from boardrules.cli import main
from verifier.mutate import mutants


def run(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output + result.stderr, result.output + result.stderr
    return result


def test_one_cards_mutants_scored_through_the_command(tmp_path: Path):
    """A chance card that pays the player: swapping payer and payee lets the card bankrupt
    them, so money conservation is no longer proved for it (killed); dropping the payment or
    paying one more keeps every invariant (survivors, listed)."""
    card = "card 6 of `chance`"
    result = run("verify", "classic-se", "--no-prove", "--examples", "1", "--traces", str(tmp_path),
                 "--mutate", "--mutants", card, "--json")
    assert result.exit_code == 0, result.output + result.stderr
    mutation = json.loads(result.output)["editions"][0]["mutation"]
    assert {"score", "killed", "survived", "survivors", "kills", "dropped"} <= set(mutation)
    assert (mutation["killed"], mutation["survived"]) == (1, 2)
    assert mutation["score"] == 1 / 3
    assert [k["mutant"] for k in mutation["kills"]] == [f"{card}: transfer redirected (payer and payee swapped)"]
    assert "money_conservation" in mutation["kills"][0]["caught_by"]
    assert sorted(mutation["survivors"]) == [f"{card}: amount 1000 -> 1001", f"{card}: drop the transfer"]


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
