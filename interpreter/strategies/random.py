"""The random player: uniform over the legal actions, from its own seeded RNG."""
from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..actions import Action
    from ..engine import Game


class RandomStrategy:
    name = "random"
    draws = True
    falls_back = True     # no legal answer: the engine takes the default (engine.Game.failed)

    def __init__(self, rng: Random | None) -> None:
        if rng is None:         # `draws`: `strategies.make` gives it one, seeded by the game
            raise ValueError("the random player draws: it needs its own seeded RNG")
        self.rng = rng

    def choose(self, game: Game, seat: int, actions: Sequence[Action]) -> Action:
        return actions[int(self.rng.random() * len(actions))]
