"""Runs an edition's invariants over a running game: the ones its IR declares (the prelude's
built-in library, grammar/prelude.rules, and the edition's own), compiled once per edition by
the interpreter's expression compiler (`Edition.invariants`). No invariant is written here.

`check_all` checks them all now, one by one; `event_checker()` gives the hook
`play(check_invariants=True)` installs, which raises `InvariantViolation` naming the
invariant and the event after which it broke.

The hook checks every invariant after every event, but evaluates only those that can have
changed (a frame argument, made at run time, so it needs no account of what an event does):
an invariant is a pure function of the parts of the state its source reads (`reads`: a field
of `g.state`, a field of every player, an attribute of the game); after each event the hook
compares each part some invariant reads with its copy from the previous event, and evaluates
an invariant only when a part it reads differs (or when its reads are not known: then
always). One whose parts are all equal has the value it had after the previous event, when
it held, so the first invariant (in IR order) false after an event is the same as with every
invariant evaluated: the same violation, after the same event
(tests/verifier/test_frame.py plays games both ways). All of it is one generated function
per edition (one call per event, not one per invariant).

The reads are found in the Python the invariant was compiled to (and in the game methods it
calls), not in its IR, on purpose: a frame is sound only if it names everything the code
that runs reads, and the IR says nothing of what a builtin such as `houses_in_bank` or
`d.level` reads in the engine's state. Reading the IR would need a second table of those
reads, kept in step with the engine by hand.

The checker lives with the engine, not in the verifier that explores with it: the
invariants are part of every edition's IR, compiled by the interpreter, and checking them
needs only the engine (`Game`, `Ctx`), so `play(check_invariants=True)` works with no
verifier installed or imported. Injecting the hook instead would make every caller of
`play` that wants the check (`play --check`, the tests) build it from a layer above.
"""
from __future__ import annotations

import ast
import sys
from collections.abc import Callable
from copy import deepcopy
from fractions import Fraction
from functools import cache
from pathlib import Path
from weakref import WeakKeyDictionary

from .edition import Edition
from .engine import Game
from .translate import Ctx


class InvariantViolation(AssertionError):
    def __init__(self, invariant: str, message: str, event: dict | None = None, index: int | None = None):
        self.invariant = invariant
        self.message = message
        self.event = event
        self.index = index
        where = f" after event {index} {event!r}" if event is not None else ""
        super().__init__(f"invariant `{invariant}` violated{where}: {message}")


def check_all(game: Game, event: dict | None = None, index: int | None = None, skip: frozenset = frozenset()) -> None:
    """Raise `InvariantViolation` for the first invariant (in IR order) that is false now;
    invariants named in `skip` are not checked (the explorer skips those already violated)."""
    ctx = Ctx()
    for name, text, holds in game.edition.invariants:
        if name not in skip and not holds(game, ctx):
            raise InvariantViolation(name, text, event, index)


def event_checker(skip: frozenset = frozenset(), framed: bool = True) -> Callable[[Game, dict], None]:
    """The hook for `play(check_invariants=True)`: checks every invariant after each event
    (money is mid-flight inside a transfer only, never between events); `framed=False`
    evaluates every one every time (`check_all`), the reference the frame is tested against."""
    made: list = [None, None]  # the edition and its checker, found at the first event
    seen: list = []            # the parts' values after the previous event (framed)

    def hook(game, event):
        if not game.state.owner:          # setup has not laid out the board yet
            return
        if not framed:
            return check_all(game, event, len(game.events) - 1, skip)
        if made[0] is not game.edition:
            made[1], parts = _checker(game.edition, skip)
            made[0] = game.edition
            seen[:] = [UNSEEN] * len(parts)
        broken = made[1](game, Ctx(), seen)
        if broken >= 0:
            # the invariants after it were not evaluated on what changed: all of them next time
            seen[:] = [UNSEEN] * len(seen)
            name, text, _ = game.edition.invariants[broken]
            raise InvariantViolation(name, text, event, len(game.events) - 1)
    return hook


# ---- the frame: what an invariant's source reads ---------------------------------------

Part = tuple[str, str]     # ("state", field) of `g.state`, ("players", field) of every player, ("game", attribute)

UNSEEN = object()          # a part before its first look (equal to no value)

# Calls a read may make besides the game's own methods: pure functions of their arguments
# (the builtins generated code and the methods it calls use, and interpreter/translate.py's helpers).
PURE = frozenset({"len", "sum", "max", "min", "any", "all", "abs", "range", "sorted", "list", "tuple", "set",
                  "int", "bool", "_count", "_divide"})


# Values a part's copy shares (immutable); any other value but a list or a set is deep-copied.
ATOMS = frozenset({int, bool, str, float, Fraction, type(None)})


def _copy(value):
    """A copy no later change to the state reaches (`deepcopy`, but quick for the state's
    lists of numbers, which are most of what changes)."""
    kind = type(value)
    if kind in ATOMS:
        return value
    if kind is list:
        return [v if type(v) in ATOMS else _copy(v) for v in value]
    if kind is set and all(type(v) in ATOMS for v in value):
        return set(value)
    return deepcopy(value)


class Unframed(Exception):
    """A read the frame cannot name (a bare `g`, a call it does not know, a write): the
    invariant that makes it is evaluated after every event."""


def reads(source: str) -> frozenset[Part] | None:
    """The parts of the state an invariant's source (`Edition.invariant_sources`) reads; None
    when it is not known. The edition (`g.edition`), the compiler's names and the module names a
    game method reads hold no game state."""
    try:
        return frozenset(_reads(ast.parse(source, mode="eval").body, "g"))
    except Unframed:
        return None


def _is(node: ast.AST, root: str) -> bool:
    return isinstance(node, ast.Name) and node.id == root


def _game_attr(node: ast.AST, root: str, name: str) -> bool:
    """`root.name`."""
    return isinstance(node, ast.Attribute) and _is(node.value, root) and node.attr == name


def _reads(node: ast.AST, root: str) -> set[Part]:
    """The parts read by an expression or statement of generated code (root `g`) or of a
    game method (root `self`); `Unframed` for anything else that touches the game."""
    if isinstance(node, ast.Attribute):
        read = _attribute_reads(node, root)
        if read is not None:
            return read
    elif isinstance(node, ast.Call):
        return _call_reads(node, root)
    elif _is(node, root):
        raise Unframed(root)
    elif isinstance(node, ast.stmt) and not isinstance(node, (ast.Return, ast.If, ast.Assign, ast.Expr)):
        raise Unframed(type(node).__name__)
    elif isinstance(node, (ast.Assign, ast.comprehension)) and not all(_names(t) for t in _targets(node)):
        raise Unframed("a write")
    elif isinstance(node, ast.Expr) and not isinstance(node.value, ast.Constant):      # not a docstring
        raise Unframed("a statement")
    out: set[Part] = set()
    for child in ast.iter_child_nodes(node):
        out |= _reads(child, root)
    return out


def _attribute_reads(node: ast.Attribute, root: str) -> set[Part] | None:
    """The parts `base.attr` reads where the base is a part of the game; None for any other
    base (its own reads are then the reads of its children)."""
    base = node.value
    if _game_attr(base, root, "state"):
        return {("state", node.attr)}
    if _game_attr(base, root, "edition") or (_is(base, root) and node.attr == "edition"):
        return set()
    if isinstance(base, ast.Subscript) and _game_attr(base.value, root, "players"):
        return {("players", node.attr)} | _reads(base.slice, root)
    if isinstance(base, ast.Call) and _game_attr(base.func, root, "party") and not base.keywords:
        # `party(q)` is `players[q]`, or for the bank a constant record (rules.py)
        return {("players", node.attr)}.union(*(_reads(a, root) for a in base.args))
    if _is(base, root):
        if node.attr == "state" or callable(getattr(Game, node.attr, None)):
            raise Unframed(node.attr)
        return {("game", node.attr)}
    return None


def _call_reads(node: ast.Call, root: str) -> set[Part]:
    """A call: of a game method (what its source reads) or of a pure builtin, and its arguments."""
    out: set[Part] = set()
    func = node.func
    if isinstance(func, ast.Attribute) and _is(func.value, root) and callable(getattr(Game, func.attr, None)):
        out |= _method(func.attr)
    elif not (isinstance(func, ast.Name) and func.id in PURE):
        raise Unframed(ast.unparse(func))
    for arg in [*node.args, *(k.value for k in node.keywords)]:
        out |= _reads(arg, root)
    return out


def _targets(node: ast.Assign | ast.comprehension) -> list[ast.expr]:
    return node.targets if isinstance(node, ast.Assign) else [node.target]


def _names(target: ast.expr) -> bool:
    """A target that binds local names only (writes nothing the game holds)."""
    return isinstance(target, ast.Name) or isinstance(target, ast.Tuple) and all(map(_names, target.elts))


@cache
def _method(name: str) -> frozenset[Part]:
    """What a method of `interpreter.engine.Game` reads, from its own source (so it cannot fall
    behind the method); a decorated one, or one without Python source, is not known."""
    function = _definition(getattr(Game, name, None))
    if function is None or function.decorator_list:
        raise Unframed(name)
    return frozenset(_reads(ast.Module(body=function.body, type_ignores=[]), function.args.args[0].arg))


def _definition(method: object) -> ast.FunctionDef | None:
    """A method's `def`, found by its qualified name in its module's `.py` file: the file it
    was compiled from when the module runs compiled (setup.py), where `inspect` finds none."""
    module = sys.modules.get(getattr(method, "__module__", None) or "")
    file = getattr(module, "__file__", None)
    if module is None or not file:
        return None
    source = Path(file).with_name(module.__name__.rpartition(".")[2] + ".py")
    scope: list = _tree(source)
    for part in getattr(method, "__qualname__", "<lambda>").split("."):
        found = [node for node in scope if isinstance(node, (ast.ClassDef, ast.FunctionDef)) and node.name == part]
        if len(found) != 1:
            return None
        scope = found[0].body
    return found[0] if isinstance(found[0], ast.FunctionDef) else None


@cache
def _tree(source: Path) -> list:
    """A module's top-level statements (none when its source is missing)."""
    try:
        return ast.parse(source.read_text(encoding="utf-8")).body
    except OSError:
        return []


# ---- the checker: one generated function per edition -----------------------------------

_CHECKERS: WeakKeyDictionary = WeakKeyDictionary()      # edition -> {skip: (function, parts)}


def _checker(edition: Edition, skip: frozenset) -> tuple[Callable[..., int], list[Part]]:
    """`f(g, c, seen) -> index of the first invariant false now, or -1` and the parts it
    compares (`seen` holds their values after the previous event, updated in place)."""
    made = _CHECKERS.setdefault(edition, {})
    if skip not in made:
        made[skip] = _make(edition, skip)
    return made[skip]


def _getter(part: Part) -> str:
    kind, name = part
    return {"state": f"g.state.{name}", "players": f"[p.{name} for p in g.players]", "game": f"g.{name}"}[kind]


def _make(edition: Edition, skip: frozenset) -> tuple[Callable[..., int], list[Part]]:
    read = [reads(source) for source in edition.invariant_sources]
    parts = sorted(set().union(*(r for r in read if r)))
    index = {part: i for i, part in enumerate(parts)}
    lines = ["def first(g, c, seen):", "    fresh = not seen or seen[0] is UNSEEN"]
    for i, part in enumerate(parts):
        lines += [f"    x = {_getter(part)}", f"    d{i} = x != seen[{i}]", f"    if d{i}:",
                  f"        seen[{i}] = _copy(x)"]
    invariants = zip(edition.invariants, edition.invariant_sources, read, strict=True)
    for n, ((name, _, _), source, r) in enumerate(invariants):
        if name in skip:
            continue
        if r is None:
            lines.append(f"    if not ({source}): return {n}")
        else:
            changed = " or ".join(["fresh", *(f"d{index[p]}" for p in sorted(r))])
            lines.append(f"    if ({changed}) and not ({source}): return {n}")
    lines.append("    return -1")
    scope = {**edition.source_names, "UNSEEN": UNSEEN, "_copy": _copy}
    exec("\n".join(lines), scope)
    return scope["first"], parts
