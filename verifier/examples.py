"""Worked examples (docs/language.md, "Examples"): each `example` of an edition played in the
interpreter and its expectations read afterwards.

    run_all(ir) -> [Outcome]        # one per example, in the order written (parents' first)
    run_laid(base, ir) -> ([Outcome], [LeftOut])   # under variants: theirs, and the edition's they leave alone

An example starts from the game after its start money and roll-off with every deed at the
bank, every token on the start square and every player's cash at `money.start` (what a
`setup` block deals at random is undone: the example says who holds what). Its set-up lines
change that state; then each `turn` is played by the engine with the throws given, every
choice the cautious one (done, decline, pass, roll, reject, keep the mortgage) unless the
line names another (`buys`, `pays fine`, `uses card`, `builds hotel`, `builds houses`,
`mortgages` a deed, `lifts` a mortgage,
`sells buildings`, `trades hotels` for houses: taken whenever offered;
`sells ... to BUYER for N`: offered at the first manage window if the rules allow it, and
accepted; `BIDDER bids up to N`: in an auction the bidder raises by the smallest raise while
the bid stays within N); then every `expect` must hold. The
invariants are checked after the set-up and after every event, as in exploration.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from numbers import Rational
from pathlib import Path

import interpreter
from grammar.language import PERCENT
from interpreter import actions as game_actions
from interpreter.engine import Game
from interpreter.invariants import InvariantViolation, check_all, event_checker
from interpreter.parts import Strategy
from interpreter.replay import first_difference
from interpreter.state import BANK, GameState, Player
from interpreter.translate import CompileError, Compiler, Ctx
from spec import bundled, bundled_variants

CHOICES = {"buy": game_actions.Buy, "pay_fine": game_actions.PayFine, "use_card": game_actions.UseCard,
           "build_hotel": game_actions.BuildHotel, "build_houses": game_actions.Build,
           "mortgage": game_actions.Mortgage, "lift": game_actions.Unmortgage,
           "sell_buildings": game_actions.SellBuilding, "trade_hotels": game_actions.Downgrade}
CAUTIOUS = (game_actions.Done, game_actions.Decline, game_actions.Pass, game_actions.Roll, game_actions.Reject,
            game_actions.KeepMortgage)


@dataclass
class Outcome:
    """One example's verdict: `line` is where it failed (the failing line of the example),
    or the example's own line when it passed."""

    name: str
    text: str
    origin: str          # the edition whose file holds the example
    line: int
    passed: bool
    why: str = ""

    def to_json(self) -> dict:
        return {"name": self.name, "origin": self.origin, "line": self.line, "passed": self.passed} \
            | ({"why": self.why} if self.why else {})


@dataclass
class LeftOut:
    """An edition's example not played under the variants laid over it, as they change its
    play (`why`: the first difference)."""

    name: str
    origin: str
    line: int
    why: str

    def to_json(self) -> dict:
        return {"name": self.name, "origin": self.origin, "line": self.line, "why": self.why}


class _Failed(Exception):
    """The example does not hold; `line` is the line of the example at fault."""

    def __init__(self, line: int, why: str):
        super().__init__(why)
        self.line = line
        self.why = why


class _Seat:
    """A player of an example: the cautious choice, or the one its current turn names."""

    def __init__(self, name: str):
        self.name = name
        self.prefer: tuple = ()
        self.labels: tuple = ()      # the options and end-of-turn actions its turn names (`chooses "LABEL"`)
        self.sale: game_actions.ProposeTrade | None = None     # its turn's `sells`: offered at the first manage window
        self.limit = 0               # `bids up to N` in this turn: the highest bid it makes
        self.line = 0

    def choose(self, game, seat, actions):
        if self.sale is not None and any(type(a) is game_actions.Done for a in actions):
            sale, self.sale = self.sale, None
            if game.valid_trade(seat, sale):     # one the rules refuse is not made
                return sale
        bids = [a for a in actions if type(a) is game_actions.Bid and a.amount <= self.limit]
        if bids:
            return min(bids, key=lambda bid: bid.amount)     # the smallest raise
        for a in actions:
            if type(a) in self.prefer or type(a) in (game_actions.Choose, game_actions.Act) and a.label in self.labels:
                return a
        for kind in CAUTIOUS:
            for a in actions:
                if type(a) is kind:
                    return a
        options = [f'"{a.label}"' for a in actions if type(a) is game_actions.Choose]
        if options:
            raise _Failed(self.line, f"{self.name} must choose among the options {', '.join(options)}, and the "
                                     "turn names none of them (`chooses \"LABEL\"`)")
        offered = ", ".join(sorted({type(a).__name__ for a in actions}))
        raise _Failed(self.line, f"{self.name} must choose among {offered}, and the example does not say what")


class _Throws:
    """The dice of one `turn`: the throws written, in order; running out is the example's fault."""

    def __init__(self, throws: list[list[int]], who: str, line: int):
        self.left = [tuple(t) for t in throws]
        self.who = who
        self.line = line

    def __call__(self, game):
        if not self.left:
            raise _Failed(self.line, f"{self.who} throws again, and the turn gives no more throws")
        return self.left.pop(0)


def run_all(ir: dict) -> list[Outcome]:
    """Every example of the edition, played; an edition that cannot be loaded fails them all."""
    examples = ir.get("examples") or []
    if not examples:
        return []
    try:
        edition = interpreter.load(ir)
    except (CompileError, KeyError, IndexError, TypeError, ValueError) as error:
        return [Outcome(x["name"], x["text"], x["origin"], x["written_at"][0], False,
                        f"the edition does not load: {error}") for x in examples]
    return [run(edition, x) for x in examples]


def run(edition: interpreter.Edition, example: dict) -> Outcome:
    """One example played on a loaded edition: passed, or where and why it fails."""
    return _played(edition, example)[0]


def run_laid(base: dict, ir: dict) -> tuple[list[Outcome], list[LeftOut]]:
    """The examples of `ir`, an edition (`base`) with variants laid over it: each variant's
    own, played; and each of the edition's, played on both and kept when the variants change
    nothing of its play (the same events, the same end state, the same outcome), else left
    out, saying where its play first differs (docs/verifier.md, "Examples under variants")."""
    laid = set(ir["edition"].get("variants") or ())
    examples = ir.get("examples") or []
    if not examples:
        return [], []
    try:
        edition, beneath = interpreter.load(ir), interpreter.load(base)
    except (CompileError, KeyError, IndexError, TypeError, ValueError) as error:
        return [Outcome(x["name"], x["text"], x["origin"], x["written_at"][0], False,
                        f"the edition does not load: {error}") for x in examples], []
    outcomes, left = [], []
    for example in examples:
        played = _played(edition, example)
        why = "" if example["origin"] in laid else _changed(_played(beneath, example), played)
        if why:
            left.append(LeftOut(example["name"], example["origin"], example["written_at"][0], why))
        else:
            outcomes.append(played[0])
    return outcomes, left


Play = tuple[Outcome, list[dict], dict | None]     # an example's outcome, its turns' events, its end state


def _played(edition: interpreter.Edition, example: dict) -> Play:
    """An example played, with what its play did: the events of its turns and the state it
    ends in (None when its set-up already fails)."""
    name, text, origin, line = example["name"], example["text"], example["origin"], example["written_at"][0]
    seen: dict = {}
    try:
        _play(edition, example, seen)
    except _Failed as failed:
        outcome = Outcome(name, text, origin, failed.line, False, failed.why)
    else:
        outcome = Outcome(name, text, origin, line, True)
    game = seen.get("game")
    return outcome, game.events if game else [], game.state.to_json() if game else None


def _changed(before: Play, after: Play) -> str:
    """Where an example's play on the edition (`before`) and under the variants (`after`)
    first differs: its outcome, an event of its turns, its end state ("" when nowhere)."""
    (was, old, end), (now, new, later) = before, after
    if (was.passed, was.line, was.why) != (now.passed, now.line, now.why):
        return f"its outcome changes: on the edition it {_told(was)}; under the variants it {_told(now)}"
    for k, (a, b) in enumerate(zip(old, new, strict=False)):
        where = first_difference(a, b, f"event {k + 1} ({a.get('type')}{_reason(a)})")
        if where:
            return f"its play changes at {where} (the edition's, then the variants')"
    if len(old) != len(new):
        return f"its turns make {len(old)} events on the edition, {len(new)} under the variants"
    if end is not None and later is not None and not any(later["pots"][len(end["pots"]):]):
        later = later | {"pots": end["pots"]}        # a pot the variants add, still empty, changes nothing
    where = first_difference(end, later, "end state")
    return f"its end state changes: {where} (the edition's, then the variants')" if where else ""


def _reason(event: dict) -> str:
    return f", {event['reason']}" if "reason" in event else ""


def _told(outcome: Outcome) -> str:
    return "holds" if outcome.passed else f"fails at line {outcome.line} ({outcome.why})"


def _play(edition: interpreter.Edition, example: dict, seen: dict) -> None:
    """Play one example (`seen["game"]`: the game, once its set-up is made), or raise
    `_Failed` where it fails."""
    seats = {who: k for k, who in enumerate(example["players"])}
    players = [_Seat(who) for who in example["players"]]
    seated: list[Strategy] = list(players)
    game = interpreter.new_game(edition, ["example"] * len(players), seed=0, log=False, strategy_objects=seated)
    state = game.state
    steps = example["steps"]
    first_turn = next((k for k, step in enumerate(steps) if step["step"] == "turn"), len(steps))
    with _watching(edition):
        for player in game.players:                 # the example says who holds what: undo a dealt start
            player.cash, state.bank_ledger = edition.start_money, state.bank_ledger + player.cash - edition.start_money
        state.owner = [BANK if owner >= 0 else owner for owner in state.owner]
        state.order, state.turn_index = list(range(len(players))), 0
        for step in steps[:first_turn]:
            _set_up(edition, game, step, seats)
    game = seen["game"] = getattr(edition, "game_class", Game)(edition, seated, ["example"] * len(players), 0, None,
                                                               True, _unwatched(edition, event_checker()), None,
                                                               state=state)
    try:
        check_all(game)
    except InvariantViolation as broken:
        raise _Failed(steps[first_turn - 1]["written_at"][0] if first_turn else example["written_at"][0],
                      f"the set-up breaks invariant `{broken.invariant}` ({broken.message})") from None
    for step in steps[first_turn:]:         # the grammar puts every turn after the set-up
        _turn(edition, game, step, seats, players)
    compiler = Compiler(edition)
    env = {who: (True, seat) for who, seat in seats.items()}
    for expect in example["expect"]:
        _check(compiler, env, game, expect)


@contextmanager
def _watching(edition: interpreter.Edition) -> Iterator[None]:
    """The example's play proper (its start money, its set-up, its turns), during which a
    watched edition (verifier/coverage.py) records what is read; a plain one has no `watch`."""
    watch = getattr(edition, "watch", None)
    if watch is None:
        yield
        return
    watch.on = True
    try:
        yield
    finally:
        watch.on = False


def _unwatched(edition: interpreter.Edition, checker: Callable) -> Callable:
    """The invariants' checks after each event, which are no part of the example's play:
    what they read is not recorded."""
    watch = getattr(edition, "watch", None)
    if watch is None:
        return checker

    def checked(game: Game, event: dict) -> None:
        on, watch.on = watch.on, False
        try:
            checker(game, event)
        finally:
            watch.on = on
    return checked


def _set_up(edition: interpreter.Edition, game: Game, step: dict, seats: dict[str, int]) -> None:
    """One set-up line, written straight into the state (it describes a position, not how
    it came about); the invariants are checked once the set-up is complete."""
    squares = [edition.square_index[sid] for sid in step.get("squares", ())]
    if step["step"] in PLAYER_STEPS:
        _set_up_player(edition, game.state, game.players[seats[step["player"]]], step, squares)
    else:
        _set_up_board(edition, game.state, step, squares)


PLAYER_STEPS = ("give", "cash", "put", "mark", "jail", "set_player")    # the set-up lines that name a player


def _set_up_player(edition: interpreter.Edition, state: GameState, player: Player, step: dict,
                   squares: list[int]) -> None:
    """A set-up line about one player: what it owns, holds, where it stands."""
    what = step["step"]
    if what == "give":
        for square in squares:
            state.owner[square] = player.seat
    elif what == "cash":
        state.bank_ledger += player.cash - step["number"]
        player.cash = step["number"]
    elif what == "put":
        square = squares[0]
        player.progress += (square - player.position) % edition.n
        player.position = square
    elif what == "mark":
        marks = player.marks[edition.state_index[step["state"]]]
        marks[:] = sorted(set(marks) | set(squares))      # sorted, as `add` keeps a set
    elif what == "set_player":                            # a declared number: as `set` leaves it
        player.marks[edition.state_index[step["state"]]] = step["number"]
    elif what == "jail":
        player.progress -= (player.position - edition.jail_square) % edition.n
        player.position = edition.jail_square
        player.in_jail, player.jail_turns = True, step["number"]


def _set_up_board(edition: interpreter.Edition, state: GameState, step: dict, squares: list[int]) -> None:
    """A set-up line about the board: buildings, mortgages, an area's state, a deck's top card."""
    what, line = step["step"], step["written_at"][0]
    if what in ("houses", "hotel"):
        for square in squares:
            if state.owner[square] < 0:
                raise _Failed(line, f"`{edition.square_ids[square]}` has no owner to build on: `give` it first")
            houses = step["number"] if what == "houses" else 0
            state.bank_houses += state.houses[square] - houses
            state.bank_hotels += state.hotels[square] - (what == "hotel")
            state.houses[square], state.hotels[square] = houses, int(what == "hotel")
    elif what == "mortgage":
        for square in squares:
            if state.owner[square] < 0:
                raise _Failed(line, f"`{edition.square_ids[square]}` has no owner to mortgage it: `give` it first")
            state.mortgaged[square] = True
    elif what == "set":
        areas = [a["key"] for a in edition.areas]
        state.areas[edition.area_state_index[step["state"]]][areas.index(step["area"])] = step["number"]
    elif what == "card":
        deck = state.decks[edition.deck_index[step["deck"]]]
        deck.remove(step["card"])
        deck.insert(0, step["card"])


def _turn(edition: interpreter.Edition, game: Game, step: dict, seats: dict[str, int], players: list[_Seat]) -> None:
    """One turn of one player, as the engine's game loop plays it, with the throws given."""
    line, who = step["written_at"][0], step["player"]
    seat = seats[who]
    for each in players:
        each.prefer, each.labels, each.sale, each.limit, each.line = (), (), None, 0, line
    for bid in step.get("bids", ()):
        players[seats[bid["player"]]].limit = bid["limit"]
    players[seat].prefer = tuple(CHOICES[choice] for choice in step["choices"])
    players[seat].labels = tuple(step.get("labels", ()))
    for sale in step.get("sales", ()):       # one a turn (grammar/lower.py, E302)
        buyer = seats[sale["buyer"]]
        players[seat].sale = game_actions.ProposeTrade(buyer, tuple(edition.square_index[d] for d in sale["deeds"]), (),
                                            -sale["price"])
        players[buyer].prefer = (game_actions.Accept,)
    throws = _Throws(step["throws"], who, line)
    game.dice_source = throws
    game.state.turn_index = seat
    try:
        with _watching(edition):
            game.take_turn(seat, Ctx())
    except InvariantViolation as broken:
        raise _Failed(line, f"the turn breaks invariant `{broken.invariant}` ({broken.message})") from None
    except (interpreter.StrategyError, interpreter.RuleError, CompileError, KeyError, IndexError, TypeError,
            ValueError, ZeroDivisionError) as error:
        raise _Failed(line, f"the turn stops with an error: {type(error).__name__}: {error}") from None
    if throws.left:
        used = len(step["throws"]) - len(throws.left)
        raise _Failed(line, f"{who}'s turn used {used} of the {len(step['throws'])} throws given")


def _check(compiler: Compiler, env: dict, game: Game, expect: dict) -> None:
    """One expectation; when false, what makes it so: the values of both sides of a
    comparison, or each operand of `and`/`or` (and of `not`) with its value."""
    line, body = expect["written_at"][0], expect["body"]

    def value(node: dict) -> object:
        return compiler.fn(node, env)(game, Ctx())
    try:
        if value(body):
            return
        why = ""
        if _compares(body):
            why = f": the left side is {_shown(value(body['left']))}, the right side {_shown(value(body['right']))}"
        elif body["expr"] == "not" or body["expr"] == "bin" and body["operator"] in ("and", "or"):
            why = ": " + "; ".join(_operand(part, value) for part in _operands(body))
        raise _Failed(line, f"expected `{expect['text']}`, which is false{why}")
    except (CompileError, KeyError, IndexError, TypeError, ValueError, ZeroDivisionError) as error:
        raise _Failed(line, f"`{expect['text']}` cannot be worked out: {type(error).__name__}: {error}") from None


COMPARISONS = ("==", "!=", "<", "<=", ">", ">=", "in")


def _compares(node: dict) -> bool:
    return node["expr"] == "bin" and node["operator"] in COMPARISONS


def _operands(node: dict) -> list[dict]:
    """The operands of `not X` ([X]) or of a chain `A and B and C` ([A, B, C])."""
    if node["expr"] == "not":
        return [node["operand"]]
    op, chain = node["operator"], []
    while node["expr"] == "bin" and node["operator"] == op:
        chain.append(node["right"])
        node = node["left"]
    return [node, *reversed(chain)]


def _operand(node: dict, value: Callable[[dict], object]) -> str:
    """One operand with its value (`bo.cash == 29840` is false, 29920 == 29840)."""
    shown = f"`{_written(node)}` is {'true' if value(node) else 'false'}"
    if _compares(node):
        return f"{shown} ({_shown(value(node['left']))} {node['operator']} {_shown(value(node['right']))})"
    return shown


def _shown(value: object) -> str:
    return str(value.numerator) if isinstance(value, Rational) and value.denominator == 1 else str(value)


# How tightly each operator binds (docs/language.md, "Expressions"): an operand that binds
# more loosely than its operator is written in brackets.
_BINDS = {"or": 1, "and": 2, "not": 3, **dict.fromkeys(COMPARISONS, 4), "+": 5, "-": 5, "*": 6, "/": 6}


def _written(node: dict) -> str:
    """An IR expression as the spec writes it (normalised: `30_000` reads `30000`), to name
    an operand of a failed expectation."""
    kind = node["expr"]
    if kind == "bin":
        op, binds = node["operator"], _BINDS[node["operator"]]
        left, right = _written(node["left"]), _written(node["right"])
        left = left if _binding(node["left"]) >= binds else f"({left})"
        right = right if _binding(node["right"]) > binds else f"({right})"
        return f"{left} {op} {right}"
    if kind in ("not", "neg"):
        inner = _written(node["operand"])
        inner = inner if _binding(node["operand"]) >= _binding(node) else f"({inner})"
        return f"not {inner}" if kind == "not" else f"-{inner}"
    if kind == "attr":
        return f"{_bracketed(node['subject'])}.{node['name']}"
    if kind == "index":
        return f"{_bracketed(node['list'])}[{_written(node['position'])}]"
    if kind == "call":
        return f"{node['function']}({', '.join(_written(arg) for arg in node.get('args', []))})"
    if kind == "agg":
        return f"{node['function']}({node['var']} in {_written(node['over'])}: {_written(node['body'])})"
    if kind == "if":
        return f"if {_written(node['cond'])} then {_written(node['then'])} else {_written(node['otherwise'])}"
    if kind == "bool":
        return "yes" if node["value"] else "no"
    if kind == "ratio":
        return f"{node['num']}%" if node["den"] == PERCENT else f"{node['num']} / {node['den']}"
    return str(node.get("key") or node.get("name") or node.get("path") or node.get("value", kind))


def _binding(node: dict) -> int:
    """How tightly an expression holds together: an operator's binding, 7 for `-x`, 8 for the rest."""
    kind = node["expr"]
    if kind == "bin":
        return _BINDS[node["operator"]]
    return {"not": 3, "neg": 7, "if": 0}.get(kind, 8)


def _bracketed(node: dict) -> str:
    """The subject of `.attr` or `[i]`, in brackets unless it is a name, an attribute or a call."""
    return _written(node) if _binding(node) == 8 else f"({_written(node)})"


def spec_file(origin: str, spec: str) -> str:
    """The file an example of edition `origin` is written in, for `file:line`: the spec
    itself, a file of that id beside it, or the bundled edition or variant (as `extends`
    finds parents, `--variant` variants)."""
    path = Path(spec)
    if path.suffix == ".rules":
        if path.stem == origin:
            return str(path)
        if (path.parent / f"{origin}.rules").is_file():
            return str(path.parent / f"{origin}.rules")
    found = bundled().get(origin) or bundled_variants().get(origin)
    return str(found) if found is not None else f"{origin}.rules"
