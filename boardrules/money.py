"""Write amounts the way an edition writes money ("30 000 kr", "€ 1.500", "$1,500")."""
from __future__ import annotations


def format_money(money: dict, amount: int) -> str:
    """Format `amount` with the edition's `money.format` and `money.thousands` settings."""
    digits = f"{abs(amount):,}".replace(",", money.get("thousands", ","))
    text = money["format"].replace("{amount}", digits)
    return f"-{text}" if amount < 0 else text
