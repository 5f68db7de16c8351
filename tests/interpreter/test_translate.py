"""The engine's compiler of rules (interpreter/translate.py) gives an expression the value the
language defines (docs/language.md), whichever way it computes it: an aggregate over a
deed's group read from the counts the engine keeps, an aggregate over the edition's constant
tables worked out once when the edition is loaded."""
from __future__ import annotations

import random

import interpreter
from interpreter import strategies
from interpreter.engine import Game
from interpreter.translate import Compiler, Ctx

from .conftest import edition

# The classic guards (spec/classic.rules, `building.may` and `mortgage.may`), each read from a
# count (`Compiler.group_count`), and the same condition written so that it is not (`me ==
# d.owner` is not the shape the compiler reads from a count): a walk of the group's deeds.
COUNTED = {"all_held": "all(d in here.group.deeds: d.owner == me)",
           "any_mortgaged": "any(d in here.group.deeds: d.mortgaged)",
           "none_built": "all(d in here.group.deeds: d.level == 0)"}
WALKED = {"all_held": "all(d in here.group.deeds: me == d.owner)",
          "any_mortgaged": "any(d in here.group.deeds: d.mortgaged == yes)",
          "none_built": "all(d in here.group.deeds: 0 == d.level)"}


def compiled(tmp_path, parent: str, text: str) -> tuple[str, object]:
    """`text`, a condition over `me` and `here` (a `holder` setting's names), as the engine
    compiles it in a child of `parent`: its Python source and its function."""
    import grammar
    path = tmp_path / "child.rules"
    path.write_text(f"edition child extends {parent}\nbuilding {{ may = {text} }}\n", encoding="utf-8")
    ir = grammar.compile_file(path)
    compiler = Compiler(interpreter.load(ir))
    node = ir["settings"]["building"]["may"]
    return compiler.text(node, {}), compiler.fn(node, {})


def test_a_group_aggregate_read_from_the_counts_has_the_walks_value(tmp_path):
    """§1 (SE 001 "Hus", "Inteckningar"): the guards of building and mortgaging ask of every
    deed of a group; read from the engine's counts, each gives what walking the deeds gives,
    in every position of games played to the end (deeds bought, traded, mortgaged, built on)."""
    ed = edition("classic-se")
    counted = {name: compiled(tmp_path, "classic-se", text) for name, text in COUNTED.items()}
    walked = {name: compiled(tmp_path, "classic-se", text) for name, text in WALKED.items()}
    assert all("group_" in source for source, _ in counted.values())
    assert not any("group_" in source for source, _ in walked.values())
    checked = 0

    def check(game, event):
        nonlocal checked
        c = Ctx()
        for me in game.seats:
            for here in random.Random(checked).sample(ed.deeds, 4):
                c.me, c.here = me, here
                for name in COUNTED:
                    assert counted[name][1](game, c) == walked[name][1](game, c), (name, me, here, event)
        checked += 1

    for seed in range(3):
        players = ["heuristic"] * 3
        Game(ed, [strategies.make(name, seed, seat) for seat, name in enumerate(players)], players, seed,
             checker=check).play_out()
    assert checked > 1000


def test_an_aggregate_over_the_tables_is_worked_out_once(tmp_path):
    """Wonders of the World (SE 000 p. 10: 22 wonders): `count(s in squares: s.kind == lot)`
    reads only the board, so it is a number when the edition is loaded; an aggregate that
    reads the game (a player's cash) is not."""
    source, holds = compiled(tmp_path, "wonders-se", "count(s in squares: s.kind == lot) == 22")
    assert "_count" not in source and holds(None, Ctx()) is True
    source, _ = compiled(tmp_path, "wonders-se", "count(p in players: p.cash > 0) > 0")
    assert "_count" in source
