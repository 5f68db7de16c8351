"""One edition in one language: the IR, its phrase table, and the values its texts quote."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from grammar.language import DEED_KINDS, PERCENT, SECTION_PART, parts
from ir.money import format_money
from rulebook.phrases import Phrases

# The settings that hold an amount of money (or a list of amounts): written the edition's way.
MONEY_SETTINGS = {"money.start", "money.salary", "jail.fine", "auction.raises", "auction.preempt"}

MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|#{}])")


def escape(text: str) -> str:
    """Spec text (names, card texts) printed as itself, never read as Markdown."""
    return MARKDOWN_SPECIAL.sub(r"\\\1", text)


def anchor(key: str) -> str:
    """The stable id of a rule's paragraph: `jail.fine_timing` -> `rule-jail-fine-timing`."""
    return "rule-" + re.sub(r"[._]", "-", key)


# Two full stops where an amount written with one (`{amount} kr.`) ends a sentence.
DOUBLE_STOP = re.compile(r"(?<!\.)\.\.(?!\.)")


def capital(text: str) -> str:
    """A glossary word or name that begins a sentence or a table cell."""
    return text[:1].upper() + text[1:]


def paragraph(text: str, ident: str, choice: str | None = None) -> str:
    """A Markdown paragraph carrying its id (and the decided option) for readers and tests."""
    attrs = f"#{ident}" + (f' data-choice="{choice}"' if choice is not None else "")
    return f"{DOUBLE_STOP.sub('.', text)}\n{{: {attrs} }}\n"


@dataclass
class Booklet:
    """What every page of one booklet reads: `ir` and `parent` are IRs, `words` the language,
    `variants` the edition's IR with each variant that applies laid over (by variant id)."""

    ir: dict
    words: Phrases
    parent: dict | None = None
    variants: dict[str, dict] = field(default_factory=dict)

    @property
    def settings(self) -> dict:
        return self.ir["settings"]

    def money(self, amount: int) -> str:
        return format_money(self.settings["money"], amount)

    def percent(self, ratio: dict) -> str:
        share = Fraction(ratio["num"] * PERCENT, ratio["den"])
        number = str(share.numerator) if share.denominator == 1 else f"{float(share):g}"
        return self.words.text("percent", n=number)

    def square(self, index: int) -> dict:
        return self.ir["squares"][index]

    def square_named(self, sid: str) -> dict:
        return next(square for square in self.ir["squares"] if square["key"] == sid)

    def name(self, thing: dict) -> str:
        """A square's, group's or deck's printed name (its id when the spec gives none)."""
        return escape(thing.get("name") or thing["key"])

    def group(self, gid: str) -> dict:
        return next(group for group in self.ir["groups"] if group["key"] == gid)

    def deeds(self, kind: str | None = None) -> list[dict]:
        return [square for square in self.ir["squares"] if square["deed"] and kind in (None, square["kind"])]

    def setting(self, path: str) -> Any:
        section, key = path.split(".")
        return self.settings.get(section, {}).get(key)

    def has(self, feature: str) -> bool:
        """Whether the game has what some paragraphs speak of: a deed kind on the board (`lot`,
        `station`, `utility`), a `jail`, `houses`, `mortgage`s, printed `prices` (not every deed
        auctioned), money `notes`; `!jail`: it has none (the optional parts: `parts`)."""
        if feature.startswith("!"):
            return not self.has(feature[1:])
        if feature in DEED_KINDS:
            return bool(self.deeds(feature))
        settings = self.settings
        if feature in SECTION_PART.values():
            return feature in parts(settings)
        return {"prices": not settings["auction"].get("only", False),
                "notes": bool(settings["money"].get("notes"))}[feature]

    def fact(self, path: str) -> Any:
        """A setting's value, or for `has.FEATURE` whether the game has it (`has`)."""
        section, key = path.split(".")
        return self.has(key) if section == "has" else self.setting(path)

    def value(self, path: str, value: Any) -> str:
        """A setting's value as a reader reads it: money, percent, a square's name, a count."""
        squares = {square["key"] for square in self.ir["squares"]}
        if path in MONEY_SETTINGS:
            return self.words.join([self.money(v) for v in value]) if isinstance(value, list) else self.money(value)
        if isinstance(value, bool):
            return self.words.text("yes" if value else "no")
        if isinstance(value, dict) and "num" in value:
            return self.percent(value)
        if isinstance(value, dict) and "min" in value:
            return f"{value['min']}–{value['max']}"
        if isinstance(value, list) and value and isinstance(value[0], dict) and "count" in value[0]:
            return self.words.join([self.words.text("note", count=note["count"], value=self.money(note["value"]))
                                    for note in value])
        if isinstance(value, str) and value in squares:
            return self.name(self.square_named(value))
        if isinstance(value, str) and value in self.ir["formulas"] and not self.words.has(f"choices/{path}/{value}"):
            return self.noun(value, "one")
        decided = path in {decision["key"] for decision in self.ir["decisions"]}
        if isinstance(value, str) and (decided or self.words.has(f"choices/{path}")):
            return self.words.text(f"choices/{path}/{value}")
        if isinstance(value, dict):
            return self.words.text("formula")
        return escape(str(value))

    @cached_property
    def values(self) -> dict[str, str]:
        """The placeholders a phrase may use: every setting as `{section_key}`, and what the board holds."""
        out = {}
        for section, keys in self.settings.items():
            for key, value in keys.items():
                if not isinstance(value, dict) or "num" in value or "min" in value:
                    out[f"{section}_{key}"] = self.value(f"{section}.{key}", value)
        players = self.settings["game"]["players"]
        out |= {"game_players_min": str(players["min"]), "game_players_max": str(players["max"])}
        decks = self.ir["decks"]
        out["decks"] = self.words.join([self.name(d) for d in decks])
        out["deck_contents"] = self.words.join(
            [self.words.text("contents_deck", count=len(d["cards"]), name=self.name(d)) for d in decks])
        out["deeds"] = str(len(self.deeds()))
        out["property_kinds"] = self.words.join([self.kind_noun(kind, "many") for kind in DEED_KINDS if self.has(kind)])
        out["deck_squares"] = self.words.join(self.distinct_names(self.squares_doing("draw")), "or")
        out["go_to_jail_squares"] = self.words.join(self.distinct_names(self.squares_doing("go_to_jail")), "or")
        for kind in ("station", "utility"):
            deeds = self.deeds(kind)
            out[f"{kind}_names"] = self.words.join([self.name(square) for square in deeds])
            if deeds:
                out[f"{kind}_rents"] = self.words.join([
                    self.words.text("deed/owned_rent", owned=self.words.text("deed/owned", n=n + 1),
                                    amount=self.money(r) if kind == "station" else self.words.text("times", n=r))
                    for n, r in enumerate(deeds[0]["deed"]["rent"])])
        out |= {"house": self.kind_noun("house", "one"), "houses": self.kind_noun("house", "many")}
        out["edition"] = escape(self.ir["edition"].get("title") or self.ir["edition"]["key"])
        return out

    def noun(self, ident: str, form: str) -> str:
        """A glossary word (`names/<ident>/<form>`: one, many, a, the, your); the spec's own
        name when the glossary lacks it, so a new state or word still reads."""
        key = f"names/{ident}/{form}"
        return self.words.text(key) if self.words.has(key) else escape(ident.replace("_", " "))

    def kind_noun(self, kind: str, form: str) -> str:
        """A kind of thing (`lot`, `house`) by the word the edition uses for it (`about.lot`)."""
        return self.noun(self.ir["edition"].get("words", {}).get(kind, kind), form)

    def kind_label(self, kind: str) -> str:
        """A kind of square as a table names it (capitalised): the edition's own word for it, if it has one."""
        word = self.ir["edition"].get("words", {}).get(kind)
        return capital(self.noun(word, "one") if word else self.words.text(f"kinds/{kind}"))

    def houses(self, n: int) -> str:
        return self.say("deed/house_1") if n == 1 else self.say("deed/houses", n=n)

    def squares_doing(self, do: str) -> list[dict]:
        """The squares whose landing does `do` (draw a card, go to jail) as its first step."""
        return [square for square in self.ir["squares"] if square["on_land"] and square["on_land"][0]["stmt"] == do]

    def distinct_names(self, squares: list[dict]) -> list[str]:
        return list(dict.fromkeys(self.name(square) for square in squares))

    def say(self, key: str, **extra: object) -> str:
        return self.words.text(key, **(self.values | extra))
