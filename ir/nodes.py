"""The expressions and statements of the IR, one frozen class per kind.

Every rule the engine runs (a square's effect, a card, a hook, a formula, an invariant) is
a tree of these nodes. Before this module each consumer re-learned the shapes of the
JSON dicts from docs/ir.md; here each kind declares its fields once, by the names the JSON
uses, so a reader sees what a `transfer` holds and mypy checks who reads it.

The JSON tag (`"expr": "bin"`, `"stmt": "transfer"`) is the class, not a field: each
class names its tag in `TAG`. Lists are tuples, so a node is immutable all the way down.
Every node may carry where it is written (`written_at`); the compiler leaves it out.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal, NamedTuple


class Position(NamedTuple):
    """A `[line, column]` in a spec file (JSON: a list of two ints)."""

    line: int
    column: int


Operator = Literal["+", "-", "*", "/", "==", "!=", "<", "<=", ">", ">=", "and", "or", "in"]
Aggregation = Literal["sum", "count", "max", "min", "any", "all"]


# ---- expressions (`"expr": TAG`) -------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Int:
    """An integer literal."""

    TAG: ClassVar[str] = "int"
    value: int
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class Ratio:
    """An exact ratio literal (`10%` is 10/100)."""

    TAG: ClassVar[str] = "ratio"
    num: int
    den: int
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class Bool:
    """A yes/no literal."""

    TAG: ClassVar[str] = "bool"
    value: bool
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class Option:
    """An option of a contested rule or of an enum setting (`before_roll`)."""

    TAG: ClassVar[str] = "enum"
    value: str
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class Var:
    """A name from docs/language.md's table (`me`, `dice`), a loop or formula parameter."""

    TAG: ClassVar[str] = "var"
    name: str
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class Bank:
    """The bank, as a party to a transfer."""

    TAG: ClassVar[str] = "bank"
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class Setting:
    """A setting by its `section.key` path; its value is in the ruleset's settings."""

    TAG: ClassVar[str] = "setting"
    path: str
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class SquareRef:
    """A square, by its key."""

    TAG: ClassVar[str] = "square"
    key: str
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class GroupRef:
    """A group of deeds, by its key."""

    TAG: ClassVar[str] = "group"
    key: str
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class DeckRef:
    """A deck of cards, by its key."""

    TAG: ClassVar[str] = "deck"
    key: str
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class PotRef:
    """A pot (a jackpot), by its key."""

    TAG: ClassVar[str] = "pot"
    key: str
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class Attr:
    """An attribute of a thing: `p.cash`, `d.price`."""

    TAG: ClassVar[str] = "attr"
    subject: Expr
    name: str
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class Index:
    """The element of a list at a position, counted from 0."""

    TAG: ClassVar[str] = "index"
    list: Expr
    position: Expr
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class Neg:
    """Minus a number."""

    TAG: ClassVar[str] = "neg"
    operand: Expr
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class Not:
    """Not a yes/no."""

    TAG: ClassVar[str] = "not"
    operand: Expr
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class Binary:
    """An arithmetic, comparison, logical or membership (`in`) operation."""

    TAG: ClassVar[str] = "bin"
    operator: Operator
    left: Expr
    right: Expr
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class Conditional:
    """`then` when `cond` holds, else `otherwise`."""

    TAG: ClassVar[str] = "if"
    cond: Expr
    then: Expr
    otherwise: Expr
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class Aggregate:
    """`function` of `body` for each `var` over a finite set."""

    TAG: ClassVar[str] = "agg"
    function: Aggregation
    var: str
    over: Expr
    body: Expr
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class Call:
    """A builtin (`houses`, `hotels`, `held`, `numbers`, `die`) or a formula of the ruleset, by name."""

    TAG: ClassVar[str] = "call"
    function: str
    args: tuple[Expr, ...]
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class Old:
    """Its operand in the state before the step (in a step property's body only)."""

    TAG: ClassVar[str] = "old"
    operand: Expr
    written_at: Position | None = None


Expr = (Int | Ratio | Bool | Option | Var | Bank | Setting | SquareRef | GroupRef | DeckRef | PotRef
        | Attr | Index | Neg | Not | Binary | Conditional | Aggregate | Call | Old)


# ---- statements (`"stmt": TAG`) --------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Transfer:
    """`payer` pays `payee` an amount (parties: `Var("me")`, `Bank()`, ...)."""

    TAG: ClassVar[str] = "transfer"
    amount: Expr
    payer: Expr
    payee: Expr
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class ForEach:
    """`body` once for each `var` over a finite set."""

    TAG: ClassVar[str] = "for"
    var: str
    over: Expr
    body: tuple[Stmt, ...]
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class MoveTo:
    """The token moves forward to the square at this board index."""

    TAG: ClassVar[str] = "move_to"
    square: int
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class MoveBy:
    """The token moves a number of steps."""

    TAG: ClassVar[str] = "move_by"
    steps: Expr
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class AdvanceToNearest:
    """The token advances to the nearest square of a group; `rent`, if given, replaces the rent."""

    TAG: ClassVar[str] = "advance_to_nearest"
    group: str
    rent: Expr | None
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class GoToJail:
    """The player goes to jail."""

    TAG: ClassVar[str] = "go_to_jail"
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class Draw:
    """The player draws a card of a deck, by the deck's key."""

    TAG: ClassVar[str] = "draw"
    deck: str
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class Keep:
    """The player keeps the card drawn (a card only)."""

    TAG: ClassVar[str] = "keep"
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class Choice:
    """One option of `choose`: its label and what it does."""

    label: str
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Choose:
    """The player picks one of the options."""

    TAG: ClassVar[str] = "choose"
    options: tuple[Choice, ...]
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class When:
    """`then` when `cond` holds, else `otherwise`."""

    TAG: ClassVar[str] = "if"
    cond: Expr
    then: tuple[Stmt, ...]
    otherwise: tuple[Stmt, ...]
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class ChooseIn:
    """The player picks a `var` over a set (of `element`s) where a condition holds."""

    TAG: ClassVar[str] = "choose_in"
    var: str
    over: Expr
    where: Expr | None
    skip: bool
    element: str
    body: tuple[Stmt, ...]
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class Add:
    """`item` joins a player's declared state."""

    TAG: ClassVar[str] = "add"
    item: Expr
    player: Expr
    state: str
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class EndGame:
    """The game ends now."""

    TAG: ClassVar[str] = "end_game"
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class Deal:
    """The bank deals deeds (of `deed_kind`, or all), `each` per player or all of them."""

    TAG: ClassVar[str] = "deal"
    each: Expr | None
    paying: bool
    deed_kind: str | None
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class SetState:
    """A declared state of an area or a player takes a value."""

    TAG: ClassVar[str] = "set"
    subject: Expr
    state: str
    value: Expr
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class DoProcedure:
    """A procedure of the ruleset runs with these arguments."""

    TAG: ClassVar[str] = "call"
    procedure: str
    args: tuple[Expr, ...]
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class JumpTo:
    """The token jumps to a square (passing nothing)."""

    TAG: ClassVar[str] = "jump_to"
    target: Expr
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class PlaceAt:
    """The token is placed on a square (without landing)."""

    TAG: ClassVar[str] = "place_at"
    target: Expr
    written_at: Position | None = None


@dataclass(frozen=True, slots=True)
class Throw:
    """The player throws the dice, the faces bound to `names` in `body`."""

    TAG: ClassVar[str] = "throw"
    names: tuple[str, ...]
    body: tuple[Stmt, ...]
    written_at: Position | None = None


Stmt = (Transfer | ForEach | MoveTo | MoveBy | AdvanceToNearest | GoToJail | Draw | Keep | Choose | When
        | ChooseIn | Add | EndGame | Deal | SetState | DoProcedure | JumpTo | PlaceAt | Throw)
