"""Spec mutation: derive mutants of an edition's IR (an amount or a limit changed, a guard
flipped or dropped, a transfer redirected or dropped, a step skipped: of a square, a card,
a hook, a procedure or an end-of-turn action),
drop those Z3 proves equivalent to the original, and score a check against the rest
(by default: printed texts, worked examples, then the original's proofs).

    mutants(ir) -> [Mutant]                                   # every mutant, not yet judged
    mutation_score(ir, check=None, only="") -> MutationReport   # check(ir) -> truthy when caught
"""
from __future__ import annotations

import copy
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from typing import Any

import z3

from grammar.language import SECTION_PART, parts

from . import prove
from .examples import run_all
from .symbolic import terms
from .symbolic.actions import catalogue
from .symbolic.encode import Ctx, Unsupported
from .symbolic.engine import SymGame
from .symbolic.state import fresh
from .texts import disagreements
from .verdicts import Unknown


@dataclass
class Mutant:
    description: str
    ir: dict
    # action names whose IR changed ([]: every action, for a setting, a hook or a procedure)
    touches: list[str] = field(default_factory=list)
    setting: tuple[str, ...] = ()                  # (section, key) of a settings mutant
    equivalent: str = ""                           # why it was dropped, when it was
    caught: str | bool = ""                        # what caught it, when something did


@dataclass
class MutationReport:
    score: float
    killed: list[Mutant]
    survived: list[Mutant]
    dropped: list[Mutant]

    def to_json(self) -> dict:
        return {"score": self.score, "killed": len(self.killed), "survived": len(self.survived),
                "survivors": [m.description for m in self.survived],
                "kills": [{"mutant": m.description, "caught_by": m.caught if isinstance(m.caught, str) else "the check"}
                          for m in self.killed],
                "dropped": [{"mutant": m.description, "reason": m.equivalent} for m in self.dropped]}


SETTING_LIMITS = [("bank", "houses"), ("bank", "hotels"), ("building", "houses_per_hotel"),
                  ("building", "max_houses"), ("building", "hotels_per_lot"), ("jail", "max_turns"),
                  ("jail", "fine"), ("money", "salary")]
# A limit the rules read in one action's guard alone (interpreter/rules.py, verifier/symbolic/rules.py;
# the heuristic player reads it too, to choose, not as a rule): a mutant of it is equivalent when Z3
# shows that action unchanged from every state the original's invariants and lemmas allow.
GUARD_ONLY = {("building", "hotels_per_lot"): "build_hotel"}
SETTING_GUARDS = [("rent", "due"), ("buy", "may"), ("auction", "on_decline"), ("building", "may"), ("mortgage", "may"),
                  ("mortgage", "may_lift")]
# The amounts a rule charges (`mortgage.lift`, `building.sell_house`, ...): read where a mortgage
# is lifted, a mortgaged deed changes hands and a building is sold back (trades, raising money,
# bankruptcy), so each touches every action.
SETTING_AMOUNTS = [("mortgage", "lift"), ("mortgage", "transfer"), ("building", "sell_house"),
                   ("building", "sell_hotel"), ("building", "trade_hotel")]
SETTING_FLAGS = [("building", "even"), ("auction", "bid_within_cash")]


Block = tuple[tuple, str, list[str]]     # (path in the IR, where it is for people, the actions it touches)


CellProved = Callable[[str, str], bool]      # (invariant, action) -> the original's proof of it passed
ActionHappens = Callable[[str], bool]        # action -> it can happen in the original


def mutants(ir: dict) -> list[Mutant]:
    out = _settings(ir) + _guards(ir) + _amounts(ir)
    for path, where, touches in [inner for block in _blocks(ir) for inner in _nested(ir, *block)]:
        out += _steps(ir, path, where, touches)
    # formulas (Metropol's city plan and end phase, wonders-se's passport): a number one
    # lower and one higher, every comparison flipped; a formula is read wherever it is
    # named, so its mutant touches every action
    for name, formula in (ir.get("formulas") or {}).items():
        body = formula["body"]
        if body.get("expr") == "int":
            for new in (body["value"] - 1, body["value"] + 1):
                m = copy.deepcopy(ir)
                m["formulas"][name]["body"] = {"expr": "int", "value": new}
                out.append(Mutant(f"formula `{name}` = {new} (was {body['value']})", m))
        out += _flipped(ir, ("formulas", name, "body"), f"formula `{name}`", [])
    # when the game is over (the end section's `over`), read after every action
    if isinstance(ir.get("settings", {}).get("end", {}).get("over"), dict):
        out += _flipped(ir, ("settings", "end", "over"), "end `over`", [])
    # rent rules: every comparison flipped
    for kind in ir.get("rent", {}):
        out += _flipped(ir, ("rent", kind), f"rent.{kind}", [f"rent:{kind}"])
    return out


def _settings(ir: dict) -> list[Mutant]:
    """Every limit one lower and one higher, every flag the other way."""
    out: list[Mutant] = []
    settings = ir.get("settings", {})
    # a section of a part the game does not have (Metropol: no jail, no houses) reads 0 and
    # `no`: no rule consults it, so changing it would test nothing
    has = parts(settings) | {None}
    for section, key in _of(has, SETTING_LIMITS):
        v = settings.get(section, {}).get(key)
        if isinstance(v, int) and not isinstance(v, bool):
            for new in (v - 1, v + 1):
                m = copy.deepcopy(ir)
                m["settings"][section][key] = new
                out.append(Mutant(f"setting {section}.{key} = {new} (was {v})", m, setting=(section, key)))
    for section, key in _of(has, SETTING_FLAGS):
        v = settings.get(section, {}).get(key)
        if isinstance(v, bool):
            m = copy.deepcopy(ir)
            m["settings"][section][key] = not v
            out.append(Mutant(f"setting {section}.{key} = {not v} (was {v})", m, setting=(section, key)))
    return out


def _blocks(ir: dict) -> list[Block]:
    """The top-level blocks of statements: of squares, cards, hooks, procedures and
    end-of-turn actions."""
    blocks: list[Block] = []
    for i, square in enumerate(ir["squares"]):
        for part, action in (("on_land", "square:"), ("on_pass", "pass:")):
            if square.get(part):
                blocks.append((("squares", i, part), f"{part} of `{square['key']}`", [action + square["key"]]))
    for k, d in enumerate(ir.get("decks", [])):
        for i, card in enumerate(d.get("cards", [])):
            if card.get("effect"):
                blocks.append((("decks", k, "cards", i, "effect"), f"card {i} of `{d['key']}`",
                               [f"card:{d['key']}:{i}"]
                               + [f"square:{square['key']}" for square in ir["squares"] if _draws(square, d["key"])]))
    # the blocks the rules of a city or a passport live in (Metropol, wonders-se): a hook
    # runs after any action that lands, acquires or pays rent and a procedure wherever it
    # is called, so their mutants touch every action (checked like a setting's)
    for i, hook in enumerate(ir.get("hooks") or []):
        if hook.get("body"):
            blocks.append((("hooks", i, "body"), f"hook {i + 1} (`when {hook['event']}`)", []))
    for name, procedure in (ir.get("procedures") or {}).items():
        if procedure.get("body"):
            blocks.append((("procedures", name, "body"), f"procedure `{name}`", []))
    for i, act in enumerate(ir.get("actions") or []):
        if act.get("effect"):
            blocks.append((("actions", i, "effect"), f"action `{act['key']}`", [f"action:{act['key']}"]))
    return blocks


def _steps(ir: dict, path: tuple, where: str, touches: list[str]) -> list[Mutant]:
    """Each statement of the block at `path` skipped, a transfer redirected or dropped or its
    amount changed, an `if`'s guard flipped and dropped."""
    out: list[Mutant] = []
    statements = _get(ir, path)
    dead = _dead(ir, path)
    for j, statement in enumerate(statements):
        if len(statements) > 1 or statement.get("stmt") != "transfer":     # a lone transfer: dropped below
            m = copy.deepcopy(ir)
            del _get(m, path)[j]
            out.append(Mutant(f"{where}: skip step {j + 1} (`{statement.get('stmt')}`)", m, touches))
        if statement.get("stmt") == "transfer":
            out += _transfer(ir, path, j, where, touches, alone=len(statements) == 1)
        if statement.get("stmt") == "if":
            m = copy.deepcopy(ir)
            changed = _get(m, path)[j]
            changed["cond"] = {"expr": "not", "operand": changed["cond"]}
            out.append(Mutant(f"{where}: guard flipped", m, touches))
            m = copy.deepcopy(ir)
            changed = _get(m, path)[j]
            changed["cond"] = {"expr": "bool", "value": True}
            decided = _decided(ir, statement["cond"])
            out.append(Mutant(f"{where}: guard dropped", m, touches,
                              equivalent=f"the guard already holds: {decided[1]}" if decided and decided[0] else ""))
    for mutant in out:
        mutant.equivalent = mutant.equivalent or dead
    return out


def _decided(ir: dict, cond: dict) -> tuple[bool, str] | None:
    """Whether a guard that compares a decided rule with one of its options (`money.salary_limit
    == every_pass`) holds in this edition, and the decision that says so; None for any other guard."""
    if cond.get("expr") != "bin" or cond.get("operator") not in ("==", "!=") \
            or cond["left"].get("expr") != "setting" or cond["right"].get("expr") != "enum":
        return None
    section, key = cond["left"]["path"].split(".")
    value = ir.get("settings", {}).get(section, {}).get(key)
    if value is None:
        return None
    return (value == cond["right"]["value"]) == (cond["operator"] == "=="), f"`{section}.{key}` is `{value}` here"


def _dead(ir: dict, path: tuple) -> str:
    """Why the block at `path` never runs in this edition ("" when it may): it is the branch
    of an `if` on a decided rule that the edition's decision does not take (GO's once-per-lap
    branch where the salary is paid on every pass). Its mutants change nothing."""
    for k in range(len(path) - 1):
        branch = path[k + 1]
        if branch in ("then", "otherwise") and isinstance(path[k], int):
            statement = _get(ir, path[:k + 1])
            decided = _decided(ir, statement.get("cond") or {}) if statement.get("stmt") == "if" else None
            if decided and decided[0] != (branch == "then"):
                return f"a branch this edition never takes: {decided[1]}"
    return ""


def _transfer(ir: dict, path: tuple, j: int, where: str, touches: list[str], alone: bool) -> list[Mutant]:
    """The transfer at step `j` of the block at `path` dropped (when it is the block's only
    step), redirected, and its amount one higher (a number's)."""
    out: list[Mutant] = []
    if alone:
        m = copy.deepcopy(ir)
        del _get(m, path)[j]
        out.append(Mutant(f"{where}: drop the transfer", m, touches))
    m = copy.deepcopy(ir)
    changed = _get(m, path)[j]
    changed["payer"], changed["payee"] = changed["payee"], changed["payer"]
    out.append(Mutant(f"{where}: transfer redirected (payer and payee swapped)", m, touches))
    amount = _get(ir, path)[j]["amount"]
    if amount.get("expr") == "int":    # (to 0 would be the transfer dropped, again)
        m = copy.deepcopy(ir)
        _get(m, path)[j]["amount"] = {"expr": "int", "value": amount["value"] + 1}
        out.append(Mutant(f"{where}: amount {amount['value']} -> {amount['value'] + 1}", m, touches))
    return out


def _of(has: set, settings: list) -> list:
    """The settings of the parts of the game in `has` (a section of no part: None)."""
    return [(section, key) for section, key in settings if SECTION_PART.get(section) in has]


def _guards(ir: dict) -> list[Mutant]:
    """A hook's condition and an action's `allowed` and `required`, each flipped and dropped
    (made true), like an `if` statement's guard."""
    guards: list[Block] = [(("hooks", i, "cond"), f"hook {i + 1} (`when {hook['event']}`)", [])
              for i, hook in enumerate(ir.get("hooks") or []) if hook.get("cond") is not None]
    guards += [(("actions", i, key), f"action `{act['key']}`" + ("" if key == "allowed" else f" `{key}`"),
                [f"action:{act['key']}"])
               for i, act in enumerate(ir.get("actions") or []) for key in ("allowed", "required")
               if act.get(key) is not None]
    # the property rule's conditions (`rent.due`, `buy.may`, `auction.on_decline`): read by
    # every landing on a deed, cards' moves included; the holder's rules (`building.may`,
    # `mortgage.may`): read in every manage window and while raising money; so each touches
    # every action, and each of its conditions joined by `and` is also left out on its own
    # (one requirement of the rule forgotten)
    settings: list[Block] = [(("settings", section, key), f"setting {section}.{key}", [])
                             for section, key in SETTING_GUARDS
                             if isinstance(ir.get("settings", {}).get(section, {}).get(key), dict)]
    guards += settings
    out = [mutant for path, where, _ in settings for mutant in _conjuncts_dropped(ir, path, where)]
    for path, where, touches in guards:
        for change, new in (("flipped", lambda cond: {"expr": "not", "operand": cond}),
                            ("dropped", lambda cond: {"expr": "bool", "value": True})):
            m = copy.deepcopy(ir)
            owner = _get(m, path[:-1])
            if change == "dropped" and owner[path[-1]] == {"expr": "bool", "value": True}:
                continue        # a guard that is already `yes`: dropping it changes nothing
            owner[path[-1]] = new(owner[path[-1]])
            out.append(Mutant(f"{where}: guard {change}", m, touches))
    return out


def _conjuncts_dropped(ir: dict, path: tuple, where: str) -> list[Mutant]:
    """The condition at `path` with each of its parts joined by `and` left out in turn (none
    for a condition of one part: dropping the whole guard covers it)."""
    count = len(_conjuncts(_get(ir, path)))
    out = []
    for k in range(count if count > 1 else 0):
        m = copy.deepcopy(ir)
        node = _conjuncts(_get(m, path))[k]
        node.clear()
        node.update({"expr": "bool", "value": True})
        out.append(Mutant(f"{where}: condition {k + 1} of {count} left out", m, []))
    return out


def _conjuncts(node: dict) -> list[dict]:
    """The parts of a condition joined by `and`, left to right (the node itself when it is
    no conjunction)."""
    if node.get("expr") == "bin" and node.get("operator") == "and":
        return _conjuncts(node["left"]) + _conjuncts(node["right"])
    return [node]


_SWAP = {"+": "-", "-": "+", "*": "/", "/": "*"}


def _amounts(ir: dict) -> list[Mutant]:
    """Every arithmetic operator of an amount the other way (`+` and `-`, `*` and `/`), and
    either term of a sum left out (the interest forgotten, or the value paid back); not in a
    branch the edition's decisions never take."""
    out = []
    for section, key in SETTING_AMOUNTS:
        path = ("settings", section, key)
        if not isinstance(ir.get("settings", {}).get(section, {}).get(key), dict):
            continue
        where = f"setting {section}.{key}"
        for k, node in enumerate(_operations(_get(ir, path), _SWAP, ir=ir)):
            op = node["operator"]
            m = copy.deepcopy(ir)
            _operations(_get(m, path), _SWAP, ir=m)[k]["operator"] = _SWAP[op]
            out.append(Mutant(f"{where}: operator {k + 1} `{op}` -> `{_SWAP[op]}`", m, []))
            for side, other in (("left", "right"), ("right", "left")) if op == "+" else ():
                m = copy.deepcopy(ir)
                target = _operations(_get(m, path), _SWAP, ir=m)[k]
                kept = target[other]
                target.clear()
                target.update(kept)
                out.append(Mutant(f"{where}: operator {k + 1} `+` without its {side} term", m, []))
    return out


def _nested(ir: dict, path: tuple, where: str, touches: list[str]) -> Iterator[Block]:
    """The block at `path` and every block inside its statements (`if` branches, `for` and
    `choose_in` bodies, the options of `choose`), each as (path, where, touches): a step
    inside a loop or an option is mutated like a step at the top."""
    yield path, where, touches
    for j, stmt in enumerate(_get(ir, path)):
        inner: list[tuple] = [(key,) for key in ("then", "otherwise", "body") if stmt.get(key)]
        inner += [("options", i, "body") for i, option in enumerate(stmt.get("options") or ()) if option.get("body")]
        for rest in inner:
            name = rest[0] if len(rest) == 1 else f"option {rest[1] + 1}"
            yield from _nested(ir, path + (j,) + rest, f"{where}, step {j + 1} (`{stmt['stmt']}`) {name}", touches)


_FLIP = {"<": ">=", ">=": "<", ">": "<=", "<=": ">", "==": "!=", "!=": "=="}


def _flipped(ir: dict, path: tuple, where: str, touches: list) -> list[Mutant]:
    """Every comparison of the expression at `path`, each flipped in a mutant of its own."""
    out = []
    for k, sub in enumerate(_comparisons(_get(ir, path))):
        m = copy.deepcopy(ir)
        _comparisons(_get(m, path))[k]["operator"] = _FLIP[sub["operator"]]
        out.append(Mutant(f"{where}: comparison {k + 1} `{sub['operator']}` -> `{_FLIP[sub['operator']]}`", m, touches))
    return out


def _comparisons(node: object) -> list[dict]:
    return _operations(node, _FLIP)


def _operations(node: object, operators: Collection[str], acc: list[dict] | None = None,
                ir: dict | None = None) -> list[dict]:
    """Every binary operation of `operators` in an expression, outermost first; with `ir`,
    only in the branches of an `if` on a decided rule that the edition takes."""
    acc = [] if acc is None else acc
    if isinstance(node, dict):
        if ir is not None and node.get("expr") == "if" and (taken := _decided(ir, node["cond"])):
            return _operations(node["then" if taken[0] else "otherwise"], operators, acc, ir)
        if node.get("expr") == "bin" and node.get("operator") in operators:
            acc.append(node)
        for v in node.values():
            _operations(v, operators, acc, ir)
    elif isinstance(node, list):
        for v in node:
            _operations(v, operators, acc, ir)
    return acc


def _draws(square: dict, deck: str) -> bool:
    return any(statement.get("stmt") == "draw" and statement.get("deck") == deck
               for statement in square.get("on_land") or [])


def _get(ir: dict, path: tuple) -> Any:
    node = ir
    for key in path:
        node = node[key]
    return node


def _equivalent(ir: dict, m: Mutant, players: int = 2) -> str:
    """Z3: the mutated rent formula equals the original on every state, or the one action that
    reads a mutated limit is unchanged (GUARD_ONLY) -> dropped."""
    if m.setting in GUARD_ONLY:
        action = GUARD_ONLY[m.setting]     # in the catalogue: its part of the game is there, or no mutant
        if prove.same_step(ir, m.ir, action, players):
            return (f"Z3: `{action}`, the one rule that reads `{'.'.join(m.setting)}`, is unchanged from every state "
                    "where the original's invariants and lemmas hold")
        return ""
    if not m.description.startswith("rent."):
        return ""
    kind = m.description.split(":")[0][5:]
    edition = prove.playable(ir)
    state = fresh(edition, 2)
    level, owned, mig, dice = z3.Ints("level owned mig dice")
    complete = z3.Bool("complete")
    out = []
    for tree in (ir, m.ir):
        game = SymGame(edition, state.copy())
        ctx = Ctx(0, dice)
        ctx.level, ctx.owned, ctx.complete, ctx.mortgaged_in_group = level, owned, complete, mig
        square = next(x for x in edition.deeds if game.squares[x]["kind"] == kind)
        ctx.printed = edition.printed[square]
        try:
            out.append(terms.lift(game.expr(tree["rent"][kind], ctx)))
        except (Unsupported, IndexError):
            return ""
    solver = z3.Solver()
    solver.set("rlimit", 5_000_000)
    solver.add(out[0] != out[1], level >= 0, level <= edition.hotel_level, owned >= 1, owned <= 4, mig >= 0, dice >= 2)
    if solver.check() == z3.unsat:
        return "Z3: the mutated formula equals the original on every rent context"
    return ""


def default_check(ir: dict, touches: list[str] | None = None, players: int = 2, proved: CellProved | None = None,
                  texts: frozenset[str] = frozenset(), happens: ActionHappens | None = None,
                  examples: frozenset[str] | None = None) -> str:
    """Why the mutant is caught ("" when it is not): a printed text (a card, a square, the box)
    disagrees with the rules (one the original's `texts` does not), a worked example fails
    that the original passes (`examples`: their names; None: every example of the mutant), the
    start state breaks an
    invariant is no longer proved for an action the mutant changed (every action for a
    settings mutant) where the original edition's is (`proved(invariant, action)`), or such
    an action can no longer happen where the original's can (`happens(action)`)."""
    for text in disagreements(ir):
        if text not in texts:
            return f"printed text: {text}"
    for outcome in run_all(ir):
        if not outcome.passed and (examples is None or outcome.name in examples):
            return f"example {outcome.name}: {outcome.why}"
    acts = catalogue(ir, players)
    if touches:
        acts = [a for a in acts if a.name in touches]
    for inv in ir["invariants"]:
        if not prove.prove_initial(ir, inv, players).passed:
            return f"{inv['name']} x start: false in the start state"
        for a in acts:
            if proved is None or proved(inv["name"], a.name):
                verdict = prove.prove_preserves(ir, inv, a, players)
                # a query that ran out of its limit found nothing: the mutant's terms, made
                # in another order, may merely cost a few units more than the original's
                if not verdict.passed and not (isinstance(verdict, Unknown) and verdict.gave_up):
                    return f"{inv['name']} x {a.name}: {verdict.reason}"
    for a in acts:
        if happens is not None and prove.can_happen(ir, a, players) is False and happens(a.name):
            return f"{a.name} can no longer happen in any state the invariants allow (a dead rule)"
    return ""


def original_proofs(ir: dict, players: int = 2) -> tuple[CellProved, ActionHappens]:
    """`proved(invariant, action)` and `happens(action)` for the original edition, each
    decided once, when first asked (a mutant of one card needs only that card's cells)."""
    cells: dict = {}

    def proved(invariant: str, action: str) -> bool:
        if (invariant, action) not in cells:
            cells[(invariant, action)] = prove.prove_preserves(ir, invariant, action, players).passed
        return cells[(invariant, action)]

    def happens(action: str) -> bool:
        if action not in cells:
            cells[action] = prove.can_happen(ir, action, players) is True
        return cells[action]
    return proved, happens


def mutation_score(ir: dict, check: Callable[[dict], str | bool] | None = None, players: int = 2,
                   only: str = "") -> MutationReport:
    """Score `check` (default: `default_check` against the original's proofs) on every
    mutant, or on those whose description contains `only`."""
    ms = [m for m in mutants(ir) if only in m.description]
    for m in ms:
        m.equivalent = m.equivalent or _equivalent(ir, m, players)
    dropped = [m for m in ms if m.equivalent]
    live = [m for m in ms if not m.equivalent]
    proved, happens = original_proofs(ir, players)
    texts = frozenset(disagreements(ir))
    passing = frozenset(outcome.name for outcome in run_all(ir) if outcome.passed)
    killed: list[Mutant] = []
    survived: list[Mutant] = []
    for m in live:
        m.caught = check(m.ir) if check is not None else \
            default_check(m.ir, m.touches, players, proved, texts, happens, passing)
        (killed if m.caught else survived).append(m)
    score = len(killed) / len(live) if live else 1.0
    return MutationReport(score, killed, survived, dropped)
