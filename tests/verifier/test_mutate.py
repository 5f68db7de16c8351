"""`boardrules verify --mutate`: the mutants of an edition and the score of the checks against
them, through the command line (the full classic-se run takes minutes: docs/verifier.md)."""
from __future__ import annotations

import ast
import json
from pathlib import Path

from click.testing import CliRunner

import grammar
import spec
from boardrules.cli import main
from verifier.examples import run_all
from verifier.mutate import GUARD_ONLY, default_check, mutants, mutation_score, original_proofs
from verifier.texts import disagreements
from verifier.verdicts import Unknown


def run(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output + result.stderr, result.output + result.stderr
    return result


def test_redirected_card_payments_scored_through_the_command(tmp_path: Path):
    """Swapping payer and payee of a card: its text's words (classic-se `wording`, "Betala",
    "Inkassera") say who pays, so every swap disagrees with its card text (killed)."""
    result = run("verify", "classic-se", "--no-prove", "--examples", "1", "--traces", str(tmp_path),
                 "--mutate", "--mutants", "chance`: transfer redirected", "--json")
    assert result.exit_code == 0, result.output + result.stderr
    mutation = json.loads(result.output)["editions"][0]["mutation"]
    assert {"score", "killed", "survived", "survivors", "kills", "dropped"} <= set(mutation)
    assert (mutation["killed"], mutation["survived"], mutation["score"]) == (4, 0, 1.0)
    redirected = "of `chance`: transfer redirected (payer and payee swapped)"
    assert [k["mutant"] for k in mutation["kills"]] == [f"card {i} {redirected}" for i in (6, 10, 11, 15)]
    assert all(k["caught_by"].startswith("printed text: card ") for k in mutation["kills"])


def test_a_redirected_payment_is_caught_by_the_proofs_without_its_text():
    """Swapped on a card that pays the player, the card can bankrupt them: money conservation
    is no longer proved for it, which kills the mutant even where the text and the worked
    examples (classic-se's `chance_squares` draws this card) would not."""
    ir = grammar.compile_file(str(spec.bundled()["classic-se"]))
    m = next(m for m in mutants(ir)
             if m.description == "card 6 of `chance`: transfer redirected (payer and payee swapped)")
    proved, happens = original_proofs(ir)
    caught = default_check(m.ir, m.touches, proved=proved, texts=frozenset(disagreements(m.ir)), happens=happens,
                           examples=frozenset())
    assert caught.startswith("money_conservation x card:chance:6"), caught


def test_a_query_that_runs_out_of_its_limit_kills_no_mutant(monkeypatch):
    """A proof the solver gives up on within its resource limit found nothing either way (the
    mutant's terms, built in another order, can merely cost a few units more: a mutant of
    Metropol's end score was once "killed" so by a card's `blocks_per_turn` cell). A
    counterexample to induction does kill it. (`building.even` off: 001 "Hus", build evenly.)"""
    import verifier.prove as prove
    ir = grammar.compile_file(str(spec.bundled()["classic-se"]))
    m = next(m for m in mutants(ir) if m.description == "setting building.even = False (was True)")
    checks = {"texts": frozenset(disagreements(ir)), "examples": frozenset(), "proved": lambda inv, act: True}
    gave_up = Unknown("solver: resource limit (2000000 rlimit units per query) (build_house(me=0))", gave_up=True)
    monkeypatch.setattr(prove, "prove_preserves", lambda *args, **kwargs: gave_up)
    assert default_check(m.ir, m.touches, **checks) == ""
    found = Unknown("not inductive (build_house(me=0))")
    monkeypatch.setattr(prove, "prove_preserves", lambda *args, **kwargs: found)
    assert default_check(m.ir, m.touches, **checks).startswith("money_conservation x ")


def test_formulas_are_mutated():
    """A formula holds rules too (Metropol's city plan, its end phase and score, 004 p. 9-10;
    wonders-se's full passport): a formula that is a number (`blocks() = 80`) is one lower
    and one higher, every comparison in one is flipped, and the mutant touches every action
    (a formula is read wherever it is named). The worked examples kill them all."""
    city = grammar.compile_file(str(spec.bundled()["metropol-da"]))
    found = {m.description: m for m in mutants(city) if m.description.startswith("formula")}
    assert {"formula `blocks` = 79 (was 80)", "formula `blocks` = 81 (was 80)",
            "formula `final_phase`: comparison 1 `>=` -> `<`",
            "formula `fortune`: comparison 2 `>` -> `<=`"} <= set(found)
    assert all(m.touches == [] for m in found.values())
    passing = frozenset(x.name for x in run_all(city) if x.passed)
    for description in ("formula `fortune`: comparison 2 `>` -> `<=`",
                        "formula `roof_height`: comparison 1 `==` -> `!=`"):
        m = found[description]
        assert default_check(m.ir, m.touches, examples=passing, texts=frozenset(disagreements(city)),
                             proved=lambda inv, act: False).startswith("example "), description


def test_the_end_of_the_game_is_mutated_and_an_example_reads_it():
    """`end.over` (001 "Att vinna spelet": the last player left wins) has its comparisons
    flipped, and an example's turn ends the game as play does: the example
    `last_player_left` expects `over` once bo is bankrupt, which the mutant never says."""
    ir = grammar.compile_file(str(spec.bundled()["classic-se"]))
    m = next(m for m in mutants(ir) if m.description.startswith("end `over`"))
    assert m.description == "end `over`: comparison 1 `<=` -> `>`" and m.touches == []
    passing = frozenset(x.name for x in run_all(ir) if x.passed)
    assert "last_player_left" in passing
    assert default_check(m.ir, m.touches, examples=passing).startswith("example last_player_left: expected ")


def test_a_card_paying_other_than_its_text_says_is_caught():
    """The card says 1 000 kr: paying 1 001, or nothing, disagrees with its text."""
    ir = grammar.compile_file(str(spec.bundled()["classic-se"]))
    for m in mutants(ir):
        if m.description in ("card 6 of `chance`: amount 1000 -> 1001", "card 6 of `chance`: drop the transfer"):
            assert default_check(m.ir, m.touches).startswith("printed text: card 6 of `chance`: "), m.description


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


def test_the_rules_in_hooks_procedures_and_actions_are_mutated():
    """metropol-da's city lives in hooks (a landing on your own lot, the roll), procedures
    (`place_block`, `cross`) and an end-of-turn action (`build_block`, p. 10-11): their steps
    are skipped, their transfers turned round, and their guards (a hook's condition, an
    action's `allowed`, an `if`) flipped and dropped, like a card's. A hook or a procedure
    runs inside other actions, so its mutant is checked against every action."""
    city = grammar.compile_file(str(spec.bundled()["metropol-da"]))
    ms = {m.description: m for m in mutants(city)}
    dropped = ms["action `build_block`: guard dropped"]
    assert dropped.ir["actions"][0]["allowed"] == {"expr": "bool", "value": True}
    assert dropped.touches == ["action:build_block"]
    flipped = ms["hook 1 (`when land`): guard flipped"]
    assert flipped.ir["hooks"][0]["cond"] == {"expr": "not", "operand": city["hooks"][0]["cond"]}
    assert flipped.touches == []
    skipped = ms["procedure `place_block`, step 3 (`if`) then: skip step 1 (`set`)"]
    assert len(skipped.ir["procedures"]["place_block"]["body"][2]["then"]) == \
        len(city["procedures"]["place_block"]["body"][2]["then"]) - 1
    assert "action `build_block`: transfer redirected (payer and payee swapped)" in ms
    texts = [json.dumps(m.ir, sort_keys=True) for m in ms.values()]
    assert json.dumps(city, sort_keys=True) not in texts and len(set(texts)) == len(texts)


def test_an_actions_required_condition_is_mutated_and_caught(tmp_path: Path):
    """004 p. 11 point 5: once the fourth skyscraper stands, everyone with 100.000 must
    build at least one block a turn (`required` of `build_block`: the turn cannot end
    before). Its condition is flipped and dropped like a guard; either way a player must
    build early in the game, where the worked examples end their turns without building,
    so an example catches each (the Z3 catalogue offers every action whether or not it is
    required, so no proof can)."""
    city = grammar.compile_file(str(spec.bundled()["metropol-da"]))
    ms = {m.description: m for m in mutants(city)}
    dropped = ms["action `build_block` `required`: guard dropped"]
    assert dropped.ir["actions"][0]["required"] == {"expr": "bool", "value": True}
    assert dropped.ir["actions"][0]["allowed"] == city["actions"][0]["allowed"]
    result = run("verify", "metropol-da", "--mutate", "--no-prove", "--mutants", "`required`", "--json",
                 "--traces", str(tmp_path))
    assert result.exit_code == 0, result.output
    score = json.loads(result.output)["editions"][0]["mutation"]
    assert (score["killed"], score["survived"]) == (2, 0), score
    assert all(k["caught_by"].startswith("example ") and "must choose" in k["caught_by"] for k in score["kills"])


def test_a_limit_read_by_one_guard_is_dropped_when_z3_shows_the_guard_unchanged():
    """§1 "one hotel per lot": a second hotel would need `houses_per_hotel` houses on a lot that
    has a hotel and so no houses (the `building_levels` lemma), so `hotels_per_lot = 2` builds
    exactly what 1 does (dropped, with the proof); 0 forbids every hotel (kept)."""
    ir = grammar.compile_file(str(spec.bundled()["classic-se"]))
    report = mutation_score(ir, check=lambda m: "", only="setting building.hotels_per_lot")
    assert [m.description for m in report.dropped] == ["setting building.hotels_per_lot = 2 (was 1)"]
    assert report.dropped[0].equivalent.startswith("Z3: `build_hotel`, the one rule that reads ")
    assert [m.description for m in report.survived] == ["setting building.hotels_per_lot = 0 (was 1)"]


def test_the_settings_of_a_part_the_game_lacks_are_not_mutated():
    """metropol-da has no jail and no houses (004: blocks, not houses), so its spec leaves the
    `jail`, `building` and `bank` sections out and they read 0 and `no`: no rule of play
    consults them, and a mutant of one tests nothing (eleven such survived before, 17
    mutants in all). classic-se has both parts, and every limit of theirs is mutated."""
    city = grammar.compile_file(str(spec.bundled()["metropol-da"]))
    settings = [m.description for m in mutants(city) if m.setting]
    assert settings == ["setting money.salary = 249999 (was 250000)", "setting money.salary = 250001 (was 250000)",
                        "setting auction.bid_within_cash = False (was True)"]
    classic = grammar.compile_file(str(spec.bundled()["classic-se"]))
    mutated = {m.setting for m in mutants(classic) if m.setting}
    assert {("jail", "fine"), ("jail", "max_turns"), ("bank", "houses"), ("building", "even")} <= mutated


def test_a_guard_only_limit_is_read_by_that_guard_alone():
    """GUARD_ONLY's premise: in the rules (interpreter/rules.py) and their symbolic twin
    (verifier/symbolic/rules.py) the limit is read inside the action's guard and nowhere else
    (interpreter/edition.py loads it; the verifier's lemmas state its range; verifier/coverage.py
    names the attribute it is loaded into, reading nothing)."""
    root = Path(__file__).resolve().parents[2]
    for (_section, key), action in GUARD_ONLY.items():
        for path in ("interpreter/rules.py", "verifier/symbolic/rules.py"):
            tree = ast.parse((root / path).read_text(encoding="utf-8"))
            readers = {f.name for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
                       for n in ast.walk(f) if isinstance(n, ast.Attribute) and n.attr == key}
            assert readers == {f"can_{action}"}, (path, readers)
        others = [p for p in [*(root / "interpreter").glob("*.py"), *(root / "verifier").rglob("*.py")]
                  if key in p.read_text(encoding="utf-8")]
        assert sorted(p.relative_to(root).as_posix() for p in others) == [
            "interpreter/edition.py", "interpreter/rules.py", "verifier/coverage.py", "verifier/mutate.py",
            "verifier/symbolic/lemmas.py", "verifier/symbolic/rules.py"]


def test_a_branch_the_decisions_never_take_is_not_mutated_as_live():
    """§2 "GO salary limit": spec/classic.rules writes both readings in GO's `on_pass`, under
    `if money.salary_limit == every_pass`. In classic-se (SE 001: every pass pays) the
    once-per-lap branch never runs, so its mutants and the dropped guard are equivalent,
    with the decision as the reason; in classic-us (002: once per lap) the other branch is
    the dead one. The flipped guard is live in both: it changes the decided rule."""
    def go(edition: str) -> dict[str, str]:
        ir = grammar.compile_file(spec.bundled()[edition])
        return {m.description: m.equivalent for m in mutants(ir) if "of `go`" in m.description}
    se, us = go("classic-se"), go("classic-us")
    dead_se = [d for d, why in se.items() if why.startswith("a branch this edition never takes")]
    assert dead_se and all("otherwise" in d for d in dead_se)
    assert all("`money.salary_limit` is `every_pass`" in se[d] for d in dead_se)
    assert se["on_pass of `go`: guard dropped"].startswith("the guard already holds")
    assert se["on_pass of `go`: guard flipped"] == us["on_pass of `go`: guard flipped"] == ""
    dead_us = [d for d, why in us.items() if why]
    assert dead_us and all("step 1 (`if`) then" in d for d in dead_us)
