"""The random player: uniform over the legal actions, from its own seeded RNG."""
from __future__ import annotations


class RandomStrategy:
    name = "random"
    draws = True

    def __init__(self, rng):
        self.rng = rng

    def choose(self, game, seat, actions):
        return actions[int(self.rng.random() * len(actions))]
