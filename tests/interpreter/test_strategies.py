"""Strategies choose only legal actions (issue #19): on every spec that passes `check`,
the bundled ones and mutants of them (amounts at 0, 1, negative or far beyond a float,
settings flipped), a game of random or heuristic players ends without an error and
without the engine having to stand in for a player."""
from __future__ import annotations

import pytest

import grammar
import interpreter
import spec

HUGE = 10 ** 400        # a literal a spec may write; far beyond a float (about 1.8e308)


def mutant(tmp_path, base: str, body: str) -> interpreter.Edition:
    """An edition that extends the bundled `base` with `body` (it must pass `check`)."""
    path = tmp_path / "mutant.rules"
    path.write_text(f"edition mutant extends {base}\n\n{body}\n", encoding="utf-8")
    return interpreter.load(grammar.compile_file(str(path)))


def plays_legally(ed, players: list[str], seeds=range(1, 4), max_turns: int = 60) -> None:
    """Each game ends without an error, and no choice in its log is the engine's default
    for a player who gave no legal answer."""
    for seed in seeds:
        result = interpreter.play(ed, players, seed=seed, max_turns=max_turns)
        defaulted = [e for e in result.events if e["type"] == "choice" and "default" in e]
        assert not defaulted, f"seed {seed}: {defaulted[0]}"


# Amounts a spec may write that no bundled edition does: each mutant passes `check`.
US_LOT = 'lot brown_1 "Mediterranean Avenue" {{ price = {price} mortgage = {mortgage} rent = [{rent}, 10, 30, 90, 160, 250] }}'
AMOUNTS = {
    "price far beyond a float": f"board {{ {US_LOT.format(price=HUGE, mortgage=30, rent=2)} }}",
    "mortgage far beyond a float": f"board {{ {US_LOT.format(price=60, mortgage=HUGE, rent=2)} }}",
    "rent far beyond a float": f"board {{ {US_LOT.format(price=60, mortgage=30, rent=HUGE)} }}",
    "negative price": f"board {{ {US_LOT.format(price=-60, mortgage=30, rent=2)} }}",
    "negative mortgage": f"board {{ {US_LOT.format(price=60, mortgage=-HUGE, rent=2)} }}",
    "free deed": f"board {{ {US_LOT.format(price=0, mortgage=0, rent=0)} }}",
    "start money far beyond a float": f"money {{ start = {HUGE}  notes = [1 x {HUGE}] }}",
    "start money of 1": "money { start = 1  notes = [1 x 1] }",
    "salary far beyond a float": f"money {{ salary = {HUGE} }}",
    "house far beyond a float": f'group brown {{ name = "Brown"  house_cost = {HUGE}  hotel_cost = {HUGE} }}',
    "negative house": f'group brown {{ name = "Brown"  house_cost = -{HUGE}  hotel_cost = -50 }}',
    "jail fine far beyond a float": f"jail {{ fine = {HUGE} }}",
    "negative jail fine": "jail { fine = -50 }",
}


@pytest.mark.parametrize("amounts", AMOUNTS)
@pytest.mark.parametrize("players", [["heuristic"] * 4, ["random"] * 3, ["heuristic", "random", "heuristic"]])
def test_players_choose_legally_whatever_the_amounts(tmp_path, amounts, players):
    """The heuristic reckons in whole money (no float to overflow or round), and every
    offer, its own or the engine's list, is one the rules accept."""
    plays_legally(mutant(tmp_path, "classic-us", AMOUNTS[amounts]), players)


def overlay(tmp_path, base: str, body: str) -> interpreter.Edition:
    """The bundled edition `base` with a variant of `body` laid over it (how a table's house
    rule changes a setting; it must pass `check`)."""
    path = tmp_path / "overlay.rules"
    path.write_text(f"variant overlay for {base}\n\n{body}\n", encoding="utf-8")
    return interpreter.load(grammar.compile_file(str(spec.bundled()[base]), [path]))


# Settings flipped from what the bundled editions decide: each overlay passes `check`.
SETTINGS = {
    "metropol without deed auctions for debts": ("metropol-da", "debt { auction_deeds = no }"),
    "metropol without deed trades": ("metropol-da", "trade { deeds = no }"),
    "classic without deed trades": ("classic-se", "trade { deeds = no }"),
    "classic with deed auctions for debts": ("classic-us", "debt { auction_deeds = yes }"),
    "classic without cash trades": ("classic-nl", "trade { cash = no }"),
}


@pytest.mark.parametrize("setting", SETTINGS)
@pytest.mark.parametrize("players", [["heuristic"] * 4, ["random"] * 3])
def test_players_choose_legally_whatever_the_settings(tmp_path, setting, players):
    """Metropol has no mortgages: a debtor there raises money only as the rules allow (with
    `debt.auction_deeds = no`, not at all), and nobody proposes a trade the rules forbid."""
    base, body = SETTINGS[setting]
    plays_legally(overlay(tmp_path, base, body), players)
