"""Taking away a parent's deck or square effect: `remove deck ID`, `remove on_land of
SQUARE`, `remove on_pass of SQUARE` (docs/language.md, "Extending an edition").

Issue 24's scenario: Matador, written as a child of the classic game, has no Community
Chest (its chest squares are Chance squares), and its booklet said "0 chest-kort".
"""
from __future__ import annotations

from pathlib import Path

import pytest

import grammar
import interpreter
from grammar import SpecError

NO_CHEST = """edition no-chest extends classic-us

# Matador has no Community Chest: its three chest squares draw Chance
remove deck chest
board {
  square chest_1 "Chance" { on_land { draw chance } }
  square chest_2 "Chance" { on_land { draw chance } }
  square chest_3 "Chance" { on_land { draw chance } }
}
"""


def compiled(text: str, variants: tuple[Path, ...] = ()) -> dict:
    return grammar.compile_text(text, "x.rules", variants)


def refused(text: str, variants: tuple[Path, ...] = ()) -> SpecError:
    with pytest.raises(SpecError) as caught:
        compiled(text, variants)
    return caught.value


def test_a_child_without_the_parents_deck():
    """The deck is gone from the IR; the parent's examples that stack its cards are not
    inherited (they show those cards); the game plays with Chance on the chest squares."""
    ir = compiled(NO_CHEST)
    assert [deck["key"] for deck in ir["decks"]] == ["chance"]
    assert not any(step.get("deck") == "chest" for x in ir["examples"] for step in x["steps"])
    assert {"chest_squares", "card_get_out_of_jail"} & {x["name"] for x in ir["examples"]} == set()
    draws = {square["key"]: square["on_land"] for square in ir["squares"] if square["key"].startswith("chest")}
    assert all(land == [{"stmt": "draw", "deck": "chance"}] for land in draws.values()), draws
    result = interpreter.play(interpreter.load(ir), ["heuristic"] * 4, seed=3)
    assert result.summary()["turns"] > 0


def test_a_square_effect_taken_away():
    """`remove on_pass of go`: no salary on passing GO, the rest of the square kept."""
    ir = compiled("edition x extends classic-us\nremove on_pass of go\n")
    go = next(square for square in ir["squares"] if square["key"] == "go")
    assert not go["on_pass"] and go["name"] == "Go"
    land = compiled("edition x extends classic-us\nremove on_land of income_tax\n")
    tax = next(square for square in land["squares"] if square["key"] == "income_tax")
    assert not tax["on_land"]


def test_a_removed_deck_still_drawn_is_told_at_the_draw():
    """A square the child leaves drawing the removed deck: E205 at the draw, the hint
    naming the `remove` that took it away."""
    error = refused("edition x extends classic-us\nremove deck chest\n")
    first = error.diagnostics[0]
    assert first.code == "E205" and "is removed" in first.message
    assert "`remove deck chest` at x.rules:2" in (first.hint or "")


@pytest.mark.parametrize(("text", "code", "words"), [
    ("remove deck chst\n", "E201", "did you mean `chest`?"),
    ("remove on_pass of income_tax\n", "E201", "has no `on_pass`"),
    ("remove on_land of go_to_jial\n", "E201", "did you mean `go_to_jail`?"),
    ("remove deck chest\ndeck chest { }\n", "E211", "duplicate deck `chest`"),
    ("board { square go { on_pass { collect 1 from bank } } }\nremove on_pass of go\n", "E211",
     "gives `on_pass` and removes it"),
])
def test_a_removal_of_what_is_not_there_is_refused(text, code, words):
    error = refused("edition x extends classic-us\n" + text)
    first = error.diagnostics[0]
    assert first.code == code and words in first.render(), first.render()


def test_a_root_edition_has_nothing_to_remove():
    first = refused("edition x\nremove deck chest\n").diagnostics[0]
    assert first.code == "E201" and "extends nothing" in first.message


def test_a_variant_removes_as_a_child_does(tmp_path):
    """A variant is an overlay like a child: it may take a deck away; two variants that
    both change the deck do not combine (E218)."""
    take = tmp_path / "take.rules"
    take.write_text(NO_CHEST.replace("edition no-chest extends classic-us", "variant take for classic"),
                    encoding="utf-8")
    ir = grammar.compile_file("spec/classic-us.rules", [take])
    assert [deck["key"] for deck in ir["decks"]] == ["chance"]
    other = tmp_path / "other.rules"
    other.write_text('variant other for classic\ndeck chest "Kiste" { }\n', encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        grammar.compile_file("spec/classic-us.rules", [take, other])
    assert caught.value.diagnostics[0].code == "E218"
