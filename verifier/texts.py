"""Printed texts against the rules they print. The game's parts state facts of their own: a
card or a square names the money it moves and says who pays (`Betala 4 000 kr`), and the
rule book lists what is in the box (`32 hus`). Each is a statement independent of the rules
that carry it out, so a disagreement is a mistake in one of the two:

- a card's or square's text whose amounts, direction, negation or parties its effect does
  not carry out (read by grammar/printed.py, which `check` warns of too: W103);
- a count of the box's contents (`box`) that is not the rules' (the bank's houses and
  hotels, the deeds on the board, `game.tokens`, `game.dice`, each deck's cards);
- a lot's title deed, which prints one rent per level (unbuilt, 1 to `building.max_houses`
  houses, a hotel), with another number of rows, or a rent rule that does not charge the
  row of the lot's level (unbuilt in a group not held whole; built, in a group held whole
  with nothing mortgaged, as building needs).

    disagreements(ir) -> ["card 6 of `chance`: ...", ...]
"""
from __future__ import annotations

import interpreter
from grammar import printed
from grammar.facts import printed_count
from interpreter.translate import Ctx


def disagreements(ir: dict) -> list[str]:
    """Every printed statement of the edition that its rules contradict, one line each."""
    return [str(found) for found in printed.disagreements(ir)] + _box(ir) + _deeds(ir)


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
            printed = printed_count(box[key])
            if printed != count:
                out.append(f"box{source}: {_quoted(box[key])} is {printed}, the rules' {what} {count}")
    decks = ir.get("decks", [])
    if "cards" in box:
        if len(box["cards"]) != len(decks):
            out.append(f"box{source}: {len(box['cards'])} lines of cards, the rules have {len(decks)} decks")
        for line, deck in zip(box["cards"], decks, strict=False):   # a count that differs is reported above
            if printed_count([line]) != len(deck.get("cards", [])):
                out.append(f"box{source}: {_quoted([line])} is {printed_count([line])}, "
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


def _quoted(lines: list[str]) -> str:
    return " + ".join(f'"{line}"' for line in lines)
