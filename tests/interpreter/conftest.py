"""Shared helpers for the engine tests: compiled editions, scripted strategies, fixed dice.

Every classic edition found in spec/ is played; a test that needs a particular decision
(`jail.fine_timing`, `rent.mortgaged_group`, ...) reads it from the IR and asserts what
that decision means, so the same test covers US, SE and NL.
"""
from __future__ import annotations

import pytest

import interpreter
import spec
from interpreter import actions as A
from interpreter.state import BANK
from interpreter.translate import Ctx

grammar = pytest.importorskip("grammar")

_EDITIONS: dict[str, interpreter.Edition] = {}


def classic_family() -> list[str]:
    """The concrete editions that extend `classic`: RULES-MATRIX §1 and §2 are their rules
    (Metropol, §5, is another game: tests/interpreter/test_metropol.py)."""
    out = []
    for name, path in sorted(spec.bundled().items()):
        text = path.read_text(encoding="utf-8")
        if not any(line.strip().startswith("abstract edition") for line in text.splitlines()) \
                and "classic" in edition(name).ir["edition"]["lineage"]:
            out.append(name)
    return out


def edition(name: str) -> interpreter.Edition:
    if name not in _EDITIONS:
        _EDITIONS[name] = interpreter.load(grammar.compile_file(str(spec.bundled()[name])))
    return _EDITIONS[name]


EDITIONS = classic_family()


@pytest.fixture(params=EDITIONS)
def ed(request) -> interpreter.Edition:
    return edition(request.param)


@pytest.fixture
def us() -> interpreter.Edition:
    return edition("classic-us")


class Dice:
    """A fixed dice source: the given rolls, in order; running out is a test error."""

    def __init__(self, rolls):
        self.rolls = list(rolls)

    def __call__(self, game):
        assert self.rolls, "the test ran out of scripted dice"
        return self.rolls.pop(0)


class Script:
    """A scripted strategy: `rules` maps an action class to a function (game, seat,
    actions) -> action, or to a fixed preference; otherwise Done / Decline / Pass /
    Roll / Reject / KeepMortgage / the first action. Records what it was offered."""

    def __init__(self, **rules):
        self.rules = rules
        self.offered = []

    def choose(self, game, seat, actions):
        self.offered.append(list(actions))
        for a in actions:
            rule = self.rules.get(type(a).__name__)
            if rule is True:
                return a
        for name, rule in self.rules.items():
            if callable(rule) and any(type(a).__name__ == name for a in actions):
                return rule(game, seat, actions)
        for default in (A.Done, A.Decline, A.Pass, A.Roll, A.Reject, A.KeepMortgage):
            for a in actions:
                if type(a) is default:
                    return a
        return actions[0]


def game(ed, players=2, strategies=None, dice=(), cash=None):
    """A set-up game with scripted strategies and (after setup) scripted dice."""
    strategies = strategies or [Script() for _ in range(players)]
    g = interpreter.new_game(ed, ["script"] * len(strategies), seed=7, log=True,
                             check_invariants=True, strategy_objects=strategies)
    g.dice_source = Dice(dice)
    g.state.order = list(range(len(strategies)))
    g.state.turn_index = 0
    if cash is not None:
        for p in g.players:
            give(g, p.seat, cash - p.cash)
    return g


def give(g, seat, amount):
    """Move money between the bank and a player (kept conserved)."""
    if amount > 0:
        g.transfer(BANK, seat, amount, "test")
    elif amount < 0:
        g.transfer(seat, BANK, -amount, "test")


def sq(ed, square_id: str) -> int:
    return ed.square_index[square_id]


def grp(ed, group_id: str) -> int:
    return ed.group_index[group_id]


def own(g, seat, *square_ids):
    for s in square_ids:
        g.set_owner(sq(g.edition, s) if isinstance(s, str) else s, seat)


def place(g, seat, square_id):
    p = g.players[seat]
    i = (sq(g.edition, square_id) if isinstance(square_id, str) else square_id) % g.edition.n   # `chest - 3` may be < 0
    p.progress += (i - p.position) % g.edition.n
    p.position = i


def turn(g, seat=0):
    g.play_turn(seat)


def ctx(seat, dice=0):
    return Ctx(seat, dice)


def decision(ed, key):
    section, name = key.split(".")
    return ed.settings[section][name]


def deck_with_top(g, deck_id, predicate):
    """Put the first card whose effect satisfies `predicate` on top of the deck; return its index."""
    d = g.edition.deck_index[deck_id]
    cards = g.edition.ir["decks"][d]["cards"]
    for i, card in enumerate(cards):
        if predicate(card["effect"]):
            g.state.decks[d].remove(i)
            g.state.decks[d].insert(0, i)
            return i
    pytest.skip(f"{g.edition.id}: no such card in deck {deck_id}")


def squares_drawing(ed, deck_id):
    return [i for i, s in enumerate(ed.ir["squares"]) if any(st.get("stmt") == "draw" and st.get("deck") == deck_id
                                                                for st in s.get("on_land") or [])]
