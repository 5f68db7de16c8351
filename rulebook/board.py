"""The board page: the squares drawn as an SVG from the IR, and the same squares as a table.

The board is square, a quarter of the squares on each side counting one corner, the
way every classic board is printed; squares run clockwise from the start in the
bottom-right corner, each side turned so its colour band faces the middle.
"""
from __future__ import annotations

from html import escape as html
from typing import Callable

from ir.ruleset import Square
from rulebook.booklet import Booklet, deed_of, escape, printed

# Layout, in SVG units: sizes of the drawing, not amounts of any edition.
SIZE = 1000
CORNER = 130
BAND = 26
QUARTER_TURN = 90
NAME_TOP = 18
NAME_FONT = 13
LINE = 11                      # letters on a line of a square's name
PRICE_BOTTOM = 10
PRICE_FONT = 10
TITLE_TILT = -45
SVG_NS = "http://www.w3.org/2000/svg"


def place(index: int, count: int) -> tuple[float, float, int, float]:
    """Centre, rotation and width of square `index` of `count` (index 0 is the bottom-right corner)."""
    side, step = divmod(index, count // 4)
    cell = (SIZE - 2 * CORNER) / (count // 4 - 1)
    if step == 0:
        corners = [(SIZE - CORNER / 2, SIZE - CORNER / 2), (CORNER / 2, SIZE - CORNER / 2),
                   (CORNER / 2, CORNER / 2), (SIZE - CORNER / 2, CORNER / 2)]
        return (*corners[side], 0, CORNER)
    along = CORNER + (step - 0.5) * cell
    centres = [(SIZE - along, SIZE - CORNER / 2), (CORNER / 2, SIZE - along),
               (along, CORNER / 2), (SIZE - CORNER / 2, along)]
    return (*centres[side], QUARTER_TURN * side, cell)


def lines(name: str, width: float) -> tuple[list[str], float]:
    """The name broken into lines that fit `width`, and the font size that makes them fit."""
    words: list[str] = []
    rows: list[str] = []
    for word in name.split():
        while len(word) > LINE + 1:   # a long street name is hyphenated, as printed boards do
            words.append(word[:LINE] + "-")
            word = word[LINE:]
        words.append(word)
    for word in words:
        if rows and len(rows[-1]) + 1 + len(word) <= LINE:
            rows[-1] += " " + word
        else:
            rows.append(word)
    longest = max((len(row) for row in rows), default=1)
    return rows, min(NAME_FONT, (width - 6) / (0.58 * longest))


def square_svg(book: Booklet, square: Square) -> str:
    x, y, turn, width = place(square.index, len(book.ruleset.squares))
    name = square.name or square.key
    height = CORNER
    top = -height / 2
    parts = [f'<rect x="{-width / 2:.1f}" y="{top:.1f}" width="{width:.1f}" height="{height:.1f}" class="cell"/>']
    deed = square.deed
    if deed and square.kind == "lot":
        color = book.group(deed.group).color or "#ccc"
        parts.append(f'<rect x="{-width / 2:.1f}" y="{top:.1f}" width="{width:.1f}" height="{BAND}" '
                     f'fill="{html(color)}" class="band"/>')
        top += BAND
    rows, size = lines(name, width)
    for n, row in enumerate(rows):
        parts.append(f'<text x="0" y="{top + NAME_TOP + n * size * 1.15:.1f}" font-size="{size:.1f}" '
                     f'class="name">{html(row)}</text>')
    if deed and deed.price is not None:
        parts.append(f'<text x="0" y="{height / 2 - PRICE_BOTTOM:.1f}" font-size="{PRICE_FONT}" '
                     f'class="price">{html(book.money(deed.price))}</text>')
    elif square.number is not None:   # the number printed on the square, which a square's rules may read
        parts.append(f'<text x="0" y="{height / 2 - PRICE_BOTTOM:.1f}" font-size="{PRICE_FONT}" '
                     f'class="number">{square.number}</text>')
    body = "".join(parts)
    return (f'<g class="square" id="board-{html(square.key)}" data-index="{square.index}" '
            f'data-name="{html(name)}" '
            f'transform="translate({x:.1f} {y:.1f}) rotate({turn})">'
            f'<title>{square.index}: {html(name)}</title>{body}</g>')


def board_svg(book: Booklet) -> str:
    """The whole board; one line, so Markdown passes it through as raw HTML."""
    title = html(book.ruleset.edition.title or book.ruleset.edition.key)
    squares = "".join(square_svg(book, square) for square in book.ruleset.squares)
    return (f'<svg id="board" class="board" viewBox="0 0 {SIZE} {SIZE}" xmlns="{SVG_NS}" role="img" '
            f'aria-label="{html(book.words.text("board/caption", edition=title))}">'
            f'<rect x="0" y="0" width="{SIZE}" height="{SIZE}" class="felt"/>{squares}'
            f'<text x="{SIZE / 2}" y="{SIZE / 2}" class="title" '
            f'transform="rotate({TITLE_TILT} {SIZE / 2} {SIZE / 2})">{title}</text></svg>')


def board_page(book: Booklet) -> str:
    """The board drawn, then a table of its squares: a price column when deeds have prices, a
    number column when squares have printed numbers, a text column when they have printed words."""
    words, squares = book.words, book.ruleset.squares
    columns: dict[str, Callable[[Square], str]] = {
        "index": lambda square: str(square.index), "square": book.name,
        "kind": lambda square: book.kind_label(square.kind),
        "group": lambda square: book.name(book.group(square.deed.group)) if square.deed else ""}
    if book.has("prices"):
        columns["price"] = lambda square: book.money(printed(deed_of(square).price)) if square.deed else ""
    if any(square.number is not None for square in squares):
        columns["number"] = lambda square: "" if square.number is None else str(square.number)
    if any(square.text is not None for square in squares):    # the words printed on the square
        columns["text"] = lambda square: escape(square.text or "")
    rows = ["| " + " | ".join(words.text(f"table/{column}") for column in columns) + " |", "|" + "---|" * len(columns)]
    rows += ["| " + " | ".join(cell(square) for cell in columns.values()) + " |" for square in squares]
    return "\n".join([
        f"# {book.say('pages/board_title')}\n",
        book.say("board/intro", n=len(squares)) + "\n",
        f'<div class="board-frame">{board_svg(book)}</div>\n',
        "\n".join(rows) + "\n",
    ])
