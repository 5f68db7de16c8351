"""The game state as Z3 terms, for a fixed player count: one term per deed field, per
player field, per card (where it is: -1 in its deck, else the seat holding it), per
group (`uneven`), per player, declared set (`state player.NAME : set of square`) and
square (in it or not), per player and declared number (`state player.NAME : int`), per
declared area number (`state area.NAME : int`) and area, per pot (`pot NAME`, a Free
Parking jackpot: the money it holds), the bank's counters, the turns played (where a rule
reads `turn`) and whether the game is over (`end game`).
The mirror of `interpreter/state.py`, with what no rule reads left out (turn order,
landing counts, the RNG, the order inside a deck: a draw is an action parameter naming
the card on top).

More fields belong to a step, not to the game: `ok` (the path condition: the action's
guard and every assumption made along the way), `unsupported` (true on a path the
symbolic semantics does not model; the prover reports it as unknown) and `deferred` (a
landing was left to the landing actions, `effects.land`).
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import z3

from grammar.walk import rule_nodes
from interpreter import Edition
from interpreter.state import BANK

from .terms import Term, and_, ite, same

if TYPE_CHECKING:
    from interpreter.engine import Game

PLAYER_FIELDS = ("cash", "position", "progress", "in_jail", "jail_turns", "bankrupt")
DEED_FIELDS = ("owner", "houses", "hotels", "mortgaged")
BOOL_FIELDS = {"in_jail", "bankrupt", "mortgaged"}


@dataclass
class SymState:
    players: int
    cash: list = field(default_factory=list)
    position: list = field(default_factory=list)
    progress: list = field(default_factory=list)
    in_jail: list = field(default_factory=list)
    jail_turns: list = field(default_factory=list)
    bankrupt: list = field(default_factory=list)
    owner: dict = field(default_factory=dict)         # per deed square
    houses: dict = field(default_factory=dict)
    hotels: dict = field(default_factory=dict)
    mortgaged: dict = field(default_factory=dict)
    bank_houses: object = 0
    bank_hotels: object = 0
    bank_ledger: object = 0
    loc: list = field(default_factory=list)          # per deck, per card: -1 in the deck, else a seat
    uneven: list = field(default_factory=list)       # per group
    marks: list = field(default_factory=list)        # per player, per declared state set, per square: in it
    numbers: list = field(default_factory=list)      # per player, per declared state: its number (None for a set)
    areas: list = field(default_factory=list)        # per declared `state area.*` number, per area: its value
    pots: list = field(default_factory=list)         # per pot (party POT0 - k): the money it holds
    turns: object = None                             # player turns played (`turn` is one more); None: no rule reads it
    over: object = False                             # the game is over (`end game` ran)
    halt: object = False
    kept: object = False                             # the card being obeyed said `keep`
    deferred: object = False                         # a landing was left to the landing actions
    ok: object = True
    unsupported: object = False
    gone: object = -1                                # the seat a bankruptcy left unmodelled went bankrupt on this path

    def copy(self) -> "SymState":
        return SymState(self.players, list(self.cash), list(self.position), list(self.progress),
                        list(self.in_jail), list(self.jail_turns), list(self.bankrupt),
                        dict(self.owner), dict(self.houses),
                        dict(self.hotels), dict(self.mortgaged), self.bank_houses, self.bank_hotels,
                        self.bank_ledger, [list(x) for x in self.loc], list(self.uneven),
                        [[list(m) for m in q] for q in self.marks], [list(x) for x in self.numbers],
                        [list(x) for x in self.areas], list(self.pots), self.turns, self.over, self.halt,
                        self.kept, self.deferred, self.ok, self.unsupported, self.gone)

    # ---- the named terms -------------------------------------------------------------

    def boxes(self) -> Iterator[tuple[str, Any]]:
        """Every container of game terms (a list or a dict) with its name, in a fixed order."""
        for f in PLAYER_FIELDS:
            yield f, getattr(self, f)
        for f in DEED_FIELDS:
            yield f, getattr(self, f)
        for k, cards in enumerate(self.loc):
            yield f"loc[{k}]", cards
        yield "uneven", self.uneven
        for q, sets in enumerate(self.marks):
            for k, marks in enumerate(sets):
                yield f"marks[{q}][{k}]", marks
        for q, numbers in enumerate(self.numbers):
            yield f"numbers[{q}]", numbers          # None where the state is a set
        for k, values in enumerate(self.areas):
            yield f"areas[{k}]", values
        yield "pots", self.pots

    def slots(self) -> Iterator[tuple[str, Any, Any]]:
        """Every game term as (name, container, key), in a fixed order."""
        for name, box in self.boxes():
            for key in box if isinstance(box, dict) else range(len(box)):
                if box[key] is not None:
                    yield f"{name}[{key}]", box, key

    SCALARS = ("bank_houses", "bank_hotels", "bank_ledger", "turns", "over")

    def flat(self) -> list:
        """Every game term, in a fixed order, without names (a cheap key of the state)."""
        out = [*self.cash, *self.position, *self.progress, *self.in_jail, *self.jail_turns, *self.bankrupt]
        for box in (self.owner, self.houses, self.hotels, self.mortgaged):
            out += box.values()
        for rows in (self.loc, self.numbers, self.areas):
            for row in rows:
                out += row
        for sets in self.marks:
            for marks in sets:
                out += marks
        out += [*self.uneven, *self.pots, self.bank_houses, self.bank_hotels, self.bank_ledger, self.turns, self.over]
        return out

    def values(self) -> dict:
        out = {name: box[key] for name, box, key in self.slots()}
        for f in self.SCALARS:
            if getattr(self, f) is not None:
                out[f] = getattr(self, f)
        return out


def merge(cond: Term, a: SymState, b: SymState) -> SymState:
    """The state that is `a` where `cond` holds and `b` elsewhere (field by field)."""
    if not isinstance(cond, z3.ExprRef):
        return a if cond else b
    out = b.copy()
    for (_, box_a), (_, box_o) in zip(a.boxes(), out.boxes(), strict=True):
        for key in box_a if isinstance(box_a, dict) else range(len(box_a)):
            va, vo = box_a[key], box_o[key]
            if va is not vo and not same(va, vo):
                box_o[key] = ite(cond, va, vo)
    for f in SymState.SCALARS + ("halt", "kept", "deferred", "ok", "unsupported", "gone"):
        setattr(out, f, ite(cond, getattr(a, f), getattr(b, f)))
    return out


def fresh(edition: Edition, players: int, prefix: str = "") -> SymState:
    """Every field a fresh Z3 constant (the state an inductive step starts from)."""
    def number(name: str) -> Term:
        return z3.Int(prefix + name)

    def yes_no(name: str) -> Term:
        return z3.Bool(prefix + name)

    s = SymState(players)
    seats = range(players)
    s.cash = [number(f"cash[{q}]") for q in seats]
    s.position = [number(f"position[{q}]") for q in seats]
    s.progress = [number(f"progress[{q}]") for q in seats]
    s.in_jail = [yes_no(f"in_jail[{q}]") for q in seats]
    s.jail_turns = [number(f"jail_turns[{q}]") for q in seats]
    s.bankrupt = [yes_no(f"bankrupt[{q}]") for q in seats]
    for square in edition.deeds:
        s.owner[square] = number(f"owner[{square}]")
        s.houses[square] = number(f"houses[{square}]")
        s.hotels[square] = number(f"hotels[{square}]")
        s.mortgaged[square] = yes_no(f"mortgaged[{square}]")
    s.bank_houses, s.bank_hotels, s.bank_ledger = number("bank_houses"), number("bank_hotels"), number("bank_ledger")
    s.loc = [[number(f"loc[{k}][{i}]") for i in range(len(cards))] for k, cards in enumerate(edition.cards)]
    s.uneven = [yes_no(f"uneven[{g}]") for g in range(len(edition.groups))]
    s.marks = [[[yes_no(f"marks[{q}][{k}][{square}]") for square in range(edition.n)] if is_set else []
                for k, is_set in enumerate(edition.state_is_set)] for q in seats]
    s.numbers = [[None if is_set else number(f"numbers[{q}][{k}]") for k, is_set in enumerate(edition.state_is_set)]
                 for q in seats]
    s.areas = [[number(f"areas[{k}][{a}]") for a in range(len(edition.areas))] for k in range(len(edition.area_states))]
    s.pots = [number(f"pots[{k}]") for k in range(len(edition.pots))]
    s.turns = number("turns") if reads(edition, "turn") else None
    s.over = yes_no("over") if ends(edition) else False
    return s


def ends(edition: Edition) -> bool:
    """Whether the game can be over inside an action or an invariant reads `over`: the
    edition says `end game` or names `over` (otherwise the field is the constant no)."""
    return any(node.get("stmt") == "end_game" for node in rule_nodes(edition.ir)) or reads(edition, "over")


def reads(edition: Edition, name: str) -> bool:
    """Whether a rule reads the name: a field or flag only some editions need (the turn
    counter, the doubles of a throw) is made only for them, otherwise it is a constant.
    The worked examples are not rules: what an expectation reads (`over`) must not change
    the symbolic state."""
    return any(node.get("name") == name for node in rule_nodes(edition.ir))


def domain(edition: Edition, s: SymState) -> Term:
    """What the representation itself guarantees (types, not invariants): a holder is the
    bank or a seat, a card is in its deck or with a seat, a position is a square."""
    P = s.players
    cs = []
    for square in edition.deeds:
        cs.append(z3.And(s.owner[square] >= BANK, s.owner[square] < P))
    for cards in s.loc:
        for x in cards:
            cs.append(z3.And(x >= -1, x < P))
    for q in range(P):
        cs.append(z3.And(s.position[q] >= 0, s.position[q] < edition.n))
    return and_(*[c for c in cs if isinstance(c, z3.ExprRef)])


def initial(edition: Edition, players: int) -> SymState:
    """The state `Game.setup` leaves (before the roll-off, which moves nothing)."""
    s = SymState(players)
    start = edition.start_square
    s.cash = [edition.start_money] * players
    s.position = [start] * players
    s.progress = [start] * players
    s.in_jail = [False] * players
    s.jail_turns = [0] * players
    s.bankrupt = [False] * players
    for square in edition.deeds:
        s.owner[square], s.houses[square], s.hotels[square], s.mortgaged[square] = BANK, 0, 0, False
    s.bank_houses, s.bank_hotels = edition.stock_houses, edition.stock_hotels
    s.bank_ledger = -edition.start_money * players
    s.loc = [[-1] * len(cards) for cards in edition.cards]
    s.uneven = [False] * len(edition.groups)
    s.marks = [[[False] * edition.n if is_set else [] for is_set in edition.state_is_set] for _ in range(players)]
    s.numbers = [[None if is_set else 0 for is_set in edition.state_is_set] for _ in range(players)]
    s.areas = [[0] * len(edition.areas) for _ in edition.area_states]
    s.pots = [0] * len(edition.pots)
    s.turns = 0 if reads(edition, "turn") else None
    return s


def from_game(game: Game) -> SymState:
    """The abstraction of a running interpreter game (concrete values)."""
    st, edition = game.state, game.edition
    s = SymState(len(st.players))
    for p in st.players:
        s.cash.append(p.cash)
        s.position.append(p.position)
        s.progress.append(p.progress)
        s.in_jail.append(p.in_jail)
        s.jail_turns.append(p.jail_turns)
        s.bankrupt.append(p.bankrupt)
    for square in edition.deeds:
        s.owner[square], s.houses[square], s.hotels[square], s.mortgaged[square] = \
            st.owner[square], st.houses[square], st.hotels[square], bool(st.mortgaged[square])
    s.bank_houses, s.bank_hotels, s.bank_ledger = st.bank_houses, st.bank_hotels, st.bank_ledger
    s.loc = [[None] * len(cards) for cards in edition.cards]
    for k, deck in enumerate(st.decks):
        for i in deck:
            if s.loc[k][i] is not None:
                raise ValueError(f"card {i} of deck {k} is in two places")
            s.loc[k][i] = -1
    for p in st.players:
        for k, i in p.cards:
            if s.loc[k][i] is not None:
                raise ValueError(f"card {i} of deck {k} is in two places")
            s.loc[k][i] = p.seat
    for k, cards in enumerate(s.loc):
        for i, x in enumerate(cards):
            if x is None:
                raise ValueError(f"card {i} of deck {k} is nowhere")
    s.uneven = [g in st.uneven for g in range(len(edition.groups))]
    s.marks = [[[square in marks for square in range(edition.n)] if is_set else []
                for marks, is_set in zip(p.marks, edition.state_is_set, strict=True)] for p in st.players]
    s.numbers = [[None if is_set else number for number, is_set in zip(p.marks, edition.state_is_set, strict=True)]
                 for p in st.players]
    s.areas = [list(values) for values in st.areas]
    s.pots = list(st.pots)
    s.turns = st.turns if reads(edition, "turn") else None
    s.over = bool(st.over or game.ending)
    return s
