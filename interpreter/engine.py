"""Turn flow: setup and the roll-off, the turn (manage window, jail, dice, doubles), the
end of the game and its ranking. The mechanisms are in rules.py and effects.py."""
from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, cast

from . import actions as A
from .effects import EffectsMixin
from .errors import GOES_WRONG
from .rules import SQUARE_ACTIONS, RulesMixin
from .shortcuts import Shortcuts
from .state import BANK, NO_DEED, GameState, Player, rng_state_from_json, rng_state_to_json
from .translate import Ctx

if TYPE_CHECKING:
    from .edition import Edition
    from .parts import Event, Strategy


class StrategyError(Exception):
    """A strategy answered with an action that is not legal here."""


class NoAnswer(Exception):
    """Raised by a strategy that has no legal answer to give (the replay's stand-in raises
    it where the logged player had none): the engine takes the default action for it
    (`actions.default`) and notes `why` in that choice of the log."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


class Game(RulesMixin, EffectsMixin):
    # Slots: CPython 3.11 reads the attributes and methods of an instance with more than
    # thirty attributes in its dict the slow way, and a game has about that many. Declared
    # here, on the class of every game, so a slot read is a type check by identity (see
    # parts.GameParts, which types them). A dict still (GameParts has one), for a method
    # replaced on one game (the symbolic replay moves without landing).
    __slots__ = ("edition", "strategies", "rng", "random", "log_on", "events", "checker", "dice_source", "halt",
                 "ending", "bankruptcies", "pending", "proposer", "cur", "final_scores", "max_rounds",
                 "shortcuts", "move_ctx", "state", "players", "seats",
                 "holdings", "group_counts", "group_mortgages", "holders", "moves", "trail")

    def __init__(self, edition: Edition, strategies: list[Strategy], names: list[str], seed: int,
                 max_turns: int | None = None, log: bool = True,
                 checker: Callable[[Game, Event], None] | None = None,
                 dice: Callable[[Game], Iterable[int]] | None = None, state: GameState | None = None) -> None:
        self.edition = edition
        self.strategies = strategies
        self.rng = random.Random(seed)
        self.random = self.rng.random      # the dice read it (bound once: a throw is hot)
        self.log_on = bool(log or checker)
        self.events: list[dict] = []
        self.checker = checker
        self.dice_source = dice
        self.halt = False
        self.ending = False          # `end game` ran: the game ends when the current action returns
        self.bankruptcies = 0
        self.pending = None
        self.proposer = -1           # who made the trade offer being answered (`pending`)
        self.cur = -1
        self.final_scores: list[int] | None = None   # set by `finish` (scoring walks every deed)
        self.max_rounds = edition.turn_cap if max_turns is None else max_turns
        self.shortcuts = Shortcuts(strategies)
        self.move_ctx = Ctx()        # the context of each move by the dice, made anew by `again`
        self.moves = 0               # landings and card draws this turn (bounded: errors.LIMIT)
        self.trail: list[str] = []   # the last of them near the limit (`looping`)
        if state is None:
            players = [Player(seat=i, strategy=names[i]) for i in range(len(names))]
            self.state = GameState(edition=edition.id, seed=seed, players=players)
            self.players = players
            self.seats = list(range(len(names)))
            self._derive()
            self.setup()
        else:
            self.state = state
            self.players = state.players
            self.seats = list(range(len(state.players)))
            if state.rng:
                self.rng.setstate(rng_state_from_json(state.rng))
            self._derive()

    def _derive(self) -> None:
        """Caches computed from the state (never saved), kept in step by `set_owner` and
        `set_mortgaged`: who holds what, by seat and by group, and the mortgages per group."""
        ed, st = self.edition, self.state
        ng = len(ed.groups)
        self.holdings = [[] for _ in self.players]    # per seat: its deeds, in square order
        self.group_counts = [[0] * ng for _ in self.players]
        self.group_mortgages = [0] * ng
        self.holders = [[] for _ in range(ng)]    # per group: the seats holding a deed of it
        owner, mortgaged = st.owner, st.mortgaged
        if not owner:         # a new game: no deed dealt yet (`setup` makes the tables)
            return
        for sq in ed.deeds:
            if owner[sq] >= 0:
                self.holdings[owner[sq]].append(sq)
                self.group_counts[owner[sq]][ed.group_of[sq]] += 1
            if mortgaged[sq]:
                self.group_mortgages[ed.group_of[sq]] += 1
        for q in self.seats:
            for g, count in enumerate(self.group_counts[q]):
                if count:
                    self.holders[g].append(q)

    # ---- events and choices ------------------------------------------------------------

    def ev(self, event: dict) -> None:
        self.events.append(event)
        if self.checker is not None:
            self.checker(self, event)

    def ask(self, p: int, actions: Sequence[A.Action], trading: bool = False) -> Any:
        """Seat `p`'s choice among `actions` (and, while `trading`, any trade offer the rules
        accept); the default one for a player without a legal answer (`failed`)."""
        try:
            a = self.strategies[p].choose(self, p, actions)
        except Exception as error:
            return self.by_default(p, actions, self.failed(p, error))
        for legal in actions:       # by identity first: equality of dataclasses is slow
            if legal is a:
                break
        else:
            if a not in actions and not (trading and type(a) is A.ProposeTrade
                                         and self.valid_trade(p, a)):
                return self.by_default(p, actions, self.failed(p, self.strategy_error(p, a, actions)))
        if self.log_on:
            self.ev({"type": "choice", "seat": p, "action": A.to_json(a)})
        return a

    def strategy_error(self, p: int, a: A.Action, actions: Sequence[A.Action]) -> StrategyError:
        return StrategyError(f"seat {p} ({self.players[p].strategy}) chose {a!r}, "
                             f"not one of the {len(actions)} legal actions")

    def failed(self, p: int, error: Exception) -> str:
        """Why seat `p` gets the default action: its `NoAnswer`, or the failure (an illegal
        answer, an exception) of a strategy that `falls_back` on the default. A strategy that
        does not (a test's script, a worked example) is obeyed: its failure stops the game."""
        if isinstance(error, NoAnswer):
            return error.why
        if not getattr(self.strategies[p], "falls_back", False):
            raise error
        if isinstance(error, StrategyError):
            return str(error)
        return f"seat {p} ({self.players[p].strategy}) failed: {type(error).__name__}: {error}"

    def by_default(self, p: int, actions: Sequence[A.Action], why: str) -> Any:
        """The default action for seat `p` (`actions.default`), logged with why it was taken."""
        a = A.default(actions)
        if self.log_on:
            self.ev({"type": "choice", "seat": p, "action": A.to_json(a), "default": why})
        return a

    # ---- setup -------------------------------------------------------------------------

    def setup(self) -> None:
        ed, st = self.edition, self.state
        n = ed.n
        st.owner = [BANK if ed.is_deed[i] else NO_DEED for i in range(n)]
        st.houses = [0] * n
        st.hotels = [0] * n
        st.mortgaged = [False] * n
        st.landings = [0] * n
        st.bank_houses = ed.stock_houses
        st.bank_hotels = ed.stock_hotels
        st.pots = [0] * len(ed.pots)
        st.areas = [[0] * len(ed.areas) for _ in ed.area_states]
        passes = [(ed.start_square - s) // n for s in ed.on_pass_squares]
        for pl in self.players:
            pl.marks = [[] if is_set else 0 for is_set in ed.state_is_set]
            pl.position = ed.start_square
            pl.progress = ed.start_square
            pl.passes = passes[:]
        st.decks = []
        for cards in ed.cards:
            order = list(range(len(cards)))
            self.rng.shuffle(order)
            st.decks.append(order)
        if self.log_on:
            self.ev({"type": "start", "edition": ed.id, "seed": st.seed,
                     "players": [{"seat": pl.seat, "strategy": pl.strategy} for pl in self.players]})
        for pl in self.players:
            self.transfer(BANK, pl.seat, ed.start_money, "start")
        st.order = self.roll_off()
        st.turn_index = 0
        if ed.setup_fn is not None:
            try:
                ed.setup_fn(self, Ctx(reason="setup"))
            except GOES_WRONG as error:
                raise self.located(error, ed.setup_fn) from None

    def roll_off(self) -> list[int]:
        """All roll; the highest starts (ties roll again); then seat order clockwise."""
        contenders = list(self.seats)
        while len(contenders) > 1:
            totals = {}
            for q in contenders:
                totals[q] = self.throw()[1]
                if self.log_on:
                    self.ev({"type": "roll_off", "seat": q, "total": totals[q]})
            best = max(totals.values())
            contenders = [q for q in contenders if totals[q] == best]
        first = contenders[0]
        n = len(self.seats)
        return [(first + k) % n for k in range(n)]

    def throw(self) -> tuple[tuple, int, bool]:
        """One roll of all the dice: (the faces, their total, whether all show the same)."""
        if self.dice_source is None:
            r = self.random
            ed = self.edition
            f = ed.faces
            throws = ed.throws
            if throws is not None:
                return throws[int(r() * f) * f + int(r() * f)]    # first draw: first die
            dice = tuple([int(r() * f) + 1 for _ in range(ed.dice)])
        else:
            dice = tuple(self.dice_source(self))
            if len(dice) != self.edition.dice:
                raise ValueError(f"a throw of all the dice is {self.edition.dice} faces, and the one given is "
                                 f"{' '.join(map(str, dice))}")
        return dice, sum(dice), len(set(dice)) == 1

    def one_die(self) -> int:
        """One die on its own (`throw`): the first face of a supplied roll, else the RNG."""
        if self.dice_source is not None:
            return tuple(self.dice_source(self))[0]
        return int(self.rng.random() * self.edition.faces) + 1

    # ---- the game loop -----------------------------------------------------------------

    def run(self) -> None:
        """The game to its end; a rule that goes wrong stops it with a `RuleError`."""
        try:
            self.play_out()
        except GOES_WRONG as error:
            raise self.located(error, None) from None

    def play_out(self) -> None:
        st = self.state
        order = st.order
        pl = self.players
        cap = self.max_rounds
        end_over = self.edition.end_over
        only_bankruptcy = self.edition.end_only_bankruptcy
        ctx = Ctx()
        if not st.over and end_over is not None and end_over(self, ctx):
            alive = sum(1 for q in pl if not q.bankrupt)
            self.finish("last_player" if alive <= 1 else "end_condition")
        if not st.over and self.ending:
            self.finish("end_game")
        sits_out = self.edition.sits_out
        i, seats = st.turn_index, len(order)      # `st.turn_index`, kept in step
        while not st.over:
            p = order[i]
            if not pl[p].bankrupt and (sits_out is None or not self.sitting_out(p)):
                if self.take_turn(p, ctx):
                    break
            elif sits_out is not None and all(q.bankrupt or self.sitting_out(q.seat) for q in pl):
                self.finish("end_condition")       # nobody left to play: whatever `end.over` says
                break
            i += 1
            if i < seats:
                st.turn_index = i
                continue
            i = st.turn_index = 0
            st.rounds += 1
            if cap is not None and st.rounds >= cap:
                self.finish("turn_cap")
                break
            if end_over is not None and not only_bankruptcy and end_over(self, ctx):   # `rounds` has moved
                self.finish("end_condition")
                break
        st.rng = rng_state_to_json(self.rng.getstate())

    def take_turn(self, p: int, ctx: Ctx) -> bool:
        """One seat's turn as the game loop takes it (worked examples take theirs so too): the
        turn, the end-of-turn actions, the count; then whether the game is over, and if so
        it is finished (`end game` ran, or `end.over` holds after it)."""
        st, pl = self.state, self.players
        self.bankruptcies = 0
        self.play_turn(p)
        if self.edition.end_of_turn and not pl[p].bankrupt and not self.ending:
            self.end_of_turn(p)
        st.turns += 1
        if self.ending:
            self.finish("end_game")
            return True
        end_over = self.edition.end_over
        if end_over is not None and (self.bankruptcies or not self.edition.end_only_bankruptcy) and end_over(self, ctx):
            alive = sum(1 for q in pl if not q.bankrupt)
            self.finish("last_player" if alive <= 1 else "end_condition")
            return True
        return False

    def play_turn(self, p: int) -> None:
        """The manage window before each roll (spared while the seat's cash is below its
        word, `Shortcuts.done_below`, and nothing is logged), a jailed player's try first,
        then the dice until no double."""
        ed = self.edition
        pl = self.players[p]
        self.cur = p
        self.halt = False
        self.moves = 0
        log_on = self.log_on
        if log_on:
            self.ev({"type": "turn", "seat": p, "turn": self.state.turns})
        jailed = pl.in_jail
        doubles = 0
        # two dice from the game's RNG: the throw read straight off the edition's table
        throws = ed.throws if self.dice_source is None else None
        done_below = self.shortcuts.done_below
        while True:
            if log_on or pl.cash >= done_below[p]:
                self.manage(p)
                if pl.bankrupt or self.ending:
                    return
            if jailed:
                jailed = False
                tried = self.jail_turn(p)       # None: the turn is over
                if tried is None:
                    return
                doubles = tried
                if doubles:
                    if self.halt or pl.bankrupt or pl.in_jail:
                        return
                    continue      # out by a double and moved: the window again, then roll
            if throws is not None:
                r, faces = self.random, ed.faces
                dice, total, double = throws[int(r() * faces) * faces + int(r() * faces)]   # as `throw`
            else:
                dice, total, double = self.throw()
            if log_on:
                self.ev({"type": "roll", "seat": p, "dice": list(dice)})
            if double:
                doubles += 1
                if ed.doubles_to_jail and doubles >= ed.doubles_to_jail:
                    self.go_to_jail(p, "doubles")
                    return
            self.halt = False
            c = self.move_ctx.again(p, total, "", double)
            if not (ed.roll_hooks and self.rolled(c, total)):
                self.move_steps(c, p, total)
            if not double or not ed.doubles_again or self.halt or self.ending or pl.bankrupt or pl.in_jail:
                return

    def rolled(self, c: Ctx, total: int) -> bool:
        """The `roll` hooks whose condition holds replace the move by the dice: True when one ran."""
        for var, cond, body, _ways in self.edition.roll_hooks:
            saved = c.vars.get(var)
            c.vars[var] = total
            try:
                holds = cond is None or cond(self, c)
                if holds and body is not None:
                    body(self, c)
            except GOES_WRONG as error:
                raise self.located(error, body or cond) from None
            c.vars[var] = saved
            if holds:
                return True
        return False

    def sitting_out(self, p: int) -> bool:
        """`end.sits_out`: the player takes no more turns, but stays in the game."""
        sits_out = self.edition.sits_out
        return sits_out is not None and bool(sits_out(self, Ctx(p)))

    def end_of_turn(self, p: int) -> None:
        """The spec's actions offered at the end of a turn: one at a time until Done. Done is
        not offered while an action's `required` holds and one of its instances is allowed."""
        ed = self.edition
        for _ in range(ed.n * len(ed.end_of_turn) + 1):
            c = Ctx(p, reason="action")
            acts, required = self.offered(p, ed.end_of_turn, c)
            if not acts:
                return
            if not required:
                acts.append(A.DONE)
            self.pending = "end_of_turn"
            a = self.ask(p, acts)
            self.pending = None
            if type(a) is A.Done:
                return
            self.take_action(p, cast(A.Act, a), c)
            if self.players[p].bankrupt or self.ending or self.state.over:
                return

    def offered(self, p: int, window: list[int], c: Ctx) -> tuple[list[A.Action], bool]:
        """The spec's actions of one window (their indexes) seat `p` may take now, one per
        item `allowed`, and whether one is required (its `required` holds and it is offered)."""
        ed = self.edition
        acts: list[A.Action] = []
        required = False
        for k in window:
            _name, label, _var, allowed, need, _effect = ed.actions[k]
            try:
                element = ed.action_elements[k]
                offered = [A.Act(k, x, f"{label}: {self.label(element, x)}") for x in allowed(self, c)]
                if offered and need is not None and need(self, c):
                    required = True
            except GOES_WRONG as error:
                raise self.located(error, allowed) from None
            acts += offered
        return acts, required

    def take_action(self, p: int, a: A.Act, c: Ctx) -> None:
        """Seat `p` takes one of the spec's actions: its effect runs with the item bound."""
        name, _label, var, _allowed, _need, effect = self.edition.actions[a.index]
        c.vars[var] = a.item
        if self.log_on:
            self.ev({"type": "action", "seat": p, "action": name, "item": a.item})
        if effect is not None:
            try:
                effect(self, c)
            except GOES_WRONG as error:
                raise self.located(error, effect) from None

    def jail_turn(self, p: int) -> int | None:
        """A jailed turn. Returns None (the turn is over), 0 (free: roll and move as
        usual) or 1 (left by a double, moved, and rolls again)."""
        ed = self.edition
        pl = self.players[p]
        acts: list[A.Action] = [A.ROLL]
        if pl.cards:
            acts.append(A.USE_CARD)
        if pl.cash >= ed.jail_fine:
            acts.append(A.PAY_FINE)
        a = self.ask(p, acts)
        kind = type(a)
        if kind is A.UseCard:
            self.return_card(p, pl.cards[0])
            self.leave_jail(p, "card")
            return 0 if ed.fine_before_roll else None
        if kind is A.PayFine:
            self.pay(p, BANK, ed.jail_fine, "jail_fine")
            self.leave_jail(p, "fine")
            return 0 if ed.fine_before_roll else None
        dice, total, double = self.throw()
        if self.log_on:
            self.ev({"type": "roll", "seat": p, "dice": list(dice), "purpose": "jail"})
        if double:
            self.leave_jail(p, "double")
            self.move_steps(self.move_ctx.again(p, total), p, total)
            return 1 if ed.doubles_exit_roll_again else None
        pl.jail_turns += 1
        if pl.jail_turns >= ed.jail_max_turns:
            self.pay(p, BANK, ed.jail_fine, "jail_fine")
            if pl.bankrupt:
                return None
            self.leave_jail(p, "forced")
            self.move_steps(self.move_ctx.again(p, total), p, total)
        return None

    # ---- the manage window -------------------------------------------------------------

    def manage(self, p: int) -> None:
        """Before each roll: build, sell, mortgage, lift, trade, until Done.

        A strategy with `manage_fast(game, seat) -> action` answers without the list of
        legal actions (the engine checks its answer against the rules instead): the same
        choice the strategy would make from the list, without building the list. Its
        word (`Shortcuts.done_below`) spares the call while it holds. The spec's actions offered
        before the roll are in the list only: an edition with any asks from the list."""
        shortcuts = self.shortcuts
        fast = shortcuts.manage_fast[p] if not self.edition.before_roll else None
        pl = self.players[p]
        n = self.edition.n
        st, log_on, done_below = self.state, self.log_on, shortcuts.done_below
        proposed = False
        for _ in range(n):
            if fast is not None:
                why = None
                if pl.cash < done_below[p]:
                    a = A.DONE        # its standing answer: no call needed
                else:
                    try:
                        a = fast(self, p)
                    except Exception as error:
                        a, why = A.DONE, self.failed(p, error)
                    else:       # an answer without the list is checked here
                        if type(a) is not A.Done and not self.manages(p, a, proposed):
                            a, why = A.DONE, self.failed(p, self.strategy_error(p, a, ()))
                if why is not None:
                    self.by_default(p, (A.DONE,), why)
                elif log_on:
                    self.ev({"type": "choice", "seat": p, "action": A.to_json(a)})
            else:
                self.pending = "before_roll"
                a = self.ask(p, self.manage_actions(p, not proposed), not proposed)
                self.pending = None
            kind = type(a)
            if kind is A.Done:
                return
            step = SQUARE_ACTIONS.get(kind)
            if step is not None:        # the kind known, its type said (a step, a spec action or a trade offer)
                step[1](self, p, cast(A.OnSquare, a).square)
            elif kind is A.Act:
                self.take_action(p, cast(A.Act, a), Ctx(p, reason="action"))
            else:
                proposed = True
                self.propose_trade(p, cast(A.ProposeTrade, a))
            if pl.bankrupt or st.over or self.ending:
                return

    def manages(self, p: int, a: A.Action, proposed: bool) -> bool:
        """Whether `a` is a legal answer in seat `p`'s manage window (`proposed`: it has made
        its one trade offer of the window), checked without listing every legal answer."""
        kind = type(a)
        if kind is A.Done:
            return True
        step = SQUARE_ACTIONS.get(kind)
        if step is not None:
            sq = cast(A.OnSquare, a).square
            return type(sq) is int and 0 <= sq < self.edition.n and step[0](self, p, sq)
        return type(a) is A.ProposeTrade and not proposed and self.edition.trade_cash and self.valid_trade(p, a)

    def manage_actions(self, p: int, trades: bool = True) -> list[A.Action]:
        """Seat `p`'s legal answers in its manage window: Done, a step on one of its deeds, the
        spec's actions offered before the roll, and (with `trades`) a trade offer for one deed
        or card of another player. While a spec action is required, Done is not offered and the
        spec's actions come first."""
        ed = self.edition
        acts: list[A.Action] = [A.DONE]
        if ed.before_roll:
            spec, required = self.offered(p, ed.before_roll, Ctx(p, reason="action"))
            if required:
                acts = spec
            else:
                acts += spec
        for sq in self.deeds_of(p):
            if self.can_build(p, sq):
                acts.append(ed.BUILD[sq])
            if self.can_build_hotel(p, sq):
                acts.append(ed.BUILD_HOTEL[sq])
            if self.can_sell(p, sq):
                acts.append(ed.SELL[sq])
            if self.can_downgrade(p, sq):
                acts.append(ed.DOWNGRADE[sq])
            if self.can_mortgage(p, sq):
                acts.append(ed.MORTGAGE[sq])
            if self.can_unmortgage(p, sq):
                acts.append(ed.UNMORTGAGE[sq])
        if trades and ed.trade_cash:
            acts += self.trade_offers(p)
        return acts

    def trade_offers(self, p: int) -> list[A.Action]:
        """The trade offers seat `p` may make: one deed (at its price) or one card (at the
        jail fine) of another player, as far as both can pay."""
        ed = self.edition
        acts: list[A.Action] = []
        cash = self.players[p].cash
        for q in self.seats:
            if q == p or self.players[q].bankrupt:
                continue
            theirs = self.players[q].cash       # what a negative price asks of the holder
            if ed.trade_deeds:
                for sq in self.deeds_of(q):
                    if ed.price[sq] <= cash and -ed.price[sq] <= theirs and self.tradeable(sq):
                        acts.append(A.ProposeTrade(q, (), (sq,), ed.price[sq]))
            if ed.trade_cards and cash >= ed.jail_fine and -ed.jail_fine <= theirs:
                for card in self.players[q].cards:
                    acts.append(A.ProposeTrade(q, (), (), ed.jail_fine, (), (tuple(card),)))
        return acts

    # ---- the end -----------------------------------------------------------------------

    def score(self, p: int) -> int:
        ed = self.edition
        if ed.score_fn is None:
            return self.players[p].cash
        return ed.money(ed.score_fn(self, Ctx(p)))

    def scores(self) -> list[int]:
        """Every seat's score now; the ones the game ended with are kept in `final_scores`."""
        return [self.score(q) for q in self.seats]

    def standings(self, scores: list[int] | None = None) -> list[int]:
        """Non-bankrupt first, then by score (highest first), then by seat."""
        if scores is None:
            scores = self.scores()
        return sorted(self.seats, key=lambda q: (self.players[q].bankrupt, -scores[q], q))

    def finish(self, why: str) -> None:
        st = self.state
        st.over = True
        st.ended_by = why
        self.final_scores = self.scores()
        ranking = self.standings(self.final_scores)
        st.winner = ranking[0] if not self.players[ranking[0]].bankrupt else None
        if self.log_on:
            self.ev({"type": "end", "ended_by": why, "winner": st.winner, "rounds": st.rounds, "turns": st.turns})
