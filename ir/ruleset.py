"""The IR document: one edition, everything it extends resolved, as frozen classes.

This is the contract between the compiler (grammar/), which produces it, and the engine,
the verifier and the rulebook, which read it (docs/ir.md). Each field is named exactly
like its JSON key, so docs/ir.md, grammar/ir.schema.json and this module speak the same
words; `ir.load` and `ir.dump` convert (ir/json.py).

Lists are tuples. A field the schema does not require defaults to `None`, which means
"absent from the JSON" (an empty list is `()`); a required field may still be `None`
where the schema allows `null` (an abstract edition's undecided `choice`).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, NamedTuple

from ir.examples import Example
from ir.nodes import Expr, Position, Stmt


@dataclass(frozen=True, slots=True)
class EditionInfo:
    """Which edition this is: its key, the editions it extends (root first) and its metadata."""

    key: str
    lineage: tuple[str, ...]
    title: str | None
    language: str | None
    source: str | None
    abstract: bool
    variants: tuple[str, ...] | None = None
    words: Mapping[str, str] | None = None
    source_language: str | None = None


@dataclass(frozen=True, slots=True)
class Span:
    """A range setting, both ends included (`players = 2..8`)."""

    min: int
    max: int


@dataclass(frozen=True, slots=True)
class Note:
    """`count` bank notes of `value` each (a player's starting cash, note by note)."""

    count: int
    value: int


SettingValue = int | bool | str | Span | tuple[int, ...] | tuple[Note, ...] | Expr
"""A setting's final value. `tuple[int, ...]` and `tuple[Note, ...]` are told apart by
their items; an empty list loads as `()`."""

Section = Mapping[str, SettingValue]


@dataclass(frozen=True, slots=True)
class Settings:
    """Every setting by section, each with its final value (decided contested rules included).

    The schema leaves each section's keys open (the language defines them), so a section
    is a mapping from key to value."""

    game: Section
    money: Section
    bank: Section
    jail: Section
    buy: Section
    auction: Section
    building: Section
    mortgage: Section
    trade: Section
    bankruptcy: Section
    debt: Section
    end: Section
    rent: Section

    def sections(self) -> dict[str, Section]:
        """Every section by name, in the IR's order (`game` first), for a reader that walks
        them all or looks one up by a setting's `section.key` path."""
        return {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}


@dataclass(frozen=True, slots=True)
class Decision:
    """A contested rule: the option taken (`None` where an abstract edition leaves it open)."""

    key: str
    choice: str | None
    options: tuple[str, ...]
    note: str | None
    declared_note: str | None


@dataclass(frozen=True, slots=True)
class Formula:
    """A named expression with parameters, called by `Call`."""

    params: tuple[str, ...]
    body: Expr


@dataclass(frozen=True, slots=True)
class Invariant:
    """A yes/no that must hold after every event; `origin` is `prelude` or the declaring edition."""

    name: str
    text: str
    body: Expr
    origin: str
    written_at: Position
    limits: Mapping[str, int | None] | None = None   # number setting -> the fact it is checked against (None: none)


@dataclass(frozen=True, slots=True)
class StepProperty:
    """A yes/no over the state after every step of a `kind` (`buy`, `land:SQUARE`, ...),
    reading the state before in `Old` nodes; `origin` is the declaring edition."""

    name: str
    text: str
    kind: str
    body: Expr
    origin: str
    written_at: Position
    limits: Mapping[str, int | None] | None = None   # as an invariant's


@dataclass(frozen=True, slots=True)
class Rent:
    """The rent of each kind of deed, as an expression."""

    lot: Expr | None = None
    station: Expr | None = None
    utility: Expr | None = None

    def formulas(self) -> dict[str, Expr]:
        """The rents given, by deed kind, in the IR's order (`lot`, `station`, `utility`)."""
        given = {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}
        return {kind: formula for kind, formula in given.items() if formula is not None}


DeedKind = Literal["lot", "station", "utility"]


@dataclass(frozen=True, slots=True)
class Group:
    """A group of deeds (a color, the stations), with the board indices of its squares."""

    key: str
    name: str | None
    kind: DeedKind
    color: str | None
    squares: tuple[int, ...]
    house_cost: int | None = None
    hotel_cost: int | None = None


@dataclass(frozen=True, slots=True)
class Deed:
    """What a square's deed says: its group, price, mortgage value, rents and building costs."""

    group: str
    price: int | None = None
    mortgage: int | None = None
    rent: tuple[int, ...] | None = None
    house_cost: int | None = None
    hotel_cost: int | None = None


@dataclass(frozen=True, slots=True)
class Square:
    """A square of the board, at its index, with its deed (`None` for a plain square)."""

    index: int
    key: str
    name: str | None
    kind: Literal["square", "lot", "station", "utility"]
    deed: Deed | None
    on_land: tuple[Stmt, ...]
    on_pass: tuple[Stmt, ...]
    number: int | None = None
    across: str | None = None
    text: str | None = None


@dataclass(frozen=True, slots=True)
class Card:
    """A card: its printed text and its effect."""

    text: str
    effect: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck of cards, in the order printed."""

    key: str
    name: str | None
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class State:
    """A state the engine keeps per player or per area (`set of square`, `int`)."""

    owner: Literal["player", "area"]
    name: str
    type: str


@dataclass(frozen=True, slots=True)
class Pot:
    """A pot that takes the money of squares, fines or cards."""

    key: str
    name: str | None
    takes: tuple[Literal["fines", "squares", "cards"], ...]


Way = Literal["buy", "auction", "trade", "deal", "bankruptcy", "debt"]
# When an action is offered (docs/language.md): before each roll, at the turn's end, while raising money.
Window = Literal["before_roll", "end_of_turn", "raising"]


@dataclass(frozen=True, slots=True)
class Hook:
    """A rule run when an event happens (`land`, `acquire` `via` some ways, `add` to a state...)."""

    event: Literal["land", "acquire", "add", "roll", "rent"]
    var: str
    via: tuple[Way, ...]
    state: str | None
    cond: Expr | None
    body: tuple[Stmt, ...]
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class Area:
    """An area of the city, in a quarter, facing some streets."""

    key: str
    name: str | None
    quarter: str
    faces: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Procedure:
    """Named statements with parameters, run by `DoProcedure`."""

    params: tuple[str, ...]
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Action:
    """Something a player may do, for a `var` over a set, when `allowed`, in its `windows`."""

    key: str
    label: str | None
    var: str
    over: Expr
    allowed: Expr
    required: Expr | None
    effect: tuple[Stmt, ...]
    element: str
    windows: tuple[Window, ...]
    allowed_note: str | None = None
    required_note: str | None = None


@dataclass(frozen=True, slots=True)
class Statistic:
    """A number the analysis reports per game."""

    name: str
    text: str
    body: Expr


@dataclass(frozen=True, slots=True)
class Wording:
    """The words the edition's printed texts use for paying and collecting, for "not", and
    for the parties they name (grammar/printed.py)."""

    pay: tuple[str, ...] | None = None
    collect: tuple[str, ...] | None = None
    negation: tuple[str, ...] | None = None
    bank: tuple[str, ...] | None = None
    players: tuple[str, ...] | None = None
    owner: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Box:
    """What the box holds, as printed: one list of lines per part (`cards` one per deck)."""

    source: str | None = None
    houses: tuple[str, ...] | None = None
    hotels: tuple[str, ...] | None = None
    deeds: tuple[str, ...] | None = None
    tokens: tuple[str, ...] | None = None
    dice: tuple[str, ...] | None = None
    cards: tuple[str, ...] | None = None


class SourceSpan(NamedTuple):
    """Where a rule is written, for run-time errors (JSON: `[file, line, column, width]`)."""

    file: str
    line: int
    column: int
    width: int


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One edition's whole IR (docs/ir.md). The optional parts are `None` when absent."""

    ir_version: int
    edition: EditionInfo
    settings: Settings
    decisions: tuple[Decision, ...]
    notes: Mapping[str, str]
    formulas: Mapping[str, Formula]
    invariants: tuple[Invariant, ...]
    rent: Rent
    groups: tuple[Group, ...]
    squares: tuple[Square, ...]
    decks: tuple[Deck, ...]
    state: tuple[State, ...] | None = None
    pots: tuple[Pot, ...] | None = None
    hooks: tuple[Hook, ...] | None = None
    setup: tuple[Stmt, ...] | None = None
    areas: tuple[Area, ...] | None = None
    procedures: Mapping[str, Procedure] | None = None
    actions: tuple[Action, ...] | None = None
    statistics: tuple[Statistic, ...] | None = None
    steps: tuple[StepProperty, ...] | None = None
    wording: Wording | None = None
    box: Box | None = None
    examples: tuple[Example, ...] | None = None
    sources: Mapping[str, SourceSpan] | None = None
