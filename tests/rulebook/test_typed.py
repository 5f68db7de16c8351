"""The rulebook reads the typed IR (ir/, issue 23): it puts nodes in words by their class,
and rewrites expressions (a formula's body with its arguments) as new immutable nodes."""
from __future__ import annotations

import dataclasses
from typing import get_args

import pytest

import grammar
import ir
import spec
from ir.nodes import AdvanceToNearest, Bank, Binary, Call, Expr, Int, Keep, Stmt, Transfer, Var
from ir.ruleset import Formula
from rulebook.booklet import Booklet
from rulebook.conditions import PHRASES, bind, expand
from rulebook.phrases import phrases
from rulebook.statements import STATEMENTS, describe


@pytest.fixture(scope="module")
def classic_us() -> Booklet:
    return Booklet(ir.load(grammar.compile_file(spec.bundled()["classic-us"])), phrases("en"))


def test_every_kind_of_node_has_its_phrase():
    """A new expression or statement class fails here until the booklet can say it. Only the
    card-only statements (`advance_to_nearest`, `keep`) have none: card texts are printed as written."""
    assert set(PHRASES) == set(get_args(Expr))
    assert set(STATEMENTS) == set(get_args(Stmt)) - {AdvanceToNearest, Keep}


def test_a_statement_is_said_from_its_nodes(classic_us):
    """Luxury tax (classic-us): the player pays the bank, the amount written the edition's way."""
    pay = Transfer(amount=Int(75), payer=Var("me"), payee=Bank())
    assert describe(classic_us, (pay,)) == classic_us.words.text("effects/pay", amount=classic_us.money(75))
    unsupported = classic_us.words.text("effects/unsupported")
    assert describe(classic_us, (Keep(),)) == unsupported


def test_a_formula_call_is_read_through_with_its_arguments_bound(classic_us):
    """`twice(3)` of a formula `twice(n) = n * 2` the glossary does not name reads as `3 * 2`;
    the nodes are rebuilt, the formula's own body is left as it was."""
    body = Binary("*", Var("n"), Int(2))
    ruleset = dataclasses.replace(classic_us.ruleset,
                                  formulas={**classic_us.ruleset.formulas, "twice": Formula(("n",), body)})
    book = Booklet(ruleset, classic_us.words)
    assert expand(book, Binary("+", Call("twice", (Int(3),)), Int(1))) == \
        Binary("+", Binary("*", Int(3), Int(2)), Int(1))
    assert body == Binary("*", Var("n"), Int(2))
    assert bind(body, {"m": Int(5)}) == body


def test_a_die_of_the_throw_is_said_in_words():
    """issue 24's Bus face (a roll hook reading each die): the booklet says the hook with the
    die by its number, in the edition's language, never the spec's `die(2)`."""
    from rulebook.mechanics import hook_text
    from tests.interpreter.test_throw import BUS
    book = Booklet(ir.load(grammar.compile_text(BUS, "bus.rules")), phrases("en"))
    text = hook_text(book, book.ruleset.hooks[-1])
    assert "the number die 1 shows is 1" in text and "die(" not in text, text


def test_the_square_a_player_stands_on_is_said_in_words():
    """issue 24's square of a position: `me.square.owner` reads as the owner of your square."""
    from rulebook.conditions import condition
    from tests.interpreter.test_square_of_position import TIP
    book = Booklet(ir.load(grammar.compile_text(TIP, "tip.rules")), phrases("en"))
    text = condition(book, book.ruleset.actions[-1].allowed, {"p": "the other player"})
    assert text.startswith("the owner of your square is the other player"), text


def test_a_removed_deck_is_left_out_and_the_comparison_says_so(classic_us):
    """issue 24: Matador removes the Community Chest (`remove deck chest`): the box and the
    set-up name the Chance cards only (never "0 Community Chest cards"), and the page that
    compares it with its parent says the deck is removed."""
    from rulebook.compare import compare_page
    from tests.grammar.test_remove import NO_CHEST
    book = Booklet(ir.load(grammar.compile_text(NO_CHEST, "no-chest.rules")), phrases("en"),
                   parent=classic_us.ruleset)
    assert book.values["deck_contents"] == "16 Chance cards", book.values["deck_contents"]
    assert "Community Chest" not in book.values["decks"]
    assert "| Community Chest | 16 cards | none | removed |" in compare_page(book)


@pytest.mark.parametrize("lang", ["en", "sv", "nl", "da"])
def test_every_word_about_may_give_is_in_the_glossary(lang):
    """issue 24: `about { station = rederi }` is refused (E210) unless the glossary knows the
    word, so every word the compiler accepts there must be one the booklet can say, in each
    form the pages use."""
    from grammar.language import GLOSSARY_WORDS
    words = phrases(lang)
    missing = [f"names/{word}/{form}" for word in GLOSSARY_WORDS for form in ("one", "many", "a", "the", "your")
               if not words.has(f"names/{word}/{form}")]
    assert missing == []
