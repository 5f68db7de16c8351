"""The rules page: every rule of the edition, section by section, each paragraph with a stable id.

The outline (which rules, in which order, keyed by which setting) is the same for every
language and every edition; the words come from the phrase table, the amounts from the IR.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from rulebook.booklet import Booklet, anchor, escape, paragraph
from rulebook.effects import describe
from rulebook.mechanics import end_over, special
from rulebook.variants import variants_section


@dataclass(frozen=True)
class Rule:
    """A paragraph: `rules/<key>` in the phrase table, id `rule-<key>`.

    `by` names a setting (or decided rule) whose value picks the paragraph's variant; a rule
    whose setting the edition lacks is left out. `needs` is a deed kind the board must have.
    """

    key: str
    by: str | None = None
    needs: str | None = None


@dataclass(frozen=True)
class Section:
    key: str
    rules: tuple[Rule, ...]
    extra: Callable[[Booklet], str] | None = None


def rent_table(book: Booklet) -> str:
    """Every lot's full rent table, group by group."""
    words = book.words
    levels = book.settings["building"]["max_houses"]
    head = [words.text("table/lot"), words.text("table/group"), words.text("table/price"), words.text("deed/rent")]
    head += [book.houses(n) for n in range(1, levels + 1)] + [words.text("deed/hotel"), words.text("deed/mortgage")]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for sq in book.deeds("lot"):
        deed = sq["deed"]
        cells = [book.name(sq), book.name(book.group(deed["group"])), book.money(deed["price"])]
        cells += [book.money(r) for r in deed["rent"]] + [book.money(deed["mortgage"])]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def owned_table(kind: str) -> Callable[[Booklet], str]:
    """Station or utility deeds: rent by how many of the group the owner holds."""
    def table(book: Booklet) -> str:
        deeds = book.deeds(kind)
        if not deeds:
            return ""
        words = book.words
        counts = len(deeds[0]["deed"]["rent"])
        head = [words.text(f"table/{kind}"), words.text("table/price")]
        head += [words.text("deed/owned", n=n) for n in range(1, counts + 1)]
        head += [words.text("deed/mortgage")]
        rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for sq in deeds:
            deed = sq["deed"]
            rents = [book.money(r) if kind == "station" else words.text("times", n=r) for r in deed["rent"]]
            rows.append("| " + " | ".join([book.name(sq), book.money(deed["price"]), *rents, book.money(deed["mortgage"])]) + " |")
        return "\n".join(rows) + "\n"
    return table


def both_tables(book: Booklet) -> str:
    return "\n".join(t for t in (owned_table("station")(book), owned_table("utility")(book)) if t)


def building_costs(book: Booklet) -> str:
    words = book.words
    rows = [f"| {words.text('table/group')} | {words.text('table/lots')} | {words.text('deed/house_cost')} | {words.text('deed/hotel_cost')} |",
            "|---|---|---|---|"]
    for group in book.ir["groups"]:
        if group["kind"] == "lot":
            lots = book.words.join([book.name(book.square(i)) for i in group["squares"]])
            rows.append(f"| {book.name(group)} | {lots} | {book.money(group['house_cost'])} | {book.money(group['hotel_cost'])} |")
    return "\n".join(rows) + "\n"


def squares(book: Booklet) -> str:
    """Each kind of square without a deed, once (three squares that draw from one deck are one entry)."""
    jail = book.settings["jail"]["square"]
    seen: dict[str, list[dict]] = {}
    for sq in book.ir["squares"]:
        if not sq["deed"]:
            seen.setdefault(sq.get("name") or sq["id"], []).append(sq)
    out = [paragraph(book.say("rules/squares.deeds"), "rule-squares-deeds")]
    for same in seen.values():
        sq = same[0]
        parts = []
        if sq["id"] == jail:
            parts.append(book.say("square/jail"))
        if sq["on_land"]:
            parts.append(book.say("square/on_land", effects=describe(book, sq["on_land"])))
        if sq["on_pass"]:
            parts.append(book.say("square/on_pass", effects=describe(book, sq["on_pass"])))
        if not parts:
            parts.append(book.say("square/nothing"))
        count = " " + book.say("square/count", n=len(same)) if len(same) > 1 else ""
        out.append(paragraph(f"**{book.name(sq)}**{count}. " + " ".join(parts), f"square-{sq['id']}"))
    return "\n".join(out)


def deck_link(book: Booklet) -> str:
    return paragraph(book.say("rules/cards.list"), "rule-cards-list")


def assumptions(book: Booklet) -> str:
    """Every rule the spec marks `assumed`, with the choice made and the spec's own note."""
    items = []
    for path, note in book.ir["notes"].items():
        if "assumed" in note:
            label = book.words.text(f"settings/{path}")
            items.append((path, label, book.value(path, book.setting(path)), note))
    for decision in book.ir["decisions"]:
        if "assumed" in (decision.get("note") or ""):
            label = book.words.text(f"settings/{decision['key']}")
            items.append((decision["key"], label, book.value(decision["key"], decision["choice"]), decision["note"]))
    if not items:
        return paragraph(book.say("assumptions/none"), "assumptions")
    out = [paragraph(book.say("assumptions/intro"), "assumptions")]
    for path, label, choice, note in items:
        out.append(paragraph(book.say("assumptions/item", rule=label, choice=choice, note=escape(note)), "assumed-" + anchor(path)[5:]))
    return "\n".join(out)


SECTIONS = (
    Section("aim", (Rule("aim"), Rule("players"))),
    Section("contents", (Rule("contents"),)),
    Section("setup", (Rule("setup.board"), Rule("money.start"), Rule("turn.order"), Rule("bank"))),
    Section("turn", (Rule("turn"), Rule("turn.doubles"), Rule("money.salary_limit", by="money.salary_limit"))),
    Section("squares", (), squares),
    Section("buying", (Rule("buy"), Rule("auction", by="auction.on_decline"),
                       Rule("auction.decliner_may_bid", by="auction.decliner_may_bid"),
                       Rule("auction.bid_within_cash", by="auction.bid_within_cash"))),
    Section("rent", (Rule("rent"), Rule("rent.complete_group", needs="lot"),
                     Rule("rent.mortgaged_group", by="rent.mortgaged_group", needs="lot")), rent_table),
    Section("stations", (Rule("rent.station", needs="station"), Rule("rent.utility", needs="utility")), both_tables),
    Section("cards", (Rule("cards"), Rule("cards.jail_card", by="trade.jail_cards"), Rule("cards.moves")), deck_link),
    Section("jail", (Rule("jail.sent"), Rule("jail.visiting"), Rule("jail.leave"),
                     Rule("jail.fine_timing", by="jail.fine_timing"), Rule("jail.doubles_exit", by="jail.doubles_exit"),
                     Rule("jail.max_turns"), Rule("jail.collects_rent", by="jail.collects_rent"))),
    Section("building", (Rule("building", by="building.needs_complete_group"), Rule("building.even", by="building.even"),
                         Rule("building.blocked_by_mortgage", by="building.blocked_by_mortgage"), Rule("building.hotels"),
                         Rule("building.shortage", by="building.shortage")), building_costs),
    Section("selling", (Rule("building.sale_value"), Rule("building.hotel_sale", by="building.hotel_sale"),
                        Rule("trade.deeds", by="trade.built_groups"), Rule("trade.cash", by="trade.cash"))),
    Section("mortgages", (Rule("mortgage"), Rule("mortgage.interest"), Rule("mortgage.transfer_interest"))),
    Section("bankruptcy", (Rule("debt.pay_with_deeds", by="debt.pay_with_deeds"), Rule("bankruptcy.to_player"),
                           Rule("bankruptcy.to_bank", by="bankruptcy.to_bank"))),
    Section("special", (), special),
    Section("end", (Rule("end.winner"), Rule("end.score", by="end.score"), Rule("game.turn_cap")), end_over),
    Section("variants", (), variants_section),
    Section("assumptions", (), assumptions),
)


def rule_text(book: Booklet, rule: Rule) -> str | None:
    """The paragraph of one rule, or None when the edition does not have it."""
    if rule.needs and not book.deeds(rule.needs):
        return None
    entry = book.words.raw(f"rules/{rule.key}")
    if rule.by is None:
        return paragraph(book.say(f"rules/{rule.key}"), anchor(rule.key))
    value = book.setting(rule.by)
    if value is None:
        return None
    choice = {True: "yes", False: "no"}.get(value, value) if isinstance(value, bool) else value
    key = f"rules/{rule.key}/{choice}" if isinstance(entry, dict) else f"rules/{rule.key}"
    return paragraph(book.say(key), anchor(rule.key), choice)


def rules_page(book: Booklet) -> str:
    out = [f"# {book.say('pages/rules_title')}\n", book.say("intro") + "\n"]
    for section in SECTIONS:
        body = [text for rule in section.rules if (text := rule_text(book, rule))]
        body += [extra] if section.extra and (extra := section.extra(book)) else []
        if body:   # a section the edition has nothing for (no state, no hooks) is left out
            out += [f"## {book.say('sections/' + section.key)} {{#{section.key}}}\n", *body]
    return "\n".join(out)
