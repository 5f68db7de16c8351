"""Write amounts the way an edition writes money ("30 000 kr", "€ 1.500", "$1,500").

A pure function of the IR's `money` settings, shared by the rulebook and the CLI's story of
a game; it sits with the compiler that makes those settings, below both."""
from __future__ import annotations


def format_money(money: dict, amount: int) -> str:
    """Format `amount` with the edition's `money.format` and `money.thousands` settings."""
    digits = f"{abs(amount):,}".replace(",", money.get("thousands", ","))
    text = money["format"].replace("{amount}", digits)
    return f"-{text}" if amount < 0 else text
