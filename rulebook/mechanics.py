"""The rules an edition adds with the language's general constructs: per-player state, hooks,
setup, pots, the end condition and the edition's own invariants, each a paragraph in words
filled from the IR (a phrase per construct kind, never a test for an edition)."""
from __future__ import annotations

from ir.nodes import Aggregate, Binary, Bool, Call, Expr, Not, Stmt, Var
from ir.ruleset import Action, Formula, Hook, Invariant, Pot, Procedure, State
from rulebook.booklet import Booklet, capital, escape, paragraph
from rulebook.conditions import (
    ME,
    called,
    condition,
    expand,
    holds_money,
    money_calls,
    param_kind,
    phrase,
    say,
    state_set,
    term,
)
from rulebook.statements import describe, lap_counters

PRELUDE = "prelude"


def element(state_type: str) -> str:
    """The element kind of a state's type: `set of square` -> `square`."""
    return state_type.split()[-1]


def state_types(book: Booklet) -> dict[str, str]:
    return {state.name: element(state.type) for state in book.ruleset.state or ()}


def hook_text(book: Booklet, hook: Hook) -> str:
    """`when EVENT(var) [by ...] [to STATE] [if COND] { ... }` as one sentence."""
    words, event = book.words, hook.event
    kind = {"acquire": "deed", "add": state_types(book).get(hook.state or "", "square")}.get(event, "square")
    nouns = {hook.var: words.text("expr/names/dice") if event == "roll" else book.kind_noun(kind, "the")}
    guard = words.text("hooks/if", cond=condition(book, hook.cond, nouns)) if hook.cond else ""
    ways = words.join([words.text(f"ways/{way}") for way in hook.via], "or") or words.text("ways/any")
    return words.text(f"hooks/{event}", a=book.kind_noun(kind, "a"), what=nouns[hook.var], ways=ways, guard=guard,
                      set=state_set(book, ME, hook.state or ""), effects=describe(book, hook.body, nouns))


def state_text(book: Booklet, state: State) -> str:
    if state.type == "int":
        return book.words.text("state/number", a=book.noun(state.name, "a"), owner=book.noun(state.owner, "one"),
                               owners=book.noun(state.owner, "many"))
    return book.words.text("state/set", a=book.noun(state.name, "a"),
                           things=book.kind_noun(element(state.type), "many"))


def pot_text(book: Booklet, pot: Pot) -> str:
    words = book.words
    takes = words.join([words.text(f"pots/takes/{taken}") for taken in pot.takes])
    return words.text("pots/item", name=book.name(pot), takes=takes)


def setup_text(book: Booklet, stmt: Stmt) -> str:
    return book.words.text("setup/item", effects=describe(book, (stmt,)))


def over_text(book: Booklet, over: Expr) -> str:
    return book.words.text("end/over", cond=condition(book, over, {}))


Rule = State | Stmt | Pot | Hook | Invariant


def items(book: Booklet) -> list[tuple[str, str, str | None, Rule]]:
    """Every such rule of the edition: (stable id, text, what kind of hook, its IR)."""
    ruleset = book.ruleset
    counters = lap_counters(book)           # said as "once per lap", never as a state
    out: list[tuple[str, str, str | None, Rule]] = [
        (f"state-{state.name}", state_text(book, state), None, state) for state in ruleset.state or ()
        if state.name not in counters]
    out += [(f"rule-setup-{n}", setup_text(book, stmt), None, stmt) for n, stmt in enumerate(ruleset.setup or (), 1)]
    out += [(f"pot-{pot.key}", pot_text(book, pot), None, pot) for pot in ruleset.pots or ()]
    out += [(f"rule-hook-{n}", hook_text(book, hook), hook.event, hook)
            for n, hook in enumerate(ruleset.hooks or (), 1)]
    out += [(f"invariant-{invariant.name}", book.words.text("invariants/item", text=escape(invariant.text)), None,
             invariant)
            for invariant in ruleset.invariants if invariant.origin != PRELUDE]
    return out


def special(book: Booklet) -> str:
    """The section's paragraphs, each with a stable id; empty when the edition adds nothing."""
    return "\n".join(paragraph(text, ident, choice) for ident, text, choice, _ in items(book))


PLAYER = Var("p")


def of_player(book: Booklet, function: str) -> tuple[Call, dict[str, str]]:
    """A call of the player formula `function` (`end.score`, `end.sits_out`) on "the player"."""
    return Call(function=function, args=(PLAYER,)), {"p": book.noun("player", "the")}


def score_text(book: Booklet, function: str) -> str:
    """The score a player formula gives, in words (an amount of money)."""
    return phrase(book, *of_player(book, function), money=True)


def end_over(book: Booklet) -> str:
    """When the game ends, and who then takes no more turns (`end.sits_out`)."""
    over = book.settings.end["over"]
    assert isinstance(over, Expr), "end.over is a condition"
    out = [paragraph(over_text(book, over), "rule-end-over")]
    sits_out = book.settings.end.get("sits_out")
    if isinstance(sits_out, str) and sits_out:
        text = book.say("rules/end.sits_out", cond=condition(book, *of_player(book, sits_out)))
        out.append(paragraph(text, "rule-end-sits-out"))
    return "\n".join(out)


def params(book: Booklet, thing: Formula | Procedure) -> tuple[list[str], dict[str, str]]:
    """A formula's or procedure's parameters: each as "a ..." for its name, and as "the ..." in its body."""
    kinds = [param_kind(book, thing.body, name) for name in thing.params]
    heads = [book.kind_noun(kind, "a") for kind in kinds]
    return heads, {name: book.kind_noun(kind, "the") for name, kind in zip(thing.params, kinds, strict=True)}


def action_text(book: Booklet, action: Action) -> str:
    """An action: what it does, when it is allowed, and when it must be taken."""
    words, var = book.words, action.var
    nouns = {var: book.kind_noun(action.element, "the")}
    thing = book.kind_noun(action.element, "a") if isinstance(action.over, Var) else \
        words.text("effects/one_of", among=phrase(book, action.over, {}))
    out = [words.text("actions/item", label=escape(action.label or ""), thing=thing,
                      effects=describe(book, action.effect, nouns)),
           words.text("actions/allowed", cond=condition(book, action.allowed, nouns))]
    if action.required:
        out.append(words.text("actions/required", cond=condition(book, action.required, nouns)))
    return " ".join(out)


def actions_title(book: Booklet) -> str:
    """The actions' heading: the end of the turn's when every action is offered there alone."""
    alone = all(action.windows == ("end_of_turn",) for action in book.ruleset.actions or ())
    return "actions" if alone else "actions_in_windows"


def actions(book: Booklet) -> str:
    """The choices a player may take (`action`), each a paragraph, under an introduction per
    set of windows they are offered in (the end of the turn's has its own words)."""
    listed = book.ruleset.actions or ()   # the IR has `actions`, `procedures`, `areas` only when the spec uses them
    out = []
    for windows in dict.fromkeys(action.windows for action in listed):
        if windows == ("end_of_turn",):
            intro, ident = book.say("actions/intro"), "actions-intro"
        else:
            said = [book.say(f"actions/{window}") for window in windows]
            intro = book.say("actions/when", windows=capital(book.words.join(said)))
            ident = "actions-intro-" + "-".join(windows)
        out.append(paragraph(intro, ident))
        out += [paragraph(action_text(book, action), f"action-{action.key}")
                for action in listed if action.windows == windows]
    return "\n".join(out)


def procedures(book: Booklet) -> str:
    """Each named rule (`procedure`) once, as the rules that follow it link to it."""
    out = []
    for name, procedure in (book.ruleset.procedures or {}).items():
        heads, nouns = params(book, procedure)
        text = book.words.text("procedures/item", name=capital(called(book, name, heads)),
                               effects=describe(book, procedure.body, nouns))
        out.append(paragraph(text, f"procedure-{name}"))
    return "\n".join(out)


def is_condition(expr: Expr) -> bool:
    """A yes-or-no body is defined with "when", a value with "is"."""
    match expr:
        case Not() | Bool() | Aggregate(function="any" | "all"):
            return True
        case Binary(operator=operator):
            return operator in ("and", "or", "==", "!=", "<", "<=", ">", ">=", "in")
    return False


def terms(book: Booklet) -> str:
    """Every formula the glossary names, defined once: the rules above say it by that name (a
    number, such as the blocks in the box, by its value)."""
    ruleset = book.ruleset
    money = set().union(*[money_calls(book, formula, True) for formula in ruleset.rent.formulas().values()])
    money |= money_calls(book, (ruleset.squares, ruleset.hooks, ruleset.procedures, ruleset.actions), False)
    out = []
    for name, formula in ruleset.formulas.items():
        if term(book, name) is None:
            continue
        heads, nouns = params(book, formula)
        body = expand(book, formula.body)
        if is_condition(body):
            text = book.words.text("definitions/condition", name=capital(called(book, name, heads)),
                                   body=say(book, body, nouns))
        else:
            amount = name in money or holds_money(book, body)
            text = book.words.text("definitions/value", name=capital(called(book, name, heads)),
                                   body=phrase(book, body, nouns, amount))
        out.append(paragraph(text, f"term-{name}"))
    return "\n".join([paragraph(book.say("definitions/intro"), "definitions-intro"), *out]) if out else ""


def city(book: Booklet) -> str:
    """The places to build (`area`), by quarter, with the deed squares each faces, as a table."""
    areas, words = book.ruleset.areas or (), book.words
    if not areas:
        return ""
    quarters = list(dict.fromkeys(area.quarter for area in areas))
    intro = book.say("city/intro", areas=len(areas), quarters=len(quarters),
                     names=words.join([escape(quarter) for quarter in quarters]))
    rows = [f"| {words.text('table/quarter')} | {words.text('table/area')} | {words.text('table/faces')} |",
            "|---|---|---|"]
    for area in areas:
        faces = words.join([book.name(book.square_named(key)) for key in area.faces])
        rows.append(f"| {escape(area.quarter)} | {book.name(area)} | {faces} |")
    return "\n".join([paragraph(intro, "rule-city"), "\n".join(rows) + "\n"])
