"""Exploration: Hypothesis plays the real interpreter adversarially and checks every
invariant of the edition's IR after every event.

Hypothesis chooses everything the rules leave open: the number of players, the order of
every deck, every die, and every seat's choice among the legal actions the engine offers
(`Adversary.choose`). Swarm testing switches off some kinds of action per game (a game
where nobody mortgages builds high; one where nobody buys runs into auctions), and
others are taken whenever legal (a building race), and
`hypothesis.target` steers towards rare states: a housing shortage, bankruptcies, every way
out of jail, every card. `Counters` records what was exercised; `MINIMUMS` is what CI asks
of it, so a starved corner shows as a failing count rather than a silent pass.

A violation shrinks (Hypothesis) and is written as a trace file (verifier/trace.py) that
`boardrules replay` reproduces in the interpreter.
"""
from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, Phase, Verbosity, given, settings, target
from hypothesis import strategies as st
from hypothesis.internal.conjecture import engine
from hypothesis.internal.conjecture.data import ConjectureData
from hypothesis.strategies._internal.lazy import unwrap_strategies

import interpreter
from grammar.language import parts
from interpreter import actions as game_actions
from interpreter.invariants import InvariantViolation, event_checker

from . import trace as traces

# Long runs: BOARDRULES_EXPLORE_EXAMPLES overrides the number of games per edition.
DEFAULT_EXAMPLES = int(os.environ.get("BOARDRULES_EXPLORE_EXAMPLES", "40"))
DEFAULT_ROUNDS = 60          # rounds per explored game (every player one turn)
MAX_SEATS = 4                # more seats add little but length to a game
# Shrinking replays the failing game hundreds of times: bounded in seconds (Hypothesis's own
# bound is five minutes), a shorter trace is not worth more of a CI run.
SHRINK_SECONDS = int(os.environ.get("BOARDRULES_SHRINK_SECONDS", "10"))

# Action kinds Hypothesis may switch off for a whole game (swarm testing). When every legal
# action is switched off the seat chooses among all of them, so a game always goes on.
SWARM = ("Buy", "Decline", "Bid", "Pass", "Build", "BuildHotel", "SellBuilding", "Downgrade", "Mortgage",
         "Unmortgage", "ProposeTrade", "Accept", "Reject", "PayFine", "UseCard", "GiveDeed", "Done",
         "Preempt", "AuctionDeed", "Act")

# A building race (one swarm setting among the random ones, drawn for about one game in
# four): nobody mortgages or sells a building, and everybody builds whenever they can, so
# the bank runs out of houses (a mortgage blocks its group and raising money sells houses:
# with either allowed, random play almost never empties the bank).
RACE_OFF, RACE_EAGER = frozenset({"Mortgage", "SellBuilding"}), frozenset({"Build"})

# The phase of the game a choice belongs to, by the kinds of action offered (the first kind
# listed that is offered names it).
PHASES = (("Preempt", "preemption"), ("Buy", "buy_or_decline"), ("Bid", "auction"), ("Pass", "auction"),
          ("Accept", "trade_reply"), ("Choose", "card_choice"), ("KeepMortgage", "mortgaged_deed"),
          ("GiveDeed", "raise_money"), ("AuctionDeed", "raise_money"), ("Act", "end_of_turn"),
          ("Done", "manage"), ("Roll", "jail"))
# A list with the spec's actions belongs to the window the engine asks it in (`game.pending`:
# the window's name, or the debt while raising money).
WINDOW_PHASES = {"before_roll": "manage", "end_of_turn": "end_of_turn"}

# What CI asks of an exploration of a complete edition: every kind of choice made, every
# phase reached, every way out of jail, both kinds of bankruptcy, a housing shortage and
# every card drawn (`card:*`: each card of each deck), as far as the edition's rules have
# them (`minimums`). Names only: no edition facts.
MINIMUMS = {
    **{f"phase:{phase}": 1 for _, phase in PHASES if phase not in ("card_choice",)},
    **{f"action:{kind}": 1 for kind in ("Buy", "Decline", "Bid", "Pass", "Build", "BuildHotel", "SellBuilding",
                                          "Mortgage", "Unmortgage", "PayFine", "UseCard", "Roll", "Done",
                                          "ProposeTrade", "Accept", "Reject", "Preempt", "AuctionDeed", "Act")},
    **{f"jail_exit:{how}": 1 for how in ("card", "fine", "double", "forced")},
    "bankrupt:bank": 1, "bankrupt:player": 1, "shortage:houses": 1,
    "card:*": 1,
}
# The part of the rules a minimum needs, by name prefix (an edition without it is not asked).
NEEDS = {
    "phase:buy_or_decline": "buying", "action:Buy": "buying", "action:Decline": "buying",
    "action:Build": "houses", "action:BuildHotel": "houses", "action:SellBuilding": "houses",
    "shortage:houses": "houses",
    "phase:mortgaged_deed": "mortgage", "action:Mortgage": "mortgage", "action:Unmortgage": "mortgage",
    "phase:jail": "jail", "action:PayFine": "jail", "action:UseCard": "jail", "action:Roll": "jail",
    "jail_exit:": "jail",
    "phase:raise_money": "raising", "phase:preemption": "preemption", "action:Preempt": "preemption",
    "action:AuctionDeed": "forced_sales", "phase:end_of_turn": "end_of_turn", "action:Act": "actions",
}


def _offers(edition: interpreter.Edition, name: str) -> bool:
    """Whether the edition's rules can produce the counter (or the action kind) `name`."""
    rules = {"buying": not edition.auction_only, "preemption": edition.preempt is not None,
             "forced_sales": edition.debt_auction, "raising": edition.debt_auction or edition.pay_with_deeds,
             "actions": bool(edition.actions), "end_of_turn": bool(edition.end_of_turn)}
    # parts: jail, houses, mortgage
    has = parts(edition.settings) | {part for part, offered in rules.items() if offered}
    return all(part in has for prefix, part in NEEDS.items() if name.startswith(prefix))


def minimums(edition: interpreter.Edition) -> dict[str, int]:
    """MINIMUMS, less what the edition's rules never offer (Metropol has no jail, no houses,
    no mortgages and no purchase at a price; the classic game has no pre-emption)."""
    return {name: least for name, least in MINIMUMS.items() if _offers(edition, name)}


def swarm(edition: interpreter.Edition) -> list[str]:
    """The action kinds of SWARM the edition can offer: the ones worth switching off."""
    return [kind for kind in SWARM if _offers(edition, f"action:{kind}")]


@dataclass
class Counters:
    """How often each rule (event type), choice, phase, card and rare state was exercised."""

    games: int = 0
    events: int = 0
    counts: Counter = field(default_factory=Counter)

    def event(self, edition: interpreter.Edition, game: interpreter.Game, event: dict) -> None:
        self.events += 1
        kind = event.get("type")
        self.counts[f"rule:{kind}"] += 1
        if kind == "draw":
            self.counts[f"card:{edition.decks[event['deck']]['key']}#{event['card']}"] += 1
        elif kind == "leave_jail":
            self.counts[f"jail_exit:{event['how']}"] += 1
        elif kind == "bankrupt":
            self.counts["bankrupt:bank" if event["creditor"] < 0 else "bankrupt:player"] += 1
        if game.state.bank_houses == 0 and edition.stock_houses and game.state.owner:
            self.counts["shortage:houses"] += 1

    def choice(self, actions: list, chosen: object, about: object = None) -> None:
        """Count a choice among `actions`; `about` is what the engine said it is about."""
        kinds = {type(a).__name__ for a in actions}
        if "Act" in kinds:
            phase = WINDOW_PHASES[about] if isinstance(about, str) else "raise_money"
        else:
            phase = next((name for kind, name in PHASES if kind in kinds), "other")
        self.counts[f"phase:{phase}"] += 1
        self.counts[f"action:{type(chosen).__name__}"] += 1

    def shortfalls(self, edition: interpreter.Edition) -> dict[str, tuple[int, int]]:
        """Every counter under its minimum, as name -> (count, minimum)."""
        out = {}
        for name, least in minimums(edition).items():
            if name == "card:*":
                for d, deck in enumerate(edition.decks):
                    for card in range(len(edition.cards[d])):
                        key = f"card:{deck['key']}#{card}"
                        if self.counts[key] < least:
                            out[key] = (self.counts[key], least)
            elif self.counts[name] < least:
                out[name] = (self.counts[name], least)
        return out

    def to_json(self) -> dict:
        return {"games": self.games, "events": self.events, "counts": dict(sorted(self.counts.items()))}


@dataclass
class Exploration:
    """What exploring one edition found: the counters, and one trace per violated invariant."""

    counters: Counters
    violations: list[traces.Trace]
    examples: int
    rounds: int
    shortfalls: dict[str, tuple[int, int]]      # counters under their minimum: (count, minimum)


class Adversary:
    """A seat's strategy whose every choice Hypothesis makes (among the legal actions of the
    kinds this game allows; all of them when it allows none)."""

    name = "explorer"

    def __init__(self, pick: Callable[[int, int], int], off: frozenset[str], eager: frozenset[str], record: list[dict],
                 counters: Counters) -> None:
        self.pick, self.off, self.eager, self.record, self.counters = pick, off, eager, record, counters

    def choose(self, game: interpreter.Game, seat: int, actions: list) -> object:
        allowed = [a for a in actions if type(a).__name__ not in self.off] or list(actions)
        allowed = [a for a in allowed if type(a).__name__ in self.eager] or allowed
        chosen = allowed[self.pick(0, len(allowed) - 1)]
        self.record.append({"seat": seat, "action": game_actions.to_json(chosen)})
        self.counters.choice(actions, chosen, game.pending)
        return chosen


# What `draw(st.integers(lo, hi))` marks its one choice with (the strategy's class label).
INTEGERS = unwrap_strategies(st.integers(0, 1)).label


def _integers(data: ConjectureData) -> Callable[[int, int], int]:
    """`pick(lo, hi)`: what `data.draw(st.integers(lo, hi))` draws, with the same span around
    the same integer choice, so Hypothesis sees the same test case; the dice and the seats'
    choices are most of the draws, and this skips the strategy's per-draw bookkeeping
    (validation, unwrapping, timing, labels of `st.data()` for a report we do not print).
    Wider ranges, whose ends Hypothesis weights, take the strategy's own path.
    tests/verifier/test_explore.py checks both make the same test case."""
    def pick(lo: int, hi: int) -> int:
        if hi - lo > 127:
            return data.draw(st.integers(lo, hi))
        data.start_span(INTEGERS)
        try:
            return data.draw_integer(lo, hi)
        finally:
            data.stop_span()
    return pick


def _game(edition: interpreter.Edition, data: st.DataObject, counters: Counters, skip: frozenset[str], rounds: int,
          sink: list[traces.Inputs]) -> None:
    """Play one game with every open decision drawn from `data`; what was drawn goes to
    `sink` first (so a game that breaks an invariant leaves its inputs behind)."""
    limits = edition.settings["game"]["players"]
    players = data.draw(st.integers(limits["min"], max(limits["min"], min(limits["max"], MAX_SEATS))), label="players")
    kinds = swarm(edition)
    off = frozenset(data.draw(st.sets(st.sampled_from(kinds)), label="actions switched off"))
    eager = frozenset(data.draw(st.sets(st.sampled_from(kinds)), label="actions taken whenever legal"))
    if data.draw(st.integers(0, 3), label="a building race") == 0:
        off, eager = (off | RACE_OFF) - RACE_EAGER, (eager | RACE_EAGER) - RACE_OFF
    decks = [data.draw(st.permutations(range(len(cards))), label=f"deck {deck['key']}")
             for deck, cards in zip(edition.decks, edition.cards, strict=True)]
    inputs = traces.Inputs(players=players, seed=0, rounds=rounds, decks=[list(d) for d in decks], dice=[], choices=[])
    sink.append(inputs)
    pick = _integers(data.conjecture_data)

    def dice(game: interpreter.Game) -> list[int]:
        throw = [pick(1, edition.faces) for _ in range(edition.dice)]
        inputs.dice.append(throw)
        return throw

    check = event_checker(skip)

    peak = [0]
    ruined: Counter[str] = Counter()          # bankruptcies in this game, by creditor: the bank or a player
    # The least cash a player kept after paying the bank: a slope towards ruin by the bank,
    # which Hypothesis can climb where such a bankruptcy is too rare to be met by chance.
    least_after_bank = [float("inf")]

    def hook(game: interpreter.Game, event: dict) -> None:
        counters.event(edition, game, event)
        peak[0] = max(peak[0], edition.stock_houses - game.state.bank_houses)
        if event.get("type") == "bankrupt":
            ruined["bank" if event["creditor"] < 0 else "player"] += 1
        elif event.get("type") == "transfer" and event["payee"] < 0 <= event["payer"]:
            least_after_bank[0] = min(least_after_bank[0], game.state.players[event["payer"]].cash)
        check(game, event)

    seats = [Adversary(pick, off, eager, inputs.choices, counters) for _ in range(players)]
    game = traces.start(edition, inputs, dice, seats, hook, skip)
    counters.games += 1
    try:
        game.run()
    finally:
        state = game.state
        target(float(peak[0]), label="most houses out of the bank")
        target(float(ruined["bank"]), label="bankruptcies to the bank")
        target(float(ruined["player"]), label="bankruptcies to a player")
        if least_after_bank[0] < float("inf"):
            target(-float(least_after_bank[0]), label="least cash after paying the bank")
        target(float(sum(len(player.cards) for player in state.players)), label="kept cards")


@contextmanager
def _shrink_budget(seconds: int) -> Iterator[None]:
    """Hypothesis bounds shrinking by a module constant (no setting exists): lowered here."""
    saved = engine.MAX_SHRINKING_SECONDS
    engine.MAX_SHRINKING_SECONDS = seconds
    try:
        yield
    finally:
        engine.MAX_SHRINKING_SECONDS = saved


def explore(ir: dict, examples: int = DEFAULT_EXAMPLES, rounds: int = DEFAULT_ROUNDS, spec: str | None = None,
            trace_dir: Path | None = None, searches: int | None = None) -> Exploration:
    """Explore one edition: `examples` games per search, a new search after each violation
    (with the invariants already violated no longer checked) until one finds nothing, or
    `searches` searches were made."""
    edition = interpreter.load(ir)
    counters = Counters()
    found: list[traces.Trace] = []
    names = {name for name, _, _ in edition.invariants} | {prop["name"] for prop in ir.get("steps", [])}
    for _ in range(len(names) if searches is None else searches):
        skip = frozenset(t.violation["invariant"] for t in found)
        last: list[traces.Inputs] = []
        try:
            _search(edition, counters, skip, examples, rounds, last)
            break
        except InvariantViolation as violation:
            found.append(traces.from_run(ir, edition, spec, last[-1], violation, skip, trace_dir))
    return Exploration(counters, found, examples, rounds, counters.shortfalls(edition))


def _search(ed: interpreter.Edition, counters: Counters, skip: frozenset[str], examples: int, rounds: int,
            last: list[traces.Inputs]) -> None:
    """One Hypothesis search: `examples` games, the invariants in `skip` not checked; each
    game's inputs go to `last` as it starts. `search` keeps its text and its indentation (and
    so the name `ed`): Hypothesis derives the derandomized search's seed from them."""
    with _shrink_budget(SHRINK_SECONDS):
        @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck), report_multiple_bugs=False, verbosity=Verbosity.quiet,
                  phases=(Phase.generate, Phase.target, Phase.shrink))
        @given(st.data())
        def search(data):
            _game(ed, data, counters, skip, rounds, last)

        search()
