"""Run a catalogue action in the interpreter, with the same parameters and decisions the
symbolic step used (a scripted strategy answers every question from the recorded
choices; the decks are stacked so the recorded cards come up). The differential test
and the confirmation of bounded-model-checking traces both go through here."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import interpreter
from interpreter import Edition
from interpreter import actions as A
from interpreter.engine import Game
from interpreter.rules import AuctionInfo
from interpreter.shortcuts import Shortcuts
from interpreter.translate import Ctx

from . import terms
from .engine import holds
from .state import from_game
from .terms import Term

if TYPE_CHECKING:
    from .actions import Action


class Script:
    """A strategy answering from recorded choices, per kind, in order."""

    def __init__(self, record: list[tuple[str, Any, Any]], extra: dict[str, Any] | None = None) -> None:
        self.q: defaultdict[str, list[Any]] = defaultdict(list)
        for kind, value, _seat in record:
            self.q[kind].append(value)
        self.extra = extra or {}
        self.auction: tuple[Any, int, Any] | None = None   # (the auction, its winner, the price)

    def take(self, kind: str, default: Any = None) -> Any:
        return self.q[kind].pop(0) if self.q[kind] else default

    def raise_fast(self, game: Game, p: int, owed: int, creditor: int, refused: object) -> None:
        return None                      # raising money is its own action

    def choose(self, game: Game, p: int, actions: Sequence[Any]) -> Any:
        kinds = {type(a) for a in actions}
        if A.Preempt in kinds:
            return actions[0] if self.take("preempt", False) else A.PASS
        if A.Buy in kinds:
            buy = self.take("buy", False)
            return next(a for a in actions if type(a) is (A.Buy if buy else A.Decline))
        if A.Pass in kinds:
            info = game.pending
            if not isinstance(info, AuctionInfo) or self.auction is None or self.auction[0] is not info:
                w = self.take("auction_winner", -1)
                price = self.take("auction_price") if w >= 0 else None
                self.auction = (info, w, price)
            _, w, price = self.auction
            assert isinstance(info, AuctionInfo), "a pass is offered only in an auction"
            if p == w and info.leader < 0:
                return next((a for a in actions if type(a) is A.Bid and a.amount == price), A.PASS)
            return A.PASS
        if A.KeepMortgage in kinds:
            lift = self.take("lift", False)
            return next((a for a in actions if type(a) is (A.Unmortgage if lift else A.KeepMortgage)), actions[0])
        if A.Choose in kinds:
            return actions[self.take("option", 0)]
        if A.Accept in kinds:
            return A.ACCEPT
        if A.Roll in kinds:
            want = self.extra.get("jail")
            return next((a for a in actions if type(a) is want), A.ROLL)
        raise AssertionError(f"the script has no answer for {actions!r}")


def _faces(total: int, faces: int, double: bool) -> tuple[int, int] | None:
    if double:
        return (total // 2, total // 2)
    for a in range(1, faces + 1):
        b = total - a
        if 1 <= b <= faces and a != b:
            return (a, b)
    return None


def run(game: Game, act: Action, args: dict, record: list) -> bool:
    """Apply `act` with `args` to the interpreter game; False when the interpreter cannot
    take the same path (the caller skips the pair)."""
    replay = _Replay(game, act, args, record)
    if not replay.stack_drawn():
        return False
    take = _BY_NAME.get(act.name) or _BY_FAMILY.get(act.family)
    return take is not None and take(replay)


class _Replay:
    """The interpreter game set up to take one catalogue action the symbolic step's way:
    the scripted strategy, landings left to their own actions, the dice and cards to come."""

    def __init__(self, game: Game, act: Action, args: dict[str, Any], record: list[tuple[str, Any, Any]]) -> None:
        self.game, self.act, self.args, self.record = game, act, args, record
        self.edition, self.state = game.edition, game.state
        players = len(self.state.players)
        self.script = Script(record)
        game.strategies = [self.script] * players
        game.shortcuts = Shortcuts(game.strategies)      # the script's: its `raise_fast` only
        game.log_on = False
        self.dice = [v for kind, v, _ in record if kind in ("dice", "roll")]
        self.me: int = args["me"]            # every catalogue action has a seat acting
        game.cur = self.me
        game.halt = False
        game.land = self.land              # type: ignore[method-assign]  # the landing is its own action
        game.jump_to = game.place_at       # type: ignore[method-assign]  # a jump lands as its own action too
        # fresh rolls of every die (`roll`), and single dice (`throw`), in the order they were made
        faces = self.edition.faces
        queue = [(_faces(v, faces, False) or _faces(v, faces, True)) if kind == "roll" else (v,)
                 for kind, v, _ in record if kind in ("roll", "die")]
        def next_throw(_game: object) -> tuple[int, ...]:
            throw = queue.pop(0)
            assert throw is not None, "every recorded roll has faces the edition's dice can show"
            return throw
        game.dice_source = next_throw
        # cards drawn, in order per deck
        self.drawn: dict[int, list[int]] = defaultdict(list)
        for kind, v, _ in record:
            if kind.startswith("card:"):
                self.drawn[self.edition.deck_index[kind[5:]]].append(v)

    def land(self, c: Ctx, p: int, sq: int) -> None:
        """Outside a card, and after a jump, a landing is its own action (`symbolic.effects.land`).
        It stands in for `Game.land`, so it takes the same parameters, by the same names."""
        if self.state.in_play:
            Game.land(self.game, c, p, sq)

    def stack(self, deck: int, cards: list[int]) -> None:
        """Put `cards` on top of the deck, in this order."""
        order = self.state.decks[deck]
        for i in reversed(cards):
            order.remove(i)
            order.insert(0, i)

    def stack_drawn(self) -> bool:
        """Stack each deck so the recorded cards come up; False when they cannot (a card
        drawn twice, or not in its deck)."""
        for k, cards in self.drawn.items():
            if len(set(cards)) != len(cards) or any(i not in self.state.decks[k] for i in cards):
                return False
            self.stack(k, cards)
        return True

    def recorded(self, kind: str) -> Term:
        """The first recorded decision of this kind."""
        return next(v for k, v, _ in self.record if k == kind)


def _roll(r: _Replay) -> bool:
    game, me, total = r.game, r.me, r.dice[0]
    ctx = Ctx(me, total)
    ctx.doubles = next((v for kind, v, _ in r.record if kind == "double"), False)
    if not (r.edition.roll_hooks and game.rolled(ctx, total)):
        game.move_steps(ctx, me, total)
    return True


def _end_turn(r: _Replay) -> bool:
    r.state.turns += 1
    return True


def _spec_action(r: _Replay) -> bool:
    _id, _label, var, _allowed, _need, effect = r.edition.actions[r.act.extra["index"]]
    ctx = Ctx(r.me, reason="action")
    ctx.vars[var] = r.args["item"]
    if effect is not None:
        effect(r.game, ctx)
    return True


def _jail_doubles(r: _Replay) -> bool:
    r.game.go_to_jail(r.me, "doubles")
    return True


def _jail_turn(r: _Replay) -> bool:
    """A turn in jail, the way out the action names (the script answers it)."""
    name, me = r.act.name, r.me
    if name == "jail:use_card":
        k, i = r.act.extra["cards"][r.args["card"]]
        cards = r.game.players[me].cards
        cards.remove([k, i])
        cards.insert(0, [k, i])
        r.script.extra["jail"] = A.UseCard
    elif name == "jail:pay_fine":
        r.script.extra["jail"] = A.PayFine
    else:
        faces = _faces(r.dice[0], r.edition.faces, name == "jail:double")
        if faces is None:
            return False
        r.game.dice_source = lambda g: faces
    r.game.jail_turn(me)
    return True


def _property(r: _Replay) -> bool:
    r.game.property_rule(Ctx(r.me, r.dice[0]), r.me, r.args["sq"])
    return True


def _manage(r: _Replay) -> bool:
    """Build, sell, mortgage or lift a mortgage: the interpreter's method of that name
    (`request_house` for a house, which may auction it in a shortage)."""
    method = "request_house" if r.act.name == "build_house" else r.act.name
    getattr(r.game, method)(r.me, r.args["sq"])
    return True


def _trade_deed(r: _Replay) -> bool:
    square = r.args["sq"]
    cash = r.recorded("trade_cash")
    return bool(r.game.propose_trade(r.me, A.ProposeTrade(r.state.owner[square], (), (square,), cash)))


def _trade_card(r: _Replay) -> bool:
    k, i = r.act.extra["cards"][r.args["card"]]
    holder = next((p.seat for p in r.state.players if [k, i] in p.cards), None)
    cash = r.recorded("trade_cash")
    return holder is not None and bool(
        r.game.propose_trade(r.me, A.ProposeTrade(holder, (), (), cash, (), ((k, i),))))


def _give_deed(r: _Replay) -> bool:
    square, creditor = r.args["sq"], r.args["creditor"]
    r.game.set_owner(square, creditor)
    if r.state.mortgaged[square]:
        r.game.received_mortgaged(creditor, square)
    return True


def _debt_auction(r: _Replay) -> bool:
    r.game.forced_sale(r.me, r.args["sq"])
    return True


def _square(r: _Replay) -> bool:
    """A square's `on_land` (`square:KEY`) or `on_pass` (`pass:KEY`) statements."""
    prefix, key = r.act.name.split(":", 1)
    square = r.edition.square_index[key]
    rules = r.edition.on_land if prefix == "square" else r.edition.on_pass
    rule = rules[square]
    assert rule is not None, "the catalogue names only squares with rules"
    rule(r.game, Ctx(r.me, r.dice[0], "square:" + key))
    return True


def _land_hooks(r: _Replay) -> bool:
    at = r.args["at"]
    r.game.fire(r.edition.land_hooks, Ctx(r.me, r.dice[0], "square:" + r.edition.square_ids[at]), at)
    return True


def _card(r: _Replay) -> bool:
    _, deck, i = r.act.name.split(":")
    k = r.edition.deck_index[deck]
    r.stack(k, [int(i)] + [card for card in r.drawn.get(k, []) if card != int(i)])
    r.game.draw(Ctx(r.me, r.dice[0]), k)
    return True


# How each catalogue action (`actions.catalogue`) is taken in the interpreter: by its name,
# else by its family.
_BY_NAME: dict[str, Callable[[_Replay], bool]] = {
    "roll": _roll, "turn:end": _end_turn, "debt_auction": _debt_auction, "jail:doubles": _jail_doubles,
    **{name: _jail_turn for name in ("jail:pay_fine", "jail:use_card", "jail:double", "jail:fail")},
    **{name: _manage for name in ("build_house", "build_hotel", "sell_building", "downgrade", "mortgage",
                                  "unmortgage")},
    "trade_deed": _trade_deed, "trade_card": _trade_card, "give_deed": _give_deed, "hook:land": _land_hooks,
}
_BY_FAMILY: dict[str, Callable[[_Replay], bool]] = {
    "action": _spec_action, "property": _property, "square": _square, "card": _card,
}


def legal(game: Game, act: Action, args: dict[str, Any]) -> bool | None:
    """The interpreter's own legality test for the action, where it has one (else None)."""
    me, square, name = args["me"], args.get("sq"), act.name
    checks = {"build_hotel": "can_build_hotel", "sell_building": "can_sell", "downgrade": "can_downgrade",
              "mortgage": "can_mortgage", "unmortgage": "can_unmortgage"}
    if game.players[me].bankrupt:
        return False
    if name in checks:
        return getattr(game, checks[name])(me, square)
    if act.family == "action":
        allowed = game.edition.actions[act.extra["index"]][3]
        return args["item"] in allowed(game, Ctx(me, reason="action"))
    return None


def confirm(edition: Edition, steps: list[dict[str, Any]], players: int, inv: dict[str, Any],
            acts: list[Action]) -> tuple[bool, str]:
    """Replay a trace of catalogue actions in the interpreter from its start state; True
    when the interpreter reaches the same violation."""
    by_name = {a.name: a for a in acts}
    game = interpreter.new_game(edition, ["random"] * players, seed=0, log=False)
    for step in steps:
        if not run(game, by_name[step["action"]], step["args"], [tuple(choice) for choice in step["choices"]]):
            return False, f"the interpreter cannot take step {step['step']} ({step['action']})"
    if terms.concrete(holds(edition, inv, from_game(game))) is False:
        return True, "the interpreter reaches the violation"
    return False, "the interpreter's state after the trace satisfies the invariant"
