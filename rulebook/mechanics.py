"""The rules an edition adds with the language's general constructs: per-player state, hooks,
setup, pots, the end condition and the edition's own invariants, each a paragraph in words
filled from the IR (a phrase per construct kind, never a test for an edition)."""
from __future__ import annotations

from rulebook.booklet import Booklet, escape, paragraph
from rulebook.conditions import ME, condition, state_set
from rulebook.effects import describe

PRELUDE = "prelude"


def element(state_type: str) -> str:
    """The element kind of a state's type: `set of square` -> `square`."""
    return state_type.split()[-1]


def state_types(book: Booklet) -> dict[str, str]:
    return {st["name"]: element(st["type"]) for st in book.ir["state"]}


def hook_text(book: Booklet, hook: dict) -> str:
    """`when EVENT(var) [by ...] [to STATE] [if COND] { ... }` as one sentence."""
    words, event = book.words, hook["event"]
    kind = {"land": "square", "acquire": "deed", "add": state_types(book).get(hook["state"], "square")}[event]
    nouns = {hook["var"]: book.kind_noun(kind, "the")}
    guard = words.text("hooks/if", cond=condition(book, hook["if"], nouns)) if hook["if"] else ""
    ways = words.join([words.text(f"ways/{way}") for way in hook["by"]], "or") or words.text("ways/any")
    return words.text(f"hooks/{event}", a=book.kind_noun(kind, "a"), what=nouns[hook["var"]], ways=ways, guard=guard,
                      set=state_set(book, ME, hook["state"] or ""), effects=describe(book, hook["body"], nouns))


def state_text(book: Booklet, st: dict) -> str:
    return book.words.text("state/set", a=book.noun(st["name"], "a"), things=book.kind_noun(element(st["type"]), "many"))


def pot_text(book: Booklet, pot: dict) -> str:
    words = book.words
    takes = words.join([words.text(f"pots/takes/{t}") for t in pot["takes"]])
    return words.text("pots/item", name=book.name(pot), takes=takes)


def setup_text(book: Booklet, stmt: dict) -> str:
    return book.words.text("setup/item", effects=describe(book, [stmt]))


def over_text(book: Booklet, over: dict) -> str:
    return book.words.text("end/over", cond=condition(book, over, {}))


def items(book: Booklet) -> list[tuple[str, str, str | None, dict]]:
    """Every such rule of the edition: (stable id, text, what kind of hook, its IR)."""
    ir = book.ir
    out = [(f"state-{st['name']}", state_text(book, st), None, st) for st in ir["state"]]
    out += [(f"rule-setup-{n}", setup_text(book, stmt), None, stmt) for n, stmt in enumerate(ir["setup"], 1)]
    out += [(f"pot-{pot['id']}", pot_text(book, pot), None, pot) for pot in ir["pots"]]
    out += [(f"rule-hook-{n}", hook_text(book, hook), hook["event"], hook) for n, hook in enumerate(ir["hooks"], 1)]
    out += [(f"invariant-{inv['name']}", book.words.text("invariants/item", text=escape(inv["text"])), None, inv)
            for inv in ir["invariants"] if inv["origin"] != PRELUDE]
    return out


def special(book: Booklet) -> str:
    """The section's paragraphs, each with a stable id; empty when the edition adds nothing."""
    return "\n".join(paragraph(text, ident, choice) for ident, text, choice, _ in items(book))


def end_over(book: Booklet) -> str:
    return paragraph(over_text(book, book.settings["end"]["over"]), "rule-end-over")
