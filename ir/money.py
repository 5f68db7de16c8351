"""Write amounts the way an edition writes money: its `money.format` around the digits,
grouped by its `money.thousands` separator.

A pure function of the IR's `money` settings, shared by the rulebook and the CLI's story of
a game; it sits with the IR, below both."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def format_money(money: Mapping[str, Any], amount: int) -> str:
    """Format `amount` with the edition's `money.format` and `money.thousands` settings."""
    digits = f"{abs(amount):,}".replace(",", money.get("thousands", ","))
    text = money["format"].replace("{amount}", digits)
    return f"-{text}" if amount < 0 else text
