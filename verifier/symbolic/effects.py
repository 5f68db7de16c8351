"""What each effect statement does to the symbolic state: the mirror of
`interpreter/effects.py` (movement, jail, cards, choices). Mixed into `SymGame`."""
from __future__ import annotations

from . import terms as T
from .encode import DEFERRED, Ctx, Node, Ref
from .machine import Machine
from .terms import Term


class EffectsMixin(Machine):
    # ---- movement ----------------------------------------------------------------------

    def move_steps(self, c: Ctx, p: int, steps: Term, land: bool = True) -> None:
        """Move forward `steps` squares: fire `on_pass` of squares passed or landed on, then
        land. `land=False` stops before the landing (the roll action: the landing is the
        `square:*` and property actions)."""
        ed, s = self.edition, self.state
        n = ed.n
        old = s.position[p]
        new = T.mod(T.add(old, steps), n)
        s.position[p] = new
        s.progress[p] = T.add(s.progress[p], steps)
        for sq in ed.on_pass_squares:
            d = T.mod(T.sub(sq, old), n)
            fire = T.le(T.ite(T.eq(d, 0), n, d), steps)
            block = self.squares[sq].get("on_pass") or []

            def run(block=block, sq=sq):
                saved = c.reason
                c.reason = "square:" + ed.square_ids[sq]
                self.block(block, c)
                c.reason = saved
            self.fork(T.and_(fire, T.not_(s.halt)), run)
        if land:
            self.fork(T.not_(self.state.halt), lambda: self.split_value(new, range(n), lambda sq: self.land(c, p, sq)))

    def land(self, c: Ctx, p: int, sq: int, jump: bool = False) -> None:
        """A token ends its move on `sq`: the `land` hooks, its `on_land`, then the
        property rule (each stops the landing if it halts, moves or bankrupts the player).
        After a `jump to`, and outside a card, the landing is left to the landing actions
        (`square:*`, `hook:land`, the property rule's), as after a roll: a landing inside a
        landing (a square's `jump to`, a roll hook's `move by`) would otherwise nest
        every square's rules in every other's. That is the same game only when nothing but
        putting back a card not kept happens after it in the step: anything else is an
        unsupported path (`DEFERRED`). A card's own moves land in place (as in the classic
        games, whose landings all are a card's)."""
        if jump or self.draw_depth == 0:
            self.state.deferred = True
            return
        hooks = self.hooks("land")
        if not hooks:
            self.landed(c, p, sq)
            return
        self.fire(hooks, c, sq)
        s = self.state
        self.fork(T.or_(s.halt, T.not_(T.eq(s.position[p], sq)), s.bankrupt[p]), None, lambda: self.landed(c, p, sq))

    def landed(self, c: Ctx, p: int, sq: int) -> None:
        ed = self.edition
        block = self.squares[sq].get("on_land") or []
        if block:
            saved = c.reason
            c.reason = "square:" + ed.square_ids[sq]
            self.block(block, c)
            c.reason = saved
        if ed.is_deed[sq]:
            s = self.state
            stop = T.or_(s.halt, T.not_(T.eq(s.position[p], sq)), s.bankrupt[p]) if block else False
            self.fork(stop, None, lambda: self.property_rule(c, p, sq))

    def move_to(self, c: Ctx, target: int) -> None:
        p = c.me
        steps = T.mod(T.sub(target, self.state.position[p]), self.edition.n)
        self.fork(T.eq(steps, 0), lambda: self.land(c, p, target), lambda: self.move_steps(c, p, steps))

    def jump_to(self, c: Ctx, target: int) -> None:
        """`jump to SQUARE`: straight there, passing nothing (no `on_pass`, no lap), and land."""
        self.state.position[c.me] = target
        self.land(c, c.me, target, jump=True)

    def move_by(self, c: Ctx, steps: Term) -> None:
        """`move by N`: forward runs `on_pass`; back passes nothing (N may be symbolic: a
        number picked by `choose n in numbers(...)`)."""
        p = c.me
        self.fork(T.le(0, steps), lambda: self.move_steps(c, p, steps), lambda: self.move_back(c, p, steps))

    def move_back(self, c: Ctx, p: int, steps: Term) -> None:
        s = self.state
        new = T.mod(T.add(s.position[p], steps), self.edition.n)
        s.position[p] = new
        s.progress[p] = T.add(s.progress[p], steps)
        self.split_value(new, range(self.edition.n), lambda sq: self.land(c, p, sq))

    def advance_nearest(self, c: Ctx, group: int, rent_node: Node | None) -> None:
        ed = self.edition
        squares = ed.group_squares[group]
        if not squares:
            return

        def at(pos):
            target = min(squares, key=lambda sq: (sq - pos) % ed.n or ed.n)
            c.rent_fn = rent_node
            if target != pos:
                self.move_to(c, target)
            else:
                self.move_steps(c, c.me, ed.n)
            c.rent_fn = None
        self.split_value(self.state.position[c.me], range(ed.n), at)

    def go_to_jail(self, p: int, reason: str = "") -> None:
        ed, s = self.edition, self.state
        back = T.mod(T.sub(s.position[p], ed.jail_square), ed.n)
        s.progress[p] = T.sub(s.progress[p], back)
        s.position[p] = ed.jail_square
        s.in_jail[p] = True
        s.jail_turns[p] = 0
        if p == self.cur:
            s.halt = True

    def leave_jail(self, p: int, how: str = "") -> None:
        self.state.in_jail[p] = False
        self.state.jail_turns[p] = 0

    # ---- cards -------------------------------------------------------------------------

    def draw(self, c: Ctx, deck: int, card: int | None = None) -> None:
        """Take the top card (an action parameter: any card now in the deck), obey it, put
        it back at the bottom unless it was kept."""
        s, ed = self.state, self.edition
        cards = range(len(s.loc[deck]))
        empty = T.and_(*[T.not_(T.eq(x, -1)) for x in s.loc[deck]])
        if self.draw_depth >= self.MAX_DRAWS:
            self.flag(T.not_(empty), f"a card drawn while obeying {self.MAX_DRAWS} cards")
            return

        def obey():
            i = card if card is not None else self.choice(f"card:{ed.decks[deck]['key']}", list(cards))
            self.assume(T.eq(T.pick(i, s.loc[deck]) if T.is_sym(i) else self.state.loc[deck][i], -1))
            self.split_value(i, cards, lambda j: self.obey(c, deck, j))
        self.fork(empty, None, obey)

    def obey(self, c: Ctx, deck: int, i: int) -> None:
        s = self.state
        saved_kept, saved_reason = s.kept, c.reason
        s.kept = False
        s.loc[deck][i] = -2                 # in play: neither in the deck nor held
        c.reason = "card:" + self.edition.decks[deck]["key"]
        self.draw_depth += 1
        try:
            self.block(self.edition.decks[deck]["cards"][i].get("effect") or [], c)
        finally:
            self.draw_depth -= 1
        self.flag(T.and_(self.state.kept, self.state.deferred), DEFERRED)     # kept unless the landing bankrupts
        keep = T.and_(self.state.kept, T.not_(self.state.bankrupt[c.me]))
        self.state.loc[deck][i] = T.ite(keep, c.me, -1)
        self.state.kept = saved_kept
        c.reason = saved_reason

    def return_card(self, p: int, deck: int, i: int) -> None:
        self.state.loc[deck][i] = -1

    # ---- fresh rolls -------------------------------------------------------------------

    def ctx_roll(self, c: Ctx) -> Term:
        if c.roll is None:
            ed = self.edition
            c.roll = self.choice("roll", ("range", ed.dice, ed.dice * ed.faces), seat=c.me)
        return c.roll

    # ---- per-player state and hooks ------------------------------------------------------

    def hooks(self, event: str, state: str | None = None) -> list:
        """The IR's hooks of one event (of one declared state for `add`), in spec order."""
        return [h for h in self.edition.ir.get("hooks", []) if h["event"] == event and h.get("state") == state]

    def fire(self, hooks: list, c: Ctx, value: int, way: str | None = None) -> None:
        """Run the hooks with their variable bound to square `value`; once `end game` has
        run, the rest of the action stops (the interpreter's `fire`)."""
        for i, hook in enumerate(h for h in hooks if way is None or not h.get("via") or way in h["via"]):
            def run(hook=hook):
                var = hook["var"]
                saved = c.vars.get(var)
                c.vars[var] = Ref("deed", value)
                cond = self.expr(hook["cond"], c) if hook.get("cond") is not None else True
                self.fork(cond, lambda: self.block(hook.get("body") or [], c))
                c.vars[var] = saved
            if i == 0:
                run()
            else:
                self.fork(self.state.over, None, run)
            self.state.halt = T.or_(self.state.halt, self.state.over)

    def acquired(self, p: int, sq: int, way: str) -> None:
        """Deed `sq` has come to player `p` (by `way`): the `acquire` hooks, with `me` = `p`."""
        hooks = [h for h in self.hooks("acquire") if not h.get("via") or way in h["via"]]
        if hooks and p >= 0:
            self.fork(self.state.bankrupt[p], None, lambda: self.fire(hooks, Ctx(p, reason="hook:acquire"), sq))

    def mark(self, p: int, k: int, sq: int) -> None:
        """`add SQUARE to P.STATE`: a new element joins the set, then the `add` hooks run."""
        def new():
            self.state.marks[p][k][sq] = True
            hooks = self.hooks("add", self.edition.states[k])
            if hooks:
                self.fire(hooks, Ctx(p, reason="hook:add"), sq)
        self.fork(self.state.marks[p][k][sq], None, new)
