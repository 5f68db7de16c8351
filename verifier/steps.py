"""Step properties in a running game (docs/verifier.md, "Properties of a step"): each of the
edition's `step NAME "..." on KIND = EXPR` is checked when a step of its kind ends, with
`old(e)` read in the state the step began in.

A step is one piece the engine runs whole, the same piece the verifier's Z3 catalogue
takes as one action (verifier/symbolic/actions.py); `me` is its player, `here` its square:

- `buy`, `auction`, `rent`: the property rule on a landing on a free deed the lander buys
  (a `buy` event), on a free deed not bought, on another player's deed (catalogue `buy`,
  `auction`, `rent:*`); `me` the lander, `here` the deed;
- `mortgage`, `unmortgage`: the mechanism of that name; `me` the holder, `here` the deed;
- `land:S`, `pass:S`: square S's `on_land` or `on_pass` rules (`square:S`, `pass:S`);
- `card:D`: a card of deck D drawn and obeyed (`card:D:*`); `me` the drawer.

The checks live here, in the verifier, not in the engine: a watched game (`watch`) has
these mechanisms replaced on the game object itself (the Game keeps a dict for that, as
the symbolic replay uses it), and the rules of squares on a copy of the edition
(`watched`), so an unwatched game runs exactly as before, at the same speed.
`old(e)` is compiled as `e` read from a copy of the game made when the step began.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

import interpreter
from interpreter.engine import Game
from interpreter.invariants import InvariantViolation
from interpreter.state import BANK, GameState, Player
from interpreter.translate import Compiler, Ctx

if TYPE_CHECKING:
    from interpreter.parts import GameParts
    from interpreter.translate import Compiled, Env, Node, Rule

PROPERTY_RULE = ("buy", "auction", "rent")


def actions_of(on: str, names: list[str]) -> list[str]:
    """The catalogue actions (of `names`) that are steps of the kind `on`."""
    kind, _, of = on.partition(":")
    wanted = {"rent": lambda n: n.startswith("rent:"), "land": lambda n: n == f"square:{of}",
              "pass": lambda n: n == f"pass:{of}", "card": lambda n: n.startswith(f"card:{of}:")}
    return [n for n in names if wanted.get(kind, lambda n: n == kind)(n)]


class StepViolation(InvariantViolation):
    """A step property false after a step of its kind: `invariant` names the property,
    `index` the last event of the step."""

    def __init__(self, name: str, message: str, event: dict | None = None, index: int | None = None):
        super().__init__(name, message, event, index)
        where = f" by the step ending at event {index} {event!r}" if event is not None else ""
        self.args = (f"step property `{name}` violated{where}: {message}",)


@dataclass(frozen=True)
class StepCheck:
    """One step property compiled: `holds(game after, ctx, game before)`."""

    name: str
    text: str
    on: str
    holds: Callable[[Game, Ctx, Game], bool]


class _OldCompiler(Compiler):
    """The interpreter's expression compiler, with `old(e)`: `e`'s source over the game as it
    was (`o`) instead of the game now (`g`)."""

    def x_old(self, node: Node, env: Env) -> Compiled:
        compiled = self.expr(node["operand"], env)
        if compiled[0]:
            return compiled
        tree = ast.parse(self._joined(compiled), mode="eval")
        for name in ast.walk(tree):
            if isinstance(name, ast.Name) and name.id == "g":
                name.id = "o"
        return False, f"({ast.unparse(tree)})"


_COMPILED: WeakKeyDictionary = WeakKeyDictionary()     # edition -> its step properties compiled


def compiled(edition: interpreter.Edition) -> list[StepCheck]:
    """The edition's step properties, in the IR's order (compiled once per edition)."""
    if edition not in _COMPILED:
        comp = _OldCompiler(edition)
        out = []
        for prop in edition.ir.get("steps", []):
            text = comp.text(prop["body"], {})
            out.append(StepCheck(prop["name"], prop["text"], prop["kind"], eval(f"lambda g, c, o: {text}", comp.names)))
        _COMPILED[edition] = out
    return _COMPILED[edition]


_WATCHED: WeakKeyDictionary = WeakKeyDictionary()      # edition -> its copy with the squares' rules watched


def watched(edition: interpreter.Edition) -> interpreter.Edition:
    """The edition to play a watched game of: where a step property is about a square's rules
    (`land:S`, `pass:S`), a copy whose rules of those squares tell the game's watch when they
    begin and end; the edition itself otherwise."""
    kinds = {prop["kind"] for prop in edition.ir.get("steps", [])}
    squares = [on for on in kinds if on.startswith(("land:", "pass:"))]
    if not squares:
        return edition
    if edition not in _WATCHED:
        other = copy.copy(edition)
        other.on_land = list(edition.on_land)
        other.on_pass_rules = list(edition.on_pass_rules)
        for on in squares:
            kind, key = on.split(":", 1)
            sq = edition.square_index[key]
            rule = edition.on_land[sq]
            if kind == "land" and rule is not None:
                other.on_land[sq] = _square_rule(rule, on, sq)
            elif kind == "pass" and sq in edition.on_pass_squares:
                k = edition.on_pass_squares.index(sq)
                other.on_pass_rules[k] = _square_rule(edition.on_pass_rules[k], on, sq)
        _WATCHED[edition] = other
    return _WATCHED[edition]


def _square_rule(rule: Rule, on: str, sq: int) -> Rule:
    def run(g: GameParts, c: Ctx) -> None:
        watch = g.__dict__.get("step_watch")
        if watch is None:
            rule(g, c)
        else:
            watch.around(g, on, c.me, sq, lambda: rule(g, c))
    return run


class Watch:
    """The step properties of one game, checked as its steps end; those named in `skip`
    are not checked (exploration skips those already violated)."""

    def __init__(self, game: Game, skip: frozenset[str]) -> None:
        self.by_kind: dict[str, list[StepCheck]] = {}
        for check in compiled(game.edition):
            if check.name not in skip:
                self.by_kind.setdefault(check.on, []).append(check)

    def around(self, g: Game, on: str, me: int, here: int, run: Callable[[], object]) -> None:
        """Run a step of kind `on` and check its properties."""
        checks = self.by_kind.get(on)
        if not checks:
            run()
            return
        before = _copy(g)
        run()
        self.check(g, checks, me, here, before)

    def check(self, g: Game, checks: list[StepCheck], me: int, here: int, before: Game) -> None:
        c = Ctx(me)
        c.here = here
        for check in checks:
            if not check.holds(g, c, before):
                index = len(g.events) - 1
                raise StepViolation(check.name, check.text, g.events[index] if g.events else None, index)

    def property_rule(self, g: Game, run: Callable[[Ctx, int, int], None], c: Ctx, p: int, sq: int) -> None:
        """The property rule on a landing: a `buy`, `auction` or `rent` step by the deed's
        holder before it and whether the lander bought it."""
        owner, events = g.state.owner[sq], len(g.events)
        before = _copy(g)
        run(c, p, sq)
        if owner == BANK:
            bought = any(e.get("type") == "buy" and e.get("square") == sq for e in g.events[events:])
            on = "buy" if bought else "auction"
        else:
            on = "rent" if owner >= 0 and owner != p else ""
        if on in self.by_kind:
            self.check(g, self.by_kind[on], p, sq, before)


_STATE_LISTS = tuple(f.name for f in fields(GameState) if f.name != "players")
_PLAYER_LISTS = tuple(f.name for f in fields(Player) if f.name not in ("seat", "strategy"))


def _copy(game: Game) -> Game:
    """The game as it is now, for `old(e)` to read: a game over a copy of its state (made
    without `Game.__init__`: a copy reads the state, and plays nothing)."""
    state = copy.copy(game.state)
    for name in _STATE_LISTS:
        value = getattr(state, name)
        if type(value) is list:
            setattr(state, name, _lists(value))
    state.players = [_player(p) for p in game.state.players]
    old = Game.__new__(Game)
    old.edition, old.state, old.players, old.seats = game.edition, state, state.players, game.seats
    old.ending = game.ending
    old._derive()
    return old


def _player(player: Player) -> Player:
    out = copy.copy(player)
    for name in _PLAYER_LISTS:
        value = getattr(player, name)
        if type(value) is list:
            setattr(out, name, _lists(value))
    return out


def _lists(value: list) -> list:
    """A copy of a list of plain values or of such lists (what the game state holds)."""
    return [_lists(v) if type(v) is list else v for v in value]


def watch(game: Game, skip: frozenset[str] = frozenset()) -> None:
    """Check the edition's step properties in `game` (made from `watched(edition)`)."""
    if not game.edition.ir.get("steps"):
        return
    w = Watch(game, skip)
    game.step_watch = w  # type: ignore[attr-defined]  # in the game's dict: the squares' rules read it
    if any(on in w.by_kind for on in PROPERTY_RULE):
        rule = game.property_rule
        game.property_rule = lambda c, p, sq: w.property_rule(game, rule, c, p, sq)  # type: ignore[method-assign]  # this game's only
    for name in ("mortgage", "unmortgage"):
        if name in w.by_kind:
            mech = getattr(game, name)
            setattr(game, name, lambda p, sq, mech=mech, name=name: w.around(game, name, p, sq, lambda: mech(p, sq)))
    decks = {on.split(":", 1)[1] for on in w.by_kind if on.startswith("card:")}
    if decks:
        draw = game.draw

        def drawn(c: Ctx, deck: int) -> None:
            key = game.edition.decks[deck]["key"]
            if key in decks:
                w.around(game, "card:" + key, c.me, -1, lambda: draw(c, deck))
            else:
                draw(c, deck)
        game.draw = drawn  # type: ignore[method-assign]  # this game's only
