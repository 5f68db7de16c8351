"""A card's or square's printed text read against its effect: the money the text names, who
it says pays it and to whom, against the transfers the effect makes. The printed text is a
statement independent of the rules that carry it out, so a disagreement is a mistake in one
of the two:

- an amount the effect's transfers move that the text does not name, or one the text names
  that the effect does not move (the salary aside, on a card or square whose effect moves
  the token: it may pass the start; and an amount the text says is not paid);
- an amount the text puts after a word of paying (the edition's `wording.pay`) that the
  effect moves to the player, or after a word of being paid (`wording.collect`) that the
  effect takes from the player (the nearest such word before the amount governs it, or
  the first after it where none comes before);
- an amount the text says is not paid (a word of `wording.negation` next to the word
  governing it: "do not collect") that the effect moves that way;
- an amount the text says goes to or comes from another party than the effect's: the
  party word nearest the amount in its sentence (`wording.bank`, `wording.players`,
  `wording.owner`, or a pot's name) against the effect's other side (the bank, each player
  of a `for` loop, the deed's owner, the pot).

Amounts are read in the edition's own `money.format` and `money.thousands`; the only words
read are the edition's own `wording`. `check` warns of each (W103, located in the text) and
`verify` lists them with the box's and the deeds' printed facts (verifier/texts.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterator

ME = {"expr": "var", "name": "me"}
# The statements that move the player's token (a card or square naming the salary may be one).
MOVES = ("move_to", "move_by", "advance_to_nearest", "go_to_jail", "jump_to", "place_at")
# The parties a text can name: the `wording` key of each, and how a message says it.
PARTIES = {"bank": "the bank", "players": "each player", "owner": "the owner"}
# A sentence ends at a stop followed by a space or the end: a thousands dot is inside an amount.
# How a spec names each party in a transfer, for a hint.
_PARTY_CODE = {"bank": "`bank`", "players": "each player (`for p in others { ... p }`)", "owner": "`owner`"}
SENTENCE = re.compile(r"[.;!?](?=\s|$)")


@dataclass(frozen=True)
class Disagreement:
    """One printed text the effect contradicts: `place` is `("square", key)` or `("card",
    deck, index)`, `where` says it in words, `start`/`end` are the words at fault in the text."""

    place: tuple[str, ...]
    where: str
    start: int
    end: int
    message: str
    hint: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass(frozen=True, order=True)
class _Word:
    """A word of the wording found in a text: where it ends and starts, what it says."""

    end: int
    start: int
    kind: str          # `pay` or `collect` for a direction, else a party (`bank`, `pot:KEY`, ...)
    text: str
    negated: bool = False


def disagreements(ir: dict) -> list[Disagreement]:
    """Every printed card or square text of the edition that its effect contradicts, in
    board then deck order (an abstract edition, with no money format, has none read)."""
    settings = ir["settings"]
    money = settings.get("money", {})
    if "format" not in money:
        return []
    written = _amount_pattern(money)
    wording = ir.get("wording") or {}
    directions = _words(wording, ("pay", "collect"), _patterns(wording.get("negation", [])))
    pots = {f"pot:{pot['key']}": [pot["name"]] for pot in ir.get("pots", []) if pot.get("name")}
    parties = {**{key: wording.get(key, []) for key in PARTIES}, **pots}
    printed: list[tuple[tuple[str, ...], str, str, list]]
    printed = [(("square", square["key"]), f"square `{square['key']}`", square["text"],
                (square.get("on_land") or []) + (square.get("on_pass") or []))
               for square in ir["squares"] if square.get("text")]
    printed += [(("card", deck["key"], str(i)), f"card {i} of `{deck['key']}`", card.get("text", ""),
                 card.get("effect") or [])
                for deck in ir.get("decks", []) for i, card in enumerate(deck.get("cards", []))]
    out = []
    for place, where, text, effect in printed:
        reading = _Reading(text, written, directions(text), _found(parties, text))
        out += [Disagreement(place, where, start, end, message, hint)
                for start, end, message, hint in reading.against(effect, settings)]
    return out


class _Reading:
    """One printed text: its amounts, its words of paying and being paid, its party words."""

    def __init__(self, text: str, written: re.Pattern, heard: list[_Word], parties: list[_Word]):
        self.text = text
        self.amounts = [(m.start(), m.end(), int(re.sub(r"\D", "", m.group(1)))) for m in written.finditer(text)]
        self.heard = heard
        self.parties = parties

    def against(self, effect: list, settings: dict) -> Iterator[tuple[int, int, str, str]]:
        """The disagreements of the text with `effect`: (start, end, message, hint) each."""
        transfers = [(statement, party, _ints(statement["amount"], [], settings))
                     for statement, party in _transfers(effect, {})]
        denied = {n for at, _, n in self.amounts if (word := self.governing(at)) is not None and word.negated}
        named = {n for _, _, n in self.amounts}
        moved = {n for _, _, ns in transfers for n in ns}
        moves = any(statement.get("stmt") in MOVES for statement in _statements(effect))
        salary = {settings["money"].get("salary")} if moves else set()
        for n in sorted(moved - named):
            yield 0, len(self.text), f"the effect moves {n}, the text does not name it", \
                "name the amount in the text, or move the amount it names"
        for n in sorted(named - moved - salary - denied):
            start, end = next((s, e) for s, e, m in self.amounts if m == n)
            yield start, end, f"the text names {n}, the effect does not move it", \
                "move the amount in the effect, or correct the text"
        for statement, party, ns in transfers:
            payer, payee = statement["payer"] == ME, statement["payee"] == ME      # both: W101's to tell
            way = None if payer and payee else "pay" if payer else "collect" if payee else None
            for n in dict.fromkeys(ns):
                yield from self._direction(way, n)
                yield from self._party(way, party, n)

    def governing(self, at: int) -> _Word | None:
        """The nearest word of paying or being paid that ends before position `at`; where none
        does, the first after it (classic-nl's "boete" after its amount)."""
        before = [word for word in self.heard if word.end <= at]
        after = [word for word in self.heard if word.end > at]
        return before[-1] if before else after[0] if after else None

    def _direction(self, way: str | None, n: int) -> Iterator[tuple[int, int, str, str]]:
        said = sorted({word for at, _, m in self.amounts if m == n if (word := self.governing(at)) is not None},
                      key=lambda word: (word.kind, word.text))
        if way is None or not said:
            return
        if way in {word.kind for word in said if not word.negated}:
            return
        effect_does = "pays it to the player" if way == "collect" else "takes it from the player"
        word = next((word for word in said if word.negated and word.kind == way), None) or said[0]
        hint = ("the text says it is not paid: move no such amount, or correct the text" if word.negated
                else "turn the transfer round (`pay` or `collect`), or correct the text")
        yield word.start, word.end, f"the text says `{word.text}` {n}, the effect {effect_does}", hint

    def _party(self, way: str | None, party: str | None, n: int) -> Iterator[tuple[int, int, str, str]]:
        """The party word nearest each place the text names `n` in its sentence, against the
        effect's other side of the transfer (nothing to read where the text names none)."""
        if way is None or party is None:
            return
        for at, end, m in self.amounts:
            word = self.nearest_party(at, end) if m == n else None
            if word is not None and word.kind != party:
                moves = f"pays {n} to" if way == "pay" else f"takes {n} from"
                named = _PARTY_CODE.get(word.kind, f"`{word.kind[4:]}`")
                yield word.start, word.end, \
                    f"the text says `{word.text}` for {n}, the effect {moves} {_party_name(party)}", \
                    f"{'pay it to' if way == 'pay' else 'collect it from'} {named}, or correct the text"
                return

    def nearest_party(self, start: int, end: int) -> _Word | None:
        """The party word nearest the amount at `start`-`end` within its sentence."""
        begins = max((m.end() for m in SENTENCE.finditer(self.text, 0, start)), default=0)
        stop = SENTENCE.search(self.text, end)
        ends = len(self.text) if stop is None else stop.start()
        near = [(start - word.end if word.end <= start else word.start - end, word.start, word)
                for word in self.parties if begins <= word.start and word.end <= ends]
        return min(near, key=lambda found: found[:2])[2] if near else None


def _party_name(kind: str) -> str:
    return f"the pot `{kind[4:]}`" if kind.startswith("pot:") else PARTIES[kind]


def _transfers(stmts: list, loops: dict[str, str]) -> Iterator[tuple[dict, str | None]]:
    """Every transfer of a block with its other party than `me` (`bank`, `players` for the
    variable of a `for` loop, `owner`, `pot:KEY`; None when it is another variable)."""
    for statement in stmts:
        if statement.get("stmt") == "transfer":
            other = statement["payee"] if statement["payer"] == ME else statement["payer"]
            yield statement, _party_of(other, loops)
        inner = {**loops, statement["var"]: "players"} if statement.get("stmt") == "for" else loops
        for key in ("body", "then", "otherwise"):
            yield from _transfers(statement.get(key) or [], inner)
        for option in statement.get("options") or []:
            yield from _transfers(option.get("body") or [], inner)


def _party_of(node: dict, loops: dict[str, str]) -> str | None:
    if node.get("expr") == "bank":
        return "bank"
    if node.get("expr") == "pot":
        return f"pot:{node['key']}"
    name = node.get("name")
    return "owner" if name == "owner" else loops.get(name) if isinstance(name, str) else None


def _amount_pattern(money: dict) -> re.Pattern:
    """An amount written in the edition's money format, e.g. `2 000 kr` or `€ 1.500`."""
    sep = re.escape(money.get("thousands", ","))
    number = rf"\d{{1,3}}(?:{sep}\d{{3}})+|\d+"
    before, _, after = money["format"].partition("{amount}")
    return re.compile(re.escape(before) + rf"(?<![\d.,])({number})(?!\d)" + re.escape(after))


def _patterns(words: list[str]) -> list[re.Pattern]:
    """Each word as a whole-word, any-case pattern (`betalar dig`: any spaces between)."""
    return [re.compile(r"(?<!\w)" + r"\s+".join(map(re.escape, word.split())) + r"(?!\w)", re.IGNORECASE)
            for word in words]


def _found(kinds: dict[str, list[str]], text: str) -> list[_Word]:
    return sorted(_Word(m.end(), m.start(), kind, m.group(0))
                  for kind, words in kinds.items() for pattern in _patterns(words) for m in pattern.finditer(text))


def _words(wording: dict, directions: tuple[str, ...], negations: list[re.Pattern]) -> Callable[[str], list[_Word]]:
    """A reader of a text's words of paying and being paid, each marked negated when a word
    of `wording.negation` stands right before or after it ("do not collect", "ontvangt geen"):
    the negation is then part of the word."""
    def read(text: str) -> list[_Word]:
        nots = [(m.start(), m.end()) for pattern in negations for m in pattern.finditer(text)]
        out = []
        for word in _found({key: wording.get(key, []) for key in directions}, text):
            negation = next(((s, e) for s, e in nots
                             if text[e:word.start].isspace() or text[word.end:s].isspace()), None)
            if negation is not None:
                start, end = min(negation[0], word.start), max(negation[1], word.end)
                word = _Word(end, start, word.kind, text[start:end], True)
            out.append(word)
        return sorted(out)
    return read


def _statements(stmts: list) -> Iterator[dict]:
    """Every statement of a block, those of nested blocks too."""
    for statement in stmts:
        yield statement
        for key in ("body", "then", "otherwise"):
            yield from _statements(statement.get(key) or [])
        for option in statement.get("options") or []:
            yield from _statements(option.get("body") or [])


def _ints(node: object, acc: list[int], settings: dict) -> list[int]:
    """The whole amounts written in an expression, a setting it reads (`money.salary`) too."""
    if isinstance(node, dict):
        if node.get("expr") == "int":
            acc.append(node["value"])
        if node.get("expr") == "setting":
            section, _, key = node["path"].partition(".")
            value = settings.get(section, {}).get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                acc.append(value)
        for v in node.values():
            _ints(v, acc, settings)
    elif isinstance(node, list):
        for v in node:
            _ints(v, acc, settings)
    return acc
