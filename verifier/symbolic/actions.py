"""The actions of an edition, derived from its IR (never listed per edition): each one a
step of the game's mechanisms with a guard, for any seat and (where it has one) any
deed or card. `Action.step` runs it on a state (symbolic or concrete) and returns the
machine, whose state holds the next state, `ok` (the guard and the assumptions along
the path) and `unsupported`.

The landing after a roll is split off the roll: `roll` moves the token (firing
`on_pass`; a `roll` hook replaces the move), and the landing is `hook:land`, `square:*`
(its `on_land`) and the property rule (`buy`, `auction`, `rent:*`); so is a landing after
a `jump to` or any move outside a card (`effects.land`). A card's own moves land in place,
as in the interpreter. Turn flow the catalogue leaves out over-approximates the game: any
seat may take any action whose guard holds, `turn:end` counts a turn, a spec's `action` is
offered in any state, whatever its window and whether or not it is `required`, and nobody
sits out.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import z3

import interpreter
from grammar.language import parts
from interpreter import Edition
from interpreter.state import BANK

from . import terms
from .encode import Ctx, Node, Unsupported, val
from .engine import SymGame
from .machine import Provider
from .state import SymState, fresh, reads
from .terms import Term


@dataclass
class Action:
    name: str
    family: str
    params: dict                       # name -> list of concrete values (seat, deed, ...)
    body: Callable                     # body(game, **params) with concrete params
    force: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)

    def step(self, edition: Edition, state: SymState, args: dict[str, Any] | None = None,
             provider: Provider | None = None, tag: str = "", abstract_bankruptcy: bool = False) -> SymGame:
        """Run the action on `state` (copied). `args` fixes parameters (concrete mode);
        a missing one is a fresh constant over its domain (symbolic mode). With
        `abstract_bankruptcy` (symbolic mode), a bankruptcy is an unsupported path."""
        game = SymGame(edition, state.copy(), provider=provider, force=self.force, tag=tag,
                       abstract_bankruptcy=abstract_bankruptcy)
        start = game.state
        start.ok, start.unsupported, start.halt, start.kept, start.deferred = True, False, False, False, False
        names = list(self.params)
        values: dict[str, Any] = {}

        def bind(i):
            if i == len(names):
                self.body(game, **values)
                return
            name = names[i]
            v = (args or {}).get(name)
            if v is None:
                v = z3.Int(f"{tag}{self.name}.{name}")
                game.choices[f"{tag}{self.name}.{name}"] = v

            def run(x):
                values[name] = x
                bind(i + 1)
            game.split_value(v, self.params[name], run)
        bind(0)
        return game


def _mover(game: SymGame, p: int) -> None:
    """The seat acting is in the game and it is their turn (the game is not over)."""
    game.cur = p
    game.assume(terms.and_(terms.not_(game.state.bankrupt[p]), terms.not_(game.state.over)))


def _at(game: SymGame, p: int, sq: int) -> None:
    """`p` stands on `sq` (the position becomes that constant downstream)."""
    game.assume(terms.eq(game.state.position[p], sq))
    game.state.position[p] = sq


def _dice(game: SymGame) -> Term:
    edition = game.edition
    return game.choice("dice", ("range", edition.dice, edition.dice * edition.faces) if game.provider is None
                       else list(range(edition.dice, edition.dice * edition.faces + 1)))


MOVES = ("move_to", "move_by", "advance_to_nearest", "go_to_jail")


def draws_of(ir: dict) -> dict:
    """Per deck id: the squares where it is drawn (None: anywhere, because an `on_pass`
    block or a hook draws, or a card that moves the player first). A card that draws
    without moving draws where its own deck is drawn (to a fixpoint)."""
    out: dict = {}

    def walk(stmts: list[Node] | None, where: set[int] | None) -> None:
        for s in stmts or []:
            if s.get("stmt") == "draw":
                if where is None:
                    out[s["deck"]] = None
                elif out.setdefault(s["deck"], set()) is not None:
                    out[s["deck"]] |= where
            for key in ("body", "then", "otherwise"):
                walk(s.get(key), where)
            for o in s.get("options", []) or []:
                walk(o.get("body"), where)

    def moves(stmts: list[Node] | None) -> bool:
        return any(s.get("stmt") in MOVES or moves(s.get("body")) or moves(s.get("then")) or moves(s.get("otherwise"))
                   or any(moves(o.get("body")) for o in s.get("options", []) or []) for s in stmts or [])
    for sq in ir["squares"]:
        walk(sq.get("on_land"), {sq["index"]})
        walk(sq.get("on_pass"), None)
    for hook in ir.get("hooks", []):
        walk(hook.get("body"), None)
    before = None
    while before != out:
        before = {k: (set(v) if v is not None else None) for k, v in out.items()}
        for d in ir.get("decks", []):
            for card in d.get("cards", []):
                spots = out.get(d["key"], set())
                walk(card.get("effect"), None if spots is None or moves(card.get("effect")) else set(spots))
    return out


def catalogue(ir: dict, players: int, edition: Edition | None = None) -> list[Action]:
    """Every action of the edition `ir` for `players` seats, in a fixed order: one builder
    per kind of action, each leaving out what the edition's rules never take."""
    book = _Book(ir, edition or interpreter.load(ir), players)
    out = [action for build in (_turn_flow, _jail, _property_rule, _building, _mortgages, _trade_deed,
                                _trade_card, _debts, _spec_actions, _landings, _cards)
           for action in build(book)]
    return [a for a in out if offered(book.edition, a.name)]


@dataclass
class _Book:
    """What the builders of the catalogue share: the edition and the seats, deeds, lots and
    cards an action ranges over."""

    ir: dict
    edition: Edition
    players: int
    seats: list[int] = field(init=False)
    deeds: list[int] = field(init=False)
    lots: list[int] = field(init=False)
    cards: list[tuple[int, int]] = field(init=False)      # (deck, card) of every card

    def __post_init__(self) -> None:
        edition = self.edition
        self.seats = list(range(self.players))
        self.deeds = list(edition.deeds)
        self.lots = [sq for sq in self.deeds if edition.kind[sq] == 1]
        self.cards = [(k, i) for k, d in enumerate(edition.decks) for i in range(len(d.get("cards", [])))]


def _turn_flow(book: _Book) -> list[Action]:
    """The roll (a `roll` hook may replace the move) and, where a rule reads `turn`, the
    end of a turn."""
    seats = book.seats
    hooked = bool(g_hooks(book.ir, "roll")) or reads(book.edition, "doubles")

    def roll(game: SymGame, me: int) -> None:
        _mover(game, me)
        game.assume(terms.not_(game.state.in_jail[me]))
        if not hooked:
            game.move(me, _dice(game))
            return
        total = _dice(game)
        ctx = Ctx(me, total)
        ctx.doubles = game.double(total)
        game.rolled(ctx, me, total)
    out = [Action("roll", "roll", {"me": seats}, roll)]

    def end_turn(game: SymGame, me: int) -> None:
        _mover(game, me)
        game.state.turns = terms.add(game.state.turns, 1)
    if reads(book.edition, "turn"):
        out.append(Action("turn:end", "roll", {"me": seats}, end_turn))
    return out


def _jail(book: _Book) -> list[Action]:
    """Going to jail for doubles, and the ways out: the fine, a double, a failed roll, a card."""
    edition, seats, cards = book.edition, book.seats, book.cards
    out = []

    def doubles(game: SymGame, me: int) -> None:
        _mover(game, me)
        game.assume(terms.not_(game.state.in_jail[me]))
        game.go_to_jail(me, "doubles")
    if edition.doubles_to_jail:
        out.append(Action("jail:doubles", "jail", {"me": seats}, doubles))

    def pay_fine(game: SymGame, me: int) -> None:
        _mover(game, me)
        game.assume(terms.and_(game.state.in_jail[me], terms.le(edition.jail_fine, game.state.cash[me])))
        game.jail_pay_fine(me)
    out.append(Action("jail:pay_fine", "jail", {"me": seats}, pay_fine))

    doubles_totals = sorted({edition.dice * f for f in range(1, edition.faces + 1)})

    def jail_double(game: SymGame, me: int) -> None:
        _mover(game, me)
        game.assume(game.state.in_jail[me])
        game.jail_double(me, game.choice("dice", doubles_totals))
    out.append(Action("jail:double", "jail", {"me": seats}, jail_double))

    def jail_fail(game: SymGame, me: int) -> None:
        _mover(game, me)
        game.assume(game.state.in_jail[me])
        game.jail_fail(me, _dice(game))
    out.append(Action("jail:fail", "jail", {"me": seats}, jail_fail))

    def use_card(game: SymGame, me: int, card: int) -> None:
        k, i = cards[card]
        _mover(game, me)
        game.assume(terms.and_(game.state.in_jail[me], terms.eq(game.state.loc[k][i], me)))
        game.jail_use_card(me, k, i)
    if cards:
        out.append(Action("jail:use_card", "jail", {"me": seats, "card": list(range(len(cards)))}, use_card,
                          extra={"cards": cards}))
    return out


def _property_rule(book: _Book) -> list[Action]:
    """Landing on a deed: buying it, its auction, and rent by kind of deed."""
    edition, seats, deeds = book.edition, book.seats, book.deeds
    out = []

    def buy(game: SymGame, me: int, sq: int) -> None:
        _mover(game, me)
        _at(game, me, sq)
        ctx = Ctx(me, _dice(game))
        ctx.here = sq
        may = edition.ir["settings"].get("buy", {}).get("may")     # the lander may buy (`buy.may`)
        game.assume(terms.and_(terms.eq(game.state.owner[sq], BANK), True if may is None else game.expr(may, ctx)))
        game.state.owner[sq] = BANK
        game.property_rule(ctx, me, sq)
    if not edition.auction_only:              # where every free deed is auctioned, nobody buys at a price
        out.append(Action("buy", "property", {"me": seats, "sq": deeds}, buy, force={"buy": True}))

    def auction(game: SymGame, me: int, sq: int) -> None:
        _mover(game, me)
        _at(game, me, sq)
        game.assume(terms.eq(game.state.owner[sq], BANK))
        game.state.owner[sq] = BANK
        game.property_rule(Ctx(me, _dice(game)), me, sq)
    out.append(Action("auction", "property", {"me": seats, "sq": deeds}, auction, force={"buy": False}))

    def rent(game: SymGame, me: int, sq: int) -> None:
        _mover(game, me)
        _at(game, me, sq)
        owner = game.state.owner[sq]
        game.assume(terms.and_(terms.not_(terms.eq(owner, BANK)), terms.not_(terms.eq(owner, me))))
        game.property_rule(Ctx(me, _dice(game)), me, sq)
    for kind in ("lot", "station", "utility"):
        squares = [sq for sq in deeds if g_kind(edition, sq) == kind]
        if squares:
            out.append(Action(f"rent:{kind}", "property", {"me": seats, "sq": squares}, rent))
    return out


def _building(book: _Book) -> list[Action]:
    """Building a house (unless the bank's shortage auctions it) or a hotel."""
    edition, seats, lots, players = book.edition, book.seats, book.lots, book.players

    def shortage(game: SymGame) -> Term:
        """`request_house` auctions the houses instead when the bank runs short."""
        s = game.state
        if not edition.shortage_auction:
            return False
        builders = 0
        for q in seats:
            can = terms.or_(*[game.can_build(q, o) for o in lots])
            builders = terms.add(builders, terms.ite(terms.and_(terms.not_(s.bankrupt[q]), can), 1, 0))
        alive = sum_ite([terms.not_(s.bankrupt[q]) for q in seats])
        return terms.and_(terms.lt(s.bank_houses, players), terms.lt(s.bank_houses, alive), terms.le(2, builders),
                          terms.lt(s.bank_houses, builders))

    def build_house(game: SymGame, me: int, sq: int) -> None:
        _mover(game, me)
        if "shortage" not in game.memo:        # read before any effect: the same in every branch
            game.memo["shortage"] = shortage(game)
        game.assume(terms.and_(game.can_build(me, sq), terms.not_(game.memo["shortage"])))
        game.build(me, sq)

    def build_hotel(game: SymGame, me: int, sq: int) -> None:
        _mover(game, me)
        game.assume(game.can_build_hotel(me, sq))
        game.build_hotel(me, sq)
    return [Action("build_house", "build", {"me": seats, "sq": lots}, build_house),
            Action("build_hotel", "build", {"me": seats, "sq": lots}, build_hotel)]


def _mortgages(book: _Book) -> list[Action]:
    """Selling buildings back and mortgages (the manage window and the raise loop): each
    the guard and the mechanism of the same name."""
    out = []
    for name, guard, mech in (("sell_building", "can_sell", "sell_building"),
                              ("downgrade", "can_downgrade", "downgrade"),
                              ("mortgage", "can_mortgage", "mortgage"),
                              ("unmortgage", "can_unmortgage", "unmortgage")):
        def manage(game, me, sq, guard=guard, mech=mech):
            _mover(game, me)
            game.assume(getattr(game, guard)(me, sq))
            getattr(game, mech)(me, sq)
        squares = book.lots if name in ("sell_building", "downgrade") else book.deeds
        out.append(Action(name, "manage", {"me": book.seats, "sq": squares}, manage))
    return out


def _trade_deed(book: _Book) -> list[Action]:
    """A deed bought from its holder, for cash either way."""
    edition = book.edition
    if not edition.trade_deeds:
        return []

    def trade_deed(game: SymGame, me: int, sq: int) -> None:
        _mover(game, me)
        s = game.state
        cash = game.choice("trade_cash", ("range", None, None) if game.provider is None else [edition.price[sq]],
                           seat=me)

        def partner(q):
            s = game.state
            game.assume(q != BANK and q != me)
            if q == BANK or q == me:
                return
            cs = [terms.not_(s.bankrupt[q]), game.tradeable(sq), edition.trade_deeds,
                  terms.implies(terms.lt(0, cash), terms.le(cash, s.cash[me])),
                  terms.implies(terms.lt(cash, 0), terms.le(terms.neg(cash), s.cash[q]))]
            if not edition.trade_cash:
                cs.append(terms.eq(cash, 0))
            game.assume(terms.and_(*cs))
            game.set_owner(sq, me)
            game.fork(terms.lt(0, cash), lambda: game.transfer(me, q, cash, "trade"),
                      lambda: game.fork(terms.lt(cash, 0), lambda: game.transfer(q, me, terms.neg(cash), "trade")))
            game.fork(game.state.mortgaged[sq], lambda: game.received_mortgaged(me, sq))
            game.acquired(me, sq, "trade")
        game.split_party(s.owner[sq], partner)
    return [Action("trade_deed", "trade", {"me": book.seats, "sq": book.deeds}, trade_deed, force={"accept": True})]


def _trade_card(book: _Book) -> list[Action]:
    """A kept card bought from its holder, for cash either way."""
    edition, cards, players = book.edition, book.cards, book.players
    if not (cards and edition.trade_cards):
        return []

    def trade_card(game: SymGame, me: int, card: int) -> None:
        k, i = cards[card]
        _mover(game, me)
        cash = game.choice("trade_cash", ("range", None, None) if game.provider is None else [edition.jail_fine],
                           seat=me)

        def holder(q):
            s = game.state
            game.assume(q != BANK and q != me)
            if q == BANK or q == me:
                return
            cs = [terms.not_(s.bankrupt[q]), terms.implies(terms.lt(0, cash), terms.le(cash, s.cash[me])),
                  terms.implies(terms.lt(cash, 0), terms.le(terms.neg(cash), s.cash[q]))]
            if not edition.trade_cash:
                cs.append(terms.eq(cash, 0))
            game.assume(terms.and_(*cs))
            s.loc[k][i] = me
            game.fork(terms.lt(0, cash), lambda: game.transfer(me, q, cash, "trade"),
                      lambda: game.fork(terms.lt(cash, 0), lambda: game.transfer(q, me, terms.neg(cash), "trade")))
        game.split_value(game.state.loc[k][i], range(-1, players), holder)
    return [Action("trade_card", "trade", {"me": book.seats, "card": list(range(len(cards)))}, trade_card,
                   extra={"cards": cards})]


def _debts(book: _Book) -> list[Action]:
    """Raising money for a debt: a deed handed to the creditor, or auctioned."""
    edition, seats, deeds = book.edition, book.seats, book.deeds
    out = []

    def give_deed(game: SymGame, me: int, sq: int, creditor: int) -> None:
        _mover(game, me)
        if creditor == me:
            game.assume(False)
            return
        owed = game.choice("owed", ("range", 1, None) if game.provider is None else [edition.price[sq]], seat=me)
        s = game.state
        game.assume(terms.and_(terms.eq(s.owner[sq], me), terms.not_(s.bankrupt[creditor]), terms.lt(s.cash[me], owed),
                               game.may_give_deed(sq, owed, creditor)))
        game.set_owner(sq, creditor)
        game.fork(game.state.mortgaged[sq], lambda: game.received_mortgaged(creditor, sq))
        game.acquired(creditor, sq, "debt")
    if edition.pay_with_deeds:
        out.append(Action("give_deed", "debt", {"me": seats, "sq": deeds, "creditor": seats}, give_deed))

    def debt_auction(game: SymGame, me: int, sq: int) -> None:
        _mover(game, me)
        game.assume(terms.eq(game.state.owner[sq], me))
        game.forced_sale(me, sq)
    if edition.debt_auction:
        out.append(Action("debt_auction", "debt", {"me": seats, "sq": deeds}, debt_auction))
    return out


def _spec_actions(book: _Book) -> list[Action]:
    """The spec's actions, one per item where the items are known before the game. A window
    says when the engine offers an action, not what it does: each is one step from any state
    (the player acting is in the game), in every window alike."""
    ir, edition, seats = book.ir, book.edition, book.seats
    if not ir.get("actions"):
        return []
    probe = SymGame(edition, fresh(edition, book.players))
    out = []
    for k, spec in enumerate(ir["actions"]):
        items = _items(probe, spec)

        def spec_action(game, me, item=None, spec=spec):
            _mover(game, me)
            ctx = Ctx(me, reason="action")
            if item is None:
                raise Unsupported(f"the items of the action `{spec['key']}` are not known before the game")
            found = [(e, m) for e, m in game.expr(spec["over"], ctx) if val(e) == item]
            if not found:
                game.assume(False)
                return
            (element, member), = found
            ctx.vars[spec["var"]] = element
            allowed = game.expr(spec["allowed"], ctx) if spec.get("allowed") is not None else True
            game.assume(terms.and_(member, allowed))
            game.block(spec.get("effect") or [], ctx)
        params = {"me": seats, "item": items} if items else {"me": seats}
        out.append(Action("action:" + spec["key"], "action", params, spec_action, extra={"index": k}))
    return out


def _items(probe: SymGame, spec: dict[str, Any]) -> list[Any]:
    """The items an action of the spec ranges over, where they are known before the game
    (none otherwise)."""
    try:
        items = [val(e) for e, _ in probe.expr(spec["over"], Ctx(0))]
    except Unsupported:
        return []
    return [] if any(terms.is_sym(x) for x in items) else items


def _landings(book: _Book) -> list[Action]:
    """The `land` hooks, and each square's `on_land` and `on_pass` statements."""
    ir, edition, seats = book.ir, book.edition, book.seats
    out = []

    def land_hooks(game: SymGame, me: int, at: int) -> None:
        _mover(game, me)
        _at(game, me, at)
        game.fire(game.hooks("land"), Ctx(me, _dice(game), "square:" + edition.square_ids[at]), at)
    if any(h["event"] == "land" for h in ir.get("hooks", [])):
        out.append(Action("hook:land", "hook", {"me": seats, "at": list(range(edition.n))}, land_hooks))

    for sq in range(edition.n):
        square = g_square(edition, sq)
        if square.get("on_land"):
            def on_land(game, me, sq=sq, square=square):
                _mover(game, me)
                _at(game, me, sq)
                game.block(square["on_land"], Ctx(me, _dice(game), "square:" + square["key"]))
            out.append(Action("square:" + square["key"], "square", {"me": seats}, on_land))
        if square.get("on_pass"):
            def on_pass(game, me, sq=sq, square=square):
                _mover(game, me)
                game.block(square["on_pass"], Ctx(me, _dice(game), "square:" + square["key"]))
            out.append(Action("pass:" + square["key"], "square", {"me": seats}, on_pass))
    return out


def _cards(book: _Book) -> list[Action]:
    """Each card obeyed, on every square where its deck is drawn (`draws_of`)."""
    edition = book.edition
    where = draws_of(book.ir)
    out = []
    for k, d in enumerate(edition.decks):
        squares = where.get(d["key"], set())
        spots = sorted(squares) if squares is not None else list(range(edition.n))
        if not spots:
            continue
        for i in range(len(d.get("cards", []))):
            def card(game, me, at, k=k, i=i, d=d):
                _mover(game, me)
                _at(game, me, at)
                game.assume(terms.eq(game.state.loc[k][i], -1))
                game.obey(Ctx(me, _dice(game), "card:" + d["key"]), k, i)
            out.append(Action(f"card:{d['key']}:{i}", "card", {"me": book.seats, "at": spots}, card))
    return out


# Actions only some parts of the game offer (grammar.language.parts): a game without a jail
# never has anyone in it, without houses never builds (nor sells or trades a hotel back), and
# without mortgages never mortgages (so never lifts one).
NEEDS = {"jail:": "jail", "build_": "houses", "sell_building": "houses", "downgrade": "houses",
         "mortgage": "mortgage", "unmortgage": "mortgage"}


def offered(edition: Edition, name: str) -> bool:
    """Whether the edition's rules can ever take the catalogue action `name`."""
    has = parts(edition.settings)
    return all(part in has for prefix, part in NEEDS.items() if name.startswith(prefix))


def g_hooks(ir: dict, event: str) -> list:
    return [h for h in ir.get("hooks", []) if h["event"] == event]


def g_kind(edition: Edition, sq: int) -> str:
    return g_square(edition, sq)["kind"]


def g_square(edition: Edition, sq: int) -> dict:
    for square in edition.ir["squares"]:
        if square["index"] == sq:
            return square
    raise KeyError(sq)


def sum_ite(conds: list[Term]) -> Term:
    out = 0
    for cond in conds:
        out = terms.add(out, terms.ite(cond, 1, 0))
    return out
