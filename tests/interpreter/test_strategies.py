"""Strategies choose only legal actions (issue #19): on every spec that passes `check`,
the bundled ones and mutants of them (amounts at 0, 1, negative or far beyond a float,
settings flipped), a game of random or heuristic players ends without an error and
without the engine having to stand in for a player."""
from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys

import pytest

import grammar
import interpreter
import spec
from boardrules.editions import variant_targets
from boardrules.narrate import narrate
from grammar.lookup import concrete_editions
from interpreter import actions as A
from interpreter import strategies
from interpreter.strategies.heuristic import Heuristic
from interpreter.strategies.human import Human
from tests.interpreter.conftest import Script, edition

HUGE = 10 ** 400        # a literal a spec may write; far beyond a float (about 1.8e308)


MARK = 900_000_000_000      # where `check` would refuse an amount (E310), the IR gets it after the check


def mutant(tmp_path, base: str, body: str) -> interpreter.Edition:
    """An edition that extends the bundled `base` with `body`. An amount `check` refuses
    (negative, or past 10^15: E310) is written as a marker and put into the IR after the
    check: the engine and its players must hold for any IR they are given."""
    swaps: dict[int, int] = {}

    def marked(number: re.Match) -> str:
        value = int(number.group())
        if 0 <= value <= 10 ** 15:
            return number.group()
        mark = next((m for m, v in swaps.items() if v == value), MARK + len(swaps))     # the same amount, the same mark
        swaps[mark] = value
        return str(mark)

    def swapped(node):
        if isinstance(node, dict):
            return {key: swapped(value) for key, value in node.items()}
        if isinstance(node, list):
            return [swapped(value) for value in node]
        return swaps.get(node, node) if type(node) is int else node

    path = tmp_path / "mutant.rules"
    checked = re.sub(r"-?\d+", marked, body)
    path.write_text(f"edition mutant extends {base}\n\n{checked}\n", encoding="utf-8")
    return interpreter.load(swapped(grammar.compile_file(str(path))))


# What a human at the keyboard types, round and round: numbers in and out of range, Enter,
# and things that are not numbers.
TYPED = ["2", "", "1", "9", "", "3", "x", "1"]


def seated(players: list[str], seed: int) -> list:
    """The strategy objects for `players`; a human reads `TYPED` and writes nowhere."""
    def human() -> Human:
        lines = itertools.cycle(TYPED)
        return Human(read=lambda prompt: next(lines), write=lambda text: None)
    return [human() if name == "human" else strategies.make(name, seed, seat) for seat, name in enumerate(players)]


def plays_legally(ed, players: list[str], seeds=range(1, 4), max_turns: int = 60, unpayable: bool = False) -> None:
    """Each game ends without an error, and no choice in its log is the engine's default
    for a player who gave no legal answer. With `unpayable` amounts (past the largest payment
    the engine makes), a game may also end at the first such payment, with the engine's
    located error (E503): the players must not fail before it."""
    for seed in seeds:
        try:
            result = interpreter.play(ed, players, seed=seed, max_turns=max_turns,
                                      strategy_objects=seated(players, seed))
        except interpreter.RuleError as error:
            assert unpayable and error.code == "E503", error
            continue
        defaulted = [e for e in result.events if e["type"] == "choice" and "default" in e]
        assert not defaulted, f"seed {seed}: {defaulted[0]}"


# Amounts no bundled edition has: in range, each mutant passes `check`; out of it, `mutant`
# puts them into the IR after the check.
US_LOT = ('lot brown_1 "Mediterranean Avenue" {{ price = {price} mortgage = {mortgage} '
          'rent = [{rent}, 10, 30, 90, 160, 250] }}')
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
    "bids far beyond a float": f"auction {{ raises = [1, {HUGE}] }}",
    "no houses in the bank": "bank { houses = 0  hotels = 0 }",
}


# Every strategy: each alone, and at one table.
TABLES = [["heuristic"] * 4, ["random"] * 3, ["human", "heuristic", "random"]]


@pytest.mark.parametrize("players", TABLES)
@pytest.mark.parametrize("name", concrete_editions())
def test_players_choose_legally_in_every_bundled_edition(name, players):
    plays_legally(edition(name), players, seeds=range(1, 3), max_turns=40)


@pytest.mark.parametrize("players", TABLES)
@pytest.mark.parametrize("name, variant", variant_targets())
def test_players_choose_legally_in_every_bundled_variant(name, variant, players):
    """Each variant laid over the first bundled edition of its family (as `verify` checks them)."""
    ed = interpreter.load(grammar.compile_file(str(spec.bundled()[name]), [spec.bundled_variants()[variant]]))
    plays_legally(ed, players, seeds=range(1, 3), max_turns=40)


@pytest.mark.parametrize("amounts", AMOUNTS)
@pytest.mark.parametrize("players", TABLES)
def test_players_choose_legally_whatever_the_amounts(tmp_path, amounts, players):
    """The heuristic reckons in whole money (no float to overflow or round), and every
    offer, its own or the engine's list, is one the rules accept."""
    plays_legally(mutant(tmp_path, "classic-us", AMOUNTS[amounts]), players, unpayable=str(HUGE) in AMOUNTS[amounts])


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
    "classic sold only by auction": ("classic-us", "auction { only = yes }"),
    "classic without auctions": ("classic-se", "auction { on_decline = no }"),
    "classic bids beyond cash": ("classic-us", "auction { bid_within_cash = no }"),
    "classic built unevenly on any lot, mortgaged anywhere":
        ("classic-nl", "building { even = no  may = yes }  mortgage { may = yes }"),
    "classic trades built groups, no jail cards": ("classic-us", "trade { built_groups = yes  jail_cards = no }"),
    "wonders without deed trades": ("wonders-se", "trade { deeds = no }"),
}


@pytest.mark.parametrize("setting", SETTINGS)
@pytest.mark.parametrize("players", TABLES)
def test_players_choose_legally_whatever_the_settings(tmp_path, setting, players):
    """Metropol has no mortgages: a debtor there raises money only as the rules allow (with
    `debt.auction_deeds = no`, not at all), and nobody proposes a trade the rules forbid."""
    base, body = SETTINGS[setting]
    plays_legally(overlay(tmp_path, base, body), players)


# ---- the engine's default when a player gives no legal answer ---------------------------

class Faulty(Heuristic):
    """A heuristic player whose answer to one kind of decision (named by the kind of its
    actions, or `manage_fast` / `raise_fast`) is `answer(actions)`: an illegal action, or
    an exception raised."""

    def __init__(self, where: str, answer):
        super().__init__()
        self.where, self.answer = where, answer

    def choose(self, game, seat, actions):
        if any(type(a).__name__ == self.where for a in actions):
            return self.answer(actions)
        return super().choose(game, seat, actions)

    def manage_fast(self, game, seat):
        return self.answer(()) if self.where == "manage_fast" else super().manage_fast(game, seat)

    def raise_fast(self, game, seat, owed, creditor, refused):
        if self.where == "raise_fast":
            return self.answer(())
        return super().raise_fast(game, seat, owed, creditor, refused)


def fails(actions):
    raise ZeroDivisionError("the player's own mistake")


FAULTS = {   # the decision, the faulty answer, what the note says, the default the engine takes
    "an illegal answer to buy": ("Buy", lambda actions: A.Mortgage(-1), "Mortgage(square=-1)", "Decline"),
    "a failure to bid": ("Bid", fails, "ZeroDivisionError: the player's own mistake", "Pass"),
    "a trade proposed in an auction": ("Bid", lambda actions: A.ProposeTrade(1, (), (1,), 60), "ProposeTrade", "Pass"),
    "an illegal manage-window answer": ("manage_fast", lambda actions: A.Build(10 ** 6), "Build(square=1000000)",
                                        "Done"),
    "a failure to raise money": ("raise_fast", fails, "ZeroDivisionError", None),
}


@pytest.mark.parametrize("fault", FAULTS)
def test_engine_takes_the_default_for_a_player_without_a_legal_answer(fault):
    """A player that answers an illegal action, or fails, gets the default action for its
    decision (`actions.default`: the one that does nothing, else the first offered); the log
    says so in that choice, the story tells it, and the log replays."""
    where, answer, said, default = FAULTS[fault]
    ed = edition("classic-us")
    players = [Faulty(where, answer), Heuristic()]
    result = interpreter.play(ed, ["faulty", "heuristic"], seed=3, max_turns=80, strategy_objects=players)
    noted = [e for e in result.events if e["type"] == "choice" and "default" in e]
    assert noted, "the faulty decision came up"
    assert all(e["seat"] == 0 and said in e["default"] for e in noted)
    if default is not None:
        assert {e["action"]["action"] for e in noted} == {default}
    else:      # raising money: the first legal way, as the engine lists them
        assert all(e["action"]["action"] in ("SellBuilding", "Downgrade", "Mortgage") for e in noted)
    story = narrate(ed.ir, result.events)
    assert sum("by default" in line for line in story) == len(noted)
    assert interpreter.replay(ed, json.loads(json.dumps(result.log()))).state.to_json() == result.state.to_json()


def test_a_scripted_strategy_is_obeyed_and_its_mistake_stops_the_game():
    """A test's script, a replay or a worked example dictates each answer: an illegal one is
    the script's mistake, reported (`StrategyError`), not replaced by a default."""
    ed = edition("classic-us")
    script = Script(Buy=lambda game, seat, actions: A.Mortgage(-1))
    with pytest.raises(interpreter.StrategyError, match="Mortgage"):
        interpreter.play(ed, ["script", "script"], seed=3, max_turns=80, strategy_objects=[script, Script()])


def test_the_default_action_does_nothing_where_the_rules_let_a_player_do_nothing():
    """`actions.default`: Done, Pass, Decline, Reject, Roll, KeepMortgage when offered, else
    the first action offered (a `choose` option, a house to place, a way to raise money)."""
    assert A.default([A.Buy(1), A.Decline(1)]) == A.Decline(1)
    assert A.default([A.PASS, A.Bid(10), A.Bid(20)]) == A.PASS
    assert A.default([A.Preempt(60), A.PASS]) == A.PASS
    assert A.default([A.ACCEPT, A.REJECT]) == A.REJECT
    assert A.default([A.ROLL, A.USE_CARD, A.PAY_FINE]) == A.ROLL
    assert A.default([A.KeepMortgage(3), A.Unmortgage(3)]) == A.KeepMortgage(3)
    assert A.default([A.DONE, A.Build(1), A.Mortgage(3)]) == A.DONE
    assert A.default([A.Act(0, 4, "build"), A.DONE]) == A.DONE
    assert A.default([A.Choose(0, "Pay $200"), A.Choose(1, "Pay 10%")]) == A.Choose(0, "Pay $200")
    assert A.default([A.Mortgage(3), A.SellBuilding(1)]) == A.Mortgage(3)


# ---- the human prompt --------------------------------------------------------------------

def test_human_enter_takes_the_default_the_prompt_names():
    """Enter on an empty line is the default action (`actions.default`), named in the prompt;
    with one legal action, it is that one, and the prompt says it is the only choice."""
    prompts = []

    def enter(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) > 2:
            pytest.fail(f"prompted again: {prompts}")
        return ""
    human = Human(read=enter, write=lambda text: None)
    g = interpreter.new_game(edition("classic-us"), ["human", "heuristic"], seed=1)
    assert human.choose(g, 0, [A.Buy(1), A.Decline(1)]) == A.Decline(1)
    assert "Enter: 2. Decline" in prompts[-1]
    assert human.choose(g, 0, [A.DONE]) == A.DONE
    assert "Enter: 1. Done, the only choice" in prompts[-1]
    assert len(prompts) == 2


def human_game(typed: str, *args: str) -> subprocess.CompletedProcess:
    """`boardrules play` with a human in seat 0, fed `typed` on stdin (then EOF)."""
    command = [sys.executable, "-m", "boardrules", "play", "classic-us", "--players", "2", "--seed", "3",
               "--strategy", "human", "--strategy", "heuristic", *args]
    return subprocess.run(command, input=typed, capture_output=True, text=True, timeout=120)


def test_human_pressing_enter_plays_the_defaults_to_the_end():
    """Blank lines are choices (the defaults), not a prompt repeated forever: the game ends."""
    done = human_game("\n" * 3000, "--max-turns", "10")
    assert done.returncode == 0, done.stderr
    assert "type a number" not in done.stdout and "Traceback" not in done.stderr
    assert "winner" in done.stdout
    assert done.stdout.count("choose a number") < 3000


def test_human_input_ending_stops_the_game_cleanly():
    """Blank lines, then the input ends (EOF): one prompt per line and one more, then a
    clear message and exit status 2 (a closed terminal is bad input), no traceback."""
    done = human_game("\n" * 30)
    assert done.returncode == 2
    assert done.stdout.count("choose a number") == 31
    assert "input ended while seat 0 was choosing" in done.stderr and "Traceback" not in done.stderr
