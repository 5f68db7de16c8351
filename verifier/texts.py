"""Printed texts against the rules they print. The game's parts state facts of their own: a
card or a square names the money it moves and says who pays (`Betala 4 000 kr`), and the
rule book lists what is in the box (`32 hus`). Each is a statement independent of the rules
that carry it out, so a disagreement is a mistake in one of the two:

- an amount a card's or square's transfers move that its text does not name, or one the
  text names that the effect does not move (the salary aside, on a card or square whose
  effect moves the token: it may pass the start);
- an amount the text puts after a word of paying (the edition's `wording.pay`) that the
  effect moves to the player, or after a word of being paid (`wording.collect`) that the
  effect takes from the player (the nearest such word before the amount governs it, or
  the first after it where none comes before);
- a count of the box's contents (`box`) that is not the rules' (the bank's houses and
  hotels, the deeds on the board, `game.tokens`, `game.dice`, each deck's cards);
- a lot's title deed, which prints one rent per level (unbuilt, 1 to `building.max_houses`
  houses, a hotel), with another number of rows, or a rent rule that does not charge the
  row of the lot's level (unbuilt in a group not held whole; built, in a group held whole
  with nothing mortgaged, as building needs).

Amounts are read in the edition's own `money.format` and `money.thousands`; the only words
read are the edition's own `wording`.

    disagreements(ir) -> ["card 6 of `chance`: ...", ...]
"""
from __future__ import annotations

import re
from typing import Iterator

import interpreter
from interpreter.translate import Ctx

ME = {"expr": "var", "name": "me"}
# The statements that move the player's token (a card or square naming the salary may be one).
MOVES = ("move_to", "move_by", "advance_to_nearest", "go_to_jail", "jump_to", "place_at")


def disagreements(ir: dict) -> list[str]:
    """Every printed statement of the edition that its rules contradict, one line each."""
    settings = ir["settings"]
    written = _amount_pattern(settings["money"])
    words = _word_patterns(ir.get("wording") or {})
    printed = [(f"square `{square['key']}`", square["text"],
                (square.get("on_land") or []) + (square.get("on_pass") or []))
               for square in ir["squares"] if square.get("text")]
    printed += [(f"card {i} of `{deck['key']}`", card.get("text", ""), card.get("effect") or [])
                for deck in ir.get("decks", []) for i, card in enumerate(deck.get("cards", []))]
    out = []
    for where, text, effect in printed:
        amounts = [(m.start(), int(re.sub(r"\D", "", m.group(1)))) for m in written.finditer(text)]
        transfers = [(statement, _ints(statement["amount"], [], settings))
                     for statement in _statements(effect) if statement.get("stmt") == "transfer"]
        named = {n for _, n in amounts}
        moved = {n for _, ns in transfers for n in ns}
        moves = any(statement.get("stmt") in MOVES for statement in _statements(effect))
        salary = {settings["money"].get("salary")} if moves else set()
        out += [f"{where}: the effect moves {n}, the text does not name it" for n in sorted(moved - named)]
        out += [f"{where}: the text names {n}, the effect does not move it" for n in sorted(named - moved - salary)]
        heard = sorted((m.end(), direction, m.group(0)) for direction, pattern in words for m in pattern.finditer(text))
        for statement, ns in transfers:
            way = "pay" if statement["payer"] == ME else "collect" if statement["payee"] == ME else None
            for n in dict.fromkeys(ns):
                said = {near for at, m in amounts if m == n if (near := _governing(heard, at)) is not None}
                if way is not None and said and way not in {direction for direction, _ in said}:
                    word = next(w for _, w in sorted(said))
                    effect_does = "pays it to the player" if way == "collect" else "takes it from the player"
                    out.append(f"{where}: the text says `{word}` {n}, the effect {effect_does}")
    return out + _box(ir) + _deeds(ir)


def _governing(heard: list, at: int) -> tuple[str, str] | None:
    """The nearest word of paying or being paid that ends before position `at`; where none
    does, the first after it (classic-nl's "€ 20 boete")."""
    before = [(direction, word) for end, direction, word in heard if end <= at]
    after = [(direction, word) for end, direction, word in heard if end > at]
    return before[-1] if before else after[0] if after else None


def _box(ir: dict) -> list[str]:
    """The box's printed counts against the rules' (each line's first number, summed per count)."""
    box = ir.get("box") or {}
    settings = ir["settings"]
    counts = {"houses": ("`bank.houses`", settings.get("bank", {}).get("houses")),
              "hotels": ("`bank.hotels`", settings.get("bank", {}).get("hotels")),
              "deeds": ("deeds on the board", sum(1 for square in ir["squares"] if square.get("deed") is not None)),
              "tokens": ("`game.tokens`", settings["game"].get("tokens")),
              "dice": ("`game.dice`", settings["game"].get("dice"))}
    source = f" ({box['source']})" if box.get("source") else ""
    out = []
    for key, (what, count) in counts.items():
        if key in box:
            printed = _printed_count(box[key])
            if printed != count:
                out.append(f"box{source}: {_quoted(box[key])} is {printed}, the rules' {what} {count}")
    decks = ir.get("decks", [])
    if "cards" in box:
        if len(box["cards"]) != len(decks):
            out.append(f"box{source}: {len(box['cards'])} lines of cards, the rules have {len(decks)} decks")
        for line, deck in zip(box["cards"], decks, strict=False):   # a count that differs is reported above
            if _printed_count([line]) != len(deck.get("cards", [])):
                out.append(f"box{source}: {_quoted([line])} is {_printed_count([line])}, "
                           f"the rules' deck `{deck['key']}` {len(deck.get('cards', []))}")
    return out


def _deeds(ir: dict) -> list[str]:
    """Each lot's printed rent rows against the number of levels and the rent rule, read by the
    interpreter's own rent formula on a game just set up (the level and the group's state in
    the rent context, as `rent` binds them)."""
    most = ir["settings"].get("building", {}).get("max_houses")
    lots = [square for square in ir["squares"]
            if square.get("kind") == "lot" and "rent" in (square.get("deed") or {})]
    if not most or not lots:
        return []        # a game without houses: a lot's numbers are not rows of levels
    edition = interpreter.load(ir)
    game = interpreter.new_game(edition, ["random"] * ir["settings"]["game"]["players"]["min"], 0, log=False)
    out = []
    for square in lots:
        rows, i = square["deed"]["rent"], square["index"]
        if len(rows) != most + 2:
            out.append(f"deed `{square['key']}`: prints {len(rows)} rents, a lot has {most + 2} levels "
                       f"(unbuilt, 1 to {most} houses, a hotel)")
            continue
        for level, row in enumerate(rows):
            ctx = Ctx(0)
            ctx.owner, ctx.printed, ctx.level, ctx.here, ctx.mortgaged_in_group = 0, edition.printed[i], level, i, 0
            ctx.complete = level > 0
            ctx.owned = edition.group_size[edition.group_of[i]] if ctx.complete else 1
            charged = edition.rent_fn[i](game, ctx)
            if charged != row:
                out.append(f"deed `{square['key']}`: the rent rule charges {charged} at level {level}, "
                           f"the deed prints {row}")
    return out


def _printed_count(lines: list[str]) -> int | None:
    found = [re.search(r"\d+", line) for line in lines]
    numbers = [int(m.group(0)) for m in found if m is not None]
    return sum(numbers) if len(numbers) == len(found) else None


def _quoted(lines: list[str]) -> str:
    return " + ".join(f'"{line}"' for line in lines)


def _amount_pattern(money: dict) -> re.Pattern:
    """An amount written in the edition's money format, e.g. `2 000 kr` or `€ 1.500`."""
    sep = re.escape(money.get("thousands", ","))
    number = rf"\d{{1,3}}(?:{sep}\d{{3}})+|\d+"
    before, _, after = money["format"].partition("{amount}")
    return re.compile(re.escape(before) + rf"(?<![\d.,])({number})(?!\d)" + re.escape(after))


def _word_patterns(wording: dict) -> list[tuple[str, re.Pattern]]:
    """Each word of paying or being paid as a whole-word, any-case pattern (`betalar dig`)."""
    return [(direction, re.compile(r"(?<!\w)" + r"\s+".join(map(re.escape, word.split())) + r"(?!\w)", re.IGNORECASE))
            for direction in ("pay", "collect") for word in wording.get(direction, [])]


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
