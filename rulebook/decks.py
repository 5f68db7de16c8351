"""The cards page: both decks with every card's text, as the spec prints it."""
from __future__ import annotations

from rulebook.booklet import Booklet, escape


def decks_page(book: Booklet) -> str:
    out = [f"# {book.say('pages/cards_title')}\n", book.say("cards/intro") + "\n"]
    for deck in book.ruleset.decks:
        out.append(f"## {book.name(deck)} {{#deck-{deck.key}}}\n")
        out.append(book.say("cards/count", n=len(deck.cards)) + "\n")
        out += [f"{n}. {escape(card.text)}" for n, card in enumerate(deck.cards, 1)]
        out.append("")
    return "\n".join(out)
