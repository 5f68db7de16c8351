"""The syntax tree of one `.rules` file, as written: no inheritance, no name resolution.

One frozen dataclass per construct of docs/language.md, each with the span it was
written at, so every later error can point at the exact words. Names that refer to
something (a square, a group, a setting key) are `Name` nodes for the same reason.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from grammar.diagnostics import Source, Span

# ---- expressions -----------------------------------------------------------------------

@dataclass(frozen=True)
class Name:
    """A bare name: a variable, a setting's section, a square, group, deck or option."""

    span: Span
    text: str


@dataclass(frozen=True)
class Int:
    span: Span
    value: int


@dataclass(frozen=True)
class Percent:
    """`5%`: an exact ratio of the number over a hundred."""

    span: Span
    value: int


@dataclass(frozen=True)
class Bool:
    span: Span
    value: bool


@dataclass(frozen=True)
class Attr:
    """`p.cash`, or `jail.fine` (a setting) when `of` names a section."""

    span: Span
    of: Expr
    name: Name


@dataclass(frozen=True)
class Index:
    span: Span
    of: Expr
    at: Expr


@dataclass(frozen=True)
class Neg:
    span: Span
    operand: Expr


@dataclass(frozen=True)
class Not:
    span: Span
    operand: Expr


@dataclass(frozen=True)
class Binary:
    """`op` is the IR operator: `+ - * / == != < <= > >= and or`."""

    span: Span
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Conditional:
    span: Span
    cond: Expr
    then: Expr
    otherwise: Expr


@dataclass(frozen=True)
class Call:
    span: Span
    fn: Name
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Aggregate:
    """`sum(d in p.deeds: d.price)`: `fn` over the finite set `over`, `var` bound in `body`."""

    span: Span
    fn: Name
    var: Name
    over: Expr
    body: Expr


Expr = Union[Name, Int, Percent, Bool, Attr, Index, Neg, Not, Binary, Conditional, Call, Aggregate]


# ---- values that only settings take ----------------------------------------------------

@dataclass(frozen=True)
class Text:
    span: Span
    value: str


@dataclass(frozen=True)
class Range:
    span: Span
    low: int
    high: int


@dataclass(frozen=True)
class Note:
    """`COUNT x VALUE` in a money `notes` list."""

    span: Span
    count: int
    value: int


@dataclass(frozen=True)
class Notes:
    span: Span
    notes: tuple[Note, ...]


@dataclass(frozen=True)
class Numbers:
    span: Span
    values: tuple[int, ...]


@dataclass(frozen=True)
class Names:
    """`[fines, cards]`: a list of option names (a pot's `takes`)."""

    span: Span
    names: tuple[Name, ...]


@dataclass(frozen=True)
class Texts:
    """`["...", "..."]`: a list of quoted texts (printed words and lines)."""

    span: Span
    values: tuple[str, ...]


Value = Union[Expr, Text, Range, Notes, Numbers, Names, Texts]
NOT_EXPRESSIONS = (Text, Range, Notes, Numbers, Names, Texts)     # the values that are written out, not computed


# ---- effects ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Pay:
    span: Span
    amount: Expr
    to: Name


@dataclass(frozen=True)
class Collect:
    span: Span
    amount: Expr
    source: Name


@dataclass(frozen=True)
class ForEach:
    span: Span
    var: Name
    over: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class MoveTo:
    span: Span
    square: Name


@dataclass(frozen=True)
class MoveBy:
    span: Span
    steps: Expr


@dataclass(frozen=True)
class Advance:
    """`advance to nearest GROUP [with rent = EXPR]`."""

    span: Span
    group: Name
    rent: Expr | None


@dataclass(frozen=True)
class GoToJail:
    span: Span


@dataclass(frozen=True)
class Draw:
    span: Span
    deck: Name


@dataclass(frozen=True)
class Keep:
    span: Span


@dataclass(frozen=True)
class Option:
    span: Span
    label: Text
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Choose:
    span: Span
    options: tuple[Option, ...]


@dataclass(frozen=True)
class When:
    """The `if` statement (the expression is `Conditional`)."""

    span: Span
    cond: Expr
    then: tuple[Stmt, ...]
    otherwise: tuple[Stmt, ...]


@dataclass(frozen=True)
class ChooseIn:
    """`choose NAME in SET [where COND] [or skip] { ... }`: `me` picks one element."""

    span: Span
    var: Name
    over: Expr
    where: Expr | None
    skip: bool
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Add:
    """`add X to PLAYER.STATE`: put an element into a player's declared set."""

    span: Span
    item: Expr
    player: Name
    state: Name


@dataclass(frozen=True)
class EndGame:
    span: Span


@dataclass(frozen=True)
class Deal:
    """`deal N each [paying]` or `deal all [paying]`: the bank's deeds, shuffled, round the table."""

    span: Span
    each: Expr | None
    paying: bool
    kind: Name | None = None       # `of lot`: only deeds of that kind


@dataclass(frozen=True)
class SetState:
    """`set X.NAME = EXPR`: a declared number of a player or an area takes a new value."""

    span: Span
    of: Name
    state: Name
    value: Expr


@dataclass(frozen=True)
class DoProcedure:
    """`do NAME(ARG, ...)`: run a procedure's statements with its parameters bound."""

    span: Span
    name: Name
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class JumpTo:
    """`jump to SQUARE`: straight there, passing nothing, and land."""

    span: Span
    square: Expr


@dataclass(frozen=True)
class PlaceAt:
    """`place at SQUARE`: the token is put there: it neither passes nor lands."""

    span: Span
    square: Expr


@dataclass(frozen=True)
class Throw:
    """`throw A, B { ... }`: one die per name, thrown one at a time, read in the block."""

    span: Span
    names: tuple[Name, ...]
    body: tuple[Stmt, ...]


Stmt = Union[Pay, Collect, ForEach, MoveTo, MoveBy, Advance, GoToJail, Draw, Keep, Choose, When,
             ChooseIn, Add, EndGame, Deal, SetState, DoProcedure, JumpTo, PlaceAt, Throw]


# ---- items -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Setting:
    """`KEY = value`; `note` is the comment on the line where it ends (the source it cites)."""

    span: Span
    key: Name
    value: Value
    note: str | None


@dataclass(frozen=True)
class Section:
    span: Span
    name: Name
    settings: tuple[Setting, ...]


@dataclass(frozen=True)
class Contested:
    """`contested SECTION.KEY = opt | opt`: a rule the sources dispute, and its readings."""

    span: Span
    section: Name
    key: Name
    options: tuple[Name, ...]
    note: str | None


@dataclass(frozen=True)
class Decide:
    span: Span
    section: Name
    key: Name
    choice: Name
    note: str | None


@dataclass(frozen=True)
class Formula:
    span: Span
    name: Name
    params: tuple[Name, ...]
    body: Expr


@dataclass(frozen=True)
class Invariant:
    """`invariant NAME "what it says" = EXPR`: a yes/no formula every reachable state keeps."""

    span: Span
    name: Name
    text: Text
    body: Expr


@dataclass(frozen=True)
class StepProperty:
    """`step NAME "what it says" on KIND[(OF)] = EXPR`: a yes/no formula over the state after
    every step of a kind, where `old(e)` is `e` in the state before it."""

    span: Span
    name: Name
    text: Text
    kind: Name
    of: Name | None
    body: Expr


@dataclass(frozen=True)
class Fact:
    """`fact SECTION.KEY = N "the source's words"`: a number the source prints for a setting,
    which an invariant reads as `fact(SECTION.KEY)` (a limit that does not come from the
    setting it polices)."""

    span: Span
    section: Name
    key: Name
    value: Int
    quote: Text

    @property
    def path(self) -> str:
        return f"{self.section.text}.{self.key.text}"


@dataclass(frozen=True)
class Statistic:
    """`statistic NAME "what it counts" = EXPR`: a number read at the end of every game,
    reported by `simulate` as a mean."""

    span: Span
    name: Name
    text: Text
    body: Expr


@dataclass(frozen=True)
class Group:
    span: Span
    id: Name
    name: Text | None
    settings: tuple[Setting, ...]


@dataclass(frozen=True)
class Block:
    """An `on_land`/`on_pass` block; its span is the keyword's, for errors about the block."""

    span: Span
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Square:
    span: Span
    kind: str
    id: Name
    name: Text | None
    settings: tuple[Setting, ...]
    on_land: Block | None
    on_pass: Block | None


@dataclass(frozen=True)
class Board:
    span: Span
    squares: tuple[Square, ...]


@dataclass(frozen=True)
class Card:
    span: Span
    text: Text
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Deck:
    span: Span
    id: Name
    name: Text | None
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class State:
    """`state player.NAME : set of square` (grows by `add` only) or `state area.NAME : int`
    (changes by `set`): a value every player, or every area, carries."""

    span: Span
    owner: Name
    name: Name
    container: Name
    element: Name | None


@dataclass(frozen=True)
class Area:
    """`area ID ["Name"] { quarter = NAME  faces = [SQUARE, ...] }`: a place to build."""

    span: Span
    id: Name
    name: Text | None
    settings: tuple[Setting, ...]


@dataclass(frozen=True)
class Procedure:
    """`procedure NAME(PARAM, ...) { ... }`: statements written once, run by `do`."""

    span: Span
    name: Name
    params: tuple[Name, ...]
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Action:
    """`action NAME(VAR in SET) ["Label"] [at WINDOW, ...] { allowed = COND  required = COND
    effect { ... } }`: a choice the engine offers a player in each window named (no `at`: at
    the end of each turn), once per element allowed."""

    span: Span
    name: Name
    var: Name
    over: Expr
    label: Text | None
    windows: tuple[Name, ...]
    settings: tuple[Setting, ...]
    effect: tuple[Stmt, ...]


@dataclass(frozen=True)
class Hook:
    """`when EVENT(VAR) [by HOW, ...] [to STATE] [if COND] { ... }`: statements run on an event."""

    span: Span
    event: Name
    var: Name
    by: tuple[Name, ...]
    to: Name | None
    cond: Expr | None
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Remove:
    """`remove deck ID`, `remove on_land of SQUARE`, `remove on_pass of SQUARE`: a child or a
    variant takes away what its parent has (`what` is `deck`, `on_land` or `on_pass`)."""

    span: Span
    what: str
    id: Name


@dataclass(frozen=True)
class Setup:
    """`setup { ... }`: statements run once, after the start money and the roll-off."""

    span: Span
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Pot:
    """`pot ID ["Name"] { takes = [...] }`: an account that holds money, a party to transfers."""

    span: Span
    id: Name
    name: Text | None
    settings: tuple[Setting, ...]


# ---- worked examples -------------------------------------------------------------------

@dataclass(frozen=True)
class Sale:
    """`turn NAME sells DEED, ... to BUYER for N`: a private sale the turn's player offers
    before the roll, which the buyer accepts."""

    span: Span
    deeds: tuple[Name, ...]
    buyer: Name
    price: int


@dataclass(frozen=True)
class Bid:
    """`turn NAME ... and BIDDER bids up to N`: in an auction during the turn, the bidder
    raises by the smallest raise while the bid stays within N, then passes."""

    span: Span
    bidder: Name
    limit: int


@dataclass(frozen=True)
class ExampleStep:
    """One line of an example: `what` is its first word (`players`, `give`, `houses`, `hotel`,
    `mortgage`, `cash`, `put`, `jail`, `card`, `set`, `mark`, `turn`, `expect`); the other fields are the ones it
    takes."""

    span: Span
    what: str
    players: tuple[Name, ...] = ()         # `players`: the seats' names, in seat order; else the player meant
    squares: tuple[Name, ...] = ()         # `give`, `houses`, `hotel`, `mortgage`, `put`, `mark`
    number: int | None = None              # `houses N`, `cash = N`, `jail ... after N tries`, `set ... = N`
    throws: tuple[tuple[int, ...], ...] = ()   # `turn`: each throw's faces
    choices: tuple[str, ...] = ()          # `turn`: `buy`, ..., `lift`, `sell_buildings`, `trade_hotels`
    labels: tuple[Text, ...] = ()          # `turn ... chooses "LABEL"`: the options named
    sales: tuple[Sale, ...] = ()           # `turn ... sells DEED to BUYER for N`
    bids: tuple[Bid, ...] = ()             # `turn ... and BIDDER bids up to N`
    expr: Expr | None = None               # `expect`
    card: Text | None = None               # `card "TEXT" on top of DECK`
    deck: Name | None = None
    state: Name | None = None              # `set WHO.STATE = N` (`squares` holds the area or player), `mark`


@dataclass(frozen=True)
class Example:
    """`example NAME "quote (source)" { players ... set-up ... turns ... expectations }`: a
    worked example from a rule book, played in the interpreter by `boardrules verify`."""

    span: Span
    name: Name
    text: Text
    players: ExampleStep                   # `players NAME, ...`: first, always
    steps: tuple[ExampleStep, ...]         # the set-up, then the turns
    expects: tuple[ExampleStep, ...]


Item = Union[Section, Contested, Decide, Formula, Invariant, StepProperty, Fact, Group, Board, Deck, State, Hook,
             Setup, Pot, Area, Procedure, Action, Statistic, Example, Remove]


@dataclass(frozen=True)
class Header:
    """`[abstract] edition ID [extends ID]`, or `variant ID for FAMILY` (an overlay: `parent`
    names the edition family it applies to)."""

    span: Span
    abstract: bool
    id: Name
    parent: Name | None
    variant: bool = False


@dataclass(frozen=True)
class File:
    source: Source
    header: Header
    items: tuple[Item, ...]
