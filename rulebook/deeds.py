"""The title-deeds page: every deed drawn as a card, the way the printed deeds look."""
from __future__ import annotations

from html import escape as html

from ir.ruleset import Deed, Square
from rulebook.booklet import Booklet, deed_of, printed, printed_rents


def rows(book: Booklet, square: Square) -> list[tuple[str, str]]:
    """The lines of the card: (what, amount)."""
    deed, words = deed_of(square), book.words
    if square.kind == "lot":
        levels = book.settings.building["max_houses"]
        assert isinstance(levels, int)
        labels = [words.text("deed/rent")] + [book.houses(n) for n in range(1, levels + 1)] + [words.text("deed/hotel")]
        # a lot of an edition without building has its unbuilt rent only: no labels left over
        lines = [(label, book.money(rent)) for label, rent in zip(labels, printed_rents(square), strict=False)]
        if book.has("houses"):
            house_cost = book.money(printed(deed.house_cost))
            lines += [(words.text("deed/house_cost"), words.text("deed/each", amount=house_cost)),
                      (words.text("deed/hotel_cost"),
                       words.text("deed/hotel_plus", amount=book.money(printed(deed.hotel_cost)),
                                  n=book.settings.building["houses_per_hotel"]))]
    else:
        lines = [(words.text("deed/owned", n=n + 1),
                  book.money(rent) if square.kind == "station" else words.text("times", n=rent))
                 for n, rent in enumerate(printed_rents(square))]
    return lines + ([(words.text("deed/mortgage"), book.money(deed.mortgage))] if deed.mortgage is not None else [])


def price(book: Booklet, deed: Deed) -> str:
    """The printed price; none in a game that auctions every deed (`auction.only`)."""
    if deed.price is None:
        return ""
    return f'<p class="deed-price">{html(book.words.text("deed/price", amount=book.money(deed.price)))}</p>'


def card(book: Booklet, square: Square) -> str:
    deed = deed_of(square)
    color = book.group(deed.group).color if square.kind == "lot" else None
    band = f' style="background:{html(color)}"' if color else ""
    name = html(square.name or square.key)
    table = "".join(f"<tr><td>{html(what)}</td><td>{html(amount)}</td></tr>" for what, amount in rows(book, square))
    return (f'<div class="deed deed-{square.kind}" id="deed-{html(square.key)}">'
            f'<div class="deed-band"{band}><small>{html(book.words.text("deed/title"))}</small>'
            f'<strong>{name}</strong></div>'
            f'{price(book, deed)}'
            f"<table>{table}</table></div>")


def deeds_page(book: Booklet) -> str:
    cards = "".join(card(book, square) for square in book.deeds())
    return f"# {book.say('pages/deeds_title')}\n\n<div class=\"deeds\">{cards}</div>\n"
