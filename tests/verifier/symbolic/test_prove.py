"""Proofs and their counterexample twins on small, fast cells (the full table is the
`verify` command's job)."""
from __future__ import annotations

import copy
import json

import pytest

import grammar
import spec
from verifier import prove
from verifier.symbolic.actions import catalogue
from verifier.verdicts import Bounded, Proved, Unknown, Violated


@pytest.fixture(scope="module")
def ir():
    return grammar.compile_file(str(spec.bundled()["classic-se"]))


def test_dispatch_covers_the_interpreters_kinds():
    from interpreter.translate import Compiler
    from verifier.symbolic.encode import EXPR_KINDS, STMT_KINDS
    theirs_x = sorted(n[2:] for n in dir(Compiler) if n.startswith("x_"))
    theirs_s = sorted(n[2:] for n in dir(Compiler) if n.startswith("s_"))
    assert set(theirs_x) <= set(EXPR_KINDS)
    assert set(theirs_s) == set(STMT_KINDS)


def test_catalogue_is_derived_from_the_ir(ir):
    names = [a.name for a in catalogue(ir, 2)]
    assert "build_house" in names and "roll" in names
    assert sum(1 for n in names if n.startswith("card:")) == sum(len(d["cards"]) for d in ir["decks"])


def test_a_worked_example_does_not_shape_the_symbolic_state(ir):
    """classic-se's example `last_player_left` (001 "Att vinna spelet") expects `over`, but
    examples are not rules: the symbolic state's `over` stays the constant no (no rule of
    the classic game ends it inside an action), as it is without the examples. Otherwise
    the encoding of every proof changed with an example (one of the broken editions'
    bounded checks ran out of its limit)."""
    from verifier.symbolic.state import fresh
    assert any("over" in str(x["expect"]) for x in ir["examples"])
    without = {**ir, "examples": []}
    assert fresh(prove.playable(ir), 2).over is False and fresh(prove.playable(without), 2).over is False
    passport = grammar.compile_file(str(spec.bundled()["wonders-se"]))      # `end game` is a rule there
    assert fresh(prove.playable(passport), 2).over is not False


@pytest.mark.parametrize("inv", ["money_conservation", "house_stock", "positions"])
def test_start_state(ir, inv):
    assert isinstance(prove.prove_initial(ir, inv, 2), Proved)


@pytest.mark.parametrize("action", ["build_house", "build_hotel", "sell_building", "mortgage", "unmortgage", "roll"])
def test_money_is_conserved(ir, action):
    assert isinstance(prove.prove_preserves(ir, "money_conservation", action, 2), Proved)


def test_house_stock_by_building(ir):
    assert isinstance(prove.prove_preserves(ir, "house_stock", "build_house", 2), Proved)


def test_a_broken_transfer_is_not_proved(ir):
    """Counterexample twin: a card whose payment goes nowhere breaks conservation."""
    bad = copy.deepcopy(ir)
    deck = bad["decks"][0]
    i = next(i for i, c in enumerate(deck["cards"]) if c["effect"] and c["effect"][0].get("stmt") == "transfer")
    deck["cards"][i]["effect"][0]["payee"] = deck["cards"][i]["effect"][0]["payer"] = {"expr": "var", "name": "me"}
    deck["cards"][i]["effect"].append({"stmt": "transfer", "amount": {"expr": "int", "value": 7},
                                       "payer": {"expr": "bank"}, "payee": {"expr": "bank"}})
    # a self-payment is a no-op in both meanings, so this still conserves money
    assert isinstance(prove.prove_preserves(bad, "money_conservation", f"card:{deck['key']}:{i}", 2), Proved)
    bad["settings"]["money"]["start"] = -1
    assert isinstance(prove.bounded(bad, "no_negative_cash", 2, 0), Violated)


def test_not_inductive_is_unknown_not_violated(ir):
    v = prove.prove_preserves(ir, "no_negative_cash", "build_house", 2, strengthen=False)
    assert isinstance(v, (Proved, Unknown))


def test_an_exhausted_budget_is_unknown_not_a_pass(ir):
    v = prove.prove_preserves(ir, "money_conservation", "build_house", 2, units=0)
    assert isinstance(v, Unknown) and "resource limit" in v.reason and "cell's budget" in v.reason


SPENT = """
import json, sys
import grammar, spec
from verifier import prove

def spent(ir, invariant, action):
    \"\"\"The rlimit units each query of the cell spends, in order, and its verdict.\"\"\"
    units, check = [], prove._check
    def counted(solver, *assumptions, **limits):
        before = prove._rcount(solver)
        try:
            return check(solver, *assumptions, **limits)
        finally:
            units.append(prove._rcount(solver) - before)
    prove._check = counted
    try:
        verdict = prove.prove_preserves(ir, invariant, action, 2)
    finally:
        prove._check = check
    return [type(verdict).__name__, verdict.reason, units]
"""


def test_a_cells_queries_do_not_depend_on_the_cells_before_it(ir):
    """docs/verifier.md, "Reading the table": every cell asks in a Z3 context of its own, so
    its queries spend the same rlimit units, to the unit, in a process that proved other
    cells first as in a fresh one: a verdict near the limit cannot change with the order of
    the cells, the process or the machine. classic-se §1 (build evenly): building a house
    keeps `even_building` with the other built-in invariants, instance by instance."""
    import subprocess
    import sys
    namespace: dict = {}
    exec(SPENT, namespace)
    for invariant, action in (("money_conservation", "trade_deed"), ("house_stock", "sell_building"),
                              ("hotel_stock", "build_hotel")):
        prove.prove_preserves(ir, invariant, action, 2)
    warm = namespace["spent"](ir, "even_building", "build_house")
    alone = SPENT + ("ir = grammar.compile_file(str(spec.bundled()['classic-se']))\n"
                     "print(json.dumps(spent(ir, 'even_building', 'build_house')))\n")
    fresh = subprocess.run([sys.executable, "-c", alone], capture_output=True, text=True, check=True)
    assert warm[0] == "Proved" and len(warm[2]) > 3, warm
    assert json.loads(fresh.stdout) == warm


def test_a_payers_bankruptcy_is_unknown_with_its_reason(ir):
    v = prove.prove_preserves(ir, "money_conservation", "square:income_tax", 2)
    assert isinstance(v, Unknown) and "bankruptcy" in v.reason and "not modelled symbolically" in v.reason


def test_a_players_declared_set_is_modelled():
    """wonders-se's own invariant reads the passport (a player's declared set of squares,
    grown by `add` in hooks; the game ends by `end game`): landing, buying and auctions
    keep it. Counterexample twin: without the hook's `end game`, landing on a wonder is
    not shown to keep it (unknown, never proved)."""
    from spec import bundled

    ir = grammar.compile_file(bundled()["wonders-se"])
    own = next(x["name"] for x in ir["invariants"] if x["origin"] == "wonders-se")
    for action in ("hook:land", "buy", "auction"):
        assert isinstance(prove.prove_preserves(ir, own, action, 2), Proved), action
    endless = copy.deepcopy(ir)
    for hook in endless["hooks"]:
        hook["body"] = [s for s in hook["body"] if s.get("stmt") != "end_game"]
    verdict = prove.prove_preserves(endless, own, "hook:land", 2)
    assert isinstance(verdict, Unknown) and "not inductive" in verdict.reason, verdict


def test_a_cell_does_not_depend_on_the_model_z3_picks(monkeypatch):
    """wonders-se's chance 12 (to the nearest station, paying the owner double rent) may
    bankrupt the payer, which preservation proofs do not model; with the other built-in
    invariants it keeps `built_groups_whole` (classic §1: buildings stand only in a group
    held whole). A model of the plain query on the bankruptcy path is as good as any other
    model (Z3 picks one), so it must not end the cell before the strengthened query: with
    every such model read as a bankruptcy the verdict is the same proof. (It used to be
    unknown; a mutant changing the passport bonus, which chance 12 never pays, was killed
    that way by a different model.)"""
    from spec import bundled

    ir = grammar.compile_file(bundled()["wonders-se"])
    proof = prove.prove_preserves(ir, "built_groups_whole", "card:chance:12", 2)
    assert isinstance(proof, Proved) and proof.reason.startswith(prove.STRENGTHENED), proof
    monkeypatch.setattr(prove, "_unmodelled", lambda *args: "unsupported: a payer's bankruptcy (forced)")
    assert prove.prove_preserves(ir, "built_groups_whole", "card:chance:12", 2) == proof


@pytest.fixture(scope="module")
def city():
    return grammar.compile_file(str(spec.bundled()["metropol-da"]))


def _replace(node, old: dict, new: dict):
    """The IR tree with every subtree equal to `old` replaced by `new`."""
    if node == old:
        return new
    if isinstance(node, dict):
        return {k: _replace(v, old, new) for k, v in node.items()}
    if isinstance(node, list):
        return [_replace(v, old, new) for v in node]
    return node


def test_the_city_is_modelled(city):
    """metropol-da p. 10-11 (BYGGERET: a block costs 100.000, paid from the player's cash):
    building a block at the end of a turn keeps `no_negative_cash`, through the end-of-turn
    action, the per-area numbers, `set`, the procedure `place_block`, `turn` and the
    formulas over every area. Counterexample twin: without `me.cash >= block_price()` in
    `allowed`, the payer may go bankrupt: unknown with that reason, never proved."""
    assert isinstance(prove.prove_preserves(city, "no_negative_cash", "action:build_block", 2), Proved)
    enough = {"expr": "bin", "operator": ">=",
              "left": {"expr": "attr", "subject": {"expr": "var", "name": "me"}, "name": "cash"},
              "right": {"expr": "call", "function": "block_price", "args": []}}
    unlimited = copy.deepcopy(city)
    unlimited["actions"] = _replace(city["actions"], enough, {"expr": "bool", "value": True})
    assert unlimited["actions"] != city["actions"]
    verdict = prove.prove_preserves(unlimited, "no_negative_cash", "action:build_block", 2)
    assert isinstance(verdict, Unknown) and "bankruptcy" in verdict.reason, verdict


def test_a_preservation_query_is_simplified_before_it_is_solved(city, monkeypatch):
    """metropol-da p. 10-11, building points 1-3 and 6 (at most two blocks a turn, never two
    in one area): building a block keeps `blocks_per_turn`. The query sums over all 36
    areas; simplified first (values propagated, the step's `x' = term` equations solved
    away) it is proved within the per-query limit. Counterexample twin: the same query in a
    plain solver runs out of the limit: unknown with that reason, never a pass."""
    assert isinstance(prove.prove_preserves(city, "blocks_per_turn", "action:build_block", 2), Proved)
    plain = prove._solver
    monkeypatch.setattr(prove, "_solver", lambda ctx, simplified=False: plain(ctx))
    verdict = prove.prove_preserves(city, "blocks_per_turn", "action:build_block", 2)
    assert isinstance(verdict, Unknown) and "resource limit" in verdict.reason, verdict


def test_a_rule_after_a_landing_in_the_same_step_is_unknown(city):
    """metropol-da p. 2 (City Hall: move to a free permit): the jump's landing is its own
    action, which is the same game because nothing follows it. Twin: a payment after the
    jump would come before the landing symbolically, after it in the game: unknown, with
    that reason, never proved."""
    assert isinstance(prove.prove_preserves(city, "money_conservation", "square:city_hall", 2), Proved)
    after = copy.deepcopy(city)
    hall = next(sq for sq in after["squares"] if sq["key"] == "city_hall")
    move = hall["on_land"][0]["options"][0]["body"][0]
    move["body"].append({"stmt": "transfer", "amount": {"expr": "int", "value": 1}, "payer": {"expr": "bank"},
                         "payee": {"expr": "var", "name": "me"}})
    verdict = prove.prove_preserves(after, "money_conservation", "square:city_hall", 2)
    assert isinstance(verdict, Unknown) and "follows a landing" in verdict.reason, verdict


def test_a_rule_that_can_never_fire_is_dead(ir):
    """With no hotel allowed on a lot, building one can happen in no state the invariants allow."""
    assert prove.can_happen(ir, "build_hotel", 2) is True
    no_hotels = copy.deepcopy(ir)
    no_hotels["settings"]["building"]["hotels_per_lot"] = 0
    assert prove.can_happen(no_hotels, "build_hotel", 2) is False


def test_a_dead_rule_query_does_not_depend_on_the_queries_before_it(ir):
    """docs/verifier.md, "Reading the table": each dead-rule query is asked in a context of
    its own: building a hotel stays dead (classic-se with no hotel allowed on a lot) after
    the other actions' queries, as when asked first, and can happen in the edition as
    printed."""
    no_hotels = copy.deepcopy(ir)
    no_hotels["settings"]["building"]["hotels_per_lot"] = 0
    acts = catalogue(no_hotels, 2)
    first = prove.can_happen(no_hotels, "build_hotel", 2)
    happens = {a.name: prove.can_happen(no_hotels, a, 2) for a in acts}
    assert first is False and happens["build_hotel"] is False
    assert happens["build_house"] is True and happens["roll"] is True
    assert prove.can_happen(ir, "build_hotel", 2) is True


@pytest.fixture(scope="module")
def jackpot():
    return grammar.compile_file(str(spec.bundled()["classic-nl"]), [spec.bundled_variants()["jackpot"]])


def test_the_free_parking_jackpot_is_modelled(jackpot):
    """RULES-MATRIX §3 US variations (Free Parking jackpot): the jail fine goes to the pot,
    not the bank, and the next lander on Free Parking takes the whole pot; money
    conservation counts the pot, and is proved for the fine and at the start.
    Counterexample twin: conservation without the pots is not kept by paying the fine
    (unknown, not inductive, never proved): the fine really reaches the pot."""
    from verifier.symbolic.state import initial

    ed = prove.playable(jackpot)
    acts = {a.name: a for a in catalogue(jackpot, 2, ed)}
    parking = next(sq["key"] for sq in jackpot["squares"]
                   if any(s.get("stmt") == "transfer" and s["payer"].get("expr") == "pot"
                          for s in sq.get("on_land", [])))
    s = initial(ed, 2)
    s.in_jail[0] = True
    fined = acts["jail:pay_fine"].step(ed, s, args={"me": 0}).state
    assert fined.ok is True and fined.pots == [ed.jail_fine] and fined.bank_ledger == s.bank_ledger
    paid = acts["square:" + parking].step(ed, fined, args={"me": 1}).state
    assert paid.pots == [0] and paid.cash[1] == fined.cash[1] + ed.jail_fine

    assert isinstance(prove.prove_initial(jackpot, "money_conservation", 2), Proved)
    assert isinstance(prove.prove_preserves(jackpot, "money_conservation", "jail:pay_fine", 2), Proved)
    counted = next(x for x in jackpot["invariants"] if x["name"] == "money_conservation")
    uncounted = {**counted, "name": "money_without_pots",
                 "body": counted["body"] | {"left": counted["body"]["left"]["left"]}}
    verdict = prove.prove_preserves(jackpot, uncounted, "jail:pay_fine", 2, strengthen=False)
    assert isinstance(verdict, Unknown) and "not inductive" in verdict.reason, verdict


@pytest.mark.parametrize("op", ["==", "!=", "<", "<=", ">", ">="])
def test_the_smart_constructors_build_the_operators_terms(op):
    """`terms` builds sums, differences and comparisons by the Z3 C API: the very terms
    Z3's Python operators build (a numeral on the right is asked first, reflected), so
    solver runs, whose effort depends on the terms, are unchanged."""
    import z3

    from verifier.symbolic import terms as T
    x, y, r = z3.Int("x"), z3.Int("y"), z3.Real("r")
    ops = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
           "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}
    for a, b in [(x, y), (x, 1000), (1000, x), (x + 1, y), (r, x), (r, 3)]:
        assert T.cmp(op, a, b).eq(ops[op](T.lift(a), T.lift(b))), (a, b)
        assert T.add(a, b).eq(T.lift(a) + T.lift(b)) and T.sub(a, b).eq(T.lift(a) - T.lift(b))


def test_a_bounded_checks_later_steps_are_the_proofs_steps_renamed(ir):
    """docs/verifier.md, "Reading the table": after the first step, a bounded check's
    transition is each action's symbolic step (built for the preservation proofs) renamed
    onto the step's state: the same terms as building it there again."""
    from verifier.symbolic.state import fresh
    ed = prove.playable(ir)
    acts = [a for a in catalogue(ir, 2, ed) if a.name in ("roll", "buy", "rent:lot", "card:chance:0")]
    s1 = fresh(ed, 2, prefix="s1.")
    built = [prove._sym_step(ed, a, 2, prove._fresh(ed, 2)) for a in acts]
    direct, renamed = prove._step_all(ed, acts, s1, 1), \
        prove._step_all(ed, acts, s1, 1, built=built)
    assert direct[2].eq(renamed[2]) and direct[4].eq(renamed[4])
    assert [sorted(g.choices) for g in direct[3]] == [sorted(g.choices) for g in renamed[3]]
    assert all(g.choices[k].eq(h.choices[k]) for g, h in zip(direct[3], renamed[3], strict=True) for k in g.choices)


def test_the_citys_formulas_are_worked_out_once_per_area_terms(city, monkeypatch):
    """metropol-da p. 10-11 (the city plan: a block raises one area; the skyscrapers and the
    blocks of a turn are sums over every area): a formula that reads only areas' numbers
    is kept per those terms, and the step it makes is the step worked out per whole state."""
    from verifier.symbolic import encode as C
    from verifier.symbolic import terms as T
    from verifier.symbolic.state import fresh
    ed = prove.playable(city)
    act = next(a for a in catalogue(city, 2, ed) if a.name == "action:build_block")

    def terms(g):
        return list(g.state.values().values()) + [g.state.ok, g.state.unsupported]
    kept = act.step(ed, fresh(ed, 2), abstract_bankruptcy=True)
    assert C._read_terms(ed, "skyscrapers", kept.state) != kept.state.flat()
    monkeypatch.setattr(C, "_read_terms", lambda ed, name, s: s.flat())
    whole = act.step(ed, fresh(ed, 2), abstract_bankruptcy=True)
    assert all(T.same(a, b) for a, b in zip(terms(kept), terms(whole), strict=True))


@pytest.fixture(scope="module")
def ledger():
    return grammar.compile_text('edition ledger extends classic-se\n'
                                'invariant bank_pays_out "the bank takes in no more than it pays out" =\n'
                                '  bank_ledger + count(p in players: yes) * money.start <= 0\n',
                                "ledger.rules")


def test_a_violation_two_steps_deep_is_confirmed_by_the_interpreter(ledger):
    """classic-se "Inkomstskatt" (`pay 4000 to bank` on landing): a declared invariant that
    the bank never takes in more than it pays out is broken by a roll onto the square and
    its landing. The bounded check finds the two steps; the dice the model picked are the
    ones the concrete replay and the interpreter use (a choice's key is the same whether
    the step ran with a symbolic or a concrete seat), so the violation is confirmed.
    Counterexample twin: one step deep there is nothing to find."""
    ir = ledger
    ed = prove.playable(ir)
    acts = [a for a in catalogue(ir, 2, ed) if a.name in ("roll", "square:income_tax")]
    tax = next(sq["index"] for sq in ir["squares"] if sq["key"] == "income_tax")
    verdict = prove.bounded(ir, "bank_pays_out", 2, 2, actions=acts)
    assert isinstance(verdict, Violated), verdict
    roll, land = verdict.trace
    assert roll["action"] == "roll" and roll["choices"] == [["dice", tax, None]]
    assert land["action"] == "square:income_tax" and land["args"] == roll["args"]
    assert isinstance(prove.bounded(ir, "bank_pays_out", 2, 1, actions=acts), Bounded)


def test_a_bankruptcy_at_the_last_step_ends_the_bound(ledger):
    """001 "Inkomstskatt" (`pay 4000 to bank`) and bankruptcy (a player who cannot pay is
    out): with 3 000 kr to start, a roll onto income tax and its landing bankrupt the
    player at step 2, a path bounded checking does not compute, so the bound stops at 1 and
    says why (it used to leave a last step's bankruptcy out of the transition and report 2,
    "no bankruptcy reachable"). Twin: with the edition's 30 000 kr the bound is 2."""
    poor = grammar.compile_text("edition poor extends classic-se\n"
                                "money {\n  start = 3000\n  notes = [1 x 2000, 1 x 1000]\n}\n", "poor.rules")
    for ir, bound in ((poor, 1), (ledger, 2)):
        acts = [a for a in catalogue(ir, 2, prove.playable(ir)) if a.name in ("roll", "square:income_tax")]
        verdict = prove.bounded(ir, "no_negative_cash", 2, 2, actions=acts)
        assert isinstance(verdict, Bounded) and verdict.bound == bound, verdict
        assert ("a bankruptcy is reachable at step 2" in verdict.reason) == (bound == 1), verdict.reason


def test_a_rows_bounded_check_does_not_depend_on_the_rows_before_it(ledger):
    """docs/verifier.md, "Reading the table": each row's bounded check is asked in a
    transition and contexts of its own, so its verdict is the same whether another row's
    checks ran before it or not. classic-se "Inkomstskatt": the violation two steps deep is
    found after another invariant's checks, confirmed by the interpreter, with the same
    trace as when asked alone."""
    acts = [a for a in catalogue(ledger, 2, prove.playable(ledger)) if a.name in ("roll", "square:income_tax")]
    alone = prove.bounded(ledger, "bank_pays_out", 2, 2, actions=acts)
    before = prove.bounded(ledger, "money_conservation", 2, 2, actions=acts)
    after = prove.bounded(ledger, "bank_pays_out", 2, 2, actions=acts)
    assert isinstance(before, Bounded) and before.bound == 2, before
    assert isinstance(alone, Violated) and isinstance(after, Violated), (alone, after)
    assert [(s["action"], s["args"]) for s in after.trace] == [("roll", after.trace[0]["args"]),
                                                               ("square:income_tax", after.trace[0]["args"])]
    assert after.trace == alone.trace


def test_a_pot_never_holds_a_negative_amount(jackpot, ir):
    """RULES-MATRIX §3 US variations (Free Parking jackpot): the pot takes the fine and the
    lander on Free Parking takes the whole pot, so `no_negative_pot` is inductive for both;
    in an edition without pots it is true in every state, even for an action that may
    bankrupt (classic-se's income tax). Counterexample twin: a Free Parking that pays a fixed
    amount out of the pot is not proved."""
    parking = next(sq for sq in jackpot["squares"]
                   if any(s.get("stmt") == "transfer" and s["payer"].get("expr") == "pot"
                          for s in sq.get("on_land", [])))
    for action in ("jail:pay_fine", "square:" + parking["key"]):
        assert prove.prove_preserves(jackpot, "no_negative_pot", action, 2) == Proved("inductive"), action
    assert prove.prove_preserves(ir, "no_negative_pot", "square:income_tax", 2) == Proved(prove.EVERY_STATE)
    fixed = copy.deepcopy(jackpot)
    square = next(sq for sq in fixed["squares"] if sq["key"] == parking["key"])
    take = next(s for s in square["on_land"] if s.get("stmt") == "transfer" and s["payer"].get("expr") == "pot")
    take["amount"] = {"expr": "int", "value": 7}
    assert isinstance(prove.prove_preserves(fixed, "no_negative_pot", "square:" + parking["key"], 2), Unknown)


def test_once_a_cell_leans_on_the_other_invariants_each_instance_is_asked_with_them(ir, monkeypatch):
    """classic-se §1 (build evenly within a group): building keeps `even_building` only from
    states where the other built-in invariants hold too (levels in range, no building on a
    mortgaged group). Once one instance needed them, the later instances are asked with them
    first (the plain query only where that one does not finish): one query per instance,
    not two, and the same verdict."""
    queries = []
    check = prove._check
    monkeypatch.setattr(prove, "_check", lambda solver, **limits: queries.append(1) or check(solver, **limits))
    v = prove.prove_preserves(ir, "even_building", "build_house", 2)
    assert isinstance(v, Proved) and v.reason.startswith(prove.STRENGTHENED), v
    act = prove._action(ir, "build_house", 2)
    assert len(queries) <= len(list(prove.instances(act))) + 3


def test_a_rule_reading_one_die_is_unknown_with_its_reason():
    """issue 24: `die(N)` reads one die of the throw, and the symbolic semantics throws the
    dice as their total: a roll whose hook reads a die, and a rent that does, are unknown
    with that reason, never proved and never a crash; the rest of the edition still proves."""
    from tests.interpreter.test_throw import BUS
    bus = grammar.compile_text(BUS, "bus.rules")
    for action in ("roll", "rent:utility"):
        verdict = prove.prove_preserves(bus, "money_conservation", action, 2)
        assert isinstance(verdict, Unknown) and "`die(N)`" in verdict.reason, (action, verdict)
    assert isinstance(prove.prove_preserves(bus, "money_conservation", "build_house", 2), Proved)
