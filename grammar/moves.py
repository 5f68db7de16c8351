"""Moves that never end: squares (and decks) that send the token on, with no throw between.

A landing runs the land hooks and the square's `on_land`; a forward move runs the `on_pass`
of the squares it passes or lands on; a draw runs a card (interpreter/effects.py). Where
one of these moves the token for certain (nothing before the move can stop it: no `if`, no
payment that could bankrupt, no jail, no end), the place it goes is the next step. A set
of steps that always lead back into itself is a turn that never ends: `check` refuses it.
What is only possibly endless (a conditional move, a deck with other cards) is left to the
engine's bound on a turn's moves.
"""
from __future__ import annotations

from dataclasses import dataclass

from grammar import syntax
from grammar.bounds import ANYTHING, Reader
from grammar.extend import MergedSpec

Node = tuple        # ("land", square) | ("pass", square, at) | ("deck", deck id, at)
MOVES = (syntax.MoveTo, syntax.MoveBy, syntax.JumpTo, syntax.Advance, syntax.Draw)
# Statements that neither move the token nor can stop what follows them (their blocks aside).
# Not `keep`: a deck whose cards are kept runs out, and a draw from an empty deck does nothing.
CALM = (syntax.Collect, syntax.SetState)


@dataclass(frozen=True)
class Step:
    """Where a statement certainly sends the token next (None: somewhere not known here)."""

    stmt: syntax.Stmt
    to: Node | None


@dataclass(frozen=True)
class Cycle:
    """Steps that lead back to their first, for ever; `at` is the statement to blame."""

    nodes: tuple[Node, ...]
    at: syntax.Stmt


class Moves:
    """The certain steps of one edition's board."""

    def __init__(self, edition: MergedSpec, ir: dict, reader: Reader):
        self.edition = edition
        self.reader = reader
        self.ids = list(edition.squares)
        self.index = {sid: i for i, sid in enumerate(self.ids)}
        self.n = len(self.ids)
        self.kinds = [square.kind for square in edition.squares.values()]
        self.groups = {group["key"]: group["squares"] for group in ir["groups"]}
        self.on_pass = {i: square.on_pass.body for i, square in enumerate(edition.squares.values())
                        if square.on_pass and square.on_pass.body}          # in board order, as the engine runs them
        self.land_hooks = [hook for hook in edition.hooks if hook.event.text == "land"]

    def cycles(self) -> list[Cycle]:
        """Each endless round of steps once, blamed on a statement of the edition's own file
        where it has one (an inherited square is the parent's, not the writer's mistake)."""
        certain = {node: out for node, out in self.steps().items() if out}
        endless = set(certain)
        changed = True
        while changed:                    # the largest set whose every step stays inside it
            changed = False
            for node in list(endless):
                if any(step.to not in endless for step in certain[node]):
                    endless.discard(node)
                    changed = True
        # inside the endless set every step goes somewhere known: the first one's is the next node
        following = {node: to for node in endless if (to := certain[node][0].to) is not None}
        own = self.edition.header.span.source.name
        found: list[Cycle] = []
        seen: set[Node] = set()
        blamed: set[int] = set()
        for start in sorted(endless, key=_order):
            path: list[Node] = []
            at = start
            while at not in seen and at not in path:
                path.append(at)
                at = following[at]
            seen.update(path)
            if at not in path:
                continue                  # it runs into a round already found
            loop = path[path.index(at):]
            stmts = [certain[node][0].stmt for node in loop]
            if any(id(stmt) in blamed for stmt in stmts):
                continue
            mine = [stmt for stmt in stmts if stmt.span.source.name == own]
            first = min(range(len(loop)), key=lambda i: _order(loop[i]))
            blamed.update(id(stmt) for stmt in stmts)
            found.append(Cycle(tuple(loop[first:] + loop[:first]), (mine or stmts[first:] + stmts[:first])[0]))
        return found

    def name(self, node: Node) -> str:
        return f"`{self.ids[node[1]]}`" if node[0] != "deck" else f"a card of `{node[1]}`"

    def steps(self) -> dict[Node, list[Step] | None]:
        """Every node the landings reach, with its certain steps (None: it may stop)."""
        out: dict[Node, list[Step] | None] = {}
        # every landing, and every `on_pass` that a throw of the dice can run
        todo: list[Node] = [("land", i) for i in range(self.n)] + \
            [("pass", square, at) for square, body in self.on_pass.items() if not self.calm(body, set())
             for at in range(self.n)]
        while todo:
            node = todo.pop()
            if node in out:
                continue
            out[node] = self.next(node)
            todo.extend(step.to for step in out[node] or () if step.to is not None)
        return out

    def next(self, node: Node) -> list[Step] | None:
        if node[0] == "land":
            return self.landing(node[1])
        if node[0] == "pass":
            step = self.first(self.on_pass[node[1]], node[2], set())
            return None if step is None else [step]
        cards = self.edition.decks[node[1]].cards
        found = [self.first(card.body, node[2], set()) for card in cards]
        steps = [step for step in found if step is not None]
        return steps if steps and len(steps) == len(found) else None

    def landing(self, at: int) -> list[Step] | None:
        """The land hooks, then the square's `on_land`."""
        for hook in self.land_hooks:
            applies = self.applies(hook.cond, hook.var.text, self.kinds[at])
            if applies is False or self.calm(hook.body, set()):
                continue
            step = self.first(hook.body, at, {hook.var.text}) if applies else None
            return None if step is None else [step]
        square = self.edition.squares[self.ids[at]]
        step = self.first(square.on_land.body, at, set()) if square.on_land else None
        return None if step is None else [step]

    def first(self, body: tuple[syntax.Stmt, ...], at: int, bound: set[str]) -> Step | None:
        """The first move of a block, when nothing before it can stop it."""
        for stmt in body:
            if isinstance(stmt, MOVES):
                return Step(stmt, self.target(stmt, at, bound))
            if isinstance(stmt, syntax.DoProcedure) and stmt.name.text in self.edition.procedures:
                procedure = self.edition.procedures[stmt.name.text]
                step = self.first(procedure.body, at, {p.text for p in procedure.params})
                if step is not None:
                    return step
                if not self.calm(procedure.body, set()):
                    return None
            elif not self.calm((stmt,), set()):
                return None
        return None

    def target(self, stmt: syntax.Stmt, at: int, bound: set[str]) -> Node | None:
        """Where a move statement sends a token standing on `at` (interpreter/effects.py)."""
        if isinstance(stmt, syntax.Draw):
            return ("deck", stmt.deck.text, at)
        if isinstance(stmt, (syntax.MoveTo, syntax.JumpTo)):
            name = stmt.square
            if not isinstance(name, syntax.Name) or name.text in bound or name.text not in self.index:
                return None
            to = self.index[name.text]
            steps = (to - at) % self.n
            return ("land", to) if isinstance(stmt, syntax.JumpTo) or steps == 0 else self.forward(at, steps)
        if isinstance(stmt, syntax.Advance):
            squares = self.groups.get(stmt.group.text) or []
            if not squares:
                return None
            to = min(squares, key=lambda t: (t - at) % self.n or self.n)
            return self.forward(at, (to - at) % self.n or self.n)
        assert isinstance(stmt, syntax.MoveBy), f"not a move: {type(stmt).__name__}"
        moved = self.reader.value(stmt.steps, dict.fromkeys(bound, ANYTHING), {}).value
        if moved is None or moved.denominator != 1:
            return None
        count = int(moved)
        return self.forward(at, count) if count > 0 else ("land", (at + count) % self.n)

    def forward(self, at: int, steps: int) -> Node | None:
        """A forward move: the first `on_pass` it runs that may do more than pay in, else the landing."""
        for square, body in self.on_pass.items():
            if ((square - at) % self.n or self.n) > steps or self.calm(body, set()):
                continue
            return ("pass", square, (at + steps) % self.n)
        return ("land", (at + steps) % self.n)

    def calm(self, body: tuple[syntax.Stmt, ...], seen: set[str]) -> bool:
        """Whether a block can neither move the token nor stop the move it is part of."""
        for stmt in body:
            if isinstance(stmt, CALM):
                continue
            if isinstance(stmt, syntax.Add):
                hooks = [h for h in self.edition.hooks if h.event.text == "add" and h.to is not None
                         and h.to.text == stmt.state.text]
                if stmt.state.text in seen or not all(self.calm(h.body, seen | {stmt.state.text}) for h in hooks):
                    return False
            elif isinstance(stmt, syntax.DoProcedure):
                procedure = self.edition.procedures.get(stmt.name.text)
                if (procedure is None or stmt.name.text in seen
                        or not self.calm(procedure.body, seen | {stmt.name.text})):
                    return False
            elif isinstance(stmt, (syntax.ForEach, syntax.ChooseIn, syntax.Throw)):
                if not self.calm(stmt.body, seen):
                    return False
            elif isinstance(stmt, syntax.When):
                if not (self.calm(stmt.then, seen) and self.calm(stmt.otherwise, seen)):
                    return False
            elif isinstance(stmt, syntax.Choose):
                if not all(self.calm(option.body, seen) for option in stmt.options):
                    return False
            else:
                return False
        return True

    def applies(self, cond: syntax.Expr | None, var: str, kind: str) -> bool | None:
        """Whether a land hook's condition holds on a square of `kind`: yes, no, or not known here."""
        if cond is None:
            return True
        if isinstance(cond, syntax.Not):
            inner = self.applies(cond.operand, var, kind)
            return None if inner is None else not inner
        if isinstance(cond, syntax.Binary) and cond.op in ("and", "or"):
            left, right = self.applies(cond.left, var, kind), self.applies(cond.right, var, kind)
            if cond.op == "and":
                return False if False in (left, right) else None if None in (left, right) else True
            return True if True in (left, right) else None if None in (left, right) else False
        if not (isinstance(cond, syntax.Binary) and cond.op in ("==", "!=")):
            return None
        subject = cond.left
        if isinstance(subject, syntax.Attr) and isinstance(subject.of, syntax.Name) and subject.of.text == var \
                and subject.name.text == "kind" and isinstance(cond.right, syntax.Name):
            return (kind == cond.right.text) == (cond.op == "==")
        return None


def _order(node: Node) -> tuple:
    """Landings first, in board order: a round is told from its first square."""
    return ("land", "pass", "deck").index(node[0]), node[-1] if node[0] == "deck" else node[1], str(node)
