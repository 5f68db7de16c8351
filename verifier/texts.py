"""Card texts against card effects: a printed card names the money it moves, so an amount
the effect moves that the text does not name, or an amount the text names that the effect
does not move (other than the salary, which a card that moves you past the start names),
is a mistake in one of the two. Amounts are read with the edition's own `money.format` and
`money.thousands`; no words of any language are read.

    disagreements(ir) -> ["card 6 of `chance`: ...", ...]
"""
from __future__ import annotations

import re


def disagreements(ir: dict) -> list[str]:
    money = ir["settings"]["money"]
    written = _amount_pattern(money)
    out = []
    for deck in ir.get("decks", []):
        for i, card in enumerate(deck.get("cards", [])):
            named = {int(re.sub(r"\D", "", m)) for m in written.findall(card.get("text", ""))}
            moved = set(_moved(card.get("effect") or [], []))
            where = f"card {i} of `{deck['id']}`"
            for amount in sorted(moved - named):
                out.append(f"{where}: the effect moves {amount}, the text does not name it")
            for amount in sorted(named - moved - {money.get("salary")}):
                out.append(f"{where}: the text names {amount}, the effect does not move it")
    return out


def _amount_pattern(money: dict):
    """An amount written in the edition's money format, e.g. `2 000 kr` or `€ 1.500`."""
    sep = re.escape(money.get("thousands", ","))
    number = rf"\d{{1,3}}(?:{sep}\d{{3}})+|\d+"
    before, _, after = money["format"].partition("{amount}")
    return re.compile(re.escape(before) + rf"(?<![\d.,])({number})(?!\d)" + re.escape(after))


def _moved(stmts: list, acc: list) -> list:
    """The whole amounts written in the transfers of a block (nested blocks too)."""
    for s in stmts:
        if s.get("do") == "transfer":
            _ints(s["amount"], acc)
        for key in ("body", "then", "else"):
            _moved(s.get(key) or [], acc)
        for option in s.get("options") or []:
            _moved(option.get("body") or [], acc)
    return acc


def _ints(node, acc: list) -> None:
    if isinstance(node, dict):
        if node.get("k") == "int":
            acc.append(node["v"])
        for v in node.values():
            _ints(v, acc)
    elif isinstance(node, list):
        for v in node:
            _ints(v, acc)
