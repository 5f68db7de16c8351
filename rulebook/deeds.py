"""The title-deeds page: every deed drawn as a card, the way the printed deeds look."""
from __future__ import annotations

from html import escape as html

from rulebook.booklet import Booklet


def rows(book: Booklet, sq: dict) -> list[tuple[str, str]]:
    """The lines of the card: (what, amount)."""
    deed, words = sq["deed"], book.words
    if sq["kind"] == "lot":
        levels = book.settings["building"]["max_houses"]
        labels = [words.text("deed/rent")] + [book.houses(n) for n in range(1, levels + 1)] + [words.text("deed/hotel")]
        lines = [(label, book.money(r)) for label, r in zip(labels, deed["rent"])]
        if book.has("houses"):
            lines += [(words.text("deed/house_cost"), words.text("deed/each", amount=book.money(deed["house_cost"]))),
                      (words.text("deed/hotel_cost"), words.text("deed/hotel_plus", amount=book.money(deed["hotel_cost"]),
                                                                 n=book.settings["building"]["houses_per_hotel"]))]
    else:
        lines = [(words.text("deed/owned", n=n + 1), book.money(r) if sq["kind"] == "station" else words.text("times", n=r))
                 for n, r in enumerate(deed["rent"])]
    return lines + ([(words.text("deed/mortgage"), book.money(deed["mortgage"]))] if "mortgage" in deed else [])


def price(book: Booklet, deed: dict) -> str:
    """The printed price; none in a game that auctions every deed (`auction.only`)."""
    if "price" not in deed:
        return ""
    return f'<p class="deed-price">{html(book.words.text("deed/price", amount=book.money(deed["price"])))}</p>'


def card(book: Booklet, sq: dict) -> str:
    deed = sq["deed"]
    color = book.group(deed["group"]).get("color") if sq["kind"] == "lot" else None
    band = f' style="background:{html(color)}"' if color else ""
    name = html(sq.get("name") or sq["key"])
    table = "".join(f"<tr><td>{html(what)}</td><td>{html(amount)}</td></tr>" for what, amount in rows(book, sq))
    return (f'<div class="deed deed-{sq["kind"]}" id="deed-{html(sq["key"])}">'
            f'<div class="deed-band"{band}><small>{html(book.words.text("deed/title"))}</small><strong>{name}</strong></div>'
            f'{price(book, deed)}'
            f"<table>{table}</table></div>")


def deeds_page(book: Booklet) -> str:
    cards = "".join(card(book, sq) for sq in book.deeds())
    return f"# {book.say('pages/deeds_title')}\n\n<div class=\"deeds\">{cards}</div>\n"
