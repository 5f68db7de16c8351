"""The heuristic's fast paths (`manage_fast`, `raise_fast`) give the same answer as its
choice from the engine's full list of legal actions, at every manage window and every
step of raising money, in whole games of every edition (DESIGN principle 5: the fast
path is a shortcut, not another player). Its word (`Shortcuts.promise`: Done while cash is
below a mark, or below another while the version stands) holds wherever it would spare a call."""
from __future__ import annotations

import pytest

import interpreter
from interpreter import actions as A
from interpreter.shortcuts import INF, Shortcuts
from interpreter.strategies.heuristic import Heuristic
from tests.interpreter.conftest import EDITIONS, edition


class Checked(Heuristic):
    """A heuristic that also works out each fast answer from the list and compares. It
    takes its word back (`Shortcuts.withdraw`), so the engine asks it every time and the word
    is checked at every window."""

    def __init__(self, rng=None):
        super().__init__(rng)
        self.compared = 0
        self.words: dict[int, tuple] = {}

    def manage_fast(self, game, seat):
        tried, proposed_on = dict(self.tried), self.proposed_on
        fast = super().manage_fast(game, seat)
        self.tried, self.proposed_on = tried, proposed_on
        # the engine offers trades until one is proposed this window; the heuristic
        # proposes at most one per turn, so its own record stands for the engine's
        listed = self.manage(game, seat, game.manage_actions(seat, proposed_on != game.state.turns))
        assert fast == listed, f"seat {seat}, turn {game.state.turns}: fast {fast!r}, from the list {listed!r}"
        shortcuts = game.shortcuts
        word = self.words.get(seat)      # (version, below, least), as given
        cash = game.players[seat].cash
        if word is not None and (cash < word[2] or word[0] == shortcuts.versions[seat] and cash < word[1]):
            assert type(listed) is A.Done, f"seat {seat}, turn {game.state.turns}: word {word}, yet {listed!r}"
        if shortcuts.done_below[seat] != -INF:
            self.words[seat] = (shortcuts.versions[seat], shortcuts.done_below[seat], shortcuts.least[seat])
            shortcuts.withdraw(seat)
        self.compared += 1
        return fast

    def raise_fast(self, game, seat, owed, creditor, refused):
        fast = super().raise_fast(game, seat, owed, creditor, refused)
        actions = game.raise_actions(seat, creditor, owed, refused)
        listed = self.raise_money(game, seat, actions) if actions else None
        assert fast == listed, f"seat {seat}, owing {owed}: fast {fast!r}, from the list {listed!r}"
        self.compared += 1
        return fast


@pytest.mark.parametrize("name", EDITIONS)
def test_fast_answers_match_the_listed_ones(name):
    ed = edition(name)
    compared = 0
    for seed in range(40):
        players = ["heuristic"] * (2 + seed % 3)
        strategies = [Checked() for _ in players]
        game = interpreter.new_game(ed, players, seed=seed, log=False, strategy_objects=strategies)
        game.run()
        compared += sum(s.compared for s in strategies)
    assert compared > 1000


class _Fast:
    def manage_fast(self, game, seat):
        return A.DONE


def test_a_word_holds_until_the_version_moves_then_keeps_its_least():
    """`promise(seat, cash, least)`: Done below `cash` while the version stands, below
    `least` after; a strategy without `manage_fast` has no word (never spared)."""
    shortcuts = Shortcuts([_Fast(), object()])
    assert shortcuts.manage_fast[1] is None and shortcuts.raise_fast == [None, None]
    assert shortcuts.done_below == [-INF, -INF]
    shortcuts.promise(0, 500, 200)
    assert shortcuts.done_below[0] == 500
    shortcuts.moved(0)
    assert (shortcuts.versions, shortcuts.done_below[0]) == ([1, 0], 200)
    shortcuts.promise(0, 100, 200)            # a mark below `least`: `least` holds
    assert shortcuts.done_below[0] == 200
    shortcuts.withdraw(0)
    assert shortcuts.done_below[0] == -INF
    shortcuts.moved(0)
    assert shortcuts.done_below[0] == -INF    # no word: still none


def test_a_deed_changing_hands_moves_who_watches_its_group():
    """The old holder's version always moves; another holder's only for a group it watches
    (`watching`, None: every group); the new holder's once it holds as many deeds of the
    group as it counts from (`receiving`), or at once for a mortgaged deed."""
    shortcuts = Shortcuts([_Fast(), _Fast(), _Fast()])
    counts = [[1, 0], [2, 0], [1, 0]]            # seat 1 now holds 2 deeds of group 0
    shortcuts.watching = [[1], None, [0]]
    shortcuts.receiving = [None, [3, 3], None]
    shortcuts.changed_hands(0, 0, 1, False, [0, 1, 2], counts)
    assert shortcuts.versions == [1, 0, 1]       # seat 0 held it; seat 1 counts from 3; seat 2 watches
    shortcuts.changed_hands(0, -1, 1, True, [0, 1, 2], counts)
    assert shortcuts.versions == [1, 1, 2]       # from the bank, mortgaged: seat 0 watches group 1 only
