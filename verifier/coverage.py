"""Example coverage (docs/verifier.md, "Example coverage"): which of an edition's settings,
decided rules, squares with effects, cards, actions and end conditions its worked examples
exercise, and which none does.

    measure(ir, examples) -> Coverage     # the examples (those that hold) played once more, watched

An example *exercises* an item when its play (the start money it deals, its set-up lines
and its turns; not its expectations, nor the invariant checks after each event) does the
following:

- a setting or decided rule: the play reads it: the engine reads the edition's attribute
  the setting is read into (`READ_INTO`), or runs a compiled rule whose text names it
  (`money.salary` in GO's `on_pass`, `rent.mortgaged_group` in the lot rent); the menu
  of the manage window, built before every roll whatever the player does, does not count;
- a square with effects: its `on_land` or `on_pass` runs (each is an item);
- a card: it is drawn;
- an action (the spec's `action` blocks): a player takes it (its effect runs);
- an end condition (`end.over`, `end.sits_out`): it holds, so the game ends or a player
  sits out.

The watching is done by a subclass of the interpreter's `Edition`, made only here: it wraps
the compiled rules it runs and records the attributes read through it. An ordinary game
plays a plain `Edition`, so measuring costs nothing when it is not done.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, cast

from interpreter import actions
from interpreter.edition import Edition
from interpreter.engine import Game

from .examples import _played

CATEGORIES = ("settings", "decided", "squares", "cards", "actions", "ends")
TITLES = {"settings": "settings", "decided": "decided rules", "squares": "squares with effects", "cards": "cards",
          "actions": "actions", "ends": "end conditions"}
ENDS = ("end.over", "end.sits_out")

# The Edition attribute (interpreter/edition.py, `read_settings`) each setting is read into,
# with every setting it is derived from: the engine reads the attribute, not the IR.
READ_INTO: dict[str, tuple[str, ...]] = {
    "dice": ("game.dice",), "faces": ("game.die_faces",), "throws": ("game.dice", "game.die_faces"),
    "roll_odds": ("game.dice", "game.die_faces"), "doubles_to_jail": ("game.doubles_to_jail",),
    "doubles_again": ("game.doubles_again",), "start_square": ("game.start",), "turn_cap": ("game.turn_cap",),
    "start_money": ("money.start",), "rounding_up": ("money.rounding",),
    "stock_houses": ("bank.houses",), "stock_hotels": ("bank.hotels",),
    "jail_square": ("jail.square",), "jail_fine": ("jail.fine",), "jail_max_turns": ("jail.max_turns",),
    "fine_before_roll": ("jail.fine_timing",), "doubles_exit_roll_again": ("jail.doubles_exit",),
    "auction_on_decline": ("auction.on_decline",), "decliner_may_bid": ("auction.decliner_may_bid",),
    "bid_within_cash": ("auction.bid_within_cash",), "raises": ("auction.raises",), "auction_only": ("auction.only",),
    "preempt": ("auction.preempt",),
    "max_houses": ("building.max_houses",), "houses_per_hotel": ("building.houses_per_hotel",),
    "hotels_per_lot": ("building.hotels_per_lot",), "even": ("building.even",),
    "shortage_auction": ("building.shortage",), "hotel_level": ("building.max_houses",),
    "hotel_even_level": ("building.houses_per_hotel",),
    "house_sale": ("building.sell_house",), "hotel_sale_only": ("building.trade_hotel",),
    "hotel_sale_full": ("building.sell_hotel", "building.hotel_sale", "building.houses_per_hotel"),
    "unmortgage_cost": ("mortgage.lift",), "transfer_cost": ("mortgage.transfer",),
    "trade_deeds": ("trade.deeds",), "trade_cards": ("trade.jail_cards",), "trade_cash": ("trade.cash",),
    "trade_built_groups": ("trade.built_groups",),
    "bank_auctions_all": ("bankruptcy.to_bank",), "pay_with_deeds": ("debt.pay_with_deeds",),
    "debt_auction": ("debt.auction_deeds",),
}
# The settings the engine reads as compiled rules (the wrapped functions below name them).
RULE_SETTINGS = ("rent.due", "buy.may", "building.may", "mortgage.may", "mortgage.may_lift", "end.over", "end.sits_out",
                 "end.score")


@dataclass
class Coverage:
    """Per category, every item (key -> how the report names it) and those exercised, each
    with the first example that does."""

    items: dict[str, dict[str, str]]
    by: dict[str, dict[str, str]] = field(default_factory=dict)    # category -> item -> example
    examples: int = 0                                              # the examples measured

    def uncovered(self, category: str) -> list[str]:
        return [key for key in self.items[category] if key not in self.by[category]]

    def to_json(self) -> dict:
        return {"examples": self.examples} | {
            category: {"total": len(self.items[category]), "covered": len(self.by[category]),
                       "exercised": [{"item": key, "example": self.by[category][key]}
                                     for key in self.items[category] if key in self.by[category]],
                       "uncovered": [{"item": key, "what": self.items[category][key]}
                                     for key in self.uncovered(category)]}
            for category in CATEGORIES}


class _Watch:
    """What one example's play reads, while `on`."""

    def __init__(self) -> None:
        self.on = False
        self.seen: set[tuple[str, str]] = set()     # (category, item)

    def mark(self, items: Iterable[tuple[str, str]]) -> None:
        if self.on:
            self.seen.update(items)


# The rules that decide whether a step on a deed is on the menu, by the step's kind.
GUARDED_BY = {actions.Build: ("settings", "building.may"), actions.BuildHotel: ("settings", "building.may"),
              actions.Mortgage: ("settings", "mortgage.may"), actions.Unmortgage: ("settings", "mortgage.may_lift")}


class _WatchedGame(Game):
    """A game on a watched edition: the menu of the manage window (every step, spec action
    and trade offer the rules would allow, built before each roll whatever the player then
    does) is not counted as the play reading the rules behind it; the step taken is."""

    __slots__ = ()

    def manage_actions(self, seat: int, trades: bool = True) -> list:
        """The menu, unwatched but for the guards of the steps the player asks for (an
        example's player who `builds houses` is offered a house only where `building.may`
        holds: what the example shows depends on that guard)."""
        watch: _Watch = cast(_Watched, self.edition).watch
        on, watch.on = watch.on, False
        asked = {GUARDED_BY[kind] for kind in getattr(self.strategies[seat], "prefer", ()) if kind in GUARDED_BY}
        menu, watch.seen = watch.seen, set()
        try:
            if asked:
                watch.on = on
            return super().manage_actions(seat, trades)
        finally:
            menu, watch.seen = watch.seen, menu
            watch.on = on
            watch.mark(mark for mark in menu if mark in asked)


class _Watched(Edition):
    """An edition whose play is watched: the attributes of `READ_INTO` record their settings
    when read, and each compiled rule records what it exercises when run."""

    watch: _Watch

    def __init__(self, ir: dict, watch: _Watch, kinds: dict[str, str]):
        """`kinds`: the category of each setting path that is no plain setting (`decided`)."""
        object.__setattr__(self, "watch", watch)
        object.__setattr__(self, "reads", {attr: [(kinds.get(path, "settings"), path) for path in paths]
                                           for attr, paths in READ_INTO.items()})
        super().__init__(ir)
        self.watch_rules(ir, kinds)

    game_class = _WatchedGame        # examples.py plays its games in this class

    def __getattribute__(self, name: str) -> object:
        reads = object.__getattribute__(self, "reads").get(name)
        if reads is not None:
            object.__getattribute__(self, "watch").mark(reads)
        return object.__getattribute__(self, name)

    def watch_rules(self, ir: dict, kinds: dict[str, str]) -> None:
        """Every compiled rule the engine runs, wrapped to record what it exercises."""
        named = _Named(ir, kinds)
        squares = sorted(ir["squares"], key=lambda square: square["index"])
        for i, square in enumerate(squares):
            self.on_land[i] = self.wrap(self.on_land[i], named.of(square.get("on_land"),
                                                                  ("squares", f"{square['key']}: on_land")))
            self.on_pass[i] = self.wrap(self.on_pass[i], named.of(square.get("on_pass"),
                                                                  ("squares", f"{square['key']}: on_pass")))
        self.on_pass_rules = [cast(Any, self.on_pass[i]) for i in self.on_pass_squares]   # none is None
        for d, deck in enumerate(self.decks):
            self.cards[d] = [self.wrap(f, named.of(card.get("effect")))
                             for f, card in zip(self.cards[d], deck.get("cards", []), strict=True)]
        rent = ir.get("rent", {})
        wrapped: dict[int, Any] = {}
        for i in self.deeds:
            f = self.rent_fn[i]
            if id(f) not in wrapped:
                wrapped[id(f)] = self.wrap(f, named.of(rent.get(self.kind_names[i])))
            self.rent_fn[i] = wrapped[id(f)]
        end = self.settings.get("end", {})
        self.rent_due = self.wrap(self.rent_due, named.of(self.settings.get("rent", {}).get("due"),
                                                          ("settings", "rent.due")))
        self.buy_may = self.wrap(self.buy_may, named.of(self.settings.get("buy", {}).get("may"),
                                                        ("settings", "buy.may")))
        self.build_may = self.wrap(self.build_may, named.of(self.settings.get("building", {}).get("may"),
                                                            ("settings", "building.may")))
        self.mortgage_may = self.wrap(self.mortgage_may, named.of(self.settings.get("mortgage", {}).get("may"),
                                                                  ("settings", "mortgage.may")))
        self.lift_may = self.wrap(self.lift_may, named.of(self.settings.get("mortgage", {}).get("may_lift"),
                                                          ("settings", "mortgage.may_lift")))
        self.end_over = self.wrap(self.end_over, named.of(end.get("over")), named.of(None, ("ends", "end.over")))
        self.sits_out = self.wrap(self.sits_out, named.of(_formula(ir, end.get("sits_out"))),
                                  named.of(None, ("ends", "end.sits_out")))
        self.score_fn = self.wrap(self.score_fn, named.of(_formula(ir, end.get("score")), ("settings", "end.score")))
        self.watch_hooks(ir, named)
        self.actions = [(key, label, var, self.wrap(allowed, named.of(a.get("allowed"))),
                         self.wrap(need, named.of(a.get("required"))),
                         self.wrap(effect, named.of(a.get("effect"), ("actions", key))))
                        for (key, label, var, allowed, need, effect), a in zip(self.actions, ir.get("actions", []),
                                                                                strict=True)]

    def watch_hooks(self, ir: dict, named: _Named) -> None:
        """The hooks, by event, in the IR's order (as `Edition.compile_hooks` keeps them)."""
        lists = {"land": self.land_hooks, "acquire": self.acquire_hooks, "roll": self.roll_hooks,
                 "rent": self.rent_hooks}
        taken = {event: 0 for event in lists}
        added = [0 for _ in self.add_hooks]
        for hook in ir.get("hooks", []):
            event = hook["event"]
            if event == "add":
                hooks, k = self.add_hooks[self.state_index[hook["state"]]], added[self.state_index[hook["state"]]]
                added[self.state_index[hook["state"]]] += 1
            else:
                hooks, k = lists[event], taken[event]
                taken[event] += 1
            var, cond, body, ways = hooks[k]
            hooks[k] = (var, self.wrap(cond, named.of(hook.get("cond"))), self.wrap(body, named.of(hook.get("body"))),
                        ways)

    def wrap(self, f: Any, marks: list[tuple[str, str]], holds: list[tuple[str, str]] | None = None) -> Any:
        """`f`, recording `marks` when it runs (and `holds` when it returns a true value); the
        engine's error messages still name the rule (`Edition.rules`)."""
        if f is None:
            return None
        watch: _Watch = self.watch

        def watched(game: object, ctx: object, *args: object) -> object:
            watch.mark(marks)
            value = f(game, ctx, *args)
            if holds and value:
                watch.mark(holds)
            return value
        if f in self.rules:
            self.rules[watched] = self.rules[f]
        return watched


class _Named:
    """The settings and decided rules an IR rule names, formulas it calls included."""

    def __init__(self, ir: dict, kinds: dict[str, str]):
        self.formulas = ir.get("formulas", {})
        self.kinds = kinds

    def of(self, node: object, *items: tuple[str, str]) -> list[tuple[str, str]]:
        found: set[str] = set()
        self.walk(node, found, set())
        return [*items, *sorted((self.kinds.get(path, "settings"), path) for path in found)]

    def walk(self, node: object, found: set[str], called: set[str]) -> None:
        if isinstance(node, list):
            for x in node:
                self.walk(x, found, called)
        elif isinstance(node, dict):
            if node.get("expr") == "setting":
                found.add(node["path"])
            elif node.get("expr") == "call" and node.get("function") in self.formulas and \
                    node["function"] not in called:
                called.add(node["function"])
                self.walk(self.formulas[node["function"]].get("body"), found, called)
            for key, value in node.items():
                if key != "written_at":
                    self.walk(value, found, called)


def _formula(ir: dict, name: str | None) -> object:
    """The body of the formula a setting names (`end.score = wealth`)."""
    return (ir.get("formulas", {}).get(name) or {}).get("body") if name else None


def items(ir: dict) -> dict[str, dict[str, str]]:
    """Every item of each category for the edition: the settings the play can read (those
    `READ_INTO` reads, those a rule names, and the rules of `RULE_SETTINGS`), the decided
    rules, each `on_land` and `on_pass`, each card, each spec action, each end condition."""
    decided = {d["key"] for d in ir.get("decisions") or ()}
    named: set[str] = set()
    _Named(ir, {}).walk({k: v for k, v in ir.items() if k not in ("settings", "examples", "invariants", "steps",
                                                                    "sources", "statistics")}, named, set())
    playable = {path for paths in READ_INTO.values() for path in paths} | named | set(RULE_SETTINGS)
    leaves = list(_leaves(ir["settings"], ""))
    out: dict[str, dict[str, str]] = {category: {} for category in CATEGORIES}
    for path in leaves:
        if path in ENDS:
            out["ends"][path] = path
        elif path in decided:
            out["decided"][path] = f"decide {path} = {ir['settings'][path.split('.')[0]][path.split('.')[1]]}"
        elif path in playable:
            out["settings"][path] = path
    for square in sorted(ir["squares"], key=lambda square: square["index"]):
        for effect in ("on_land", "on_pass"):
            if square.get(effect):
                out["squares"][f"{square['key']}: {effect}"] = square.get("name") or square["key"]
    for deck in ir.get("decks", []):
        for k, card in enumerate(deck.get("cards", [])):
            out["cards"][f"{deck['key']}:{k}"] = card.get("text", "")
    for action in ir.get("actions", []):
        out["actions"][action["key"]] = action.get("label") or action["key"]
    return out


def _leaves(settings: dict, prefix: str) -> Iterable[str]:
    """Each setting's path: a section's keys, down to a value (a number, a word, a list, a
    ratio or an expression)."""
    for key, value in settings.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and "expr" not in value and set(value) != {"num", "den"} and \
                not set(value) <= {"min", "max"}:
            yield from _leaves(value, path + ".")
        else:
            yield path


def measure(ir: dict, examples: list[dict]) -> Coverage:
    """The coverage of the edition `ir` by `examples` (examples of `ir` that hold): each
    played once more on a watched edition."""
    found = items(ir)
    if not examples:               # nothing to play (and an edition that does not load has no example that holds)
        return Coverage(found, {category: {} for category in CATEGORIES}, 0)
    watch = _Watch()
    edition = _Watched(ir, watch, dict.fromkeys(found["decided"], "decided"))
    by: dict[str, dict[str, str]] = {category: {} for category in CATEGORIES}
    for example in examples:
        watch.seen = set()
        _outcome, events, _end = _played(edition, example)
        seen = set(watch.seen) | {("cards", f"{edition.decks[e['deck']]['key']}:{e['card']}")
                                  for e in events if e.get("type") == "draw"}
        for category, item in seen:
            if item in found.get(category, {}):
                by[category].setdefault(item, example["name"])
    for category in CATEGORIES:           # in the order the edition lists them
        by[category] = {key: by[category][key] for key in found[category] if key in by[category]}
    return Coverage(found, by, len(examples))
