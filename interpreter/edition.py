"""An edition loaded for play: the IR's tables flattened to per-square lists, and its
expressions and statements compiled to closures, once (`interpreter.load`)."""
from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from typing import TYPE_CHECKING

from . import actions as A
from .state import POT0
from .translate import CompileError, Compiler

if TYPE_CHECKING:
    from .translate import Env, HolderRule, Rule

KIND_NONE, KIND_LOT, KIND_STATION, KIND_UTILITY = 0, 1, 2, 3
KINDS = {"square": KIND_NONE, "lot": KIND_LOT, "station": KIND_STATION, "utility": KIND_UTILITY}


class Edition:
    # Slots: CPython 3.11 reads an instance with more than thirty attributes in its dict the
    # slow way, and the engine reads an edition's tables on every move. In the order set below.
    __slots__ = ('ir', 'id', 'hash', 'settings', 'n', 'square_ids', 'square_names', 'square_index',
                 'groups', 'group_index', 'group_squares', 'group_kind', 'decks', 'deck_index',
                 'kind', 'kind_names', 'all_squares', 'states', 'state_index', 'state_is_set',
                 'area_states', 'area_state_index', 'pots', 'pot_party', 'pot_parties', 'redirect',
                 'is_deed', 'number', 'across', 'areas', 'all_areas', 'area_quarter',
                 'all_quarters', 'area_faces', 'square_areas', 'deeds', 'group_of', 'price',
                 'mortgage_value', 'house_cost', 'hotel_cost', 'printed', 'group_size', 'dice',
                 'faces', 'throws', 'roll_odds', 'doubles_to_jail', 'doubles_again', 'start_square',
                 'turn_cap', 'start_money', 'rounding_up', 'stock_houses',
                 'stock_hotels', 'jail_square', 'jail_fine', 'jail_max_turns', 'fine_before_roll',
                 'doubles_exit_roll_again', 'auction_on_decline',
                 'decliner_may_bid', 'bid_within_cash', 'raises', 'auction_only', 'preempt',
                 'max_houses', 'houses_per_hotel', 'hotels_per_lot', 'even', 'build_may', 'mortgage_may', 'lift_may',
                 'shortage_auction',
                 'trade_deeds', 'trade_cards', 'trade_cash',
                 'trade_built_groups', 'bank_auctions_all', 'pay_with_deeds', 'debt_auction',
                 'mortgages', 'hotel_level', 'hotel_even_level', 'unmortgage_cost', 'transfer_cost',
                 'house_sale', 'hotel_sale_only', 'hotel_sale_full', 'rent_fn', 'rent_due', 'buy_may', 'on_land',
                 'on_pass', 'on_pass_squares', 'on_pass_rules', 'land_reason', 'cards', 'card_texts', 'card_reason',
                 'invariants', 'invariant_sources', 'source_names', 'statistics', 'setup_fn', 'land_hooks',
                 'acquire_hooks',
                 'roll_hooks', 'rent_hooks', 'add_hooks', 'end_over', 'end_only_bankruptcy',
                 'score_fn', 'sits_out', 'actions', 'action_elements', 'before_roll', 'end_of_turn', 'raising',
                 'BUY', 'DECLINE', 'BUY_OR_DECLINE', 'BUILD', 'BUILD_HOTEL', 'SELL', 'DOWNGRADE', 'MORTGAGE',
                 'UNMORTGAGE', 'KEEP_MORTGAGE', 'offers', 'rules', '__weakref__')

    def __init__(self, ir: dict):
        if not isinstance(ir, dict) or "squares" not in ir or "settings" not in ir:
            raise CompileError("not an IR document: it needs `settings` and `squares`")
        self.ir = ir
        self.id = ir.get("edition", {}).get("key", "?")
        # the rules' places in the spec (`sources`) are left out: they change no game
        played = {key: value for key, value in ir.items() if key != "sources"}
        self.hash = hashlib.sha256(json.dumps(played, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
        settings = ir["settings"]
        self.settings = settings

        squares = sorted(ir["squares"], key=lambda square: square["index"])
        self.n = n = len(squares)
        self.square_ids = [square["key"] for square in squares]
        self.square_names = [square.get("name") or square["key"] for square in squares]
        self.square_index = {square["key"]: i for i, square in enumerate(squares)}
        self.groups = ir.get("groups", [])
        self.group_index = {group["key"]: i for i, group in enumerate(self.groups)}
        self.group_squares = [list(group.get("squares", [])) for group in self.groups]
        self.group_kind = [KINDS.get(group.get("kind", "lot"), KIND_LOT) for group in self.groups]
        self.decks = ir.get("decks", [])
        self.deck_index = {d["key"]: i for i, d in enumerate(self.decks)}

        self.kind = [KINDS[square["kind"]] for square in squares]
        self.kind_names = [square["kind"] for square in squares]
        self.all_squares = list(range(n))
        # per-player state (`state player.NAME`), by its place in `Player.marks` (a set's
        # elements, or a number), and per-area numbers (`state area.NAME`) in `GameState.areas`
        declared = ir.get("state", [])
        self.states = [declaration["name"] for declaration in declared if declaration["owner"] == "player"]
        self.state_index = {name: k for k, name in enumerate(self.states)}
        self.state_is_set = [declaration["type"] != "int" for declaration in declared
                             if declaration["owner"] == "player"]
        self.area_states = [declaration["name"] for declaration in declared if declaration["owner"] == "area"]
        self.area_state_index = {name: k for k, name in enumerate(self.area_states)}
        # pots: party numbers below the bank's, and the bank receipts each takes instead
        self.pots = ir.get("pots", [])
        self.pot_party = {pot["key"]: POT0 - k for k, pot in enumerate(self.pots)}
        self.pot_parties = list(self.pot_party.values())
        reasons = {"fines": ["jail_fine"], "squares": ["square:" + square["key"] for square in squares],
                   "cards": ["card:" + d["key"] for d in ir.get("decks", [])]}
        self.redirect = {reason: self.pot_party[pot["key"]]
                         for pot in self.pots for take in pot.get("takes", []) for reason in reasons[take]}
        self.is_deed = [square.get("deed") is not None for square in squares]
        self.number = [square.get("number") or 0 for square in squares]
        self.across = [self.square_index[square["across"]] if square.get("across") else i
                       for i, square in enumerate(squares)]
        # the city: areas, their quarters (numbered in order of first mention) and the squares they face
        self.areas = ir.get("areas", [])
        self.all_areas = list(range(len(self.areas)))
        quarters: dict[str, int] = {}
        self.area_quarter = [quarters.setdefault(a["quarter"], len(quarters)) for a in self.areas]
        self.all_quarters = list(range(len(quarters)))
        self.area_faces = [[self.square_index[sid] for sid in a["faces"]] for a in self.areas]
        self.square_areas = [[k for k, faces in enumerate(self.area_faces) if i in faces] for i in range(n)]
        self.deeds = [i for i in range(n) if self.is_deed[i]]
        self.group_of = [-1] * n
        self.price = [0] * n
        self.mortgage_value = [0] * n
        self.house_cost = [0] * n
        self.hotel_cost = [0] * n
        self.printed = [()] * n
        for i, square in enumerate(squares):
            deed = square.get("deed")
            if deed is None:
                continue
            gi = self.group_index[deed["group"]]
            self.group_of[i] = gi
            if i not in self.group_squares[gi]:
                self.group_squares[gi].append(i)
            self.price[i] = deed.get("price", 0)           # none where deeds are only auctioned
            self.mortgage_value[i] = deed.get("mortgage", 0)   # none where there are no mortgages
            self.house_cost[i] = deed.get("house_cost") or 0
            self.hotel_cost[i] = deed.get("hotel_cost") or 0
            self.printed[i] = tuple(deed.get("rent", ()))
        for members in self.group_squares:
            members.sort()
        self.group_size = [len(members) for members in self.group_squares]

        self.read_settings(settings)

        # ---- compiled rules ------------------------------------------------------------
        comp = Compiler(self)
        rent = ir.get("rent", {})
        rent_by_kind: dict[int, Rule] = {}
        for kind_name, kind in KINDS.items():
            if kind != KIND_NONE and kind_name in rent:
                rent_by_kind[kind] = comp.fn(rent[kind_name], {})
        for i in self.deeds:
            if self.kind[i] not in rent_by_kind:
                raise CompileError(f"no rent formula for the kind of square `{self.square_ids[i]}`")
        self.rent_fn: list[Rule] = [rent_by_kind[self.kind[i]] if self.is_deed[i] else _no_rent for i in range(n)]
        due = settings.get("rent", {}).get("due")
        self.rent_due: Rule | None = comp.fn(due, {}) if due is not None else None      # None: always due
        may = settings.get("buy", {}).get("may")
        self.buy_may: Rule | None = comp.fn(may, {}) if may is not None else None       # None: always may
        self.auction_on_decline: Rule = comp.fn(settings["auction"]["on_decline"], {})
        mortgage = settings.get("mortgage", {})
        building = settings.get("building", {})
        # when a player may build on, and mortgage, a deed they hold (None: whenever the rest allows)
        self.build_may: HolderRule | None = comp.holder(building["may"]) if "may" in building else None
        self.mortgage_may: HolderRule | None = comp.holder(mortgage["may"]) if "may" in mortgage else None
        self.lift_may: HolderRule | None = comp.holder(mortgage["may_lift"]) if "may_lift" in mortgage else None
        self.unmortgage_cost = self.printed_amounts(comp, mortgage.get("lift"))
        self.transfer_cost = self.printed_amounts(comp, mortgage.get("transfer"))
        # what the bank pays for buildings sold back
        self.house_sale = self.printed_amounts(comp, building.get("sell_house"))
        self.hotel_sale_full = self.printed_amounts(comp, building.get("sell_hotel"))
        self.hotel_sale_only = self.printed_amounts(comp, building.get("trade_hotel"))
        self.on_land = [comp.block(square.get("on_land") or [], {}) for square in squares]
        self.on_pass = [comp.block(square.get("on_pass") or [], {}) for square in squares]
        self.on_pass_squares = [i for i in range(n) if self.on_pass[i] is not None]
        self.on_pass_rules = [f for f in self.on_pass if f is not None]      # one per `on_pass_squares`
        self.land_reason = ["square:" + sid for sid in self.square_ids]
        self.cards = [[comp.block(card.get("effect") or [], {}) for card in d.get("cards", [])] for d in self.decks]
        self.card_texts = [[card.get("text", "") for card in d.get("cards", [])] for d in self.decks]
        self.card_reason = [["card:" + d["key"]] * len(d.get("cards", [])) for d in self.decks]
        # every invariant (the prelude's and the edition's) as (name, text, f(game, ctx) -> bool),
        # and as source over `source_names` (the verifier fuses them into one function)
        self.invariant_sources = [comp.text(inv["body"], {}) for inv in ir.get("invariants", [])]
        self.invariants = [(inv["name"], inv["text"], comp.of_text(source))
                           for inv, source in zip(ir.get("invariants", []), self.invariant_sources, strict=True)]
        self.source_names = comp.names
        self.statistics = [(statistic["name"], comp.fn(statistic["body"], {}))
                           for statistic in ir.get("statistics", [])]
        self.setup_fn = comp.block(ir.get("setup") or [], {})
        hooks = self.compile_hooks(comp, ir.get("hooks", []))   # every hook, in the IR's order
        end = settings.get("end", {})
        self.end_over = comp.fn(end["over"], {}) if end.get("over") else None
        # an end condition that reads nothing but who is bankrupt changes only with a bankruptcy
        self.end_only_bankruptcy = _reads_only(end.get("over"), {"bankrupt"})
        self.score_fn = self.player_formula(comp, end.get("score"), "end.score")
        self.sits_out = self.player_formula(comp, end.get("sits_out"), "end.sits_out")
        # the spec's actions: (id, label, var, allowed items, required, effect)
        self.actions = [(a["key"], a.get("label") or a["key"], a["var"],
                         comp.filter_fn(a["over"], a["var"], a["allowed"], {}),
                         comp.fn(a["required"], {}) if a.get("required") else None,
                         comp.block(a.get("effect") or [], {a["var"]: None}))
                        for a in ir.get("actions", [])]
        self.action_elements = [a.get("element", "") for a in ir.get("actions", [])]
        # the actions offered in each window, by index into `actions`
        named = [a["windows"] for a in ir.get("actions", [])]
        self.before_roll, self.end_of_turn, self.raising = (
            [k for k, windows in enumerate(named) if window in windows]
            for window in ("before_roll", "end_of_turn", "raising"))
        self.rules = self.rules_named(ir, squares, hooks)

        self.intern_actions()

    def read_settings(self, settings: dict) -> None:
        """The IR's `settings`, read once into flat attributes, and the money amounts derived
        from them (rounded per `money.rounding`)."""
        game, money, bank = settings["game"], settings["money"], settings.get("bank", {})
        jail, auction, building = settings.get("jail", {}), settings.get("auction", {}), settings.get("building", {})
        mortgage, trade = settings.get("mortgage", {}), settings.get("trade", {})
        self.dice = game["dice"]
        self.faces = game["die_faces"]
        f = self.faces
        # two dice: every throw (faces, total, double) by index first * faces + second
        self.throws = [((a + 1, b + 1), a + b + 2, a == b) for a in range(f) for b in range(f)] \
            if self.dice == 2 else None
        # every total of the dice with its probability (for strategies' expectations)
        totals = {0: 1}
        for _ in range(self.dice):
            totals = _add_die(totals, f)
        self.roll_odds = [(t, Fraction(k, f ** self.dice)) for t, k in sorted(totals.items())]
        self.doubles_to_jail = game.get("doubles_to_jail", 0)
        self.doubles_again = game.get("doubles_again", True)
        start = game.get("start")
        self.start_square = self.square_index[start] if isinstance(start, str) else (start or 0)
        self.turn_cap = game.get("turn_cap")
        self.start_money = money["start"]
        self.rounding_up = money.get("rounding", "up") == "up"
        self.stock_houses = bank.get("houses", 0)
        self.stock_hotels = bank.get("hotels", 0)
        jail_at = jail.get("square")        # no `jail` section: the game has no jail
        self.jail_square = self.square_index[jail_at] if isinstance(jail_at, str) \
            else (jail_at if jail_at is not None else -1)
        self.jail_fine = jail.get("fine", 0)
        self.jail_max_turns = jail.get("max_turns", 0)
        self.fine_before_roll = jail.get("fine_timing") == "before_roll"
        self.doubles_exit_roll_again = jail.get("doubles_exit") == "move_and_roll_again"
        self.decliner_may_bid = bool(auction.get("decliner_may_bid", True))
        self.bid_within_cash = bool(auction.get("bid_within_cash", True))
        self.raises = sorted(auction.get("raises") or [1])
        self.auction_only = bool(auction.get("only", False))
        self.preempt = auction.get("preempt")           # None: no pre-emption
        self.max_houses = building.get("max_houses", 0)
        self.houses_per_hotel = building.get("houses_per_hotel", self.max_houses)
        self.hotels_per_lot = building.get("hotels_per_lot", 1)
        self.even = bool(building.get("even", True))
        self.shortage_auction = building.get("shortage") == "auction"
        self.trade_deeds = bool(trade.get("deeds", True))
        self.trade_cards = bool(trade.get("jail_cards", True))
        self.trade_cash = bool(trade.get("cash", True))
        self.trade_built_groups = bool(trade.get("built_groups", False))
        self.bank_auctions_all = settings.get("bankruptcy", {}).get("to_bank") == "auction_all"
        self.pay_with_deeds = settings.get("debt", {}).get("pay_with_deeds") == "allowed"
        self.debt_auction = bool(settings.get("debt", {}).get("auction_deeds", False))
        self.mortgages = "lift" in mortgage      # a left-out `mortgage` section has none of its keys
        self.hotel_level = self.max_houses + 1            # `level` of a lot with a hotel
        self.hotel_even_level = self.houses_per_hotel + 1  # its level for building evenly

    def compile_hooks(self, comp: Compiler, ir_hooks: list[dict]) -> list[tuple]:
        """Every hook compiled, each kept by its event; all of them, in the IR's order."""
        self.land_hooks, self.acquire_hooks, self.roll_hooks, self.rent_hooks = [], [], [], []
        self.add_hooks: list[list] = [[] for _ in self.states]
        hooks = []
        for hook in ir_hooks:
            env: Env = {hook["var"]: None}
            compiled = (hook["var"], comp.fn(hook["cond"], env) if hook.get("cond") else None,
                        comp.block(hook.get("body") or [], env), frozenset(hook.get("via") or ()))
            hooks.append(compiled)
            if hook["event"] == "land":
                self.land_hooks.append(compiled)
            elif hook["event"] == "acquire":
                self.acquire_hooks.append(compiled)
            elif hook["event"] == "roll":
                self.roll_hooks.append(compiled)
            elif hook["event"] == "rent":
                self.rent_hooks.append(compiled)
            elif hook["event"] == "add":
                self.add_hooks[self.state_index[hook["state"]]].append(compiled)
            else:
                raise CompileError(f"unsupported event `{hook['event']}`")
        return hooks

    def intern_actions(self) -> None:
        """The actions on one square, made once per square (offering them allocates nothing)."""
        r = range(self.n)
        self.BUY = [A.Buy(i) for i in r]
        self.DECLINE = [A.Decline(i) for i in r]
        self.BUY_OR_DECLINE = [(A.Buy(i), A.Decline(i)) for i in r]
        self.BUILD = [A.Build(i) for i in r]
        self.BUILD_HOTEL = [A.BuildHotel(i) for i in r]
        self.SELL = [A.SellBuilding(i) for i in r]
        self.DOWNGRADE = [A.Downgrade(i) for i in r]
        self.MORTGAGE = [A.Mortgage(i) for i in r]
        self.UNMORTGAGE = [A.Unmortgage(i) for i in r]
        self.KEEP_MORTGAGE = [A.KeepMortgage(i) for i in r]
        # auction offers by (base, raises within cash): made when an auction first needs
        # one, then shared by every game of the edition
        self.offers: dict[tuple[int, int], tuple] = {}

    # ---- helpers -----------------------------------------------------------------------

    def rules_named(self, ir: dict, squares: list[dict], hooks: list[tuple]) -> dict:
        """Each compiled rule the engine runs -> (what it is, in the game's words; its place in
        the spec from the IR's `sources`, or None): what a run-time error says (errors.py)."""
        sources = ir.get("sources", {})
        named: dict = {}

        def name(f: Rule | None, what: str, key: str) -> None:
            if f is not None:
                named[f] = (what, sources.get(key))
        for i, square in enumerate(squares):
            name(self.on_land[i], f"the `on_land` of {self.square_names[i]}", f"squares/{square['key']}/on_land")
            name(self.on_pass[i], f"the `on_pass` of {self.square_names[i]}", f"squares/{square['key']}/on_pass")
        for d, deck in enumerate(self.decks):
            for k, f in enumerate(self.cards[d]):
                name(f, f"card `{self.card_texts[d][k]}` of deck `{deck['key']}`", f"decks/{deck['key']}/{k}")
        for i in self.deeds:
            name(self.rent_fn[i], f"the `{self.kind_names[i]}` rent formula", f"rent/{self.kind_names[i]}")
        for k, (hook, (_var, cond, body, _ways)) in enumerate(zip(ir.get("hooks", []), hooks, strict=True)):
            name(cond, f"the `when {hook['event']}` hook", f"hooks/{k}")
            name(body, f"the `when {hook['event']}` hook", f"hooks/{k}")
        for action_id, _label, _var, allowed, _need, effect in self.actions:
            name(allowed, f"action `{action_id}`", f"actions/{action_id}")
            name(effect, f"action `{action_id}`", f"actions/{action_id}")
        name(self.setup_fn, "the setup", "setup")
        return named

    def player_formula(self, comp: Compiler, name: str | None, setting: str) -> Rule | None:
        """A one-player formula named by a setting, as f(game, ctx) of the player `ctx.me`."""
        if not name:
            return None
        formula = self.ir.get("formulas", {}).get(name)
        if formula is None:
            raise CompileError(f"`{setting}` names no formula `{name}`")
        return comp.fn(formula["body"], {formula["params"][0]: (False, "c.me")})

    def printed_amounts(self, comp: Compiler, amount: dict | None) -> list[int]:
        """An amount printed on a deed (`mortgage.lift`), one per square, rounded per
        `money.rounding`: the compiler folds it with `here` bound to each deed in turn (the
        language lets it read only the deed's printed numbers, so it is one number a deed)."""
        if amount is None:
            return [0] * self.n
        out = [0] * self.n
        for sq in self.deeds:
            folded, value = comp.expr(amount, {"here": (True, sq)})
            if not folded:      # `x / 0`: the compiler leaves it to fail when it runs
                raise CompileError(f"an amount printed on the deed `{self.square_ids[sq]}` cannot be "
                                   f"worked out (a division by 0?): {value}")
            out[sq] = self.money(value)
        return out

    def money(self, amount: int | Fraction) -> int:
        if isinstance(amount, int):
            return amount
        if self.rounding_up:
            return -((-amount.numerator) // amount.denominator)
        return amount.numerator // amount.denominator

    def setting(self, path: str) -> object:
        node = self.settings
        for part in path.split("."):
            if not isinstance(node, dict) or part not in node:
                raise CompileError(f"unknown setting `{path}`")
            node = node[part]
        if isinstance(node, dict) and set(node) == {"num", "den"}:
            return Fraction(node["num"], node["den"])
        if isinstance(node, list):
            return tuple(node)
        return node


def _no_rent(game: object, ctx: object) -> int:
    """The rent rule of a square that is no deed: the engine never charges one."""
    raise TypeError("a square that is no deed has no rent formula")


def _add_die(totals: dict[int, int], faces: int) -> dict[int, int]:
    """The ways of making each total with one more die."""
    out: dict[int, int] = {}
    for total, ways in totals.items():
        for face in range(1, faces + 1):
            out[total + face] = out.get(total + face, 0) + ways
    return out


def _reads_only(node: object, attrs: set[str]) -> bool:
    """True when an expression reads no game state but these player attributes (and
    the player set, loop variables, literals and settings)."""
    if isinstance(node, list):
        return all(_reads_only(x, attrs) for x in node)
    if not isinstance(node, dict):
        return True
    kind = node.get("expr")
    if kind == "attr" and node.get("name") not in attrs:
        return False
    if kind == "var" and node.get("name") in ("rounds", "over", "me", "dice", "roll", "others", "owner", "rent",
                                               "level", "owned", "complete", "mortgaged_in_group", "printed",
                                               "houses_in_bank", "hotels_in_bank", "bank_ledger"):
        return False
    if kind == "call":
        return False
    return all(_reads_only(v, attrs) for k, v in node.items() if k != "written_at")
