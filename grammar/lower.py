"""A merged edition (grammar/extend.py) -> the IR (docs/ir.md), checking every name and type.

All the errors found are collected and raised together: a spec writer fixes a batch
per run, not one error per run.
"""
from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any, Collection, Iterable, Sequence

from grammar import facts, syntax
from grammar import language as lang
from grammar.diagnostics import Diagnostic, Span, SpecError, did_you_mean, known
from grammar.expressions import Lowering, Names, Scope, Signature
from grammar.extend import MergedSpec, read
from grammar.language import ANY, Key, Type
from grammar.parse import parse

IR_VERSION = 2
PRELUDE = Path(__file__).with_name("prelude.rules")   # the built-in invariants every edition gets

# The type a setting has when an expression reads it, by the kind of its key.
KIND_TYPES = {
    "int": lang.INT, "bool": lang.BOOL, "numbers": lang.NUMBERS,
    "condition": lang.BOOL, "rent": lang.INT,
}
# The kinds of setting whose value is an expression over names of its own: those names, and
# what the expression must be.
EXPRESSION_KINDS = {"rent": (lang.RENT_NAMES, "number"), "due": (lang.DUE_NAMES, "bool"),
                    "lander": (lang.LANDER_NAMES, "bool"), "holder": (lang.HOLDER_NAMES, "bool"),
                    "printed": (lang.PRINTED_DEED_NAMES, "number")}
KIND_WORDS = {
    "int": "a whole number", "bool": "`yes` or `no`",
    "text": "a quoted text", "name": "a name", "range": "a range such as `2 .. 8`",
    "notes": "a list of notes such as `[COUNT x VALUE, ...]`", "numbers": "a list of numbers such as `[1, 5]`",
    "square": "a square id", "formula": "a formula name", "group": "a group id",
    "word": "a word of the rulebook's glossary",
    "texts": 'a quoted text or a list of quoted texts such as `["...", "..."]`',
}


# What an amount printed on a deed (a `printed` setting) is made of: numbers, settings,
# arithmetic and choices over `here`'s printed numbers (the only attributes its type has).
PRINTED_PARTS = frozenset({"int", "ratio", "bool", "enum", "bin", "neg", "not", "if", "setting", "var"})


def _printed_only(ir: dict) -> bool:
    """Whether an expression reads nothing but `PRINTED_PARTS` and `here`'s attributes."""
    if ir.get("expr") == "attr":
        return ir["subject"] == {"expr": "var", "name": "here"}
    return ir.get("expr") in PRINTED_PARTS and all(_printed_only(v) for v in ir.values() if isinstance(v, dict))


def lower(edition: MergedSpec) -> dict:
    """The IR of a merged edition; raises SpecError with every error found."""
    lowering = _Lower(edition)
    ir = lowering.run()
    lowering.tell_inherited()
    if lowering.diagnostics:
        own = edition.header.span.source.name
        ordered = sorted(lowering.diagnostics, key=lambda d: (d.file != own, d.file or "", d.line or 0, d.column or 0))
        raise SpecError(ordered)
    return ir


def _span(first: syntax.Name, last: syntax.Name) -> Span:
    """From the start of one name to the end of another (`jail.fine_timing`)."""
    return Span(first.span.source, first.span.line, first.span.column, last.span.end_line, last.span.end_column)


def _whole(value: syntax.Value) -> int | None:
    """The number a setting writes as `5` or `-5`, or None for anything else."""
    if isinstance(value, syntax.Int):
        return value.value
    if isinstance(value, syntax.Neg) and isinstance(value.operand, syntax.Int):
        return -value.operand.value
    return None


def _describe(value: syntax.Value) -> str:
    return {
        syntax.Int: "a number", syntax.Percent: "a percentage", syntax.Bool: "yes/no", syntax.Text: "a text",
        syntax.Range: "a range", syntax.Notes: "a list of notes", syntax.Numbers: "a list of numbers",
        syntax.Texts: "a list of texts", syntax.Names: "a list of names",
    }.get(type(value)) or (f"the name `{value.text}`" if isinstance(value, syntax.Name) else "an expression")


class _Lower:
    def __init__(self, edition: MergedSpec):
        self.edition = edition
        self.concrete = not edition.header.abstract
        self.diagnostics: list[Diagnostic] = []
        self.inherited: dict[tuple[str, str], list[Diagnostic]] = {}    # (items, what they lack) -> one each
        self.strays: set[str] = set()       # kinds of deed with one whose `group` is not a group of its kind
        groups = {gid: self._group_kind(group) for gid, group in edition.groups.items()}
        types = {section: {key: KIND_TYPES.get(k.kind, Type(k.kind)) if k.kind != "enum" else lang.enum(k.options)
                           for key, k in keys.items()}
                 for section, keys in lang.SECTIONS.items() if section not in lang.PRINTED_SECTIONS}
        for contested in edition.contested.values():
            if contested.section.text in types:
                types[contested.section.text][contested.key.text] = lang.enum(tuple(o.text for o in contested.options))
        self.names = Names({sid: i for i, sid in enumerate(edition.squares)}, groups, set(edition.decks),
                           types, {}, self.diagnostics.append)
        self.names.pots = set(edition.pots)
        for name, state in edition.states.items():
            table = self.names.area_states if state.owner.text == "area" else self.names.states
            table[name] = _state_type(state)
        self.names.areas = {aid: i for i, aid in enumerate(edition.areas)}
        self.names.procedures = {name: len(proc.params) for name, proc in edition.procedures.items()}
        self.effects = Lowering(self.names)
        self.builds = any(section == "building" for section, _ in edition.settings)   # houses and hotels
        self.names.jail = any(section == "jail" for section, _ in edition.settings)
        self.names.removed = {key: item.span for key, item in edition.removed_decks.items()}
        self.names.absent = {section for section in lang.OPTIONAL_SECTIONS
                             if not any(used == section for used, _ in edition.settings)}
        self.names.facts = facts.stated(edition)
        dice = edition.settings.get(("game", "dice"))
        self.names.dice = dice[1].value.value if dice and isinstance(dice[1].value, syntax.Int) else None

    def error(self, code: str, message: str, span: Span, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic.at(code, message, span, hint))

    def lacks(self, items: str, what: str, item: syntax.Name, message: str, hint: str) -> None:
        """An item of a concrete edition lacks `what` (E402). Items inherited from a base are
        told once per kind of item and `what` (tell_inherited): an edition of an abstract
        base gives them all in one fix, and an error for each in the base's file buries its own."""
        diagnostic = Diagnostic.at("E402", message, item.span, hint)
        if item.span.source.name == self.edition.header.span.source.name:
            self.diagnostics.append(diagnostic)
        else:
            self.inherited.setdefault((items, what), []).append(diagnostic)

    def tell_inherited(self) -> None:
        """The first inherited item lacking each thing, with how many more lack it."""
        for (items, _), found in self.inherited.items():
            first, more = found[0], len(found) - 1
            nor = f" (nor do {more} more {items})" if more else ""
            self.diagnostics.append(replace(first, message=first.message + nor))

    def _group_kind(self, group: syntax.Group) -> str:
        for setting in group.settings:
            if setting.key.text == "kind" and isinstance(setting.value, syntax.Name):
                return setting.value.text
        return ""

    def run(self) -> dict:
        decisions = self.decisions()
        formulas = self.formulas()
        invariants = self.invariants()
        settings, notes, rent, about, printed = self.settings(decisions)
        groups = self.groups()
        squares = self.squares(groups, settings)
        self.check_rent_kinds(rent, squares)
        decks = [{"key": did, "name": deck.name.value if deck.name else None,
                  "cards": [{"text": card.text.value, "effect": self.effects.block(card.body, lang.EFFECT_NAMES, True)}
                            for card in deck.cards]}
                 for did, deck in self.edition.decks.items()]
        self.check_notes(settings)
        header = self.edition.header
        return {
            "ir_version": IR_VERSION,
            "edition": {"key": header.id.text, "lineage": list(self.edition.lineage),
                        "title": about.get("title"), "language": about.get("language"),
                        "source": about.get("source"), "abstract": not self.concrete}
                       | ({"source_language": about["source_language"]} if "source_language" in about else {})
                       | ({"words": words} if (words := {k: about[k] for k in lang.WORDS if k in about}) else {})
                       | ({"variants": list(self.edition.variants)} if self.edition.variants else {}),
            "settings": settings,
            "decisions": decisions,
            "notes": notes,
            "formulas": formulas,
            "invariants": invariants,
            "rent": rent,
            "groups": groups,
            "squares": squares,
            "decks": decks,
            "state": self.states(),
            "pots": self.pots(),
            "hooks": self.hooks(),
            "setup": self.effects.block(self.edition.setup.body, lang.EVERYWHERE, False) if self.edition.setup else [],
        } | {key: value for key, value in (("areas", self.areas()), ("procedures", self.procedures()),
                                           ("actions", self.actions()), ("statistics", self.statistics()),
                                           ("steps", self.steps(invariants)),
                                           *printed.items(),
                                           ("examples", self.examples(settings, squares)),
                                           ("sources", self.sources()))
                 if value}      # only where an edition has them, so older IR stays as it was

    def sources(self) -> dict[str, list]:
        """Where each rule the engine runs is written, by its path in the IR (`squares/ID/on_land`,
        `decks/ID/N`, `rent/KIND`, `hooks/N`, `actions/ID`, `setup`): [file, line, column, width],
        for a run-time error to point at (interpreter/errors.py)."""
        edition, out = self.edition, {}
        for sid, square in edition.squares.items():
            for key, block in (("on_land", square.on_land), ("on_pass", square.on_pass)):
                if block is not None:
                    out[f"squares/{sid}/{key}"] = _place(block.span)
        for did, deck in edition.decks.items():
            for k, card in enumerate(deck.cards):
                out[f"decks/{did}/{k}"] = _place(card.span)
        for (section, key), (_name, setting) in edition.settings.items():
            if section == "rent":
                out[f"rent/{key}"] = _place(setting.span)
        for k, hook in enumerate(edition.hooks):
            out[f"hooks/{k}"] = _place(hook.span)
        for name, action in edition.actions.items():
            out[f"actions/{name}"] = _place(action.name.span)
        if edition.setup is not None:
            out["setup"] = _place(edition.setup.span)
        return out

    # ---- contested rules -------------------------------------------------------------

    def decisions(self) -> list[dict]:
        edition = self.edition
        for rule in edition.contested.values():
            if rule.section.text not in lang.SECTIONS:
                self.error("E206", f"unknown section `{rule.section.text}`", rule.section.span,
                           did_you_mean(rule.section.text, lang.SECTIONS))
        for key, decide in edition.decisions.items():
            contested = edition.contested.get(key)
            if contested is None:
                self.error("E213", f"`{key}` is not a contested rule", _span(decide.section, decide.key),
                           did_you_mean(key, edition.contested) or
                           "declare it first: `contested " + key + " = option | option`")
                continue
            options = [o.text for o in contested.options]
            if decide.choice.text not in options:
                self.error("E210", f"`{decide.choice.text}` is not an option of `{key}`", decide.choice.span,
                           did_you_mean(decide.choice.text, options) or "the options are " + _listing(options))
        out = []
        for key, contested in edition.contested.items():
            decision = edition.decisions.get(key)
            options = [o.text for o in contested.options]
            if decision is None and self.concrete:
                self.error("E401", f"contested rule `{key}` is not decided", edition.header.span,
                           f"the options are {_listing(options)}: add `decide {key} = {options[0]}` "
                           "with a comment naming the source")
            out.append({"key": key, "choice": decision.choice.text if decision else None, "options": options,
                        "note": decision.note if decision else None, "declared_note": contested.note})
        return out

    # ---- formulas ----------------------------------------------------------------------

    def formulas(self) -> dict:
        formulas = self.edition.formulas
        calls = {name: _calls(f.body, formulas) for name, f in formulas.items()}
        recursive = set()
        for name, formula in formulas.items():
            if name in lang.BUILTINS:           # a call of the name calls the builtin
                self.error("E211", f"formula `{name}` has the name of a builtin", formula.name.span,
                           "give the formula a name other than " + _listing(lang.BUILTINS))
            path = _cycle(name, calls)
            if path:
                recursive.add(name)
                self.error("E306", f"formula `{name}` calls itself" +
                           (f" through {_listing(path[1:-1])}" if len(path) > 2 else ""), formula.name.span,
                           "formulas cannot recurse: every expression must terminate")
        for name in recursive:
            self.names.formulas[name] = Signature(tuple(ANY for _ in formulas[name].params), ANY)
        out: dict[str, dict] = {}
        for name in _topological(formulas, calls, recursive):
            formula = formulas[name]
            params = [p.text for p in formula.params]
            for i, param in enumerate(formula.params):
                if param.text in params[:i]:
                    self.error("E211", f"duplicate parameter `{param.text}`", param.span,
                               "give each parameter its own name")
            self.names.params = {p: ANY for p in params}
            self.effects.reading = {}
            body, result = self.effects.expr(formula.body, lang.EVERYWHERE | {p: ANY for p in params})
            self.names.formula_reads[name] = set(self.effects.reading)
            self.effects.reading = None
            self.names.formulas[name] = Signature(tuple(self.names.params[p] for p in params), result)
            self.names.params = {}
            out[name] = {"params": params, "body": body}
        return {name: out[name] for name in formulas if name in out}

    # ---- invariants ------------------------------------------------------------------

    def invariants(self) -> list[dict]:
        """The prelude's invariants, then the edition's (root edition first), each a yes/no
        expression over the whole game state."""
        declared = [("prelude", item) for item in _prelude()]
        builtin = {item.name.text for _, item in declared}
        for origin, item in self.edition.invariants.values():
            if item.name.text in builtin:
                self.error("E211", f"duplicate invariant `{item.name.text}`", item.name.span,
                           "a built-in invariant has that name (grammar/prelude.rules); give yours another name")
            else:
                declared.append((origin, item))
        self.check_facts()
        out = []
        for origin, item in declared:
            body, limits = self.property_body(f"invariant `{item.name.text}`", item.body, lang.EVERYWHERE)
            out.append({"name": item.name.text, "text": item.text.value, "body": body,
                        "origin": origin, "written_at": [item.span.line, item.span.column]}
                       | ({"limits": limits} if limits else {}))
        return out

    def property_body(self, what: str, body: syntax.Expr, names: dict) -> tuple[dict, dict[str, int | None]]:
        """An invariant's or a step property's body, where `fact(...)` may be used, and its
        limits: each number setting it reads, with the number the source prints where it
        reads `fact(...)` of it and the edition states one, else None (circular)."""
        self.effects.facts, self.effects.reading = True, {}
        try:
            ir = self.effects.expect(what, body, names, "bool")
            return ir, dict(sorted(self.effects.reading.items()))
        finally:
            self.effects.facts, self.effects.reading = False, None

    def check_facts(self) -> None:
        """Each `fact` names a number setting (E207, E301)."""
        for _, item in self.edition.facts.values():
            keys = self.names.settings.get(item.section.text)
            if keys is None or item.key.text not in keys:
                self.error("E207", f"unknown setting `{item.path}`", item.key.span if keys else item.section.span,
                           did_you_mean(item.key.text, keys) if keys else
                           did_you_mean(item.section.text, list(self.names.settings)))
            elif keys[item.key.text] != lang.INT:
                self.error("E301", f"a fact is a number, and `{item.path}` is `{keys[item.key.text]}`",
                           item.value.span, "state a fact of a number setting: `fact bank.houses = N \"...\"`")

    def steps(self, invariants: list[dict]) -> list[dict]:
        """The step properties (root edition first): each a yes/no expression over the state
        after every step of its kind, `old(e)` reading the state before (docs/language.md)."""
        taken = {inv["name"] for inv in invariants}
        out = []
        for origin, item in self.edition.steps.values():
            if item.name.text in taken:
                self.error("E211", f"duplicate invariant `{item.name.text}`", item.name.span,
                           "an invariant has that name (grammar/prelude.rules or the spec); give yours another name")
                continue
            on = self.step_kind(item, own=origin == self.edition.header.id.text)
            if on is None:
                continue
            names = lang.EVERYWHERE | lang.STEP_KINDS[item.kind.text][1]
            self.effects.before = True
            try:
                body, limits = self.property_body(f"step property `{item.name.text}`", item.body, names)
            finally:
                self.effects.before = False
            out.append({"name": item.name.text, "text": item.text.value, "kind": on, "body": body,
                        "origin": origin, "written_at": [item.span.line, item.span.column]}
                       | ({"limits": limits} if limits else {}))
        return out

    def step_kind(self, item: syntax.StepProperty, own: bool) -> str | None:
        """The step kind as the IR names it (`buy`, `land:ID`, `card:DECK`), or None after
        a located error (E219): an unknown kind, a square or deck that is not the edition's,
        or, in the concrete edition that writes the property (`own`), a square without the
        rules the kind runs (one a child took away, `remove on_pass of go`, leaves its parent's
        property with no step to check: its row has no verdict)."""
        kind, of = item.kind.text, item.of
        if kind not in lang.STEP_KINDS:
            self.error("E219", f"unknown kind of step `{kind}`", item.kind.span,
                       did_you_mean(kind, list(lang.STEP_KINDS)) or "kinds are " + ", ".join(lang.STEP_KINDS))
            return None
        wants = lang.STEP_KINDS[kind][0]
        if wants is None:
            if of is not None:
                self.error("E219", f"a `{kind}` step is of no {of.text}", of.span, f"write `on {kind}`")
                return None
            return kind
        if of is None:
            self.error("E219", f"a `{kind}` step names its {wants}", item.kind.span,
                       f"write `on {kind}({wants.upper()})`")
            return None
        if wants == "deck":
            if of.text not in self.edition.decks:
                known = list(self.edition.decks)
                self.error("E219", f"unknown deck `{of.text}`", of.span,
                           did_you_mean(of.text, known) or "decks are " + ", ".join(known))
                return None
            return f"{kind}:{of.text}"
        square = self.edition.squares.get(of.text)
        if square is None:
            self.error("E219", f"unknown square `{of.text}`", of.span,
                       did_you_mean(of.text, list(self.edition.squares)) or "name a square of the board")
            return None
        if own and self.concrete and (square.on_land if kind == "land" else square.on_pass) is None:
            self.error("E219", f"square `{of.text}` has no `on_{kind}` rules: no `{kind}` step runs them", of.span,
                       f"give the square `on_{kind} {{ ... }}`, or scope the property to a square that has them")
            return None
        return f"{kind}:{of.text}"

    # ---- state, pots and hooks -------------------------------------------------------

    def states(self) -> list[dict]:
        out = []
        for name, state in self.edition.states.items():
            parts: tuple[tuple[syntax.Name, Collection[str]], ...]
            if state.element is None:
                parts = ((state.owner, lang.STATE_OWNERS), (state.container, lang.STATE_SCALARS))
                kind = state.container.text
            else:
                parts = ((state.owner, ("player",)), (state.container, lang.STATE_CONTAINERS),
                         (state.element, lang.STATE_ELEMENTS))
                kind = f"{state.container.text} of {state.element.text}"
            for part, allowed in parts:
                if part.text not in allowed:
                    self.error("E216", f"state `{name}` cannot be of `{part.text}`", part.span,
                               "the state the engine keeps is `state player.NAME : set of square` "
                               "or `state player.NAME : int` / `state area.NAME : int`")
                    break
            out.append({"owner": state.owner.text, "name": name, "type": kind})
        return out

    def statistics(self) -> list[dict]:
        return [{"name": name, "text": item.text.value,
                 "body": self.effects.expect(f"statistic `{name}`", item.body, lang.EVERYWHERE, "number")}
                for name, item in self.edition.statistics.items()]

    # ---- worked examples ----------------------------------------------------------------

    def examples(self, settings: dict, squares: list[dict]) -> list[dict]:
        """Each example's players, set-up steps and turns (names checked against the board
        and the seats), and its expectations as yes/no expressions over the game state with
        the players' names bound."""
        kinds = {square["key"]: square["kind"] for square in squares}
        out = []
        for origin, example in self.edition.examples.values():
            players = self.example_players(example, settings.get("game", {}).get("players"))
            seats = {player.text for player in players}
            placed: dict[str, set[int]] = {}      # per deck: the cards `card` lines set on top
            steps = [self.example_step(step, seats, kinds, settings, placed) for step in example.steps]
            scope = lang.EVERYWHERE | {player.text: lang.PLAYER for player in players}
            expects = [self.example_expect(step, scope) for step in example.expects]
            out.append({"name": example.name.text, "text": example.text.value, "origin": origin,
                        "written_at": [example.span.line, example.span.column],
                        "players": [player.text for player in players], "steps": steps, "expect": expects})
        return out

    def example_expect(self, step: syntax.ExampleStep, scope: Scope) -> dict:
        """`expect CONDITION`: a yes/no expression over the game state, and its words."""
        assert step.expr is not None, "the grammar gives an `expect` line its condition"
        return {"body": self.effects.expect("an expectation", step.expr, scope, "bool"),
                "text": _source_text(step.expr.span), "written_at": [step.span.line, step.span.column]}

    def example_step(self, step: syntax.ExampleStep, seats: set[str], kinds: dict[str, str], settings: dict,
                     placed: dict[str, set[int]]) -> dict:
        """One line of an example, its names checked against the seats and the board."""
        for who in (*step.players, *(sale.buyer for sale in step.sales), *(bid.bidder for bid in step.bids)):
            if who.text not in seats:
                self.error("E209", f"unknown player `{who.text}`", who.span,
                           did_you_mean(who.text, seats) or
                           f"the example's players are {_listing(sorted(seats))}")
        entry: dict[str, Any] = {"step": step.what, "written_at": [step.span.line, step.span.column]}
        if step.players:
            entry["player"] = step.players[-1].text
        if step.what == "set":
            entry |= self.example_set(step, seats)
        elif step.what == "mark":
            entry |= self.example_mark(step, kinds)
        elif step.squares:
            entry["squares"] = self.example_squares(step, kinds, settings)
        if step.number is not None:
            entry["number"] = step.number
        if step.what == "jail" and not self.names.jail:
            self.error("E406", "`jail` in an example of an edition without a `jail` section", step.span,
                       "this game has no jail: remove the line")
        if step.what == "card":
            entry |= self.example_card(step, placed)
        if step.what == "turn":
            entry |= self.example_turn(step, kinds, settings)
        return entry

    def example_turn(self, step: syntax.ExampleStep, kinds: dict[str, str], settings: dict) -> dict:
        """A `turn` line: its throws, choices, labels, sales and bids."""
        entry: dict = {"throws": [list(throw) for throw in step.throws], "choices": list(step.choices)}
        if step.labels:
            entry["labels"] = [label.value for label in step.labels]
        if step.sales:
            entry["sales"] = self.example_sales(step, kinds, settings)
        if step.bids:
            entry["bids"] = self.example_bids(step)
        self.example_throws(step, settings.get("game", {}))
        return entry

    def example_players(self, example: syntax.Example, allowed: dict | None) -> tuple[syntax.Name, ...]:
        """The seats' names of an example (its first line), each a new name."""
        first = example.players
        taken = set(lang.EVERYWHERE) | set(self.names.squares) | set(self.names.groups) | set(self.names.decks) \
            | set(self.names.pots) | set(self.names.settings)
        seen: set[str] = set()
        for name in first.players:
            if name.text in seen or name.text in taken:
                self.error("E211", f"player name `{name.text}` is " +
                           ("given twice" if name.text in seen else "already a name of the game"), name.span,
                           "give each player a name of their own")
            seen.add(name.text)
        if allowed and not allowed["min"] <= len(first.players) <= allowed["max"]:
            self.error("E302", f"example `{example.name.text}` has {len(first.players)} players, the game is for "
                       f"{allowed['min']} to {allowed['max']}", first.span, "name as many players as the game allows")
        return first.players

    def example_squares(self, step: syntax.ExampleStep, kinds: dict[str, str], settings: dict) -> list[str]:
        """The squares a line names: deeds for `give`, `mortgage` and a turn's `sells`, lots
        for `houses` and `hotel`, any square for `put`."""
        wanted = {"give": lang.DEED_KINDS, "mortgage": lang.DEED_KINDS, "sells": lang.DEED_KINDS, "houses": ("lot",),
                  "hotel": ("lot",)}
        for name in step.squares:
            kind = kinds.get(name.text)
            if kind is None:
                fit = wanted.get(step.what)
                what = "squares" if fit is None else "lots" if fit == ("lot",) else "deeds"
                self.error("E203", f"unknown square `{name.text}`", name.span,
                           known(name.text, [k for k, v in kinds.items() if fit is None or v in fit], what))
            elif step.what in wanted and kind not in wanted[step.what]:
                lots = step.what in ("houses", "hotel")
                self.error("E307", f"`{step.what}` needs {'a lot' if lots else 'a deed'}, `{name.text}` is a {kind}",
                           name.span,
                           did_you_mean(name.text, [k for k, v in kinds.items() if v in wanted[step.what]])
                           or ("houses and hotels stand on lots" if lots
                               else "only a lot, station or utility is a deed"))
        if step.what in ("houses", "hotel") and not self.builds:
            self.error("E302", f"`{step.what}` in an example of an edition without houses and hotels", step.span,
                       "this game has no `building` section: remove the line")
        limit = settings.get("building", {}).get("max_houses")
        if step.what == "houses" and limit is not None and step.number is not None and not 1 <= step.number <= limit:
            self.error("E302", f"`houses {step.number}`: a lot holds 1 to {limit} houses", step.span,
                       "for a hotel write `hotel on LOT`")
        return [name.text for name in step.squares]

    def example_sales(self, step: syntax.ExampleStep, kinds: dict[str, str], settings: dict) -> list[dict]:
        """`sells DEED, ... to BUYER for N`: deeds, another player, one sale a turn (the
        engine takes one offer in a manage window)."""
        for extra in step.sales[1:]:
            self.error("E302", "a turn makes one sale", extra.span,
                       "sell in a later turn, or several deeds in one sale")
        seller = step.players[-1].text
        out = []
        for sale in step.sales:
            if sale.buyer.text == seller:
                self.error("E302", f"`{seller}` sells to `{seller}`", sale.buyer.span, "a sale is to another player")
            deeds = self.example_squares(replace(step, what="sells", squares=sale.deeds), kinds, settings)
            out.append({"deeds": deeds, "buyer": sale.buyer.text, "price": sale.price})
        return out

    def example_bids(self, step: syntax.ExampleStep) -> list[dict]:
        """`BIDDER bids up to N`: one limit a bidder a turn, above nothing."""
        out, seen = [], set()
        for bid in step.bids:
            if bid.bidder.text in seen:
                self.error("E302", f"`{bid.bidder.text}` bids twice in one turn", bid.span,
                           "give each bidder one limit a turn: the highest bid they would make")
            if bid.limit < 1:
                self.error("E302", f"`{bid.bidder.text}` bids up to {bid.limit}", bid.span,
                           "a limit is at least the smallest raise; a player who bids nothing needs no line")
            seen.add(bid.bidder.text)
            out.append({"player": bid.bidder.text, "limit": bid.limit})
        return out

    def example_set(self, step: syntax.ExampleStep, seats: set[str]) -> dict:
        """`set AREA.STATE = N`: an area's declared number (blocks stacked, a roof); `set
        PLAYER.STATE = N`: a player's (`set_player`)."""
        area, state = step.squares[0], step.state
        assert state is not None, "the grammar gives a `set` line its state"
        if area.text in seats:
            numbers = [name for name, t in self.names.states.items() if t == lang.INT]
            if state.text not in numbers:
                self.error("E214", f"players have no declared number `{state.text}`", state.span,
                           did_you_mean(state.text, numbers) or "declare it: `state player.NAME : int`")
            return {"step": "set_player", "player": area.text, "state": state.text, "number": step.number}
        if area.text not in self.names.areas:
            self.error("E203", f"unknown area or player `{area.text}`", area.span,
                       did_you_mean(area.text, [*self.names.areas, *seats]) or
                       "`set` gives an area's or a player's declared number")
        elif state.text not in self.names.area_states:
            self.error("E214", f"areas have no declared number `{state.text}`", state.span,
                       did_you_mean(state.text, self.names.area_states) or "declare it: `state area.NAME : int`")
        return {"area": area.text, "state": state.text, "number": step.number}

    def example_mark(self, step: syntax.ExampleStep, kinds: dict[str, str]) -> dict:
        """`mark SQUARE, ... in PLAYER.STATE`: squares already in a player's declared set of
        squares (a passport stamped before the example starts)."""
        state = step.state
        assert state is not None, "the grammar gives a `mark` line its state"
        declared = self.names.states.get(state.text)
        if declared is None or declared.name != "set" or declared.element != lang.SQUARE:
            sets = [n for n, t in self.names.states.items() if t.name == "set" and t.element == lang.SQUARE]
            self.error("E214", f"players have no declared set of squares `{state.text}`", state.span,
                       did_you_mean(state.text, sets) or "declare it: `state player.NAME : set of square`")
        for name in step.squares:
            if name.text not in kinds:
                self.error("E203", f"unknown square `{name.text}`", name.span, known(name.text, kinds, "squares"))
        return {"state": state.text, "squares": [name.text for name in step.squares]}

    def example_card(self, step: syntax.ExampleStep, placed: dict[str, set[int]]) -> dict:
        """`card "TEXT" on top of DECK`: the deck, and the number of its card printed so; a
        deck with several cards printed alike gives its next one to each line naming them."""
        name, card = step.deck, step.card
        assert name is not None and card is not None, "the grammar gives a `card` line its card and deck"
        deck = self.edition.decks.get(name.text)
        if deck is None:
            self.error("E205", f"unknown deck `{name.text}`", name.span, did_you_mean(name.text, self.edition.decks))
            return {}
        texts = [printed.text.value for printed in deck.cards]
        if card.value not in texts:
            self.error("E210", f"no card of `{name.text}` reads \"{card.value}\"", card.span,
                       did_you_mean(card.value, texts) or "quote the card's text as the deck gives it")
            return {}
        taken = placed.setdefault(name.text, set())
        copies = [i for i, text in enumerate(texts) if text == card.value and i not in taken]
        if not copies:
            self.error("E210", f"every card of `{name.text}` that reads \"{card.value}\" is on top already",
                       card.span, "name each copy of a card once")
            return {}
        taken.add(copies[0])
        return {"deck": name.text, "card": copies[0]}

    def example_throws(self, step: syntax.ExampleStep, game: dict) -> None:
        """Every throw of a `turn` shows one face per die, or one face (a die thrown on its
        own by a rule's `throw`), each a face the dice have."""
        dice, faces = game.get("dice"), game.get("die_faces")
        for throw in step.throws:
            if dice is not None and len(throw) not in (dice, 1) or \
                    faces is not None and not all(1 <= f <= faces for f in throw):
                self.error("E302", f"a throw of this game is {dice} dice of 1 to {faces}, found "
                           f"`{' '.join(map(str, throw))}`", step.span,
                           f"write each throw as {dice} numbers (or one, for a die a rule's `throw` throws alone)")
                return

    # ---- the city: areas, procedures, actions --------------------------------------------

    def areas(self) -> list[dict]:
        out = []
        for aid, area in self.edition.areas.items():
            entry = {"key": aid, "name": area.name.value if area.name else None} | \
                self.keyed("area", lang.AREA_KEYS, aid, area.settings)
            given = {setting.key.text for setting in area.settings}
            for key in lang.AREA_KEYS:
                if key not in given and lang.AREA_KEYS[key].required:
                    self.error("E402", f"area `{aid}` has no `{key}`", area.id.span,
                               f"add `{key} = ...` to `area {aid}`")
            out.append(entry)
        return out

    def procedures(self) -> dict:
        """Each procedure's statements; one may run (`do`) only procedures written above it,
        so no procedure can run itself."""
        out: dict[str, dict] = {}
        written: set[str] = set()
        for name, proc in self.edition.procedures.items():
            params = [p.text for p in proc.params]
            self.effects.callable_procedures = set(written)
            body = self.effects.block(proc.body, lang.EFFECT_NAMES | {p: ANY for p in params}, False)
            out[name] = {"params": params, "body": body}
            written.add(name)
        self.effects.callable_procedures = None
        return out

    def actions(self) -> list[dict]:
        out = []
        for name, action in self.edition.actions.items():
            over, t = self.effects.expr(action.over, lang.EFFECT_NAMES)
            if t.name not in ("set", "any"):
                self.error("E301", f"action `{name}` ranges over a set, found `{t}`", action.over.span,
                           "a set is `areas`, `squares`, `p.deeds`, ...")
            scope = lang.EFFECT_NAMES | {action.var.text: t.element or ANY}
            entry: dict = {"key": name, "label": action.label.value if action.label else None,
                           "var": action.var.text, "over": over, "element": (t.element or ANY).name,
                           "windows": self.windows(action), "required": None}
            for setting in action.settings:
                key = setting.key.text
                if key not in lang.ACTION_KEYS:
                    self.error("E207", f"unknown action setting `{key}`", setting.key.span,
                               did_you_mean(key, lang.ACTION_KEYS))
                    continue
                if isinstance(setting.value, syntax.NOT_EXPRESSIONS):
                    self.wrong_kind(lang.ACTION_KEYS[key], setting.value, f"{name}.{key}")
                    entry[key] = None       # given, though wrong: no knock-on "has no `allowed`"
                    continue
                # `allowed` reads the element; `required` speaks of the player, for all elements at once
                entry[key] = self.effects.expect(f"`{name}.{key}`", setting.value,
                                                 scope if key == "allowed" else lang.EFFECT_NAMES, "bool")
                if setting.note:
                    entry[f"{key}_note"] = setting.note
            if "allowed" not in entry:
                self.error("E402", f"action `{name}` has no `allowed`", action.name.span,
                           "say when it may be taken: `allowed = CONDITION`")
            entry["effect"] = self.effects.block(action.effect, scope, False)
            out.append(entry)
        return out

    def windows(self, action: syntax.Action) -> list[str]:
        """The windows an action is offered in, in the language's order (no `at`: the end of
        the turn); a window named twice or unknown is an error."""
        named: list[str] = []
        for window in action.windows:
            if window.text not in lang.WINDOWS:
                self.error("E210", f"`{window.text}` is not a window an action is offered in", window.span,
                           did_you_mean(window.text, lang.WINDOWS) or "the windows are " + _listing(lang.WINDOWS))
            elif window.text in named:
                self.error("E211", f"action `{action.name.text}` names the window `{window.text}` twice",
                           window.span, "name each window once")
            else:
                named.append(window.text)
        return [w for w in lang.WINDOWS if w in named] if named else list(lang.DEFAULT_WINDOWS)

    def pots(self) -> list[dict]:
        out = []
        for pid, pot in self.edition.pots.items():
            out.append({"key": pid, "name": pot.name.value if pot.name else None, "takes": []}
                       | self.keyed("pot", lang.POT_KEYS, pid, pot.settings))
        return out

    def keyed(self, what: str, keys: dict[str, Key], owner: str, settings: tuple[syntax.Setting, ...]) -> dict:
        """The settings of one item (a pot, an area) against its keys: unknown keys are E207."""
        out = {}
        for setting in settings:
            key = setting.key.text
            if key not in keys:
                self.error("E207", f"unknown {what} setting `{key}`", setting.key.span, did_you_mean(key, keys))
                continue
            value = self.value(keys[key], setting, f"{owner}.{key}")
            if value is not None:
                out[key] = value
        return out

    def hooks(self) -> list[dict]:
        out = []
        for hook in self.edition.hooks:
            event, var = hook.event.text, hook.var.text
            if event not in lang.EVENTS:
                self.error("E215", f"unknown event `{event}`", hook.event.span,
                           did_you_mean(event, lang.EVENTS) or "events are " + _listing(lang.EVENTS))
                continue
            bound = lang.EVENTS[event]
            for way in hook.by:
                if event != "acquire":
                    self.error("E215", f"`by` is for `acquire` hooks, not `{event}`", way.span,
                               "remove `by ...`: only a deed changing hands has a way")
                elif way.text not in lang.ACQUIRE_WAYS:
                    self.error("E210", f"`{way.text}` is not a way to acquire a deed", way.span,
                               did_you_mean(way.text, lang.ACQUIRE_WAYS)
                               or "the ways are " + _listing(lang.ACQUIRE_WAYS))
            state = None
            if event == "add":
                declared = None if hook.to is None else self.names.states.get(hook.to.text)
                if hook.to is None or declared is None or declared.element is None:     # a set to add to
                    where = hook.to or hook.event
                    self.error("E215", "`when add(...)` names a declared state with `to`", where.span,
                               did_you_mean(where.text, [n for n in self.names.states if n != where.text])
                               or "write `when add(x) to STATE { ... }`")
                else:
                    state = hook.to.text
                    bound = declared.element
            elif hook.to is not None:
                self.error("E215", f"`to` is for `add` hooks, not `{event}`", hook.to.span, "remove `to ...`")
            scope = lang.EFFECT_NAMES | {var: bound}
            cond = None if hook.cond is None else self.effects.expect("a hook's condition", hook.cond, scope, "bool")
            out.append({"event": event, "var": var, "via": [w.text for w in hook.by], "state": state,
                        "cond": cond, "body": self.effects.block(hook.body, scope, False),
                        "written_at": [hook.span.line, hook.span.column]})
        return out

    # ---- settings --------------------------------------------------------------------

    def settings(self, decisions: list[dict]) -> tuple[dict, dict, dict, dict, dict]:
        settings: dict[str, dict] = {section: {} for section in lang.SECTIONS
                                     if section != lang.EDITION_SECTION and section not in lang.PRINTED_SECTIONS}
        printed: dict[str, dict] = {section: {} for section in lang.PRINTED_SECTIONS}
        notes: dict[str, str] = {}
        rent: dict[str, dict] = {}
        about: dict = {}
        unknown_sections: set[tuple[int, int, str]] = set()
        for (section, key), (section_name, setting) in self.edition.settings.items():
            keys = lang.SECTIONS.get(section)
            if keys is None:
                where = (section_name.span.line, section_name.span.column, section_name.span.source.name)
                if where not in unknown_sections:
                    unknown_sections.add(where)
                    self.error("E206", f"unknown section `{section}`", section_name.span,
                               did_you_mean(section, lang.SECTIONS))
                continue
            path = f"{section}.{key}"
            if key not in keys:
                hint = did_you_mean(key, keys) or f"the keys of `{section}` are " + _listing(tuple(keys))
                if path in self.edition.contested:
                    hint = f"`{path}` is a contested rule: write `decide {path} = ...` with a comment naming the source"
                self.error("E207", f"unknown setting `{path}`", setting.key.span, hint)
                continue
            value = self.value(keys[key], setting, path)
            if value is None:
                continue
            if setting.note:
                notes[path] = setting.note
            if section == lang.EDITION_SECTION:
                about[key] = value
            elif section in printed:
                printed[section][key] = value
            elif keys[key].kind == "rent":
                rent[key] = value
            else:
                settings[section][key] = value
        for decision in decisions:
            section, key = decision["key"].split(".", 1)
            if decision["choice"] is not None and section in settings:
                settings[section][key] = decision["choice"]
        if self.concrete:
            self.required_settings(settings)
        return settings, notes, rent, about, printed

    def required_settings(self, settings: dict[str, dict]) -> None:
        """A concrete edition's missing required settings (E402), and the sections it leaves
        out read as absent parts."""
        used = {section for section, _ in self.edition.settings}
        for section, keys in lang.SECTIONS.items():
            if section in lang.OPTIONAL_SECTIONS and section not in used:
                # the game has no such part: its counts read as 0 and its rules as `no`
                # (docs/language.md), so `bank.houses` still means something to an invariant
                settings[section] = {key: 0 if spec.kind == "int" else False
                                     for key, spec in keys.items() if spec.kind in ("int", "bool")}
                continue
            for key, spec in keys.items():
                if spec.kind == "rent":
                    continue      # required per kind of deed on the board: check_rent_kinds
                if spec.required and (section, key) not in self.edition.settings:
                    self.error("E402", f"required setting `{section}.{key}` is missing",
                               self.edition.header.span,
                               f"a concrete edition must set it: add `{key} = ...` to the `{section}` section")

    def value(self, key: Key, setting: syntax.Setting, path: str, of_kind: str | None = None) -> Any:
        """The IR value of one setting, or None (and an error) when it is not of its key's kind
        (`of_kind`: the kind of the deed it belongs to, whose groups an unknown group's hint lists)."""
        v = setting.value
        kind = key.kind
        if kind == "int" and (number := _whole(v)) is not None:
            return number if self.within(key, [number], v.span, path) else None
        elif kind == "bool" and isinstance(v, syntax.Bool):
            return v.value
        elif kind == "text" and isinstance(v, syntax.Text):
            return v.value
        elif kind == "name" and isinstance(v, syntax.Name):
            return v.text
        elif kind == "range" and isinstance(v, syntax.Range):
            if v.low > v.high:
                self.error("E302", f"`{path}` is an empty range: {v.low} is more than {v.high}", v.span,
                           "write the smaller bound first")
                return None
            return {"min": v.low, "max": v.high}
        elif kind == "notes" and isinstance(v, syntax.Notes):
            return self.notes_value(v, path)
        elif kind == "numbers" and isinstance(v, syntax.Numbers):
            return list(v.values) if self.within(key, v.values, v.span, path) else None
        elif kind in ("names", "squares") and isinstance(v, syntax.Names):
            return self.names_value(key, v, path)
        elif kind in ("square", "group", "formula", "enum", "word") and isinstance(v, syntax.Name):
            return self.name_value(key, v, path, of_kind)
        elif kind == "texts" and isinstance(v, (syntax.Text, syntax.Texts)):
            return [v.value] if isinstance(v, syntax.Text) else list(v.values)
        elif kind == "condition" and not isinstance(v, syntax.NOT_EXPRESSIONS):
            return self.effects.expect(f"`{path}`", v, lang.EVERYWHERE, "bool")
        elif kind in EXPRESSION_KINDS and not isinstance(v, syntax.NOT_EXPRESSIONS):
            return self.expression_value(kind, v, path)
        self.wrong_kind(key, v, path)
        return None

    def expression_value(self, kind: str, v: syntax.Expr, path: str) -> dict:
        """A setting that is an expression of its kind's names (`EXPRESSION_KINDS`); an amount
        printed on a deed (E301) reads nothing of the game."""
        names, wanted = EXPRESSION_KINDS[kind]
        errors = len(self.diagnostics)
        ir = self.effects.expect(f"`{path}`", v, names, wanted)
        if kind == "printed" and len(self.diagnostics) == errors and not _printed_only(ir):
            self.error("E301", f"`{path}` is an amount printed on the deed: it reads only numbers, "
                       f"settings and `here`'s {_listing(lang.PRINTED_DEED_ATTRS)}", v.span,
                       "it is one number a deed, the same for every holder at every moment; "
                       "a formula or another square would read the game")
        return ir

    def wrong_kind(self, key: Key, v: syntax.Value, path: str) -> None:
        """E302: a setting's value is not of its key's kind."""
        kind = key.kind
        wanted = "one of " + _listing(key.options) if kind == "enum" else KIND_WORDS.get(kind, "an expression")
        self.error("E302", f"`{path}` must be {wanted}, found {_describe(v)}", v.span,
                   "texts are quoted, numbers and names are not"
                   if isinstance(v, syntax.Text) or kind in ("text", "texts")
                   else f"write `{path.rsplit('.', 1)[1]} = ` and {wanted}")

    def names_value(self, key: Key, v: syntax.Names, path: str) -> list[str] | None:
        """A list of options or of squares, or None (and an error for each unknown one)."""
        if key.kind == "names":
            bad = [n for n in v.names if n.text not in key.options]
            for n in bad:
                self.error("E210", f"`{n.text}` is not an option of `{path}`", n.span,
                           did_you_mean(n.text, key.options) or "the options are " + _listing(key.options))
        else:
            bad = [n for n in v.names if n.text not in self.names.squares]
            for n in bad:
                self.error("E203", f"unknown square `{n.text}`", n.span, known(n.text, self.names.squares, "squares"))
        return None if bad else [n.text for n in v.names]

    def name_value(self, key: Key, v: syntax.Name, path: str, of_kind: str | None) -> str | None:
        """A square, group, formula or option named by a setting, or None (and an error) when
        there is none of that name."""
        kind = key.kind
        if kind == "square" and v.text not in self.names.squares:
            self.error("E203", f"unknown square `{v.text}`", v.span, known(v.text, self.names.squares, "squares"))
            return None
        if kind == "group" and v.text not in self.names.groups:
            fit = [gid for gid, group_kind in self.names.groups.items() if of_kind in (None, group_kind)]
            self.error("E204", f"unknown group `{v.text}`", v.span,
                       known(v.text, fit, f"{of_kind} groups" if of_kind else "groups"))
            return None
        if kind == "formula":
            signature = self.names.formulas.get(v.text)
            if v.text not in self.edition.formulas:
                self.error("E208", f"unknown formula `{v.text}`", v.span, did_you_mean(v.text, self.edition.formulas))
                return None
            if signature is not None and len(signature.params) != 1:
                self.error("E305", f"`{path}` needs a formula of one player, `{v.text}` takes "
                           f"{len(signature.params)}", v.span, f"define `formula {v.text}(p) = ...`")
                return None
        if kind == "enum" and v.text not in key.options:
            self.error("E210", f"`{v.text}` is not an option of `{path}`", v.span,
                       did_you_mean(v.text, key.options) or "the options are " + _listing(key.options))
            return None
        if kind == "word" and v.text not in key.options:
            close = did_you_mean(v.text, key.options)
            self.error("E210", f"`{v.text}` is not a word the rulebook's glossary knows (`{path}`)", v.span,
                       (f"{close} " if close else "") + "the glossary's words are " + _listing(key.options))
            return None
        return v.text

    def within(self, key: Key, numbers: Sequence[int], span: Span, path: str) -> bool:
        """Whether every number is within the key's bounds (the engine's limits, the rules'
        sense); E302 at the value for the first that is not."""
        wrong = [n for n in numbers if key.least is not None and n < key.least or key.most is not None and n > key.most]
        if not wrong:
            return True
        bounds = f"from {key.least} to {key.most}" if key.most is not None else f"of at least {key.least}"
        noun = "a whole number" if key.kind == "int" else "whole numbers"
        self.error("E302", f"`{path}` must be {noun} {bounds}, found {wrong[0]}", span, key.hint)
        return False

    def check_rent_kinds(self, rent: dict, squares: list[dict]) -> None:
        """Every kind of deed on the board has its rent formula."""
        if not self.concrete:
            return
        for kind in sorted({square["kind"] for square in squares if square["deed"] is not None}):
            if kind not in rent:
                self.error("E402", f"required setting `rent.{kind}` is missing", self.edition.header.span,
                           f"the board has {kind}s: add `{kind} = ...` to the `rent` section")

    def notes_value(self, notes: syntax.Notes, path: str) -> list[dict] | None:
        """`[COUNT x VALUE, ...]`, each note counted and worth at least 1 (else E302, None)."""
        empty = next((n for n in notes.notes if n.count < 1 or n.value < 1), None)
        if empty is not None:
            self.error("E302", f"`{path}` has a note of {empty.count} x {empty.value}: a count and a value "
                       "are at least 1", empty.span, "write each note as `COUNT x VALUE`, both 1 or more")
            return None
        return [{"count": n.count, "value": n.value} for n in notes.notes]

    def check_notes(self, settings: dict) -> None:
        """INVARIANT (money): the starting notes add up to the starting money."""
        money = settings.get("money", {})
        if "notes" in money and "start" in money:
            total = sum(n["count"] * n["value"] for n in money["notes"])
            if total != money["start"]:
                _, setting = self.edition.settings[("money", "notes")]
                self.error("E304", f"the notes add up to {total}, not to `money.start` ({money['start']})",
                           setting.value.span, "change a count or a value, or `money.start`")

    # ---- the board ---------------------------------------------------------------------

    def groups(self) -> list[dict]:
        members: dict[str, list[int]] = {gid: [] for gid in self.edition.groups}
        for index, square in enumerate(self.edition.squares.values()):
            for setting in square.settings:
                if setting.key.text != "group":
                    continue
                if isinstance(setting.value, syntax.Name) and self.names.groups.get(setting.value.text) == square.kind:
                    members[setting.value.text].append(index)
                else:
                    self.strays.add(square.kind)
        out = []
        for gid, group in self.edition.groups.items():
            entry: dict = {"key": gid, "name": group.name.value if group.name else None, "kind": None,
                           "color": None}
            for setting in group.settings:
                key = setting.key.text
                if key not in lang.GROUP_KEYS:
                    self.error("E207", f"unknown group setting `{key}`", setting.key.span,
                               did_you_mean(key, lang.GROUP_KEYS))
                    continue
                value = self.value(lang.GROUP_KEYS[key], setting, f"{gid}.{key}")
                if value is not None:
                    entry[key] = value
            if entry["kind"] is None:
                self.error("E402", f"group `{gid}` has no `kind`", group.id.span,
                           "add `kind = lot`, `kind = station` or `kind = utility`")
            if self.concrete and entry["kind"] == "lot" and self.builds:
                for key in ("house_cost", "hotel_cost"):
                    if key not in entry:
                        self.lacks("lot groups", key, group.id, f"lot group `{gid}` has no `{key}`",
                                   f"add `{key} = ...` to `group {gid}`")
            if not members[gid]:
                self.error("E403", f"group `{gid}` is empty: no square belongs to it", group.id.span,
                           f"give a deed square `group = {gid}`, or remove the group")
            entry["squares"] = members[gid]
            out.append(entry)
        return out

    def squares(self, groups: list[dict], settings: dict) -> list[dict]:
        by_id = {group["key"]: group for group in groups}
        max_houses = settings.get("building", {}).get("max_houses")
        priced = not settings.get("auction", {}).get("only", False)     # auction-only deeds have no price
        mortgages = "mortgage" in {section for section, _ in self.edition.settings}
        if self.concrete and not self.edition.squares:
            self.error("E402", "the edition has no board", self.edition.header.span,
                       "add `board { ... }` with the squares in order, or extend an edition that has one")
        out = []
        for index, (sid, square) in enumerate(self.edition.squares.items()):
            deed = self.deed(square, by_id, max_houses, priced, mortgages) if square.kind in lang.DEED_KINDS else None
            marks: dict = {}
            for setting in square.settings:
                key = setting.key.text
                if key in lang.SQUARE_KEYS:
                    marks[key] = self.value(lang.SQUARE_KEYS[key], setting, f"{sid}.{key}")
                elif square.kind not in lang.DEED_KINDS:
                    self.error("E207", f"a plain square has no setting `{key}`", setting.key.span,
                               did_you_mean(key, lang.SQUARE_KEYS) or
                               "only `lot`, `station` and `utility` squares hold a deed")
            if self.concrete and square.name is None:
                self.lacks("squares", "name", square.id, f"square `{sid}` has no name",
                           f"write its printed name after the id: `{square.kind} {sid} \"...\"`")
            out.append({
                "index": index, "key": sid, "name": square.name.value if square.name else None,
                "kind": square.kind, "deed": deed, **{key: value for key, value in marks.items() if value is not None},
                "on_land": self.effects.block(square.on_land.body, lang.EFFECT_NAMES, False) if square.on_land else [],
                "on_pass": self.effects.block(square.on_pass.body, lang.EFFECT_NAMES, False) if square.on_pass else [],
            })
        return out

    def deed(self, square: syntax.Square, groups: dict[str, dict], max_houses: int | None,
             priced: bool, mortgages: bool) -> dict:
        keys = lang.DEED_KEYS | (lang.LOT_KEYS if square.kind == "lot" else {})
        deed: dict = {}
        given: dict[str, syntax.Setting] = {}
        for setting in square.settings:
            key = setting.key.text
            if key in lang.SQUARE_KEYS:
                continue
            if key not in keys:
                self.error("E207", f"unknown {square.kind} setting `{key}`", setting.key.span,
                           did_you_mean(key, keys))
                continue
            value = self.value(keys[key], setting, f"{square.id.text}.{key}", square.kind)
            if value is not None:
                deed[key] = value
                given[key] = setting
        group = groups.get(deed["group"]) if "group" in deed else None
        if all(setting.key.text != "group" for setting in square.settings):
            self.error("E402", f"{square.kind} `{square.id.text}` has no `group`", square.id.span,
                       f"add `group = ...` naming a group of kind {square.kind}")
        elif group is not None and group["kind"] not in (None, square.kind):
            self.error("E307", f"{square.kind} `{square.id.text}` is in group `{group['key']}` of kind "
                       f"{group['kind']}", given["group"].value.span,
                       f"put it in a group of kind {square.kind}, or make it a {group['kind']}")
        if self.concrete:
            needed = ("price",) * priced + ("mortgage",) * mortgages + ("rent",)
            for key in needed:
                if key not in given:
                    self.lacks("deeds", key, square.id, f"deed `{square.id.text}` has no `{key}`",
                               f"add `{key} = ...` to `{square.kind} {square.id.text}`")
        if square.kind == "lot" and group is not None:
            for key in ("house_cost", "hotel_cost"):
                if key not in deed and key in group:
                    deed[key] = group[key]
        if "rent" in deed and group is not None:
            self.check_rent_count(square, deed["rent"], group, given["rent"], max_houses)
        return deed

    def check_rent_count(self, square: syntax.Square, rents: list, group: dict, given: syntax.Setting,
                         max_houses: int | None) -> None:
        """E303 when a deed gives more or fewer rents than the cases it can be in."""
        wanted: int | None
        if square.kind == "lot":
            wanted, why = (max_houses + 2 if max_houses is not None and self.builds else None), \
                "unbuilt, 1 to `building.max_houses` houses, and a hotel"
        elif square.kind in self.strays:     # a group one short: the stray deed's error says why
            wanted, why = None, ""
        else:
            wanted = len(group["squares"])
            why = f"one for each number of {square.kind}s of group `{group['key']}` an owner can hold"
        if wanted is not None and len(rents) != wanted:
            self.error("E303", f"{square.kind} `{square.id.text}` has {len(rents)} rents, "
                       f"it needs {wanted}", given.value.span, f"one rent per case: {why}")


def _place(span: Span) -> list:
    """[file, line, column, width] of a span, underlined to the end of its first line if it runs on."""
    end = span.end_column if span.end_line == span.line else len(span.source.line(span.line)) + 1
    return [span.source.name, span.line, span.column, max(1, end - span.column)]


def _source_text(span: Span) -> str:
    """The words a span covers, as written (an expectation, quoted when it fails)."""
    lines = [span.source.line(n) for n in range(span.line, span.end_line + 1)]
    lines[-1] = lines[-1][: span.end_column - 1]
    lines[0] = lines[0][span.column - 1:]
    return " ".join(line.strip() for line in lines)


def _state_type(state: syntax.State) -> Type:
    """What reading a declared state gives: a set of its elements, or a number."""
    if state.element is None:
        return lang.STATE_SCALARS.get(state.container.text, ANY)
    return Type("set", lang.STATE_ELEMENTS.get(state.element.text, ANY))


@cache
def _prelude() -> tuple[syntax.Invariant, ...]:
    """The built-in invariants, read once per process."""
    items = parse(read(PRELUDE)).items
    invariants = tuple(item for item in items if isinstance(item, syntax.Invariant))
    assert len(invariants) == len(items), "the prelude holds invariants only"
    return invariants


def _listing(words: Iterable[str]) -> str:
    quoted = [f"`{w}`" for w in words]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def _calls(node: syntax.Expr, formulas: dict) -> set[str]:
    """The formulas an expression calls, directly."""
    found: set[str] = set()
    stack: list[object] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, syntax.Call) and n.fn.text in formulas:
            found.add(n.fn.text)
        for child in vars(n).values() if hasattr(n, "__dataclass_fields__") else ():
            if isinstance(child, tuple):
                stack.extend(c for c in child if hasattr(c, "__dataclass_fields__"))
            elif hasattr(child, "__dataclass_fields__") and not isinstance(child, Span):
                stack.append(child)
    return found


def _cycle(start: str, calls: dict[str, set[str]]) -> list[str] | None:
    """A call path from `start` back to itself, or None."""
    stack = [(start, [start])]
    seen: set[str] = set()
    while stack:
        name, path = stack.pop()
        for callee in sorted(calls.get(name, ())):
            if callee == start:
                return path + [start]
            if callee not in seen:
                seen.add(callee)
                stack.append((callee, path + [callee]))
    return None


def _topological(formulas: dict, calls: dict[str, set[str]], skip: set[str]) -> list[str]:
    """Formulas callees first, so each is checked after those it calls."""
    order: list[str] = []
    done: set[str] = set()

    def visit(name: str) -> None:
        if name in done or name in skip:
            return
        done.add(name)
        for callee in sorted(calls[name]):
            visit(callee)
        order.append(name)

    for name in formulas:
        visit(name)
    return order
