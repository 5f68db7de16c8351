"""What each effect statement does to the game: the run-time half of `translate.py`.

`translate.py` turns `move_to`, `move_by`, `advance_to_nearest`, `go_to_jail`, `draw` and
`choose` into calls of the methods here (and `transfer` into `Game.pay`, in rules.py).
Mixed into `engine.Game`.
"""
from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from . import actions as A
from .errors import GOES_WRONG, LIMIT, TRAIL, RuleError
from .parts import GameParts
from .state import BANK
from .translate import Ctx

if TYPE_CHECKING:
    from .translate import Hook, Option, Rule

LOOPING = LIMIT - TRAIL     # past this many moves and draws in a turn, `looping` keeps the trail


class EffectsMixin(GameParts):
    __slots__ = ()

    # ---- movement ----------------------------------------------------------------------

    def move_steps(self, c: Ctx, p: int, steps: int) -> None:
        """Move forward `steps` squares: fire `on_pass` of squares passed or landed on, then land."""
        ed = self.edition
        pl = self.players[p]
        old = pl.position
        n = ed.n
        new = (old + steps) % n
        pl.position = new
        pl.progress += steps
        if self.log_on:
            self.ev({"type": "move", "seat": p, "from_square": old, "to": new, "steps": steps})
        k = -1
        for s in ed.on_pass_squares:
            k += 1
            if ((s - old) % n or n) > steps:
                continue
            saved = c.reason
            c.reason = ed.land_reason[s]
            f = ed.on_pass_rules[k]
            try:
                f(self, c)
            except GOES_WRONG as error:
                raise self.located(error, f) from None
            c.reason = saved
            if self.halt:
                return
        self.land(c, p, new)

    def land(self, c: Ctx, p: int, sq: int) -> None:
        """A token ends its move on `sq`: its `on_land`, then the property rule."""
        ed = self.edition
        self.state.landings[sq] += 1
        moves = self.moves + 1        # (in a local: each attribute read of compiled code is a lookup)
        self.moves = moves
        if moves > LOOPING:        # a turn that does not end (docs/errors.md E501)
            self.looping(ed.square_names[sq])
        if ed.land_hooks:
            self.fire(ed.land_hooks, c, sq)
            pl = self.players[p]
            if self.halt or pl.position != sq or pl.bankrupt:
                return
        f = ed.on_land[sq]
        if f is not None:
            saved = c.reason
            c.reason = ed.land_reason[sq]
            try:
                f(self, c)
            except GOES_WRONG as error:
                raise self.located(error, f) from None
            c.reason = saved
            pl = self.players[p]
            if self.halt or pl.position != sq or pl.bankrupt:
                return
        if ed.is_deed[sq]:
            self.property_rule(c, p, sq)

    def move_to(self, c: Ctx, target: int) -> None:
        """`move to SQUARE`: forward to the square (a full lap never: 0 steps lands in place)."""
        p = c.me
        steps = (target - self.players[p].position) % self.edition.n
        if steps == 0:
            self.land(c, p, target)
        else:
            self.move_steps(c, p, steps)

    def jump_to(self, c: Ctx, target: int) -> None:
        """`jump to SQUARE`: straight there, passing nothing (no `on_pass`, no lap), and land."""
        self.place_at(c, target)
        self.land(c, c.me, target)

    def place_at(self, c: Ctx, target: int) -> None:
        """`place at SQUARE`: the token is put there; it neither passes nor lands."""
        p = c.me
        old = self.players[p].position
        self.players[p].position = target
        if self.log_on:
            self.ev({"type": "move", "seat": p, "from_square": old, "to": target, "steps": 0})

    def move_by(self, c: Ctx, steps: int) -> None:
        """`move by N`: forward runs `on_pass`; back passes nothing and reduces lap progress."""
        p = c.me
        if steps >= 0:
            self.move_steps(c, p, steps)
            return
        pl = self.players[p]
        old = pl.position
        pl.position = (old + steps) % self.edition.n
        pl.progress += steps
        if self.log_on:
            self.ev({"type": "move", "seat": p, "from_square": old, "to": pl.position, "steps": steps})
        self.land(c, p, pl.position)

    def advance_nearest(self, c: Ctx, group: int, rent_fn: Rule | None) -> None:
        """`advance to nearest GROUP [with rent = EXPR]`."""
        ed = self.edition
        pos = self.players[c.me].position
        squares = ed.group_squares[group]
        if not squares:
            return
        target = min(squares, key=lambda s: (s - pos) % ed.n or ed.n)
        c.rent_fn = rent_fn
        self.move_to(c, target) if target != pos else self.move_steps(c, c.me, ed.n)
        c.rent_fn = None

    def go_to_jail(self, p: int, reason: str = "") -> None:
        """Straight to jail: passes nothing (lap progress goes back), and the turn ends."""
        ed = self.edition
        pl = self.players[p]
        back = (pl.position - ed.jail_square) % ed.n
        pl.progress -= back
        old = pl.position
        pl.position = ed.jail_square
        pl.in_jail = True
        pl.jail_turns = 0
        self.state.landings[ed.jail_square] += 1
        if p == self.cur:
            self.halt = True
        if self.log_on:
            self.ev({"type": "jail", "seat": p, "from_square": old, "reason": reason})

    def leave_jail(self, p: int, how: str) -> None:
        pl = self.players[p]
        pl.in_jail = False
        pl.jail_turns = 0
        if self.log_on:
            self.ev({"type": "leave_jail", "seat": p, "how": how})

    # ---- cards -------------------------------------------------------------------------

    def draw(self, c: Ctx, deck: int) -> None:
        """Take the top card, obey it, put it at the bottom unless it was kept."""
        cards = self.state.decks[deck]
        if not cards:
            return
        card = cards.pop(0)
        in_play = self.state.in_play
        in_play.append([deck, card])
        ed = self.edition
        moves = self.moves + 1
        self.moves = moves
        if moves > LOOPING:
            self.looping(f"card `{ed.card_texts[deck][card]}` of deck `{ed.decks[deck]['key']}`")
        if self.log_on:
            self.ev({"type": "draw", "seat": c.me, "deck": deck, "card": card, "text": ed.card_texts[deck][card]})
        saved = (c.kept, c.card, c.reason)
        c.kept, c.card, c.reason = False, (deck, card), ed.card_reason[deck][card]
        f = ed.cards[deck][card]
        if f is not None:
            try:
                f(self, c)
            except GOES_WRONG as error:
                raise self.located(error, f) from None
        in_play.remove([deck, card])
        if c.kept and not self.players[c.me].bankrupt:
            self.players[c.me].cards.append([deck, card])
            if self.log_on:
                self.ev({"type": "keep", "seat": c.me, "deck": deck, "card": card})
        else:
            cards.append(card)
        c.kept, c.card, c.reason = saved

    def looping(self, what: str) -> None:
        """The last moves and draws of a turn near its limit are kept, to name the loop;
        at the limit the turn stops (E501)."""
        if self.moves == LOOPING + 1:
            self.trail = []
        self.trail.append(what)
        if self.moves >= LIMIT:
            loop = list(dict.fromkeys(self.trail))
            raise RuleError("E501", f"the turn does not end: {LIMIT} moves and card draws going round "
                                    f"{', '.join(loop)}")

    def located(self, error: BaseException, rule: object) -> RuleError:
        """`error`, raised while the compiled rule `rule` ran, as the run-time error of that rule
        (the innermost rule keeps it: an error already placed passes through the rules outside),
        at this moment of the game."""
        error = RuleError.of(error)
        if error.rule is None and rule in self.edition.rules:
            error.rule, place = self.edition.rules[rule]
            if place:
                error.file, error.line, error.column, error.width = place
        if error.turn is None:
            error.turn, error.seat = self.state.turns, self.cur
            error.strategy = self.players[self.cur].strategy if self.cur >= 0 else "setup"
        return error

    def deck_size(self, deck: int) -> int:
        """`k.size`: the cards of a deck no player holds (in it, or being read now)."""
        return len(self.state.decks[deck]) + sum(1 for d, _ in self.state.in_play if d == deck)

    def held(self, p: int, deck: int) -> int:
        """`held(p, k)`: the kept cards of deck `deck` that seat `p` holds."""
        return sum(1 for d, _ in self.players[p].cards if d == deck)

    def return_card(self, p: int, held: list) -> None:
        """A kept card used or given up goes back to the bottom of its deck."""
        self.players[p].cards.remove(held)
        self.state.decks[held[0]].append(held[1])

    # ---- choices and fresh rolls -------------------------------------------------------

    def choose_option(self, c: Ctx, options: list[Option], acts: Sequence[A.Action]) -> None:
        """`choose { ... }`: `me` picks one of `acts`, one `Choose` per option (its strategy decides)."""
        self.pending = (c, options)
        a = self.ask(c.me, acts)
        self.pending = None
        body = options[a.option][1]
        if body is not None:
            body(self, c)

    def choose_in(self, c: Ctx, var: str, candidates: Rule, body: Rule | None, element: str | None, skip: bool,
                  goes: tuple[str, bool] | None = None) -> None:
        """`choose x in SET [where C] [or skip]`: `me` picks one element (an empty set skips).
        When the choice moves my token (`goes`), each option's cost hint is the rent it risks."""
        saved = c.vars.get(var)
        items = candidates(self, c)
        if items:
            labels = [self.label(element, x) for x in items] + (["skip"] if skip else [])
            acts = [A.Choose(i, label) for i, label in enumerate(labels)]
            costs: list[Rule] = [_free] * len(labels)
            if goes is not None:
                here = self.players[c.me].position
                how, lands = goes
                costs = [_risk(c.me, (here + x) % self.edition.n if how == "by" else x, lands) for x in items] \
                    + ([_risk(c.me, here, False)] if skip else [])
            options: list[Option] = [(label, None, cost) for label, cost in zip(labels, costs, strict=True)]
            self.pending = (c, options)
            a = self.ask(c.me, acts)
            self.pending = None
            if a.option < len(items) and body is not None:
                c.vars[var] = items[a.option]
                body(self, c)
        c.vars[var] = saved

    def label(self, element: str | None, x: Any) -> str:
        """How a chosen element reads in the list of choices (and in a log)."""
        ed = self.edition
        if element in ("square", "deed"):
            return ed.square_names[x]
        if element == "area":
            return ed.areas[x].get("name") or ed.areas[x]["key"]
        return f"seat {x}" if element in ("player", "party") else str(x)

    def throw_each(self, c: Ctx, names: list[str], body: Rule | None) -> None:
        """`throw A, B { ... }`: one die per name, one at a time, bound while the block runs."""
        saved = [c.vars.get(name) for name in names]
        faces = []
        for name in names:
            face = self.one_die()
            c.vars[name] = face
            faces.append(face)
        if self.log_on:
            self.ev({"type": "roll", "seat": c.me, "dice": faces, "purpose": "throw"})
        if body is not None:
            body(self, c)
        c.vars.update(zip(names, saved, strict=True))

    # ---- per-player state, hooks, the setup deal and the end ---------------------------

    def set_area(self, state: int, area: int, value: int) -> None:
        """`set a.NAME = V`: an area's declared number."""
        self.state.areas[state][area] = value
        if self.log_on:
            self.ev({"type": "set", "area": area, "state": self.edition.area_states[state], "value": value})

    def set_number(self, p: int, state: int, value: int) -> None:
        """`set p.NAME = V`: a player's declared number."""
        self.players[p].marks[state] = value
        if self.log_on:
            self.ev({"type": "set", "seat": p, "state": self.edition.states[state], "value": value})

    def fire(self, hooks: Sequence[Hook], c: Ctx, value: Any, way: str | None = None) -> None:
        """Run the hooks of one event with their variable bound to `value`, in spec order."""
        for var, cond, body, ways in hooks:
            if way is not None and ways and way not in ways:
                continue
            saved = c.vars.get(var)
            c.vars[var] = value
            try:
                if (cond is None or cond(self, c)) and body is not None:
                    body(self, c)
            except GOES_WRONG as error:
                raise self.located(error, body or cond) from None
            c.vars[var] = saved
            if self.ending:               # `end game` ran: the rest of the action stops here
                self.halt = True
                return

    def acquired(self, p: int, sq: int, way: str) -> None:
        """Deed `sq` has come to player `p` (by `way`): the `acquire` hooks, with `me` = `p`."""
        if self.edition.acquire_hooks and p >= 0 and not self.players[p].bankrupt:
            self.fire(self.edition.acquire_hooks, Ctx(p, reason="hook:acquire"), sq, way)

    def mark(self, p: int, state: int, item: Any) -> None:
        """`add ITEM to P.STATE`: a new element joins the set (never leaves: there is no remove)."""
        marks = self.players[p].marks[state]
        k = bisect.bisect_left(marks, item)
        if k < len(marks) and marks[k] == item:
            return
        marks.insert(k, item)
        hooks = self.edition.add_hooks[state]
        if hooks:
            self.fire(hooks, Ctx(p, reason="hook:add"), item)
        if self.log_on:       # logged once its hooks have run (an `end game` is then already known)
            self.ev({"type": "mark", "seat": p, "state": self.edition.states[state], "item": item})

    def end_game(self) -> None:
        """`end game`: the rest of its block still runs (a bonus), then the current action
        stops and the game ends when control returns to the turn."""
        self.ending = True

    def deal(self, each: int | None, paying: bool, kind: str | None = None) -> None:
        """`deal N each [of KIND]` / `deal all`: the bank's deeds (of that kind) shuffled and dealt
        one at a time round the table in turn order; with `paying`, each pays the printed price."""
        ed, st = self.edition, self.state
        deeds = [sq for sq in ed.deeds if st.owner[sq] == BANK and (kind is None or ed.kind_names[sq] == kind)]
        self.rng.shuffle(deeds)
        seats = [q for q in st.order if not self.players[q].bankrupt]
        count = len(deeds) if each is None else min(len(deeds), each * len(seats))
        for i in range(count):
            q, sq = seats[i % len(seats)], deeds[i]
            if self.players[q].bankrupt:
                continue
            self.set_owner(sq, q)
            if self.log_on:
                self.ev({"type": "deal", "seat": q, "square": sq})
            if paying:
                self.pay(q, BANK, ed.price[sq], "deal")
            self.acquired(q, sq, "deal")

    def ctx_roll(self, c: Ctx) -> int:
        """The `roll` name: one fresh roll of all the dice, made once per use site context."""
        if c.roll is None:
            dice, c.roll, _ = self.throw()
            if self.log_on:
                self.ev({"type": "roll", "seat": c.me, "dice": list(dice), "purpose": "card"})
        return c.roll


def _risk(p: int, sq: int, lands: bool) -> Rule:
    """A cost hint: the rent `p` owes on landing at `sq` (if it lands) and may owe on its next roll."""
    return lambda game, c: game.risk(p, sq, lands)


def _free(game: GameParts, c: Ctx) -> int:
    """What picking an element of a set costs in cash (a hint for strategies): nothing."""
    return 0
