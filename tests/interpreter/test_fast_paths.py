"""The heuristic's fast paths (`manage_fast`, `raise_fast`) give the same answer as its
choice from the engine's full list of legal actions, at every manage window and every
step of raising money, in whole games of every edition (DESIGN principle 5: the fast
path is a shortcut, not another player). Its word in `game.quiet` (Done while cash is
below a mark, or below another while the version stands) holds wherever it would spare a call."""
from __future__ import annotations

import pytest

import interpreter
from interpreter import actions as A
from interpreter.strategies.heuristic import Heuristic
from tests.interpreter.conftest import EDITIONS, edition


class Checked(Heuristic):
    """A heuristic that also works out each fast answer from the list and compares. It
    takes its word back from `game.quiet`, so the engine asks it every time and the word
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
        word = self.words.get(seat)
        cash = game.players[seat].cash
        if word is not None and (cash < word[2] or word[0] == game.versions[seat] and cash < word[1]):
            assert type(listed) is A.Done, f"seat {seat}, turn {game.state.turns}: quiet {word}, yet {listed!r}"
        if game.quiet[seat] is not None:
            self.words[seat], game.quiet[seat] = game.quiet[seat], None
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
