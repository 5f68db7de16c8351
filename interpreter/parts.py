"""The game's attributes, typed, and the methods one part of `engine.Game` (rules.py,
effects.py, engine.py) calls on another, declared once for the type checker.

`GameParts` is the base of the mixins and so of `Game`: it holds the game's slots, and
declares each attribute by a class-level annotation (without a value: no class attribute,
so no clash with the slot); `Game.__init__` sets them. The method stubs exist only for the
checker (`TYPE_CHECKING`): at run time the parts' own methods are found first."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from random import Random
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .actions import Act, Action, GiveDeed, ProposeTrade
    from .edition import Edition
    from .errors import RuleError
    from .rules import AuctionInfo
    from .shortcuts import Shortcuts
    from .state import GameState, Player
    from .translate import Ctx, Hook, Option, Rule

Event = dict[str, Any]
"""One entry of the game's log: its `type` and that type's fields (events.py)."""


class Strategy(Protocol):
    """A player's decisions: one of the legal `actions` for `seat` (strategies/)."""

    def choose(self, game: Any, seat: int, actions: Sequence[Action]) -> Action: ...


class GameParts:
    """The game as its parts see it (see the module's docstring)."""
    # No slots here: the game's slots are `Game`'s own (engine.py). A slot read checks the
    # instance's type against the class that declares the slot; declared on a base class,
    # every read of a game's attribute walks the class hierarchy (7% more instructions a game).

    edition: Edition
    strategies: list[Strategy]
    rng: Random
    random: Callable[[], float]
    log_on: bool
    events: list[Event]
    checker: Callable[[Any, Event], None] | None
    dice_source: Callable[[Any], Iterable[int]] | None
    halt: bool
    ending: bool
    bankruptcies: int
    pending: AuctionInfo | ProposeTrade | GiveDeed | tuple[int, int] | tuple[Ctx, list[Option]] | str | None
    proposer: int
    cur: int
    final_scores: list[int] | None
    max_rounds: int | None
    shortcuts: Shortcuts      # the strategies' fast paths (shortcuts.py)
    move_ctx: Ctx
    state: GameState
    players: list[Player]
    seats: list[int]
    # caches of the state (never saved: `Game._derive`; `set_owner`, `set_mortgaged` keep them)
    holdings: list[list[int]]
    group_counts: list[list[int]]
    group_mortgages: list[int]
    holders: list[list[int]]
    moves: int
    trail: list[str]

    if TYPE_CHECKING:
        # engine.Game
        def ev(self, event: Event) -> None: ...
        # Any: the engine tells an answer's kind by `type(a) is ...` kept in a name (fast),
        # which the checker cannot narrow an `Action` by
        def ask(self, seat: int, actions: Sequence[Action], trading: bool = False) -> Any: ...
        def failed(self, seat: int, error: Exception) -> str: ...
        def strategy_error(self, seat: int, a: Action, actions: Sequence[Action]) -> Exception: ...
        def by_default(self, seat: int, actions: Sequence[Action], why: str) -> Any: ...
        def throw(self) -> tuple[tuple[int, ...], int, bool]: ...
        def one_die(self) -> int: ...
        def offered(self, p: int, window: list[int], c: Ctx) -> tuple[list[Action], bool]: ...
        def take_action(self, p: int, a: Act, c: Ctx) -> None: ...

        # rules.RulesMixin, called by effects
        def pay(self, payer: int, payee: int, amount: int, reason: str) -> None: ...
        def set_owner(self, sq: int, new: int) -> None: ...
        def property_rule(self, c: Ctx, p: int, sq: int) -> None: ...
        def risk(self, p: int, sq: int, lands: bool) -> Fraction | int: ...

        # effects.EffectsMixin, called by rules
        def acquired(self, p: int, sq: int, way: str) -> None: ...
        def fire(self, hooks: Sequence[Hook], c: Ctx, value: Any, way: str | None = None) -> None: ...
        def return_card(self, p: int, held: list[int]) -> None: ...
        def located(self, error: BaseException, rule: object) -> RuleError: ...

        # effects.EffectsMixin, called by the compiled statements (translate.py)
        def move_to(self, c: Ctx, target: int) -> None: ...
        def jump_to(self, c: Ctx, target: int) -> None: ...
        def place_at(self, c: Ctx, target: int) -> None: ...
        def move_by(self, c: Ctx, steps: int) -> None: ...
        def advance_nearest(self, c: Ctx, group: int, rent_fn: Rule | None) -> None: ...
        def go_to_jail(self, p: int, reason: str = "") -> None: ...
        def draw(self, c: Ctx, deck: int) -> None: ...
        def choose_option(self, c: Ctx, options: list[Option], acts: Sequence[Action]) -> None: ...
        def choose_in(self, c: Ctx, var: str, candidates: Rule, body: Rule | None, element: str | None, skip: bool,
                      goes: tuple[str, bool] | None = None) -> None: ...
        def throw_each(self, c: Ctx, names: list[str], body: Rule | None) -> None: ...
        def set_area(self, state: int, area: int, value: int) -> None: ...
        def set_number(self, p: int, state: int, value: int) -> None: ...
        def mark(self, p: int, state: int, item: Any) -> None: ...
        def end_game(self) -> None: ...
        def deal(self, each: int | None, paying: bool, kind: str | None = None) -> None: ...
