"""IR expressions and statements -> their symbolic meaning (the mirror of
`interpreter/translate.py`). Each IR kind has one handler, named as in the interpreter
(`x_attr`, `s_transfer`, ...); an unknown kind is `Unsupported`, never a silent pass.

Expressions are evaluated against the machine's current state (`SymGame.state`), whose
terms may be concrete or Z3; the smart constructors of `terms` fold concrete values, so
the same handlers give the interpreter's plain value on a concrete state.

Values that name a game object are `Ref(kind, v)` (kind: player, deed, group, deck, area,
quarter, pot: a pot's `v` is its party number, `POT0 - k`, as in the interpreter);
sets are lists of `(element, membership condition)`.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, NamedTuple

from interpreter import Edition
from interpreter.state import BANK, NO_DEED, POT0
from interpreter.translate import Ctx  # the same names in scope as the interpreter (one definition)

from . import terms
from .machine import Machine
from .state import SymState
from .terms import Term

Node = dict[str, Any]
"""An IR expression or statement in its JSON form (docs/ir.md)."""


class Unsupported(Exception):
    """The IR holds a construct the symbolic semantics does not model."""


class Ref(NamedTuple):
    kind: str
    v: Term                 # a number (seat, square, group...), concrete or a Z3 term


def val(x: Term) -> Term:
    """A Ref's number (seat, square, group, deck index), anything else as is."""
    return x.v if isinstance(x, Ref) else x




class CompileMixin(Machine):
    """Mixed into `SymGame`: `self.state` is the state, `self.edition` the interpreter's Edition."""

    # ---- expressions ---------------------------------------------------------------

    def expr(self, node: dict, ctx: Ctx) -> Term:
        kind = node.get("expr")
        handler = getattr(self, "x_" + str(kind), None)
        if handler is None:
            raise Unsupported(f"unsupported expression kind `{kind}`")
        return handler(node, ctx)

    def x_int(self, node: Node, ctx: Ctx) -> Term:
        return node["value"]

    def x_bool(self, node: Node, ctx: Ctx) -> Term:
        return bool(node["value"])

    def x_ratio(self, node: Node, ctx: Ctx) -> Term:
        return Fraction(node["num"], node["den"])

    def x_enum(self, node: Node, ctx: Ctx) -> Term:
        return node["value"]

    def x_bank(self, node: Node, ctx: Ctx) -> Term:
        return Ref("player", BANK)

    def x_setting(self, node: Node, ctx: Ctx) -> Term:
        return self.edition.setting(node["path"])

    def x_pot(self, node: Node, ctx: Ctx) -> Term:
        return Ref("pot", self.edition.pot_party[node["key"]])

    def x_square(self, node: Node, ctx: Ctx) -> Term:
        return Ref("deed", self.edition.square_index[node["key"]])

    def x_group(self, node: Node, ctx: Ctx) -> Term:
        return Ref("group", self.edition.group_index[node["key"]])

    def x_deck(self, node: Node, ctx: Ctx) -> Term:
        return Ref("deck", self.edition.deck_index[node["key"]])

    def x_var(self, node: Node, ctx: Ctx) -> Term:
        name = node["name"]
        if name in ctx.vars:
            return ctx.vars[name]
        read = _NAMES.get(name)
        if read is None:
            raise Unsupported(f"unknown name `{name}`")
        return read(self, ctx)

    def x_old(self, node: Node, ctx: Ctx) -> Term:
        """`old(e)`, in a step property: `e` in the state the step began in (`before`, a
        machine on that state, which `engine.step_holds` gives the one it evaluates on)."""
        before = getattr(self, "before", None)
        if before is None:
            raise Unsupported("`old` outside a step property")
        return before.expr(node["operand"], ctx)

    def _player(self, ref: Term, fn: Callable[..., Term]) -> Term:
        """An attribute of a player that may be symbolic: an if-chain over the seats."""
        q = val(ref)
        if not terms.is_sym(q):
            return fn(q)
        return terms.pick(q, [fn(i) for i in range(self.state.players)])

    def _deed(self, ref: Term, fn: Callable[..., Term]) -> Term:
        """An attribute of a square that may be symbolic: an if-chain over the squares."""
        square = val(ref)
        if not terms.is_sym(square):
            return fn(square)
        return terms.pick(square, [fn(i) for i in range(self.edition.n)])

    def field(self, name: str, square: int) -> Term:
        """A deed field of any square: a square without a deed reads as the interpreter's
        lists hold it (no owner, nothing built, not mortgaged)."""
        box = getattr(self.state, name)
        if square in box:
            return box[square]
        return NO_DEED if name == "owner" else (False if name == "mortgaged" else 0)

    def _area(self, ref: Term, fn: Callable[..., Term]) -> Term:
        """An attribute of an area that may be symbolic: an if-chain over the areas."""
        a = val(ref)
        if not terms.is_sym(a):
            return fn(a)
        return terms.pick(a, [fn(i) for i in self.edition.all_areas])

    def x_attr(self, node: Node, ctx: Ctx) -> Term:
        """An attribute: a pot's cash, then the edition's declared states (a player's, an
        area's), then the board's tables, then by the kind of what it is of (`_ATTRS`)."""
        of = self.expr(node["subject"], ctx)
        name = node["name"]
        edition = self.edition
        kind = of.kind if isinstance(of, Ref) else None
        if kind == "pot":                                           # a pot has only its cash
            if name != "cash":
                raise Unsupported(f"unknown attribute `{name}` of a pot")
            return terms.pick(terms.sub(POT0, of.v), self.state.pots)
        if name in edition.state_index and kind in ("player", None):     # a player's declared state
            return self._declared_state(of, edition.state_index[name])
        if name in edition.area_state_index:                             # an area's declared number
            values = self.state.areas[edition.area_state_index[name]]
            return self._area(of, lambda a: values[a])
        read = _BOARD_ATTRS.get(name) or _ATTRS.get((kind, name))
        if read is None or (kind in ("group", "deck") and terms.is_sym(of.v)):
            raise Unsupported(f"unknown attribute `{name}` of a {kind or 'value'}")
        return read(self, of, name)

    def _declared_state(self, of: Term, k: int) -> Term:
        """A player's declared number, or the squares in their declared set."""
        s = self.state
        if not self.edition.state_is_set[k]:
            return self._player(of, lambda q: s.numbers[q][k])
        return [(Ref("deed", square), self._player(of, lambda q, square=square: s.marks[q][k][square]))
                for square in range(self.edition.n)]

    def _faced_squares(self, of: Term, name: str) -> Term:
        """The squares an area faces."""
        faces = self.edition.area_faces
        return [(Ref("deed", square), self._area(of, lambda a, square=square: square in faces[a]))
                for square in range(self.edition.n)]

    def _facing_areas(self, of: Term, name: str) -> Term:
        """The areas facing a square."""
        areas = self.edition.square_areas
        return [(Ref("area", a), self._deed(of, lambda square, a=a: a in areas[square]))
                for a in self.edition.all_areas]

    def _square_kind(self, of: Term, name: str) -> Term:
        """Only a square has a kind, and only a square known here."""
        if terms.is_sym(val(of)):
            raise Unsupported("the kind of a square not known here")
        return self.edition.kind_names[val(of)]

    def _deed_level(self, of: Term, name: str) -> Term:
        hotel_level = self.edition.hotel_level
        return self._deed(of, lambda square: terms.ite(terms.lt(0, self.field("hotels", square)), hotel_level,
                                                       self.field("houses", square)))

    def _printed(self, of: Term, name: str) -> Term:
        """A printed number of a deed: its price, mortgage value, house or hotel cost."""
        table = {"price": self.edition.price, "mortgage": self.edition.mortgage_value,
                 "house_cost": self.edition.house_cost, "hotel_cost": self.edition.hotel_cost}[name]
        return self._deed(of, lambda square: table[square])

    def held(self, q: Term, deck: int | None) -> Term:
        """Kept cards of `deck` (all decks when None) that seat `q` holds."""
        decks = range(len(self.state.loc)) if deck is None else [deck]
        return sum_terms([terms.ite(terms.eq(x, q), 1, 0) for k in decks for x in self.state.loc[k]])

    def x_index(self, node: Node, ctx: Ctx) -> Term:
        of, at = self.expr(node["list"], ctx), self.expr(node["position"], ctx)
        if not terms.is_sym(at) and not isinstance(of, list) and not terms.is_sym(of):
            return of[at]
        if not terms.is_sym(at):
            return of[at]
        # a symbolic index into a concrete list; out of range is unsupported (Python raises)
        self.flag(terms.or_(terms.lt(at, 0), terms.le(len(of), at)), "a list index out of range")
        return terms.pick(at, list(of))

    def x_neg(self, node: Node, ctx: Ctx) -> Term:
        return terms.neg(self.expr(node["operand"], ctx))

    def x_not(self, node: Node, ctx: Ctx) -> Term:
        return terms.not_(self.expr(node["operand"], ctx))

    def x_bin(self, node: Node, ctx: Ctx) -> Term:
        op = node["operator"]
        left = self.expr(node["left"], ctx)
        if op == "and":
            if not terms.is_sym(left) and not left:
                return False
            return terms.and_(left, self.expr(node["right"], ctx))
        if op == "or":
            if not terms.is_sym(left) and left:
                return True
            return terms.or_(left, self.expr(node["right"], ctx))
        right = self.expr(node["right"], ctx)
        if op == "in":
            if not isinstance(right, list):
                raise Unsupported("`in` something that is not a set")
            return terms.or_(*[terms.and_(m, terms.eq(val(e), val(left))) for e, m in right])
        left, right = val(left), val(right)
        if op == "+":
            return terms.add(left, right)
        if op == "-":
            return terms.sub(left, right)
        if op == "*":
            return terms.mul(left, right)
        if op == "/":
            return terms.div(left, right)
        if op in ("==", "!=", "<", "<=", ">", ">="):
            return terms.cmp(op, left, right)
        raise Unsupported(f"unknown operator `{op}`")

    def x_if(self, node: Node, ctx: Ctx) -> Term:
        cond = self.expr(node["cond"], ctx)
        if not terms.is_sym(cond):
            return self.expr(node["then"] if cond else node["otherwise"], ctx)
        t, e = self.expr(node["then"], ctx), self.expr(node["otherwise"], ctx)
        if isinstance(t, Ref) or isinstance(e, Ref):
            return Ref(t.kind, terms.ite(cond, val(t), val(e)))
        return terms.ite(cond, t, e)

    def x_agg(self, node: Node, ctx: Ctx) -> Term:
        fn, var = node["function"], node["var"]
        over = self.expr(node["over"], ctx)
        if not isinstance(over, list):
            raise Unsupported("an aggregate over something that is not a set")
        saved = ctx.vars.get(var, _MISSING)
        parts = []
        for elem, member in over:
            ctx.vars[var] = elem
            parts.append((member, self.expr(node["body"], ctx)))
        if saved is _MISSING:
            ctx.vars.pop(var, None)
        else:
            ctx.vars[var] = saved
        if fn == "sum":
            return sum_terms([terms.ite(m, b, 0) for m, b in parts])
        if fn == "count":
            return sum_terms([terms.ite(terms.and_(m, b), 1, 0) for m, b in parts])
        if fn == "any":
            return terms.or_(*[terms.and_(m, b) for m, b in parts])
        if fn == "all":
            return terms.and_(*[terms.implies(m, b) for m, b in parts])
        if fn in ("max", "min"):
            best, seen = 0, False          # max/min of an empty set is 0
            for m, b in parts:
                better = terms.lt(best, b) if fn == "max" else terms.lt(b, best)
                best = terms.ite(m, terms.ite(terms.or_(terms.not_(seen), better), b, best), best)
                seen = terms.or_(seen, m)
            return best
        raise Unsupported(f"unknown aggregate `{fn}`")

    def x_call(self, node: Node, ctx: Ctx) -> Term:
        name = node["function"]
        args = [self.expr(a, ctx) for a in node.get("args", [])]
        if name in ("houses", "hotels"):
            if len(args) != 1:
                raise Unsupported(f"`{name}` takes one player")
            q = val(args[0])
            table = self.state.houses if name == "houses" else self.state.hotels
            return sum_terms([terms.ite(terms.eq(self.state.owner[square], q), table[square], 0)
                              for square in self.edition.deeds])
        if name == "held":
            return self.held(val(args[0]), val(args[1]))
        if name == "numbers":
            lo, hi = val(args[0]), val(args[1])
            if terms.is_sym(lo) or terms.is_sym(hi):
                raise Unsupported("`numbers` with bounds that depend on the state")
            return [(v, True) for v in range(lo, hi + 1)]
        if name == "die":
            raise Unsupported("`die(N)` reads one die of the throw, and the symbolic semantics throws the "
                              "dice as their total only")
        formulas = self.edition.ir.get("formulas", {})
        if name not in formulas:
            raise Unsupported(f"unknown function `{name}`")
        formula = formulas[name]
        params = formula.get("params", [])
        if len(params) != len(args):
            raise Unsupported(f"`{name}` takes {len(params)} arguments, got {len(args)}")
        # a formula of the state alone (no `me`, dice or rent names) is worked out once per
        # state and arguments: the city's formulas are aggregates over every area, called
        # again and again by one step (the key's objects are kept, so no id is reused)
        key = None
        if _pure(self.edition, name):
            flat = _read_terms(self.edition, name, self.state)
            key = (name, tuple(map(_arg_key, args)), tuple(map(id, flat)))
            if key in self.calls:
                return self.calls[key][0]
        saved = dict(ctx.vars)
        ctx.vars.update(zip(params, args, strict=True))
        try:
            value = self.expr(formula["body"], ctx)
        finally:
            ctx.vars = saved
        if key is not None:
            self.calls[key] = (value, flat, args)
        return value

    # ---- statements ------------------------------------------------------------------

    def block(self, stmts: list, ctx: Ctx) -> None:
        """A statement list; it stops once the game halts the move (the interpreter checks
        `g.halt` after each statement)."""
        for i, node in enumerate(stmts or []):
            if i == 0:
                self.stmt(node, ctx)
            else:
                self.fork(terms.not_(self.state.halt), lambda node=node: self.stmt(node, ctx))

    def stmt(self, node: dict, ctx: Ctx) -> None:
        kind = node.get("stmt")
        handler = getattr(self, "s_" + str(kind), None)
        if kind not in CONTROL:
            self.after_landing()
        if handler is None:
            raise Unsupported(f"unsupported statement `{kind}`")
        handler(node, ctx)

    def after_landing(self) -> None:
        """An effect on a path where a landing was left to the landing actions happens
        before that landing here, after it in the game: not modelled."""
        self.flag(self.state.deferred, DEFERRED)

    def s_transfer(self, node: Node, ctx: Ctx) -> Term:
        amount = terms.round_money(val(self.expr(node["amount"], ctx)), self.edition.rounding_up)
        payer, payee = val(self.expr(node["payer"], ctx)), val(self.expr(node["payee"], ctx))
        self.split_party(payer, lambda a: self.split_party(payee, lambda b: self.pay(a, b, amount, ctx.reason)))

    def s_for(self, node: Node, ctx: Ctx) -> Term:
        var = node["var"]
        over = self.expr(node["over"], ctx)
        saved = ctx.vars.get(var, _MISSING)
        for elem, member in list(over):
            ctx.vars[var] = elem
            self.fork(terms.and_(member, terms.not_(self.state.halt)), lambda: self.block(node.get("body", []), ctx))
        if saved is _MISSING:
            ctx.vars.pop(var, None)
        else:
            ctx.vars[var] = saved

    def s_move_to(self, node: Node, ctx: Ctx) -> Term:
        target = node["square"]
        if isinstance(target, str):
            target = self.edition.square_index[target]
        self.move_to(ctx, target)

    def s_move_by(self, node: Node, ctx: Ctx) -> Term:
        self.move_by(ctx, val(self.expr(node["steps"], ctx)))

    def s_advance_to_nearest(self, node: Node, ctx: Ctx) -> Term:
        group = node["group"]
        if isinstance(group, str):
            group = self.edition.group_index[group]
        self.advance_nearest(ctx, group, node.get("rent"))

    def s_go_to_jail(self, node: Node, ctx: Ctx) -> Term:
        self.go_to_jail(ctx.me, ctx.reason)

    def s_draw(self, node: Node, ctx: Ctx) -> Term:
        deck = node["deck"]
        if isinstance(deck, str):
            deck = self.edition.deck_index[deck]
        self.draw(ctx, deck)

    def s_keep(self, node: Node, ctx: Ctx) -> Term:
        self.state.kept = True

    def s_choose(self, node: Node, ctx: Ctx) -> Term:
        options = node["options"]
        pick = self.choice("option", list(range(len(options))), seat=ctx.me)
        self.split_value(pick, list(range(len(options))), lambda i: self.block(options[i].get("body", []), ctx))

    def s_add(self, node: Node, ctx: Ctx) -> Term:
        k = self.edition.state_index[node["state"]]
        item, to = val(self.expr(node["item"], ctx)), val(self.expr(node["player"], ctx))

        def mark(q):
            if q == BANK:
                self.flag(True, "a declared state of the bank")
                return
            self.split_value(item, range(self.edition.n), lambda square: self.mark(q, k, square))
        self.split_party(to, mark)

    def s_choose_in(self, node: Node, ctx: Ctx) -> Term:
        """`choose x in SET [where C] [or skip] { ... }`: `me` picks an element satisfying
        the condition (or skips, when allowed); an empty choice does nothing. The decision
        is the element's square (-1: skip); the interpreter's option number is recorded
        too, for replaying in the interpreter."""
        var = node["var"]
        saved = ctx.vars.get(var, _MISSING)
        cands = []
        for elem, member in self.expr(node["over"], ctx):
            ctx.vars[var] = elem
            ok = terms.and_(member, self.expr(node["where"], ctx) if node.get("where") is not None else True)
            if ok is not False:
                cands.append((elem, ok))
        skip = bool(node.get("skip"))
        squares = [val(e) for e, _ in cands]          # the decision: the element's number
        if any(terms.is_sym(v) or v < 0 for v in squares) or len(set(squares)) != len(squares):
            raise Unsupported("a choice among elements that are not distinct numbers")
        elements = {val(e): e for e, _ in cands}

        def run(square):
            if square >= 0:
                ctx.vars[var] = elements[square]
                self.block(node.get("body", []), ctx)

        def go(v):
            """A number is bound as it is (one path, whatever was picked); a game object
            (square, area, player) is split on, so its attributes are plain look-ups."""
            if any(isinstance(e, Ref) for e, _ in cands):
                self.split_value(v, [-1] + squares, run)
                return
            ctx.vars[var] = v
            self.fork(terms.eq(v, -1), None, lambda: self.block(node.get("body", []), ctx))
        if self.provider is not None and squares:      # concrete: exactly the interpreter's options
            v = self.choice("element", squares + ([-1] if skip else []), seat=ctx.me)
            self.record.append(("option", squares.index(v) if v in squares else len(squares), ctx.me))
            go(v)
        elif squares:
            v = self.choice("element", [-1] + squares, seat=ctx.me)
            none = terms.not_(terms.or_(*[ok for _, ok in cands]))
            self.assume(terms.and_(*[terms.implies(terms.eq(v, square), ok)
                                     for square, (_, ok) in zip(squares, cands, strict=True)],
                               terms.implies(terms.eq(v, -1), True if skip else none)))
            go(v)
        if saved is _MISSING:
            ctx.vars.pop(var, None)
        else:
            ctx.vars[var] = saved

    def s_end_game(self, node: Node, ctx: Ctx) -> Term:
        """`end game`: the game is over once the action returns (the rest of the block runs)."""
        self.state.over = True

    # the setup deal (never a step of play) the symbolic state does not hold: an explicit
    # arm, so an edition using it gets "unsupported", never a silent pass
    def s_deal(self, node: Node, ctx: Ctx) -> Term:
        raise Unsupported("the statement `deal` is not modelled by the symbolic semantics yet")

    def s_set(self, node: Node, ctx: Ctx) -> Term:
        """`set x.NAME = V`: an area's or a player's declared number."""
        edition = self.edition
        of, value = val(self.expr(node["subject"], ctx)), val(self.expr(node["value"], ctx))
        name = node["state"]
        if name in edition.area_state_index:
            values = self.state.areas[edition.area_state_index[name]]
            if not terms.is_sym(of):
                values[of] = value
                return
            for a in edition.all_areas:
                values[a] = terms.ite(terms.eq(of, a), value, values[a])
            return
        k = edition.state_index[name]

        def put(q):
            if q == BANK:
                self.flag(True, "a declared number of the bank")
                return
            self.state.numbers[q][k] = value
        self.split_party(of, put)

    def s_call(self, node: Node, ctx: Ctx) -> Term:
        """`do NAME(ARGS)`: the procedure's statements with its parameters bound."""
        name = node["procedure"]
        procedure = self.edition.ir.get("procedures", {}).get(name)
        if procedure is None:
            raise Unsupported(f"unknown procedure `{name}`")
        params = procedure["params"]
        args = [self.expr(a, ctx) for a in node.get("args", [])]
        if len(args) != len(params):
            raise Unsupported(f"`{name}` takes {len(params)} arguments, got {len(args)}")
        saved = {p: ctx.vars.get(p, _MISSING) for p in params}
        ctx.vars.update(zip(params, args, strict=True))
        try:
            self.block(procedure["body"], ctx)
        finally:
            _restore(ctx, saved)

    def s_jump_to(self, node: Node, ctx: Ctx) -> Term:
        """`jump to SQUARE`: straight there, passing nothing, and land."""
        target = val(self.expr(node["target"], ctx))
        self.split_value(target, range(self.edition.n), lambda square: self.jump_to(ctx, square))

    def s_place_at(self, node: Node, ctx: Ctx) -> Term:
        """`place at SQUARE`: the token is put there; it neither passes nor lands."""
        self.state.position[ctx.me] = val(self.expr(node["target"], ctx))

    def s_throw(self, node: Node, ctx: Ctx) -> Term:
        """`throw A, B { ... }`: one die per name, bound while the block runs. Each face is
        split on (a few paths, each with plain numbers: a square the dice name is then known,
        not a condition on the dice in every square's test)."""
        names = node["names"]
        saved = {name: ctx.vars.get(name, _MISSING) for name in names}
        faces = list(range(1, self.edition.faces + 1))

        def bind(i):
            if i == len(names):
                self.block(node.get("body", []), ctx)
                return

            def face(v):
                ctx.vars[names[i]] = v
                bind(i + 1)
            self.split_value(self.choice("die", faces, seat=ctx.me), faces, face)
        try:
            bind(0)
        finally:
            _restore(ctx, saved)

    def s_if(self, node: Node, ctx: Ctx) -> Term:
        cond = self.expr(node["cond"], ctx)
        self.fork(cond, lambda: self.block(node.get("then", []), ctx),
                  lambda: self.block(node.get("otherwise", []), ctx))


_MISSING = object()

Read = Callable[[CompileMixin, Ctx], Any]
"""What a name of the language reads (`x_var`), from the machine and the context."""

_NAMES: dict[str, Read] = {
    # the context's: who moves, the dice, the rent names, a landing's square
    "me": lambda game, ctx: Ref("player", ctx.me),
    "dice": lambda game, ctx: ctx.dice,
    "owner": lambda game, ctx: Ref("player", ctx.owner),
    "printed": lambda game, ctx: ctx.printed,
    "level": lambda game, ctx: ctx.level,
    "owned": lambda game, ctx: ctx.owned,
    "complete": lambda game, ctx: ctx.complete,
    "mortgaged_in_group": lambda game, ctx: ctx.mortgaged_in_group,
    "rent": lambda game, ctx: ctx.rent,
    "roll": lambda game, ctx: game.ctx_roll(ctx),
    "doubles": lambda game, ctx: ctx.doubles,
    "here": lambda game, ctx: Ref("deed", ctx.here),
    # the game's: its sets, the turn, the bank's counters
    "players": lambda game, ctx: [(Ref("player", q), True) for q in range(game.state.players)],
    "others": lambda game, ctx: [(Ref("player", q), terms.not_(game.state.bankrupt[q]))
                                 for q in range(game.state.players) if q != ctx.me],
    "deeds": lambda game, ctx: [(Ref("deed", square), True) for square in game.edition.deeds],
    "groups": lambda game, ctx: [(Ref("group", g), True) for g in range(len(game.edition.groups))],
    "decks": lambda game, ctx: [(Ref("deck", k), True) for k in range(len(game.edition.decks))],
    "squares": lambda game, ctx: [(Ref("deed", square), True) for square in range(game.edition.n)],
    "areas": lambda game, ctx: [(Ref("area", a), True) for a in game.edition.all_areas],
    "quarters": lambda game, ctx: [(Ref("quarter", q), True) for q in game.edition.all_quarters],
    "turn": lambda game, ctx: terms.add(game.state.turns, 1),
    "over": lambda game, ctx: game.state.over,
    "pots": lambda game, ctx: [(Ref("pot", party), True) for party in game.edition.pot_parties],
    "board_size": lambda game, ctx: game.edition.n,
    "houses_in_bank": lambda game, ctx: game.state.bank_houses,
    "hotels_in_bank": lambda game, ctx: game.state.bank_hotels,
    "bank_ledger": lambda game, ctx: game.state.bank_ledger,
}

ReadAttr = Callable[[CompileMixin, Ref, str], Any]
"""What an attribute reads (`x_attr`), from the machine, what it is of, and its name."""

# The board's tables, whatever the attribute is of (a square, an area).
_BOARD_ATTRS: dict[str, ReadAttr] = {
    "quarter": lambda game, of, name: Ref("quarter", game._area(of, lambda a: game.edition.area_quarter[a])),
    "faces": CompileMixin._faced_squares,
    "areas": CompileMixin._facing_areas,
    "number": lambda game, of, name: game._deed(of, lambda square: game.edition.number[square]),
    "across": lambda game, of, name: Ref("deed", game._deed(of, lambda square: game.edition.across[square])),
    "kind": CompileMixin._square_kind,
}


def _player_field(game: CompileMixin, of: Ref, name: str) -> Any:
    box = getattr(game.state, name)
    return game._player(of, lambda q: box[q])


def _deed_field(game: CompileMixin, of: Ref, name: str) -> Any:
    return game._deed(of, lambda square: game.field(name, square))


# By the kind of what the attribute is of, and its name.
_ATTRS: dict[tuple[str | None, str], ReadAttr] = {
    ("player", "deeds"): lambda game, of, name: [(Ref("deed", square), terms.eq(game.state.owner[square], val(of)))
                                                 for square in game.edition.deeds],
    ("player", "cards"): lambda game, of, name: game._player(of, lambda q: game.held(q, None)),
    ("player", "square"): lambda game, of, name: Ref("deed", _player_field(game, of, "position")),
    ("player", "laps"): lambda game, of, name: terms.idiv(_player_field(game, of, "progress"), game.edition.n),
    **{("player", name): _player_field for name in ("cash", "bankrupt", "in_jail", "position", "jail_turns")},
    **{("deed", name): CompileMixin._printed for name in ("price", "mortgage", "house_cost", "hotel_cost")},
    **{("deed", name): _deed_field for name in ("mortgaged", "houses", "hotels")},
    ("deed", "owner"): lambda game, of, name: Ref("player", game._deed(of, lambda square: game.field("owner", square))),
    ("deed", "group"): lambda game, of, name: Ref("group",
                                                  game._deed(of, lambda square: game.edition.group_of[square])),
    ("deed", "level"): CompileMixin._deed_level,
    ("deed", "even_level"): lambda game, of, name: game._deed(of, game.even_level),
    ("group", "deeds"): lambda game, of, name: [(Ref("deed", square), True)
                                                for square in game.edition.group_squares[of.v]],
    ("group", "uneven"): lambda game, of, name: game.state.uneven[of.v],
    ("deck", "size"): lambda game, of, name: sum_terms([terms.ite(terms.eq(x, -1), 1, 0)
                                                        for x in game.state.loc[of.v]]),
    ("deck", "cards"): lambda game, of, name: len(game.state.loc[of.v]),
}

# Statements that only decide what runs (no effect of their own): they may follow a landing
# left to the landing actions (`effects.land`).
CONTROL = {"if", "for", "choose", "choose_in", "throw", "call"}
DEFERRED = "a rule that follows a landing inside the same step (the landing is its own action)"

# Names whose value is the game state's alone (not the context's: who moves, the dice, the rent).
STATE_NAMES = {"players", "deeds", "groups", "decks", "squares", "areas", "quarters", "board_size", "turn",
               "over", "pots", "houses_in_bank", "hotels_in_bank", "bank_ledger"}
_PURE: dict = {}


def _pure(edition: Edition, name: str) -> bool:
    """Whether formula `name` reads only the state and its parameters (and formulas that do)."""
    key = (id(edition), name)
    if key not in _PURE:
        _PURE[key] = False            # a recursive formula is not pure (the compiler rejects it anyway)
        formula = edition.ir.get("formulas", {}).get(name)
        _PURE[key] = formula is not None and _reads_state(edition, formula["body"], set(formula.get("params", [])))
    return _PURE[key]


def _read_terms(edition: Edition, name: str, s: SymState) -> list:
    """The terms of `s` pure formula `name` may read: the city's formulas read only areas'
    numbers (and `turn`), so a step that changes anything else (a block's turn, cash) finds
    them worked out; every game term for any other formula."""
    key = (id(edition), name, "areas")
    if key not in _PURE:
        _PURE[key] = _area_reads(edition, edition.ir["formulas"][name]["body"], set())
    reads = _PURE[key]
    if reads is None:
        return s.flat()
    return [v for k in sorted(x for x in reads if x != "turn") for v in s.areas[k]] + \
        ([s.turns] if "turn" in reads else [])


# What an expression may read, when it reads only tables: names and attributes that are no state.
_TABLE_NAMES = {"areas", "quarters", "squares", "deeds", "groups", "decks", "players", "board_size"}
_TABLE_ATTRS = {"quarter", "faces", "areas", "number", "across", "kind"}


def _area_reads(edition: Edition, node: Node | list[Any], seen: set[str]) -> set[int | str] | None:
    """The `state area.*` numbers (by index) and `"turn"` the expression reads, or None
    when it may read anything else (a player's or a deed's state, a list index that may
    mark its path unsupported)."""
    out: set[int | str] = set()
    if isinstance(node, list):
        for x in node:
            part = _area_reads(edition, x, seen)
            if part is None:
                return None
            out |= part
        return out
    if not isinstance(node, dict):
        return out
    kind = node.get("expr")
    if kind in ("int", "bool", "ratio", "enum", "setting", "square", "group", "deck"):
        return out
    if kind == "var":
        name = node["name"]
        return {"turn"} if name == "turn" else out if name in _TABLE_NAMES else None if name in STATE_NAMES \
            else out      # a parameter or an aggregate's element
    if kind == "attr":
        name = node["name"]
        if name in edition.state_index:
            return None
        if name in edition.area_state_index:
            out.add(edition.area_state_index[name])
        elif name not in _TABLE_ATTRS:
            return None
        inner = _area_reads(edition, node["subject"], seen)
        return None if inner is None else out | inner
    if kind == "call":
        fn = node["function"]
        formula = edition.ir.get("formulas", {}).get(fn)
        if fn != "numbers" and (formula is None or fn in seen):
            return None
        args = _area_reads(edition, node.get("args", []), seen)
        if args is None or formula is None:
            return args
        body = _area_reads(edition, formula["body"], seen | {fn})
        return None if body is None else args | body
    if kind in ("neg", "not", "bin", "if", "agg"):
        parts = [v for k, v in node.items() if k not in ("expr", "operator", "function", "var", "span", "pos")]
        return _area_reads(edition, parts, seen)
    return None


def _arg_key(x: Term) -> Term:
    """A formula argument in a memo key: a concrete value as itself, anything else by identity."""
    v = val(x)
    if isinstance(v, (int, bool, str)):
        return (x.kind if isinstance(x, Ref) else "", v)
    return id(v)


def _reads_state(edition: Edition, node: Node, bound: set) -> bool:
    if isinstance(node, list):
        return all(_reads_state(edition, x, bound) for x in node)
    if not isinstance(node, dict):
        return True
    kind = node.get("expr")
    if kind == "var":
        return node["name"] in bound or node["name"] in STATE_NAMES
    if kind == "agg":
        return _reads_state(edition, node["over"], bound) and _reads_state(edition, node["body"], bound | {node["var"]})
    if kind == "call" and node["function"] in edition.ir.get("formulas", {}) and not _pure(edition, node["function"]):
        return False
    return all(_reads_state(edition, v, bound) for v in node.values())


def sum_terms(xs: Term) -> Term:
    out = 0
    for x in xs:
        out = terms.add(out, x)
    return out


EXPR_KINDS = sorted(n[2:] for n in dir(CompileMixin) if n.startswith("x_"))
STMT_KINDS = sorted(n[2:] for n in dir(CompileMixin) if n.startswith("s_"))


def _restore(ctx: Ctx, saved: dict) -> None:
    """Put back the names a procedure or a throw bound, as they were before it."""
    for name, value in saved.items():
        if value is _MISSING:
            ctx.vars.pop(name, None)
        else:
            ctx.vars[name] = value
