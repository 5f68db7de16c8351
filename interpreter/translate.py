"""IR expressions and statements -> Python functions, compiled once per edition.

Every compiled expression is a function `f(g, c)` of the running game `g` (an
`engine.Game`) and the evaluation context `c` (a `Ctx`: who moves, the dice, the rent
names): the handlers write it as Python source (IR values and spec names enter the text
only as bound names), and `Compiler.fn` makes it one function, so a formula costs one call,
not one per node. A statement list is made one function the same way, its statements
calling the engine with their expressions inline. Constant subtrees
(settings, decisions, literals) are folded at compile time, so
`rent.mortgaged_group == double_unmortgaged` costs nothing at run time. Exact ratios
(`/`, percent) use `fractions.Fraction`; money is rounded where it moves (`transfer`).

Each IR kind has one handler here, named after it; an unknown kind is a `CompileError`.

`g` and `c` stay short here, against the rule of naming the game `game` and the context
`ctx`: they are the compiled functions' parameters, written into the text of every formula
and statement this module generates (and the closures beside it keep the same two names).
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from grammar.walk import nodes_in

from . import actions as A
from .errors import RuleError
from .state import BANK, POT0

if TYPE_CHECKING:
    Compiled = tuple[bool, Any]
    """An expression compiled: (True, its constant value) or (False, its Python source)."""
    from .parts import GameParts

    Rule = Callable[[GameParts, "Ctx"], Any]
    """A compiled expression or statement: `f(game, ctx)`."""
    HolderRule = Callable[[GameParts, int, int], Any]
    """A holder's rule compiled: `f(game, me, here)` (`Compiler.holder`)."""
    Hook = tuple[str, Rule | None, Rule | None, frozenset[str]]
    """A compiled hook: (its variable, its condition, its body, the ways it fires on)."""
    Option = tuple[str, Rule | None, Rule]
    """An option of a `choose`: (its label, its body, what it costs `me`, a hint)."""
    Node = dict[str, Any]
    """An IR expression or statement, read as the plain data it is (docs/ir.md)."""
    Env = dict[str, Compiled | None]
    """The names bound where a node is compiled: None for a statement's loop variable (read
    from `c.vars`), else what the name stands for (an aggregate's loop name, a formula's argument)."""
    from .edition import Edition


class CompileError(Exception):
    """The IR holds a construct the engine does not support (never a silent pass)."""


class Ctx:
    """The names an expression or effect can see (docs/language.md, "Names available")."""
    __slots__ = ("me", "dice", "owner", "printed", "level", "owned", "complete", "mortgaged_in_group",
                 "rent", "roll", "vars", "reason", "kept", "card", "rent_fn", "doubles", "here", "thrown")
    me: int
    dice: int
    thrown: tuple[int, ...]
    owner: int
    printed: tuple[int, ...] | list[int]
    level: int
    owned: int
    complete: bool
    mortgaged_in_group: int
    rent: Any
    roll: int | None
    vars: dict[str, Any]
    reason: str
    kept: bool
    card: tuple[int, int] | None
    rent_fn: Rule | None
    doubles: bool
    here: int

    def __init__(self, me: int = BANK, dice: int = 0, reason: str = ""):
        self.vars = {}
        self.card = None          # what `draw` and `advance` bind, they restore
        self.rent_fn = None
        self.here = 0
        self.again(me, dice, reason)

    def again(self, me: int, dice: int, reason: str = "", doubles: bool = False,
              thrown: tuple[int, ...] = ()) -> "Ctx":
        """As new, for another move (the engine keeps one for the moves by the dice: making
        one per roll cost more than some rules), but for `vars`, `card` and `rent_fn`, whose
        every binding its binder restores. `thrown` is the faces of the throw whose total is
        `dice` (what `die(N)` reads), kept as the engine threw them."""
        self.me = me
        self.dice = dice
        self.thrown = thrown
        self.doubles = doubles
        self.reason = reason
        self.roll = None
        self.kept = False
        if self.here != -1:       # the rent names, bound by `Game.rent` (`here` with them)
            self.here = -1
            self.owner = BANK
            self.printed = ()
            self.level = 0
            self.owned = 0
            self.complete = False
            self.mortgaged_in_group = 0
            self.rent = 0
        return self


# A compiled expression is (True, value) when constant, else (False, source): Python
# source text over `g`, `c`, loop names and the compiler's named values, made a function
# once by `Compiler.fn` (one Python function per expression, not one call per node).


def _divide(a, b):
    """Exact division: an int when it divides evenly (Fraction arithmetic is slow)."""
    if type(a) is int and type(b) is int and b and not a % b:
        return a // b
    return Fraction(a) / b


def _at(items, i):
    """`items[i]`, counting from 0: an index outside the list, or one that is not a whole
    number, stops the rule (E504); a negative index never reads from the end as Python's does."""
    if type(i) is not int:
        if i != int(i):
            raise RuleError("E504", f"index {i} is not a whole number")
        i = int(i)
    if 0 <= i < len(items):
        return items[i]
    raise RuleError("E504", f"index {i} is outside a list of {len(items)} (counted from 0)")


def _die(thrown: tuple[int, ...], n: object, dice: int) -> int:
    """`die(n)`: die `n` (counted from 1) of the current throw, 0 where no throw is in scope
    (an action, the setup), as `dice` is; a die the game does not have stops the rule (E504)."""
    if type(n) is not int or not 1 <= n <= dice:
        raise RuleError("E504", f"die {n} of a game of {dice} dice (counted from 1)")
    return thrown[n - 1] if thrown else 0


def _scale(a: int | Fraction, num: int, den: int) -> int | Fraction:
    """`a * num/den` exactly (a percent, a constant ratio): an int when it comes out whole."""
    if type(a) is int:
        v = a * num
        return v // den if not v % den else Fraction(v, den)
    return a * Fraction(num, den)


def _destination(body: list, var: str) -> tuple[str, bool] | None:
    """Where picking `var` puts my token, for strategies weighing the choice: ("at", lands) when
    the block starts with `jump to var` / `place at var`, ("by", True) with `move by var`."""
    if not body:
        return None
    first, chosen = body[0], {"expr": "var", "name": var}
    if first.get("stmt") in ("jump_to", "place_at") and first.get("target") == chosen:
        return "at", first["stmt"] == "jump_to"
    if first.get("stmt") == "move_by" and first.get("steps") == chosen:
        return "by", True
    return None


def _is(node: Node, kind: str, **fields: object) -> bool:
    """Whether an IR node is an expression of `kind` with those fields."""
    return node.get("expr") == kind and all(node.get(key) == value for key, value in fields.items())


def _count(values: Iterable[object]) -> int:
    """How many of `values` hold, counted in C (`map`, `sum`): a generator resumes bytecode for
    every value, and wonders-se counts the squares at every landing (docs/speed.md)."""
    return sum(map(bool, values))


def _round(edition: Edition, amount: int | Fraction) -> int:
    if isinstance(amount, int):
        return amount
    return math.ceil(amount) if edition.rounding_up else math.floor(amount)


class Compiler:
    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        self.formula_stack: list[str] = []
        # what generated code reads
        self.names: dict = {"_divide": _divide, "_scale": _scale, "_count": _count, "_round": _round, "_at": _at,
                            "_die": _die}
        self.loops = 0                                              # aggregate loop names made
        self.kinds: dict[str, str] = {}                             # loop name -> kind of its values
        self.procedures: dict[str, object] = {}                     # name -> its compiled block
        self.blocks = 0                                             # statement functions made
        self.hoisted: list[str] = []      # `hN := source` of the expression being made a function

    # ---- expressions ---------------------------------------------------------------

    def expr(self, node: Node, env: Env) -> Compiled:
        kind = node.get("expr")
        handler = getattr(self, "x_" + str(kind), None)
        if handler is None:
            raise CompileError(f"unsupported expression kind `{kind}`")
        return handler(node, env)

    def fn(self, node: Node, env: Env) -> Rule:
        outer, self.hoisted = self.hoisted, []
        try:
            return self.function(self.expr(node, env))
        finally:
            self.hoisted = outer

    def holder(self, node: Node) -> HolderRule:
        """A holder's rule (`building.may`, `mortgage.may`, ...) as a function `f(game, me,
        here)`: the player and the deed are its arguments, not a context's fields (the engine
        asks it of every deed a player may build on or mortgage)."""
        outer, self.hoisted = self.hoisted, []
        try:
            const, value = compiled = self.expr(node, {"me": (False, "me"), "here": (False, "here")})
            if const:
                return lambda g, me, here: value
            return eval(f"lambda g, me, here: {self._joined(compiled)}", self.names)
        finally:
            self.hoisted = outer

    def text(self, node: Node, env: Env) -> str:
        """An expression as the source of one Python expression over `g`, `c` and `names`
        (what `fn` makes a function of), for a reader that fuses several (interpreter/invariants.py)
        and for the lines of a statement."""
        return self.written(node, env)[1]

    def written(self, node: Node, env: Env) -> tuple[Compiled, str]:
        """An expression compiled, and as `text` gives it."""
        outer, self.hoisted = self.hoisted, []
        try:
            compiled = self.expr(node, env)
            return compiled, self._joined(compiled)
        finally:
            self.hoisted = outer

    def _joined(self, compiled: Compiled) -> str:
        """A compiled expression as one Python expression, its hoisted aggregates first."""
        if compiled[0] or not self.hoisted:
            return self.source(compiled)
        return f"({', '.join(self.hoisted)}, {compiled[1]})[-1]"

    def of_text(self, text: str) -> Rule:
        """The function `f(g, c)` of an expression's source (`text`)."""
        return eval(f"lambda g, c: {text}", self.names)

    def function(self, compiled: Compiled) -> Rule:
        """A compiled expression as a function `f(g, c)`; its hoisted aggregates come first."""
        const, value = compiled
        if const:
            return lambda g, c: value
        return self.of_text(self._joined(compiled))

    def filter_fn(self, over: Node, var: str, cond: Node | None, env: Env) -> Rule:
        """`[x in OVER where COND]` as one function `f(g, c) -> list` (one evaluation, so the
        condition's parts that do not read `x` are worked out once, not once per element)."""
        node = {"expr": "agg", "function": "filter", "var": var, "over": over,
                "body": cond or {"expr": "bool", "value": True}}
        return self.fn(node, env)

    def source(self, compiled: Compiled) -> str:
        """A compiled expression as source text (a constant by a name bound to its value)."""
        const, value = compiled
        if not const:
            return value
        name = f"k{len(self.names)}"
        self.names[name] = value
        return name

    def x_int(self, node: Node, env: Env) -> Compiled:
        return True, node["value"]

    def x_bool(self, node: Node, env: Env) -> Compiled:
        return True, bool(node["value"])

    def x_ratio(self, node: Node, env: Env) -> Compiled:
        return True, Fraction(node["num"], node["den"])

    def x_enum(self, node: Node, env: Env) -> Compiled:
        return True, node["value"]

    def x_bank(self, node: Node, env: Env) -> Compiled:
        return True, BANK

    def x_setting(self, node: Node, env: Env) -> Compiled:
        return True, self.edition.setting(node["path"])

    def x_square(self, node: Node, env: Env) -> Compiled:
        return True, self.edition.square_index[node["key"]]

    def x_group(self, node: Node, env: Env) -> Compiled:
        return True, self.edition.group_index[node["key"]]

    def x_deck(self, node: Node, env: Env) -> Compiled:
        return True, self.edition.deck_index[node["key"]]

    NAMES = {
        "me": "c.me",
        "dice": "c.dice",
        "owner": "c.owner",
        "printed": "c.printed",
        "level": "c.level",
        "owned": "c.owned",
        "complete": "c.complete",
        "mortgaged_in_group": "c.mortgaged_in_group",
        "rent": "c.rent",
        "roll": "g.ctx_roll(c)",
        "players": "g.seats",
        "pots": "g.edition.pot_parties",
        "rounds": "g.state.rounds",
        "over": "(g.state.over or g.ending)",
        "others": "[q for q in g.seats if q != c.me and not g.players[q].bankrupt]",
        "areas": "g.edition.all_areas",
        "quarters": "g.edition.all_quarters",
        "turn": "(g.state.turns + 1)",
        "doubles": "c.doubles",
        "here": "c.here",
    }

    STATE_NAMES = {"houses_in_bank": "g.state.bank_houses", "hotels_in_bank": "g.state.bank_hotels",
                   "bank_ledger": "g.state.bank_ledger"}

    def x_var(self, node: Node, env: Env) -> Compiled:
        name = node["name"]
        if name in env:
            bound = env[name]
            if bound is None:                      # a statement loop variable
                return False, f"c.vars[{self.source((True, name))}]"
            return bound                           # an aggregate's name or a formula parameter
        if name in self.NAMES:
            return False, self.NAMES[name]
        if name in self.STATE_NAMES:
            return False, self.STATE_NAMES[name]
        ed = self.edition
        sets = {"deeds": ed.deeds, "groups": list(range(len(ed.groups))), "decks": list(range(len(ed.decks))),
                "board_size": ed.n, "squares": ed.all_squares}
        if name in sets:
            return True, sets[name]
        raise CompileError(f"unknown name `{name}`")

    # The kind of value a name or attribute gives, where the same attribute name means
    # different things (`p.deeds`, `g.deeds`; `p.cards`, `k.cards`): the IR is untyped, so
    # the kind is read off the expression's shape (what a loop ranges over, `d.owner`, ...).
    SET_KINDS = {"pots": "pot", "players": "player", "others": "player", "deeds": "deed", "groups": "group",
                 "decks": "deck"}

    def kind(self, node: Node, env: Env) -> str | None:
        k = node.get("expr")
        if k in ("group", "deck"):
            return k
        if k == "bank":
            return "party"
        if k == "attr":
            return {"owner": "party", "group": "group"}.get(node["name"])
        bound = env.get(node["name"]) if k == "var" else None
        if bound is not None:
            return self.kinds.get(bound[1])
        return None

    def element_kind(self, node: Node) -> str | None:
        if node.get("expr") == "var":
            return self.SET_KINDS.get(node["name"])
        if node.get("expr") == "attr" and node["name"] == "deeds":
            return "deed"
        return None

    PLAYER_ATTRS = {"cash": "g.players[{}].cash", "bankrupt": "g.players[{}].bankrupt",
                    "in_jail": "g.players[{}].in_jail", "position": "g.players[{}].position", "deeds": "g.deeds_of({})",
                    "square": "g.players[{}].position",
                    "jail_turns": "g.players[{}].jail_turns", "cards": "len(g.players[{}].cards)",
                    "laps": "(g.players[{}].progress // g.edition.n)"}
    STATE_ATTRS = {"mortgaged": "g.state.mortgaged[{}]", "houses": "g.state.houses[{}]", "hotels": "g.state.hotels[{}]",
                   "owner": "g.state.owner[{}]", "level": "g.level({})", "even_level": "g.even_level({})"}
    GROUP_ATTRS = {"uneven": "({} in g.state.uneven)"}
    DECK_ATTRS = {"size": "g.deck_size({})"}

    CITY_ATTRS = {"quarter": "area_quarter", "faces": "area_faces", "areas": "square_areas",
                  "number": "number", "across": "across"}

    def x_pot(self, node: Node, env: Env) -> Compiled:
        return True, self.edition.pot_party[node["key"]]

    def x_attr(self, node: Node, env: Env) -> Compiled:
        subject = self.expr(node["subject"], env)
        of = self.source(subject)
        name = node["name"]
        ed = self.edition
        if node["subject"].get("expr") == "pot" or self.kind(node["subject"], env) == "pot":
            return False, f"g.state.pots[{POT0} - {of}]"
        if name in ed.state_index:                         # a player's declared state
            return False, f"g.players[{of}].marks[{ed.state_index[name]}]"
        if name in ed.area_state_index:                    # an area's declared number
            return False, f"g.state.areas[{ed.area_state_index[name]}][{of}]"
        if name in self.CITY_ATTRS:                        # an area's place, a square's areas and marks
            return False, f"{self.source((True, getattr(ed, self.CITY_ATTRS[name])))}[{of}]"
        if name == "kind":                                 # only a square has a kind
            if subject[0] and type(subject[1]) is int:     # a known square's
                return True, ed.kind_names[subject[1]]
            return False, f"{self.source((True, ed.kind_names))}[{of}]"
        kind = self.kind(node["subject"], env)
        tables: dict[str, list[int] | list[list[int]]]
        if kind == "group":
            pattern, tables = self.GROUP_ATTRS.get(name), {"deeds": ed.group_squares}
        elif kind == "deck":
            pattern, tables = self.DECK_ATTRS.get(name), {"cards": [len(cards) for cards in ed.cards]}
        else:
            pattern = self.PLAYER_ATTRS.get(name) or self.STATE_ATTRS.get(name)
            if kind == "party" and name in self.PLAYER_ATTRS:      # the bank reads as a player holding nothing
                pattern = self.PLAYER_ATTRS[name].replace("g.players[{}]", "g.party({})")
            tables = {"price": ed.price, "mortgage": ed.mortgage_value, "house_cost": ed.house_cost,
                      "hotel_cost": ed.hotel_cost, "group": ed.group_of}
        if pattern is not None:
            return False, pattern.format(of)
        if name in tables:
            if subject[0] and type(subject[1]) is int:       # a known deed's printed number
                return True, tables[name][subject[1]]
            return False, f"{self.source((True, tables[name]))}[{of}]"
        raise CompileError(f"unknown attribute `{name}`")

    def x_index(self, node: Node, env: Env) -> Compiled:
        of, at = self.expr(node["list"], env), self.expr(node["position"], env)
        if of[0] and at[0] and type(at[1]) is int and 0 <= at[1] < len(of[1]):   # else an error when the rule runs
            return True, of[1][at[1]]
        return False, f"_at({self.source(of)}, {self.source(at)})"

    def x_neg(self, node: Node, env: Env) -> Compiled:
        e = self.expr(node["operand"], env)
        if e[0]:
            return True, -e[1]
        return False, f"(-{e[1]})"

    def x_not(self, node: Node, env: Env) -> Compiled:
        e = self.expr(node["operand"], env)
        if e[0]:
            return True, not e[1]
        return False, f"(not {e[1]})"

    BINOPS = {
        "+": lambda a, b: a + b,
        "-": lambda a, b: a - b,
        "*": lambda a, b: a * b,
        "/": _divide,
        "==": lambda a, b: a == b,
        "!=": lambda a, b: a != b,
        "<": lambda a, b: a < b,
        "<=": lambda a, b: a <= b,
        ">": lambda a, b: a > b,
        ">=": lambda a, b: a >= b,
        "in": lambda a, b: a in b,
    }

    def x_bin(self, node: Node, env: Env) -> Compiled:
        op = node["operator"]
        left, right = self.expr(node["left"], env), self.expr(node["right"], env)
        if op in ("and", "or"):
            if left[0]:
                if op == "and":
                    return right if left[1] else (True, False)
                return (True, True) if left[1] else right
            if right[0] and (op == "and") == bool(right[1]):       # `x and true`, `x or false`: x's truth
                return False, f"(not not {left[1]})"
            return False, f"(not not ({left[1]} {op} {self.source(right)}))"       # a bool, as `bool(...)` but no call
        if op not in self.BINOPS:
            raise CompileError(f"unknown operator `{op}`")
        if left[0] and right[0] and not (op == "/" and right[1] == 0):      # by 0: an error when the rule runs
            return True, self.BINOPS[op](left[1], right[1])
        if op == "/":
            return False, f"_divide({self.source(left)}, {self.source(right)})"
        if op == "*" and (left[0] or right[0]):
            x, k = (right, left[1]) if left[0] else (left, right[1])
            if type(k) is Fraction:
                return False, f"_scale({self.source(x)}, {k.numerator}, {k.denominator})"
        return False, f"({self.source(left)} {op} {self.source(right)})"

    def x_if(self, node: Node, env: Env) -> Compiled:
        cond = self.expr(node["cond"], env)
        then, other = self.expr(node["then"], env), self.expr(node["otherwise"], env)
        if cond[0]:
            return then if cond[1] else other
        return False, f"({self.source(then)} if {cond[1]} else {self.source(other)})"

    AGGREGATES = {"sum": "sum({})", "count": "_count({})", "max": "max({}, default=0)",
                  "min": "min({}, default=0)", "any": "any({})", "all": "all({})"}
    LOOP_NAME = re.compile(r"\bv(\d+)\b")

    def x_agg(self, node: Node, env: Env) -> Compiled:
        fn, var = node["function"], node["var"]
        if fn not in self.AGGREGATES and fn != "filter":
            raise CompileError(f"unknown aggregate `{fn}`")
        counted = self.group_count(node, env)
        if counted is not None:
            return False, counted
        folded = self.folded(node, env)
        if folded is not None:
            return folded
        over = self.source(self.expr(node["over"], env))
        first = self.loops + 1
        self.loops += 1
        local = f"v{self.loops}"
        inner = dict(env)
        inner[var] = (False, local)
        element = self.element_kind(node["over"])
        if element is not None:
            self.kinds[local] = element
        body = self.source(self.expr(node["body"], inner))
        if fn == "filter":
            return False, f"[{local} for {local} in {over} if {body}]"
        # every value is worked out before the aggregate reads them (a `roll` in the body
        # is made whatever the values are)
        source = self.AGGREGATES[fn].format(f"[{body} for {local} in {over}]")
        return False, self.hoist(source, first, env)

    FOLDS: dict[str, Callable[[list], Any]] = {
        "sum": sum, "count": _count, "max": lambda values: max(values, default=0),
        "min": lambda values: min(values, default=0), "any": any, "all": all}

    def folded(self, node: Node, env: Env) -> Compiled | None:
        """An aggregate over a constant set whose body is a constant for every element (`count(s
        in squares: s.kind == lot)`: the edition's tables), worked out once, here; None for
        any other. A body with an aggregate or a call inside is not tried."""
        over = self.expr(node["over"], env)
        if not over[0] or node["function"] not in self.FOLDS or \
                any(inner.get("expr") in ("agg", "call") for inner in nodes_in(node["body"])):
            return None
        values = []
        for element in over[1]:
            try:
                value = self.expr(node["body"], {**env, node["var"]: (True, element)})
            except CompileError:          # an attribute read as another kind's: not a constant
                return None
            if not value[0]:
                return None
            values.append(value[1])
        return True, self.FOLDS[node["function"]](values)

    def group_count(self, node: Node, env: Env) -> str | None:
        """An aggregate over a deed's group (`all(d in here.group.deeds: ...)`) that reads
        what the engine keeps counted per group, read from the count instead of walking the
        deeds (the same value): every deed held by one party (`d.owner == P`,
        `Game.group_counts`), any deed mortgaged (`group_mortgages`), every deed unbuilt
        (`d.level == 0`, `group_built`). These are the classic rules' guards, asked at every
        build and mortgage; None for any other aggregate."""
        over, fn, body = node["over"], node["function"], node["body"]
        if not (_is(over, "attr", name="deeds") and _is(over["subject"], "attr", name="group")):
            return None
        mine = {"expr": "var", "name": node["var"]}
        group = self.source(self.expr(over["subject"], env))
        if fn == "any" and _is(body, "attr", name="mortgaged", subject=mine):
            return f"(g.group_mortgages[{group}] > 0)"
        if not (fn == "all" and _is(body, "bin", operator="==")):
            return None
        left, right = body["left"], body["right"]
        if _is(left, "attr", name="level", subject=mine) and _is(right, "int", value=0):
            return f"(not g.group_built({group}))"
        if _is(left, "attr", name="owner", subject=mine) and _is(right, "var") and right["name"] != node["var"]:
            party = self.source(self.expr(right, env))          # a name: cheap to read twice
            ed = self.edition
            size, squares = self.source((True, ed.group_size)), self.source((True, ed.group_squares))
            return (f"(g.group_counts[{party}][{group}] == {size}[{group}] if {party} >= 0 "
                    f"else all([g.state.owner[x] == {party} for x in {squares}[{group}]]))")
        return None

    def hoist(self, source: str, first: int, env: Env) -> str:
        """An aggregate inside another that reads none of the enclosing loops' names is the
        same for every element: it is worked out once per evaluation (expressions have no
        effects, so when does not matter; a fresh `roll` is never moved)."""
        enclosing = any(isinstance(v, tuple) and self.LOOP_NAME.fullmatch(str(v[1])) for v in env.values())
        outer = [n for n in self.LOOP_NAME.findall(source) if int(n) < first]
        if not enclosing or outer or "ctx_roll" in source:
            return source
        name = f"h{len(self.hoisted)}"
        self.hoisted.append(f"({name} := {source})")
        return name

    def x_call(self, node: Node, env: Env) -> Compiled:
        name = node["function"]
        args = [self.expr(a, env) for a in node.get("args", [])]
        if name in ("houses", "hotels"):
            if len(args) != 1:
                raise CompileError(f"`{name}` takes one player")
            return False, f"g.buildings_of({self.source(args[0])}, {name!r})"
        if name == "held":
            if len(args) != 2:
                raise CompileError("`held` takes a player and a deck")
            return False, f"g.held({self.source(args[0])}, {self.source(args[1])})"
        if name == "numbers":
            if len(args) != 2:
                raise CompileError("`numbers` takes two whole numbers")
            return False, f"range({self.source(args[0])}, {self.source(args[1])} + 1)"
        if name == "die":
            if len(args) != 1:
                raise CompileError("`die` takes the number of one die")
            return False, f"_die(c.thrown, {self.source(args[0])}, {self.edition.dice})"
        formulas = self.edition.ir.get("formulas", {})
        if name not in formulas:
            raise CompileError(f"unknown function `{name}`")
        if name in self.formula_stack:
            raise CompileError(f"formula `{name}` is recursive")
        formula = formulas[name]
        params = formula.get("params", [])
        if len(params) != len(args):
            raise CompileError(f"`{name}` takes {len(params)} arguments, got {len(args)}")
        inner = dict(env)
        inner.update(zip(params, args, strict=True))
        self.formula_stack.append(name)
        try:
            return self.expr(formula["body"], inner)
        finally:
            self.formula_stack.pop()

    # ---- statements ------------------------------------------------------------------
    #
    # A statement list is one generated function, as an expression is: each handler below
    # writes its statement as lines of Python over `g` and `c`, with its expressions inline,
    # so a card or a square's rule costs one call, not one per statement. A statement that
    # runs a protocol with the players (`choose`, `draw`, a procedure, ...) is a closure the
    # lines call by a bound name. After each statement but the last of its list the function
    # stops once the game halts the move (`return`, or `break` inside a loop, which restores
    # its variable first).

    def block(self, stmts: list[Node], env: Env) -> Rule | None:
        """A statement list -> one function `f(g, c)`, or None when it is empty."""
        if not stmts:
            return None
        self.blocks += 1
        name = f"block{self.blocks}"
        lines = self.lines(stmts, env, "    ", False)
        made: dict[str, Any] = {}
        exec(f"def {name}(g, c):\n" + "\n".join(lines), self.names, made)
        return made[name]

    def lines(self, stmts: list[Node], env: Env, indent: str, looping: bool) -> list[str]:
        """The statements' lines at `indent`, each but the last followed by the halt check."""
        out: list[str] = []
        for i, node in enumerate(stmts):
            kind = node.get("stmt")
            handler = getattr(self, "s_" + str(kind), None)
            if handler is None:
                raise CompileError(f"unsupported statement `{kind}`")
            out += [indent + line for line in handler(node, env, looping)]
            if i < len(stmts) - 1:
                out.append(f"{indent}if g.halt: {'break' if looping else 'return'}")
        return out or [indent + "pass"]

    def bound(self, value: object) -> str:
        """A name the generated code reads `value` by (a closure, a table)."""
        return self.source((True, value))

    def s_transfer(self, node: Node, env: Env, looping: bool) -> list[str]:
        amount, text = self.written(node["amount"], env)
        if amount[0]:
            money = self.bound(_round(self.edition, amount[1]))
        else:
            money = f"_round({self.bound(self.edition)}, {text})"
        payer, payee = self.text(node["payer"], env), self.text(node["payee"], env)
        return [f"g.pay({payer}, {payee}, {money}, c.reason)"]

    def s_for(self, node: Node, env: Env, looping: bool) -> list[str]:
        var = node["var"]
        over = self.text(node["over"], env)
        inner = dict(env)
        inner[var] = None
        body = node.get("body", [])
        if not body:
            return []
        key = self.bound(var)
        self.loops += 1
        saved, each = f"saved{self.loops}", f"each{self.loops}"
        return [f"{saved} = c.vars.get({key})",
                f"for {each} in list({over}):",
                f"    c.vars[{key}] = {each}",
                *self.lines(body, inner, "    ", True),
                "    if g.halt: break",
                f"c.vars[{key}] = {saved}"]

    def s_if(self, node: Node, env: Env, looping: bool) -> list[str]:
        cond, text = self.written(node["cond"], env)
        then, other = node.get("then", []), node.get("otherwise", [])
        if cond[0]:
            return self.lines(then if cond[1] else other, env, "", looping)
        out = [f"if {text}:", *self.lines(then, env, "    ", looping)]
        if other:
            out += ["else:", *self.lines(other, env, "    ", looping)]
        return out

    def s_move_to(self, node: Node, env: Env, looping: bool) -> list[str]:
        target = node["square"]
        if isinstance(target, str):
            target = self.edition.square_index[target]
        return [f"g.move_to(c, {target})"]

    def s_move_by(self, node: Node, env: Env, looping: bool) -> list[str]:
        return [f"g.move_by(c, {self.text(node['steps'], env)})"]

    def s_jump_to(self, node: Node, env: Env, looping: bool) -> list[str]:
        return [f"g.jump_to(c, {self.text(node['target'], env)})"]

    def s_place_at(self, node: Node, env: Env, looping: bool) -> list[str]:
        return [f"g.place_at(c, {self.text(node['target'], env)})"]

    def s_advance_to_nearest(self, node: Node, env: Env, looping: bool) -> list[str]:
        group = node["group"]
        if isinstance(group, str):
            group = self.edition.group_index[group]
        rent = node.get("rent")
        rent_fn = self.bound(self.fn(rent, env)) if rent is not None else "None"
        return [f"g.advance_nearest(c, {group}, {rent_fn})"]

    def s_go_to_jail(self, node: Node, env: Env, looping: bool) -> list[str]:
        return ["g.go_to_jail(c.me, c.reason)"]

    def s_draw(self, node: Node, env: Env, looping: bool) -> list[str]:
        deck = node["deck"]
        if isinstance(deck, str):
            deck = self.edition.deck_index[deck]
        return [f"g.draw(c, {deck})"]

    def s_keep(self, node: Node, env: Env, looping: bool) -> list[str]:
        return ["c.kept = True"]

    def s_end_game(self, node: Node, env: Env, looping: bool) -> list[str]:
        return ["g.end_game()"]

    def s_add(self, node: Node, env: Env, looping: bool) -> list[str]:
        state = self.edition.state_index[node["state"]]
        return [f"g.mark({self.text(node['player'], env)}, {state}, {self.text(node['item'], env)})"]

    def s_set(self, node: Node, env: Env, looping: bool) -> list[str]:
        of, value = self.text(node["subject"], env), self.text(node["value"], env)
        ed = self.edition
        name = node["state"]
        if name in ed.area_state_index:
            return [f"g.set_area({ed.area_state_index[name]}, {of}, {value})"]
        return [f"g.set_number({of}, {ed.state_index[name]}, {value})"]

    def s_deal(self, node: Node, env: Env, looping: bool) -> list[str]:
        each = self.text(node["each"], env) if node.get("each") is not None else "None"
        return [f"g.deal({each}, {bool(node.get('paying'))}, {self.bound(node.get('deed_kind'))})"]

    def s_choose(self, node: Node, env: Env, looping: bool) -> list[str]:
        options = []
        for option in node["options"]:
            body = self.block(option.get("body", []), env)
            options.append((option.get("label", ""), body, self.cost(option.get("body", []), env)))
        # the choices offered, made once (a frozen dataclass is slow to make; a tax square asks often)
        acts = tuple(A.Choose(i, label) for i, (label, _body, _cost) in enumerate(options))
        return [f"g.choose_option(c, {self.bound(options)}, {self.bound(acts)})"]

    def s_choose_in(self, node: Node, env: Env, looping: bool) -> list[str]:
        var = node["var"]
        items = self.filter_fn(node["over"], var, node.get("where"), env)
        inner = dict(env)
        inner[var] = None
        body = self.block(node.get("body", []), inner)
        element, skip = node.get("element"), bool(node.get("skip"))
        goes = _destination(node.get("body", []), var)
        args = ", ".join(self.bound(x) for x in (var, items, body, element, skip, goes))
        return [f"g.choose_in(c, {args})"]

    def s_throw(self, node: Node, env: Env, looping: bool) -> list[str]:
        names = node["names"]
        inner = dict(env)
        inner.update({name: None for name in names})
        body = self.block(node.get("body", []), inner)
        return [f"g.throw_each(c, {self.bound(names)}, {self.bound(body)})"]

    def s_call(self, node: Node, env: Env, looping: bool) -> list[str]:
        """`do NAME(ARGS)`: the procedure's statements, compiled once, run with its parameters
        bound in `c.vars` (their arguments all worked out first), which are restored after."""
        ed = self.edition
        name = node["procedure"]
        procedure = ed.ir.get("procedures", {}).get(name)
        if procedure is None:
            raise CompileError(f"unknown procedure `{name}`")
        if name not in self.procedures:
            self.procedures[name] = None         # written above: never recursive (the compiler checks)
            self.procedures[name] = self.block(procedure["body"], {p: None for p in procedure["params"]})
        body = self.procedures[name]
        params = procedure["params"]
        args = [self.text(a, env) for a in node.get("args", [])]
        if len(args) != len(params):
            raise CompileError(f"`{name}` takes {len(params)} arguments, got {len(args)}")
        if not params:
            return [f"{self.bound(body)}(g, c)"] if body is not None else ["pass"]
        self.loops += 1
        values, saved, keys = f"args{self.loops}", f"saved{self.loops}", self.bound(tuple(params))
        return [f"{values} = ({', '.join(args)},)",
                f"{saved} = [c.vars.get(p) for p in {keys}]",
                f"c.vars.update(zip({keys}, {values}))",
                *([f"{self.bound(body)}(g, c)"] if body is not None else []),
                f"c.vars.update(zip({keys}, {saved}))"]

    # ---- estimates for strategies ------------------------------------------------------

    def cost(self, stmts: list[Node], env: Env) -> Rule:
        """What a statement list costs `me` in cash, counting its top-level transfers only
        (a hint for strategies choosing between `choose` options; never used to move money)."""
        parts = []
        for s in stmts or []:
            if s.get("stmt") != "transfer":
                continue
            amount = self.fn(s["amount"], env)
            payer, payee = self.fn(s["payer"], env), self.fn(s["payee"], env)
            parts.append((amount, payer, payee))
        ed = self.edition

        def estimate(g, c):
            total = 0
            for amount, payer, payee in parts:
                value = _round(ed, amount(g, c))
                if payer(g, c) == c.me:
                    total += value
                if payee(g, c) == c.me:
                    total -= value
            return total
        return estimate
