"""The random player: uniform over the legal actions, from its own seeded RNG."""
from __future__ import annotations


class RandomStrategy:
    name = "random"
    draws = True
    falls_back = True     # no legal answer: the engine takes the default (engine.Game.failed)

    def __init__(self, rng):
        self.rng = rng

    def choose(self, game, seat, actions):
        return actions[int(self.rng.random() * len(actions))]
