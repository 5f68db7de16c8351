"""What a well-typed edition must still not do, so that every spec `check` passes plays
without a crash: move the token round for ever (E308). Run on the merged edition (for
the places) and its IR (for the values), after lowering.
"""
from __future__ import annotations

from fractions import Fraction

from grammar.bounds import ANYTHING, LIMIT, NATURAL, QUIET, Bounds, Known, Reader, between, hull, point
from grammar.diagnostics import Diagnostic
from grammar.extend import Edition
from grammar.moves import Moves

SHOWN = 6           # a longer round of moves is shown by its ends


def sanity(edition: Edition, ir: dict) -> list[Diagnostic]:
    """Every E308 of an edition that lowered without errors, in source order."""
    found: dict[tuple, Diagnostic] = {}

    def report(diagnostic: Diagnostic) -> None:
        found.setdefault((diagnostic.file, diagnostic.line, diagnostic.column), diagnostic)

    moves = Moves(edition, ir, Reader(_known(edition, ir), QUIET))
    for cycle in moves.cycles():
        shown = [moves.name(node) for node in cycle.nodes] + [moves.name(cycle.nodes[0])]
        if len(shown) > SHOWN:
            shown = shown[:3] + ["..."] + shown[-2:]
        report(Diagnostic.at("E308", f"the moves {' -> '.join(shown)} never end: no throw of the dice comes between",
                             cycle.at.span, "a move on landing must not lead back to where it started: remove one, "
                             "put it under `if`, or send the token to a square that leaves it there"))
    own = edition.header.span.source.name
    return sorted(found.values(), key=lambda d: (d.file != own, d.file or "", d.line or 0, d.column or 0))


# ---- what the IR says of the names' values ------------------------------------------------------

def _known(edition: Edition, ir: dict) -> Known:
    settings, lists = {}, {}
    for section, keys in ir["settings"].items():
        for key, value in keys.items():
            if isinstance(value, bool):
                continue
            if isinstance(value, int):      # one past the limit is E310 already: unknown here
                settings[f"{section}.{key}"] = point(value) if abs(value) <= LIMIT else ANYTHING
            elif isinstance(value, dict) and "num" in value:
                settings[f"{section}.{key}"] = point(Fraction(value["num"], value["den"]))
            elif isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
                lists[f"{section}.{key}"] = hull(value)
    game = ir["settings"].get("game", {})
    dice, faces = game.get("dice"), game.get("die_faces")
    thrown = between(dice, dice * faces) if isinstance(dice, int) and isinstance(faces, int) and dice > 0 < faces \
        else ANYTHING
    deeds = [square["deed"] for square in ir["squares"] if square["deed"] is not None]

    def printed(key: str) -> Bounds:
        return hull([deed.get(key, 0) for deed in deeds] + [0])

    names = {"dice": thrown, "roll": thrown, "board_size": point(len(ir["squares"])), "turn": Bounds(Fraction(1)),
             **dict.fromkeys(("rounds", "houses_in_bank", "hotels_in_bank", "level", "owned", "mortgaged_in_group"),
                             NATURAL)}
    attributes = {"position": between(0, max(len(ir["squares"]) - 1, 0)),
                  "number": hull([square.get("number", 0) for square in ir["squares"]] + [0]),
                  **{key: printed(key) for key in ("price", "mortgage", "house_cost", "hotel_cost")},
                  **dict.fromkeys(("jail_turns", "cards", "size", "houses", "hotels", "level", "even_level"), NATURAL)}
    rents = hull([rent for deed in deeds for rent in deed.get("rent", [])])
    return Known(settings, lists, names, attributes, rents, edition.formulas)
