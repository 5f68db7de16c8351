"""Run a catalogue action in the interpreter, with the same parameters and decisions the
symbolic step used (a scripted strategy answers every question from the recorded
choices; the decks are stacked so the recorded cards come up). The differential test
and the confirmation of bounded-model-checking traces both go through here."""
from __future__ import annotations

from collections import defaultdict

import interpreter
from interpreter import actions as A
from interpreter.translate import Ctx
from interpreter.engine import Game
from interpreter.rules import AuctionInfo
from interpreter.state import BANK

from . import terms as T
from .engine import holds
from .state import from_game


class Script:
    """A strategy answering from recorded choices, per kind, in order."""

    def __init__(self, record, extra=None):
        self.q = defaultdict(list)
        for kind, value, seat in record:
            self.q[kind].append(value)
        self.extra = extra or {}
        self.auction = None

    def take(self, kind, default=None):
        return self.q[kind].pop(0) if self.q[kind] else default

    def raise_fast(self, game, p, owed, creditor, refused):
        return None                      # raising money is its own action

    def choose(self, game, p, actions):
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


def _faces(total: int, faces: int, double: bool):
    if double:
        return (total // 2, total // 2)
    for a in range(1, faces + 1):
        b = total - a
        if 1 <= b <= faces and a != b:
            return (a, b)
    return None


def run(game, act, args: dict, record: list) -> bool:
    """Apply `act` with `args` to the interpreter game; False when the interpreter cannot
    take the same path (the caller skips the pair)."""
    ed, st = game.edition, game.state
    script = Script(record)
    game.strategies = [script] * len(st.players)
    game.fasts = [None] * len(st.players)
    game.raise_fasts = [script.raise_fast] * len(st.players)
    game.log_on = False
    dice = [v for kind, v, _ in record if kind in ("dice", "roll")]
    me = args.get("me")
    game.cur = me if me is not None else -1
    game.halt = False
    family, name = act.family, act.name

    def land(c, p, sq):
        """Outside a card, and after a jump, a landing is its own action (`symbolic.effects.land`)."""
        if st.in_play:
            Game.land(game, c, p, sq)
    game.land = land
    game.jump_to = game.place_at

    def stack(deck, cards):
        order = st.decks[deck]
        for i in reversed(cards):
            order.remove(i)
            order.insert(0, i)
    # cards drawn, in order per deck
    drawn = defaultdict(list)
    for kind, v, _ in record:
        if kind.startswith("card:"):
            drawn[ed.deck_index[kind[5:]]].append(v)
    for k, cards in drawn.items():
        if len(set(cards)) != len(cards):
            return False
        if any(i not in st.decks[k] for i in cards):
            return False
        stack(k, cards)
    # fresh rolls of every die (`roll`), and single dice (`throw`), in the order they were made
    queue = [(_faces(v, ed.faces, False) or _faces(v, ed.faces, True)) if kind == "roll" else (v,)
             for kind, v, _ in record if kind in ("roll", "die")]
    game.dice_source = lambda g: queue.pop(0)

    if name == "roll":
        c = Ctx(me, dice[0])
        c.doubles = next((v for kind, v, _ in record if kind == "double"), False)
        if not (ed.roll_hooks and game.rolled(c, dice[0])):
            game.move_steps(c, me, dice[0])
    elif name == "turn:end":
        st.turns += 1
    elif name == "debt_auction":
        game.forced_sale(me, args["sq"])
    elif family == "action":
        _id, _label, var, _allowed, _need, effect = ed.actions[act.extra["index"]]
        c = Ctx(me, reason="action")
        c.vars[var] = args["item"]
        if effect is not None:
            effect(game, c)
    elif name == "jail:doubles":
        game.go_to_jail(me, "doubles")
    elif name in ("jail:pay_fine", "jail:use_card", "jail:double", "jail:fail"):
        if name == "jail:use_card":
            k, i = act.extra["cards"][args["card"]]
            cards = game.players[me].cards
            cards.remove([k, i])
            cards.insert(0, [k, i])
            script.extra["jail"] = A.UseCard
        elif name == "jail:pay_fine":
            script.extra["jail"] = A.PayFine
        else:
            faces = _faces(dice[0], ed.faces, name == "jail:double")
            if faces is None:
                return False
            game.dice_source = lambda g: faces
        game.jail_turn(me)
    elif family == "property":
        game.property_rule(Ctx(me, dice[0]), me, args["sq"])
    elif name == "build_house":
        game.request_house(me, args["sq"])
    elif name == "build_hotel":
        game.build_hotel(me, args["sq"])
    elif name in ("sell_building", "downgrade", "mortgage", "unmortgage"):
        getattr(game, name)(me, args["sq"])
    elif name == "trade_deed":
        sq = args["sq"]
        cash = next(v for kind, v, _ in record if kind == "trade_cash")
        if not game.propose_trade(me, A.ProposeTrade(st.owner[sq], (), (sq,), cash)):
            return False
    elif name == "trade_card":
        k, i = act.extra["cards"][args["card"]]
        holder = next((p.seat for p in st.players if [k, i] in p.cards), None)
        cash = next(v for kind, v, _ in record if kind == "trade_cash")
        if holder is None or not game.propose_trade(me, A.ProposeTrade(holder, (), (), cash, (), ((k, i),))):
            return False
    elif name == "give_deed":
        sq, creditor = args["sq"], args["creditor"]
        game.set_owner(sq, creditor)
        if st.mortgaged[sq]:
            game.received_mortgaged(creditor, sq)
    elif name.startswith("square:"):
        sq = ed.square_index[name[7:]]
        ed.on_land[sq](game, Ctx(me, dice[0], "square:" + name[7:]))
    elif name == "hook:land":
        game.fire(ed.land_hooks, Ctx(me, dice[0], "square:" + ed.square_ids[args["at"]]), args["at"])
    elif name.startswith("pass:"):
        sq = ed.square_index[name[5:]]
        ed.on_pass[sq](game, Ctx(me, dice[0], "square:" + name[5:]))
    elif family == "card":
        _, deck, i = name.split(":")
        k = ed.deck_index[deck]
        stack(k, [int(i)] + [c for c in drawn.get(k, []) if c != int(i)])
        game.draw(Ctx(me, dice[0]), k)
    else:
        return False
    return True


def legal(game, act, args: dict):
    """The interpreter's own legality test for the action, where it has one (else None)."""
    me, sq, name = args.get("me"), args.get("sq"), act.name
    checks = {"build_hotel": "can_build_hotel", "sell_building": "can_sell", "downgrade": "can_downgrade",
              "mortgage": "can_mortgage", "unmortgage": "can_unmortgage"}
    if game.players[me].bankrupt:
        return False
    if name in checks:
        return getattr(game, checks[name])(me, sq)
    if act.family == "action":
        allowed = game.edition.actions[act.extra["index"]][3]
        return args["item"] in allowed(game, Ctx(me, reason="action"))
    return None


def confirm(ed, steps, players, inv, acts):
    """Replay a trace of catalogue actions in the interpreter from its start state; True
    when the interpreter reaches the same violation."""
    by_name = {a.name: a for a in acts}
    game = interpreter.new_game(ed, ["random"] * players, seed=0, log=False)
    for step in steps:
        if not run(game, by_name[step["action"]], step["args"], [tuple(c) for c in step["choices"]]):
            return False, f"the interpreter cannot take step {step['step']} ({step['action']})"
    if T.concrete(holds(ed, inv, from_game(game))) is False:
        return True, "the interpreter reaches the violation"
    return False, "the interpreter's state after the trace satisfies the invariant"
