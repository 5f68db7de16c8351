"""What the parts of the symbolic machine share, declared once for the type checker.

`SymGame` (engine.py) is made of mixins, each the mirror of one interpreter module:
`CompileMixin` (encode.py: expressions and statements), `EffectsMixin` (effects.py:
movement, jail, cards) and `RulesMixin` (rules.py: money, deeds, buildings). Each calls
steps another defines, and all read the state and the edition `SymGame` holds; `Machine`
names them, so each mixin reads as typed on its own. It adds nothing at run time.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from .state import SymState

Provider = Callable[[str, str, Any, Any], Any]
"""Concrete mode: (key, kind, domain, seat) -> the value of a decision, a die or a card."""


class Machine:
    edition: Any                        # the interpreter's Edition (interpreter/edition.py)
    state: SymState                     # the state the step works on, replaced at each fork
    squares: list[dict[str, Any]]       # the IR's squares, by index
    provider: Provider | None
    cur: int                            # the seat whose turn it is
    record: list[tuple[Any, ...]]       # concrete mode: (kind, value, seat) in call order
    memo: dict[str, Any]
    calls: dict[tuple[Any, ...], tuple[Any, ...]]
    draw_depth: int
    bankrupt_depth: int
    abstract_bankruptcy: bool
    MAX_DRAWS: ClassVar[int]
    MAX_BANKRUPTCIES: ClassVar[int]
    ABSTRACT_BANKRUPTCY: ClassVar[str]

    # the machine's own steps (engine.py)
    fork: Callable[..., None]
    split_value: Callable[..., None]
    split_party: Callable[..., None]
    assume: Callable[[Any], None]
    flag: Callable[[Any, str], None]
    choice: Callable[..., Any]
    unsupported: Callable[[str], Exception]
    # defined by one mixin, called by another
    expr: Callable[..., Any]
    block: Callable[..., None]
    field: Callable[[str, int], Any]
    after_landing: Callable[[], None]
    hooks: Callable[..., list[dict[str, Any]]]
    fire: Callable[..., None]
    acquired: Callable[[int, int, str], None]
    ctx_roll: Callable[..., Any]
    move_steps: Callable[..., None]
    move_to: Callable[..., None]
    move_by: Callable[..., None]
    jump_to: Callable[..., None]
    advance_nearest: Callable[..., None]
    go_to_jail: Callable[..., None]
    draw: Callable[..., None]
    mark: Callable[[int, int, int], None]
    property_rule: Callable[..., None]
    pay: Callable[..., None]
    even_level: Callable[[int], Any]
