"""The title-deeds page: every deed drawn as a card, the way the printed deeds look."""
from __future__ import annotations

from html import escape as html

from rulebook.booklet import Booklet


def rows(book: Booklet, square: dict) -> list[tuple[str, str]]:
    """The lines of the card: (what, amount)."""
    deed, words = square["deed"], book.words
    if square["kind"] == "lot":
        levels = book.settings["building"]["max_houses"]
        labels = [words.text("deed/rent")] + [book.houses(n) for n in range(1, levels + 1)] + [words.text("deed/hotel")]
        # a lot of an edition without building has its unbuilt rent only: no labels left over
        lines = [(label, book.money(rent)) for label, rent in zip(labels, deed["rent"], strict=False)]
        if book.has("houses"):
            lines += [(words.text("deed/house_cost"), words.text("deed/each", amount=book.money(deed["house_cost"]))),
                      (words.text("deed/hotel_cost"),
                       words.text("deed/hotel_plus", amount=book.money(deed["hotel_cost"]),
                                  n=book.settings["building"]["houses_per_hotel"]))]
    else:
        lines = [(words.text("deed/owned", n=n + 1),
                  book.money(rent) if square["kind"] == "station" else words.text("times", n=rent))
                 for n, rent in enumerate(deed["rent"])]
    return lines + ([(words.text("deed/mortgage"), book.money(deed["mortgage"]))] if "mortgage" in deed else [])


def price(book: Booklet, deed: dict) -> str:
    """The printed price; none in a game that auctions every deed (`auction.only`)."""
    if "price" not in deed:
        return ""
    return f'<p class="deed-price">{html(book.words.text("deed/price", amount=book.money(deed["price"])))}</p>'


def card(book: Booklet, square: dict) -> str:
    deed = square["deed"]
    color = book.group(deed["group"]).get("color") if square["kind"] == "lot" else None
    band = f' style="background:{html(color)}"' if color else ""
    name = html(square.get("name") or square["key"])
    table = "".join(f"<tr><td>{html(what)}</td><td>{html(amount)}</td></tr>" for what, amount in rows(book, square))
    return (f'<div class="deed deed-{square["kind"]}" id="deed-{html(square["key"])}">'
            f'<div class="deed-band"{band}><small>{html(book.words.text("deed/title"))}</small>'
            f'<strong>{name}</strong></div>'
            f'{price(book, deed)}'
            f"<table>{table}</table></div>")


def deeds_page(book: Booklet) -> str:
    cards = "".join(card(book, square) for square in book.deeds())
    return f"# {book.say('pages/deeds_title')}\n\n<div class=\"deeds\">{cards}</div>\n"
