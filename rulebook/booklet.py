"""One edition in one language: the IR, its phrase table, and the values its texts quote."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from grammar.language import DEED_KINDS, PERCENT, SECTION_PART, parts
from ir.money import format_money
from ir.nodes import Draw, Expr, GoToJail, Ratio, Stmt
from ir.ruleset import (
    Area,
    Deck,
    Deed,
    Group,
    Note,
    Pot,
    Ruleset,
    Section,
    Settings,
    SettingValue,
    Span,
    Square,
)
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


def deed_of(square: Square) -> Deed:
    """The deed of a square that has one (a lot, a station, a utility)."""
    assert square.deed is not None, f"{square.key} has no deed"
    return square.deed


def printed(amount: int | None) -> int:
    """An amount a deed or group of a concrete edition prints (a price, a building cost)."""
    assert amount is not None, "a concrete edition prints it"
    return amount


def printed_rents(square: Square) -> tuple[int, ...]:
    """The rents printed on a square's deed, cheapest first."""
    return deed_of(square).rent or ()


def paragraph(text: str, ident: str, choice: str | None = None) -> str:
    """A Markdown paragraph carrying its id (and the decided option) for readers and tests."""
    attrs = f"#{ident}" + (f' data-choice="{choice}"' if choice is not None else "")
    return f"{DOUBLE_STOP.sub('.', text)}\n{{: {attrs} }}\n"


Named = Square | Group | Deck | Pot | Area
"""What has a printed name, or else its key."""


@dataclass
class Booklet:
    """What every page of one booklet reads: `ruleset` and `parent` are typed IRs, `words` the
    language, `variants` the edition's IR with each variant that applies laid over (by variant id)."""

    ruleset: Ruleset
    words: Phrases
    parent: Ruleset | None = None
    variants: dict[str, Ruleset] = field(default_factory=dict)

    @property
    def settings(self) -> Settings:
        return self.ruleset.settings

    @cached_property
    def sections(self) -> dict[str, Section]:
        """The settings by section name, in the IR's order."""
        return self.settings.sections()

    def money(self, amount: int) -> str:
        return format_money(self.settings.money, amount)

    def percent(self, ratio: Ratio) -> str:
        share = Fraction(ratio.num * PERCENT, ratio.den)
        number = str(share.numerator) if share.denominator == 1 else f"{float(share):g}"
        return self.words.text("percent", n=number)

    def square(self, index: int) -> Square:
        return self.ruleset.squares[index]

    def square_named(self, key: str) -> Square:
        return next(square for square in self.ruleset.squares if square.key == key)

    def name(self, thing: Named) -> str:
        """A square's, group's, deck's, pot's or area's printed name (its key when the spec gives none)."""
        return escape(thing.name or thing.key)

    def group(self, key: str) -> Group:
        return next(group for group in self.ruleset.groups if group.key == key)

    def deck(self, key: str) -> Deck:
        return next(deck for deck in self.ruleset.decks if deck.key == key)

    def pot(self, key: str) -> Pot:
        return next(pot for pot in self.ruleset.pots or () if pot.key == key)

    def deeds(self, kind: str | None = None) -> list[Square]:
        return [square for square in self.ruleset.squares if square.deed and kind in (None, square.kind)]

    def setting(self, path: str) -> SettingValue | None:
        section, key = path.split(".")
        return self.sections.get(section, {}).get(key)

    def has(self, feature: str) -> bool:
        """Whether the game has what some paragraphs speak of: a deed kind on the board (`lot`,
        `station`, `utility`), a `jail`, `houses`, `mortgage`s, printed `prices` (not every deed
        auctioned), money `notes`; `!jail`: it has none (the optional parts: `parts`)."""
        if feature.startswith("!"):
            return not self.has(feature[1:])
        if feature in DEED_KINDS:
            return bool(self.deeds(feature))
        if feature in SECTION_PART.values():
            return feature in parts(self.sections)
        return {"prices": not self.settings.auction.get("only", False),
                "notes": bool(self.settings.money.get("notes"))}[feature]

    def fact(self, path: str) -> Any:
        """A setting's value, or for `has.FEATURE` whether the game has it (`has`)."""
        section, key = path.split(".")
        return self.has(key) if section == "has" else self.setting(path)

    def value(self, path: str, value: SettingValue | None) -> str:
        """A setting's value as a reader reads it: money, percent, a square's name, a count."""
        squares = {square.key for square in self.ruleset.squares}
        if path in MONEY_SETTINGS:
            if isinstance(value, tuple):
                return self.words.join([self.money(amount) for amount in value if isinstance(amount, int)])
            assert isinstance(value, int), f"{path} is an amount"
            return self.money(value)
        if isinstance(value, bool):
            return self.words.text("yes" if value else "no")
        if isinstance(value, Span):
            return f"{value.min}–{value.max}"
        if isinstance(value, tuple) and value and isinstance(value[0], Note):
            return self.words.join([self.words.text("note", count=note.count, value=self.money(note.value))
                                    for note in value if isinstance(note, Note)])
        if isinstance(value, str) and value in squares:
            return self.name(self.square_named(value))
        if isinstance(value, str) and value in self.ruleset.formulas and not self.words.has(f"choices/{path}/{value}"):
            return self.noun(value, "one")
        decided = path in {decision.key for decision in self.ruleset.decisions}
        if isinstance(value, str) and (decided or self.words.has(f"choices/{path}")):
            return self.words.text(f"choices/{path}/{value}")
        if isinstance(value, Expr):
            return self.words.text("formula")
        return escape(str(value))

    @cached_property
    def values(self) -> dict[str, str]:
        """The placeholders a phrase may use: every setting as `{section_key}`, and what the board holds."""
        out = {}
        for section, keys in self.sections.items():
            for key, value in keys.items():
                if not isinstance(value, Expr):
                    out[f"{section}_{key}"] = self.value(f"{section}.{key}", value)
        players = self.settings.game["players"]
        assert isinstance(players, Span)
        out |= {"game_players_min": str(players.min), "game_players_max": str(players.max)}
        decks = self.ruleset.decks
        out["decks"] = self.words.join([self.name(deck) for deck in decks])
        out["deck_contents"] = self.words.join(
            [self.words.text("contents_deck", count=len(deck.cards), name=self.name(deck)) for deck in decks])
        out["deeds"] = str(len(self.deeds()))
        out["property_kinds"] = self.words.join([self.kind_noun(kind, "many") for kind in DEED_KINDS if self.has(kind)])
        out["deck_squares"] = self.words.join(self.distinct_names(self.squares_doing(Draw)), "or")
        out["go_to_jail_squares"] = self.words.join(self.distinct_names(self.squares_doing(GoToJail)), "or")
        for kind in ("station", "utility"):
            deeds = self.deeds(kind)
            out[f"{kind}_names"] = self.words.join([self.name(square) for square in deeds])
            if deeds:
                out[f"{kind}_rents"] = self.words.join([
                    self.words.text("deed/owned_rent", owned=self.words.text("deed/owned", n=n + 1),
                                    amount=self.money(rent) if kind == "station" else self.words.text("times", n=rent))
                    for n, rent in enumerate(printed_rents(deeds[0]))])
        out |= {"house": self.kind_noun("house", "one"), "houses": self.kind_noun("house", "many")}
        out["edition"] = escape(self.ruleset.edition.title or self.ruleset.edition.key)
        return out

    def noun(self, ident: str, form: str) -> str:
        """A glossary word (`names/<ident>/<form>`: one, many, a, the, your); the spec's own
        name when the glossary lacks it, so a new state or word still reads."""
        key = f"names/{ident}/{form}"
        return self.words.text(key) if self.words.has(key) else escape(ident.replace("_", " "))

    def kind_noun(self, kind: str, form: str) -> str:
        """A kind of thing (`lot`, `house`) by the word the edition uses for it (`about.lot`)."""
        return self.noun((self.ruleset.edition.words or {}).get(kind, kind), form)

    def kind_label(self, kind: str) -> str:
        """A kind of square as a table names it (capitalised): the edition's own word for it, if it has one."""
        word = (self.ruleset.edition.words or {}).get(kind)
        return capital(self.noun(word, "one") if word else self.words.text(f"kinds/{kind}"))

    def houses(self, count: int) -> str:
        return self.say("deed/house_1") if count == 1 else self.say("deed/houses", n=count)

    def squares_doing(self, kind: type[Stmt]) -> list[Square]:
        """The squares whose landing does a statement of `kind` (draw a card, go to jail) as its first step."""
        return [square for square in self.ruleset.squares if square.on_land and isinstance(square.on_land[0], kind)]

    def distinct_names(self, squares: list[Square]) -> list[str]:
        return list(dict.fromkeys(self.name(square) for square in squares))

    def say(self, key: str, **extra: object) -> str:
        return self.words.text(key, **(self.values | extra))
