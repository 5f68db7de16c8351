"""Turn flow: setup and the roll-off, the turn (manage window, jail, dice, doubles), the
end of the game and its ranking. The mechanisms are in rules.py and effects.py."""
from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .actions import (
    DONE,
    PAY_FINE,
    ROLL,
    USE_CARD,
    Act,
    Action,
    Done,
    PayFine,
    ProposeTrade,
    UseCard,
    default,
    to_json,
)
from .effects import EffectsMixin
from .errors import GOES_WRONG
from .rules import SQUARE_ACTIONS, RulesMixin
from .shortcuts import Shortcuts
from .state import BANK, NO_DEED, GameState, Player, rng_state_from_json, rng_state_to_json
from .translate import Ctx

if TYPE_CHECKING:
    from .edition import Edition
    from .parts import Event, Strategy


Throw = tuple[tuple[int, ...], int, bool]
"""A throw of the dice: the faces, their total, whether all show the same."""


def table_throw(throws: Sequence[Throw], faces: int, draw: Callable[[], float]) -> Throw:
    """A throw of two dice from the game's RNG (`draw`), read off the edition's table of
    every throw (`Edition.throws`, by the first die, then the second): the first draw is
    the first die."""
    return throws[int(draw() * faces) * faces + int(draw() * faces)]


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
        edition, state = self.edition, self.state
        ng = len(edition.groups)
        self.holdings = [[] for _ in self.players]    # per seat: its deeds, in square order
        self.group_counts = [[0] * ng for _ in self.players]
        self.group_mortgages = [0] * ng
        self.holders = [[] for _ in range(ng)]    # per group: the seats holding a deed of it
        owner, mortgaged = state.owner, state.mortgaged
        if not owner:         # a new game: no deed dealt yet (`setup` makes the tables)
            return
        for square in edition.deeds:
            if owner[square] >= 0:
                self.holdings[owner[square]].append(square)
                self.group_counts[owner[square]][edition.group_of[square]] += 1
            if mortgaged[square]:
                self.group_mortgages[edition.group_of[square]] += 1
        for q in self.seats:
            for g, count in enumerate(self.group_counts[q]):
                if count:
                    self.holders[g].append(q)

    # ---- events and choices ------------------------------------------------------------

    def ev(self, event: dict) -> None:
        self.events.append(event)
        if self.checker is not None:
            self.checker(self, event)

    def ask(self, seat: int, actions: Sequence[Action], trading: bool = False) -> Any:
        """The seat's choice among `actions` (and, while `trading`, any trade offer the rules
        accept); the default one for a player without a legal answer (`failed`)."""
        try:
            a = self.strategies[seat].choose(self, seat, actions)
        except Exception as error:
            return self.by_default(seat, actions, self.failed(seat, error))
        for legal in actions:       # by identity first: equality of dataclasses is slow
            if legal is a:
                break
        else:
            if a not in actions and not (trading and type(a) is ProposeTrade
                                         and self.valid_trade(seat, a)):
                return self.by_default(seat, actions, self.failed(seat, self.strategy_error(seat, a, actions)))
        if self.log_on:
            self.ev({"type": "choice", "seat": seat, "action": to_json(a)})
        return a

    def strategy_error(self, seat: int, a: Action, actions: Sequence[Action]) -> StrategyError:
        return StrategyError(f"seat {seat} ({self.players[seat].strategy}) chose {a!r}, "
                             f"not one of the {len(actions)} legal actions")

    def failed(self, seat: int, error: Exception) -> str:
        """Why the seat gets the default action: its `NoAnswer`, or the failure (an illegal
        answer, an exception) of a strategy that `falls_back` on the default. A strategy that
        does not (a test's script, a worked example) is obeyed: its failure stops the game."""
        if isinstance(error, NoAnswer):
            return error.why
        if not getattr(self.strategies[seat], "falls_back", False):
            raise error
        if isinstance(error, StrategyError):
            return str(error)
        return f"seat {seat} ({self.players[seat].strategy}) failed: {type(error).__name__}: {error}"

    def by_default(self, seat: int, actions: Sequence[Action], why: str) -> Any:
        """The default action for the seat (`actions.default`), logged with why it was taken."""
        a = default(actions)
        if self.log_on:
            self.ev({"type": "choice", "seat": seat, "action": to_json(a), "default": why})
        return a

    # ---- setup -------------------------------------------------------------------------

    def setup(self) -> None:
        edition, state = self.edition, self.state
        n = edition.n
        state.owner = [BANK if edition.is_deed[i] else NO_DEED for i in range(n)]
        state.houses = [0] * n
        state.hotels = [0] * n
        state.mortgaged = [False] * n
        state.landings = [0] * n
        state.bank_houses = edition.stock_houses
        state.bank_hotels = edition.stock_hotels
        state.pots = [0] * len(edition.pots)
        state.areas = [[0] * len(edition.areas) for _ in edition.area_states]
        for player in self.players:
            player.marks = [[] if is_set else 0 for is_set in edition.state_is_set]
            player.position = edition.start_square
            player.progress = edition.start_square
        state.decks = []
        for cards in edition.cards:
            order = list(range(len(cards)))
            self.rng.shuffle(order)
            state.decks.append(order)
        if self.log_on:
            self.ev({"type": "start", "edition": edition.id, "seed": state.seed,
                     "players": [{"seat": player.seat, "strategy": player.strategy} for player in self.players]})
        for player in self.players:
            self.transfer(BANK, player.seat, edition.start_money, "start")
        state.order = self.roll_off()
        state.turn_index = 0
        if edition.setup_fn is not None:
            try:
                edition.setup_fn(self, Ctx(reason="setup"))
            except GOES_WRONG as error:
                raise self.located(error, edition.setup_fn) from None

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

    def throw(self) -> Throw:
        """One roll of all the dice: (the faces, their total, whether all show the same)."""
        if self.dice_source is None:
            draw = self.random
            edition = self.edition
            faces = edition.faces
            if edition.throws is not None:
                return table_throw(edition.throws, faces, draw)
            dice = tuple([int(draw() * faces) + 1 for _ in range(edition.dice)])
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
        state = self.state
        order = state.order
        players = self.players
        cap = self.max_rounds
        end_over = self.edition.end_over
        only_bankruptcy = self.edition.end_only_bankruptcy
        ctx = Ctx()
        if not state.over and end_over is not None and end_over(self, ctx):
            alive = sum(1 for q in players if not q.bankrupt)
            self.finish("last_player" if alive <= 1 else "end_condition")
        if not state.over and self.ending:
            self.finish("end_game")
        sits_out = self.edition.sits_out
        i, seats = state.turn_index, len(order)      # `state.turn_index`, kept in step
        while not state.over:
            seat = order[i]
            if not players[seat].bankrupt and (sits_out is None or not self.sitting_out(seat)):
                if self.take_turn(seat, ctx):
                    break
            elif sits_out is not None and all(q.bankrupt or self.sitting_out(q.seat) for q in players):
                self.finish("end_condition")       # nobody left to play: whatever `end.over` says
                break
            i += 1
            if i < seats:
                state.turn_index = i
                continue
            i = state.turn_index = 0
            state.rounds += 1
            if cap is not None and state.rounds >= cap:
                self.finish("turn_cap")
                break
            if end_over is not None and not only_bankruptcy and end_over(self, ctx):   # `rounds` has moved
                self.finish("end_condition")
                break
        state.rng = rng_state_to_json(self.rng.getstate())

    def take_turn(self, seat: int, ctx: Ctx) -> bool:
        """One seat's turn as the game loop takes it (worked examples take theirs so too): the
        turn, the end-of-turn actions, the count; then whether the game is over, and if so
        it is finished (`end game` ran, or `end.over` holds after it)."""
        state, players, edition = self.state, self.players, self.edition
        self.bankruptcies = 0
        self.play_turn(seat)
        if edition.end_of_turn and not players[seat].bankrupt and not self.ending:
            self.end_of_turn(seat)
        state.turns += 1
        if self.ending:
            self.finish("end_game")
            return True
        end_over = edition.end_over
        if end_over is not None and (self.bankruptcies or not edition.end_only_bankruptcy) and end_over(self, ctx):
            alive = sum(1 for q in players if not q.bankrupt)
            self.finish("last_player" if alive <= 1 else "end_condition")
            return True
        return False

    def play_turn(self, seat: int) -> None:
        """The manage window before each roll (spared while the seat's cash is below its
        word, `Shortcuts.done_below`, and nothing is logged), a jailed player's try first,
        then the dice until no double."""
        edition = self.edition
        player = self.players[seat]
        self.cur = seat
        self.halt = False
        self.moves = 0
        log_on = self.log_on
        if log_on:
            self.ev({"type": "turn", "seat": seat, "turn": self.state.turns})
        jailed = player.in_jail
        doubles = 0
        # two dice from the game's RNG: the throw read straight off the edition's table
        # (`table_throw`, written out below: a call per roll costs more than the throw)
        throws = edition.throws if self.dice_source is None else None
        draw, faces = self.random, edition.faces
        done_below = self.shortcuts.done_below
        while True:
            if log_on or player.cash >= done_below[seat]:
                self.manage(seat)
                if player.bankrupt or self.ending:
                    return
            if jailed:
                jailed = False
                tried = self.jail_turn(seat)       # None: the turn is over
                if tried is None:
                    return
                doubles = tried
                if doubles:
                    if self.halt or player.bankrupt or player.in_jail:
                        return
                    continue      # out by a double and moved: the window again, then roll
            if throws is not None:
                dice, total, double = throws[int(draw() * faces) * faces + int(draw() * faces)]
            else:
                dice, total, double = self.throw()
            if log_on:
                self.ev({"type": "roll", "seat": seat, "dice": list(dice)})
            if double:
                doubles += 1
                if edition.doubles_to_jail and doubles >= edition.doubles_to_jail:
                    self.go_to_jail(seat, "doubles")
                    return
            self.halt = False
            ctx = self.move_ctx.again(seat, total, "", double, dice)
            if not (edition.roll_hooks and self.rolled(ctx, total)):
                self.move_steps(ctx, seat, total)
            if not double or not edition.doubles_again or self.halt or self.ending or player.bankrupt or player.in_jail:
                return

    def rolled(self, ctx: Ctx, total: int) -> bool:
        """The `roll` hooks whose condition holds replace the move by the dice: True when one ran."""
        for var, cond, body, _ways in self.edition.roll_hooks:
            saved = ctx.vars.get(var)
            ctx.vars[var] = total
            try:
                holds = cond is None or cond(self, ctx)
                if holds and body is not None:
                    body(self, ctx)
            except GOES_WRONG as error:
                raise self.located(error, body or cond) from None
            ctx.vars[var] = saved
            if holds:
                return True
        return False

    def sitting_out(self, seat: int) -> bool:
        """`end.sits_out`: the player takes no more turns, but stays in the game."""
        sits_out = self.edition.sits_out
        return sits_out is not None and bool(sits_out(self, Ctx(seat)))

    def end_of_turn(self, seat: int) -> None:
        """The spec's actions offered at the end of a turn: one at a time until Done. Done is
        not offered while an action's `required` holds and one of its instances is allowed."""
        edition = self.edition
        for _ in range(edition.n * len(edition.end_of_turn) + 1):
            ctx = Ctx(seat, reason="action")
            acts, required = self.offered(seat, edition.end_of_turn, ctx)
            if not acts:
                return
            if not required:
                acts.append(DONE)
            self.pending = "end_of_turn"
            a = self.ask(seat, acts)
            self.pending = None
            if type(a) is Done:
                return
            self.take_action(seat, a, ctx)
            if self.players[seat].bankrupt or self.ending or self.state.over:
                return

    def offered(self, seat: int, window: list[int], ctx: Ctx) -> tuple[list[Action], bool]:
        """The spec's actions of one window (their indexes) the seat may take now, one per
        item `allowed`, and whether one is required (its `required` holds and it is offered)."""
        edition = self.edition
        acts: list[Action] = []
        required = False
        for k in window:
            _name, label, _var, allowed, need, _effect = edition.actions[k]
            try:
                element = edition.action_elements[k]
                offered = [Act(k, x, f"{label}: {self.label(element, x)}") for x in allowed(self, ctx)]
                if offered and need is not None and need(self, ctx):
                    required = True
            except GOES_WRONG as error:
                raise self.located(error, allowed) from None
            acts += offered
        return acts, required

    def take_action(self, seat: int, a: Act, ctx: Ctx) -> None:
        """The seat takes one of the spec's actions: its effect runs with the item bound."""
        name, _label, var, _allowed, _need, effect = self.edition.actions[a.index]
        ctx.vars[var] = a.item
        if self.log_on:
            self.ev({"type": "action", "seat": seat, "action": name, "item": a.item})
        if effect is not None:
            try:
                effect(self, ctx)
            except GOES_WRONG as error:
                raise self.located(error, effect) from None

    def jail_turn(self, seat: int) -> int | None:
        """A jailed turn. Returns None (the turn is over), 0 (free: roll and move as
        usual) or 1 (left by a double, moved, and rolls again)."""
        edition = self.edition
        player = self.players[seat]
        acts: list[Action] = [ROLL]
        if player.cards:
            acts.append(USE_CARD)
        if player.cash >= edition.jail_fine:
            acts.append(PAY_FINE)
        a = self.ask(seat, acts)
        kind = type(a)
        if kind is UseCard:
            self.return_card(seat, player.cards[0])
            self.leave_jail(seat, "card")
            return 0 if edition.fine_before_roll else None
        if kind is PayFine:
            self.pay(seat, BANK, edition.jail_fine, "jail_fine")
            self.leave_jail(seat, "fine")
            return 0 if edition.fine_before_roll else None
        dice, total, double = self.throw()
        if self.log_on:
            self.ev({"type": "roll", "seat": seat, "dice": list(dice), "purpose": "jail"})
        if double:
            self.leave_jail(seat, "double")
            self.move_steps(self.move_ctx.again(seat, total, thrown=dice), seat, total)
            return 1 if edition.doubles_exit_roll_again else None
        player.jail_turns += 1
        if player.jail_turns >= edition.jail_max_turns:
            self.pay(seat, BANK, edition.jail_fine, "jail_fine")
            if player.bankrupt:
                return None
            self.leave_jail(seat, "forced")
            self.move_steps(self.move_ctx.again(seat, total, thrown=dice), seat, total)
        return None

    # ---- the manage window -------------------------------------------------------------

    def manage(self, seat: int) -> None:
        """Before each roll: build, sell, mortgage, lift, trade, until Done.

        A strategy with `manage_fast(game, seat) -> action` answers without the list of
        legal actions (the engine checks its answer against the rules instead): the same
        choice the strategy would make from the list, without building the list. Its
        word (`Shortcuts.done_below`) spares the call while it holds. The spec's actions offered
        before the roll are in the list only: an edition with any asks from the list."""
        shortcuts = self.shortcuts
        fast = shortcuts.manage_fast[seat] if not self.edition.before_roll else None
        player = self.players[seat]
        n = self.edition.n
        state, log_on, done_below = self.state, self.log_on, shortcuts.done_below
        proposed = False
        a: Any      # the answer, as `ask`'s: its kind told by `type(a) is ...` (no cast: a call each)
        for _ in range(n):
            if fast is not None:
                why = None
                if player.cash < done_below[seat]:
                    a = DONE        # its standing answer: no call needed
                else:
                    try:
                        a = fast(self, seat)
                    except Exception as error:
                        a, why = DONE, self.failed(seat, error)
                    else:       # an answer without the list is checked here
                        if type(a) is not Done and not self.manages(seat, a, proposed):
                            a, why = DONE, self.failed(seat, self.strategy_error(seat, a, ()))
                if why is not None:
                    self.by_default(seat, (DONE,), why)
                elif log_on:
                    self.ev({"type": "choice", "seat": seat, "action": to_json(a)})
            else:
                self.pending = "before_roll"
                a = self.ask(seat, self.manage_actions(seat, not proposed), not proposed)
                self.pending = None
            kind = type(a)
            if kind is Done:
                return
            step = SQUARE_ACTIONS.get(kind)
            if step is not None:        # the kind known, its type said (a step, a spec action or a trade offer)
                step[1](self, seat, a.square)
            elif kind is Act:
                self.take_action(seat, a, Ctx(seat, reason="action"))
            else:
                proposed = True
                self.propose_trade(seat, a)
            if player.bankrupt or state.over or self.ending:
                return

    def manages(self, seat: int, a: Any, proposed: bool) -> bool:
        """Whether `a` (an action, told by its kind as `ask`'s answer) is a legal answer in the
        seat's manage window (`proposed`: it has made its one trade offer of the window),
        checked without listing every legal answer."""
        kind = type(a)
        if kind is Done:
            return True
        step = SQUARE_ACTIONS.get(kind)
        if step is not None:
            square = a.square
            return type(square) is int and 0 <= square < self.edition.n and step[0](self, seat, square)
        return type(a) is ProposeTrade and not proposed and self.edition.trade_cash and self.valid_trade(seat, a)

    def manage_actions(self, seat: int, trades: bool = True) -> list[Action]:
        """The seat's legal answers in its manage window: Done, a step on one of its deeds, the
        spec's actions offered before the roll, and (with `trades`) a trade offer for one deed
        or card of another player. While a spec action is required, Done is not offered and the
        spec's actions come first."""
        edition = self.edition
        acts: list[Action] = [DONE]
        if edition.before_roll:
            spec, required = self.offered(seat, edition.before_roll, Ctx(seat, reason="action"))
            if required:
                acts = spec
            else:
                acts += spec
        for square in self.deeds_of(seat):
            if self.can_build(seat, square):
                acts.append(edition.BUILD[square])
            if self.can_build_hotel(seat, square):
                acts.append(edition.BUILD_HOTEL[square])
            if self.can_sell(seat, square):
                acts.append(edition.SELL[square])
            if self.can_downgrade(seat, square):
                acts.append(edition.DOWNGRADE[square])
            if self.can_mortgage(seat, square):
                acts.append(edition.MORTGAGE[square])
            if self.can_unmortgage(seat, square):
                acts.append(edition.UNMORTGAGE[square])
        if trades and edition.trade_cash:
            acts += self.trade_offers(seat)
        return acts

    def trade_offers(self, seat: int) -> list[Action]:
        """The trade offers the seat may make: one deed (at its price) or one card (at the
        jail fine) of another player, as far as both can pay."""
        edition = self.edition
        acts: list[Action] = []
        cash = self.players[seat].cash
        for q in self.seats:
            if q == seat or self.players[q].bankrupt:
                continue
            theirs = self.players[q].cash       # what a negative price asks of the holder
            if edition.trade_deeds:
                for square in self.deeds_of(q):
                    if edition.price[square] <= cash and -edition.price[square] <= theirs and self.tradeable(square):
                        acts.append(ProposeTrade(q, (), (square,), edition.price[square]))
            if edition.trade_cards and cash >= edition.jail_fine and -edition.jail_fine <= theirs:
                for card in self.players[q].cards:
                    acts.append(ProposeTrade(q, (), (), edition.jail_fine, (), (tuple(card),)))
        return acts

    # ---- the end -----------------------------------------------------------------------

    def score(self, seat: int) -> int:
        edition = self.edition
        if edition.score_fn is None:
            return self.players[seat].cash
        return edition.money(edition.score_fn(self, Ctx(seat)))

    def scores(self) -> list[int]:
        """Every seat's score now; the ones the game ended with are kept in `final_scores`."""
        return [self.score(q) for q in self.seats]

    def standings(self, scores: list[int] | None = None) -> list[int]:
        """Non-bankrupt first, then by score (highest first), then by seat."""
        if scores is None:
            scores = self.scores()
        return sorted(self.seats, key=lambda q: (self.players[q].bankrupt, -scores[q], q))

    def finish(self, why: str) -> None:
        state = self.state
        state.over = True
        state.ended_by = why
        self.final_scores = self.scores()
        ranking = self.standings(self.final_scores)
        state.winner = ranking[0] if not self.players[ranking[0]].bankrupt else None
        if self.log_on:
            self.ev({"type": "end", "ended_by": why, "winner": state.winner, "rounds": state.rounds,
                     "turns": state.turns})
