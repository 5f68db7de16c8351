"""The rules page: every rule of the edition, section by section, each paragraph with a stable id.

The outline (which rules, in which order, keyed by which setting) is the same for every
language and every edition; the words come from the phrase table, the amounts from the IR.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ir.nodes import Aggregate, Attr, Binary, Bool, Expr, Int, Not, Var
from ir.ruleset import SettingValue, Square
from rulebook import amounts
from rulebook.booklet import Booklet, anchor, deed_of, escape, paragraph, printed, printed_rents
from rulebook.conditions import bind, condition, parts, phrase, plain, rebuild, walk
from rulebook.mechanics import actions, actions_title, city, end_over, procedures, score_text, special, terms
from rulebook.statements import describe
from rulebook.variants import variants_section


@dataclass(frozen=True)
class Rule:
    """A paragraph: `rules/<key>` in the phrase table, id `rule-<key>`.

    `by` names a setting (or decided rule, or `has.FEATURE`, or `rules.NAME`: what the
    edition's definition of a rule is, `READINGS`) whose value picks the paragraph's
    variant; a rule whose setting the edition lacks is left out. `needs` are what the game must
    have (`Booklet.has`: a deed kind, `jail`, `houses`, ...; `!x`: must not have x).
    """

    key: str
    by: str | None = None
    needs: tuple[str, ...] = ()


@dataclass(frozen=True)
class Section:
    """A heading (`sections/<key>`, or the key `title` gives for the booklet) and its paragraphs."""

    key: str
    rules: tuple[Rule, ...]
    extra: Callable[[Booklet], str] | None = None
    needs: tuple[str, ...] = ()
    title: Callable[[Booklet], str] | None = None


def rent_table(book: Booklet) -> str:
    """Every lot's full rent table, group by group."""
    words = book.words
    levels = book.settings.building["max_houses"]
    assert isinstance(levels, int)
    head = [words.text("table/lot"), words.text("table/group"), words.text("table/price"), words.text("deed/rent")]
    head += [book.houses(n) for n in range(1, levels + 1)] + [words.text("deed/hotel"), words.text("deed/mortgage")]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for square in book.deeds("lot"):
        deed = deed_of(square)
        cells = [book.name(square), book.name(book.group(deed.group)), book.money(printed(deed.price))]
        cells += [book.money(rent) for rent in printed_rents(square)] + [book.money(printed(deed.mortgage))]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def rent_formulas(book: Booklet) -> str:
    """Rent as the spec computes it, a paragraph per kind of deed on the board, and the rents
    printed on each deed (a game without houses has no rent table by buildings)."""
    words, out = book.words, []
    for kind, formula in book.ruleset.rent.formulas().items():
        if book.has(kind):
            text = book.say("rent/formula", kind=book.kind_noun(kind, "a"),
                            formula=phrase(book, formula, {"here": book.kind_noun(kind, "the")}, money=True))
            out.append(paragraph(text, anchor(f"rent.formula.{kind}")))
    rows = [f"| {words.text('table/square')} | {words.text('table/group')} | {words.text('table/printed')} |",
            "|---|---|---|"]
    for square in book.deeds():
        rents = words.join([book.money(rent) for rent in printed_rents(square)], "or")
        rows.append(f"| {book.name(square)} | {book.name(book.group(deed_of(square).group))} | {rents} |")
    return "\n".join([*out, "\n".join(rows) + "\n"])


def rents(book: Booklet) -> str:
    return rent_table(book) if book.has("houses") else rent_formulas(book)


def owned_table(kind: str) -> Callable[[Booklet], str]:
    """Station or utility deeds: rent by how many of the group the owner holds."""
    def table(book: Booklet) -> str:
        deeds = book.deeds(kind)
        if not deeds:
            return ""
        words = book.words
        counts = len(printed_rents(deeds[0]))
        head = [words.text(f"table/{kind}"), words.text("table/price")]
        head += [words.text("deed/owned", n=n) for n in range(1, counts + 1)]
        head += [words.text("deed/mortgage")]
        rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for square in deeds:
            deed = deed_of(square)
            rents = [book.money(rent) if kind == "station" else words.text("times", n=rent)
                     for rent in printed_rents(square)]
            cells = [book.name(square), book.money(printed(deed.price)), *rents, book.money(printed(deed.mortgage))]
            rows.append("| " + " | ".join(cells) + " |")
        return "\n".join(rows) + "\n"
    return table


def both_tables(book: Booklet) -> str:
    return "\n".join(table for table in (owned_table("station")(book), owned_table("utility")(book)) if table)


def building_costs(book: Booklet) -> str:
    words = book.words
    rows = [f"| {words.text('table/group')} | {words.text('table/lots')} | {words.text('deed/house_cost')} "
            f"| {words.text('deed/hotel_cost')} |",
            "|---|---|---|---|"]
    for group in book.ruleset.groups:
        if group.kind == "lot":
            lots = book.words.join([book.name(book.square(index)) for index in group.squares])
            rows.append(f"| {book.name(group)} | {lots} | {book.money(printed(group.house_cost))} "
                        f"| {book.money(printed(group.hotel_cost))} |")
    return "\n".join(rows) + "\n"


def squares(book: Booklet) -> str:
    """Each kind of square without a deed, once (three squares that draw from one deck are one entry)."""
    jail = book.settings.jail.get("square")
    seen: dict[str, list[Square]] = {}
    for square in book.ruleset.squares:
        if not square.deed:
            seen.setdefault(square.name or square.key, []).append(square)
    out = [paragraph(book.say("rules/squares.deeds"), "rule-squares-deeds")]
    for same in seen.values():
        square = same[0]
        parts = []
        if square.key == jail:
            parts.append(book.say("square/jail"))
        if square.on_land:
            parts.append(book.say("square/on_land", effects=describe(book, square.on_land)))
        if square.on_pass:
            parts.append(book.say("square/on_pass", effects=describe(book, square.on_pass)))
        if not parts:
            parts.append(book.say("square/nothing"))
        count = " " + book.say("square/count", n=len(same)) if len(same) > 1 else ""
        out.append(paragraph(f"**{book.name(square)}**{count}. " + " ".join(parts), f"square-{square.key}"))
    return "\n".join(out)


def deck_link(book: Booklet) -> str:
    return paragraph(book.say("rules/cards.list"), "rule-cards-list")


def assumptions(book: Booklet) -> str:
    """Every rule the spec marks `assumed`, with the choice made and the spec's own note."""
    items = []
    for path, note in book.ruleset.notes.items():
        if "assumed" in note:
            label = book.words.text(f"settings/{path}")
            items.append((path, label, setting_words(book, path, book.setting(path)), note))
    for decision in book.ruleset.decisions:
        if decision.note and "assumed" in decision.note:
            label = book.words.text(f"settings/{decision.key}")
            items.append((decision.key, label, book.value(decision.key, decision.choice), decision.note))
    if not items:
        return paragraph(book.say("assumptions/none"), "assumptions")
    out = [paragraph(book.say("assumptions/intro"), "assumptions")]
    for path, label, choice, note in items:
        out.append(paragraph(book.say("assumptions/item", rule=label, choice=choice, note=escape(note)),
                             "assumed-" + anchor(path)[5:]))
    return "\n".join(out)


def examples(book: Booklet) -> str:
    """The spec's worked examples (docs/language.md, "Examples"), each by its quote of the rule
    it shows; `boardrules verify` plays them."""
    worked = book.ruleset.examples or ()
    if not worked:
        return ""
    out = [paragraph(book.say("examples/intro"), "examples-intro")]
    for example in worked:
        out.append(paragraph(book.say("examples/item", name=escape(example.name.replace("_", " ")),
                                      quote=escape(example.text)), "example-" + example.name.replace("_", "-")))
    return "\n".join(out)


MORTGAGED = Not(Attr(Var("here"), "mortgaged"))
JAILED = Not(Attr(Var("owner"), "in_jail"))
CASH_FOR_PRICE = Binary(">=", Attr(Var("me"), "cash"), Attr(Var("here"), "price"))


def rent_due(book: Booklet) -> str | None:
    """`rent.due` read as the sentence that says it: `mortgaged` (no rent on a mortgaged
    deed, §1), `mortgaged_jail` (nor while the owner is in jail), else `written` (the
    condition in words); None when rent is always due."""
    due = book.setting("rent.due")
    if not isinstance(due, Expr):
        return None
    said = {plain(part) for part in parts(due, "and")}
    if said == {MORTGAGED}:
        return "mortgaged"
    if said == {MORTGAGED, JAILED}:
        return "mortgaged_jail"
    return "written"


def reads_jail(rule: Any) -> bool:
    """Whether a rule's condition asks whether someone is in jail."""
    return isinstance(rule, Expr) and any(isinstance(node, Attr) and node.name == "in_jail" for node in walk(rule))


def jailed_owner_collects(book: Booklet) -> bool | str | None:
    """Whether a jailed owner collects rent, by `rent.due`: yes when it does not read
    `in_jail` (`trades` when `building.may` does: the building section says when a jailed
    player may build), no when it is `rent_due`'s `mortgaged_jail`; None (no sentence: the
    rent section says the condition) otherwise."""
    if not reads_jail(book.setting("rent.due")):
        return "trades" if reads_jail(book.setting("building.may")) else True
    return False if rent_due(book) == "mortgaged_jail" else None


def buy_may(book: Booklet) -> str | None:
    """`buy.may` read as the sentence that says it: `cash` (only with the price in cash, the
    classic rule), else `written` (the condition in words); None when the lander always may."""
    may = book.setting("buy.may")
    if not isinstance(may, Expr):
        return None
    return "cash" if plain(may) == CASH_FOR_PRICE else "written"


def same_shape(expr: Expr, pattern: Expr) -> bool:
    """Whether `expr` is `pattern` but for where it was written and its aggregates' variable names."""
    return _unnamed(plain(expr)) == _unnamed(plain(pattern))


def _unnamed(expr: Expr) -> Expr:
    """`expr` with each aggregate's variable called by its depth (`all(x in ...: x.owner)` as
    `all(_1 in ...: _1.owner)`), so two spellings of one condition compare equal."""
    def rename(node: Any, depth: int = 0) -> Any:
        if not isinstance(node, Aggregate):
            return None
        var = f"_{depth + 1}"
        body = rebuild(bind(node.body, {node.var: Var(var)}), lambda inner: rename(inner, depth + 1))
        return Aggregate(node.function, var, rebuild(node.over, lambda inner: rename(inner, depth)), body)
    return rebuild(expr, rename)


# The classic family's building and mortgage rules (§1), each said by a sentence of its own.
GROUP_DEEDS = Attr(Attr(Var("here"), "group"), "deeds")
COMPLETE_GROUP = Aggregate("all", "d", GROUP_DEEDS, Binary("==", Attr(Var("d"), "owner"), Var("me")))
UNMORTGAGED_GROUP = Not(Aggregate("any", "d", GROUP_DEEDS, Attr(Var("d"), "mortgaged")))
UNBUILT_GROUP = Aggregate("all", "d", GROUP_DEEDS, Binary("==", Attr(Var("d"), "level"), Int(0)))


def _building_parts(book: Booklet) -> list[Expr]:
    """`building.may` as the parts joined by `and` (`yes`: none)."""
    may = book.setting("building.may")
    if not isinstance(may, Expr) or may == Bool(True):
        return []
    return parts(may, "and")


def building_may(book: Booklet) -> str | None:
    """Who may build where, by `building.may`: `complete` (the owner of a complete group, §1)
    or `any` (on any lot one holds); None in a game without houses."""
    if not book.has("houses"):
        return None
    return "complete" if any(same_shape(part, COMPLETE_GROUP) for part in _building_parts(book)) else "any"


def building_unmortgaged(book: Booklet) -> bool | None:
    """Yes (a sentence: no building beside a mortgage) when `building.may` asks that no deed
    of the group is mortgaged; None otherwise."""
    return True if any(same_shape(part, UNMORTGAGED_GROUP) for part in _building_parts(book)) else None


def building_rest(book: Booklet) -> Expr | None:
    """The parts of `building.may` no sentence of its own says, joined by `and` (None: none)."""
    rest = [part for part in _building_parts(book)
            if not same_shape(part, COMPLETE_GROUP) and not same_shape(part, UNMORTGAGED_GROUP)]
    if not rest:
        return None
    joined = rest[0]
    for part in rest[1:]:
        joined = Binary("and", joined, part)
    return joined


def building_more(book: Booklet) -> str | None:
    """`written` (a sentence says the rest of `building.may` in words) when it has more parts."""
    return "written" if building_rest(book) is not None else None


def lift_may(book: Booklet) -> str | None:
    """`written` (a sentence says when a mortgage may be lifted) where `mortgage.may_lift` says so."""
    may = book.setting("mortgage.may_lift")
    return "written" if isinstance(may, Expr) and may != Bool(True) else None


def mortgage_may(book: Booklet) -> str:
    """`mortgage.may` read: `unbuilt` (only with no buildings in the group, §1), `always`, or
    `written` (the condition in words)."""
    may = book.setting("mortgage.may")
    if not isinstance(may, Expr) or may == Bool(True):
        return "always"
    return "unbuilt" if same_shape(may, UNBUILT_GROUP) else "written"


def auction_on_decline(book: Booklet) -> str | None:
    """`auction.on_decline` read: `yes` (always auctioned), None (never: no sentence), else
    `written` (auctioned when the condition holds, in words)."""
    rule = book.setting("auction.on_decline")
    if isinstance(rule, Bool):
        return "yes" if rule.value else None
    return "written" if isinstance(rule, Expr) else None


READINGS: dict[str, Callable[[Booklet], Any]] = {"rules.rent_due": rent_due,
                                                    "rules.jailed_owner_collects": jailed_owner_collects,
                                                    "rules.buy_may": buy_may,
                                                    "rules.auction_on_decline": auction_on_decline,
                                                    "rules.building_may": building_may,
                                                    "rules.building_unmortgaged": building_unmortgaged,
                                                    "rules.building_rest": building_more,
                                                    "rules.mortgage_may": mortgage_may,
                                                    "rules.lift_may": lift_may,
                                                    **amounts.READINGS}


# The rules whose `written` sentence says a condition of the spec's in words: the setting,
# and the names the condition may read that the booklet calls by a noun of its own.
WRITTEN = {"rent.due": ("rent.due", ("here", "owner")), "buy.may": ("buy.may", ("here",)),
           "auction": ("auction.on_decline", ("here",)), "building.may": ("building.may", ("here",)),
           "mortgage": ("mortgage.may", ("here",)), "mortgage.may_lift": ("mortgage.may_lift", ("here",))}


def condition_words(book: Booklet, key: str) -> dict[str, str]:
    """The placeholder `{cond}` of a rule's `written` sentence (`WRITTEN`): its condition in
    words (of `building.may`, the parts no sentence of its own says)."""
    if key not in WRITTEN:
        return {}
    path, names = WRITTEN[key]
    rule = building_rest(book) if key == "building.may" else book.setting(path)
    if not isinstance(rule, Expr):
        return {}
    nouns = {name: book.words.text(f"rules/{key}/{name}") for name in names}
    return {"cond": condition(book, rule, nouns)}


# The conditions said in words, by setting: the rule whose phrases name the condition's nouns
# (`rules/<rule>/<name>`), and those names.
CONDITIONS = {path: (rule, names) for rule, (path, names) in WRITTEN.items()}


def setting_words(book: Booklet, path: str, value: SettingValue | None) -> str:
    """A setting's value as a reader reads it (`Booklet.value`), an amount or a condition in
    words (any other expression is "a formula"): the compare page's cells, the assumptions."""
    if isinstance(value, Expr) and path in amounts.SENTENCE:
        return amounts.words(book, path, value)
    if isinstance(value, Expr) and path in CONDITIONS:
        rule, names = CONDITIONS[path]
        return condition(book, value, {name: book.words.text(f"rules/{rule}/{name}") for name in names})
    return book.value(path, value)


SECTIONS = (
    Section("aim", (Rule("aim", by="has.houses"), Rule("players"))),
    Section("contents", (Rule("contents", by="has.houses"),)),
    Section("setup", (Rule("setup.board"), Rule("money.start", by="has.notes"), Rule("turn.order"),
                      Rule("bank", by="has.mortgage"))),
    Section("turn", (Rule("turn"), Rule("turn.doubles", needs=("jail",)),
                     Rule("game.doubles_again", by="game.doubles_again"),
                     Rule("money.salary_limit", by="money.salary_limit"))),
    Section("actions", (), actions, title=actions_title),
    Section("city", (), city),
    Section("squares", (), squares),
    Section("buying", (Rule("buy", needs=("prices",)), Rule("buy.may", by="rules.buy_may", needs=("prices",)),
                       Rule("auction", by="rules.auction_on_decline", needs=("prices",)),
                       Rule("auction.only", by="auction.only"),
                       Rule("auction.decliner_may_bid", by="auction.decliner_may_bid", needs=("prices",)),
                       Rule("auction.bid_within_cash", by="auction.bid_within_cash"),
                       Rule("auction.raises", needs=("!prices",)),
                       Rule("auction.preempt", by="auction.preempt"))),
    Section("rent", (Rule("rent", by="has.houses"), Rule("rent.due", by="rules.rent_due"),
                     Rule("rent.complete_group", needs=("lot", "houses")),
                     Rule("rent.mortgaged_group", by="rent.mortgaged_group", needs=("lot",))), rents),
    Section("stations", (Rule("rent.station", needs=("station",)), Rule("rent.utility", needs=("utility",))),
            both_tables,
            needs=("houses",)),
    Section("cards", (Rule("cards"), Rule("cards.jail_card", by="trade.jail_cards", needs=("jail",)),
                      Rule("cards.moves", needs=("jail",))), deck_link),
    Section("jail", (Rule("jail.sent"), Rule("jail.visiting"), Rule("jail.leave"),
                     Rule("jail.fine_timing", by="jail.fine_timing"), Rule("jail.doubles_exit", by="jail.doubles_exit"),
                     Rule("jail.max_turns"), Rule("jail.collects_rent", by="rules.jailed_owner_collects")),
            needs=("jail",)),
    Section("building", (Rule("building", by="rules.building_may"),
                         Rule("building.even", by="building.even"),
                         Rule("building.blocked_by_mortgage", by="rules.building_unmortgaged"),
                         Rule("building.may", by="rules.building_rest"),
                         Rule("building.hotels"),
                         Rule("building.shortage", by="building.shortage")), building_costs, needs=("houses",)),
    Section("selling", (Rule("building.sale_value", by="rules.sale_value", needs=("houses",)),
                        Rule("building.hotel_sale", by="rules.hotel_sale"),
                        Rule("building.trade_hotel", by="rules.hotel_trade", needs=("houses",)),
                        Rule("trade.deeds", by="trade.built_groups"),
                        Rule("trade.cash", by="trade.cash", needs=("mortgage",)),
                        Rule("trade.loans", by="trade.cash", needs=("!mortgage",)))),
    Section("mortgages", (Rule("mortgage", by="rules.mortgage_may"), Rule("mortgage.lift", by="rules.mortgage_lift"),
                          Rule("mortgage.may_lift", by="rules.lift_may"),
                          Rule("mortgage.transfer", by="rules.mortgage_transfer")),
            needs=("mortgage",)),
    Section("bankruptcy", (Rule("debt.pay_with_deeds", by="debt.pay_with_deeds"),
                           Rule("debt.auction_deeds", by="debt.auction_deeds"),
                           Rule("bankruptcy.to_player", by="has.mortgage"),
                           Rule("bankruptcy.to_bank", by="bankruptcy.to_bank"))),
    Section("special", (), special),
    Section("procedures", (), procedures),
    Section("terms", (), terms),
    Section("end", (Rule("end.winner"), Rule("end.score", by="end.score"), Rule("game.turn_cap")), end_over),
    Section("variants", (), variants_section),
    Section("examples", (), examples),
    Section("assumptions", (), assumptions),
)


def rule_text(book: Booklet, rule: Rule) -> str | None:
    """The paragraph of one rule, or None when the edition does not have it. A choice that names
    one of the edition's formulas (`end.score = fortune`) is said by the formula, in words."""
    if not all(book.has(need) for need in rule.needs):
        return None
    entry = book.words.raw(f"rules/{rule.key}")
    if rule.by is None:
        return paragraph(book.say(f"rules/{rule.key}"), anchor(rule.key))
    value = READINGS[rule.by](book) if rule.by in READINGS else book.fact(rule.by)
    if value is None:
        return None
    choice = ("yes" if value else "no") if isinstance(value, bool) else value
    if not isinstance(entry, dict):
        return paragraph(book.say(f"rules/{rule.key}"), anchor(rule.key), choice)
    if choice not in entry and choice in book.ruleset.formulas:
        return paragraph(book.say(f"rules/{rule.key}/formula", formula=score_text(book, choice)), anchor(rule.key),
                         choice)
    extra = condition_words(book, rule.key) if choice == "written" else {}
    if rule.key in amounts.AMOUNT_RULES:
        extra |= amounts.amount_words(book)
    return paragraph(book.say(f"rules/{rule.key}/{choice}", **extra), anchor(rule.key), choice)


def rules_page(book: Booklet) -> str:
    out = [f"# {book.say('pages/rules_title')}\n", book.say("intro") + "\n"]
    for section in SECTIONS:
        if not all(book.has(need) for need in section.needs):
            continue
        body = [text for rule in section.rules if (text := rule_text(book, rule))]
        body += [extra] if section.extra and (extra := section.extra(book)) else []
        if body:   # a section the edition has nothing for (no state, no hooks) is left out
            title = section.title(book) if section.title else section.key
            out += [f"## {book.say('sections/' + title)} {{#{section.key}}}\n", *body]
    return "\n".join(out)
