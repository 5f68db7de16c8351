"""The game engine: plays any edition from its IR (plain JSON data, docs/ir.md).

    edition = interpreter.load(ir)                   # compiled once
    result = interpreter.play(edition, ["heuristic", "random"], seed=1)
    result.summary()                                 # JSON-ready dict
    interpreter.replay(edition, result.log())        # same final state, or ReplayError
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from . import native

native.guard(__name__)      # before the engine's modules below: a stale compiled one is not loaded

from . import actions, strategies
from .edition import Edition
from .engine import Game, StrategyError
from .errors import RuleError
from .invariants import InvariantViolation, event_checker
from .replay import Replayer, ReplayError, first_difference, recorded_choices
from .state import BANK, GameState, Player
from .translate import CompileError, Ctx

if TYPE_CHECKING:
    from .parts import Strategy

__all__ = ["load", "play", "replay", "Edition", "GameResult", "GameState", "Player", "ReplayError",
           "CompileError", "StrategyError", "RuleError", "InvariantViolation", "strategies", "actions", "BANK",
           "new_game"]


def load(ir: dict) -> Edition:
    """Compile an edition's IR for play (once; an Edition is reusable and read-only)."""
    return Edition(ir)


class GameResult:
    def __init__(self, edition: Edition, game: Game, header: dict):
        self.edition = edition
        self.game = game
        self.state: GameState = game.state
        self.events: list[dict] = game.events
        self.header = header

    def summary(self) -> dict:
        st, game = self.state, self.game
        scores = game.final_scores or game.scores()
        ranking = game.standings(scores)
        return {
            "edition": st.edition,
            "seed": st.seed,
            "players": [{"seat": p.seat, "strategy": p.strategy} for p in st.players],
            "turns": st.turns,
            "rounds": st.rounds,
            "winner": st.winner,
            "ended_by": st.ended_by,
            "standings": [{"seat": q, "strategy": st.players[q].strategy, "cash": st.players[q].cash,
                           "score": scores[q], "bankrupt": st.players[q].bankrupt} for q in ranking],
            "landings": list(st.landings),
        } | ({"statistics": {name: game.edition.money(f(game, Ctx())) for name, f in game.edition.statistics}}
             if game.edition.statistics else {})

    def log(self) -> dict:
        """The game log: header, events, final state (JSON-ready)."""
        return {"header": dict(self.header), "events": self.events, "final": self.state.to_json()}


def new_game(edition: Edition, players: list[str], seed: int, max_turns: int | None = None,
             log: bool = True, check_invariants: bool = False, dice: Callable[[Game], Iterable[int]] | None = None,
             strategy_objects: list[Strategy] | None = None) -> Game:
    """A set-up game, not yet played (tests drive it; `play` runs it)."""
    if not isinstance(edition, Edition):
        edition = load(edition)
    checker = event_checker() if check_invariants else None
    objs = strategy_objects or [strategies.make(name, seed, seat) for seat, name in enumerate(players)]
    return Game(edition, objs, list(players), seed, max_turns, log, checker, dice)


def _header(edition: Edition, players: list[str], seed: int, max_turns: int | None) -> dict:
    return {"spec": edition.id, "edition": edition.id, "ir_hash": edition.hash, "seed": seed,
            "players": list(players), "max_turns": max_turns}


def play(edition: Edition, players: list[str], seed: int, max_turns: int | None = None, log: bool = True,
         check_invariants: bool = False, dice: Callable[[Game], Iterable[int]] | None = None,
         strategy_objects: list[Strategy] | None = None) -> GameResult:
    """Play one game to its end (or the turn cap: `max_turns` rounds, default
    `settings.game.turn_cap`). `strategy_objects` replaces the strategies named in
    `players` (the CLI wraps the human one so the story is told as it happens)."""
    game = new_game(edition, players, seed, max_turns, log, check_invariants, dice, strategy_objects)
    game.run()
    return GameResult(game.edition, game, _header(game.edition, players, seed, max_turns))


def replay(edition: Edition, log_dict: dict) -> GameResult:
    """Re-run a logged game with its seed and recorded choices; the events and the final
    state must be the logged ones, else `ReplayError` says where they part."""
    if not isinstance(edition, Edition):
        edition = load(edition)
    if not isinstance(log_dict, dict):
        raise ReplayError("a game log is a JSON object with header, events and final")
    header, events, final = log_dict.get("header"), log_dict.get("events"), log_dict.get("final")
    if not isinstance(header, dict) or not isinstance(events, list) or not isinstance(final, dict):
        raise ReplayError("the game log needs a `header` object, an `events` list and a `final` object")
    seed, players, max_turns = header.get("seed"), header.get("players"), header.get("max_turns")
    if type(seed) is not int or not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ReplayError("the log header needs an integer `seed` and the `players` strategy names")
    if max_turns is not None and type(max_turns) is not int:
        raise ReplayError("the log header's `max_turns` must be an integer or null")
    if header.get("ir_hash") not in (None, edition.hash):
        raise ReplayError(f"the log was written for another version of edition `{header.get('edition')}` "
                          f"(IR hash differs)")
    choices = recorded_choices(events)
    replayer = Replayer(choices)
    game = Game(edition, [replayer] * len(players), list(players), seed, max_turns, True, None, None)
    try:
        game.run()
    except ReplayError:
        raise
    except (StrategyError, KeyError, IndexError, TypeError, ValueError) as error:
        raise ReplayError(f"the log does not replay: {error}") from None
    if len(game.events) != len(events):
        diff = first_difference(game.events, events, "events")
        raise ReplayError(f"the replay gives {len(game.events)} events, the log has {len(events)}; "
                          f"first difference: {diff}")
    diff = first_difference(game.events, events, "events")
    if diff:
        raise ReplayError(f"the replay differs from the log at {diff}")
    diff = first_difference(game.state.to_json(), final, "final")
    if diff:
        raise ReplayError(f"the replayed final state differs from the log at {diff}")
    return GameResult(edition, game, dict(header))
